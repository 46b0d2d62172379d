# SPDX-License-Identifier: GPL-2.0
"""judge.sh (the harness's verdicts on a boot) on boots made to go wrong."""
import os
import subprocess
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
LIB = os.path.join(HERE, '..', '..', 'lib.sh')
JUDGE = os.path.join(HERE, '..', 'judge.sh')

SYSRQ = 'Kernel panic - not syncing: sysrq triggered crash'


def judge(call, console='', results='', dump=None):
    """Run one judge.sh function on a made-up boot directory; its rows."""
    with tempfile.TemporaryDirectory() as d:
        for name, text in (('console.log', console), ('results.log', results)):
            with open(os.path.join(d, name), 'w') as f:
                f.write(text)
        if dump is not None:
            os.mkdir(os.path.join(d, 'dump'))
            for name in dump:
                open(os.path.join(d, 'dump', name), 'w').close()
        rows = os.path.join(d, 'rows.tsv')
        script = f'. "{LIB}"; . "{JUDGE}"; {call}'
        subprocess.run(['bash', '-c', script, 'judge', d], check=True,
                       env=dict(os.environ, BST_RESULTS=rows),
                       stdout=subprocess.DEVNULL)
        with open(rows) as f:
            return [line.rstrip('\n').split('\t') for line in f]


def statuses(rows):
    return [r[0] for r in rows]


class JudgeEnd(unittest.TestCase):
    def test_powered_off_after_plan(self):
        self.assertEqual(statuses(judge('judge_end b 0 "$1" ""', results='# bst-done\n')),
                         ['pass'])

    def test_plan_not_finished_fails(self):
        self.assertEqual(statuses(judge('judge_end b 0 "$1" ""', results='')), ['fail'])

    def test_timeout_fails(self):
        self.assertEqual(statuses(judge('judge_end b 124 "$1" ""', results='# bst-done\n')),
                         ['fail'])

    def test_planned_panic(self):
        rows = judge(f'judge_end b 0 "$1" "{SYSRQ}"', console=f'[ 9.0] {SYSRQ}\r\n')
        self.assertEqual(statuses(rows), ['pass'])

    def test_another_panic_fails(self):
        rows = judge(f'judge_end b 0 "$1" "{SYSRQ}"',
                     console='[ 1.0] Kernel panic - not syncing: Attempted to kill init!\n'
                             f'[ 9.0] {SYSRQ}\n')
        self.assertEqual(statuses(rows), ['fail'])

    def test_panic_boot_that_never_panics_fails(self):
        rows = judge(f'judge_end b 0 "$1" "{SYSRQ}"', console='[ 1.0] reboot: Power down\n')
        self.assertEqual(statuses(rows), ['fail'])

    def test_panic_boot_whose_plan_ran_to_its_end_fails(self):
        rows = judge(f'judge_end b 0 "$1" "{SYSRQ}"', console=f'[ 9.0] {SYSRQ}\n',
                     results='# bst-done\n')
        self.assertEqual(statuses(rows), ['fail'])

    def test_planned_hang(self):
        rows = judge('judge_end b 124 "$1" "" 20', console='[ 1.0] test_early_hang: hanging\n')
        self.assertEqual(statuses(rows), ['pass'])

    def test_hang_boot_that_powers_off_fails(self):
        self.assertEqual(statuses(judge('judge_end b 0 "$1" "" 20', results='# bst-done\n')),
                         ['fail'])

    def test_hang_boot_that_panics_fails(self):
        rows = judge('judge_end b 124 "$1" "" 20',
                     console='[ 1.0] Kernel panic - not syncing: Attempted to kill init!\n')
        self.assertEqual(statuses(rows), ['fail'])


class JudgeInit(unittest.TestCase):
    def test_clean_init(self):
        rows = judge('judge_init b "$1" bst.insmod=bootstamp.ko bst.dump=/x',
                     results='# bst-insmod bootstamp.ko ok\n', dump=['summary'])
        self.assertEqual(statuses(rows), ['pass', 'pass', 'pass'])

    def test_bst_error_fails(self):
        rows = judge('judge_init b "$1"', results='# bst-error: dump /x: No such file\n')
        self.assertEqual(statuses(rows), ['fail'])

    def test_failed_insmod_fails(self):
        rows = judge('judge_init b "$1" bst.insmod=bootstamp.ko',
                     results='# bst-insmod bootstamp.ko Invalid module format\n')
        self.assertEqual(statuses(rows), ['pass', 'fail'])

    def test_insmod_never_tried_fails(self):
        rows = judge('judge_init b "$1" bst.insmod=a.ko,bootstamp.ko',
                     results='# bst-insmod a.ko ok\n')
        self.assertEqual(statuses(rows), ['pass', 'pass', 'fail'])

    def test_second_load_of_the_same_module_fails(self):
        rows = judge('judge_init b "$1" bst.insmod=bootstamp.ko,bootstamp.ko',
                     results='# bst-insmod bootstamp.ko ok\n'
                             '# bst-insmod bootstamp.ko File exists\n')
        self.assertEqual(statuses(rows), ['pass', 'pass', 'fail'])

    def test_missing_dump_fails(self):
        rows = judge('judge_init b "$1" bst.dump=/sys/kernel/debug/bootstamp', dump=[])
        self.assertEqual(statuses(rows), ['pass', 'fail'])


if __name__ == '__main__':
    unittest.main()
