// SPDX-License-Identifier: GPL-2.0
/*
 * bootstamp: trace.json, Chrome trace-event format (Perfetto,
 * chrome://tracing). Two processes: pid 1 with one thread per CPU, pid 2
 * with one thread per task (tid = the task's pid):
 *   "M" metadata   process_name, thread_name "CPU n"
 *   "i" instant    milestones, module_load and marks (global scope)
 *   "X" complete   bring-up phases (cat "cpu") on the CPU's thread of pid 1;
 *                  initcalls (cat "initcall") and driver probe calls that
 *                  returned (cat "probe", name "probe DEVICE (DRIVER)") on
 *                  their task's thread of pid 2
 * ts and dur are microseconds with nanosecond fraction, counted from the
 * time base named in otherData. All strings written here are identifiers,
 * names validated by mark.c or names probes.c copied with '"' and '\\'
 * replaced, so none needs escaping.
 */
#include "internal.h"

#define BS_JSON_PID	1
/*
 * Initcalls and probes sleep and migrate, and module inits run side by
 * side: on a CPU's track they would overlap without nesting, which trace
 * viewers drop. One track per task, in a process of their own; a probe
 * called from an initcall nests in it on the same track.
 */
#define BS_JSON_TASK_PID	2

static void bs_json_us(struct seq_file *m, u64 ns)
{
	u32 rem;
	u64 us = div_u64_rem(ns, NSEC_PER_USEC, &rem);

	seq_printf(m, "%llu.%03u", us, rem);
}

static void bs_json_head(struct seq_file *m, unsigned int idx)
{
	seq_printf(m, "{\"traceEvents\":[\n{\"ph\":\"M\",\"pid\":%d,\"name\":\"process_name\",\"args\":{\"name\":\"kernel boot (bootstamp)\"}}",
		   BS_JSON_PID);
	seq_printf(m, ",\n{\"ph\":\"M\",\"pid\":%d,\"name\":\"process_name\",\"args\":{\"name\":\"initcalls and driver probes, by task (bootstamp)\"}}",
		   BS_JSON_TASK_PID);
}

static unsigned int bs_json_nr_threads(void)
{
	return nr_cpu_ids;
}

static void bs_json_thread(struct seq_file *m, unsigned int cpu)
{
	seq_printf(m, ",\n{\"ph\":\"M\",\"pid\":%d,\"tid\":%u,\"name\":\"thread_name\",\"args\":{\"name\":\"CPU %u\"}}",
		   BS_JSON_PID, cpu, cpu);
	seq_printf(m, ",\n{\"ph\":\"M\",\"pid\":%d,\"tid\":%u,\"name\":\"thread_sort_index\",\"args\":{\"sort_index\":%u}}",
		   BS_JSON_PID, cpu, cpu);
}

static void bs_json_instant(struct seq_file *m, const char *prefix,
			    const char *name, u64 cyc)
{
	if (!cyc)
		return;
	seq_printf(m, ",\n{\"ph\":\"i\",\"s\":\"g\",\"pid\":%d,\"tid\":0,\"name\":\"%s%s\",\"cat\":\"milestone\",\"ts\":",
		   BS_JSON_PID, prefix, name);
	bs_json_us(m, bs_rel_ns(cyc));
	seq_putc(m, '}');
}

static unsigned int bs_json_nr_milestones(void)
{
	return bs_log_present() ? BS_NR_MILESTONES : 0;
}

static void bs_json_milestone(struct seq_file *m, unsigned int idx)
{
	bs_json_instant(m, "", bs_milestone_names[idx], bs_log_milestone(idx));
}

static void bs_json_load(struct seq_file *m, unsigned int idx)
{
	bs_json_instant(m, "", "module_load", bs_load_stamp);
}

static void bs_json_mark(struct seq_file *m, unsigned int idx)
{
	const char *name;
	u64 cyc;

	if (bs_mark(idx, &cyc, &name))
		bs_json_instant(m, "mark:", name, cyc);
}

static void bs_json_initcall(struct seq_file *m, const struct bs_initcall *ic)
{
	seq_printf(m, ",\n{\"ph\":\"X\",\"pid\":%d,\"tid\":%d,\"name\":\"",
		   BS_JSON_TASK_PID, ic->pid);
	bs_seq_sym(m, ic);
	seq_puts(m, "\",\"cat\":\"initcall\",\"ts\":");
	bs_json_us(m, bs_rel_ns(ic->start));
	seq_puts(m, ",\"dur\":");
	bs_json_us(m, ic->end > ic->start ? bs_cyc_to_ns(ic->end - ic->start) : 0);
	seq_printf(m, ",\"args\":{\"level\":\"%s\",\"module\":\"%s\",\"ret\":%d,\"pid\":%d,\"cpu\":%u}}",
		   bs_level_name(ic->level), ic->mod, ic->ret, ic->pid, ic->cpu);
}

static void bs_json_log_initcall(struct seq_file *m, unsigned int idx)
{
	struct bs_initcall ic;

	if (bs_log_initcall(idx, &ic))
		bs_json_initcall(m, &ic);
}

static void bs_json_live_initcall(struct seq_file *m, unsigned int idx)
{
	struct bs_initcall ic;

	if (bs_live_initcall(idx, &ic))
		bs_json_initcall(m, &ic);
}

/* One "X" event from each recorded point to the next recorded one. */
static void bs_json_cpu(struct seq_file *m, const struct bs_cpu *c,
			const char *cat)
{
	unsigned int p, prev = BS_CPU_NR_POINTS;

	for (p = 0; p < BS_CPU_NR_POINTS; p++) {
		if (!c->t[p])
			continue;
		if (prev < BS_CPU_NR_POINTS && c->t[p] >= c->t[prev]) {
			seq_printf(m, ",\n{\"ph\":\"X\",\"pid\":%d,\"tid\":%u,\"name\":\"cpu%u %s..%s\",\"cat\":\"%s\",\"ts\":",
				   BS_JSON_PID, c->cpu, c->cpu,
				   bs_cpu_point_names[prev],
				   bs_cpu_point_names[p], cat);
			bs_json_us(m, bs_rel_ns(c->t[prev]));
			seq_puts(m, ",\"dur\":");
			bs_json_us(m, bs_cyc_to_ns(c->t[p] - c->t[prev]));
			seq_putc(m, '}');
		}
		prev = p;
	}
}

static void bs_json_log_cpu(struct seq_file *m, unsigned int idx)
{
	struct bs_cpu c;

	if (bs_log_cpu(idx, &c))
		bs_json_cpu(m, &c, "cpu");
}

static void bs_json_live_cpu(struct seq_file *m, unsigned int idx)
{
	struct bs_cpu c;

	if (bs_live_cpu(idx, &c))
		bs_json_cpu(m, &c, "cpu,live");
}

static void bs_json_probe(struct seq_file *m, unsigned int idx)
{
	struct bs_probe p;

	if (!bs_live_probe(idx, &p) || !p.end || p.end < p.start)
		return;
	seq_printf(m, ",\n{\"ph\":\"X\",\"pid\":%d,\"tid\":%d,\"name\":\"probe %s (%s)\",\"cat\":\"probe\",\"ts\":",
		   BS_JSON_TASK_PID, p.pid, p.dev, p.drv);
	bs_json_us(m, bs_rel_ns(p.start));
	seq_puts(m, ",\"dur\":");
	bs_json_us(m, bs_cyc_to_ns(p.end - p.start));
	seq_printf(m, ",\"args\":{\"device\":\"%s\",\"driver\":\"%s\",\"bus\":\"%s\",\"ret\":%d,\"async\":\"%s\",\"pid\":%d}}",
		   p.dev, p.drv, p.bus, p.ret, p.async ? "yes" : "no", p.pid);
}

static void bs_json_tail(struct seq_file *m, unsigned int idx)
{
	seq_printf(m, "\n],\n\"displayTimeUnit\":\"ns\",\n\"otherData\":{\"mode\":\"%s\",\"counter\":\"%s\",\"freq_hz\":\"%u\",\"time_base\":\"%s\"}}\n",
		   bs_log_present() ? "full" : "live-only", bs_clock.reg,
		   bs_clock.freq_hz,
		   bs_time_base_name());
}

static const struct bs_section bs_json_sections[] = {
	{ NULL,				bs_json_head },
	{ bs_json_nr_threads,		bs_json_thread },
	{ bs_json_nr_milestones,	bs_json_milestone },
	{ NULL,				bs_json_load },
	{ bs_nr_marks,			bs_json_mark },
	{ bs_log_nr_initcalls,		bs_json_log_initcall },
	{ bs_live_nr_initcalls,		bs_json_live_initcall },
	{ bs_log_nr_cpus,		bs_json_log_cpu },
	{ bs_live_nr_cpus,		bs_json_live_cpu },
	{ bs_live_nr_probes,		bs_json_probe },
	{ NULL,				bs_json_tail },
};

const struct bs_table bs_json_table = {
	.sec	= bs_json_sections,
	.nr	= ARRAY_SIZE(bs_json_sections),
};
