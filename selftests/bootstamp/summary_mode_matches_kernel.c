// SPDX-License-Identifier: GPL-2.0
/*
 * Does the module say what it can show? "mode: full" with the kernel's boot
 * log (CONFIG_BOOTSTAMP=y), "mode: live-only" without it, on any kernel:
 * the unpatched baseline, and the series with the recorder compiled out.
 */
#include "bootstamp_test.h"

int main(void)
{
	const char *want_full;
	char *summary;
	bool full;

	ksft_print_header();
	want_full = bst_expect("BOOTSTAMP");
	bst_need_module();
	ksft_set_plan(2);
	summary = bst_read("summary");
	full = bst_full_mode(summary);	/* exits with a failure on a mismatch */
	ksft_test_result_pass("summary says mode: %s on a kernel %s CONFIG_BOOTSTAMP\n",
			      full ? "full" : "live-only",
			      !strcmp(want_full, "y") ? "with" : "without");
	ksft_test_result(full == (bst_key_num(summary, "log_capacity") > 0),
			 "log_capacity is %lld: %s boot log\n",
			 bst_key_num(summary, "log_capacity"), full ? "a" : "no");
	free(summary);
	ksft_finished();
}
