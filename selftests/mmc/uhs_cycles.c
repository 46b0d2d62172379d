// SPDX-License-Identifier: GPL-2.0
/*
 * Re-initialise the SD card 50 times (bst.uhs_cycles) and check every time
 * that it comes back in the mode the boot's faults leave (bst.uhs_mode) and
 * reads back as the image without an I/O error.
 *
 * bst.uhs_cycle=resume (default): system suspend and resume with
 * pm_test=devices. The host keeps its memory, so no cycle may fail a UHS-I
 * step again or power-cycle more than the first initialisation did.
 * bst.uhs_cycle=unbind: unbind and bind the sdhci-pci driver; each new host
 * runs the whole fallback again. (QEMU 7.2 hangs now and then during long
 * unbind/bind runs, with or without the series: not in make check.)
 */
#include "sd.h"

#include <libgen.h>
#include <limits.h>

static char pci[PATH_MAX];

static int cycle(struct sd_card *card, bool unbind)
{
	char link[PATH_MAX], path[PATH_MAX + 64];
	ssize_t n;

	if (!unbind)
		return sd_suspend_resume();
	if (!pci[0]) {
		snprintf(path, sizeof(path), SD_HOSTS "/%s/device", card->host);
		n = readlink(path, link, sizeof(link) - 1);
		if (n < 0)
			return -errno;
		link[n] = '\0';
		snprintf(pci, sizeof(pci), "%s", basename(link));
	}
	return sd_write_file("/sys/bus/pci/drivers/sdhci-pci/unbind", pci) ?:
	       sd_write_file("/sys/bus/pci/drivers/sdhci-pci/bind", pci);
}

int main(void)
{
	const char *want_mode = sd_param("bst.uhs_mode") ?: "HS";
	const char *method = sd_param("bst.uhs_cycle") ?: "resume";
	long cycles = sd_param_long("bst.uhs_cycles", 50);
	bool unbind = !strcmp(method, "unbind");
	int bad_mode = 0, bad_data = 0, lost = 0, io_errors, err;
	double t, t_max = 0, t_sum = 0;
	struct sd_uhs first, last;
	struct sd_card card;
	long i;

	ksft_print_header();
	ksft_set_plan(unbind ? 3 : 4);
	if (!sd_wait_card(&card, 5))
		ksft_exit_fail_msg("no SD card within 5 s\n");
	if (!sd_uhs_read(&card, &first))
		ksft_exit_fail_msg("cannot read %s/uhs_fallback\n", card.host);

	for (i = 0; i < cycles; i++) {
		t = bst_now();
		err = cycle(&card, unbind);
		if (err || !sd_wait_card(&card, 5)) {
			ksft_print_msg("cycle %ld (%s): %s\n", i + 1, method,
				       err ? strerror(-err) : "no card within 5 s");
			lost++;
			continue;
		}
		/* The read makes sure the card was initialised again. */
		if (!sd_data_matches("cycle"))
			bad_data++;
		t = bst_now() - t;
		t_sum += t;
		if (t > t_max)
			t_max = t;
		if (strcmp(sd_ios_mode(&card), want_mode)) {
			ksft_print_msg("cycle %ld: ios says %s\n", i + 1, sd_ios_mode(&card));
			bad_mode++;
		}
	}
	sd_uhs_read(&card, &last);
	io_errors = sd_log_count("I/O error", "mmcblk");
	ksft_print_msg("%ld %s cycles: %.0f ms each on average, %.0f ms at most\n",
		       cycles, method, 1000 * t_sum / (cycles - lost ?: 1), 1000 * t_max);
	ksft_print_msg("uhs_fallback over the cycles: failures +%ld, cmd11 +%ld, cmd6 +%ld, tunings +%ld, power cycles +%ld\n",
		       last.failures - first.failures, last.cmd11 - first.cmd11,
		       last.cmd6 - first.cmd6, last.tunings - first.tunings,
		       last.power_cycles - first.power_cycles);
	ksft_test_result(!lost, "%ld %s cycles: the card came back each time (%d did not)\n",
			 cycles, method, lost);
	ksft_test_result(!bad_mode && !lost, "every cycle: card in %s (%d not)\n",
			 want_mode, bad_mode);
	ksft_test_result(!bad_data && !io_errors && !lost,
			 "every cycle: data matches the image (%d did not), %d I/O errors logged\n",
			 bad_data, io_errors);
	if (!unbind)
		ksft_test_result(last.failures == first.failures &&
				 last.power_cycles == first.power_cycles,
				 "resumes go straight to the remembered mode: no new failure, no power cycle\n");
	ksft_finished();
}
