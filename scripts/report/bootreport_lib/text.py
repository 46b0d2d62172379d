# SPDX-License-Identifier: GPL-2.0
"""Terminal reports: one dump (split, milestones, slowest initcalls and
probes, CPU bring-up, journal events), compare and stats."""

from . import analysis, sched
from .sources import EPROBE_DEFER

BLOCKS = " ▏▎▍▌▋▊▉█"


def bar(value, scale, width):
    """A left-aligned bar of unicode blocks, value/scale of @width cells.

    Values above @scale get a full bar ending in an arrow.
    """
    if not scale or value is None or value <= 0:
        return ""
    if value > scale:
        return BLOCKS[8] * (width - 1) + "▶"
    eighths = int(round(min(value / scale, 1.0) * width * 8))
    if eighths == 0:
        return BLOCKS[1]
    return BLOCKS[8] * (eighths // 8) + (BLOCKS[eighths % 8]
                                         if eighths % 8 else "")


def ms(ns, width=10):
    """Nanoseconds as milliseconds with microsecond precision."""
    if ns is None:
        return "-".rjust(width)
    return ("%.3f" % (ns / 1e6)).rjust(width)


def _freq(hz):
    try:
        hz = int(hz)
    except (TypeError, ValueError):
        return "? Hz"
    return "%g MHz" % (hz / 1e6) if hz >= 1000000 else "%d Hz" % hz


def split_lines(sp):
    return [sp.line()] + ["  (%s)" % n for n in sp.notes()]


def render(dump, top=10, width=24, userspace_end=None):
    out = []
    meta = dump.meta
    out += split_lines(analysis.Split(dump, userspace_end))
    out.append("bootstamp: %s mode, %s at %s, times in ms since %s" % (
        meta.get("mode", "?"), meta.get("counter", "?"),
        _freq(meta.get("freq_hz")),
        meta.get("time_base", "?").replace("_", " ")))
    notes = []
    if meta.get("log") not in (None, "complete", "absent"):
        notes.append("boot log still %s" % meta.get("log"))
    for key in ("log_dropped", "live_initcalls_dropped", "live_cpu_dropped",
                "live_probes_dropped", "marks_dropped"):
        if meta.get(key, "0") not in ("0", ""):
            notes.append("%s=%s" % (key, meta[key]))
    if meta.get("live", "on") != "on":
        notes.append("live recording off (%s)" % meta["live"])
    if notes:
        out.append("warning: " + ", ".join(notes))

    rows = dump.summary.rows
    out.append("")
    out.append("Milestones")
    name_w = max([len(r["milestone"]) for r in rows] + [9])
    out.append("  %-*s %12s %12s %12s" % (name_w, "milestone", "since cnt0",
                                          "since entry", "delta"))
    # Scale to the boot milestones: module_load comes long after them.
    boot = [r for r in rows if r["milestone"] != "module_load" and
            not r["milestone"].startswith("mark:")]
    scale = max([r["delta_ns"] or 0 for r in (boot or rows)] + [1])
    for r in rows:
        out.append("  %-*s %12s %12s %12s  %s" % (
            name_w, r["milestone"], ms(r["since_cnt0_ns"], 12),
            ms(r["since_entry_ns"], 12), ms(r["delta_ns"], 12),
            bar(r["delta_ns"], scale, width)))

    calls = dump.initcalls.rows
    out.append("")
    if calls:
        slow = sorted(calls, key=lambda r: -r["duration_ns"])[:top]
        # Module inits loaded in parallel (udev) overlap: the time with an
        # initcall running is the union, the sum counts overlaps twice.
        out.append("Top %d of %d initcalls by duration (%s over parallel "
                   "module inits)" % (len(slow), len(calls),
                                      totals(calls, "an initcall")))
        sym_w = max(len(r["symbol"]) for r in slow)
        scale = slow[0]["duration_ns"] or 1
        for r in slow:
            where = r["module"] if r["module"] != "vmlinux" else r["level"]
            ret = "" if r["ret"] == 0 else "  ret %d" % r["ret"]
            out.append("  %s  %-*s  %-*s  [%s]%s" % (
                ms(r["duration_ns"], 9), width, bar(r["duration_ns"], scale,
                                                    width),
                sym_w, r["symbol"], where, ret))
    else:
        out.append("Initcalls: none recorded")

    probes = analysis.probe_rows(dump)
    if probes:
        out.append("")
        out += render_probes(probes, top, width)
        out += probe_cost_line(meta, probes)
    running = getattr(dump, "probes_running", None) or []
    if running:
        out.append("  still probing when the file was read: " + ", ".join(
            r["device"] for r in running))

    trace = getattr(dump, "sched", None)
    if trace is not None:
        out.append("")
        out += render_attribution(dump, trace, top)

    out.append("")
    cpus = dump.cpus.rows if dump.cpus else []
    if cpus:
        out.append("CPU bring-up (ms; total = requested or entry to "
                   "finished or online)")
        out.append("  %3s %-4s %10s %10s %10s %10s %10s %10s %10s" % (
            "cpu", "src", "requested", "entry", "start_krn", "online",
            "active", "finished", "total"))
        for r in cpus:
            pts = [r[p + "_ns"] for p in ("requested", "entry",
                                          "start_kernel", "online",
                                          "active", "finished")]
            seen = [p for p in pts if p is not None]
            total = seen[-1] - seen[0] if len(seen) > 1 else None
            out.append("  %3d %-4s %s %10s%s" % (
                r["cpu"], r["source"], " ".join(ms(p) for p in pts),
                ms(total), "  ret %d" % r["ret"] if r["ret"] else ""))
    else:
        out.append("CPU bring-up: none recorded")
    journal = getattr(dump, "journal", None)
    if journal is not None:
        out.append("")
        out += render_journal(journal, dump)
    return "\n".join(line.rstrip() for line in out) + "\n"


def totals(rows, running):
    """"N ms with @running running; M ms added up" for timed @rows: the
    union of their intervals (rows without a start left out and counted),
    then the plain sum, which counts nested and parallel time twice."""
    placed = [r for r in rows if r["start_ns"] is not None]
    unplaced = len(rows) - len(placed)
    return "%s ms with %s running%s; %s ms added up" % (
        ms(analysis.wall_ns(placed), 0), running,
        ", not counting %d without a start" % unplaced if unplaced else "",
        ms(sum(r["duration_ns"] for r in rows), 0))


def render_probes(probes, top, width):
    """The longest probes, deferred attempts per device, async marked."""
    out = []
    slow = sorted(probes, key=lambda r: -r["duration_ns"])[:top]
    srcs = sorted({r.get("source", "probes") for r in probes})
    out.append("Top %d of %d probes by duration (%s over nested and "
               "parallel probes; from %s)" % (
                   len(slow), len(probes), totals(probes, "a probe"),
                   " and ".join(srcs)))
    dev_w = max(len(r["device"]) for r in slow)
    scale = slow[0]["duration_ns"] or 1
    for r in slow:
        tags = []
        if r["driver"] != "-":
            tags.append(r["driver"])
        if r["async"] == "yes":
            tags.append("async")
        if r["ret"] == EPROBE_DEFER:
            tags.append("deferred")
        elif r["ret"]:
            tags.append("ret %d" % r["ret"])
        out.append("  %s  %-*s  %-*s  %s" % (
            ms(r["duration_ns"], 9), width, bar(r["duration_ns"], scale,
                                                width),
            dev_w, r["device"], "[%s]" % ", ".join(tags) if tags else ""))
    deferred = {}
    for r in probes:
        if r["ret"] == EPROBE_DEFER:
            deferred[r["device"]] = deferred.get(r["device"], 0) + 1
    if deferred:
        out.append("  deferred probe attempts (-EPROBE_DEFER): " + ", ".join(
            "%s %d" % (d, n) for d, n in sorted(
                deferred.items(), key=lambda x: (-x[1], x[0]))))
    nasync = sum(r["async"] == "yes" for r in probes)
    if nasync:
        out.append("  %d of %d probes ran asynchronously" % (nasync,
                                                          len(probes)))
    return out


def probe_cost_line(meta, probes):
    """What the module's kretprobe added to the probes it recorded: its
    own figure per call (summary's probe_cost_ns, measured warm at the
    summary's first read, so a lower bound) times
    their number; nothing from a module that does not say it."""
    try:
        cost = int(meta.get("probe_cost_ns", "-"))
    except ValueError:
        return []
    n = sum(r.get("source", "probes") == "probes" for r in probes)
    if not n:
        return []
    return ["  recording them cost at least about %.1f us per probe (the "
            "module's own figure, probe_cost_ns, measured warm): %.3f ms "
            "over these %d" % (cost / 1e3, n * cost / 1e6, n)]


def _ms1(ns):
    return "%.1f" % (ns / 1e6)


def attribution_line(name, sp):
    """"foo 100.2 ms: on-CPU 20.1, runnable 0.3, blocked 79.8 (msleep in
    foo_probe 50.0; ...)"."""
    line = "%s %s ms: on-CPU %s, runnable %s, blocked %s" % (
        name, _ms1(sp.wall_ns), _ms1(sp.on_ns), _ms1(sp.runnable_ns),
        _ms1(sp.blocked_ns))
    sites = sp.site_list()
    if sites:
        line += " (%s)" % "; ".join(
            "%s %s%s" % (s, _ms1(ns), " x%d" % n if n > 1 else "")
            for s, ns, n in sites)
    return line


def loaded_modules(dump):
    """{module: start (ns) of its first initcall}: a frame of a module that
    was loaded after a sleep is not that sleep's (sched.site)."""
    out = {}
    for r in dump.initcalls.rows if dump.initcalls else []:
        if r["module"] not in ("vmlinux", "-") and r["start_ns"] is not None:
            out[r["module"]] = min(out.get(r["module"], r["start_ns"]),
                                   r["start_ns"])
    return out


def attribution_items(dump):
    """(name, pid, start_ns, end_ns, module) of every initcall and probe
    row with a task and an end, and of every CPU brought up at boot: the
    intervals the sched trace can split; module is the initcall's module
    (None for built-in code, probes and CPUs)."""
    out = []
    for r in dump.initcalls.rows if dump.initcalls else []:
        if r["pid"] and r["start_ns"] is not None and r["duration_ns"]:
            builtin = r["module"] in ("vmlinux", "-")
            name = r["symbol"] if builtin else \
                "%s [%s]" % (r["symbol"], r["module"])
            out.append(("initcall " + name, r["pid"], r["start_ns"],
                        r["start_ns"] + r["duration_ns"],
                        None if builtin else r["module"]))
    # A CPU brought up at boot: smp_init() in kernel_init (pid 1) asks for
    # it and waits until it is up, from requested to finished. The rows of
    # later bring-ups (hotplug) name no task.
    for r in dump.cpus.rows if dump.cpus else []:
        if r["source"] == "boot" and r["requested_ns"] is not None and \
                r["finished_ns"] is not None:
            out.append(("cpu %d bring-up" % r["cpu"], 1, r["requested_ns"],
                        r["finished_ns"], None))
    tries = sched.probe_tries(analysis.probe_rows(dump))
    for (dev, drv), rows in tries.items():
        for i, r in enumerate(rows, 1):
            if not r["pid"] or r["start_ns"] is None:
                continue
            name = "probe %s [%s]" % (dev, drv)
            if len(rows) > 1:
                name += " try %d" % i
            out.append((name, r["pid"], r["start_ns"],
                        r["start_ns"] + r["duration_ns"], None))
    return out


def splits(dump, trace):
    """[(name, Split)] of the rows the trace covers, how many it does not,
    and [(name, Split)] of those it covers but cannot split (events out of
    order or lost, a stack of another task: Split.problems)."""
    out, uncovered, refused = [], 0, []
    loaded = loaded_modules(dump)
    for name, pid, start, end, own in attribution_items(dump):
        sp = sched.attribute(trace, pid, start, end, own, loaded)
        if sp is None:
            uncovered += 1
        elif sp.problems:
            refused.append((name, sp))
        else:
            out.append((name, sp))
    return out, uncovered, refused


def render_attribution(dump, trace, top):
    """Per slow initcall and probe: on-CPU, runnable, blocked and where it
    blocked, from the dump's sched events; deferred probes' tries."""
    out = ["Where the time went (initcalls, probes, CPU bring-up; "
           "%s on the %s clock: %d "
           "switches and wakeups%s)" % (
               "sched.trace" if trace.cover is None else
               "the module's sched file", trace.clock, len(trace.events),
               ", %d events lost: only from %s ms on" % (
                   trace.lost(), ms(trace.covered_from, 0))
               if trace.lost() else "")]
    split, uncovered, refused = splits(dump, trace)
    split.sort(key=lambda x: -x[1].wall_ns)
    for name, sp in split[:top]:
        out.append("  " + attribution_line(name, sp))
    for name, sp in sorted(refused, key=lambda x: -x[1].wall_ns)[:top]:
        out.append("  %s %s ms: not split (%s)" % (
            name, _ms1(sp.wall_ns), "; ".join(sp.problems)))
    if not split and not refused:
        out.append("  no initcall or probe inside the trace")
    if uncovered:
        out.append("  (%d rows outside the trace or without a task: not "
                   "split)" % uncovered)
    for (dev, drv), rows in sched.probe_tries(
            analysis.probe_rows(dump)).items():
        if len(rows) < 2 and rows[0]["ret"] != EPROBE_DEFER:
            continue
        parts = []
        for i, r in enumerate(rows, 1):
            ret = "-EPROBE_DEFER" if r["ret"] == EPROBE_DEFER else \
                ("ok" if r["ret"] == 0 else "ret %d" % r["ret"])
            parts.append("try %d %s ms (%s, pid %s)" % (
                i, _ms1(r["duration_ns"]), ret, r["pid"]))
        ndef = sum(r["ret"] == EPROBE_DEFER for r in rows)
        tries = "%d tr%s" % (len(rows), "y" if len(rows) == 1 else "ies")
        if not ndef:
            # Unbound and bound again, or a module reloaded: no deferral.
            out.append("  probe %s [%s]: %s, none deferred (unbound and "
                       "bound again, or its module reloaded): %s" % (
                           dev, drv, tries, "; ".join(parts)))
            continue
        # What slows a boot is the wait from the first try to the bind
        # (a supplier probed later), more than each try's cost.
        bound = [r for r in rows[1:] if r["ret"] == 0 and
                 r["start_ns"] is not None]
        first = rows[0]["start_ns"]
        if bound and first is not None:
            parts.append("bound %s ms after the first try began" % _ms1(
                bound[0]["start_ns"] + bound[0]["duration_ns"] - first))
        elif not any(r["ret"] == 0 for r in rows):
            parts.append("not bound")
        out.append("  deferred probe %s [%s]: %s, deferred %d time%s: "
                   "%s" % (dev, drv, tries, ndef, "" if ndef == 1
                           else "s", "; ".join(parts)))
    return out


def render_journal(journal, dump, limit=25):
    """systemd's boot events on the dump's time base."""
    base = dump.meta.get("time_base", "?").replace("_", " ")
    if not journal:
        return ["Journal: no Started/Reached target/Startup finished entry"]
    out = ["Journal (%d boot events, ms since %s)" % (len(journal), base)]
    keep = [e for e in journal if not e["message"].startswith("Started ")]
    started = [e for e in journal if e["message"].startswith("Started ")]
    room = max(limit - len(keep), 0)
    shown = sorted(keep + started[:room], key=lambda e: e["t_ns"])
    for e in shown:
        out.append("  %s  %s" % (ms(e["t_ns"], 10), e["message"]))
    if len(shown) < len(journal):
        out.append("  (%d more \"Started\" entries; --csv lists them all)"
                   % (len(journal) - len(shown)))
    return out


def _ms(ns):
    return "-" if ns is None else "%.3f" % (ns / 1e6)


def _ratio(r):
    return "" if r is None else "%.2fx" % r


def render_compare(cmp, top=10):
    out = ["bootreport compare: A = %s, B = %s (ms)" % (cmp.a.dir, cmp.b.dir)]
    out += ["  note: " + n for n in cmp.notes()]
    out.append("A: " + cmp.split_a.line())
    out.append("B: " + cmp.split_b.line())
    out.append("")
    out += cmp.headline() or ["(no split phase in both dumps)"]
    titles = {"milestone": "Milestones", "phase": "Split phases",
              "initcall": "Initcalls", "probe": "Probes"}
    for kind in analysis.KINDS:
        rows = [r for r in cmp.of(kind) if r["diff"] is not None]
        if not rows:
            continue
        shown = rows if kind == "phase" else rows[:top]
        out.append("")
        out.append("%s by largest difference (%d of %d in both)" % (
            titles[kind], len(shown), len(rows)))
        name_w = max(len(analysis.label(kind, r["key"])) for r in shown)
        out.append("  %-*s %12s %12s %12s %7s" % (name_w, "item", "A", "B",
                                                 "B-A", "B/A"))
        for r in shown:
            out.append("  %-*s %12s %12s %12s %7s" % (
                name_w, analysis.label(kind, r["key"]), _ms(r["a"]),
                _ms(r["b"]), "%+.3f" % (r["diff"] / 1e6),
                _ratio(r["ratio"])))
    for side, which in (("A", "a"), ("B", "b")):
        only = [r for r in cmp.rows if r["diff"] is None and
                r[which] is not None]
        if only:
            out.append("")
            out.append("Only in %s (%d):" % (side, len(only)))
            for r in only[:top * 2]:
                out.append("  %-9s %s  %s ms" % (
                    r["kind"], analysis.label(r["kind"], r["key"]),
                    _ms(r[which])))
            if len(only) > top * 2:
                out.append("  ... %d more (--csv lists all)" % (
                    len(only) - top * 2))
    return "\n".join(line.rstrip() for line in out) + "\n"


def render_stats(st, top=10):
    n = len(st.dumps)
    out = ["bootreport stats: %d dumps (ms; spread = interquartile range "
           "from 4 values, else max-min)" % n]
    if st.col == "since_cnt0_ns":
        out.append("  note: milestones since counter zero (not every dump "
                   "counts from kernel entry)")
    titles = {"milestone": "Milestones", "phase": "Split phases",
              "initcall": "Initcalls by median duration",
              "probe": "Probes by median duration"}
    for kind in analysis.KINDS:
        rows = st.of(kind, least=2)
        if not rows:
            continue
        total = len(rows)
        if kind in ("initcall", "probe"):
            rows = rows[:top]
        out.append("")
        out.append("%s (%d of %d in 2 or more dumps)" % (
            titles[kind], len(rows), total))
        name_w = max(len(analysis.label(kind, r["key"])) for r in rows)
        out.append("  %-*s %3s %11s %11s %11s %11s" % (
            name_w, "item", "n", "median", "min", "max", "spread"))
        for r in rows:
            out.append("  %-*s %3d %11s %11s %11s %11s %s" % (
                name_w, analysis.label(kind, r["key"]), r["n"],
                _ms(r["median"]), _ms(r["min"]), _ms(r["max"]),
                _ms(r["spread"]), r["how"]))
    miss = st.missing()
    if miss:
        out.append("")
        out.append("Missing in some dumps (%d items):" % len(miss))
        for r in miss[:top * 2]:
            out.append("  %-9s %s: in %d of %d, not in %s" % (
                r["kind"], analysis.label(r["kind"], r["key"]), r["n"], n,
                ", ".join(r["missing"][:3]) +
                (" ..." if len(r["missing"]) > 3 else "")))
        if len(miss) > top * 2:
            out.append("  ... %d more (--csv lists all)" % (
                len(miss) - top * 2))
    return "\n".join(line.rstrip() for line in out) + "\n"
