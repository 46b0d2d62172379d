#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# build-kernels.sh DIR VARIANT...: build the kernel variants one after
# another (scripts/build/build-kernel.sh), stopping at the first that fails.
# For each, DIR/VARIANT.log gets its output and, once it has ended,
# DIR/VARIANT.end gets "EXIT WALL-SECONDS CPU-SECONDS" (user and system
# time of the build and everything it ran). make check runs this in the
# background (scripts/check.sh) and waits on each .end file in turn.
. "$(dirname "$0")/../lib.sh"

dir=${1:?usage: build-kernels.sh DIR VARIANT...}
shift
mkdir -p "$dir"
for v; do
	rm -f "$dir/$v.end"
done
cpu_before=0
for v; do
	t0=$(date +%s)
	rc=0
	"$BST_TOP/scripts/build/build-kernel.sh" "$v" >"$dir/$v.log" 2>&1 </dev/null || rc=$?
	children_cpu
	echo "$rc $(( $(date +%s) - t0 )) $(( CHILDREN_CPU - cpu_before ))" >"$dir/$v.end"
	cpu_before=$CHILDREN_CPU
	[ "$rc" -eq 0 ] || exit "$rc"
done
