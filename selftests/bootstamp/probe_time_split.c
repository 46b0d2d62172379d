// SPDX-License-Identifier: GPL-2.0
/*
 * Where did a probe's time go? Loads the test-only module bst_attr
 * (selftests/bootstamp/modules/bst_attr.c), whose probe defers once, then
 * sleeps 50 ms (msleep in bst_attr_sleep), spins 20 ms and waits on a
 * completion that a kthread signals after 30 ms (bst_attr_wait). The
 * module follows the probe's task from the scheduler's tracepoints (its
 * sched file); a boot with trace_clock= on the command line traces the
 * scheduler with ftrace instead (trace_event=sched:sched_switch,
 * sched:sched_waking and a stack for each switch-out that sleeps:
 * trace_trigger="sched_switch.stacktrace if prev_state & 255"). This
 * program waits for the retry to bind, stops the trace if there is one and
 * copies into DUMP_DIR (the boot's bst.dump=) the module's debugfs files,
 * the trace (sched.trace) and its clock, and the probe's own measurement
 * of its parts (bst_attr.log, the kernel log line). The host judges the
 * dump with scripts/report/bootreport (selftests/bootreport/host-check):
 * that is the test of the attribution; here only what the guest can tell:
 * the load, the deferral and retry, events that lost nothing.
 */
#include "bootstamp_test.h"
#include "../lib/bst_trace.h"

#include <sys/stat.h>

#define ATTR_KO		"/lib/modules/bst_attr.ko"
#define TRACEFS		"/sys/kernel/tracing"
#define DUMP_DIR	"/tmp/bst-attr"
#define BIND_WAIT_MS	10000

/*
 * Has bst-attr's probe returned 0? Its probes row then has a return value
 * (the driver link of sysfs appears before the probe runs, so it does not
 * tell).
 */
static bool attr_bound(void)
{
	char *text = bst_read("probes");
	struct bst_table t;
	int i, c_dev, c_ret;
	bool bound = false;

	bst_parse(text, &t);
	c_dev = bst_col(&t, "device");
	c_ret = bst_col(&t, "ret");
	for (i = 0; i < t.nrows; i++) {
		const struct bst_row *r = &t.rows[i];

		if (r->n > c_ret && !strcmp(r->f[c_dev], "bst-attr") && !strcmp(r->f[c_ret], "0"))
			bound = true;
	}
	bst_table_free(&t);
	free(text);
	return bound;
}

int main(void)
{
	char *summary, *trace = NULL, *clock = NULL, *line, *cmdline, *want, sel[64];
	int fd, waited, n, err;

	ksft_print_header();
	ksft_set_plan(4);
	bst_need_module();
	summary = bst_read("summary");
	if (strcmp(bst_key(summary, "probes") ?: "", "on"))
		ksft_exit_skip("the module records no probes on this kernel (no kretprobes)\n");
	/*
	 * ftrace when the command line asks for a trace clock: arm64-counter
	 * with the series, local or mono in live mode (a kernel without it),
	 * which bootreport places through the summary's sync keys.
	 */
	cmdline = bst_slurp(BST_CMDLINE);
	want = cmdline ? strstr(cmdline, "trace_clock=") : NULL;
	if (want) {
		bst_tracefs(TRACEFS "/trace");
		clock = bst_read_all(TRACEFS "/trace_clock", NULL);
		if (!clock)
			ksft_exit_fail_msg("read %s/trace_clock: %s\n", TRACEFS,
					   strerror(errno));
		snprintf(sel, sizeof(sel), "[%.*s]", (int)strcspn(want + 12, "\t\n "), want + 12);
		if (!strstr(clock, sel))
			ksft_exit_fail_msg("trace clock is not %s: %s", sel, clock);
	} else if (strcmp(bst_key(summary, "sched") ?: "", "on")) {
		ksft_exit_fail_msg("the module follows no task's scheduler events: sched %s\n",
				   bst_key(summary, "sched") ?: "(no key)");
	}
	free(cmdline);

	fd = open(ATTR_KO, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || syscall(SYS_finit_module, fd, "", 0))
		ksft_exit_fail_msg("load %s: %s\n", ATTR_KO, strerror(errno));
	close(fd);
	ksft_test_result_pass("loaded %s\n", ATTR_KO);

	for (waited = 0; !attr_bound() && waited < BIND_WAIT_MS; waited += 50)
		usleep(50000);
	ksft_test_result(attr_bound(),
			 "bst-attr bound on its retry (%d ms after the load)\n", waited);
	/* Logged from a work item after the probe returned: wait for it. */
	for (waited = 0; !(line = bst_kmsg_find("bst-attr: try 2:")) && waited < BIND_WAIT_MS;
	     waited += 50)
		usleep(50000);
	ksft_test_result(!!line, "the probe logged its parts: %s\n", line ?: "(none)");

	if (clock) {
		/* Stop the ring so that the copy is one consistent trace. */
		err = bst_write_file(TRACEFS "/tracing_on", "0");
		if (err)
			ksft_exit_fail_msg("stop the trace: %s\n", strerror(-err));
		trace = bst_read_trace(TRACEFS "/trace");
	} else {
		/* The module's own events; a LOST line would leave rows unsplit. */
		trace = bst_read("sched");
		if (trace && strstr(trace, "[LOST")) {
			free(trace);
			trace = NULL;
		}
	}
	if (mkdir(DUMP_DIR, 0755) && errno != EEXIST)
		ksft_exit_fail_msg("mkdir %s: %s\n", DUMP_DIR, strerror(errno));
	n = bst_save_dir(BST_DIR, DUMP_DIR);
	err = (n < 0) ? n : 0;
	if (!err && clock && trace)
		err = bst_save(DUMP_DIR, "sched.trace", trace, strlen(trace));
	if (!err && clock)
		err = bst_save(DUMP_DIR, "trace_clock", clock, strlen(clock));
	if (!err && line) {
		char buf[512];

		snprintf(buf, sizeof(buf), "%s\n", line);
		err = bst_save(DUMP_DIR, "bst_attr.log", buf, strlen(buf));
	}
	ksft_test_result(trace && !err,
			 "the %s kept every event and went to %s with %d bootstamp files: %s\n",
			 clock ? "trace" : "module's sched file", DUMP_DIR, n,
			 err ? strerror(-err) : "ok");
	free(trace);
	free(line);
	free(clock);
	free(summary);
	ksft_finished();
}
