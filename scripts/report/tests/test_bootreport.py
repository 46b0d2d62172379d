# SPDX-License-Identifier: GPL-2.0
"""Tests for the bootstamp report parsers and renderers.

samples/live: dump from a QEMU boot of an unpatched 7.2 kernel, module in
live-only mode, after loading bs_hello.ko and bs_fail.ko and cycling CPUs
2 and 3 offline and online.
samples/full: dump of the module in full mode, reading a hand-written log
that follows <linux/bootstamp.h> (62.5 MHz counter, entry at 312 ms).
samples/full-probes: the same with hand-written sync keys (counter tick
118000000 = CLOCK_MONOTONIC 1.558 s = local_clock 1.57188 s, so monotonic
t is t + 18 ms since kernel entry and local_clock t is t + 4.12 ms) and a
probes file; samples/dmesg.txt and samples/journal.json: a kernel log with
initcall_debug probe lines and journalctl -b -o json of that boot.

Run: python3 -m unittest discover -s scripts/report/tests
"""

import io
import json
import os
import shutil
import sys
import tempfile
import unittest
import xml.etree.ElementTree as ET
from contextlib import redirect_stderr, redirect_stdout

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

from bootreport_lib import analysis, parse, sources, svg, text  # noqa: E402

LIVE = os.path.join(HERE, "samples", "live")
FULL = os.path.join(HERE, "samples", "full")
PROBES = os.path.join(HERE, "samples", "full-probes")
DMESG = os.path.join(HERE, "samples", "dmesg.txt")
JOURNAL = os.path.join(HERE, "samples", "journal.json")


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



def csv_of(out):
    import csv
    return list(csv.DictReader(io.StringIO(out)))


def make_dump(root, name, durations=None, drop=(), summary_edit=None):
    """A copy of samples/full with initcall durations replaced, initcalls
    dropped (by symbol) or the summary edited; returns its path."""
    import shutil
    d = os.path.join(root, name)
    shutil.copytree(FULL, d)
    p = os.path.join(d, "initcalls")
    out = []
    with open(p, encoding="utf-8") as f:
        for line in f:
            fields = line.split()
            if not line.startswith("#") and fields:
                if fields[1] in drop:
                    continue
                if durations and fields[1] in durations:
                    fields[4] = str(durations[fields[1]])
                    line = " ".join(fields) + "\n"
            out.append(line)
    with open(p, "w", encoding="utf-8") as f:
        f.writelines(out)
    if summary_edit:
        p = os.path.join(d, "summary")
        with open(p, encoding="utf-8") as f:
            t = summary_edit(f.read())
        with open(p, "w", encoding="utf-8") as f:
            f.write(t)
    return d


def move_init_exec(ns_since_entry):
    """Summary edit: init_exec at @ns_since_entry (counter 16 ns ticks)."""
    def edit(t):
        old = "init_exec 24206250 387300000 75300000 1200000"
        assert old in t
        cnt = (312000000 + ns_since_entry) // 16
        return t.replace(old, "init_exec %d %d %d 1200000" % (
            cnt, 312000000 + ns_since_entry, ns_since_entry))
    return edit


class Split(unittest.TestCase):
    def test_full_sample(self):
        sp = analysis.Split(parse.Dump(FULL))
        # 312 ms to entry, init_exec 75.3 ms later, userspace-ready at
        # 1888.062912 ms since counter zero.
        self.assertEqual([(lab, ns) for lab, ns, _ in sp.parts],
                         [("cnt0-to-entry", 312000000), ("kernel", 75300000),
                          ("userspace", 1888062912 - 387300000)])
        self.assertEqual(sp.total, 1888062912)
        self.assertEqual(sp.line(), "Startup finished in 0.312s "
                         "(cnt0-to-entry) "
                         "+ 0.075s (kernel) + 1.501s (userspace) = 1.888s")

    def test_first_part_named_for_what_it_measures(self):
        # Counter zero to entry is never called firmware on the module's
        # word: an EFI boot (the sample: firmware,bootloader,efi_stub) says
        # what ran before entry, but UEFI says nothing about when the Arm
        # counter starts (review A5), nor does a Pi 5 or an older module's
        # dump ("firmware,bootloader"). The note says what ran there.
        ran = {"firmware,bootloader,efi_stub":
               "firmware, boot loader and EFI stub ran there",
               "firmware,bootloader": "firmware and boot loader ran there",
               "unverified": "what ran there is not known",
               None: "what ran there is not known"}
        for before, says in ran.items():
            edit = (lambda t, b=before: t.replace(
                "# before_entry: firmware,bootloader,efi_stub",
                "# before_entry: %s" % b if b else ""))
            with tempfile.TemporaryDirectory() as root:
                sp = analysis.Split(parse.Dump(make_dump(root, "b",
                                                         summary_edit=edit)))
            notes = " ".join(sp.notes())
            self.assertEqual(sp.parts[0][0], "cnt0-to-entry", before)
            self.assertIn("cnt0-to-entry: counter zero to kernel entry, "
                          "not verified as firmware time", notes)
            self.assertIn(says, notes)
            self.assertIn("when the counter started is unverified", notes)
            self.assertIn("(cnt0-to-entry)", sp.line())

    def test_report_starts_with_split(self):
        status, out, _ = run([FULL])
        self.assertEqual(status, 0)
        self.assertTrue(out.startswith("Startup finished in 0.312s"))

    def test_other_end_mark(self):
        status, out, _ = run(["split", FULL, "--userspace-end",
                              "mark:userspace-ready"])
        self.assertEqual(status, 0)
        self.assertIn("1.501s (userspace)", out)
        status, _, err = run(["split", FULL, "--userspace-end", "nope"])
        self.assertEqual(status, 2)
        self.assertIn("no milestone or mark 'nope'", err)

    def test_live_only_has_no_firmware_kernel_split(self):
        sp = analysis.Split(parse.Dump(LIVE))
        self.assertEqual(sp.parts, [])
        self.assertIn("what ran before the kernel and the kernel cannot be "
                      "told apart",
                      " ".join(sp.notes()))
        sp = analysis.Split(parse.Dump(LIVE), "init-started")
        self.assertEqual([(lab, ns) for lab, ns, _ in sp.parts],
                         [("cnt0-to-entry+kernel+userspace", 1362401744)])

    def test_no_mark_says_how(self):
        with tempfile.TemporaryDirectory() as root:
            d = make_dump(root, "nomark", summary_edit=lambda t: t.replace(
                "mark:userspace-ready", "mark:other"))
            status, out, _ = run(["split", d])
        self.assertEqual(status, 0)
        self.assertIn("+ 0.075s (kernel) = 0.387s", out)
        self.assertIn("--userspace-end NAME", out)

    def test_csv_parts_add_up(self):
        status, out, _ = run(["split", "--csv", FULL])
        rows = {r["phase"]: int(r["duration_ns"]) for r in csv_of(out)}
        self.assertEqual(rows["cnt0-to-entry"] + rows["kernel"] +
                         rows["userspace"], rows["total"])
        self.assertEqual(rows["total"], 1888062912)


class Compare(unittest.TestCase):
    def test_same_dump_no_difference(self):
        status, out, _ = run(["compare", "--csv", FULL, FULL])
        self.assertEqual(status, 0)
        rows = csv_of(out)
        self.assertEqual(len(rows), 18 + 4 + 8)     # milestones, phases,
        for r in rows:                              # initcalls
            self.assertEqual(r["diff_ns"], "0")

    def test_differences_sorted_and_one_sided(self):
        with tempfile.TemporaryDirectory() as root:
            b = make_dump(root, "b", durations={"mmc_blk_init": 2250000,
                                                "inet_init": 3000000},
                          drop=("gic_init",),
                          summary_edit=move_init_exec(65300000))
            status, out, _ = run(["compare", "--csv", FULL, b])
            self.assertEqual(status, 0)
            rows = csv_of(out)
            ic = [r for r in rows if r["kind"] == "initcall"]
            self.assertEqual(ic[0]["name"], "mmc_blk_init")
            self.assertEqual(int(ic[0]["diff_ns"]), -10000000)
            self.assertEqual(ic[0]["ratio"], str(round(2250000 / 12250000, 4)))
            self.assertEqual(ic[1]["name"], "inet_init")
            self.assertEqual(int(ic[1]["diff_ns"]), 100000)
            gic = [r for r in ic if r["name"] == "gic_init"][0]
            self.assertEqual((gic["a_ns"], gic["b_ns"], gic["diff_ns"]),
                             ("180000", "", ""))
            status, out, _ = run(["compare", FULL, b])
        self.assertIn("kernel: 75.3 ms -> 65.3 ms (-10.0 ms, 0.87x)", out)
        self.assertIn("userspace: 1500.8 ms -> 1510.8 ms (+10.0 ms, 1.01x)",
                      out)
        self.assertIn("Only in A (1):", out)
        self.assertIn("gic_init [postcore]", out)

    def test_refuses_non_dump(self):
        with tempfile.TemporaryDirectory() as d:
            status, _, err = run(["compare", FULL, d])
        self.assertEqual(status, 2)
        self.assertIn("summary: missing", err)

    def test_probes_compared(self):
        status, out, _ = run(["compare", "--csv", FULL, PROBES])
        rows = [r for r in csv_of(out) if r["kind"] == "probe"]
        mmc = [r for r in rows if r["name"] == "fe340000.mmc"][0]
        # Three attempts added up, only in B.
        self.assertEqual((mmc["a_ns"], mmc["b_ns"], mmc["module"]),
                         ("", "8750000", "sdhci-iproc"))


class Stats(unittest.TestCase):
    def test_median_min_max_range(self):
        with tempfile.TemporaryDirectory() as root:
            dirs = [make_dump(root, "b%d" % i,
                              durations={"mmc_blk_init": v},
                              summary_edit=move_init_exec(k))
                    for i, (v, k) in enumerate([(30000000, 80000000),
                                                (10000000, 70000000),
                                                (20000000, 90000000)])]
            status, out, _ = run(["stats", "--csv"] + dirs)
            self.assertEqual(status, 0)
            rows = {(r["kind"], r["name"]): r for r in csv_of(out)}
            r = rows[("initcall", "mmc_blk_init")]
            self.assertEqual((r["n"], r["median_ns"], r["min_ns"],
                              r["max_ns"], r["spread_ns"], r["spread"]),
                             ("3", "20000000", "10000000", "30000000",
                              "20000000", "range"))
            k = rows[("phase", "kernel")]
            self.assertEqual(k["median_ns"], "80000000")
            status, out, _ = run(["stats"] + dirs)
        self.assertIn("Split phases", out)
        self.assertRegex(out, r"mmc_blk_init \[device\]\s+3\s+20\.000\s+"
                         r"10\.000\s+30\.000\s+20\.000 range")

    def test_iqr_and_missing(self):
        with tempfile.TemporaryDirectory() as root:
            dirs = [make_dump(root, "b%d" % v, durations={"inet_init": v},
                              drop=("psci_init",) if v == 40 else ())
                    for v in (10, 20, 30, 40)]
            status, out, _ = run(["stats", "--csv"] + dirs)
            rows = {(r["kind"], r["name"]): r for r in csv_of(out)}
            r = rows[("initcall", "inet_init")]
            # Inclusive quartiles of 10 20 30 40: 17.5 and 32.5.
            self.assertEqual((r["median_ns"], r["spread_ns"], r["spread"]),
                             ("25", "15", "iqr"))
            p = rows[("initcall", "psci_init")]
            self.assertEqual((p["n"], p["missing_in"]), ("3", "1"))
            status, out, _ = run(["stats"] + dirs)
        self.assertIn("Missing in some dumps (1 items):", out)
        self.assertIn("psci_init [early]: in 3 of 4, not in", out)

    def test_needs_two(self):
        with self.assertRaises(SystemExit):
            with redirect_stderr(io.StringIO()):
                run(["stats", FULL])


class Probes(unittest.TestCase):
    def test_total_is_wall_time(self):
        # A parent's probe holds its child's (mmc0:0001 inside
        # fe340000.mmc's 8.2 ms) and an async probe runs beside another
        # (the pl011 from 34.9 to 39.3 ms, a second device from 36 to
        # 40 ms): the header's total is the time with any probe running,
        # not the sum of durations, which counts both twice (review C6).
        with tempfile.TemporaryDirectory() as root:
            d = os.path.join(root, "p")
            shutil.copytree(PROBES, d)
            path = os.path.join(d, "probes")
            with open(path, encoding="utf-8") as f:
                t = f.read()
            t = t.replace("mmc0:0001 mmcblk mmc 68300000 2500000",
                          "mmc0:0001 mmcblk mmc 61000000 2500000")
            t += "a0d0000.i2c i2c-designware platform 36000000 4000000 0 yes 1 90\n"
            with open(path, "w", encoding="utf-8") as f:
                f.write(t)
            dump = parse.Dump(d)
            sources.attach_probes(dump)
            out = text.render(dump, top=3)
        # union: 34.9-41.25 (pl011, i2c, virtio, first mmc try: 6.35)
        # + 52.0-52.3 (0.3) + 60.0-68.2 (8.2, mmcblk inside) = 14.85 ms
        # sum: 4.4 + 1.5 + 0.25 + 0.3 + 8.2 + 2.5 + 4.0 = 21.15 ms
        self.assertIn("Top 3 of 7 probes by duration (14.850 ms with a probe "
                      "running; 21.150 ms added up over nested and parallel "
                      "probes", out)

    def test_probes_file(self):
        d = parse.Dump(PROBES)
        self.assertEqual(len(d.probes.rows), 7)
        sources.attach_probes(d)
        out = text.render(d, top=3)
        self.assertIn("still probing when the file was read: fe3b0000.pcie",
                      out)
        self.assertIn("Top 3 of 6 probes by duration (17.150 ms with a probe "
                      "running; 17.150 ms added up", out)
        self.assertIn("fe340000.mmc   [sdhci-iproc, async]", out)
        self.assertIn("deferred probe attempts (-EPROBE_DEFER): "
                      "fe340000.mmc 2", out)

    def test_probe_cost_said(self):
        # The module measures what its kretprobe adds to a probe (first read)
        # (summary's probe_cost_ns); the report says it, times the probes
        # the module recorded (issue 30: live mode says its own cost).
        out = text.render(parse.Dump(PROBES), top=3)
        self.assertNotIn("recording them cost", out)
        with tempfile.TemporaryDirectory() as root:
            d = os.path.join(root, "p")
            shutil.copytree(PROBES, d)
            path = os.path.join(d, "summary")
            with open(path, encoding="utf-8") as f:
                t = f.read()
            t = t.replace("# live_probes_dropped: 0\n",
                          "# live_probes_dropped: 0\n# probe_cost_ns: 2100\n")
            with open(path, "w", encoding="utf-8") as f:
                f.write(t)
            dump = parse.Dump(d)
            sources.attach_probes(dump)
            out = text.render(dump, top=3)
        self.assertIn("recording them cost at least about 2.1 us per probe "
                      "(the module's own figure, probe_cost_ns, measured "
                      "warm): 0.013 ms over these 6", out)

    def test_dmesg_formats(self):
        rows = sources.parse_dmesg(DMESG)
        self.assertEqual(rows, [
            (35180000, "9000000.pl011", 0, 4400000),
            (37130000, "fe340000.mmc", -517, 250000),    # dd.c prints +517
            (40000000, "3f00b880.mailbox", 0, 1234000),
            (45880000, "soc:firmware", 0, 120000),       # /dev/kmsg
            (66680000, "mmc0:0001", 0, 2500000)])        # caller id

    def test_dmesg_placed_and_merged(self):
        d = parse.Dump(PROBES)
        rows = sources.attach_probes(d, DMESG)
        # Three log probes are rows of the probes file already.
        self.assertEqual(len(rows), 8)
        extra = [r for r in rows if r["source"] == "dmesg"]
        # local_clock 40 ms = 44.12 ms since entry, minus 1.234 ms.
        self.assertEqual([(r["device"], r["start_ns"]) for r in extra],
                         [("3f00b880.mailbox", 42886000),
                          ("soc:firmware", 49880000)])

    def test_sync_needed(self):
        status, _, err = run([FULL, "--dmesg", DMESG])
        self.assertEqual(status, 2)
        self.assertIn("sync_counter", err)
        status, _, err = run([FULL, "--journal", JOURNAL])
        self.assertEqual(status, 2)
        self.assertIn("sync_monotonic_ns", err)

    def test_load_line_of_this_boot(self):
        scan = sources.scan_dmesg(DMESG)
        self.assertEqual(scan.loads,
                         [(1571836000, "0123456789abcdef", 117997250, 0)])
        self.assertEqual(scan.resets, [])
        d = parse.Dump(PROBES)
        sources.attach_probes(d, DMESG)
        self.assertEqual(d.input_notes, [])

    def run_with_log(self, load_id="0123456789abcdef", shift_ticks=0,
                     dump=PROBES, line=True, before=()):
        """bootreport DUMP --dmesg with the sample log, its load line
        changed (or left out), after the lines @before."""
        with open(DMESG, encoding="utf-8") as f:
            lines = list(before) + f.read().splitlines()[:-1]
        if line:
            lines.append("[    1.571836] bootstamp: full mode, CNTVCT_EL0 at "
                         "62500000 Hz, load %s at counter %d" %
                         (load_id, 117997250 + shift_ticks))
        with tempfile.TemporaryDirectory() as t:
            log = os.path.join(t, "dmesg.txt")
            with open(log, "w", encoding="utf-8") as f:
                f.write("\n".join(lines) + "\n")
            status, out, err = run([dump, "--dmesg", log])
        return status, out, err.replace(log, "LOG")

    def test_log_of_another_load_refused(self):
        status, _, err = self.run_with_log(load_id="f" * 16)
        self.assertEqual(status, 2)
        self.assertIn("LOG: not of the dump's boot: its module load id "
                      "ffffffffffffffff, the summary's load_id "
                      "0123456789abcdef", err)

    def test_clocks_apart_is_a_note(self):
        # 62 500 ticks = 1 ms at 62.5 MHz: the edge is quiet, past it a note.
        status, _, err = self.run_with_log(shift_ticks=-62500)
        self.assertEqual((status, err), (0, ""))
        status, out, err = self.run_with_log(shift_ticks=62501)
        self.assertEqual(status, 0)
        self.assertIn("bootreport: note: the module's load line and the "
                      "summary's sync keys put local_clock -1.000 ms apart",
                      err)
        self.assertIn("3f00b880.mailbox", out)

    def test_log_without_load_line_is_a_note(self):
        status, out, err = self.run_with_log(line=False)
        self.assertEqual(status, 0)
        self.assertIn("bootreport: note: LOG has no 'bootstamp: ... load ID "
                      "at counter N' line", err)
        self.assertIn("3f00b880.mailbox", out)

    def test_summary_without_load_id(self):
        with tempfile.TemporaryDirectory() as t:
            d = os.path.join(t, "dump")
            shutil.copytree(PROBES, d)
            with open(os.path.join(d, "summary"), encoding="utf-8") as f:
                text = f.read().replace("# load_id: 0123456789abcdef\n", "")
            with open(os.path.join(d, "summary"), "w", encoding="utf-8") as f:
                f.write(text)
            # A log without load lines: a note; with them: another module.
            status, _, err = self.run_with_log(dump=d, line=False)
            self.assertEqual(status, 0)
            self.assertIn("summary has no load_id (a module before it)", err)
            status, _, err = self.run_with_log(dump=d)
        self.assertEqual(status, 2)
        self.assertIn("its module prints load ids (0123456789abcdef) but the "
                      "summary has no load_id", err)

    def test_uppercase_load_id(self):
        status, _, err = self.run_with_log(load_id="0123456789ABCDEF")
        self.assertEqual((status, err), (0, ""))

    # A serial capture across a reboot: another boot's lines first.
    OTHER_BOOT = ["[    0.000000] Booting Linux on physical CPU 0x0",
                  "[    0.050000] probe of mmc0:9999 returned 0 after 900 usecs",
                  "[    2.000000] bootstamp: full mode, CNTVCT_EL0 at 62500000 "
                  "Hz, load aaaaaaaaaaaaaaaa at counter 125000000"]

    def test_several_boots_take_the_dumps(self):
        status, out, err = self.run_with_log(before=self.OTHER_BOOT)
        self.assertEqual(status, 0)
        self.assertIn("bootreport: note: LOG holds 2 boots (printk time starts "
                      "again at line 4): only the probes of the boot with the "
                      "dump's load id are used (1 of other boots left out)",
                      err)
        self.assertNotIn("mmc0:9999", out)
        self.assertIn("3f00b880.mailbox", out)

    def test_several_boots_none_the_dumps(self):
        status, _, err = self.run_with_log(before=self.OTHER_BOOT,
                                           load_id="b" * 16)
        self.assertEqual(status, 2)
        self.assertIn("not of the dump's boot: its module load id "
                      "aaaaaaaaaaaaaaaa, bbbbbbbbbbbbbbbb, the summary's", err)
        status, _, err = self.run_with_log(before=self.OTHER_BOOT[:2],
                                           line=False)
        self.assertEqual(status, 2)
        self.assertIn("LOG holds 2 boots (printk time starts again at line 3) "
                      "and no 'bootstamp: ... load ID' line", err)

    def test_out_of_order_records_are_one_boot(self):
        # A record stamped 5 ms before the one above it (a vCPU held up
        # between taking the time and storing the record), or a second
        # copy of the log appended: still one boot, every probe kept.
        late = ["[    0.030000] probe of late.dev returned 0 after 10 usecs"]
        with open(DMESG, encoding="utf-8") as f:
            lines = f.read().splitlines()
        text = "\n".join(lines[:5] + late + lines[5:]) + "\n"
        self.assertEqual(sources.scan_dmesg("x", text).resets, [])
        # Out of order across the second: not a restart either.
        cross = ["[    1.000300] a", "[    0.999800] b", "[    1.000900] c"]
        self.assertEqual(sources.scan_dmesg("x", "\n".join(cross)).resets,
                         [])
        d = parse.Dump(PROBES)
        once = sources.dmesg_probe_rows(d, "x", text)
        self.assertIn("late.dev", [r["device"] for r in once])
        self.assertEqual(d.input_notes, [])
        # The same boot's log twice (two dmesg runs appended): two boots
        # by the banner, both with the dump's load id, each probe once.
        twice = text + text
        self.assertEqual(sources.scan_dmesg("x", twice).resets, [12])
        d = parse.Dump(PROBES)
        rows = sources.dmesg_probe_rows(d, "x", twice)
        self.assertEqual(sorted(r["device"] for r in rows),
                         sorted(r["device"] for r in once))

    def test_not_a_log(self):
        status, _, err = run([PROBES, "--dmesg", os.path.join(PROBES,
                                                              "summary")])
        self.assertEqual(status, 2)
        self.assertIn("no timestamped kernel log line", err)


class Journal(unittest.TestCase):
    def test_events_placed(self):
        d = parse.Dump(PROBES)
        evs = sources.journal_events(d, JOURNAL)
        self.assertEqual([e["t_ns"] for e in evs],
                         [1418000000, 1468000000, 1518000000, 1558000000,
                          1568000000])
        self.assertEqual(evs[1]["message"],      # MESSAGE as a byte array
                         "Started ssh.service - OpenBSD Secure Shell server.")
        self.assertTrue(evs[-1]["message"].startswith("Startup finished"))

    def dump_with_boot_id(self, t, boot_id):
        d = os.path.join(t, "dump")
        shutil.copytree(PROBES, d)
        with open(os.path.join(d, "boot_id"), "w", encoding="utf-8") as f:
            f.write(boot_id + "\n")
        return d

    def test_boot_id_checked(self):
        with tempfile.TemporaryDirectory() as t:
            d = self.dump_with_boot_id(t, "01234567-89ab-cdef-0123-456789abcdef")
            status, _, err = run([d, "--journal", JOURNAL])
            self.assertEqual((status, err), (0, ""))
            other = self.dump_with_boot_id(os.path.join(t, "o"), "f" * 32)
            status, _, err = run([other, "--journal", JOURNAL])
        self.assertEqual(status, 2)
        self.assertIn("not of the dump's boot: it has entries of boot "
                      "0123456789abcdef0123456789abcdef, the dump is of boot "
                      "ffffffffffffffffffffffffffffffff", err)

    def test_two_boots_refused_without_boot_id(self):
        with open(JOURNAL, encoding="utf-8") as f:
            lines = f.read().splitlines()
        e = json.loads(lines[-1])
        e["_BOOT_ID"] = "e" * 32
        text = "\n".join(lines + [json.dumps(e)]) + "\n"
        with self.assertRaisesRegex(parse.InputError, "entries of 2 boots"):
            sources.journal_events(parse.Dump(PROBES), "j", text)

    def test_no_boot_id_file_is_a_note(self):
        status, _, err = run([PROBES, "--journal", JOURNAL])
        self.assertEqual(status, 0)
        self.assertIn("has no boot_id file (bootstamp-dump writes one)", err)

    def test_bad_boot_id_file(self):
        # Read for --journal only: stats over many boots is not stopped.
        with tempfile.TemporaryDirectory() as t:
            d = self.dump_with_boot_id(t, "not-a-boot")
            status, _, _ = run([d])
            self.assertEqual(status, 0)
            status, _, err = run([d, "--journal", JOURNAL])
        self.assertEqual(status, 2)
        self.assertIn("boot_id:1: not a boot id", err)

    def test_entries_without_boot_id_are_a_note(self):
        with open(JOURNAL, encoding="utf-8") as f:
            lines = f.read().splitlines()
        e = json.loads(lines[-1])
        del e["_BOOT_ID"]
        with tempfile.TemporaryDirectory() as t:
            d = self.dump_with_boot_id(t, "0123456789abcdef0123456789abcdef")
            j = os.path.join(t, "j.json")
            with open(j, "w", encoding="utf-8") as f:
                f.write("\n".join(lines[:-1] + [json.dumps(e)]) + "\n")
            status, _, err = run([d, "--journal", j])
        self.assertEqual(status, 0)
        self.assertIn("has entries without _BOOT_ID", err)

    def test_text_svg_json_csv(self):
        status, out, _ = run([PROBES, "--journal", JOURNAL])
        self.assertEqual(status, 0)
        self.assertIn("Journal (5 boot events, ms since kernel entry)", out)
        self.assertIn("  1558.000  Reached target multi-user.target", out)
        with tempfile.TemporaryDirectory() as t:
            s, j = os.path.join(t, "a.svg"), os.path.join(t, "a.json")
            status, _, _ = run([PROBES, "--journal", JOURNAL, "--svg-all",
                                "--svg", s, "--json", j])
            self.assertEqual(status, 0)
            with open(s, encoding="utf-8") as f:
                svg_text = f.read()
            ET.fromstring(svg_text)
            self.assertIn("Reached target multi-user.target", svg_text)
            with open(j, encoding="utf-8") as f:
                ev = [e for e in json.load(f)["traceEvents"]
                      if e.get("cat") == "journal"]
            self.assertEqual(ev[0]["ts"], 1418000.0)
        status, out, _ = run(["--csv", PROBES, "--journal", JOURNAL,
                              "--dmesg", DMESG])
        rows = csv_of(out)
        self.assertEqual(sum(r["kind"] == "journal" for r in rows), 5)
        self.assertEqual(sum(r["kind"] == "probe" for r in rows), 8)


class ReportCsv(unittest.TestCase):
    def test_rows(self):
        status, out, _ = run(["--csv", FULL])
        self.assertEqual(status, 0)
        rows = csv_of(out)
        self.assertEqual(list(rows[0]), analysis.REPORT_CSV_HEADER)
        ic = [r for r in rows if r["kind"] == "initcall"]
        self.assertEqual(len(ic), 8)
        mmc = [r for r in ic if r["name"] == "mmc_blk_init"][0]
        self.assertEqual((mmc["level"], mmc["start_ns"], mmc["duration_ns"]),
                         ("device", "39400000", "12250000"))
        ph = {r["name"]: r for r in rows if r["kind"] == "phase"}
        self.assertEqual(ph["cnt0-to-entry"]["start_ns"], "-312000000")
        self.assertEqual(ph["kernel"]["duration_ns"], "75300000")


if __name__ == "__main__":
    unittest.main()
