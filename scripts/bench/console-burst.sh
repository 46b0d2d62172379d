#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# console-burst.sh: console throughput after boot on QEMU's own PL011, which
# sends as fast as it is written to and never reports a full FIFO (review
# C3): the time from the start of a 64 KB burst to /dev/kmsg (1024 records
# of 64 bytes) until the console's printer thread waits for records again,
# unpatched (slowuart-base) against the series (slowuart-series), both with
# the slow-UART model off (bst.uart_baud=0) and a board kernel's timers
# (high-resolution timers: the series' printer thread may sleep while the
# FIFO sends). console=tty1 comes last, as on Raspberry Pi OS, so no tty is
# open on the PL011 and the series writes in pieces; with /dev/console on
# the PL011 it writes whole records, as unpatched. Each boot runs
# selftests/console/printer_sleeps (bst.printer_sleeps=0: the series must
# not sleep), which prints burst_drain_ms.
#
#   [CLOCK=icount|host] [RUNS=3] [WARMUP=1] scripts/bench/console-burst.sh
#
# It never builds: both kernels and the guest programs must exist
# (scripts/build/build-kernel.sh slowuart-base slowuart-series,
# scripts/build/build-guest.sh slowuart-series). Results go to
# out/bench/console-burst-$CLOCK/ (runs.tsv, results.md, results.json,
# boots/ logs), or to BENCH_OUT.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib.sh"

RUNS=${RUNS:-3}
WARMUP=${WARMUP:-1}
CPUS=${CPUS:-4}
CLOCK=${CLOCK:-icount}
bench_set_clock "$CLOCK"
bench_set_prime "$CLOCK"
[[ $RUNS =~ ^[1-9][0-9]*$ ]] || die "RUNS=$RUNS: give a number of rounds, at least 1"
[[ $WARMUP =~ ^[0-9]+$ ]] || die "WARMUP=$WARMUP: give a number of rounds"
[[ $CPUS =~ ^[1-9][0-9]*$ ]] || die "CPUS=$CPUS: give a number of guest CPUs"
CMDLINE="console=ttyAMA0,115200 console=tty1 panic=-1 bst.run=console/printer_sleeps bst.printer_sleeps=0 bst.uart_baud=0 log_buf_len=1M bst.timeout=600"
OUT=${BENCH_OUT:-$BST_OUT/bench/console-burst-$CLOCK}
need_cmd qemu-system-aarch64
for v in slowuart-base slowuart-series; do
	bench_check_built "$v"
done
[ -x "$BST_GUEST/tests/console/printer_sleeps" ] ||
	die "no guest program printer_sleeps: run 'scripts/build/build-guest.sh slowuart-series', then rerun"

# config name -> kernel variant
declare -A VARIANT=([unpatched]=slowuart-base [series]=slowuart-series)

bench_start "$OUT" slowuart-base slowuart-series
for c in unpatched series; do
	write_expect "${VARIANT[$c]}" "$CPUS" >"$OUT/$c.expect"
	"$BST_TOP/scripts/guest/mkinitramfs.sh" "${VARIANT[$c]}" "$OUT/$c.cpio" "$OUT/$c.expect"
done
say "64 KB burst after boot on QEMU's PL011: $RUNS rounds of unpatched and series, ${QEMU_ARGS[*]}"
printf 'config\trun\tvalue\n' >"$OUT/runs.tsv"

burst_boot() {
	local c=$1 run=$2 n=$3 total=$4 dir ms
	dir=$OUT/boots/$c-$run
	QEMU_TIMEOUT=900 bench_boot "${VARIANT[$c]}" "$OUT/$c.cpio" "$CPUS" "$dir" "$CMDLINE" "${QEMU_ARGS[@]}"
	if grep -q '^not ok' "$dir/results.log"; then
		die "$c boot $run: printer_sleeps failed a check (see $dir/results.log)"
	fi
	ms=$(sed -n 's/^# burst_drain_ms=\([0-9.]*\)$/\1/p' "$dir/results.log")
	[ -n "$ms" ] || die "$c boot $run: no '# burst_drain_ms=' line in $dir/results.log"
	bench_measured "$run" || return 0
	printf '%s\t%s\t%s\n' "$c" "$run" "$ms" >>"$OUT/runs.tsv"
	printf '    [%d/%d] %s: %s ms\n' "$n" "$total" "$c" "$ms"
}
bench_rounds "$RUNS" "$WARMUP" burst_boot unpatched series
bench_finish slowuart-base slowuart-series

python3 "$BST_TOP/scripts/bench/stats.py" "$OUT/runs.tsv" --ref unpatched --unit ms --digits 1 --goal 1.05 \
	--md "$OUT/results.md" --title "Console throughput after boot on QEMU's PL011 (64 KB to /dev/kmsg)" \
	--json "$OUT/results.json" --bench "$(basename "$OUT")" \
	--metric "Time from the first write of a 64 KB burst to /dev/kmsg (1024 records of 64 bytes) until the PL011 console's printer thread waits for records again (its state S at ten looks 2 ms apart; the first of them), in guest ms; medians over boots." \
	--meta "date=$(date -u '+%Y-%m-%d %H:%M UTC')" \
	--meta "guest=QEMU virt, -smp $CPUS, \`${QEMU_ARGS[*]}\`, unpatched $(bench_kinfo slowuart-base); series $(bench_kinfo slowuart-series)" \
	--meta "load average=before $BENCH_LOAD_BEFORE, after $BENCH_LOAD_AFTER; wall time ${BENCH_WALL} s" \
	--meta "clock=$CLOCK" --meta "runs=$RUNS, warm-up rounds $WARMUP$(bench_prime_note configuration)" \
	--meta "revision=$(bench_revision)" \
	--meta "reproduce=\`CLOCK=$CLOCK RUNS=$RUNS scripts/bench/console-burst.sh\`" \
	--note "QEMU's PL011 (and KVM's) never reports a full FIFO, so a console that sleeps after every FIFO's worth is capped far below what this UART takes; the series must sleep only when the FIFO filled (console patch 7) and drain as fast as unpatched. console=tty1 is last, so no tty is open on the PL011 and the series writes in pieces. The slow-UART model of the same kernels is off (bst.uart_baud=0). Not a board figure."
info "results: ${OUT#"$BST_TOP"/}/results.md, results.json"
