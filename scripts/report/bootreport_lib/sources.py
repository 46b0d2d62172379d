# SPDX-License-Identifier: GPL-2.0
"""Inputs beside a dump, placed on its counter timeline: driver probes from
the kernel log (initcall_debug) and systemd's journal.

Both need the sync keys of the summary ("# sync_counter", "# sync_*_ns"):
Dump.clock_to_base() turns a local_clock or CLOCK_MONOTONIC time into the
dump's time base. Both must be of the boot the dump was read in: a journal
entry names its boot (_BOOT_ID, checked against the dump's boot_id file
when bootstamp-dump wrote one); a kernel log has the module's load line,
whose load id must be the summary's load_id.
"""

import json
import os
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
# load 0123456789abcdef at counter 123456789": a random load id (summary's
# load_id) and the counter read just before the printk.
LOAD_RE = re.compile(r"bootstamp: \S+ mode, \S+ at \d+ Hz, load ([0-9a-f]{16}) "
                     r"at counter (\d+)\s*$", re.I)
# The load line and the summary's sync keys should put local_clock at the
# same offset from the counter: on arm64 sched_clock is the counter scaled.
# Past this a note says the log's times may be off (a suspend since load
# stops sched_clock, not the counter; a freq_hz= other than the kernel's
# rate; days of sched_clock rounding at 54 MHz; a sched_clock that is not
# the arch counter).
SYNC_AGREE_NS = 1000000

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


class LogScan:
    """What a kernel log holds for the report. A log can hold several
    boots (a serial capture across reboots): the kernel's "Booting Linux"
    banner, or printk time going back to below NEW_BOOT_NS, starts the next
    one (boot 0, 1, ...). Other steps back are records stored out of time
    order (the timestamp is taken before the record is reserved, and a
    vCPU can be held up in between): not a new boot."""

    def __init__(self):
        self.probes = []        # (local_clock_end_ns, dev, ret, dur_ns)
        self.probe_boot = []    # the boot of each probe
        self.loads = []         # (local_clock_ns, load_id, counter, boot)
        self.resets = []        # line numbers where a boot starts (not 0's)


# A boot's first records are stamped 0 (before sched_clock runs) or a few
# ms; a later record is never this early unless the log restarted. Records
# out of order are so by far less than OUT_OF_ORDER_NS (one that crosses
# the second is not a restart).
NEW_BOOT_NS = 1000000000
OUT_OF_ORDER_NS = 100000000
# init/main.c, arch/arm64/kernel/setup.c: a boot's first lines.
BANNER_RE = re.compile(r"^(Booting Linux on physical CPU|Linux version) ")


def scan_dmesg(path, text=None):
    if text is None:
        text = _read(path)
    scan, stamped, last, boot = LogScan(), 0, None, 0
    body_seen = False       # a line of this boot after its banner lines
    for lineno, line in enumerate(text.splitlines(), 1):
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
        banner = bool(BANNER_RE.match(msg))
        if last is not None and (
                (t_ns < NEW_BOOT_NS <= last and
                 last - t_ns > OUT_OF_ORDER_NS) or (banner and body_seen)):
            boot += 1
            scan.resets.append(lineno)
            body_seen = False
        body_seen = body_seen or not banner
        last = t_ns
        ld = LOAD_RE.search(msg)
        if ld:
            scan.loads.append((t_ns, ld.group(1).lower(), int(ld.group(2)),
                               boot))
        p = PROBE_RE.search(msg)
        if p:
            # really_probe() returns a driver's own error as a positive
            # value (drivers/base/dd.c, "Return probe errors as positive
            # values") and initcall_debug prints it as is; the probes file
            # shows every error negative, so do the same.
            scan.probes.append((t_ns, p.group(1), -abs(int(p.group(2))),
                                int(p.group(3)) * 1000))
            scan.probe_boot.append(boot)
    if not stamped:
        raise InputError(path, None, "no timestamped kernel log line (want "
                         "'dmesg' output with '[    1.234567]' stamps or "
                         "/dev/kmsg records)")
    return scan


def parse_dmesg(path, text=None):
    """Probe lines of a kernel log: [(local_clock_end_ns, dev, ret, dur_ns)]."""
    return scan_dmesg(path, text).probes


def _ids(ids, most=3):
    ids = sorted(ids)
    more = " and %d more" % (len(ids) - most) if len(ids) > most else ""
    return ", ".join(ids[:most]) + more


def pick_boot(dump, path, scan):
    """The boots of @scan that the dump is of (more than one when the log
    holds the same boot twice; None: the log's only boot, unchecked) and
    notes; InputError when the log is of another boot or load, or holds
    several boots and nothing tells which."""
    want = (dump.meta.get("load_id") or "").lower()
    ids = {ld[1] for ld in scan.loads}
    several = ""
    if scan.resets:
        at = ", ".join(str(n) for n in scan.resets[:3])
        if len(scan.resets) > 3:
            at += " and %d more" % (len(scan.resets) - 3)
        several = "%s holds %d boots (printk time starts again at line %s)" \
            % (path, len(scan.resets) + 1, at)
    if not want:
        if ids:
            raise InputError(path, None, "its module prints load ids (%s) "
                             "but the summary has no load_id: a dump and a "
                             "log of different module versions" % _ids(ids))
        if several:
            raise InputError(path, None, "%s, and the summary has no load_id "
                             "to tell the dump's: give one boot's log" %
                             several)
        return None, ["%s has no load_id (a module before it): %s not "
                      "checked to be of the dump's boot" %
                      (os.path.join(dump.dir, "summary"), path)]
    if not ids:
        if several:
            raise InputError(path, None, "%s and no 'bootstamp: ... load ID' "
                             "line to tell the dump's: give the log of the "
                             "dump's boot" % several)
        return None, ["%s has no 'bootstamp: ... load ID at counter N' line "
                      "(the log wrapped, or a module before it): not checked "
                      "to be of the dump's boot" % path]
    mine = [ld for ld in scan.loads if ld[1] == want]
    if not mine:
        raise InputError(path, None, "not of the dump's boot: its module "
                         "load id %s, the summary's load_id %s; give the "
                         "kernel log of the boot the dump was read in" %
                         (_ids(ids), want))
    t_ns, _, counter, _ = mine[-1]
    boots = {ld[3] for ld in mine}
    notes = []
    if several:
        left = sum(b not in boots for b in scan.probe_boot)
        notes.append("%s: only the probes of the boot with the dump's load "
                     "id are used (%d of other boots left out)" %
                     (several, left))
    off = dump.clock_to_base("local_clock", t_ns) - \
        dump.counter_to_base(counter)
    if abs(off) > SYNC_AGREE_NS:
        notes.append("the module's load line and the summary's sync keys "
                     "put local_clock %.3f ms apart (a suspend since the "
                     "load, freq_hz= other than the kernel's rate, or a "
                     "sched_clock that is not the counter): the log's probe "
                     "times may be off by as much" % (off / 1e6))
    return boots, notes


def dmesg_probe_rows(dump, path, text=None):
    """The kernel log's probes (of the dump's boot) as rows of the probes
    file's shape."""
    dump.clock_to_base("local_clock", 0)     # no sync keys: InputError
    scan = scan_dmesg(path, text)
    boots, notes = pick_boot(dump, path, scan)
    dump.input_notes += notes
    rows, seen = [], set()
    for p, b in zip(scan.probes, scan.probe_boot):
        if (boots is not None and b not in boots) or p in seen:
            continue
        seen.add(p)             # the same boot's log twice: once
        end, dev, ret, dur = p
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
    entry goes into the set @boots (None for an entry without one)."""
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
        if boots is not None:
            b = e.get("_BOOT_ID")
            boots.add(b.replace("-", "").lower() if isinstance(b, str)
                      else None)
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
    want = dump.boot_id()
    named = boots - {None}
    if want and named - {want}:
        raise InputError(path, None, "not of the dump's boot: it has entries "
                         "of boot %s, the dump is of boot %s (its boot_id "
                         "file); give journalctl -b %s -o json" %
                         (_ids(named - {want}), want, want))
    if len(named) > 1:
        raise InputError(path, None, "entries of %d boots (%s); give one "
                         "boot's: journalctl -b ID -o json" %
                         (len(named), _ids(named)))
    if not want:
        dump.input_notes.append("%s has no boot_id file (bootstamp-dump "
                                "writes one): %s not checked to be of the "
                                "dump's boot" % (dump.dir, path))
    elif None in boots:
        dump.input_notes.append("%s has entries without _BOOT_ID: those "
                                "not checked to be of the dump's boot" % path)


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
