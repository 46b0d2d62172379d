# SPDX-License-Identifier: GPL-2.0
"""Unit tests of module/systemd/: bootstamp-dump against a fake debugfs
directory with stub dmesg and journalctl, and the unit files with
systemd-analyze verify (skipped where it is not installed)."""

import os
import re
import shutil
import subprocess
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SYSTEMD = os.path.dirname(HERE)
DUMP = os.path.join(SYSTEMD, "bootstamp-dump")
UNITS = ("bootstamp-mark.service", "bootstamp-dump.service", "bootstamp-loop.service")
FILES = {"summary": "# mode: full\n", "initcalls": "# level symbol\n",
         "cpus": "# cpu source\n", "trace.json": "[]\n",
         "bootgraph": "[    0.000000] calling  x+0x0/0x0 @ 1\n"}


class DumpTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="bootstamp-dump-test.")
        self.debugfs = os.path.join(self.tmp, "debugfs")
        self.logdir = os.path.join(self.tmp, "log")
        self.bin = os.path.join(self.tmp, "bin")
        os.makedirs(self.debugfs)
        os.makedirs(self.bin)
        for name, text in FILES.items():
            self.write(os.path.join(self.debugfs, name), text)
        # mode 0200 in debugfs: write-only, never copied
        self.write(os.path.join(self.debugfs, "mark"), "")
        os.chmod(os.path.join(self.debugfs, "mark"), 0o200)
        self.stub("dmesg", "echo '[    1.000000] probe of x returned 0 after 5 usecs'")
        self.stub("journalctl", 'echo "{\\"MESSAGE\\":\\"args $*\\"}"')

    def tearDown(self):
        shutil.rmtree(self.tmp)

    @staticmethod
    def write(path, text):
        with open(path, "w") as f:
            f.write(text)

    def stub(self, name, body):
        path = os.path.join(self.bin, name)
        self.write(path, "#!/bin/sh\n" + body + "\n")
        os.chmod(path, 0o755)

    def run_dump(self, boot_id="0123456789abcdef0123456789abcdef"):
        env = dict(os.environ, BOOTSTAMP_DEBUGFS=self.debugfs,
                   BOOTSTAMP_LOGDIR=self.logdir,
                   PATH=self.bin + os.pathsep + os.environ["PATH"])
        if boot_id is None:
            env.pop("BOOTSTAMP_BOOT_ID", None)
        else:
            env["BOOTSTAMP_BOOT_ID"] = boot_id
        return subprocess.run([DUMP], env=env, capture_output=True, text=True)

    def test_copies_module_files_dmesg_and_journal(self):
        r = self.run_dump()
        self.assertEqual(r.returncode, 0, r.stderr)
        d = os.path.join(self.logdir, "0123456789abcdef0123456789abcdef")
        self.assertEqual(sorted(os.listdir(self.logdir)), [os.path.basename(d)],
                         "one directory per boot, no temporary left")
        want = sorted(list(FILES) + ["dmesg.txt", "journal.json", "cmdline",
                                     "kernelrelease", "boot_id"])
        self.assertEqual(sorted(os.listdir(d)), want)
        for name, text in FILES.items():
            with open(os.path.join(d, name)) as f:
                self.assertEqual(f.read(), text, name)
        with open(os.path.join(d, "journal.json")) as f:
            self.assertIn("args -b -o json", f.read())
        with open(os.path.join(d, "dmesg.txt")) as f:
            self.assertIn("probe of x returned 0", f.read())
        # The real boot's id, whatever the directory is named: bootreport
        # --journal checks the journal's _BOOT_ID against it.
        with open("/proc/sys/kernel/random/boot_id") as f:
            this_boot = f.read().strip().replace("-", "")
        with open(os.path.join(d, "boot_id")) as f:
            self.assertEqual(f.read(), this_boot + "\n")

    def test_default_boot_id_is_this_boots_without_dashes(self):
        r = self.run_dump(boot_id=None)
        self.assertEqual(r.returncode, 0, r.stderr)
        with open("/proc/sys/kernel/random/boot_id") as f:
            want = f.read().strip().replace("-", "")
        self.assertEqual(os.listdir(self.logdir), [want])
        self.assertRegex(want, r"^[0-9a-f]{32}$")

    def test_missing_debugfs_directory_fails(self):
        shutil.rmtree(self.debugfs)
        r = self.run_dump()
        self.assertEqual(r.returncode, 1)
        self.assertIn("no such directory", r.stderr)
        self.assertFalse(os.path.exists(self.logdir) and os.listdir(self.logdir))

    def test_empty_debugfs_directory_fails_and_leaves_nothing(self):
        for name in os.listdir(self.debugfs):
            os.remove(os.path.join(self.debugfs, name))
        r = self.run_dump()
        self.assertEqual(r.returncode, 1)
        self.assertIn("no file to copy", r.stderr)
        self.assertEqual(os.listdir(self.logdir), [])

    def test_failing_journalctl_is_a_warning(self):
        self.stub("journalctl", "exit 1")
        r = self.run_dump()
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("warning: journalctl", r.stderr)
        d = os.path.join(self.logdir, "0123456789abcdef0123456789abcdef")
        self.assertNotIn("journal.json", os.listdir(d))
        self.assertIn("summary", os.listdir(d))

    def test_second_run_replaces_the_boot_directory(self):
        self.assertEqual(self.run_dump().returncode, 0)
        d = os.path.join(self.logdir, "0123456789abcdef0123456789abcdef")
        self.write(os.path.join(d, "stale"), "x")
        self.write(os.path.join(self.debugfs, "summary"), "# mode: live-only\n")
        self.assertEqual(self.run_dump().returncode, 0)
        self.assertNotIn("stale", os.listdir(d))
        with open(os.path.join(d, "summary")) as f:
            self.assertEqual(f.read(), "# mode: live-only\n")
        self.assertEqual(os.listdir(self.logdir), [os.path.basename(d)])

    def test_bad_boot_id_is_refused(self):
        r = self.run_dump(boot_id="../x")
        self.assertEqual(r.returncode, 1)
        self.assertIn("not a boot id", r.stderr)


class UnitFilesTest(unittest.TestCase):
    def unit(self, name):
        with open(os.path.join(SYSTEMD, name)) as f:
            return f.read()

    def test_mark_unit_writes_userspace_ready_to_the_checked_file(self):
        text = self.unit("bootstamp-mark.service")
        cond = re.search(r"^ConditionPathExists=(\S+)$", text, re.M).group(1)
        self.assertIn("> " + cond + "'", text)
        self.assertIn("Environment=BOOTSTAMP_MARK=userspace-ready", text)
        self.assertIn("Type=oneshot", text)
        # The command as systemd runs it ($$ -> $), into a file of ours.
        cmd = re.search(r"^ExecStart=/bin/sh -c '(.*)'$", text, re.M).group(1).replace("$$", "$")
        with tempfile.TemporaryDirectory() as tmp:
            mark = os.path.join(tmp, "mark")
            env = dict(os.environ, BOOTSTAMP_MARK="userspace-ready")
            subprocess.run(["/bin/sh", "-c", cmd.replace(cond, mark)], env=env, check=True)
            with open(mark) as f:
                self.assertEqual(f.read(), "userspace-ready\n")

    def test_dump_unit_runs_the_installed_script_after_the_mark(self):
        text = self.unit("bootstamp-dump.service")
        self.assertRegex(text, r"(?m)^ExecStart=/bin/sh -c 'systemctl is-system-running --wait .*; "
                         r"exec /usr/local/sbin/bootstamp-dump'$")
        self.assertIn("Type=exec", text)
        self.assertRegex(text, r"(?m)^After=.*\bbootstamp-mark\.service\b")

    def test_loop_unit_counts_down_then_removes_the_file(self):
        # Run the loop's shell command as systemd would pass it ($$ -> $),
        # with the counter file moved and systemctl stubbed.
        text = self.unit("bootstamp-loop.service")
        cmd = re.search(r"^ExecStart=/bin/sh -c '(.*)'$", text, re.M).group(1).replace("$$", "$")
        with tempfile.TemporaryDirectory() as tmp:
            counter = os.path.join(tmp, "loop")
            log = os.path.join(tmp, "log")
            stub = os.path.join(tmp, "systemctl")
            with open(stub, "w") as f:
                f.write(f"#!/bin/sh\necho \"$*\" >> {log}\n")
            os.chmod(stub, 0o755)
            cmd = cmd.replace("/var/lib/bootstamp-loop", counter)
            env = dict(os.environ, PATH=tmp + os.pathsep + os.environ["PATH"],
                       BOOTSTAMP_LOOP_DELAY="0")
            with open(counter, "w") as f:
                f.write("2\n")
            for want in ("1", "0"):
                subprocess.run(["/bin/sh", "-c", cmd], env=env, check=True)
                with open(counter) as f:
                    self.assertEqual(f.read().strip(), want)
            subprocess.run(["/bin/sh", "-c", cmd], env=env, check=True)
            self.assertFalse(os.path.exists(counter))
            with open(log) as f:
                calls = f.read().split("\n")[:-1]
            self.assertEqual([c for c in calls if "reboot" in c], ["--no-block reboot"] * 2)
            self.assertIn("is-system-running --wait", calls)
        self.assertIn("ConditionPathExists=/var/lib/bootstamp-loop", text)
        self.assertRegex(text, r"(?m)^After=.*\bbootstamp-dump\.service\b")

    @unittest.skipUnless(shutil.which("systemd-analyze"), "systemd-analyze is not installed")
    def test_systemd_analyze_verify(self):
        with tempfile.TemporaryDirectory() as tmp:
            for name in UNITS:
                text = self.unit(name).replace("/usr/local/sbin/bootstamp-dump", DUMP)
                with open(os.path.join(tmp, name), "w") as f:
                    f.write(text)
            r = subprocess.run(["systemd-analyze", "verify"] +
                               [os.path.join(tmp, n) for n in sorted(os.listdir(tmp))],
                               capture_output=True, text=True)
            self.assertEqual((r.returncode, r.stdout + r.stderr), (0, ""))

    @unittest.skipUnless(shutil.which("shellcheck"), "shellcheck is not installed")
    def test_shellcheck(self):
        scripts = [DUMP] + [os.path.join(d, f) for d, _, fs in
                            os.walk(os.path.join(os.path.dirname(SYSTEMD), "initramfs-tools"))
                            for f in fs]
        r = subprocess.run(["shellcheck", "-s", "sh"] + scripts, capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stdout)


if __name__ == "__main__":
    unittest.main()
