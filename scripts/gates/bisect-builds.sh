#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# bisect-builds.sh [--full]: every patch of the series must build on its own.
# Checks out each commit of the series worktree's branch in turn in the
# "bisect" worktree (same layout as the series, so ccache serves what did
# not change) with the QEMU config and the series' fragments, and runs
# sparse and W=1 on the .c files that patch touches
# (scripts/gates/compile-checks.sh).
#
# make check (no --full) builds the objects each patch changes (.c and .S,
# with sparse and W=1: one build per patch, by compile-checks.sh) and
# reconfigures only for a patch that changes a Kconfig file or a Makefile:
# minutes for the series instead of a kernel build per patch.
# make check-full (--full) builds and links the whole kernel at each patch,
# which also catches a header change that breaks a file the patch does not
# touch, or a link error. The last patch is the series build itself, so it
# is not built twice.
. "$(dirname "$0")/../lib.sh"

: "${BST_RESULTS:?bisect-builds.sh records into BST_RESULTS}"
full=0
[ "${1:-}" = --full ] && full=1
tree=$(variant_tree bisect)
bdir=$(variant_bdir bisect)
out=$BST_OUT/check/bisect
mkdir -p "$out"
mapfile -t commits < <(git -C "$BST_SERIES_TREE" rev-list --reverse "$BST_BASE"..HEAD)
n=${#commits[@]}
[ "$n" -gt 1 ] || { record skip "bisect: each patch builds" "the series has $n patch"; exit 0; }
ensure_worktree "$tree" || exit

# build_kernel: the whole kernel at the commit checked out.
build_kernel() {
	rm -f "$bdir/.bootstamp-config"	# the Kconfig files may differ per patch
	"$BST_TOP/scripts/build/build-kernel.sh" bisect
}

# configure COMMIT: configure the bisect tree for this commit; again only
# when it changes a Kconfig file or a Makefile.
configure() {
	if [ -n "$(git -C "$tree" diff-tree --no-commit-id --name-only -r "$1" -- \
		'*Kconfig*' '*Makefile*' '*Kbuild*')" ]; then
		rm -f "$bdir/.bootstamp-config"
	fi
	"$BST_TOP/scripts/build/build-kernel.sh" --configure-only bisect
}

for i in $(seq 1 $((n - 1))); do
	c=${commits[i - 1]}
	subject=$(git -C "$tree" log -1 --format=%s "$c")
	git -C "$tree" checkout -q --detach "$c"
	rc=0
	if [ "$full" -eq 1 ]; then
		name="bisect: patch $i/$n builds on its own ($subject)"
		step "building patch $i/$n: $subject" build_kernel >"$out/patch-$i.log" 2>&1 || rc=$?
	else
		# compile-checks.sh builds the objects the patch changes and
		# records whether they build.
		name="bisect: patch $i/$n configures ($subject)"
		say "patch $i/$n: $subject"
		configure "$c" >"$out/patch-$i.log" 2>&1 || rc=$?
	fi
	if [ "$rc" -ne 0 ]; then
		tail -20 "$out/patch-$i.log" | sed 's/^/    /'
		record fail "$name" "see $out/patch-$i.log"
		continue
	fi
	[ "$full" -eq 0 ] || record pass "$name"
	# Exit 1 is a build that failed, recorded; anything else, or an exit 1
	# without that result, a script that stopped early.
	"$BST_TOP/scripts/gates/compile-checks.sh" bisect "$c" "patch $i/$n" ||
		{ [ $? -eq 1 ] && grep -q $'\tsparse and W=1: patch '"$i/$n"': the objects it changes build' "$BST_RESULTS"; } ||
		record fail "sparse and W=1: patch $i/$n" "compile-checks.sh stopped early"
done
info "patch $n/$n is the series build (host: series kernel builds)"
