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


    def test_duplicate_case_number_fails(self):
        self.assertTrue(failed('# bst-begin d/t\n1..2\nok 1 a\nok 1 b\n# bst-end d/t exit=0\n'))

    def test_cases_out_of_order_fail(self):
        self.assertTrue(failed('# bst-begin d/t\n1..2\nok 2 a\nok 1 b\n# bst-end d/t exit=0\n'))

    def test_second_plan_fails(self):
        self.assertTrue(failed('# bst-begin d/t\n1..5\nok 1 a\n1..1\n# bst-end d/t exit=0\n'))

    def test_plan_at_the_end(self):
        r = rows('# bst-begin d/t\nok 1 a\nok 2 b\n1..2\n# bst-end d/t exit=0\n')
        self.assertEqual([s for s, *_ in r], ['pass', 'pass'])

    def test_subtests_with_a_plan_each(self):
        r = rows('# bst-begin d/t\n1..2\n    1..2\n    ok 1 x\n    ok 2 y\nok 1 a\n'
                 '    1..1\n    ok 1 z\nok 2 b\n# bst-end d/t exit=0\n')
        self.assertEqual([s for s, *_ in r], ['pass', 'pass'])

    def test_second_plan_in_a_subtest_fails(self):
        self.assertTrue(failed('# bst-begin d/t\n1..1\n    1..2\n    ok 1 x\n    1..1\n'
                               '    ok 2 y\nok 1 a\n# bst-end d/t exit=0\n'))

    def test_duplicate_number_in_a_subtest_fails(self):
        self.assertTrue(failed('# bst-begin d/t\n1..1\n    1..2\n    ok 1 x\n    ok 1 y\n'
                               'ok 1 a\n# bst-end d/t exit=0\n'))

    def test_failed_case_carries_its_diagnostic(self):
        r = rows('# bst-begin d/t\n1..2\n# unrelated\nok 1 a\n# read 3, want 4\n'
                 'not ok 2 b\n# bst-end d/t exit=1\n')
        self.assertEqual(r, [('pass', 'boot: d/t: a', ''), ('fail', 'boot: d/t: b', 'read 3, want 4')])


if __name__ == '__main__':
    unittest.main()
