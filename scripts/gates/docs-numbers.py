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
    (CONFIG_TABLE) or scripts/bench/uhs-fallback.sh (CONFIG_LINES),
    whichever benchmark the paragraph names last before the number;
  - "N passed, ...": the wording of the last line scripts/check.sh prints;
  - "TREE=a|b|c", "SERIES=a|b|c": the trees of scripts/config/trees, the
    series of patches/;
  - the targets `make help` names against the Makefile's .PHONY targets,
    every variable the Makefile's recipes read named in the help, and every
    `make TARGET` of README.md a target of the Makefile.
"""

import glob
import os
import re
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
        m = re.search(r"^CONFIG_LINES=\(\n(.*?)^\)", text, re.S | re.M)
        self.bench["uhs"] = len([l for l in m.group(1).splitlines()
                                 if l.strip().startswith('"')]) if m else None
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
    return rows


def main():
    top = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.dirname(
        os.path.dirname(os.path.abspath(__file__))))
    for status, name, detail in check(Tree(top)):
        print(f"{status}\t{name}\t{detail}")


if __name__ == "__main__":
    main()
