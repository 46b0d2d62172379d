# SPDX-License-Identifier: GPL-2.0
"""Inputs beside a dump, placed on its counter timeline: driver probes from
the kernel log (initcall_debug) and systemd's journal.

Both need the sync keys of the summary ("# sync_counter", "# sync_*_ns"):
Dump.clock_to_base() turns a local_clock or CLOCK_MONOTONIC time into the
dump's time base. Both must be of the boot the dump was read in: a journal
entry names its boot (_BOOT_ID, checked against the dump's boot_id file
when bootstamp-dump wrote one); a kernel log is checked through the
module's load line, which prints the counter beside its printk time.
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

# module/core.c at load: "bootstamp: full mode, CNTVCT_EL0 at 62500000 Hz,
# counter 123456789", the counter read just before the printk.
LOAD_RE = re.compile(r"bootstamp: \S+ mode, \S+ at \d+ Hz, counter (\d+)$")
# Same boot: the counter-to-local_clock offset of the load line and of the
# summary's sync keys agree this closely. On arm64, local_clock is the
# counter scaled (sched_clock), so in one boot the two differ only by the
# time between the counter read and the printk stamp (microseconds) and
# sched_clock's rounding; another boot or board starts its clocks apart by
# its own firmware and early-boot time.
SAME_BOOT_NS = 1000000

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


def parse_dmesg(path, text=None, loads=None):
    """Probe lines of a kernel log: [(local_clock_end_ns, dev, ret, dur_ns)].
    The module's load lines go to @loads: [(local_clock_ns, counter)]."""
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
        ld = LOAD_RE.search(msg)
        if ld and loads is not None:
            loads.append((t_ns, int(ld.group(1))))
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


def check_same_boot_log(dump, path, loads):
    """InputError unless every module load line of the log agrees with
    the dump's clocks; a note (returned) when the log has none."""
    if not loads:
        return ("%s has no 'bootstamp: ... counter N' load line (a module "
                "before this check, or the log wrapped): not checked to be "
                "of the dump's boot" % path)
    for t_ns, counter in loads:
        off = dump.clock_to_base("local_clock", t_ns) - \
            dump.counter_to_base(counter)
        if abs(off) > SAME_BOOT_NS:
            raise InputError(path, None, "not of the dump's boot: the "
                             "module's load line 'counter %d' at %.6f s is "
                             "%.3f ms off the dump's clocks (a log of another "
                             "boot or kernel?); give the kernel log of the "
                             "boot the dump was read in" %
                             (counter, t_ns / 1e9, off / 1e6))
    return None


def dmesg_probe_rows(dump, path, text=None):
    """The kernel log's probes as rows of the probes file's shape."""
    dump.clock_to_base("local_clock", 0)     # no sync keys: InputError
    rows, loads = [], []
    probes = parse_dmesg(path, text, loads)
    note = check_same_boot_log(dump, path, loads)
    if note:
        dump.input_notes.append(note)
    for end, dev, ret, dur in probes:
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


def parse_journal(path, text=None, boots=None):
    """systemd boot events of `journalctl -b -o json`:
    [(monotonic_ns, message, unit)], in time order. The _BOOT_ID of every
    entry goes into the set @boots."""
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
        if boots is not None and isinstance(e.get("_BOOT_ID"), str):
            boots.add(e["_BOOT_ID"].replace("-", "").lower())
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


def check_same_boot_journal(dump, path, boots):
    """InputError when the journal holds another boot than the dump's
    boot_id file names, or, without that file, more than one boot."""
    want = dump.boot_id
    if want and boots - {want}:
        raise InputError(path, None, "not of the dump's boot: it has entries "
                         "of boot %s, the dump is of boot %s (its boot_id "
                         "file); give journalctl -b %s -o json" %
                         (", ".join(sorted(boots - {want})), want, want))
    if len(boots) > 1:
        raise InputError(path, None, "entries of %d boots (%s); give one "
                         "boot's: journalctl -b ID -o json" %
                         (len(boots), ", ".join(sorted(boots))))
    if not want:
        dump.input_notes.append("%s has no boot_id file (bootstamp-dump "
                                "writes one): %s not checked to be of the "
                                "dump's boot" % (dump.dir, path))


def journal_events(dump, path, text=None):
    """Set and return dump.journal: [{"t_ns", "message", "unit"}] on the
    dump's time base."""
    dump.clock_to_base("monotonic", 0)       # no sync keys: InputError
    boots = set()
    events = parse_journal(path, text, boots)
    check_same_boot_journal(dump, path, boots)
    evs = [{"t_ns": dump.clock_to_base("monotonic", t), "message": msg,
            "unit": unit} for t, msg, unit in events]
    dump.journal = evs
    return evs
