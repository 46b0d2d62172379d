# SPDX-License-Identifier: GPL-2.0
"""Inputs beside a dump, placed on its counter timeline: driver probes from
the kernel log (initcall_debug) and systemd's journal.

Both need the sync keys of the summary ("# sync_counter", "# sync_*_ns"):
Dump.clock_to_base() turns a local_clock or CLOCK_MONOTONIC time into the
dump's time base.
"""

import json
import re

from .parse import InputError

# drivers/base/dd.c, really_probe_debug() (initcall_debug):
#   "probe of %s returned %d after %lld usecs"
PROBE_RE = re.compile(r"probe of (\S+) returned (-?\d+) after (\d+) usecs")
# dmesg: "[    1.234567] msg", also after "<7>" (dmesg -r), a facility
# prefix (dmesg -x) or with the caller id "[    1.234567][    T1] msg".
DMESG_RE = re.compile(r"\[\s*(\d+)\.(\d+)\](?:\[\s*[TC]\d+\])?\s?(.*)$")
# /dev/kmsg: "7,1234,1234567,-;msg" or "...,-,caller=T1;msg" (usecs).
KMSG_RE = re.compile(r"^\d+,\d+,(\d+),[^;]*;(.*)$")

EPROBE_DEFER = -517
# A probe in the kernel log and in the probes file is the same probe when
# device and return value agree and both ends lie this close (the log has
# microseconds, and local_clock and the counter are tied at one point).
SAME_PROBE_NS = 1000000


def _read(path):
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return f.read()
    except OSError as e:
        raise InputError(path, None, "cannot read: %s" % e) from None


def parse_dmesg(path, text=None):
    """Probe lines of a kernel log: [(local_clock_end_ns, dev, ret, dur_ns)]."""
    if text is None:
        text = _read(path)
    out, stamped = [], 0
    for line in text.splitlines():
        m = KMSG_RE.match(line)
        if m:
            t_ns, msg = int(m.group(1)) * 1000, m.group(2)
        else:
            m = DMESG_RE.search(line)
            if not m:
                continue
            frac = m.group(2)
            t_ns = int(m.group(1)) * 1000000000 + \
                int(frac) * 10 ** (9 - len(frac))
            msg = m.group(3)
        stamped += 1
        p = PROBE_RE.search(msg)
        if p:
            # really_probe() returns a driver's own error as a positive
            # value (drivers/base/dd.c, "Return probe errors as positive
            # values") and initcall_debug prints it as is; the probes file
            # shows every error negative, so do the same.
            out.append((t_ns, p.group(1), -abs(int(p.group(2))),
                        int(p.group(3)) * 1000))
    if not stamped:
        raise InputError(path, None, "no timestamped kernel log line (want "
                         "'dmesg' output with '[    1.234567]' stamps or "
                         "/dev/kmsg records)")
    return out


def dmesg_probe_rows(dump, path, text=None):
    """The kernel log's probes as rows of the probes file's shape."""
    dump.clock_to_base("local_clock", 0)     # no sync keys: InputError
    rows = []
    for end, dev, ret, dur in parse_dmesg(path, text):
        end_b = dump.clock_to_base("local_clock", end)
        rows.append({"device": dev, "driver": "-", "bus": "-",
                     "start_ns": end_b - dur, "duration_ns": dur, "ret": ret,
                     "async": "-", "cpu": None, "pid": None,
                     "source": "dmesg"})
    return rows


def merge_probes(file_rows, log_rows):
    """The probes file's rows, then the log's rows not already in it."""
    merged = list(file_rows)
    used = set()
    for r in log_rows:
        end = r["start_ns"] + r["duration_ns"]
        best = None
        for i, f in enumerate(file_rows):
            if i in used or f["device"] != r["device"] or f["ret"] != r["ret"]:
                continue
            if f["start_ns"] is None:
                continue
            gap = abs(f["start_ns"] + f["duration_ns"] - end)
            if gap <= SAME_PROBE_NS and (best is None or gap < best[0]):
                best = (gap, i)
        if best is None:
            merged.append(r)
        else:
            used.add(best[1])
    merged.sort(key=lambda r: (r["start_ns"] is None, r["start_ns"] or 0))
    return merged


def attach_probes(dump, dmesg=None):
    """Set dump.probe_rows: the probes file merged with --dmesg's."""
    rows = dump.probes.rows if dump.probes else []
    # Probes still running when the file was read have no duration yet.
    dump.probes_running = [r for r in rows if r["duration_ns"] is None]
    rows = [r for r in rows if r["duration_ns"] is not None]
    if dmesg:
        rows = merge_probes(rows, dmesg_probe_rows(dump, dmesg))
    dump.probe_rows = rows
    return rows


def _message(entry):
    msg = entry.get("MESSAGE")
    if isinstance(msg, list):       # journalctl's form for non-UTF-8 text
        try:
            msg = bytes(msg).decode("utf-8", errors="replace")
        except (TypeError, ValueError):
            return None
    return msg if isinstance(msg, str) else None


def is_boot_event(msg):
    return msg.startswith(("Startup finished", "Started ", "Reached target "))


def parse_journal(path, text=None):
    """systemd boot events of `journalctl -b -o json`:
    [(monotonic_ns, message, unit)], in time order."""
    if text is None:
        text = _read(path)
    out, entries = [], 0
    for lineno, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            e = json.loads(line)
        except json.JSONDecodeError as err:
            raise InputError(path, lineno, "not JSON (want journalctl -b -o "
                             "json): %s" % err.msg) from None
        if not isinstance(e, dict):
            raise InputError(path, lineno, "not a journal entry object")
        entries += 1
        msg = _message(e)
        mono = e.get("__MONOTONIC_TIMESTAMP")
        if msg is None or mono is None or not is_boot_event(msg):
            continue
        try:
            t = int(mono) * 1000
        except (TypeError, ValueError):
            raise InputError(path, lineno, "__MONOTONIC_TIMESTAMP %r is not "
                             "a number" % (mono,)) from None
        unit = e.get("UNIT") or e.get("USER_UNIT") or "-"
        out.append((t, msg, unit))
    if not entries:
        raise InputError(path, None, "no journal entry (want journalctl -b "
                         "-o json)")
    out.sort(key=lambda x: x[0])
    return out


def journal_events(dump, path, text=None):
    """Set and return dump.journal: [{"t_ns", "message", "unit"}] on the
    dump's time base."""
    dump.clock_to_base("monotonic", 0)       # no sync keys: InputError
    evs = [{"t_ns": dump.clock_to_base("monotonic", t), "message": msg,
            "unit": unit} for t, msg, unit in parse_journal(path, text)]
    dump.journal = evs
    return evs
