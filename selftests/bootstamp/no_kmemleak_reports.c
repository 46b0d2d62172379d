// SPDX-License-Identifier: GPL-2.0
/*
 * Did the tests before this one leak memory in bootstamp code? On a kernel
 * with kmemleak (the debug variant; auto-scan off so that scans happen only
 * here), trigger two scans and fail on any unreferenced object allocated
 * on the paths these tests drive: the recorder, module loading and init
 * (an unloaded module's own frames print as bare addresses, so its name
 * alone would miss its leaks) and debugfs files. Leaks elsewhere in the
 * kernel are counted and shown, not judged.
 */
#include "bootstamp_test.h"

#define KMEMLEAK	"/sys/kernel/debug/kmemleak"
/*
 * mm/kmemleak.c reports an object only if it was allocated at least
 * MSECS_MIN_AGE (5 s) before the scan started, and only from a scan that
 * finds it unchanged since the scan before (the first one records its
 * checksum). Everything the earlier tests allocated predates this program,
 * so two scans, the second starting MIN_AGE + slack after this program
 * began, see all of it; the wait is only what is left of that after the
 * first scan (which itself takes seconds under KASAN).
 */
#define MIN_AGE		5.0
#define SLACK		1.0	/* jiffies vs CLOCK_MONOTONIC, rounding */

static const char *const our_paths[] = {
	"bootstamp", "do_init_module", "load_module", "debugfs", "full_proxy",
};

static bool ours(const char *obj)
{
	size_t i;

	for (i = 0; i < BST_ARRAY_SIZE(our_paths); i++)
		if (strstr(obj, our_paths[i]))
			return true;
	return false;
}

static int scan(void)
{
	int fd = open(KMEMLEAK, O_WRONLY | O_CLOEXEC);
	int ret = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, "scan", 4) != 4)
		ret = -errno;
	close(fd);
	return ret;
}

int main(void)
{
	double t_start = bst_now(), wait;
	int objects = 0, leaks = 0, ret;
	char *report, *obj, *next;

	ksft_print_header();
	if (access(KMEMLEAK, F_OK))
		ksft_exit_skip("no %s: kernel without CONFIG_DEBUG_KMEMLEAK\n", KMEMLEAK);
	ksft_set_plan(1);
	ret = scan();
	if (!ret) {
		wait = t_start + MIN_AGE + SLACK - bst_now();
		if (wait > 0) {
			struct timespec ts = {
				.tv_sec = (time_t)wait,
				.tv_nsec = (long)((wait - (time_t)wait) * 1e9),
			};

			nanosleep(&ts, NULL);
		}
		ret = scan();
	}
	if (ret)
		ksft_exit_fail_msg("scan: %s\n", strerror(-ret));
	report = bst_slurp(KMEMLEAK);
	if (!report)
		ksft_exit_fail_msg("read %s: %s\n", KMEMLEAK, strerror(errno));
	/* Each report starts with "unreferenced object". */
	for (obj = strstr(report, "unreferenced object"); obj; obj = next) {
		next = strstr(obj + 1, "unreferenced object");
		if (next)
			next[-1] = '\0';
		objects++;
		if (ours(obj) && leaks++ < 3)
			ksft_print_msg("%s\n", obj);
	}
	ksft_print_msg("kmemleak: %d unreferenced objects, %d on module load, debugfs or bootstamp paths\n",
		       objects, leaks);
	ksft_test_result(!leaks, "no leak on module load, debugfs or bootstamp paths after the tests before this one\n");
	free(report);
	ksft_finished();
}
