#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# build-guest.sh VARIANT: build what goes into the guest: the static /init,
# every kselftest program in selftests/*/ (against the tree's kselftest.h),
# and the bootstamp module for VARIANT's kernel (objects outside the repo),
# with W=1 and sparse as errors (sparse from scripts/build-sparse.sh).
. "$(dirname "$0")/lib.sh"

variant=${1:?usage: build-guest.sh VARIANT}
tree=$(variant_tree "$variant")
bdir=$(variant_bdir "$variant")
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
	[ -f "$bdir/Module.symvers" ] || die "$variant kernel not built: run 'make build' first"
	# From scratch (2 s): __has_include(<linux/bootstamp.h>) leaves kbuild no
	# dependency to notice when the series adds or removes the header.
	rm -rf "$bdir-module" && mkdir -p "$bdir-module" || return
	# Zero warnings: W=1 and sparse (C=1) findings fail the build.
	make -s -C "$bdir" M="$BST_TOP/module" MO="$bdir-module" \
		CC="ccache ${CROSS_COMPILE}gcc" LOCALVERSION= W=1 KCFLAGS=-Werror \
		C=1 CHECK="$BST_SPARSE" CF=-Wsparse-error modules
}

step "building guest programs (init, selftests)" build_userspace
if [ -f "$BST_TOP/module/Kbuild" ]; then
	step "building module/ for the $variant kernel" build_module
fi
