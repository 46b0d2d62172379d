# SPDX-License-Identifier: GPL-2.0
"""selftests/mutants/index, the mutation gate's list (scripts/gates/mutants.sh):
every line names a patch and boots the gate can run, every patch is listed,
and each patch applies where the index says (git apply --check, which
writes nothing, on the harness's trees when they exist)."""

import os
import re
import shutil
import subprocess
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
DIR = os.path.dirname(HERE)
TOP = os.path.dirname(os.path.dirname(DIR))
CACHE = os.environ.get("BST_CACHE") or os.path.join(
    os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "bootstamp")
# The trees a mutant of each kind applies to (lib.sh: series worktree, lab tree).
TREES = {"series": os.path.join(CACHE, "series/src/linux-7.2"),
         "debug": os.path.join(CACHE, "lab/slowuart-series/src/linux-7.2")}
# The kernel trees of scripts/config/variants a mutant's boots may run.
VARIANT_TREES = {"series": {"series"}, "debug": {"lab:slowuart-series"},
                 "module": {"series", "lab:slowuart-series"}}


def uncomment(path):
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if line:
                yield line


def index(path=os.path.join(DIR, "index")):
    rows = []
    for line in uncomment(path):
        name, tree, boots, claim = re.split(r"\s+", line, maxsplit=3)
        rows.append((name, tree, boots.split(","), claim))
    return rows


def plan_variants():
    boots = {}
    for plan in ("plan", "plan-full"):
        for line in uncomment(os.path.join(TOP, "selftests", plan)):
            f = line.split()
            boots[f[0]] = f[1]
    return boots


def variant_trees():
    return {f[0]: f[1] for f in map(str.split, uncomment(os.path.join(TOP, "scripts/config/variants")))}


class Index(unittest.TestCase):
    def test_every_line_is_complete(self):
        names = [r[0] for r in index()]
        self.assertEqual(len(names), len(set(names)), "a mutant named twice")
        for name, tree, boots, claim in index():
            self.assertIn(tree, VARIANT_TREES, name)
            self.assertTrue(os.path.isfile(os.path.join(DIR, name + ".patch")), name)
            self.assertTrue(claim, name)

    def test_every_patch_is_listed(self):
        names = {r[0] for r in index()}
        patches = {f[:-6] for f in os.listdir(DIR) if f.endswith(".patch")}
        self.assertEqual(patches - names, set())

    def test_boots_run_the_mutated_kernel(self):
        boots, trees = plan_variants(), variant_trees()
        for name, tree, names, _ in index():
            for b in names:
                self.assertIn(b, boots, f"{name}: boot {b} is in no plan")
                self.assertIn(trees[boots[b]], VARIANT_TREES[tree],
                              f"{name}: boot {b} runs {boots[b]}, not a {tree} kernel")

    def test_twenty_mutants_over_the_three_series_and_the_module(self):
        rows = index()
        self.assertGreaterEqual(len(rows), 20)
        touched = set()
        for name, tree, _, _ in rows:
            with open(os.path.join(DIR, name + ".patch"), encoding="utf-8") as f:
                path = re.search(r"^\+\+\+ b/(\S+)", f.read(), re.M).group(1)
            touched.add("module" if path.startswith("module/") else
                        "bootstamp" if re.match(r"(init/|arch/arm64/)", path) else
                        "console" if re.match(r"(kernel/printk/|drivers/tty/)", path) else
                        "sd-uhs" if path.startswith("drivers/mmc/") else path)
        self.assertEqual(touched, {"bootstamp", "console", "sd-uhs", "module"})


class Apply(unittest.TestCase):
    def check(self, tree, root):
        rows = [r for r in index() if r[1] == tree]
        if not os.path.isdir(os.path.join(root, ".git")) and not os.path.isfile(os.path.join(root, ".git")):
            self.skipTest(f"no {tree} tree at {root} (make check builds it)")
        for name, *_ in rows:
            r = subprocess.run(["git", "-C", root, "apply", "--check",
                                os.path.join(DIR, name + ".patch")],
                               capture_output=True, text=True)
            self.assertEqual(r.returncode, 0, f"{name}: {r.stderr}")

    def test_series_mutants_apply(self):
        self.check("series", TREES["series"])

    def test_debug_mutants_apply(self):
        self.check("debug", TREES["debug"])

    def test_module_mutants_apply(self):
        with tempfile.TemporaryDirectory() as tmp:
            shutil.copytree(os.path.join(TOP, "module"), os.path.join(tmp, "module"))
            subprocess.run(["git", "init", "-q", tmp], check=True)
            self.check("module", tmp)


if __name__ == "__main__":
    unittest.main()
