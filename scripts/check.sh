#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# check.sh [--full] [BOOT...]: everything `make check` does, in order; with
# --full, everything `make check-full` does: that, the boots of
# selftests/plan-full with the kernels they need, and a whole kernel per
# patch. Each stage is a recorded result; a stage that fails stops the run
# (later stages depend on it), and the run always ends with the line
# "N passed, N failed". The time table of the run is printed at its end.
. "$(dirname "$0")/lib.sh"

export BST_TIER=ci
full=()		# what the --full tier passes on to the gates
if [ "${1:-}" = --full ]; then
	BST_TIER=full
	full=(--full)
	shift
fi

export BST_RESULTS=$BST_OUT/check/results.tsv
[ "$BST_TIER" = ci ] || BST_RESULTS=$BST_OUT/check/results-full.tsv
mkdir -p "$BST_OUT/check"
: >"$BST_RESULTS"
TIMES=${BST_RESULTS%.tsv}-times.tsv	# the time table: step, wall and CPU seconds
: >"$TIMES"
S=$BST_TOP/scripts
t_start=$(date +%s)

summary() {
	local pass fail skip
	# a skip that selftests/expected-skips does not name fails the run
	expected_skips "$BST_RESULTS" "$BST_TOP/selftests/expected-skips"
	pass=$(grep -c '^pass' "$BST_RESULTS" || true)
	fail=$(grep -c '^fail' "$BST_RESULTS" || true)
	skip=$(grep -c '^skip' "$BST_RESULTS" || true)
	echo
	if [ "$fail" -gt 0 ]; then
		say "failed:"
		awk -F'\t' '$1 == "fail" { print "    " $2 ($3 ? "  (" $3 ")" : "") }' "$BST_RESULTS"
	fi
	if [ "$skip" -gt 0 ]; then
		say "skipped:"
		awk -F'\t' '$1 == "skip" { print "    " $2 "  (" $3 ")" }' "$BST_RESULTS"
	fi
	# CPU: user plus system time of what the step ran; two cores give
	# twice the wall time. The kernels build in the background, beside
	# the steps of the same time (their own lines).
	say "time per step (wall and CPU seconds; ${TIMES#"$BST_TOP"/})"
	echo "      wall     cpu"
	awk -F'\t' '{ printf "    %6d  %6d  %s\n", $2, $3, $1 }' "$TIMES"
	info "results: ${BST_RESULTS#"$BST_TOP"/}, wall time $(( $(date +%s) - t_start ))s"
	if [ $((pass + fail)) -eq 0 ]; then
		echo "no test ran"
		fail=1
	fi
	echo "$pass passed, $fail failed, $skip skipped"
	[ "$fail" -eq 0 ]
}

# timed STEP CMD...: run CMD and add its wall and CPU time to the time table.
timed() {
	local what=$1 t0 cpu0 rc=0
	shift
	t0=$(date +%s)
	children_cpu
	cpu0=$CHILDREN_CPU
	"$@" || rc=$?
	children_cpu
	printf '%s\t%s\t%s\n' "$what" $(( $(date +%s) - t0 )) $(( CHILDREN_CPU - cpu0 )) >>"$TIMES"
	return "$rc"
}

# stage NAME CMD...: run a preparation stage; a failure is recorded and ends the run.
stage() {
	local name=$1
	shift
	if timed "${name#host: }" "$@"; then
		record pass "$name"
	else
		record fail "$name" "see the error above"
		summary
		exit 1
	fi
}

# The variants the selected boots need, built once each; the series always.
# The unpatched tree's kernel is built only when a boot needs it (make
# check-full): after the series it costs about 7 minutes on a new machine
# (437 s measured), since ccache preprocesses every file again (the
# series' options change autoconf.h), for boots of a few seconds each.
# compile-checks.sh compiles the base versions of the files it compares in
# that tree's configured O= directory either way.
check_boot_variant
variants=$({ echo series; plan_lines "$@" | awk '{ print $2 }'; } | awk '!seen[$0]++')

stage "host: Debian packages installed" "$S/setup/deps.sh"
stage "host: kernel tree ready" "$S/setup/fetch-tree.sh"
stage "host: patches/ applies to the base with git am" "$S/setup/apply-series.sh"
# The benchmark trees the kernels need (worktrees with test-only patches),
# made here, so that no git command in the background runs beside those
# of the gates on the same repository.
lab_trees() {
	local v lab
	for v in $variants; do
		lab=$(variant_lab "$v")
		[ -z "$lab" ] || "$S/bench/lab-tree.sh" "$lab" || return
	done
}
stage "host: test-only trees of the kernels ready" lab_trees
# The kernels build in the background one after another, the series first
# (scripts/build/build-kernels.sh): beside the gates below, which are one
# process each (perl, Python, git, Sphinx), and beside each patch's build
# on its own, so that on 2 cores a kernel build keeps one core busy while
# a step that runs one process at a time has the other.
# (The cold runs of this layout and of the ones before it: README.md, the
# time table of make check.) Its own session, so that an exit stops all of it.
kdir=$BST_OUT/check/kernels
rm -rf "$kdir"
mkdir -p "$kdir"
# shellcheck disable=SC2086 # one variant per word
setsid "$S/build/build-kernels.sh" "$kdir" $variants >"$kdir/build-kernels.log" 2>&1 </dev/null &
kernels_pid=$!
trap 'kill -- -"$kernels_pid" 2>/dev/null || true' EXIT
info "the kernels build beside the gates: $(tr "\n" " " <<<"$variants")(logs: ${kdir#"$BST_TOP"/}/)"
# kernel_built VARIANT: wait for its build, print its log, record it as a
# stage (the time table gets the build's own wall and CPU time).
kernel_built() {
	local v=$1 t0 rc wall cpu
	t0=$(date +%s)
	while [ ! -e "$kdir/$v.end" ] && kill -0 "$kernels_pid" 2>/dev/null; do
		sleep 2
	done
	printf '%s\t%s\t0\n' "wait for the $v kernel build" $(( $(date +%s) - t0 )) >>"$TIMES"
	sed 's/^/    /' "$kdir/$v.log" 2>/dev/null || true
	if ! read -r rc wall cpu <"$kdir/$v.end" 2>/dev/null; then
		sed 's/^/    /' "$kdir/build-kernels.log"
		rc=lost wall=0 cpu=0
	fi
	printf '%s\t%s\t%s\n' "$v kernel builds (in the background)" "$wall" "$cpu" >>"$TIMES"
	if [ "$rc" = 0 ]; then
		record pass "host: $v kernel builds"
	else
		record fail "host: $v kernel builds" "exit $rc: see ${kdir#"$BST_TOP"/}/$v.log"
		summary
		exit 1
	fi
}
timed "checkpatch" "$S/gates/static-checks.sh"
timed "documentation gates" "$S/gates/docs-checks.sh" ||
	record fail "documentation gates" "docs-checks.sh stopped early"
timed "b4 round trip and recipients" "$S/upstream/roundtrip-check.sh" ||
	record fail "upstream workflow" "roundtrip-check.sh stopped early"
python_unit_tests() {
	unit_tests report "$S/report/tests"
	unit_tests "boot judges" "$S/boots/tests"
	unit_tests "docs numbers" "$S/gates/tests"
	# bootstamp-dump against a fake debugfs, the units' commands,
	# systemd-analyze verify and shellcheck (skipped where missing).
	unit_tests "module/systemd" "$BST_TOP/module/systemd/tests"
	local d
	for d in "$BST_TOP"/selftests/*/tests; do
		# The mutants' tests apply them to the series and debug trees:
		# after the kernel builds below have brought those up to date.
		[ "$d" = "$BST_TOP/selftests/mutants/tests" ] ||
			[ ! -d "$d" ] || unit_tests "$(basename "$(dirname "$d")") host-check" "$d"
	done
}
timed "Python unit tests" python_unit_tests
stage "host: sparse for this tree (scripts/build/build-sparse.sh)" "$S/build/build-sparse.sh"
# sparse and W=1 (compile-checks.sh, for each patch and for the series)
# compile the base side of the files in the baseline's O= directory, and
# keep it in compile-checks/ for this run.
rm -rf "$BST_OUT/check/compile-checks"
if grep -qx baseline <<<"$variants"; then
	kernel_built baseline
else
	stage "host: baseline configured (for the base side of sparse and W=1)" \
		"$S/build/build-kernel.sh" --configure-only baseline
	stage "host: module/ compiles against the unpatched tree (no baseline kernel: no link)" \
		"$S/build/build-guest.sh" --module-only baseline
fi
# Each patch on its own, in a worktree of its own: beside the series
# kernel's build, whose objects it does not need (it compiles what each
# patch changes), one make at a time.
timed "each patch builds on its own" "$S/gates/bisect-builds.sh" "${full[@]}" ||
	record fail "bisect builds" "bisect-builds.sh stopped early"
kernel_built series
stage "host: guest programs build for series" "$S/build/build-guest.sh" series
# compile-checks.sh exits 1 when the series does not build (recorded).
# (An exit 1 without a recorded result is a script that stopped early.)
timed "sparse and W=1 on the series" "$S/gates/compile-checks.sh" ||
	{ [ $? -eq 1 ] && grep -q $'\tsparse and W=1: series: the objects it changes build' "$BST_RESULTS"; } ||
	record fail "sparse and W=1" "compile-checks.sh stopped early"
for v in $variants; do
	case $v in
	series) continue ;;
	baseline) ;;	# waited for above
	*) kernel_built "$v" ;;
	esac
	stage "host: guest programs build for $v" "$S/build/build-guest.sh" "$v"
done
wait "$kernels_pid" || true	# (its failure is the kernel's, recorded)
timed "mutants apply to the trees just built" \
	unit_tests "mutants host-check" "$BST_TOP/selftests/mutants/tests"
# check-full: each series alone and all together on every Debian tree of
# scripts/config/trees (7.2, 7.3, 6.12): applies and builds, or a skip
# that says why (scripts/config/tree-backports).
if [ "$BST_TIER" = full ] && [ $# -eq 0 ]; then
	timed "series on other trees" "$S/gates/tree-builds.sh" ||
		record fail "series on other trees" "tree-builds.sh stopped early"
fi
timed "boots ($(plan_lines "$@" | wc -l))" "$S/boots/run-boots.sh" "$@" ||
	record fail "boots" "run-boots.sh stopped early or lost a boot (see above)"
# check-full: the benchmarks' headline ratios, one icount pair each, with
# a loose bound (scripts/bench/headlines.sh).
if [ "$BST_TIER" = full ] && [ $# -eq 0 ]; then
	timed "benchmark headlines" "$S/bench/headlines.sh" ||
		record fail "benchmark headlines" "headlines.sh stopped early"
fi
# bootreport's split, compare and stats on the dumps this run's boots left
# (selftests/bootreport/dumps-check): two or more boots of the same kernel.
# Its KTAP goes through ktap.py like a host-check's, wrapped the same way,
# so that a crash, a missing plan or a short count is a failure.
dumps_check() {
	local b dumps=() rc=0 log=$BST_OUT/check/dumps-check.log
	for b in bootstamp-full bootreport-repeat1 bootreport-repeat2; do
		plan_lines "$@" | awk '{ print $1 }' | grep -qx "$b" &&
			[ -f "$BST_OUT/check/$b/dump/summary" ] && dumps+=("$BST_OUT/check/$b/dump")
	done
	if [ ${#dumps[@]} -lt 2 ] && [ $# -gt 0 ]; then
		record skip "bootreport on this run's dumps" \
			"needs two of the boots bootstamp-full, bootreport-repeat1, bootreport-repeat2 in the run"
		return 0
	fi
	# The whole plan has all three: fewer dumps is a lost boot or dump.
	if [ ${#dumps[@]} -lt 2 ]; then
		record fail "bootreport on this run's dumps" \
			"${#dumps[@]} dumps of bootstamp-full, bootreport-repeat1, bootreport-repeat2 arrived; the plan has all three"
		return 0
	fi
	{
		echo "# bst-begin dumps-check"
		"$BST_TOP/selftests/bootreport/dumps-check" "${dumps[@]}" 2>&1 || rc=$?
		echo "# bst-end dumps-check exit=$rc"
	} >"$log"
	judge_rows "bootreport dumps: judged (ktap.py; ${log#"$BST_TOP"/})" \
		python3 "$S/boots/ktap.py" "$log" "bootreport dumps" dumps-check
}
timed "bootreport on this run's dumps" dumps_check "$@"
# check-full: the mutation gate; every mutant of selftests/mutants/ must turn a boot red.
if [ "$BST_TIER" = full ] && [ $# -eq 0 ]; then
	timed "mutation gate" "$S/gates/mutants.sh" || [ $? -eq 3 ] ||
		record fail "mutation gate" "mutants.sh stopped early"
fi
summary
