// SPDX-License-Identifier: GPL-2.0
/*
 * bootstamp: access to the boot log kept by CONFIG_BOOTSTAMP kernels.
 *
 * This is the only file that sees <linux/bootstamp.h>. Without the header,
 * or with CONFIG_BOOTSTAMP=n, everything here reports "no log" and the
 * module runs in live-only mode. With it, the accessor is looked up at run
 * time with symbol_get() so that the same binary loads on a kernel that does
 * not export it.
 */
#include "internal.h"

#include <linux/cpumask.h>

/*
 * The quoted form searches the same path as <linux/...> and keeps checkpatch
 * happy. Sparse 0.6 lacks __has_include: it then checks the no-log branch.
 */
#ifdef __has_include
#if __has_include("linux/bootstamp.h")
#include <linux/bootstamp.h>
#endif
#endif

#if defined(_LINUX_BOOTSTAMP_H) && IS_ENABLED(CONFIG_BOOTSTAMP)

static const struct bootstamp_log *bs_log;

/* Our numbering must match the kernel's, value for value. */
#define BS_SAME(ours, theirs) static_assert((int)(ours) == (int)(theirs))

BS_SAME(BS_KERNEL_ENTRY, BOOTSTAMP_KERNEL_ENTRY);
BS_SAME(BS_START_KERNEL, BOOTSTAMP_START_KERNEL);
BS_SAME(BS_TIME_INIT, BOOTSTAMP_TIME_INIT);
BS_SAME(BS_LEVEL_EARLY, BOOTSTAMP_LEVEL_EARLY);
BS_SAME(BS_LEVEL_PURE, BOOTSTAMP_LEVEL_PURE);
BS_SAME(BS_LEVEL_CORE, BOOTSTAMP_LEVEL_CORE);
BS_SAME(BS_LEVEL_POSTCORE, BOOTSTAMP_LEVEL_POSTCORE);
BS_SAME(BS_LEVEL_ARCH, BOOTSTAMP_LEVEL_ARCH);
BS_SAME(BS_LEVEL_SUBSYS, BOOTSTAMP_LEVEL_SUBSYS);
BS_SAME(BS_LEVEL_FS, BOOTSTAMP_LEVEL_FS);
BS_SAME(BS_LEVEL_DEVICE, BOOTSTAMP_LEVEL_DEVICE);
BS_SAME(BS_LEVEL_LATE, BOOTSTAMP_LEVEL_LATE);
BS_SAME(BS_SMP_INIT, BOOTSTAMP_SMP_INIT);
BS_SAME(BS_SCHED_INIT_SMP, BOOTSTAMP_SCHED_INIT_SMP);
BS_SAME(BS_FREE_INITMEM, BOOTSTAMP_FREE_INITMEM);
BS_SAME(BS_INIT_EXEC, BOOTSTAMP_INIT_EXEC);
BS_SAME(BS_NR_MILESTONES, BOOTSTAMP_NR_MILESTONES);
BS_SAME(BS_CPU_REQUESTED, BOOTSTAMP_CPU_REQUESTED);
BS_SAME(BS_CPU_ENTRY, BOOTSTAMP_CPU_ENTRY);
BS_SAME(BS_CPU_START_KERNEL, BOOTSTAMP_CPU_START_KERNEL);
BS_SAME(BS_CPU_ONLINE, BOOTSTAMP_CPU_ONLINE);
BS_SAME(BS_CPU_ACTIVE, BOOTSTAMP_CPU_ACTIVE);
BS_SAME(BS_CPU_FINISHED, BOOTSTAMP_CPU_FINISHED);
BS_SAME(BS_CPU_NR_POINTS, BOOTSTAMP_CPU_NR_POINTS);
BS_SAME(0, BOOTSTAMP_INITCALL_EARLY);

/* bootstamp_get_log() is exported in this namespace. */
MODULE_IMPORT_NS("BOOTSTAMP");

/**
 * bs_log_init() - look up the kernel's boot log
 *
 * Return: 0. A kernel without the log is not an error: the module then
 * records live events only.
 */
int bs_log_init(void)
{
	const struct bootstamp_log *(*get)(void);

	get = symbol_get(bootstamp_get_log);
	if (!get) {
		/* Built for a CONFIG_BOOTSTAMP kernel, yet no log: say why. */
		pr_warn("bootstamp_get_log() not found (CONFIG_TRIM_UNUSED_KSYMS?): live-only mode\n");
		return 0;
	}
	bs_log = get();
	if (!bs_log)
		symbol_put(bootstamp_get_log);
	return 0;
}

/**
 * bs_log_exit() - drop the reference taken by bs_log_init()
 */
void bs_log_exit(void)
{
	if (bs_log) {
		bs_log = NULL;
		symbol_put(bootstamp_get_log);
	}
}

/**
 * bs_log_present() - whether the running kernel provided a boot log
 *
 * Return: true in full mode.
 */
bool bs_log_present(void)
{
	return bs_log;
}

/**
 * bs_log_complete() - whether boot recording has stopped
 *
 * Return: true once the kernel stamped BOOTSTAMP_INIT_EXEC.
 */
bool bs_log_complete(void)
{
	/* Pairs with the kernel's release: the boot part is then final. */
	return bs_log && smp_load_acquire(&bs_log->complete);
}

/**
 * bs_log_entry_physical() - which counter the kernel entry stamp read
 *
 * Return: true for CNTPCT_EL0 (entered at EL2), false for CNTVCT_EL0.
 */
bool bs_log_entry_physical(void)
{
	return bs_log && bs_log->entry_physical;
}

/**
 * bs_log_counter() - the counter the kernel's stamps read, as it says
 * @freq_hz: set to the rate the kernel's clocksource uses, 0 if unknown
 * @raw_early: set if stamps before time_init() skipped an erratum workaround
 *
 * Return: the counter's name, NULL without a log or before time_init().
 */
const char *bs_log_counter(u32 *freq_hz, bool *raw_early)
{
	*freq_hz = 0;
	*raw_early = false;
	if (!bs_log || !READ_ONCE(bs_log->counter))
		return NULL;
	*freq_hz = bs_log->freq_hz;
	*raw_early = bs_log->counter_flags & BOOTSTAMP_COUNTER_RAW_EARLY;
	return bs_log->counter;
}

/**
 * bs_log_cpu_latest() - entry stamps of a CPU's latest bring-up
 * @cpu: CPU number
 * @c: its entry, start_kernel and online points and entry_physical are
 *	filled in
 *
 * The kernel rewrites these at each bring-up of @cpu, on @cpu, before it
 * goes online: call it once the bring-up finished.
 *
 * Return: false without a log.
 */
bool bs_log_cpu_latest(unsigned int cpu, struct bs_cpu *c)
{
	const struct bootstamp_cpu *l;

	if (!bs_log || !bs_log->cpus_latest || cpu >= nr_cpu_ids)
		return false;
	l = &bs_log->cpus_latest[cpu];
	c->t[BS_CPU_ENTRY] = READ_ONCE(l->t[BOOTSTAMP_CPU_ENTRY]);
	c->t[BS_CPU_START_KERNEL] = READ_ONCE(l->t[BOOTSTAMP_CPU_START_KERNEL]);
	c->t[BS_CPU_ONLINE] = READ_ONCE(l->t[BOOTSTAMP_CPU_ONLINE]);
	c->entry_physical = READ_ONCE(l->flags) & BOOTSTAMP_CPU_ENTRY_PHYSICAL;
	return true;
}

/**
 * bs_log_milestone() - counter value of one boot milestone
 * @ms: enum bs_milestone
 *
 * Return: the counter value, or 0 if not recorded.
 */
u64 bs_log_milestone(unsigned int ms)
{
	if (!bs_log || ms >= BS_NR_MILESTONES)
		return 0;
	return READ_ONCE(bs_log->milestone[ms]);
}

/**
 * bs_log_nr_initcalls() - number of built-in initcall records
 *
 * Return: records filled, never more than the capacity.
 */
unsigned int bs_log_nr_initcalls(void)
{
	if (!bs_log)
		return 0;
	return min(READ_ONCE(bs_log->nr_initcalls), bs_log->max_initcalls);
}

/**
 * bs_log_max_initcalls() - capacity of the built-in initcall log
 *
 * Return: number of record slots, 0 without a log.
 */
unsigned int bs_log_max_initcalls(void)
{
	return bs_log ? bs_log->max_initcalls : 0;
}

/**
 * bs_log_dropped() - built-in initcalls the kernel could not record
 *
 * Return: overflow count.
 */
unsigned int bs_log_dropped(void)
{
	return bs_log ? READ_ONCE(bs_log->dropped) : 0;
}

/**
 * bs_log_nr_cpus() - number of per-CPU bring-up records
 *
 * Return: nr_cpu_ids with a log, else 0.
 */
unsigned int bs_log_nr_cpus(void)
{
	return bs_log && bs_log->cpus ? nr_cpu_ids : 0;
}

/**
 * bs_log_initcall() - copy one built-in initcall record
 * @i: index, below bs_log_nr_initcalls()
 * @ic: filled in
 *
 * Return: false if @i is out of range.
 */
bool bs_log_initcall(unsigned int i, struct bs_initcall *ic)
{
	const struct bootstamp_initcall *r;
	bool console;

	if (i >= bs_log_nr_initcalls())
		return false;
	r = &bs_log->initcalls[i];
	/* console_init() runs these from start_kernel(), in the idle task. */
	console = r->level == BOOTSTAMP_INITCALL_CONSOLE;
	*ic = (struct bs_initcall) {
		.start	= READ_ONCE(r->start),
		.end	= READ_ONCE(r->end),
		.fn	= READ_ONCE(r->fn),
		.mod	= "vmlinux",
		.ret	= READ_ONCE(r->ret),
		.pid	= console ? 0 : 1,
		.cpu	= r->cpu,
		.level	= console ? BS_LEVEL_CONSOLE : r->level,
	};
	return true;
}

/**
 * bs_log_cpu() - copy one CPU's boot-time bring-up record
 * @i: CPU number, below bs_log_nr_cpus()
 * @c: filled in
 *
 * Return: false if @i is out of range or was not brought up during boot.
 */
bool bs_log_cpu(unsigned int i, struct bs_cpu *c)
{
	unsigned int p;

	bool seen = false;

	if (i >= bs_log_nr_cpus())
		return false;
	for (p = 0; p < BS_CPU_NR_POINTS; p++) {
		c->t[p] = READ_ONCE(bs_log->cpus[i].t[p]);
		seen |= c->t[p];
	}
	c->cpu = i;
	c->ret = 0;
	c->entry_physical = READ_ONCE(bs_log->cpus[i].flags) &
			    BOOTSTAMP_CPU_ENTRY_PHYSICAL;
	/* A CPU not brought up during boot has no boot row. */
	return seen;
}

/**
 * bs_log_bytes() - memory the kernel's log occupies
 *
 * Return: bytes of the milestone table, initcall capacity and CPU table.
 */
size_t bs_log_bytes(void)
{
	if (!bs_log)
		return 0;
	return sizeof(*bs_log) +
	       (size_t)bs_log->max_initcalls * sizeof(*bs_log->initcalls) +
	       (size_t)bs_log_nr_cpus() * 2 * sizeof(*bs_log->cpus);
}

#ifdef BOOTSTAMP_SCHED_FRAMES
/**
 * bs_log_nr_sched() - PID 1's scheduler events in the boot log
 *
 * Return: their number once boot recording stopped, else 0.
 */
unsigned int bs_log_nr_sched(void)
{
	return bs_log_complete() && bs_log->sched ?
	       READ_ONCE(bs_log->nr_sched) : 0;
}

/**
 * bs_log_sched_start() - counter value from which PID 1's events are kept
 *
 * Return: the counter value, 0 if not recorded.
 */
u64 bs_log_sched_start(void)
{
	return bs_log_complete() && bs_log->sched ? bs_log->sched_start : 0;
}

/**
 * bs_log_sched_info() - what the kernel kept of PID 1's events, and lost
 * @k: filled in
 *
 * Return: false when the log has none.
 */
bool bs_log_sched_info(struct bs_log_sched_info *k)
{
	if (!bs_log_complete() || !bs_log->sched)
		return false;
	k->nr = READ_ONCE(bs_log->nr_sched);
	k->dropped = READ_ONCE(bs_log->sched_dropped);
	k->stacks_dropped = READ_ONCE(bs_log->sched_stacks_dropped);
	k->full_at = READ_ONCE(bs_log->sched_full_at);
	k->until = bs_log->milestone[BOOTSTAMP_INIT_EXEC];
	return true;
}

/**
 * bs_log_sched() - one of PID 1's scheduler events
 * @i: index below bs_log_nr_sched()
 * @e: filled in
 *
 * Return: false for an entry the kernel did not fill.
 */
bool bs_log_sched(unsigned int i, struct bs_log_sched *e)
{
	const struct bootstamp_sched *s;

	if (i >= bs_log_nr_sched())
		return false;
	s = &bs_log->sched[i];
	/* Pairs with the kernel's release: the rest of the entry is set. */
	e->t = smp_load_acquire(&s->t);
	if (!e->t)
		return false;
	e->other = s->other;
	e->cpu = s->cpu;
	e->out = s->kind == BOOTSTAMP_SCHED_OUT;
	e->waking = s->kind == BOOTSTAMP_SCHED_WAKING;
	e->state = s->state;
	e->preempt = s->flags & BOOTSTAMP_SCHED_PREEMPTED;
	e->nr_frames = s->nr_frames;
	e->frames = e->nr_frames ? &bs_log->sched_frames[s->frame] : NULL;
	return true;
}
#endif /* BOOTSTAMP_SCHED_FRAMES */

#else /* no boot log in this kernel */

int bs_log_init(void)
{
	return 0;
}

void bs_log_exit(void) { }
bool bs_log_present(void)
{
	return false;
}

bool bs_log_complete(void)
{
	return false;
}

bool bs_log_entry_physical(void)
{
	return false;
}

const char *bs_log_counter(u32 *freq_hz, bool *raw_early)
{
	*freq_hz = 0;
	*raw_early = false;
	return NULL;
}

bool bs_log_cpu_latest(unsigned int cpu, struct bs_cpu *c)
{
	return false;
}

u64 bs_log_milestone(unsigned int ms)
{
	return 0;
}

unsigned int bs_log_nr_initcalls(void)
{
	return 0;
}

unsigned int bs_log_max_initcalls(void)
{
	return 0;
}

unsigned int bs_log_dropped(void)
{
	return 0;
}

unsigned int bs_log_nr_cpus(void)
{
	return 0;
}

bool bs_log_initcall(unsigned int i, struct bs_initcall *ic)
{
	return false;
}

bool bs_log_cpu(unsigned int i, struct bs_cpu *c)
{
	return false;
}

size_t bs_log_bytes(void)
{
	return 0;
}
#endif

/* No log, or one without PID 1's scheduler events (before its patch 8). */
#if !(defined(_LINUX_BOOTSTAMP_H) && IS_ENABLED(CONFIG_BOOTSTAMP) && \
	defined(BOOTSTAMP_SCHED_FRAMES))
unsigned int bs_log_nr_sched(void)
{
	return 0;
}

u64 bs_log_sched_start(void)
{
	return 0;
}

bool bs_log_sched(unsigned int i, struct bs_log_sched *e)
{
	return false;
}

bool bs_log_sched_info(struct bs_log_sched_info *k)
{
	return false;
}
#endif
