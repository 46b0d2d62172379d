# SPDX-License-Identifier: GPL-2.0
"""Tests for the bootstamp report parsers and renderers.

samples/live: dump from a QEMU boot of an unpatched 7.2 kernel, module in
live-only mode, after loading bs_hello.ko and bs_fail.ko and cycling CPUs
2 and 3 offline and online.
samples/full: dump of the module in full mode, reading a hand-written log
that follows <linux/bootstamp.h> (62.5 MHz counter, entry at 312 ms).

Run: python3 -m unittest discover -s scripts/report/tests
"""

import io
import json
import os
import sys
import tempfile
import unittest
import xml.etree.ElementTree as ET
from contextlib import redirect_stderr, redirect_stdout

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

from bootreport_lib import parse, svg, text  # noqa: E402

LIVE = os.path.join(HERE, "samples", "live")
FULL = os.path.join(HERE, "samples", "full")


def run(argv):
    """Run bootreport's main(); returns (status, stdout, stderr)."""
    import importlib.machinery
    import importlib.util
    path = os.path.join(os.path.dirname(HERE), "bootreport")
    loader = importlib.machinery.SourceFileLoader("bootreport_main", path)
    spec = importlib.util.spec_from_loader("bootreport_main", loader)
    mod = importlib.util.module_from_spec(spec)
    loader.exec_module(mod)
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        status = mod.main(argv)
    return status, out.getvalue(), err.getvalue()


class LiveSample(unittest.TestCase):
    def setUp(self):
        self.d = parse.Dump(LIVE, parse.FILES)

    def test_summary_metadata(self):
        m = self.d.summary.meta
        self.assertEqual(m["mode"], "live-only")
        self.assertEqual(m["counter"], "CNTVCT_EL0")
        self.assertEqual(m["freq_hz"], "62500000")
        self.assertEqual(m["ns_per_tick"], "16/1")
        self.assertEqual(m["time_base"], "counter_zero")
        self.assertEqual(m["log"], "absent")
        self.assertEqual(m["live"], "on")

    def test_summary_rows(self):
        rows = self.d.summary.rows
        self.assertEqual(rows[0]["milestone"], "module_load")
        self.assertIsNone(rows[0]["since_entry_ns"])
        self.assertIsNone(rows[0]["delta_ns"])
        marks = [r for r in rows if r["milestone"].startswith("mark:")]
        self.assertIn("mark:init-started", [r["milestone"] for r in marks])
        for r in rows:
            self.assertEqual(r["since_cnt0_ns"], r["counter"] * 16)

    def test_module_initcalls(self):
        by_mod = {r["module"]: r for r in self.d.initcalls.rows}
        self.assertEqual(by_mod["bs_hello"]["symbol"], "bs_hello_init")
        self.assertEqual(by_mod["bs_hello"]["level"], "module")
        self.assertGreaterEqual(by_mod["bs_hello"]["duration_ns"], 12000000)
        self.assertEqual(by_mod["bs_fail"]["ret"], -19)

    def test_live_cpus(self):
        rows = self.d.cpus.rows
        self.assertEqual({r["cpu"] for r in rows}, {2, 3})
        for r in rows:
            self.assertEqual(r["source"], "live")
            # Not observable live: tracepoints skip CPUs not yet online.
            self.assertIsNone(r["entry_ns"])
            self.assertIsNone(r["start_kernel_ns"])
            pts = [r[p + "_ns"] for p in ("requested", "online", "active",
                                          "finished")]
            self.assertNotIn(None, pts)
            self.assertEqual(pts, sorted(pts))

    def test_trace(self):
        evs = self.d.trace["traceEvents"]
        names = {e["name"] for e in evs}
        self.assertIn("bs_hello_init", names)
        self.assertIn("thread_name", names)
        self.assertEqual(self.d.trace["otherData"]["mode"], "live-only")


class FullSample(unittest.TestCase):
    def setUp(self):
        self.d = parse.Dump(FULL, parse.FILES)

    def test_entry_and_firmware(self):
        rows = {r["milestone"]: r for r in self.d.summary.rows}
        entry = rows["kernel_entry"]
        self.assertEqual(entry["since_entry_ns"], 0)
        self.assertEqual(entry["since_cnt0_ns"], 312000000)
        self.assertEqual(self.d.summary.meta["mode"], "full")
        self.assertEqual(self.d.summary.meta["log"], "complete")

    def test_milestones_in_time_order(self):
        t = [r["since_entry_ns"] for r in self.d.summary.rows
             if r["since_entry_ns"] is not None]
        self.assertEqual(t, sorted(t))
        deltas = [r["delta_ns"] for r in self.d.summary.rows[1:]]
        self.assertTrue(all(d is not None and d >= 0 for d in deltas))

    def test_builtin_initcalls(self):
        rows = [r for r in self.d.initcalls.rows if r["module"] == "vmlinux"]
        self.assertEqual(len(rows), 7)
        levels = {r["level"] for r in rows}
        self.assertTrue({"early", "postcore", "subsys", "device", "late"} <= levels)
        self.assertIn(-19, [r["ret"] for r in rows])

    def test_boot_cpus(self):
        boot = [r for r in self.d.cpus.rows if r["source"] == "boot"]
        self.assertEqual(len(boot), 4)
        self.assertEqual(boot[0]["entry_ns"], 0)
        self.assertIsNone(boot[0]["requested_ns"])
        for r in boot[1:]:
            self.assertLess(r["requested_ns"], r["entry_ns"])
            self.assertLess(r["active_ns"], r["finished_ns"])


class Errors(unittest.TestCase):
    def test_missing_file(self):
        with tempfile.TemporaryDirectory() as d:
            status, _, err = run([d])
        self.assertEqual(status, 2)
        self.assertIn("summary: missing", err)

    def test_bad_row_names_file_and_line(self):
        text_in = "# mode: full\n# " + " ".join(parse.SUMMARY_COLUMNS) + \
            "\nkernel_entry 1 2 3\n"
        with self.assertRaises(parse.InputError) as cm:
            parse.parse_summary("x/summary", text_in)
        self.assertIn("x/summary:3:", str(cm.exception))

    def test_bad_integer(self):
        text_in = "# " + " ".join(parse.INITCALL_COLUMNS) + \
            "\ncore foo vmlinux 12 x 0 0 1\n"
        with self.assertRaises(parse.InputError) as cm:
            parse.parse_initcalls("initcalls", text_in)
        self.assertIn("initcalls:2: column duration_ns", str(cm.exception))

    def test_wrong_columns(self):
        with self.assertRaises(parse.InputError) as cm:
            parse.parse_cpus("cpus", "# cpu src\n")
        self.assertIn("cpus:1: unexpected columns", str(cm.exception))

    def test_bad_json(self):
        with self.assertRaises(parse.InputError) as cm:
            parse.parse_trace("trace.json", '{"traceEvents":[\n{"ph":"X",}]}')
        self.assertIn("trace.json:2: invalid JSON", str(cm.exception))


class Render(unittest.TestCase):
    def test_text_has_tables_and_bars(self):
        for d in (LIVE, FULL):
            out = text.render(parse.Dump(d))
            self.assertIn("Milestones", out)
            self.assertIn("initcalls by duration", out)
            self.assertIn("█", out)

    def test_svg_is_xml(self):
        for d in (LIVE, FULL):
            root = ET.fromstring(svg.render(parse.Dump(d)))
            self.assertTrue(root.tag.endswith("svg"))
            self.assertGreater(len(root.findall(
                "{http://www.w3.org/2000/svg}rect")), 3)

    def test_cli_svg_and_json(self):
        with tempfile.TemporaryDirectory() as d:
            s = os.path.join(d, "t.svg")
            j = os.path.join(d, "t.json")
            status, _, _ = run([FULL, "--svg", s, "--json", j])
            self.assertEqual(status, 0)
            with open(j, encoding="utf-8") as f:
                self.assertIn("traceEvents", json.load(f))
            ET.parse(s)


if __name__ == "__main__":
    unittest.main()
