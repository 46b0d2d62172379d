#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Turn one boot's results channel into result rows for the harness.

usage: ktap.py RESULTS_LOG BOOT TEST[,TEST...]

The guest's /init wraps each program's KTAP output in "# bst-begin T" and
"# bst-end T exit=N" lines (and scripts/check.sh wraps dumps-check's the
same way). Every top-level "ok"/"not ok" line becomes one row (pass, fail
or skip, tab-separated: status, name, detail; a failed case's detail is the
diagnostic line just before it). A program also fails as a whole when it
crashed, timed out, ran a different number of cases than it planned or
printed no plan, printed a second plan at one (sub)test level, numbered its
cases other than 1, 2, 3... in order, or exited non-zero without reporting a
failed case.

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
    """Return {test: {'cases': [...], 'plan': n, 'end': str, 'skip': why,
    'errors': [...]}}; errors are what breaks KTAP's rules (plans, case
    numbers) at any (sub)test level."""
    progs, cur = {}, None
    levels, diag = {}, ''
    for line in lines:
        line = line.rstrip('\r\n')
        if line.startswith('# bst-begin '):
            cur = progs.setdefault(line.split()[2], {'cases': [], 'plan': None, 'end': None,
                                                    'skip': '', 'errors': []})
            levels, diag = {}, ''
            continue
        m = END.match(line)
        if m and cur is not None:
            cur['end'] = m.group(2)
            cur = None
            continue
        if cur is None:
            continue
        body = line.lstrip(' ')
        indent = len(line) - len(body)
        m, c = PLAN.match(body), CASE.match(body)
        if m or c:
            # A result at a level ends the subtests below it.
            if c:
                for i in [i for i in levels if i > indent]:
                    del levels[i]
            level = levels.setdefault(indent, {'plan': None, 'last': 0})
            where = f'{"sub" if indent else ""}test level {indent // 4}'
            if m:
                if level['plan'] is not None:
                    cur['errors'].append(f'second plan 1..{m.group(1)} at {where} '
                                         f'(first 1..{level["plan"]})')
                else:
                    level['plan'] = int(m.group(1))
            else:
                n = int(c.group(2))
                if n != level['last'] + 1:
                    cur['errors'].append(f'case {n} after case {level["last"]} at {where}')
                level['last'] = n
        if indent:
            continue
        if m:
            if cur['plan'] is None:
                cur['plan'] = int(m.group(1))
            if '# SKIP' in line:
                cur['skip'] = line.split('# SKIP', 1)[1].strip()
            continue
        if c:
            cur['cases'].append((c.group(1) is None, (c.group(3) or '').strip(),
                                 c.group(4), (c.group(5) or '').strip(), diag))
            diag = ''
        elif line.startswith('#'):
            diag = line.lstrip('# ').strip()
    return progs


def rows(progs, boot, tests):
    for test in tests:
        name = f'{boot}: {test}'
        p = progs.get(test)
        if p is None:
            yield 'fail', name, 'never started (guest died or /init did not run it)'
            continue
        for ok, desc, directive, why, diag in p['cases']:
            if directive == 'SKIP':
                yield 'skip', f'{name}: {desc}', why or 'no reason given'
            else:
                yield ('pass' if ok else 'fail'), f'{name}: {desc}', '' if ok else diag
        end = p['end']
        ncases = len(p['cases'])
        if end is None:
            yield 'fail', name, 'no end marker: the guest stopped inside the test'
        elif end == f'exit={KSFT_SKIP}' and not ncases:
            yield 'skip', name, p['skip'] or 'skipped (exit 4) without a reason'
        elif not end.startswith('exit='):
            yield 'fail', name, f'ended by {end}'
        elif p.get('errors'):
            yield 'fail', name, 'KTAP: ' + p['errors'][0] + \
                (f' (and {len(p["errors"]) - 1} more)' if len(p['errors']) > 1 else '')
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
