# SPDX-License-Identifier: GPL-2.0
"""boot/no_kmemleak_reports, built for the host with its kmemleak file in a
scratch directory and no wait, on made-up reports: a leak allocated in the
console, SD or bootstamp code fails, one elsewhere is shown and not judged.
Needs KSRC (a kernel tree) for kselftest.h, as the guest build does.
Run: python3 -m unittest discover -s selftests/boot/tests
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'lib'))
from guestprog import KSRC, build  # noqa: E402

SRC = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'no_kmemleak_reports.c')


def report(*frames, ascii='................'):
    """One kmemleak report, as mm/kmemleak.c prints it in 7.x."""
    return ('unreferenced object 0xffff00000a3c1e00 (size 128):\n'
            '  comm "kworker/u8:1", pid 45, jiffies 4294893510\n'
            '  hex dump (first 32 bytes):\n'
            '    6d 6d 63 30 00 00 00 00 00 00 00 00 00 00 00 00  %s\n'
            '    00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00  ................\n'
            '  backtrace (crc 1a2b3c4d):\n'
            '    kmemleak_alloc+0x34/0x40\n'
            '    __kmalloc_cache_noprof+0x1f8/0x2f0\n' % ascii +
            ''.join('    %s+0x68/0x3a8\n' % f for f in frames))


ELSEWHERE = report('ext4_fill_super', 'get_tree_bdev', ascii='mmc0............')


@unittest.skipUnless(KSRC, 'needs KSRC (a kernel tree) for kselftest.h')
class NoKmemleakReports(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix='bst-kmemleak-')
        cls.file = os.path.join(cls.tmp, 'kmemleak')
        cls.prog = os.path.join(cls.tmp, 'no_kmemleak_reports')
        build(SRC, cls.prog, 'KMEMLEAK="%s"' % cls.file,
              'KMEMLEAK_SCAN="%s"' % os.path.join(cls.tmp, 'scan'), 'MIN_AGE=-1.0')

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp)

    def run_on(self, text):
        if text is None:
            if os.path.exists(self.file):
                os.unlink(self.file)
        else:
            with open(self.file, 'w') as f:
                f.write(text)
        with open(os.path.join(self.tmp, 'scan'), 'w'):
            pass
        p = subprocess.run([self.prog], capture_output=True, text=True)
        with open(os.path.join(self.tmp, 'scan')) as f:
            scans = f.read()
        return p.returncode, p.stdout, scans

    def assertPasses(self, text):
        rc, out, scans = self.run_on(text)
        self.assertEqual(rc, 0, out)
        self.assertRegex(out, r'(?m)^ok 1 no leak', out)
        self.assertEqual(scans, 'scan', 'the second scan overwrites the first')

    def assertFails(self, text, why=None):
        rc, out, _ = self.run_on(text)
        self.assertNotEqual(rc, 0, out)
        self.assertNotRegex(out, r'(?m)^ok ', out)
        if why:
            self.assertIn('judged (%s)' % why, out)

    def test_no_report_passes(self):
        self.assertPasses('')

    def test_leak_elsewhere_is_shown_not_judged(self):
        self.assertPasses(ELSEWHERE + ELSEWHERE)
        self.assertIn('not judged:', self.run_on(ELSEWHERE)[1])

    def test_leaks_in_the_series_code_fail(self):
        for frames, why in [(('mmc_sd_init_card', 'mmc_attach_sd'), 'mmc'),
                            (('sdhci_setup_host',), 'sdhci'),
                            (('kthread_create_on_node', 'nbcon_kthread_create'), 'nbcon'),
                            (('pl011_probe', 'amba_probe'), 'pl011'),
                            (('register_console',), 'console'),
                            (('bs_initcall_row [bootstamp]',), 'bootstamp'),
                            (('0xffff80007a001234', 'do_init_module'), 'do_init_module'),
                            (('debugfs_create_file_full',), 'debugfs')]:
            with self.subTest(why=why):
                self.assertFails(ELSEWHERE + report(*frames) + ELSEWHERE, why)

    def test_name_outside_the_backtrace_is_not_a_frame(self):
        text = ELSEWHERE.replace('kworker/u8:1', 'mmcqd/0')
        self.assertPasses(text)

    def test_no_kmemleak_file_fails(self):
        rc, out, _ = self.run_on(None)
        self.assertNotEqual(rc, 0, out)
        self.assertTrue(re.search(r'Bail out!.*no .*kmemleak', out), out)

    def test_unreadable_report_fails(self):
        self.assertFails('garbage before any report\n' + ELSEWHERE)


if __name__ == '__main__':
    unittest.main()
