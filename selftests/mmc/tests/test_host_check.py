# SPDX-License-Identifier: GPL-2.0
"""mmc/host-check on KUnit consoles made to break it (needs KSRC, as in
make check: the tree's kunit_parser.py)."""
import os
import subprocess
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
CHECK = os.path.join(HERE, '..', 'host-check')

GOOD = '''\
[    1.000000] Booting Linux on physical CPU 0x0000000000 [0x414fd0b1]
[    2.000000] KTAP version 1
[    2.000001] 1..2
[    2.000002]     KTAP version 1
[    2.000003]     # Subtest: mmc_sd_uhs
[    2.000004]     # module: sd_uhs_test
[    2.000005]     1..2
[    2.000006]         KTAP version 1
[    2.000007]         # Subtest: uhs_select_test
[    2.000008]         ok 1 Pi 5 host, UHS card
[    2.000009]         ok 2 3.3 V only host
[    2.000010]     # uhs_select_test: pass:2 fail:0 skip:0 total:2
[    2.000011]     ok 1 uhs_select_test
[    2.000012]     ok 2 uhs_names_test
[    2.000013] # mmc_sd_uhs: pass:2 fail:0 skip:0 total:2
[    2.000014] # Totals: pass:3 fail:0 skip:0 total:3
[    2.000015] ok 1 mmc_sd_uhs
[    2.000016]     KTAP version 1
[    2.000017]     # Subtest: mmc_sd_uhs_mock
[    2.000018]     1..1
[    2.000019]         KTAP version 1
[    2.000020]         # Subtest: sd_uhs_mock_test
[    2.000021]         ok 1 nothing fails: SDR104
[    2.000022]         ok 2 SDR104 tuning fails: DDR50
[    2.000023]     # sd_uhs_mock_test: pass:2 fail:0 skip:0 total:2
[    2.000024]     ok 1 sd_uhs_mock_test
[    2.000025] # mmc_sd_uhs_mock: pass:1 fail:0 skip:0 total:1
[    2.000026] ok 2 mmc_sd_uhs_mock
[    3.000000] bst-init: started
'''


def run(console, cmdline='kunit.enable=1 bst.check=mmc'):
    with tempfile.TemporaryDirectory() as d:
        with open(os.path.join(d, 'console.log'), 'w') as f:
            f.write(console)
        with open(os.path.join(d, 'cmdline'), 'w') as f:
            f.write(cmdline + '\n')
        p = subprocess.run([CHECK, d], capture_output=True, text=True)
        return p.returncode, p.stdout


@unittest.skipUnless(os.environ.get('KSRC'), 'needs KSRC (a kernel tree) for kunit_parser.py')
class MmcHostCheck(unittest.TestCase):
    def test_good_run_passes(self):
        rc, out = run(GOOD)
        self.assertEqual(rc, 0, out)
        self.assertNotIn('not ok', out)
        self.assertIn('ok 1 mmc_sd_uhs: uhs_select_test: Pi 5 host, UHS card', out)

    def test_case_missing_against_plan_fails(self):
        rc, out = run(GOOD.replace('[    2.000012]     ok 2 uhs_names_test\n', ''))
        self.assertNotEqual(rc, 0, out)

    def test_crash_in_the_middle_fails(self):
        rc, out = run(GOOD.split('[    2.000009]')[0])
        self.assertNotEqual(rc, 0, out)

    def test_failed_case_fails(self):
        rc, out = run(GOOD.replace('        ok 2 3.3 V only host', '        not ok 2 3.3 V only host'))
        self.assertNotEqual(rc, 0, out)

    def test_missing_suite_fails(self):
        rc, out = run(GOOD.split('[    2.000016]')[0].replace('1..2', '1..1'))
        self.assertNotEqual(rc, 0, out)
        self.assertIn('not ok', out)

    def test_failed_mock_case_fails(self):
        rc, out = run(GOOD.replace('        ok 2 SDR104 tuning fails: DDR50',
                                   '        not ok 2 SDR104 tuning fails: DDR50'))
        self.assertNotEqual(rc, 0, out)

    def test_no_ktap_at_all_fails(self):
        rc, out = run('[    1.0] Booting Linux\n')
        self.assertNotEqual(rc, 0, out)

    def test_boot_without_kunit_is_not_judged(self):
        rc, out = run(GOOD, cmdline='bst.check=mmc')
        self.assertEqual(rc, 4, out)


if __name__ == '__main__':
    unittest.main()
