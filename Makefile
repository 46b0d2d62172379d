# SPDX-License-Identifier: GPL-2.0
# bootstamp: one target per user action; the work is in scripts/.
# Variables: KSRC=/path/to/kernel/tree (default: Debian linux-source-7.2,
# fetched into the cache), BOOT="name..." (boots of selftests/plan to run),
# BOOT_VARIANT=NAME (boot them on that kernel of scripts/config/variants).

SHELL := /bin/bash
S := scripts

.PHONY: help demo check check-full check-mutants deps tree series build guest export b4-prep b4-send b4-export \
	bench-bootstamp bench-console bench-console-burst bench-uhs bench-probes bench-side-by-side \
	clean distclean

help:
	@echo "make demo      fetch, patch, build, boot QEMU virt, show the boot report"
	@echo "make check     the tests CI runs; ends with 'N passed, N failed, N skipped'"
	@echo "make check-full  those and the boots of selftests/plan-full (more kernels)"
	@echo "make check-mutants  the mutation gate (in check-full): each mutant of selftests/mutants/"
	@echo "               must turn a boot red; MUTANTS=\"a b\" runs those only"
	@echo "make check BOOT=series-smp4   only the named boots of selftests/plan"
	@echo "make check BOOT=\"...\" BOOT_VARIANT=slowuart-rt   those boots on another kernel"
	@echo "make deps | tree | series | build | guest   the single steps"
	@echo "make export    write the series worktree's commits back to patches/*/"
	@echo "make b4-prep | b4-send | b4-export SERIES=NAME   one series' b4 branch:"
	@echo "               make it from patches/NAME, write its mails to out/outgoing,"
	@echo "               write it back to patches/NAME"
	@echo "make bench-bootstamp   boot time with the recorder on vs off (interleaved)"
	@echo "make bench-console     boot time with a slow serial console: unpatched, series,"
	@echo "               loglevel=1, the one-line console_initcall change this work"
	@echo "               started from, earlycon, ... (slow-UART model)"
	@echo "make bench-console-burst   console throughput after boot on QEMU's own PL011:"
	@echo "               a 64 KB burst to /dev/kmsg, time to drain, unpatched vs series"
	@echo "make bench-uhs         SD card bring-up per fault model: unpatched, the"
	@echo "               debug_quirks2=4 quirk, the series' first and later boots;"
	@echo "               faults after bring-up: failed reads, time to data"
	@echo "make bench-probes      a driver probe with and without the module's kretprobe"
	@echo "make bench-side-by-side   one test driver's probe through initcall_debug +"
	@echo "               bootgraph.pl, systemd-analyze, boot-time ftrace and bootstamp:"
	@echo "               what each shows, costs (icount) and needs"
	@echo "make clean     drop out/ (results); distclean also drops the cache (and,"
	@echo "               with KSRC=, the base ref and worktrees in that tree)"
	@echo ""
	@echo "Variables (make VAR=value target):"
	@echo "  TREE=7.2|7.3|6.12   Debian tree of scripts/config/trees (default 7.2)"
	@echo "  KSRC=/path/to/linux any git tree instead; its HEAD is the base"
	@echo "  SERIES=bootstamp|console|sd-uhs   the series of b4-prep, b4-send, b4-export"
	@echo "  FORCE=1             b4-prep: replace a b4 branch that differs from patches/"
	@echo "  BOOT=\"NAME...\"      check: only these boots; BOOT_VARIANT=NAME on that kernel;"
	@echo "                      BOOT_JOBS=N boots at a time (default 2)"
	@echo "  CLOCK=host|icount   bench-*: guest time from the host clock or in instructions"
	@echo "  PRIME=0|1           bench-*: an unmeasured boot before each measured one"
	@echo "  RUNS=N CPUS=N       bench-*: boots per configuration, guest CPUs (demo: CPUS)"
	@echo "  ONLY=\"b c\"          bench-console: only these configurations"
	@echo "  BST_CACHE=DIR       where trees, builds and ccache go (~/.cache/bootstamp)"

demo:
	@$(S)/demo.sh

check:
	@$(S)/check.sh $(BOOT)

check-full:
	@$(S)/check.sh --full $(BOOT)

check-mutants:
	@$(S)/gates/mutants.sh $(MUTANTS)

deps:
	@$(S)/setup/deps.sh

tree: deps
	@$(S)/setup/fetch-tree.sh

series: tree
	@$(S)/setup/apply-series.sh

build: series
	@$(S)/build/build-kernel.sh baseline
	@$(S)/build/build-kernel.sh series

guest: build
	@$(S)/build/build-guest.sh series

export:
	@$(S)/setup/export-series.sh

b4-prep: tree
	@$(S)/upstream/b4-prep.sh

b4-send:
	@$(S)/upstream/b4-send.sh

b4-export:
	@$(S)/upstream/b4-export.sh

bench-bootstamp: series
	@$(S)/build/build-sparse.sh
	@$(S)/build/build-kernel.sh series
	@$(S)/build/build-kernel.sh nobootstamp
	@$(S)/build/build-guest.sh series
	@CLOCK=$(or $(CLOCK),host) $(S)/bench/bootstamp-overhead.sh

bench-console: series
	@$(S)/build/build-sparse.sh
	@$(S)/build/build-kernel.sh series
	@for v in $$($(S)/bench/console-boot.sh --variants); do $(S)/build/build-kernel.sh $$v || exit; done
	@$(S)/build/build-guest.sh series
	@$(S)/bench/console-boot.sh

bench-console-burst: series
	@$(S)/build/build-kernel.sh slowuart-base
	@$(S)/build/build-kernel.sh slowuart-series
	@$(S)/build/build-guest.sh slowuart-series
	@CLOCK=$(or $(CLOCK),icount) $(S)/bench/console-burst.sh

bench-uhs: series
	@$(S)/build/build-kernel.sh uhscard
	@$(S)/build/build-kernel.sh uhsmodel-base
	@$(S)/build/build-guest.sh series
	@$(S)/build/build-guest.sh uhscard
	@$(S)/build/build-guest.sh uhsmodel-base
	@CLOCK=$(or $(CLOCK),icount) $(S)/bench/uhs-fallback.sh

bench-probes: series
	@$(S)/build/build-sparse.sh
	@$(S)/build/build-kernel.sh series
	@$(S)/build/build-guest.sh series
	@CLOCK=$(or $(CLOCK),icount) $(S)/bench/probe-cost.sh

bench-side-by-side: series
	@$(S)/build/build-sparse.sh
	@$(S)/build/build-kernel.sh series
	@$(S)/build/build-guest.sh series
	@CLOCK=$(or $(CLOCK),icount) $(S)/bench/side-by-side.sh

clean:
	rm -rf out

distclean: clean
	@$(S)/setup/forget-tree.sh
	@. $(S)/lib.sh && echo "removing $$BST_CACHE" && rm -rf "$$BST_CACHE"
