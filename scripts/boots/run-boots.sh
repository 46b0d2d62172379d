#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# run-boots.sh [NAME...]: run the boots of the test plan (selftests/plan,
# and selftests/plan-full with BST_TIER=full; all, or the named ones), each
# in QEMU with its tests, and record one result per test case plus the
# harness's own checks of each boot. Results go to $BST_RESULTS; logs to
# $BST_OUT/check/NAME/.
. "$(dirname "$0")/../lib.sh"

: "${BST_RESULTS:=$BST_OUT/check/results.tsv}"
export BST_RESULTS
B=$BST_TOP/scripts/boots

# Per-program limit inside the guest (/init's bst.timeout) unless the plan
# line sets one, and what a boot may take besides its programs: the host's
# limit is their sum, so that the guest's timeout fires first and its
# blocked-task dump (sysrq-w) reaches the console log.
GUEST_TIMEOUT=${GUEST_TIMEOUT:-240}
BOOT_ALLOWANCE=${BOOT_ALLOWANCE:-180}

. "$B/judge.sh"

run_boot() {
	local name=$1 variant=$2 cpus=$3 tests=$4
	shift 4
	local out=$BST_OUT/check/$name rc=0
	rm -rf "$out/dump"	# no stale files from an earlier run
	mkdir -p "$out"
	say "boot $name: $variant kernel, $cpus CPUs, tests: $tests"
	write_expect "$variant" "$cpus" >"$out/expect"
	"$BST_TOP/scripts/guest/mkinitramfs.sh" "$variant" "$out/initramfs.cpio" "$out/expect"
	# "bst.console=none": no console= at all, the device tree's
	# stdout-path decides; "bst.console=OPTS": console=OPTS.
	local console
	console=$(boot_arg bst.console "$@")
	case $console in
	none) console= ;;
	'')   console=console=ttyAMA0 ;;
	*)    console=console=$console ;;
	esac
	# "bst.dtb=NAME": boot with a device tree of scripts/guest/mkdtb.sh.
	local qemu_args=() dtb
	dtb=$(boot_arg bst.dtb "$@")
	if [ -n "$dtb" ]; then
		"$BST_TOP/scripts/guest/mkdtb.sh" "$dtb" "$cpus" "$out/board.dtb" || return
		qemu_args=(-dtb "$out/board.dtb")
	fi
	# "bst.firmware=uefi": boot through UEFI firmware, which also gives the
	# kernel ACPI tables (used with acpi=force).
	has_arg bst.firmware=uefi "$@" && qemu_args+=(-bios "$QEMU_EFI")
	# "bst.el=2": the CPUs start at EL2 (QEMU's virtualization=on), as on
	# boards whose firmware leaves them there; EL1 without it.
	has_arg bst.el=2 "$@" && qemu_args+=(-machine virtualization=on)
	# "bst.uart_fw=BAUD|none": the PL011 as "firmware" left it (boot_guest;
	# 115200 without it).
	local uart_fw
	uart_fw=$(boot_arg bst.uart_fw "$@")
	# "bst.uart_trace=1": QEMU traces every write to the PL011's registers
	# (pl011_write) to uart-trace.log: the settings each character went
	# out with, which QEMU's PL011 ignores (selftests/console/host-check).
	rm -f "$out/uart-trace.log"
	has_arg bst.uart_trace=1 "$@" && qemu_args+=(-trace pl011_write -D "$out/uart-trace.log")
	# "bst.sd=uhs" or "bst.sd=sdr50": an SD card (sd_card_args) on a fresh
	# image, whose CRC-32 the guest gets as bst.sd_crc=.
	local sd_crc='' sd
	sd=$(boot_arg bst.sd "$@")
	if [ -n "$sd" ]; then
		sd_crc=$(python3 "$BST_TOP/scripts/guest/mksdimg.py" "$out/sd.img") || return
		# shellcheck disable=SC2207 # words of sd_card_args, paths without blanks
		qemu_args+=($(sd_card_args "$out/sd.img" "$sd"))
	fi
	local per ntests extra=
	per=$(boot_arg bst.timeout "$@")
	[ -n "$per" ] || { per=$GUEST_TIMEOUT; extra=" bst.timeout=$per"; }
	ntests=$(echo "$tests" | tr ',' '\n' | grep -cv '^-$' || true)
	local limit=$((BOOT_ALLOWANCE + ntests * per))
	# "bst.expect=hang": a test-only fault hangs the kernel on purpose
	# (test_early_hang); the host stops it after bst.hang_wait= seconds.
	local hang=
	if has_arg bst.expect=hang "$@"; then
		hang=$(boot_arg bst.hang_wait "$@")
		[ -n "$hang" ] || { warn "boot $name: bst.expect=hang needs bst.hang_wait=SECONDS"; return 1; }
		limit=$hang
	fi
	local t0
	t0=$(date +%s.%N)
	QEMU_TIMEOUT=$limit UART_FW=$uart_fw \
		boot_guest "$variant" "$out/initramfs.cpio" "$cpus" "$out" \
		"${console:+$console }panic=-1 bst.run=$tests $*$extra${sd_crc:+ bst.sd_crc=$sd_crc}" \
		"${qemu_args[@]}" || rc=$?
	info "QEMU exit $rc after $(printf '%.1f' "$(echo "$(date +%s.%N) - $t0" | bc)") s; logs in ${out#$BST_TOP/}/"
	# "bst.expect=panic" with "bst.panic=NAME": a test crashes the kernel on
	# purpose with that panic, which replaces the end of the plan; the
	# console up to the panic must be free of splats, and the test's
	# host-check (bst.check=DIR) judges the rest instead of its KTAP.
	local panic=
	if has_arg bst.expect=panic "$@"; then
		panic=$(panic_line "$(boot_arg bst.panic "$@")")
	fi
	extract_files "$out/results.log" "$out/dump"
	judge_end "$name" "$rc" "$out" "$panic" "$hang"
	judge_init "$name" "$out" "$@"
	# Any oops, warning or panic on the console fails the boot, but for the
	# known upstream bugs of selftests/known-splats (recorded as skips), in
	# the boots that run the tests they name, up to their count.
	judge_rows "$name: kernel console judged (console-check.py)" \
		python3 "$B/console-check.py" "$out/console.log" "$BST_TOP/selftests/known-splats" \
		"$name" --tests "$tests" ${panic:+--until "$panic"}
	local checks
	checks=$(host_checks "$tests" "$(boot_arg bst.dump "$@")" "$(boot_arg bst.check "$@")")
	run_host_checks "$out" "$checks"
	[ -n "$panic$hang" ] || [ "$tests" = - ] ||
		judge_rows "$name: results channel judged (ktap.py)" \
			python3 "$B/ktap.py" "$out/results.log" "$name" "$tests"
	[ -z "$checks" ] ||
		judge_rows "$name: host-checks judged (ktap.py)" \
			python3 "$B/ktap.py" "$out/host.log" "$name" "$checks"
}

# host_checks TESTS DUMP CHECK: the host-checks a boot gets, comma-separated.
# A test directory may ship an executable "host-check": it runs on the host
# after a boot that dumped files (bst.dump=; judge_init fails a boot whose
# dump did not arrive), for each directory its tests name, and after any
# boot that names the directory with "bst.check=DIR" (a boot that panics),
# with the boot's output directory (console.log, cmdline, results.log,
# dump/) as its argument, and prints KTAP.
host_checks() {
	local d
	{
		[ -z "$2" ] || echo "$1" | tr ',' '\n' | sed -n 's|/.*||p'
		[ -z "$3" ] || echo "$3"
	} | sort -u | while read -r d; do
		# Not -x: a host-check that lost its mode is run, and fails.
		[ -e "$BST_TOP/selftests/$d/host-check" ] && printf '%s/host-check,' "$d"
	done
	return 0
}

# run_host_checks OUT CHECKS: run them, their output in OUT/host.log.
run_host_checks() {
	local out=$1 t rc
	: >"$out/host.log"
	for t in $(echo "$2" | tr ',' ' '); do
		rc=0
		echo "# bst-begin $t" >>"$out/host.log"
		KSRC=$KSRC "$BST_TOP/selftests/$t" "$out" >>"$out/host.log" 2>&1 || rc=$?
		echo "# bst-end $t exit=$rc" >>"$out/host.log"
	done
}

# Boots run BOOT_JOBS at a time: much of a boot is the guest waiting (for
# timeouts, the slow UART, the SD card), which leaves host CPUs idle, and no
# test judges wall time. Each boot records into its own directory; its log
# and results join the run's in plan order as soon as it and every boot
# before it are done, so the output reads as if they ran one by one
# (schedule.sh, which also fails a boot that left no verdict).
BOOT_JOBS=${BOOT_JOBS:-2}
. "$B/schedule.sh"
check_boot_variant
mapfile -t boots < <(plan_lines "$@")
[ ${#boots[@]} -gt 0 ] || die "no boot in the test plan matches: $*"
mkdir -p "$(dirname "$BST_RESULTS")"
touch "$BST_RESULTS"
schedule_boots "${boots[@]}"
