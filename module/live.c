// SPDX-License-Identifier: GPL-2.0
/*
 * bootstamp: events recorded after load.
 *
 * Module initcalls and CPU bring-up are taken from the initcall_start,
 * initcall_finish, cpuhp_enter and cpuhp_exit tracepoints. They are not
 * exported to modules, so they are found by name with
 * for_each_kernel_tracepoint(). Tracepoints fire on online CPUs only, and
 * call their probes under SRCU, so probes may be preempted and run on
 * several CPUs at once: they only claim slots in fixed arrays with atomics
 * and write counter values. Readers see a record once its state is
 * published with release semantics.
 *
 * The start stamp is taken after every other probe of initcall_start and
 * the finish stamp before every other probe of initcall_finish, so that
 * initcall_debug's printk is not part of a duration.
 *
 * A module's init function is known before it runs: the module notifier
 * (MODULE_STATE_COMING) claims a record with the symbol and module name
 * while the init text is still mapped; initcall_start/finish then match it
 * by (function, pid).
 */
#include "internal.h"

#include <linux/atomic.h>
#include <linux/cpuhotplug.h>
#include <linux/cpumask.h>
#include <linux/kernel.h>
#include <linux/limits.h>
#include <linux/notifier.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/string.h>
#include <linux/tracepoint.h>

enum {
	BS_REC_FREE,		/* slot claimed, not filled */
	BS_REC_PENDING,		/* module coming, init not started */
	BS_REC_RUNNING,		/* initcall_start seen */
	BS_REC_DONE,		/* initcall_finish seen: readers may print */
	BS_REC_DEAD,		/* init never ran */
};

struct bs_live_initcall {
	u64		start;
	u64		end;
	initcall_t	fn;
	int		ret;
	pid_t		pid;
	unsigned int	cpu;
	atomic_t	state;
	char		sym[BS_SYM_LEN];
	char		mod[MODULE_NAME_LEN];
};

struct bs_live_cpu {
	u64		t[BS_CPU_NR_POINTS];
	unsigned int	cpu;
	int		target;		/* hotplug state the bring-up goes to */
	int		ret;
	bool		entry_physical;
};

static struct bs_live_initcall bs_ic[BS_MAX_LIVE_INITCALLS];
static atomic_t bs_ic_next = ATOMIC_INIT(0);
static atomic_t bs_ic_dropped = ATOMIC_INIT(0);

static struct bs_live_cpu bs_cpu[BS_MAX_LIVE_CPU];
static atomic_t bs_cpu_next = ATOMIC_INIT(0);
static atomic_t bs_cpu_dropped = ATOMIC_INIT(0);

/*
 * Per CPU: the bring-up session in progress (index + 1, 0 if none), and the
 * target + 1 of a bring-up that found no free slot (counted once, 0 if
 * none). nr_cpu_ids entries.
 */
struct bs_cpu_state {
	int	cur;
	int	dropped_target;
};

static struct bs_cpu_state *bs_cpu_state;

/* ---- module initcalls ------------------------------------------------ */

static void bs_probe_initcall_start(void *data, initcall_t fn)
{
	unsigned int i, n = bs_slot_count(&bs_ic_next, BS_MAX_LIVE_INITCALLS);

	for (i = 0; i < n; i++) {
		struct bs_live_initcall *r = &bs_ic[i];

		if (READ_ONCE(r->fn) != fn ||
		    atomic_read_acquire(&r->state) != BS_REC_PENDING)
			continue;
		if (atomic_cmpxchg(&r->state, BS_REC_PENDING, BS_REC_RUNNING) !=
		    BS_REC_PENDING)
			continue;
		r->pid = task_pid_nr(current);
		r->cpu = raw_smp_processor_id();
		bs_sched_enter();
		/* Last, so that the slot search is not part of the duration. */
		r->start = bs_read_counter();
		return;
	}
}

static void bs_probe_initcall_finish(void *data, initcall_t fn, int ret)
{
	unsigned int i, n = bs_slot_count(&bs_ic_next, BS_MAX_LIVE_INITCALLS);
	u64 now = bs_read_counter();
	pid_t pid = task_pid_nr(current);

	for (i = 0; i < n; i++) {
		struct bs_live_initcall *r = &bs_ic[i];

		if (READ_ONCE(r->fn) != fn || r->pid != pid ||
		    atomic_read(&r->state) != BS_REC_RUNNING)
			continue;
		r->end = now;
		r->ret = ret;
		atomic_set_release(&r->state, BS_REC_DONE);
		bs_sched_leave();
		return;
	}
}

/* Claim a record for a coming module's init function. */
static void bs_module_coming(struct module *mod)
{
	struct bs_live_initcall *r;
	char buf[BS_SYM_LEN + MODULE_NAME_LEN + 4];
	char *sp;
	int i;

	if (!mod->init)
		return;
	i = bs_slot_claim(&bs_ic_next, BS_MAX_LIVE_INITCALLS, &bs_ic_dropped);
	if (i < 0)
		return;
	r = &bs_ic[i];
	/* %ps adds " [mod]" for module text; keep the symbol only. */
	snprintf(buf, sizeof(buf), "%ps", mod->init);
	sp = strchr(buf, ' ');
	if (sp)
		*sp = '\0';
	if (!IS_ENABLED(CONFIG_KALLSYMS) || !strncmp(buf, "0x", 2))
		strscpy(buf, "unknown");
	strscpy(r->sym, buf);
	strscpy(r->mod, mod->name);
	r->pid = 0;
	WRITE_ONCE(r->fn, mod->init);
	atomic_set_release(&r->state, BS_REC_PENDING);
}

/* The module is live or gone: a record still pending will never run. */
static void bs_module_settled(struct module *mod)
{
	unsigned int i, n = bs_slot_count(&bs_ic_next, BS_MAX_LIVE_INITCALLS);

	for (i = 0; i < n; i++) {
		struct bs_live_initcall *r = &bs_ic[i];

		if (atomic_read_acquire(&r->state) == BS_REC_PENDING &&
		    r->fn == mod->init && !strcmp(r->mod, mod->name))
			atomic_cmpxchg(&r->state, BS_REC_PENDING, BS_REC_DEAD);
	}
}

static int bs_module_notify(struct notifier_block *nb, unsigned long action,
			    void *data)
{
	struct module *mod = data;

	if (action == MODULE_STATE_COMING)
		bs_module_coming(mod);
	else if (action == MODULE_STATE_LIVE || action == MODULE_STATE_GOING)
		bs_module_settled(mod);
	return NOTIFY_DONE;
}

static struct notifier_block bs_module_nb = {
	.notifier_call = bs_module_notify,
};

/* ---- CPU bring-up ---------------------------------------------------- */

static struct bs_live_cpu *bs_cpu_session(unsigned int cpu)
{
	int i = READ_ONCE(bs_cpu_state[cpu].cur);

	return i ? &bs_cpu[i - 1] : NULL;
}

static void bs_cpu_stamp(struct bs_live_cpu *s, unsigned int point, u64 now)
{
	if (!READ_ONCE(s->t[point]))
		WRITE_ONCE(s->t[point], now);
}

/* The bring-up in progress on @cpu is over, finished or not. */
static void bs_cpu_session_end(unsigned int cpu)
{
	WRITE_ONCE(bs_cpu_state[cpu].cur, 0);
	WRITE_ONCE(bs_cpu_state[cpu].dropped_target, 0);
}

/*
 * Live sessions fill the same points as the boot log, from the nearest
 * hotplug step:
 *   requested     CPUHP_BRINGUP_CPU starts on the control CPU, where the
 *                 kernel stamps it too: after the prepare states, so that
 *                 requested..entry means the same in both kinds of row
 *   entry,        the kernel's stamps of the CPU's latest bring-up
 *   start_kernel, (CONFIG_BOOTSTAMP), copied when the bring-up finishes;
 *   online        without them, online is the first step of the new
 *                 CPU's hotplug thread, which comes later
 *   active        CPUHP_AP_ACTIVE (sched_cpu_activate) returned
 *   finished      CPUHP_BRINGUP_CPU returned on the control CPU
 * A session ends when the bring-up finishes or fails, when a teardown step
 * runs, or when a new request with another target state starts. A
 * bring-up stopped below CPUHP_BRINGUP_CPU through hotplug/target never
 * asked the CPU to start and has no session.
 */
static void bs_probe_cpuhp_enter(void *data, unsigned int cpu, int target,
				 int idx, int (*fun)(unsigned int))
{
	u64 now = bs_read_counter();
	struct bs_live_cpu *s;
	int i, dropped;

	if (cpu >= nr_cpu_ids)
		return;

	s = bs_cpu_session(cpu);
	dropped = READ_ONCE(bs_cpu_state[cpu].dropped_target);

	/* Teardown, or a request with another target: that bring-up is over. */
	if (idx > target || (s && s->target != target) ||
	    (dropped && dropped - 1 != target)) {
		if (s || dropped)
			bs_cpu_session_end(cpu);
		if (idx > target)
			return;
		s = NULL;
		dropped = 0;
	}
	if (dropped)
		return;		/* a step of a bring-up that found no slot */

	if (!s) {
		/*
		 * Also called for new states on online CPUs: not a bring-up.
		 * The prepare states before CPUHP_BRINGUP_CPU are not part of
		 * the session, as in the kernel's boot stamps.
		 */
		if (cpu_online(cpu) || idx != CPUHP_BRINGUP_CPU)
			return;
		i = bs_slot_claim(&bs_cpu_next, BS_MAX_LIVE_CPU,
				  &bs_cpu_dropped);
		if (i < 0) {
			WRITE_ONCE(bs_cpu_state[cpu].dropped_target, target + 1);
			return;
		}
		s = &bs_cpu[i];
		s->cpu = cpu;
		s->target = target;
		s->ret = 0;
		/* Pairs with bs_live_cpu(): cpu and ret are set before. */
		smp_store_release(&s->t[BS_CPU_REQUESTED], now);
		WRITE_ONCE(bs_cpu_state[cpu].cur, i + 1);
		return;
	}

	if (raw_smp_processor_id() == cpu && idx > CPUHP_AP_ONLINE_IDLE)
		bs_cpu_stamp(s, BS_CPU_ONLINE, now);
}

/* Take the kernel's entry stamps if they belong to this bring-up. */
static void bs_cpu_take_entry(struct bs_live_cpu *s)
{
	struct bs_cpu l;

	if (!bs_log_cpu_latest(s->cpu, &l) ||
	    l.t[BS_CPU_ENTRY] < s->t[BS_CPU_REQUESTED])
		return;
	WRITE_ONCE(s->entry_physical, l.entry_physical);
	WRITE_ONCE(s->t[BS_CPU_ENTRY], l.t[BS_CPU_ENTRY]);
	if (l.t[BS_CPU_START_KERNEL] >= l.t[BS_CPU_ENTRY])
		WRITE_ONCE(s->t[BS_CPU_START_KERNEL],
			   l.t[BS_CPU_START_KERNEL]);
	/* Set by the CPU itself: exact, where the hotplug step is later. */
	if (l.t[BS_CPU_ONLINE] >= l.t[BS_CPU_ENTRY])
		WRITE_ONCE(s->t[BS_CPU_ONLINE], l.t[BS_CPU_ONLINE]);
}

static void bs_probe_cpuhp_exit(void *data, unsigned int cpu, int state,
				int idx, int ret)
{
	u64 now = bs_read_counter();
	struct bs_live_cpu *s;

	if (cpu >= nr_cpu_ids)
		return;
	s = bs_cpu_session(cpu);
	if (!s) {
		/* A bring-up that found no slot ends like a recorded one. */
		if (READ_ONCE(bs_cpu_state[cpu].dropped_target) &&
		    (ret || idx == CPUHP_BRINGUP_CPU))
			bs_cpu_session_end(cpu);
		return;
	}
	if (ret) {
		WRITE_ONCE(s->ret, ret);
		bs_cpu_session_end(cpu);
		return;
	}
	if (idx == CPUHP_AP_ACTIVE) {
		bs_cpu_stamp(s, BS_CPU_ACTIVE, now);
	} else if (idx == CPUHP_BRINGUP_CPU) {
		/* The CPU's writes came before it let bringup_cpu() return. */
		bs_cpu_take_entry(s);
		bs_cpu_stamp(s, BS_CPU_FINISHED, now);
		bs_cpu_session_end(cpu);
	}
}

/* ---- tracepoint lookup ----------------------------------------------- */

struct bs_tp {
	const char		*name;
	void			*probe;
	int			prio;
	struct tracepoint	*tp;
	bool			registered;
};

static struct bs_tp bs_tps[] = {
	{ "initcall_start",	bs_probe_initcall_start,	INT_MIN },
	{ "initcall_finish",	bs_probe_initcall_finish,	INT_MAX },
	{ "cpuhp_enter",	bs_probe_cpuhp_enter,	TRACEPOINT_DEFAULT_PRIO },
	{ "cpuhp_exit",		bs_probe_cpuhp_exit,	TRACEPOINT_DEFAULT_PRIO },
};

static bool bs_tp_ok;
static const char *bs_live_why = "on";

static void bs_find_tp(struct tracepoint *tp, void *priv)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(bs_tps); i++)
		if (!strcmp(tp->name, bs_tps[i].name))
			bs_tps[i].tp = tp;
}

static void bs_unregister_all(void)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(bs_tps); i++) {
		if (!bs_tps[i].registered)
			continue;
		tracepoint_probe_unregister(bs_tps[i].tp, bs_tps[i].probe,
					    NULL);
		bs_tps[i].registered = false;
	}
	tracepoint_synchronize_unregister();
}

/**
 * bs_live_init() - start recording module initcalls and CPU bring-up
 *
 * A kernel without CONFIG_TRACEPOINTS, or without one of the four
 * tracepoints, is not an error: live recording is then off and the summary
 * says so.
 *
 * Return: 0 or a negative errno from registration.
 */
int bs_live_init(void)
{
	unsigned int i;
	int ret;

	if (!IS_ENABLED(CONFIG_TRACEPOINTS)) {
		bs_live_why = "no-tracepoints";
		pr_info("kernel has no tracepoints: live recording off\n");
		return 0;
	}

	for_each_kernel_tracepoint(bs_find_tp, NULL);
	for (i = 0; i < ARRAY_SIZE(bs_tps); i++) {
		if (!bs_tps[i].tp) {
			bs_live_why = "tracepoint-missing";
			pr_info("tracepoint %s not found: live recording off\n",
				bs_tps[i].name);
			return 0;
		}
	}

	bs_cpu_state = kcalloc(nr_cpu_ids, sizeof(*bs_cpu_state), GFP_KERNEL);
	if (!bs_cpu_state)
		return -ENOMEM;

	ret = register_module_notifier(&bs_module_nb);
	if (ret)
		goto err_free;

	for (i = 0; i < ARRAY_SIZE(bs_tps); i++) {
		ret = tracepoint_probe_register_prio(bs_tps[i].tp,
						     bs_tps[i].probe, NULL,
						     bs_tps[i].prio);
		if (ret)
			goto err_unregister;
		bs_tps[i].registered = true;
	}
	bs_tp_ok = true;
	return 0;

err_unregister:
	pr_err("cannot attach to tracepoint %s: %d\n", bs_tps[i].name, ret);
	bs_unregister_all();
	unregister_module_notifier(&bs_module_nb);
err_free:
	kfree(bs_cpu_state);
	bs_cpu_state = NULL;
	return ret;
}

/**
 * bs_live_exit() - detach all probes and wait until none is running
 */
void bs_live_exit(void)
{
	if (!IS_ENABLED(CONFIG_TRACEPOINTS) || !bs_tp_ok)
		return;
	bs_tp_ok = false;
	bs_unregister_all();
	unregister_module_notifier(&bs_module_nb);
	kfree(bs_cpu_state);
}

/**
 * bs_live_state() - whether live recording is on, and if not why
 *
 * Return: "on", "no-tracepoints" (kernel built without them) or
 * "tracepoint-missing" (initcall or cpuhp events not in this kernel).
 */
const char *bs_live_state(void)
{
	return bs_live_why;
}

/**
 * bs_live_nr_initcalls() - number of module initcall slots claimed
 *
 * Return: slot count; slots whose init has not finished are skipped by
 * bs_live_initcall().
 */
unsigned int bs_live_nr_initcalls(void)
{
	return bs_slot_count(&bs_ic_next, BS_MAX_LIVE_INITCALLS);
}

/**
 * bs_live_initcalls_dropped() - module initcalls lost to a full buffer
 *
 * Return: overflow count.
 */
unsigned int bs_live_initcalls_dropped(void)
{
	return atomic_read(&bs_ic_dropped);
}

/**
 * bs_live_initcall() - copy one finished module initcall
 * @i: slot index, below bs_live_nr_initcalls()
 * @ic: filled in; its strings point into the slot and stay valid
 *
 * Return: false if the slot holds no finished initcall.
 */
bool bs_live_initcall(unsigned int i, struct bs_initcall *ic)
{
	const struct bs_live_initcall *r;

	if (i >= bs_live_nr_initcalls())
		return false;
	r = &bs_ic[i];
	if (atomic_read_acquire(&r->state) != BS_REC_DONE)
		return false;
	*ic = (struct bs_initcall) {
		.start	= r->start,
		.end	= r->end,
		.sym	= r->sym,
		.mod	= r->mod,
		.fn	= r->fn,
		.ret	= r->ret,
		.pid	= r->pid,
		.cpu	= r->cpu,
		.level	= BS_LEVEL_MODULE,
	};
	return true;
}

/**
 * bs_live_nr_cpus() - number of CPU bring-up sessions recorded
 *
 * Return: session count.
 */
unsigned int bs_live_nr_cpus(void)
{
	return bs_slot_count(&bs_cpu_next, BS_MAX_LIVE_CPU);
}

/**
 * bs_live_cpus_dropped() - bring-up sessions lost to a full buffer
 *
 * Return: overflow count.
 */
unsigned int bs_live_cpus_dropped(void)
{
	return atomic_read(&bs_cpu_dropped);
}

/**
 * bs_live_cpu() - copy one CPU bring-up session
 * @i: session index, below bs_live_nr_cpus()
 * @c: filled in; points not reached yet are 0
 *
 * Return: false if the session has not started.
 */
bool bs_live_cpu(unsigned int i, struct bs_cpu *c)
{
	unsigned int p;

	if (i >= bs_live_nr_cpus())
		return false;
	/* Pairs with bs_probe_cpuhp_enter(): a started session has its cpu. */
	c->t[BS_CPU_REQUESTED] = smp_load_acquire(&bs_cpu[i].t[BS_CPU_REQUESTED]);
	if (!c->t[BS_CPU_REQUESTED])
		return false;
	for (p = BS_CPU_REQUESTED + 1; p < BS_CPU_NR_POINTS; p++)
		c->t[p] = READ_ONCE(bs_cpu[i].t[p]);
	c->cpu = bs_cpu[i].cpu;
	c->ret = READ_ONCE(bs_cpu[i].ret);
	c->entry_physical = READ_ONCE(bs_cpu[i].entry_physical);
	return true;
}

/**
 * bs_live_bytes() - memory used by live records
 *
 * Return: bytes of the slots claimed so far.
 */
size_t bs_live_bytes(void)
{
	return bs_live_nr_initcalls() * sizeof(bs_ic[0]) +
	       bs_live_nr_cpus() * sizeof(bs_cpu[0]);
}
