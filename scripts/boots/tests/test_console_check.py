# SPDX-License-Identifier: GPL-2.0
"""console-check.py on consoles made to break it: each splat must fail."""
import importlib.util
import os
import re
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location(
    'console_check', os.path.join(HERE, '..', 'console-check.py'))
cc = importlib.util.module_from_spec(spec)
spec.loader.exec_module(cc)

KNOWN = [(re.compile('debugfs file owner did not clean up'), 'known race')]
CUT = '[    1.000000] ------------[ cut here ]------------'
END = '[    1.000300] ---[ end trace 0000000000000000 ]---'
KNOWN_WARN = ['[    1.000100] debugfs file owner did not clean up at exit: x',
              '[    1.000200] WARNING: CPU: 1 PID: 1 at fs/debugfs/file.c:461']
OOPS = '[    2.000000] Unable to handle kernel NULL pointer dereference; Oops: 0000 [#1]'


def statuses(lines):
    return [r[0] for r in cc.judge(lines, KNOWN, 'boot')]


class ConsoleCheck(unittest.TestCase):
    def test_clean_console_passes(self):
        self.assertEqual(statuses(['[    0.000000] Booting Linux']), ['pass'])

    def test_known_terminated_splat_is_a_skip(self):
        self.assertEqual(statuses([CUT] + KNOWN_WARN + [END]), ['skip'])

    def test_oops_after_known_splat_fails(self):
        self.assertIn('fail', statuses([CUT] + KNOWN_WARN + [END, OOPS]))

    def test_known_splat_without_end_does_not_hide_an_oops(self):
        self.assertEqual(statuses([CUT] + KNOWN_WARN + [OOPS]), ['fail'])

    def test_unterminated_block_then_new_block(self):
        # An unknown warning cut short by the next "cut here" still fails.
        lines = [CUT, '[    1.1] WARNING: CPU: 0 at x.c:1', CUT] + KNOWN_WARN + [END]
        self.assertIn('fail', statuses(lines))

    def test_known_splat_cut_short_at_end_of_log_fails(self):
        self.assertEqual(statuses([CUT] + KNOWN_WARN), ['fail'])

    def test_lone_bad_line_fails(self):
        self.assertEqual(statuses(['[    3.0] BUG: KASAN: slab-out-of-bounds']), ['fail'])


if __name__ == '__main__':
    unittest.main()
