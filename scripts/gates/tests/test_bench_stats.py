# SPDX-License-Identifier: GPL-2.0
"""Unit tests of scripts/bench/stats.py --json: the machine-readable
results the documentation gate compares the quoted numbers with."""

import json
import os
import subprocess
import sys
import tempfile
import unittest

STATS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "bench", "stats.py")
RUNS = "config\trun\tvalue\noff\t1\t100\non\t1\t101\non\t2\t102\noff\t2\t100\noff\t3\t104\non\t3\t103\n"


class StatsJsonTest(unittest.TestCase):
    def run_stats(self, tsv, *args):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "runs.tsv")
            with open(path, "w", encoding="utf-8") as f:
                f.write(tsv)
            out = os.path.join(d, "results.json")
            subprocess.run([sys.executable, STATS, path, "--json", out, *args],
                           check=True, capture_output=True, text=True)
            with open(out, encoding="utf-8") as f:
                return json.load(f)

    def test_json_has_medians_ratios_quartiles_and_runs(self):
        r = self.run_stats(RUNS, "--bench", "x-icount", "--ref", "off", "--unit", "ms",
                           "--goal", "1.05", "--meta", "clock=icount", "--meta", "revision=abc")
        self.assertEqual(r["benchmark"], "x-icount")
        self.assertEqual((r["unit"], r["ref"], r["goal"]), ("ms", "off", 1.05))
        self.assertEqual(r["meta"], {"clock": "icount", "revision": "abc"})
        self.assertEqual(list(r["configs"]), ["off", "on"])
        on = r["configs"]["on"]
        self.assertEqual((on["n"], on["median"], on["min"], on["max"]), (3, 102, 101, 103))
        self.assertEqual((on["q1"], on["q3"]), (101.5, 102.5))
        self.assertAlmostEqual(on["ratio"], 1.02)
        self.assertAlmostEqual(on["paired"], 1.01)  # 1.01, 1.02, 103/104
        self.assertEqual(on["runs"], {"1": 101, "2": 102, "3": 103})
        self.assertEqual(r["configs"]["off"]["ratio"], 1.0)

    def test_one_run_has_its_value_as_quartiles(self):
        r = self.run_stats("a\t1\t5\nb\t1\t6\n", "--bench", "y", "--ref", "a")
        self.assertEqual((r["configs"]["b"]["q1"], r["configs"]["b"]["q3"]), (6, 6))
        self.assertAlmostEqual(r["configs"]["b"]["ratio"], 1.2)

    def test_json_needs_a_name(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "runs.tsv")
            with open(path, "w", encoding="utf-8") as f:
                f.write(RUNS)
            p = subprocess.run([sys.executable, STATS, path, "--json", os.path.join(d, "r.json")],
                               capture_output=True, text=True)
        self.assertNotEqual(p.returncode, 0)
        self.assertIn("--bench", p.stderr)


if __name__ == "__main__":
    unittest.main()
