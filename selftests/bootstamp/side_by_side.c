// SPDX-License-Identifier: GPL-2.0
/*
 * The guest half of scripts/bench/side-by-side.sh: the same work after /init
 * whatever tool the boot's command line turned on, and whatever that tool
 * left, for the host to read as a user would. Loads the test-only module
 * bst_attr (selftests/bootstamp/modules/bst_attr.c: its probe defers once,
 * then sleeps 50 ms in bst_attr_sleep, spins 20 ms and waits 30 ms on a
 * completion in bst_attr_wait), waits for the driver's own account of the
 * retry (a kernel log line, logged after the probe), then copies into
 * DUMP_DIR (the boot's bst.dump=):
 *   dmesg         the kernel log as dmesg prints it (initcall_debug's lines,
 *                 the input of the tree's scripts/bootgraph.pl)
 *   sched.trace   the trace ring, stopped first, when the command line
 *   trace_clock   turned on trace events (boot-time ftrace)
 *   bootstamp's   summary, probes, ... when the module is loaded
 *   files         (bst.insmod=bootstamp.ko)
 *   bst_attr.log  the driver's account (the truth, not any tool's)
 * Nothing here is judged: the benchmark reports what each tool shows.
 */
#include "bootstamp_test.h"
#include "../lib/bst_trace.h"

#include <sys/klog.h>
#include <sys/stat.h>

#define ATTR_KO		"/lib/modules/bst_attr.ko"
#define TRACEFS		"/sys/kernel/tracing"
#define DUMP_DIR	"/tmp/sbs"
#define BIND_WAIT_MS	10000

/* The whole kernel log, "<level>[time] text" a line, as dmesg -r reads it. */
static int copy_dmesg(void)
{
	int size = klogctl(10 /* SYSLOG_ACTION_SIZE_BUFFER */, NULL, 0), n, err;
	char *buf;

	if (size <= 0)
		return -errno;
	buf = malloc(size);
	if (!buf)
		return -ENOMEM;
	n = klogctl(3 /* SYSLOG_ACTION_READ_ALL */, buf, size);
	err = n < 0 ? -errno : bst_save(DUMP_DIR, "dmesg", buf, n);
	free(buf);
	return err;
}

/* Were trace events turned on (trace_event= on the command line)? */
static bool tracing_events(void)
{
	char *set;
	bool on;

	bst_tracefs(TRACEFS "/set_event");
	set = bst_read_all(TRACEFS "/set_event", NULL);
	on = set && set[0];
	free(set);
	return on;
}

int main(void)
{
	char *line = NULL, *trace, *clock;
	int fd, waited, n, err;

	ksft_print_header();
	ksft_set_plan(4);

	fd = open(ATTR_KO, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || syscall(SYS_finit_module, fd, "", 0))
		ksft_exit_fail_msg("load %s: %s\n", ATTR_KO, strerror(errno));
	close(fd);
	/* Logged from a work item after the retry returned. */
	for (waited = 0; !(line = bst_kmsg_find("bst-attr: try 2:")) && waited < BIND_WAIT_MS;
	     waited += 50)
		usleep(50000);
	ksft_test_result(!!line, "bst_attr loaded, its probe retried and logged its parts: %s\n",
			 line ?: "(none)");
	if (mkdir(DUMP_DIR, 0755) && errno != EEXIST)
		ksft_exit_fail_msg("mkdir %s: %s\n", DUMP_DIR, strerror(errno));

	if (tracing_events()) {
		/* Stopped, so that the copy is one consistent trace. */
		err = bst_write_file(TRACEFS "/tracing_on", "0");
		trace = err ? NULL : bst_read_all(TRACEFS "/trace", NULL);
		clock = bst_read_all(TRACEFS "/trace_clock", NULL);
		err = trace && clock ? bst_save(DUMP_DIR, "sched.trace", trace, strlen(trace)) : -errno;
		if (!err)
			err = bst_save(DUMP_DIR, "trace_clock", clock, strlen(clock));
		ksft_test_result(!err && bst_trace_whole(trace, TRACEFS "/trace"),
				 "the trace, whole, and its clock copied: %s\n",
				 err ? strerror(-err) : "ok");
		free(trace);
		free(clock);
	} else {
		bst_skip("the trace", "no trace events on the command line");
	}

	n = bst_save_dir(BST_DIR, DUMP_DIR);
	if (n == -ENOENT)
		bst_skip("bootstamp's files", "the module is not loaded");
	else
		ksft_test_result(n > 0, "%d of bootstamp's files copied\n", n);

	err = copy_dmesg();
	if (!err && line) {
		char buf[512];

		n = snprintf(buf, sizeof(buf), "%s\n", line);
		err = bst_save(DUMP_DIR, "bst_attr.log", buf, n);
	}
	ksft_test_result(!err, "the kernel log and the driver's account copied: %s\n",
			 err ? strerror(-err) : "ok");
	free(line);
	ksft_finished();
}
