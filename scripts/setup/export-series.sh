#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# export-series.sh: write the commits of branch bootstamp/series (the series
# worktree, base tag..HEAD) back to patches/ with git format-patch. This is
# the one way patches/ changes: edit the commits in the worktree (git rebase
# -i, git commit --amend), then export, then `make check`.
. "$(dirname "$0")/../lib.sh"

cd "$BST_SERIES_TREE" 2>/dev/null || die "no series worktree: run 'make series' first"
[ -z "$(git status --porcelain -uno)" ] ||
	die "uncommitted changes in $BST_SERIES_TREE: commit them to a patch first"
n=$(git rev-list --count "$BST_BASE_TAG"..HEAD)
[ "$n" -gt 0 ] || die "no commits on top of $BST_BASE_TAG in $BST_SERIES_TREE"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
write_patches "$tmp" "$BST_BASE_TAG"..HEAD
install_patches "$tmp"	# the cover letter stays as it is
# The worktree now holds exactly patches/: apply-series.sh need not redo it.
series_stamp >"$(git rev-parse --git-path bootstamp-series.stamp)"
info "exported $n patches from $BST_SERIES_TREE to patches/"
git -C "$BST_TOP" status --short -- patches/ | sed 's/^/    /'
