#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Turn one boot's results channel into result rows for the harness.

usage: ktap.py RESULTS_LOG BOOT TEST[,TEST...]

The guest's /init wraps each program's KTAP output in "# bst-begin T" and
"# bst-end T exit=N" lines. Every top-level "ok"/"not ok" line becomes one
row (pass, fail or skip, tab-separated: status, name, detail). A program also
fails as a whole when it crashed, timed out, ran a different number of cases
than it planned or printed no plan, or exited non-zero without reporting a failed case.

Why not the kernel's tools/testing/kunit/kunit_parser.py, which the mmc
host-check uses for the kernel's own KUnit output: a kselftest program's
verdict is its KTAP together with how the process ended (exit code 4 for a
skip, a timeout, a signal), which /init reports on its "# bst-end" line and
kunit_parser has no notion of; and kunit_parser is kunit.py's internal
module, whose interface changes between kernel versions (KSRC= may be any
tree), where this reads the small subset kselftest.h prints.
"""
import re
import sys

CASE = re.compile(r'^(not )?ok (\d+)(?: -)?(?: (.*?))??(?:\s*#\s*(SKIP|TODO)\b\s*(.*))?$')
PLAN = re.compile(r'^1\.\.(\d+)')
END = re.compile(r'^# bst-end (\S+) (\S+)')
KSFT_SKIP = 4


def parse(lines):
    """Return {test: {'cases': [...], 'plan': n, 'end': str, 'skip': why}}."""
    progs, cur = {}, None
    for line in lines:
        line = line.rstrip('\r\n')
        if line.startswith('# bst-begin '):
            cur = progs.setdefault(line.split()[2], {'cases': [], 'plan': None,
                                                    'end': None, 'skip': ''})
            continue
        m = END.match(line)
        if m and cur is not None:
            cur['end'] = m.group(2)
            cur = None
            continue
        if cur is None:
            continue
        m = PLAN.match(line)
        if m:
            cur['plan'] = int(m.group(1))
            if '# SKIP' in line:
                cur['skip'] = line.split('# SKIP', 1)[1].strip()
            continue
        m = CASE.match(line)
        if m:
            cur['cases'].append((m.group(1) is None, (m.group(3) or '').strip(),
                                 m.group(4), (m.group(5) or '').strip()))
    return progs


def rows(progs, boot, tests):
    for test in tests:
        name = f'{boot}: {test}'
        p = progs.get(test)
        if p is None:
            yield 'fail', name, 'never started (guest died or /init did not run it)'
            continue
        for ok, desc, directive, why in p['cases']:
            if directive == 'SKIP':
                yield 'skip', f'{name}: {desc}', why or 'no reason given'
            else:
                yield ('pass' if ok else 'fail'), f'{name}: {desc}', ''
        end = p['end']
        ncases = len(p['cases'])
        if end is None:
            yield 'fail', name, 'no end marker: the guest stopped inside the test'
        elif end == f'exit={KSFT_SKIP}' and not ncases:
            yield 'skip', name, p['skip'] or 'skipped (exit 4) without a reason'
        elif not end.startswith('exit='):
            yield 'fail', name, f'ended by {end}'
        elif p['plan'] is None:
            yield 'fail', name, f'no KTAP plan line ({ncases} cases reported)'
        elif p['plan'] != ncases:
            yield 'fail', name, f'planned {p["plan"]} cases, reported {ncases}'
        elif not ncases:
            yield 'fail', name, f'reported no test case ({end})'
        elif end != 'exit=0' and all(ok for ok, *_ in p['cases']):
            yield 'fail', name, f'{end} although every case passed'


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    try:
        with open(sys.argv[1], errors='replace') as f:
            progs = parse(f)
    except FileNotFoundError:
        progs = {}
    tests = [t for t in sys.argv[3].split(',') if t and t != '-']
    for row in rows(progs, sys.argv[2], tests):
        print('\t'.join(row))


if __name__ == '__main__':
    main()
