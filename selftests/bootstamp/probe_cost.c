// SPDX-License-Identifier: GPL-2.0
/*
 * What does the module's kretprobe on really_probe() add to a driver
 * probe? One device (rebind.h) is bound again through sysfs, BINDS times
 * per round, with the module loaded (the kretprobe armed) and unloaded, in
 * ROUNDS rounds whose order alternates (off then on, on then off, ...);
 * each bind write is timed with the counter. It prints the median bind of
 * each configuration, the difference and the ratio, the module's own
 * figure for that difference (summary's probe_cost_ns, which it measures
 * at each load), and a line "probe_cost off_ns=N on_ns=N self_ns=N ..."
 * for scripts/bench/probe-cost.sh, which boots it several times. Times are
 * reported, never asserted. Asserted is that the configurations are what
 * they claim: with the module loaded every bind added one row for the
 * device to the probes file and nothing was dropped (the probe ran each
 * time), and the summary gave a cost (a number of ns, not "-") after each
 * load; without it the module was not loaded; the device is bound at the
 * end and the module is as found. And when the module measures its cost:
 * at the summary's first read, not at load, where a load from the
 * initramfs would put a kretprobe's arming (every CPU stopped twice, an
 * RCU grace period) in the boot it times: a kprobe event on
 * register_kretprobe() counts one call at load (really_probe) and one more
 * at the first read.
 */
#include "bootstamp_test.h"
#include "rebind.h"
#include "../lib/bst_trace.h"

#define KPROBE_EVENTS	"/sys/kernel/tracing/kprobe_events"
#define REG_EVENT	"/sys/kernel/tracing/events/bst_cost/reg/enable"
#define TRACE		"/sys/kernel/tracing/trace"

#define ROUNDS	8
#define BINDS	25

static uint64_t off_ticks[ROUNDS * BINDS], on_ticks[ROUNDS * BINDS];
static uint64_t self_ns[ROUNDS];
static struct bst_rebind rb;
static bool was_loaded, found_device;

/*
 * However the test ends (ksft_exit_fail_msg() exits): the device bound
 * and the module loaded again if it was. Not after SIGKILL, which /init
 * sends only to end the boot.
 */
static void put_back(void)
{
	char path[512];
	int err;

	if (found_device) {
		snprintf(path, sizeof(path), "/sys/bus/%s/drivers/%s/%s", rb.bus, rb.drv, rb.dev);
		err = access(path, F_OK) ? bst_rebind_write(&rb, "bind") : 0;
		if (err)
			ksft_print_msg("putting back: bind %s: %s\n", rb.dev, strerror(-err));
	}
	err = was_loaded && !bst_loaded() ? bst_load("") : 0;
	if (err)
		ksft_print_msg("putting back: load %s: %s\n", BST_KO, strerror(-err));
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Quantile @q of the sorted @t in ns (the nearest rank below). */
static double quantile_ns(const uint64_t *t, int n, double q, uint64_t freq)
{
	return t[(int)(q * (n - 1))] * 1e9 / freq;
}

static double median_ns(const uint64_t *t, int n, uint64_t freq)
{
	return (n % 2 ? t[n / 2] : (t[n / 2 - 1] + t[n / 2]) / 2.0) * 1e9 / freq;
}

/* Rows of the probes file for @dev; -1 if the file cannot be read. */
static int rows_for(const char *dev)
{
	char *text = bst_read("probes");
	struct bst_table t;
	int i, c, n = 0;

	bst_parse(text, &t);
	free(text);
	c = bst_col(&t, "device");
	for (i = 0; i < t.nrows; i++)
		n += !strcmp(t.rows[i].f[c], dev);
	bst_table_free(&t);
	return n;
}

/* BINDS unbind/bind cycles; the bind writes' durations go to @out. */
static void binds(const struct bst_rebind *rb, uint64_t *out)
{
	uint64_t c0, c1;
	int i, err;

	for (i = 0; i < BINDS; i++) {
		err = bst_rebind_write(rb, "unbind");
		if (err)
			ksft_exit_fail_msg("unbind %s: %s\n", rb->dev, strerror(-err));
		c0 = bst_cntvct();
		err = bst_rebind_write(rb, "bind");
		c1 = bst_cntvct();
		if (err)
			ksft_exit_fail_msg("bind %s to %s: %s (device left unbound)\n", rb->dev,
					   rb->drv, strerror(-err));
		out[i] = c1 - c0;
	}
}

/* register_kretprobe() calls traced since the last clear, -1 if unreadable. */
static int reg_calls(void)
{
	char *t = bst_read_all(TRACE, NULL), *p;
	int n = 0;

	if (!t)
		return -1;
	for (p = t; (p = strstr(p, " reg: ")); p++)
		n++;
	free(t);
	return n;
}

/*
 * Load the module with register_kretprobe() traced: the calls of the load,
 * and of the summary's first read, in *@at_load and *@at_read (-1 when the
 * kernel cannot trace them). Leaves the module loaded.
 */
static int load_counting_registrations(int *at_load, int *at_read)
{
	char *summary;
	int ret;

	*at_load = *at_read = -1;
	bst_tracefs(TRACE);
	ret = bst_write_file(KPROBE_EVENTS, "p:bst_cost/reg register_kretprobe\n");
	if (!ret)
		ret = bst_write_file(REG_EVENT, "1");
	if (!ret)
		ret = bst_write_file(TRACE, "");
	if (ret) {
		ksft_print_msg("no kprobe event on register_kretprobe: %s\n", strerror(-ret));
		return bst_load("");
	}
	ret = bst_load("");
	if (!ret) {
		*at_load = reg_calls();
		summary = bst_read("summary");
		free(summary);
		*at_read = reg_calls() - *at_load;
	}
	bst_write_file(REG_EVENT, "0");
	bst_write_file(KPROBE_EVENTS, "-:bst_cost/reg\n");
	return ret;
}

int main(void)
{
	int reg_load = -1, reg_read = -1;
	int r, n_on = 0, n_off = 0, recorded = 0, loaded_off = 0, n_self = 0, ret;
	long long dropped = 0, cost;
	char *summary, path[512];
	const char *state;
	uint64_t freq = bst_cntfrq();
	double off, on;

	ksft_print_header();
	was_loaded = bst_loaded();
	atexit(put_back);
	bst_need_module();
	ksft_set_plan(6);
	summary = bst_read("summary");
	state = bst_key(summary, "probes");
	if (!state || strcmp(state, "on")) {
		for (r = 0; r < 6; r++)
			bst_skip("probe cost", "probes is %s", state ? state : "(missing)");
		if (!was_loaded)
			bst_unload(5, NULL);
		ksft_finished();
	}
	free(summary);
	if (!bst_rebind_find(&rb))
		ksft_exit_fail_msg("no device bound to rtc-pl031 or pl061_gpio on the amba bus without a bound consumer: the QEMU virt guest has a PL061\n");
	found_device = true;
	ksft_print_msg("rebinding %s %s %s: %d rounds of %d binds per configuration\n",
		       rb.bus, rb.drv, rb.dev, ROUNDS, BINDS);
	ret = bst_unload(5, NULL);
	if (ret)
		ksft_exit_fail_msg("unload: %s\n", strerror(-ret));

	for (r = 0; r < ROUNDS * 2; r++) {
		/* off, on | on, off | off, on ...: neither always goes first. */
		bool with = (r % 2) ^ ((r / 2) % 2);

		if (!with) {
			loaded_off += bst_loaded();
			binds(&rb, off_ticks + n_off);
			n_off += BINDS;
			continue;
		}
		/* The first load counts its registrations. */
		ret = n_on ? bst_load("") : load_counting_registrations(&reg_load, &reg_read);
		if (ret)
			ksft_exit_fail_msg("load %s: %s\n", BST_KO, strerror(-ret));
		binds(&rb, on_ticks + n_on);
		n_on += BINDS;
		recorded += rows_for(rb.dev) == BINDS;
		summary = bst_read("summary");
		dropped += bst_key_num(summary, "live_probes_dropped");
		cost = bst_key_num(summary, "probe_cost_ns");
		if (cost > 0)
			self_ns[n_self++] = cost;
		else
			ksft_print_msg("summary's probe_cost_ns: %s\n",
				       bst_key(summary, "probe_cost_ns") ?
				       bst_key(summary, "probe_cost_ns") : "(missing)");
		free(summary);
		ret = bst_unload(5, NULL);
		if (ret)
			ksft_exit_fail_msg("unload: %s\n", strerror(-ret));
	}

	qsort(off_ticks, n_off, sizeof(*off_ticks), cmp_u64);
	qsort(on_ticks, n_on, sizeof(*on_ticks), cmp_u64);
	off = median_ns(off_ticks, n_off, freq);
	on = median_ns(on_ticks, n_on, freq);
	ksft_print_msg("bind %s: median %.1f us without the module (IQR %.1f-%.1f), %.1f us with its kretprobe (IQR %.1f-%.1f): %+.1f us (%.3fx)\n",
		       rb.dev, off / 1e3, quantile_ns(off_ticks, n_off, 0.25, freq) / 1e3,
		       quantile_ns(off_ticks, n_off, 0.75, freq) / 1e3, on / 1e3,
		       quantile_ns(on_ticks, n_on, 0.25, freq) / 1e3,
		       quantile_ns(on_ticks, n_on, 0.75, freq) / 1e3, (on - off) / 1e3, on / off);
	qsort(self_ns, n_self, sizeof(*self_ns), cmp_u64);
	if (n_self)
		ksft_print_msg("the module's own figure (summary's probe_cost_ns, median of %d loads): %.1f us\n",
			       n_self, median_ns(self_ns, n_self, 1000000000) / 1e3);
	ksft_print_msg("probe_cost off_ns=%.0f on_ns=%.0f self_ns=%.0f binds=%d rounds=%d\n", off,
		       on, n_self ? median_ns(self_ns, n_self, 1000000000) : -1.0, n_on, ROUNDS);

	ksft_test_result(recorded == ROUNDS && !dropped,
			 "with the module every bind was recorded (%d of %d rounds with %d rows, %lld dropped)\n",
			 recorded, ROUNDS, BINDS, dropped);
	ksft_test_result(n_self == ROUNDS,
			 "the summary gave the module's cost per probe after each load (%d of %d)\n",
			 n_self, ROUNDS);
	ksft_test_result(!loaded_off, "without the module it was not loaded (%d rounds loaded)\n",
			 loaded_off);
	ksft_test_result(reg_load == 1 && reg_read == 1,
			 "the module arms one kretprobe at load and measures its cost at the summary's first read (register_kretprobe: %d at load, %d at the read)\n",
			 reg_load, reg_read);
	snprintf(path, sizeof(path), "/sys/bus/%s/drivers/%s/%s", rb.bus, rb.drv, rb.dev);
	ksft_test_result(!access(path, F_OK), "%s bound to %s at the end\n", rb.dev, rb.drv);
	/* Loaded again without parameters: the -load boots start without it. */
	if (was_loaded) {
		ret = bst_load("");
		if (ret)
			ksft_print_msg("reloading the module: %s\n", strerror(-ret));
	}
	ksft_test_result(bst_loaded() == was_loaded, "module %s as found\n",
			 was_loaded ? "loaded" : "unloaded");
	ksft_finished();
}
