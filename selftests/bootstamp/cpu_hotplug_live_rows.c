// SPDX-License-Identifier: GPL-2.0
/*
 * Does every CPU bring-up after load get one "live" row in "cpus", with its
 * points in order? Takes cpu1..cpuN-1 offline and online again CYCLES times
 * in turn through sysfs (with maxcpus= a CPU still offline is just brought
 * up). core.c: live rows carry requested, online, active and finished, ret 0
 * on success, and in full mode the kernel's entry and start_kernel stamps of
 * that bring-up ("-" live-only). "boot" rows are exactly the CPUs that were
 * online when the test started (nothing else takes CPUs up or down here).
 *
 * Then a bring-up stopped part way: cpu1 offline, its hotplug/target set to
 * a state below CPUHP_BRINGUP_CPU (it stops there), then online. The first
 * request never asked cpu1 to start: no row (requested is the start of
 * CPUHP_BRINGUP_CPU, as in boot rows, not the first prepare state: review
 * C5); the second gets one complete row.
 *
 * Every kernel of the harness has tracepoints (Kconfig.fragment:
 * CONFIG_FTRACE), CPU hotplug and hotplug/target (qemu-virt.config), so
 * live mode off or a missing sysfs file is a failure here, not a skip.
 */
#include "bootstamp_test.h"

/*
 * A fixed count, no deadline: the test asserts what each bring-up records,
 * not how fast it goes. 20 cycles (each secondary of a 4-CPU boot about 7
 * times) take a few seconds, and stay well under a minute on the debug
 * kernel (KASAN, lockdep) under TCG with 4 vCPUs on 2 host cores; the
 * guest's per-program timeout (bst.timeout) catches a hang.
 */
#define CYCLES		20
#define LIVE_CPU_MAX	64	/* BS_MAX_LIVE_CPU, module/internal.h */
#define CPU_SYS		"/sys/devices/system/cpu"

static int set_online(int cpu, int on)
{
	char path[96];

	snprintf(path, sizeof(path), CPU_SYS "/cpu%d/online", cpu);
	return bst_write_file(path, on ? "1" : "0");
}

/* Is @cpu in the list of /sys/devices/system/cpu/online ("0-1,3")? */
static bool in_cpu_list(const char *list, int cpu)
{
	const char *p = list;
	char *end;
	long a, b;

	while (p && *p && *p != '\n') {
		a = b = strtol(p, &end, 10);
		if (*end == '-')
			b = strtol(end + 1, &end, 10);
		if (cpu >= a && cpu <= b)
			return true;
		p = *end == ',' ? end + 1 : NULL;
	}
	return false;
}

/*
 * Stop cpu1's bring-up below CPUHP_BRINGUP_CPU, then finish it. The target
 * is the highest named state below "cpu:bringup" that the kernel accepts
 * (it refuses states that cannot be stopped in). Returns 0 or -errno;
 * *state gets the target.
 */
static int partial_bringup(int *state)
{
	char *states = bst_slurp(CPU_SYS "/hotplug/states"), *line, *save, val[16];
	int nums[512], n = 0, bringup = -1, i, ret = -ENOENT;

	if (!states)
		ksft_exit_fail_msg(CPU_SYS "/hotplug/states: %s\n", strerror(errno));
	for (line = strtok_r(states, "\n", &save); line && n < 512;
	     line = strtok_r(NULL, "\n", &save)) {
		nums[n] = atoi(line);
		if (strstr(line, ": cpu:bringup"))
			bringup = n;
		n++;
	}
	free(states);
	if (bringup < 1)
		ksft_exit_fail_msg("no state below cpu:bringup in " CPU_SYS "/hotplug/states\n");
	ret = set_online(1, 0);
	for (i = bringup - 1; !ret && i > 0; i--) {
		snprintf(val, sizeof(val), "%d", nums[i]);
		ret = bst_write_file(CPU_SYS "/cpu1/hotplug/target", val);
		*state = nums[i];
		if (ret != -EINVAL)
			break;
		ret = 0;
	}
	if (!ret)
		ret = set_online(1, 1);
	return ret;
}

static bool all_online(long cpus)
{
	char want[32], *online = bst_slurp("/sys/devices/system/cpu/online");
	bool ok;

	snprintf(want, sizeof(want), "0-%ld\n", cpus - 1);
	ok = online && !strcmp(online, want);
	free(online);
	return ok;
}

int main(void)
{
	int c_cpu, c_src, c_req, c_entry, c_sk, c_online, c_active, c_fin, c_ret;
	long long sessions0, dropped0, sessions1, dropped1;
	int done = 0, err = 0, err_cpu = -1, expected[CYCLES];
	int i, first, nlive = 0, nlive0 = 0;
	int bad_cpu = -1, bad_points = -1, bad_unknown = -1, bad_order = -1;
	int bad_overlap = -1, bad_boot = -1, nboot = 0, want_boot = 0, c_fin0, state = -1;
	struct bst_table before, after;
	char *summary, *cpus_txt, *online0;
	bool full;
	const char *live;
	double t0;
	long cpus;

	ksft_print_header();
	cpus = strtol(bst_expect("CPUS"), NULL, 10);
	if (cpus < 2)
		ksft_exit_skip("needs a second CPU to take offline (boot has %ld)\n", cpus);
	if (access("/sys/devices/system/cpu/cpu1/online", W_OK))
		ksft_exit_fail_msg("cpu1/online: %s: %ld CPUs booted, and CONFIG_HOTPLUG_CPU is set\n",
				   strerror(errno), cpus);
	bst_need_module();

	summary = bst_read("summary");
	live = bst_key(summary, "live");
	if (!live || strcmp(live, "on"))
		ksft_exit_fail_msg("summary says live: %s, on a kernel with the tracepoints it needs\n",
				   live ? live : "(missing)");
	sessions0 = bst_key_num(summary, "live_cpu_sessions");
	dropped0 = bst_key_num(summary, "live_cpu_dropped");
	full = bst_full_mode(summary);
	free(summary);
	if (sessions0 < 0 || dropped0 < 0)
		ksft_exit_fail_msg("summary lacks live_cpu_sessions or live_cpu_dropped\n");
	/* The module was loaded for this boot and nothing else takes CPUs down. */
	if (sessions0 + CYCLES + 2 > LIVE_CPU_MAX)
		ksft_exit_fail_msg("only %lld of the %d live CPU slots left (%lld sessions before this test)\n",
				   LIVE_CPU_MAX - sessions0, LIVE_CPU_MAX, sessions0);
	online0 = bst_slurp(CPU_SYS "/online");
	if (!online0)
		ksft_exit_fail_msg(CPU_SYS "/online: %s\n", strerror(errno));

	cpus_txt = bst_read("cpus");
	bst_parse(cpus_txt, &before);
	free(cpus_txt);
	c_src = bst_col(&before, "source");
	c_cpu = bst_col(&before, "cpu");
	for (i = 0; i < before.nrows; i++) {
		if (!strcmp(before.rows[i].f[c_src], "live")) {
			nlive0++;
			continue;
		}
		nboot++;
		if (bad_boot < 0 && !in_cpu_list(online0, atoi(before.rows[i].f[c_cpu])))
			bad_boot = i;
	}
	for (i = 0; i < cpus; i++)
		want_boot += in_cpu_list(online0, i);

	ksft_set_plan(12);
	ksft_test_result(!full || (nboot == want_boot && bad_boot < 0),
			 "%sboot rows for the %d CPUs online at boot (%s)\n",
			 full ? "" : "live-only, no ", want_boot, strtok(online0, "\n"));

	t0 = bst_now();
	for (i = 0; i < CYCLES; i++) {
		int cpu = 1 + i % (cpus - 1);

		err = set_online(cpu, 0);
		if (!err)
			err = set_online(cpu, 1);
		if (err) {
			err_cpu = cpu;
			break;
		}
		expected[i] = cpu;
		done++;
	}
	/* Information only: nothing below depends on it. */
	ksft_print_msg("%d offline/online cycles in %.1f s\n", done, bst_now() - t0);
	ksft_test_result(done == CYCLES,
			 "%d offline/online cycles of cpu1..cpu%ld (%d done%s%s)\n", CYCLES,
			 cpus - 1, done, err ? ": " : "", err ? strerror(-err) : "");
	if (err_cpu > 0)
		set_online(err_cpu, 1);
	ksft_test_result(all_online(cpus), "all %ld CPUs online afterwards\n", cpus);

	cpus_txt = bst_read("cpus");
	bst_parse(cpus_txt, &after);
	free(cpus_txt);
	c_cpu = bst_col(&after, "cpu");
	c_src = bst_col(&after, "source");
	c_req = bst_col(&after, "requested_ns");
	c_entry = bst_col(&after, "entry_ns");
	c_sk = bst_col(&after, "start_kernel_ns");
	c_online = bst_col(&after, "online_ns");
	c_active = bst_col(&after, "active_ns");
	c_fin = bst_col(&after, "finished_ns");
	c_ret = bst_col(&after, "ret");

	for (i = 0, first = -1; i < after.nrows; i++) {
		if (strcmp(after.rows[i].f[c_src], "live"))
			continue;
		if (nlive++ == nlive0)
			first = i;
	}
	ksft_test_result(nlive - nlive0 == done,
			 "one new live row per bring-up (%d new rows, %d bring-ups)\n",
			 nlive - nlive0, done);

	for (i = 0; first >= 0 && i < done && first + i < after.nrows; i++) {
		const struct bst_row *r = &after.rows[first + i];
		long long req = bst_num(r, c_req), onl = bst_num(r, c_online);
		long long act = bst_num(r, c_active), fin = bst_num(r, c_fin);

		if (bad_cpu < 0 && bst_num(r, c_cpu) != expected[i])
			bad_cpu = i;
		if (bad_points < 0 && (req < 0 || onl < 0 || act < 0 || fin < 0 ||
				       bst_num(r, c_ret) != 0))
			bad_points = i;
		long long ent = bst_num(r, c_entry), sk = bst_num(r, c_sk);

		if (bad_unknown < 0 && (full ? ent < 0 || sk < 0 :
					strcmp(r->f[c_entry], "-") || strcmp(r->f[c_sk], "-")))
			bad_unknown = i;
		if (bad_order < 0 && !(req <= onl && onl <= act && act <= fin &&
				       (!full || (req <= ent && ent <= sk && sk <= onl))))
			bad_order = i;
		if (bad_overlap < 0 && i > 0 &&
		    req < bst_num(&after.rows[first + i - 1], c_fin))
			bad_overlap = i;
	}
	if (first < 0) {
		for (i = 0; i < 5; i++)
			ksft_test_result_fail("no new live rows to check\n");
	} else {
		if (bad_cpu >= 0)
			ksft_print_msg("row %d names cpu %s, cpu%d was brought up\n", bad_cpu,
				       after.rows[first + bad_cpu].f[c_cpu], expected[bad_cpu]);
		ksft_test_result(bad_cpu < 0, "rows name the CPUs in bring-up order\n");
		ksft_test_result(bad_points < 0,
				 "every row has requested, online, active, finished and ret 0\n");
		ksft_test_result(bad_unknown < 0, full ?
				 "live rows have the kernel's entry and start_kernel stamps\n" :
				 "entry and start_kernel are \"-\" in live-only rows\n");
		ksft_test_result(bad_order < 0, full ?
				 "requested <= entry <= start_kernel <= online <= active <= finished\n" :
				 "requested <= online <= active <= finished in every row\n");
		if (bad_overlap >= 0)
			ksft_print_msg("row %d requested before row %d finished\n", bad_overlap,
				       bad_overlap - 1);
		ksft_test_result(bad_overlap < 0,
				 "each bring-up is requested after the previous one finished\n");
	}
	if (bad_order >= 0 || bad_points >= 0 || bad_unknown >= 0) {
		int bad = bad_order >= 0 ? bad_order : bad_points >= 0 ? bad_points : bad_unknown;
		const struct bst_row *r = &after.rows[first + bad];
		int f;

		ksft_print_msg("row %d:", bad);
		for (f = 0; f < r->n; f++)
			printf(" %s", r->f[f]);
		printf("\n");
	}

	summary = bst_read("summary");
	sessions1 = bst_key_num(summary, "live_cpu_sessions");
	dropped1 = bst_key_num(summary, "live_cpu_dropped");
	free(summary);
	ksft_test_result(sessions1 == sessions0 + done && dropped1 == dropped0,
			 "summary counts the sessions (live_cpu_sessions %lld -> %lld, dropped %lld -> %lld)\n",
			 sessions0, sessions1, dropped0, dropped1);
	bst_table_free(&before);

	err = partial_bringup(&state);
	ksft_test_result(!err, "cpu1 stopped at hotplug state %d, then brought online (%s)\n", state,
			 err ? strerror(-err) : "ok");
	cpus_txt = bst_read("cpus");
	bst_parse(cpus_txt, &before);
	free(cpus_txt);
	c_fin0 = bst_col(&before, "finished_ns");
	i = before.nrows - 2;
	if (i >= after.nrows)
		ksft_print_msg("last two rows: cpu %s requested %s finished %s; cpu %s requested %s finished %s\n",
			       before.rows[i].f[c_cpu], before.rows[i].f[c_req], before.rows[i].f[c_fin0],
			       before.rows[i + 1].f[c_cpu], before.rows[i + 1].f[c_req],
			       before.rows[i + 1].f[c_fin0]);
	ksft_test_result(before.nrows == after.nrows + 1 &&
			 bst_num(&before.rows[i + 1], c_cpu) == 1 &&
			 bst_num(&before.rows[i + 1], c_fin0) >= 0,
			 "the stopped bring-up gets no row, the one that finished it one (%d new rows)\n",
			 before.nrows - after.nrows);
	bst_table_free(&before);
	bst_table_free(&after);
	free(online0);
	ksft_finished();
}
