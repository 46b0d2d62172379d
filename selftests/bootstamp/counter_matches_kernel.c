// SPDX-License-Identifier: GPL-2.0
/*
 * Does the module describe the counter as the kernel uses it? Every
 * expectation comes from a source the module does not read:
 *   freq_hz            the arch timer's "cp15 timer running at X.YZMHz" line
 *                      (10 kHz resolution) and, when the device tree sets
 *                      one, /proc/device-tree/timer/clock-frequency exactly
 *                      (the kernel prefers it to CNTFRQ_EL0); freq_source
 *                      "kernel"
 *   counter            CNTPCT_EL0 when every CPU started at EL2 (the kernel
 *                      then cleared CNTVOFF_EL2), else CNTVCT_EL0
 *   entry_counter      the same rule for kernel entry (summary) and for
 *                      each CPU's entry stamp (cpus)
 *   counter_raw_early  "yes" exactly when the arch timer enabled a counter
 *                      erratum workaround ("Enabling ... workaround" in the
 *                      kernel log; the timer-quirks device tree asks for
 *                      hisilicon,erratum-161010101), which the stamps taken before
 *                      time_init() did not use
 *   before_entry       names the firmware and the EFI stub exactly on an
 *                      EFI boot (/sys/firmware/efi exists), else says
 *                      "unverified": no firmware time is claimed
 *                      (bootstamp review A1)
 * Needs full mode; boots need the kernel log from time_init() on.
 */
#include "bootstamp_test.h"

#include <arpa/inet.h>

#define DT_TIMER_FREQ	"/proc/device-tree/timer/clock-frequency"

/* The rate in the arch timer's banner, in units of 10 kHz; -1 if absent. */
static long long banner_10khz(void)
{
	char *line = bst_kmsg_find("cp15 timer running at ");
	unsigned long mhz, frac;
	long long v = -1;

	if (line && sscanf(strstr(line, " at ") + 4, "%lu.%2luMHz", &mhz, &frac) == 2)
		v = mhz * 100 + frac;
	if (line)
		ksft_print_msg("kernel: %s\n", line);
	free(line);
	return v;
}

/* The device tree's clock-frequency for the timer, 0 if it sets none. */
static long long dt_freq(void)
{
	uint32_t be;
	int fd = open(DT_TIMER_FREQ, O_RDONLY | O_CLOEXEC);
	bool ok;

	if (fd < 0)
		return 0;
	ok = read(fd, &be, sizeof(be)) == sizeof(be);
	close(fd);
	if (!ok)
		ksft_exit_fail_msg("%s: not a 32-bit value\n", DT_TIMER_FREQ);
	return ntohl(be);
}

/* Every row with an entry stamp names @want; the number of such rows. */
static int rows_naming(const char *want, int *bad)
{
	char *txt = bst_read("cpus");
	struct bst_table t;
	int c_src, c_cpu, c_entry, c_ctr, i, n = 0;

	bst_parse(txt, &t);
	free(txt);
	c_src = bst_col(&t, "source");
	c_cpu = bst_col(&t, "cpu");
	c_entry = bst_col(&t, "entry_ns");
	c_ctr = bst_col(&t, "entry_counter");
	*bad = 0;
	for (i = 0; i < t.nrows; i++) {
		if (bst_num(&t.rows[i], c_entry) < 0)
			continue;
		n++;
		if (strcmp(t.rows[i].f[c_ctr], want)) {
			ksft_print_msg("cpu %s (%s row): entry_counter %s, want %s\n",
				       t.rows[i].f[c_cpu], t.rows[i].f[c_src], t.rows[i].f[c_ctr],
				       want);
			(*bad)++;
		}
	}
	bst_table_free(&t);
	return n;
}

int main(void)
{
	const char *counter, *entry, *raw, *before, *src;
	char *summary, *wa;
	long long freq, tenk, dt;
	bool efi, want_raw;
	const char *want;
	int n, bad;

	ksft_print_header();
	bst_need_module();
	summary = bst_read("summary");
	bst_need_full_mode(summary);
	ksft_set_plan(6);

	freq = bst_key_num(summary, "freq_hz");
	src = bst_key(summary, "freq_source");
	tenk = banner_10khz();
	dt = dt_freq();
	ksft_print_msg("summary freq_hz %lld from %s; banner %lld x 10 kHz; device tree %lld\n",
		       freq, src ? src : "(missing)", tenk, dt);
	ksft_test_result(freq > 0 && tenk >= 0 && freq / 10000 == tenk && (!dt || dt == freq) &&
			 src && !strcmp(src, "kernel"),
			 "freq_hz is the kernel's timer rate (freq_source kernel)\n");

	want = bst_boot_el() == 2 ? "CNTPCT_EL0" : "CNTVCT_EL0";
	counter = bst_key(summary, "counter");
	ksft_test_result(counter && !strcmp(counter, want), "counter: %s (want %s)\n",
			 counter ? counter : "(missing)", want);
	entry = bst_key(summary, "entry_counter");
	ksft_test_result(entry && !strcmp(entry, want), "entry_counter: %s (want %s)\n",
			 entry ? entry : "(missing)", want);
	n = rows_naming(want, &bad);
	ksft_test_result(n > 0 && !bad, "%d cpus rows with an entry stamp, %d naming another counter\n",
			 n, bad);

	wa = bst_kmsg_find("workaround for");
	want_raw = wa && strstr(wa, "Enabling ");
	if (wa)
		ksft_print_msg("kernel: %s\n", wa);
	raw = bst_key(summary, "counter_raw_early");
	ksft_test_result(raw && !strcmp(raw, want_raw ? "yes" : "no"),
			 "counter_raw_early: %s (want %s)\n", raw ? raw : "(missing)",
			 want_raw ? "yes" : "no");
	free(wa);

	efi = !access("/sys/firmware/efi", F_OK);
	before = bst_key(summary, "before_entry");
	ksft_test_result(before && !strcmp(before, efi ? "firmware,bootloader,efi_stub" :
					   "unverified"),
			 "before_entry: %s on a%s EFI boot\n", before ? before : "(missing)",
			 efi ? "n" : " non-");
	free(summary);
	ksft_finished();
}
