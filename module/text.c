// SPDX-License-Identifier: GPL-2.0
/*
 * bootstamp: the text files summary, initcalls and cpus.
 * Formats are described at the top of core.c.
 */
#include "internal.h"

#include <linux/irqflags.h>
#include <linux/minmax.h>
#include <linux/sched/clock.h>
#include <linux/timekeeping.h>

static void bs_seq_key(struct seq_file *m, const char *key, const char *val)
{
	seq_printf(m, "# %s: %s\n", key, val);
}

static void bs_seq_key_u(struct seq_file *m, const char *key, u64 val)
{
	seq_printf(m, "# %s: %llu\n", key, val);
}

/* A cost in ns, "-" when it was not measured (0). */
static void bs_seq_key_cost(struct seq_file *m, const char *key, u64 ns)
{
	if (ns)
		bs_seq_key_u(m, key, ns);
	else
		bs_seq_key(m, key, "-");
}

/*
 * The counter, CLOCK_MONOTONIC and local_clock() (printk's timestamps) read
 * together, with interrupts off, when the summary is read: userspace puts
 * a time t of clock X on the counter timeline as
 * sync_counter - (sync_X_ns - t) * freq_hz / 1e9 (core.c).
 */
static void bs_summary_sync(struct seq_file *m)
{
	unsigned long flags;
	u64 cyc, mono, local;

	local_irq_save(flags);
	cyc = bs_read_counter();
	mono = ktime_get_ns();
	local = local_clock();
	local_irq_restore(flags);

	bs_seq_key_u(m, "sync_counter", cyc);
	bs_seq_key_u(m, "sync_monotonic_ns", mono);
	bs_seq_key_u(m, "sync_local_clock_ns", local);
}

static void bs_summary_keys(struct seq_file *m)
{
	bool full = bs_log_present();
	const char *log = "absent";

	if (full)
		log = bs_log_complete() ? "complete" : "recording";

	bs_seq_key(m, "mode", full ? "full" : "live-only");
	bs_seq_key(m, "counter", bs_clock.reg);
	bs_seq_key(m, "entry_counter", !full ? "-" :
		   bs_entry_counter_name(bs_log_entry_physical()));
	/* Stamps before time_init() read the counter without its workaround. */
	bs_seq_key(m, "counter_raw_early", !full ? "-" :
		   bs_clock.raw_early ? "yes" : "no");
	bs_seq_key(m, "before_entry", full ? bs_before_entry() : "-");
	bs_seq_key_u(m, "freq_hz", bs_clock.freq_hz);
	bs_seq_key(m, "freq_source", bs_clock.freq_source);
	seq_printf(m, "# ns_per_tick: %u/%u\n", bs_clock.mult, bs_clock.div);
	bs_seq_key(m, "time_base", bs_time_base_name());
	bs_seq_key(m, "log", log);
	bs_seq_key_u(m, "log_initcalls", bs_log_nr_initcalls());
	bs_seq_key_u(m, "log_capacity", bs_log_max_initcalls());
	bs_seq_key_u(m, "log_dropped", bs_log_dropped());
	bs_seq_key(m, "live", bs_live_state());
	bs_seq_key_u(m, "live_initcalls", bs_live_nr_initcalls());
	bs_seq_key_u(m, "live_initcalls_dropped", bs_live_initcalls_dropped());
	bs_seq_key_u(m, "live_cpu_sessions", bs_live_nr_cpus());
	bs_seq_key_u(m, "live_cpu_dropped", bs_live_cpus_dropped());
	bs_seq_key(m, "probes", bs_probes_state());
	bs_seq_key_u(m, "live_probes", bs_live_nr_probes());
	bs_seq_key_u(m, "live_probes_dropped", bs_live_probes_dropped());
	/* Both measured at the first read. */
	bs_seq_key_cost(m, "probe_cost_ns", bs_probe_cost_ns());
	bs_seq_key(m, "sched", bs_sched_state());
	bs_seq_key_cost(m, "sched_cost_ns", bs_sched_cost_ns());
	bs_seq_key_u(m, "marks", bs_nr_marks());
	bs_seq_key_u(m, "marks_max", BS_MAX_MARKS);
	bs_seq_key_u(m, "marks_dropped", bs_marks_dropped());
	bs_seq_key_u(m, "bytes_used",
		     bs_log_bytes() + bs_live_bytes() + bs_probes_bytes() +
		     bs_marks_bytes() + bs_sched_bytes());
	bs_summary_sync(m);
	seq_printf(m, "# load_id: %016llx\n", bs_load_id);
}

static void bs_summary_row(struct seq_file *m, const char *prefix,
			   const char *name, u64 cyc, u64 *prev)
{
	seq_printf(m, "%s%s ", prefix, name);
	if (!cyc) {
		seq_puts(m, "- - - -\n");
		return;
	}
	seq_printf(m, "%llu %llu ", cyc, bs_cyc_to_ns(cyc));
	if (bs_time_base())
		bs_seq_ns(m, cyc);
	else
		seq_putc(m, '-');
	if (*prev) {
		s64 d = cyc >= *prev ? (s64)bs_cyc_to_ns(cyc - *prev) :
				      -(s64)bs_cyc_to_ns(*prev - cyc);

		seq_printf(m, " %lld\n", d);
	} else {
		seq_puts(m, " -\n");
	}
	*prev = cyc;
}

/*
 * Milestones in time order (smp_init runs between the early and pure
 * levels), unrecorded ones last. Insertion sort of 16 entries.
 */
static void bs_sort_milestones(u8 *order)
{
	unsigned int i, j;
	u64 a, b;

	for (i = 0; i < BS_NR_MILESTONES; i++) {
		order[i] = i;
		for (j = i; j > 0; j--) {
			a = bs_log_milestone(order[j - 1]);
			b = bs_log_milestone(order[j]);
			if (!b || (a && a <= b))
				break;
			swap(order[j - 1], order[j]);
		}
	}
}

static void bs_summary_show(struct seq_file *m, unsigned int idx)
{
	unsigned int i, n;
	const char *name;
	u64 prev = 0, cyc;

	bs_summary_keys(m);
	seq_puts(m, "# milestone counter since_cnt0_ns since_entry_ns delta_ns\n");
	if (bs_log_present()) {
		u8 order[BS_NR_MILESTONES];

		bs_sort_milestones(order);
		for (i = 0; i < BS_NR_MILESTONES; i++)
			bs_summary_row(m, "", bs_milestone_names[order[i]],
				       bs_log_milestone(order[i]), &prev);
	}
	bs_summary_row(m, "", "module_load", bs_load_stamp, &prev);
	n = bs_nr_marks();
	for (i = 0; i < n; i++)
		if (bs_mark(i, &cyc, &name))
			bs_summary_row(m, "mark:", name, cyc, &prev);
}

/* Small and computed in one go: delta_ns needs the previous row. */
static const struct bs_section bs_summary_sections[] = {
	{ NULL,	bs_summary_show },
};

const struct bs_table bs_summary_table = {
	.sec	= bs_summary_sections,
	.nr	= ARRAY_SIZE(bs_summary_sections),
};

/* ---- initcalls ------------------------------------------------------- */

static void bs_initcalls_header(struct seq_file *m, unsigned int idx)
{
	bs_seq_key(m, "time_base", bs_time_base_name());
	seq_puts(m, "# level symbol module start_ns duration_ns ret cpu pid\n");
}

static void bs_initcall_row(struct seq_file *m, const struct bs_initcall *ic)
{
	seq_printf(m, "%s ", bs_level_name(ic->level));
	bs_seq_sym(m, ic);
	seq_printf(m, " %s ", ic->mod);
	bs_seq_ns(m, ic->start);
	/* No end yet: still running (the kernel log is still recording). */
	if (ic->end >= ic->start && ic->end)
		seq_printf(m, " %llu", bs_cyc_to_ns(ic->end - ic->start));
	else
		seq_puts(m, " -");
	seq_printf(m, " %d %u %d\n", ic->ret, ic->cpu, ic->pid);
}

static void bs_initcalls_log(struct seq_file *m, unsigned int idx)
{
	struct bs_initcall ic;

	if (bs_log_initcall(idx, &ic))
		bs_initcall_row(m, &ic);
}

static void bs_initcalls_live(struct seq_file *m, unsigned int idx)
{
	struct bs_initcall ic;

	if (bs_live_initcall(idx, &ic))
		bs_initcall_row(m, &ic);
}

static const struct bs_section bs_initcalls_sections[] = {
	{ NULL,				bs_initcalls_header },
	{ bs_log_nr_initcalls,		bs_initcalls_log },
	{ bs_live_nr_initcalls,		bs_initcalls_live },
};

const struct bs_table bs_initcalls_table = {
	.sec	= bs_initcalls_sections,
	.nr	= ARRAY_SIZE(bs_initcalls_sections),
};

/* ---- cpus ------------------------------------------------------------ */

static void bs_cpus_header(struct seq_file *m, unsigned int idx)
{
	unsigned int p;

	bs_seq_key(m, "time_base", bs_time_base_name());
	seq_puts(m, "# cpu source");
	for (p = 0; p < BS_CPU_NR_POINTS; p++)
		seq_printf(m, " %s_ns", bs_cpu_point_names[p]);
	seq_puts(m, " ret entry_counter\n");
}

static void bs_cpu_row(struct seq_file *m, const struct bs_cpu *c,
		       const char *source)
{
	unsigned int p;

	seq_printf(m, "%u %s", c->cpu, source);
	for (p = 0; p < BS_CPU_NR_POINTS; p++) {
		seq_putc(m, ' ');
		bs_seq_ns(m, c->t[p]);
	}
	seq_printf(m, " %d %s\n", c->ret, !c->t[BS_CPU_ENTRY] ? "-" :
		   bs_entry_counter_name(c->entry_physical));
}

static void bs_cpus_log(struct seq_file *m, unsigned int idx)
{
	struct bs_cpu c;

	if (bs_log_cpu(idx, &c))
		bs_cpu_row(m, &c, "boot");
}

static void bs_cpus_live(struct seq_file *m, unsigned int idx)
{
	struct bs_cpu c;

	if (bs_live_cpu(idx, &c))
		bs_cpu_row(m, &c, "live");
}

static const struct bs_section bs_cpus_sections[] = {
	{ NULL,			bs_cpus_header },
	{ bs_log_nr_cpus,	bs_cpus_log },
	{ bs_live_nr_cpus,	bs_cpus_live },
};

const struct bs_table bs_cpus_table = {
	.sec	= bs_cpus_sections,
	.nr	= ARRAY_SIZE(bs_cpus_sections),
};
