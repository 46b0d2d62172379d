// SPDX-License-Identifier: GPL-2.0
/*
 * bootstamp: the scheduler events that say where a row's time went.
 *
 * A row (a module initcall or a driver probe recorded after load) is one
 * task's interval. While a task has a row open, its switches and wake-ups
 * are kept, with up to BS_SCHED_FRAMES return addresses at each switch-out
 * to sleep, from probes on the sched_switch and sched_waking tracepoints.
 * Every other switch returns after one atomic read, or a scan of every
 * slot ever used (two per switch) while a row is open. In full mode the
 * kernel's own events of PID 1 until init (the built-in initcalls and boot
 * CPU bring-ups) come first.
 *
 * /sys/kernel/debug/bootstamp/sched shows both, in time order, in the line
 * format of ftrace's trace file (sched_switch, sched_waking and
 * "<stack trace>", counter ticks as with trace_clock=arm64-counter), so
 * that bootreport reads it as it reads a sched.trace:
 *
 *	# recording from: FROM to: TO
 *	# hole: START END PID|all REASON
 *	<...>-PID [CPU] TICKS: sched_switch: prev_pid=P prev_state=S ==> next_pid=N
 *	<...>-PID [CPU] TICKS: <stack trace>
 *	 => symbol+off/size [module]
 *	<...>-PID [CPU] TICKS: sched_waking: pid=P
 *
 * FROM..TO is what the events cover for the rows the other files have:
 * from the kernel's start of recording (full mode) or the load, to the
 * read. A hole is a stretch in which some of them were not kept (END "-":
 * to the end), for one task or for all: the kernel's PID 1 events past
 * its buffer, the stretch from init to our load (full mode), ours past our
 * buffer, and the task of a row that found no free slot to be followed. A
 * row that overlaps a hole of its task cannot be split.
 */
#include "internal.h"

#include <linux/cpumask.h>
#include <linux/debugfs.h>
#include <linux/mutex.h>
#include <linux/overflow.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/stacktrace.h>
#include <linux/tracepoint.h>
#include <linux/vmalloc.h>

#include <trace/events/sched.h>

#define BS_SCHED_MAX		4096	/* events after load */
#define BS_SCHED_FRAMES		12	/* return addresses per sleep */
#define BS_SCHED_MAX_STACKS	1024
#define BS_SCHED_TRACKED	64	/* tasks with a row open at once */

enum { BS_EV_SWITCH, BS_EV_WAKING };

struct bs_sched_ev {
	u64		t;		/* written last; 0: not filled */
	pid_t		cur;		/* the task that recorded it */
	pid_t		prev;		/* switch: prev; waking: the woken */
	pid_t		next;
	u32		frame;
	u16		cpu;
	u8		kind;
	u8		nr_frames;
	char		state;		/* prev's, 'R' when preempted */
	bool		preempt;
};

static struct bs_sched_ev *bs_ev;
static unsigned long *bs_frames;
static atomic_t bs_ev_next = ATOMIC_INIT(0);
static atomic_t bs_frames_next = ATOMIC_INIT(0);
static atomic_t bs_ev_dropped = ATOMIC_INIT(0);
static atomic_t bs_stacks_dropped = ATOMIC_INIT(0);
/* Earliest counter value of an event not kept, 0 while all are. */
static atomic64_t bs_full_at = ATOMIC64_INIT(0);

/* Tasks of rows that found no free slot: a hole each, from then on. */
#define BS_SCHED_UNFOLLOWED	16
struct bs_unfollowed {
	u64	t;		/* 0: free */
	pid_t	pid;
};

static struct bs_unfollowed bs_unfollowed[BS_SCHED_UNFOLLOWED];
static atomic_t bs_unfollowed_next = ATOMIC_INIT(0);
static atomic_t bs_untracked = ATOMIC_INIT(0);

/*
 * Tasks with a row open: pid (0: free slot) and nesting. A slot is claimed
 * with cmpxchg() and changed afterwards by its task only, until the task
 * releases it or dies (its last switch-out, in the sched_switch probe).
 */
struct bs_track {
	struct task_struct	*task;
	unsigned int		depth;
};

static struct bs_track bs_track[BS_SCHED_TRACKED];
/* Slots below this were ever claimed: the probes scan no further. */
static unsigned int bs_track_hwm;
static atomic_t bs_nr_tracked = ATOMIC_INIT(0);

static bool bs_sched_on;
static const char *bs_sched_why = "no-tracepoints";
static u64 bs_sched_from;

/* Keep @now as bs_full_at if it is the earliest event not kept. */
static void bs_full(u64 now)
{
	s64 old = atomic64_read(&bs_full_at);

	while ((!old || now < (u64)old) &&
	       !atomic64_try_cmpxchg(&bs_full_at, &old, now))
		;
}

/* A row of the current task that cannot be followed, from @now on. */
static void bs_unfollowed_add(pid_t pid, u64 now)
{
	unsigned int i;

	atomic_inc(&bs_untracked);
	if (atomic_read(&bs_unfollowed_next) >= BS_SCHED_UNFOLLOWED)
		goto all;
	i = atomic_fetch_inc(&bs_unfollowed_next);
	if (i >= BS_SCHED_UNFOLLOWED)
		goto all;
	bs_unfollowed[i].pid = pid;
	/* Pairs with the acquire in bs_sched_open(). */
	smp_store_release(&bs_unfollowed[i].t, now);
	return;
all:
	/* No room to say whose: no row is split from here on. */
	bs_full(now);
}

/*
 * The probes read the slots without locks: a task's slot is claimed by the
 * task itself before its row's start stamp, and the scheduler orders its
 * later switches and wake-ups after that (a switch of the task runs on its
 * CPU after it; a wake-up follows the task's own sleep). Slots are keyed by
 * task, not pid: a pid can be freed and reused before its task's last
 * switch.
 */

/**
 * bs_sched_enter() - the current task opens a row: follow it
 *
 * Called from the row's start probe, in the task's own context.
 */
void bs_sched_enter(void)
{
	unsigned int i, hwm;

	if (!READ_ONCE(bs_sched_on))
		return;
	hwm = READ_ONCE(bs_track_hwm);
	for (i = 0; i < hwm; i++) {
		if (READ_ONCE(bs_track[i].task) == current) {
			WRITE_ONCE(bs_track[i].depth,
				   READ_ONCE(bs_track[i].depth) + 1);
			return;
		}
	}
	for (i = 0; i < BS_SCHED_TRACKED; i++) {
		if (!cmpxchg(&bs_track[i].task, NULL, current)) {
			WRITE_ONCE(bs_track[i].depth, 1);
			/* The probes' scan limit only grows. */
			while (hwm <= i && !try_cmpxchg(&bs_track_hwm, &hwm, i + 1))
				;
			atomic_inc(&bs_nr_tracked);
			return;
		}
	}
	bs_unfollowed_add(task_pid_nr(current), bs_read_counter());
}

static void bs_track_release(struct bs_track *k)
{
	WRITE_ONCE(k->depth, 0);
	/* After depth: the next claimer of the slot sets its own. */
	smp_store_release(&k->task, NULL);
	atomic_dec(&bs_nr_tracked);
}

/**
 * bs_sched_leave() - the current task closes a row
 */
void bs_sched_leave(void)
{
	unsigned int i, hwm = READ_ONCE(bs_track_hwm), depth;

	for (i = 0; i < hwm; i++) {
		if (READ_ONCE(bs_track[i].task) != current)
			continue;
		depth = READ_ONCE(bs_track[i].depth);
		if (depth > 1)
			WRITE_ONCE(bs_track[i].depth, depth - 1);
		else
			bs_track_release(&bs_track[i]);
		return;
	}
}

static struct bs_track *bs_tracked(struct task_struct *t)
{
	unsigned int i, hwm = READ_ONCE(bs_track_hwm);

	for (i = 0; i < hwm; i++)
		if (READ_ONCE(bs_track[i].task) == t)
			return &bs_track[i];
	return NULL;
}

static struct bs_sched_ev *bs_claim(u64 now, u8 kind)
{
	struct bs_sched_ev *e;
	unsigned int i;

	/* Once full, the index stops growing: it cannot wrap. */
	if (atomic_read(&bs_ev_next) >= BS_SCHED_MAX)
		goto full;
	i = atomic_fetch_inc(&bs_ev_next);
	if (i >= BS_SCHED_MAX)
		goto full;
	e = &bs_ev[i];
	e->kind = kind;
	e->cpu = raw_smp_processor_id();
	e->cur = task_pid_nr(current);
	return e;
full:
	atomic_inc(&bs_ev_dropped);
	bs_full(now);
	return NULL;
}

static void bs_publish(struct bs_sched_ev *e, u64 now)
{
	/* Pairs with the acquire in bs_sched_open(): skip unfilled ones. */
	smp_store_release(&e->t, now);
}

/* Where a followed task sleeps; skip this function's and the probe's frames. */
static noinline void bs_sched_stack(struct bs_sched_ev *e)
{
	u32 f;

	if (atomic_read(&bs_frames_next) >
	    (BS_SCHED_MAX_STACKS - 1) * BS_SCHED_FRAMES)
		goto full;
	f = atomic_fetch_add(BS_SCHED_FRAMES, &bs_frames_next);
	if (f > (BS_SCHED_MAX_STACKS - 1) * BS_SCHED_FRAMES)
		goto full;
	e->frame = f;
	e->nr_frames = stack_trace_save(bs_frames + f, BS_SCHED_FRAMES, 2);
	return;
full:
	atomic_inc(&bs_stacks_dropped);
}

static void bs_probe_sched_switch(void *data, bool preempt,
				  struct task_struct *prev,
				  struct task_struct *next,
				  unsigned int prev_state)
{
	struct bs_track *out;
	struct bs_sched_ev *e;
	u64 now;

	if (!atomic_read(&bs_nr_tracked))
		return;
	out = bs_tracked(prev);
	if (!out && !bs_tracked(next))
		return;
	now = bs_read_counter();
	e = bs_claim(now, BS_EV_SWITCH);
	if (e) {
		e->prev = task_pid_nr(prev);
		e->next = task_pid_nr(next);
		e->preempt = preempt;
		e->state = preempt ? 'R' :
			task_index_to_char(__task_state_index(prev_state,
							      prev->exit_state));
		e->nr_frames = 0;
		if (out && e->state != 'R' && !(prev_state & TASK_DEAD))
			bs_sched_stack(e);
		bs_publish(e, now);
	}
	/* Its last switch: a row it never closed no longer holds the slot. */
	if (out && (prev_state & TASK_DEAD))
		bs_track_release(out);
}

static void bs_probe_sched_waking(void *data, struct task_struct *p)
{
	struct bs_sched_ev *e;
	u64 now;

	if (!atomic_read(&bs_nr_tracked) || !bs_tracked(p))
		return;
	now = bs_read_counter();
	e = bs_claim(now, BS_EV_WAKING);
	if (!e)
		return;
	e->prev = task_pid_nr(p);
	e->state = 0;
	e->nr_frames = 0;
	bs_publish(e, now);
}

/* ---- the file ------------------------------------------------------- */

/* One line group of the file: an event of the kernel's log or ours. */
struct bs_sched_line {
	u64		t;
	u32		idx;
	bool		kernel;
};

struct bs_sched_file {
	unsigned int		nr;
	unsigned int		nr_frames;	/* stack lines, for the size */
	u64			to;
	struct bs_sched_line	lines[];
};

static int bs_line_cmp(const void *a, const void *b)
{
	const struct bs_sched_line *x = a, *y = b;

	if (x->t != y->t)
		return x->t < y->t ? -1 : 1;
	if (x->kernel != y->kernel)
		return x->kernel ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

static void bs_show_frames(struct seq_file *m, pid_t pid, unsigned int cpu,
			   u64 t, const unsigned long *frames,
			   unsigned int nr)
{
	unsigned int i;

	if (!nr)
		return;
	seq_printf(m, "<...>-%d [%03u] %llu: <stack trace>\n", pid, cpu, t);
	for (i = 0; i < nr; i++)
		seq_printf(m, " => %pB\n", (void *)frames[i]);
}

static void bs_show_switch(struct seq_file *m, u64 t, unsigned int cpu,
			   pid_t prev, char state, bool preempt, pid_t next)
{
	seq_printf(m, "<...>-%d [%03u] %llu: sched_switch: prev_pid=%d prev_state=%c%s ==> next_pid=%d\n",
		   prev, cpu, t, prev, state ?: '?', preempt ? "+" : "",
		   next);
}

static void bs_show_line(struct seq_file *m, const struct bs_sched_line *l)
{
	struct bs_log_sched k;
	const struct bs_sched_ev *e;

	if (l->kernel) {
		if (!bs_log_sched(l->idx, &k))
			return;
		if (k.waking) {
			seq_printf(m, "<...>-%d [%03u] %llu: sched_waking: pid=1\n",
				   k.other, k.cpu, k.t);
			return;
		}
		bs_show_switch(m, k.t, k.cpu, k.out ? 1 : k.other, k.state,
			       k.preempt, k.out ? k.other : 1);
		bs_show_frames(m, 1, k.cpu, k.t, k.frames, k.nr_frames);
		return;
	}
	e = &bs_ev[l->idx];
	if (e->kind == BS_EV_WAKING) {
		seq_printf(m, "<...>-%d [%03u] %llu: sched_waking: pid=%d\n",
			   e->cur, e->cpu, e->t, e->prev);
		return;
	}
	bs_show_switch(m, e->t, e->cpu, e->prev, e->state, e->preempt, e->next);
	bs_show_frames(m, e->prev, e->cpu, e->t, &bs_frames[e->frame],
		       e->nr_frames);
}

/* Where events were not kept; bootreport splits no row across one. */
static void bs_show_holes(struct seq_file *m, u64 to)
{
	u64 full = atomic64_read(&bs_full_at), t;
	struct bs_log_sched_info k;
	unsigned int i, n;

	if (bs_log_sched_info(&k)) {
		if (k.dropped)
			seq_printf(m, "# hole: %llu %llu 1 kernel buffer full (%u events not kept)\n",
				   k.full_at, k.until, k.dropped);
		/* Nobody recorded anything from init to our load. */
		seq_printf(m, "# hole: %llu %llu all from init to the module's load\n",
			   k.until, bs_load_stamp);
	}
	n = min_t(unsigned int, atomic_read(&bs_unfollowed_next),
		  BS_SCHED_UNFOLLOWED);
	for (i = 0; i < n; i++) {
		/* Pairs with bs_unfollowed_add(). */
		t = smp_load_acquire(&bs_unfollowed[i].t);
		if (t && t <= to)
			seq_printf(m, "# hole: %llu - %d row not followed (no free slot)\n",
				   t, bs_unfollowed[i].pid);
	}
	if (full && full <= to)
		seq_printf(m, "# hole: %llu - all buffer full (%u events, %u rows not kept)\n",
			   full, atomic_read(&bs_ev_dropped),
			   atomic_read(&bs_untracked));
}

static int bs_sched_show(struct seq_file *m, void *v)
{
	const struct bs_sched_file *f = m->private;
	struct bs_log_sched_info k;
	unsigned int i;

	seq_puts(m, "# tracer: bootstamp sched events, counter ticks\n");
	seq_printf(m, "# sched: %s\n", bs_sched_why);
	seq_printf(m, "# load_id: %016llx\n", bs_load_id);
	if (bs_log_sched_info(&k))
		seq_printf(m, "# kernel: %u events of pid 1, %u dropped, %u stacks dropped\n",
			   k.nr, k.dropped, k.stacks_dropped);
	seq_printf(m, "# module: %u events, %u dropped, %u stacks dropped, %u rows not followed\n",
		   min_t(unsigned int, atomic_read(&bs_ev_next), BS_SCHED_MAX),
		   atomic_read(&bs_ev_dropped), atomic_read(&bs_stacks_dropped),
		   atomic_read(&bs_untracked));
	seq_printf(m, "# recording from: %llu to: %llu\n",
		   f->to ? bs_sched_from : 0, f->to);
	bs_show_holes(m, f->to);
	for (i = 0; i < f->nr; i++)
		bs_show_line(m, &f->lines[i]);
	return 0;
}

/* Wait for an event claimed before @to to be filled; 0 if it never is. */
static u64 bs_sched_wait(struct bs_sched_ev *e)
{
	unsigned int spins = 0;
	u64 t;

	/* Claimed and filled within one probe call, with preemption off. */
	while (!(t = smp_load_acquire(&e->t)) && spins++ < 100000)
		cpu_relax();
	return t;
}

static int bs_sched_open(struct inode *inode, struct file *file)
{
	unsigned int nk = bs_log_nr_sched(), i, n = 0, no, frames = 0;
	struct bs_sched_file *f;
	struct bs_log_sched k;
	u64 to, t;
	int ret;

	/* The cover's end first: every event claimed before it is counted. */
	to = bs_sched_on ? bs_read_counter() :
	     nk ? bs_log_milestone(BS_INIT_EXEC) : 0;
	no = bs_ev ? min_t(unsigned int, atomic_read(&bs_ev_next),
			   BS_SCHED_MAX) : 0;
	f = kvzalloc(struct_size(f, lines, nk + no), GFP_KERNEL);
	if (!f)
		return -ENOMEM;
	f->to = to;
	for (i = 0; i < nk; i++) {
		if (!bs_log_sched(i, &k))
			continue;
		f->lines[n++] = (struct bs_sched_line){ k.t, i, true };
		frames += k.nr_frames;
	}
	for (i = 0; i < no; i++) {
		t = bs_sched_wait(&bs_ev[i]);
		if (!t) {
			/*
			 * Still not filled (an interrupt between its claim and
			 * its publication): the cover ends where ours began.
			 */
			f->to = nk ? bs_load_stamp : 0;
			break;
		}
		if (t <= to) {
			f->lines[n++] = (struct bs_sched_line){ t, i, false };
			frames += bs_ev[i].nr_frames;
		}
	}
	f->nr = n;
	f->nr_frames = frames;
	sort(f->lines, n, sizeof(*f->lines), bs_line_cmp, NULL);

	ret = single_open_size(file, bs_sched_show, f,
			       PAGE_SIZE + (size_t)n * 96 + (size_t)frames * 80);
	if (ret)
		kvfree(f);
	return ret;
}

static int bs_sched_release(struct inode *inode, struct file *file)
{
	struct bs_sched_file *f = ((struct seq_file *)file->private_data)->private;

	kvfree(f);
	return single_release(inode, file);
}

const struct file_operations bs_sched_fops = {
	.owner		= THIS_MODULE,
	.open		= bs_sched_open,
	.read		= seq_read,
	.llseek		= seq_lseek,
	.release	= bs_sched_release,
};

/* ---- set-up ----------------------------------------------------------- */

static struct tracepoint *bs_tp_switch, *bs_tp_waking;

static void bs_find_sched_tp(struct tracepoint *tp, void *priv)
{
	if (!strcmp(tp->name, "sched_switch"))
		bs_tp_switch = tp;
	else if (!strcmp(tp->name, "sched_waking"))
		bs_tp_waking = tp;
}

/**
 * bs_sched_init() - start following the tasks of rows opened from now on
 *
 * Not being able to is not an error: rows are then not split after load,
 * and the file says why.
 */
void bs_sched_init(void)
{
	bs_sched_from = bs_log_present() && bs_log_nr_sched() ?
			bs_log_sched_start() : bs_read_counter();
	if (!IS_ENABLED(CONFIG_TRACEPOINTS))
		return;
	for_each_kernel_tracepoint(bs_find_sched_tp, NULL);
	if (!bs_tp_switch || !bs_tp_waking) {
		bs_sched_why = "tracepoint-missing";
		return;
	}
	bs_ev = vzalloc(array_size(BS_SCHED_MAX, sizeof(*bs_ev)));
	bs_frames = vzalloc(array_size(BS_SCHED_MAX_STACKS * BS_SCHED_FRAMES,
				       sizeof(*bs_frames)));
	if (!bs_ev || !bs_frames) {
		bs_sched_why = "no-memory";
		goto err_free;
	}
	/* The tracepoints are found by name: check the probes' prototypes. */
	check_trace_callback_type_sched_switch(bs_probe_sched_switch);
	check_trace_callback_type_sched_waking(bs_probe_sched_waking);
	if (tracepoint_probe_register(bs_tp_switch, bs_probe_sched_switch,
				      NULL))
		goto err_register;
	if (tracepoint_probe_register(bs_tp_waking, bs_probe_sched_waking,
				      NULL)) {
		tracepoint_probe_unregister(bs_tp_switch,
					    bs_probe_sched_switch, NULL);
		tracepoint_synchronize_unregister();
		goto err_register;
	}
	bs_sched_why = "on";
	WRITE_ONCE(bs_sched_on, true);
	return;

err_register:
	bs_sched_why = "register-failed";
err_free:
	vfree(bs_ev);
	vfree(bs_frames);
	bs_ev = NULL;
	bs_frames = NULL;
}

/**
 * bs_sched_exit() - detach the probes and wait until none is running
 */
void bs_sched_exit(void)
{
	if (!bs_sched_on)
		return;
	WRITE_ONCE(bs_sched_on, false);
	tracepoint_probe_unregister(bs_tp_waking, bs_probe_sched_waking, NULL);
	tracepoint_probe_unregister(bs_tp_switch, bs_probe_sched_switch, NULL);
	tracepoint_synchronize_unregister();
	vfree(bs_ev);
	vfree(bs_frames);
	bs_ev = NULL;
	bs_frames = NULL;
}

#define BS_COST_CALLS	256
#define BS_COST_SAMPLES	9

static int bs_u64_cmp(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

/*
 * What the sched_switch probe adds to the switch of a task that has no row
 * open: calls of it, interrupts off, with the reader (a task in no row) as
 * both tasks; the median of BS_COST_SAMPLES samples. The tracepoint's own
 * call is not in it.
 */
static u64 bs_sched_cost_measure(void)
{
	u64 samples[BS_COST_SAMPLES], t0;
	unsigned long flags;
	unsigned int s, i;

	for (s = 0; s < BS_COST_SAMPLES; s++) {
		local_irq_save(flags);
		t0 = bs_read_counter();
		for (i = 0; i < BS_COST_CALLS; i++)
			bs_probe_sched_switch(NULL, false, current, current,
					      TASK_RUNNING);
		samples[s] = bs_read_counter() - t0;
		local_irq_restore(flags);
	}
	sort(samples, BS_COST_SAMPLES, sizeof(samples[0]), bs_u64_cmp, NULL);
	return div_u64(bs_cyc_to_ns(samples[BS_COST_SAMPLES / 2]),
		       BS_COST_CALLS);
}

/**
 * bs_sched_cost_ns() - what following rows adds to a context switch
 *
 * Measured at the first call (the summary's first read), for a task with
 * no row open, with the rows open at that moment (the slot scan grows with
 * the slots ever used).
 *
 * Return: nanoseconds per switch, 0 when rows are not followed.
 */
u64 bs_sched_cost_ns(void)
{
	static DEFINE_MUTEX(lock);
	static u64 cost;

	mutex_lock(&lock);
	if (!cost && READ_ONCE(bs_sched_on))
		cost = max(bs_sched_cost_measure(), 1ULL);
	mutex_unlock(&lock);
	return cost;
}

/**
 * bs_sched_state() - whether rows opened after load are followed, if not why
 *
 * Return: "on", "no-tracepoints", "tracepoint-missing", "no-memory" or
 * "register-failed".
 */
const char *bs_sched_state(void)
{
	return bs_sched_why;
}

/**
 * bs_sched_bytes() - memory the events after load take
 *
 * Return: bytes, 0 when not recording.
 */
size_t bs_sched_bytes(void)
{
	if (!bs_sched_on)
		return 0;
	return BS_SCHED_MAX * sizeof(*bs_ev) +
	       BS_SCHED_MAX_STACKS * BS_SCHED_FRAMES * sizeof(*bs_frames);
}
