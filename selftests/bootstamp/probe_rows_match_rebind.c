// SPDX-License-Identifier: GPL-2.0
/*
 * Does the probes file record a driver probe as it happens? With the
 * module loaded, a real device is unbound from its driver and bound again
 * through sysfs (/sys/bus/amba/drivers/DRIVER/unbind and bind; rebind.h
 * says which device). Expectations from sources the module does not read:
 *   probes       "on" exactly when the kernel has kprobes
 *                (/sys/kernel/debug/kprobes exists; arm64 always has
 *                kretprobes with them), else "no-kretprobes" and no rows;
 *                the kretprobe on really_probe is in kprobes/list
 *   the rebind   exactly one new row for the device, naming the driver
 *                and bus of the sysfs path, ret 0, duration > 0, start
 *                and end between two reads of the counter taken around
 *                the bind write; bind_store() probes in the writer's
 *                context: pid is this process, async "no"
 *   counts       summary's live_probes is the number of rows, nothing
 *                dropped
 *   async        rows with async "yes" ran on a kworker (an async
 *                probing worker); a sysfs bind never probes
 *                asynchronously, so without such rows (nothing probed
 *                asynchronously since load) the case is a skip
 */
#include "bootstamp_test.h"
#include "rebind.h"

#define KPROBES_DIR	"/sys/kernel/debug/kprobes"

struct conv {
	unsigned long long	mult, div, base;
};

/* Counter value to ns since the time base, as the module converts. */
static long long to_ns(const struct conv *c, uint64_t cnt)
{
	if (cnt <= c->base)
		return 0;
	return (long long)((__uint128_t)(cnt - c->base) * c->mult / c->div);
}

static void get_conv(const char *summary, struct conv *c)
{
	const char *npt = bst_key(summary, "ns_per_tick");
	const char *tb;
	struct bst_table t;
	int i;

	if (!npt || sscanf(npt, "%llu/%llu", &c->mult, &c->div) != 2 || !c->div)
		ksft_exit_fail_msg("summary has no valid ns_per_tick\n");
	/* bst_key() returns a static buffer: one key at a time. */
	tb = bst_key(summary, "time_base");
	c->base = 0;
	if (!tb || strcmp(tb, "kernel_entry"))
		return;
	bst_parse(summary, &t);
	for (i = 0; i < t.nrows; i++)
		if (!strcmp(t.rows[i].f[0], "kernel_entry"))
			c->base = strtoull(t.rows[i].f[1], NULL, 10);
	bst_table_free(&t);
	if (!c->base)
		ksft_exit_fail_msg("time_base is kernel_entry but summary has no kernel_entry row\n");
}

static bool is_kworker(long long pid)
{
	char path[64], comm[64] = "";
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%lld/comm", pid);
	f = fopen(path, "re");
	if (!f)
		return false;
	if (!fgets(comm, sizeof(comm), f))
		comm[0] = '\0';
	fclose(f);
	return !strncmp(comm, "kworker", 7);
}

int main(void)
{
	int c_dev, c_drv, c_bus, c_start, c_dur, c_ret, c_async, c_cpu, c_pid;
	char *summary, *text, *dev, *kplist;
	long long start, dur, ret, pid, cpu, lo, hi, live, dropped;
	struct bst_table before, after;
	const char *state, *fstate;
	struct bst_rebind rb;
	int i, nnew, idx, nasync, badasync, err;
	bool kprobes;
	uint64_t c0, c1;
	struct conv cv;

	ksft_print_header();
	bst_need_module();
	ksft_set_plan(8);

	summary = bst_read("summary");
	text = bst_read("probes");
	state = bst_key(summary, "probes");
	state = state ? strdup(state) : NULL;
	fstate = bst_key(text, "probes");
	fstate = fstate ? strdup(fstate) : NULL;
	kprobes = !access(KPROBES_DIR, F_OK);
	ksft_test_result(state && fstate && !strcmp(state, fstate) &&
			 !strcmp(state, kprobes ? "on" : "no-kretprobes") &&
			 bst_key_num(summary, "live_probes") >= 0 &&
			 bst_key_num(summary, "live_probes_dropped") >= 0,
			 "summary and probes say probes: %s, %s kprobes (%s)\n",
			 state ? state : "(missing)", kprobes ? "kernel has" : "kernel without",
			 fstate ? fstate : "(missing in probes)");
	bst_parse(text, &before);
	free(text);
	if (!state || strcmp(state, "on")) {
		ksft_test_result(before.nrows == 0, "no rows while probes is %s (%d rows)\n",
				 state ? state : "(missing)", before.nrows);
		for (i = 0; i < 6; i++)
			bst_skip("probe recording", "probes is %s", state ? state : "(missing)");
		ksft_finished();
	}

	kplist = bst_slurp(KPROBES_DIR "/list");
	ksft_test_result(kplist && strstr(kplist, " really_probe+0x0"),
			 "%s/list has the kretprobe on really_probe\n", KPROBES_DIR);
	free(kplist);

	if (!bst_user_counter(summary))
		ksft_exit_fail_msg("cannot compare the probe's stamps with the counter\n");
	get_conv(summary, &cv);
	free(summary);

	c_dev = bst_col(&before, "device");
	c_drv = bst_col(&before, "driver");
	c_bus = bst_col(&before, "bus");
	c_start = bst_col(&before, "start_ns");
	c_dur = bst_col(&before, "duration_ns");
	c_ret = bst_col(&before, "ret");
	c_async = bst_col(&before, "async");
	c_cpu = bst_col(&before, "cpu");
	c_pid = bst_col(&before, "pid");

	if (!bst_rebind_find(&rb))
		ksft_exit_fail_msg("no device bound to rtc-pl031 or pl061_gpio on the amba bus without a bound consumer: the QEMU virt guest has a PL061\n");
	dev = rb.dev;
	ksft_print_msg("rebinding %s %s %s\n", rb.bus, rb.drv, dev);

	err = bst_rebind_write(&rb, "unbind");
	if (err)
		ksft_exit_fail_msg("unbind %s: %s\n", dev, strerror(-err));
	c0 = bst_cntvct();
	err = bst_rebind_write(&rb, "bind");
	c1 = bst_cntvct();
	if (err)
		ksft_exit_fail_msg("bind %s to %s: %s (device left unbound)\n", dev, rb.drv,
				   strerror(-err));

	text = bst_read("probes");
	bst_parse(text, &after);
	free(text);
	nnew = 0;
	idx = -1;
	for (i = before.nrows; i < after.nrows; i++) {
		if (!strcmp(after.rows[i].f[c_dev], dev)) {
			nnew++;
			idx = i;
		}
	}
	ksft_test_result(nnew == 1, "one new row for %s (%d; %d rows before, %d after)\n",
			 dev, nnew, before.nrows, after.nrows);
	if (idx < 0) {
		for (i = 0; i < 5; i++)
			bst_skip("the rebind's row", "no row for %s", dev);
		ksft_finished();
	}

	ksft_test_result(!strcmp(after.rows[idx].f[c_drv], rb.drv) &&
			 !strcmp(after.rows[idx].f[c_bus], rb.bus),
			 "row names driver %s bus %s (want %s %s)\n", after.rows[idx].f[c_drv],
			 after.rows[idx].f[c_bus], rb.drv, rb.bus);

	start = bst_num(&after.rows[idx], c_start);
	dur = bst_num(&after.rows[idx], c_dur);
	ret = bst_num(&after.rows[idx], c_ret);
	lo = to_ns(&cv, c0);
	hi = to_ns(&cv, c1);
	ksft_print_msg("bind between %lld and %lld ns; row start %lld duration %lld ret %s\n",
		       lo, hi, start, dur, after.rows[idx].f[c_ret]);
	ksft_test_result(ret == 0 && !strcmp(after.rows[idx].f[c_ret], "0") && dur > 0 &&
			 start >= lo && start + dur <= hi,
			 "ret 0, duration > 0, probe within the bind write\n");

	pid = bst_num(&after.rows[idx], c_pid);
	cpu = bst_num(&after.rows[idx], c_cpu);
	ksft_test_result(pid == getpid() && !strcmp(after.rows[idx].f[c_async], "no") &&
			 cpu >= 0 && cpu < sysconf(_SC_NPROCESSORS_CONF),
			 "probed by the writer: pid %lld (want %d), async %s, cpu %lld\n", pid,
			 getpid(), after.rows[idx].f[c_async], cpu);

	summary = bst_read("summary");
	live = bst_key_num(summary, "live_probes");
	dropped = bst_key_num(summary, "live_probes_dropped");
	free(summary);
	ksft_test_result(live == after.nrows && dropped == 0,
			 "live_probes %lld = %d rows, live_probes_dropped %lld\n", live,
			 after.nrows, dropped);

	nasync = 0;
	badasync = 0;
	for (i = 0; i < after.nrows; i++) {
		if (strcmp(after.rows[i].f[c_async], "yes"))
			continue;
		nasync++;
		if (!is_kworker(bst_num(&after.rows[i], c_pid)))
			badasync++;
	}
	if (!nasync)
		bst_skip("async rows ran on async workers",
			 "no asynchronous probe since load: a sysfs bind probes in the writer's context and the guest adds no device or driver after load");
	else
		ksft_test_result(!badasync,
				 "async rows ran on async workers (%d of %d not a kworker)\n",
				 badasync, nasync);

	bst_table_free(&before);
	bst_table_free(&after);
	ksft_finished();
}
