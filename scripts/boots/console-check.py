#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Judge one boot's kernel console: any oops, warning, panic, KASAN or
lockdep report fails it, except splats listed in selftests/known-splats,
which are reported as skips with their reason.

usage: console-check.py CONSOLE_LOG KNOWN_SPLATS BOOT [--tests T,...] [--until REGEX]

With --until, only the lines before the first line matching REGEX are
judged (a boot that panics on purpose: its own panic and what follows are
not splats), and a console without such a line fails.
Prints result rows (status, name, detail), tab-separated.

A known splat excuses only a whole, terminated block ("cut here" to "end
trace"): a block that a new "cut here" or the end of the log interrupts is
judged as unknown, so that a truncated known warning cannot hide an oops
printed after it. A known splat excuses at most its entry's max= blocks per
boot (more fail the boot), with test= only in a boot whose --tests name
that test, and with boot= only in a boot of that name (elsewhere it is
unknown). A malformed line of KNOWN_SPLATS fails
the boot by its line number; the other entries still apply.
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


class Known:
    """One entry of KNOWN_SPLATS: PATTERN, CONDITIONS and REASON, separated
    by tabs. CONDITIONS: "max=N" (required: at most N blocks per boot), any
    number of "test=DIR/NAME" (only in a boot that runs one of them) and of
    "boot=NAME" (only in a boot of one of those names)."""

    def __init__(self, line):
        fields = line.split('\t')
        if len(fields) != 3 or not all(f.strip() for f in fields):
            raise ValueError(f'{len(fields)} tab-separated fields, want 3 '
                             '(PATTERN, CONDITIONS, REASON)')
        pat, conds, self.why = fields
        self.pat = re.compile(pat)
        self.max, self.tests, self.boots = None, set(), set()
        for c in conds.split():
            key, _, val = c.partition('=')
            if key == 'max' and val.isdigit():
                self.max = int(val)
            elif key == 'test' and val:
                self.tests.add(val)
            elif key == 'boot' and val:
                self.boots.add(val)
            else:
                raise ValueError(f'condition {c!r}: want max=N, test=DIR/NAME or boot=NAME')
        if self.max is None:
            raise ValueError('no max=N: a known splat is excused a bounded number of times')

    def applies(self, tests, boot=None):
        return ((not self.tests or bool(self.tests & set(tests))) and
                (not self.boots or boot in self.boots))

    def search(self, block):
        return any(self.pat.search(l) for l in block)


def load_known(path):
    """[Known], and the errors of the lines that are not one ("LINE: why")."""
    known, errors = [], []
    with open(path) as f:
        for i, line in enumerate(f, 1):
            if line.strip() and not line.startswith('#'):
                try:
                    known.append(Known(line.rstrip('\n')))
                except (ValueError, re.error) as e:
                    errors.append(f'{path}:{i}: {e}')
    return known, errors


def judge(lines, known, name, tests=(), errors=(), boot=None):
    """Result rows for the console lines of boot BOOT."""
    bad, seen = list(errors), {}
    known = [k for k in known if k.applies(tests, boot)]
    for block, terminated in splats(lines):
        if not any(BAD.search(l) for l in block):
            continue
        k = next((k for k in known if k.search(block)), None) if terminated else None
        if k:
            seen[k] = seen.get(k, 0) + 1
        else:
            bad.append(next(l for l in block if BAD.search(l)).strip())
    bad += [f'known splat x{n}, more than its max={k.max}: {k.why}'
            for k, n in seen.items() if n > k.max]
    rows = []
    if bad:
        rows.append(('fail', name, bad[0] +
                     (f' (and {len(bad) - 1} more)' if len(bad) > 1 else '')))
    elif not seen:
        rows.append(('pass', name, ''))
    for k, n in seen.items():
        if n <= k.max:
            rows.append(('skip', name, f'known upstream splat x{n}: {k.why}'))
    return rows


def main():
    ap = argparse.ArgumentParser(usage=__doc__)
    ap.add_argument('console')
    ap.add_argument('known')
    ap.add_argument('boot')
    ap.add_argument('--tests', default='')
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
    known, errors = load_known(args.known)
    for row in judge(lines, known, name, args.tests.split(','), errors, args.boot):
        print('\t'.join(row))


if __name__ == '__main__':
    main()
