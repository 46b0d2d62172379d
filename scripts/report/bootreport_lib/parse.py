# SPDX-License-Identifier: GPL-2.0
"""Parse the bootstamp debugfs text files and trace.json.

All text files share one convention (module/core.c):
  "# key: value"   metadata
  "# col col ..."  the one comment line without a colon: column names
  other lines      rows, whitespace separated, "-" = not recorded
"""

import json
import os
import re

FILES = ("summary", "initcalls", "cpus", "trace.json")

SUMMARY_COLUMNS = ["milestone", "counter", "since_cnt0_ns", "since_entry_ns",
                   "delta_ns"]
INITCALL_COLUMNS = ["level", "symbol", "module", "start_ns", "duration_ns",
                    "ret", "cpu", "pid"]
CPU_POINTS = ["requested", "entry", "start_kernel", "online", "active",
              "finished"]
CPU_COLUMNS = (["cpu", "source"] + [p + "_ns" for p in CPU_POINTS] +
               ["ret", "entry_counter"])
PROBE_COLUMNS = ["device", "driver", "bus", "start_ns", "duration_ns", "ret",
                 "async", "cpu", "pid"]
# Clocks a summary can tie to the counter ("# sync_<clock>_ns: N", read
# together with "# sync_counter: N").
SYNC_CLOCKS = ("monotonic", "local_clock")

_KEY_RE = re.compile(r"^#\s*([A-Za-z0-9_]+):\s*(.*?)\s*$")


class InputError(Exception):
    """Bad or missing input; str() names the file and line."""

    def __init__(self, path, line, msg):
        self.path = path
        self.line = line
        where = path if line is None else "%s:%d" % (path, line)
        super().__init__("%s: %s" % (where, msg))


class Table:
    """One parsed text file."""

    def __init__(self, path, meta, columns, rows):
        self.path = path
        self.meta = meta
        self.columns = columns
        self.rows = rows


def _read(path):
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except FileNotFoundError:
        raise InputError(path, None, "missing (dump it from "
                         "/sys/kernel/debug/bootstamp/)") from None
    except (OSError, UnicodeDecodeError) as e:
        raise InputError(path, None, "cannot read: %s" % e) from None


def _int_or_none(path, lineno, col, text):
    if text == "-":
        return None
    try:
        return int(text)
    except ValueError:
        raise InputError(path, lineno, "column %s: expected an integer or "
                         "'-', got %r" % (col, text)) from None


def parse_table(path, expected, ints, text=None):
    """Parse one text file whose columns must be exactly @expected.

    Columns named in @ints become int (or None for "-").
    """
    if text is None:
        text = _read(path)
    meta, columns, rows = {}, None, []
    for lineno, raw in enumerate(text.splitlines(), 1):
        line = raw.rstrip("\r\n")
        if not line.strip():
            continue
        if line.startswith("#"):
            m = _KEY_RE.match(line)
            if m:
                meta[m.group(1)] = m.group(2)
                continue
            names = line[1:].split()
            if columns is not None:
                raise InputError(path, lineno, "second column header")
            if names != expected:
                raise InputError(path, lineno, "unexpected columns %s, "
                                 "want %s" % (" ".join(names),
                                              " ".join(expected)))
            columns = names
            continue
        if columns is None:
            raise InputError(path, lineno, "data before the '# %s' column "
                             "header" % " ".join(expected))
        fields = line.split()
        if len(fields) != len(columns):
            raise InputError(path, lineno, "%d fields, want %d (%s)" %
                             (len(fields), len(columns), " ".join(columns)))
        row = {}
        for col, val in zip(columns, fields):
            row[col] = _int_or_none(path, lineno, col, val) if col in ints \
                else val
        rows.append(row)
    if columns is None:
        raise InputError(path, None, "no '# %s' column header (is this a "
                         "bootstamp file?)" % " ".join(expected))
    return Table(path, meta, columns, rows)


def parse_summary(path, text=None):
    return parse_table(path, SUMMARY_COLUMNS, SUMMARY_COLUMNS[1:], text)


def parse_initcalls(path, text=None):
    return parse_table(path, INITCALL_COLUMNS,
                       ["start_ns", "duration_ns", "ret", "cpu", "pid"], text)


def parse_cpus(path, text=None):
    t = parse_table(path, CPU_COLUMNS, [c for c in CPU_COLUMNS
                                        if c not in ("source",
                                                     "entry_counter")], text)
    for i, row in enumerate(t.rows):
        if row["source"] not in ("boot", "live"):
            raise InputError(path, None, "row %d: source %r is neither "
                             "boot nor live" % (i + 1, row["source"]))
    return t


def parse_probes(path, text=None):
    t = parse_table(path, PROBE_COLUMNS,
                    ["start_ns", "duration_ns", "ret", "cpu", "pid"], text)
    for i, row in enumerate(t.rows):
        if row["async"] not in ("yes", "no", "-"):
            raise InputError(path, None, "row %d: async %r is neither yes "
                             "nor no" % (i + 1, row["async"]))
        # duration_ns and ret are "-" while the probe runs.
        row["source"] = "probes"
    return t


def parse_trace(path, text=None):
    """Load and check trace.json; returns the decoded object."""
    if text is None:
        text = _read(path)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise InputError(path, e.lineno, "invalid JSON: %s" % e.msg) from None
    if not isinstance(data, dict) or not isinstance(data.get("traceEvents"),
                                                    list):
        raise InputError(path, None, "no traceEvents array")
    for i, ev in enumerate(data["traceEvents"]):
        if not isinstance(ev, dict) or "ph" not in ev or "name" not in ev:
            raise InputError(path, None, "event %d lacks ph/name" % i)
        if ev["ph"] in ("X", "i") and not isinstance(ev.get("ts"),
                                                     (int, float)):
            raise InputError(path, None, "event %d (%s) has no numeric ts" %
                             (i, ev["name"]))
        if ev["ph"] == "X" and not isinstance(ev.get("dur"), (int, float)):
            raise InputError(path, None, "event %d (%s) has no numeric dur" %
                             (i, ev["name"]))
    return data


def parse_boot_id(path):
    """The boot id of a boot_id file, as journalctl's _BOOT_ID shows it."""
    text = _read(path).strip().replace("-", "").lower()
    if not re.fullmatch(r"[0-9a-f]{32}", text):
        raise InputError(path, 1, "not a boot id (want 32 hex digits, as in "
                         "/proc/sys/kernel/random/boot_id)")
    return text


class Dump:
    """A directory holding copies of the debugfs files."""

    def __init__(self, directory, need=("summary", "initcalls", "cpus")):
        if not os.path.isdir(directory):
            raise InputError(directory, None, "not a directory")
        self.dir = directory
        p = lambda name: os.path.join(directory, name)
        self.summary = parse_summary(p("summary")) \
            if "summary" in need else None
        self.initcalls = parse_initcalls(p("initcalls")) \
            if "initcalls" in need else None
        self.cpus = parse_cpus(p("cpus")) if "cpus" in need else None
        self.trace = parse_trace(p("trace.json")) \
            if "trace.json" in need else None
        self.trace_path = p("trace.json")
        # Optional: written by newer modules only.
        self.probes = parse_probes(p("probes")) \
            if os.path.exists(p("probes")) else None
        # Written by bootstamp-dump: this boot's id (32 hex digits), which
        # a --journal must carry; read only then (boot_id()).
        self.boot_id_path = p("boot_id")
        # What the inputs beside the dump could not check (printed).
        self.input_notes = []

    def boot_id(self):
        """The boot_id file's id, or None without the file."""
        if not os.path.exists(self.boot_id_path):
            return None
        return parse_boot_id(self.boot_id_path)

    def milestone(self, name):
        """The summary row of @name, or None."""
        for r in self.summary.rows if self.summary else []:
            if r["milestone"] == name:
                return r
        return None

    def has_sync(self, clock):
        m = self.meta
        return "sync_counter" in m and ("sync_%s_ns" % clock) in m

    def clock_to_base(self, clock, t_ns):
        """Place time @t_ns of @clock ("monotonic", "local_clock") on the
        dump's time base: through the sync keys of the summary, to counter
        ticks, then to ns since counter zero or kernel entry like the rows.
        """
        m = self.meta
        where = os.path.join(self.dir, "summary")
        if not self.has_sync(clock):
            raise InputError(where, None, "no '# sync_counter' and '# sync_%s_ns'"
                             " keys: this module version cannot place %s times "
                             "on the counter timeline (update the module)" %
                             (clock, clock))
        try:
            sc = int(m["sync_counter"])
            sx = int(m["sync_%s_ns" % clock])
            freq = int(m["freq_hz"])
        except (KeyError, ValueError):
            raise InputError(where, None, "bad sync_counter, sync_%s_ns or "
                             "freq_hz" % clock) from None
        return self.counter_to_base(sc - (sx - t_ns) * freq / 1e9)

    def counter_to_base(self, ticks):
        """Counter value @ticks on the dump's time base (ns)."""
        m = self.meta
        try:
            mult, div = (int(v) for v in m.get("ns_per_tick", "0/1")
                         .split("/"))
            freq = int(m["freq_hz"])
        except (KeyError, ValueError):
            raise InputError(os.path.join(self.dir, "summary"), None,
                             "bad freq_hz or ns_per_tick") from None
        ns = ticks * mult / div if mult and div else ticks * 1e9 / freq
        return int(round(ns)) - self.base_offset_ns()

    def base_offset_ns(self):
        """since_cnt0_ns of the dump's time base."""
        if self.meta.get("time_base") == "kernel_entry":
            r = self.milestone("kernel_entry")
            if r and r["since_cnt0_ns"] is not None:
                return r["since_cnt0_ns"]
        return 0

    @property
    def meta(self):
        return self.summary.meta if self.summary else {}
