#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# b4-send.sh [DIR]: write the mails `b4 send` would send for the b4 prep
# branch b4/SERIES into DIR (default out/outgoing/SERIES), offline and
# unsigned. b4 0.12
# picks the kernel.org web endpoint, which needs a patatt signature even for
# -o, unless sendemail.smtpserver is set: it is set for this command only
# (a dry run never connects). The real send is yours: see
# scripts/upstream/README.md.
. "$(dirname "$0")/../lib.sh"

[ -n "${SERIES:-}" ] || die "say which series: make b4-send SERIES=NAME (one of: $(series_names | tr '\n' ' '))"
check_series "$SERIES"
BRANCH=${BST_B4_BRANCH:-b4/$SERIES}
dir=$(realpath -m "${1:-$BST_OUT/outgoing/$SERIES}")
need_cmd b4
[ -e "$BST_B4_TREE/.git" ] || die "no b4 prep branch: run 'make b4-prep SERIES=$SERIES' first"
cd "$BST_B4_TREE" || exit
git checkout -q "$BRANCH" 2>/dev/null || die "no branch $BRANCH: run 'make b4-prep SERIES=$SERIES' first"
rm -rf "$dir"
GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=sendemail.smtpserver GIT_CONFIG_VALUE_0=localhost \
	b4 --offline-mode send --no-sign -o "$dir" >"$BST_CACHE/b4-send.log" 2>&1 ||
	{ sed 's/^/    /' "$BST_CACHE/b4-send.log" >&2; die "b4 send -o failed"; }
info "$(find "$dir" -name '*.eml' | wc -l) mails in $dir:"
for f in "$dir"/*.eml; do
	info "  $(basename "$f"): $(sed -n 's/^Subject: //p' "$f" | head -1)"
done
