#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# compile-checks.sh [VARIANT REVS LABEL]: sparse (C=2) and W=1 on every .c
# file REVS (default: the whole series) adds or changes, built once on the
# base tree and once on the VARIANT's tree (default: series) as it is checked
# out, in the baseline and VARIANT O= directories. A warning the change adds
# fails that file; warnings the base already has do not. Line numbers are
# ignored in the comparison, since the series moves code. The .S files REVS
# changes are built along (sparse does not read them), so that this one
# build is also the proof that every object REVS changes compiles. Exits 1
# when that build fails (after recording it).
#
# The base side of a file does not change with the series: it is kept in
# $BST_OUT/check/compile-checks/base/BASE-COMMIT/, made by the first call
# that needs it (make check removes compile-checks/ when it starts) and
# reused by the others: the per-patch calls of bisect-builds.sh and the
# whole-series call.
. "$(dirname "$0")/../lib.sh"

: "${BST_RESULTS:?compile-checks.sh records into BST_RESULTS}"
variant=${1:-series}
revs=${2:-$BST_BASE..HEAD}
label=${3:-series}
tree=$(variant_tree "$variant")
top=$BST_OUT/check/compile-checks
out=$top/$variant
base_cache=$top/base/$(git -C "$KSRC" rev-parse "$BST_BASE^{commit}") || exit
mkdir -p "$out" "$base_cache"

changed() {
	if [[ $revs == *..* ]]; then
		git -C "$tree" diff --name-only --diff-filter=AM "$revs" -- "$@"
	else
		git -C "$tree" diff-tree --no-commit-id --name-only -r --diff-filter=AM "$revs" -- "$@"
	fi
}
mapfile -t files < <(changed '*.c')
# A .c that another .c of its directory includes (a KUnit test compiled into
# the file it tests, as sd_uhs_mock_test.c into sd.c) is no object of its
# own: its includer is built in its place, and carries its warnings.
includers() {
	{ grep -ls "^#include \"$(basename "$1")\"" "$tree/$(dirname "$1")"/*.c || true; } |
		sed "s|^$tree/||"
}
objs=()
for f in "${files[@]}"; do
	inc=$(includers "$f")
	if [ -n "$inc" ]; then
		mapfile -t -O "${#objs[@]}" objs <<<"$inc"
	else
		objs+=("$f")
	fi
done
mapfile -t files < <(printf '%s\n' "${objs[@]}" | awk 'NF && !seen[$0]++')
mapfile -t asm < <(changed '*.S')
[ ${#files[@]} -gt 0 ] || [ ${#asm[@]} -gt 0 ] ||
	{ record skip "sparse and W=1: $label" "it changes no .c or .S file"; exit 0; }

# build TREE BDIR LOG FILE...: build the objects of FILE... with C=2 W=1
# (never none: kbuild would then check the whole tree).
build() {
	local tree=$1 bdir=$2 log=$3
	shift 3
	# shellcheck disable=SC2046 # one object per word, paths without blanks
	kmake "$tree" "$bdir" C=2 W=1 CHECK="$BST_SPARSE" $(printf '%s\n' "$@" | sed 's/\.[cS]$/.o/') \
		>"$log" 2>&1
}

# diagnostics TREE LOG: the build's warnings and errors, relative to the
# tree, without line and column numbers.
diagnostics() {
	grep -E '(warning|error):' "$2" |
		sed -E -e "s|^$1/||" -e 's/^([^:]+):[0-9]+:[0-9]+:/\1:/' | sort -u || true
}

# The base side of the files not in the cache yet (files the base tree has:
# the others are new, with nothing to compare).
need=()
for f in "${files[@]}"; do
	[ -f "$KSRC/$f" ] && [ ! -f "$base_cache/$f.txt" ] && need+=("$f")
done
if [ ${#need[@]} -gt 0 ]; then
	if ! build "$KSRC" "$(variant_bdir baseline)" "$out/base.log" "${need[@]}"; then
		tail -5 "$out/base.log" | sed 's/^/    /'
		record fail "sparse and W=1: $label: the base tree's objects build" \
			"make failed: see $out/base.log"
		exit 1
	fi
	diagnostics "$KSRC" "$out/base.log" >"$out/base.txt"
	for f in "${need[@]}"; do
		mkdir -p "$(dirname "$base_cache/$f")"
		grep -F "$f:" "$out/base.txt" >"$base_cache/$f.txt" || true
	done
fi

rc=0
if build "$tree" "$(variant_bdir "$variant")" "$out/series.log" "${files[@]}" "${asm[@]}"; then
	record pass "sparse and W=1: $label: the objects it changes build"
else
	tail -5 "$out/series.log" | sed 's/^/    /'
	record fail "sparse and W=1: $label: the objects it changes build" \
		"make failed: see $out/series.log"
	rc=1
fi
grep -q 'sparse is not available' "$out/series.log" &&
	die "kbuild disabled C=2: $BST_SPARSE cannot parse this tree (run scripts/build/build-sparse.sh)"
diagnostics "$tree" "$out/series.log" >"$out/series.txt"
for f in "${files[@]}"; do
	record_clean "sparse and W=1: $label: $f: no new warnings" \
		"$(comm -13 <(cat "$base_cache/$f.txt" 2>/dev/null || true) \
			<(grep -F "$f:" "$out/series.txt" || true))"
done
exit "$rc"
