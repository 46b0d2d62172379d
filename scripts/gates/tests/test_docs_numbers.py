# SPDX-License-Identifier: GPL-2.0
"""Unit tests of scripts/gates/docs-numbers.py on a small fake tree."""

import importlib.util
import json
import os
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("docs_numbers", os.path.join(HERE, "..", "docs-numbers.py"))
dn = importlib.util.module_from_spec(spec)
spec.loader.exec_module(dn)

MAKEFILE = """\
.PHONY: help check bench-console \\
\tclean

help:
\t@echo "make check BOOT=x   ends with 'N passed, N failed, N skipped'"
\t@echo "make bench-console   CLOCK=host|icount"
\t@echo "make clean     drop out/"

check:
\t@scripts/check.sh $(BOOT)

bench-console:
\t@CLOCK=$(CLOCK) scripts/bench/console-boot.sh
"""
FILES = {
    "patches/alpha/0000-cover-letter.patch": "", "patches/alpha/0001-a.patch": "",
    "patches/alpha/0002-b.patch": "", "patches/beta/0001-c.patch": "",
    "scripts/config/variants": "# c\nbase base x\nseries series x\nextra series x\n",
    "scripts/config/trees": "# c\n7.2 linux-source-7.2 sid\n6.12 linux-source-6.12 trixie\n",
    "scripts/bench/console-boot.sh": 'CONFIG_TABLE="\na-x v1 y\nb-y v2 z\n"\n',
    "scripts/bench/uhs-fallback.sh":
        'FAULT_LINES=(\n\t"a b c"\n)\nRUNTIME_LINES=(\n\t"d e"\n\t"f g"\n)\n',
    "scripts/check.sh": '\techo "$pass passed, $fail failed, $skip skipped"\n',
    "Documentation/admin-guide/x.rst": "Fine.\n",
    "scripts/bench/results/con-icount.json": json.dumps({
        "benchmark": "con-icount", "unit": "ms", "ref": "c",
        "meta": {"date": "2026-12-03", "clock": "icount", "revision": "abc", "reproduce": "x"},
        "configs": {
            "b": {"n": 3, "median": 112.9, "min": 112.8, "max": 113.0, "ratio": 112.9 / 112.5,
                  "runs": {"1": 112.8, "2": 112.9, "3": 113.0}},
            "c": {"n": 3, "median": 112.5, "min": 112.5, "max": 112.6, "ratio": 1.0,
                  "runs": {"1": 112.5, "2": 112.6, "3": 112.5}}}}),
    "scripts/bench/results/claims.tsv": "# FILE TEXT RESULT\n",
}
CLAIMS = {
    "scripts/bench/results/claims.tsv": "# FILE TEXT RESULT\n"
                                        "README.md\tthe series {} ms\tcon-icount b median\n"
                                        "README.md\t(b/c {})\tcon-icount b ratio\n"
                                        "README.md\tIn 2025 ... old.\t- not re-measured since abc\n",
}
BENCH = "Measured: the series 112.9 ms (b/c 1.004).\n\nIn 2025 it took 150.0 ms\n(1.36x), old.\n"


class DocsNumbersTest(unittest.TestCase):
    def rows(self, readme, makefile=MAKEFILE, extra=None):
        with tempfile.TemporaryDirectory() as top:
            for rel, text in dict(FILES, **{"README.md": readme, "Makefile": makefile},
                                  **(extra or {})).items():
                os.makedirs(os.path.dirname(os.path.join(top, rel)), exist_ok=True)
                with open(os.path.join(top, rel), "w") as f:
                    f.write(text)
            return {name: (status, detail) for status, name, detail in dn.check(dn.Tree(top))}

    def failed(self, rows):
        return {n: d for n, (s, d) in rows.items() if s != "pass"}

    maxDiff = None

    def test_a_consistent_tree_passes(self):
        readme = ("The two series hold three patches; patches/alpha/ has two patches.\n\n"
                  "Patch 1 of patches/beta/. `make check` ends with N passed, N failed, N skipped.\n\n"
                  "`make bench-console` boots two configurations. Three variants. TREE=7.2|6.12\n")
        self.assertEqual(self.failed(self.rows(readme)), {})

    def test_wrong_numbers_fail_with_file_line_stated_and_real(self):
        readme = ("Intro.\n\nThe series: five patches.\n\n"
                  "`make bench-console` boots thirteen configurations.\n\n"
                  "Four kernel variants. Patch 2 of patches/beta/. SERIES=alpha|gamma\n\n"
                  "It ends with N passed, N failed.\n")
        bad = self.failed(self.rows(readme))
        details = "\n".join(bad.values())
        self.assertIn("README.md:3: states 'five patches', patches/ has 3", details)
        self.assertIn("README.md:5: states 'thirteen configurations', the console benchmark has 2", details)
        self.assertIn("README.md:7: states 'Four kernel variants', scripts/config/variants has 3", details)
        self.assertIn("README.md:7: states 'Patch 2', patches/beta/ has 1", details)
        self.assertIn("states 'SERIES=alpha|gamma', the tree has alpha|beta", details)
        self.assertIn("README.md:9: states 'N passed, N failed', scripts/check.sh prints", details)

    def test_help_must_name_every_target_and_variable(self):
        mk = MAKEFILE.replace('\t@echo "make clean     drop out/"\n', "").replace(" CLOCK=host|icount", "")
        bad = self.failed(self.rows("x\n", makefile=mk))
        self.assertIn("help does not name clean", "\n".join(bad.values()))
        self.assertIn("help does not name CLOCK=", "\n".join(bad.values()))
        self.assertNotIn("BOOT=", "\n".join(bad.values()))

    def test_readme_make_targets_must_exist(self):
        bad = self.failed(self.rows("Run `make cheque`.\n"))
        self.assertIn("README.md:1: 'make cheque' is not a target", "\n".join(bad.values()))


    def bench(self, readme=BENCH, **extra):
        rows = self.rows(readme, extra=dict(CLAIMS, **extra))
        return {n: d for n, d in self.failed(rows).items() if "benchmark numbers" in n}

    def test_quoted_numbers_equal_to_the_results_pass(self):
        rows = self.rows(BENCH, extra=CLAIMS)
        self.assertEqual(self.failed(rows), {})
        self.assertIn("docs benchmark numbers: README.md: every measured number is a committed "
                      "result (2 quoted)", rows)

    def test_a_changed_number_fails(self):
        bad = self.bench(BENCH.replace("b/c 1.004", "b/c 1.002"))
        self.assertIn("README.md:1: quotes 1.002, con-icount b ratio is 1.004", "\n".join(bad.values()))
        bad = self.bench(BENCH.replace("112.9 ms", "113 ms"))
        self.assertEqual(bad, {})     # the same number, rounded as quoted
        bad = self.bench(BENCH.replace("112.9 ms", "111 ms"))
        self.assertIn("quotes 111, con-icount b median is 113", "\n".join(bad.values()))

    def test_a_number_with_no_result_fails(self):
        bad = self.bench(BENCH + "\nAnd the tty1 boot took 120.1 ms, 1.07x.\n")
        details = "\n".join(bad.values())
        self.assertIn("README.md:6: quotes '120.1 ms' with no result behind it", details)
        self.assertIn("README.md:6: quotes '1.07x' with no result behind it", details)
        # In a cover letter or Documentation/ too.
        bad = self.bench(**{"patches/alpha/0000-cover-letter.patch": "b/c 1.0040\n",
                            "Documentation/admin-guide/x.rst": "It took 1884 ms.\n"})
        details = "\n".join(bad.values())
        self.assertIn("0000-cover-letter.patch:1: quotes '1.0040'", details)
        self.assertIn("x.rst:1: quotes '1884 ms'", details)

    def test_a_claim_the_docs_no_longer_make_fails(self):
        bad = self.bench(BENCH.replace("(b/c 1.004)", "(ratio 1.004)"))
        details = "\n".join(bad.values())
        self.assertIn("claims.tsv:3: README.md no longer says '(b/c {})'", details)
        self.assertIn("README.md:1: quotes '1.004' with no result behind it", details)

    def test_a_claim_can_name_its_table(self):
        # The same row in two tables: "..." ties the claim to the first
        # one after the caption; the other is exempt.
        readme = ("New run:\n\n  b  112.9 ms\n\nOld run (not re-measured):\n\n  b  111.0 ms\n")
        table = ("README.md\tNew run: ... b {} ms\tcon-icount b median\n"
                 "README.md\tOld run (not re-measured): ... ms\t- old\n")
        self.assertEqual(self.bench(readme, **{"scripts/bench/results/claims.tsv": table}), {})
        bad = self.bench(readme.replace("112.9", "111.0"), **{"scripts/bench/results/claims.tsv": table})
        self.assertIn("README.md:3: quotes 111.0, con-icount b median is 112.9", "\n".join(bad.values()))

    def test_a_configuration_with_a_space(self):
        doc = json.loads(FILES["scripts/bench/results/con-icount.json"])
        doc["configs"]["with probe"] = doc["configs"].pop("b")
        table = "README.md\tthe series {} ms\tcon-icount with%20probe median\n"
        self.assertEqual(self.bench("the series 112.9 ms\n", **{
            "scripts/bench/results/claims.tsv": table,
            "scripts/bench/results/con-icount.json": json.dumps(doc)}), {})

    def test_claims_of_missing_results_fail(self):
        table = CLAIMS["scripts/bench/results/claims.tsv"] + "README.md\tthe series {} ms\tcon-host b median\n"
        bad = self.bench(**{"scripts/bench/results/claims.tsv": table})
        self.assertIn("no scripts/bench/results/con-host.json", "\n".join(bad.values()))
        bad = self.bench(**{"scripts/bench/results/claims.tsv": "README.md\tx {} y\n"})
        self.assertIn("claims.tsv:1: expected FILE<TAB>TEXT<TAB>RESULT", "\n".join(bad.values()))

    def test_a_results_file_edited_by_hand_fails(self):
        doc = json.loads(FILES["scripts/bench/results/con-icount.json"])
        doc["configs"]["b"]["median"] = 112.0
        bad = self.bench(**{"scripts/bench/results/con-icount.json": json.dumps(doc)})
        self.assertIn("con-icount.json: b median 112.0 is not that of its runs (112.9)", "\n".join(bad.values()))
        del doc["meta"]["revision"]
        bad = self.bench(**{"scripts/bench/results/con-icount.json": json.dumps(doc)})
        self.assertIn("con-icount.json: no meta 'revision'", "\n".join(bad.values()))


if __name__ == "__main__":
    unittest.main()
