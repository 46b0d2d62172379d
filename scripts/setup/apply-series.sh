#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Apply the three series of patches/ (git am, in order) onto the base, in a
# git worktree of KSRC with a detached HEAD (no branch is made in KSRC). The
# base tree itself stays unpatched, so baseline and series can be built and
# booted side by side. Skips the work when neither the base nor patches/
# changed since last time.
. "$(dirname "$0")/../lib.sh"

mapfile -t patches < <(series_patches)
base=$(git -C "$KSRC" rev-parse -q --verify "$BST_BASE^{commit}") ||
	die "$KSRC has no base ($BST_BASE): run 'make tree' first"

if [ ! -e "$BST_SERIES_TREE/.git" ]; then
	step "creating worktree $BST_SERIES_TREE" \
		git -C "$KSRC" worktree add -q --force --detach "$BST_SERIES_TREE" "$base"
fi
cd "$BST_SERIES_TREE" || exit
stampfile=$(git rev-parse --git-path bootstamp-series.stamp)
want=$(series_stamp)
if [ "$(cat "$stampfile" 2>/dev/null)" = "$want" ] && [ -z "$(git status --porcelain -uno)" ]; then
	info "series already applied: ${#patches[@]} patches on $(git rev-parse --short "$base") ($BST_SERIES_TREE)"
	exit 0
fi

git am --abort >/dev/null 2>&1 || true
git checkout -q --detach "$base"
rm -f "$stampfile"
say "applying ${#patches[@]} patches of $(series_names | tr '\n' ' ')onto $(git rev-parse --short "$base")"
for p in "${patches[@]}"; do
	am_patch "$p" "patch does not apply: ${p#$BST_TOP/} (worktree left at the base; fix the patch or rebase the series)"
	info "applied ${p#$BST_TOP/patches/}"
done
echo "$want" >"$stampfile"
info "series: $(git rev-parse --short HEAD) in $BST_SERIES_TREE (detached HEAD)"
