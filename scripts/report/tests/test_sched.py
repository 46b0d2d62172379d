# SPDX-License-Identifier: GPL-2.0
"""Tests for bootreport's split of an interval into on-CPU, runnable and
blocked time (bootreport_lib/sched.py), on hand-written traces in the
format of /sys/kernel/tracing/trace with trace_clock=arm64-counter.

The dumps are samples/full-probes (62.5 MHz counter, 16 ns a tick, kernel
entry at counter 19500000, the time base) with a sched.trace and a
trace_clock added; tick(ms) is the counter value ms after kernel entry.

Run: python3 -m unittest discover -s scripts/report/tests
"""

import json
import os
import shutil
import sys
import tempfile
import unittest
import xml.etree.ElementTree as ET

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

from bootreport_lib import parse, sched  # noqa: E402
from test_bootreport import run  # noqa: E402

PROBES = os.path.join(HERE, "samples", "full-probes")
MS = 1000000
HEADER = """\
# tracer: nop
#
# entries-in-buffer/entries-written: {held}/{written}   #P:2
#
#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION
#              | |         |   |||||     |         |
"""
PID = 100           # the task under test
OTHER = 200         # another task


def tick(ms):
    return 19500000 + int(round(ms * 62500))


def switch(cpu, ms, prev, state, nxt, comm="foo"):
    return ("%16s-%-7d [%03d] d..2. %12d: sched_switch: prev_comm=%s "
            "prev_pid=%d prev_prio=120 prev_state=%s ==> next_comm=bar "
            "next_pid=%d next_prio=120" % (comm, prev, cpu, tick(ms), comm,
                                           prev, state, nxt))


def stack(cpu, ms, frames, pid=PID):
    return "\n".join(["%16s-%-7d [%03d] d..2. %12d: <stack trace>" % (
        "foo", pid, cpu, tick(ms))] + [" => %s" % f for f in frames])


def wakeup(cpu, ms, pid, waker=OTHER, event="sched_wakeup"):
    return ("%16s-%-7d [%03d] dNh2. %12d: %s: comm=foo pid=%d "
            "prio=120 target_cpu=%03d" % ("bar", waker, cpu, tick(ms), event,
                                          pid, cpu))


SCHED = ["trace_event_raw_event_sched_switch", "__schedule", "schedule"]
MSLEEP = SCHED + ["schedule_timeout", "msleep", "foo_sleep [foo]",
                  "foo_probe [foo]", "platform_probe", "really_probe"]
WAIT = SCHED + ["schedule_timeout", "__wait_for_common",
                "wait_for_completion", "foo_wait+0x2c/0x50 [foo]",
                "foo_probe [foo]"]
MUTEX = SCHED + ["schedule_preempt_disabled",
                 "__mutex_lock.constprop.0", "__mutex_lock_slowpath",
                 "mutex_lock", "foo_lock", "foo_probe [foo]"]


def trace_text(lines, lost=0):
    n = sum(1 for line in lines for part in line.split("\n")
            if not part.startswith(" =>"))
    return HEADER.format(held=n, written=n + lost) + "\n".join(lines) + "\n"


class Dumps(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="bootreport-sched-")

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def dump(self, lines, lost=0, clock="local global counter [arm64-counter]",
             probes=None):
        d = os.path.join(self.tmp, "d%d" % len(os.listdir(self.tmp)))
        shutil.copytree(PROBES, d)
        with open(os.path.join(d, "sched.trace"), "w") as f:
            f.write(lines if isinstance(lines, str) else
                    trace_text(lines, lost))
        if clock is not None:
            with open(os.path.join(d, "trace_clock"), "w") as f:
                f.write(clock + "\n")
        if probes is not None:
            with open(os.path.join(d, "probes"), "w") as f:
                f.write("# time_base: kernel_entry\n# probes: on\n"
                        "# device driver bus start_ns duration_ns ret async "
                        "cpu pid\n" + probes)
        return d

    def trace(self, lines, **kw):
        d = parse.Dump(self.dump(lines, **kw))
        return sched.load(d)

    # A trace whose first event is at 0 ms and last at 1000 ms, so that
    # intervals in between are covered.
    @staticmethod
    def bracket(lines):
        return ([switch(1, 0, 0, "R", OTHER, "swapper/1")] + lines +
                [switch(1, 1000, OTHER, "S", 0, "bar")])

    def split(self, lines, start=10, end=110, pid=PID, **kw):
        tr = self.trace(self.bracket(lines), **kw)
        return sched.attribute(tr, pid, start * MS, end * MS)


class Attribute(Dumps):
    def test_sleep_spin_wait(self):
        """The test driver's probe: 50 ms in msleep, 20 on CPU, 30 in a
        completion, a wakeup latency of 0.5 ms each."""
        sp = self.split([
            switch(0, 12, PID, "D", 0), stack(0, 12.01, MSLEEP),
            wakeup(0, 62, PID), switch(0, 62.5, 0, "R", PID, "swapper/0"),
            switch(0, 82.5, PID, "D", 0), stack(0, 82.51, WAIT),
            wakeup(1, 109.5, PID),
        ], start=10, end=110)
        # on: 10-12 and 62.5-82.5; runnable 62-62.5 and 109.5-110 (the
        # task was woken but not switched in when the interval ended).
        self.assertEqual(sp.on_ns, 22 * MS)
        self.assertEqual(sp.runnable_ns, 1 * MS)
        self.assertEqual(sp.blocked_ns, 77 * MS)
        self.assertEqual(sp.on_ns + sp.runnable_ns + sp.blocked_ns,
                         sp.wall_ns)
        self.assertEqual(sp.site_list(), [
            ["msleep in foo_sleep [foo]", 50 * MS, 1],
            ["wait_for_completion in foo_wait [foo]", 27 * MS, 1]])

    def test_preempted_is_runnable(self):
        sp = self.split([
            switch(0, 20, PID, "R+", OTHER), switch(0, 35, OTHER, "R", PID),
            switch(0, 50, PID, "R", OTHER), switch(0, 51, OTHER, "S", PID),
        ])
        self.assertEqual(sp.runnable_ns, 16 * MS)
        self.assertEqual(sp.blocked_ns, 0)
        self.assertEqual(sp.on_ns, 84 * MS)
        self.assertEqual(sp.sites, {})

    def test_wakeup_before_switch_out(self):
        """Woken while still running (a waker on another CPU beat the
        switch): the switch-out then says R, and the task was runnable, not
        blocked, until it ran again; the early wakeup changes nothing."""
        sp = self.split([
            wakeup(1, 29.9, PID), switch(0, 30, PID, "R", OTHER),
            stack(0, 30.01, MSLEEP), switch(0, 40, OTHER, "S", PID),
        ])
        self.assertEqual(sp.blocked_ns, 0)
        self.assertEqual(sp.runnable_ns, 10 * MS)
        self.assertEqual(sp.on_ns, 90 * MS)

    def test_waking_traced_before_sleeping_switch_out(self):
        """The waker's sched_waking is traced before the switch-out that
        still says D: __schedule() read the state before try_to_wake_up()
        ran, and traces the switch later (review A1). No wakeup follows
        the switch-out, so the task was runnable from it, not blocked."""
        sp = self.split([
            wakeup(1, 29.999, PID, event="sched_waking"),
            switch(0, 30, PID, "D", OTHER), stack(0, 30.01, WAIT),
            switch(0, 40, OTHER, "S", PID),
        ])
        self.assertEqual(sp.blocked_ns, 0)
        self.assertEqual(sp.runnable_ns, 10 * MS)
        self.assertEqual(sp.on_ns, 90 * MS)
        self.assertEqual(sp.sites, {})

    def test_waking_consumed_before_a_real_sleep(self):
        """A waking while the task ran that it consumed (woken, ran on,
        then slept again): the sleep is ended by its own wakeup, and is
        blocked until then."""
        sp = self.split([
            wakeup(1, 20, PID, event="sched_waking"),
            switch(0, 30, PID, "D", OTHER), stack(0, 30.01, WAIT),
            wakeup(1, 38, PID, event="sched_waking"),
            switch(0, 40, OTHER, "S", PID),
        ])
        self.assertEqual(sp.blocked_ns, 8 * MS)
        self.assertEqual(sp.runnable_ns, 2 * MS)

    def test_waking_ends_the_sleep(self):
        """sched_waking (the waker asks) ends the sleep; the sched_wakeup
        that the task's CPU records later, when it takes the task onto its
        run queue, changes nothing: runnable from the waking."""
        sp = self.split([
            switch(0, 20, PID, "D", 0), stack(0, 20.01, WAIT),
            wakeup(1, 50, PID, event="sched_waking"),
            wakeup(0, 58, PID), switch(0, 58.5, 0, "R", PID, "swapper/0"),
        ])
        self.assertEqual(sp.blocked_ns, 30 * MS)
        self.assertEqual(sp.runnable_ns, int(8.5 * MS))
        self.assertEqual(sp.site_list(),
                         [["wait_for_completion in foo_wait [foo]", 30 * MS, 1]])

    def test_migration(self):
        """Out on CPU 0, woken and back in on CPU 1: one interval, the
        events of both CPUs in time order."""
        sp = self.split([
            switch(0, 20, PID, "S", 0), stack(0, 20.01, WAIT),
            wakeup(1, 60, PID), switch(1, 61, OTHER, "R+", PID),
            switch(1, 70, PID, "D", OTHER), stack(1, 70.01, MSLEEP),
            wakeup(0, 90, PID), switch(0, 90.25, 0, "R", PID, "swapper/0"),
        ])
        self.assertEqual(sp.migrations, 2)
        self.assertEqual(sp.blocked_ns, 60 * MS)
        self.assertEqual(sp.runnable_ns, int(1.25 * MS))
        self.assertEqual(sp.on_ns, int(38.75 * MS))
        self.assertEqual(sp.site_list(), [
            ["wait_for_completion in foo_wait [foo]", 40 * MS, 1],
            ["msleep in foo_sleep [foo]", 20 * MS, 1]])

    def test_nested_intervals_and_sleeps(self):
        """An initcall whose task probes a device inside it: the probe's
        split lies inside the initcall's; a site met twice adds up."""
        lines = [
            switch(0, 15, PID, "D", 0), stack(0, 15.01, MUTEX),
            wakeup(0, 25, PID), switch(0, 25, 0, "R", PID, "swapper/0"),
            switch(0, 40, PID, "D", 0), stack(0, 40.01, MSLEEP),
            wakeup(0, 50, PID), switch(0, 50, 0, "R", PID, "swapper/0"),
            switch(0, 70, PID, "D", 0), stack(0, 70.01, MSLEEP),
            wakeup(0, 80, PID), switch(0, 80, 0, "R", PID, "swapper/0"),
        ]
        outer = self.split(lines, start=10, end=110)
        inner = self.split(lines, start=30, end=90)
        self.assertEqual(outer.site_list(), [
            ["msleep in foo_sleep [foo]", 20 * MS, 2],
            ["mutex_lock in foo_lock", 10 * MS, 1]])
        self.assertEqual(inner.site_list(), [
            ["msleep in foo_sleep [foo]", 20 * MS, 2]])
        self.assertEqual(inner.on_ns, 40 * MS)
        self.assertEqual(outer.on_ns, 70 * MS)

    def test_stack_recorded_before_its_switch(self):
        """A trigger without a filter may record the stack first."""
        sp = self.split([
            stack(0, 19.99, WAIT), switch(0, 20, PID, "D", 0),
            wakeup(0, 30, PID), switch(0, 30, 0, "R", PID, "swapper/0"),
            switch(0, 40, PID, "D", 0), stack(0, 40.01, MSLEEP),
            wakeup(0, 45, PID), switch(0, 45, 0, "R", PID, "swapper/0"),
        ])
        self.assertEqual(sp.site_list(), [
            ["wait_for_completion in foo_wait [foo]", 10 * MS, 1],
            ["msleep in foo_sleep [foo]", 5 * MS, 1]])

    def test_other_tasks_do_not_count(self):
        sp = self.split([
            switch(1, 20, OTHER, "D", 0), stack(1, 20.01, MSLEEP, OTHER),
            wakeup(1, 60, OTHER),
        ])
        self.assertEqual((sp.on_ns, sp.runnable_ns, sp.blocked_ns),
                         (100 * MS, 0, 0))

    def test_missing_switch_out_is_not_split(self):
        """A switch to the task while it ran: the switch-out between was
        lost or misplaced (review A2). A 50 ms sleep would read as on-CPU
        time; the row is not split, and says why."""
        sp = self.split([
            stack(0, 20.01, MSLEEP),
            wakeup(0, 70, PID), switch(0, 70, 0, "R", PID, "swapper/0"),
        ])
        self.assertTrue(sp.problems)
        self.assertIn("switch to it while it ran", sp.problems[0])

    def test_missing_switch_in_is_not_split(self):
        sp = self.split([
            switch(0, 20, PID, "D", 0), stack(0, 20.01, MSLEEP),
            switch(0, 30, PID, "D", 0), stack(0, 30.01, MSLEEP),
        ])
        self.assertIn("switch from it while it was off the CPU",
                      sp.problems[0])

    def test_lost_events_mid_ring_are_not_split(self):
        """A "[LOST n EVENTS]" line: the rows whose interval may hold the
        lost events are not split; the others are."""
        lines = self.bracket([
            switch(0, 20, PID, "D", 0), stack(0, 20.01, MSLEEP),
            "CPU:0 [LOST 12 EVENTS]",
            wakeup(0, 70, PID), switch(0, 70, 0, "R", PID, "swapper/0"),
        ])
        tr = self.trace(lines)
        sp = sched.attribute(tr, PID, 10 * MS, 110 * MS)
        self.assertEqual(sp.problems, ["12 events lost on cpu 0"])
        sp = sched.attribute(tr, PID, 80 * MS, 110 * MS)
        self.assertEqual(sp.problems, [])

    def test_stack_of_another_task(self):
        """The first stack of an overwritten ring, or a stack recorded
        before its switch, of another pid (review A2c): not the site of
        this switch-out; the row is not split."""
        sp = self.split([
            stack(0, 19.99, WAIT, OTHER), switch(0, 20, PID, "D", 0),
            wakeup(0, 30, PID), switch(0, 30, 0, "R", PID, "swapper/0"),
        ])
        self.assertEqual(sp.problems, ["a stack of pid 200 on its "
                                       "switch-out at 20.000 ms"])

    def test_report_says_why_not_split(self):
        d = self.dump(self.bracket([
            stack(0, 20.01, MSLEEP),
            wakeup(0, 70, PID), switch(0, 70, 0, "R", PID, "swapper/0"),
        ]), probes="foo.0 foo platform 10000000 100000000 0 no 0 100\n")
        status, out, err = run([d])
        self.assertEqual(status, 0, err)
        self.assertIn("probe foo.0 [foo] 100.0 ms: not split (a switch to "
                      "it while it ran at 70.000 ms: a switch-out missing)",
                      out)
        self.assertNotIn("on-CPU 100.0", out)

    def test_comm_that_looks_like_fields(self):
        """A task's comm (up to 15 bytes, set by PR_SET_NAME) that reads
        like the fields after it (review D2): the pids are the fields',
        not the comm's."""
        def body(event, text, cpu=1):
            return "%16s-%-7d [%03d] d..2. %12d: %s: %s" % (
                "bar", OTHER, cpu, tick(text[0]), event, text[1])
        sp = self.split([
            body("sched_switch", cpu=0, text=(20, "prev_comm=a prev_pid=7 x "
                                  "prev_pid=%d prev_prio=120 prev_state=D "
                                  "==> next_comm=b next_pid=0 x next_pid=0 "
                                  "next_prio=120" % PID)),
            stack(0, 20.01, MSLEEP),
            body("sched_waking", (50, "comm=x pid=7 prio= pid=%d prio=120 "
                                  "target_cpu=000" % PID)),
            switch(0, 60, 0, "R", PID, "swapper/0"),
        ])
        self.assertEqual(sp.problems, [])
        self.assertEqual(sp.blocked_ns, 30 * MS)
        self.assertEqual(sp.runnable_ns, 10 * MS)

    def test_outside_the_trace_is_not_split(self):
        tr = self.trace(self.bracket([]))
        self.assertIsNone(sched.attribute(tr, PID, -5 * MS, 10 * MS))
        self.assertIsNone(sched.attribute(tr, PID, 900 * MS, 1100 * MS))
        self.assertIsNone(sched.attribute(tr, 0, 10 * MS, 20 * MS))

    def test_lost_events_narrow_the_coverage(self):
        """A full ring lost the oldest events: only where every CPU's ring
        still starts is covered (CPU 0's first event, at 300 ms)."""
        tr = self.trace(self.bracket([switch(0, 300, PID, "R", 0)]), lost=7)
        self.assertEqual(tr.lost(), 7)
        self.assertIsNone(sched.attribute(tr, PID, 10 * MS, 110 * MS))
        self.assertIsNotNone(sched.attribute(tr, PID, 400 * MS, 500 * MS))

    def test_local_clock_live_mode(self):
        """A distro kernel has no arm64-counter clock: a trace on the
        default local clock (seconds) is placed through the summary's sync
        keys (local_clock t is t + 4.12 ms since kernel entry)."""
        def secs(ms):
            return "%.6f" % ((ms + 4.12) / 1000)
        lines = [
            "bar-200 [001] d..2. %s: sched_switch: prev_comm=bar prev_pid=200 "
            "prev_prio=120 prev_state=R ==> next_comm=foo next_pid=100 "
            "next_prio=120" % secs(0),
            "foo-100 [000] d..2. %s: sched_switch: prev_comm=foo prev_pid=100 "
            "prev_prio=120 prev_state=D ==> next_comm=swapper/0 next_pid=0 "
            "next_prio=120" % secs(20),
            "foo-100 [000] d..2. %s: <stack trace>" % secs(20),
            " => __schedule", " => schedule", " => msleep",
            " => foo_probe [foo]",
            "bar-200 [001] dNh2. %s: sched_wakeup: comm=foo pid=100 prio=120 "
            "target_cpu=000" % secs(70),
            "bar-200 [001] d..2. %s: sched_switch: prev_comm=bar prev_pid=200 "
            "prev_prio=120 prev_state=S ==> next_comm=swapper/1 next_pid=0 "
            "next_prio=120" % secs(1000),
        ]
        text = HEADER.format(held=5, written=5) + "\n".join(lines) + "\n"
        tr = self.trace(text, clock="[local] global counter")
        self.assertEqual(tr.clock, "local")
        sp = sched.attribute(tr, PID, 10 * MS, 110 * MS)
        self.assertEqual(sp.site_list(),
                         [["msleep in foo_probe [foo]", 50 * MS, 1]])
        # Without trace_clock the clock is not guessed (review C9): the
        # seconds column may be mono, boot or global as well as local.
        with self.assertRaises(parse.InputError):
            self.trace(text, clock=None)

    def test_clock_that_cannot_be_placed(self):
        with self.assertRaises(parse.InputError):
            self.trace(self.bracket([]), clock="local [global] counter")
        # mono is NTP-slewed: one sync point misplaces events by ms over a
        # minute (review A2a). "counter" is an event count, not a time.
        for clock in ("local global [mono]", "local global [counter]"):
            with self.assertRaises(parse.InputError, msg=clock):
                self.trace(self.bracket([]), clock=clock)
        with self.assertRaises(parse.InputError):
            # Seconds where the clock says counter ticks.
            self.trace(HEADER.format(held=1, written=1) +
                       "foo-1 [000] d..2. 1.000000: sched_switch: prev_pid=1 "
                       "prev_state=S ==> next_pid=0 next_prio=120\n")


class Sites(unittest.TestCase):
    def test_sites(self):
        self.assertEqual(sched.site(MSLEEP), "msleep in foo_sleep [foo]")
        self.assertEqual(sched.site(WAIT),
                         "wait_for_completion in foo_wait [foo]")
        self.assertEqual(sched.site(MUTEX), "mutex_lock in foo_lock")
        self.assertEqual(sched.site(SCHED + ["worker_thread", "kthread"]),
                         "schedule in worker_thread")
        self.assertEqual(sched.site(SCHED + ["0xffff800080123456",
                                             "foo_probe"]), "schedule in ?")
        self.assertEqual(sched.site(None), "? (no stack)")

    def test_freed_module_init_code(self):
        """The stack is named when the trace is read: a frame in a
        module's init code, freed since, may read as a module loaded after
        the sleep at that address (review A3). Such a frame, or one in
        another module inside a module's initcall, is not named."""
        late = SCHED + ["msleep", "bar_fn [bar]", "do_one_initcall"]
        self.assertEqual(sched.site(late, t=20 * MS, loaded={"bar": 30 * MS}),
                         "msleep in ? (module init code, name unreliable: "
                         "bar_fn [bar])")
        self.assertEqual(sched.site(late, t=40 * MS, loaded={"bar": 30 * MS}),
                         "msleep in bar_fn [bar]")
        self.assertEqual(sched.site(late, t=20 * MS, own="foo", loaded={}),
                         "msleep in ? (module init code, name unreliable: "
                         "bar_fn [bar])")
        self.assertEqual(sched.site(MSLEEP, t=20 * MS, own="foo", loaded={}),
                         "msleep in foo_sleep [foo]")


class Report(Dumps):
    def test_text_line_and_deferred_tries(self):
        d = self.dump(self.bracket([
            switch(0, 12, PID, "D", 0), stack(0, 12.01, MSLEEP),
            wakeup(0, 62, PID), switch(0, 62.5, 0, "R", PID, "swapper/0"),
            switch(0, 82.5, PID, "D", 0), stack(0, 82.51, WAIT),
            wakeup(1, 109.5, PID),
            switch(0, 109.7, 0, "R", PID, "swapper/0"),
        ]), probes="foo.0 foo platform 5000000 1000000 -517 no 0 1\n"
                   "foo.0 foo platform 10000000 100000000 0 no 0 100\n")
        status, out, err = run([d])
        self.assertEqual(status, 0, err)
        self.assertIn("probe foo.0 [foo] try 2 100.0 ms: on-CPU 22.3, "
                      "runnable 0.7, blocked 77.0 (msleep in foo_sleep [foo] "
                      "50.0; wait_for_completion in foo_wait [foo] 27.0)",
                      out)
        self.assertIn("deferred probe foo.0 [foo]: 2 tries, deferred 1 "
                      "time: try 1 1.0 ms (-EPROBE_DEFER, pid 1); try 2 "
                      "100.0 ms (ok, pid 100); bound 105.0 ms after the "
                      "first try began", out)

    def test_rebind_is_not_a_deferral(self):
        """Two tries of which none deferred (unbound and bound again, or
        a module reloaded) are not called a deferred probe (review C10)."""
        d = self.dump(self.bracket([]), probes=(
            "foo.0 foo platform 5000000 1000000 0 no 0 1\n"
            "foo.0 foo platform 10000000 2000000 0 no 0 100\n"))
        status, out, err = run([d])
        self.assertEqual(status, 0, err)
        self.assertNotIn("deferred probe foo.0", out)
        self.assertIn("probe foo.0 [foo]: 2 tries, none deferred (unbound "
                      "and bound again, or its module reloaded): try 1 1.0 "
                      "ms (ok, pid 1); try 2 2.0 ms (ok, pid 100)", out)

    def test_initcall_header_wall_time(self):
        """Module inits in parallel (live mode, udev): the header gives
        the time with an initcall running, and the sum apart (review
        D1)."""
        d = self.dump(self.bracket([]))
        with open(os.path.join(d, "initcalls")) as f:
            rows = [x for x in f if x.startswith("#")]
        with open(os.path.join(d, "initcalls"), "w") as f:
            f.write("".join(rows) +
                    "module a_init a 10000000 40000000 0 0 300\n"
                    "module b_init b 30000000 40000000 0 0 301\n")
        status, out, err = run([d])
        self.assertEqual(status, 0, err)
        self.assertIn("Top 2 of 2 initcalls by duration (60.000 ms with an "
                      "initcall running; 80.000 ms added up over parallel "
                      "module inits)", out)

    def test_json_nested_stretches(self):
        """--json adds each runnable and blocked stretch as a slice on the
        task's track, inside its row; a stretch that the enclosing initcall
        of the same task repeats is given once."""
        lines = self.bracket([
            switch(0, 12, PID, "D", 0), stack(0, 12.01, MSLEEP),
            wakeup(0, 62, PID), switch(0, 62.5, 0, "R", PID, "swapper/0"),
        ])
        d = self.dump(lines, probes="foo.0 foo platform 10000000 "
                                    "100000000 0 no 0 100\n")
        with open(os.path.join(d, "initcalls"), "a") as f:
            f.write("late foo_init foo 5000000 200000000 0 0 100\n")
        status, out, err = run([d, "--json", "-"])
        self.assertEqual(status, 0, err)
        ev = [e for e in json.loads(out)["traceEvents"]
              if e.get("cat") == "sched"]
        self.assertEqual([(e["name"], e["tid"], e["ts"], e["dur"])
                          for e in ev], [
            ("blocked: msleep in foo_sleep [foo]", PID, 12000.0, 50000.0),
            ("runnable", PID, 62000.0, 500.0)])

    def test_cpu_bring_up(self):
        """A CPU brought up at boot is split on pid 1 (smp_init() in
        kernel_init), from requested to finished."""
        lines = self.bracket([
            switch(0, 21, 1, "D", 0, "swapper/0"),
            stack(0, 21.01, SCHED + ["schedule_timeout", "__wait_for_common",
                                     "wait_for_completion", "bringup_cpu",
                                     "cpuhp_invoke_callback"], 1),
            wakeup(1, 27, 1), switch(0, 27.5, 0, "R", 1, "swapper/0"),
        ])
        d = self.dump(lines)
        with open(os.path.join(d, "cpus")) as f:
            text = f.read()
        with open(os.path.join(d, "cpus"), "w") as f:
            f.write(text.splitlines()[0] + "\n" + text.splitlines()[1] + "\n"
                    "1 boot 20000000 22000000 23000000 24000000 26000000 "
                    "28000000 0 CNTVCT_EL0\n"
                    "2 live 40000000 42000000 43000000 44000000 46000000 "
                    "48000000 0 CNTVCT_EL0\n")
        status, out, err = run([d])
        self.assertEqual(status, 0, err)
        self.assertIn("cpu 1 bring-up 8.0 ms: on-CPU 1.5, runnable 0.5, "
                      "blocked 6.0 (wait_for_completion in bringup_cpu 6.0)",
                      out)
        self.assertNotIn("cpu 2 bring-up", out)

    def test_svg_stretches(self):
        """--svg draws an initcall's blocked and runnable stretches over its
        bar, each titled with its site and length."""
        d = self.dump(self.bracket([
            switch(0, 12, PID, "D", 0), stack(0, 12.01, MSLEEP),
            wakeup(0, 62, PID), switch(0, 62.5, 0, "R", PID, "swapper/0"),
        ]))
        with open(os.path.join(d, "initcalls"), "a") as f:
            f.write("late foo_init vmlinux 10000000 60000000 0 0 100\n")
        svg_path = os.path.join(self.tmp, "out.svg")
        status, _, err = run([d, "--svg", svg_path])
        self.assertEqual(status, 0, err)
        titles = [e.text for e in ET.parse(svg_path).iter(
            "{http://www.w3.org/2000/svg}title")]
        self.assertIn("blocked: msleep in foo_sleep [foo]: 50.000 ms", titles)
        self.assertIn("runnable: 0.500 ms", titles)

    def test_module_initcall_site_from_a_later_module(self):
        """An initcall of module foo that slept in its init code: read
        later, the frame names bar, loaded after the sleep at that
        address. The report does not print bar's name as the site."""
        d = self.dump(self.bracket([
            switch(0, 12, PID, "D", 0),
            stack(0, 12.01, SCHED + ["msleep", "bar_fn [bar]",
                                     "do_one_initcall", "do_init_module"]),
            wakeup(0, 62, PID), switch(0, 62.5, 0, "R", PID, "swapper/0"),
        ]))
        with open(os.path.join(d, "initcalls"), "a") as f:
            f.write("module foo_init foo 10000000 60000000 0 0 100\n"
                    "module bar_init bar 200000000 1000000 0 0 300\n")
        status, out, err = run([d])
        self.assertEqual(status, 0, err)
        self.assertIn("initcall foo_init [foo] 60.0 ms: on-CPU 9.5, "
                      "runnable 0.5, blocked 50.0 (msleep in ? (module init "
                      "code, name unreliable: bar_fn [bar]) 50.0)", out)

    def test_svg_module_inits_one_lane_per_task(self):
        """Module inits loaded in parallel on one CPU (udev) overlap: the
        SVG draws them on one lane per task, as trace.json, never two bars
        at one height (review A4); one task's inits share its lane."""
        d = self.dump(self.bracket([]))
        with open(os.path.join(d, "initcalls"), "a") as f:
            f.write("module a_init a 10000000 40000000 0 0 300\n"
                    "module b_init b 15000000 40000000 0 0 301\n"
                    "module c_init c 60000000 10000000 0 0 300\n")
        svg_path = os.path.join(self.tmp, "out.svg")
        status, _, err = run([d, "--svg-all", "--svg", svg_path])
        self.assertEqual(status, 0, err)
        ns = "{http://www.w3.org/2000/svg}"
        y = {}
        for r in ET.parse(svg_path).iter(ns + "rect"):
            t = r.find(ns + "title")
            if t is not None and t.text.split()[0] in ("a_init", "b_init",
                                                        "c_init"):
                y[t.text.split()[0]] = r.get("y")
        self.assertNotEqual(y["a_init"], y["b_init"])
        self.assertEqual(y["a_init"], y["c_init"])
        labels = [e.text for e in ET.parse(svg_path).iter(ns + "text")]
        self.assertIn("pid 300", labels)
        self.assertIn("pid 301", labels)

    def test_no_trace_no_section(self):
        status, out, _ = run([PROBES])
        self.assertEqual(status, 0)
        self.assertNotIn("Where the time went", out)



def own_switch(cpu, ms, prev, state, nxt):
    """A line of the module's sched file: no comm, no flags, no prio."""
    return ("<...>-%d [%03d] %d: sched_switch: prev_pid=%d prev_state=%s "
            "==> next_pid=%d" % (prev, cpu, tick(ms), prev, state, nxt))


def own_stack(cpu, ms, frames, pid=PID):
    return "\n".join(["<...>-%d [%03d] %d: <stack trace>" % (
        pid, cpu, tick(ms))] + [" => %s" % f for f in frames])


def own_waking(cpu, ms, pid, waker=OTHER):
    return "<...>-%d [%03d] %d: sched_waking: pid=%d" % (waker, cpu,
                                                          tick(ms), pid)


def own_file(lines, start=0, end=1000):
    return ("# tracer: bootstamp sched events, counter ticks\n# sched: on\n"
            "# recording from: %d to: %d\n" % (tick(start), tick(end)) +
            "\n".join(lines) + "\n")


class ModuleFile(Dumps):
    """The module's sched file (module/sched.c): the same lines without
    comm, flags and prio, and a header that says what the events cover;
    the dump has no sched.trace and no trace_clock then."""

    def own(self, text):
        d = self.dump("", clock=None)
        os.remove(os.path.join(d, "sched.trace"))
        with open(os.path.join(d, "sched"), "w") as f:
            f.write(text)
        return sched.load(parse.Dump(d))

    SLEEP = [own_switch(0, 12, PID, "D", 0), own_stack(0, 12, MSLEEP),
             own_waking(1, 62, PID), own_switch(0, 62.5, 0, "R", PID)]

    def test_split_within_the_cover(self):
        """Covered from its header, not from the first event, and to its
        end, not to the last event: an interval with no event after the
        sleep is split, on-CPU to its end."""
        tr = self.own(own_file(self.SLEEP))
        self.assertEqual(tr.clock, "arm64-counter")
        sp = sched.attribute(tr, PID, 10 * MS, 110 * MS)
        self.assertEqual(sp.blocked_ns, 50 * MS)
        self.assertEqual(sp.runnable_ns, MS // 2)
        self.assertEqual(sp.on_ns, 49.5 * MS)
        self.assertEqual(sp.site_list(),
                         [["msleep in foo_sleep [foo]", 50 * MS, 1]])
        self.assertEqual(sp.problems, [])

    def test_outside_the_cover_not_split(self):
        """A row that ends after the read (or began before the recording)
        is not split: the events cannot say what happened there."""
        tr = self.own(own_file(self.SLEEP, start=5, end=100))
        self.assertIsNone(sched.attribute(tr, PID, 10 * MS, 110 * MS))
        self.assertIsNone(sched.attribute(tr, PID, 1 * MS, 90 * MS))
        self.assertIsNotNone(sched.attribute(tr, PID, 10 * MS, 90 * MS))

    def test_nothing_covered(self):
        """The module followed nothing (from = to): no row is split."""
        tr = self.own(own_file([], start=0, end=0))
        self.assertIsNone(sched.attribute(tr, PID, 10 * MS, 90 * MS))

    def test_holes_leave_their_rows_unsplit(self):
        """Events not kept (a full buffer: all tasks; a row whose task had
        no free slot: that task): a row across such a hole is not split,
        one of another task or before it is."""
        full = own_file(self.SLEEP).replace(
            "# recording from", "# hole: %d - all buffer full\n"
            "# recording from" % tick(70))
        tr = self.own(full)
        sp = sched.attribute(tr, PID, 10 * MS, 110 * MS)
        self.assertTrue(any("not kept from 70.000 ms (buffer full)" in p
                            for p in sp.problems), sp.problems)
        self.assertEqual(sched.attribute(tr, PID, 10 * MS, 65 * MS).problems,
                         [])
        one = own_file(self.SLEEP).replace(
            "# recording from", "# hole: %d - %d row not followed\n"
            "# recording from" % (tick(20), OTHER))
        tr = self.own(one)
        self.assertTrue(sched.attribute(tr, OTHER, 30 * MS, 40 * MS).problems)
        self.assertEqual(sched.attribute(tr, PID, 10 * MS, 110 * MS).problems,
                         [])
        kernel = own_file(self.SLEEP).replace(
            "# recording from", "# hole: %d %d %d kernel buffer full\n"
            "# recording from" % (tick(30), tick(50), PID))
        tr = self.own(kernel)
        self.assertTrue(sched.attribute(tr, PID, 10 * MS, 110 * MS).problems)
        self.assertEqual(sched.attribute(tr, PID, 63 * MS, 110 * MS).problems,
                         [])

    def test_not_the_module_file(self):
        """A sched file without the cover line is refused, not guessed."""
        with self.assertRaises(parse.InputError):
            self.own("\n".join(self.SLEEP) + "\n")

    def test_kernel_stack_from_the_outermost_primitive(self):
        """The kernel keeps PID 1's stack from the outermost scheduler
        function on: that frame is the primitive, the next the site."""
        self.assertEqual(sched.site(["out_of_line_wait_on_bit+0x8c/0xa0",
                                     "foo_probe+0x40/0x90"]),
                         "out_of_line_wait_on_bit in foo_probe")
        self.assertEqual(sched.site(["rt_spin_lock+0x40/0x60",
                                     "foo_irq_thread+0x20/0x80"]),
                         "rt_spin_lock in foo_irq_thread")
        self.assertEqual(sched.site(["mutex_lock.llvm.123+0x10/0x20",
                                     "foo_probe.cold+0x4/0x8"]),
                         "mutex_lock in foo_probe.cold")

    def test_another_loads_file_refused(self):
        """A sched file whose load_id is not the summary's is refused."""
        with self.assertRaises(parse.InputError):
            self.own(own_file(self.SLEEP).replace(
                "# sched: on", "# sched: on\n# load_id: fedcba9876543210"))

    def test_sched_trace_wins(self):
        """With both, the ftrace copy is read (the user asked for it)."""
        d = self.dump(self.bracket(self.SLEEP))
        with open(os.path.join(d, "sched"), "w") as f:
            f.write(own_file([]))
        tr = sched.load(parse.Dump(d))
        self.assertIsNone(tr.cover)


if __name__ == "__main__":
    unittest.main()
