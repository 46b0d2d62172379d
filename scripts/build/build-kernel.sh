#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# build-kernel.sh [--configure-only] VARIANT: configure and build one kernel variant
# (scripts/config/variants) in its own O= directory: allnoconfig, then the
# variant's fragments, then olddefconfig, then a check that every requested
# option made it, then Image and modules with ccache. A benchmark variant
# ("lab:NAME" tree) gets its tree readied first (scripts/bench/lab-tree.sh).
. "$(dirname "$0")/../lib.sh"

configure_only=0
if [ "${1:-}" = --configure-only ]; then
	configure_only=1
	shift
fi
variant=${1:?usage: build-kernel.sh [--configure-only] VARIANT}
lab=$(variant_lab "$variant")
[ -z "$lab" ] || "$BST_TOP/scripts/bench/lab-tree.sh" "$lab" || exit
tree=$(variant_tree "$variant")
bdir=$(variant_bdir "$variant")
mapfile -t frags < <(variant_fragments "$variant" | sed "s|^|$BST_TOP/|")
[ -f "$tree/Makefile" ] || die "no kernel tree at $tree: run 'make tree series' first"
need_cmd "${CROSS_COMPILE}gcc"
need_cmd ccache

configure() {
	mkdir -p "$bdir" && kmake "$tree" "$bdir" allnoconfig >/dev/null || return
	"$tree/scripts/kconfig/merge_config.sh" -m -O "$bdir" "$bdir/.config" "${frags[@]}" >"$bdir/merge_config.log" 2>&1 ||
		die "merge_config.sh failed: see $bdir/merge_config.log"
	kmake "$tree" "$bdir" olddefconfig >/dev/null || return
	"$BST_TOP/scripts/build/check-config.sh" "$bdir/.config" "$tree" "${frags[@]}"
}

# Reconfigure only when a fragment changed, so rebuilds stay incremental.
cfgsum=$(cat "${frags[@]}" | sha256sum | cut -d' ' -f1)
if [ "$(cat "$bdir/.bootstamp-config" 2>/dev/null)" != "$cfgsum" ] || [ ! -f "$bdir/.config" ]; then
	step "configuring $variant ($(basename -a "${frags[@]}" | tr '\n' ' '))" configure
	echo "$cfgsum" >"$bdir/.bootstamp-config"
fi
[ "$configure_only" -eq 0 ] || exit 0
step "building $variant kernel in $bdir (cold on 2 cores: the series about 9 min, the debug kernel 6; warm: seconds)" \
	kmake "$tree" "$bdir" Image modules
info "$(kmake "$tree" "$bdir" -s kernelrelease) $(du -h "$bdir/arch/arm64/boot/Image" | cut -f1) $(variant_image "$variant")"
