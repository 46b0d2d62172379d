// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel's own mmc_test suite (CONFIG_MMC_TEST) on the card, in the mode
 * the fallback and the tests before left it in: the card is moved from the
 * block driver to mmc_test, and each test of its testlist runs on its own and
 * becomes one result: OK passes, FAILED fails. "Unsupported by the host" or
 * "by the card" is a skip only for the tests of unsupported[], by the side
 * it names: a test that a fallback made unsupported (a capability lost with
 * the mode) fails, as does one of the list that ran. Three groups are not run,
 * skips that say why (the numbers are those of the 7.2 testlist, checked by
 * name below):
 * - 15-18, "Proper xfer_size at ... failure": QEMU 7.2's sdhci-pci does not
 *   report the bytes of a request it was made to fail, on a card the
 *   fallback never touched too (mmc-real, 3.3 V high speed);
 * - 19-22, the highmem tests: arm64 has no CONFIG_HIGHMEM, and mmc_test's
 *   stand-ins for them return OK without a transfer (a pass that tested
 *   nothing);
 * - 23-44, the performance tests: up to 10 s per transfer size each under
 *   TCG (minutes per test), and they measure QEMU, not the card.
 * It writes to the card: it must be the boot's last test.
 */
#include "sd.h"

#define MMC_DRIVERS	"/sys/bus/mmc/drivers"

static struct sd_card card;

#define RESULT_OK		0	/* mmc_test's results: drivers/mmc/core/mmc_test.c */
#define RESULT_FAIL		1
#define RESULT_UNSUP_HOST	2
#define RESULT_UNSUP_CARD	3

/*
 * The tests mmc_test finds unsupported on QEMU's sdhci-pci and sd-card, the
 * same on every mmc boot (7.2 testlist numbers).
 */
static const struct {
	int nr;
	const char *name;
	int result;
	const char *why;
} unsupported[] = {
#define NO_CMD_DURING	"sdhci sets no MMC_CAP_CMD_DURING_TFR"
	{ 46, "Commands during read - no Set Block Count (CMD23)", RESULT_UNSUP_HOST, NO_CMD_DURING },
	{ 47, "Commands during write - no Set Block Count (CMD23)", RESULT_UNSUP_HOST, NO_CMD_DURING },
	{ 48, "Commands during read - use Set Block Count (CMD23)", RESULT_UNSUP_HOST, NO_CMD_DURING },
	{ 49, "Commands during write - use Set Block Count (CMD23)", RESULT_UNSUP_HOST, NO_CMD_DURING },
	{ 50, "Commands during non-blocking read - use Set Block Count (CMD23)", RESULT_UNSUP_HOST,
	  NO_CMD_DURING },
	{ 51, "Commands during non-blocking write - use Set Block Count (CMD23)", RESULT_UNSUP_HOST,
	  NO_CMD_DURING },
	{ 52, "Re-tuning reliability", RESULT_UNSUP_HOST,
	  "no re-tuning: no mmc boot ends in a tuned mode (QEMU does not tune SDR50)" },
};

/*
 * The verdict on test @i (@name) whose result was @res (-1: none): a
 * KSFT_ code, and in @why what a skip or a failure says.
 */
static int judge(int i, const char *name, int res, char *why, size_t size)
{
	const char *side = res == RESULT_UNSUP_HOST ? "host" : "card";
	const typeof(unsupported[0]) *e = NULL;
	unsigned int k;

	for (k = 0; k < ARRAY_SIZE(unsupported); k++)
		if (unsupported[k].nr == i)
			e = &unsupported[k];
	if (e && strcmp(e->name, name)) {
		snprintf(why, size, "the testlist changed: %d is not \"%s\"", i, e->name);
		return KSFT_FAIL;
	}
	switch (res) {
	case RESULT_OK:
		snprintf(why, size, e ? "OK, but listed as unsupported: update unsupported[]" : "OK");
		return e ? KSFT_FAIL : KSFT_PASS;
	case RESULT_UNSUP_HOST:
	case RESULT_UNSUP_CARD:
		if (e && e->result == res) {
			snprintf(why, size, "unsupported by the %s: %s", side, e->why);
			return KSFT_SKIP;
		}
		snprintf(why, size, "unsupported by the %s, which is not in unsupported[]%s",
			 side, e ? " for that side" : "");
		return KSFT_FAIL;
	default:
		snprintf(why, size, "%s", res < 0 ? "no result" : "FAILED");
		return KSFT_FAIL;
	}
}

/* Why test @i (named @name) is not run here, or NULL to run it. */
static const char *not_run(int i, const char *name)
{
	if (i >= 15 && i <= 18 && strstr(name, "xfer_size"))
		return "QEMU 7.2's sdhci-pci does not report the bytes of a failed request";
	if (i >= 19 && i <= 22 && strstr(name, "ighmem"))
		return "no CONFIG_HIGHMEM on arm64: mmc_test's stand-in returns OK without a transfer";
	if (i >= 23 && i <= 44 && (strstr(name, "performance") || strstr(name, "Large sequential")))
		return "a performance test: minutes under TCG, and it measures QEMU";
	return NULL;
}

int main(void)
{
	char path[600], test[600], key[32], verdict[160], *list, *results, *line, *save;
	const char *mode, *why;
	int n = 0, i, err;
	size_t len;

	ksft_print_header();
	if (!sd_wait_card(&card, sd_wait_limit()))
		ksft_exit_fail_msg("no SD card within %.0f s\n", sd_wait_limit());
	mode = sd_ios_mode(&card);
	err = bst_write_file(MMC_DRIVERS "/mmcblk/unbind", card.dev) ?:
	      bst_write_file(MMC_DRIVERS "/mmc_test/bind", card.dev);
	if (err)
		ksft_exit_fail_msg("cannot move %s to mmc_test: %s\n", card.dev, strerror(-err));

	snprintf(path, sizeof(path), SD_DEBUGFS "/%s/%s/testlist", card.host, card.dev);
	list = sd_read_all(path, &len);
	if (!list)
		ksft_exit_fail_msg("%s: %s\n", path, strerror(errno));
	/* "0:\tRun all tests" first, then "N:\tname" for each test. */
	for (line = list; (line = strchr(line, '\n')); line++)
		n++;
	ksft_set_plan(n - 1);
	ksft_print_msg("mmc_test: %d tests on %s in %s\n", n - 1, card.dev, mode);
	snprintf(test, sizeof(test), SD_DEBUGFS "/%s/%s/test", card.host, card.dev);

	/* testlist: "N:\tname"; test: "Test N: R" with R 0 OK, 1 FAILED, 2/3 unsupported. */
	for (line = strtok_r(list, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		const char *name = line + strcspn(line, "\t") + 1;
		double t0 = bst_now();
		char num[16], *r;
		int res = -1;

		i = atoi(line);
		if (i <= 0)
			continue;

		why = not_run(i, name);
		if (why) {
			ksft_test_result_skip("mmc_test %d %s: %s\n", i, name, why);
			continue;
		}
		snprintf(num, sizeof(num), "%d", i);
		err = bst_write_file(test, num);
		results = err ? NULL : sd_read_all(test, &len);
		snprintf(key, sizeof(key), "Test %d: ", i);
		r = results ? strstr(results, key) : NULL;
		if (r)
			res = atoi(r + strlen(key));
		switch (judge(i, name, res, verdict, sizeof(verdict))) {
		case KSFT_PASS:
			ksft_test_result_pass("mmc_test %d %s (%s, %.1f s)\n", i, name, mode,
					      bst_now() - t0);
			break;
		case KSFT_SKIP:
			ksft_test_result_skip("mmc_test %d %s: %s\n", i, name, verdict);
			break;
		default:
			ksft_test_result_fail("mmc_test %d %s: %s\n", i, name, verdict);
		}
		free(results);
	}
	ksft_finished();
}
