#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# run-boots.sh [NAME...]: run the boots of selftests/plan (all, or the named
# ones), each in QEMU with its tests, and record one result per test case plus
# the host-side checks of each boot. Results go to $BST_RESULTS; logs to
# $BST_OUT/check/NAME/.
. "$(dirname "$0")/lib.sh"

: "${BST_RESULTS:=$BST_OUT/check/results.tsv}"
export BST_RESULTS

# boot_arg KEY ARG...: the value of the first "KEY=value" among ARG.
boot_arg() {
	local key=$1
	shift
	printf '%s\n' "$@" | sed -n "s/^${key//./\\.}=//p" | head -1
}

run_boot() {
	local name=$1 variant=$2 cpus=$3 tests=$4
	shift 4
	local out=$BST_OUT/check/$name rc=0
	mkdir -p "$out"
	say "boot $name: $variant kernel, $cpus CPUs, tests: $tests"
	write_expect "$variant" "$cpus" >"$out/expect"
	"$BST_TOP/scripts/mkinitramfs.sh" "$variant" "$out/initramfs.cpio" "$out/expect"
	# "bst.console=none": no console= at all, the device tree's
	# stdout-path decides.
	local console=console=ttyAMA0
	[[ " $* " == *" bst.console=none "* ]] && console=
	# "bst.dtb=NAME": boot with a device tree of scripts/guest/mkdtb.sh.
	local qemu_args=() dtb
	dtb=$(boot_arg bst.dtb "$@")
	if [ -n "$dtb" ]; then
		"$BST_TOP/scripts/guest/mkdtb.sh" "$dtb" "$cpus" "$out/board.dtb" || return
		qemu_args=(-dtb "$out/board.dtb")
	fi
	# "bst.firmware=uefi": boot through UEFI firmware, which also gives the
	# kernel ACPI tables (used with acpi=force).
	[[ " $* " == *" bst.firmware=uefi "* ]] && qemu_args+=(-bios "$QEMU_EFI")
	# "bst.sd=uhs" or "bst.sd=sdr50": an SD card (sd_card_args) on a fresh
	# image, whose CRC-32 the guest gets as bst.sd_crc=.
	local sd_crc= sd
	sd=$(boot_arg bst.sd "$@")
	if [ -n "$sd" ]; then
		sd_crc=$(python3 "$BST_TOP/scripts/guest/mksdimg.py" "$out/sd.img") || return
		# shellcheck disable=SC2207 # words of sd_card_args, paths without blanks
		qemu_args+=($(sd_card_args "$out/sd.img" "$sd"))
	fi
	local t0=$(date +%s.%N)
	boot_guest "$variant" "$out/initramfs.cpio" "$cpus" "$out" \
		"$console panic=-1 bst.run=$tests $*${sd_crc:+ bst.sd_crc=$sd_crc}" "${qemu_args[@]}" || rc=$?
	info "QEMU exit $rc after $(printf '%.1f' "$(echo "$(date +%s.%N) - $t0" | bc)") s; logs in ${out#$BST_TOP/}/"
	# "bst.expect=panic": a test crashes the kernel on purpose; the panic
	# replaces the end of the plan, and the test's host-check judges the
	# console instead of console-check.py and the program's own KTAP.
	local expect_panic=0
	[[ " $* " == *" bst.expect=panic "* ]] && expect_panic=1
	if [ "$expect_panic" -eq 1 ]; then
		if [ "$rc" -eq 0 ] && ! grep -q '^# bst-done' "$out/results.log"; then
			record pass "$name: guest panicked as planned, before the end of its plan"
		else
			record fail "$name: guest panicked as planned, before the end of its plan" \
				"QEMU exit $rc$(grep -q '^# bst-done' "$out/results.log" && echo ", the plan ran to its end")"
		fi
	elif [ "$rc" -eq 0 ] && grep -q '^# bst-done' "$out/results.log"; then
		record pass "$name: guest ran its plan and powered off"
	else
		record fail "$name: guest ran its plan and powered off" \
			"QEMU exit $rc$([ "$rc" -eq 124 ] && echo " (timeout ${QEMU_TIMEOUT}s)"); see $out/console.log"
	fi
	# Any oops, warning or panic on the console fails the boot, but for the
	# known upstream bugs of selftests/known-splats (recorded as skips).
	[ "$expect_panic" -eq 1 ] || python3 "$BST_TOP/scripts/console-check.py" "$out/console.log" \
		"$BST_TOP/selftests/known-splats" "$name" | record_rows
	extract_files "$out/results.log" "$out/dump"
	local checks
	checks=$(host_checks "$out" "$tests" "$(boot_arg bst.check "$@")")
	run_host_checks "$out" "$checks"
	[ "$expect_panic" -eq 1 ] ||
		python3 "$BST_TOP/scripts/ktap.py" "$out/results.log" "$name" "$tests" | record_rows
	if [ -s "$out/host.log" ]; then
		python3 "$BST_TOP/scripts/ktap.py" "$out/host.log" "$name" "$checks" | record_rows
	fi
}

# host_checks OUT TESTS [DIR]: the host-checks a boot gets, comma-separated.
# A test directory may ship an executable "host-check": it runs on the host
# after a boot that dumped files (bst.dump=), or after any boot that names
# the directory with "bst.check=DIR" (a boot that panics before userspace),
# with the boot's output directory (console.log, cmdline, results.log, dump/)
# as its argument, and prints KTAP.
host_checks() {
	local d
	{
		[ -z "$(ls -A "$1/dump" 2>/dev/null)" ] || echo "$2" | tr ',' '\n' | sed -n 's|/.*||p'
		[ -z "$3" ] || echo "$3"
	} | sort -u | while read -r d; do
		[ -x "$BST_TOP/selftests/$d/host-check" ] && printf '%s/host-check,' "$d"
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

check_boot_variant
mapfile -t boots < <(plan_lines "$@")
[ ${#boots[@]} -gt 0 ] || die "no boot in selftests/plan matches: $*"
for line in "${boots[@]}"; do
	# shellcheck disable=SC2086 # fields are whitespace-separated by design
	run_boot $line
done
