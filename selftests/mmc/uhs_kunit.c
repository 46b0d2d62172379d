// SPDX-License-Identifier: GPL-2.0
/*
 * The series' KUnit suite for the UHS-I bus speed choice and step down
 * (mmc_sd_uhs), run by the kernel at boot with kunit.enable=1: one result
 * here per test case and per parameter, as the kernel reported them.
 */
#include "sd.h"

#define RESULTS		"/sys/kernel/debug/kunit/mmc_sd_uhs/results"
#define MAX_RESULTS	256

int main(void)
{
	static char buf[32768];
	static const char *names[MAX_RESULTS];
	static bool oks[MAX_RESULTS];
	char *line, *save, *name;
	int i, n = 0, depth;
	bool ok;

	ksft_print_header();
	if (sd_read_file(RESULTS, buf, sizeof(buf)) <= 0)
		ksft_exit_fail_msg("%s: %s (kunit.enable=1 on the command line?)\n",
				   RESULTS, strerror(errno));
	/*
	 * KTAP: the suite's "ok 1 mmc_sd_uhs" at the left, its cases indented
	 * by 4, the parameters of a parameterised case by 8.
	 */
	for (line = strtok_r(buf, "\n", &save); line && n < MAX_RESULTS;
	     line = strtok_r(NULL, "\n", &save)) {
		depth = strspn(line, " ");
		name = line + depth;
		ok = !strncmp(name, "ok ", 3);
		if ((!ok && strncmp(name, "not ok ", 7)) || depth < 4)
			continue;
		name += ok ? 3 : 7;
		name += strspn(name, "0123456789 ");
		names[n] = name;
		oks[n++] = ok;
	}
	if (!n)
		ksft_exit_fail_msg("no result in %s\n", RESULTS);
	ksft_set_plan(n);
	for (i = 0; i < n; i++)
		ksft_test_result(oks[i], "%s\n", names[i]);
	ksft_finished();
}
