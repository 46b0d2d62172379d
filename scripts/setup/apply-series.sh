#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Apply patches/ (git am, in order) onto branch bootstamp/series, checked out
# from the base tag in a git worktree of KSRC. The base tree itself stays
# unpatched, so baseline and series can be built and booted side by side.
# Skips the work when neither the base nor patches/ changed since last time.
. "$(dirname "$0")/../lib.sh"

BRANCH=${BST_SERIES_BRANCH:-bootstamp/series}

mapfile -t patches < <(series_patches)
base=$(git -C "$KSRC" rev-parse -q --verify "$BST_BASE_TAG^{commit}") ||
	die "$KSRC has no tag $BST_BASE_TAG: run 'make tree' first"

if [ ! -e "$BST_SERIES_TREE/.git" ]; then
	step "creating worktree $BST_SERIES_TREE" \
		git -C "$KSRC" worktree add -q --force -B "$BRANCH" "$BST_SERIES_TREE" "$base"
fi
cd "$BST_SERIES_TREE"
stampfile=$(git rev-parse --git-path bootstamp-series.stamp)
want=$(series_stamp)
if [ "$(cat "$stampfile" 2>/dev/null)" = "$want" ] && [ -z "$(git status --porcelain -uno)" ]; then
	info "series already applied: ${#patches[@]} patches on $(git rev-parse --short "$base") ($BST_SERIES_TREE)"
	exit 0
fi

git am --abort >/dev/null 2>&1 || true
git checkout -q -B "$BRANCH" "$base"
rm -f "$stampfile"
say "applying ${#patches[@]} patches from patches/ onto $BST_BASE_TAG"
for p in "${patches[@]}"; do
	am_patch "$p" "patch does not apply: $(basename "$p") (series left at the base; fix the patch or rebase the series)"
	info "applied $(basename "$p")"
done
echo "$want" >"$stampfile"
info "series: $BRANCH at $(git rev-parse --short HEAD) in $BST_SERIES_TREE"
