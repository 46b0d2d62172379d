// SPDX-License-Identifier: GPL-2.0
/*
 * Does ->cpus_latest describe one bring-up, the latest (review C4)? The
 * kernel's kernel-doc of bootstamp_get_log() says: all of a CPU's points are
 * cleared when the control CPU requests a bring-up, so a point that bring-up
 * did not stamp reads 0, never an earlier bring-up's. The test-only fault and
 * reader of scripts/bench/lab/bootstamp-faults.patch (the models and debug kernels):
 * bootstamp_test_drop_entry=N drops the next N secondary entry stamps, as
 * head.S does when another CPU's MPIDR is in the slot, and
 * /sys/kernel/debug/bootstamp_test_latest shows cpus_latest as a consumer of
 * bootstamp_get_log() reads it (under cpus_read_lock()).
 *
 * cpu1 offline and online (a normal bring-up: requested < entry <
 * start_kernel < online), then again with one entry stamp dropped: entry
 * must read 0, not the first bring-up's, and the other points must be the
 * second bring-up's (after its request, which is after the first one's
 * online). Before the fix the slot kept the first bring-up's entry (and had
 * no requested point).
 */
#include "bootstamp_test.h"

#define LATEST		"/sys/kernel/debug/bootstamp_test_latest"
#define DROP		"/sys/module/kernel/parameters/bootstamp_test_drop_entry"
#define CPU1_ONLINE	"/sys/devices/system/cpu/cpu1/online"

struct latest {
	unsigned long long req, entry, sk, online;
	unsigned int flags;
};

/* cpu1's row of LATEST; fails the test if there is none. */
static struct latest read_cpu1(void)
{
	struct latest l = { 0 };
	char *txt = bst_read_all(LATEST, NULL);
	const char *p;
	unsigned int cpu;

	if (!txt)
		ksft_exit_fail_msg(LATEST ": %s (not a kernel with scripts/bench/lab/bootstamp-faults.patch, such as the models kernel?)\n",
				   strerror(errno));
	for (p = txt; p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		if (sscanf(p, "%u %llu %llu %llu %llu %x", &cpu, &l.req, &l.entry,
			   &l.sk, &l.online, &l.flags) == 6 && cpu == 1)
			break;
	if (!p)
		ksft_exit_fail_msg(LATEST ": no row for cpu1\n");
	free(txt);
	ksft_print_msg("cpu1 latest: requested %llu entry %llu start_kernel %llu online %llu flags %#x\n",
		       l.req, l.entry, l.sk, l.online, l.flags);
	return l;
}

static void cycle_cpu1(void)
{
	int err = bst_write_file(CPU1_ONLINE, "0");

	if (!err)
		err = bst_write_file(CPU1_ONLINE, "1");
	if (err)
		ksft_exit_fail_msg(CPU1_ONLINE ": %s\n", strerror(-err));
}

int main(void)
{
	struct latest a, b;
	char *left;
	long cpus;
	int err;

	ksft_print_header();
	cpus = strtol(bst_expect("CPUS"), NULL, 10);
	if (cpus < 2)
		ksft_exit_skip("needs a second CPU to take offline (boot has %ld)\n", cpus);
	ksft_set_plan(5);

	cycle_cpu1();
	a = read_cpu1();
	ksft_test_result(a.req && a.req < a.entry && a.entry < a.sk && a.sk < a.online,
			 "a bring-up: requested < entry < start_kernel < online\n");

	err = bst_write_file(DROP, "1");
	if (err)
		ksft_exit_fail_msg(DROP ": %s\n", strerror(-err));
	cycle_cpu1();
	left = bst_read_all(DROP, NULL);
	ksft_test_result(left && atoi(left) == 0, "the fault dropped one entry stamp (%d left)\n",
			 left ? atoi(left) : -1);
	free(left);
	b = read_cpu1();
	ksft_test_result(b.req > a.online, "a new request, after the first bring-up\n");
	ksft_test_result(b.entry == 0, "dropped entry reads 0 (%s)\n",
			 b.entry == a.entry ? "the first bring-up's" : "not the first bring-up's");
	ksft_test_result(b.req < b.sk && b.sk < b.online,
			 "start_kernel and online are the new bring-up's\n");
	ksft_finished();
}
