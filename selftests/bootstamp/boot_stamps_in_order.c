// SPDX-License-Identifier: GPL-2.0
/*
 * Does the kernel's boot log (full mode, CONFIG_BOOTSTAMP=y) tell a boot
 * that could have happened? Milestones follow init/main.c:
 *
 *   kernel_entry < start_kernel < time_init < level_early < smp_init
 *   < sched_init_smp < level_pure < level_core < ... < level_late
 *   < free_initmem < init_exec
 *
 * (smp_init and sched_init_smp run between the early initcalls and the
 * others). Every CPU brought up during boot (the harness's CPUs, or
 * maxcpus= of them) has a boot row, and no other: the boot CPU with entry
 * and start_kernel only (it goes online before tracepoints work), each
 * secondary with all six
 * points in order, requested after the early initcalls began and finished
 * before smp_init returned. Built-in initcalls ran one at a time, each
 * inside its level, and each has a start and a duration: a built-in
 * initcall of a complete log has both stamps, so "-" (or no number) in
 * either column is a failure, never a time to compare. Skips on a kernel
 * without the log.
 */
#include "bootstamp_test.h"

static const char *const chain[] = {
	"kernel_entry", "start_kernel", "time_init", "level_early", "smp_init",
	"sched_init_smp", "level_pure", "level_core", "level_postcore",
	"level_arch", "level_subsys", "level_fs", "level_device", "level_late",
	"free_initmem", "init_exec",
};

#define NCHAIN		BST_ARRAY_SIZE(chain)

static const char *const levels[] = {
	"early", "pure", "core", "postcore", "arch", "subsys", "fs", "device", "late",
};

#define NLEVELS		BST_ARRAY_SIZE(levels)

/* Milestones by name: counter and since_entry_ns; -1 if not recorded. */
static long long ms_cnt[NCHAIN], ms_ns[NCHAIN];

static int chain_idx(const char *name)
{
	size_t i;

	for (i = 0; i < NCHAIN; i++)
		if (!strcmp(chain[i], name))
			return i;
	return -1;
}

static long long level_start_ns(size_t level)
{
	char name[32];

	snprintf(name, sizeof(name), "level_%s", levels[level]);
	return ms_ns[chain_idx(name)];
}

/* Where the initcalls of a level must end: the next level, or free_initmem. */
static long long level_end_ns(size_t level)
{
	return level + 1 < NLEVELS ? level_start_ns(level + 1)
				   : ms_ns[chain_idx("free_initmem")];
}

static void check_milestones(const char *summary)
{
	int c_cnt, c_ns, missing = 0;
	struct bst_table t;
	const char *log;
	size_t i;

	log = bst_key(summary, "log");
	if (!log || strcmp(log, "complete"))
		ksft_print_msg("summary says log: %s\n", log ? log : "(missing)");
	ksft_test_result(log && !strcmp(log, "complete"), "boot log is complete\n");
	bst_parse(summary, &t);
	c_cnt = bst_col(&t, "counter");
	c_ns = bst_col(&t, "since_entry_ns");
	for (i = 0; i < NCHAIN; i++)
		ms_cnt[i] = ms_ns[i] = -1;
	for (i = 0; i < (size_t)t.nrows; i++) {
		int k = chain_idx(t.rows[i].f[0]);

		if (k >= 0) {
			ms_cnt[k] = bst_num(&t.rows[i], c_cnt);
			ms_ns[k] = bst_num(&t.rows[i], c_ns);
		}
	}
	/* With the entry stamp as time base every recorded row has since_entry_ns. */
	for (i = 0; i < NCHAIN; i++)
		if (ms_cnt[i] <= 0 || ms_ns[i] < 0) {
			ksft_print_msg("milestone %s not recorded\n", chain[i]);
			missing++;
		}
	ksft_test_result(!missing, "all %zu milestones recorded\n", NCHAIN);
	ksft_test_result(ms_ns[0] == 0, "kernel_entry is the time base (since_entry_ns 0)\n");
	for (i = 0; i < NCHAIN; i++)
		ksft_print_msg("%-16s counter %12lld  since_entry_ns %lld\n", chain[i],
			       ms_cnt[i], ms_ns[i]);
	for (i = 1; i < NCHAIN; i++)
		ksft_test_result(ms_cnt[i - 1] > 0 && ms_cnt[i] > ms_cnt[i - 1],
				 "%s before %s\n", chain[i - 1], chain[i]);
	bst_table_free(&t);
}

static void check_cpus(long cpus)
{
	int c_cpu, c_src, c_pt[6], nboot = 0, seen[64] = { 0 };
	static const char *const pts[] = { "requested_ns", "entry_ns", "start_kernel_ns",
					   "online_ns", "active_ns", "finished_ns" };
	long long early = level_start_ns(0), smp = ms_ns[chain_idx("smp_init")];
	char *txt = bst_read("cpus");
	int i, p, boot_cpu = -1, bad_boot = 0, bad_sec = 0, bad_order = 0, bad_win = 0;
	struct bst_table t;

	bst_parse(txt, &t);
	free(txt);
	c_cpu = bst_col(&t, "cpu");
	c_src = bst_col(&t, "source");
	for (p = 0; p < 6; p++)
		c_pt[p] = bst_col(&t, pts[p]);

	for (i = 0; i < t.nrows; i++) {
		const struct bst_row *r = &t.rows[i];
		long long v[6];
		int cpu = bst_num(r, c_cpu);

		if (strcmp(r->f[c_src], "boot"))
			continue;
		nboot++;
		if (cpu >= 0 && cpu < 64)
			seen[cpu]++;
		for (p = 0; p < 6; p++)
			v[p] = bst_num(r, c_pt[p]);
		if (v[0] < 0) {
			/* The boot CPU: nobody requested it. */
			if (boot_cpu >= 0 || v[1] != 0 || v[2] < 0 || v[3] >= 0 ||
			    v[4] >= 0 || v[5] >= 0 || v[2] < v[1]) {
				ksft_print_msg("boot CPU row: cpu %d entry %lld start_kernel %lld online %lld active %lld finished %lld\n",
					       cpu, v[1], v[2], v[3], v[4], v[5]);
				bad_boot++;
			}
			boot_cpu = cpu;
			continue;
		}
		for (p = 0; p < 6; p++)
			if (v[p] < 0)
				break;
		if (p < 6) {
			ksft_print_msg("cpu %d has no %s\n", cpu, pts[p]);
			bad_sec++;
			continue;
		}
		for (p = 1; p < 6; p++)
			if (v[p] < v[p - 1])
				break;
		if (p < 6) {
			ksft_print_msg("cpu %d: %s %lld before %s %lld\n", cpu, pts[p], v[p],
				       pts[p - 1], v[p - 1]);
			bad_order++;
		}
		if (v[0] < early || v[5] > smp) {
			ksft_print_msg("cpu %d: requested %lld / finished %lld outside level_early %lld .. smp_init %lld\n",
				       cpu, v[0], v[5], early, smp);
			bad_win++;
		}
	}
	for (i = 0; i < cpus && i < 64; i++)
		if (seen[i] != 1)
			break;
	if (nboot != cpus || i != cpus)
		ksft_print_msg("%d boot rows for %ld CPUs\n", nboot, cpus);
	ksft_test_result(nboot == cpus && i == cpus, "one boot row for each CPU\n");
	ksft_test_result(boot_cpu >= 0 && !bad_boot,
			 "boot CPU has entry (at kernel_entry) and start_kernel in order and nothing else\n");
	if (cpus < 2) {
		bst_skip("every secondary has all six points", "single-CPU boot");
		bst_skip("requested <= entry <= start_kernel <= online <= active <= finished on every secondary",
			 "single-CPU boot");
		bst_skip("secondaries brought up between level_early and smp_init", "single-CPU boot");
	} else {
		ksft_test_result(nboot > 1 && !bad_sec, "every secondary has all six points\n");
		ksft_test_result(nboot > 1 && !bad_order,
				 "requested <= entry <= start_kernel <= online <= active <= finished on every secondary\n");
		ksft_test_result(nboot > 1 && !bad_win,
				 "secondaries brought up between level_early and smp_init\n");
	}
	bst_table_free(&t);
}

static void check_initcalls(const char *summary)
{
	int c_lvl, c_mod, c_start, c_dur, c_sym, n = 0, overlap = 0, outside = 0, unstamped = 0;
	long long prev_end = -1, nlog = bst_key_num(summary, "log_initcalls");
	char *txt = bst_read("initcalls");
	struct bst_table t;
	int i;

	bst_parse(txt, &t);
	free(txt);
	c_lvl = bst_col(&t, "level");
	c_sym = bst_col(&t, "symbol");
	c_mod = bst_col(&t, "module");
	c_start = bst_col(&t, "start_ns");
	c_dur = bst_col(&t, "duration_ns");
	for (i = 0; i < t.nrows; i++) {
		const struct bst_row *r = &t.rows[i];
		long long start = bst_num(r, c_start), dur = bst_num(r, c_dur), end;
		size_t l;

		if (strcmp(r->f[c_mod], "vmlinux"))
			continue;
		n++;
		if (start < 0 || dur < 0) {
			if (unstamped++ < 3)
				ksft_print_msg("%s (level %s): start_ns %s duration_ns %s\n",
					       r->f[c_sym], r->f[c_lvl], r->f[c_start], r->f[c_dur]);
			continue;
		}
		end = start + dur;
		if (start < prev_end && overlap++ < 3)
			ksft_print_msg("%s starts at %lld, before the previous initcall ended (%lld)\n",
				       r->f[c_sym], start, prev_end);
		prev_end = end;
		/* console_init() runs these after time_init, before the early level. */
		if (!strcmp(r->f[c_lvl], "console")) {
			if (start < ms_ns[chain_idx("time_init")] || end > level_start_ns(0)) {
				if (outside++ < 3)
					ksft_print_msg("console initcall %s runs %lld..%lld, outside time_init..level_early\n",
						       r->f[c_sym], start, end);
			}
			continue;
		}
		for (l = 0; l < NLEVELS; l++)
			if (!strcmp(r->f[c_lvl], levels[l]))
				break;
		if (l == NLEVELS ||
		    (l > 0 && start < level_start_ns(l)) ||
		    (l == 0 && start < level_start_ns(0)) ||
		    end > level_end_ns(l)) {
			if (outside++ < 3)
				ksft_print_msg("%s (level %s) runs %lld..%lld, outside its level\n",
					       r->f[c_sym], r->f[c_lvl], start, end);
		}
	}
	ksft_print_msg("%d built-in initcalls, log_initcalls: %lld\n", n, nlog);
	ksft_test_result(n > 0 && n == nlog,
			 "initcalls has one vmlinux row per initcall of the log (log_initcalls)\n");
	ksft_test_result(n > 0 && !unstamped,
			 "every built-in initcall has a start_ns and a duration_ns (%d without)\n",
			 unstamped);
	ksft_test_result(n > 0 && !overlap, "built-in initcalls ran one after the other\n");
	ksft_test_result(n > 0 && !outside, "every built-in initcall ran within its level\n");
	bst_table_free(&t);
}

int main(void)
{
	long cpus;
	char *summary, *cmdline, *maxcpus;

	ksft_print_header();
	cpus = strtol(bst_expect("CPUS"), NULL, 10);
	cmdline = bst_slurp("/proc/cmdline");
	maxcpus = cmdline ? strstr(cmdline, "maxcpus=") : NULL;
	if (maxcpus && strtol(maxcpus + 8, NULL, 10) < cpus)
		cpus = strtol(maxcpus + 8, NULL, 10);
	free(cmdline);
	bst_need_module();
	summary = bst_read("summary");
	bst_need_full_mode(summary);
	ksft_set_plan(3 + (NCHAIN - 1) + 5 + 4);

	check_milestones(summary);
	check_cpus(cpus);
	check_initcalls(summary);
	free(summary);
	ksft_finished();
}
