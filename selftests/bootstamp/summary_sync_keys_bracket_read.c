// SPDX-License-Identifier: GPL-2.0
/*
 * Are the summary's clock sync keys read while the summary is read, from
 * the clocks they name? Around one read of summary this takes, in order:
 * a /dev/kmsg record (its timestamp is local_clock(), in microseconds),
 * CNTVCT_EL0, clock_gettime(CLOCK_MONOTONIC), then the same three in
 * reverse after the read. Then:
 *   sync_counter         lies between the two counter reads
 *   sync_monotonic_ns    lies between the two CLOCK_MONOTONIC reads
 *   sync_local_clock_ns  lies between the two records' timestamps
 *   the conversion of core.c (counter_at(t) = sync_counter -
 *                        (sync_X_ns - t) * freq_hz / 1e9) puts the first
 *                        CLOCK_MONOTONIC read between the two counter reads
 */
#include "bootstamp_test.h"

#include <inttypes.h>

#define TAG	"bst-sync-keys"

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

static void kmsg_write(const char *what)
{
	char msg[64];
	int fd = open("/dev/kmsg", O_WRONLY | O_CLOEXEC);
	int n = snprintf(msg, sizeof(msg), TAG " %s %d\n", what, getpid());

	if (fd < 0 || write(fd, msg, n) != n)
		ksft_exit_fail_msg("write to /dev/kmsg: %s\n", strerror(errno));
	close(fd);
}

/* Timestamp in us of the record TAG WHAT PID; -1 if not found. */
static long long kmsg_ts(const char *what)
{
	char rec[2048], want[64];
	long long ts = -1;
	ssize_t n;
	int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);

	if (fd < 0)
		ksft_exit_fail_msg("open /dev/kmsg: %s\n", strerror(errno));
	snprintf(want, sizeof(want), ";" TAG " %s %d\n", what, getpid());
	for (;;) {
		n = read(fd, rec, sizeof(rec) - 1);
		if (n < 0 && errno == EPIPE)
			continue;	/* overwritten records: read on */
		if (n <= 0)
			break;
		rec[n] = '\0';
		if (strstr(rec, want)) {
			/* "prio,seq,ts_us,flags;msg" */
			if (sscanf(rec, "%*u,%*u,%lld", &ts) != 1)
				ts = -1;
			break;
		}
	}
	close(fd);
	return ts;
}

/* Numeric key as unsigned 64 bits; false if absent. */
static bool key_u64(const char *summary, const char *key, uint64_t *v)
{
	const char *s = bst_key(summary, key);
	char *end;

	if (!s || !*s)
		return false;
	errno = 0;
	*v = strtoull(s, &end, 10);
	return !*end && !errno;
}

int main(void)
{
	uint64_t c0, c1, m0, m1, sc, sm, sl, freq;
	long long k0, k1, at;
	char *summary;
	bool ok;

	ksft_print_header();
	bst_need_module();
	ksft_set_plan(5);

	kmsg_write("before");
	c0 = bst_cntvct();
	m0 = mono_ns();
	summary = bst_read("summary");
	m1 = mono_ns();
	c1 = bst_cntvct();
	kmsg_write("after");

	ok = key_u64(summary, "sync_counter", &sc) &&
	     key_u64(summary, "sync_monotonic_ns", &sm) &&
	     key_u64(summary, "sync_local_clock_ns", &sl) &&
	     key_u64(summary, "freq_hz", &freq) && freq;
	ksft_test_result(ok, "summary has sync_counter, sync_monotonic_ns, sync_local_clock_ns\n");
	if (!ok)
		ksft_exit_fail_msg("no sync keys: the rest cannot be checked\n");
	if (!bst_user_counter(summary))
		ksft_exit_fail_msg("cannot compare sync_counter with the counter\n");
	free(summary);

	ksft_print_msg("counter %" PRIu64 " <= %" PRIu64 " <= %" PRIu64 "\n", c0, sc, c1);
	ksft_test_result(c0 <= sc && sc <= c1,
			 "sync_counter is between two counter reads around the read\n");
	ksft_print_msg("monotonic %" PRIu64 " <= %" PRIu64 " <= %" PRIu64 "\n", m0, sm, m1);
	ksft_test_result(m0 <= sm && sm <= m1,
			 "sync_monotonic_ns is between two CLOCK_MONOTONIC reads around the read\n");

	k0 = kmsg_ts("before");
	k1 = kmsg_ts("after");
	ksft_print_msg("printk %lld us <= %" PRIu64 " ns <= %lld us\n", k0, sl, k1);
	ksft_test_result(k0 >= 0 && k1 >= 0 && (uint64_t)k0 * 1000 <= sl &&
			 sl < ((uint64_t)k1 + 1) * 1000,
			 "sync_local_clock_ns is between the timestamps of two printk records around the read\n");

	/* counter_at(m0): m0 <= sm, so it counts back from sync_counter. */
	at = (long long)sc - (long long)((__uint128_t)(sm - m0) * freq / 1000000000u);
	ksft_print_msg("counter_at(first CLOCK_MONOTONIC read) = %lld, counter reads %" PRIu64
		       " .. %" PRIu64 "\n", at, c0, c1);
	ksft_test_result(sm >= m0 && at + 1 >= (long long)c0 && at <= (long long)c1,
			 "counter_at() of core.c puts a CLOCK_MONOTONIC time between the counter reads around it\n");
	ksft_finished();
}
