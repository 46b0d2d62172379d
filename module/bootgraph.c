// SPDX-License-Identifier: GPL-2.0
/*
 * bootstamp: initcalls as initcall_debug would have printed them, for
 * scripts/bootgraph.pl and tools/power/pm-graph/bootgraph.py:
 *
 *   [    0.012345] calling  fn+0x0/0x0 @ 1
 *   [    0.012399] initcall fn+0x0/0x0 returned 0 after 54 usecs
 *
 * The timestamp is seconds since the time base instead of sched_clock, so
 * the graph includes the time before time_init(). bootgraph.pl stops at the
 * "Freeing unused kernel memory" line, which is printed at the
 * free_initmem milestone; module initcalls follow it with " [module]".
 */
#include "internal.h"

static void bs_bg_time(struct seq_file *m, u64 cyc)
{
	u32 rem;
	u64 sec = div_u64_rem(bs_rel_ns(cyc), NSEC_PER_SEC, &rem);

	seq_printf(m, "[%5llu.%06u] ", sec, rem / 1000);
}

static void bs_bg_initcall(struct seq_file *m, const struct bs_initcall *ic)
{
	u64 ns = ic->end > ic->start ? bs_cyc_to_ns(ic->end - ic->start) : 0;
	bool builtin = ic->level != BS_LEVEL_MODULE;

	bs_bg_time(m, ic->start);
	seq_puts(m, "calling  ");
	bs_seq_sym(m, ic);
	seq_puts(m, "+0x0/0x0");
	if (!builtin)
		seq_printf(m, " [%s]", ic->mod);
	seq_printf(m, " @ %d\n", ic->pid);

	bs_bg_time(m, ic->end);
	seq_puts(m, "initcall ");
	bs_seq_sym(m, ic);
	seq_puts(m, "+0x0/0x0");
	if (!builtin)
		seq_printf(m, " [%s]", ic->mod);
	seq_printf(m, " returned %d after %llu usecs\n", ic->ret,
		   div_u64(ns, NSEC_PER_USEC));
}

static void bs_bg_log(struct seq_file *m, unsigned int idx)
{
	struct bs_initcall ic;

	if (bs_log_initcall(idx, &ic))
		bs_bg_initcall(m, &ic);
}

static void bs_bg_live(struct seq_file *m, unsigned int idx)
{
	struct bs_initcall ic;

	if (bs_live_initcall(idx, &ic))
		bs_bg_initcall(m, &ic);
}

static unsigned int bs_bg_nr_free(void)
{
	return bs_log_milestone(BS_FREE_INITMEM) ? 1 : 0;
}

static void bs_bg_free(struct seq_file *m, unsigned int idx)
{
	bs_bg_time(m, bs_log_milestone(BS_FREE_INITMEM));
	seq_puts(m, "Freeing unused kernel memory (bootstamp: free_initmem)\n");
}

static const struct bs_section bs_bootgraph_sections[] = {
	{ bs_log_nr_initcalls,	bs_bg_log },
	{ bs_bg_nr_free,	bs_bg_free },
	{ bs_live_nr_initcalls,	bs_bg_live },
};

const struct bs_table bs_bootgraph_table = {
	.sec	= bs_bootgraph_sections,
	.nr	= ARRAY_SIZE(bs_bootgraph_sections),
};
