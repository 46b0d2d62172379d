// SPDX-License-Identifier: GPL-2.0
/*
 * Can the module be loaded and unloaded CYCLES times while another thread
 * keeps opening and reading every debugfs file (and writing marks)? The
 * only errors allowed are the ones the races imply:
 *   open: ENOENT (files not created yet or removed; debugfs turns a removed
 *         file's EIO into ENOENT) and ENXIO (module going away);
 *   delete_module: EAGAIN while the reader holds a file open (it pins the
 *         module), EBUSY while the module is still coming up; both retried.
 * Nothing else may fail, and the kernel must not oops: taint flag D stays
 * clear. Warnings are judged on the host, from the console, where a known
 * upstream race (selftests/known-splats: debugfs's open can warn while
 * try_stop_module() has dropped the module's refcount but not yet marked
 * it GOING) is told apart from any other warning.
 */
#include "bootstamp_test.h"

#include <pthread.h>

/*
 * A fixed count, no deadline: every cycle must be clean, however long the
 * host takes. 40 cycles take about 15 s on the debug kernel (KASAN,
 * lockdep) under TCG (200 took about 75 s), well under a minute even on a
 * 2-core host also running other work; the guest's per-program timeout
 * (bst.timeout) catches a hang. The elapsed time is printed, not judged.
 */
#define CYCLES		40
/*
 * How long one unload may keep meeting EAGAIN/EBUSY: a guard against a
 * reader that never lets go, far above the milliseconds it normally takes.
 */
#define UNLOAD_SECS	30.0
#define TAINT_DIE	(1UL << 7)
#define TAINT_WARN	(1UL << 9)

static volatile int stop;

struct reader_stats {
	unsigned long	opens, reads, absent, going, marks, unexpected;
	unsigned long	bad_summary;
	char		first_error[160];
};

static struct reader_stats rs;

static void unexpected(const char *what, const char *file, int err)
{
	if (!rs.unexpected++)
		snprintf(rs.first_error, sizeof(rs.first_error), "%s %s: %s",
			 what, file, strerror(err));
}

static void *reader(void *arg)
{
	char path[128], buf[4096], scratch[4096];

	(void)arg;

	while (!stop) {
		size_t i, gone = 0;
		int fd;

		for (i = 0; i < BST_ARRAY_SIZE(bst_read_files); i++) {
			ssize_t n, first;

			snprintf(path, sizeof(path), "%s/%s", BST_DIR, bst_read_files[i]);
			fd = open(path, O_RDONLY | O_CLOEXEC);
			if (fd < 0) {
				if (errno == ENOENT) {
					rs.absent++;
					gone++;
				} else if (errno == ENXIO) {
					rs.going++;
				} else {
					unexpected("open", bst_read_files[i], errno);
				}
				continue;
			}
			rs.opens++;
			first = n = read(fd, buf, sizeof(buf));
			while (n > 0)
				n = read(fd, scratch, sizeof(scratch));
			if (n < 0)
				unexpected("read", bst_read_files[i], errno);
			else
				rs.reads++;
			/* A summary that opened is whole: it starts with the mode. */
			if (!n && i == 0 && (first < 8 || strncmp(buf, "# mode: ", 8)))
				rs.bad_summary++;
			close(fd);
		}
		/* Module not there: spin less, TCG gives the loader this host CPU. */
		if (gone == BST_ARRAY_SIZE(bst_read_files))
			usleep(200);
		fd = open(BST_DIR "/mark", O_WRONLY | O_CLOEXEC);
		if (fd < 0) {
			if (errno != ENOENT && errno != ENXIO)
				unexpected("open", "mark", errno);
			continue;
		}
		/* Marks run out after 64 per load: ENOSPC is expected then. */
		if (write(fd, "reader", 6) == 6)
			rs.marks++;
		else if (errno != ENOSPC)
			unexpected("write", "mark", errno);
		close(fd);
	}
	return NULL;
}

static unsigned long tainted(void)
{
	char *t = bst_slurp("/proc/sys/kernel/tainted");
	unsigned long v = t ? strtoul(t, NULL, 10) : ~0UL;

	free(t);
	return v;
}

int main(void)
{
	unsigned long taint0, taint1, retries = 0;
	int loaded = 0, unloaded = 0, ret, load_err = 0, unload_err = 0;
	bool was_loaded = bst_loaded();
	double t0, secs;
	pthread_t th;

	ksft_print_header();
	bst_need_ko();
	ksft_set_plan(7);
	taint0 = tainted();

	/* Start from "not loaded"; put things back as found at the end. */
	if (was_loaded && (ret = bst_unload(5, NULL)))
		ksft_exit_fail_msg("unloading the module loaded at boot: %s\n", strerror(-ret));

	if (pthread_create(&th, NULL, reader, NULL))
		ksft_exit_fail_msg("pthread_create failed\n");
	t0 = bst_now();
	while (unloaded < CYCLES) {
		ret = bst_load("");
		if (ret) {
			load_err = -ret;
			break;
		}
		loaded++;
		ret = bst_unload(UNLOAD_SECS, &retries);
		if (ret) {
			unload_err = -ret;
			break;
		}
		unloaded++;
	}
	secs = bst_now() - t0;
	stop = 1;
	pthread_join(th, NULL);
	ksft_print_msg("%d cycles in %.1f s; reader: %lu opens, %lu full reads, %lu partial summaries, %lu marks, %lu ENOENT, %lu ENXIO; %lu unload retries\n",
		       unloaded, secs, rs.opens, rs.reads, rs.bad_summary, rs.marks, rs.absent,
		       rs.going, retries);

	if (load_err)
		ksft_print_msg("load %d failed: %s\n", loaded + 1, strerror(load_err));
	if (unload_err)
		ksft_print_msg("unload %d failed: %s\n", unloaded + 1, strerror(unload_err));
	ksft_test_result(!load_err && loaded > 0, "every load succeeded with a reader running\n");
	ksft_test_result(unloaded == CYCLES, "%d load/unload cycles with a reader (%d done)\n",
			 CYCLES, unloaded);
	if (rs.unexpected)
		ksft_print_msg("reader: %lu unexpected errors, first: %s\n", rs.unexpected,
			       rs.first_error);
	ksft_test_result(!rs.unexpected,
			 "reader saw no error but ENOENT/ENXIO/ENOSPC\n");
	ksft_test_result(rs.reads > 0 && !rs.bad_summary,
			 "reader read whole files while the module was loaded\n");
	ksft_test_result(!bst_loaded(), "no module left behind (%s absent)\n", BST_SYSMOD);
	/*
	 * selftests/known-splats excuses debugfs's "did not clean up at exit"
	 * warning of the upstream open/remove race on these boots; a module
	 * that leaves its files behind prints the same warning, so the
	 * directory itself must be gone.
	 */
	ksft_test_result(access(BST_DIR, F_OK) && errno == ENOENT,
			 "%s is gone after the last unload\n", BST_DIR);
	taint1 = tainted();
	if ((taint1 & ~taint0) & TAINT_WARN)
		ksft_print_msg("the kernel warned: the host's console check says whether it is a known upstream race\n");
	ksft_test_result(!((taint1 & ~taint0) & TAINT_DIE),
			 "kernel did not oops (tainted %lu -> %lu)\n", taint0, taint1);

	if (was_loaded && (ret = bst_load("")))
		ksft_exit_fail_msg("reloading the module loaded before the test: %s\n",
				   strerror(-ret));
	ksft_finished();
}
