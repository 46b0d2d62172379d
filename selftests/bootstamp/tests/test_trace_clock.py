# SPDX-License-Identifier: GPL-2.0
"""The guest's trace_clock_matches_log, built for the host with
-DBST_ROOT=<a scratch directory> (bootstamp_test.h) and run on a made-up
boot_stamps and trace there: each recorder bug it is to catch fails a case,
a good boot passes. Needs KSRC (selftests/lib/guestprog.py).
Run: python3 -m unittest discover -s selftests/bootstamp/tests
"""
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'lib'))
from guestprog import KSRC, build, results  # noqa: E402

SRC = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..')

CMDLINE = ('console=ttyAMA0 panic=-1 bst.run=bootstamp/trace_clock_matches_log '
           'bst.insmod=bootstamp.ko trace_clock=arm64-counter '
           'trace_event=initcall:initcall_start,initcall:initcall_finish%s')
CPUHP = ',cpuhp:cpuhp_enter,cpuhp:cpuhp_exit'
# Ticks of the sample boot (62.5 MHz), as on a real one: probe hops of 30
# and 25 ticks; three initcalls in four longer than the test's 2000 ticks.
HOP_START, HOP_END = 30, 25
LONG, SHORT = 20000, 400


class Boot:
    """A boot's initcalls and secondary CPUs: the trace events and the
    recorder's stamps, which the tests then break."""

    def __init__(self, ninit=120, cpus=3):
        self.initcalls = []     # [ev_start, a, b, ev_finish, sym]
        self.cpus = []          # {cpu, events, stamps}
        self.other = []         # events not paired with a stamp
        self.drop = []          # leave out the events that contain one of these
        t = 1000000
        for i in range(ninit):
            if i == 20:         # smp_init: the secondaries come up
                for c in range(1, cpus + 1):
                    t = self.add_cpu(c, t) + 500
            dur = LONG if i % 4 else SHORT
            a = t + HOP_START
            b = a + dur
            self.initcalls.append([t, a, b, b + HOP_END, 'init_fn_%03d' % i])
            t = b + HOP_END + 300

    def add_cpu(self, c, t):
        ev = dict(req=t, first=t + 6000, act=t + 9000, fin=t + 12000)
        # cpuhp: the recorder's probe runs just before the trace event's.
        st = dict(requested=ev['req'] - 20, entry=t + 5000, start_kernel=t + 5400,
                  online=t + 5800, active=ev['act'] - 20, finished=ev['fin'] - 20)
        self.cpus.append(dict(cpu=c, ev=ev, st=st))
        return ev['fin'] + 100

    def trace(self):
        lines = []
        for ts, _, _, tf, sym in self.initcalls:
            lines.append((ts, 0, 'initcall_start: func=%s+0x0/0x24' % sym))
            lines.append((tf, 0, 'initcall_finish: func=%s+0x0/0x24 ret=0' % sym))
        for c in self.cpus:
            n, ev = c['cpu'], c['ev']
            lines += [
                (ev['req'], 0, 'cpuhp_enter: cpu: %04d target: 235 step:  94 (bringup_cpu)' % n),
                (ev['first'], n, 'cpuhp_enter: cpu: %04d target: 235 step: 140 (smpboot_unpark_threads)' % n),
                (ev['first'] + 100, n, 'cpuhp_exit:  cpu: %04d  state: 140 step: 140 ret: 0' % n),
                (ev['act'] - 500, n, 'cpuhp_enter: cpu: %04d target: 235 step: 235 (sched_cpu_activate)' % n),
                (ev['act'], n, 'cpuhp_exit:  cpu: %04d  state: 235 step: 235 ret: 0' % n),
                (ev['fin'], 0, 'cpuhp_exit:  cpu: %04d  state: 235 step:  94 ret: 0' % n),
            ]
        lines += self.other
        lines = sorted(x for x in lines if not any(d in x[2] for d in self.drop))
        head = '# tracer: nop\n#\n#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION\n'
        return head + ''.join('       swapper/%d-1       [%03d] .....  %d: %s\n' % (cpu, cpu, t, text)
                              for t, cpu, text in lines)

    def boot_stamps(self, key=None, rows=None):
        n = len(self.initcalls)
        out = ['# counter: CNTVCT_EL0', '# freq_hz: 62500000', '# counter_flags: 0',
               key or '# initcalls: %d of 4096, 0 dropped' % n,
               '# milestone counter', 'kernel_entry 1000',
               '# level start end ret cpu initcall']
        out += rows if rows is not None else [
            'device %d %d 0 0 %s' % (a, b, sym) for _, a, b, _, sym in self.initcalls]
        out.append('# cpu requested entry start_kernel online active finished flags')
        out.append('0 0 1000 2000 0 0 0 0')
        for c in self.cpus:
            s = c['st']
            out.append('%d %d %d %d %d %d %d 0' % (c['cpu'], s['requested'], s['entry'],
                                                     s['start_kernel'], s['online'],
                                                     s['active'], s['finished']))
        return '\n'.join(out) + '\n'


@unittest.skipUnless(KSRC, 'needs KSRC (a kernel tree) for kselftest.h')
class TraceClockMatchesLog(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix='bst-trace-')
        cls.root = os.path.join(cls.tmp, 'root')
        cls.prog = os.path.join(cls.tmp, 'trace_clock_matches_log')
        build(os.path.join(SRC, 'trace_clock_matches_log.c'), cls.prog,
              'BST_ROOT="%s"' % cls.root)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp)

    def run_on(self, boot, cpuhp=True, **stamps):
        files = {
            'bst/expect': 'BOOTSTAMP=y\n',
            'proc/cmdline': CMDLINE % (CPUHP if cpuhp else '') + '\n',
            'sys/kernel/debug/boot_stamps': boot.boot_stamps(**stamps),
            'sys/kernel/tracing/trace_clock': 'local global counter [arm64-counter]\n',
            'sys/kernel/tracing/buffer_size_kb': '1410\n',
            'sys/kernel/tracing/trace': boot.trace(),
        }
        shutil.rmtree(self.root, ignore_errors=True)
        for path, text in files.items():
            path = os.path.join(self.root, path)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, 'w') as f:
                f.write(text)
        p = subprocess.run([self.prog], capture_output=True, text=True)
        return p.returncode, results(p.stdout), p.stdout

    def failed(self, res):
        return [d for d, ok in res.items() if not ok]

    def assertFailsOnly(self, run, *words):
        rc, res, out = run
        bad = self.failed(res)
        self.assertNotEqual(rc, 0, out)
        self.assertTrue(bad, out)
        for d in bad:
            self.assertTrue(any(w in d for w in words), 'unexpected failure: %s\n%s' % (d, out))

    def test_good_boot_passes(self):
        for cpuhp in (True, False):
            rc, res, out = self.run_on(Boot(), cpuhp=cpuhp)
            self.assertEqual(rc, 0, out)
            self.assertEqual(len(res), 8 if cpuhp else 6, out)
            self.assertFalse(self.failed(res), out)

    def test_a_late_stamp_in_ten_is_the_host_not_a_bug(self):
        boot = Boot()
        late = [ic for ic in boot.initcalls if ic[2] - ic[1] == LONG]
        for ic in late[:len(boot.initcalls) // 10]:
            ic[1] += 5000       # the vCPU's thread preempted in a hop
        self.assertEqual(self.run_on(boot)[0], 0)
        late[len(boot.initcalls) // 10][1] += 5000
        self.assertFailsOnly(self.run_on(boot), 'within')
        boot = Boot()
        for p in ('requested', 'finished'):     # first bring-up: cold code
            boot.cpus[0]['st'][p] -= 6000
        self.assertEqual(self.run_on(boot)[0], 0)
        boot.cpus[1]['st']['finished'] -= 200000
        self.assertEqual(self.run_on(boot)[0], 0)   # an interrupt between the probes
        boot.cpus[0]['st']['active'] -= 70000  # past COLD_TICKS
        self.assertFailsOnly(self.run_on(boot), 'cpuhp events')

    def test_one_point_late_on_every_cpu_fails(self):
        boot = Boot()
        for c in boot.cpus:
            c['st']['finished'] = c['ev']['act']        # stamped at the wrong exit
        self.assertFailsOnly(self.run_on(boot), 'cpuhp events')

    def test_one_secondary_cpu_is_not_enough(self):
        rc, res, out = self.run_on(Boot(cpus=1))
        self.assertFailsOnly((rc, res, out), 'cpuhp events')

    def test_end_stamped_at_start_fails(self):
        boot = Boot()
        for ic in boot.initcalls:
            ic[2] = ic[1]
        self.assertFailsOnly(self.run_on(boot), 'within')

    def test_start_stamped_at_end_fails(self):
        boot = Boot()
        for ic in boot.initcalls:
            ic[1] = ic[2]
        self.assertFailsOnly(self.run_on(boot), 'within')

    def test_stamps_outside_the_events_fail(self):
        boot = Boot()
        boot.initcalls[7][1] = boot.initcalls[7][0] - 1
        self.assertFailsOnly(self.run_on(boot), 'out of order')

    def test_unreadable_row_fails(self):
        boot = Boot()
        rows = ['device %d %d 0 0 %s' % (a, b, sym) for _, a, b, _, sym in boot.initcalls]
        rows[3] = 'device %d - 0 0 %s' % (boot.initcalls[3][1], boot.initcalls[3][4])
        self.assertFailsOnly(self.run_on(boot, rows=rows), 'every row read', 'in the trace')
        rows[3] = rows[4] + ' extra'
        self.assertFailsOnly(self.run_on(boot, rows=rows), 'every row read', 'in the trace')

    def test_initcalls_key_checked(self):
        boot = Boot()
        n = len(boot.initcalls)
        self.assertFailsOnly(self.run_on(boot, key='# initcalls: %d of %d, 1 dropped' % (n, n)),
                             'every row read')
        self.assertFailsOnly(self.run_on(boot, key='# initcalls: %d of 4096, 0 dropped' % (n + 1)),
                             'every row read')
        self.assertFailsOnly(self.run_on(boot, key='# initcalls: lots'), 'every row read')

    def test_cpu_points_all_shifted_fail(self):
        for shift in (1500, -3000):
            boot = Boot()
            for c in boot.cpus:
                for p in c['st']:
                    c['st'][p] += shift
            self.assertFailsOnly(self.run_on(boot), 'cpuhp events')

    def test_entry_stamped_on_the_requesting_cpu_fails(self):
        boot = Boot()
        for c in boot.cpus:
            c['st']['entry'] = c['ev']['req'] + 200
        self.assertFailsOnly(self.run_on(boot), 'cpuhp events')

    def test_requested_stamped_on_the_new_cpu_fails(self):
        boot = Boot()
        for c in boot.cpus:
            c['st']['requested'] = c['st']['entry'] - 10
        self.assertFailsOnly(self.run_on(boot), 'cpuhp events')

    def test_entry_after_the_cpu_traced_fails(self):
        boot = Boot()
        c = boot.cpus[1]
        c['st']['online'] = c['ev']['first'] + 10
        self.assertFailsOnly(self.run_on(boot), 'cpuhp events')

    def test_missing_bringup_events_fail(self):
        boot = Boot()
        boot.drop.append('cpu: 0003  state: 235 step:  94')
        self.assertFailsOnly(self.run_on(boot), 'bring-up is in the trace', 'cpuhp events')

    def test_unreadable_trace_line_fails(self):
        boot = Boot()
        boot.other.append((1000001, 0, 'cpuhp_enter: cpu: garbled'))
        rc, res, out = self.run_on(boot)
        self.assertNotEqual(rc, 0, out)
        self.assertIn('cannot read trace line', out)


if __name__ == '__main__':
    unittest.main()
