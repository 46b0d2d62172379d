# SPDX-License-Identifier: GPL-2.0
"""Where an initcall's or a probe's time went, from the scheduler's events.

Input: the bootstamp module's sched file (the dump's sched: the kernel's
events of PID 1 until init and the module's of each row's task after its
load, in counter ticks, in the line format below with a "# recording
from: A to: B" header that says what they cover), or a copy of
/sys/kernel/tracing/trace (the dump's sched.trace, which wins when both
are there) of a boot traced with

  trace_clock=arm64-counter trace_event=sched:sched_switch,sched:sched_waking
  trace_trigger="sched_switch.stacktrace if prev_state & 255"

(a stack for each switch-out in a sleeping state, all that names a site;
a stack for every switch, without the filter, works too)

and, beside it, trace_clock (a copy of the tracefs file: the clock in
brackets). Each row of initcalls and probes names its task (pid) and its
interval; in that interval the task is, from event to event:

  on-CPU     from its start (it stamped it) and from each switch to it
  blocked    from a switch away from it in a sleeping state (prev_state
             S, D, I, ...) to the wakeup of it: sched_waking, where the
             waker asks for it, when traced, else sched_wakeup, which a
             wakeup sent to another CPU records only when that CPU takes
             the task onto its run queue (an interrupt later; under QEMU
             that was 4-8 ms)
  runnable   from such a wakeup, or from a switch away from it that left
             it runnable (prev_state R or R+: preempted), to the switch
             back to it

A wakeup while the task still runs (it was woken before it switched out)
usually changes nothing: its switch-out then says R. But __schedule()
reads the state before it traces the switch, and try_to_wake_up() traces
sched_waking before it waits for that switch, so a waker on another CPU
can record its waking in between: the switch-out says S or D and no
wakeup follows it. Such a sleep, ended by no wakeup of its own before the
switch back, is runnable from the switch-out. The blocked time is charged
to the call site of the switch-out's stack: the outermost sleep primitive
(msleep, wait_for_completion, mutex_lock, ...) and the first frame outside
them, as "msleep in foo_probe". The stack is symbolized by the kernel when
the trace is read, so a frame in module init code freed since then may name
whatever took its place.
"""

import os
import re

from .parse import InputError

# "  comm-pid  [cpu] flags  ts: event: body" (the flags column and the tgid
# column "(  123)" are options; comm may hold blanks and dashes).
_LINE_RE = re.compile(r"^\s*(?P<comm>.*?)-(?P<pid>\d+)\s+"
                      r"(?:\(\s*[\d-]+\)\s+)?\[(?P<cpu>\d+)\]\s+"
                      r"(?:[\w.]{4,6}\s+)?(?P<ts>\d+(?:\.\d+)?):\s+"
                      r"(?P<event><stack trace>|\w+):?\s*(?P<body>.*)$")
# A comm (up to 15 bytes, any of them set by PR_SET_NAME) may read like
# the fields after it ("x pid=1 prio="): the fields are matched from the
# start of the body, each comm at most 15 bytes long, the longest that
# fits, so that a comm cannot stand for a field.
_SWITCH_RE = re.compile(r"^(?:prev_comm=.{0,15} )?prev_pid=(?P<prev>\d+)"
                        r"(?: prev_prio=-?\d+)? prev_state=(?P<state>\S+)"
                        r" ==> (?:next_comm=.{0,15} )?next_pid=(?P<next>\d+)"
                        r"(?: next_prio=-?\d+)?\s*$")
_WAKEUP_RE = re.compile(r"^(?:comm=.{0,15} )?pid=(?P<pid>\d+)(?: prio=-?\d+)?"
                        r"(?: success=\d+)?(?: target_cpu=\d+)?\s*$")
_HEADER_RE = re.compile(r"entries-in-buffer/entries-written: (\d+)/(\d+)")
# The module's sched file: the interval its events cover for every row.
_COVER_RE = re.compile(r"^# recording from: (\d+) to: (\d+)\s*$")
# ... and where some of its events were not kept: for one task or all.
_HOLE_RE = re.compile(r"^# hole: (\d+) (\d+|-) (\d+|all)\s*(.*)$")
_LOST_RE = re.compile(r"^CPU:(?P<cpu>\d+) \[LOST(?: (?P<n>\d+))? EVENTS\]")
_FRAME_RE = re.compile(r"^\s*=>\s*(?P<sym>\S+)(?:\s+\[(?P<mod>[^\]]+)\])?")

# Frames of the tracing and of the switch itself, above the scheduler.
_TRACE_FRAMES = re.compile(r"^(trace_|__traceiter_|__trace_|perf_trace_|"
                           r"event_trigger|stacktrace_|stack_trace_save|"
                           r"bs_probe_sched_|bs_sched_stack|"
                           r"bootstamp_sched_|ftrace_|__bpf_trace|"
                           r"__switch_to|context_switch|finish_task_switch)")
# Sleep and scheduling primitives: the site is the outermost of them and
# the first frame below it that is none of them.
SLEEP_PRIMITIVES = frozenset("""
__schedule schedule schedule_idle schedule_preempt_disabled preempt_schedule
preempt_schedule_common preempt_schedule_irq preempt_schedule_notrace
schedule_rtlock io_schedule io_schedule_timeout schedule_timeout
schedule_timeout_uninterruptible schedule_timeout_interruptible
schedule_timeout_killable schedule_timeout_idle schedule_hrtimeout
schedule_hrtimeout_range schedule_hrtimeout_range_clock do_nanosleep
hrtimer_nanosleep usleep_range_state msleep msleep_interruptible ssleep fsleep
do_wait_for_common __wait_for_common wait_for_common wait_for_common_io
wait_for_completion wait_for_completion_timeout wait_for_completion_io
wait_for_completion_io_timeout wait_for_completion_interruptible
wait_for_completion_interruptible_timeout wait_for_completion_killable
wait_for_completion_killable_timeout wait_for_completion_state
__mutex_lock __mutex_lock_slowpath __mutex_lock_killable_slowpath
__mutex_lock_interruptible_slowpath mutex_lock mutex_lock_nested
mutex_lock_interruptible mutex_lock_killable mutex_lock_io rt_mutex_lock
rt_mutex_slowlock rt_mutex_slowlock_block __rt_mutex_slowlock
__rt_mutex_slowlock_locked rwbase_read_lock rwbase_write_lock
rwsem_down_read_slowpath rwsem_down_write_slowpath down_read down_write
down_read_killable down_write_killable down_read_interruptible __down_read
__down_write __down_read_common __down_write_common down down_interruptible
down_killable down_timeout __down __down_common __down_interruptible
__down_killable __down_timeout percpu_rwsem_wait __percpu_down_read
percpu_down_write rcuwait_wait_event
out_of_line_wait_on_bit out_of_line_wait_on_bit_timeout
out_of_line_wait_on_bit_lock __wait_on_bit __wait_on_bit_lock bit_wait
bit_wait_io bit_wait_timeout bit_wait_io_timeout rt_spin_lock rt_read_lock
rt_write_lock mutex_lock_interruptible_nested mutex_lock_killable_nested
_mutex_lock_killable mutex_lock_io_nested down_read_nested
down_write_nested down_write_killable_nested down_read_killable_nested
""".split())


class Event:
    """One scheduler event: kind "switch" (prev, next, state, stack),
    "wakeup" (pid) on @cpu at @t (trace clock units, converted later)."""

    __slots__ = ("kind", "t", "cpu", "prev", "next", "state", "pid",
                 "stack", "stack_pid", "line")

    def __init__(self, kind, t, cpu, line):
        self.kind, self.t, self.cpu, self.line = kind, t, cpu, line
        self.prev = self.next = self.pid = None
        self.state = None
        self.stack = self.stack_pid = None


class Trace:
    """A parsed sched trace: events in file order, each with its time on
    the dump's base (ns) once placed (place())."""

    def __init__(self, path, text, clock):
        self.path = path
        self.clock = clock
        self.events = []
        self.held = self.written = None
        self.cover = None   # (from, to) of the module's sched file
        self.holes = []     # [start, end, pid or None, why] of that file
        self.first_t = {}   # cpu -> first event time
        # [cpu, n, after, before]: n events (None: unknown) lost on cpu
        # between its events at times after and before (None: no such
        # event), from the "CPU:N [LOST n EVENTS]" lines.
        self.lost_mid = []
        last_t, pending_lost = {}, {}
        last_by_cpu = {}
        cur_stack = None
        for lineno, raw in enumerate(text.splitlines(), 1):
            lm = _LOST_RE.match(raw)
            if lm:
                c = int(lm.group("cpu"))
                gap = [c, int(lm.group("n")) if lm.group("n") else None,
                       last_t.get(c), None]
                self.lost_mid.append(gap)
                pending_lost[c] = gap
                last_by_cpu[c] = ("lost", None)
                cur_stack = None
                continue
            if raw.startswith("#"):
                m = _HEADER_RE.search(raw)
                if m:
                    self.held, self.written = int(m.group(1)), int(m.group(2))
                m = _COVER_RE.match(raw)
                if m:
                    self.cover = (int(m.group(1)), int(m.group(2)))
                m = _HOLE_RE.match(raw)
                if m:
                    self.holes.append([
                        int(m.group(1)),
                        None if m.group(2) == "-" else int(m.group(2)),
                        None if m.group(3) == "all" else int(m.group(3)),
                        m.group(4).strip()])
                continue
            fm = _FRAME_RE.match(raw)
            if fm:
                if cur_stack is not None:
                    cur_stack.append(fm.group("sym") + (
                        " [%s]" % fm.group("mod") if fm.group("mod") else ""))
                continue
            cur_stack = None
            m = _LINE_RE.match(raw)
            if not m:
                continue
            ev_name = m.group("event").strip()
            cpu = int(m.group("cpu"))
            t = self._time(path, lineno, m.group("ts"))
            self.first_t.setdefault(cpu, t)
            last_t[cpu] = t
            if cpu in pending_lost:
                pending_lost.pop(cpu)[3] = t
            pid = int(m.group("pid"))
            if ev_name == "<stack trace>":
                # Recorded after its switch (the trigger with the event, as
                # the 7.2 kernel does) or before it: the switch next to it
                # on the same CPU that has none.
                cur_stack = []
                last = last_by_cpu.get(cpu)
                if last and last[0] == "switch" and last[1].stack is None:
                    last[1].stack, last[1].stack_pid = cur_stack, pid
                    last_by_cpu[cpu] = ("taken", None)
                else:
                    last_by_cpu[cpu] = ("stack", (cur_stack, pid))
                continue
            body = m.group("body")
            if ev_name == "sched_switch":
                sm = _SWITCH_RE.match(body)
                if not sm:
                    raise InputError(path, lineno, "sched_switch without "
                                     "prev_pid/prev_state/next_pid")
                ev = Event("switch", t, cpu, lineno)
                ev.prev, ev.next = int(sm.group("prev")), int(sm.group("next"))
                ev.state = sm.group("state")
                last = last_by_cpu.get(cpu)
                if last and last[0] == "stack":
                    ev.stack, ev.stack_pid = last[1]
                last_by_cpu[cpu] = ("switch", ev)
            elif ev_name in ("sched_waking", "sched_wakeup",
                             "sched_wakeup_new"):
                wm = _WAKEUP_RE.match(body)
                if not wm:
                    raise InputError(path, lineno, "%s without pid=" % ev_name)
                ev = Event("wakeup", t, cpu, lineno)
                ev.pid = int(wm.group("pid"))
                last_by_cpu[cpu] = ("wakeup", ev)
            else:
                last_by_cpu[cpu] = ("other", None)
                continue
            self.events.append(ev)

    def _time(self, path, lineno, ts):
        if self.clock == "arm64-counter" or self.clock == "counter":
            if "." in ts:
                raise InputError(path, lineno, "time %s in seconds, but the "
                                 "trace clock is %s" % (ts, self.clock))
            return int(ts)
        if "." not in ts:
            raise InputError(path, lineno, "time %s without seconds, but "
                             "the trace clock is %s" % (ts, self.clock))
        return int(round(float(ts) * 1e9))

    def lost(self):
        """Events the ring overwrote (full) before it was read."""
        if self.held is None or self.written is None:
            return 0
        return max(self.written - self.held, 0)

    def place(self, dump):
        """Put every event on the dump's time base (ns): counter ticks
        through the summary's rate, local/mono clocks through its sync
        keys (the module's live mode on a distro kernel)."""
        if self.clock == "arm64-counter":
            conv = dump.counter_to_base
        elif self.clock == "local":
            conv = lambda t: dump.clock_to_base("local_clock", t)  # noqa: E731
        else:
            # mono is NTP-slewed: placed through one sync point, an event
            # a minute away is off by ms; "counter" counts events.
            raise InputError(self.path, None, "trace clock %s cannot be put "
                             "on the counter timeline (boot with "
                             "trace_clock=arm64-counter, or trace on the "
                             "local clock)" % self.clock)
        for ev in self.events:
            ev.t = conv(ev.t)
        for gap in self.lost_mid:
            gap[2] = float("-inf") if gap[2] is None else conv(gap[2])
            gap[3] = float("inf") if gap[3] is None else conv(gap[3])
        for hole in self.holes:
            hole[0] = conv(hole[0])
            hole[1] = float("inf") if hole[1] is None else conv(hole[1])
        self.first_t = {c: conv(t) for c, t in self.first_t.items()}
        # The module's file says what it covers (its losses are holes);
        # a ring without a lost event covers all from its first event,
        # with some only from where every CPU's ring still starts.
        if self.cover is not None:
            if self.cover[1] > self.cover[0]:
                self.covered_from, self.covered_to = map(conv, self.cover)
            else:
                self.covered_from = self.covered_to = None
        elif not self.first_t:
            self.covered_from = None
        elif self.lost():
            self.covered_from = max(self.first_t.values())
        else:
            self.covered_from = min(self.first_t.values())
        if self.cover is None:
            self.covered_to = max((ev.t for ev in self.events), default=None)
        self.by_pid = {}
        for ev in self.events:
            pids = {ev.prev, ev.next} if ev.kind == "switch" else {ev.pid}
            for p in pids:
                if p:
                    self.by_pid.setdefault(p, []).append(ev)
        for evs in self.by_pid.values():
            evs.sort(key=lambda e: e.t)
        return self


def read_clock(path):
    """The selected clock of a copy of tracefs' trace_clock ("[x]"), or None
    without the file."""
    if not os.path.exists(path):
        return None
    with open(path, encoding="utf-8") as f:
        m = re.search(r"\[([^\]]+)\]", f.read())
    if not m:
        raise InputError(path, 1, "no clock in brackets (a copy of "
                         "/sys/kernel/tracing/trace_clock?)")
    return m.group(1)


def load(dump):
    """The dump's sched.trace, else its sched (the module's), placed, or
    None when the dump has neither."""
    path = os.path.join(dump.dir, "sched.trace")
    own = os.path.join(dump.dir, "sched")
    if not os.path.exists(path) and os.path.exists(own):
        with open(own, encoding="utf-8", errors="replace") as f:
            text = f.read()
        trace = Trace(own, text, "arm64-counter")
        if trace.cover is None:
            raise InputError(own, 1, "no \"# recording from: A to: B\" "
                             "line (not the bootstamp module's sched file?)")
        # A copy of another load's file beside this dump would split the
        # rows with events that are not theirs.
        m = re.search(r"^# load_id: (\S+)", text, re.M)
        want = (dump.meta.get("load_id") or "").lower()
        if m and want and m.group(1).lower() != want:
            raise InputError(own, None, "load_id %s, but the summary's is %s: "
                             "copy sched with the other files of the same "
                             "load" % (m.group(1), want))
        return trace.place(dump)
    if not os.path.exists(path):
        return None
    clock = read_clock(os.path.join(dump.dir, "trace_clock"))
    if clock is None:
        # Not guessed from the time column: seconds may be local, mono,
        # boot or global, each placed differently.
        raise InputError(path, None, "no trace_clock beside it (copy "
                         "/sys/kernel/tracing/trace_clock with the trace)")
    with open(path, encoding="utf-8", errors="replace") as f:
        text = f.read()
    return Trace(path, text, clock).place(dump)


def site(stack, t=None, own=None, loaded=None):
    """The blocking call site of a switch-out's stack (innermost frame
    first): "msleep in foo_probe [foo]", the frame below the outermost
    sleep primitive with its module; "?" without a stack or a named frame.

    A frame in a module's init code, freed before the trace was read, may
    be named after whatever took its place: such a name is not given
    ("msleep in ? (module init code, name unreliable: bar_fn [bar])") when
    its module's first initcall (@loaded: module -> start, ns) began after
    the switch-out at @t, or when the row is module @own's initcall and the
    frame is in another module whose initcall the dump does not have."""
    if not stack:
        return "? (no stack)"
    frames = []
    for sym in stack:
        name = sym.split()[0].split("+", 1)[0]
        mm = re.search(r"\[([^\]]+)\]\s*$", sym)
        frames.append((None if re.fullmatch(r"(0x)?[0-9a-fA-F]{8,}", name)
                       else name, mm.group(1) if mm else None))
    prim = None
    for name, mod in frames:
        if name is None:
            return "%s in ?" % prim if prim else "?"
        if _TRACE_FRAMES.match(name):
            continue
        base = re.sub(r"(\.(constprop|isra|part|llvm)\.\d+|\.cold)+$", "",
                      name)
        if base in SLEEP_PRIMITIVES:
            prim = base
            continue
        frame = "%s [%s]" % (name, mod) if mod else name
        if mod and loaded is not None and (
                (t is not None and mod in loaded and loaded[mod] > t) or
                (own and mod != own and mod not in loaded)):
            frame = "? (module init code, name unreliable: %s)" % frame
        return "%s in %s" % (prim, frame) if prim else frame
    return prim or "?"


class Split:
    """One task's interval split: on_ns, runnable_ns, blocked_ns and the
    blocked time per site (list of [site, ns, count], largest first)."""

    def __init__(self, pid, start, end):
        self.pid, self.start, self.end = pid, start, end
        self.on_ns = self.runnable_ns = self.blocked_ns = 0
        self.sites = {}
        self.switches = 0
        self.migrations = 0
        # Why the split cannot be trusted (events out of order or lost,
        # a stack of another task): the report then does not split it.
        self.problems = []
        # (state, start, end, site): the runnable and blocked stretches.
        self.segments = []

    @property
    def wall_ns(self):
        return self.end - self.start

    def site_list(self):
        return sorted(([s, ns, n] for s, (ns, n) in self.sites.items()),
                      key=lambda x: (-x[1], x[0]))


def attribute(trace, pid, start, end, own=None, loaded=None):
    """Split [start, end] (dump base, ns) of task @pid; None when the trace
    does not cover the interval or @pid is 0 (idle). @own, @loaded: as
    site() takes them (the row's module if it is a module's initcall, and
    the start of each module's first initcall)."""
    if not pid or trace.covered_from is None or start < trace.covered_from \
            or trace.covered_to is None or end > trace.covered_to:
        return None
    sp = Split(pid, start, end)
    state, since, where, cpu = "on", start, None, None
    # A wakeup seen while the task ran: if its sleeping switch-out then
    # gets no wakeup of its own before the switch back, the waker beat
    # the switch's trace (review A1) and the task was runnable from it.
    woken_on, woken_before_out = False, False
    for ev in trace.by_pid.get(pid, []):
        if ev.t <= start:
            continue
        if ev.t >= end:
            break
        if ev.kind == "switch" and ev.prev == pid:
            if state != "on":
                sp.problems.append("a switch from it while it was off the "
                                   "CPU at %.3f ms: a switch-in missing"
                                   % (ev.t / 1e6))
                continue
            if ev.stack_pid is not None and ev.stack_pid != pid and \
                    not ev.state.startswith("R"):
                sp.problems.append("a stack of pid %d on its switch-out at "
                                   "%.3f ms" % (ev.stack_pid, ev.t / 1e6))
            sp.on_ns += ev.t - since
            sp.switches += 1
            since, cpu = ev.t, ev.cpu
            if ev.state.startswith("R"):
                state = "runnable"
            else:
                state, where = "blocked", site(ev.stack, ev.t, own, loaded)
                woken_before_out = woken_on
        elif ev.kind == "switch" and ev.next == pid:
            if state == "on":
                sp.problems.append("a switch to it while it ran at %.3f "
                                   "ms: a switch-out missing" % (ev.t / 1e6))
            if state == "blocked" and woken_before_out:
                state = "runnable"
            _close(sp, state, since, ev.t, where)
            if cpu is not None and ev.cpu != cpu:
                sp.migrations += 1
            state, since, where = "on", ev.t, None
            woken_on = woken_before_out = False
        elif ev.kind == "wakeup" and ev.pid == pid and state == "on":
            woken_on = True
        elif ev.kind == "wakeup" and ev.pid == pid and state == "blocked":
            _close(sp, state, since, ev.t, where)
            state, since, where = "runnable", ev.t, None
    _close(sp, state, since, end, where)
    for c, n, after, before in trace.lost_mid:
        if after < end and before > start:
            sp.problems.append("%s events lost on cpu %d" % (
                n if n is not None else "some", c))
    for h_start, h_end, h_pid, why in trace.holes:
        if h_start < end and h_end > start and h_pid in (None, pid):
            sp.problems.append("events not kept from %.3f ms (%s)" % (
                h_start / 1e6, why or "no reason given"))
    return sp


def _close(sp, state, since, t, where):
    d = max(t - since, 0)
    if state == "on":
        sp.on_ns += d
        return
    if state == "runnable":
        sp.runnable_ns += d
    else:
        sp.blocked_ns += d
        ns, n = sp.sites.get(where, (0, 0))
        sp.sites[where] = (ns + d, n + 1)
    if d:
        sp.segments.append((state, since, since + d, where))


def json_events(splits, pid=2):
    """Chrome trace events for the runnable and blocked stretches of each
    (name, Split): X slices on the task's track (pid 2, tid = the task, as
    the module's trace.json puts initcalls and probes), which nest inside
    the row's own slice. A stretch that an enclosing row repeats (a probe
    inside an initcall of the same task) is given once."""
    out, seen = [], set()
    for name, sp in splits:
        for state, start, end, where in sp.segments:
            label = "blocked: %s" % where if state == "blocked" \
                else "runnable"
            key = (sp.pid, start, end, label)
            if key in seen:
                continue
            seen.add(key)
            out.append({"ph": "X", "pid": pid, "tid": sp.pid, "name": label,
                        "cat": "sched", "ts": start / 1000.0,
                        "dur": (end - start) / 1000.0,
                        "args": {"in": name, "state": state}})
    return out


def probe_tries(rows):
    """Probe rows grouped per device and driver, in start order: {(device,
    driver): [row, ...]}; more than one row is a deferred probe's tries."""
    out = {}
    for r in sorted(rows, key=lambda r: (r["start_ns"] is None,
                                         r["start_ns"] or 0)):
        out.setdefault((r["device"], r["driver"]), []).append(r)
    return out
