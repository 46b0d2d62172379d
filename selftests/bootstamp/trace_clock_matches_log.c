// SPDX-License-Identifier: GPL-2.0
/*
 * Boot-time tracing with the arm64-counter trace clock against the kernel's
 * own boot stamps (/sys/kernel/debug/boot_stamps, raw counter values). The
 * boot runs with
 *   trace_clock=arm64-counter trace_event=initcall:initcall_start,initcall:initcall_finish
 * so every built-in initcall has a start and a finish event stamped with
 * the same counter, from before the first initcall. The recorder's start
 * probe runs after the trace event's and its finish probe before, with
 * nothing but the probe calls in between, so for each built-in initcall in
 * boot_stamps:
 *   trace start <= recorder start <= trace start + PROBE_TICKS
 *   trace finish - PROBE_TICKS <= recorder end <= trace finish
 * in counter ticks. That holds only if the trace clock reads the
 * recorder's counter (a clock in nanoseconds or another counter breaks it
 * within the first initcalls) and if both stamps are taken where they
 * belong: an end stamped at the start, or a duration of 0, is off by the
 * initcall's whole length.
 *
 * With cpuhp:cpuhp_enter,cpuhp:cpuhp_exit traced as well (a boot with
 * several CPUs), each secondary CPU's bring-up points are pinned the same
 * way. The recorder's cpuhp probes have the default priority, like the
 * trace events', which event_trace_enable_again() registers again at
 * early_initcall, after the recorder's: so each of these stamps precedes
 * its event by at most PROBE_TICKS:
 *   requested: cpuhp_enter of CPUHP_BRINGUP_CPU (bringup_cpu), control CPU
 *   active:    cpuhp_exit of CPUHP_AP_ACTIVE (sched_cpu_activate), the CPU
 *   finished:  cpuhp_exit of CPUHP_BRINGUP_CPU, control CPU
 * The points the CPU stamps itself before it may trace (entry,
 * start_kernel, online) lie before the first event traced on that CPU,
 * and entry at least ENTRY_TICKS after the request's event: the control
 * CPU has to call the firmware (PSCI CPU_ON) and the new CPU to start, so
 * an entry stamped on the requesting CPU fails. Needs CONFIG_BOOTSTAMP
 * (full mode).
 */
#include "bootstamp_test.h"

#include <sys/mount.h>

#define TRACEFS		BST_ROOT "/sys/kernel/tracing"
#define BOOT_STAMPS	BST_ROOT "/sys/kernel/debug/boot_stamps"
#define MAX_EV		16384
#define MAX_CPUS	64

/*
 * From one probe's stamp to the next probe's on the same tracepoint, in
 * ticks of QEMU's 62.5 MHz counter, which follows the host's clock under
 * TCG. Ten boots of 2026-12-03 (bootstamp-full-up, bootstamp-trace-smp,
 * 292 initcalls each, on a loaded 2-core host; six with every gap
 * printed: median 77-107 ticks, 99th percentile 3500-6500): 5 to 10
 * initcalls a boot had a stamp more than 2000 ticks (32 us) from its
 * event (an interrupt or the host between the probes, the first run of a
 * code path), the furthest 931050. So at most one
 * initcall in LATE_SHARE may be further than PROBE_TICKS: a recorder
 * that stamps the end at the start, or the start at the end, is that far
 * off on every initcall longer than PROBE_TICKS, 212 to 228 of the 292.
 */
#define PROBE_TICKS	2000
#define LATE_SHARE	10
/*
 * The first bring-up runs the cpuhp code paths for the first time, which
 * TCG translates: its points were up to 6259 ticks before their events in
 * six boots (cpu1's requested 4011-6259, finished up to 5563), the other
 * CPUs' 52-361. Its bound is COLD_TICKS; the others' PROBE_TICKS. As for
 * the initcalls, an interrupt or another vCPU's turn may come between the
 * two probes (cpu1's requested 177481 ticks early in the seventh boot,
 * load average 10; cpu1's requested 13767 ticks early beside a mutation
 * gate run): CPU_LATE points may be further. A point stamped in
 * the wrong place on every CPU is late on two CPUs or more (the first
 * one's bound aside) and still fails. A boot must bring up two CPUs or
 * more.
 */
#define COLD_TICKS	62500	/* 1 ms at 62.5 MHz: 4.5 times the worst seen */
#define CPU_LATE	1
/*
 * Entry came 5140 to 17985 ticks after the request's event in those
 * boots (12 bring-ups): PSCI CPU_ON, and the new vCPU's first run.
 */
#define ENTRY_TICKS	1000

enum ev_kind { IC_START, IC_FINISH, HP_ENTER, HP_EXIT };

struct ev {
	enum ev_kind		kind;
	unsigned long long	t;
	int			cpu;	/* the CPU that traced it */
	char			sym[128];	/* initcall, or cpuhp_enter's callback */
	unsigned int		hcpu;	/* cpuhp: the CPU the step is for */
	int			target, step, ret;
};

static struct ev evs[MAX_EV];

static const char *const ev_names[] = {
	[IC_START] = ": initcall_start: ", [IC_FINISH] = ": initcall_finish: ",
	[HP_ENTER] = ": cpuhp_enter: ", [HP_EXIT] = ": cpuhp_exit: ",
};

/*
 * "  swapper/0-1  [000] .....  123456: initcall_start: func=fn+0x0/0x24"
 * "  cpuhp/1-19  [001] .....  123456: cpuhp_exit:  cpu: 0001  state: 231 step: 231 ret: 0"
 * Lines of other events are not ours; a line of ours that does not parse
 * fails the test (and so does a full table).
 */
static int parse_trace(char *text)
{
	char *line, *save, *p, *f, *body;
	int n = 0, k;

	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		struct ev *e = &evs[n];
		bool ok;

		if (line[0] == '#')
			continue;
		for (k = 0, p = NULL; k < (int)BST_ARRAY_SIZE(ev_names) && !p; k++)
			p = strstr(line, ev_names[k]);
		if (!p)
			continue;
		if (n == MAX_EV)
			ksft_exit_fail_msg("more than %d events in the trace: raise MAX_EV\n", MAX_EV);
		memset(e, 0, sizeof(*e));
		e->kind = k - 1;
		body = p + strlen(ev_names[e->kind]);
		*p = '\0';
		f = strrchr(line, ' ');
		ok = f && sscanf(f + 1, "%llu", &e->t) == 1;
		f = strchr(line, '[');
		while (f && !(f[1] >= '0' && f[1] <= '9' && strchr(f, ']')))
			f = strchr(f + 1, '[');
		ok = ok && f && sscanf(f + 1, "%d]", &e->cpu) == 1;
		switch (e->kind) {
		case IC_START:
		case IC_FINISH:
			ok = ok && sscanf(body, "func=%127[^+ ]", e->sym) == 1;
			break;
		case HP_ENTER:
			ok = ok && sscanf(body, " cpu: %u target: %d step: %d (%127[^)+])",
					  &e->hcpu, &e->target, &e->step, e->sym) == 4;
			break;
		case HP_EXIT:
			ok = ok && sscanf(body, " cpu: %u state: %d step: %d ret: %d",
					  &e->hcpu, &e->target, &e->step, &e->ret) == 4;
			break;
		}
		if (!ok)
			ksft_exit_fail_msg("cannot read trace line: %s%s%s\n", line,
					   ev_names[e->kind], body);
		n++;
	}
	return n;
}

/* Next event of @sym after *i of the given kind; -1 if none. */
static int next_ev(int n, int *i, const char *sym, enum ev_kind kind)
{
	for (; *i < n; (*i)++)
		if (evs[*i].kind == kind && !strcmp(evs[*i].sym, sym))
			return (*i)++;
	return -1;
}

struct cpu_row {
	unsigned int		cpu;
	unsigned long long	t[6];	/* requested entry start_kernel online active finished */
};

enum { REQ, ENTRY, START, ONLINE, ACTIVE, FINISHED };

/* The first event from @from on matching, -1 if none. */
static int find_hp(int n, int from, enum ev_kind kind, unsigned int hcpu, int step,
		   const char *sym)
{
	int i;

	for (i = from; i < n; i++)
		if (evs[i].kind == kind && evs[i].hcpu == hcpu &&
		    (step < 0 || evs[i].step == step) && (!sym || !strcmp(evs[i].sym, sym)) &&
		    (kind == HP_EXIT ? !evs[i].ret : evs[i].target >= evs[i].step))
			return i;
	return -1;
}

/*
 * The bring-up points of each secondary CPU of boot_stamps against the
 * cpuhp events: two results.
 */
static void check_cpus(int n, const struct cpu_row *rows, int nrows)
{
	int i, c, req, act, fin, first, act_step, found = 0, late = 0, bad = 0, pinned = 0;
	long long d, worst = 0;

	for (c = 0; c < nrows; c++) {
		const struct cpu_row *r = &rows[c];
		const unsigned long long *t = r->t;

		req = find_hp(n, 0, HP_ENTER, r->cpu, -1, "bringup_cpu");
		i = find_hp(n, 0, HP_ENTER, r->cpu, -1, "sched_cpu_activate");
		act_step = i < 0 ? -1 : evs[i].step;
		act = req < 0 || i < 0 ? -1 : find_hp(n, req, HP_EXIT, r->cpu, act_step, NULL);
		fin = req < 0 ? -1 : find_hp(n, req, HP_EXIT, r->cpu, evs[req].step, NULL);
		for (first = req < 0 ? n : req; first < n && evs[first].cpu != (int)r->cpu; first++)
			;
		if (req < 0 || act < 0 || fin < 0 || first == n) {
			ksft_print_msg("cpu%u: bring-up events missing: requested %d, active %d, finished %d, first on the CPU %d\n",
				       r->cpu, req >= 0, act >= 0, fin >= 0, first < n);
			continue;
		}
		found++;
		ksft_print_msg("cpu%u: events %llu..%llu, first on the CPU %llu; stamps requested %llu entry %llu online %llu active %llu finished %llu\n",
			       r->cpu, evs[req].t, evs[fin].t, evs[first].t, t[REQ], t[ENTRY],
			       t[ONLINE], t[ACTIVE], t[FINISHED]);
		/* Its own points: well after the request, before it traced anything. */
		if (!(evs[req].t + ENTRY_TICKS <= t[ENTRY] && t[ENTRY] <= t[START] &&
		      t[START] <= t[ONLINE] && t[ONLINE] <= evs[first].t)) {
			ksft_print_msg("cpu%u: not request event + %d <= entry <= start_kernel <= online <= the CPU's first event\n",
				       r->cpu, ENTRY_TICKS);
			bad++;
		}
		/* The points the recorder takes in cpuhp probes: right before the events. */
		for (i = 0; i < 3; i++) {
			int p = (int[]){ REQ, ACTIVE, FINISHED }[i];
			int e = (int[]){ req, act, fin }[i];

			pinned++;
			d = (long long)(evs[e].t - t[p]);
			if (d > worst)
				worst = d;
			if (t[p] > evs[e].t) {
				ksft_print_msg("cpu%u: %s stamped %llu ticks after its event\n", r->cpu,
					       (const char *[]){ "requested", "active", "finished" }[i],
					       t[p] - evs[e].t);
				bad++;
			} else if (d > (c ? PROBE_TICKS : COLD_TICKS)) {
				ksft_print_msg("cpu%u: %s stamped %lld ticks before its event\n", r->cpu,
					       (const char *[]){ "requested", "active", "finished" }[i], d);
				late++;
			}
		}
	}
	ksft_test_result(nrows > 0 && found == nrows,
			 "every secondary CPU's bring-up is in the trace (%d of %d)\n", found, nrows);
	ksft_print_msg("cpu points: %d pinned, %d further than %d ticks (%d the first CPU) before their event (furthest %lld)\n",
		       pinned, late, PROBE_TICKS, COLD_TICKS, worst);
	ksft_test_result(found == nrows && nrows >= 2 && !bad && late <= CPU_LATE,
			 "requested, active, finished within %d ticks before their cpuhp events (all but %d); entry..online after the request, before the CPU's first event\n",
			 PROBE_TICKS, CPU_LATE);
}

int main(void)
{
	int n, rows = 0, unparsed = 0, matched = 0, bad = 0, late = 0, s, f, pos = 0, ncpu = 0;
	unsigned int k_n = 0, k_max = 0, k_dropped = 0;
	bool in_initcalls = false, in_cpus = false, cpuhp;
	char *stamps, *trace, *clock, *line, *save, *buf_kb, *cmdline;
	long long worst = 0;
	struct cpu_row cpus[MAX_CPUS];
	const char *key;
	char *ctr;

	ksft_print_header();
	cmdline = bst_slurp(BST_CMDLINE) ?: strdup("");
	if (!strstr(cmdline, "trace_clock=arm64-counter"))
		ksft_exit_skip("boot without trace_clock=arm64-counter\n");
	if (strcmp(bst_expect("BOOTSTAMP"), "y"))
		ksft_exit_skip("this kernel keeps no boot log (built without CONFIG_BOOTSTAMP)\n");
	cpuhp = strstr(cmdline, "cpuhp:cpuhp_enter") && strstr(cmdline, "cpuhp:cpuhp_exit");
	ksft_set_plan(cpuhp ? 8 : 6);

	stamps = bst_slurp(BOOT_STAMPS);
	if (!stamps)
		ksft_exit_fail_msg(BOOT_STAMPS ": %s\n", strerror(errno));
	/* bst_key() returns a buffer the next call reuses. */
	ctr = strdup(bst_key(stamps, "counter") ?: "(missing)");
	ksft_test_result(ctr && (!strcmp(ctr, "CNTVCT_EL0") || !strcmp(ctr, "CNTPCT_EL0")) &&
			 bst_key_num(stamps, "freq_hz") > 0,
			 "/sys/kernel/debug/boot_stamps names the counter (%s) and its rate\n", ctr ?: "?");

	if (access(TRACEFS "/trace", R_OK) && mount("nodev", TRACEFS, "tracefs", 0, NULL))
		ksft_exit_fail_msg("mount tracefs: %s\n", strerror(errno));
	clock = bst_slurp(TRACEFS "/trace_clock");
	ksft_test_result(clock && strstr(clock, "[arm64-counter]"), "trace_clock is arm64-counter\n");
	trace = bst_slurp(TRACEFS "/trace");
	if (!trace)
		ksft_exit_fail_msg(TRACEFS "/trace: %s\n", strerror(errno));
	n = parse_trace(trace);
	buf_kb = bst_slurp(TRACEFS "/buffer_size_kb");
	key = bst_key(stamps, "initcalls");
	/* For Documentation/admin-guide/bootstamp.rst: what each costs. */
	ksft_print_msg("%d events in the trace; ring buffer %s kB per CPU; boot_stamps %s\n",
		       n, buf_kb ? strtok(buf_kb, "\n") : "?", key ?: "?");
	free(buf_kb);
	if (!key || sscanf(key, "%u of %u, %u dropped", &k_n, &k_max, &k_dropped) != 3)
		ksft_print_msg("boot_stamps: no \"# initcalls: N of M, D dropped\" line\n");

	/*
	 * "level start end ret cpu initcall" rows, in the order they ran,
	 * then "cpu requested entry start_kernel online active finished flags".
	 */
	for (line = strtok_r(stamps, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		unsigned long long a, b;
		char lvl[16], sym[128];
		int ret, cpu, end;
		long long d;

		if (line[0] == '#') {
			in_initcalls = !strcmp(line, "# level start end ret cpu initcall");
			in_cpus = !strcmp(line, "# cpu requested entry start_kernel online active finished flags");
			continue;
		}
		if (in_cpus) {
			struct cpu_row *r = &cpus[ncpu];

			end = 0;
			if (ncpu == MAX_CPUS ||
			    sscanf(line, "%u %llu %llu %llu %llu %llu %llu %*x%n", &r->cpu, &r->t[0],
				   &r->t[1], &r->t[2], &r->t[3], &r->t[4], &r->t[5], &end) != 7 ||
			    line[end]) {
				if (!unparsed++)
					ksft_print_msg("cannot read cpu row: %s\n", line);
				continue;
			}
			/* The boot CPU (no request) and CPUs not brought up at boot. */
			if (r->t[REQ])
				ncpu++;
			continue;
		}
		if (!in_initcalls)
			continue;
		end = 0;
		if (sscanf(line, "%15s %llu %llu %d %d %127s%n", lvl, &a, &b, &ret, &cpu, sym,
			   &end) != 6 || line[end]) {
			if (!unparsed++)
				ksft_print_msg("cannot read initcall row: %s\n", line);
			continue;
		}
		rows++;
		s = next_ev(n, &pos, sym, IC_START);
		f = s < 0 ? -1 : next_ev(n, &pos, sym, IC_FINISH);
		if (f < 0)
			continue;
		matched++;
		if (!(evs[s].t <= a && a <= b && b <= evs[f].t)) {
			if (!bad++)
				ksft_print_msg("%s: trace %llu..%llu, boot_stamps %llu..%llu\n", sym,
					       evs[s].t, evs[f].t, a, b);
			continue;
		}
		d = (long long)(a - evs[s].t) > (long long)(evs[f].t - b) ?
		    (long long)(a - evs[s].t) : (long long)(evs[f].t - b);
		if (d > PROBE_TICKS) {
			if (late++ < 3)
				ksft_print_msg("%s: trace %llu..%llu, boot_stamps %llu..%llu: %lld ticks from its event\n",
					       sym, evs[s].t, evs[f].t, a, b, d);
			if (d > worst)
				worst = d;
		}
	}
	ksft_test_result(!unparsed && key && rows > 0 && k_n == (unsigned int)rows && !k_dropped,
			 "boot_stamps: every row read, %d initcall rows of \"initcalls: %s\"\n", rows,
			 key ?: "(missing)");
	ksft_test_result(rows > 0 && matched == rows,
			 "every built-in initcall of boot_stamps is in the trace (%d of %d)\n",
			 matched, rows);
	ksft_test_result(matched > 0 && !bad,
			 "trace start <= stamp start <= stamp end <= trace finish, in ticks (%d out of order)\n",
			 bad);
	ksft_print_msg("initcall stamps: %d of %d more than %d ticks from their event (furthest %lld)\n",
		       late, matched, PROBE_TICKS, worst);
	ksft_test_result(matched > 0 && late <= matched / LATE_SHARE,
			 "stamp start within %d ticks after trace start, stamp end within %d before trace finish (all but 1 in %d)\n",
			 PROBE_TICKS, PROBE_TICKS, LATE_SHARE);
	if (cpuhp)
		check_cpus(n, cpus, ncpu);
	free(stamps);
	free(trace);
	free(clock);
	free(ctr);
	free(cmdline);
	ksft_finished();
}
