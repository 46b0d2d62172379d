#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Judge one boot's kernel console: any oops, warning, panic, KASAN or
lockdep report fails it, except splats listed in selftests/known-splats,
which are reported as skips with their reason.

usage: console-check.py CONSOLE_LOG KNOWN_SPLATS BOOT
Prints result rows (status, name, detail), tab-separated.
"""
import re
import sys

BAD = re.compile(r'Kernel panic|Oops|BUG:|WARNING:|Call trace:|UBSAN:|KASAN:|'
                 r'kmemleak:.*suspected|possible recursive locking|'
                 r'circular locking')
START = re.compile(r'-+\[ cut here \]-+')
END = re.compile(r'-+\[ end trace')


def splats(lines):
    """Yield the lines of each splat: cut-here blocks, and lone bad lines."""
    block = None
    for line in lines:
        if START.search(line):
            block = [line]
        elif block is not None:
            block.append(line)
            if END.search(line):
                yield block
                block = None
        elif BAD.search(line):
            yield [line]
    if block is not None:
        yield block


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    known = []
    with open(sys.argv[2]) as f:
        for line in f:
            if line.strip() and not line.startswith('#'):
                pat, why = line.rstrip('\n').split('\t', 1)
                known.append((re.compile(pat), why))
    with open(sys.argv[1], errors='replace') as f:
        lines = [l.rstrip('\r\n') for l in f]
    name = f'{sys.argv[3]}: kernel console free of oops/warning/panic'
    bad, seen = [], {}
    for block in splats(lines):
        if not any(BAD.search(l) for l in block):
            continue
        why = next((w for p, w in known if any(p.search(l) for l in block)), None)
        if why:
            seen[why] = seen.get(why, 0) + 1
        else:
            bad.append(next(l for l in block if BAD.search(l)))
    if bad:
        print(f'fail\t{name}\t{bad[0].strip()}' +
              (f' (and {len(bad) - 1} more)' if len(bad) > 1 else ''))
    elif not seen:
        print(f'pass\t{name}\t')
    for why, n in seen.items():
        print(f'skip\t{name}\tknown upstream splat x{n}: {why}')


if __name__ == '__main__':
    main()
