// SPDX-License-Identifier: GPL-2.0
/*
 * Boot-time tracing with the arm64-counter trace clock against the kernel's
 * own boot stamps (/sys/kernel/debug/boot_stamps, raw counter values). The
 * boot runs with
 *   trace_clock=arm64-counter trace_event=initcall:initcall_start,initcall:initcall_finish
 * so every built-in initcall has a start and a finish event stamped with
 * the same counter, from before the first initcall. The recorder's start
 * probe runs after the trace event's and its finish probe before, so for
 * each built-in initcall in boot_stamps:
 *   trace start <= recorder start <= recorder end <= trace finish
 * exactly, in counter ticks. That holds only if the trace clock reads the
 * recorder's counter; a clock in nanoseconds or another counter breaks it
 * within the first initcalls. Needs CONFIG_BOOTSTAMP (full mode).
 */
#include "bootstamp_test.h"

#include <sys/mount.h>

#define TRACEFS		"/sys/kernel/tracing"
#define BOOT_STAMPS	"/sys/kernel/debug/boot_stamps"
#define MAX_EV		8192

struct ev {
	char			sym[128];
	unsigned long long	t;
	bool			start;
};

static struct ev evs[MAX_EV];

/* "  swapper/0-1  [000] .....  123456: initcall_start: func=fn+0x0/0x24" */
static int parse_trace(char *text)
{
	char *line, *save, *p, *f;
	int n = 0;

	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		bool start = strstr(line, ": initcall_start: ");

		if (line[0] == '#' || (!start && !strstr(line, ": initcall_finish: ")))
			continue;
		p = strstr(line, start ? ": initcall_start: " : ": initcall_finish: ");
		*p = '\0';
		f = strrchr(line, ' ');
		if (!f || n == MAX_EV)
			ksft_exit_fail_msg("cannot read trace line (or more than %d events)\n", MAX_EV);
		evs[n].t = strtoull(f + 1, NULL, 10);
		evs[n].start = start;
		f = strstr(p + 1, "func=");
		if (!f)
			continue;
		snprintf(evs[n].sym, sizeof(evs[n].sym), "%.*s", (int)strcspn(f + 5, "+ "), f + 5);
		n++;
	}
	return n;
}

/* Next event of @sym after *i of the given kind; -1 if none. */
static int next_ev(int n, int *i, const char *sym, bool start)
{
	for (; *i < n; (*i)++)
		if (evs[*i].start == start && !strcmp(evs[*i].sym, sym))
			return (*i)++;
	return -1;
}

int main(void)
{
	int n, rows = 0, matched = 0, bad = 0, s, f, pos = 0;
	bool in_initcalls = false;
	char *stamps, *trace, *clock, *line, *save, *buf_kb;
	char *ctr;

	ksft_print_header();
	if (!strstr(bst_slurp("/proc/cmdline") ?: "", "trace_clock=arm64-counter"))
		ksft_exit_skip("boot without trace_clock=arm64-counter\n");
	if (strcmp(bst_expect("BOOTSTAMP"), "y"))
		ksft_exit_skip("this kernel keeps no boot log (built without CONFIG_BOOTSTAMP)\n");
	ksft_set_plan(4);

	stamps = bst_slurp(BOOT_STAMPS);
	if (!stamps)
		ksft_exit_fail_msg(BOOT_STAMPS ": %s\n", strerror(errno));
	/* bst_key() returns a buffer the next call reuses. */
	ctr = strdup(bst_key(stamps, "counter") ?: "(missing)");
	ksft_test_result(ctr && (!strcmp(ctr, "CNTVCT_EL0") || !strcmp(ctr, "CNTPCT_EL0")) &&
			 bst_key_num(stamps, "freq_hz") > 0,
			 BOOT_STAMPS " names the counter (%s) and its rate\n", ctr ?: "?");

	if (access(TRACEFS "/trace", R_OK) && mount("nodev", TRACEFS, "tracefs", 0, NULL))
		ksft_exit_fail_msg("mount tracefs: %s\n", strerror(errno));
	clock = bst_slurp(TRACEFS "/trace_clock");
	ksft_test_result(clock && strstr(clock, "[arm64-counter]"), "trace_clock is arm64-counter\n");
	trace = bst_slurp(TRACEFS "/trace");
	if (!trace)
		ksft_exit_fail_msg(TRACEFS "/trace: %s\n", strerror(errno));
	n = parse_trace(trace);
	buf_kb = bst_slurp(TRACEFS "/buffer_size_kb");
	/* For Documentation/admin-guide/bootstamp.rst: what each costs. */
	ksft_print_msg("%d initcall events in the trace; ring buffer %s kB per CPU; boot_stamps %s\n",
		       n, buf_kb ? strtok(buf_kb, "\n") : "?", bst_key(stamps, "initcalls") ?: "?");
	free(buf_kb);

	/* "level start end ret cpu initcall" rows, in the order they ran. */
	for (line = strtok_r(stamps, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		unsigned long long a, b;
		char lvl[16], sym[128];
		int ret, cpu;

		if (line[0] == '#') {
			in_initcalls = !strcmp(line, "# level start end ret cpu initcall");
			continue;
		}
		if (!in_initcalls ||
		    sscanf(line, "%15s %llu %llu %d %d %127s", lvl, &a, &b, &ret, &cpu, sym) != 6)
			continue;
		rows++;
		s = next_ev(n, &pos, sym, true);
		f = s < 0 ? -1 : next_ev(n, &pos, sym, false);
		if (f < 0)
			continue;
		matched++;
		if (!(evs[s].t <= a && a <= b && b <= evs[f].t)) {
			if (!bad++)
				ksft_print_msg("%s: trace %llu..%llu, boot_stamps %llu..%llu\n", sym,
					       evs[s].t, evs[f].t, a, b);
		}
	}
	ksft_test_result(rows > 0 && matched == rows,
			 "every built-in initcall of boot_stamps is in the trace (%d of %d)\n",
			 matched, rows);
	ksft_test_result(matched > 0 && !bad,
			 "trace start <= stamp start <= stamp end <= trace finish, in ticks (%d out of order)\n",
			 bad);
	free(stamps);
	free(trace);
	free(clock);
	free(ctr);
	ksft_finished();
}
