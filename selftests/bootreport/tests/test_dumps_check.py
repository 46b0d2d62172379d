# SPDX-License-Identifier: GPL-2.0
"""dumps-check on dumps made to break it (the report's sample dump, copied):
a dump without a row it needs or with a "-" duration must give "not ok" for
that check, and every check still reports, in KTAP that ktap.py accepts."""
import importlib.util
import os
import shutil
import subprocess
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.join(HERE, '..', '..', '..')
DUMPS_CHECK = os.path.join(HERE, '..', 'dumps-check')
SAMPLE = os.path.join(TOP, 'scripts', 'report', 'tests', 'samples', 'full')
spec = importlib.util.spec_from_file_location('ktap', os.path.join(TOP, 'scripts', 'boots',
                                                                    'ktap.py'))
ktap = importlib.util.module_from_spec(spec)
spec.loader.exec_module(ktap)


def edit(path, fn):
    with open(path) as f:
        lines = f.read().splitlines(keepends=True)
    with open(path, 'w') as f:
        f.writelines(fn(lines))


def dumps_check(change=None):
    """Run dumps-check on two copies of the sample dump, the second changed
    by change(dump_dir); its KTAP wrapped as /init wraps a program, its
    results (ok, description) and ktap.py's failures of the run as a whole."""
    with tempfile.TemporaryDirectory() as d:
        dumps = []
        for b in ('b1', 'b2'):
            dumps.append(os.path.join(d, b, 'dump'))
            shutil.copytree(SAMPLE, dumps[-1])
        if change:
            change(dumps[1])
        p = subprocess.run([DUMPS_CHECK, *dumps], capture_output=True, text=True, timeout=120)
    log = ['# bst-begin dumps-check', *p.stdout.splitlines(),
           f'# bst-end dumps-check exit={p.returncode}']
    prog = ktap.parse(log)['dumps-check']
    whole = [r for r in ktap.rows({'dumps-check': prog}, 'b', ['dumps-check'])
             if r[1] == 'b: dumps-check']
    return {desc: good for good, desc, *_ in prog['cases']}, whole, p


class DumpsCheck(unittest.TestCase):
    def test_every_check_reports_with_a_plan(self):
        cases, whole, p = dumps_check()
        self.assertEqual(len(cases), 9, p.stdout)
        # the sample is no real boot's dump: some checks fail, the run says so
        self.assertEqual(p.returncode, 1)
        self.assertTrue(cases['compare A A: every item, every difference 0'])
        self.assertEqual(whole, [])  # plan and count agree

    def test_missing_init_exec_row_is_not_ok(self):
        cases, _, p = dumps_check(lambda d: edit(
            os.path.join(d, 'summary'), lambda ls: [x for x in ls if 'init_exec' not in x]))
        self.assertEqual(len(cases), 9, p.stdout + p.stderr)
        self.assertFalse(next(v for k, v in cases.items() if k.startswith('stats: min')))
        self.assertNotIn('Traceback', p.stderr)

    def test_dash_duration_is_not_ok(self):
        def dash(d):
            # duration_ns, the fifth column, of the first row
            def first(ls):
                i = next(i for i, x in enumerate(ls) if not x.startswith('#'))
                f = ls[i].split()
                return ls[:i] + [' '.join(f[:4] + ['-'] + f[5:]) + '\n'] + ls[i + 1:]
            edit(os.path.join(d, 'initcalls'), first)
        cases, _, p = dumps_check(dash)
        self.assertEqual(len(cases), 9, p.stdout + p.stderr)
        self.assertFalse(cases['compare A B: the initcalls of both dumps, B - A right'])
        self.assertNotIn('Traceback', p.stderr)

    def test_results_printed_as_decided(self):
        _, _, p = dumps_check()
        lines = p.stdout.splitlines()
        self.assertTrue(lines[0].startswith('TAP version'))
        self.assertTrue(lines[-1].startswith('1..'))


if __name__ == '__main__':
    unittest.main()
