# SPDX-License-Identifier: GPL-2.0
"""Unit tests of scripts/bench/uhs_metrics.py: one SD UHS-I benchmark boot's
numbers from its logs, and the bring-up and runtime tables of make
bench-uhs (later boots against the quirk on the same kernel)."""

import os
import subprocess
import sys
import tempfile
import unittest

METRICS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "bench",
                       "uhs_metrics.py")
PROBE = "[    1.000000] mmc0: SDHCI controller on PCI [0000:00:01.0] using ADMA\r\n"
READY_HS = "[    1.056900] mmc0: new high speed SD card at address 4567\r\n"
READY_SDR50 = "[    1.081000] mmc0: new UHS-I speed SDR50 SD card at address 4567\r\n"


def run(*args):
    return subprocess.run([sys.executable, METRICS, *args], capture_output=True, text=True)


class Boot(unittest.TestCase):
    def boot(self, console, results):
        d = tempfile.mkdtemp()
        with open(os.path.join(d, "console.log"), "w", encoding="utf-8") as f:
            f.write(console)
        with open(os.path.join(d, "results.log"), "w", encoding="utf-8") as f:
            f.write(results)
        return d

    def test_series_boot_has_its_costs(self):
        d = self.boot(PROBE + READY_SDR50,
                      "# uhs_cost: failures=2 cmd11=3 cmd6=3 acmd41=3\n")
        r = run(d)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(r.stdout.split(), ["81.0", "SDR50", "2", "3", "3", "3"])

    def test_unpatched_boot_has_the_model_cmd11_count_only(self):
        d = self.boot(PROBE + READY_HS,
                      "# symptom: card=HS after=0.0s init_errors=0 cmd11=1 fault=cmd11 fired=1 "
                      "read=ok read_secs=0.002 boot_io_errors=0\n")
        self.assertEqual(run(d).stdout.split(), ["56.9", "HS", "-", "1", "-", "-"])

    def test_no_card_is_absent_not_an_error(self):
        d = self.boot(PROBE, "# symptom: card=absent after=30.0s init_errors=4 cmd11=4 "
                             "fault=dead18 fired=4 read=none read_secs=0.000 boot_io_errors=0\n")
        r = run(d)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(r.stdout.split()[:2], ["-", "absent"])

    def test_no_probe_or_no_guest_result_is_an_error(self):
        self.assertNotEqual(run(self.boot(READY_HS, "# uhs_cost: failures=0\n")).returncode, 0)
        r = run(self.boot(PROBE + READY_HS, "ok 1 nothing\n"))
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("which guest test ran", r.stderr)

    def test_runtime_line(self):
        d = self.boot(PROBE + READY_SDR50,
                      "# symptom: fault=irq:sdr50:always mode_before=SDR50 mode_after=SDR25 "
                      "reads=1 failed=0 total=30.6s shortest=30.6s hung=0 fired=3 "
                      "sdhci_timeouts=3 stepdowns=1 boot_io_errors=0\n")
        r = run("--runtime", d)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(r.stdout.split("\t"), ["1", "0", "30.6", "SDR50", "SDR25", "0", "3\n"])
        r = run("--runtime", self.boot(PROBE, "# symptom: card=HS\n"))
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("no reads", r.stderr)


class Tables(unittest.TestCase):
    def tsv(self, text):
        fd, path = tempfile.mkstemp(suffix=".tsv")
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        return path

    COSTS = ("config\trun\tms\tmode\tfailures\tcmd11\tcmd6\tacmd41\n"
             "dead18/unpatched\t1\t-\tabsent\t-\t4\t-\t-\n"
             "dead18/quirk\t1\t54.3\tHS\t-\t0\t-\t-\n"
             "dead18/squirk\t1\t56.0\tHS\t0\t0\t1\t1\n"
             "dead18/squirk\t2\t58.0\tHS\t0\t0\t1\t1\n"
             "dead18/first\t1\t161.0\tHS\t1\t1\t1\t2\n"
             "dead18/later\t1\t57.0\tHS\t0\t0\t1\t1\n"
             "dead18/later\t2\t59.0\tHS\t0\t0\t1\t1\n"
             "none/squirk\t1\t57.0\tHS\t0\t0\t1\t1\n"
             "none/later\t1\t81.0\tSDR50\t0\t1\t1\t1\n")

    def row(self, out, fault):
        return next(l for l in out.splitlines() if l.startswith(f"| {fault} |"))

    def test_later_against_the_quirk_on_the_same_kernel(self):
        r = run("--bringup", self.tsv(self.COSTS))
        self.assertEqual(r.returncode, 0, r.stderr)
        row = self.row(r.stdout, "dead18")
        self.assertIn("no card (1/1 boots)", row)
        self.assertIn("58.0 (57.0-59.0) ms HS", row)
        # 58.0 / 57.0: within 5 %.
        self.assertTrue(row.endswith("| 1.018 | yes |"), row)

    def test_later_beyond_five_percent_is_no(self):
        row = self.row(run("--bringup", self.tsv(self.COSTS)).stdout, "none")
        self.assertTrue(row.endswith("| 1.421 | no (SDR50 against HS) |"), row)
        # The kinds not measured are "-", not a made-up number.
        self.assertIn("| - |", row)

    def test_runtime_table(self):
        path = self.tsv("config\trun\treads\tfailed\tseconds\tmode_before\tmode_after\t"
                        "boot_io_errors\tfired\n"
                        "runtime-crc/unpatched\t1\t16\t16\t0.3\tSDR50\tSDR50\t10\t48\n"
                        "runtime-crc/series\t1\t16\t0\t0.3\tSDR50\tSDR25\t0\t3\n")
        out = run("--runtime-table", path).stdout
        self.assertIn("| crc | unpatched | 16 of 16 | 0.3 | SDR50 → SDR50 | 10 |", out)
        self.assertIn("| crc | series | 0 of 16 | 0.3 | SDR50 → SDR25 | 0 |", out)


if __name__ == "__main__":
    unittest.main()
