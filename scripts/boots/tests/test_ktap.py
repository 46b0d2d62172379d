# SPDX-License-Identifier: GPL-2.0
"""ktap.py on results channels made to break it."""
import importlib.util
import os
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location('ktap', os.path.join(HERE, '..', 'ktap.py'))
ktap = importlib.util.module_from_spec(spec)
spec.loader.exec_module(ktap)


def rows(text, tests='d/t'):
    return list(ktap.rows(ktap.parse(text.splitlines()), 'boot', tests.split(',')))


def failed(text, tests='d/t'):
    return [r for r in rows(text, tests) if r[0] == 'fail']


class Ktap(unittest.TestCase):
    def test_good_program(self):
        r = rows('# bst-begin d/t\nTAP version 13\n1..2\nok 1 a\nok 2 b\n# bst-end d/t exit=0 seconds=1\n')
        self.assertEqual([s for s, *_ in r], ['pass', 'pass'])

    def test_missing_plan_fails(self):
        self.assertTrue(failed('# bst-begin d/t\nok 1 a\n# bst-end d/t exit=0\n'))

    def test_fewer_cases_than_planned_fails(self):
        self.assertTrue(failed('# bst-begin d/t\n1..3\nok 1 a\nok 2 b\n# bst-end d/t exit=0\n'))

    def test_crash_inside_program_fails(self):
        self.assertTrue(failed('# bst-begin d/t\n1..2\nok 1 a\n'))

    def test_timeout_fails(self):
        self.assertTrue(failed('# bst-begin d/t\n1..1\nok 1 a\n# bst-end d/t timeout=240\n'))

    def test_never_started_fails(self):
        self.assertTrue(failed('# bst-begin d/other\n1..1\nok 1 a\n# bst-end d/other exit=0\n'))

    def test_nonzero_exit_with_all_ok_fails(self):
        self.assertTrue(failed('# bst-begin d/t\n1..1\nok 1 a\n# bst-end d/t exit=1\n'))

    def test_skip_with_reason_is_a_skip(self):
        r = rows('# bst-begin d/t\n1..0 # SKIP no such device\n# bst-end d/t exit=4\n')
        self.assertEqual(r, [('skip', 'boot: d/t', 'no such device')])


if __name__ == '__main__':
    unittest.main()
