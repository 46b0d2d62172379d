#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""What one SD UHS-I fallback benchmark boot measured, from its logs.

  uhs_metrics.py BOOT-DIR
      prints "probe_to_ready_ms mode failures cmd11 cmd6 acmd41":
      printk time from "mmcN: SDHCI controller on PCI" to "mmcN: new ... card
      at address" (console.log), the mode that line names (HS: high speed),
      the failures of the card's uhs_fallback, and the commands the host
      sent, from the mmc_request_start trace event: CMD11s, CMD6 bus speed
      switches, ACMD41s (one per initialisation attempt, after each power
      cycle); selftests/mmc/uhs_fallback prints them as "uhs_cost:" to
      results.log; "-" for a boot that did not run it.
  uhs_metrics.py --table COSTS.TSV
      a Markdown table of the median counters per configuration.
Standard library only.
"""

import re
import statistics
import sys

PRINTK = re.compile(r"^\[\s*(\d+\.\d+)\]\s+(.*)$")
COUNTERS = ("failures", "cmd11", "cmd6", "acmd41")


def boot_metrics(d):
    probe = ready = None
    mode = "?"
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
    if probe is None or ready is None:
        sys.exit(f"{d}/console.log: no SDHCI probe or no card-ready line")
    vals = {}
    with open(f"{d}/results.log", encoding="utf-8", errors="replace") as f:
        for line in f:
            if line.startswith("# uhs_cost: ") and not vals:
                vals = dict(kv.split("=") for kv in line.split()[2:])
    # A boot without the test (the unpatched kernel): "-" for its counters.
    print(f"{(ready - probe) * 1000:.1f} {mode}",
          " ".join(str(vals.get(c, "-")) for c in COUNTERS))


def table(path):
    rows = {}
    with open(path, encoding="utf-8") as f:
        header = f.readline().rstrip("\n").split("\t")
        for line in f:
            fields = dict(zip(header, line.rstrip("\n").split("\t")))
            rows.setdefault(fields["config"], []).append(fields)
    cols = ("mode",) + COUNTERS
    print("| config | boots | " + " | ".join(cols) + " |")
    print("|---" * (len(cols) + 2) + "|")
    for config, runs in rows.items():
        modes = sorted({r["mode"] for r in runs})
        cells = ["/".join(modes)]
        for c in COUNTERS:
            if any(r[c] == "-" for r in runs):
                cells.append("-")
                continue
            vals = [int(r[c]) for r in runs]
            med = statistics.median(vals)
            spread = "" if min(vals) == max(vals) else f" ({min(vals)}-{max(vals)})"
            cells.append(f"{med:g}{spread}")
        print(f"| {config} | {len(runs)} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--table":
        table(sys.argv[2])
    elif len(sys.argv) == 2:
        boot_metrics(sys.argv[1])
    else:
        sys.exit(__doc__)
