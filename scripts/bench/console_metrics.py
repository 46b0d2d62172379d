#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""console_metrics.py BOOT_DIR | --header: what one console benchmark boot
measured.

BOOT_DIR holds console.log (what the PL011 sent), results.log (the guest's
results channel), cmdline (the kernel command line) and dump/kmsg (the
kernel log, one /dev/kmsg record a line, saved by console_registered_once
after /init's benchmark work). Prints one tab-separated line, the fields
of FIELDS (--header prints their names):

console_bytes, dmesg_bytes: what the PL011 sent, and what the log takes as
console text ("[ seconds] text" lines). console_ok: 1 when the kernel log
(or, if the ring overwrote that record, the console) says a ttyAMA console
was enabled (also when console=tty1 makes the VT the
preferred console, as Raspberry Pi OS boots). run_init_ms: the printk time
of "Run /init as init process". fw_console_us, populate_us: the
initcall_debug durations of pl011_fw_console_init and
of_platform_default_populate_init (where the PL011 probes). tail_ms: the
printk time from the last initcall's return to "Run /init". line_busy_pct:
how much of the time from its first character to late_initcall_sync the
modelled UART was sending (the model's "bst-uart: ... line idle" line).

The end-to-end numbers (/init's bst.work part, scripts/guest/init.c, and
the test-only model's bst_uart_stats), in ms from counter zero:
first_line_ms, when the last byte of /init's first line on the serial
port left the line; milestone_ms, when /init's fixed work on every CPU and
its lines to the port were done; idle_ms, when the console had sent the
record /init logged after that, so everything logged before it.
irqoff_us: the longest hold of the PL011 port lock with interrupts off
once userspace ran, console_irqoff_us the same for the console's
device_lock() alone (host time under QEMU's host clock, vCPU preemption
included); irqoff_chars: the most characters written in one such hold,
whose line time is what that hold lasts on hardware. lost: records the console should have printed (level
below the console loglevel the command line sets, logged before /init's
record) that never reached the line whole: those of the saved log missing
from console.log or cut by a "printk messages dropped" notice, plus,
when the ring was overwritten before the log was saved, those before the
first saved record that no line of console.log stamps (a lower bound;
ignore_loglevel boots only: the overwritten records' levels are gone). line_use_pct: the share of the time from the first
character to idle_ms that the line was sending; drain_cps: characters a
second over the same time. "-" for what a boot did not measure.
"""
import os
import re
import sys

FIELDS = ('console_bytes', 'dmesg_bytes', 'console_ok', 'run_init_ms', 'fw_console_us',
          'populate_us', 'tail_ms', 'line_busy_pct', 'first_line_ms', 'milestone_ms',
          'idle_ms', 'irqoff_us', 'console_irqoff_us', 'irqoff_chars', 'lost', 'line_use_pct',
          'drain_cps')

IDLE_MARK = 'bst-init: work done, console idle once this is sent\x1d'


def unescape(text):
    """A /dev/kmsg record's text as the console prints it (\\xNN escapes)."""
    return re.sub(r'\\x([0-9a-f]{2})', lambda m: chr(int(m.group(1), 16)), text)


def console_loglevel(cmdline):
    """The level below which records reach the console; None: all
    (ignore_loglevel). Later words override earlier ones, as the kernel
    parses them; 7 is CONFIG_CONSOLE_LOGLEVEL_DEFAULT, 4 _QUIET."""
    level, ignore = 7, False
    for w in cmdline.split():
        if w == 'ignore_loglevel':
            ignore = True
        elif w == 'quiet':
            level = 4
        elif w == 'debug':
            level = 10
        elif w.startswith('loglevel=') and w[9:].isdigit():
            level = int(w[9:])
    return None if ignore else level


def read_kmsg(path):
    """[(level, seq, usec, text)] of a /dev/kmsg dump, text unescaped."""
    recs = []
    with open(path, encoding='utf-8', errors='replace') as f:
        for rec in f:
            head, sep, text = rec.rstrip('\n').partition(';')
            fields = head.split(',')
            if not sep or len(fields) < 3:
                continue
            recs.append((int(fields[0]) & 7, int(fields[1]), int(fields[2]), text))
    return recs


def bench_values(results_log):
    """The "# bst-bench" lines of results.log: {key: int}."""
    v = {}
    with open(results_log, encoding='utf-8', errors='replace') as f:
        for line in f:
            m = re.match(r'# bst-bench (first-line|milestone) counter=(\d+)', line)
            if m:
                v[m.group(1)] = int(m.group(2))
            if line.startswith('# bst-bench uart '):
                v.update((k, int(x)) for k, x in re.findall(r'(\w+)=(-?\d+)', line))
            m = re.match(r'# bst-init started counter=(\d+) freq=(\d+)', line)
            if m:
                v['init'], v['init_freq'] = int(m.group(1)), int(m.group(2))
    return v


STAMP = re.compile(r'^\[ *(\d+)\.(\d{6})\] ')
DROPPED = re.compile(r'\*\* \d+ printk m')


def reached(stamp, first_line, console_text, console_lines):
    """Did the record with this time stamp and first line reach the line
    whole? A record that tty output cut between two of its pieces still
    shows its stamp; one whose rest was overwritten in the ring before the
    console sent it ends in a "printk messages dropped" notice."""
    if stamp + first_line in console_lines:
        return True
    i = console_text.find(stamp)
    if i < 0:
        return False
    end = console_text.find('\n', i)
    return not DROPPED.search(console_text[i:end if end >= 0 else len(console_text)])


def lost_records(recs, console_text, level):
    """Records below LEVEL (None: all) logged before /init's idle record
    that never reached the line whole; None without that record in the
    saved log, or when records were overwritten before the log was saved
    and a loglevel hides some (their levels are gone with them)."""
    mark = next((seq for _, seq, _, text in recs if unescape(text) == IDLE_MARK), None)
    if mark is None:
        return None
    console_lines = set(line.rstrip('\r') for line in console_text.split('\n'))
    lost = 0
    for lvl, seq, usec, text in recs:
        if seq >= mark or (level is not None and lvl >= level):
            continue
        stamp = '[%5d.%06d] ' % (usec // 10**6, usec % 10**6)
        if not reached(stamp, unescape(text).split('\n')[0], console_text, console_lines):
            lost += 1
    first_seq, first_usec = (recs[0][1], recs[0][2]) if recs else (0, 0)
    if first_seq:
        # Overwritten before the log was saved: those that reached the
        # line whole are the record lines stamped before the first saved
        # record. Two records can share a stamp, so every line counts; a
        # multi-line record's later lines then count too, which makes
        # this a lower bound.
        if level is not None:
            return None
        sent = 0
        for line in console_text.split('\n'):
            m = STAMP.match(line)
            if m and not DROPPED.search(line) and \
                    int(m.group(1)) * 10**6 + int(m.group(2)) < first_usec:
                sent += 1
        lost += max(0, first_seq - sent)
    return lost


def metrics(d):
    """{field: value} of one boot directory."""
    out = dict.fromkeys(FIELDS, '-')
    with open(os.path.join(d, 'console.log'), 'rb') as f:
        raw = f.read()
    out['console_bytes'] = len(raw)
    recs = read_kmsg(os.path.join(d, 'dump', 'kmsg'))
    dmesg_bytes, durations, last_initcall, ok = 0, {}, None, False
    for _, _, usec, text in recs:
        for line in text.split('\\x0a'):
            dmesg_bytes += len('[%5d.%06d] ' % (usec // 10**6, usec % 10**6)) + len(line) + 1
        ok = ok or bool(re.search(r'console \[ttyAMA\d+\] enabled', text))
        if text == 'Run /init as init process':
            out['run_init_ms'] = '%.3f' % (usec / 1000)
            if last_initcall is not None:
                out['tail_ms'] = '%.3f' % ((usec - last_initcall) / 1000)
        m = re.match(r'bst-uart: \d+ characters, line idle (\d+) us of (\d+) us', text)
        if m and int(m.group(2)):
            out['line_busy_pct'] = '%.1f' % (100 * (1 - int(m.group(1)) / int(m.group(2))))
        m = re.match(r'initcall (\w+)\+\S+ returned -?\d+ after (\d+) usecs', text)
        if m:
            durations[m.group(1)] = m.group(2)
            last_initcall = usec
    out['dmesg_bytes'] = dmesg_bytes
    # The record may have been overwritten before the log was saved (a
    # flood larger than the ring); the console's own copy of it counts.
    ok = ok or bool(re.search(r'\] (printk: )?console \[ttyAMA\d+\] enabled', raw.decode('latin-1')))
    out['console_ok'] = int(ok)
    out['fw_console_us'] = durations.get('pl011_fw_console_init', '-')
    out['populate_us'] = durations.get('of_platform_default_populate_init', '-')

    v = bench_values(os.path.join(d, 'results.log'))
    freq = v.get('freq') or v.get('init_freq')
    if freq:
        def ms(key):
            return '%.3f' % (v[key] * 1000 / freq) if v.get(key, 0) > 0 else '-'
        out['first_line_ms'] = ms('mark1f')
        out['milestone_ms'] = ms('milestone')
        out['idle_ms'] = ms('mark1d')
        if 'con_lock_max' in v:
            out['console_irqoff_us'] = '%.1f' % (v['con_lock_max'] * 1e6 / freq)
            out['irqoff_us'] = '%.1f' % (max(v['con_lock_max'], v['port_lock_max']) * 1e6 / freq)
        if 'lock_chars_max' in v:
            out['irqoff_chars'] = v['lock_chars_max']
        span = v.get('mark1d', 0) - v.get('first', 0)
        if v.get('mark1d', 0) > 0 and v.get('first', 0) > 0 and span > 0 and v.get('baud'):
            out['line_use_pct'] = '%.1f' % (100 * v['chars'] * 10 / v['baud'] * freq / span)
            out['drain_cps'] = '%.0f' % (v['chars'] * freq / span)
    with open(os.path.join(d, 'cmdline'), encoding='utf-8') as f:
        level = console_loglevel(f.read())
    lost = lost_records(recs, raw.decode('latin-1'), level)
    if lost is not None:
        out['lost'] = lost
    return out


def main():
    if sys.argv[1:] == ['--header']:
        print('\t'.join(FIELDS))
        return
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    m = metrics(sys.argv[1])
    print('\t'.join(str(m[k]) for k in FIELDS))


if __name__ == '__main__':
    main()
