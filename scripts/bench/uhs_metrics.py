#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""What the SD UHS-I fallback benchmark (uhs-fallback.sh) measured.

  uhs_metrics.py BOOT-DIR
      prints "probe_to_ready_ms mode failures cmd11 cmd6 acmd41" of a
      bring-up boot: printk time from "mmcN: SDHCI controller on PCI" to
      "mmcN: new ... card at address" (console.log; "-" and mode "absent"
      when no card came), the mode that line names (HS: high speed), the
      failures of the card's uhs_fallback and the commands the host sent
      (CMD11s, CMD6 bus speed switches, ACMD41s: one per initialisation
      attempt), which selftests/mmc/uhs_fallback prints as "uhs_cost:";
      a boot that ran selftests/mmc/uhs_symptom instead (no series) has
      only the model's CMD11 count, "-" for the others.
  uhs_metrics.py --runtime BOOT-DIR
      "reads failed seconds mode_before mode_after boot_io_errors fired"
      from uhs_symptom's "symptom:" line of a fault armed after bring-up.
  uhs_metrics.py --table COSTS.TSV
      a Markdown table of the median counters per configuration.
  uhs_metrics.py --bringup COSTS.TSV
      per fault model (configurations FAULT/KIND), the median time and
      mode of each kind (unpatched, quirk: unpatched with the quirk,
      squirk: the series with it, first, later), later / squirk and
      whether later boots are within 5 % of the quirk on the same kernel.
  uhs_metrics.py --runtime-table RUNTIME.TSV
      per runtime fault and kernel, the reads failed, the time they took,
      the mode after and the boot's block-layer I/O errors.
Standard library only.
"""

import re
import statistics
import sys

PRINTK = re.compile(r"^\[\s*(\d+\.\d+)\]\s+(.*)$")
COUNTERS = ("failures", "cmd11", "cmd6", "acmd41")
KINDS = ("unpatched", "quirk", "squirk", "first", "later")
# Issue 28 item 4: later boots no slower than the quirk plus 5 %, on the
# same kernel (squirk: the series with sdhci.debug_quirks2=4).
LATER_GOAL = 1.05


def symptom(d):
    """The "symptom: K=V ..." line uhs_symptom printed, as a dict."""
    with open(f"{d}/results.log", encoding="utf-8", errors="replace") as f:
        for line in f:
            if line.startswith("# symptom: "):
                return dict(kv.split("=", 1) for kv in line.split()[2:] if "=" in kv)
    return None


def boot_metrics(d):
    probe = ready = None
    mode = "absent"
    with open(f"{d}/console.log", encoding="utf-8", errors="replace") as f:
        for line in f:
            m = PRINTK.match(line.strip("\r\n"))
            if not m:
                continue
            t, text = float(m.group(1)), m.group(2)
            if probe is None and re.match(r"mmc\d+: SDHCI controller on PCI", text):
                probe = t
            elif probe is not None and ready is None and \
                    re.match(r"mmc\d+: new .*card at address", text):
                ready = t
                m = re.search(r"new (?:UHS-I speed (\S+)|(high speed))", text)
                mode = (m.group(1) or "HS") if m else "default"
    if probe is None:
        sys.exit(f"{d}/console.log: no SDHCI probe line")
    vals = {}
    with open(f"{d}/results.log", encoding="utf-8", errors="replace") as f:
        for line in f:
            if line.startswith("# uhs_cost: ") and not vals:
                vals = dict(kv.split("=") for kv in line.split()[2:])
    if not vals:
        sym = symptom(d)
        if sym is None:
            sys.exit(f"{d}/results.log: neither uhs_cost: nor symptom: (which guest test ran?)")
        vals = {"cmd11": sym.get("cmd11", "-")}
    ms = f"{(ready - probe) * 1000:.1f}" if ready is not None else "-"
    print(f"{ms} {mode}", " ".join(str(vals.get(c, "-")) for c in COUNTERS))


def runtime_metrics(d):
    sym = symptom(d)
    if sym is None:
        sys.exit(f"{d}/results.log: no symptom: line (did selftests/mmc/uhs_symptom run?)")
    keys = ("reads", "failed", "total", "mode_before", "mode_after", "boot_io_errors", "fired")
    missing = [k for k in keys if k not in sym]
    if missing:
        sys.exit(f"{d}/results.log: the symptom: line has no {', '.join(missing)}")
    print("\t".join(sym[k].rstrip("s") if k == "total" else sym[k] for k in keys))


def read_tsv(path):
    rows = {}
    with open(path, encoding="utf-8") as f:
        header = f.readline().rstrip("\n").split("\t")
        for line in f:
            if line.strip():
                fields = dict(zip(header, line.rstrip("\n").split("\t")))
                rows.setdefault(fields["config"], []).append(fields)
    return rows


def spread(vals, fmt="{:g}"):
    med = statistics.median(vals)
    if min(vals) == max(vals):
        return fmt.format(med)
    return f"{fmt.format(med)} ({fmt.format(min(vals))}-{fmt.format(max(vals))})"


def table(path):
    rows = read_tsv(path)
    cols = ("mode",) + COUNTERS
    print("| config | boots | " + " | ".join(cols) + " |")
    print("|---" * (len(cols) + 2) + "|")
    for config, runs in rows.items():
        cells = ["/".join(sorted({r["mode"] for r in runs}))]
        for c in COUNTERS:
            if any(r[c] == "-" for r in runs):
                cells.append("-")
            else:
                cells.append(spread([int(r[c]) for r in runs]))
        print(f"| {config} | {len(runs)} | " + " | ".join(cells) + " |")


def kind_cell(runs):
    """"74.7 ms HS", or "no card (3/3)" when some boots had none."""
    if not runs:
        return "-", None
    modes = "/".join(sorted({r["mode"] for r in runs}))
    times = [float(r["ms"]) for r in runs if r["ms"] != "-"]
    absent = len(runs) - len(times)
    if not times:
        return f"no card ({absent}/{len(runs)} boots)", None
    cell = f"{spread(times, '{:.1f}')} ms {modes}"
    if absent:
        cell += f", no card in {absent}/{len(runs)} boots"
    return cell, statistics.median(times)


def bringup(path):
    faults = {}
    for config, runs in read_tsv(path).items():
        if "/" in config:
            fault, kind = config.split("/", 1)
            faults.setdefault(fault, {})[kind] = runs
    print("| fault | " + " | ".join(KINDS) + " | later / squirk | later within 5 % |")
    print("|---" * (len(KINDS) + 3) + "|")
    for fault, kinds in faults.items():
        cells, med = [], {}
        for k in KINDS:
            cell, med[k] = kind_cell(kinds.get(k, []))
            cells.append(cell)
        if med["later"] is None or not med["squirk"]:
            ratio, verdict = "-", "no"
        else:
            q = med["later"] / med["squirk"]
            ratio, verdict = f"{q:.3f}", "yes" if q <= LATER_GOAL else "no"
            # A later boot in a faster mode than the quirk's pays that
            # mode's bring-up (CMD11, tuning, the verifying read).
            modes = [sorted({r["mode"] for r in kinds[k]}) for k in ("later", "squirk")]
            if modes[0] != modes[1]:
                verdict += f" ({'/'.join(modes[0])} against {'/'.join(modes[1])})"
        print(f"| {fault} | " + " | ".join(cells) + f" | {ratio} | {verdict} |")


def runtime_table(path):
    print("| fault after bring-up | kernel | reads failed | time of the reads (s) | mode before → after | block I/O errors in the boot |")
    print("|---|---|---|---|---|---|")
    for config, runs in read_tsv(path).items():
        fault, kernel = config.removeprefix("runtime-").split("/", 1)
        failed = spread([int(r["failed"]) for r in runs])
        secs = spread([float(r["seconds"]) for r in runs], "{:.1f}")
        modes = "/".join(sorted({f"{r['mode_before']} → {r['mode_after']}" for r in runs}))
        errors = spread([int(r["boot_io_errors"]) for r in runs])
        print(f"| {fault} | {kernel} | {failed} of {runs[0]['reads']} | {secs} | {modes} | {errors} |")


if __name__ == "__main__":
    args = sys.argv[1:]
    modes = {"--table": table, "--bringup": bringup, "--runtime-table": runtime_table,
             "--runtime": runtime_metrics}
    if len(args) == 2 and args[0] in modes:
        modes[args[0]](args[1])
    elif len(args) == 1 and not args[0].startswith("-"):
        boot_metrics(args[0])
    else:
        sys.exit(__doc__)
