#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# compile-checks.sh: sparse (C=2) and W=1 on every .c file the series adds
# or changes, built once on the base tree and once on the series, in the
# baseline and series O= directories. A warning the series adds fails that
# file; warnings the base already has do not. Line numbers are ignored in the
# comparison, since the series moves code.
. "$(dirname "$0")/lib.sh"

: "${BST_RESULTS:?compile-checks.sh records into BST_RESULTS}"
out=$BST_OUT/check/compile-checks
mkdir -p "$out"

mapfile -t files < <(git -C "$BST_SERIES_TREE" diff --name-only --diff-filter=AM \
	"$BST_BASE_TAG"..HEAD -- '*.c')
[ ${#files[@]} -gt 0 ] || { record skip "sparse and W=1" "the series changes no .c file"; exit 0; }

# warnings TREE BDIR LOG FILE...: build the objects with C=2 W=1 and keep
# their diagnostics, relative to the tree, without line and column numbers.
warnings() {
	local tree=$1 bdir=$2 log=$3
	shift 3
	kmake "$tree" "$bdir" C=2 W=1 CHECK="$BST_SPARSE" "${@/%.c/.o}" >"$log" 2>&1 || true
	grep -E '(warning|error):' "$log" |
		sed -E -e "s|^$tree/||" -e 's/^([^:]+):[0-9]+:[0-9]+:/\1:/' | sort -u
}

# Objects of files the base tree has (the others are new: nothing to compare).
base_files=()
for f in "${files[@]}"; do
	[ -f "$KSRC/$f" ] && base_files+=("$f")
done
warnings "$KSRC" "$(variant_bdir baseline)" "$out/base.log" "${base_files[@]}" >"$out/base.txt"
warnings "$BST_SERIES_TREE" "$(variant_bdir series)" "$out/series.log" "${files[@]}" >"$out/series.txt"
grep -q 'sparse is not available' "$out/series.log" &&
	die "kbuild disabled C=2: $BST_SPARSE cannot parse this tree (run scripts/build-sparse.sh)"

for f in "${files[@]}"; do
	new=$(comm -13 "$out/base.txt" "$out/series.txt" | grep -F "$f:" || true)
	if [ -z "$new" ]; then
		record pass "sparse and W=1: $f: no new warnings"
	else
		echo "$new" | sed 's/^/    /'
		record fail "sparse and W=1: $f: new warnings" "$(echo "$new" | head -1)"
	fi
done
