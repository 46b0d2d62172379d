#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Summarise a benchmark's samples: n, median, min, max per configuration and
the ratio of each median to a reference configuration's median.

Input is a TSV of "config<TAB>run<TAB>value" rows; a header row whose third
field is not a number, blank lines and "#" lines are skipped. Configurations
are shown in the order they first appear. With interleaved runs (ABAB...) the
run number pairs the samples of one round, so the table also gives the
median of the per-round ratios ("paired"), which is less sensitive to slow
drifts of the host's speed than the ratio of medians.

  stats.py runs.tsv --ref nobootstamp --unit ms [--goal 1.01]
    [--md results.md --title "..." --meta "key=value"... --note "..."...]
    [--json results.json --bench NAME]

The table goes to stdout; --md also writes it, the per-run raw values and
the metadata and notes to a Markdown file; --json the same numbers for
programs (scripts/gates/docs-numbers.py compares the numbers the docs
quote with the copies committed in scripts/bench/results/):

  {"benchmark": NAME, "unit": "ms", "ref": REF, "goal": GOAL or null,
   "meta": {KEY: VALUE, ...},          # the --meta lines (date, clock,
                                       # kernels, revision, reproduce, ...)
   "configs": {CONFIG: {"n", "median", "min", "max", "q1", "q3",
                        "ratio", "paired", "runs": {RUN: VALUE}}}}

q1 and q3 are the quartiles (statistics.quantiles, "inclusive"; the
value itself for one run). Standard library only.
"""

import argparse
import json
import statistics
import sys


def read_samples(path):
    """{config: {run: value}} in first-seen order of configs."""
    samples = {}
    with open(path, encoding="utf-8") as f:
        for lineno, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line.strip() or line.startswith("#"):
                continue
            fields = line.split("\t")
            if len(fields) != 3:
                sys.exit(f"{path}:{lineno}: expected config<TAB>run<TAB>value, got {line!r}")
            config, run, value = fields
            try:
                value = float(value)
            except ValueError:
                if lineno == 1:
                    continue  # header
                sys.exit(f"{path}:{lineno}: value {value!r} is not a number")
            runs = samples.setdefault(config, {})
            if run in runs:
                sys.exit(f"{path}:{lineno}: {config} run {run} appears twice")
            runs[run] = value
    if not samples:
        sys.exit(f"{path}: no samples")
    return samples


def summarise(samples, ref):
    """One dict per config: n, median, min, max, ratio, paired."""
    if ref is not None and ref not in samples:
        sys.exit(f"reference config {ref!r} not in the data ({', '.join(samples)})")
    ref_runs = samples.get(ref, {})
    ref_median = statistics.median(ref_runs.values()) if ref_runs else None
    rows = []
    for config, runs in samples.items():
        values = list(runs.values())
        median = statistics.median(values)
        q1, _, q3 = (statistics.quantiles(values, n=4, method="inclusive")
                     if len(values) > 1 else (median, median, median))
        row = {"config": config, "n": len(values), "median": median,
               "min": min(values), "max": max(values), "q1": q1, "q3": q3,
               "ratio": None, "paired": None}
        if ref_median:
            row["ratio"] = median / ref_median
            common = [r for r in runs if r in ref_runs and ref_runs[r]]
            if common:
                row["paired"] = statistics.median(runs[r] / ref_runs[r] for r in common)
        rows.append(row)
    return rows


def fmt(v, digits):
    return "-" if v is None else f"{v:.{digits}f}"


def table(rows, unit, ref, digits):
    head = ["config", "n", f"median {unit}".strip(), f"min {unit}".strip(),
            f"max {unit}".strip()]
    if ref is not None:
        head += [f"ratio vs {ref}", "paired"]
    body = []
    for r in rows:
        line = [r["config"], str(r["n"]), fmt(r["median"], digits),
                fmt(r["min"], digits), fmt(r["max"], digits)]
        if ref is not None:
            line += [fmt(r["ratio"], 4), fmt(r["paired"], 4)]
        body.append(line)
    return head, body


def text_table(head, body):
    widths = [max(len(x) for x in col) for col in zip(head, *body)]
    out = []
    for line in [head] + body:
        out.append("  ".join(x.ljust(w) if i == 0 else x.rjust(w)
                            for i, (x, w) in enumerate(zip(line, widths))))
    return "\n".join(out)


def md_table(head, body, right_from=1):
    out = ["| " + " | ".join(head) + " |",
           "|" + "|".join("---" if i < right_from else "---:"
                          for i in range(len(head))) + "|"]
    out += ["| " + " | ".join(line) + " |" for line in body]
    return "\n".join(out)


def goal_lines(rows, ref, goal):
    out = []
    for r in rows:
        if r["config"] == ref or r["ratio"] is None:
            continue
        verdict = "met" if r["ratio"] <= goal else "NOT met"
        out.append(f"goal ratio <= {goal}: {r['config']} {r['ratio']:.4f} -> {verdict}")
    return out


def raw_table(samples, digits):
    """Runs as rows, configs as columns (the interleaving order of a round)."""
    configs = list(samples)
    runs = []
    for c in configs:
        runs += [r for r in samples[c] if r not in runs]
    body = [[r] + [fmt(samples[c].get(r), digits) for c in configs] for r in runs]
    return md_table(["run"] + configs, body)


def results_json(samples, rows, args):
    """The --json document (see the module's docstring)."""
    configs = {}
    for r in rows:
        c = dict(r)
        del c["config"]
        c["runs"] = samples[r["config"]]
        configs[r["config"]] = c
    return {"benchmark": args.bench, "unit": args.unit, "ref": args.ref,
            "goal": args.goal,
            "meta": {k.strip(): v.strip() for k, _, v in (m.partition("=") for m in args.meta)},
            "configs": configs}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("tsv", help="config<TAB>run<TAB>value rows")
    ap.add_argument("--ref", help="reference config for the ratios")
    ap.add_argument("--unit", default="", help="unit shown in the headers")
    ap.add_argument("--digits", type=int, default=1, help="decimals of values")
    ap.add_argument("--goal", type=float, help="say whether each ratio is <= GOAL")
    ap.add_argument("--md", help="also write a Markdown results file")
    ap.add_argument("--title", default="Benchmark results")
    ap.add_argument("--metric", help="one line saying what the value is (Markdown)")
    ap.add_argument("--meta", action="append", default=[], metavar="KEY=VALUE",
                    help="a line of the Markdown setup list (repeatable)")
    ap.add_argument("--note", action="append", default=[],
                    help="a paragraph after the tables in the Markdown file (repeatable)")
    ap.add_argument("--json", help="also write the numbers as JSON")
    ap.add_argument("--bench", help="the benchmark's name in the JSON file")
    args = ap.parse_args()
    if args.json and not args.bench:
        ap.error("--json needs --bench NAME")

    samples = read_samples(args.tsv)
    rows = summarise(samples, args.ref)
    head, body = table(rows, args.unit, args.ref, args.digits)
    goals = goal_lines(rows, args.ref, args.goal) if args.goal is not None and args.ref else []

    print(text_table(head, body))
    for line in goals:
        print(line)

    if args.md:
        md = [f"# {args.title}", ""]
        if args.metric:
            md += [args.metric, ""]
        if args.meta:
            md += [f"- **{k.strip()}**: {v.strip()}" for k, _, v in
                   (m.partition("=") for m in args.meta)] + [""]
        md += ["## Summary", "", md_table(head, body), ""]
        if args.ref:
            md += [f"ratio = median / median of `{args.ref}`; paired = median over "
                   f"runs of value / `{args.ref}` value of the same run.", ""]
        if goals:
            md += [f"- {g}" for g in goals] + [""]
        md += ["## Raw values" + (f" ({args.unit})" if args.unit else ""), "",
               raw_table(samples, args.digits + 2), ""]
        for note in args.note:
            md += [note, ""]
        with open(args.md, "w", encoding="utf-8") as f:
            f.write("\n".join(md) + "\n")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(results_json(samples, rows, args), f, indent=1)
            f.write("\n")


if __name__ == "__main__":
    main()
