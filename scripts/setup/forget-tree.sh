#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# forget-tree.sh: take out of KSRC what the harness put there: its git
# worktrees below the cache (the series, b4, per-patch and benchmark trees),
# the base ref $BST_BASE and the b4 prep branches (b4/SERIES, b4/*-check).
# For `make distclean`, before the cache itself goes.
. "$(dirname "$0")/../lib.sh"

git -C "$KSRC" rev-parse -q --git-dir >/dev/null 2>&1 || exit 0
git -C "$KSRC" worktree list --porcelain | sed -n 's/^worktree //p' |
while read -r wt; do
	case $wt in
	"$BST_CACHE"/*) git -C "$KSRC" worktree remove --force "$wt" && info "removed worktree $wt" ;;
	esac
done
git -C "$KSRC" worktree prune
for s in $(series_names); do
	for b in "b4/$s" "b4/$s-check"; do
		git -C "$KSRC" branch -q -D "$b" 2>/dev/null && info "deleted branch $b"
	done
done
git -C "$KSRC" update-ref -d "$BST_BASE" 2>/dev/null && info "deleted ref $BST_BASE"
exit 0
