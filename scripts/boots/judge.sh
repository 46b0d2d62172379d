# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# The harness's own verdicts on one boot, from what it left in its output
# directory (console.log, results.log, dump/): did it end as planned, did
# /init do what the command line asked. Sourced by run-boots.sh (and by
# tests/test_judge.py on made-up directories); needs lib.sh's record.

# boot_arg KEY ARG...: the value of the first "KEY=value" among ARG.
boot_arg() {
	local key=$1
	shift
	printf '%s\n' "$@" | sed -n "s/^${key//./\\.}=//p" | head -1
}

# has_arg WORD ARG...: is WORD one of ARG?
has_arg() {
	local w=$1
	shift
	[[ " $* " == *" $w "* ]]
}

# panic_line NAME: the panic message a boot with bst.panic=NAME must end
# in (drivers/tty/sysrq.c sysrq_handle_crash(), drivers/misc/lkdtm/bugs.c
# lkdtm_PANIC()).
panic_line() {
	case $1 in
	sysrq) echo 'Kernel panic - not syncing: sysrq triggered crash' ;;
	lkdtm) echo 'Kernel panic - not syncing: dumptest' ;;
	*)     die "bst.panic=$1: unknown panic (run-boots.sh panic_line)" ;;
	esac
}

# judge_end NAME RC OUT PANIC [HANG]: did the guest end as planned? Powered
# off after its whole plan, or (PANIC set) panicked with exactly that message
# before the end of its plan, or (HANG set, seconds) still ran when the host
# stopped it (timeout's exit status 124), with no panic and no /init plan run.
judge_end() {
	local name=$1 rc=$2 out=$3 panic=$4 hang=${5:-} done=0 first
	grep -q '^# bst-done' "$out/results.log" 2>/dev/null && done=1
	first=$(grep -o 'Kernel panic - not syncing: .*' "$out/console.log" 2>/dev/null |
		head -1 | tr -d '\r' || true)
	if [ -n "$hang" ]; then
		if [ "$rc" -eq 124 ] && [ "$done" -eq 0 ] && [ -z "$first" ]; then
			record pass "$name: guest hung as planned (stopped after $hang s)"
		else
			record fail "$name: guest hung as planned (stopped after $hang s)" \
				"QEMU exit $rc$([ "$done" -eq 1 ] && echo ", the plan ran to its end")${first:+, panic: '$first'}"
		fi
		return
	fi
	if [ -z "$panic" ]; then
		if [ "$rc" -eq 0 ] && [ "$done" -eq 1 ]; then
			record pass "$name: guest ran its plan and powered off"
		else
			record fail "$name: guest ran its plan and powered off" \
				"QEMU exit $rc$([ "$rc" -eq 124 ] && echo " (timeout)"); see $out/console.log"
		fi
		return
	fi
	if [ "$rc" -eq 0 ] && [ "$done" -eq 0 ] && [ "$first" = "$panic" ]; then
		record pass "$name: guest panicked as planned ($panic)"
	else
		record fail "$name: guest panicked as planned ($panic)" \
			"QEMU exit $rc, first panic: '${first:-none}'$([ "$done" -eq 1 ] && echo ", the plan ran to its end")"
	fi
}

# judge_init NAME OUT ARG...: what /init reported: no "# bst-error", every
# bst.insmod= module loaded, and a dump for bst.dump= (the host-checks
# need it: without one they would have nothing to judge).
judge_init() {
	local name=$1 out=$2 m status list dump
	shift 2
	local log=$out/results.log
	record_clean "$name: /init reported no error" \
		"$(grep '^# bst-error' "$log" 2>/dev/null || true)"
	list=$(boot_arg bst.insmod "$@")
	# /init reports the modules in the order of the list, one line each.
	local i=0 reports
	mapfile -t reports < <(sed -n 's/^# bst-insmod //p' "$log" 2>/dev/null)
	for m in ${list//,/ }; do
		status=${reports[i]:-}
		i=$((i + 1))
		if [ "${status%% *}" != "$m" ]; then
			status=
		else
			status=${status#* }
		fi
		if [ "$status" = ok ]; then
			record pass "$name: bst.insmod loaded $m"
		else
			record fail "$name: bst.insmod loaded $m" "${status:-/init never tried}"
		fi
	done
	dump=$(boot_arg bst.dump "$@")
	if [ -n "$dump" ]; then
		if [ -n "$(ls -A "$out/dump" 2>/dev/null)" ]; then
			record pass "$name: bst.dump copied $dump to the host"
		else
			record fail "$name: bst.dump copied $dump to the host" "no file arrived"
		fi
	fi
}
