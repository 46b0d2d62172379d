#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# check.sh [BOOT...]: everything `make check` does, in order. Each stage is a
# recorded result; a stage that fails stops the run (later stages depend on
# it), and the run always ends with the line "N passed, N failed".
. "$(dirname "$0")/lib.sh"

export BST_RESULTS=$BST_OUT/check/results.tsv
mkdir -p "$BST_OUT/check"
: >"$BST_RESULTS"
S=$BST_TOP/scripts
t_start=$(date +%s)

summary() {
	local pass fail skip
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
	info "results: ${BST_RESULTS#"$BST_TOP"/}, wall time $(( $(date +%s) - t_start ))s"
	if [ $((pass + fail)) -eq 0 ]; then
		echo "no test ran"
		fail=1
	fi
	echo "$pass passed, $fail failed, $skip skipped"
	[ "$fail" -eq 0 ]
}

# stage NAME CMD...: run a preparation stage; a failure is recorded and ends the run.
stage() {
	local name=$1
	shift
	if "$@"; then
		record pass "$name"
	else
		record fail "$name" "see the error above"
		summary
		exit 1
	fi
}

# The report tools' Python unit tests, one result per test.
report_unit_tests() {
	local status name rest n=0
	while read -r name rest; do
		n=$((n + 1))
		case $rest in
		*"... ok")        status=pass ;;
		*"... skipped"*)  status=skip ;;
		*)                status=fail ;;
		esac
		record "$status" "report: $name" "${rest##*... }"
	done < <(python3 -m unittest discover -s "$BST_TOP/scripts/report/tests" -v 2>&1 |
		 grep -E '^test_\S+ \(.*\) \.\.\. ')
	[ "$n" -gt 0 ] || record fail "report: unit tests" "no test ran (import error?)"
}

# The variants the selected boots need, built once each; baseline and series
# always (compile-checks.sh compares them).
check_boot_variant
variants=$({ echo baseline; echo series; plan_lines "$@" | awk '{ print $2 }'; } | awk '!seen[$0]++')

stage "host: Debian packages installed" "$S/deps.sh"
stage "host: kernel tree ready" "$S/fetch-tree.sh"
stage "host: patches/ applies to the base with git am" "$S/apply-series.sh"
"$S/static-checks.sh"
"$S/docs-checks.sh" || record fail "documentation gates" "docs-checks.sh stopped early"
"$S/upstream/roundtrip-check.sh" || record fail "upstream workflow" "roundtrip-check.sh stopped early"
report_unit_tests
stage "host: sparse for this tree (scripts/build-sparse.sh)" "$S/build-sparse.sh"
for v in $variants; do
	stage "host: $v kernel builds" "$S/build-kernel.sh" "$v"
	stage "host: guest programs build for $v" "$S/build-guest.sh" "$v"
done
"$S/compile-checks.sh" || record fail "sparse and W=1" "compile-checks.sh stopped early"
"$S/bisect-builds.sh" || record fail "bisect builds" "bisect-builds.sh stopped early"
"$S/run-boots.sh" "$@" || record fail "boots" "run-boots.sh stopped early"
summary
