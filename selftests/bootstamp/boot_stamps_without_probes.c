// SPDX-License-Identifier: GPL-2.0
/*
 * When the recorder cannot register its tracepoint probes (review C7), is
 * the rest of the boot log still there? The test-only fault of
 * scripts/bench/lab/bootstamp-faults.patch (the models and debug kernels), given
 * bootstamp_test_fail_register=1, makes the last registration fail, so
 * bootstamp_register() unwinds the others. Then there are no initcall
 * records ("initcalls: 0 of 0") and no cpuhp points, but
 * /sys/kernel/debug/boot_stamps appears at the exec of init as on every
 * boot, and the milestones stamped without the probes (kernel_entry,
 * start_kernel, time_init, smp_init, sched_init_smp, free_initmem,
 * init_exec) are in it, in that order. Before the fix the recorder
 * stopped: no file, init_exec never stamped. A boot without the fault
 * given is not this test's: it fails rather than pass on a kernel that
 * registered its probes.
 */
#include "bootstamp_test.h"

#define BOOT_STAMPS	"/sys/kernel/debug/boot_stamps"
#define FAULT_PARAM	"/sys/module/kernel/parameters/bootstamp_test_fail_register"

static const char *const chain[] = {
	"kernel_entry", "start_kernel", "time_init", "smp_init",
	"sched_init_smp", "free_initmem", "init_exec",
};

#define NCHAIN	BST_ARRAY_SIZE(chain)

/* The counter of milestone @name in @txt, 0 if absent or not stamped. */
static unsigned long long milestone(const char *txt, const char *name)
{
	size_t len = strlen(name);
	const char *p;

	for (p = txt; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		if (!strncmp(p, name, len) && p[len] == ' ')
			return strtoull(p + len + 1, NULL, 10);
	return 0;
}

int main(void)
{
	unsigned long long v[NCHAIN];
	char *fault, *txt;
	unsigned int nr = 1, max = 1;
	const char *p;
	size_t i;

	ksft_print_header();
	ksft_set_plan(4 + NCHAIN);

	fault = bst_read_all(FAULT_PARAM, NULL);
	if (!fault)
		ksft_exit_fail_msg(FAULT_PARAM ": %s (not a kernel with scripts/bench/lab/bootstamp-faults.patch, such as the models kernel?)\n",
				   strerror(errno));
	ksft_test_result(fault[0] == 'Y', "the registration fault is on (%c)\n", fault[0]);
	free(fault);

	txt = bst_read_all(BOOT_STAMPS, NULL);
	if (!txt)
		ksft_print_msg(BOOT_STAMPS ": %s\n", strerror(errno));
	ksft_test_result(txt != NULL, BOOT_STAMPS " appears without the probes\n");
	p = txt ? strstr(txt, "# initcalls: ") : NULL;
	if (p && sscanf(p, "# initcalls: %u of %u", &nr, &max) != 2)
		p = NULL;
	ksft_test_result(p && nr == 0 && max == 0,
			 "no initcall records, capacity 0 (%u of %u)\n", nr, max);
	for (i = 0; i < NCHAIN; i++) {
		v[i] = txt ? milestone(txt, chain[i]) : 0;
		ksft_test_result(v[i] > 0 && (!i || v[i] > v[i - 1]),
				 "%s stamped (%llu), after %s\n", chain[i], v[i],
				 i ? chain[i - 1] : "nothing");
	}
	/* The cpuhp points come from the probes: none in any row. */
	p = txt ? strstr(txt, "# cpu requested") : NULL;
	nr = 0;
	if (p) {
		unsigned long long req, ent, sk, onl, act, fin;
		unsigned int cpu;

		for (p = strchr(p, '\n'); p && p[1]; p = strchr(p + 1, '\n'))
			if (sscanf(p + 1, "%u %llu %llu %llu %llu %llu %llu", &cpu,
				   &req, &ent, &sk, &onl, &act, &fin) == 7 &&
			    (req || act || fin))
				nr++;
	}
	ksft_test_result(p && !nr, "no requested, active or finished stamp (%u rows have one)\n", nr);
	free(txt);
	ksft_finished();
}
