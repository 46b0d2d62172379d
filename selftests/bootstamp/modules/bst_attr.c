// SPDX-License-Identifier: GPL-2.0
/*
 * Test-only module for bootreport's attribution of a probe's time
 * (selftests/bootstamp/probe_time_split.c, judged by
 * selftests/bootreport/host-check): a platform device and driver whose
 * probe defers once (-EPROBE_DEFER on the first try), then on the retry
 * sleeps sleep_ms in bst_attr_sleep() (msleep), spins spin_ms (a busy
 * loop on ktime) and waits in bst_attr_wait() on a completion that a
 * kthread signals wait_ms after its wakeup. The retry is triggered by a
 * second device, bst-attr-kick, whose probe succeeds (a driver bound: the
 * deferred probes run again, on a workqueue). The probe measures each part itself
 * (ktime, and the scheduler's count of its CPU time) and a work item logs
 * it after the probe: the truth that the host compares the report with.
 */
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/kthread.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/module.h>
#include <linux/platform_device.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/sched/task.h>
#include <linux/workqueue.h>

#define BST_ATTR_NAME	"bst-attr"
#define BST_KICK_NAME	"bst-attr-kick"

static unsigned int sleep_ms = 50;
module_param(sleep_ms, uint, 0444);
MODULE_PARM_DESC(sleep_ms, "how long the probe sleeps in msleep (ms)");
static unsigned int spin_ms = 20;
module_param(spin_ms, uint, 0444);
MODULE_PARM_DESC(spin_ms, "how long the probe spins on the CPU (ms)");
static unsigned int wait_ms = 30;
module_param(wait_ms, uint, 0444);
MODULE_PARM_DESC(wait_ms, "after how long the kthread completes the probe's wait (ms)");

static struct platform_device *bst_attr_dev, *bst_kick_dev;
static struct task_struct *bst_attr_thread;
static DECLARE_COMPLETION(bst_attr_done);
static ktime_t bst_attr_signalled;	/* read after the wait: complete() orders it */
static unsigned int bst_attr_tries;

/* The retry's account, logged from a work item: not in the probe's time. */
static struct bst_attr_account {
	unsigned int	try;
	pid_t		pid;
	s64		sleep_us, spin_us, wait_us, woken_us;
	u64		sleep_cpu_us, woken_cpu_us, cpu_us;
} bst_attr_acct;

static void bst_attr_log(struct work_struct *work)
{
	const struct bst_attr_account *a = &bst_attr_acct;

	pr_info("bst-attr: try %u: pid %d sleep_us %lld sleep_cpu_us %llu spin_us %lld wait_us %lld woken_us %lld woken_cpu_us %llu cpu_us %llu\n",
		a->try, a->pid, a->sleep_us, a->sleep_cpu_us, a->spin_us, a->wait_us,
		a->woken_us, a->woken_cpu_us, a->cpu_us);
}

static DECLARE_WORK(bst_attr_log_work, bst_attr_log);

static noinline void bst_attr_sleep(void)
{
	msleep(sleep_ms);
}

/* Busy on the CPU for spin_ms of wall time (mdelay overshoots under TCG). */
static noinline void bst_attr_spin(void)
{
	ktime_t end = ktime_add_ms(ktime_get(), spin_ms);

	while (ktime_before(ktime_get(), end))
		cpu_relax();
}

static int bst_attr_signal(void *unused)
{
	msleep(wait_ms);
	bst_attr_signalled = ktime_get();
	complete(&bst_attr_done);
	return 0;
}

static noinline void bst_attr_wait(void)
{
	wake_up_process(bst_attr_thread);
	wait_for_completion(&bst_attr_done);
}

/*
 * The task's CPU time up to now, by the scheduler's count: what it had at
 * its last update plus the time since, as task_sched_runtime() (not
 * exported) reckons it. rq->clock_task is sched_clock(), as local_clock()
 * is, without IRQ or steal time accounting.
 */
static u64 bst_attr_runtime(void)
{
	s64 since = local_clock() - current->se.exec_start;

	return current->se.sum_exec_runtime + max_t(s64, since, 0);
}

/*
 * The retry: the three parts, with the signalling kthread created at load
 * (its creation would block the probe too). Their wall times come from
 * ktime: the wait's up to the kthread's complete() (wait_us), and from
 * there to the probe running again (woken_us); their CPU time from the
 * scheduler's count: in the sleep (sleep_cpu_us), from the spin's end to
 * the wait's end (woken_cpu_us: on the CPU after complete(), such as time
 * the host took from the guest's CPU) and in all three (cpu_us).
 */
static int bst_attr_probe(struct platform_device *pdev)
{
	ktime_t t0, t1, t2, t3;
	u64 run0, run1, run2, run3;

	if (++bst_attr_tries == 1) {
		dev_info(&pdev->dev, "try 1: deferred\n");
		return -EPROBE_DEFER;
	}
	if (bst_attr_tries > 2)
		return -EBUSY;	/* the kthread signals once */
	run0 = bst_attr_runtime();
	t0 = ktime_get();
	bst_attr_sleep();
	t1 = ktime_get();
	run1 = bst_attr_runtime();
	bst_attr_spin();
	run2 = bst_attr_runtime();
	t2 = ktime_get();
	bst_attr_wait();
	t3 = ktime_get();
	run3 = bst_attr_runtime();
	bst_attr_acct = (struct bst_attr_account) {
		.try		= bst_attr_tries,
		.pid		= task_pid_nr(current),
		.sleep_us	= ktime_us_delta(t1, t0),
		.sleep_cpu_us	= div_u64(run1 - run0, 1000),
		.spin_us	= ktime_us_delta(t2, t1),
		.wait_us	= ktime_us_delta(bst_attr_signalled, t2),
		.woken_us	= ktime_us_delta(t3, bst_attr_signalled),
		.woken_cpu_us	= div_u64(run3 - run2, 1000),
		.cpu_us		= div_u64(run3 - run0, 1000),
	};
	schedule_work(&bst_attr_log_work);
	return 0;
}

static int bst_kick_probe(struct platform_device *pdev)
{
	return 0;
}

static struct platform_driver bst_attr_driver = {
	.probe	= bst_attr_probe,
	.driver	= {
		.name	= BST_ATTR_NAME,
	},
};

static struct platform_driver bst_kick_driver = {
	.probe	= bst_kick_probe,
	.driver	= {
		.name	= BST_KICK_NAME,
	},
};

static void bst_attr_unregister(void)
{
	if (!IS_ERR_OR_NULL(bst_kick_dev))
		platform_device_unregister(bst_kick_dev);
	if (!IS_ERR_OR_NULL(bst_attr_dev))
		platform_device_unregister(bst_attr_dev);
}

static int __init bst_attr_init(void)
{
	int ret;

	/* Held until unload: the thread may have ended by then. */
	bst_attr_thread = kthread_create(bst_attr_signal, NULL, "bst_attr_signal");
	if (IS_ERR(bst_attr_thread))
		return PTR_ERR(bst_attr_thread);
	get_task_struct(bst_attr_thread);
	ret = platform_driver_register(&bst_attr_driver);
	if (ret)
		goto out_thread;
	ret = platform_driver_register(&bst_kick_driver);
	if (ret)
		goto out_attr;
	/* Probes at once, and defers. */
	bst_attr_dev = platform_device_register_simple(BST_ATTR_NAME, PLATFORM_DEVID_NONE,
						       NULL, 0);
	if (IS_ERR(bst_attr_dev)) {
		ret = PTR_ERR(bst_attr_dev);
		goto out_kick;
	}
	/* Binds, which runs the deferred probes again. */
	bst_kick_dev = platform_device_register_simple(BST_KICK_NAME, PLATFORM_DEVID_NONE,
						       NULL, 0);
	if (IS_ERR(bst_kick_dev)) {
		ret = PTR_ERR(bst_kick_dev);
		goto out_devs;
	}
	return 0;

out_devs:
	bst_attr_unregister();
out_kick:
	platform_driver_unregister(&bst_kick_driver);
out_attr:
	platform_driver_unregister(&bst_attr_driver);
out_thread:
	kthread_stop_put(bst_attr_thread);
	return ret;
}
module_init(bst_attr_init);

static void __exit bst_attr_exit(void)
{
	bst_attr_unregister();
	platform_driver_unregister(&bst_kick_driver);
	platform_driver_unregister(&bst_attr_driver);
	kthread_stop_put(bst_attr_thread);
	flush_work(&bst_attr_log_work);
}
module_exit(bst_attr_exit);

MODULE_DESCRIPTION("bootstamp test: a probe that defers, sleeps, spins and waits");
MODULE_LICENSE("GPL");
