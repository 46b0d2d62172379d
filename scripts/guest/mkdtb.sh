#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# mkdtb.sh NAME SMP OUT: a device tree for QEMU virt that differs from the
# one QEMU makes in one documented way, for boots that pass it with -dtb
# (selftests/plan: bst.dtb=NAME). QEMU still adds the command line and the
# initramfs to /chosen. Needs fdtput (Debian device-tree-compiler).
#
#   stdout-not-pl011   /chosen/stdout-path names fw-cfg, not the PL011
#   stdout-options     /chosen/stdout-path names the PL011 with options
#                      (":115200n8"), as board device trees do
#   uart-gated-clock   the PL011's clocks come from a GPIO-gated clock
#                      ("uart-gate", on the PL061), whose driver probes at
#                      device_initcall: a gateable clock with no provider
#                      at console_init, as many SoCs' UART clocks are
#   uart-assigned-rate the PL011 has assigned-clocks/assigned-clock-rates
#                      naming its own clock at the rate it has: nothing
#                      changes at the probe, but console patch 3 leaves
#                      such a UART to the probe (the clock settings are the
#                      probe's to apply), so it registers there, as
#                      unpatched: the at-probe control of console patch 3
#   timer-quirks       the arch timer node has clock-frequency = 50 MHz
#                      (QEMU's counter runs at CNTFRQ_EL0 = 62.5 MHz: the
#                      kernel believes the DT) and hisilicon,erratum-161010101
#                      (the kernel then reads the counter through that
#                      erratum's workaround: two reads less than 32 ticks
#                      apart), as some board DTs have. Not fsl,erratum-a008585:
#                      its workaround waits for two equal reads, which QEMU's
#                      counter never gives (it warns after 200 tries)
. "$(dirname "$0")/../lib.sh"

name=${1:?usage: mkdtb.sh NAME SMP OUT} smp=${2:?} out=${3:?}
need_cmd fdtput
# shellcheck disable=SC2046 # the machine options are words
qemu-system-aarch64 $(qemu_machine "$smp") -machine dumpdtb="$out" \
	-display none -nic none >/dev/null 2>&1 || die "QEMU could not dump its device tree to $out"
case $name in
stdout-not-pl011)
	fdtput -t s "$out" /chosen stdout-path /fw-cfg@9020000 ;;
stdout-options)
	fdtput -t s "$out" /chosen stdout-path \
		"$(fdtget -t s "$out" /chosen stdout-path):115200n8" ;;
uart-gated-clock)
	uart=$(fdtget -t s "$out" /chosen stdout-path)
	pclk=$(fdtget -t x "$out" "$uart" clocks | cut -d' ' -f1)
	gpio=$(fdtget -t x "$out" /pl061@9030000 phandle)
	gate=0x7b00	# a phandle QEMU does not use (its own count up from 0x8000)
	fdtput -c "$out" /uart-gate
	fdtput -t s "$out" /uart-gate compatible gpio-gate-clock
	fdtput -t s "$out" /uart-gate clock-output-names uart-gate
	fdtput -t x "$out" /uart-gate '#clock-cells' 0
	fdtput -t x "$out" /uart-gate clocks "$pclk"
	fdtput -t x "$out" /uart-gate enable-gpios "$gpio" 5 0
	fdtput -t x "$out" /uart-gate phandle "$gate"
	fdtput -t x "$out" "$uart" clocks "$gate" "$gate" ;;
uart-assigned-rate)
	uart=$(fdtget -t s "$out" /chosen stdout-path)
	uartclk=$(fdtget -t x "$out" "$uart" clocks | cut -d' ' -f1)
	clknode=$(fdtget -l "$out" / | while read -r n; do
		if [ "$(fdtget -t x "$out" "/$n" phandle 2>/dev/null)" = "$uartclk" ]; then
			echo "/$n"
		fi
	done)
	[ -n "$clknode" ] || die "no node with the PL011 clock's phandle $uartclk"
	fdtput -t x "$out" "$uart" assigned-clocks "$uartclk"
	fdtput -t u "$out" "$uart" assigned-clock-rates \
		"$(fdtget -t u "$out" "$clknode" clock-frequency)" ;;
timer-quirks)
	fdtput -t u "$out" /timer clock-frequency 50000000
	fdtput "$out" /timer hisilicon,erratum-161010101 ;;
*)
	die "unknown device tree '$name' (see scripts/guest/mkdtb.sh)" ;;
esac
