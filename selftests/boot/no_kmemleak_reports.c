// SPDX-License-Identifier: GPL-2.0
/*
 * Did anything the boot and the tests before this one ran leak memory in
 * the code this project changes or drives? The last program of every boot
 * of the debug kernel (kmemleak on, its automatic scan off so that scans
 * happen only here): it triggers two scans and fails on any unreferenced
 * object whose allocation backtrace has a frame of
 *   the bootstamp recorder and module, module loading and init (an
 *     unloaded module's own frames print as bare addresses), debugfs;
 *   the console series: printk, nbcon, console registration, amba-pl011
 *     (and the AMBA bus that probes it);
 *   the SD UHS-I series: the mmc core and block driver, sdhci.
 * Leaks whose backtrace has none of these are counted and the first shown,
 * not judged: they are not this project's code. A debug boot whose kernel
 * has no kmemleak file fails: the plan asked for a scan it cannot make.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "kselftest.h"
#include "../lib/bst_time.h"

/* The host's unit test (selftests/boot/tests) builds it with its own. */
#ifndef KMEMLEAK
#define KMEMLEAK	"/sys/kernel/debug/kmemleak"
#define KMEMLEAK_SCAN	KMEMLEAK
#define MIN_AGE		5.0
#endif
/*
 * mm/kmemleak.c reports an object only if it was allocated at least
 * MSECS_MIN_AGE (5 s) before the scan started, and only from a scan that
 * finds it unchanged since the scan before (the first one records its
 * checksum). Everything the earlier tests allocated predates this program,
 * so two scans, the second starting MIN_AGE + slack after this program
 * began, see all of it; the wait is only what is left of that after the
 * first scan (which itself takes seconds under KASAN).
 */
#define SLACK		1.0	/* jiffies vs CLOCK_MONOTONIC, rounding */
#define SHOW		3	/* reports printed in full, of each kind */

/* Substrings of the backtrace frames that are judged. */
static const char *const judged[] = {
	"bootstamp", "do_init_module", "load_module", "debugfs", "full_proxy",
	"printk", "nbcon", "console", "pl011", "amba",
	"mmc", "sdhci",
};

static const char *judged_frame(const char *line)
{
	size_t i;

	for (i = 0; i < sizeof(judged) / sizeof(judged[0]); i++)
		if (strstr(line, judged[i]))
			return judged[i];
	return NULL;
}

static int scan(void)
{
	int fd = open(KMEMLEAK_SCAN, O_WRONLY | O_CLOEXEC);
	int ret = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, "scan", 4) != 4)
		ret = -errno;
	close(fd);
	return ret;
}

struct report {
	char	text[4096];
	size_t	len;
	bool	in_trace;
	const char *why;	/* the judged substring a frame matched */
};

/* One report is complete: count it, and print it if among the first. */
static void report_done(struct report *r, int *objects, int *leaks)
{
	if (!r->len)
		return;
	(*objects)++;
	if (r->why && (*leaks)++ < SHOW)
		ksft_print_msg("judged (%s):\n%s", r->why, r->text);
	else if (!r->why && *objects - *leaks <= 1)
		ksft_print_msg("not judged:\n%s", r->text);
	r->len = 0;
	r->text[0] = '\0';
	r->in_trace = false;
	r->why = NULL;
}

int main(void)
{
	double t_start = bst_now(), wait;
	int objects = 0, leaks = 0, ret;
	static struct report r;
	char line[1024];
	FILE *f;

	ksft_print_header();
	if (access(KMEMLEAK, F_OK))
		ksft_exit_fail_msg("no %s: this boot is to scan for leaks, and the kernel cannot (CONFIG_DEBUG_KMEMLEAK)\n",
				   KMEMLEAK);
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
	ksft_print_msg("two scans in %.1f s\n", bst_now() - t_start);
	f = fopen(KMEMLEAK, "re");
	if (!f)
		ksft_exit_fail_msg("read %s: %s\n", KMEMLEAK, strerror(errno));
	/* "unreferenced object ...", comm, hex dump, "backtrace (crc ...):", frames. */
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "unreferenced object", 19))
			report_done(&r, &objects, &leaks);
		else if (!r.len)
			ksft_exit_fail_msg("%s: a line outside any report: %s", KMEMLEAK, line);
		if (r.in_trace && !r.why)
			r.why = judged_frame(line);
		if (strstr(line, "backtrace"))
			r.in_trace = true;
		r.len += snprintf(r.text + r.len, sizeof(r.text) - r.len, "%s", line);
		if (r.len >= sizeof(r.text))
			r.len = sizeof(r.text) - 1;
	}
	if (ferror(f))
		ksft_exit_fail_msg("read %s: %s\n", KMEMLEAK, strerror(errno));
	fclose(f);
	report_done(&r, &objects, &leaks);
	ksft_print_msg("kmemleak: %d unreferenced objects, %d with a judged frame\n", objects, leaks);
	ksft_test_result(!leaks, "no leak with a frame of bootstamp, module loading, debugfs, printk, nbcon, console, pl011, amba, mmc or sdhci\n");
	ksft_finished();
}
