# SPDX-License-Identifier: GPL-2.0
"""Terminal report: milestones, slowest initcalls, CPU bring-up."""

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


def render(dump, top=10, width=24):
    out = []
    meta = dump.meta
    out.append("bootstamp: %s mode, %s at %s, times in ms since %s" % (
        meta.get("mode", "?"), meta.get("counter", "?"),
        _freq(meta.get("freq_hz")),
        meta.get("time_base", "?").replace("_", " ")))
    notes = []
    if meta.get("log") not in (None, "complete", "absent"):
        notes.append("boot log still %s" % meta.get("log"))
    for key in ("log_dropped", "live_initcalls_dropped", "live_cpu_dropped",
                "marks_dropped"):
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
        total = sum(r["duration_ns"] for r in calls)
        out.append("Top %d of %d initcalls by duration (%s ms in all)" % (
            len(slow), len(calls), ms(total, 0)))
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
    return "\n".join(line.rstrip() for line in out) + "\n"
