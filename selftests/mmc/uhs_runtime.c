// SPDX-License-Identifier: GPL-2.0
/*
 * After bring-up, a mode that fails on the bus steps down when a reset in
 * that mode did not help, and only then, and the request that met the
 * failure completes: no I/O error reaches the filesystem. The faults are
 * the bus's, from the test-only host layer of scripts/bench/lab/
 * sd-uhs-model.patch (/sys/kernel/debug/mmcN/uhs_model); the mmc core runs
 * unmodified. A workload writes and reads back the first bst.uhs_io_mib MiB
 * (default 8) of the card with O_DIRECT, in 64 KiB chunks, each write a new
 * pattern. Then, each time reading one sector of a chunk whose content is
 * known:
 * 1. healthy: no error, the mode stays (bst.uhs_mode);
 * 2. a transient: two CRC errors in the card's mode (crc:MODE:2): the block
 *    driver retries, resets the card in that mode before the last retry, and
 *    that retry succeeds: the sector as written, the mode stays, no new
 *    failure, both faults used;
 * 3. a marginal mode (crc:MODE, every read of a block or more): the sector as
 *    written, the card one mode lower, one new failure at MODE (the reset's
 *    verifying read, "verify", or the block driver's, "io");
 * 4. after lifting the ceiling in debugfs ("none": the card back in its
 *    boot mode, as in 7), a write fault that the verifying read does not
 *    see (wcrc:MODE, every write): a write as acknowledged, the card one
 *    mode lower, one new failure, "io", at MODE;
 * 5. the ceiling lifted again, lost interrupts (irq:MODE): sdhci's own 10 s
 *    timer ends each try; the
 *    sector as written, one mode lower, within bst.uhs_irq_limit s (200, a
 *    bound against a hang, not the measure: the test prints the time);
 * 6. every chunk reads back as its last acknowledged write, and a clean
 *    pass keeps the last mode;
 * 7. the ceiling is lifted without a reboot: "none" written to the card's
 *    uhs_fallback brings it up again in bst.uhs_mode, after the walk the
 *    boot made (the ceiling it left then), its data intact;
 *    "SDR12x" is refused with EINVAL and changes nothing, and so is
 *    "SDR12" (slower than 3.3 V high speed on this host).
 */
#include "sd.h"

#define CHUNK		(64 * 1024)

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

static int model(const char *fault)
{
	int err = sd_host_write(&card, SD_MODEL, fault);

	if (err)
		ksft_exit_fail_msg("cannot arm %s (%s): %s\n", SD_MODEL, fault, strerror(-err));
	return 0;
}

/* How often the model's fault @kind fired ("crc"). */
static long fired(const char *kind)
{
	long n = sd_model_fired(&card, kind);

	if (n < 0)
		ksft_exit_fail_msg("%s has no count for %s\n", SD_MODEL, kind);
	return n;
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

/* "SDR50" as the model names it: "sdr50". */
static const char *lower(const char *mode)
{
	static char out[16];
	size_t i;

	for (i = 0; mode[i] && i + 1 < sizeof(out); i++)
		out[i] = mode[i] >= 'A' && mode[i] <= 'Z' ? mode[i] - 'A' + 'a' : mode[i];
	out[i] = '\0';
	return out;
}

/*
 * Read the first sector of chunk @c with the model's @fault armed, then
 * disarm it. True when the read succeeded with the sector as last written.
 * *@secs: how long the read took.
 */
static bool read_with(long c, const char *fault, double *secs)
{
	static unsigned char want[CHUNK];
	double t0;
	ssize_t n;

	model(fault);
	t0 = bst_now();
	n = pread(fd, buf, 512, c * CHUNK);
	*secs = bst_now() - t0;
	model("none");
	pattern(c, gen[c], want);
	if (n != 512 || memcmp(buf, want, 512)) {
		ksft_print_msg("read at chunk %ld with %s: %zd (%s), %s\n", c, fault, n,
			       n < 0 ? strerror(errno) : "-",
			       n == 512 ? "wrong data" : "no data");
		return false;
	}
	return true;
}

/* Write chunk @c's next pattern with @fault armed; true when acknowledged. */
static bool write_with(long c, const char *fault, double *secs)
{
	double t0;
	ssize_t n;

	model(fault);
	pattern(c, gen[c] + 1, buf);
	t0 = bst_now();
	n = pwrite(fd, buf, CHUNK, c * CHUNK);
	*secs = bst_now() - t0;
	model("none");
	if (n != CHUNK) {
		ksft_print_msg("write at chunk %ld with %s: %zd (%s)\n", c, fault, n,
			       n < 0 ? strerror(errno) : "-");
		unsure[c] = true;
		return false;
	}
	gen[c]++;
	return true;
}

/*
 * Lift the card's ceiling (debugfs "none"), so that the next fault starts
 * from the mode the card came up in at boot (@boot_mode) and has a slower
 * one to go to: the walk runs again, its failures as at boot.
 */
static void lift(const char *boot_mode)
{
	char name[300];
	int err;

	snprintf(name, sizeof(name), "%s/uhs_fallback", card.dev);
	err = sd_host_write(&card, name, "none");
	if (err || strcmp(mode_now(), boot_mode))
		ksft_exit_fail_msg("lifting the ceiling: %s, mode %s (want %s)\n",
				   err ? strerror(-err) : "ok", mode_now(), boot_mode);
}

/* The fallback's order (SDR25 and HS share a clock): 0 fastest, -1 unknown. */
static int rank(const char *mode)
{
	static const char *const order[] = {
		"SDR104", "DDR50", "SDR50", "SDR25", "HS", "SDR12", "DS",
	};
	int i;

	for (i = 0; i < (int)(sizeof(order) / sizeof(order[0])); i++)
		if (!strcmp(mode, order[i]))
			return i;
	return -1;
}

/*
 * After a fault that should have stepped the card down one mode from @from:
 * one new failure since @before, at @from, with one of @steps ("verify,io");
 * or two, when the same-mode reset's verifying read failed, was tried once
 * more (the first marked retried) and failed again.
 */
static void stepped(const char *what, const struct sd_uhs *before, const char *from,
		    const char *steps, bool io_ok, double secs)
{
	long n;
	struct sd_uhs u;
	char want[32];
	bool count_ok;

	if (!sd_uhs_read(&card, &u))
		ksft_exit_fail_msg("cannot read uhs_fallback\n");
	snprintf(want, sizeof(want), ",%s,", steps);
	n = strlen(u.retried);
	count_ok = n && u.retried[n - 1] == '-' &&
		   (u.failures == before->failures + 1 ||
		    (u.failures == before->failures + 2 && n >= 2 && u.retried[n - 2] == 'r' &&
		     !strcmp(last_of(u.steps), "verify")));
	ksft_test_result(io_ok && count_ok &&
			 !strcmp(last_of(u.path), from) &&
			 strstr(want, last_of(u.steps)) && last_of(u.steps)[0] &&
			 rank(from) >= 0 && rank(u.mode) > rank(from) &&
			 !strcmp(sd_ios_mode(&card), u.mode),
			 "%s at %s: I/O as written (%s), %s -> %s (ios %s), %ld new failure(s), the last %s at %s (want one of %s), %.1f s\n",
			 what, from, io_ok ? "yes" : "NO", from, u.mode, sd_ios_mode(&card),
			 u.failures - before->failures, last_of(u.steps), last_of(u.path),
			 steps, secs);
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
	long irq_limit = sd_param_long("bst.uhs_irq_limit", 200);
	char mode[16], arm[48], name[300], boot_ceiling[16];
	struct sd_uhs u0, u;
	int werr, werr12;
	struct pass r;
	double secs;
	long crc0;
	bool ok;

	ksft_print_header();
	ksft_set_plan(9);
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
	snprintf(boot_ceiling, sizeof(boot_ceiling), "%s", u0.ceiling);

	/* 1. healthy */
	run_pass(&r);
	ksft_test_result(!r.write_errors && !r.read_errors && !r.mismatches &&
			 !strcmp(mode_now(), want_mode),
			 "healthy: %ld MiB written and read back, no error, mode %s (want %s)\n",
			 mib, mode_now(), want_mode);

	/* 2. a transient: two CRC errors */
	snprintf(mode, sizeof(mode), "%s", mode_now());
	snprintf(arm, sizeof(arm), "crc:%s:2", lower(mode));
	crc0 = fired("crc");
	ok = read_with(known_chunk(0), arm, &secs);
	if (!sd_uhs_read(&card, &u))
		ksft_exit_fail_msg("cannot read uhs_fallback\n");
	ksft_test_result(ok && fired("crc") == crc0 + 2 && u.failures == u0.failures &&
			 !strcmp(u.mode, mode),
			 "a transient (%s): read as written, %ld faults used (want 2), mode %s (was %s), %ld new failures\n",
			 arm, fired("crc") - crc0, u.mode, mode, u.failures - u0.failures);

	/* 3. a marginal mode: every read of a block or more fails CRC */
	snprintf(arm, sizeof(arm), "crc:%s", lower(mode));
	ok = read_with(known_chunk(1), arm, &secs);
	stepped("a marginal mode for reads", &u, mode, "verify,io", ok, secs);

	/* 4. writes fail CRC, which the verifying read does not see */
	lift(want_mode);
	sd_uhs_read(&card, &u);
	snprintf(mode, sizeof(mode), "%s", u.mode);
	snprintf(arm, sizeof(arm), "wcrc:%s", lower(mode));
	ok = write_with(known_chunk(2), arm, &secs);
	stepped("a marginal mode for writes", &u, mode, "io", ok, secs);

	/* 5. lost interrupts: sdhci's own 10 s timer */
	lift(want_mode);
	sd_uhs_read(&card, &u);
	snprintf(mode, sizeof(mode), "%s", u.mode);
	snprintf(arm, sizeof(arm), "irq:%s", lower(mode));
	ok = read_with(known_chunk(3), arm, &secs);
	stepped("lost interrupts", &u, mode, "verify,io", ok && secs < irq_limit, secs);

	/* 6. data, and the last mode holds */
	sd_uhs_read(&card, &u);
	for (char *l = strtok(strdup(u.text), "\n"); l; l = strtok(NULL, "\n"))
		ksft_print_msg("uhs_fallback: %s\n", l);
	run_pass(&r);
	ksft_test_result(!r.write_errors && !r.read_errors && !r.mismatches,
			 "after the faults: every chunk as last written, no error (%ld+%ld errors, %ld mismatches)\n",
			 r.write_errors, r.read_errors, r.mismatches);
	ksft_test_result(!strcmp(mode_now(), u.mode) && sd_uhs_read(&card, &u0) &&
			 u0.failures == u.failures,
			 "a clean pass keeps %s, no new failure\n", mode_now());

	/* 7. the ceiling lifted, and bad input refused */
	snprintf(name, sizeof(name), "%s/uhs_fallback", card.dev);
	werr = sd_host_write(&card, name, "SDR12x");
	/* SDR12 is no step where the host may use 3.3 V, as here. */
	werr12 = sd_host_write(&card, name, "SDR12");
	sd_uhs_read(&card, &u);
	ksft_test_result(werr == -EINVAL && werr12 == -EINVAL &&
			 !strcmp(u.ceiling, u0.ceiling) && !strcmp(u.mode, u0.mode),
			 "\"SDR12x\" refused (%s), \"SDR12\" on a host with 3.3 V refused (%s), ceiling %s and mode %s unchanged\n",
			 strerror(-werr), strerror(-werr12), u.ceiling, u.mode);
	werr = sd_host_write(&card, name, "none");
	sd_uhs_read(&card, &u);
	run_pass(&r);
	/* The same walk as at boot: the ceiling it left then. */
	ksft_test_result(!werr && !strcmp(u.ceiling, boot_ceiling) && !strcmp(u.mode, want_mode) &&
			 !strcmp(sd_ios_mode(&card), want_mode) &&
			 !r.write_errors && !r.read_errors && !r.mismatches,
			 "\"none\": ceiling %s (at boot %s), mode %s (ios %s, want %s), then every chunk as written (%ld+%ld errors, %ld mismatches) (%s)\n",
			 u.ceiling, boot_ceiling, u.mode, sd_ios_mode(&card), want_mode,
			 r.write_errors, r.read_errors, r.mismatches, werr ? strerror(-werr) : "ok");
	close(fd);
	ksft_finished();
}
