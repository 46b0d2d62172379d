# SPDX-License-Identifier: GPL-2.0
"""Unit tests of scripts/bench/headline_check.py, the verdict of make
check-full's headline pairs (scripts/bench/headlines.sh)."""

import importlib.util
import json
import os
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location(
    "headline_check", os.path.join(HERE, "..", "..", "bench", "headline_check.py"))
hc = importlib.util.module_from_spec(spec)
spec.loader.exec_module(hc)


def results(b_median, c_median=112.5):
    return {"benchmark": "console-boot-icount-only", "unit": "ms", "ref": "c-loglevel1",
            "configs": {
                "b-series": {"n": 1, "median": b_median, "ratio": b_median / c_median},
                "c-loglevel1": {"n": 1, "median": c_median, "ratio": 1.0}}}


class HeadlineCheckTest(unittest.TestCase):
    def verdict(self, doc, config="b-series", bound=1.10):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "results.json")
            if doc is not None:
                with open(path, "w", encoding="utf-8") as f:
                    json.dump(doc, f)
            return hc.verdict(path, config, bound)

    def test_series_within_bound_passes(self):
        status, detail = self.verdict(results(112.9))
        self.assertEqual(status, "pass")
        self.assertIn("ratio 1.0036, bound 1.1", detail)

    def test_console_that_stalls_the_boot_fails(self):
        # What the unpatched kernel does (a/c about 16.7).
        self.assertEqual(self.verdict(results(1884.0))[0], "fail")
        self.assertEqual(self.verdict(results(123.75))[0], "fail")  # exactly 1.10

    def test_missing_results_fail(self):
        self.assertEqual(self.verdict(None)[0], "fail")
        self.assertEqual(self.verdict(results(112.9), config="a-unpatched")[0], "fail")
        doc = results(112.9)
        doc["configs"]["b-series"]["ratio"] = None
        self.assertEqual(self.verdict(doc)[0], "fail")


if __name__ == "__main__":
    unittest.main()
