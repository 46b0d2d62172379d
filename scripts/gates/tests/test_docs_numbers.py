# SPDX-License-Identifier: GPL-2.0
"""Unit tests of scripts/gates/docs-numbers.py on a small fake tree."""

import importlib.util
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
    "scripts/bench/uhs-fallback.sh": 'CONFIG_LINES=(\n\t"a b c"\n)\n',
    "scripts/check.sh": '\techo "$pass passed, $fail failed, $skip skipped"\n',
    "Documentation/admin-guide/x.rst": "Fine.\n",
}


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


if __name__ == "__main__":
    unittest.main()
