/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bootstamp: shared declarations. The module keeps its own copy of the
 * milestone and CPU point numbering so that it builds against kernels
 * without <linux/bootstamp.h>; log.c checks at build time that both agree.
 */
#ifndef _BOOTSTAMP_INTERNAL_H
#define _BOOTSTAMP_INTERNAL_H

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/init.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/module.h>
#include <linux/seq_file.h>
#include <linux/types.h>

#include <asm/arch_timer.h>

/* Mirrors enum bootstamp_milestone. */
enum bs_milestone {
	BS_KERNEL_ENTRY,
	BS_START_KERNEL,
	BS_TIME_INIT,
	BS_LEVEL_EARLY,
	BS_LEVEL_PURE,
	BS_LEVEL_CORE,
	BS_LEVEL_POSTCORE,
	BS_LEVEL_ARCH,
	BS_LEVEL_SUBSYS,
	BS_LEVEL_FS,
	BS_LEVEL_DEVICE,
	BS_LEVEL_LATE,
	BS_SMP_INIT,
	BS_SCHED_INIT_SMP,
	BS_FREE_INITMEM,
	BS_INIT_EXEC,
	BS_NR_MILESTONES
};

/* Mirrors enum bootstamp_cpu_point. */
enum bs_cpu_point {
	BS_CPU_REQUESTED,
	BS_CPU_ENTRY,
	BS_CPU_START_KERNEL,
	BS_CPU_ONLINE,
	BS_CPU_ACTIVE,
	BS_CPU_FINISHED,
	BS_CPU_NR_POINTS
};

#define BS_LEVEL_MODULE		0xff	/* level of a module initcall */
#define BS_LEVEL_CONSOLE	0xfe	/* console_initcall, run by console_init() */

#define BS_MARK_LEN		32	/* longest userspace mark name */
#define BS_MAX_MARKS		64
#define BS_MAX_LIVE_INITCALLS	256
#define BS_MAX_LIVE_CPU		64	/* CPU bring-up sessions after load */
#define BS_SYM_LEN		64	/* symbol name kept for module initcalls */
#define BS_MAX_LIVE_PROBES	512	/* driver probe calls after load */

/* One initcall, from the boot log or recorded live. Counter values. */
struct bs_initcall {
	u64		start;
	u64		end;
	const char	*sym;		/* NULL: format fn with %ps */
	const char	*mod;		/* "vmlinux" for built-ins */
	initcall_t	fn;
	int		ret;
	pid_t		pid;
	unsigned int	cpu;
	u8		level;
};

/* One CPU's bring-up: counter values, 0 = not seen. */
struct bs_cpu {
	u64		t[BS_CPU_NR_POINTS];
	unsigned int	cpu;
	int		ret;		/* live only: failing step's return */
	bool		entry_physical;	/* entry read CNTPCT_EL0 (EL2) */
};

/* Counter to nanoseconds: ns = cyc * mult / div, with gcd-reduced factors. */
struct bs_clock {
	u32		freq_hz;
	u32		mult;
	u32		div;
	const char	*freq_source;	/* "freq_hz", "kernel" or "CNTFRQ_EL0" */
	const char	*reg;		/* "CNTVCT_EL0" or "CNTPCT_EL0" */
	bool		raw_early;	/* early stamps skipped an erratum workaround */
};

extern struct bs_clock bs_clock;
extern u64 bs_load_stamp;
extern u64 bs_load_id;

static inline u64 bs_read_counter(void)
{
	return arch_timer_read_counter();
}

/*
 * Live records sit in fixed arrays that probes fill while readers print
 * them: a writer claims the next free slot with bs_slot_claim() (atomics
 * only, so it may run in any context and on several CPUs at once), readers
 * take bs_slot_count() slots and skip the ones whose state says they are
 * not published yet.
 */
static inline int bs_slot_claim(atomic_t *next, unsigned int max,
				atomic_t *dropped)
{
	unsigned int i = atomic_fetch_inc(next);

	if (i < max)
		return i;
	atomic_dec(next);
	atomic_inc(dropped);
	return -1;
}

static inline unsigned int bs_slot_count(atomic_t *next, unsigned int max)
{
	return min_t(unsigned int, atomic_read(next), max);
}

static inline u64 bs_cyc_to_ns(u64 cyc)
{
	return mul_u64_u32_div(cyc, bs_clock.mult, bs_clock.div);
}

/* Counter value that "ns since entry" columns count from (0: no log). */
u64 bs_time_base(void);
const char *bs_time_base_name(void);

static inline u64 bs_rel_ns(u64 cyc)
{
	u64 base = bs_time_base();

	return cyc > base ? bs_cyc_to_ns(cyc - base) : 0;
}

/* log.c: the kernel's boot log, if the running kernel provides one. */
int bs_log_init(void);
void bs_log_exit(void);
bool bs_log_present(void);
bool bs_log_complete(void);
bool bs_log_entry_physical(void);
const char *bs_log_counter(u32 *freq_hz, bool *raw_early);
bool bs_log_cpu_latest(unsigned int cpu, struct bs_cpu *c);
u64 bs_log_milestone(unsigned int ms);
unsigned int bs_log_nr_initcalls(void);
unsigned int bs_log_max_initcalls(void);
unsigned int bs_log_dropped(void);
unsigned int bs_log_nr_cpus(void);
bool bs_log_initcall(unsigned int i, struct bs_initcall *ic);
bool bs_log_cpu(unsigned int i, struct bs_cpu *c);
size_t bs_log_bytes(void);

/* One of PID 1's scheduler events from the boot log (counter value). */
struct bs_log_sched {
	u64			t;
	const unsigned long	*frames;	/* nr_frames, innermost first */
	pid_t			other;		/* task switched to/from, or waker */
	unsigned int		cpu;
	u8			nr_frames;
	char			state;		/* of the task switched out */
	bool			out;		/* PID 1 switched out, else in */
	bool			waking;		/* PID 1 woken */
	bool			preempt;
};

/* What the kernel kept of PID 1's events and from when it lost some. */
struct bs_log_sched_info {
	u64		full_at;	/* first not kept, 0: none */
	u64		until;		/* end of recording (init_exec) */
	unsigned int	nr;
	unsigned int	dropped;
	unsigned int	stacks_dropped;
};

unsigned int bs_log_nr_sched(void);
bool bs_log_sched_info(struct bs_log_sched_info *k);
u64 bs_log_sched_start(void);
bool bs_log_sched(unsigned int i, struct bs_log_sched *e);

/* live.c: module initcalls and CPU bring-up recorded after load. */
int bs_live_init(void);
void bs_live_exit(void);
const char *bs_live_state(void);
unsigned int bs_live_nr_initcalls(void);
unsigned int bs_live_initcalls_dropped(void);
bool bs_live_initcall(unsigned int i, struct bs_initcall *ic);
unsigned int bs_live_nr_cpus(void);
unsigned int bs_live_cpus_dropped(void);
bool bs_live_cpu(unsigned int i, struct bs_cpu *c);
size_t bs_live_bytes(void);

/* probes.c: driver probe calls after load (kretprobe on really_probe). */
struct bs_probe {
	u64		start;
	u64		end;		/* 0: still running */
	const char	*dev;
	const char	*drv;
	const char	*bus;
	int		ret;
	pid_t		pid;
	unsigned int	cpu;
	bool		async;
};

void bs_probes_init(void);
void bs_probes_exit(void);
const char *bs_probes_state(void);
u64 bs_probe_cost_ns(void);
unsigned int bs_live_nr_probes(void);
unsigned int bs_live_probes_dropped(void);
bool bs_live_probe(unsigned int i, struct bs_probe *p);
size_t bs_probes_bytes(void);

/* sched.c: where the time of rows opened after load went. */
void bs_sched_init(void);
void bs_sched_exit(void);
void bs_sched_enter(void);
void bs_sched_leave(void);
const char *bs_sched_state(void);
u64 bs_sched_cost_ns(void);
size_t bs_sched_bytes(void);
extern const struct file_operations bs_sched_fops;

/* mark.c: userspace milestones. */
unsigned int bs_nr_marks(void);
unsigned int bs_marks_dropped(void);
bool bs_mark(unsigned int i, u64 *stamp, const char **name);
size_t bs_marks_bytes(void);
extern const struct file_operations bs_mark_fops;

/* A debugfs file made of sections of rows, counted once at open. */
#define BS_MAX_SECTIONS	12

struct bs_section {
	unsigned int	(*count)(void);
	void		(*show)(struct seq_file *m, unsigned int idx);
};

struct bs_table {
	const struct bs_section	*sec;
	unsigned int		nr;
};

extern const struct file_operations bs_table_fops;

/* text.c, json.c, bootgraph.c */
extern const struct bs_table bs_summary_table;
extern const struct bs_table bs_initcalls_table;
extern const struct bs_table bs_cpus_table;
extern const struct bs_table bs_json_table;
extern const struct bs_table bs_bootgraph_table;
extern const struct bs_table bs_probes_table;

/* core.c helpers shared by the formatters */
extern const char *const bs_milestone_names[BS_NR_MILESTONES];
extern const char *const bs_cpu_point_names[BS_CPU_NR_POINTS];
const char *bs_level_name(u8 level);
const char *bs_entry_counter_name(bool physical);
const char *bs_before_entry(void);
void bs_seq_ns(struct seq_file *m, u64 cyc);
void bs_seq_sym(struct seq_file *m, const struct bs_initcall *ic);

#endif /* _BOOTSTAMP_INTERNAL_H */
