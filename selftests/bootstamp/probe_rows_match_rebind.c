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
 *   async probe  with an SD host on PCI (bst.sd=), the sdhci-pci device
 *                is removed and found again by a PCI rescan:
 *                pci_bus_add_device() -> device_initial_probe() lets a
 *                driver that prefers asynchronous probing (sdhci-pci
 *                does) probe from an async worker, so exactly one new row
 *                for it, driver sdhci-pci, bus pci, ret 0, async "yes",
 *                pid a kworker, and the device bound again; without such
 *                a device the case is a skip
 *   async        every row with async "yes" ran on a kworker; a skip when
 *                there is none
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

#define PCI_ASYNC_DRV	"/sys/bus/pci/drivers/sdhci-pci"

/* Is PCI device @dev QEMU's emulated SD host (1b36:0007)? */
static bool is_qemu_sdhci(const char *dev)
{
	char path[512], *vendor, *device;
	bool yes;

	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/vendor", dev);
	vendor = bst_slurp(path);
	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/device", dev);
	device = bst_slurp(path);
	yes = vendor && device && !strncmp(vendor, "0x1b36", 6) && !strncmp(device, "0x0007", 6);
	free(vendor);
	free(device);
	return yes;
}

/*
 * QEMU's SD host bound to sdhci-pci; false if none. Never a real reader:
 * removing that would pull a card out from under whatever uses it.
 */
static bool find_pci_async(char *dev, size_t len)
{
	struct dirent *e;
	DIR *d = opendir(PCI_ASYNC_DRV);

	if (!d)
		return false;
	while ((e = readdir(d))) {
		if (e->d_type == DT_LNK && strchr(e->d_name, ':') && is_qemu_sdhci(e->d_name)) {
			snprintf(dev, len, "%s", e->d_name);
			closedir(d);
			return true;
		}
	}
	closedir(d);
	return false;
}

/* Index of the row for @dev after @from with a duration; -1 if none yet. */
static int finished_row(const struct bst_table *t, int from, int c_dev, int c_dur, const char *dev,
			int *n)
{
	int i, idx = -1;

	*n = 0;
	for (i = from; i < t->nrows; i++) {
		if (strcmp(t->rows[i].f[c_dev], dev))
			continue;
		(*n)++;
		if (strcmp(t->rows[i].f[c_dur], "-"))
			idx = i;
	}
	return idx;
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

/*
 * Remove the sdhci-pci device and rescan the bus: its probe runs on an
 * async worker. One test result, or a skip without such a device.
 */
static void async_probe(int c_dev, int c_drv, int c_bus, int c_dur, int c_ret, int c_async,
			int c_pid)
{
	char dev[256], path[512], *text;
	struct bst_table before, after;
	int idx = -1, n = 0, err, tries;

	if (!find_pci_async(dev, sizeof(dev))) {
		bst_skip("an async probe is one row on a kworker",
			 "no QEMU SD host (1b36:0007) bound to sdhci-pci: a boot without bst.sd= has none");
		return;
	}
	text = bst_read("probes");
	bst_parse(text, &before);
	free(text);
	ksft_print_msg("removing PCI device %s (sdhci-pci) and rescanning the bus\n", dev);
	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/remove", dev);
	err = bst_write_file(path, "1");
	if (err)
		ksft_exit_fail_msg("PCI remove of %s: %s\n", dev, strerror(-err));
	/* Once more if need be: the device stays away until a rescan works. */
	err = bst_write_file("/sys/bus/pci/rescan", "1");
	if (err)
		err = bst_write_file("/sys/bus/pci/rescan", "1");
	if (err)
		ksft_exit_fail_msg("PCI rescan after removing %s: %s (device gone)\n", dev,
				   strerror(-err));
	/* The probe runs on an async worker: wait for its row to finish. */
	for (tries = 0; tries < 100; tries++) {
		text = bst_read("probes");
		bst_parse(text, &after);
		free(text);
		idx = finished_row(&after, before.nrows, c_dev, c_dur, dev, &n);
		if (idx >= 0)
			break;
		bst_table_free(&after);
		usleep(100000);
	}
	snprintf(path, sizeof(path), PCI_ASYNC_DRV "/%s", dev);
	if (idx < 0) {
		ksft_test_result_fail("no finished row for %s within 10 s of the rescan (%d rows)\n",
				      dev, n);
	} else {
		ksft_print_msg("%s: driver %s bus %s ret %s async %s pid %s\n", dev,
			       after.rows[idx].f[c_drv], after.rows[idx].f[c_bus],
			       after.rows[idx].f[c_ret], after.rows[idx].f[c_async],
			       after.rows[idx].f[c_pid]);
		ksft_test_result(n == 1 && !strcmp(after.rows[idx].f[c_drv], "sdhci-pci") &&
				 !strcmp(after.rows[idx].f[c_bus], "pci") &&
				 !strcmp(after.rows[idx].f[c_ret], "0") &&
				 !strcmp(after.rows[idx].f[c_async], "yes") &&
				 is_kworker(bst_num(&after.rows[idx], c_pid)) && !access(path, F_OK),
				 "an async probe is one row on a kworker (%s after a PCI rescan)\n",
				 dev);
		bst_table_free(&after);
	}
	bst_table_free(&before);
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
	ksft_set_plan(9);

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
		for (i = 0; i < 7; i++)
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
		for (i = 0; i < 6; i++)
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

	async_probe(c_dev, c_drv, c_bus, c_dur, c_ret, c_async, c_pid);
	bst_table_free(&after);
	text = bst_read("probes");
	bst_parse(text, &after);
	free(text);

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
			 "no asynchronous probe since load: a sysfs bind probes in the writer's context, and only a boot with an SD host on PCI (bst.sd=) adds a device after load");
	else
		ksft_test_result(!badasync,
				 "async rows ran on async workers (%d of %d not a kworker)\n",
				 badasync, nasync);

	bst_table_free(&before);
	bst_table_free(&after);
	ksft_finished();
}
