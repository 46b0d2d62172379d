#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""console_table.py boots.tsv: the console benchmark's per-configuration
details as a Markdown table: did the console work, how many bytes reached it
against the size of the kernel log, the printk time of "Run /init", and how
long the initcalls that register the console took (medians over the runs).
"""
import csv
import statistics
import sys


def median(values):
    nums = [float(v) for v in values if v not in ('-', '')]
    return statistics.median(nums) if nums else None


def fmt(v, spec='%.0f'):
    return '-' if v is None else spec % v


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    rows = {}
    with open(sys.argv[1], encoding='utf-8') as f:
        for r in csv.DictReader(f, delimiter='\t'):
            rows.setdefault(r['config'], []).append(r)
    out = ['## The console in each configuration (medians)', '',
           '| config | console works | console bytes | dmesg bytes | console/dmesg '
           '| printk time of Run /init (ms) | pl011_fw_console_init (us) '
           '| of_platform_default_populate_init (us) | last initcall to Run /init (ms) '
           '| UART line busy (%) |',
           '|---|---|---|---|---|---|---|---|---|---|']
    for config, rs in rows.items():
        ok = sum(int(r['console_ok']) for r in rs)
        cb, db = median(r['console_bytes'] for r in rs), median(r['dmesg_bytes'] for r in rs)
        out.append('| %s | %d of %d boots | %s | %s | %s | %s | %s | %s | %s | %s |' % (
            config, ok, len(rs), fmt(cb), fmt(db), fmt(cb / db if db else None, '%.2f'),
            fmt(median(r['run_init_ms'] for r in rs), '%.1f'),
            fmt(median(r['fw_console_us'] for r in rs)),
            fmt(median(r['populate_us'] for r in rs)),
            fmt(median(r['tail_ms'] for r in rs), '%.1f'),
            fmt(median(r.get('line_busy_pct', '-') for r in rs), '%.1f')))
    out += ['', '"console works": the kernel log says a ttyAMA console was enabled '
            '(with console=tty1 the VT is the preferred console, as on Raspberry Pi OS). '
            'Console bytes include what '
            'the kernel prints after the log was saved (power off). The initcall '
            'durations come from initcall_debug; with the series, '
            'pl011_fw_console_init registers the console and the PL011 probe in '
            'of_platform_default_populate_init adopts it. "Last initcall to Run /init" '
            'is mostly opening /dev/console and freeing the init memory: each '
            'acquisition of the port lock waits for what the printer thread is '
            'writing (with the series what the FIFO takes at once, a whole '
            'record without console patches 4-7). "UART line busy": the share of the time '
            'from the first character to late_initcall_sync that the modelled UART '
            'was sending; the series\' printer thread has a backlog all along, so '
            'anything below 100% is line time it lost (earlycon\'s configuration '
            'also counts the wait for the printer thread).']
    print('\n'.join(out))


if __name__ == '__main__':
    main()
