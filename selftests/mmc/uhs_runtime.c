// SPDX-License-Identifier: GPL-2.0
/*
 * The card steps down when I/O errors persist after a reset, and only then.
 * A workload writes and reads back the first bst.uhs_io_mib MiB (default 8)
 * of the card with O_DIRECT, in 64 KiB chunks, each write a new pattern:
 * 1. healthy: no error, the mode stays (bst.uhs_mode);
 * 2. one bad transfer (fail_mmc_request times=1): the mode stays;
 * 3. errors in bst.uhs_io_pct percent of the transfers (default 10,
 *    CONFIG_FAIL_MMC_REQUEST) until the mode changes: the card runs at a
 *    lower clock, with new failures recorded: "io" when three requests
 *    failed first, or a bring-up step of a reset's re-initialisation,
 *    which runs under the faults too (mainline's own handling of a failed
 *    high speed switch can also leave default speed); the faults are then
 *    turned off;
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

/* The mode of the first failure whose step is "io" ("-" if none). */
static const char *first_io_mode(const struct sd_uhs *u)
{
	static char mode[16];
	char steps[256], path[256], *s, *p, *ss, *ps;

	snprintf(steps, sizeof(steps), "%s", u->steps);
	snprintf(path, sizeof(path), "%s", u->path);
	snprintf(mode, sizeof(mode), "-");
	for (s = strtok_r(steps, ",", &ss), p = strtok_r(path, ",", &ps); s && p;
	     s = strtok_r(NULL, ",", &ss), p = strtok_r(NULL, ",", &ps)) {
		if (!strcmp(s, "io")) {
			snprintf(mode, sizeof(mode), "%s", p);
			break;
		}
	}
	return mode;
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

int main(void)
{
	const char *want_mode = sd_param("bst.uhs_mode") ?: "SDR104";
	long mib = sd_param_long("bst.uhs_io_mib", 8);
	long pct = sd_param_long("bst.uhs_io_pct", 10);
	double end, limit = sd_wait_limit() * 2;
	char pct_s[16], mode0[16];
	struct sd_uhs u0, u;
	struct pass r;
	long passes = 0, errors = 0;
	const char *first_io;
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

	/* 2. one bad transfer */
	err = faults("100", "1");
	if (err)
		ksft_exit_fail_msg("cannot set %s: %s\n", FAULTS, strerror(-err));
	run_pass(&r);
	faults("0", "0");
	ksft_test_result(!r.mismatches && sd_uhs_read(&card, &u) &&
			 u.failures == u0.failures && !strcmp(u.mode, want_mode),
			 "one bad transfer: mode %s, failures %ld (were %ld), %ld+%ld I/O errors, %ld mismatches\n",
			 u.mode, u.failures, u0.failures, r.write_errors, r.read_errors,
			 r.mismatches);

	/* 3. errors that persist, until the card steps down */
	snprintf(pct_s, sizeof(pct_s), "%ld", pct);
	err = faults(pct_s, "-1");
	if (err)
		ksft_exit_fail_msg("cannot set %s: %s\n", FAULTS, strerror(-err));
	end = bst_now() + limit;
	do {
		run_pass(&r);
		passes++;
		errors += r.write_errors + r.read_errors;
		if (r.mismatches)
			break;
	} while (!strcmp(mode_now(), mode0) && bst_now() < end);
	faults("0", "0");
	ksft_print_msg("%ld passes with %ld%% faults: %ld I/O errors seen by the workload\n",
		       passes, pct, errors);
	ksft_test_result(!r.mismatches, "with faults: no read returned wrong data (%ld)\n",
			 r.mismatches);
	if (!sd_uhs_read(&card, &u))
		ksft_exit_fail_msg("cannot read uhs_fallback\n");
	for (char *l = strtok(strdup(u.text), "\n"); l; l = strtok(NULL, "\n"))
		ksft_print_msg("uhs_fallback: %s\n", l);
	ksft_test_result(sd_mode_clock(u.mode) > 0 &&
			 sd_mode_clock(u.mode) < sd_mode_clock(mode0),
			 "stepped down: %s -> %s, within %.0f s\n", mode0, u.mode, limit);
	/*
	 * New failures recorded for the step downs: the rule after bring-up
	 * ("io"), or the bring-up steps of the resets' own
	 * re-initialisations, which run under the faults too and may fail
	 * first, before three requests have failed (which one it was is
	 * printed).
	 */
	first_io = first_io_mode(&u);
	ksft_test_result(u.failures > u0.failures,
			 "%ld new failures, \"io\" at %s: steps %s, modes %s\n",
			 u.failures - u0.failures, first_io, u.steps, u.path);
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
