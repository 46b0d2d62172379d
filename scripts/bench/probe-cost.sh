#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# probe-cost.sh: what the module's kretprobe on really_probe() (the probes
# file, module/probes.c) adds to a driver probe. Each boot of the series
# kernel in QEMU virt runs selftests/bootstamp/probe_cost: 8 rounds of 25
# sysfs binds of the PL061 with the module loaded and unloaded, in
# alternating order, and prints the median bind of each. This boots it
# RUNS times and takes the median over boots of those medians.
#
#   [CLOCK=host|icount] RUNS=5 scripts/bench/probe-cost.sh
#
# CLOCK=icount: guest time counts instructions (the same on every run);
# CLOCK=host: guest time follows the host clock. It never builds: the series
# kernel and the guest programs must exist. Results go to
# out/bench/probe-cost-$CLOCK/ (runs.tsv, results.md, results.json, boots/
# logs), or to BENCH_OUT.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib.sh"

RUNS=${RUNS:-5}
CPUS=${CPUS:-4}
V=series
CLOCK=${CLOCK:-icount}
bench_set_clock "$CLOCK"
[[ $RUNS =~ ^[1-9][0-9]*$ ]] || die "RUNS=$RUNS: give a number of boots, at least 1"
[[ $CPUS =~ ^[1-9][0-9]*$ ]] || die "CPUS=$CPUS: give a number of guest CPUs"
CMDLINE="console=ttyAMA0 panic=-1 bst.run=bootstamp/probe_cost bst.timeout=600"
OUT=${BENCH_OUT:-$BST_OUT/bench/probe-cost-$CLOCK}
need_cmd qemu-system-aarch64
bench_check_built "$V"
[ -x "$BST_GUEST/tests/bootstamp/probe_cost" ] ||
	die "no guest program probe_cost: run 'scripts/build/build-guest.sh $V', then rerun"

bench_start "$OUT" "$V"
write_expect "$V" "$CPUS" >"$OUT/$V.expect"
"$BST_TOP/scripts/guest/mkinitramfs.sh" "$V" "$OUT/$V.cpio" "$OUT/$V.expect"
say "kretprobe cost: $RUNS boots of $V, each 200 binds with and 200 without the module, ${QEMU_ARGS[*]}"
printf 'config\trun\tvalue\n' >"$OUT/runs.tsv"
printf 'run\tself_ns\n' >"$OUT/self.tsv"
for ((i = 1; i <= RUNS; i++)); do
	dir=$OUT/boots/$i
	QEMU_TIMEOUT=900 bench_boot "$V" "$OUT/$V.cpio" "$CPUS" "$dir" "$CMDLINE" "${QEMU_ARGS[@]}"
	grep -q '^not ok' "$dir/results.log" &&
		die "boot $i: probe_cost failed a check (see $dir/results.log): its times would not be the kretprobe's"
	line=$(sed -n 's/^# probe_cost \(off_ns=.*\)$/\1/p' "$dir/results.log")
	[ -n "$line" ] || die "boot $i: no '# probe_cost' line in $dir/results.log"
	off=$(sed -n 's/.*off_ns=\([0-9]*\).*/\1/p' <<<"$line")
	on=$(sed -n 's/.*on_ns=\([0-9]*\).*/\1/p' <<<"$line")
	# The module's own figure (summary's probe_cost_ns, measured at load;
	# -1 if it gave none): beside the bench's, not part of the statistics.
	self=$(sed -n 's/.*self_ns=\(-*[0-9]*\).*/\1/p' <<<"$line")
	printf '%s\t%s\n' "$i" "${self:--1}" >>"$OUT/self.tsv"
	awk -v i="$i" -v a="$off" -v b="$on" 'BEGIN {
		printf "without module\t%s\t%.1f\nwith kretprobe\t%s\t%.1f\n", i, a / 1e3, i, b / 1e3 }' >>"$OUT/runs.tsv"
	printf '    [%d/%d] median bind: %s ns without, %s ns with the module\n' "$i" "$RUNS" "$off" "$on"
done
bench_finish "$V"

self_note=$(awk -F'\t' 'NR > 1 && $2 > 0 { print $2 }' "$OUT/self.tsv" | sort -n | awk '
	{ v[NR] = $1 }
	END {
		if (!NR) { print "The module gave no figure of its own (summary probe_cost_ns)."; exit }
		m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
		printf "The module'"'"'s own figure for the same cost (summary'"'"'s probe_cost_ns, which it measures at each load: a call with and without a kretprobe of its own): median %.1f us over %d boots (self.tsv).", m / 1e3, NR
	}')
python3 "$BST_TOP/scripts/bench/stats.py" "$OUT/runs.tsv" --ref "without module" --unit us --digits 1 \
	--md "$OUT/results.md" --title "Cost of the probes file's kretprobe on a driver probe" \
	--json "$OUT/results.json" --bench "$(basename "$OUT")" \
	--metric "Median time of a sysfs bind of the PL061 (one really_probe()) in one boot, in us, over 200 binds per configuration in alternating rounds; then the median over boots." \
	--meta "date=$(date -u '+%Y-%m-%d %H:%M UTC')" \
	--meta "guest=QEMU virt, -smp $CPUS, \`${QEMU_ARGS[*]}\`, $(bench_kinfo "$V")" \
	--meta "load average=before $BENCH_LOAD_BEFORE, after $BENCH_LOAD_AFTER; wall time ${BENCH_WALL} s" \
	--meta "clock=$CLOCK" --meta "runs=$RUNS" --meta "revision=$(bench_revision)" \
	--meta "reproduce=\`CLOCK=$CLOCK RUNS=$RUNS CPUS=$CPUS scripts/bench/probe-cost.sh\`" \
	--note "$self_note" \
	--note "What QEMU shows: with CLOCK=icount the instructions the probe path adds (two BRK exceptions and the handlers on entry, the return trampoline), with CLOCK=host what TCG makes of them. Not an exception's latency on a Cortex-A76, nor the stop_machine() that arming and disarming the kretprobe take at module load and unload. The guest program is QEMU-only (it rebinds a PL031 or PL061 and loads /lib/modules/bootstamp.ko): no board figure."
info "results: ${OUT#"$BST_TOP"/}/results.md, results.json"
