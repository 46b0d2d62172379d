#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""console_metrics.py BOOT_DIR: what one console benchmark boot measured.

BOOT_DIR holds console.log (what the PL011 sent), results.log (the guest's
results channel) and dump/kmsg (the kernel log, one /dev/kmsg record a line,
saved by console_registered_once). Prints one tab-separated line:

  console_bytes dmesg_bytes console_ok run_init_ms fw_console_us populate_us
  tail_ms line_busy_pct

dmesg_bytes is what the log takes as console text ("[ seconds] text" lines),
console_ok 1 when the kernel log says a ttyAMA console was enabled (also when
console=tty1 makes the VT the preferred console, as Raspberry Pi OS boots),
run_init_ms the printk time of "Run /init as init process", and the last two
the initcall_debug durations of pl011_fw_console_init and
of_platform_default_populate_init (where the PL011 probes), "-" if absent.
tail_ms is the printk time from the last initcall's return to "Run /init":
opening /dev/console (the PL011 port, whose lock the printer thread holds
while it writes) and freeing the init memory. line_busy_pct: how much of the
time from its first character to late_initcall_sync the modelled UART was
sending (the model's "bst-uart: ... line idle" line); with a backlog all
along, as the series' printer thread has, the rest is lost line time.
"""
import os
import re
import sys


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    d = sys.argv[1]
    console_bytes = os.path.getsize(os.path.join(d, 'console.log'))
    dmesg_bytes, run_init, tail, durations, last_initcall = 0, '-', '-', {}, None
    busy, ok = '-', False
    with open(os.path.join(d, 'dump', 'kmsg'), encoding='utf-8', errors='replace') as f:
        for rec in f:
            head, _, text = rec.rstrip('\n').partition(';')
            usec = int(head.split(',')[2])
            for line in text.split('\\x0a'):
                dmesg_bytes += len('[%5d.%06d] ' % (usec // 10**6, usec % 10**6)) + len(line) + 1
            ok = ok or bool(re.search(r'console \[ttyAMA\d+\] enabled', text))
            if text == 'Run /init as init process':
                run_init = '%.3f' % (usec / 1000)
                tail = '-' if last_initcall is None else '%.3f' % ((usec - last_initcall) / 1000)
            m = re.match(r'bst-uart: \d+ characters, line idle (\d+) us of (\d+) us', text)
            if m and int(m.group(2)):
                busy = '%.1f' % (100 * (1 - int(m.group(1)) / int(m.group(2))))
            m = re.match(r'initcall (\w+)\+\S+ returned -?\d+ after (\d+) usecs', text)
            if m:
                durations[m.group(1)] = m.group(2)
                last_initcall = usec
    print('\t'.join(str(x) for x in (
        console_bytes, dmesg_bytes, int(ok), run_init,
        durations.get('pl011_fw_console_init', '-'),
        durations.get('of_platform_default_populate_init', '-'),
        tail, busy)))


if __name__ == '__main__':
    main()
