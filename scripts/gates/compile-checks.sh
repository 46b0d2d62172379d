#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# compile-checks.sh [VARIANT REVS LABEL]: sparse (C=2) and W=1 on every .c
# file REVS (default: the whole series) adds or changes, built once on the
# base tree and once on the VARIANT's tree (default: series) as it is checked
# out, in the baseline and VARIANT O= directories. A warning the change adds
# fails that file; warnings the base already has do not. Line numbers are
# ignored in the comparison, since the series moves code.
. "$(dirname "$0")/lib.sh"

: "${BST_RESULTS:?compile-checks.sh records into BST_RESULTS}"
variant=${1:-series}
revs=${2:-$BST_BASE_TAG..HEAD}
label=${3:-series}
tree=$(variant_tree "$variant")
out=$BST_OUT/check/compile-checks/$variant
mkdir -p "$out"

if [[ $revs == *..* ]]; then
	mapfile -t files < <(git -C "$tree" diff --name-only --diff-filter=AM "$revs" -- '*.c')
else
	mapfile -t files < <(git -C "$tree" diff-tree --no-commit-id --name-only -r \
		--diff-filter=AM "$revs" -- '*.c')
fi
[ ${#files[@]} -gt 0 ] || { record skip "sparse and W=1: $label" "it changes no .c file"; exit 0; }

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
# (No objects would make kbuild check the whole tree.)
if [ ${#base_files[@]} -gt 0 ]; then
	warnings "$KSRC" "$(variant_bdir baseline)" "$out/base.log" "${base_files[@]}" >"$out/base.txt"
else
	: >"$out/base.txt"
fi
warnings "$tree" "$(variant_bdir "$variant")" "$out/series.log" "${files[@]}" >"$out/series.txt"
grep -q 'sparse is not available' "$out/series.log" &&
	die "kbuild disabled C=2: $BST_SPARSE cannot parse this tree (run scripts/build-sparse.sh)"

for f in "${files[@]}"; do
	record_clean "sparse and W=1: $label: $f: no new warnings" \
		"$(comm -13 "$out/base.txt" "$out/series.txt" | grep -F "$f:" || true)"
done
