#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# b4-export.sh [DIR]: write the b4 prep branch b4/SERIES back as patch
# files: the commits after b4's cover commit in the format of patches/, and
# the cover letter as b4 formats it (without date and message id). Without
# DIR, into patches/SERIES (then run `make check`).
. "$(dirname "$0")/../lib.sh"

[ -n "${SERIES:-}" ] || die "say which series: make b4-export SERIES=NAME (one of: $(series_names | tr '\n' ' '))"
check_series "$SERIES"
BRANCH=${BST_B4_BRANCH:-b4/$SERIES}
need_cmd b4
[ -e "$BST_B4_TREE/.git" ] || die "no b4 prep branch: run 'make b4-prep SERIES=$SERIES' first"
cd "$BST_B4_TREE" || exit
git checkout -q "$BRANCH" 2>/dev/null || die "no branch $BRANCH: run 'make b4-prep SERIES=$SERIES' first"
[ -z "$(git status --porcelain -uno)" ] || die "uncommitted changes in $BST_B4_TREE"
start=$(b4 --offline-mode prep --show-info 2>/dev/null | sed -n 's/^start-commit: //p')
[ -n "$start" ] || die "$(git branch --show-current) in $BST_B4_TREE is not a b4 prep branch"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/b4" "$tmp/out"
write_patches "$tmp/out" "$start"..HEAD
b4 --offline-mode prep -p "$tmp/b4" >/dev/null 2>&1 || die "b4 prep -p failed"
"$BST_TOP/scripts/upstream/cover.py" from-b4 "$tmp"/b4/0000-*.patch >"$tmp/out/0000-cover-letter.patch"
if [ -n "${1:-}" ]; then
	mkdir -p "$1" && cp "$tmp"/out/*.patch "$1/"
else
	install_patches "$tmp/out" "$SERIES"
	info "exported $(git rev-list --count "$start"..HEAD) patches and the cover letter to patches/$SERIES"
	git -C "$BST_TOP" status --short -- "patches/$SERIES" | sed 's/^/    /'
fi
