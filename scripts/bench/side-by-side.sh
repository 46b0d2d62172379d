#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# side-by-side.sh: the same boot through the tools a Raspberry Pi user
# already has and through bootstamp, for one test-only driver, and what each
# shows of it, costs and needs (issue 30). The series kernel boots in QEMU
# virt once per tool and round, in rotating order:
#   plain           no tool: the reference of the costs
#   initcall_debug  initcall_debug log_buf_len=1M; the kernel log through the
#                   tree's scripts/bootgraph.pl as well
#   ftrace          boot-time tracing of the scheduler events with a stack
#                   per switch, on the default clock, read as it is
#   bootstamp       the module alone, through scripts/report/bootreport:
#                   its own scheduler events of the probe's task (and the
#                   kernel's of PID 1 until init), no tracing and no
#                   command line option (Documentation/admin-guide/
#                   bootstamp.rst, "Where the time went")
# After /init each boot runs selftests/bootstamp/side_by_side, which loads
# bst_attr (its probe defers once, then sleeps 50 ms in bst_attr_sleep,
# spins 20 ms and waits 30 ms on a completion in bst_attr_wait) and copies
# back the kernel log, the trace and the module's files. systemd-analyze
# gets no boot: the guest has no systemd; the plain boot's kernel log is
# imported into a journal file (systemd-journal-remote), and the results
# say what journalctl and systemd-analyze make of it.
#
#   [CLOCK=icount|host] RUNS=3 CPUS=2 scripts/bench/side-by-side.sh
#
# Cost: counter zero (QEMU machine start) to /init's first instruction,
# against the plain boot; with CLOCK=icount (the default) guest time counts
# instructions, so the costs compare. bst_attr loads after /init and is in
# no cost. It never builds: the series kernel and the guest programs must
# exist (make bench-side-by-side builds them). Results go to
# out/bench/side-by-side-$CLOCK/ (runs.tsv, shown.tsv, results.md,
# results.json, shown.json, table.md, boots/), or to BENCH_OUT.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib.sh"

RUNS=${RUNS:-3}
CPUS=${CPUS:-2}
WARMUP=${WARMUP:-0}
V=series
CONFIGS=(plain initcall_debug ftrace bootstamp)
SCHED="trace_event=sched:sched_switch,sched:sched_waking trace_trigger=sched_switch.stacktrace trace_buf_size=1M"
declare -A EXTRA=(
	[plain]=""
	[initcall_debug]=" initcall_debug log_buf_len=1M"
	[ftrace]=" $SCHED"
	[bootstamp]=" bst.insmod=bootstamp.ko"
)
CLOCK=${CLOCK:-icount}
bench_set_clock "$CLOCK"
CMDLINE="console=ttyAMA0 panic=-1 bst.run=bootstamp/side_by_side bst.dump=/tmp/sbs"
OUT=${BENCH_OUT:-$BST_OUT/bench/side-by-side-$CLOCK}
PY=$BST_TOP/scripts/bench/side_by_side.py
STATS=$BST_TOP/scripts/bench/stats.py
BOOTGRAPH=$(variant_tree "$V")/scripts/bootgraph.pl
JREMOTE=/lib/systemd/systemd-journal-remote

for n in RUNS CPUS WARMUP; do
	[[ ${!n} =~ ^[0-9]+$ ]] || die "$n=${!n} is not a number"
done
[ "$RUNS" -ge 1 ] || die "RUNS must be at least 1"
bench_set_prime "$CLOCK"
need_cmd qemu-system-aarch64
need_cmd python3
need_cmd perl

# --- preflight: everything must already be built ------------------------------

bench_check_built "$V"
grep -q '^CONFIG_BOOTSTAMP=y' "$(variant_bdir "$V")/.config" ||
	die "$(variant_bdir "$V")/.config: no CONFIG_BOOTSTAMP=y; rebuild with 'scripts/build/build-kernel.sh $V'"
bench_check_init
[ -x "$BST_GUEST/tests/bootstamp/side_by_side" ] ||
	die "no guest program side_by_side: run 'scripts/build/build-guest.sh $V', then rerun"
[ -f "$(guest_module_dir "$V")/selftests/bootstamp/modules/bst_attr.ko" ] ||
	die "no bst_attr.ko for the $V kernel: run 'scripts/build/build-guest.sh $V', then rerun"
[ -f "$BOOTGRAPH" ] || die "no $BOOTGRAPH: the $V tree is not there (make series)"

# --- setup ---------------------------------------------------------------------

bench_start "$OUT" "$V"
say "side by side: ${CONFIGS[*]}, $RUNS boots each, -smp $CPUS, ${QEMU_ARGS[*]}"
info "load average before: $BENCH_LOAD_BEFORE ($(nproc) host CPUs)"
write_expect "$V" "$CPUS" >"$OUT/$V.expect"
"$BST_TOP/scripts/guest/mkinitramfs.sh" "$V" "$OUT/$V.cpio" "$OUT/$V.expect"

printf 'config\trun\tvalue\n' >"$OUT/runs.tsv"
printf 'config\trun\tvalue\n' >"$OUT/shown.tsv"

# measure CONFIG RUN N TOTAL: one boot (bench_rounds); a measured one is
# recorded, with what its tool shows of bst_attr (side_by_side.py shows).
measure() {
	local c=$1 i=$2 dir=$OUT/boots/$1-$2 ms wall
	bench_boot "$V" "$OUT/$V.cpio" "$CPUS" "$dir" "$CMDLINE${EXTRA[$c]}" "${QEMU_ARGS[@]}"
	read -r ms _ wall <<<"$BOOT_RESULT"
	if grep -q '^not ok' "$dir/results.log"; then
		die "$c boot in $dir: side_by_side failed a step (see $dir/results.log): nothing to compare"
	fi
	if ! bench_measured "$i"; then
		info "$i $c: /init at $ms ms (not counted)"
		return 0
	fi
	extract_files "$dir/results.log" "$dir/dump"
	if [ "$c" = initcall_debug ]; then
		perl "$BOOTGRAPH" <"$dir/dump/dmesg" >"$dir/bootgraph.svg" 2>"$dir/bootgraph.log" ||
			die "$c boot in $dir: bootgraph.pl failed (see $dir/bootgraph.log)"
	fi
	if [ "$c" = bootstamp ]; then
		"$BST_TOP/selftests/bootreport/host-check" "$dir" >"$dir/host-check.log" 2>&1 || true
	fi
	printf '%s\t%s\t%s\n' "$c" "$i" "$ms" >>"$OUT/runs.tsv"
	python3 "$PY" shows "$c" "$i" "$dir" >>"$OUT/shown.tsv"
	printf '    [%2d/%d] %-14s run %2d: /init at %8s ms  (QEMU %s s)\n' "$3" "$4" "$c" "$i" "$ms" "$wall"
}
bench_rounds "$RUNS" "$WARMUP" measure "${CONFIGS[@]}"
bench_finish "$V"

# systemd-analyze: the plain boots' kernel logs as a journal, and what
# systemd-analyze can do with it (side_by_side.py journal says).
if [ -x "$JREMOTE" ]; then
	for ((i = 1; i <= RUNS; i++)); do
		dir=$OUT/boots/plain-$i
		python3 "$PY" export "$dir/dump/dmesg" >"$dir/kernel.export"
		rm -f "$dir/guest.journal"
		"$JREMOTE" --output="$dir/guest.journal" - <"$dir/kernel.export" >"$dir/journal-remote.log" 2>&1 ||
			die "systemd-journal-remote failed on $dir/kernel.export (see $dir/journal-remote.log)"
		journalctl --file="$dir/guest.journal" -o short-monotonic --no-pager >"$dir/journal.txt" 2>&1 || true
	done
fi
{ systemd-analyze --help 2>&1 || true; } >"$OUT/systemd-analyze-help.txt"
{ systemd-analyze time 2>&1 || true; } >"$OUT/systemd-analyze-time.txt"
info "load average after: $BENCH_LOAD_AFTER; wall time ${BENCH_WALL}s"

# --- results ---------------------------------------------------------------------

bench=$(basename "$OUT")
meta=(
	--meta "date=$(date -u '+%Y-%m-%d %H:%M UTC')"
	--meta "host=$(nproc) CPUs, $(qemu-system-aarch64 --version | head -1)"
	--meta "guest=QEMU virt, cortex-a76, -smp $CPUS, -m 512, \`${QEMU_ARGS[*]}\`, $(bench_kinfo "$V"), kernel command line \`$CMDLINE\` plus the tool's"
	--meta "boots=$RUNS per configuration, interleaved in rotating order; $WARMUP warm-up boot(s) per configuration not counted$(bench_prime_note configuration)"
	--meta "initcall_debug=+\`${EXTRA[initcall_debug]# }\`"
	--meta "ftrace=+\`${EXTRA[ftrace]# }\`"
	--meta "bootstamp=+\`${EXTRA[bootstamp]# }\`"
	--meta "load average=before $BENCH_LOAD_BEFORE, after $BENCH_LOAD_AFTER"
	--meta "wall time=${BENCH_WALL} s"
	--meta "clock=$CLOCK"
	--meta "runs=$RUNS"
	--meta "revision=$(bench_revision)"
	--meta "reproduce=\`CLOCK=$CLOCK RUNS=$RUNS CPUS=$CPUS WARMUP=$WARMUP PRIME=$BENCH_PRIME scripts/bench/side-by-side.sh\`"
)
say "cost: counter zero to /init ($RUNS boots each)"
python3 "$STATS" "$OUT/runs.tsv" --ref plain --unit ms \
	--md "$OUT/results.md" --title "Side by side: what each tool costs at boot" \
	--json "$OUT/results.json" --bench "$bench" \
	--metric "Time from counter zero (QEMU machine start) to /init's first instruction, in ms, per tool's command line on the same series kernel; ratio against the plain boot. Lower is better." \
	"${meta[@]}" --note "What each tool shows of bst_attr: \`shown.json\`, \`table.md\`; logs: \`boots/\`."
say "what each tool shows of bst_attr (medians over the runs, ms)"
python3 "$STATS" "$OUT/shown.tsv" --unit ms \
	--md "$OUT/shown.md" --title "Side by side: what each tool shows of bst_attr" \
	--json "$OUT/shown.json" --bench "$bench-shown" \
	--metric "The times each tool printed for the test-only driver bst_attr (TOOL:ITEM), and the driver's own account of its parts in the bootstamp boots (driver:ITEM), in ms." \
	"${meta[@]}"
# What each tool printed, as words (sites, lines, verdicts), into results.json.
python3 "$PY" tools "$OUT" "${CONFIGS[@]}"
python3 "$PY" table "$OUT/results.json" "$OUT/shown.json" >"$OUT/table.md"
cat "$OUT/table.md"
echo
info "load average before $BENCH_LOAD_BEFORE, after $BENCH_LOAD_AFTER; wall time ${BENCH_WALL}s"
info "results: ${OUT#"$BST_TOP"/}/results.json, shown.json, table.md; to publish: scripts/bench/side_by_side.py publish ${OUT#"$BST_TOP"/}"
