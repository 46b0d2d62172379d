#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""headline_check.py RESULTS.json CONFIG BOUND: one row for
scripts/lib.sh record_rows, "pass|fail<TAB>NAME<TAB>DETAIL", NAME given
by --name: pass when CONFIG's ratio against the benchmark's reference
(stats.py --json) is below BOUND. A missing file, configuration or ratio
is a failure, never a pass."""

import argparse
import json


def verdict(path, config, bound):
    """(status, detail)."""
    try:
        with open(path, encoding="utf-8") as f:
            r = json.load(f)
    except (OSError, ValueError) as e:
        return "fail", f"no results: {e}"
    c = r.get("configs", {}).get(config)
    ref = r.get("configs", {}).get(r.get("ref"))
    if c is None or ref is None or c.get("ratio") is None:
        return "fail", f"no ratio of {config} against {r.get('ref')} in {path}"
    detail = (f"{config} {c['median']:.1f} against {r['ref']} {ref['median']:.1f} "
              f"{r.get('unit', '')}, {c['n']} boot(s) each: ratio {c['ratio']:.4f}, bound {bound}")
    return ("pass" if c["ratio"] < bound else "fail"), detail


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("json")
    ap.add_argument("config")
    ap.add_argument("bound", type=float)
    ap.add_argument("--name", required=True)
    args = ap.parse_args()
    status, detail = verdict(args.json, args.config, args.bound)
    print(f"{status}\t{args.name}\t{detail}")


if __name__ == "__main__":
    main()
