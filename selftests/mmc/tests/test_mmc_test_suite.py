# SPDX-License-Identifier: GPL-2.0
"""mmc_test_suite.c's verdict on mmc_test results (judge()), compiled for
this machine (needs KSRC for kselftest.h, as in make check, and a C
compiler): an "unsupported" result is a skip only where unsupported[] pins
it, and the boot's plan line (bst.mmc_unsupported) pins the tests."""
import os
import shutil
import subprocess
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SUITE = os.path.join(HERE, '..', 'mmc_test_suite.c')
KSRC = os.environ.get('KSRC')

# judge(N, NAME, RESULT, PINNED) of argv: prints "pass|fail|skip: why".
DRIVER = r'''
#define main mmc_test_suite_main
#include "%s"
#undef main

int main(int argc, char **argv)
{
	static const char *const verdicts[] = {
		[KSFT_PASS] = "pass", [KSFT_FAIL] = "fail", [KSFT_SKIP] = "skip",
	};
	char why[160];
	int v;

	if (argc != 5)
		return 2;
	v = judge(atoi(argv[1]), argv[2], atoi(argv[3]), argv[4], why, sizeof(why));
	printf("%%s: %%s\n", v >= 0 && v < 5 && verdicts[v] ? verdicts[v] : "?", why);
	return 0;
}
'''

OK, FAILED, HOST, CARD = 0, 1, 2, 3
RETUNE = 'Re-tuning reliability'


@unittest.skipUnless(KSRC and shutil.which('gcc'), 'needs KSRC (kselftest.h) and a C compiler')
class MmcTestVerdict(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.mkdtemp()
        src = os.path.join(cls.dir, 'driver.c')
        cls.exe = os.path.join(cls.dir, 'driver')
        with open(src, 'w') as f:
            f.write(DRIVER % os.path.abspath(SUITE))
        subprocess.run(['gcc', '-O2', '-Wall', '-Werror',
                        '-I', os.path.join(KSRC, 'tools', 'testing', 'selftests'),
                        '-o', cls.exe, src], check=True)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.dir)

    def judge(self, nr, name, result, pinned='46-52'):
        p = subprocess.run([self.exe, str(nr), name, str(result), pinned],
                           capture_output=True, text=True, check=True)
        return p.stdout.strip()

    def test_ok_passes(self):
        self.assertEqual(self.judge(1, 'Basic write (no data verification)', OK), 'pass: OK')

    def test_failed_fails(self):
        self.assertEqual(self.judge(5, 'Multi-block write', FAILED), 'fail: FAILED')

    def test_no_result_fails(self):
        self.assertEqual(self.judge(5, 'Multi-block write', -1), 'fail: no result')

    def test_pinned_unsupported_is_a_skip_that_says_why(self):
        self.assertEqual(self.judge(52, RETUNE, HOST),
                         'skip: unsupported by the host: no re-tuning: mmc core tunes SDR104, '
                         'SDR50 and DDR50, not this mode')
        self.assertTrue(self.judge(46, 'Commands during read - no Set Block Count (CMD23)',
                                   HOST, '46-51,52').startswith('skip: '))

    # H11: a fallback that loses a capability turns a test into "unsupported".
    def test_new_unsupported_by_the_host_fails(self):
        self.assertTrue(self.judge(5, 'Multi-block write', HOST).startswith('fail: unsupported by the host'))

    def test_new_unsupported_by_the_card_fails(self):
        self.assertTrue(self.judge(3, 'Basic write (with data verification)', CARD).startswith('fail: '))

    def test_unsupported_that_this_boot_does_not_pin_fails(self):
        # SDR50 is re-tuned: the boot pins 46-51, and re-tuning lost with the mode fails.
        self.assertTrue(self.judge(52, RETUNE, HOST, '46-51').startswith('fail: unsupported by the host'))
        self.assertEqual(self.judge(52, RETUNE, OK, '46-51'), 'pass: OK')

    def test_pinned_test_unsupported_by_the_other_side_fails(self):
        self.assertTrue(self.judge(52, RETUNE, CARD).startswith('fail: '))

    def test_pinned_test_that_ran_fails(self):
        self.assertTrue(self.judge(52, RETUNE, OK).startswith('fail: OK, but the boot pins'))

    def test_renumbered_testlist_fails(self):
        self.assertTrue(self.judge(52, 'Reset test', HOST).startswith('fail: the testlist changed'))

    def test_pin_without_a_reason_fails(self):
        self.assertTrue(self.judge(5, 'Multi-block write', HOST, '5,46-52').startswith('fail: bst.mmc_unsupported'))

    def test_none_pins_nothing(self):
        self.assertTrue(self.judge(46, 'Commands during read - no Set Block Count (CMD23)',
                                   HOST, 'none').startswith('fail: '))
        self.assertEqual(self.judge(1, 'Basic write (no data verification)', OK, 'none'), 'pass: OK')

    def test_bad_pin_list_fails(self):
        for bad in ('', '46-', '52-46', '46;52', 'x', '46,'):
            self.assertTrue(self.judge(1, 'Basic write (no data verification)', OK, bad)
                            .startswith('fail: bst.mmc_unsupported'), bad)

if __name__ == '__main__':
    unittest.main()
