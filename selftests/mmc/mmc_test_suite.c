// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel's own mmc_test suite (CONFIG_MMC_TEST) on the card, in the mode
 * the fallback and the tests before left it in: the card is moved from the
 * block driver to mmc_test, and each test of its testlist runs on its own and
 * becomes one result: OK passes, FAILED fails. "Unsupported by the host" or
 * "by the card" is a skip only for the tests the boot pins
 * (bst.mmc_unsupported=46-52: numbers and ranges, "none" for none), by the
 * side unsupported[] names: a test that a fallback made unsupported (a
 * capability lost with the mode) fails, as does a pinned test that ran.
 * Three groups are not run,
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
 * The tests mmc_test can find unsupported on QEMU's sdhci-pci and sd-card,
 * by which side and why (7.2 testlist numbers); which of them are in a
 * given boot, its bst.mmc_unsupported says.
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
	  "no re-tuning: mmc core tunes SDR104, SDR50 and DDR50, not this mode" },
};

/*
 * Is @i in @list ("46-51,52", "none")? 1 or 0; -1 if @list is not such a
 * list.
 */
static int in_list(const char *list, int i)
{
	const char *p = list;
	int found = 0;
	char *end;
	long a, b;

	if (!strcmp(list, "none"))
		return 0;
	do {
		a = strtol(p, &end, 10);
		if (end == p || a <= 0)
			return -1;
		b = a;
		if (*end == '-') {
			p = end + 1;
			b = strtol(p, &end, 10);
			if (end == p || b < a)
				return -1;
		}
		found |= i >= a && i <= b;
		p = end + 1;
	} while (*end == ',');
	return *end ? -1 : found;
}

/*
 * The verdict on test @i (@name) whose result was @res (-1: none), where
 * @pinned lists the tests the boot expects to be unsupported: a KSFT_ code,
 * and in @why what a skip or a failure says.
 */
static int judge(int i, const char *name, int res, const char *pinned, char *why, size_t size)
{
	const char *side = res == RESULT_UNSUP_HOST ? "host" : "card";
	const typeof(unsupported[0]) *e = NULL;
	int pin = in_list(pinned, i);
	unsigned int k;

	for (k = 0; k < ARRAY_SIZE(unsupported); k++)
		if (unsupported[k].nr == i)
			e = &unsupported[k];
	if (pin < 0 || (pin && !e)) {
		snprintf(why, size, "bst.mmc_unsupported=%s: %s", pinned,
			 pin < 0 ? "not a list of numbers and ranges" : "a test unsupported[] has no reason for");
		return KSFT_FAIL;
	}
	if (e && strcmp(e->name, name)) {
		snprintf(why, size, "the testlist changed: %d is not \"%s\"", i, e->name);
		return KSFT_FAIL;
	}
	switch (res) {
	case RESULT_OK:
		snprintf(why, size, pin ? "OK, but the boot pins it unsupported (bst.mmc_unsupported)" : "OK");
		return pin ? KSFT_FAIL : KSFT_PASS;
	case RESULT_UNSUP_HOST:
	case RESULT_UNSUP_CARD:
		if (pin && e->result == res) {
			snprintf(why, size, "unsupported by the %s: %s", side, e->why);
			return KSFT_SKIP;
		}
		snprintf(why, size, "unsupported by the %s, which this boot does not pin%s",
			 side, pin ? " for that side" : " (bst.mmc_unsupported)");
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
	const char *pinned = sd_param("bst.mmc_unsupported");
	const char *mode, *why;
	int n = 0, i, err;
	size_t len;

	ksft_print_header();
	if (!pinned || in_list(pinned, 1) < 0)
		ksft_exit_fail_msg("bst.mmc_unsupported=%s: the plan must pin the unsupported tests (\"46-52\", \"none\")\n",
				   pinned ?: "(unset)");
	if (!sd_wait_card(&card, sd_wait_limit()))
		ksft_exit_fail_msg("no SD card within %.0f s\n", sd_wait_limit());
	mode = sd_ios_mode(&card);
	err = bst_write_file(MMC_DRIVERS "/mmcblk/unbind", card.dev) ?:
	      bst_write_file(MMC_DRIVERS "/mmc_test/bind", card.dev);
	if (err)
		ksft_exit_fail_msg("cannot move %s to mmc_test: %s\n", card.dev, strerror(-err));

	snprintf(path, sizeof(path), SD_DEBUGFS "/%s/%s/testlist", card.host, card.dev);
	list = bst_read_all(path, &len);
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
		results = err ? NULL : bst_read_all(test, &len);
		snprintf(key, sizeof(key), "Test %d: ", i);
		r = results ? strstr(results, key) : NULL;
		if (r)
			res = atoi(r + strlen(key));
		switch (judge(i, name, res, pinned, verdict, sizeof(verdict))) {
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
