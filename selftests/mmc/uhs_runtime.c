// SPDX-License-Identifier: GPL-2.0
/*
 * The card steps down when bus errors persist after resets, and only then:
 * the rule the block driver applies after bring-up ("io": three requests
 * within a minute that still fail on the bus before their last retry). A
 * workload writes and reads back the first bst.uhs_io_mib MiB (default 8)
 * of the card with O_DIRECT, in 64 KiB chunks, each write a new pattern.
 * A bad request is one sector read that fails twice (fail_mmc_request,
 * probability 100, times 2): the block driver retries it once, then resets
 * the card before its last retry, and that retry succeeds. The faults are
 * used up by then, so the reset's re-initialisation runs without any: a
 * bring-up step cannot fail and step the card down in the rule's place.
 * fail_mmc_request picks the error at random; -EIO is not a bus error and
 * does not count, so the rule needs three bad requests or more:
 * 1. healthy: no error, the mode stays (bst.uhs_mode);
 * 2. one bad request: the mode stays, no new failure;
 * 3. bad requests until the mode changes: each read returns its sector as
 *    written; the mode changes no earlier than the third, to a lower
 *    clock, with exactly one new failure: "io" at the starting mode;
 * 4. every chunk reads back as its last acknowledged write (or the one
 *    before, for a write that failed), and a clean pass keeps the new mode.
 */
#include "sd.h"

#define CHUNK		(64 * 1024)
#define FAULTS		"fail_mmc_request"

static struct sd_card card;
static unsigned char *buf;
static unsigned int *gen;	/* acknowledged pattern of each chunk */
static bool *unsure;		/* a failed write: gen or gen + 1 */
static long chunks;
static int fd;

static void pattern(long chunk, unsigned int g, unsigned char *p)
{
	uint64_t x = (uint64_t)chunk * 0x9e3779b97f4a7c15ull + g + 1;
	size_t i;

	for (i = 0; i < CHUNK; i += 8) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		memcpy(p + i, &x, 8);
	}
}

/*
 * Does the chunk just read hold pattern @g in every 512-byte sector, or, for
 * a write that failed part way (@maybe_next), @g or @g + 1 in each? Returns
 * -1 if not, 0 for @g whole, 1 for @g + 1 whole, 2 for a mix.
 */
static int chunk_check(long c, unsigned int g, bool maybe_next)
{
	static unsigned char old[CHUNK], next[CHUNK];
	bool all_old = true, all_next = true;
	size_t i;

	pattern(c, g, old);
	pattern(c, g + 1, next);
	for (i = 0; i < CHUNK; i += 512) {
		bool o = !memcmp(buf + i, old + i, 512);
		bool n = maybe_next && !memcmp(buf + i, next + i, 512);

		if (!o && !n)
			return -1;
		all_old &= o;
		all_next &= n;
	}
	return all_next ? 1 : all_old ? 0 : 2;
}

struct pass {
	long write_errors, read_errors, mismatches;
};

/* Write every chunk with its next pattern, then read each back. */
static void run_pass(struct pass *r)
{
	long c;

	memset(r, 0, sizeof(*r));
	for (c = 0; c < chunks; c++) {
		pattern(c, gen[c] + 1, buf);
		if (pwrite(fd, buf, CHUNK, c * CHUNK) == CHUNK) {
			gen[c]++;
			unsure[c] = false;
		} else {
			r->write_errors++;
			unsure[c] = true;
		}
	}
	for (c = 0; c < chunks; c++) {
		if (pread(fd, buf, CHUNK, c * CHUNK) != CHUNK) {
			r->read_errors++;
			continue;
		}
		switch (chunk_check(c, gen[c], unsure[c])) {
		case 0:			/* as acknowledged */
			unsure[c] = false;
			break;
		case 1:			/* the failed write landed */
			gen[c]++;
			unsure[c] = false;
			break;
		case 2:			/* in part: rewritten on the next pass */
			break;
		default:
			r->mismatches++;
		}
	}
}

static int faults(const char *probability, const char *times)
{
	return sd_host_write(&card, FAULTS "/verbose", "0") ?:
	       sd_host_write(&card, FAULTS "/interval", "1") ?:
	       sd_host_write(&card, FAULTS "/times", times) ?:
	       sd_host_write(&card, FAULTS "/probability", probability);
}

static const char *mode_now(void)
{
	static struct sd_uhs u;

	return sd_uhs_read(&card, &u) ? u.mode : "?";
}

/* The last of the comma-separated @list ("" if empty). */
static const char *last_of(const char *list)
{
	const char *p = strrchr(list, ',');

	return p ? p + 1 : list;
}

/*
 * One bad request: read the first sector of chunk @c with two faults armed.
 * True when the read succeeded with the sector as last written and both
 * faults were used (by this read: nothing else uses the card).
 */
static bool bad_request(long c)
{
	static unsigned char want[CHUNK];
	char left[16];
	ssize_t n;
	int err;

	err = faults("100", "2");
	if (err)
		ksft_exit_fail_msg("cannot set %s: %s\n", FAULTS, strerror(-err));
	n = pread(fd, buf, 512, c * CHUNK);
	if (sd_host_file(&card, FAULTS "/times", left, sizeof(left)) <= 0)
		left[0] = '?';
	faults("0", "0");
	pattern(c, gen[c], want);
	if (n != 512 || memcmp(buf, want, 512) || strcmp(left, "0\n")) {
		ksft_print_msg("bad request at chunk %ld: read %zd (%s), %s, faults left %.*s\n",
			       c, n, n < 0 ? strerror(errno) : "-",
			       n == 512 && memcmp(buf, want, 512) ? "wrong data" : "data as written",
			       (int)strcspn(left, "\n"), left);
		return false;
	}
	return true;
}

/* A chunk whose content is known (not left in part by a failed write). */
static long known_chunk(long from)
{
	long i;

	for (i = 0; i < chunks; i++)
		if (!unsure[(from + i) % chunks])
			return (from + i) % chunks;
	ksft_exit_fail_msg("no chunk with a known content\n");
}

int main(void)
{
	const char *want_mode = sd_param("bst.uhs_mode") ?: "SDR104";
	long mib = sd_param_long("bst.uhs_io_mib", 8);
	double end, limit = sd_wait_limit() * 2;
	long bad = 0, wrong = 0, stepped_at = 0;
	char mode0[16];
	struct sd_uhs u0, u;
	struct pass r;
	int err;

	ksft_print_header();
	ksft_set_plan(8);
	if (!sd_wait_card(&card, sd_wait_limit()))
		ksft_exit_fail_msg("no SD card within %.0f s\n", sd_wait_limit());
	chunks = mib * 1024 * 1024 / CHUNK;
	fd = open("/dev/mmcblk0", O_RDWR | O_DIRECT);
	gen = calloc(chunks, sizeof(*gen));
	unsure = calloc(chunks, sizeof(*unsure));
	if (fd < 0 || !gen || !unsure || posix_memalign((void **)&buf, 4096, CHUNK))
		ksft_exit_fail_msg("cannot open /dev/mmcblk0 or allocate: %s\n", strerror(errno));
	if (!sd_uhs_read(&card, &u0))
		ksft_exit_fail_msg("cannot read uhs_fallback\n");
	snprintf(mode0, sizeof(mode0), "%s", u0.mode);

	/* 1. healthy */
	run_pass(&r);
	ksft_test_result(!r.write_errors && !r.read_errors && !r.mismatches &&
			 !strcmp(mode_now(), want_mode),
			 "healthy: %ld MiB written and read back, no error, mode %s (want %s)\n",
			 mib, mode_now(), want_mode);

	/* 2. one bad request */
	err = bad_request(known_chunk(0)) ? 0 : -EIO;
	bad++;
	ksft_test_result(!err && sd_uhs_read(&card, &u) &&
			 u.failures == u0.failures && !strcmp(u.mode, mode0),
			 "one bad request: read as written, mode %s (was %s), failures %ld (were %ld)\n",
			 u.mode, mode0, u.failures, u0.failures);

	/* 3. bad requests, until the card steps down */
	end = bst_now() + limit;
	while (!stepped_at && bad < 40 && bst_now() < end) {
		wrong += !bad_request(known_chunk(bad));
		bad++;
		if (strcmp(mode_now(), mode0))
			stepped_at = bad;
	}
	ksft_test_result(!wrong, "%ld bad requests: each read as written, each took both faults (%ld did not)\n",
			 bad, wrong);
	if (!sd_uhs_read(&card, &u))
		ksft_exit_fail_msg("cannot read uhs_fallback\n");
	for (char *l = strtok(strdup(u.text), "\n"); l; l = strtok(NULL, "\n"))
		ksft_print_msg("uhs_fallback: %s\n", l);
	ksft_test_result(stepped_at >= 3 && sd_mode_clock(u.mode) > 0 &&
			 sd_mode_clock(u.mode) < sd_mode_clock(mode0),
			 "stepped down: %s -> %s at bad request %ld (none before the third), within %.0f s\n",
			 mode0, u.mode, stepped_at, limit);
	ksft_test_result(u.failures == u0.failures + 1 && !strcmp(last_of(u.steps), "io") &&
			 !strcmp(last_of(u.path), mode0),
			 "one new failure, \"io\" at %s: %ld new, the last %s at %s (steps %s, modes %s)\n",
			 mode0, u.failures - u0.failures, last_of(u.steps), last_of(u.path),
			 u.steps, u.path);
	ksft_test_result(!strcmp(sd_ios_mode(&card), u.mode),
			 "ios agrees: %s\n", sd_ios_mode(&card));

	/* 4. data, and the new mode holds */
	run_pass(&r);
	ksft_test_result(!r.write_errors && !r.read_errors && !r.mismatches,
			 "after the faults: every chunk as last written, no error (%ld+%ld errors, %ld mismatches)\n",
			 r.write_errors, r.read_errors, r.mismatches);
	ksft_test_result(!strcmp(mode_now(), u.mode) && sd_uhs_read(&card, &u0) &&
			 u0.failures == u.failures,
			 "a clean pass keeps %s, no new failure\n", mode_now());
	close(fd);
	ksft_finished();
}
