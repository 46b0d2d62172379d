#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# mutants.sh [NAME...]: the mutation gate (make check-mutants, and make
# check-full). Each mutant of selftests/mutants/index (all, or the named
# ones) is a small test-only patch that breaks one claim of the product;
# the gate applies it, rebuilds what it touches, runs the boots the index
# names for it and calls it killed when at least one of them records a
# failure that the same boot does not record without a mutant (the control
# run, first: each boot the mutants name, on the unmutated kernels),
# survived when none does. A mutant that does not apply or does not build,
# or whose boots record nothing, is an error of the gate.
#
# It never touches the trees and builds others use: its kernels are its own
# series worktree and debug tree below $BST_CACHE/mutants (BST_SERIES_ROOT,
# BST_LAB_ROOT of lib.sh, in the same layout, so ccache shares every object
# a mutant does not change), rebuilt incrementally from one mutant to the
# next and put back (git apply -R) after each; the guest programs and
# modules are its own (BST_GUEST), a module mutant builds module/ (a copy)
# against the unmutated kernel. Boot logs: $BST_OUT/mutants/NAME/check/;
# the table: $BST_OUT/check/mutants.tsv (mutant, tree, boots, verdict,
# seconds, detail, claim). One row per mutant goes to $BST_RESULTS when
# set (make check-full). Exit 0 when every mutant was killed, 3 when one
# survived or failed to apply or build (all recorded), else the gate
# itself stopped early.
. "$(dirname "$0")/../lib.sh"

MROOT=$BST_CACHE/mutants
export BST_SERIES_ROOT=$MROOT/series BST_LAB_ROOT=$MROOT/lab BST_GUEST=$MROOT/guest
# lib.sh set these from the defaults before the exports above.
BST_SERIES_TREE=$BST_SERIES_ROOT/src/$(basename "$KSRC")
DIR=${BST_MUTANTS_DIR:-$BST_TOP/selftests/mutants}	# another directory: the gate's own tests
S=$BST_TOP/scripts
TSV=$BST_OUT/check/mutants.tsv
mkdir -p "$MROOT" "$BST_OUT/check"

# One gate at a time on this cache: the trees are rebuilt in place.
exec 9>"$MROOT/.lock"
flock -n 9 || die "another mutation gate is running on $MROOT"

# index_lines [NAME...]: NAME TREE BOOTS CLAIM, tab-separated, of the
# named mutants (all without names); an unknown name is an error.
index_lines() {
	local lines n
	lines=$(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$DIR/index" |
		awk 'BEGIN { OFS = "\t" } { c = $0; sub(/^[^ \t]+[ \t]+[^ \t]+[ \t]+[^ \t]+[ \t]+/, "", c); print $1, $2, $3, c }')
	[ $# -gt 0 ] || { echo "$lines"; return; }
	for n; do
		awk -F'\t' -v n="$n" '$1 == n' <<<"$lines" | grep . ||
			die "no mutant '$n' in ${DIR#"$BST_TOP"/}/index"
	done
}

# boot_variant BOOT: the kernel variant of a boot of either plan.
boot_variant() {
	local v
	v=$(BOOT_VARIANT='' plan_lines "$1" | awk '{ print $2 }')
	[ -n "$v" ] || die "mutants: boot '$1' is in neither selftests/plan nor plan-full"
	echo "$v"
}

# tree_ok TREE VARIANT: may a mutant of TREE be caught on VARIANT's kernel?
tree_ok() {
	local t
	t=$(variant_line "$2" | awk '{ print $2 }')
	case $1 in
	series) [ "$t" = series ] ;;
	debug)  [ "$t" = lab:slowuart-series ] ;;
	module) [ "$t" = series ] || [ "$t" = lab:slowuart-series ] ;;
	*)      die "mutants: unknown tree '$1' (series, debug or module)" ;;
	esac
}

lines=$(index_lines "$@")	# not in a process substitution: die must stop the gate
mapfile -t mutants <<<"$lines"
[ -n "$lines" ] || die "no mutant in ${DIR#"$BST_TOP"/}/index"

# Check the index before anything is built: patch, boots, variants.
variants=()
for m in "${mutants[@]}"; do
	IFS=$'\t' read -r name tree boots _ <<<"$m"
	[ -f "$DIR/$name.patch" ] || die "mutant $name: no ${DIR#"$BST_TOP"/}/$name.patch"
	for b in ${boots//,/ }; do
		v=$(boot_variant "$b")
		tree_ok "$tree" "$v" ||
			die "mutant $name: boot $b runs the $v kernel, not one of the $tree tree"
		variants+=("$v")
	done
done
mapfile -t variants < <(printf '%s\n' "${variants[@]}" | awk '!seen[$0]++')

# Put back what an interrupted run left applied, then the trees and the
# unmutated kernels, guest programs and modules of every variant needed.
revert_all() {
	local t
	for t in "$BST_SERIES_TREE" "$(lab_tree slowuart-series)"; do
		[ ! -e "$t/.git" ] || git -C "$t" checkout -q -- . || return
	done
}
revert_all || die "cannot put back the mutant trees"
step "mutant series worktree ($BST_SERIES_TREE)" "$S/setup/apply-series.sh"
for v in "${variants[@]}"; do
	step "unmutated $v kernel in $(variant_bdir "$v") (ccache: a few minutes when new)" \
		"$S/build/build-kernel.sh" "$v"
	step "guest programs and module for $v in $BST_GUEST" "$S/build/build-guest.sh" "$v"
done

# A kernel mutant leaves its kernels built with it (the next one rebuilds
# what it put back); a module mutant needs them unmutated.
dirty=()
rebuild_dirty() {
	local v
	for v in "${dirty[@]}"; do
		kmake "$(variant_tree "$v")" "$(variant_bdir "$v")" Image modules || return
	done
	dirty=()
}

# mutant_variants BOOTS: the variants of a mutant's boots, once each.
mutant_variants() {
	local b
	for b in ${1//,/ }; do boot_variant "$b"; done | awk '!seen[$0]++'
}

# apply_kernel NAME TREE BOOTS: apply a kernel mutant, rebuild its boots'
# kernels and the module for them. Leaves the patch applied.
apply_kernel() {
	local name=$1 tree=$2 v t
	t=$BST_SERIES_TREE
	[ "$tree" = series ] || t=$(lab_tree slowuart-series)
	git -C "$t" apply "$DIR/$name.patch" || { why="does not apply to $t"; return 1; }
	applied=$t
	for v in $(mutant_variants "$3"); do
		dirty+=("$v")
		kmake "$t" "$(variant_bdir "$v")" Image modules ||
			{ why="the $v kernel does not build"; return 1; }
		"$S/build/build-guest.sh" --module-only "$v" >/dev/null ||
			{ why="module/ does not build for the $v kernel"; return 1; }
	done
}

# apply_module NAME BOOTS: module/ with the mutant, built for the boots'
# kernels (unmutated) from a copy of scripts/, module/ and selftests/ (the
# test modules build with it).
apply_module() {
	local name=$1 repo=$MROOT/repo v
	rebuild_dirty || { why="the unmutated kernels do not build again"; return 1; }
	rm -rf "$repo" && mkdir -p "$repo" && cp -a "$BST_TOP/scripts" "$BST_TOP/module" "$BST_TOP/selftests" "$repo/" ||
		{ why="cannot copy module/ to $repo"; return 1; }
	(cd "$repo" && git apply "$DIR/$name.patch") || { why="does not apply to module/"; return 1; }
	for v in $(mutant_variants "$2"); do
		"$repo/scripts/build/build-guest.sh" --module-only "$v" >/dev/null ||
			{ why="module/ with it does not build for the $v kernel"; return 1; }
	done
}

# The control: every boot the mutants name, once, on the unmutated kernels
# and module. A failure a boot records here is not a mutant's doing.
all_boots=$(for m in "${mutants[@]}"; do cut -f3 <<<"$m" | tr ',' '\n'; done | awk '!seen[$0]++')
CONTROL=$BST_OUT/mutants/control
rm -rf "$CONTROL" && mkdir -p "$CONTROL/check"
# run_boots OUT BOOTS: the boots, their logs and results below OUT.
run_boots() {
	# shellcheck disable=SC2086 # boot names are words
	BST_OUT=$1 BST_RESULTS=$1/check/results.tsv BST_TIER=full BOOT_VARIANT='' \
		"$S/boots/run-boots.sh" ${2//,/ } >"$1/boots.log" 2>&1 ||
		info "run-boots.sh exit $?: see ${1#"$BST_TOP"/}/boots.log"
}
step "control: the mutants' $(wc -w <<<"$all_boots") boots without a mutant (logs in ${CONTROL#"$BST_TOP"/})" \
	run_boots "$CONTROL" "$(paste -sd, <<<"$all_boots")"
awk -F'\t' '$1 == "fail" { print "    red without a mutant: " $2 }' "$CONTROL/check/results.tsv"

# verdict BOOTS RESULTS: sets result to killed (a boot recorded a failure
# that it did not record in the control run), survived, or error when a
# boot recorded nothing here or in the control run; why says why.
verdict() {
	local b rows
	for b in ${1//,/ }; do
		for rows in "$2" "$CONTROL/check/results.tsv"; do
			rows=$(awk -F'\t' -v b="$b: " 'index($2, b) == 1' "$rows" 2>/dev/null | wc -l)
			if [ "$rows" -eq 0 ]; then
				result=error why="boot $b recorded no result (with the mutant, or in the control run)"
				return
			fi
		done
	done
	why=$(awk -F'\t' 'NR == FNR { if ($1 == "fail") red[$2] = 1; next }
		$1 == "fail" && !($2 in red) { print $2 ($3 ? " (" $3 ")" : ""); exit }' \
		"$CONTROL/check/results.tsv" "$2")
	result=killed
	[ -n "$why" ] || result=survived why="no row failed that passed in the control run"
}

printf 'mutant\ttree\tboots\tverdict\tseconds\tdetail\tclaim\n' >"$TSV"
bad=0
for m in "${mutants[@]}"; do
	IFS=$'\t' read -r name tree boots claim <<<"$m"
	t0=$(date +%s)
	say "mutant $name ($tree): $claim"
	why='' applied='' result=error
	out=$BST_OUT/mutants/$name
	rm -rf "$out" && mkdir -p "$out/check"
	if [ "$tree" = module ]; then
		apply_module "$name" "$boots"
	else
		apply_kernel "$name" "$tree" "$boots"
	fi && {
		run_boots "$out" "$boots"
		verdict "$boots" "$out/check/results.tsv"
	}
	if [ -n "$applied" ]; then
		git -C "$applied" apply -R "$DIR/$name.patch" ||
			die "mutant $name: cannot take it back out of $applied"
	fi
	secs=$(( $(date +%s) - t0 ))
	info "$result after ${secs}s: $why"
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$tree" "$boots" "$result" "$secs" "$why" "$claim" >>"$TSV"
	if [ -n "${BST_RESULTS:-}" ]; then
		if [ "$result" = killed ]; then
			record pass "mutant $name: killed by $boots" "$why"
		else
			record fail "mutant $name: killed by $boots" "$result: $why"
		fi
	fi
	[ "$result" = killed ] || bad=$((bad + 1))
done

say "mutants (${TSV#"$BST_TOP"/})"
awk -F'\t' 'NR > 1 { printf "    %-26s %-8s %-9s %5ss  %s\n", $1, $2, $4, $5, $3; n[$4]++ }
	END { printf "    %d killed, %d survived, %d errors\n", n["killed"], n["survived"], n["error"] }' "$TSV"
[ "$bad" -eq 0 ] || exit 3
