#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# lab-tree.sh NAME: the benchmark tree NAME of scripts/bench/lab/trees, as a
# worktree of KSRC with the same layout as the others (ccache shares what
# the test patches do not change): its base, then its patches with git am.
# Skips the work when neither changed since last time.
. "$(dirname "$0")/../lib.sh"

name=${1:?usage: lab-tree.sh NAME}
line=$(awk -v n="$name" '$1 == n' "$BST_TOP/scripts/bench/lab/trees")
[ -n "$line" ] || die "no lab tree '$name' in scripts/bench/lab/trees"
read -r _ base patches <<<"$line"
case $base in
base)   rev=$(git -C "$KSRC" rev-parse "$BST_BASE^{commit}") ;;
series) rev=$(git -C "$BST_SERIES_TREE" rev-parse HEAD) ||
		die "no series worktree: run 'make series' first" ;;
*)      die "lab tree $name: unknown base '$base'" ;;
esac
# A patch of this directory, or one of the series (patches/NAME): a
# control made of part of the series.
lab_patch() {
	case $1 in
	patches/*) echo "$BST_TOP/$1" ;;
	*)         echo "$BST_TOP/scripts/bench/lab/$1" ;;
	esac
}
tree=$(lab_tree "$name")
ensure_worktree "$tree" || exit
cd "$tree" || exit
want=$( { echo "$rev"; for p in $patches; do cat "$(lab_patch "$p")"; done; } |
	sha256sum | cut -d' ' -f1)
stamp=$(git rev-parse --git-path bootstamp-lab.stamp)
if [ "$(cat "$stamp" 2>/dev/null)" = "$want" ] && [ -z "$(git status --porcelain -uno)" ]; then
	info "lab tree $name ready ($tree)"
	exit 0
fi
git am --abort >/dev/null 2>&1 || true
git checkout -q --detach "$rev"
for p in $patches; do
	am_patch "$(lab_patch "$p")" "lab tree $name: $p does not apply on $base"
done
echo "$want" >"$stamp"
info "lab tree $name: $base + $patches ($tree)"
