#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# b4-prep.sh: make the b4 prep branch b4/SERIES from patches/SERIES (one of
# the three series, each posted on its own) in a worktree of KSRC: the base,
# b4's cover commit made from patches/SERIES/0000-cover-letter.patch (title,
# text, prefixes, revision and change-id, so b4 recognises later
# revisions), the patches with git am, then `b4 prep --auto-to-cc`
# (get_maintainer.pl per patch). It refuses to replace a branch whose
# commits differ from patches/SERIES: export them first. The branch is
# the one the harness makes in KSRC: b4 needs a branch.
. "$(dirname "$0")/../lib.sh"

[ -n "${SERIES:-}" ] || die "say which series: make b4-prep SERIES=NAME (one of: $(series_names | tr '\n' ' '))"
check_series "$SERIES"
BRANCH=${BST_B4_BRANCH:-b4/$SERIES}
cover=$BST_TOP/patches/$SERIES/0000-cover-letter.patch
need_cmd b4
[ -f "$cover" ] || die "no cover letter at ${cover#$BST_TOP/}"
ensure_worktree "$BST_B4_TREE" || exit
cd "$BST_B4_TREE" || exit
[ -z "$(git status --porcelain -uno)" ] || die "uncommitted changes in $BST_B4_TREE"

# Edits made on the branch must not be lost by a new prep.
if git rev-parse -q --verify "refs/heads/$BRANCH" >/dev/null && [ "${FORCE:-0}" != 1 ]; then
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	git checkout -q "$BRANCH"
	"$BST_TOP/scripts/upstream/b4-export.sh" "$tmp" >/dev/null 2>&1 &&
		same_series "$tmp" "$BST_TOP/patches/$SERIES" ||
		die "$BRANCH in $BST_B4_TREE differs from patches/$SERIES: run 'make b4-export SERIES=$SERIES' to keep its commits, or FORCE=1 to drop them"
fi

git am --abort >/dev/null 2>&1 || true
git checkout -q -B "$BRANCH" "$BST_BASE"
git commit -q --allow-empty -F <("$BST_TOP/scripts/upstream/cover.py" commit-message "$cover")
n=0
while read -r p; do
	am_patch "$p" "patch does not apply: $(basename "$p")"
	n=$((n + 1))
done < <(series_patches "$SERIES")
b4 --offline-mode prep --auto-to-cc >"$BST_CACHE/b4-prep.log" 2>&1 ||
	{ sed 's/^/    /' "$BST_CACHE/b4-prep.log" >&2; die "b4 prep --auto-to-cc failed"; }
info "$BRANCH: cover + $n patches on $(git rev-parse --short "$BST_BASE") in $BST_B4_TREE"
grep -E '^\s+\+ (To|Cc):' "$BST_CACHE/b4-prep.log" | sed 's/^ */    /'
