# SPDX-License-Identifier: GPL-2.0
"""Unit tests of scripts/bench/console_metrics.py: the end-to-end numbers of
one console benchmark boot, from its console.log, results.log, cmdline and
saved kernel log."""

import os
import subprocess
import sys
import tempfile
import unittest

METRICS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "bench",
                       "console_metrics.py")
FREQ = 62500000     # QEMU virt's counter: 16 ns a tick
IDLE = "bst-init: work done, console idle once this is sent\\x1d"
KMSG = [
    "6,0,0,-;Booting Linux on physical CPU 0x0",
    "6,1,1500,-;console [ttyAMA0] enabled",
    "7,2,2000,-;initcall foo_init+0x0/0x10 returned 0 after 12 usecs",
    "6,3,3000,-;Run /init as init process",
    "5,4,3500,-;bst-init: started",
    "3,5,4000,-;a two-line record\\x0asecond line",
    "6,6,4100,-;never printed",
    "0,7,5000,-;" + IDLE,
    "6,8,6000,-;bst-init: powering off",
]
CONSOLE = ("[    0.000000] Booting Linux on physical CPU 0x0\r\n"
           "[    0.001500] console [ttyAMA0] enabled\r\n"
           "[    0.002000] initcall foo_init+0x0/0x10 returned 0 after 12 usecs\r\n"
           "[    0.003000] Run /init as init process\r\n"
           "bst-init: the first line of userspace on the UART\x1f\r\n"
           "[    0.003500] bst-init: started\r\n"
           "** 2 printk messages dropped **\r\n"
           "[    0.004000] a two-line record\r\n"
           "[    0.004000] second line\r\n"
           "[    0.005000] bst-init: work done, console idle once this is sent\x1d\r\n")
RESULTS = ("# bst-init started counter=6250000 freq=62500000\n"
           "# bst-bench first-line counter=6300000\n"
           "# bst-bench milestone counter=125000000 cpus=4 work=400\n"
           "# bst-bench uart freq=62500000 baud=115200 chars=23040 first=625000 "
           "empty_at=200000000 mark1c=0 mark1d=187500000 mark1e=0 mark1f=12500000 lock_chars_max=70 "
           "con_lock_max=437500 con_lock_max_at=150000000 port_lock_max=625000 "
           "port_lock_max_at=130000000\n"
           "# bst-done\n")


class ConsoleMetricsTest(unittest.TestCase):
    def metrics(self, cmdline="console=ttyAMA0 ignore_loglevel", kmsg=KMSG, console=CONSOLE,
                results=RESULTS):
        with tempfile.TemporaryDirectory() as d:
            os.mkdir(os.path.join(d, "dump"))
            files = {"cmdline": cmdline + "\n", "dump/kmsg": "\n".join(kmsg) + "\n",
                     "results.log": results}
            for name, text in files.items():
                with open(os.path.join(d, name), "w", encoding="utf-8") as f:
                    f.write(text)
            with open(os.path.join(d, "console.log"), "wb") as f:
                f.write(console.encode("latin-1"))
            header = subprocess.run([sys.executable, METRICS, "--header"], check=True,
                                    capture_output=True, text=True).stdout
            out = subprocess.run([sys.executable, METRICS, d], check=True,
                                 capture_output=True, text=True).stdout
        return dict(zip(header.rstrip("\n").split("\t"), out.rstrip("\n").split("\t")))

    def test_times_from_the_model_and_init(self):
        m = self.metrics()
        self.assertEqual(m["first_line_ms"], "200.000")     # mark1f / freq
        self.assertEqual(m["milestone_ms"], "2000.000")
        self.assertEqual(m["idle_ms"], "3000.000")           # mark1d, not empty_at
        self.assertEqual(m["irqoff_us"], "10000.0")         # the longer of the two holds
        self.assertEqual(m["console_irqoff_us"], "7000.0")
        self.assertEqual(m["irqoff_chars"], "70")
        # 23040 characters of 10 bits at 115200 baud: 2 s of the 2.99 s
        # from the first character (10 ms) to idle (3000 ms).
        self.assertEqual(m["line_use_pct"], "66.9")
        self.assertEqual(m["drain_cps"], "7706")

    def test_kernel_log_fields(self):
        m = self.metrics()
        self.assertEqual((m["console_ok"], m["run_init_ms"], m["tail_ms"]), ("1", "3.000", "1.000"))
        self.assertEqual(m["console_bytes"], str(len(CONSOLE)))

    def test_lost_counts_records_missing_before_the_idle_record(self):
        # "never printed" is missing; the record after the idle one
        # ("powering off") is not due yet; the two-line record is matched
        # by its first line; a dropped notice alone adds nothing (the
        # series' cut pieces repeat the same drops in the next notice).
        self.assertEqual(self.metrics()["lost"], "1")

    def test_lost_only_counts_records_the_loglevel_prints(self):
        # loglevel=4: "never printed" (6) was not due.
        self.assertEqual(self.metrics("console=ttyAMA0 loglevel=4")["lost"], "0")
        self.assertEqual(self.metrics("console=ttyAMA0,115200 console=tty1 quiet")["lost"], "0")
        # A later word overrides an earlier one, as the kernel parses them.
        self.assertEqual(self.metrics("quiet loglevel=7")["lost"], "1")

    def test_record_cut_by_tty_output_still_counts_as_sent(self):
        console = CONSOLE.replace("[    0.004000] a two-line record\r\n",
                                  "[    0.004000] a two-bst-init: work  1 of 10\r\nline record\r\n")
        self.assertEqual(self.metrics(console=console)["lost"], "1")

    def test_record_cut_by_a_dropped_notice_is_lost(self):
        console = CONSOLE.replace("[    0.004000] a two-line record\r\n",
                                  "[    0.004000] a two-l** 3 printk messages dropped **\r\n")
        self.assertEqual(self.metrics(console=console)["lost"], "2")

    def test_overwritten_records_with_one_stamp_count_each(self):
        # Two records logged in the same microsecond print two lines with
        # one stamp: both reached the line.
        kmsg = ["6,2,1500,-;third"] + KMSG[3:]
        console = CONSOLE.replace("[    0.001500] console [ttyAMA0] enabled\r\n",
                                  "[    0.001000] first\r\n[    0.001000] second\r\n")
        console = console.replace("[    0.000000] Booting Linux on physical CPU 0x0\r\n", "")
        console = console.replace("[    0.002000] initcall", "[    0.001500] third\r\n[    0.002000] initcall")
        self.assertEqual(self.metrics(kmsg=kmsg, console=console)["lost"], "1")

    def test_console_enabled_seen_on_the_line_when_overwritten_in_the_ring(self):
        kmsg = [r for r in KMSG if "enabled" not in r]
        self.assertEqual(self.metrics(kmsg=kmsg)["console_ok"], "1")
        console = CONSOLE.replace("console [ttyAMA0] enabled", "console [tty1] enabled")
        self.assertEqual(self.metrics(kmsg=kmsg, console=console)["console_ok"], "0")

    def test_records_overwritten_before_the_log_was_saved(self):
        # The saved log starts at seq 3: of seqs 0-2 the console stamped
        # two record lines before the first saved record (one of them
        # with a second line), one is lost; a line cut by a notice does
        # not count as sent.
        kmsg = KMSG[3:]
        console = CONSOLE.replace("[    0.001500] console [ttyAMA0] enabled\r\n",
                                  "[    0.001500] console [tty** 1 printk messages dropped **\r\n")
        self.assertEqual(self.metrics(kmsg=kmsg, console=console)["lost"], "2")
        # With a loglevel the overwritten records' levels are unknown.
        self.assertEqual(self.metrics("quiet", kmsg=kmsg, console=console)["lost"], "-")

    def test_without_the_bench_work_the_times_are_absent(self):
        results = "".join(line + "\n" for line in RESULTS.splitlines() if "bst-bench" not in line)
        kmsg = [r for r in KMSG if "work done" not in r]
        m = self.metrics(kmsg=kmsg, results=results)
        for k in ("first_line_ms", "milestone_ms", "idle_ms", "irqoff_us", "irqoff_chars", "lost",
                  "line_use_pct"):
            self.assertEqual(m[k], "-", k)

    def test_unsent_markers_are_absent_not_zero(self):
        m = self.metrics(results=RESULTS.replace("mark1f=12500000", "mark1f=0"))
        self.assertEqual(m["first_line_ms"], "-")


if __name__ == "__main__":
    unittest.main()
