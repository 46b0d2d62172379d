#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# console-boot.sh: does a slow serial console still throttle the boot?
# Boots thirteen configurations in QEMU virt, interleaved, every kernel with the
# test-only slow-UART model (scripts/bench/lab/slow-uart.patch: a 16-byte
# FIFO drained at bst.uart_baud, 115200 by default, that stalls only the
# CPU polling the flag register), a verbose boot (initcall_debug
# ignore_loglevel, about 48 KB of log):
#
#   a-unpatched        the unpatched 7.2.13 tree
#   b-series           the series (PL011 console from console_initcall,
#                      records wait for the printer threads, which start at
#                      subsys_initcall)
#   c-loglevel1        the unpatched tree with loglevel=1: no console output,
#                      the limit
#   d-oneliner         the seed's console_initcall one-liner alone (negative
#                      control: its console is lost)
#   e-series-earlycon  the series with earlycon
#   f-loglevel1-busy   c plus a thread that keeps its CPU busy as a printer
#                      thread waiting for the UART does, interrupts off
#                      while 16 characters drain, but prints nothing
#                      (bst.uart_spin)
#   g-loglevel1-lines  the same with whole 70-character lines, as the
#                      unpatched printer thread writes them (bst.uart_spin=70)
#   h-kthreads         controls: the unpatched tree with console patch 1 alone
#                      (the console registers at probe, as unpatched, but
#                      its records wait for the printer threads instead of
#                      being flushed at registration)
#   i-kthreads-nodrain h plus the driver-only change: write_thread() stops
#                      draining the FIFO after each record unless it changed
#                      CR (scripts/bench/lab/pl011-drain-only-cr.patch)
#   j-unpatched-tty1   a, k-series-tty1 b, l-loglevel1-tty1 c, each with
#                      console=tty1 after console=ttyAMA0, as Raspberry Pi
#                      OS boots: a VT console beside the serial one (with a
#                      legacy console enabled, printk flushes the nbcon
#                      console from the printing context once its thread
#                      runs; before, console patch 1 leaves it to the thread)
#   m-series-sync      b with printk.boot_async=0: every record printed from
#                      console_init on, synchronously until the printer
#                      threads start (early visibility, as earlycon)
#
#   [CLOCK=host|icount] RUNS=10 CPUS=4 WARMUP=1 [PRIME=0|1] BAUD=115200 [ONLY="b c"] [CONSOLE_OPTIONS=115200n8]
#   scripts/bench/console-boot.sh
#
# ONLY: the configurations to boot, by letter or name (c is always kept: the
# ratios are against it); for a quick look, not for the results file.
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
# or to BENCH_OUT: results.md (medians, ratios b/c and a/c, console vs
# dmesg bytes, the console check), results.json (the same numbers for
# programs), chart.svg, runs.tsv and the logs of every boot.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib.sh"

RUNS=${RUNS:-10}
CPUS=${CPUS:-4}
WARMUP=${WARMUP:-1}
BAUD=${BAUD:-115200}
CLOCK=${CLOCK:-host}
for n in RUNS CPUS WARMUP BAUD; do
	[[ ${!n} =~ ^[0-9]+$ ]] || die "$n=${!n} is not a number"
done
[ "$RUNS" -ge 1 ] || die "RUNS must be at least 1"
[ "$RUNS" -ge 10 ] || warn "RUNS=$RUNS: the issue asks for at least 10 boots per configuration"
bench_set_prime "$CLOCK"

# NAME VARIANT KERNEL-COMMAND-LINE (after the common part)
CONFIG_TABLE="
a-unpatched		slowuart-base		ignore_loglevel
b-series		slowuart-series		ignore_loglevel
c-loglevel1		slowuart-base		loglevel=1
d-oneliner		slowuart-oneliner	ignore_loglevel
e-series-earlycon	slowuart-series		ignore_loglevel earlycon
f-loglevel1-busy	slowuart-base		loglevel=1 bst.uart_spin
g-loglevel1-lines	slowuart-base		loglevel=1 bst.uart_spin=70
h-kthreads		slowuart-kthreads	ignore_loglevel
i-kthreads-nodrain	slowuart-kthreads-nodrain	ignore_loglevel
j-unpatched-tty1	slowuart-base		ignore_loglevel console=tty1
k-series-tty1		slowuart-series		ignore_loglevel console=tty1
l-loglevel1-tty1	slowuart-base		loglevel=1 console=tty1
m-series-sync		slowuart-series		ignore_loglevel printk.boot_async=0
"
# CONSOLE_OPTIONS=115200n8: console=ttyAMA0,115200n8, the line settings a
# Raspberry Pi's stdout-path gives ("serial10:115200n8"; QEMU's has none).
# Before its device probes, the series' console learns the time a character
# takes from them, or else from the firmware's divisors and the UART clock.
COMMON="console=ttyAMA0${CONSOLE_OPTIONS:+,$CONSOLE_OPTIONS} panic=-1 initcall_debug bst.uart_baud=$BAUD bst.run=console/console_registered_once bst.dump=/tmp/bst-console"
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
	[ ${#keep[@]} -ge 2 ] || die "ONLY='$ONLY' names no configuration besides c: use letters a-l or full names"
	CONFIGS=("${keep[@]}")
	OUT=$OUT-only		# the full results stay as they are
fi
OUT=${BENCH_OUT:-$OUT}
NAME=$(basename "$OUT")	# results.json's "benchmark"
declare -A VARIANT EXTRA INITRD
while read -r name variant extra; do
	[ -n "$name" ] || continue
	VARIANT[$name]=$variant
	EXTRA[$name]=$extra
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
	bench_measured "$run" || return 0	# checked, not measured
	m=$(python3 "$B/console_metrics.py" "$dir")
	printf '%s\t%s\t%s\n' "$c" "$run" "$ms" >>"$OUT/runs.tsv"
	printf '%s\t%s\t%s\t%s\t%s\n' "$c" "$run" "$ms" "$wall" "$m" >>"$OUT/boots.tsv"
	printf '    %-18s run %2s: /init at %8s ms  (console %s)\n' "$c" "$run" "$ms" \
		"$(awk -F'\t' '{ printf "%s of %s bytes, works=%s", $1, $2, $3 }' <<<"$m")"
}

printf 'config\trun\tvalue\n' >"$OUT/runs.tsv"
printf 'config\trun\tinit_ms\tqemu_wall_s\tconsole_bytes\tdmesg_bytes\tconsole_ok\trun_init_ms\tfw_console_us\tpopulate_us\ttail_ms\tline_busy_pct\n' >"$OUT/boots.tsv"
bench_rounds "$RUNS" "$WARMUP" boot "${CONFIGS[@]}"
bench_finish "${VARIANTS[@]}"

# --- results -------------------------------------------------------------------

details=$(python3 "$B/console_table.py" "$OUT/boots.tsv")
ratios=$(python3 "$B/stats.py" "$OUT/runs.tsv" --ref c-loglevel1 --unit ms)
busy="" busy_note=()
if [[ " ${CONFIGS[*]} " == *" f-loglevel1-busy "* ]]; then
	busy=$(python3 "$B/stats.py" "$OUT/runs.tsv" --ref f-loglevel1-busy --unit ms)
	busy_note=(--note "$(printf '%s\n\n%s\n\n%s' '## Against the busy-CPU control (f)' \
		"Unpatched, a printer thread writes with interrupts off on its CPU (the port lock) until a whole record has drained (6 ms for a 70-character line at 115200 baud), and every boot step that needs all CPUs waits for it. f-loglevel1-busy prints nothing but keeps its CPU that way 16 characters at a time (\`bst.uart_spin\`), g-loglevel1-lines a 70-character line at a time. With the series the printer thread sleeps while the FIFO sends (console patches 4-7), so b can be below f:" \
		"$(printf '%s\n%s\n%s' '```' "$busy" '```')")")
fi
# Mark the configurations whose console did not work in every boot.
mapfile -t labels < <(awk -F'\t' 'NR > 1 { n[$1]++; ok[$1] += $7 }
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
	--meta "reproduce=\`make bench-console CLOCK=$CLOCK\` or \`CLOCK=$CLOCK RUNS=$RUNS CPUS=$CPUS WARMUP=$WARMUP PRIME=$BENCH_PRIME BAUD=$BAUD${ONLY:+ ONLY=\"$ONLY\"}${CONSOLE_OPTIONS:+ CONSOLE_OPTIONS=$CONSOLE_OPTIONS} scripts/bench/console-boot.sh\`"
)
say "results ($RUNS boots each; goal: b/c <= 1.05)"
python3 "$B/stats.py" "$OUT/runs.tsv" --ref c-loglevel1 --unit ms --goal 1.05 \
	--md "$OUT/results.md" --title "Boot time with a slow serial console" \
	--json "$OUT/results.json" --bench "$NAME" \
	--metric "Time from counter zero (QEMU machine start, no firmware; kernel entry follows within a millisecond) to /init's first instruction, from /init's \`# bst-init started counter=N freq=F\` line, in ms. Ratios against c-loglevel1, the boot that prints nothing. Chart: \`chart.svg\`." \
	"${meta[@]}" "${busy_note[@]}" --note "$details" >/dev/null
echo "$ratios"
[ -z "$busy" ] || printf '\nagainst f-loglevel1-busy:\n%s\n' "$busy"
echo
echo "$details"
info "load average before $BENCH_LOAD_BEFORE, after $BENCH_LOAD_AFTER; wall time ${BENCH_WALL}s"
info "results: ${OUT#"$BST_TOP"/}/results.md, results.json, chart.svg, runs.tsv, boots.tsv"
