// SPDX-License-Identifier: GPL-2.0
/*
 * Is the freq_hz parameter validated, and does it replace CNTFRQ_EL0 in the
 * conversion to nanoseconds? A frequency of 0 or a value that is not a
 * 32-bit number makes the load fail with EINVAL and leaves no module; a
 * valid one shows in the summary (freq_hz, freq_source, ns_per_tick), in
 * /sys/module/bootstamp/parameters/freq_hz, and in since_cnt0_ns of the
 * module_load row. It is decimal, or hex with 0x: "010" is 10, not octal 8.
 * Without it the module uses the rate the kernel's log gives (freq_source
 * "kernel"; counter_matches_kernel checks it against the arch timer's own
 * banner), or CNTFRQ_EL0 on a kernel without the log; QEMU sets no
 * clock-frequency in its device tree, so both equal CNTFRQ_EL0 as userspace
 * reads it. The module is left loaded (without the parameter) only if it
 * was loaded when the test started.
 */
#include "bootstamp_test.h"

#define OVERRIDE_HZ	1000000ULL	/* 1000 ns per tick */

static const char *const bad_values[] = { "0", "abc", "4294967296", "-1", "0x", "08x", "0x0x10", "+5" };

/* Written, and read back from parameters/freq_hz in decimal. */
static const struct {
	const char		*val;
	unsigned long long	hz;
} good_values[] = { { "010", 10 }, { "0x10", 16 } };

static unsigned long long gcd(unsigned long long a, unsigned long long b)
{
	while (b) {
		unsigned long long t = a % b;

		a = b;
		b = t;
	}
	return a;
}

/* The module_load row: its counter and since_cnt0_ns. */
static bool load_row(const char *summary, long long *cnt, long long *ns)
{
	struct bst_table t;
	bool found = false;
	int i;

	bst_parse(summary, &t);
	for (i = 0; i < t.nrows; i++) {
		if (strcmp(t.rows[i].f[0], "module_load"))
			continue;
		*cnt = bst_num(&t.rows[i], bst_col(&t, "counter"));
		*ns = bst_num(&t.rows[i], bst_col(&t, "since_cnt0_ns"));
		found = *cnt > 0 && *ns > 0;
	}
	bst_table_free(&t);
	return found;
}

static void check_summary(const char *what, unsigned long long hz, const char *source,
			  uint64_t c0, uint64_t c1)
{
	unsigned long long g = gcd(1000000000ULL, hz);
	char want_tick[64], *summary = bst_read("summary");
	const char *tick, *src;
	long long cnt = 0, ns = 0, fhz;
	bool ok_row;

	snprintf(want_tick, sizeof(want_tick), "%llu/%llu", 1000000000ULL / g, hz / g);
	fhz = bst_key_num(summary, "freq_hz");
	src = bst_key(summary, "freq_source");
	ksft_test_result(fhz == (long long)hz && src && !strcmp(src, source),
			 "%s: summary says freq_hz: %lld from %s (want %llu from %s)\n",
			 what, fhz, src ? src : "(missing)", hz, source);
	tick = bst_key(summary, "ns_per_tick");
	ksft_test_result(tick && !strcmp(tick, want_tick),
			 "%s: ns_per_tick: %s (want %s)\n", what, tick ? tick : "(missing)",
			 want_tick);

	/* since_cnt0_ns = counter * 1e9 / freq_hz, rounded down. */
	ok_row = load_row(summary, &cnt, &ns);
	ok_row = ok_row && (unsigned long long)ns ==
		 (unsigned long long)((unsigned __int128)cnt * 1000000000ULL / hz);
	/* Stamped during finit_module(): whatever the counter, or a failure. */
	ok_row = bst_user_counter(summary) && ok_row &&
		 (uint64_t)cnt >= c0 && (uint64_t)cnt <= c1;
	ksft_print_msg("%s: module_load counter %lld (load window %llu..%llu), since_cnt0_ns %lld\n",
		       what, cnt, (unsigned long long)c0, (unsigned long long)c1, ns);
	ksft_test_result(ok_row,
			 "%s: module_load is stamped during the load and converted at %llu Hz\n",
			 what, hz);
	free(summary);
}

int main(void)
{
	bool was_loaded = bst_loaded();
	unsigned long long cntfrq = bst_cntfrq();
	char params[64], *param;
	uint64_t c0, c1;
	size_t i;
	int ret;

	ksft_print_header();
	bst_need_ko();
	ksft_set_plan(BST_ARRAY_SIZE(bad_values) + BST_ARRAY_SIZE(good_values) + 8);
	if (was_loaded && (ret = bst_unload(5, NULL)))
		ksft_exit_fail_msg("unloading the module loaded at boot: %s\n", strerror(-ret));

	for (i = 0; i < BST_ARRAY_SIZE(bad_values); i++) {
		snprintf(params, sizeof(params), "freq_hz=%s", bad_values[i]);
		ret = bst_load(params);
		ksft_test_result(ret == -EINVAL && !bst_loaded(),
				 "%s is refused with EINVAL (%s%s)\n", params,
				 ret ? strerror(-ret) : "loaded",
				 bst_loaded() ? ", module present" : "");
		if (!ret)
			bst_unload(5, NULL);
	}

	for (i = 0; i < BST_ARRAY_SIZE(good_values); i++) {
		snprintf(params, sizeof(params), "freq_hz=%s", good_values[i].val);
		ret = bst_load(params);
		param = ret ? NULL : bst_slurp(BST_SYSMOD "/parameters/freq_hz");
		ksft_test_result(param && strtoull(param, NULL, 10) == good_values[i].hz,
				 "%s loads and reads back %llu (%s)\n", params, good_values[i].hz,
				 ret ? strerror(-ret) : param ? strtok(param, "\n") : strerror(errno));
		free(param);
		if (!ret && (ret = bst_unload(5, NULL)))
			ksft_exit_fail_msg("unload after %s: %s\n", params, strerror(-ret));
	}

	snprintf(params, sizeof(params), "freq_hz=%llu", OVERRIDE_HZ);
	c0 = bst_cntvct();
	ret = bst_load(params);
	c1 = bst_cntvct();
	if (ret)
		ksft_exit_fail_msg("load with %s: %s\n", params, strerror(-ret));
	param = bst_slurp(BST_SYSMOD "/parameters/freq_hz");
	ksft_test_result(param && strtoull(param, NULL, 10) == OVERRIDE_HZ,
			 "parameters/freq_hz reads %llu\n", OVERRIDE_HZ);
	free(param);
	check_summary(params, OVERRIDE_HZ, "freq_hz", c0, c1);
	ret = bst_unload(5, NULL);
	if (ret)
		ksft_exit_fail_msg("unload: %s\n", strerror(-ret));

	c0 = bst_cntvct();
	ret = bst_load("");
	c1 = bst_cntvct();
	if (ret)
		ksft_exit_fail_msg("load without parameters: %s\n", strerror(-ret));
	param = bst_slurp(BST_SYSMOD "/parameters/freq_hz");
	ksft_test_result(param && strtoull(param, NULL, 10) == 0,
			 "without freq_hz, parameters/freq_hz reads 0 (%s)\n",
			 param ? strtok(param, "\n") : strerror(errno));
	free(param);
	check_summary("no freq_hz", cntfrq,
		      !strcmp(bst_expect("BOOTSTAMP"), "y") ? "kernel" : "CNTFRQ_EL0", c0, c1);

	/* A module that cannot go away would break the next test's loads. */
	if (!was_loaded && (ret = bst_unload(5, NULL)))
		ksft_exit_fail_msg("unload at the end: %s\n", strerror(-ret));
	ksft_finished();
}
