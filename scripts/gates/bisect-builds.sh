#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# bisect-builds.sh: every patch of the series must build on its own. Checks
# out each commit of the series worktree's branch in turn in the "bisect"
# worktree (same layout, so ccache serves what did not change), builds the
# QEMU config with the series' fragments, and runs sparse and W=1 on the .c
# files that patch touches (scripts/compile-checks.sh). The last patch is
# the series build itself, so it is not built twice.
. "$(dirname "$0")/lib.sh"

: "${BST_RESULTS:?bisect-builds.sh records into BST_RESULTS}"
tree=$(variant_tree bisect)
bdir=$(variant_bdir bisect)
out=$BST_OUT/check/bisect
mkdir -p "$out"
mapfile -t commits < <(git -C "$BST_SERIES_TREE" rev-list --reverse "$BST_BASE_TAG"..HEAD)
n=${#commits[@]}
[ "$n" -gt 1 ] || { record skip "bisect: each patch builds" "the series has $n patch"; exit 0; }
ensure_worktree "$tree" || exit

for i in $(seq 1 $((n - 1))); do
	c=${commits[i - 1]}
	subject=$(git -C "$tree" log -1 --format=%s "$c")
	name="bisect: patch $i/$n builds on its own ($subject)"
	git -C "$tree" checkout -q --detach "$c"
	rm -f "$bdir/.bootstamp-config"	# the Kconfig files may differ per patch
	if step "building patch $i/$n: $subject" "$BST_TOP/scripts/build-kernel.sh" bisect \
		>"$out/patch-$i.log" 2>&1; then
		record pass "$name"
		"$BST_TOP/scripts/compile-checks.sh" bisect "$c" "patch $i/$n" ||
			record fail "sparse and W=1: patch $i/$n" "compile-checks.sh stopped early"
	else
		tail -20 "$out/patch-$i.log" | sed 's/^/    /'
		record fail "$name" "see $out/patch-$i.log"
	fi
done
info "patch $n/$n is the series build (host: series kernel builds)"
