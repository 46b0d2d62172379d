#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# console-boot.sh: does a slow serial console still throttle the boot, and
# where did its cost go? Boots these configurations in QEMU virt,
# interleaved, every kernel with the test-only slow-UART model
# (scripts/bench/lab/slow-uart.patch: a 16-byte FIFO drained at
# bst.uart_baud, 115200 by default, that stalls only the CPU polling the
# flag register):
#
#   a-unpatched        the unpatched 7.2.13 tree, the verbose boot
#                      (initcall_debug ignore_loglevel, about 48 KB of log)
#   b-series           the series, the verbose boot
#   c-loglevel1        the unpatched tree with loglevel=1: nothing on the
#                      UART, the limit of the verbose boots
#   n-unpatched-rpi    Raspberry Pi OS's command line on this machine:
#                      console=ttyAMA0,115200 console=tty1 quiet (its
#                      console=serial0,115200 console=tty1 ... quiet; the
#                      root, fsck, splash and plymouth words have nothing
#                      to act on here), unpatched
#   o-series-rpi       the same, the series
#   p-loglevel1-rpi    the same with loglevel=1 for quiet: its limit
#   q-series-highres-off  b with highres=off: the printer thread's rate
#                      before the high-resolution timer switch (a tick a
#                      sleep), which highres=off keeps for the whole boot
#   r-unpatched-flood  a with bst.uart_flood=6000 at a 921600-baud model:
#                      6000 records logged at arch_initcall_sync, more than
#                      the ring holds (4096 records), after the unpatched
#                      probe registered the console and before the printer
#                      threads start
#   s-series-flood     the same, the series (records lost when the backlog
#                      outgrows the ring)
#
# The earlier configurations dropped here: the seed's one-liner (its
# console is lost, settled in v1), earlycon (what patch 3 buys is issue
# 29's item 3, measured with the boots of make check), the busy-CPU
# controls and patch 1 alone (they explained the /init numbers of v2; the
# end-to-end columns measure the cost directly), printk.boot_async=0, and
# the verbose boots with console=tty1 (the Raspberry Pi rows replace them).
#
# Each boot measures (console_metrics.py, console_table.py): (a) counter
# zero to /init; with WORK (/init's bst.work, scripts/guest/init.c), (b)
# to the first line /init writes to the serial port leaving the modelled
# line, (c) to the end of a fixed amount of work on every CPU while /init
# writes lines to the port, (d) to the console idle (a record /init logs
# after (c) sent: everything before it reached the line), (e) the longest
# interrupts-off hold of the PL011 port lock once userspace ran, (f) the
# records lost.
#
#   [CLOCK=host|icount] RUNS=5 CPUS=4 WARMUP=1 [PRIME=0|1] BAUD=115200 [WORK=N] [ONLY="b c"] [CONSOLE_OPTIONS=115200n8]
#   scripts/bench/console-boot.sh
#
# ONLY: the configurations to boot, by letter or name (c is always kept: the
# ratios are against it); for a quick look, not for the results file.
# WORK: millions of iterations a CPU for (c), 0 for none (then (b)-(d) are
# not measured): 100 with the host clock, 0 with icount, whose vCPUs take
# turns on one host thread, so work "on every CPU" would not run in
# parallel.
#
# CLOCK=host (default): multi-threaded TCG, guest time follows the host, so
# host load moves whole runs by 10% or more on a 2-core machine. CLOCK=icount:
# guest time counts instructions (1 ns each) and jumps over idle time, the
# same on every run; the vCPUs then take turns on one host thread, so work
# the printer thread does in parallel on hardware is charged to the boot.
#
# It never builds: `make bench-console` builds the kernels first (the ones
# `console-boot.sh --variants` lists).
# Results go to out/bench/console-boot/ (console-boot-icount/ with icount),
# or to BENCH_OUT: results.md (medians, ratios against c, the end-to-end
# table), results.json ((a), for programs), results-METRIC.json for
# first-line, milestone, idle, irqoff, irqoff-chars and lost, chart.svg, runs.tsv,
# boots.tsv and the logs of every boot.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib.sh"

RUNS=${RUNS:-5}
CPUS=${CPUS:-4}
WARMUP=${WARMUP:-1}
BAUD=${BAUD:-115200}
CLOCK=${CLOCK:-host}
case $CLOCK in icount) WORK=${WORK:-0} ;; *) WORK=${WORK:-100} ;; esac
for n in RUNS CPUS WARMUP BAUD WORK; do
	[[ ${!n} =~ ^[0-9]+$ ]] || die "$n=${!n} is not a number"
done
[ "$RUNS" -ge 1 ] || die "RUNS must be at least 1"
[ "$RUNS" -ge 5 ] || warn "RUNS=$RUNS: fewer than 5 boots per configuration"
bench_set_prime "$CLOCK"

# CONSOLE_OPTIONS=115200n8: console=ttyAMA0,115200n8 in the verbose boots,
# the line settings a Raspberry Pi's stdout-path gives ("serial10:115200n8";
# QEMU's has none). Before its device probes, the series' console learns
# the time a character takes from them, or else from the firmware's
# divisors and the UART clock.
V="console=ttyAMA0${CONSOLE_OPTIONS:+,$CONSOLE_OPTIONS} initcall_debug"
RPI="console=ttyAMA0,115200 console=tty1"
# NAME VARIANT UNPATCHED-CONTROL LOGLEVEL1-CONTROL KERNEL-COMMAND-LINE (after
# the common part); a control "-": none.
CONFIG_TABLE="
a-unpatched		slowuart-base	-		c-loglevel1	$V ignore_loglevel
b-series		slowuart-series	a-unpatched	c-loglevel1	$V ignore_loglevel
c-loglevel1		slowuart-base	-		-		$V loglevel=1
n-unpatched-rpi		slowuart-base	-		p-loglevel1-rpi	$RPI quiet
o-series-rpi		slowuart-series	n-unpatched-rpi	p-loglevel1-rpi	$RPI quiet
p-loglevel1-rpi		slowuart-base	-		-		$RPI loglevel=1
q-series-highres-off	slowuart-series	a-unpatched	c-loglevel1	$V ignore_loglevel highres=off
r-unpatched-flood	slowuart-base	-		-		$V ignore_loglevel bst.uart_baud=921600 bst.uart_flood=6000
s-series-flood		slowuart-series	r-unpatched-flood	-	$V ignore_loglevel bst.uart_baud=921600 bst.uart_flood=6000
"
COMMON="panic=-1 bst.uart_baud=$BAUD bst.run=console/console_registered_once bst.dump=/tmp/bst-console"
[ "$WORK" = 0 ] || COMMON="$COMMON bst.work=$WORK"
# host: multi-threaded TCG, each vCPU a host thread, so one stalled CPU does
# not stop the others (the model stalls only the writer, in WFI).
# shellcheck disable=SC2054 # one option and its value, not a list
case $CLOCK in
host)   QEMU_ARGS=(-accel tcg,thread=multi); OUT=$BST_OUT/bench/console-boot ;;
icount) QEMU_ARGS=(-accel tcg,thread=single -icount shift=0,sleep=off)
	OUT=$BST_OUT/bench/console-boot-icount ;;
*)      die "CLOCK=$CLOCK: use CLOCK=host or CLOCK=icount" ;;
esac
[ -z "${CONSOLE_OPTIONS:-}" ] || OUT=$OUT-options
B=$BST_TOP/scripts/bench

# --variants: the kernels the benchmark boots, one a line (make bench-console
# builds them).
if [ "${1:-}" = --variants ]; then
	awk 'NF { print $2 }' <<<"$CONFIG_TABLE" | sort -u
	exit 0
fi
[ $# -eq 0 ] || die "usage: [CLOCK=host|icount] [RUNS=N] ... console-boot.sh [--variants]"
mapfile -t CONFIGS < <(awk 'NF { print $1 }' <<<"$CONFIG_TABLE")
if [ -n "${ONLY:-}" ]; then
	keep=()
	for c in "${CONFIGS[@]}"; do
		for o in $ONLY c; do
			[ "$o" = "$c" ] || [ "$o" = "${c%%-*}" ] || continue
			keep+=("$c")
			break
		done
	done
	[ ${#keep[@]} -ge 2 ] || die "ONLY='$ONLY' names no configuration besides c: use the letters of the table or full names"
	CONFIGS=("${keep[@]}")
	OUT=$OUT-only		# the full results stay as they are
fi
OUT=${BENCH_OUT:-$OUT}
NAME=$(basename "$OUT")	# results.json's "benchmark"
declare -A VARIANT EXTRA INITRD REFS
while read -r name variant unpatched ll1 extra; do
	[ -n "$name" ] || continue
	VARIANT[$name]=$variant
	EXTRA[$name]=$extra
	REFS[$name]=$unpatched,$ll1
done <<<"$CONFIG_TABLE"
mapfile -t VARIANTS < <(for c in "${CONFIGS[@]}"; do echo "${VARIANT[$c]}"; done | sort -u)

need_cmd qemu-system-aarch64
for v in "${VARIANTS[@]}"; do
	bench_check_built "$v"
done
bench_check_init
[ -x "$BST_GUEST/tests/console/console_registered_once" ] ||
	die "no console test program in $BST_GUEST: run 'scripts/build/build-guest.sh series', then rerun"

bench_start "$OUT" "${VARIANTS[@]}"
say "console benchmark: ${CONFIGS[*]}; $RUNS boots each, -smp $CPUS, $BAUD baud model"
for v in "${VARIANTS[@]}"; do
	write_expect "$v" "$CPUS" >"$OUT/$v.expect"
	# Only the console tests: the kernel unpacks the initramfs while it
	# boots, so its size is part of what is measured, and it should not
	# grow with the other test directories (all of tests/ is 12 MB).
	"$BST_TOP/scripts/guest/mkinitramfs.sh" "$v" "$OUT/$v.cpio" "$OUT/$v.expect" console
done
for c in "${CONFIGS[@]}"; do
	INITRD[$c]=$OUT/${VARIANT[$c]}.cpio
done

# boot CONFIG RUN N TOTAL (bench_rounds): one boot into boots/CONFIG-RUN;
# a measured one appends its rows to the TSV files.
boot() {
	local c=$1 run=$2 dir=$OUT/boots/$1-$2 ms wall m
	bench_boot "${VARIANT[$c]}" "${INITRD[$c]}" "$CPUS" "$dir" "$COMMON ${EXTRA[$c]}" "${QEMU_ARGS[@]}"
	read -r ms _ wall <<<"$BOOT_RESULT"
	extract_files "$dir/results.log" "$dir/dump"
	[ -s "$dir/dump/kmsg" ] || die "$c boot in $dir: the guest saved no kernel log; see $dir/results.log"
	[ "$WORK" = 0 ] || grep -q '^# bst-bench uart ' "$dir/results.log" ||
		die "$c boot in $dir: /init's benchmark work reported nothing; see $dir/results.log"
	bench_measured "$run" || return 0	# checked, not measured
	m=$(python3 "$B/console_metrics.py" "$dir")
	printf '%s\t%s\t%s\n' "$c" "$run" "$ms" >>"$OUT/runs.tsv"
	printf '%s\t%s\t%s\t%s\t%s\n' "$c" "$run" "$ms" "$wall" "$m" >>"$OUT/boots.tsv"
	printf '    %-20s run %2s: /init %7s ms, first line %8s, milestone %8s, idle %8s, irqs off %6s us (%s chars), lost %s\n' \
		"$c" "$run" "$ms" "$(col "$m" first_line_ms)" "$(col "$m" milestone_ms)" \
		"$(col "$m" idle_ms)" "$(col "$m" irqoff_us)" "$(col "$m" irqoff_chars)" "$(col "$m" lost)"
}

# col METRICS FIELD: FIELD of a console_metrics.py line.
col() {
	awk -F'\t' -v h="$FIELDS" -v f="$2" '
		BEGIN { n = split(h, k, "\t"); for (i = 1; i <= n; i++) if (k[i] == f) c = i }
		{ print $c }' <<<"$1"
}

FIELDS=$(python3 "$B/console_metrics.py" --header)
printf 'config\trun\tvalue\n' >"$OUT/runs.tsv"
printf 'config\trun\tinit_ms\tqemu_wall_s\t%s\n' "$FIELDS" >"$OUT/boots.tsv"
bench_rounds "$RUNS" "$WARMUP" boot "${CONFIGS[@]}"
bench_finish "${VARIANTS[@]}"

# --- results -------------------------------------------------------------------

refs=()
for c in "${CONFIGS[@]}"; do
	refs+=(--refs "$c=${REFS[$c]}")
done
details=$(python3 "$B/console_table.py" "$OUT/boots.tsv" "${refs[@]}")
ratios=$(python3 "$B/stats.py" "$OUT/runs.tsv" --ref c-loglevel1 --unit ms)
# Mark the configurations whose console did not work in every boot.
mapfile -t labels < <(awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "console_ok") k = i; next }
	{ n[$1]++; ok[$1] += $k }
	END { for (c in n) if (ok[c] < n[c]) printf "--label\n%s=console lost in %d of %d boots\n", c, n[c] - ok[c], n[c] }' \
	"$OUT/boots.tsv")
python3 "$B/chart.py" "$OUT/runs.tsv" "$OUT/chart.svg" \
	--title "Counter zero to /init, $BAUD-baud UART model, $RUNS boots each (median, min-max)" \
	--unit ms "${labels[@]}"
meta=(
	--meta "date=$(date -u '+%Y-%m-%d %H:%M UTC')"
	--meta "host=$(nproc) CPUs, $(qemu-system-aarch64 --version | head -1)"
	--meta "guest=QEMU virt, cortex-a76, -smp $CPUS, -m 512, \`${QEMU_ARGS[*]}\`"
	--meta "kernel command line=\`$COMMON\` plus, per configuration: $(for c in "${CONFIGS[@]}"; do printf '%s `%s`; ' "$c" "${EXTRA[$c]}"; done)"
	--meta "boots=$RUNS per configuration, rotating order; $WARMUP warm-up boot(s) each not counted$(bench_prime_note configuration)"
	--meta "kernels=$(for v in "${VARIANTS[@]}"; do printf '%s: %s; ' "$v" "$(bench_kinfo "$v")"; done)"
	--meta "UART model=scripts/bench/lab/slow-uart.patch (test only), $BAUD baud, 16-byte FIFO"
	--meta "load average=before $BENCH_LOAD_BEFORE, after $BENCH_LOAD_AFTER"
	--meta "wall time=${BENCH_WALL} s"
	--meta "clock=$CLOCK"
	--meta "runs=$RUNS"
	--meta "revision=$(bench_revision)"
	--meta "reproduce=\`make bench-console CLOCK=$CLOCK\` or \`CLOCK=$CLOCK RUNS=$RUNS CPUS=$CPUS WARMUP=$WARMUP PRIME=$BENCH_PRIME BAUD=$BAUD WORK=$WORK${ONLY:+ ONLY=\"$ONLY\"}${CONSOLE_OPTIONS:+ CONSOLE_OPTIONS=$CONSOLE_OPTIONS} scripts/bench/console-boot.sh\`"
)
say "results ($RUNS boots each; goal: b/c <= 1.05)"
python3 "$B/stats.py" "$OUT/runs.tsv" --ref c-loglevel1 --unit ms --goal 1.05 \
	--md "$OUT/results.md" --title "Boot time with a slow serial console" \
	--json "$OUT/results.json" --bench "$NAME" \
	--metric "(a) Time from counter zero (QEMU machine start, no firmware; kernel entry follows within a millisecond) to /init's first instruction, from /init's \`# bst-init started counter=N freq=F\` line, in ms. Ratios against c-loglevel1, the boot that prints nothing. Chart: \`chart.svg\`." \
	"${meta[@]}" --note "$details" >/dev/null
# One results file a metric past /init, for the documentation gate
# (results-METRIC.json, benchmark NAME-METRIC): FIELD REF UNIT METRIC.
while read -r metric field ref unit what; do
	awk -F'\t' -v f="$field" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == f) k = i; print "config\trun\tvalue"; next }
		k && $k != "-" { print $1 "\t" $2 "\t" $k }' "$OUT/boots.tsv" >"$OUT/runs-$metric.tsv"
	[ "$(wc -l <"$OUT/runs-$metric.tsv")" -gt 1 ] || continue
	refarg=()
	[ "$ref" = - ] || ! grep -q "^$ref	" "$OUT/runs-$metric.tsv" || refarg=(--ref "$ref")
	python3 "$B/stats.py" "$OUT/runs-$metric.tsv" "${refarg[@]}" --unit "$unit" \
		--json "$OUT/results-$metric.json" --bench "$NAME-$metric" --metric "$what" \
		"${meta[@]}" >/dev/null
done <<'EOF'
first-line	first_line_ms	c-loglevel1	ms	(b) counter zero to the last byte of /init's first line on the serial port leaving the modelled line
milestone	milestone_ms	c-loglevel1	ms	(c) counter zero to the end of /init's fixed work on every CPU (WORK) and its ten lines to the port
idle	idle_ms	c-loglevel1	ms	(d) counter zero to the modelled line sending the record /init logs after (c): the console idle
irqoff	irqoff_us	a-unpatched	us	(e) longest PL011 port lock hold with interrupts off once userspace ran (test-only model; host time, vCPU preemption included)
irqoff-chars	irqoff_chars	a-unpatched	characters	(e) most characters written in one PL011 port lock hold with interrupts off once userspace ran: on hardware the hold lasts about their line time
lost	lost	-	records	(f) records below the console loglevel never sent: printk messages dropped plus those of the saved log missing on the line
EOF
echo "$ratios"
echo
echo "$details"
info "load average before $BENCH_LOAD_BEFORE, after $BENCH_LOAD_AFTER; wall time ${BENCH_WALL}s"
info "results: ${OUT#"$BST_TOP"/}/results.md, results.json, results-*.json, chart.svg, runs.tsv, boots.tsv"
