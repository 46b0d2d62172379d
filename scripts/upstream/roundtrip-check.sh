#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# roundtrip-check.sh: the upstream workflow as `make check` tests it, one
# result each: b4 prep from patches/, b4 send -o, export back, and
#  - the b4 export and the series worktree's export equal patches/;
#  - every address get_maintainer.pl gives for a patch is on that patch's
#    mail (From, To or Cc).
# It uses its own branch in the b4 worktree and goes back to the branch that
# was checked out there.
. "$(dirname "$0")/../lib.sh"

: "${BST_RESULTS:?roundtrip-check.sh records into BST_RESULTS}"
U=$BST_TOP/scripts/upstream
out=$BST_OUT/check/upstream
rm -rf "$out"
mkdir -p "$out/b4-export" "$out/series-export"
export BST_B4_BRANCH=b4/bootstamp-check FORCE=1

prev=$(git -C "$BST_B4_TREE" branch --show-current 2>/dev/null || true)
restore() { [ -n "$prev" ] && git -C "$BST_B4_TREE" checkout -q "$prev" 2>/dev/null || true; }
trap restore EXIT

n=$(series_patches | wc -l)
if "$U/b4-prep.sh" >"$out/prep.log" 2>&1; then
	record pass "upstream: b4 prep branch from patches/ (cover + $n patches, --auto-to-cc)"
else
	sed 's/^/    /' "$out/prep.log"
	record fail "upstream: b4 prep branch from patches/" "see $out/prep.log"
	exit 0
fi
if "$U/b4-send.sh" "$out/outgoing" >"$out/send.log" 2>&1 &&
   [ "$(find "$out/outgoing" -name '*.eml' | wc -l)" -eq $((n + 1)) ]; then
	record pass "upstream: b4 send -o writes the cover and $n patches"
else
	sed 's/^/    /' "$out/send.log"
	record fail "upstream: b4 send -o writes the cover and $n patches" "see $out/send.log"
fi

if "$U/b4-export.sh" "$out/b4-export" >"$out/export.log" 2>&1 &&
   same_series "$out/b4-export" "$BST_TOP/patches"; then
	record pass "upstream: b4 prep branch exports to exactly patches/ (content, order, cover)"
else
	record fail "upstream: b4 prep branch exports to exactly patches/" "run 'make b4-prep b4-export' and see git diff"
fi

# The series worktree (git am of patches/) must give back the files byte for
# byte: a hand-edited patch that still applies shows up here.
(cd "$BST_SERIES_TREE" && write_patches "$out/series-export" "$BST_BASE_TAG"..HEAD)
bad=0
while read -r p; do
	cmp -s "$p" "$out/series-export/$(basename "$p")" ||
		{ info "differs from git format-patch: $(basename "$p")"; bad=1; }
done < <(series_patches)
[ "$(find "$out/series-export" -name '*.patch' | wc -l)" -eq "$n" ] || bad=1
if [ "$bad" -eq 0 ]; then
	record pass "upstream: patches/ is byte for byte what 'make export' writes"
else
	record fail "upstream: patches/ is byte for byte what 'make export' writes" "run 'make series export'"
fi

# Recipients: get_maintainer.pl as b4 --auto-to-cc runs it, per patch.
i=0
while read -r p; do
	i=$((i + 1))
	mail=$(find "$out/outgoing" -name "$(printf '%04d' "$i")-*.eml" | head -1)
	name="upstream: recipients of patch $i are what get_maintainer.pl says"
	if [ -z "$mail" ]; then
		record fail "$name" "no mail for it in $out/outgoing"
		continue
	fi
	missing=$(cd "$BST_B4_TREE" && comm -23 \
		<(scripts/get_maintainer.pl --nogit --nogit-fallback --nogit-chief-penguins \
			--norolestats "$p" | "$U/recipients.py" -) \
		<("$U/recipients.py" "$mail"))
	if [ -z "$missing" ]; then
		record pass "$name"
	else
		record fail "$name" "missing: $(echo "$missing" | tr '\n' ' ')"
	fi
done < <(series_patches)
