#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# bootstamp-overhead.sh: what the boot-stamp recorder (CONFIG_BOOTSTAMP)
# costs at boot, and what boot-time tracing of the same tracepoints costs
# instead. Boots, in QEMU virt, interleaved in rotating order:
#   series       the series kernel, recorder on (with PID 1's scheduler
#                events, bootstamp patch 8: the attribution of the built-in
#                initcalls and boot bring-ups)
#   nobootstamp  the same series with the recorder compiled out
#   tracing      the nobootstamp kernel with boot-time tracing of the events
#                the recorder uses (initcall and cpuhp enter/exit) on the
#                arm64-counter trace clock (bootstamp patch 7)
#   attr         the series kernel with the attribution recipe of
#                Documentation/admin-guide/bootstamp.rst (sched_switch with
#                the stacks of the switches that sleep, sched_waking, a 1 MB
#                ring per CPU), the bootstamp-attr boot of selftests/plan
# and compares the time from counter zero (QEMU machine start; there is no
# firmware) to /init's first instruction, which /init reports as
# "# bst-init started counter=N freq=F".
#
#   [CLOCK=host|icount] RUNS=11 CPUS=4 scripts/bench/bootstamp-overhead.sh
#
# RUNS	measured boots per configuration (default 11: odd, so the median is
#	a boot)
# CONFIGS	the configurations, interleaved (default "series nobootstamp
#	tracing attr"); nobootstamp is the reference and always boots. Where
#	the attribution's cost goes, variants of attr (series kernel):
#	  attr-every    a stack for every switch (the recipe before issue 30)
#	  attr-nostack  the two events, no trigger
#	  attr-nowaking attr without sched_waking
#	  attr-wakeup   attr with sched_wakeup for sched_waking
#	  attr-ring     the ring alone: an event that never fires at boot
#	  attr@SIZE     attr with trace_buf_size=SIZE (e.g. attr@256K)
# CPUS	guest CPUs (default 4)
# WARMUP	unmeasured boots per kernel before the first round (default 1)
# PRIME	1: an unmeasured boot of the same kernel right before each measured
#	one (default with CLOCK=host; see bench_rounds in lib.sh), 0: none
#
# It never builds: both kernels and the guest programs must exist. Results
# go to out/bench/bootstamp-overhead-$CLOCK/ (runs.tsv, results.md, results.json,
# boots/ logs), or to BENCH_OUT.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib.sh"

RUNS=${RUNS:-11}
CPUS=${CPUS:-4}
WARMUP=${WARMUP:-1}
ON=series
OFF=nobootstamp
TR=tracing
read -r -a CONFIGS <<<"${CONFIGS:-$ON $OFF $TR attr}"
[[ " ${CONFIGS[*]} " = *" $OFF "* ]] || CONFIGS+=("$OFF")
# The kernel each configuration boots, and what it adds to the command line.
declare -A KERNEL=([$ON]=$ON [$OFF]=$OFF [$TR]=$OFF)
declare -A EXTRA=([$ON]="" [$OFF]="" [$TR]=" trace_clock=arm64-counter trace_event=initcall:initcall_start,initcall:initcall_finish,cpuhp:cpuhp_enter,cpuhp:cpuhp_exit")
# The attribution recipe (bootstamp.rst, "Where the time went"; the
# bootstamp-attr line of selftests/plan): a stack only for a switch-out in
# a sleeping state (S, D, I, ...: prev_state & 255; not R, R+ nor the idle
# task), which is all bootreport names a site for.
ATTR_CLOCK="trace_clock=arm64-counter"
ATTR_EVENTS="trace_event=sched:sched_switch,sched:sched_waking"
ATTR_STACKS='trace_trigger="sched_switch.stacktrace if prev_state & 255"'
ATTR_RING=1M
declare -A ATTRX=(
	[attr]="$ATTR_EVENTS $ATTR_STACKS"
	[attr-every]="$ATTR_EVENTS trace_trigger=sched_switch.stacktrace"
	[attr-nostack]="$ATTR_EVENTS"
	[attr-nowaking]="trace_event=sched:sched_switch $ATTR_STACKS"
	[attr-wakeup]="trace_event=sched:sched_switch,sched:sched_wakeup $ATTR_STACKS"
	[attr-ring]="trace_event=sched:sched_process_hang"
)
for c in "${CONFIGS[@]}"; do
	[ -z "${KERNEL[$c]:-}" ] || continue
	base=${c%@*} ring=$ATTR_RING
	[ "$base" = "$c" ] || ring=${c#*@}
	[ -n "${ATTRX[$base]:-}" ] && [[ $ring =~ ^[0-9]+[KM]?$ ]] ||
		die "CONFIGS: unknown configuration '$c' (series nobootstamp tracing ${!ATTRX[*]}, attr@SIZE)"
	KERNEL[$c]=$ON
	EXTRA[$c]=" $ATTR_CLOCK ${ATTRX[$base]} trace_buf_size=$ring"
done
# CLOCK (bench_set_clock): host, or icount, fine for this CPU-bound question.
CLOCK=${CLOCK:-host}
bench_set_clock "$CLOCK"
CMDLINE="console=ttyAMA0 panic=-1 bst.run="
OUT=${BENCH_OUT:-$BST_OUT/bench/bootstamp-overhead-$CLOCK}
STATS=$BST_TOP/scripts/bench/stats.py

for n in RUNS CPUS WARMUP; do
	[[ ${!n} =~ ^[0-9]+$ ]] || die "$n=${!n} is not a number"
done
[ "$RUNS" -ge 1 ] || die "RUNS must be at least 1"
[ "$RUNS" -ge 10 ] || warn "RUNS=$RUNS: fewer than 10 boots per kernel cannot resolve a 1% difference"
bench_set_prime "$CLOCK"
need_cmd qemu-system-aarch64
need_cmd python3

# --- preflight: everything must already be built ------------------------------

check_variant() {
	local v=$1 want=$2 have=n
	bench_check_built "$v"
	grep -q '^CONFIG_BOOTSTAMP=y' "$(variant_bdir "$v")/.config" && have=y
	[ "$have" = "$want" ] ||
		die "$(variant_bdir "$v")/.config: CONFIG_BOOTSTAMP should be '$want' for the $v kernel; rebuild it with 'scripts/build/build-kernel.sh $v'"
}
check_variant "$ON" y
check_variant "$OFF" n
bench_check_init

# --- setup ---------------------------------------------------------------------

bench_start "$OUT" "$ON" "$OFF"
say "bootstamp overhead: ${CONFIGS[*]} against $OFF (recorder off), $RUNS boots each, -smp $CPUS, ${QEMU_ARGS[*]}"
info "load average before: $BENCH_LOAD_BEFORE ($(nproc) host CPUs)"

declare -A INITRD
for v in "$ON" "$OFF"; do
	write_expect "$v" "$CPUS" >"$OUT/$v.expect"
	"$BST_TOP/scripts/guest/mkinitramfs.sh" "$v" "$OUT/$v.cpio" "$OUT/$v.expect"
	INITRD[$v]=$OUT/$v.cpio
	info "$v: $(variant_image "$v") ($(stat -c %s "$(variant_image "$v")") bytes), initramfs $(stat -c %s "$OUT/$v.cpio") bytes"
done

# boot CONFIG DIR: one measured boot (bench_boot) with this benchmark's setup.
boot() {
	local k=${KERNEL[$1]}
	bench_boot "$k" "${INITRD[$k]}" "$CPUS" "$2" "$CMDLINE${EXTRA[$1]}" "${QEMU_ARGS[@]}"
}

# --- the runs --------------------------------------------------------------------

printf 'config\trun\tvalue\n' >"$OUT/runs.tsv"
printf 'config\trun\tvalue\n' >"$OUT/printk.tsv"
printf 'config\trun\tinit_ms\tprintk_init_ms\tqemu_wall_s\tloadavg1\tfreq_hz\n' >"$OUT/boots.tsv"

# measure VARIANT RUN N TOTAL: one boot (bench_rounds); a measured one is
# recorded.
measure() {
	local v=$1 i=$2 dir=$OUT/boots/$1-$2 ms pk wall load1 freq
	boot "$v" "$dir"
	read -r ms pk wall <<<"$BOOT_RESULT"
	if ! bench_measured "$i"; then
		info "$i $v: /init at $ms ms (not counted)"
		return 0
	fi
	load1=$(cut -d' ' -f1 /proc/loadavg)
	freq=$(sed -n 's/^# bst-init started counter=[0-9]* freq=\([0-9]*\).*/\1/p' "$dir/results.log" | head -1)
	printf '%s\t%s\t%s\n' "$v" "$i" "$ms" >>"$OUT/runs.tsv"
	[ "$pk" = - ] || printf '%s\t%s\t%s\n' "$v" "$i" "$pk" >>"$OUT/printk.tsv"
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$v" "$i" "$ms" "$pk" "$wall" "$load1" "$freq" >>"$OUT/boots.tsv"
	printf '    [%2d/%d] %-12s run %2d: /init at %8s ms  (printk %s ms, QEMU %s s, load %s)\n' \
		"$3" "$4" "$v" "$i" "$ms" "$pk" "$wall" "$load1"
}
# bench_order rotates: the configurations in CONFIGS order, then from the
# second one, ...
bench_rounds "$RUNS" "$WARMUP" measure "${CONFIGS[@]}"

bench_finish "$ON" "$OFF"
info "load average after: $BENCH_LOAD_AFTER; wall time ${BENCH_WALL}s"

# --- results ---------------------------------------------------------------------

printk_table=""
if [ "$(wc -l <"$OUT/printk.tsv")" -gt 1 ]; then
	printk_table=$(python3 "$STATS" "$OUT/printk.tsv" --ref "$OFF" --unit ms)
fi

meta=(
	--meta "date=$(date -u '+%Y-%m-%d %H:%M UTC')"
	--meta "host=$(nproc) CPUs, $(qemu-system-aarch64 --version | head -1)"
	--meta "guest=QEMU virt, cortex-a76, -smp $CPUS, -m 512, \`${QEMU_ARGS[*]}\`, kernel command line \`$CMDLINE\`"
	--meta "boots=$RUNS per configuration, interleaved in rotating order (${CONFIGS[*]}; then starting with the next; ...); $WARMUP warm-up boot(s) per configuration not counted$(bench_prime_note kernel)"
	--meta "$ON=recorder on: $(bench_kinfo "$ON"), initramfs $(stat -c %s "$OUT/$ON.cpio") bytes"
	--meta "$OFF=recorder compiled out: $(bench_kinfo "$OFF"), initramfs $(stat -c %s "$OUT/$OFF.cpio") bytes"
)
for c in "${CONFIGS[@]}"; do
	[ -z "${EXTRA[$c]}" ] || meta+=(--meta "$c=the ${KERNEL[$c]} kernel, command line +\`${EXTRA[$c]# }\`")
done
meta+=(
	--meta "load average=before $BENCH_LOAD_BEFORE, after $BENCH_LOAD_AFTER"
	--meta "wall time=${BENCH_WALL} s"
	--meta "clock=$CLOCK"
	--meta "runs=$RUNS"
	--meta "revision=$(bench_revision)"
	--meta "reproduce=\`CLOCK=$CLOCK RUNS=$RUNS CPUS=$CPUS WARMUP=$WARMUP PRIME=$BENCH_PRIME CONFIGS=\"${CONFIGS[*]}\" scripts/bench/bootstamp-overhead.sh\`"
)
notes=()
if [ -n "$printk_table" ]; then
	notes+=(--note "$(printf '%s\n\n%s\n\n%s' '## Kernel clock at /init (secondary)' \
		"printk time of the kernel's \`Run /init as init process\` line, in ms: sched_clock, which counts from about time_init(), so this leaves out counter zero to time_init() (kernel entry and early setup, where bootstamp patch 6 takes its entry stamp). Raw values: \`printk.tsv\`." \
		"$(printf '%s\n%s\n%s' '```' "$printk_table" '```')")")
fi
notes+=(--note "Per-boot details (QEMU wall time, load average after the boot): \`boots.tsv\`; logs: \`boots/\`.")

say "results ($RUNS boots each; ratio goal <= 1.01)"
python3 "$STATS" "$OUT/runs.tsv" --ref "$OFF" --unit ms --goal 1.01 \
	--md "$OUT/results.md" --title "Boot-stamp recorder overhead at boot" \
	--json "$OUT/results.json" --bench "$(basename "$OUT")" \
	--metric "Time from counter zero (QEMU machine start, no firmware) to /init's first instruction, from /init's \`# bst-init started counter=N freq=F\` line: N / F in ms. Lower is better." \
	"${meta[@]}" "${notes[@]}"
if [ -n "$printk_table" ]; then
	echo
	echo "kernel clock at 'Run /init as init process' (printk time, ms):"
	echo "$printk_table"
fi
echo
info "load average before $BENCH_LOAD_BEFORE, after $BENCH_LOAD_AFTER; wall time ${BENCH_WALL}s"
info "results: ${OUT#"$BST_TOP"/}/results.md, results.json, runs.tsv, boots.tsv"
