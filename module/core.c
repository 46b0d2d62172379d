// SPDX-License-Identifier: GPL-2.0
/*
 * bootstamp: boot timestamps from the arm64 architected counter, in debugfs.
 *
 * A kernel built with CONFIG_BOOTSTAMP=y stamps the counter at kernel entry,
 * at boot milestones, around every built-in initcall and at each step of
 * CPU bring-up (<linux/bootstamp.h>). This module formats that log
 * ("full" mode). On any kernel it also records, from the moment it is
 * loaded, module initcalls and CPU hotplug bring-up from tracepoints
 * ("live" records); without the kernel log that is all it shows
 * ("live-only" mode). With CONFIG_KRETPROBES it also records every driver
 * probe call from load on (probes.c).
 *
 * Times are counter values converted exactly to nanoseconds. "since_cnt0"
 * counts from counter zero, so it includes whatever ran after the board
 * started its counter and before the kernel (before_entry says what is
 * known of it).
 * Every other time counts from the time base named in each file: kernel
 * entry in full mode, counter zero in live-only mode (or if the kernel has
 * no entry stamp).
 *
 * Files in /sys/kernel/debug/bootstamp/ (root only). Text files use one
 * convention: "# key: value" lines carry metadata, the one "#" line without
 * a colon names the columns, every other line is a row of whitespace
 * separated fields; "-" means "not recorded".
 *
 * summary (0400)
 *	Keys mode, counter, entry_counter, counter_raw_early, before_entry,
 *	freq_hz, freq_source, ns_per_tick, time_base, log, log_initcalls,
 *	log_capacity,
 *	log_dropped, live, live_initcalls, live_initcalls_dropped,
 *	live_cpu_sessions, live_cpu_dropped, probes, live_probes,
 *	live_probes_dropped, probe_cost_ns, sched, sched_cost_ns, marks,
 *	marks_max, marks_dropped,
 *	bytes_used, sync_counter, sync_monotonic_ns, sync_local_clock_ns,
 *	load_id ("live" is on, no-tracepoints or tracepoint-missing, "probes"
 *	on, no-kretprobes or register-failed: the module loads without them;
 *	probe_cost_ns what recording a probe call adds to it, measured at
 *	the first read of this file, "-" when probe calls are not recorded
 *	or the measurement failed; "sched" on, no-tracepoints,
 *	tracepoint-missing, no-memory or register-failed: whether the tasks
 *	of rows opened after load are followed, see the sched file;
 *	sched_cost_ns what that adds to the context switch of a task with
 *	no row, measured at the first read of this file, "-" when off);
 *	then "# milestone counter since_cnt0_ns since_entry_ns delta_ns"
 *	with the kernel's milestones, module_load (this module loaded) and
 *	mark:<name> rows, delta_ns to the previous recorded row.
 *
 *	The sync_* keys are the counter (raw ticks), ktime_get_ns()
 *	(CLOCK_MONOTONIC, the systemd journal's __MONOTONIC_TIMESTAMP) and
 *	local_clock() (printk's timestamps: dmesg, initcall_debug) read
 *	together with interrupts off while the summary is read. A time t
 *	in ns of clock X is at counter value
 *	  counter_at(t) = sync_counter - (sync_X_ns - t) * freq_hz / 1e9
 *	(the usual "since" columns are then counter_at(t) converted as
 *	any stamp). Both clocks run from the same counter on arm64, but
 *	CLOCK_MONOTONIC is slewed by NTP: take the summary close to t.
 *
 *	load_id is a random 64-bit number (16 hex digits) drawn at load and
 *	printed in the load message, so a kernel log can be matched to the
 *	load (and boot) a dump is of.
 *
 * initcalls (0400)
 *	"# level symbol module start_ns duration_ns ret cpu pid"
 *	Built-in initcalls (module "vmlinux", level early .. late) from the
 *	log, then module initcalls finished since load (level "module").
 *
 * cpus (0400)
 *	"# cpu source requested_ns entry_ns start_kernel_ns online_ns
 *	active_ns finished_ns ret entry_counter" with one "boot" row per CPU
 *	brought up during boot, from the log, then one "live" row per
 *	bring-up since load (entry and start_kernel from the kernel's stamps
 *	of that bring-up, in full mode only; the other points come from the
 *	nearest hotplug step, see live.c). entry_counter is the register the
 *	entry stamp read: CNTPCT_EL0 for a CPU entered at EL2, else
 *	CNTVCT_EL0.
 *
 * trace.json (0400)
 *	Chrome trace-event JSON for Perfetto or chrome://tracing: "X" events
 *	for bring-up phases on one thread per CPU (pid 1), for initcalls and
 *	finished probe calls ("probe <device> (<driver>)") on one thread per
 *	task (pid 2), global "i" events for milestones and marks, ts/dur in
 *	microseconds.
 *
 * probes (0400)
 *	"# device driver bus start_ns duration_ns ret async cpu pid" with
 *	one row per driver probe call (really_probe(), what initcall_debug
 *	prints as "probe of X returned R after N usecs") since load, keys
 *	time_base, probes and live_probes_dropped. ret is a negative
 *	errno or 0 (-517: deferred; each attempt is a row), async "yes"
 *	on an async probing worker, cpu and pid where the probe started;
 *	duration_ns and ret are "-" while the probe runs. Names are cut to
 *	63/47/23 characters; '?' replaces '"', '\\', spaces and anything
 *	else but printable ASCII. No rows without CONFIG_KRETPROBES
 *	("# probes: no-kretprobes"). Built-in drivers that probed before
 *	the module loaded are in dmesg with initcall_debug only.
 *
 * bootgraph (0400)
 *	initcall_debug style lines for scripts/bootgraph.pl:
 *	"[    0.123456] calling  fn+0x0/0x0 @ 1" and
 *	"[    0.123789] initcall fn+0x0/0x0 returned 0 after 333 usecs".
 *
 * sched (0400)
 *	The scheduler's events that split each row into on-CPU, runnable and
 *	blocked, in the line format of ftrace's trace file with counter
 *	ticks: in full mode the kernel's switches and wake-ups of PID 1 until
 *	init (built-in initcalls, boot CPU bring-ups), then those of each
 *	task while it has a module initcall or probe row open, with a stack
 *	at each switch-out to sleep; "# recording from: A to: B" says what
 *	they cover, "# hole:" lines where some were not kept. See sched.c.
 *
 * mark (0200)
 *	Write a name to stamp it: 1 to 32 characters from [A-Za-z0-9._-],
 *	one trailing newline allowed, else -EINVAL; -ENOSPC after 64 marks.
 *	  echo rootfs-mounted > /sys/kernel/debug/bootstamp/mark
 *
 * Parameter freq_hz (decimal, or hex with 0x) overrides the counter rate:
 * by default the rate the kernel's clocksource uses, from the log, or
 * CNTFRQ_EL0 without one.
 */
#include "internal.h"

#include <linux/ctype.h>
#include <linux/debugfs.h>
#include <linux/efi.h>
#include <linux/gcd.h>
#include <linux/kallsyms.h>
#include <linux/moduleparam.h>
#include <linux/random.h>
#include <linux/string.h>

struct bs_clock bs_clock;
u64 bs_load_stamp;
u64 bs_load_id;

static unsigned int bs_freq_param;
static struct dentry *bs_dir;

/*
 * Decimal, or hexadecimal after "0x": a leading 0 is not octal here, and
 * neither a sign nor a second "0x" (which kstrtouint() would take) passes.
 */
static int bs_parse_freq(const char *val, unsigned int *f)
{
	unsigned int base = 10;

	if (!strncmp(val, "0x", 2)) {
		base = 16;
		val += 2;
	}
	if (base == 16 ? !isxdigit(*val) || !strncasecmp(val, "0x", 2) :
			 !isdigit(*val))
		return -EINVAL;
	return kstrtouint(val, base, f);
}

static int bs_freq_set(const char *val, const struct kernel_param *kp)
{
	unsigned int f;
	int ret;

	ret = bs_parse_freq(val, &f);
	if (ret || !f) {
		pr_err("freq_hz=%s is invalid: give the counter frequency in Hz (decimal or 0x hex), or omit it to use the kernel's\n",
		       val);
		return -EINVAL;
	}
	*(unsigned int *)kp->arg = f;
	return 0;
}

static const struct kernel_param_ops bs_freq_ops = {
	.set	= bs_freq_set,
	.get	= param_get_uint,
};

module_param_cb(freq_hz, &bs_freq_ops, &bs_freq_param, 0444);
MODULE_PARM_DESC(freq_hz, "Counter frequency in Hz, decimal or 0x hex (reads 0 when not given: the kernel's rate, or CNTFRQ_EL0 without its log)");

const char *const bs_milestone_names[BS_NR_MILESTONES] = {
	[BS_KERNEL_ENTRY]	= "kernel_entry",
	[BS_START_KERNEL]	= "start_kernel",
	[BS_TIME_INIT]		= "time_init",
	[BS_LEVEL_EARLY]	= "level_early",
	[BS_LEVEL_PURE]		= "level_pure",
	[BS_LEVEL_CORE]		= "level_core",
	[BS_LEVEL_POSTCORE]	= "level_postcore",
	[BS_LEVEL_ARCH]		= "level_arch",
	[BS_LEVEL_SUBSYS]	= "level_subsys",
	[BS_LEVEL_FS]		= "level_fs",
	[BS_LEVEL_DEVICE]	= "level_device",
	[BS_LEVEL_LATE]		= "level_late",
	[BS_SMP_INIT]		= "smp_init",
	[BS_SCHED_INIT_SMP]	= "sched_init_smp",
	[BS_FREE_INITMEM]	= "free_initmem",
	[BS_INIT_EXEC]		= "init_exec",
};

const char *const bs_cpu_point_names[BS_CPU_NR_POINTS] = {
	[BS_CPU_REQUESTED]	= "requested",
	[BS_CPU_ENTRY]		= "entry",
	[BS_CPU_START_KERNEL]	= "start_kernel",
	[BS_CPU_ONLINE]		= "online",
	[BS_CPU_ACTIVE]		= "active",
	[BS_CPU_FINISHED]	= "finished",
};

static const char *const bs_level_names[] = {
	"early", "pure", "core", "postcore", "arch", "subsys", "fs", "device",
	"late",
};

/**
 * bs_level_name() - name of an initcall level
 * @level: 0 (early) .. 8 (late), BS_LEVEL_CONSOLE or BS_LEVEL_MODULE
 *
 * Return: a static string, "unknown" if out of range.
 */
const char *bs_level_name(u8 level)
{
	if (level == BS_LEVEL_MODULE)
		return "module";
	if (level == BS_LEVEL_CONSOLE)
		return "console";
	if (level < ARRAY_SIZE(bs_level_names))
		return bs_level_names[level];
	return "unknown";
}

/**
 * bs_entry_counter_name() - the counter an entry stamp was read from
 * @physical: read at EL2, from the physical count
 *
 * Return: "CNTPCT_EL0" or "CNTVCT_EL0".
 */
const char *bs_entry_counter_name(bool physical)
{
	return physical ? "CNTPCT_EL0" : "CNTVCT_EL0";
}

/**
 * bs_before_entry() - what ran between counter zero and kernel entry
 *
 * On an EFI boot the firmware ran before the kernel, and the EFI stub (and
 * with EFI_ZBOOT the decompressor) runs before the kernel's own entry
 * point: it is not firmware time. Otherwise nothing tells what ran before
 * the counter started: a board may start it after its firmware began (on
 * a Raspberry Pi 5 it is not known whether the VideoCore stage is
 * counted), so the stretch is only counter zero to entry.
 *
 * Return: a comma-separated list without spaces, or "unverified".
 */
const char *bs_before_entry(void)
{
	return efi_enabled(EFI_BOOT) ? "firmware,bootloader,efi_stub" :
				       "unverified";
}

/**
 * bs_time_base() - counter value that relative times count from
 *
 * Return: the kernel entry stamp in full mode, else 0 (counter zero).
 */
u64 bs_time_base(void)
{
	return bs_log_milestone(BS_KERNEL_ENTRY);
}

/**
 * bs_time_base_name() - what bs_time_base() stands for
 *
 * Return: "kernel_entry", or "counter_zero" without an entry stamp.
 */
const char *bs_time_base_name(void)
{
	return bs_time_base() ? "kernel_entry" : "counter_zero";
}

/**
 * bs_seq_ns() - print a stamp as nanoseconds since the time base
 * @m: output
 * @cyc: counter value, 0 for "not recorded" (printed as "-")
 */
void bs_seq_ns(struct seq_file *m, u64 cyc)
{
	if (cyc)
		seq_printf(m, "%llu", bs_rel_ns(cyc));
	else
		seq_putc(m, '-');
}

/**
 * bs_seq_sym() - print an initcall's symbol name, never an address
 * @m: output
 * @ic: the initcall
 *
 * Module initcalls carry the name resolved while their init text existed;
 * built-ins are resolved now. Without a symbol the name is "unknown".
 */
void bs_seq_sym(struct seq_file *m, const struct bs_initcall *ic)
{
	char buf[KSYM_NAME_LEN];
	char *sp;

	if (ic->sym) {
		seq_puts(m, ic->sym);
		return;
	}
	snprintf(buf, sizeof(buf), "%ps", ic->fn);
	sp = strchr(buf, ' ');
	if (sp)
		*sp = '\0';
	if (!IS_ENABLED(CONFIG_KALLSYMS) || !buf[0] || !strncmp(buf, "0x", 2))
		seq_puts(m, "unknown");
	else
		seq_puts(m, buf);
}

/* ---- multi-section seq_file ------------------------------------------ */

struct bs_iter {
	const struct bs_table	*t;
	unsigned int		count[BS_MAX_SECTIONS];
	unsigned int		sec;
	unsigned int		idx;
};

static void *bs_seek(struct seq_file *m, loff_t pos)
{
	struct bs_iter *it = m->private;
	unsigned int s;

	for (s = 0; s < it->t->nr; s++) {
		if (pos < it->count[s]) {
			it->sec = s;
			it->idx = pos;
			return it;
		}
		pos -= it->count[s];
	}
	return NULL;
}

static void *bs_seq_start(struct seq_file *m, loff_t *pos)
{
	return bs_seek(m, *pos);
}

static void *bs_seq_next(struct seq_file *m, void *v, loff_t *pos)
{
	++*pos;
	return bs_seek(m, *pos);
}

static void bs_seq_stop(struct seq_file *m, void *v)
{
}

static int bs_seq_show(struct seq_file *m, void *v)
{
	struct bs_iter *it = v;

	it->t->sec[it->sec].show(m, it->idx);
	return 0;
}

static const struct seq_operations bs_seq_ops = {
	.start	= bs_seq_start,
	.next	= bs_seq_next,
	.stop	= bs_seq_stop,
	.show	= bs_seq_show,
};

/* Row counts are taken once per open: each reader sees one snapshot. */
static int bs_table_open(struct inode *inode, struct file *file)
{
	const struct bs_table *t = inode->i_private;
	struct bs_iter *it;
	unsigned int s;

	it = __seq_open_private(file, &bs_seq_ops, sizeof(*it));
	if (!it)
		return -ENOMEM;
	it->t = t;
	for (s = 0; s < t->nr; s++)
		it->count[s] = t->sec[s].count ? t->sec[s].count() : 1;
	return 0;
}

const struct file_operations bs_table_fops = {
	.owner		= THIS_MODULE,
	.open		= bs_table_open,
	.read		= seq_read,
	.llseek		= seq_lseek,
	.release	= seq_release_private,
};

/* ---- init / exit ----------------------------------------------------- */

static int __init bs_clock_init(void)
{
	const char *reg;
	u32 f, log_f, g;
	bool raw_early;

	/*
	 * The kernel's log names its counter and the rate its clocksource
	 * uses (a DT clock-frequency overrides CNTFRQ_EL0). Without it: with
	 * a hypervisor mode Linux cleared CNTVOFF_EL2, so CNTVCT_EL0 counts
	 * like CNTPCT_EL0 whichever the arch timer reads.
	 */
	reg = bs_log_counter(&log_f, &raw_early);
	bs_clock.reg = reg ?: "CNTVCT_EL0";
	bs_clock.raw_early = raw_early;

	if (bs_freq_param) {
		f = bs_freq_param;
		bs_clock.freq_source = "freq_hz";
	} else if (log_f) {
		f = log_f;
		bs_clock.freq_source = "kernel";
	} else {
		f = arch_timer_get_cntfrq();
		bs_clock.freq_source = "CNTFRQ_EL0";
	}
	if (!f) {
		pr_err("CNTFRQ_EL0 is 0: load with freq_hz=<counter frequency in Hz>\n");
		return -EINVAL;
	}
	g = gcd(NSEC_PER_SEC, f);
	bs_clock.freq_hz = f;
	bs_clock.mult = NSEC_PER_SEC / g;
	bs_clock.div = f / g;
	return 0;
}

static void __init bs_debugfs_init(void)
{
	bs_dir = debugfs_create_dir("bootstamp", NULL);
	debugfs_create_file("summary", 0400, bs_dir,
			    (void *)&bs_summary_table, &bs_table_fops);
	debugfs_create_file("initcalls", 0400, bs_dir,
			    (void *)&bs_initcalls_table, &bs_table_fops);
	debugfs_create_file("cpus", 0400, bs_dir, (void *)&bs_cpus_table,
			    &bs_table_fops);
	debugfs_create_file("trace.json", 0400, bs_dir,
			    (void *)&bs_json_table, &bs_table_fops);
	debugfs_create_file("bootgraph", 0400, bs_dir,
			    (void *)&bs_bootgraph_table, &bs_table_fops);
	debugfs_create_file("probes", 0400, bs_dir,
			    (void *)&bs_probes_table, &bs_table_fops);
	debugfs_create_file("mark", 0200, bs_dir, NULL, &bs_mark_fops);
	debugfs_create_file("sched", 0400, bs_dir, NULL, &bs_sched_fops);
}

static int __init bootstamp_init(void)
{
	int ret;

	bs_load_stamp = bs_read_counter();
	bs_load_id = get_random_u64();

	ret = bs_log_init();
	if (ret)
		return ret;

	ret = bs_clock_init();
	if (ret)
		goto err_log;

	/* Before the rows can start: each row's task is followed from its start. */
	bs_sched_init();
	ret = bs_live_init();
	if (ret)
		goto err_sched;

	bs_probes_init();
	bs_debugfs_init();
	/*
	 * The load id (also summary's load_id) ties a kernel log to the dump
	 * of this load: bootreport --dmesg takes the probes of a log only
	 * from the boot that printed it. The counter beside the printk time
	 * lets it check the summary's clock sync keys.
	 */
	pr_info("%s mode, %s at %u Hz, load %016llx at counter %llu\n",
		bs_log_present() ? "full" : "live-only", bs_clock.reg,
		bs_clock.freq_hz, bs_load_id, bs_read_counter());
	return 0;

err_sched:
	bs_sched_exit();
err_log:
	bs_log_exit();
	return ret;
}

static void __exit bootstamp_exit(void)
{
	/* Waits for readers and writers; no file operation runs after it. */
	debugfs_remove(bs_dir);
	bs_probes_exit();
	bs_live_exit();
	bs_sched_exit();
	bs_log_exit();
}

module_init(bootstamp_init);
module_exit(bootstamp_exit);

MODULE_DESCRIPTION("Boot timestamps from the arm64 architected counter");
MODULE_LICENSE("GPL");
