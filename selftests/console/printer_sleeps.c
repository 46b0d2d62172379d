// SPDX-License-Identifier: GPL-2.0
/*
 * Does the console's printer thread sleep while the FIFO sends only when
 * the FIFO really filled (console patch 7)? A 64 KB burst to /dev/kmsg
 * after boot, then the sleeps of the thread ("pr/ttyAMA0") counted from a
 * kprobe on usleep_range_state(), where the printk core sleeps for the
 * driver (console patch 6): a kprobe event, so that no knob of the product
 * is needed. The boot's command line may create it already
 * (kprobe_event=p:bst_sleep/usleep,usleep_range_state), which also counts
 * the sleeps from fs_initcall to /init; else this test creates it.
 *
 * bst.printer_sleeps=0: QEMU's own PL011 (no slow-UART model), which sends
 * as fast as it is written to and never fills: no sleep at all, where a
 * thread that sleeps after every FIFO's worth written caps the console at
 * about 23 KB/s. bst.printer_sleeps=some: the slow-UART model, whose FIFO
 * fills, so the sleeping path is still taken. The burst must run while the
 * console's FIFO is on (a first close of /dev/ttyAMA0 turns it off): before
 * console_registered_once in the boot's list, and with console=tty1 last,
 * so that /dev/console is not the port.
 *
 * It prints how long the console took to go idle after the burst began
 * (burst_drain_ms), for scripts/bench/console-burst.sh; nothing here is
 * timed.
 */
#include <ctype.h>
#include <dirent.h>
#include <stdlib.h>

#include "kselftest.h"
#include "console.h"
#include "../lib/bst_time.h"
#include "../lib/bst_trace.h"

#define TRACING		"/sys/kernel/tracing"
#define SLEEP_EVENT	TRACING "/events/bst_sleep/usleep"
#define PRINTER		"pr/ttyAMA0"
#define BURST_BYTES	65536	/* bst.burst_bytes= may make it smaller */
#define RECORD_BYTES	64

/* The pid of the task called @comm, or 0. */
static int find_task(const char *comm)
{
	char path[300], name[32];
	struct dirent *d;
	int pid = 0;
	DIR *dir = opendir("/proc");
	FILE *f;

	if (!dir)
		return 0;
	while (!pid && (d = readdir(dir))) {
		if (!isdigit((unsigned char)d->d_name[0]))
			continue;
		snprintf(path, sizeof(path), "/proc/%s/comm", d->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fgets(name, sizeof(name), f) && !strcmp(strtok(name, "\n"), comm))
			pid = atoi(d->d_name);
		fclose(f);
	}
	closedir(dir);
	return pid;
}

/* The state letter of task @pid (/proc/PID/stat), or 0. */
static char task_state(int pid)
{
	char path[64], buf[256], *p;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	f = fopen(path, "r");
	if (!f)
		return 0;
	p = fgets(buf, sizeof(buf), f);
	fclose(f);
	p = p ? strrchr(buf, ')') : NULL;
	return p && p[1] == ' ' ? p[2] : 0;
}

/*
 * The console is idle when its printer thread waits for records (S, where
 * it sleeps for the FIFO in I) at ten looks 2 ms apart: the time of the
 * first of them, or 0 after 60 s.
 */
static double wait_printer_idle(int pid)
{
	double deadline = bst_now() + 60, since = 0;
	int idle = 0;

	while (idle < 10 && bst_now() < deadline) {
		if (task_state(pid) != 'S')
			idle = 0;
		else if (!idle++)
			since = bst_now();
		usleep(2000);
	}
	return idle >= 10 ? since : 0;
}

/* Lines of @trace written by a task called @comm, by any if @comm is "". */
static int count_task_lines(const char *trace, const char *comm)
{
	const char *line = trace;
	size_t n = strlen(comm);
	int count = 0;

	for (; line && *line; line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
		while (*line == ' ')
			line++;
		if (*line && *line != '\n' && *line != '#' &&
		    (!n || (!strncmp(line, comm, n) && line[n] == '-')))
			count++;
	}
	return count;
}

int main(void)
{
	const char *want = console_cmdline_param("bst.printer_sleeps");
	const char *size = console_cmdline_param("bst.burst_bytes");
	int records = (size ? atoi(size) : BURST_BYTES) / RECORD_BYTES;
	char record[2 * RECORD_BYTES];
	double start, idle;
	bool logged = true;
	int pid, fd, i, sleeps, err;
	char *trace;

	ksft_print_header();
	ksft_set_plan(3);
	if (!want || (strcmp(want, "0") && strcmp(want, "some")))
		ksft_exit_fail_msg("no bst.printer_sleeps=0|some on the command line\n");
	pid = find_task(PRINTER);
	if (!pid)
		ksft_exit_fail_msg("no printer thread %s\n", PRINTER);

	bst_tracefs(TRACING "/kprobe_events");
	err = bst_write_file(TRACING "/kprobe_events", "p:bst_sleep/usleep usleep_range_state");
	if (err && err != -EEXIST)	/* kprobe_event= made it */
		ksft_exit_fail_msg("kprobe on usleep_range_state: %s (CONFIG_KPROBE_EVENTS)\n",
				   strerror(-err));
	if (bst_write_file(SLEEP_EVENT "/enable", "1"))
		ksft_exit_fail_msg("%s/enable: %s\n", SLEEP_EVENT, strerror(errno));

	/* No rate limit on the burst, unless printk.devkmsg= locked one. */
	if (bst_write_file("/proc/sys/kernel/printk_devkmsg", "on\n"))
		ksft_exit_fail_msg("printk_devkmsg=on: %s (printk.devkmsg= given?)\n",
				   strerror(errno));
	fd = open("/dev/kmsg", O_WRONLY);
	if (fd < 0)
		ksft_exit_fail_msg("/dev/kmsg: %s\n", strerror(errno));
	start = bst_now();
	for (i = 0; i < records; i++) {
		/* 18 + 45 + 1: RECORD_BYTES */
		snprintf(record, sizeof(record), "<6>bst-burst %04d %-45.45s\n", i % 10000,
			 "0123456789abcdefghijklmnopqrstuvwxyz");
		if (write(fd, record, strlen(record)) < 0)
			logged = false;
	}
	close(fd);
	ksft_test_result(logged, "%d records of %d bytes written to /dev/kmsg\n",
			 records, RECORD_BYTES);

	idle = wait_printer_idle(pid);
	ksft_test_result(idle > 0, "console idle after the burst\n");
	if (idle > 0)
		ksft_print_msg("burst_drain_ms=%.1f\n", (idle - start) * 1000);

	/*
	 * Lost events can only hide sleeps: "none" needs a whole ring, "some"
	 * does not (the boot's ring is a page a CPU until tracefs is used).
	 */
	if (!strcmp(want, "0"))
		trace = bst_read_trace(TRACING "/trace");
	else
		trace = bst_read_all(TRACING "/trace", NULL);
	if (!trace)
		ksft_exit_fail_msg("no whole trace of %s\n", SLEEP_EVENT);
	sleeps = count_task_lines(trace, PRINTER);
	ksft_print_msg("%d events of %s in the trace, %d of %s\n",
		       count_task_lines(trace, ""), SLEEP_EVENT, sleeps, PRINTER);
	free(trace);
	if (!strcmp(want, "0"))
		ksft_test_result(!sleeps, "%s never slept for the FIFO (%d sleeps)\n",
				 PRINTER, sleeps);
	else
		ksft_test_result(sleeps > 0, "%s slept for the FIFO (%d sleeps)\n",
				 PRINTER, sleeps);
	ksft_finished();
}
