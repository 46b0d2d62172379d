// SPDX-License-Identifier: GPL-2.0
/*
 * bootstamp: the scheduler events that say where a row's time went.
 *
 * A row (a module initcall or a driver probe recorded after load) is one
 * task's interval. While a task has a row open, its switches and wake-ups
 * are kept, with up to BS_SCHED_FRAMES return addresses at each switch-out
 * to sleep, from probes on the sched_switch and sched_waking tracepoints.
 * Every other switch returns after one atomic read, or a scan of the few
 * open rows while there are some. In full mode the kernel's own events of
 * PID 1 until init (the built-in initcalls and boot CPU bring-ups) come
 * first.
 *
 * /sys/kernel/debug/bootstamp/sched shows both, in time order, in the line
 * format of ftrace's trace file (sched_switch, sched_waking and
 * "<stack trace>", counter ticks as with trace_clock=arm64-counter), so
 * that bootreport reads it as it reads a sched.trace:
 *
 *	# recording from: FROM to: TO
 *	<...>-PID [CPU] TICKS: sched_switch: prev_pid=P prev_state=S ==> next_pid=N
 *	<...>-PID [CPU] TICKS: <stack trace>
 *	 => symbol+off/size [module]
 *	<...>-PID [CPU] TICKS: sched_waking: pid=P
 *	CPU:N [LOST n EVENTS]
 *
 * FROM..TO is what the events cover for the rows the other files have:
 * from the kernel's start (full mode) or the load, to the read. A row open
 * when no slot was free to follow its task, and events past a full
 * buffer, end the cover with LOST lines at that time on every CPU; the
 * kernel's dropped events with LOST lines after its last ones.
 */
#include "internal.h"

#include <linux/cpumask.h>
#include <linux/debugfs.h>
#include <linux/overflow.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/stacktrace.h>
#include <linux/tracepoint.h>
#include <linux/vmalloc.h>

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
/* First counter value from which the cover ends, 0 while it holds. */
static atomic64_t bs_lost_at = ATOMIC64_INIT(0);
static atomic_t bs_untracked = ATOMIC_INIT(0);

/* Tasks with a row open: pid (0: free slot) and nesting, set by the task. */
static pid_t bs_track_pid[BS_SCHED_TRACKED];
static unsigned int bs_track_depth[BS_SCHED_TRACKED];
static atomic_t bs_nr_tracked = ATOMIC_INIT(0);

static bool bs_sched_on;
static const char *bs_sched_why = "no-tracepoints";
static u64 bs_sched_from;

static void bs_lose(u64 now)
{
	atomic64_cmpxchg(&bs_lost_at, 0, now);
}

/**
 * bs_sched_enter() - the current task opens a row: follow it
 *
 * Called from the row's start probe, in the task's own context.
 */
void bs_sched_enter(void)
{
	pid_t pid = task_pid_nr(current);
	unsigned int i;

	if (!READ_ONCE(bs_sched_on))
		return;
	for (i = 0; i < BS_SCHED_TRACKED; i++) {
		if (READ_ONCE(bs_track_pid[i]) == pid) {
			bs_track_depth[i]++;
			return;
		}
	}
	for (i = 0; i < BS_SCHED_TRACKED; i++) {
		if (cmpxchg(&bs_track_pid[i], 0, pid) == 0) {
			bs_track_depth[i] = 1;
			atomic_inc(&bs_nr_tracked);
			return;
		}
	}
	/* Its events are not kept: a row from here on cannot be split. */
	atomic_inc(&bs_untracked);
	bs_lose(bs_read_counter());
}

/**
 * bs_sched_leave() - the current task closes a row
 */
void bs_sched_leave(void)
{
	pid_t pid = task_pid_nr(current);
	unsigned int i;

	for (i = 0; i < BS_SCHED_TRACKED; i++) {
		if (READ_ONCE(bs_track_pid[i]) != pid)
			continue;
		if (--bs_track_depth[i])
			return;
		WRITE_ONCE(bs_track_pid[i], 0);
		atomic_dec(&bs_nr_tracked);
		return;
	}
}

static bool bs_tracked(pid_t pid)
{
	unsigned int i;

	if (!pid)
		return false;
	for (i = 0; i < BS_SCHED_TRACKED; i++)
		if (READ_ONCE(bs_track_pid[i]) == pid)
			return true;
	return false;
}

static struct bs_sched_ev *bs_claim(u64 now, u8 kind)
{
	unsigned int i = atomic_fetch_inc(&bs_ev_next);
	struct bs_sched_ev *e;

	if (i >= BS_SCHED_MAX) {
		bs_lose(now);
		return NULL;
	}
	e = &bs_ev[i];
	e->kind = kind;
	e->cpu = raw_smp_processor_id();
	e->cur = task_pid_nr(current);
	return e;
}

static void bs_publish(struct bs_sched_ev *e, u64 now)
{
	/* Pairs with the acquire in bs_sched_open(): skip unfilled ones. */
	smp_store_release(&e->t, now);
}

static void bs_probe_sched_switch(void *data, bool preempt,
				  struct task_struct *prev,
				  struct task_struct *next,
				  unsigned int prev_state)
{
	u64 now = bs_read_counter();
	struct bs_sched_ev *e;
	bool out;
	u32 f;

	if (!atomic_read(&bs_nr_tracked))
		return;
	out = bs_tracked(task_pid_nr(prev));
	if (!out && !bs_tracked(task_pid_nr(next)))
		return;
	e = bs_claim(now, BS_EV_SWITCH);
	if (!e)
		return;
	e->prev = task_pid_nr(prev);
	e->next = task_pid_nr(next);
	e->preempt = preempt;
	e->state = preempt ? 'R' :
		task_index_to_char(__task_state_index(prev_state,
						      prev->exit_state));
	e->nr_frames = 0;
	/* Where a followed task sleeps; skip this probe's own frame. */
	if (out && e->state != 'R') {
		f = atomic_fetch_add(BS_SCHED_FRAMES, &bs_frames_next);
		if (f <= (BS_SCHED_MAX_STACKS - 1) * BS_SCHED_FRAMES) {
			e->frame = f;
			e->nr_frames = stack_trace_save(&bs_frames[f],
							BS_SCHED_FRAMES, 1);
		}
	}
	bs_publish(e, now);
}

static void bs_probe_sched_waking(void *data, struct task_struct *p)
{
	u64 now = bs_read_counter();
	struct bs_sched_ev *e;

	if (!atomic_read(&bs_nr_tracked) || !bs_tracked(task_pid_nr(p)))
		return;
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
	unsigned int		kernel_dropped;
	u64			kernel_last;	/* LOST lines after this */
	u64			lost_at;	/* ours; 0: none */
	u64			to;
	struct bs_sched_line	lines[];
};

static int bs_line_cmp(const void *a, const void *b)
{
	const struct bs_sched_line *x = a, *y = b;

	if (x->t != y->t)
		return x->t < y->t ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

static void bs_show_lost(struct seq_file *m, unsigned int n)
{
	unsigned int cpu;

	for_each_possible_cpu(cpu)
		seq_printf(m, "CPU:%u [LOST %u EVENTS]\n", cpu, n);
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
		seq_printf(m, " => %pS\n", (void *)frames[i]);
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

static int bs_sched_show(struct seq_file *m, void *v)
{
	const struct bs_sched_file *f = m->private;
	bool kernel_lost = f->kernel_dropped, lost = f->lost_at;
	unsigned int i;

	seq_puts(m, "# tracer: bootstamp sched events, counter ticks\n");
	seq_printf(m, "# sched: %s\n", bs_sched_why);
	seq_printf(m, "# recording from: %llu to: %llu\n", bs_sched_from,
		   f->to);
	for (i = 0; i < f->nr; i++) {
		const struct bs_sched_line *l = &f->lines[i];

		if (kernel_lost && !l->kernel && l->t > f->kernel_last) {
			bs_show_lost(m, f->kernel_dropped);
			kernel_lost = false;
		}
		if (lost && !l->kernel && l->t >= f->lost_at) {
			bs_show_lost(m, 0);
			lost = false;
		}
		bs_show_line(m, l);
	}
	if (kernel_lost)
		bs_show_lost(m, f->kernel_dropped);
	if (lost)
		bs_show_lost(m, 0);
	return 0;
}

static int bs_sched_open(struct inode *inode, struct file *file)
{
	unsigned int nk = bs_log_nr_sched(), i, n = 0;
	unsigned int no = bs_ev ? min_t(unsigned int,
					atomic_read(&bs_ev_next),
					BS_SCHED_MAX) : 0;
	struct bs_sched_file *f;
	struct bs_log_sched k;
	int ret;

	f = kvzalloc(struct_size(f, lines, nk + no), GFP_KERNEL);
	if (!f)
		return -ENOMEM;
	/* Without our probes the cover ends with the kernel's, at init. */
	f->to = bs_sched_on ? bs_read_counter() :
		bs_log_nr_sched() ? bs_log_milestone(BS_INIT_EXEC) : 0;
	for (i = 0; i < nk; i++) {
		if (!bs_log_sched(i, &k))
			continue;
		f->lines[n++] = (struct bs_sched_line){ k.t, i, true };
		f->kernel_last = max(f->kernel_last, k.t);
	}
	f->kernel_dropped = bs_log_sched_dropped();
	for (i = 0; i < no; i++) {
		/* Pairs with bs_publish(): the rest of the entry is set. */
		u64 t = smp_load_acquire(&bs_ev[i].t);

		if (t && t <= f->to)
			f->lines[n++] = (struct bs_sched_line){ t, i, false };
	}
	f->nr = n;
	f->lost_at = atomic64_read(&bs_lost_at);
	if (f->lost_at > f->to)
		f->lost_at = 0;
	sort(f->lines, n, sizeof(*f->lines), bs_line_cmp, NULL);

	ret = single_open_size(file, bs_sched_show, f,
			       PAGE_SIZE + (size_t)n * 160);
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
