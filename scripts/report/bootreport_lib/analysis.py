# SPDX-License-Identifier: GPL-2.0
"""The boot split, items of a dump and their comparison and statistics.

An item is one thing with one time in a dump: a milestone (its time on the
time base), a phase of the split (its length), an initcall (its duration)
or a probe (the durations of its attempts, added up). Items of two dumps
are the same item when their kind and key agree: the milestone's name, the
phase's name, level+symbol+module of an initcall, device+driver of a probe.
All times are nanoseconds.
"""

import statistics

INIT_MILESTONE = "init_exec"        # the kernel is about to exec /init
DEFAULT_END = "userspace-ready"     # the mark that ends userspace by default
KINDS = ("milestone", "phase", "initcall", "probe")
# Counter zero to kernel entry is named for what it measures, never
# "firmware": the module's before_entry says what ran there (firmware,
# boot loader, EFI stub on an EFI boot), but not when the board started
# its counter. UEFI says nothing about the Arm counter, and a Raspberry
# Pi 5's VideoCore stage may run before it starts; only ACPI FPDT or a
# board documented to start it at power-on would make it firmware time.
UNVERIFIED_FIRST = "cnt0-to-entry"
# The points that bound the phases, from counter zero on.
PHASE_NAMES = (UNVERIFIED_FIRST, "kernel", "userspace")
# What the module's before_entry names, for the note.
BEFORE_ENTRY_WORDS = {"firmware": "firmware", "bootloader": "boot loader",
                      "efi_stub": "EFI stub"}


def phase_names(dump):
    """PHASE_NAMES: the same for every dump (see UNVERIFIED_FIRST)."""
    return PHASE_NAMES


def before_entry_says(before):
    """What ran before entry, from before_entry: "firmware, boot loader
    and EFI stub ran there", or that it is not known."""
    words = [BEFORE_ENTRY_WORDS[w] for w in (before or "").split(",")
             if w in BEFORE_ENTRY_WORDS]
    if not words:
        return "what ran there is not known"
    if len(words) > 1:
        words = [", ".join(words[:-1]), words[-1]]
    return "%s ran there" % " and ".join(words)


class SplitError(Exception):
    pass


def end_row(dump, name):
    """The summary row ending userspace: @name as given or as a mark."""
    for cand in (name, "mark:" + name):
        r = dump.milestone(cand)
        if r is not None and r["since_cnt0_ns"] is not None:
            return r
    return None


class Split:
    """cnt0-to-entry | kernel | userspace, like systemd-analyze.

    parts: [(label, ns)] between consecutive known points among counter
    zero, kernel_entry, init_exec and the userspace end; a point that is
    missing merges its neighbours ("cnt0-to-entry+kernel"). total: counter zero
    to the last known point. The first part is UNVERIFIED_FIRST, whatever
    the dump says ran before entry.
    """

    def __init__(self, dump, userspace_end=None, strict=True):
        self.end_name = userspace_end or DEFAULT_END
        self.explicit = userspace_end is not None
        entry = dump.milestone("kernel_entry")
        init = dump.milestone(INIT_MILESTONE)
        end = end_row(dump, self.end_name)
        if self.explicit and end is None and strict:
            raise SplitError("no milestone or mark %r in %s (marks: %s)" % (
                self.end_name, dump.dir, ", ".join(
                    r["milestone"][5:] for r in dump.summary.rows
                    if r["milestone"].startswith("mark:")) or "none"))
        self.end = end["milestone"] if end else None
        pts = [0]
        for r in (entry, init, end):
            pts.append(r["since_cnt0_ns"] if r is not None else None)
        self.points = pts
        self.base = dump.base_offset_ns()
        self.parts = []
        self.names = phase_names(dump)
        self.before_entry = dump.summary.meta.get("before_entry", "-")
        last = 0
        for i in range(1, 4):
            if pts[i] is None:
                continue
            self.parts.append(("+".join(self.names[last:i]),
                               pts[i] - pts[last], pts[last]))
            last = i
        self.total = pts[last]
        self.last = last
        self.live_only = entry is None

    def line(self):
        if not self.parts:
            return ("Startup: unknown (no kernel_entry, %s or %s stamp: a "
                    "live-only dump without the mark)" % (
                        INIT_MILESTONE, self.end_name))
        s = "Startup finished in " + " + ".join(
            "%.3fs (%s)" % (ns / 1e9, label) for label, ns, _ in self.parts)
        return s + " = %.3fs" % (self.total / 1e9)

    def notes(self):
        out = []
        if self.live_only:
            out.append("live-only dump: no kernel_entry or %s stamp, so "
                       "what ran before the kernel and the kernel cannot "
                       "be told apart" % INIT_MILESTONE)
        else:
            out.append("%s: counter zero to kernel entry, not verified as "
                       "firmware time; before_entry=%s: %s; when the "
                       "counter started is unverified (UEFI does not say; "
                       "unknown for the Raspberry Pi 5)" % (
                           UNVERIFIED_FIRST, self.before_entry,
                           before_entry_says(self.before_entry)))
        if self.end is None:
            out.append("userspace: no mark %r; stamp the end of boot with "
                       "`echo %s > /sys/kernel/debug/bootstamp/mark` or "
                       "name another mark with --userspace-end NAME" % (
                           self.end_name, self.end_name))
        elif self.end != "mark:" + DEFAULT_END or self.explicit:
            out.append("userspace ends at %s" % self.end)
        return out

    def items(self):
        out = [("phase", (label,), ns) for label, ns, _ in self.parts]
        if self.parts:
            out.append(("phase", (self.total_name(),), self.total))
        return out

    def total_name(self):
        """"total" up to the userspace end; a total that ends earlier is
        another item, so that compare and stats never mix the two."""
        if self.last == 3:
            return "total"
        return "total to " + ("kernel_entry", INIT_MILESTONE)[self.last - 1]


def wall_ns(rows):
    """Time with at least one of @rows running: the union of their
    [start_ns, start_ns + duration_ns) intervals. A parent's probe holds its
    children's, and async probes run side by side, so adding durations up
    counts the same time more than once."""
    total, end = 0, None
    for s, e in sorted((r["start_ns"], r["start_ns"] + r["duration_ns"])
                       for r in rows):
        if end is None or s >= end:
            total += e - s
            end = e
        elif e > end:
            total += e - end
            end = e
    return total


def milestone_column(dumps):
    """Compare milestones since kernel entry when every dump counts from it,
    else since counter zero."""
    if all(d.meta.get("time_base") == "kernel_entry" for d in dumps):
        return "since_entry_ns"
    return "since_cnt0_ns"


def probe_rows(dump):
    rows = getattr(dump, "probe_rows", None)
    if rows is None:
        rows = [r for r in (dump.probes.rows if dump.probes else [])
                if r["duration_ns"] is not None]
    return rows


def items(dump, col="since_entry_ns", userspace_end=None):
    """[(kind, key tuple, ns)]: key is (name,) for milestones and phases,
    (level, symbol, module) for initcalls, (device, driver) for probes.
    A key seen again gets "#2", "#3" on its last part."""
    out = []
    for r in dump.summary.rows:
        if r[col] is not None:
            out.append(("milestone", (r["milestone"],), r[col]))
    # A dump without the chosen end mark lacks the userspace phase.
    out += Split(dump, userspace_end, strict=False).items()
    for r in dump.initcalls.rows if dump.initcalls else []:
        out.append(("initcall", (r["level"], r["symbol"], r["module"]),
                    r["duration_ns"]))
    total, order = {}, []
    for r in probe_rows(dump):
        k = (r["device"], r["driver"])
        if k not in total:
            order.append(k)
            total[k] = 0
        total[k] += r["duration_ns"]
    out += [("probe", k, total[k]) for k in order]
    seen, uniq = {}, []
    for kind, key, ns in out:
        n = seen.get((kind, key), 0) + 1
        seen[(kind, key)] = n
        if n > 1:
            key = key[:-1] + ("%s#%d" % (key[-1], n),)
        uniq.append((kind, key, ns))
    return uniq


def label(kind, key):
    if kind == "initcall":
        level, sym, mod = key
        return "%s [%s]" % (sym, level if mod == "vmlinux" else mod)
    if kind == "probe":
        dev, drv = key
        return dev if drv == "-" else "%s (%s)" % (dev, drv)
    return key[0]


def csv_key(kind, key):
    """name, level, module columns of the CSV outputs."""
    if kind == "initcall":
        return [key[1], key[0], key[2]]
    if kind == "probe":
        return [key[0], "", key[1]]
    return [key[0], "", ""]


def num(v):
    """A CSV number: an int when whole."""
    if v is None:
        return ""
    if isinstance(v, float):
        return int(v) if v == int(v) else round(v, 3)
    return v


class Compare:
    def __init__(self, a, b, userspace_end=None):
        self.a, self.b = a, b
        self.col = milestone_column([a, b])
        ia = items(a, self.col, userspace_end)
        ib = items(b, self.col, userspace_end)
        self.split_a = Split(a, userspace_end, strict=False)
        self.split_b = Split(b, userspace_end, strict=False)
        va = {(k, key): ns for k, key, ns in ia}
        vb = {(k, key): ns for k, key, ns in ib}
        order = [(k, key) for k, key, _ in ia] + \
            [(k, key) for k, key, _ in ib if (k, key) not in va]
        self.rows = []
        for k, key in order:
            x, y = va.get((k, key)), vb.get((k, key))
            diff = y - x if x is not None and y is not None else None
            ratio = y / x if diff is not None and x else None
            self.rows.append({"kind": k, "key": key, "a": x, "b": y,
                              "diff": diff, "ratio": ratio})
        self.rows.sort(key=lambda r: (KINDS.index(r["kind"]),
                                      r["diff"] is None,
                                      -abs(r["diff"] or 0)))

    def of(self, kind):
        return [r for r in self.rows if r["kind"] == kind]

    def notes(self):
        out = []
        fa, fb = self.a.meta.get("freq_hz"), self.b.meta.get("freq_hz")
        if fa != fb:
            out.append("counter rates differ (%s Hz, %s Hz): compared in ns"
                       % (fa, fb))
        if self.col == "since_cnt0_ns":
            out.append("milestones compared since counter zero (time bases "
                       "%s, %s)" % (self.a.meta.get("time_base"),
                                    self.b.meta.get("time_base")))
        return out

    def headline(self):
        out = []
        order = [UNVERIFIED_FIRST, "kernel", "userspace",
                 UNVERIFIED_FIRST + "+kernel"]
        for r in sorted(self.of("phase"), key=lambda r: (
                order.index(r["key"][0]) if r["key"][0] in order else 9)):
            if r["diff"] is None:
                continue
            out.append("%s: %.1f ms -> %.1f ms (%+.1f ms%s)" % (
                r["key"][0], r["a"] / 1e6, r["b"] / 1e6, r["diff"] / 1e6,
                ", %.2fx" % r["ratio"] if r["ratio"] is not None else ""))
        return out

    CSV_HEADER = ["kind", "name", "level", "module", "a_ns", "b_ns",
                  "diff_ns", "ratio"]

    def csv_rows(self):
        for r in self.rows:
            yield [r["kind"]] + csv_key(r["kind"], r["key"]) + [
                num(r["a"]), num(r["b"]), num(r["diff"]),
                "" if r["ratio"] is None else round(r["ratio"], 4)]


def spread(values):
    """(spread, how): interquartile range from n >= 4, else max - min."""
    if len(values) >= 4:
        q1, _, q3 = statistics.quantiles(values, n=4, method="inclusive")
        return q3 - q1, "iqr"
    return max(values) - min(values), "range"


class Stats:
    def __init__(self, dumps, userspace_end=None):
        self.dumps = dumps
        self.col = milestone_column(dumps)
        vals, order, where = {}, [], {}
        for i, d in enumerate(dumps):
            for k, key, ns in items(d, self.col, userspace_end):
                if (k, key) not in vals:
                    order.append((k, key))
                    vals[(k, key)] = []
                    where[(k, key)] = []
                vals[(k, key)].append(ns)
                where[(k, key)].append(i)
        self.rows = []
        for k, key in order:
            v = vals[(k, key)]
            sp, how = spread(v)
            self.rows.append({
                "kind": k, "key": key, "n": len(v),
                "median": statistics.median(v), "min": min(v), "max": max(v),
                "spread": sp, "how": how,
                "missing": [dumps[i].dir for i in range(len(dumps))
                            if i not in where[(k, key)]]})

    def of(self, kind, least=1):
        rows = [r for r in self.rows if r["kind"] == kind and
                r["n"] >= least]
        if kind in ("initcall", "probe"):
            rows.sort(key=lambda r: -r["median"])
        return rows

    def missing(self):
        return [r for r in self.rows if r["missing"]]

    CSV_HEADER = ["kind", "name", "level", "module", "n", "median_ns",
                  "min_ns", "max_ns", "spread_ns", "spread", "missing_in"]

    def csv_rows(self):
        for kind in KINDS:
            for r in self.of(kind):
                yield [kind] + csv_key(kind, r["key"]) + [
                    r["n"], num(r["median"]), r["min"], r["max"],
                    num(r["spread"]), r["how"], len(r["missing"])]


REPORT_CSV_HEADER = ["kind", "name", "level", "module", "start_ns",
                     "duration_ns", "ret", "cpu", "note"]


def report_csv_rows(dump, userspace_end=None):
    """One row per milestone, phase, initcall, probe and journal event;
    start_ns on the dump's time base (see its summary's time_base)."""
    base = dump.base_offset_ns()
    col = "since_entry_ns" if dump.meta.get("time_base") == "kernel_entry" \
        else "since_cnt0_ns"
    for r in dump.summary.rows:
        yield ["milestone", r["milestone"], "", "", num(r[col]),
               num(r["delta_ns"]), "", "", ""]
    sp = Split(dump, userspace_end)
    for lab, ns, start in sp.parts:
        yield ["phase", lab, "", "", start - base, ns, "", "", ""]
    if sp.parts:
        yield ["phase", sp.total_name(), "", "", -base, sp.total, "", "",
               ""]
    for r in dump.initcalls.rows if dump.initcalls else []:
        yield ["initcall", r["symbol"], r["level"], r["module"],
               num(r["start_ns"]), r["duration_ns"], r["ret"],
               num(r["cpu"]), ""]
    for r in probe_rows(dump):
        note = [r.get("source", "probes")]
        if r["ret"] == -517:
            note.append("deferred")
        if r["async"] == "yes":
            note.append("async")
        yield ["probe", r["device"], r["bus"] if r["bus"] != "-" else "",
               r["driver"] if r["driver"] != "-" else "", num(r["start_ns"]),
               r["duration_ns"], r["ret"], num(r["cpu"]), " ".join(note)]
    for e in getattr(dump, "journal", None) or []:
        yield ["journal", e["message"], "",
               e["unit"] if e["unit"] != "-" else "", e["t_ns"], "", "", "",
               ""]
