#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# static-checks.sh: checkpatch --strict on every patch file of patches/ and
# on every source file of module/, one result per file. It runs on the files,
# never on a commit range (on a b4 prep branch a range silently checks only
# the cover commit).
. "$(dirname "$0")/../lib.sh"

: "${BST_RESULTS:?static-checks.sh records into BST_RESULTS}"
checkpatch=$KSRC/scripts/checkpatch.pl
CP_OPTS=(--strict --quiet --show-types --no-summary --color=never)

check_one() {
	local what=$1 log
	shift
	if log=$("$checkpatch" "${CP_OPTS[@]}" "$@" 2>&1) && [ -z "$log" ]; then
		record pass "checkpatch --strict: $what"
	else
		echo "$log" | sed 's/^/    /'
		record fail "checkpatch --strict: $what" "$(echo "$log" | grep -m1 -E '^(ERROR|WARNING|CHECK)' || echo "exit status")"
	fi
}

shopt -s nullglob
while read -r p; do
	check_one "patches/$(basename "$p")" "$p"
done < <(series_patches)
for f in "$BST_TOP"/module/*.[ch]; do
	check_one "module/$(basename "$f")" --no-tree -f "$f"
done
