#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# build-guest.sh [--module-only] VARIANT: build what goes into the guest: the
# static /init, every kselftest program in selftests/*/ (against the tree's
# kselftest.h), and the bootstamp module for VARIANT's kernel (objects
# outside the repo), with W=1 and sparse as errors (sparse from
# scripts/build/build-sparse.sh). --module-only: just the module, also
# against a tree that is only configured (make check's unpatched tree).
. "$(dirname "$0")/../lib.sh"

module_only=0
if [ "${1:-}" = --module-only ]; then
	module_only=1
	shift
fi
variant=${1:?usage: build-guest.sh [--module-only] VARIANT}
tree=$(variant_tree "$variant")
bdir=$(variant_bdir "$variant")
moddir=$(guest_module_dir "$variant")
CFLAGS="-static -O2 -Wall -Wextra -Werror"

build_userspace() {
	# From scratch, so that a program that no longer builds is not
	# replaced by its old binary.
	rm -rf "$BST_GUEST" && mkdir -p "$BST_GUEST/tests" || return
	${CROSS_COMPILE}gcc $CFLAGS -o "$BST_GUEST/init" "$BST_TOP/scripts/guest/init.c" || return
	local src dir
	for src in "$BST_TOP"/selftests/*/*.c; do
		dir=$(basename "$(dirname "$src")")
		mkdir -p "$BST_GUEST/tests/$dir" || return
		${CROSS_COMPILE}gcc $CFLAGS -I"$tree/tools/testing/selftests" \
			-o "$BST_GUEST/tests/$dir/$(basename "$src" .c)" "$src" -lpthread || return
	done
}

build_module() {
	local modpost=()
	if [ ! -f "$bdir/Module.symvers" ]; then
		# A configured tree without its kernel: the module compiles, with
		# every check, but its symbols cannot be resolved (modpost warns).
		[ "$module_only" -eq 1 ] || die "$variant kernel not built: run 'make build' first"
		kmake "$tree" "$bdir" modules_prepare || return
		modpost=(KBUILD_MODPOST_WARN=1)
	fi
	# From scratch (2 s): __has_include(<linux/bootstamp.h>) leaves kbuild no
	# dependency to notice when the series adds or removes the header.
	rm -rf "$moddir" "$moddir.log" && mkdir -p "$moddir" || return
	# Zero warnings: W=1 and sparse (C=1) findings fail the build.
	# The test-only modules of selftests/bootstamp/modules (loaded by the
	# boots' tests, never by a user) go below it, with the same checks.
	local rc=0 src
	for src in module selftests/bootstamp/modules; do
		mkdir -p "$moddir/${src#module}" &&
		make -s -C "$bdir" M="$BST_TOP/$src" MO="$moddir/${src#module}" \
			CC="ccache ${CROSS_COMPILE}gcc" LOCALVERSION= W=1 KCFLAGS=-Werror \
			C=1 CHECK="$BST_SPARSE" CF=-Wsparse-error "${modpost[@]}" modules \
			>>"$moddir.log" 2>&1 || rc=$?
	done
	if [ ${#modpost[@]} -eq 0 ]; then
		cat "$moddir.log"
	else
		# Without Module.symvers modpost says so, and every kernel
		# symbol is "undefined": expected, not worth a line each.
		grep -vE 'modpost: ("[^"]+" \[.*\] undefined!|suppressed [0-9]+ unresolved)|Module\.symvers is missing|Modules may not have dep|You may get many unresolved|KBUILD_MODPOST_WARN=1 to turn|at your own risk' \
			"$moddir.log" || true
	fi
	return "$rc"
}

[ "$module_only" -eq 1 ] || step "building guest programs (init, selftests)" build_userspace
if [ -f "$BST_TOP/module/Kbuild" ]; then
	step "building module/ for the $variant kernel" build_module
fi
