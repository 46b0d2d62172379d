# SPDX-License-Identifier: GPL-2.0
"""console-check.py on consoles made to break it: each splat must fail."""
import importlib.util
import os
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location(
    'console_check', os.path.join(HERE, '..', 'console-check.py'))
cc = importlib.util.module_from_spec(spec)
spec.loader.exec_module(cc)

KNOWN = [cc.Known('debugfs file owner did not clean up\tmax=2 test=d/load\tknown race')]
CUT = '[    1.000000] ------------[ cut here ]------------'
END = '[    1.000300] ---[ end trace 0000000000000000 ]---'
KNOWN_WARN = ['[    1.000100] debugfs file owner did not clean up at exit: x',
              '[    1.000200] WARNING: CPU: 1 PID: 1 at fs/debugfs/file.c:461']
OOPS = '[    2.000000] Unable to handle kernel NULL pointer dereference; Oops: 0000 [#1]'


def statuses(lines, tests=('d/load',)):
    return [r[0] for r in cc.judge(lines, KNOWN, 'boot', tests)]


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


    def test_known_splat_up_to_its_max_is_a_skip(self):
        self.assertEqual(statuses(([CUT] + KNOWN_WARN + [END]) * 2), ['skip'])

    def test_known_splat_beyond_its_max_fails(self):
        self.assertEqual(statuses(([CUT] + KNOWN_WARN + [END]) * 3), ['fail'])

    def test_known_splat_in_a_boot_without_its_test_fails(self):
        self.assertEqual(statuses([CUT] + KNOWN_WARN + [END], tests=('d/other',)), ['fail'])

    def test_known_splat_only_in_the_boots_it_names(self):
        known = [cc.Known('debugfs file owner did not clean up\tmax=1 boot=b1 boot=b2\twhy')]
        lines = [CUT] + KNOWN_WARN + [END]
        for boot, want in (('b1', 'skip'), ('b2', 'skip'), ('b3', 'fail'), (None, 'fail')):
            with self.subTest(boot=boot):
                self.assertEqual([r[0] for r in cc.judge(lines, known, 'x', (), (), boot)], [want])


def load(text):
    with tempfile.NamedTemporaryFile('w', suffix='known-splats') as f:
        f.write(text)
        f.flush()
        return cc.load_known(f.name)


class KnownSplats(unittest.TestCase):
    def test_repository_file_loads(self):
        known, errors = cc.load_known(os.path.join(HERE, '..', '..', '..', 'selftests',
                                                   'known-splats'))
        self.assertEqual(errors, [])
        debugfs = [k for k in known if k.search(KNOWN_WARN)]
        self.assertEqual([k.tests for k in debugfs], [{'bootstamp/load_unload_with_readers'}])

    def test_spaces_for_a_tab_fail_the_boot(self):
        known, errors = load('# comment\ndebugfs file owner    max=1    why\n')
        self.assertEqual(known, [])
        self.assertEqual(len(errors), 1)
        self.assertIn(':2:', errors[0])
        rows = cc.judge(['[    0.0] Booting Linux'], known, 'boot', (), errors)
        self.assertEqual([r[0] for r in rows], ['fail'])

    def test_entry_without_max_fails(self):
        self.assertEqual(len(load('x\ttest=d/load\twhy\n')[1]), 1)

    def test_bad_regex_or_condition_fails(self):
        self.assertEqual(len(load('x(\tmax=1\twhy\nx\tmax=1 tset=a\twhy\n')[1]), 2)

    def test_good_entries_still_apply_beside_a_bad_one(self):
        known, errors = load('bad line\ndebugfs file owner\tmax=1\twhy\n')
        rows = cc.judge([CUT] + KNOWN_WARN + [END], known, 'boot', (), errors)
        self.assertEqual([r[0] for r in rows], ['fail', 'skip'])


if __name__ == '__main__':
    unittest.main()
