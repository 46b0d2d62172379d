/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Test-only modules for bootstamp's parallel_module_inits: an init that
 * sleeps, so that modules loaded side by side overlap in time, as udev's
 * parallel loads do on a board. Built three times under three names
 * (bst_sleep_a.c, _b.c, _c.c each include this), since a module cannot be
 * loaded twice under one name.
 */
#include <linux/delay.h>
#include <linux/module.h>

static unsigned int sleep_ms = 40;
module_param(sleep_ms, uint, 0444);
MODULE_PARM_DESC(sleep_ms, "how long the init sleeps (ms)");

/*
 * An hrtimer sleep, not msleep(): msleep() counts jiffies, which lag the
 * counter when a tick comes late (NO_HZ, a vCPU the host did not run), so
 * it can end a little before sleep_ms of counter time (39.98 ms for 40
 * was seen), and the test checks the row against sleep_ms.
 */
static int __init bst_sleep_init(void)
{
	usleep_range(sleep_ms * USEC_PER_MSEC, sleep_ms * USEC_PER_MSEC + 1000);
	return 0;
}
module_init(bst_sleep_init);

MODULE_DESCRIPTION("bootstamp test: a module whose init sleeps");
MODULE_LICENSE("GPL");
