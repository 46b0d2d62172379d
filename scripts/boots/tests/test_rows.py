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


if __name__ == '__main__':
    unittest.main()
