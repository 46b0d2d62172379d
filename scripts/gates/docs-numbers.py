#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""docs-numbers.py [TOP]: numbers and names the documentation states that
the tree can tell, checked against the tree. One tab-separated row per
check on stdout, "pass|fail NAME DETAIL" (scripts/lib.sh record_rows); a
failure names FILE:LINE, what it states and what the tree has. Exit 0.

Read: README.md, the help target of the Makefile, Documentation/**.
Checked:
  - "N patches" / "N-patch": the patches of the series the paragraph names
    (patches/NAME, SERIES=NAME, "NAME series"), else of all series (not
    after "to", "after", ...: "a change to two patches"); "N series" (but
    "one"): the directories of patches/; "patch N", "patches N to M":
    no higher than the patches of that series (of the largest one when the
    paragraph names none);
  - "N variants": the kernels of scripts/config/variants;
  - "N configurations": the configurations of scripts/bench/console-boot.sh
    (CONFIG_TABLE) or scripts/bench/uhs-fallback.sh (five per FAULT_LINES
    line, two per RUNTIME_LINES line),
    whichever benchmark the paragraph names last before the number;
  - "N passed, ...": the wording of the last line scripts/check.sh prints;
  - "TREE=a|b|c", "SERIES=a|b|c": the trees of scripts/config/trees, the
    series of patches/;
  - the targets `make help` names against the Makefile's .PHONY targets,
    every variable the Makefile's recipes read named in the help, and every
    `make TARGET` of README.md a target of the Makefile;
  - benchmark numbers (bench_numbers()): every number quoted in README.md,
    scripts/bench/README.md, Documentation/ and the cover letters that
    reads like a measurement
    (a time in ms or us with decimals or of three digits or more, a ratio
    with three or four decimals, a factor such as 1.40x) is either a
    claim of scripts/bench/results/claims.tsv, equal to the committed
    results file it names once rounded as quoted, or inside a passage
    that table exempts with a reason; the committed results files agree
    with their own runs.
"""

import glob
import json
import os
import re
import statistics
import sys

WORDS = {w: i for i, w in enumerate(
    "zero one two three four five six seven eight nine ten eleven twelve "
    "thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty".split())}
for _i, _t in enumerate(["twenty", "thirty", "forty"], 2):
    for _j, _u in enumerate("one two three four five six seven eight nine".split(), 1):
        WORDS[f"{_t}-{_u}"] = _i * 10 + _j
    WORDS[_t] = _i * 10
NUM = r"(\d+|" + "|".join(sorted(WORDS, key=len, reverse=True)) + r")"


def number(s):
    s = s.lower()
    return int(s) if s.isdigit() else WORDS[s]


class Tree:
    def __init__(self, top):
        self.top = top
        self.series = {}
        for d in sorted(glob.glob(os.path.join(top, "patches", "*", ""))):
            name = os.path.basename(os.path.dirname(d))
            self.series[name] = len([p for p in glob.glob(os.path.join(d, "[0-9][0-9][0-9][0-9]-*.patch"))
                                     if not os.path.basename(p).startswith("0000-")])
        self.patches = sum(self.series.values())
        self.variants = len([l for l in self.lines("scripts/config/variants")
                             if l.strip() and not l.lstrip().startswith("#")])
        text = self.read("scripts/bench/console-boot.sh")
        m = re.search(r'^CONFIG_TABLE="\n(.*?)^"', text, re.S | re.M)
        self.bench = {"console": len([l for l in m.group(1).splitlines() if l.strip()]) if m else None}
        text = self.read("scripts/bench/uhs-fallback.sh")

        def lines_of(array):
            m = re.search(rf"^{array}=\(\n(.*?)^\)", text, re.S | re.M)
            return len([l for l in m.group(1).splitlines()
                        if l.strip().startswith('"')]) if m else None
        # Five boots per bring-up fault model, two per runtime fault.
        faults, runtime = lines_of("FAULT_LINES"), lines_of("RUNTIME_LINES")
        self.bench["uhs"] = 5 * faults + 2 * runtime \
            if faults is not None and runtime is not None else None
        self.trees = [l.split()[0] for l in self.lines("scripts/config/trees")
                      if l.strip() and not l.lstrip().startswith("#")]
        m = re.search(r'^\s*echo "(\$pass passed.*)"$', self.read("scripts/check.sh"), re.M)
        self.final_line = re.sub(r"\$\w+", "N", m.group(1)) if m else None

    def read(self, rel):
        with open(os.path.join(self.top, rel), encoding="utf-8") as f:
            return f.read()

    def lines(self, rel):
        return self.read(rel).splitlines()


def makefile(tree):
    """(.PHONY targets, variables recipes read, [(line, help text)])."""
    text = tree.read("Makefile")
    joined = text.replace("\\\n", " ")
    phony = set()
    for m in re.finditer(r"^\.PHONY:(.*)$", joined, re.M):
        phony.update(m.group(1).split())
    help_lines, in_help, recipe_vars = [], False, set()
    for n, line in enumerate(text.splitlines(), 1):
        if re.match(r"^help:", line):
            in_help = True
            continue
        if in_help and not line.startswith("\t"):
            in_help = False
        if in_help:
            m = re.match(r'^\t@echo "(.*)"$', line)
            if m:
                help_lines.append((n, m.group(1).replace('\\"', '"')))
        elif line.startswith("\t"):
            recipe_vars.update(re.findall(r"\$\(([A-Z][A-Z0-9_]*)\)", line))
    recipe_vars -= {"S", "MAKE", "SHELL", "CURDIR"}
    return phony, recipe_vars, help_lines


def documents(tree):
    """[(relpath, [(lineno, text)])] of what the docs say."""
    docs = []
    for rel in ["README.md"] + sorted(
            os.path.relpath(p, tree.top) for p in glob.glob(os.path.join(tree.top, "Documentation", "**", "*"),
                                                              recursive=True)
            if os.path.isfile(p) and not p.endswith((".svg", ".png"))):
        docs.append((rel, list(enumerate(tree.lines(rel), 1))))
    docs.append(("Makefile", makefile(tree)[2]))
    return docs


def paragraphs(lines):
    """Blank-line separated paragraphs: [(text, [(offset, lineno)])]."""
    out, cur = [], []
    for n, text in lines + [(None, "")]:
        if text.strip():
            cur.append((n, text))
        elif cur:
            offs, pos = [], 0
            for ln, t in cur:
                offs.append((pos, ln))
                pos += len(t) + 1
            out.append(("\n".join(t for _, t in cur), offs))
            cur = []
    return out


def lineno(offs, pos):
    n = offs[0][1]
    for o, ln in offs:
        if o <= pos:
            n = ln
    return n


def context(par, pos, patterns, default=None):
    """The key of the pattern matched last before pos, else first after it
    in the same sentence."""
    before, after = None, None
    end = re.compile(r"[.;:](?:\s|$)").search(par, pos)
    end = end.start() if end else len(par)
    for key, rx in patterns:
        for m in re.finditer(rx, par):
            if m.start() <= pos and (before is None or m.start() > before[0]):
                before = (m.start(), key if key else m.group(1))
            elif pos < m.start() < end and (after is None or m.start() < after[0]):
                after = (m.start(), key if key else m.group(1))
    return (before or after or (None, default))[1]


FILE_SERIES = {"pl011-console-boot.rst": "console", "sd-uhs-fallback.rst": "sd-uhs",
               "debugfs-mmc-uhs-fallback": "sd-uhs"}
FILE_BENCH = {"pl011-console-boot.rst": "console", "sd-uhs-fallback.rst": "uhs"}
BENCH_RX = [("console", r"bench-console|console-boot|slow serial console|slow UART"),
            ("uhs", r"bench-uhs|uhs-fallback\.sh|SD card in")]


def check(tree):
    rows = []
    findings = {k: [] for k in ("patches", "series", "patch numbers", "variants",
                                 "configurations", "final line", "choices")}
    names = "|".join(re.escape(s) for s in tree.series) or "-"
    series_rx = [(None, rf"patches/({names})\b"), (None, rf"SERIES=({names})\b"),
                 (None, rf"\b({names})`? series\b"), (None, rf"\bb4/({names})\b")]
    biggest = max(tree.series.values(), default=0)
    for rel, lines in documents(tree):
        base = os.path.basename(rel)
        for par, offs in paragraphs(lines):
            for m in re.finditer(rf"\b{NUM}(?:-patch\b|\s+(?:kernel\s+|more\s+|numbered\s+)?patches\b)", par, re.I):
                if re.search(r"\b(?:to|after|first|last|other|those)\s+$", par[max(0, m.start() - 12):m.start()]):
                    continue        # "a change to two patches": not a count of a series
                s = context(par, m.start(), series_rx, FILE_SERIES.get(base))
                want = tree.series.get(s, tree.patches) if s else tree.patches
                if number(m.group(1)) != want:
                    findings["patches"].append(
                        f"{rel}:{lineno(offs, m.start())}: states {m.group(0)!r}, "
                        f"patches/{s + '/' if s else ''} has {want}")
            for m in re.finditer(rf"\b{NUM}\s+(?:independent\s+|separate\s+)?series\b", par, re.I):
                if number(m.group(1)) not in (1, len(tree.series)):   # "one series at a time"
                    findings["series"].append(
                        f"{rel}:{lineno(offs, m.start())}: states {m.group(0)!r}, "
                        f"patches/ has {len(tree.series)} series")
            for m in re.finditer(r"(?<!per )\b[Pp]atch(?:es)?\s+(\d+)(?:\s*(?:to|-|–|and)\s*(\d+))?\b(?! ?(?:s|ms|min)\b)", par):
                s = context(par, m.start(), series_rx, FILE_SERIES.get(base))
                limit = tree.series.get(s, biggest) if s else biggest
                hi = max(int(g) for g in m.groups() if g)
                if hi > limit or hi == 0:
                    findings["patch numbers"].append(
                        f"{rel}:{lineno(offs, m.start())}: states {m.group(0)!r}, "
                        + (f"patches/{s}/ has {limit}" if s else f"the largest series has {limit}"))
            for m in re.finditer(rf"\b{NUM}\s+(?:kernel\s+|build\s+)?variants\b", par, re.I):
                if number(m.group(1)) != tree.variants:
                    findings["variants"].append(
                        f"{rel}:{lineno(offs, m.start())}: states {m.group(0)!r}, "
                        f"scripts/config/variants has {tree.variants}")
            for m in re.finditer(rf"\b{NUM}\s+(?:\w+\s+)?configurations\b", par, re.I):
                b = context(par, m.start(), BENCH_RX, FILE_BENCH.get(base))
                want = tree.bench.get(b) if b else None
                if want is None or number(m.group(1)) != want:
                    findings["configurations"].append(
                        f"{rel}:{lineno(offs, m.start())}: states {m.group(0)!r}, " +
                        (f"the {b} benchmark has {want}" if b else "names no benchmark (bench-console or bench-uhs)"))
            for m in re.finditer(r"\bN passed[^\"'`)\n]*", par):
                said = m.group(0).rstrip(" .;:")
                if tree.final_line and said != tree.final_line:
                    findings["final line"].append(
                        f"{rel}:{lineno(offs, m.start())}: states {said!r}, "
                        f"scripts/check.sh prints {tree.final_line!r}")
            for m in re.finditer(r"\b(TREE|SERIES)=([\w.-]+(?:\|[\w.-]+)+)", par):
                have = tree.trees if m.group(1) == "TREE" else list(tree.series)
                if sorted(m.group(2).split("|")) != sorted(have):
                    findings["choices"].append(
                        f"{rel}:{lineno(offs, m.start())}: states {m.group(0)!r}, the tree has "
                        + "|".join(have) + (" (scripts/config/trees)" if m.group(1) == "TREE" else " (patches/)"))
    what = {
        "patches": f"'N patches' in the docs match patches/ ({tree.patches}: " +
                   ", ".join(f"{k} {v}" for k, v in tree.series.items()) + ")",
        "series": f"'N series' in the docs match patches/ ({len(tree.series)})",
        "patch numbers": "'patch N' in the docs exist in their series",
        "variants": f"'N variants' in the docs match scripts/config/variants ({tree.variants})",
        "configurations": "'N configurations' in the docs match the benchmarks "
                          f"(console {tree.bench['console']}, uhs {tree.bench['uhs']})",
        "final line": f"the docs quote check.sh's last line ({tree.final_line})",
        "choices": "'TREE=a|b' and 'SERIES=a|b' in the docs list the trees of "
                   "scripts/config/trees and the series of patches/",
    }
    for k, f in findings.items():
        rows.append(("fail", "docs numbers: " + what[k], "; ".join(f)) if f
                    else ("pass", "docs numbers: " + what[k], ""))
    if tree.final_line is None:
        rows.append(("fail", "docs numbers: check.sh's last line", "no 'echo \"$pass passed...' in scripts/check.sh"))

    phony, recipe_vars, help_lines = makefile(tree)
    help_text = "\n".join(t for _, t in help_lines)
    missing = sorted(t for t in phony - {"help"}
                     if not re.search(rf"(?<![\w/-]){re.escape(t)}(?![\w-])", help_text))
    unknown = []
    for n, t in help_lines:
        for m in re.finditer(r"^make ((?:[\w-]+=\S+ )*)([a-z][\w-]*)((?:\s*\|\s*[a-z][\w-]*)*)", t):
            for tgt in [m.group(2)] + re.findall(r"[a-z][\w-]*", m.group(3)):
                if tgt not in phony:
                    unknown.append(f"Makefile:{n}: 'make {tgt}' is not a .PHONY target")
    rows.append(("fail" if missing or unknown else "pass",
                 f"make help names every .PHONY target ({len(phony)}) and no other",
                 "; ".join([f"Makefile: help does not name {', '.join(missing)}"] if missing else [] + unknown)
                 if missing or unknown else ""))
    novar = sorted(v for v in recipe_vars if not re.search(rf"\b{v}=", help_text))
    rows.append(("fail" if novar else "pass",
                 f"make help names every variable the recipes read ({', '.join(sorted(recipe_vars))})",
                 f"Makefile: help does not name {', '.join(v + '=' for v in novar)}" if novar else ""))
    bad = []
    for n, t in enumerate(tree.lines("README.md"), 1):
        for m in re.finditer(r"`make ((?:[A-Z_]+=\S* )*)([a-z][\w-]*)", t):
            if m.group(2) not in phony:
                bad.append(f"README.md:{n}: 'make {m.group(2)}' is not a target of the Makefile")
    rows.append(("fail" if bad else "pass", "README.md names only targets of the Makefile", "; ".join(bad)))
    return rows + bench_numbers(tree)


RESULTS = "scripts/bench/results"
CLAIMS = RESULTS + "/claims.tsv"
# A number that reads like a measured result (see the docstring).
RESULT_RX = re.compile(r"(?<![\w.])(?!0x)(?:\d+\.\d+\s?(?:ms|us)|\d{3,}\s?(?:ms|us)|\d\.\d{3,4}|\d+(?:\.\d+)?x)(?![\w])")
FIELDS = ("median", "min", "max", "q1", "q3", "ratio", "paired")


def bench_docs(tree):
    """The files whose benchmark numbers are checked."""
    docs = [d for d in ("README.md", "scripts/bench/README.md")
            if os.path.isfile(os.path.join(tree.top, d))] + sorted(
        os.path.relpath(p, tree.top) for p in glob.glob(os.path.join(tree.top, "Documentation", "**", "*.rst"),
                                                          recursive=True))
    return docs + sorted(os.path.relpath(p, tree.top) for p in
                         glob.glob(os.path.join(tree.top, "patches", "*", "0000-cover-letter.patch")))


def claim_rx(text):
    """TEXT of claims.tsv as a regular expression: whitespace matches any
    whitespace (line breaks too), {} the number (group 1), ... anything."""
    def words(part):
        return "".join(r"\s+" if t.isspace() else
                       r"(\d+(?:\.\d+)?)" if t == "{}" else re.escape(t)
                       for t in re.split(r"(\s+|\{\})", part) if t)
    parts = [p.strip() for p in text.split("...")]
    rx = words(parts[0])
    for prev, part in zip(parts, parts[1:]):
        # Stripped, so that the lazy gap takes the whitespace, not the
        # parts (the first match after the previous part is the one).
        rx += (r"\b" if re.search(r"\w$", prev) else "") + r".*?" + \
            (r"\b" if re.match(r"\w", part) else "") + words(part)
    return re.compile(rx, re.S)


def result_value(results, key):
    """The number KEY names, "BENCH CONFIG FIELD" (a space of CONFIG written
    %20): FIELD of CONFIG in scripts/bench/results/BENCH.json, or
    "ratio/OTHER" (CONFIG's median over OTHER's) or "minus/OTHER" (CONFIG's
    median less OTHER's). (value, error)."""
    parts = key.split()
    if len(parts) != 3:
        return None, f"{key!r}: give BENCH CONFIG FIELD"
    bench, config, field = parts
    config = config.replace("%20", " ")     # "without%20module"
    r = results.get(bench)
    if r is None:
        return None, f"no {RESULTS}/{bench}.json"
    configs = r.get("configs", {})
    if config not in configs:
        return None, f"{bench}.json has no configuration {config!r}"
    c = configs[config]
    op, _, other = field.partition("/")
    if other:
        if other not in configs or op not in ("ratio", "minus"):
            return None, f"{key!r}: FIELD is one of {', '.join(FIELDS)}, ratio/CONFIG or minus/CONFIG"
        o = configs[other]["median"]
        return (c["median"] / o if op == "ratio" else c["median"] - o), None
    if field not in FIELDS or c.get(field) is None:
        return None, f"{key!r}: {bench}.json has no {field} of {config}"
    return c[field], None


def results_consistent(name, r):
    """Problems of a committed results file: its summary must be that of
    its own runs (stats.py --json), so that no number is edited by hand."""
    bad = []
    for k in ("benchmark", "configs", "meta"):
        if k not in r:
            bad.append(f"{name}: no {k!r}")
    if bad:
        return bad
    if r["benchmark"] != name:
        bad.append(f"{name}.json: benchmark {r['benchmark']!r}")
    for k in ("date", "clock", "revision", "reproduce"):
        if not r["meta"].get(k):
            bad.append(f"{name}.json: no meta {k!r}")
    ref = r["configs"].get(r.get("ref"), {}).get("runs") if r.get("ref") else None
    for config, c in r["configs"].items():
        runs = list(c.get("runs", {}).values())
        if not runs:
            bad.append(f"{name}.json: {config} has no runs")
            continue
        med = statistics.median(runs)
        want = {"n": len(runs), "median": med, "min": min(runs), "max": max(runs)}
        if ref:
            want["ratio"] = med / statistics.median(ref.values())
        for k, v in want.items():
            if c.get(k) is None or abs(c[k] - v) > 1e-9 * max(1, abs(v)):
                bad.append(f"{name}.json: {config} {k} {c.get(k)} is not that of its runs ({v})")
    return bad


def bench_numbers(tree):
    """Rows: the benchmark numbers of each document (see the docstring)."""
    rows, results, bad = [], {}, []
    for p in sorted(glob.glob(os.path.join(tree.top, RESULTS, "*.json"))):
        name = os.path.basename(p)[:-5]
        try:
            with open(p, encoding="utf-8") as f:
                results[name] = json.load(f)
        except ValueError as e:
            bad.append(f"{RESULTS}/{name}.json: {e}")
            continue
        bad += results_consistent(name, results[name])
    rows.append(("fail" if bad else "pass",
                 f"docs benchmark numbers: {RESULTS}/*.json agree with their runs ({len(results)} files)",
                 "; ".join(bad)))
    claims, bad = {}, []
    try:
        table = tree.lines(CLAIMS)
    except OSError:
        table = []
        bad.append(f"no {CLAIMS}")
    for n, line in enumerate(table, 1):
        if not line.strip() or line.startswith("#"):
            continue
        f = line.split("\t")
        if len(f) != 3 or not all(x.strip() for x in f):
            bad.append(f"{CLAIMS}:{n}: expected FILE<TAB>TEXT<TAB>RESULT or FILE<TAB>TEXT<TAB>- REASON")
            continue
        exempt = f[2].startswith("- ")
        if not exempt and f[1].count("{}") != 1:
            bad.append(f"{CLAIMS}:{n}: TEXT of a claim holds one {{}}")
            continue
        claims.setdefault(f[0], []).append((n, f[1], f[2], exempt))
    docs = bench_docs(tree)
    for rel in sorted(set(claims) - set(docs)):
        bad.append(f"{CLAIMS}: {rel} is not a document the gate reads")
    rows.append(("fail" if bad else "pass", f"docs benchmark numbers: {CLAIMS} is well-formed", "; ".join(bad)))
    for rel in docs:
        text = tree.read(rel)
        covered, bad, checked = [], [], 0

        def line_of(pos):
            return text.count("\n", 0, pos) + 1
        for n, t, key, exempt in claims.get(rel, []):
            found = list(claim_rx(t).finditer(text))
            if not found:
                bad.append(f"{CLAIMS}:{n}: {rel} no longer says {t!r}")
                continue
            for m in found:
                if exempt:
                    covered.append(m.span())
                    continue
                covered.append(m.span(1))
                checked += 1
                value, err = result_value(results, key)
                quoted = m.group(1)
                decimals = len(quoted.partition(".")[2])
                if err:
                    bad.append(f"{rel}:{line_of(m.start(1))}: {quoted}: {err}")
                elif f"{value:.{decimals}f}" != quoted:
                    bad.append(f"{rel}:{line_of(m.start(1))}: quotes {quoted}, {key} is "
                               f"{value:.{decimals}f} ({value:.4f}; {CLAIMS}:{n})")
        for m in RESULT_RX.finditer(text):
            if not any(a <= m.start() < b for a, b in covered):
                bad.append(f"{rel}:{line_of(m.start())}: quotes {m.group(0)!r} with no result behind it "
                           f"(no claim or exemption in {CLAIMS})")
        rows.append(("fail" if bad else "pass",
                     f"docs benchmark numbers: {rel}: every measured number is a committed result "
                     f"({checked} quoted)", "; ".join(bad)))
    return rows


def main():
    top = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.dirname(
        os.path.dirname(os.path.abspath(__file__))))
    for status, name, detail in check(Tree(top)):
        print(f"{status}\t{name}\t{detail}")


if __name__ == "__main__":
    main()
