# SPDX-License-Identifier: GPL-2.0
"""Unit tests of scripts/bench/side_by_side.py: what it reads from one boot's
kernel log, and that every number of its table has a claim that
scripts/gates/docs-numbers.py finds at that number and no other."""

import importlib.util
import json
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SBS = os.path.join(HERE, "..", "..", "bench", "side_by_side.py")


def load(name, path):
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


sbs = load("side_by_side", SBS)
docs_numbers = load("docs_numbers", os.path.join(HERE, "..", "docs-numbers.py"))

DMESG = "\n".join([
    "<6>[    0.100000] Freeing unused kernel memory: 1024K",
    "<7>[    0.200000] calling  bst_attr_init+0x0/0xff8 [bst_attr] @ 90",
    "<6>[    0.200100] bst-attr bst-attr: try 1: deferred",
    "<7>[    0.200200] probe of bst-attr returned -517 after 812 usecs",
    "<7>[    0.200300] probe of bst-attr-kick returned 0 after 20 usecs",
    "<7>[    0.200400] initcall bst_attr_init+0x0/0xff8 [bst_attr] returned 0 after 1500 usecs",
    "<7>[    0.320000] probe of bst-attr returned 0 after 114901 usecs",
    "<6>[    0.321000] bst-attr: try 2: pid 40 sleep_us 54400 sleep_cpu_us 100 spin_us 20200 "
    "wait_us 37000 woken_us 2900 woken_cpu_us 50 cpu_us 19700",
]) + "\n"


def stats(configs, bench, ref=None):
    return {"benchmark": bench, "ref": ref, "meta": {}, "configs": {
        c: {"median": v, "ratio": v / configs[ref] if ref else None, "runs": {"1": v}}
        for c, v in configs.items()}}


class ShowsTest(unittest.TestCase):
    def test_initcall_debug_lines(self):
        with tempfile.TemporaryDirectory() as d:
            os.mkdir(os.path.join(d, "dump"))
            with open(os.path.join(d, "dump", "dmesg"), "w", encoding="utf-8") as f:
                f.write(DMESG)
            with open(os.path.join(d, "bootgraph.svg"), "w", encoding="utf-8") as f:
                f.write("<svg><rect/><text>kernel_init</text></svg>")
            out = subprocess.run([sys.executable, SBS, "shows", "initcall_debug", "1", d],
                                 check=True, capture_output=True, text=True).stdout
            with open(os.path.join(d, "shows.json"), encoding="utf-8") as f:
                shows = json.load(f)
        rows = dict((line.split("\t")[0], float(line.split("\t")[2])) for line in out.splitlines())
        # The kick device's probe line is not bst-attr's.
        self.assertEqual(rows, {"initcall_debug:init": 1.5, "initcall_debug:try1": 0.812,
                                "initcall_debug:try2": 114.901})
        text = shows["text"]
        self.assertEqual(text["probes"], [[-517, 812], [0, 114901]])
        self.assertFalse(text["bootgraph"]["names_bst_attr"])
        self.assertTrue(text["bootgraph"]["stops_before_bst_attr"])
        self.assertEqual(text["truth"]["pid"], 40)

    def test_export_is_journal_export_format(self):
        with tempfile.NamedTemporaryFile("w", suffix=".dmesg", delete=False) as f:
            f.write(DMESG)
        try:
            out = subprocess.run([sys.executable, SBS, "export", f.name], check=True,
                                 capture_output=True, text=True).stdout
        finally:
            os.unlink(f.name)
        records = [r for r in out.split("\n\n") if r.strip()]
        self.assertEqual(len(records), len(DMESG.splitlines()))
        self.assertIn("__MONOTONIC_TIMESTAMP=200200\n", records[3])
        self.assertIn("PRIORITY=7\n", records[3])
        self.assertIn("MESSAGE=probe of bst-attr returned -517 after 812 usecs", records[3])


    def test_ftrace_counts_stacks_naming_the_sites(self):
        sys.path.insert(0, os.path.join(HERE, "..", "..", "report", "tests"))
        from test_sched import SCHED, stack, switch, trace_text  # noqa: E402
        sleep = SCHED + ["schedule_timeout", "msleep", "bst_attr_sleep [bst_attr]", "bst_attr_probe"]
        wait = SCHED + ["wait_for_completion", "bst_attr_wait+0x2c/0x50", "bst_attr_probe"]
        lines = [switch(0, 10, 40, "D", 0), stack(0, 10.01, sleep, pid=40),
                 stack(1, 11, wait, pid=41), switch(1, 11.01, 41, "D", 0),
                 switch(0, 20, 40, "D", 0), stack(0, 20.01, wait, pid=40),
                 switch(0, 30, 40, "R", 0), stack(0, 30.01, SCHED + ["worker_thread"], pid=40)]
        with tempfile.TemporaryDirectory() as d:
            os.mkdir(os.path.join(d, "dump"))
            with open(os.path.join(d, "dump", "sched.trace"), "w", encoding="utf-8") as f:
                f.write(trace_text(lines))
            _, text = sbs.shows_ftrace(os.path.join(d, "dump"), 40)
        self.assertEqual(text["stacks"], 4)
        self.assertEqual(text["sleep"], {"switch_outs": 1, "pids": [40], "comms": ["foo"],
                                         "of_the_probe_task": 1})
        self.assertEqual(text["wait"]["switch_outs"], 2)
        self.assertEqual(text["wait"]["pids"], [40, 41])
        self.assertEqual(text["wait"]["of_the_probe_task"], 1)


class TableClaimsTest(unittest.TestCase):
    """Each claim must match the table at its own number: with every value
    distinct, a claim anchored at the wrong cell quotes another value."""

    def check(self, rst):
        res = stats({"plain": 100.0, "initcall_debug": 100.25, "ftrace": 103.5, "bootstamp": 104.0},
                    "side-by-side-icount", "plain")
        res["tools"] = {
            "initcall_debug": {"probes": [[-517, 812], [0, 114901]], "bootgraph": {}},
            "ftrace": {"sleep": {"switch_outs": 3}, "wait": {"switch_outs": 2}},
            "bootstamp": {"tries": ["-EPROBE_DEFER", "ok"], "host_check": {"ok": 9, "not_ok": 0}},
            "systemd-analyze": {}}
        shown = stats({"initcall_debug:try1": 0.81, "initcall_debug:try2": 114.9,
                       "bootstamp:sleep-site": 54.2, "bootstamp:on-cpu": 19.9,
                       "bootstamp:wait-site": 36.9, "bootstamp:runnable": 3.8,
                       "bootstamp:try1": 0.9, "bootstamp:try2": 114.7, "bootstamp:bound": 118.3,
                       "driver:sleep": 54.4, "driver:spin": 20.2, "driver:wait": 37.0},
                      "side-by-side-icount-shown")
        head, rows, claims, _ = sbs.table(res, shown, rst)
        text = "intro 1.234 ratio\n" + "\n".join(sbs.render(head, rows, rst)) + "\n"
        results = {r["benchmark"]: r for r in (res, shown)}
        self.assertEqual(len(claims), 22)
        for t, key in claims:
            found = list(docs_numbers.claim_rx(t).finditer(text))
            self.assertEqual(len(found), 1, t)
            value, err = docs_numbers.result_value(results, key)
            self.assertIsNone(err)
            quoted = found[0].group(1)
            self.assertEqual("%.*f" % (len(quoted.partition(".")[2]), value), quoted, t)

    def test_markdown(self):
        self.check(False)

    def test_rst(self):
        self.check(True)


if __name__ == "__main__":
    unittest.main()
