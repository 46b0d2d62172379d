#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Judge one boot's kernel console: any oops, warning, panic, KASAN or
lockdep report fails it, except splats listed in selftests/known-splats,
which are reported as skips with their reason.

usage: console-check.py CONSOLE_LOG KNOWN_SPLATS BOOT [--until REGEX]

With --until, only the lines before the first line matching REGEX are
judged (a boot that panics on purpose: its own panic and what follows are
not splats), and a console without such a line fails.
Prints result rows (status, name, detail), tab-separated.

A known splat excuses only a whole, terminated block ("cut here" to "end
trace"): a block that a new "cut here" or the end of the log interrupts is
judged as unknown, so that a truncated known warning cannot hide an oops
printed after it.
"""
import argparse
import re
import sys

BAD = re.compile(r'Kernel panic|Oops|BUG:|WARNING:|Call trace:|UBSAN:|KASAN:|'
                 r'kmemleak:.*suspected|possible recursive locking|'
                 r'circular locking')
START = re.compile(r'-+\[ cut here \]-+')
END = re.compile(r'-+\[ end trace')


def splats(lines):
    """Yield (lines, terminated) for each splat: cut-here blocks, and lone
    bad lines outside them."""
    block = None
    for line in lines:
        if START.search(line):
            if block is not None:
                yield block, False
            block = [line]
        elif block is not None:
            block.append(line)
            if END.search(line):
                yield block, True
                block = None
        elif BAD.search(line):
            yield [line], False
    if block is not None:
        yield block, False


def load_known(path):
    known = []
    with open(path) as f:
        for line in f:
            if line.strip() and not line.startswith('#'):
                pat, why = line.rstrip('\n').split('\t', 1)
                known.append((re.compile(pat), why))
    return known


def judge(lines, known, name):
    """Result rows for the console lines."""
    bad, seen = [], {}
    for block, terminated in splats(lines):
        if not any(BAD.search(l) for l in block):
            continue
        why = terminated and next((w for p, w in known
                                   if any(p.search(l) for l in block)), None)
        if why:
            seen[why] = seen.get(why, 0) + 1
        else:
            bad.append(next(l for l in block if BAD.search(l)))
    rows = []
    if bad:
        rows.append(('fail', name, bad[0].strip() +
                     (f' (and {len(bad) - 1} more)' if len(bad) > 1 else '')))
    elif not seen:
        rows.append(('pass', name, ''))
    for why, n in seen.items():
        rows.append(('skip', name, f'known upstream splat x{n}: {why}'))
    return rows


def main():
    ap = argparse.ArgumentParser(usage=__doc__)
    ap.add_argument('console')
    ap.add_argument('known')
    ap.add_argument('boot')
    ap.add_argument('--until')
    args = ap.parse_args()
    with open(args.console, errors='replace') as f:
        lines = [l.rstrip('\r\n') for l in f]
    name = f'{args.boot}: kernel console free of oops/warning/panic'
    if args.until:
        until = re.compile(args.until)
        end = next((i for i, l in enumerate(lines) if until.search(l)), None)
        if end is None:
            print(f'fail\t{name} before the planned panic\tno line matches /{args.until}/')
            return
        lines, name = lines[:end], f'{name} before the planned panic'
    for row in judge(lines, load_known(args.known), name):
        print('\t'.join(row))


if __name__ == '__main__':
    main()
