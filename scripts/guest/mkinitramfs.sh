#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# mkinitramfs.sh VARIANT OUT.cpio EXPECT-FILE [TESTDIR...]: pack /init, the
# selftest programs (only those of the TESTDIRs, e.g. "console", if given),
# VARIANT's modules and the harness's expectations into a cpio with the
# kernel's own gen_init_cpio (device nodes without root, reproducible).
# Benchmarks pack only what their boot runs: the kernel unpacks the archive
# while it boots, so its size is part of what they measure.
. "$(dirname "$0")/../lib.sh"

variant=${1:?usage: mkinitramfs.sh VARIANT OUT.cpio EXPECT [TESTDIR...]}
out=$2 expect=$3
shift 3
paths=(tests)
if [ $# -gt 0 ]; then
	paths=()
	for d in "$@"; do
		[ -d "$BST_GUEST/tests/$d" ] ||
			die "no test directory '$d' in $BST_GUEST/tests: run 'scripts/build/build-guest.sh series'"
		paths+=("tests/$d")
	done
fi
bdir=$(variant_bdir "$variant")
gen=$bdir/usr/gen_init_cpio
[ -x "$gen" ] || die "$gen missing: build the $variant kernel first"

{
	echo "dir /dev 0755 0 0"
	echo "nod /dev/console 0600 0 0 c 5 1"
	echo "dir /proc 0755 0 0"
	echo "dir /sys 0755 0 0"
	echo "dir /tmp 1777 0 0"
	echo "dir /lib 0755 0 0"
	echo "dir /lib/modules 0755 0 0"
	echo "dir /bst 0755 0 0"
	echo "file /init $BST_GUEST/init 0755 0 0"
	echo "file /bst/expect $expect 0644 0 0"
	[ "${paths[0]}" = tests ] || echo "dir /bst/tests 0755 0 0"
	(cd "$BST_GUEST" && find "${paths[@]}" -type d | sed 's|^|dir /bst/|; s|$| 0755 0 0|')
	(cd "$BST_GUEST" && find "${paths[@]}" -type f | sed "s|^\(.*\)$|file /bst/\1 $BST_GUEST/\1 0755 0 0|")
	moddir=$(guest_module_dir "$variant")
	if [ -d "$moddir" ]; then
		find "$moddir" -name '*.ko' | sed 's|^\(.*/\)\([^/]*\)$|file /lib/modules/\2 \1\2 0644 0 0|'
	fi
} >"$out.list"
"$gen" "$out.list" >"$out"
