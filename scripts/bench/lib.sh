# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034 # sourced: its variables are for the scripts that source it
# Shared by the benchmarks of scripts/bench/: checks that the kernels are
# built and stay the same, one measured boot, kernel identification.
# Source it after scripts/lib.sh.

# bench_check_built VARIANT: the kernel must be built and not being rebuilt.
bench_check_built() {
	local v=$1 bdir image
	bdir=$(variant_bdir "$v")
	image=$(variant_image "$v")
	if pgrep -f -- "O=$bdir " >/dev/null; then
		die "the $v kernel is being built right now ($bdir): wait until that build has finished, then rerun"
	fi
	if [ ! -f "$image" ] || [ ! -x "$bdir/usr/gen_init_cpio" ]; then
		die "the $v kernel is not built ($image missing): run 'scripts/build/build-kernel.sh $v', then rerun"
	fi
}

# bench_check_init: /init must report when it starts.
bench_check_init() {
	grep -aq '# bst-init started counter=' "$BST_GUEST/init" 2>/dev/null ||
		die "$BST_GUEST/init does not print the counter line: run 'scripts/build/build-guest.sh series', then rerun"
}

# bench_image_sums VARIANT...: checksums of the Images, to detect a rebuild
# during a run.
bench_image_sums() {
	local v
	for v in "$@"; do
		cksum "$(variant_image "$v")"
	done
}

# bench_kinfo VARIANT: release and build string of the kernel.
bench_kinfo() {
	local bdir
	bdir=$(variant_bdir "$1")
	printf '%s, %s' "$(cat "$bdir/include/config/kernel.release")" \
		"$(sed -n 's/^#define UTS_VERSION "\(.*\)"$/\1/p' "$bdir/include/generated/utsversion.h")"
}

# bench_set_clock CLOCK: QEMU_ARGS for single-threaded TCG with guest time
# from the host clock ("host": what a person waits for, but host load moves
# it by several percent between runs) or counted in executed instructions
# ("icount", -icount shift=0: 1 ns each, the same on every run, which
# resolves a 1% difference; not for a UART stall, where icount would
# freeze time).
bench_set_clock() {
	# shellcheck disable=SC2054 # one option and its value, not a list
	case $1 in
	host)   QEMU_ARGS=(-accel tcg,thread=single) ;;
	icount) QEMU_ARGS=(-accel tcg,thread=single -icount shift=0,sleep=off) ;;
	*)      die "CLOCK=$1: use CLOCK=host or CLOCK=icount" ;;
	esac
}

# bench_boot VARIANT INITRD CPUS DIR CMDLINE [QEMU-ARGS...]: boot once; leaves
# "INIT_MS PRINTK_MS WALL_S" in BOOT_RESULT: /init's first instruction in ms
# from counter zero (QEMU machine start), the printk time of "Run /init as
# init process" in ms ("-" if absent), and QEMU's wall time. Stops the
# benchmark unless QEMU exited 0 and the guest reached "# bst-done".
bench_boot() {
	local v=$1 initrd=$2 cpus=$3 dir=$4 cmdline=$5 rc=0 t0 t1 ms pk
	shift 5
	t0=$(date +%s.%N)
	boot_guest "$v" "$initrd" "$cpus" "$dir" "$cmdline" "$@" || rc=$?
	t1=$(date +%s.%N)
	if [ "$rc" -ne 0 ]; then
		die "$v boot in $dir: QEMU exit $rc$([ "$rc" -eq 124 ] && echo " (timeout ${QEMU_TIMEOUT}s)"); see $dir/console.log and $dir/qemu.log"
	fi
	grep -q '^# bst-done' "$dir/results.log" ||
		die "$v boot in $dir: the guest never printed '# bst-done'; see $dir/console.log and $dir/results.log"
	ms=$(init_start_ms "$dir/results.log")
	[ -n "$ms" ] ||
		die "$v boot in $dir: no '# bst-init started counter=N freq=F' line in results.log; run 'scripts/build/build-guest.sh series'"
	# printk time (sched_clock, from about time_init()) of the kernel's
	# "Run /init" line, when the PL011 printed it.
	pk=$(tr -d '\r' <"$dir/console.log" | sed -n 's/^\[ *\([0-9.]*\)\] Run \/init as init process$/\1/p' | head -1)
	BOOT_RESULT=$(awk -v ms="$ms" -v pk="${pk:--}" -v t0="$t0" -v t1="$t1" 'BEGIN {
		printf "%s %s %.3f", ms, pk == "-" ? "-" : sprintf("%.3f", pk * 1000), t1 - t0 }')
}

# bench_order ROUND CONFIG...: the configurations in the order round ROUND
# boots them, one per line. The order rotates: round i starts with the i-th
# configuration, so over n rounds each one boots first, second, ... equally
# often and whatever favours a position in the round cancels (with two
# configurations this is ABBA).
bench_order() {
	local round=$1 n k i
	shift
	n=$#
	for ((k = 0; k < n; k++)); do
		i=$(((round - 1 + k) % n + 1))
		printf '%s\n' "${!i}"
	done
}

# bench_rounds RUNS WARMUP FUNC CONFIG...: all the boots of a benchmark:
# WARMUP rounds that are not measured (cold host caches), then RUNS measured
# rounds in bench_order's order. FUNC CONFIG RUN N TOTAL boots once; RUN is
# the round of a measured boot, or "warmup-K" or "prime-K" for a boot that is
# not measured (bench_measured tells which); N counts the measured boots from
# 1 to TOTAL. FUNC runs under set -e (not in a || list, where bash would
# ignore it), so a failing command in it stops the benchmark.
#
# BENCH_PRIME=1 (bench_set_prime): an unmeasured boot of the same
# configuration right before each measured one. With the host clock, how
# long a boot takes depends on what QEMU booted just before it (on the 2-core
# machine, the series after loglevel=1 took 862 ms, after itself 724 ms),
# which no kernel under test can cause; priming gives every measured boot
# the same predecessor: itself.
bench_rounds() {
	local runs=$1 warmup=$2 fn=$3 i c n=0 total order
	shift 3
	total=$((runs * $#))
	for ((i = 1; i <= warmup; i++)); do
		for c in "$@"; do
			"$fn" "$c" "warmup-$i" 0 "$total"
		done
	done
	for ((i = 1; i <= runs; i++)); do
		mapfile -t order < <(bench_order "$i" "$@")
		for c in "${order[@]}"; do
			[ "${BENCH_PRIME:-0}" = 0 ] || "$fn" "$c" "prime-$i" "$n" "$total"
			n=$((n + 1))
			"$fn" "$c" "$i" "$n" "$total"
		done
	done
}

# bench_measured RUN: true for the RUN of a measured boot (bench_rounds).
bench_measured() { [[ $1 =~ ^[0-9]+$ ]]; }

# bench_prime_note WHAT: for results.md, how the measured boots of WHAT
# ("configuration", "kernel") were primed; empty without priming.
bench_prime_note() {
	[ "${BENCH_PRIME:-0}" = 0 ] ||
		echo "; each measured boot right after an unmeasured boot of the same $1 (PRIME=1)"
}

# bench_set_prime CLOCK: BENCH_PRIME from PRIME (0 or 1), by default 1 for
# the host clock and 0 for icount, whose boots do not depend on what ran
# before (guest time counts instructions).
bench_set_prime() {
	local def=1
	[ "$1" = host ] || def=0
	BENCH_PRIME=${PRIME:-$def}
	[[ $BENCH_PRIME =~ ^[01]$ ]] || die "PRIME=$BENCH_PRIME: use PRIME=1 (a boot of the same configuration before each measured boot) or PRIME=0"
}

# bench_start OUT VARIANT...: a fresh OUT/boots, and what bench_finish
# compares: the Images' checksums, the load average and the start time.
bench_start() {
	local out=$1
	shift
	rm -rf "$out"
	mkdir -p "$out/boots"
	BENCH_SUMS=$(bench_image_sums "$@")
	BENCH_LOAD_BEFORE=$(cut -d' ' -f1-3 /proc/loadavg)
	BENCH_T0=$(date +%s.%N)
}

# bench_finish VARIANT...: stop if an Image changed during the run; sets
# BENCH_LOAD_AFTER and BENCH_WALL (seconds).
bench_finish() {
	[ "$(bench_image_sums "$@")" = "$BENCH_SUMS" ] ||
		die "a kernel Image changed during the benchmark (rebuilt?): the results mix two builds; rerun"
	BENCH_LOAD_AFTER=$(cut -d' ' -f1-3 /proc/loadavg)
	BENCH_WALL=$(awk -v a="$BENCH_T0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.0f", b - a }')
}

# bench_revision: the commit of this repository the benchmark ran from,
# with "+dirty" when tracked files differ from it (results.json's
# "revision": which patches/ and scripts a committed result measured).
bench_revision() {
	local rev
	rev=$(git -C "$BST_TOP" rev-parse --short=12 HEAD 2>/dev/null) || rev=unknown
	[ -z "$(git -C "$BST_TOP" status --porcelain -uno 2>/dev/null)" ] || rev+=+dirty
	echo "$rev"
}
