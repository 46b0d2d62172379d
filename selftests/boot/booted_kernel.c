// SPDX-License-Identifier: GPL-2.0
/*
 * Is the kernel that booted the one the harness built for this variant, with
 * the CPUs QEMU was given all online and no taint from boot? The harness
 * writes what it expects into /bst/expect (KEY=VALUE lines): the release and
 * uts version strings it read from the build directory, the variant name and
 * the number of CPUs it passed to QEMU.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "kselftest.h"

#define EXPECT_FILE	"/bst/expect"
/* Taint flags an out-of-tree or unsigned test module sets by design. */
#define TAINT_ALLOWED	((1UL << 12) | (1UL << 13))

/* The value of KEY in /bst/expect; fails the test when it is missing. */
static const char *expect(const char *key)
{
	static char line[512];
	size_t klen = strlen(key);
	FILE *f = fopen(EXPECT_FILE, "r");

	while (f && fgets(line, sizeof(line), f)) {
		if (!strncmp(line, key, klen) && line[klen] == '=') {
			fclose(f);
			line[strcspn(line, "\n")] = '\0';
			return line + klen + 1;
		}
	}
	if (f)
		fclose(f);
	ksft_exit_fail_msg("%s has no %s\n", EXPECT_FILE, key);
	return NULL;
}

/* First line of a sysfs or procfs file, without its newline. */
static int read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");

	if (!f)
		return -errno;
	if (!fgets(buf, len, f))
		buf[0] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	fclose(f);
	return 0;
}

int main(void)
{
	char online[64], want_online[64], taint[32];
	struct utsname u;
	long cpus, nr_online;
	unsigned long tainted;

	ksft_print_header();
	if (access(EXPECT_FILE, R_OK))
		ksft_exit_skip("%s missing: not started by the bootstamp harness\n", EXPECT_FILE);
	ksft_set_plan(5);
	if (uname(&u))
		ksft_exit_fail_msg("uname: %s\n", strerror(errno));

	ksft_print_msg("variant %s: %s %s\n", expect("VARIANT"), u.release, u.version);
	ksft_test_result(!strcmp(u.release, expect("KERNELRELEASE")),
			 "release is %s\n", expect("KERNELRELEASE"));
	/* The uts version carries the build's number and time: this exact Image. */
	ksft_test_result(!strcmp(u.version, expect("UTS_VERSION")),
			 "booted the %s build (uts version matches)\n", expect("VARIANT"));

	cpus = strtol(expect("CPUS"), NULL, 10);
	nr_online = sysconf(_SC_NPROCESSORS_ONLN);
	ksft_test_result(nr_online == cpus, "%ld of %ld CPUs online\n", nr_online, cpus);

	if (cpus == 1)
		snprintf(want_online, sizeof(want_online), "0");
	else
		snprintf(want_online, sizeof(want_online), "0-%ld", cpus - 1);
	if (read_line("/sys/devices/system/cpu/online", online, sizeof(online)))
		ksft_test_result_fail("read cpu/online: %s\n", strerror(errno));
	else
		ksft_test_result(!strcmp(online, want_online),
				 "cpu/online is %s (want %s)\n", online, want_online);

	if (read_line("/proc/sys/kernel/tainted", taint, sizeof(taint))) {
		ksft_test_result_fail("read tainted: %s\n", strerror(errno));
	} else {
		tainted = strtoul(taint, NULL, 10);
		ksft_test_result(!(tainted & ~TAINT_ALLOWED),
				 "no taint from boot (tainted=%lu)\n", tainted);
	}
	ksft_finished();
}
