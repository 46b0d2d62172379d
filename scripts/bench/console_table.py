#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""console_table.py boots.tsv [--refs CONFIG=UNPATCHED,LOGLEVEL1]...: the
console benchmark's tables in Markdown, medians over the runs.

boots.tsv has a config, run and init_ms column plus the fields of
console_metrics.py. The first table is the end-to-end one: (a) counter
zero to /init, (b) to /init's first line sent by the UART, (c) to the
milestone after /init's fixed work, (d) to the console idle, (e) the
longest interrupts-off hold of the PL011 port lock once userspace ran, (f)
records lost; each time with its ratio against the configuration's
unpatched control and its loglevel=1 control (--refs; "-" for none), as
ratios of medians. The second is per boot detail: did the console work,
bytes sent against the log, the line's use.
"""
import argparse
import csv
import statistics

E2E = (('init_ms', '(a) /init ms', True),
       ('first_line_ms', '(b) first line ms', True),
       ('milestone_ms', '(c) milestone ms', True),
       ('idle_ms', '(d) console idle ms', False),
       ('irqoff_us', '(e) irqs off us', 'unpatched'),
       ('irqoff_chars', '(e) most chars in one hold', 'unpatched'),
       ('lost', '(f) lost', False))


def median(values):
    nums = [float(v) for v in values if v not in ('-', '', None)]
    return statistics.median(nums) if nums else None


def fmt(v, spec='%.0f'):
    return '-' if v is None else spec % v


def ratio(a, b):
    return None if a is None or not b else a / b


def parse_refs(specs):
    refs = {}
    for s in specs:
        config, _, rest = s.partition('=')
        unpatched, _, ll1 = rest.partition(',')
        refs[config] = (None if unpatched in ('', '-') else unpatched,
                        None if ll1 in ('', '-') else ll1)
    return refs


def e2e_table(rows, refs):
    med = {c: {k: median(r.get(k) for r in rs) for k, _, _ in E2E} for c, rs in rows.items()}
    head = ['config', 'boots']
    for key, title, ratios in E2E:
        head.append(title)
        if ratios is True:
            head += ['x unpatched', 'x loglevel=1']
        elif ratios:
            head.append('x unpatched')
    out = ['## End to end (medians; ratios of medians against the controls)', '',
           '| ' + ' | '.join(head) + ' |', '|' + '---|' * len(head)]
    for config, rs in rows.items():
        unp, ll1 = refs.get(config, (None, None))
        cells = [config, str(len(rs))]
        for key, _, ratios in E2E:
            v = med[config][key]
            cells.append(fmt(v, '%.1f' if key.endswith('_ms') else '%.0f'))
            if ratios:
                u = med.get(unp, {}).get(key) if unp else None
                cells.append(fmt(ratio(v, u), '%.3f'))
            if ratios is True:
                ll = med.get(ll1, {}).get(key) if ll1 else None
                cells.append(fmt(ratio(v, ll), '%.3f'))
        out.append('| ' + ' | '.join(cells) + ' |')
    moved = []
    for config in rows:
        unp, ll1 = refs.get(config, (None, None))
        if not ll1 or ll1 not in med:
            continue
        ra = ratio(med[config]['init_ms'], med[ll1]['init_ms'])
        rc = ratio(med[config]['milestone_ms'], med[ll1]['milestone_ms'])
        rb = ratio(med[config]['first_line_ms'], med[ll1]['first_line_ms'])
        if ra is None or rc is None:
            continue
        moved.append('- %s against %s: /init %.3f, first line %s, milestone %.3f, '
                     'console idle at %s ms%s.' % (
                         config, ll1, ra, fmt(rb, '%.3f'), rc,
                         fmt(med[config]['idle_ms'], '%.0f'),
                         ' (goal for (b) and (c): within 1.05: %s)' % (
                             'met' if rb is not None and rb <= 1.05 and rc <= 1.05
                             else 'NOT met')))
    if moved:
        out += ['', 'Where the cost went (ratios against loglevel=1, which prints '
                'nothing on the UART):', ''] + moved
    return out


def detail_table(rows):
    out = ['## The console in each configuration (medians)', '',
           '| config | console works | console bytes | dmesg bytes '
           '| printk time of Run /init (ms) | last initcall to Run /init (ms) '
           '| UART line busy to late_initcall_sync (%) '
           '| line in use, first character to console idle (%) | characters/s |',
           '|---|---|---|---|---|---|---|---|---|']
    for config, rs in rows.items():
        ok = sum(int(r['console_ok']) for r in rs)
        out.append('| %s | %d of %d boots | %s | %s | %s | %s | %s | %s | %s |' % (
            config, ok, len(rs),
            fmt(median(r['console_bytes'] for r in rs)),
            fmt(median(r['dmesg_bytes'] for r in rs)),
            fmt(median(r['run_init_ms'] for r in rs), '%.1f'),
            fmt(median(r['tail_ms'] for r in rs), '%.1f'),
            fmt(median(r['line_busy_pct'] for r in rs), '%.1f'),
            fmt(median(r['line_use_pct'] for r in rs), '%.1f'),
            fmt(median(r['drain_cps'] for r in rs))))
    return out


NOTES = [
    '', '(a) counter zero to /init\'s first instruction. (b) to the moment the '
    'test-only UART model sent the last byte of the first line /init writes to '
    'the serial port (as a getty would), not when it was written. (c) to the end '
    'of a fixed amount of work on every CPU after /init, while /init writes ten '
    'lines to the port. (d) to the moment the model sent a record /init logs '
    'after (c): every record logged before it has reached the line. (e) the '
    'longest hold of the PL011 port lock with interrupts off once userspace '
    'ran, in the test-only model (the console\'s device_lock() and the '
    'driver\'s other irqsave holds), host time: under QEMU\'s host clock it '
    'includes the host descheduling the vCPU; the most characters written in '
    'one hold are not, and their line time (86.8 us each at 115200 baud) is '
    'about what that hold lasts on hardware; the irqsoff tracer would change '
    'the kernels it measures. Not counted: records written by write_atomic() '
    '(emergencies, panic, and the unpatched kernel with a legacy console '
    'such as console=tty1, where printk() flushes the PL011 from the caller '
    'with interrupts off a record at a time): n-unpatched-rpi\'s (e) misses '
    'those, so its ratio says nothing. (e) includes the 69-character record '
    '/init logs after (c). (f) records below the console loglevel logged '
    'before that record that never reached the line whole (missing, or cut '
    'by a "printk messages dropped" notice; records overwritten before the '
    'log was saved are counted against the lines the console stamped, a '
    'lower bound). "Console '
    'bytes" include what the kernel prints after the log was saved. "Line '
    'in use": the share of the time from the first character to (d) that '
    'the modelled UART was sending; characters/s over the same time.']


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('tsv')
    ap.add_argument('--refs', action='append', default=[],
                    metavar='CONFIG=UNPATCHED,LOGLEVEL1')
    args = ap.parse_args()
    rows = {}
    with open(args.tsv, encoding='utf-8') as f:
        for r in csv.DictReader(f, delimiter='\t'):
            rows.setdefault(r['config'], []).append(r)
    out = e2e_table(rows, parse_refs(args.refs)) + [''] + detail_table(rows) + NOTES
    print('\n'.join(out))


if __name__ == '__main__':
    main()
