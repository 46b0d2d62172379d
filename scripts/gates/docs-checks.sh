#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# docs-checks.sh: the documentation gates, one result each.
#  - numbers and names the docs state that the tree can tell
#    (scripts/gates/docs-numbers.py), and every benchmark number they quote
#    against the committed results (scripts/bench/results/);
#  - kernel-doc -Wall on every .c/.h file the series adds or changes: no
#    warning the base tree's version of the file does not have; module/
#    sources: no warning at all;
#  - the Documentation/ABI entries of this repository validate with the
#    tree's get_abi.py;
#  - this repository's reStructuredText builds with Sphinx, warnings fatal;
#  - make htmldocs for the Documentation/ directories the series touches.
. "$(dirname "$0")/../lib.sh"

: "${BST_RESULTS:?docs-checks.sh records into BST_RESULTS}"
out=$BST_OUT/check/docs
rm -rf "$out"
mkdir -p "$out"

# What README.md, make help and Documentation/ state that the tree can tell
# (how many patches, series, variants and benchmark configurations; make's
# targets and variables; the last line of make check), one result each,
# naming FILE:LINE, the stated and the real value, and the benchmark
# numbers of those files, the cover letters and scripts/bench/README.md
# against scripts/bench/results/ (claims.tsv), one result per document
# (docs-numbers.py). These and the next need no kernel tree.
python3 "$BST_TOP/scripts/gates/docs-numbers.py" "$BST_TOP" >"$out/numbers.tsv" ||
	record fail "docs numbers" "scripts/gates/docs-numbers.py failed"
record_rows <"$out/numbers.tsv"

# The unit tests of the number checks (scripts/gates/tests) run with the
# other Python unit tests of scripts/check.sh.

kdoc=$BST_SERIES_TREE/scripts/kernel-doc

# kdoc_warnings TREE FILE: kernel-doc's complaints, without line numbers.
kdoc_warnings() {
	[ -f "$1/$2" ] || return 0
	(cd "$1" && "$kdoc" -none -Wall "$2" 2>&1) | sed -E 's/:[0-9]+([: ])/:\1/' | sort -u
}

mapfile -t files < <(git -C "$BST_SERIES_TREE" diff --name-only --diff-filter=AM \
	"$BST_BASE"..HEAD -- '*.c' '*.h')
for f in "${files[@]}"; do
	record_clean "kernel-doc -Wall: $f: no new warnings" \
		"$(comm -13 <(kdoc_warnings "$KSRC" "$f") <(kdoc_warnings "$BST_SERIES_TREE" "$f"))"
done
for f in "$BST_TOP"/module/*.[ch]; do
	record_clean "kernel-doc -Wall: module/$(basename "$f")" "$("$kdoc" -none -Wall "$f" 2>&1)"
done

# get_abi.py prints its complaints and exits 0: the output is the verdict.
log=$("$BST_SERIES_TREE/tools/docs/get_abi.py" -D "$BST_TOP/Documentation/ABI" validate 2>&1)
n=$(cat "$BST_TOP"/Documentation/ABI/*/* | grep -c '^What:' || true)
if [ -z "$log" ] && [ "$n" -gt 0 ]; then
	record pass "get_abi.py validate: Documentation/ABI ($n entries)"
else
	echo "$log" | sed 's/^/    /'
	record fail "get_abi.py validate: Documentation/ABI" "${log:-no entries found}"
fi

# The repository's own pages: no conf.py of their own, kernel settings that
# matter (no smart quotes), every warning an error, every reference checked.
if sphinx-build -q -C -W -n --keep-going -D root_doc=admin-guide/index \
	-D exclude_patterns=ABI -D smartquotes=0 -b html \
	"$BST_TOP/Documentation" "$out/html" >"$out/sphinx.log" 2>&1; then
	record pass "sphinx -W -n: Documentation/ of this repository"
else
	sed 's/^/    /' "$out/sphinx.log"
	record fail "sphinx -W -n: Documentation/ of this repository" "$(grep -m1 -i 'warning\|error' "$out/sphinx.log")"
fi

# htmldocs for what the series changes below Documentation/ (a directory with
# an index.rst, as SPHINXDIRS wants), compared with the base tree.
# A changed file that is not reStructuredText and that the pages include
# only as literal text (".. include:: NAME" with ":literal:" as its option)
# is copied without being parsed: nothing in it can make Sphinx warn, and
# its directory is not built for it. kernel-parameters.txt is such a file
# (admin-guide/kernel-parameters.rst), whose directory, admin-guide, is
# most of the Sphinx time of this gate: about 300 of its 340 s on a new
# machine (the base and the series tree, beside a kernel build).
literal_only() {
	local name
	case $1 in *.rst) return 1 ;; esac
	name=$(basename "$1")
	awk -v name="$name" '
		want { if ($0 !~ /^[ \t]+:literal:[ \t]*$/) bad = 1; want = 0 }
		$1 == ".." && $2 == "include::" && $3 == name { n++; want = 1 }
		END { exit !(n > 0 && !bad) }' "$BST_SERIES_TREE/$(dirname "$1")"/*.rst
}
mapfile -t dirs < <(git -C "$BST_SERIES_TREE" diff --name-only "$BST_BASE"..HEAD -- Documentation |
	while read -r f; do
		if literal_only "$f"; then
			info "htmldocs: $f is included only as literal text; its directory is not built for it" >&2
			continue
		fi
		d=$(dirname "$f")
		while [ "$d" != Documentation ] && [ ! -f "$BST_SERIES_TREE/$d/index.rst" ]; do
			d=$(dirname "$d")
		done
		echo "${d#Documentation/}"
	done | sort -u)
if [ ${#dirs[@]} -eq 0 ]; then
	record skip "htmldocs: Documentation/ of the series" "the series changes no file below Documentation/"
	exit 0
fi
sphinx_warnings() {
	# Warnings do not fail htmldocs (they are compared below); a failure is
	# a failed result, not an empty list of warnings.
	kmake "$1" "$out/htmldocs-$2" SPHINXDIRS="${dirs[*]}" htmldocs >"$out/htmldocs-$2.log" 2>&1 ||
		record fail "htmldocs SPHINXDIRS=\"${dirs[*]}\": builds on the $2 tree" \
			"make htmldocs failed: see $out/htmldocs-$2.log" >&2
	# Without the tree's path and the output directory's (they differ
	# between the trees and may appear anywhere in a line: the ABI files
	# are generated into the output directory) and without line numbers.
	grep -E 'WARNING|ERROR' "$out/htmldocs-$2.log" |
		sed -E -e "s|$out/htmldocs-$2/||g" -e "s|$1/||g" -e 's/:[0-9]+/:/g' | sort -u
}
record_clean "htmldocs SPHINXDIRS=\"${dirs[*]}\": no new warnings" \
	"$(comm -13 <(sphinx_warnings "$KSRC" base) <(sphinx_warnings "$BST_SERIES_TREE" series))"
