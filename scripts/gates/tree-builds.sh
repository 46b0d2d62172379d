#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# tree-builds.sh [TREE...]: make check-full's "does it apply where users
# are": each series of patches/ alone, then all of them, applied with git am
# to each Debian tree of scripts/config/trees (default: all of them) and the
# kernel built (the test configuration: qemu-virt.config, Kconfig.fragment).
# One result per tree and series: pass when it applies and builds; skip when
# scripts/config/tree-backports says it does not apply there (and why);
# fail when it does not apply or build although it should, or applies
# although tree-backports says it does not (then that file is out of date).
# The other trees get the 7.2 base's versions of the files the patches touch,
# as a tree that has the base-commit has them, so git am can merge (-3).
. "$(dirname "$0")/../lib.sh"

: "${BST_RESULTS:?tree-builds.sh records into BST_RESULTS}"
T=$BST_CACHE/trees	# src/linux-TREE worktrees, build/TREE: the mirrored layout
# shellcheck disable=SC2046 # tree names are words
[ $# -gt 0 ] || set -- $(awk '!/^#/ && NF { print $1 }' "$BST_TOP/scripts/config/trees")
frags=("$BST_TOP/scripts/config/qemu-virt.config" "$BST_TOP/Kconfig.fragment")

backport_reason() {
	awk -F'\t' -v t="$1" -v s="$2" '$1 == t && $2 == s { print $3 }' \
		"$BST_TOP/scripts/config/tree-backports"
}

# import_preimages SRC DST: the blobs the patches' "index" lines name, from
# the repository SRC into DST (git am -3 needs them to merge).
import_preimages() {
	local blob
	series_patches | xargs sed -n 's/^index \([0-9a-f]*\)\.\.[0-9a-f]*.*/\1/p' | sort -u |
	while read -r blob; do
		blob=$(git -C "$1" rev-parse -q --verify "$blob^{blob}" 2>/dev/null) || continue
		git -C "$2" cat-file -e "$blob" 2>/dev/null ||
			git -C "$1" cat-file blob "$blob" | git -C "$2" hash-object -w --stdin >/dev/null
	done
}

# apply WT PATCH...: the base, then git am -3 of each; on failure prints the
# patch and the files in conflict, and leaves the worktree at the base.
apply() {
	local wt=$1 p
	shift
	git -C "$wt" am --abort >/dev/null 2>&1 || true
	git -C "$wt" checkout -q -f --detach "$BST_BASE" && git -C "$wt" clean -q -f -d || return
	for p; do
		if ! git -C "$wt" am -q --3way "$p" >/dev/null 2>&1; then
			echo "${p#$BST_TOP/} does not apply (conflicts in: $(git -C "$wt" diff --name-only --diff-filter=U | tr '\n' ' '))"
			git -C "$wt" am --abort >/dev/null 2>&1
			git -C "$wt" checkout -q -f --detach "$BST_BASE"
			return 1
		fi
	done
}

# build WT BDIR: configure as the test kernels are (options a series that
# is not applied defines are dropped) and build Image and modules.
build() {
	mkdir -p "$2" && kmake "$1" "$2" allnoconfig >/dev/null &&
		"$1/scripts/kconfig/merge_config.sh" -m -O "$2" "$2/.config" "${frags[@]}" >"$2/merge_config.log" 2>&1 &&
		kmake "$1" "$2" olddefconfig >/dev/null &&
		kmake "$1" "$2" Image modules >"$2/build.log" 2>&1
}

for tree in "$@"; do
	ksrc=$BST_CACHE/src/linux-$tree
	step "tree $tree: fetch" env -u KSRC TREE="$tree" "$BST_TOP/scripts/setup/fetch-tree.sh" ||
		{ record fail "trees: $tree fetched" "see the error above"; continue; }
	wt=$T/src/linux-$tree
	bdir=$T/build/$tree
	[ -e "$wt/.git" ] || git -C "$ksrc" worktree add -q --force --detach "$wt" "$BST_BASE" ||
		{ record fail "trees: $tree worktree" "git worktree add failed"; continue; }
	[ "$tree" = 7.2 ] || import_preimages "$BST_CACHE/src/linux-7.2" "$ksrc"
	applied=()
	for s in $(series_names) all; do
		if [ "$s" = all ]; then
			[ ${#applied[@]} -eq "$(series_names | wc -l)" ] || continue
			mapfile -t patches < <(series_patches)
		else
			mapfile -t patches < <(series_patches "$s")
		fi
		name="trees: $s applies and builds on $tree ($(make -s -C "$ksrc" kernelversion))"
		why=$(backport_reason "$tree" "$s")
		if ! msg=$(apply "$wt" "${patches[@]}"); then
			if [ -n "$why" ]; then
				record skip "$name" "does not apply: $why"
			else
				record fail "$name" "$msg"
			fi
			continue
		fi
		if [ -n "$why" ]; then
			record fail "$name" "applies, but scripts/config/tree-backports says it does not: update it"
			continue
		fi
		[ "$s" = all ] || applied+=("$s")
		if step "tree $tree: building with $s (${#patches[@]} patches)" build "$wt" "$bdir"; then
			record pass "$name"
		else
			tail -20 "$bdir/build.log" | sed 's/^/    /'
			record fail "$name" "build failed: see $bdir/build.log"
		fi
	done
done
