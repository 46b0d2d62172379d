#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# static-checks.sh: checkpatch --strict on every patch file of patches/ and
# on every source file of module/, one result per file. It runs on the files,
# never on a commit range (on a b4 prep branch a range silently checks only
# the cover commit). Then shellcheck on the project's own shell scripts.
. "$(dirname "$0")/../lib.sh"

: "${BST_RESULTS:?static-checks.sh records into BST_RESULTS}"
checkpatch=$KSRC/scripts/checkpatch.pl
CP_OPTS=(--strict --quiet --show-types --no-summary --color=never)

# maintained_new_files PATCH: does get_maintainer.pl name a maintainer (M:)
# for the directory of every file PATCH adds? checkpatch warns
# FILE_PATH_CHANGES for any added file when MAINTAINERS is not touched, even
# where an F: pattern already covers it (arch/arm64/ for ARM64 PORT).
maintained_new_files() {
	local d
	while read -r d; do
		[ -n "$(cd "$KSRC" && scripts/get_maintainer.pl --no-git --no-git-fallback \
			--m --nol --nor --no-rolestats -f "$d" 2>/dev/null)" ] || return 1
	done < <(awk '/^diff --git /{f=$4; sub("^b/", "", f)}
		/^new file mode/{n = f; sub("/[^/]*$", "", n); print n}' "$1" | sort -u)
}

check_one() {
	local what=$1 log rc=0
	shift
	log=$("$checkpatch" "${CP_OPTS[@]}" "$@" 2>&1) || rc=$?
	# That warning alone (and only warnings: exit 1), for files whose
	# directory has a maintainer.
	if [ "$rc" -eq 1 ] && [ -z "$(echo "$log" | awk '/^WARNING:FILE_PATH_CHANGES:/ { skip = 1; next }
		skip && /^$/ { skip = 0; next } !skip && NF')" ] && maintained_new_files "${@: -1}"; then
		log="" rc=0
	fi
	if [ "$rc" -eq 0 ] && [ -z "$log" ]; then
		record pass "checkpatch --strict: $what"
	else
		echo "$log" | sed 's/^/    /'
		record fail "checkpatch --strict: $what" "$(echo "$log" | grep -m1 -E '^(ERROR|WARNING|CHECK)' || echo "exit status")"
	fi
}

shopt -s nullglob
while read -r p; do
	check_one "${p#$BST_TOP/}" "$p"
done < <(series_patches)
for f in "$BST_TOP"/module/*.[ch]; do
	check_one "module/$(basename "$f")" --no-tree -f "$f"
done

# The project's shell: every *.sh and every file that starts with a shell
# "#!", shellcheck at warning level (sourced files followed), one result
# each. A variable that is used but never set is how a deleted block shows
# (ba8c4ae lost check.sh's first stages and CI stopped after 8 s).
shell_files() {
	find "$BST_TOP/scripts" "$BST_TOP/module" "$BST_TOP/selftests" "$BST_TOP/.ci" \
		-type f ! -path '*/__pycache__/*' -print0 |
		xargs -0 awk 'FNR == 1 { if (FILENAME ~ /\.sh$/ || /^#!.*[\/ ](ba|da)?sh( |$)/) print FILENAME; nextfile }' |
		sort
}
command -v shellcheck >/dev/null ||
	die "shellcheck is missing: run scripts/setup/deps.sh (Debian package shellcheck)"
while read -r f; do
	log=$(cd "$(dirname "$f")" && shellcheck -x -S warning -f gcc "$(basename "$f")" 2>&1) &&
		record pass "shellcheck: ${f#"$BST_TOP"/}" ||
		{ echo "$log" | sed 's/^/    /'; record fail "shellcheck: ${f#"$BST_TOP"/}" "$(echo "$log" | head -1)"; }
done < <(shell_files)
