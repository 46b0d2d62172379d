#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# roundtrip-check.sh: the upstream workflow as `make check` tests it, for
# each series of patches/ on its own: b4 prep from patches/SERIES, b4 send
# -o, export back, and
#  - the b4 export equals patches/SERIES, and its base-commit is the base;
#  - the series worktree's export equals patches/ (all series);
#  - every address get_maintainer.pl gives for a patch is on that patch's
#    mail (From, To or Cc).
# It uses its own branches in the b4 worktree and goes back to the branch
# that was checked out there.
. "$(dirname "$0")/../lib.sh"

: "${BST_RESULTS:?roundtrip-check.sh records into BST_RESULTS}"
U=$BST_TOP/scripts/upstream
out=$BST_OUT/check/upstream
rm -rf "$out"
mkdir -p "$out/series-export"
export FORCE=1
base=$(git -C "$KSRC" rev-parse "$BST_BASE^{commit}")

prev=$(git -C "$BST_B4_TREE" branch --show-current 2>/dev/null || true)
# The check branches are the harness's own, and refs are shared by every
# worktree of KSRC: another cache's run (a second BST_CACHE on the same
# KSRC) can move a check branch under this worktree, which then looks
# dirty. Nothing of the user's lives there: take the branch as it is.
if [[ $prev == b4/*-check ]]; then
	git -C "$BST_B4_TREE" reset -q --hard || die "cannot reset $BST_B4_TREE ($prev)"
	prev=
fi
restore() { [ -n "$prev" ] && git -C "$BST_B4_TREE" checkout -q "$prev" 2>/dev/null || true; }
trap restore EXIT

# roundtrip SERIES: the b4 results of one series.
roundtrip() {
	local s=$1 o=$out/$1 n i p mail name missing
	export SERIES=$s BST_B4_BRANCH=b4/$s-check
	mkdir -p "$o/b4-export"
	n=$(series_patches "$s" | wc -l)
	if "$U/b4-prep.sh" >"$o/prep.log" 2>&1; then
		record pass "upstream $s: b4 prep branch from patches/$s (cover + $n patches, --auto-to-cc)"
	else
		sed 's/^/    /' "$o/prep.log"
		record fail "upstream $s: b4 prep branch from patches/$s" "see $o/prep.log"
		return 0
	fi
	if "$U/b4-send.sh" "$o/outgoing" >"$o/send.log" 2>&1 &&
	   [ "$(find "$o/outgoing" -name '*.eml' | wc -l)" -eq $((n + 1)) ]; then
		record pass "upstream $s: b4 send -o writes the cover and $n patches"
	else
		sed 's/^/    /' "$o/send.log"
		record fail "upstream $s: b4 send -o writes the cover and $n patches" "see $o/send.log"
	fi
	if "$U/b4-export.sh" "$o/b4-export" >"$o/export.log" 2>&1 &&
	   same_series "$o/b4-export" "$BST_TOP/patches/$s"; then
		record pass "upstream $s: b4 prep branch exports to exactly patches/$s (content, order, cover)"
	else
		record fail "upstream $s: b4 prep branch exports to exactly patches/$s" \
			"run 'make b4-prep b4-export SERIES=$s' and see git diff"
	fi
	# The base-commit a maintainer gets is the one the series applies to.
	name="upstream $s: the cover letter's base-commit is the base of $(basename "$KSRC")"
	if [ "$KSRC" != "$BST_CACHE/src/linux-7.2" ]; then
		record skip "$name" "KSRC is not the 7.2 tree the cover letters name"
	elif grep -qx "base-commit: $base" "$BST_TOP/patches/$s/0000-cover-letter.patch"; then
		record pass "$name"
	else
		record fail "$name" "want base-commit: $base (run 'make b4-prep b4-export SERIES=$s')"
	fi
	# Recipients: get_maintainer.pl as b4 --auto-to-cc runs it, per patch.
	i=0
	while read -r p; do
		i=$((i + 1))
		mail=$(find "$o/outgoing" -name "$(printf '%04d' "$i")-*.eml" | head -1)
		name="upstream $s: recipients of patch $i are what get_maintainer.pl says"
		if [ -z "$mail" ]; then
			record fail "$name" "no mail for it in $o/outgoing"
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
	done < <(series_patches "$s")
}

for s in $(series_names); do
	roundtrip "$s"
done

# The series worktree (git am of patches/) must give back the files byte for
# byte, each series exported as it applies to the base alone: a hand-edited
# patch that still applies shows up here.
bad=0
if "$BST_TOP/scripts/setup/export-series.sh" "$out/series-export" >"$out/series-export.log" 2>&1; then
	for s in $(series_names); do
		[ "$(find "$out/series-export/$s" -name '*.patch' | wc -l)" -eq "$(series_patches "$s" | wc -l)" ] ||
			{ info "patches/$s: another number of patches than the worktree has"; bad=1; }
		while read -r p; do
			cmp -s "$p" "$out/series-export/$s/$(basename "$p")" ||
				{ info "differs from git format-patch: ${p#$BST_TOP/}"; bad=1; }
		done < <(series_patches "$s")
	done
else
	sed 's/^/    /' "$out/series-export.log"
	bad=1
fi
if [ "$bad" -eq 0 ]; then
	record pass "upstream: patches/ is byte for byte what 'make export' writes"
else
	record fail "upstream: patches/ is byte for byte what 'make export' writes" "run 'make series export'"
fi
