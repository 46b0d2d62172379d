# SPDX-License-Identifier: GPL-2.0
"""bootreport/host-check on a hand-made boot of the bst_attr probe (the
report's sample dump with a sched trace, a probes file and the probe's own
account added): it passes with the real bootreport and the right trace,
and fails when the trace lacks the stacks, when the probe did not defer,
and when bootreport itself attributes wrongly (a copy of it with one
mistake, named by BOOTREPORT)."""
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.join(HERE, '..', '..', '..')
HOST_CHECK = os.path.join(HERE, '..', 'host-check')
REPORT = os.path.join(TOP, 'scripts', 'report')
SAMPLE = os.path.join(REPORT, 'tests', 'samples', 'full-probes')
sys.path.insert(0, os.path.join(REPORT, 'tests'))

from test_sched import stack, switch, trace_text, wakeup  # noqa: E402

PID = 100
SCHED = ['trace_event_raw_event_sched_switch', '__schedule', 'schedule']
MSLEEP = SCHED + ['schedule_timeout', 'msleep', 'bst_attr_sleep [bst_attr]',
                  'bst_attr_probe [bst_attr]', 'platform_probe']
WAIT = SCHED + ['schedule_timeout', '__wait_for_common', 'wait_for_completion',
                'bst_attr_wait [bst_attr]', 'bst_attr_probe [bst_attr]']
# The retry from 10 to 112 ms: asleep 10.2-60 (woken at 60, runs at 61),
# spinning 61-81, waiting 81.2-111 (woken at 111, runs at 111.5).
TRACE = [switch(1, 0, 0, 'R', 200, 'swapper/1'),
         switch(0, 10.2, PID, 'D', 0), stack(0, 10.21, MSLEEP),
         wakeup(1, 60, PID), switch(0, 61, 0, 'R', PID, 'swapper/0'),
         switch(0, 81.2, PID, 'D', 0), stack(0, 81.21, WAIT),
         wakeup(1, 111, PID), switch(0, 111.5, 0, 'R', PID, 'swapper/0'),
         switch(1, 1000, 200, 'S', 0, 'bar')]
ACCOUNT = ('bst-attr bst-attr: try 2: pid 100 sleep_us 51000 sleep_cpu_us 200 '
           'spin_us 20000 wait_us 30000 woken_us 500 woken_cpu_us 200 cpu_us 20900\n')
PROBES = ('# time_base: kernel_entry\n# probes: on\n'
          '# device driver bus start_ns duration_ns ret async cpu pid\n'
          'bst-attr bst-attr platform 5000000 700000 -517 no 0 40\n'
          'bst-attr-kick bst-attr-kick platform 6000000 300000 0 no 0 40\n'
          'bst-attr bst-attr platform 10000000 102000000 0 no 0 100\n')


def write(path, text):
    with open(path, 'w') as f:
        f.write(text)


def host_check(tmp, trace=None, probes=PROBES, bootreport=None, account=ACCOUNT):
    """Run host-check on a boot directory made in @tmp; (exit, output)."""
    boot = os.path.join(tmp, 'boot')
    dump = os.path.join(boot, 'dump')
    shutil.copytree(SAMPLE, dump)
    write(os.path.join(dump, 'sched.trace'), trace_text(trace or TRACE))
    write(os.path.join(dump, 'trace_clock'), 'local global [arm64-counter]\n')
    write(os.path.join(dump, 'bst_attr.log'), account)
    write(os.path.join(dump, 'probes'), probes)
    # The module's initcall, before its probes (bst_attr_init loads first).
    with open(os.path.join(dump, 'initcalls'), 'a') as f:
        f.write('module bst_attr_init bst_attr 4000000 800000 0 0 40\n')
    env = dict(os.environ)
    env.pop('BOOTREPORT', None)
    if bootreport:
        env['BOOTREPORT'] = bootreport
    p = subprocess.run([sys.executable, HOST_CHECK, boot], capture_output=True, text=True,
                       env=env, timeout=120)
    return p.returncode, p.stdout


def passed(out, needle):
    """Whether the result whose description holds @needle is ok (one
    must)."""
    found = [not line.startswith('not ok') for line in out.splitlines()
             if line.startswith(('ok ', 'not ok ')) and needle in line]
    assert len(found) == 1, (needle, out)
    return found[0]


def broken_bootreport(tmp, old, new):
    """A copy of scripts/report whose sched.py has @old replaced by @new."""
    copy = os.path.join(tmp, 'report')
    shutil.copytree(REPORT, copy, ignore=shutil.ignore_patterns('tests', '__pycache__'))
    path = os.path.join(copy, 'bootreport_lib', 'sched.py')
    with open(path) as f:
        text = f.read()
    assert old in text, old
    write(path, text.replace(old, new))
    return os.path.join(copy, 'bootreport')


class HostCheck(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix='bootreport-host-check-')

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def test_right_split_passes(self):
        rc, out = host_check(self.tmp)
        self.assertEqual(rc, 0, out)
        self.assertIn('1..12', out)
        self.assertIn('on-CPU 20.9 + runnable 1.5 + blocked 79.6', out)

    def test_more_cpu_time_than_time_to_run_again(self):
        # The driver's CPU count from the spin's end exceeds the wall time
        # from the completion (a loaded host): the wait for a CPU is then
        # none, and the report's runnable time still holds the sleep's.
        account = ACCOUNT.replace('woken_cpu_us 200', 'woken_cpu_us 5000')
        rc, out = host_check(self.tmp, account=account)
        self.assertEqual(rc, 0, out)

    def test_frames_without_modules(self):
        """Without the trace option sym-offset the kernel prints a frame's
        name only, as the bootstamp-attr boot does: the sites read
        "msleep in bst_attr_sleep", and pass as well."""
        trace = [line.replace(' [bst_attr]', '') for line in TRACE]
        self.assertNotEqual(trace, TRACE)
        rc, out = host_check(self.tmp, trace=trace)
        self.assertEqual(rc, 0, out)
        self.assertIn('(msleep in bst_attr_sleep 49.8;', out)

    def test_no_stacks_no_sites(self):
        """Without the stacktrace trigger the sites cannot be named."""
        trace = [line for line in TRACE if '<stack trace>' not in line]
        rc, out = host_check(self.tmp, trace=trace)
        self.assertEqual(rc, 1, out)
        self.assertFalse(passed(out, 'blocked in "msleep'), out)
        self.assertFalse(passed(out, 'blocked in "wait_for_completion'), out)
        self.assertTrue(passed(out, 'ms within 10 % of the scheduler'), out)

    def test_no_deferral(self):
        probes = ''.join(line + '\n' for line in PROBES.splitlines() if '-517' not in line)
        rc, out = host_check(self.tmp, probes=probes)
        self.assertEqual(rc, 1, out)
        self.assertFalse(passed(out, 'the deferral: 2 tries'), out)
        self.assertTrue(passed(out, 'blocked in "msleep'), out)

    def test_site_named_by_the_innermost_frame(self):
        """A bootreport that names the first frame past the tracing
        ("schedule in schedule_timeout") names no site the judge wants."""
        br = broken_bootreport(self.tmp, '            prim = base\n',
                               '            return name\n')
        rc, out = host_check(self.tmp, bootreport=br)
        self.assertEqual(rc, 1, out)
        self.assertFalse(passed(out, 'blocked in "msleep'), out)
        self.assertFalse(passed(out, 'blocked in "wait_for_completion'), out)

    def test_switch_in_missed(self):
        """A bootreport that misses the switch back in would count the spin
        as runnable; it then meets a switch-out while the task is off the
        CPU and does not split the probe (review A2), which fails too."""
        br = broken_bootreport(self.tmp, 'elif ev.kind == "switch" and ev.next == pid:',
                               'elif False:')
        rc, out = host_check(self.tmp, bootreport=br)
        self.assertEqual(rc, 1, out)
        self.assertFalse(passed(out, "bootreport splits bst-attr's probe"), out)

    def test_preempted_counted_as_blocked(self):
        """A bootreport that takes a preempted task (prev_state R+) for a
        sleeping one: a 1 ms preemption in the spin becomes blocked time,
        too little for this judge's 10 % to see; the unit tests of the
        split (test_sched: test_preempted_is_runnable) catch it."""
        trace = TRACE[:5] + [switch(0, 70, PID, 'R+', 200), switch(0, 71, 200, 'S', PID)] + \
            TRACE[5:]
        br = broken_bootreport(self.tmp, 'if ev.state.startswith("R"):', 'if False:')
        rc, out = host_check(self.tmp, trace=trace, bootreport=br)
        self.assertIn('runnable 1.5, blocked 80.6', out)
        self.assertEqual(rc, 0, out)


    def test_sleep_moved_into_runnable(self):
        """A split that moves 10 ms of the 51 ms sleep into runnable (the
        sleep's wakeup traced at 50 ms, not 60, against the driver's own
        account): the site still holds 90 % of the sleep less all the
        runnable time, so the judge must bound the runnable part too
        (review C4)."""
        trace = [line.replace('%12d: sched_wakeup' % (19500000 + 60 * 62500),
                              '%12d: sched_wakeup' % (19500000 + 50 * 62500))
                 for line in TRACE]
        self.assertNotEqual(trace, TRACE)
        rc, out = host_check(self.tmp, trace=trace)
        self.assertIn('runnable 11.5, blocked 69.6', out)
        self.assertEqual(rc, 1, out)
        self.assertFalse(passed(out, 'blocked in "msleep'), out)
        self.assertFalse(passed(out, 'from the completion to the probe running again'), out)

    def test_wakeup_ignored(self):
        """A bootreport that keeps a task blocked until it runs again
        charges the wakeup latency to the site: the runnable time from the
        completion to the probe running again is gone."""
        br = broken_bootreport(self.tmp, 'ev.pid == pid and state == "blocked"', 'False')
        rc, out = host_check(self.tmp, bootreport=br)
        self.assertEqual(rc, 1, out)
        self.assertIn('runnable 0.0', out)
        self.assertFalse(passed(out, 'from the completion to the probe running again'), out)

if __name__ == '__main__':
    unittest.main()
