#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# demo.sh: the main job. Fetch the tree, apply the series, build, boot QEMU
# virt (4 CPUs) with the bootstamp module loaded, dump its debugfs files and
# show the boot report. Output under out/demo/.
. "$(dirname "$0")/lib.sh"

S=$BST_TOP/scripts
OUT=$BST_OUT/demo
CPUS=${CPUS:-4}

"$S/setup/deps.sh"
"$S/setup/fetch-tree.sh"
"$S/setup/apply-series.sh"
"$S/build/build-sparse.sh"
"$S/build/build-kernel.sh" series
"$S/build/build-guest.sh" series

cmdline="console=ttyAMA0 panic=-1 bst.run=boot/booted_kernel"
if [ -f "$BST_TOP/module/Kbuild" ]; then
	cmdline+=" bst.insmod=bootstamp.ko bst.dump=/sys/kernel/debug/bootstamp"
fi
mkdir -p "$OUT"
write_expect series "$CPUS" >"$OUT/expect"
"$S/guest/mkinitramfs.sh" series "$OUT/initramfs.cpio" "$OUT/expect"
step "booting the series kernel in QEMU virt ($CPUS CPUs)" \
	boot_guest series "$OUT/initramfs.cpio" "$CPUS" "$OUT" "$cmdline" ||
	die "the guest did not power off cleanly: see $OUT/console.log"
rm -rf "$OUT/debugfs"
extract_files "$OUT/results.log" "$OUT/debugfs"

echo
say "booted: $(grep -m1 'Linux version' "$OUT/console.log" | sed 's/^\[[^]]*\] //')"
say "series: $(git -C "$BST_SERIES_TREE" log --oneline "$BST_BASE"..HEAD | wc -l) patches ($(series_names | tr "\n" " ")) on $(git -C "$KSRC" rev-parse --short "$BST_BASE")"
grep -E '^(ok|not ok) ' "$OUT/results.log" | sed 's/^/    /'
info "kernel console: $(wc -c <"$OUT/console.log") bytes; /init started $(init_start_ms "$OUT/results.log") ms after counter zero (QEMU start)"
if [ -x "$S/report/bootreport" ] && [ -n "$(ls -A "$OUT/debugfs" 2>/dev/null)" ]; then
	echo
	"$S/report/bootreport" "$OUT/debugfs" --text --svg "$OUT/boot.svg"
	info "timeline: ${OUT#$BST_TOP/}/boot.svg; Perfetto: ${OUT#$BST_TOP/}/debugfs/trace.json"
fi
info "all output: ${OUT#$BST_TOP/}/ (console.log, results.log, debugfs/)"
