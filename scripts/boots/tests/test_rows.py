# SPDX-License-Identifier: GPL-2.0
"""lib.sh's row recorders (record_rows, judge_rows, unit_tests) on judges
and test runners made to go wrong: what they cannot record must fail."""
import os
import subprocess
import tempfile
import textwrap
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
LIB = os.path.join(HERE, '..', '..', 'lib.sh')


def run(call, files=None):
    """Run shell CALL after sourcing lib.sh, in a scratch directory holding
    FILES ({name: text}) as $1; the rows it recorded."""
    with tempfile.TemporaryDirectory() as d:
        for name, text in (files or {}).items():
            os.makedirs(os.path.dirname(os.path.join(d, name)), exist_ok=True)
            with open(os.path.join(d, name), 'w') as f:
                f.write(textwrap.dedent(text))
        rows = os.path.join(d, 'rows.tsv')
        open(rows, 'w').close()
        subprocess.run(['bash', '-c', f'. "{LIB}"; {call}', 'rows', d], check=True,
                       env=dict(os.environ, BST_RESULTS=rows),
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        with open(rows) as f:
            return [line.rstrip('\n').split('\t') for line in f]


def statuses(rows):
    return [r[0] for r in rows]


# A judge: prints its rows, then exits with the given status.
JUDGE = 'judge() { printf "%b" "$1"; return "$2"; }; '


class JudgeRows(unittest.TestCase):
    def test_good_judge(self):
        rows = run(JUDGE + r'judge_rows "b: judged" judge "pass\tb: x\t\nskip\tb: y\twhy\n" 0')
        self.assertEqual(rows, [['pass', 'b: x', ''], ['skip', 'b: y', 'why']])

    def test_crashed_judge_fails(self):
        # console-check.py on a malformed known-splats line: a traceback, no row
        rows = run(JUDGE + 'judge_rows "b: judged" judge "" 1')
        self.assertEqual(statuses(rows), ['fail'])
        self.assertEqual(rows[0][1], 'b: judged')

    def test_judge_crashing_after_some_rows_fails(self):
        rows = run(JUDGE + r'judge_rows "b: judged" judge "pass\tb: x\t\n" 1')
        self.assertEqual(statuses(rows), ['pass', 'fail'])

    def test_judge_without_rows_fails(self):
        self.assertEqual(statuses(run(JUDGE + 'judge_rows "b: judged" judge "" 0')), ['fail'])

    def test_row_of_unknown_status_fails(self):
        rows = run(r'printf "Traceback (most recent call last):\n" | record_rows')
        self.assertEqual(statuses(rows), ['fail'])


# A test directory for unit_tests: tests named and built every way unittest
# allows.
TESTS = {'t/test_a.py': """
    import unittest


    class A(unittest.TestCase):
        def test_ok(self):
            pass

        def testNoUnderscore(self):
            self.fail('boom')

        def test_documented(self):
            \"\"\"A docstring moves the result to a line of its own.\"\"\"

        @unittest.skip('not here')
        def test_skipped(self):
            pass

        def test_subtest(self):
            for i in range(2):
                with self.subTest(i=i):
                    self.assertEqual(i, 0)
    """}


class UnitTests(unittest.TestCase):
    def test_every_result_recorded(self):
        rows = {r[1]: r[0] for r in run('unit_tests u "$1/t"', TESTS)}
        self.assertEqual(rows, {'u: test_ok': 'pass', 'u: testNoUnderscore': 'fail',
                                'u: test_documented': 'pass', 'u: test_skipped': 'skip',
                                'u: test_subtest': 'fail'})

    def test_failing_class_fixture_fails(self):
        rows = run('unit_tests u "$1/t"', {'t/test_b.py': """
            import unittest


            class B(unittest.TestCase):
                @classmethod
                def setUpClass(cls):
                    raise RuntimeError('no fixture')

                def test_b(self):
                    pass


            class C(unittest.TestCase):
                def test_c(self):
                    pass
            """})
        self.assertEqual(sorted(rows), [
            ['fail', 'u: setUpClass (test_b.B)', 'ERROR: RuntimeError: no fixture'],
            ['pass', 'u: test_c', 'ok']])

    def test_module_that_does_not_import_fails(self):
        rows = run('unit_tests u "$1/t"', {'t/test_c.py': 'import no_such_module\n'})
        self.assertEqual(statuses(rows), ['fail'])

    def test_runner_failing_without_a_failed_test_fails(self):
        # a test that ends the runner: no result, "Ran" never printed
        rows = run('unit_tests u "$1/t"', {'t/test_d.py': """
            import os
            import unittest


            class D(unittest.TestCase):
                def test_ok(self):
                    pass

                def test_zexit(self):
                    os._exit(3)
            """})
        self.assertEqual(statuses(rows), ['pass', 'fail'])
        self.assertEqual(rows[1][1], 'u: unit tests')


REPO_LIST = os.path.join(HERE, '..', '..', '..', 'selftests', 'expected-skips')
LIST = """\
    # comment
    b?: d/t: case # no such device\tQEMU has none
    mmc-*: mmc/suite:  # mmc_test 5 *: unsupported by the host\tthe host cannot
    """


def skips(results, listing=LIST):
    """expected_skips on RESULTS rows; the rows it adds."""
    text = ''.join('\t'.join(r) + '\n' for r in results)
    rows = run('expected_skips "$1/results.tsv" "$1/expected-skips"',
               {'results.tsv': text, 'expected-skips': listing})
    return rows[len(results):] if rows[:len(results)] == results else rows


class ExpectedSkips(unittest.TestCase):
    def test_listed_skips_pass(self):
        self.assertEqual(skips([['skip', 'b1: d/t: case', 'no such device'],
                                ['skip', 'mmc-uhs: mmc/suite: ',
                                 'mmc_test 5 Basic write: unsupported by the host'],
                                ['pass', 'b1: d/t: other', '']]), [])

    def test_unlisted_skip_fails(self):
        rows = skips([['skip', 'b1: d/t: case2', 'no such device']])
        self.assertEqual(statuses(rows), ['fail'])
        self.assertEqual(rows[0][1], 'unexpected skip: b1: d/t: case2')
        self.assertIn('add it to', rows[0][2])

    def test_listed_name_with_another_reason_fails(self):
        rows = skips([['skip', 'mmc-uhs: mmc/suite: ',
                       'mmc_test 6 Basic read: unsupported by the host']])
        self.assertEqual(statuses(rows), ['fail'])

    def test_malformed_line_fails(self):
        rows = skips([], 'b1: d/t: case # x  QEMU has none\n')
        self.assertEqual(statuses(rows), ['fail'])
        self.assertIn(':1: malformed', rows[0][1])

    def test_repository_list_is_well_formed(self):
        rows = run(f'expected_skips /dev/null "{REPO_LIST}"')
        self.assertEqual(rows, [])

    def test_repository_list(self):
        # skips of a real make check (and check-full's trees) pass; the same
        # kinds on another boot or case fail
        with open(REPO_LIST) as f:
            listing = f.read()
        mmc = 'mmc-real: mmc/mmc_test_suite: '
        known = [['skip', mmc, 'mmc_test 48 Commands during read - use Set Block Count '
                  '(CMD23): unsupported by the host: sdhci sets no MMC_CAP_CMD_DURING_TFR'],
                 ['skip', mmc, 'mmc_test 52 Re-tuning reliability: unsupported by the host: '
                  'no re-tuning: mmc core tunes SDR104, SDR50 and DDR50, not this mode'],
                 ['skip', mmc, "mmc_test 21 Multi-block highmem write: no CONFIG_HIGHMEM on "
                  "arm64: mmc_test's stand-in returns OK without a transfer"],
                 ['skip', mmc, 'mmc_test 30 Consecutive read performance by transfer size: '
                  'a performance test: minutes under TCG, and it measures QEMU'],
                 ['skip', 'trees: console applies and builds on 6.12 (6.12.48)',
                  'does not apply: x']]
        self.assertEqual(skips(known, listing), [])
        new = [['skip', mmc, 'mmc_test 45 Foo: unsupported by the host'],
               ['skip', 'mmc-sdr50: mmc/mmc_test_suite: ',
                'mmc_test 52 Re-tuning reliability: unsupported by the host: '
                'no re-tuning: mmc core tunes SDR104, SDR50 and DDR50, not this mode'],
               ['skip', mmc, 'mmc_test 48 Commands during read - use Set Block Count '
                '(CMD23): unsupported by the host'],
               ['skip', 'series-up: kernel console free of oops/warning/panic',
                'known upstream splat x1: upstream race, not a module bug: x']]
        self.assertEqual(statuses(skips(new, listing)), ['fail'] * 4)


if __name__ == '__main__':
    unittest.main()
