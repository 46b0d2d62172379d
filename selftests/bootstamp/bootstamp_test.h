/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared by the bootstamp selftests: the harness's expectations, reading and
 * parsing the module's debugfs files (format at the top of module/core.c),
 * loading and unloading /lib/modules/bootstamp.ko, and the arm64 counter as
 * userspace sees it.
 */
#ifndef BOOTSTAMP_TEST_H
#define BOOTSTAMP_TEST_H

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "kselftest.h"
#include "../lib/bst_file.h"
#include "../lib/bst_time.h"

/*
 * Prepended to the paths of the files a test only reads: "" in the guest.
 * The host's unit tests (selftests/bootstamp/tests) build a test with
 * -DBST_ROOT='"/tmp/dir"' and run it on files they wrote there.
 */
#ifndef BST_ROOT
#define BST_ROOT	""
#endif
#define BST_EXPECT	BST_ROOT "/bst/expect"
#define BST_CMDLINE	BST_ROOT "/proc/cmdline"
#define BST_KO_NAME	"bootstamp.ko"	/* as bst.insmod= names it */
#define BST_KO		"/lib/modules/" BST_KO_NAME
#define BST_MOD		"bootstamp"
#define BST_SYSMOD	"/sys/module/bootstamp"
#define BST_DIR		"/sys/kernel/debug/bootstamp"
#define BST_FILE_MAX	(256 * 1024)

/* The files that can be read; "mark" is write-only. */
static const char *const bst_read_files[] = {
	"summary", "initcalls", "cpus", "trace.json", "bootgraph", "probes",
};

#define BST_ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/* The counter the module stamps with (see bst_user_counter()), and its frequency. */
static inline uint64_t bst_cntvct(void)
{
	uint64_t v;

	asm volatile("isb; mrs %0, cntvct_el0; isb" : "=r" (v) :: "memory");
	return v;
}

static inline uint64_t bst_cntfrq(void)
{
	uint64_t v;

	asm volatile("mrs %0, cntfrq_el0" : "=r" (v));
	return v;
}

/* Whole file into a malloc'ed, NUL-terminated buffer; NULL and errno set. */
static inline char *bst_slurp(const char *path)
{
	size_t len = 0, cap = 4096;
	char *buf = malloc(cap);
	ssize_t n;
	int fd;

	if (!buf)
		return NULL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		free(buf);
		return NULL;
	}
	for (;;) {
		if (cap - len < 2048) {
			char *nb = cap < BST_FILE_MAX ? realloc(buf, cap * 2) : NULL;

			if (!nb) {
				errno = EFBIG;
				goto fail;
			}
			buf = nb;
			cap *= 2;
		}
		n = read(fd, buf + len, cap - len - 1);
		if (n < 0)
			goto fail;
		if (!n)
			break;
		len += n;
	}
	close(fd);
	buf[len] = '\0';
	return buf;
fail:
	n = errno;
	close(fd);
	free(buf);
	errno = n;
	return NULL;
}

/* debugfs file of the module, read in one go; exits the test on error. */
static inline char *bst_read(const char *file)
{
	char path[128];
	char *buf;

	snprintf(path, sizeof(path), "%s/%s", BST_DIR, file);
	buf = bst_slurp(path);
	if (!buf)
		ksft_exit_fail_msg("read %s: %s\n", path, strerror(errno));
	return buf;
}

/* Started by the harness, which writes /bst/expect? */
static inline bool bst_in_harness(void)
{
	return !access(BST_EXPECT, F_OK);
}

/* Value of KEY=VALUE in /bst/expect; exits (skip) outside the harness. */
static inline const char *bst_expect(const char *key)
{
	static char *buf;
	static char val[256];
	size_t klen = strlen(key);
	char *line;

	if (!buf) {
		buf = bst_slurp(BST_EXPECT);
		if (!buf)
			ksft_exit_skip("%s missing: not started by the bootstamp harness\n",
				       BST_EXPECT);
	}
	for (line = buf; line && *line; line = strchr(line, '\n')) {
		if (*line == '\n')
			line++;
		if (!strncmp(line, key, klen) && line[klen] == '=') {
			size_t n = strcspn(line + klen + 1, "\n");

			snprintf(val, sizeof(val), "%.*s", (int)n, line + klen + 1);
			return val;
		}
	}
	ksft_exit_fail_msg("%s has no %s\n", BST_EXPECT, key);
	return NULL;
}

/* "# key: value" of a text file; NULL if absent. Returns a static copy. */
static inline const char *bst_key(const char *text, const char *key)
{
	static char val[128];
	size_t klen = strlen(key);
	const char *line;

	for (line = text; line && *line; line = strchr(line, '\n')) {
		if (*line == '\n')
			line++;
		if (!strncmp(line, "# ", 2) && !strncmp(line + 2, key, klen) &&
		    !strncmp(line + 2 + klen, ": ", 2)) {
			size_t n = strcspn(line + 4 + klen, "\n");

			snprintf(val, sizeof(val), "%.*s", (int)n, line + 4 + klen);
			return val;
		}
	}
	return NULL;
}

/* Numeric summary key; -1 if absent or not a number. */
static inline long long bst_key_num(const char *text, const char *key)
{
	const char *v = bst_key(text, key);
	char *end;
	long long n;

	if (!v)
		return -1;
	n = strtoll(v, &end, 10);
	return *end ? -1 : n;
}

/*
 * Does bst_cntvct() read the counter the summary names ("# counter:"), so
 * that a stamp can be checked against reads taken around the event?
 * CNTVCT_EL0 directly. CNTPCT_EL0 (a kernel entered at EL2) too: Linux clears
 * CNTVOFF_EL2 at boot (arch/arm64/include/asm/el2_setup.h) and KVM puts it
 * back to 0 before the host runs (kvm_timer_vcpu_put()), so both count
 * alike. Any other name, or none, means the stamps cannot be checked: false,
 * with the reason printed, and the caller fails the check.
 */
static inline bool bst_user_counter(const char *summary)
{
	const char *reg = bst_key(summary, "counter");

	if (reg && (!strcmp(reg, "CNTVCT_EL0") || !strcmp(reg, "CNTPCT_EL0")))
		return true;
	ksft_print_msg("summary says counter: %s, which userspace cannot read: stamps not checkable\n",
		       reg ? reg : "(missing)");
	return false;
}

/*
 * The first kernel log message containing @needle, as a malloc'ed string
 * without the /dev/kmsg prefix and newline; NULL if there is none. Reads
 * the whole log; a gap (EPIPE: overwritten records) fails the test, since
 * the message may have been lost.
 */
static inline char *bst_kmsg_find(const char *needle)
{
	char rec[8192], *msg, *found = NULL;
	ssize_t n;
	int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);

	if (fd < 0)
		ksft_exit_fail_msg("open /dev/kmsg: %s\n", strerror(errno));
	while (!found) {
		n = read(fd, rec, sizeof(rec) - 1);
		if (n < 0 && errno == EPIPE)
			ksft_exit_fail_msg("the kernel log lost records before \"%s\" could be looked for: boot with a larger log_buf_len\n",
					   needle);
		if (n <= 0)
			break;
		rec[n] = '\0';
		msg = strchr(rec, ';');
		if (!msg || !strstr(msg + 1, needle))
			continue;
		msg[strcspn(msg, "\n")] = '\0';
		found = strdup(msg + 1);
	}
	close(fd);
	return found;
}

/*
 * The exception level the kernel says every CPU started at ("CPU: All
 * CPU(s) started at EL%d", smp_cpus_done()): 1 or 2, and a failure if the
 * kernel printed neither (mixed levels, or the line was lost).
 */
static inline int bst_boot_el(void)
{
	char *line = bst_kmsg_find("CPU: All CPU(s) started at EL");
	int el = line ? atoi(strstr(line, " at EL") + 6) : 0;

	if (el != 1 && el != 2)
		ksft_exit_fail_msg("the kernel log says no \"CPU: All CPU(s) started at EL1/EL2\"%s%s\n",
				   line ? ": " : "", line ? line : "");
	free(line);
	return el;
}

/*
 * Rows of a text file: every line that is neither "# key: value" nor the
 * "#" column header, split on whitespace. Fields point into a private copy.
 */
#define BST_MAX_FIELDS	16
#define BST_MAX_ROWS	4096

struct bst_row {
	char	*f[BST_MAX_FIELDS];
	int	n;
};

struct bst_table {
	char		*text;		/* private copy, split in place */
	char		*cols[BST_MAX_FIELDS];
	int		ncols;
	struct bst_row	*rows;
	int		nrows;
};

static inline int bst_split(char *line, char **f)
{
	int n = 0;
	char *save, *tok;

	for (tok = strtok_r(line, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save))
		if (n < BST_MAX_FIELDS)
			f[n++] = tok;
		else
			return BST_MAX_FIELDS + 1;
	return n;
}

static inline void bst_parse(const char *text, struct bst_table *t)
{
	char *line, *save;

	memset(t, 0, sizeof(*t));
	t->text = strdup(text);
	t->rows = calloc(BST_MAX_ROWS, sizeof(*t->rows));
	if (!t->text || !t->rows)
		ksft_exit_fail_msg("out of memory\n");
	for (line = strtok_r(t->text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (line[0] == '#') {
			if (!strchr(line, ':'))
				t->ncols = bst_split(line + 1, t->cols);
			if (t->ncols > BST_MAX_FIELDS)
				ksft_exit_fail_msg("a header of more than %d columns\n", BST_MAX_FIELDS);
			continue;
		}
		/* Dropping rows would make counts and "last row" checks lie. */
		if (t->nrows == BST_MAX_ROWS)
			ksft_exit_fail_msg("more than %d rows: raise BST_MAX_ROWS\n", BST_MAX_ROWS);
		t->rows[t->nrows].n = bst_split(line, t->rows[t->nrows].f);
		if (t->rows[t->nrows++].n > BST_MAX_FIELDS)
			ksft_exit_fail_msg("a row of more than %d fields\n", BST_MAX_FIELDS);
	}
}

static inline void bst_table_free(struct bst_table *t)
{
	free(t->text);
	free(t->rows);
}

/* Column index by name, exits if the header lacks it. */
static inline int bst_col(const struct bst_table *t, const char *name)
{
	int i;

	for (i = 0; i < t->ncols; i++)
		if (!strcmp(t->cols[i], name))
			return i;
	ksft_exit_fail_msg("no column %s in the header line\n", name);
	return -1;
}

/* A numeric field: -1 for "-" (not recorded) or garbage. */
static inline long long bst_num(const struct bst_row *r, int col)
{
	char *end;
	long long v;

	if (col >= r->n || !strcmp(r->f[col], "-"))
		return -1;
	v = strtoll(r->f[col], &end, 10);
	return *end ? -1 : v;
}

/*
 * A skipped case as "ok N NAME # SKIP WHY": ksft_test_result_skip() prints
 * no name ("ok N # SKIP WHY"), which scripts/boots/ktap.py does not read as a skip.
 */
static inline __printf(2, 3) void bst_skip(const char *name, const char *why, ...)
{
	char buf[256];
	va_list ap;

	va_start(ap, why);
	vsnprintf(buf, sizeof(buf), why, ap);
	va_end(ap);
	ksft_test_result_code(KSFT_SKIP, name, "%s", buf);
}

/* ---- module loading ---------------------------------------------------- */

static inline bool bst_loaded(void)
{
	return !access(BST_SYSMOD, F_OK);
}

/* finit_module with PARAMS; 0 or -errno. */
static inline int bst_load(const char *params)
{
	int fd = open(BST_KO, O_RDONLY | O_CLOEXEC);
	int ret;

	if (fd < 0)
		return -errno;
	ret = syscall(SYS_finit_module, fd, params, 0) ? -errno : 0;
	close(fd);
	return ret;
}

/*
 * delete_module; 0 or -errno. An open debugfs file holds a reference on the
 * module (EAGAIN) and a load in progress makes it EBUSY: retry those for up
 * to @secs seconds; *retries counts them if not NULL.
 */
static inline int bst_unload(double secs, unsigned long *retries)
{
	double t0 = bst_now();

	for (;;) {
		if (!syscall(SYS_delete_module, BST_MOD, O_NONBLOCK))
			return 0;
		if ((errno != EAGAIN && errno != EBUSY) || bst_now() - t0 > secs)
			return -errno;
		if (retries)
			(*retries)++;
		usleep(1000);
	}
}

/*
 * Does the kernel command line have /init load the module: a bst.insmod=
 * list naming bootstamp.ko? /init reads the first bst.insmod= only.
 */
static inline bool bst_boot_loads_module(void)
{
	char *cmdline = bst_slurp("/proc/cmdline");
	char *arg, *name, *save, *save2;
	bool named = false;

	if (!cmdline)
		ksft_exit_fail_msg("read /proc/cmdline: %s\n", strerror(errno));
	for (arg = strtok_r(cmdline, " \n", &save); arg; arg = strtok_r(NULL, " \n", &save)) {
		if (strncmp(arg, "bst.insmod=", 11))
			continue;
		for (name = strtok_r(arg + 11, ",", &save2); name && !named;
		     name = strtok_r(NULL, ",", &save2))
			named = !strcmp(name, BST_KO_NAME);
		break;
	}
	free(cmdline);
	return named;
}

/*
 * For a test that loads the module itself: fails the test if the boot was
 * to load it and did not (loading it here would hide that), or if the
 * initramfs lacks it (build-guest.sh always builds it: the harness is
 * broken, that is no reason to skip).
 */
static inline void bst_need_ko(void)
{
	if (bst_boot_loads_module() && !bst_loaded())
		ksft_exit_fail_msg("the boot's bst.insmod= names %s but it is not loaded: its load at boot failed (see \"# bst-insmod\")\n",
				   BST_KO_NAME);
	if (access(BST_KO, R_OK))
		ksft_exit_fail_msg("%s: %s: build-guest.sh always builds it, the initramfs is broken\n",
				   BST_KO, strerror(errno));
}

/*
 * The module, loaded: by the boot if its bst.insmod= names it, else (the
 * "-load" boots) by the test. Exits the test with a failure otherwise.
 */
static inline void bst_need_module(void)
{
	int ret;

	if (bst_loaded())
		return;
	bst_need_ko();
	ret = bst_load("");
	if (ret)
		ksft_exit_fail_msg("load %s: %s\n", BST_KO, strerror(-ret));
	ksft_print_msg("loaded %s (the boot's command line has no bst.insmod= naming it)\n",
		       BST_KO);
}

/*
 * Summary says "full" exactly when the kernel keeps a boot log
 * (CONFIG_BOOTSTAMP=y, BOOTSTAMP=y in /bst/expect). Returns whether it does;
 * a mismatch fails the test.
 */
static inline bool bst_full_mode(const char *summary)
{
	const char *mode = bst_key(summary, "mode");
	bool has_log = !strcmp(bst_expect("BOOTSTAMP"), "y");

	if (!mode)
		ksft_exit_fail_msg("summary has no \"# mode:\" line\n");
	if (has_log != !strcmp(mode, "full"))
		ksft_exit_fail_msg("summary says mode: %s, but the kernel was built with%s CONFIG_BOOTSTAMP\n",
				   mode, has_log ? "" : "out");
	return has_log;
}

/* For tests of the boot log: skip (with the reason) on a kernel without it. */
static inline void bst_need_full_mode(const char *summary)
{
	if (!bst_full_mode(summary))
		ksft_exit_skip("this kernel keeps no boot log (built without CONFIG_BOOTSTAMP)\n");
}

#endif /* BOOTSTAMP_TEST_H */
