// SPDX-License-Identifier: GPL-2.0
/*
 * bootstamp: driver probe calls recorded after load, the probes file.
 *
 * A kretprobe on really_probe() (drivers/base/dd.c: static, not inlined,
 * the function initcall_debug times as "probe of X returned R after N
 * usecs") sees every call that binds a device to a driver, whatever the
 * path: driver or device registration, deferred probe retries, sysfs
 * bind, async probing. The entry handler claims a slot, copies the
 * device, driver and bus names (the device may be gone by the time the
 * file is read) and stamps the counter last; the return handler stamps the
 * counter first and publishes the result. Probes run in parallel (async
 * probing, and nested probes of child devices), so the handlers only claim
 * slots with atomics (bs_slot_claim(), as live.c does) and publish a
 * record with release semantics; readers skip a slot until its names are
 * published, and print "-" for the end of a probe still running.
 *
 * really_probe() returns a driver's error as a positive value (so that
 * its callers tell it from their own); ret is shown as a negative errno
 * either way: -517 (-EPROBE_DEFER) for a deferred attempt, one row per
 * attempt.
 *
 * Without CONFIG_KRETPROBES the module loads, the file says so and has no
 * rows; the same if the kretprobe cannot be registered.
 *
 * What each recorded call costs the probe it times is measured when the
 * summary is first read (bs_probe_cost_measure()), not at load: arming and
 * disarming a kretprobe stops every CPU twice and waits for an RCU grace
 * period, which a load from the initramfs would add to the boot it times.
 */
#include "internal.h"

#include <linux/async.h>
#include <linux/ctype.h>
#include <linux/device.h>
#include <linux/kprobes.h>
#include <linux/sched.h>
#include <linux/smp.h>
#include <linux/sort.h>
#include <linux/string.h>

#define BS_PROBE_DEV_LEN	64
#define BS_PROBE_DRV_LEN	48
#define BS_PROBE_BUS_LEN	24

enum {
	BS_PROBE_CLAIMED,	/* slot claimed, names not published */
	BS_PROBE_RUNNING,	/* entry seen: names and start published */
	BS_PROBE_DONE,		/* return seen: end and ret published */
};

struct bs_live_probe {
	u64		start;
	u64		end;
	int		ret;
	pid_t		pid;
	unsigned int	cpu;
	bool		async;
	atomic_t	state;
	char		dev[BS_PROBE_DEV_LEN];
	char		drv[BS_PROBE_DRV_LEN];
	char		bus[BS_PROBE_BUS_LEN];
};

static struct bs_live_probe bs_pr[BS_MAX_LIVE_PROBES];
static atomic_t bs_pr_next = ATOMIC_INIT(0);
static atomic_t bs_pr_dropped = ATOMIC_INIT(0);

static const char *bs_probes_why = "no-kretprobes";
static u64 bs_probe_cost;	/* ns per recorded call, 0: not measured */

#ifdef CONFIG_KRETPROBES

/*
 * Names go into whitespace-separated columns and JSON strings: anything
 * but printable ASCII other than '"' and '\\' becomes '?', and a missing
 * or empty name "-". The kernel's isgraph() also accepts Latin-1 bytes,
 * which are not valid UTF-8 alone in JSON, and a UTF-8 name cut to the
 * buffer may end mid-character: hence isascii() too. Longer names are cut
 * to the buffer.
 */
static void bs_copy_name(char *dst, const char *src, size_t len)
{
	char *c;

	if (!src || !*src)
		src = "-";
	strscpy(dst, src, len);
	for (c = dst; *c; c++)
		if (!isascii(*c) || !isgraph(*c) || *c == '"' || *c == '\\')
			*c = '?';
}

/* The entry handler's work on a slot, also done by the cost measurement. */
static void bs_probe_start(struct bs_live_probe *r, const char *dev,
			   const char *drv, const char *bus)
{
	bs_copy_name(r->dev, dev, sizeof(r->dev));
	bs_copy_name(r->drv, drv, sizeof(r->drv));
	bs_copy_name(r->bus, bus, sizeof(r->bus));
	r->async = current_is_async();
	r->pid = task_pid_nr(current);
	r->cpu = raw_smp_processor_id();
	/* The scheduler events of this task say where the probe's time went. */
	bs_sched_enter();
	/* Last, so that the handler's work is not part of the duration. */
	r->start = bs_read_counter();
	atomic_set_release(&r->state, BS_PROBE_RUNNING);
}

/* The return handler's, likewise. */
static void bs_probe_end(struct bs_live_probe *r, u64 now, int ret)
{
	r->end = now;
	r->ret = ret > 0 ? -ret : ret;
	atomic_set_release(&r->state, BS_PROBE_DONE);
	bs_sched_leave();
}

static int bs_probe_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct device *dev = (void *)regs_get_kernel_argument(regs, 0);
	const struct device_driver *drv =
		(const void *)regs_get_kernel_argument(regs, 1);
	const struct bus_type *bus = dev->bus ?: drv->bus;
	int i;

	i = bs_slot_claim(&bs_pr_next, BS_MAX_LIVE_PROBES, &bs_pr_dropped);
	*(int *)ri->data = i;
	if (i < 0)
		return 1;	/* no slot: skip the return handler */
	bs_probe_start(&bs_pr[i], dev_name(dev), drv->name,
		       bus ? bus->name : NULL);
	return 0;
}

static int bs_probe_return(struct kretprobe_instance *ri,
			   struct pt_regs *regs)
{
	u64 now = bs_read_counter();

	bs_probe_end(&bs_pr[*(int *)ri->data], now,
		     (int)regs_return_value(regs));
	return 0;
}

static struct kretprobe bs_krp = {
	.kp.symbol_name	= "really_probe",
	.entry_handler	= bs_probe_entry,
	.handler	= bs_probe_return,
	.data_size	= sizeof(int),
};

static bool bs_krp_registered;

/*
 * What a recorded probe call costs, measured the way
 * scripts/bench/probe-cost.sh measures it from outside: the same call with
 * and without the kretprobe. bs_cost_probed() gets a kretprobe whose
 * handlers do what bs_probe_entry() and bs_probe_return() do (on a slot of
 * their own); bs_cost_plain() is a call without one. Each sample calls
 * both, interrupts off; the cost is the difference of the medians over
 * BS_COST_SAMPLES samples: the breakpoint exception, kprobes' and
 * rethook's work, the handlers and the return trampoline, on this CPU at
 * this clock, which no fixed number in the documentation can say for
 * every board. A probe that sleeps or migrates costs the same: the
 * handlers run once each.
 */
#define BS_COST_SAMPLES	31

static struct bs_live_probe bs_cost_slot;
static int bs_cost_sink;

/* A store each, so that the compiler keeps the calls; not alike. */
static noinline void bs_cost_probed(int x)
{
	WRITE_ONCE(bs_cost_sink, x + 1);
}

static noinline void bs_cost_plain(int x)
{
	WRITE_ONCE(bs_cost_sink, x + 2);
}

static int bs_cost_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	bs_probe_start(&bs_cost_slot, "bootstamp-cost", "bootstamp", "none");
	return 0;
}

static int bs_cost_return(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	u64 now = bs_read_counter();

	bs_probe_end(&bs_cost_slot, now, (int)regs_return_value(regs));
	return 0;
}

static int bs_cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

/* Used once, at the first summary read; static, as kretprobes usually are. */
static struct kretprobe bs_cost_krp = {
	.kp.addr	= (kprobe_opcode_t *)bs_cost_probed,
	.entry_handler	= bs_cost_entry,
	.handler	= bs_cost_return,
	.maxactive	= 1,
};

static void bs_probe_cost_measure(void)
{
	struct kretprobe *krp = &bs_cost_krp;
	u64 with[BS_COST_SAMPLES], without[BS_COST_SAMPLES];
	unsigned long flags;
	u64 t0, t1, t2;
	int i, ret;

	ret = register_kretprobe(krp);
	if (ret) {
		pr_warn("cannot measure the kretprobe's cost: %d\n", ret);
		return;
	}
	for (i = 0; i < BS_COST_SAMPLES; i++) {
		local_irq_save(flags);
		t0 = bs_read_counter();
		bs_cost_probed(i);
		t1 = bs_read_counter();
		bs_cost_plain(i);
		t2 = bs_read_counter();
		local_irq_restore(flags);
		with[i] = t1 - t0;
		without[i] = t2 - t1;
	}
	unregister_kretprobe(krp);
	/* Every call hit the kretprobe, or the figure means nothing. */
	if (krp->nmissed ||
	    atomic_read(&bs_cost_slot.state) != BS_PROBE_DONE)
		return;
	sort(with, BS_COST_SAMPLES, sizeof(with[0]), bs_cmp_u64, NULL);
	sort(without, BS_COST_SAMPLES, sizeof(without[0]), bs_cmp_u64, NULL);
	t1 = with[BS_COST_SAMPLES / 2];
	t2 = without[BS_COST_SAMPLES / 2];
	/* A hit that costs nothing is a failed measurement: 0, shown "-". */
	bs_probe_cost = t1 > t2 ? bs_cyc_to_ns(t1 - t2) : 0;
}

/**
 * bs_probes_init() - start recording driver probe calls
 *
 * A failure is not an error for the module: the probes file and the
 * summary then say "register-failed" (and the kernel log why).
 */
void bs_probes_init(void)
{
	int ret;

	/*
	 * Probes sleep, nest (a probe that adds child devices) and run in
	 * parallel on async workers, many more than one per CPU: an instance
	 * each, or the call is missed (counted in live_probes_dropped).
	 */
	bs_krp.maxactive = max_t(int, 128, 4 * num_possible_cpus());
	ret = register_kretprobe(&bs_krp);
	if (ret) {
		bs_probes_why = "register-failed";
		pr_warn("cannot attach a kretprobe to really_probe: %d: probe times off\n",
			ret);
		return;
	}
	bs_krp_registered = true;
	bs_probes_why = "on";
}

/**
 * bs_probes_exit() - detach the kretprobe and wait until no handler runs
 *
 * Probes still running when it returns do not call back into the module.
 */
void bs_probes_exit(void)
{
	if (!bs_krp_registered)
		return;
	unregister_kretprobe(&bs_krp);
	bs_krp_registered = false;
}

static unsigned int bs_probes_missed(void)
{
	return bs_krp_registered ? READ_ONCE(bs_krp.nmissed) : 0;
}

#else /* !CONFIG_KRETPROBES */

void bs_probes_init(void)
{
	pr_info("kernel has no kretprobes: probe times off\n");
}

void bs_probes_exit(void)
{
}

static unsigned int bs_probes_missed(void)
{
	return 0;
}

#endif /* CONFIG_KRETPROBES */

/**
 * bs_probes_state() - whether probe calls are recorded, and if not why
 *
 * Return: "on", "no-kretprobes" (kernel built without CONFIG_KRETPROBES)
 * or "register-failed".
 */
const char *bs_probes_state(void)
{
	return bs_probes_why;
}

/**
 * bs_probe_cost_ns() - what recording one probe call adds to it
 *
 * Measures it on the first call (process context: it sleeps), which the
 * summary's read makes; debugfs_remove() at unload waits for that read.
 *
 * Return: nanoseconds per call, or 0 if probe calls are not recorded or the
 * measurement failed.
 */
u64 bs_probe_cost_ns(void)
{
	static DEFINE_MUTEX(lock);
	static bool measured;

	mutex_lock(&lock);
	if (!measured && bs_krp_registered)
		bs_probe_cost_measure();
	measured = true;
	mutex_unlock(&lock);
	return bs_probe_cost;
}

/**
 * bs_live_nr_probes() - number of probe slots claimed
 *
 * Return: slot count; bs_live_probe() skips slots not yet published.
 */
unsigned int bs_live_nr_probes(void)
{
	return bs_slot_count(&bs_pr_next, BS_MAX_LIVE_PROBES);
}

/**
 * bs_live_probes_dropped() - probe calls not recorded
 *
 * Return: calls that found the buffer full, plus those the kretprobe
 * missed for want of an instance.
 */
unsigned int bs_live_probes_dropped(void)
{
	return atomic_read(&bs_pr_dropped) + bs_probes_missed();
}

/**
 * bs_live_probe() - copy one probe call
 * @i: slot index, below bs_live_nr_probes()
 * @p: filled in; its strings point into the slot and stay valid; end is 0
 *     (and ret 0) while the probe runs
 *
 * Return: false if the slot is not published yet.
 */
bool bs_live_probe(unsigned int i, struct bs_probe *p)
{
	const struct bs_live_probe *r;
	int state;

	if (i >= bs_live_nr_probes())
		return false;
	r = &bs_pr[i];
	state = atomic_read_acquire(&r->state);
	if (state == BS_PROBE_CLAIMED)
		return false;
	*p = (struct bs_probe) {
		.start	= r->start,
		.dev	= r->dev,
		.drv	= r->drv,
		.bus	= r->bus,
		.pid	= r->pid,
		.cpu	= r->cpu,
		.async	= r->async,
	};
	if (state == BS_PROBE_DONE) {
		p->end = r->end;
		p->ret = r->ret;
	}
	return true;
}

/**
 * bs_probes_bytes() - memory used by probe records
 *
 * Return: bytes of the slots claimed so far.
 */
size_t bs_probes_bytes(void)
{
	return bs_live_nr_probes() * sizeof(bs_pr[0]);
}

/* ---- the probes file ------------------------------------------------- */

static void bs_probes_header(struct seq_file *m, unsigned int idx)
{
	seq_printf(m, "# time_base: %s\n", bs_time_base_name());
	seq_printf(m, "# probes: %s\n", bs_probes_state());
	seq_printf(m, "# live_probes_dropped: %u\n", bs_live_probes_dropped());
	seq_puts(m, "# device driver bus start_ns duration_ns ret async cpu pid\n");
}

static void bs_probes_row(struct seq_file *m, unsigned int idx)
{
	struct bs_probe p;

	if (!bs_live_probe(idx, &p))
		return;
	seq_printf(m, "%s %s %s ", p.dev, p.drv, p.bus);
	bs_seq_ns(m, p.start);
	if (p.end >= p.start && p.end)
		seq_printf(m, " %llu %d", bs_cyc_to_ns(p.end - p.start), p.ret);
	else
		seq_puts(m, " - -");
	seq_printf(m, " %s %u %d\n", p.async ? "yes" : "no", p.cpu, p.pid);
}

static const struct bs_section bs_probes_sections[] = {
	{ NULL,			bs_probes_header },
	{ bs_live_nr_probes,	bs_probes_row },
};

const struct bs_table bs_probes_table = {
	.sec	= bs_probes_sections,
	.nr	= ARRAY_SIZE(bs_probes_sections),
};
