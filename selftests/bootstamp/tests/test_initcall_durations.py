# SPDX-License-Identifier: GPL-2.0
"""initcalls_match_initcall_debug's check_durations(), built for the host
with a main() that reads the pairs of durations to compare: a recorder that
reports 0 or a fraction of an initcall fails, a good one passes. Needs KSRC
(selftests/lib/guestprog.py). Run: python3 -m unittest discover -s selftests/bootstamp/tests
"""
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'lib'))
from guestprog import KSRC, build, results  # noqa: E402

SRC = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..')

DRIVER = r'''
#define main guest_main
#include "%s"
#undef main

/* Lines "symbol initcall_debug_ns recorder_ns" on stdin. */
int main(void)
{
	int n = 0;

	while (n < MAX_CALLS && scanf("%%127s %%lld %%lld", kmsg_calls[n].sym, &kmsg_calls[n].ns,
				      &log_calls[n].ns) == 3) {
		strcpy(log_calls[n].sym, kmsg_calls[n].sym);
		n++;
	}
	ksft_print_header();
	ksft_set_plan(2);
	check_durations(n, n, -1);
	ksft_finished();
}
'''


@unittest.skipUnless(KSRC, 'needs KSRC (a kernel tree) for kselftest.h')
class InitcallDurations(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix='bst-durations-')
        src = os.path.join(cls.tmp, 'driver.c')
        with open(src, 'w') as f:
            f.write(DRIVER % os.path.join(SRC, 'initcalls_match_initcall_debug.c'))
        cls.prog = os.path.join(cls.tmp, 'durations')
        build(src, cls.prog)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp)

    def run_on(self, calls):
        text = 'early_fn 4000000 3999000\nclocksource_done_booting 0 1000\n'
        text += ''.join('%s %d %d\n' % c for c in calls)
        p = subprocess.run([self.prog], input=text, capture_output=True, text=True)
        return p.returncode, results(p.stdout), p.stdout

    # initcall_debug's usecs, and the recorder's ns 1.5 us less (its hops).
    GOOD = [('fn_%d' % i, us * 1000, max(us * 1000 - 1500, 300))
            for i, us in enumerate([2, 310, 12250, 5, 140, 1000, 0, 88])]

    def test_good_durations_pass(self):
        rc, res, out = self.run_on(self.GOOD)
        self.assertEqual(rc, 0, out)
        self.assertEqual(list(res.values()), [True, True], out)

    def test_zero_durations_fail(self):
        rc, res, out = self.run_on([(s, k, 0) for s, k, _ in self.GOOD])
        self.assertNotEqual(rc, 0, out)
        self.assertEqual(list(res.values()), [True, False], out)

    def test_a_fraction_of_the_duration_fails(self):
        rc, res, out = self.run_on([(s, k, k // 2) for s, k, _ in self.GOOD])
        self.assertEqual(list(res.values()), [True, False], out)

    def test_one_interrupted_hop_in_five_is_tolerated(self):
        # 20 initcalls of 1 ms: four 735 us short pass, five fail.
        calls = [('fn_%d' % i, 1000000, 998500) for i in range(20)]
        for i in (3, 9, 11, 17):
            calls[i] = ('slow', 1000000, 265000)
        self.assertEqual(self.run_on(calls)[0], 0)
        calls[15] = ('slow', 1000000, 265000)
        rc, res, out = self.run_on(calls)
        self.assertEqual(list(res.values()), [True, False], out)

    def test_tolerance_is_60us_and_2_percent(self):
        # 1000 us: 80 us short passes, 81 us fails; under 100 us not compared.
        calls = [('fn', 1000000, 920000), ('short', 99000, 0)]
        self.assertEqual(self.run_on(calls)[0], 0)
        calls[0] = ('fn', 1000000, 919000)
        self.assertNotEqual(self.run_on(calls)[0], 0)

    def test_longer_than_initcall_debug_fails(self):
        rc, res, out = self.run_on([(s, k, k + 3000) for s, k, _ in self.GOOD])
        self.assertEqual(list(res.values()), [False, True], out)


if __name__ == '__main__':
    unittest.main()
