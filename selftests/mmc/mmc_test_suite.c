// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel's own mmc_test suite (CONFIG_MMC_TEST) on the card, in the mode
 * the fallback and the tests before left it in: the card is moved from the
 * block driver to mmc_test, and each test of its testlist runs on its own and
 * becomes one result: OK passes, FAILED fails, unsupported by the host or
 * card is a skip that says which. Two groups are skips that say why (the
 * numbers are those of the 7.2 testlist, checked by name below):
 * - 15-18, "Proper xfer_size at ... failure": QEMU 7.2's sdhci-pci does not
 *   report the bytes of a request it was made to fail, on a card the
 *   fallback never touched too (mmc-real, 3.3 V high speed);
 * - 23-44, the performance tests: up to 10 s per transfer size each under
 *   TCG (minutes per test), and they measure QEMU, not the card.
 * It writes to the card: it must be the boot's last test.
 */
#include "sd.h"

#define MMC_DRIVERS	"/sys/bus/mmc/drivers"

static struct sd_card card;

/* Why test @i (named @name) is not run here, or NULL to run it. */
static const char *not_run(int i, const char *name)
{
	if (i >= 15 && i <= 18 && strstr(name, "xfer_size"))
		return "QEMU 7.2's sdhci-pci does not report the bytes of a failed request";
	if (i >= 23 && i <= 44 && (strstr(name, "performance") || strstr(name, "Large sequential")))
		return "a performance test: minutes under TCG, and it measures QEMU";
	return NULL;
}

int main(void)
{
	char path[600], test[600], key[32], *list, *results, *line, *save;
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
		switch (res) {
		case 0:
			ksft_test_result_pass("mmc_test %d %s (%s, %.1f s)\n", i, name, mode,
					      bst_now() - t0);
			break;
		case 2:
		case 3:
			ksft_test_result_skip("mmc_test %d %s: unsupported by the %s\n", i, name,
					      res == 2 ? "host" : "card");
			break;
		default:
			ksft_test_result_fail("mmc_test %d %s: %s\n", i, name,
					      res < 0 ? "no result" : "FAILED");
		}
		free(results);
	}
	ksft_finished();
}
