# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# The scheduler of run-boots.sh: run each boot of the plan (run_boot) in a
# subshell of its own, BOOT_JOBS at a time, merge their logs and rows in
# plan order, and account for every planned boot. Sourced by run-boots.sh
# (and by tests/test_schedule.py with a made-up run_boot); needs lib.sh's
# record and a run_boot NAME VARIANT CPUS TESTS [ARG...].
#
# Every planned boot ends in the results, whatever its subshell did: a
# subshell that exits inside run_boot (die, an unset variable under set -u,
# a signal) records a failure and still marks its boot done (EXIT trap); one
# that ends without even that (SIGKILL) is failed after the last wait; and a
# boot whose rows hold no verdict on how the guest ended (judge_end) nor a
# failed setup fails "was judged". Its run.log is printed either way.

# boot_exit NAME OUT STATUS: the EXIT trap of a boot's subshell.
boot_exit() {
	if [ -z "${boot_finished:-}" ]; then
		record fail "$1: the boot could be set up" \
			"its shell exited with status $3 inside run_boot: see the log above"
	fi
	touch "$2/.done"
}

# verdicts [NAME]: the rows on stdin that say how a boot ended (judge_end)
# or that it could not be set up, of boot NAME or of any boot; prints the
# boot's name for each.
verdicts() {
	awk -F'\t' -v name="${1:-}" '$1 == "pass" || $1 == "fail" {
		r = $2
		boot = r
		sub(/: .*/, "", boot)
		if (name != "" && boot != name)
			next
		r = substr(r, length(boot) + 3)
		if (r == "guest ran its plan and powered off" || r == "the boot could be set up" ||
		    r ~ /^guest (panicked|hung) as planned \(/)
			print boot
	}'
}

# schedule_boots PLAN-LINE...: run them all; returns 1 when a boot was not
# accounted for (its failure is recorded).
schedule_boots() {
	local line name out i n lost=0 start
	start=$(wc -l <"$BST_RESULTS")
	outs=()
	names=()
	next=0
	for line; do
		name=${line%%[[:space:]]*}
		out=$BST_OUT/check/$name
		mkdir -p "$out"
		rm -f "$out/.done"
		: >"$out/rows.tsv"
		outs+=("$out")
		names+=("$name")
		(
			# shellcheck disable=SC2030 # this boot's own results
			export BST_RESULTS=$out/rows.tsv
			boot_finished=
			trap 'boot_exit "$name" "$out" $?' EXIT
			# shellcheck disable=SC2086 # fields are whitespace-separated by design
			run_boot $line || record fail "$name: the boot could be set up" "see $out/run.log"
			boot_finished=1
		) >"$out/run.log" 2>&1 &
		while [ "$(jobs -rp | wc -l)" -ge "$BOOT_JOBS" ]; do
			wait -n || true
			report_ready
		done
		report_ready
	done
	wait || true
	report_ready
	# Boots whose subshell ended without its trap (SIGKILL): failed here,
	# with their log and whatever rows they left.
	while [ "$next" -lt ${#outs[@]} ]; do
		BST_RESULTS=${outs[next]}/rows.tsv record fail "${names[next]}: the boot could be set up" \
			"its shell ended without finishing (killed?): its log follows"
		touch "${outs[next]}/.done"
		report_ready
	done
	# Every boot has its verdict, and the run's results have one per
	# planned boot (two plan lines of one name would share a directory).
	for i in "${!outs[@]}"; do
		if [ -z "$(verdicts "${names[i]}" <"${outs[i]}/rows.tsv")" ]; then
			record fail "${names[i]}: the boot was judged" \
				"no verdict on how the guest ended in ${outs[i]#"$BST_TOP"/}/rows.tsv"
			lost=1
		fi
	done
	n=$(tail -n +$((start + 1)) "$BST_RESULTS" | verdicts | sort -u | wc -l)
	if [ "$n" -ne "$#" ]; then
		record fail "boots: every planned boot reported" "$n boots with a verdict in the results, $# planned"
		lost=1
	fi
	return "$lost"
}

# report_ready: print the log and merge the rows of each boot that is done
# and every boot before it, in plan order.
report_ready() {
	while [ "$next" -lt ${#outs[@]} ] && [ -e "${outs[next]}/.done" ]; do
		cat "${outs[next]}/run.log"
		cat "${outs[next]}/rows.tsv" >>"$BST_RESULTS"
		next=$((next + 1))
	done
}
