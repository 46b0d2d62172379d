# SPDX-License-Identifier: GPL-2.0
"""SVG timeline: CPU bring-up rows, initcall lanes per CPU, milestones."""

import math
from xml.sax.saxutils import escape

from . import sched
from .parse import CPU_POINTS

WIDTH = 1400
LEFT = 150
RIGHT = 30
ROW = 18
GAP = 6
TOP = 150

PHASE_COLOURS = ["#9ecae1", "#6baed6", "#4292c6", "#2171b5", "#08519c"]
LEVEL_COLOURS = {
    "early": "#fdae6b", "pure": "#fd8d3c", "core": "#f16913",
    "postcore": "#d94801", "arch": "#a1d99b", "subsys": "#74c476",
    "fs": "#41ab5d", "device": "#238b45", "late": "#807dba",
    "console": "#bcbddc", "module": "#e7298a",
}


def _nice_step(span_ms, ticks=12):
    raw = max(span_ms / ticks, 1e-6)
    mag = 10 ** math.floor(math.log10(raw))
    for m in (1, 2, 5, 10):
        if raw <= m * mag:
            return m * mag
    return 10 * mag


def milestone_time(meta, row):
    if meta.get("time_base") == "kernel_entry":
        return row["since_entry_ns"]
    return row["since_cnt0_ns"]


STRETCH_COLOURS = {"blocked": "#333", "runnable": "#e8a33d"}


def _stretches(o, x, y, sp):
    """The runnable and blocked stretches of @sp (a sched.Split, or None)
    over the lower half of the bar at row @y, each with its site."""
    for state, start, end, where in sp.segments if sp else []:
        label = "blocked: %s" % where if state == "blocked" else "runnable"
        o.append('<rect x="%.1f" y="%d" width="%.1f" height="%d" fill="%s" '
                 'fill-opacity="0.6"><title>%s: %.3f ms</title></rect>' % (
                     x(start), y + ROW // 2, max(x(end) - x(start), 0.5),
                     ROW - ROW // 2, STRETCH_COLOURS[state], escape(label),
                     (end - start) / 1e6))


def render(dump, label_top=15, everything=False):
    """Return the SVG text.

    In full mode the axis ends at init_exec unless @everything: module
    loads and hotplug much later would squash the boot into a sliver.
    """
    meta = dump.meta
    calls = dump.initcalls.rows
    cpus = dump.cpus.rows if dump.cpus else []
    stones = [(r["milestone"], milestone_time(meta, r))
              for r in dump.summary.rows]
    stones = [(n, t) for n, t in stones if t is not None]
    # systemd's boot events (--journal), on the same time base.
    events = [(e["message"], e["t_ns"]) for e in
              getattr(dump, "journal", None) or []]
    hidden = 0
    end = dict(stones).get("init_exec")
    if end is not None and not everything:
        limit = end * 1.05
        keep_c = [c for c in calls if (c["start_ns"] or 0) <= limit]
        keep_r = [r for r in cpus if min(r[p + "_ns"] for p in CPU_POINTS
                                         if r[p + "_ns"] is not None)
                  <= limit]
        keep_s = [(n, t) for n, t in stones if t <= limit]
        keep_e = [(n, t) for n, t in events if t <= limit]
        hidden = len(calls) - len(keep_c) + len(cpus) - len(keep_r) + \
            len(stones) - len(keep_s) + len(events) - len(keep_e)
        calls, cpus, stones, events = keep_c, keep_r, keep_s, keep_e

    times = [t for _, t in stones] + [t for _, t in events]
    for c in calls:
        if c["start_ns"] is not None:
            times += [c["start_ns"], c["start_ns"] + c["duration_ns"]]
    for r in cpus:
        times += [r[p + "_ns"] for p in CPU_POINTS
                  if r[p + "_ns"] is not None]
    if not times:
        times = [0]
    t0, t1 = min(times), max(times)
    if meta.get("time_base") == "kernel_entry":
        t0 = min(t0, 0)
    span = max(t1 - t0, 1)
    plot_w = WIDTH - LEFT - RIGHT

    def x(t):
        return LEFT + (t - t0) * plot_w / span

    # With the dump's sched.trace: each initcall's and boot bring-up's
    # runnable and blocked stretches over the lower half of its bar.
    sched_splits = {}
    if getattr(dump, "sched", None) is not None:
        from . import text  # noqa: E402 (text imports nothing of svg)
        loaded = text.loaded_modules(dump)
        for c in calls:
            if c["pid"] and c["start_ns"] is not None:
                sp = sched.attribute(
                    dump.sched, c["pid"], c["start_ns"],
                    c["start_ns"] + c["duration_ns"],
                    None if c["module"] in ("vmlinux", "-") else c["module"],
                    loaded)
                if sp and not sp.problems:
                    sched_splits[("initcall", c["symbol"], c["start_ns"])] = sp
        for name, sp in text.splits(dump, dump.sched)[0]:
            if name.startswith("cpu "):
                sched_splits[("cpu", int(name.split()[1]), sp.start)] = sp

    # Built-in initcalls run one at a time (kernel_init): a lane per CPU.
    # Module initcalls run in the task that loads the module, in parallel
    # under udev: a lane per task, as trace.json has them, so that no two
    # overlap on one lane.
    def lane_of(c):
        if c["module"] in ("vmlinux", "-"):
            return (0, c["cpu"] if c["cpu"] is not None else -1)
        if c["pid"]:
            return (1, c["pid"])
        return (2, c["module"])

    lanes = sorted({lane_of(c) for c in calls},
                   key=lambda k: (k[0], k[1] if k[0] < 2 else 0, str(k[1])))
    height = TOP + (len(cpus) + len(lanes) + 2) * (ROW + GAP) + 60
    o = []
    o.append('<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" '
             'font-family="sans-serif" font-size="11">' % (WIDTH, height))
    o.append('<rect width="100%" height="100%" fill="white"/>')
    o.append('<text x="10" y="20" font-size="15" font-weight="bold">'
             'bootstamp: %s mode, %s at %s Hz, ms since %s</text>' % (
                 escape(meta.get("mode", "?")),
                 escape(meta.get("counter", "?")),
                 escape(meta.get("freq_hz", "?")),
                 escape(meta.get("time_base", "?").replace("_", " "))))
    if hidden:
        o.append('<text x="10" y="38" fill="#666">%d events after init_exec '
                 'not shown (bootreport --svg-all)</text>' % hidden)

    # Axis and grid.
    axis_y = height - 40
    step = _nice_step(span / 1e6)
    tick = math.ceil(t0 / 1e6 / step) * step
    while tick * 1e6 <= t1:
        tx = x(tick * 1e6)
        o.append('<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#eee"/>'
                 % (tx, TOP - 10, tx, axis_y))
        o.append('<text x="%.1f" y="%d" text-anchor="middle">%g</text>' %
                 (tx, axis_y + 15, round(tick, 6)))
        tick += step
    o.append('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="black"/>' %
             (LEFT, axis_y, WIDTH - RIGHT, axis_y))
    o.append('<text x="%d" y="%d" text-anchor="middle">ms</text>' %
             (WIDTH // 2, axis_y + 32))

    y = TOP
    if cpus:
        o.append('<text x="10" y="%d" font-weight="bold">CPU bring-up</text>'
                 % (y + 12))
        y += ROW + GAP
    for r in cpus:
        o.append('<text x="10" y="%d">cpu%d %s</text>' % (
            y + 13, r["cpu"], escape(r["source"])))
        pts = [(p, r[p + "_ns"]) for p in CPU_POINTS
               if r[p + "_ns"] is not None]
        for i in range(1, len(pts)):
            (pa, ta), (pb, tb) = pts[i - 1], pts[i]
            w = max(x(tb) - x(ta), 1)
            o.append('<rect x="%.1f" y="%d" width="%.1f" height="%d" '
                     'fill="%s"><title>cpu%d %s..%s: %.3f ms</title></rect>'
                     % (x(ta), y, w, ROW, PHASE_COLOURS[(i - 1) % 5],
                        r["cpu"], pa, pb, (tb - ta) / 1e6))
        for p, t in pts:
            o.append('<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" '
                     'stroke="black"><title>%s</title></line>' %
                     (x(t), y, x(t), y + ROW, p))
        _stretches(o, x, y, sched_splits.get(("cpu", r["cpu"],
                                              r["requested_ns"])))
        y += ROW + GAP

    if lanes:
        o.append('<text x="10" y="%d" font-weight="bold">Initcalls</text>' %
                 (y + 12))
        y += ROW + GAP
    longest = {id(c) for c in sorted(calls, key=lambda c: -c["duration_ns"])
               [:label_top]}
    for lane in lanes:
        kind, key = lane
        o.append('<text x="10" y="%d">%s</text>' % (y + 13, escape(
            "cpu%d" % key if kind == 0 else "pid %d" % key if kind == 1
            else str(key))))
        for c in calls:
            if lane_of(c) != lane or c["start_ns"] is None:
                continue
            x0 = x(c["start_ns"])
            w = max(x(c["start_ns"] + c["duration_ns"]) - x0, 1)
            name = c["symbol"] if c["module"] == "vmlinux" else \
                "%s [%s]" % (c["symbol"], c["module"])
            o.append('<rect x="%.1f" y="%d" width="%.1f" height="%d" '
                     'fill="%s" stroke="#333" stroke-width="0.3"><title>'
                     '%s (%s): %.3f ms, ret %d</title></rect>' % (
                         x0, y, w, ROW, LEVEL_COLOURS.get(c["level"], "#999"),
                         escape(name), escape(c["level"]),
                         c["duration_ns"] / 1e6, c["ret"]))
            _stretches(o, x, y, sched_splits.get(("initcall", c["symbol"],
                                                  c["start_ns"])))
            if id(c) in longest:
                o.append('<text x="%.1f" y="%d" font-size="9" '
                         'transform="rotate(-30 %.1f %d)">%s</text>' % (
                             x0 + 1, y - 1, x0 + 1, y - 1, escape(name)))
        y += ROW + GAP

    # Milestones closer than a label's height share one label, so that
    # rotated labels never overlap (kernel_entry/start_kernel, the levels).
    groups = []
    for name, t in sorted(stones, key=lambda s: s[1]):
        tx = x(t)
        o.append('<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#c00" '
                 'stroke-dasharray="4,3"><title>%s</title></line>' % (
                     tx, TOP - 10, tx, axis_y, escape(name)))
        if groups and tx - groups[-1][0] < 10:
            groups[-1][1].append(name)
        else:
            groups.append((tx, [name]))
    for tx, names in groups:
        o.append('<text x="%.1f" y="%d" fill="#c00" font-size="10" '
                 'transform="rotate(-45 %.1f %d)">%s</text>' % (
                     tx, TOP - 14, tx, TOP - 14, escape(", ".join(names))))
    # Journal events: green lines, labelled when they are targets or the
    # end of startup (the many "Started" units only carry a tooltip).
    last_x = None
    for name, t in events:
        tx = x(t)
        o.append('<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#2a2" '
                 'stroke-dasharray="2,3"><title>%s</title></line>' % (
                     tx, TOP - 10, tx, axis_y, escape(name)))
        if not name.startswith("Started ") and (last_x is None or
                                                tx - last_x >= 10):
            o.append('<text x="%.1f" y="%d" fill="#2a2" font-size="9" '
                     'transform="rotate(-45 %.1f %d)">%s</text>' % (
                         tx, axis_y - 4, tx, axis_y - 4, escape(name[:40])))
            last_x = tx
    o.append("</svg>")
    return "\n".join(o) + "\n"
