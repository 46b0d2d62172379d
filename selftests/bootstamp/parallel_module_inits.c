// SPDX-License-Identifier: GPL-2.0
/*
 * Do module inits that run side by side each get a row of their own, with
 * their own task, as udev's parallel loads on a board? Three threads, all
 * pinned to one CPU so that their inits start on the same CPU, load the
 * test-only modules bst_sleep_{a,b,c} (selftests/bootstamp/modules: an init
 * that sleeps SLEEP_MS) at once. Each load must succeed, each module must
 * have one "module" row in initcalls with the pid of the thread that loaded
 * it and a duration of at least SLEEP_MS, and the three must overlap in
 * time: else the boot shows nothing about parallel loads, and fails.
 * Whether trace.json draws them as slices that nest on their tracks (review
 * A2: on a CPU's track they overlapped without nesting, and Perfetto
 * dropped them) is judged on the host from the boot's dump (host-check).
 */
#include "bootstamp_test.h"

#include <pthread.h>
#include <sched.h>

#define NR_MODS		3
#define SLEEP_MS	40

static const char *const mods[NR_MODS] = { "bst_sleep_a", "bst_sleep_b", "bst_sleep_c" };

struct loader {
	const char	*name;
	pthread_t	thread;
	pid_t		tid;
	int		err;
};

static pthread_barrier_t start;

static void *load(void *arg)
{
	struct loader *l = arg;
	char path[128], params[32];
	cpu_set_t one;
	int fd;

	l->tid = syscall(SYS_gettid);
	CPU_ZERO(&one);
	CPU_SET(0, &one);
	if (sched_setaffinity(0, sizeof(one), &one)) {
		l->err = errno;
		pthread_barrier_wait(&start);
		return NULL;
	}
	snprintf(path, sizeof(path), "/lib/modules/%s.ko", l->name);
	snprintf(params, sizeof(params), "sleep_ms=%d", SLEEP_MS);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	pthread_barrier_wait(&start);
	if (fd < 0 || syscall(SYS_finit_module, fd, params, 0))
		l->err = errno;
	if (fd >= 0)
		close(fd);
	return NULL;
}

int main(void)
{
	long long start_ns[NR_MODS] = { 0 }, end_ns[NR_MODS] = { 0 };
	struct loader l[NR_MODS] = { 0 };
	int i, j, c_mod, c_start, c_dur, c_pid, overlaps = 0;
	struct bst_table t;
	char *text;

	ksft_print_header();
	ksft_set_plan(NR_MODS * 2 + 1);
	bst_need_module();

	pthread_barrier_init(&start, NULL, NR_MODS);
	for (i = 0; i < NR_MODS; i++) {
		l[i].name = mods[i];
		if (pthread_create(&l[i].thread, NULL, load, &l[i]))
			ksft_exit_fail_msg("pthread_create: %s\n", strerror(errno));
	}
	for (i = 0; i < NR_MODS; i++)
		pthread_join(l[i].thread, NULL);
	for (i = 0; i < NR_MODS; i++)
		ksft_test_result(!l[i].err, "load %s on CPU 0 beside the others: %s\n",
				 l[i].name, l[i].err ? strerror(l[i].err) : "ok");

	text = bst_read("initcalls");
	if (!text)
		ksft_exit_fail_msg("read initcalls: %s\n", strerror(errno));
	bst_parse(text, &t);
	c_mod = bst_col(&t, "module");
	c_start = bst_col(&t, "start_ns");
	c_dur = bst_col(&t, "duration_ns");
	c_pid = bst_col(&t, "pid");
	for (i = 0; i < NR_MODS; i++) {
		int rows = 0;
		long long pid = -1, dur = -1;

		for (j = 0; j < t.nrows; j++) {
			const struct bst_row *r = &t.rows[j];

			if (r->n <= c_pid || strcmp(r->f[c_mod], mods[i]))
				continue;
			rows++;
			pid = bst_num(r, c_pid);
			dur = bst_num(r, c_dur);
			start_ns[i] = bst_num(r, c_start);
			end_ns[i] = start_ns[i] + dur;
		}
		ksft_test_result(rows == 1 && pid == l[i].tid && dur >= SLEEP_MS * 1000000LL,
				 "%s: %d row(s), pid %lld (loader %d), %lld ns (init sleeps %d ms)\n",
				 mods[i], rows, pid, l[i].tid, dur, SLEEP_MS);
	}
	for (i = 0; i < NR_MODS; i++)
		for (j = i + 1; j < NR_MODS; j++)
			overlaps += start_ns[i] < end_ns[j] && start_ns[j] < end_ns[i];
	ksft_test_result(overlaps == NR_MODS * (NR_MODS - 1) / 2,
			 "the three inits overlap in time (%d of %d pairs): they ran side by side\n",
			 overlaps, NR_MODS * (NR_MODS - 1) / 2);
	bst_table_free(&t);
	free(text);
	ksft_finished();
}
