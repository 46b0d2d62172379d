# SPDX-License-Identifier: GPL-2.0
"""mmc/host-check on KUnit consoles made to break it (needs KSRC, as in
make check: the tree's kunit_parser.py)."""
import os
import subprocess
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
CHECK = os.path.join(HERE, '..', 'host-check')

# The suites as the series' KUnit prints them: (suite, [(case, parameters)]),
# with as many parameters as host-check's PARAMS.
SUITES = [
    ('mmc_sd_uhs', [('uhs_select_test', ['select %d' % i for i in range(12)]),
                    ('uhs_next_test', ['next %d' % i for i in range(11)]),
                    ('uhs_walk_test', None),
                    ('uhs_names_test', None)]),
    ('mmc_sd_uhs_mock', [('sd_uhs_mock_test', ['mock %d' % i for i in range(13)])]),
]


def ktap(suites=SUITES):
    """The console of a kunit.enable=1 boot (printk time stamps included)."""
    lines = ['Booting Linux on physical CPU 0x0000000000 [0x414fd0b1]',
             'KTAP version 1', '1..%d' % len(suites)]
    for n, (suite, cases) in enumerate(suites, 1):
        lines += ['    KTAP version 1', '    # Subtest: ' + suite, '    1..%d' % len(cases)]
        for i, (case, params) in enumerate(cases, 1):
            if params is not None:
                lines += ['        KTAP version 1', '        # Subtest: ' + case]
                lines += ['        ok %d %s' % (j, p) for j, p in enumerate(params, 1)]
                lines.append('    # %s: pass:%d fail:0 skip:0 total:%d' %
                             (case, len(params), len(params)))
            lines.append('    ok %d %s' % (i, case))
        lines.append('# %s: pass:%d fail:0 skip:0 total:%d' % (suite, len(cases), len(cases)))
        lines.append('ok %d %s' % (n, suite))
    lines.append('bst-init: started')
    return ''.join('[%5d.%06d] %s\n' % (2, i, l) for i, l in enumerate(lines))


GOOD = ktap()


def run(console, cmdline='kunit.enable=1 bst.check=mmc'):
    with tempfile.TemporaryDirectory() as d:
        with open(os.path.join(d, 'console.log'), 'w') as f:
            f.write(console)
        with open(os.path.join(d, 'cmdline'), 'w') as f:
            f.write(cmdline + '\n')
        p = subprocess.run([CHECK, d], capture_output=True, text=True)
        return p.returncode, p.stdout


def drop(console, text):
    """@console without the one line that ends in @text."""
    lines = console.splitlines(True)
    hits = [l for l in lines if l.rstrip('\n').endswith(text)]
    assert len(hits) == 1, (text, hits)
    return ''.join(l for l in lines if l is not hits[0])


def sub(console, old, new):
    """@console with the one line ending in @old ending in @new instead."""
    lines = console.splitlines(True)
    hits = [i for i, l in enumerate(lines) if l.rstrip('\n').endswith(old)]
    assert len(hits) == 1, (old, hits)
    i = hits[0]
    lines[i] = lines[i].rstrip('\n')[:-len(old)] + new + '\n'
    return ''.join(lines)


@unittest.skipUnless(os.environ.get('KSRC'), 'needs KSRC (a kernel tree) for kunit_parser.py')
class MmcHostCheck(unittest.TestCase):
    def test_good_run_passes(self):
        rc, out = run(GOOD)
        self.assertEqual(rc, 0, out)
        self.assertNotIn('not ok', out)
        self.assertIn(' mmc_sd_uhs: uhs_select_test: select 0\n', out)
        self.assertIn(' mmc_sd_uhs: uhs_select_test: ran its 12 parameters', out)

    def test_case_missing_against_plan_fails(self):
        rc, out = run(drop(GOOD, '    ok 4 uhs_names_test'))
        self.assertNotEqual(rc, 0, out)

    def test_crash_in_the_middle_fails(self):
        rc, out = run(GOOD.split('ok 3 select 2')[0])
        self.assertNotEqual(rc, 0, out)

    def test_failed_case_fails(self):
        rc, out = run(sub(GOOD, 'ok 2 next 1', 'not ok 2 next 1'))
        self.assertNotEqual(rc, 0, out)

    def test_missing_suite_fails(self):
        rc, out = run(ktap(SUITES[:1]))
        self.assertNotEqual(rc, 0, out)
        self.assertIn('not ok', out)

    def test_failed_mock_case_fails(self):
        rc, out = run(sub(GOOD, 'ok 13 mock 12', 'not ok 13 mock 12'))
        self.assertNotEqual(rc, 0, out)

    def test_no_ktap_at_all_fails(self):
        rc, out = run('[    1.0] Booting Linux\n')
        self.assertNotEqual(rc, 0, out)

    def test_boot_without_kunit_is_not_judged(self):
        rc, out = run(GOOD, cmdline='bst.check=mmc')
        self.assertEqual(rc, 4, out)

    # H9: the status of a node with subtests, and parameters KUnit gives no plan for.
    def test_not_ok_parameterised_case_with_ok_parameters_fails(self):
        rc, out = run(sub(GOOD, '    ok 1 uhs_select_test', '    not ok 1 uhs_select_test'))
        self.assertEqual(rc, 1, out)
        self.assertIn('not ok ', out)
        self.assertRegex(out, r'not ok \d+ mmc_sd_uhs: uhs_select_test # FAILURE')

    def test_not_ok_suite_with_ok_cases_fails(self):
        rc, out = run(sub(GOOD, 'ok 1 mmc_sd_uhs', 'not ok 1 mmc_sd_uhs'))
        self.assertEqual(rc, 1, out)
        self.assertRegex(out, r'not ok \d+ mmc_sd_uhs # FAILURE')

    def test_lost_parameter_line_fails(self):
        rc, out = run(drop(GOOD, 'ok 5 next 4'))
        self.assertEqual(rc, 1, out)
        self.assertRegex(out, r'not ok \d+ mmc_sd_uhs: uhs_next_test: ran its 11 parameters # 10 reported')

    def test_lost_last_mock_parameter_fails(self):
        rc, out = run(drop(GOOD, 'ok 13 mock 12'))
        self.assertEqual(rc, 1, out)
        self.assertRegex(out, r'not ok \d+ mmc_sd_uhs_mock: sd_uhs_mock_test: ran its 13 parameters')

    def test_parameter_reported_twice_fails(self):
        rc, out = run(sub(GOOD, 'ok 2 select 1', 'ok 2 select 0'))
        self.assertEqual(rc, 1, out)
        self.assertIn('twice: select 0', out)

    def test_unknown_parameterised_case_fails(self):
        suites = [SUITES[0], ('mmc_sd_uhs_mock', [('sd_uhs_mock_test', ['mock %d' % i for i in range(13)]),
                                                  ('new_test', ['a', 'b'])])]
        rc, out = run(ktap(suites))
        self.assertEqual(rc, 1, out)
        self.assertIn('new_test: 2 parameters # a parameterised case PARAMS does not know', out)

    def test_parameterised_case_reported_without_parameters_fails(self):
        suites = [('mmc_sd_uhs', [('uhs_select_test', None)] + SUITES[0][1][1:]), SUITES[1]]
        rc, out = run(ktap(suites))
        self.assertEqual(rc, 1, out)
        self.assertRegex(out, r'not ok \d+ mmc_sd_uhs: uhs_select_test: ran its 12 parameters # 0 reported')


if __name__ == '__main__':
    unittest.main()
