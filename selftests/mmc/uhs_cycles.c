// SPDX-License-Identifier: GPL-2.0
/*
 * Re-initialise the SD card 50 times (bst.uhs_cycles) and check every time
 * that it comes back in the mode the boot's faults leave (bst.uhs_mode) and
 * reads back as the image without an I/O error.
 *
 * bst.uhs_cycle=resume (default): system suspend and resume with
 * pm_test=devices. The suspend powers the card off, so the read after it
 * needs a new initialisation. The host keeps its memory: each cycle goes
 * straight to the remembered mode, with no failure and no power cycle; a
 * UHS-I mode takes one 1.8 V switch (CMD11) and one CMD6, SDR50 and SDR104
 * one tuning (DDR50 one unless the card has the no-DDR50-tuning quirk);
 * high speed takes none of them.
 * bst.uhs_cycle=unbind: unbind and bind the sdhci-pci driver; each new host
 * runs the whole fallback again and must end as the first one did. (QEMU 7.2
 * hangs now and then during long unbind/bind runs, with or without the
 * series: not in make check.)
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

/*
 * The counters one resume must add in @mode ("SDR50", "HS", ...); a tuning
 * count of -1: zero or one (DDR50, see above).
 */
static void resume_costs(const char *mode, struct sd_uhs *want)
{
	bool uhs = strcmp(mode, "HS");

	memset(want, 0, sizeof(*want));
	want->cmd11 = uhs;
	want->cmd6 = uhs;
	if (!strcmp(mode, "SDR50") || !strcmp(mode, "SDR104"))
		want->tunings = 1;
	else if (!strcmp(mode, "DDR50"))
		want->tunings = -1;
}

/* Did this cycle initialise the card as it should? Says why not. */
static bool cycle_costs_ok(long i, bool unbind, const char *mode,
			   const struct sd_uhs *first, const struct sd_uhs *before,
			   const struct sd_uhs *after)
{
	struct sd_uhs want;
	long tunings;

	if (unbind) {
		/* A new host: the whole fallback again, to the same end. */
		if (after->failures == first->failures &&
		    !strcmp(after->ceiling, first->ceiling))
			return true;
		ksft_print_msg("cycle %ld: new host ends with %ld failures, ceiling %s (first: %ld, %s)\n",
			       i, after->failures, after->ceiling, first->failures,
			       first->ceiling);
		return false;
	}
	resume_costs(mode, &want);
	tunings = after->tunings - before->tunings;
	if (after->failures == before->failures &&
	    after->power_cycles == before->power_cycles &&
	    after->cmd11 - before->cmd11 == want.cmd11 &&
	    after->cmd6 - before->cmd6 == want.cmd6 &&
	    (want.tunings < 0 ? tunings == 0 || tunings == 1 : tunings == want.tunings) &&
	    !strcmp(after->ceiling, before->ceiling))
		return true;
	ksft_print_msg("cycle %ld: failures +%ld, power cycles +%ld, cmd11 +%ld, cmd6 +%ld, tunings +%ld (want 0, 0, %ld, %ld, %ld), ceiling %s -> %s\n",
		       i, after->failures - before->failures,
		       after->power_cycles - before->power_cycles,
		       after->cmd11 - before->cmd11, after->cmd6 - before->cmd6,
		       tunings, want.cmd11, want.cmd6,
		       want.tunings, before->ceiling, after->ceiling);
	return false;
}

int main(void)
{
	const char *want_mode = sd_param("bst.uhs_mode") ?: "HS";
	const char *method = sd_param("bst.uhs_cycle") ?: "resume";
	long cycles = sd_param_long("bst.uhs_cycles", 50);
	bool unbind = !strcmp(method, "unbind");
	int bad_mode = 0, bad_data = 0, bad_init = 0, io_errors, err;
	double t, t_max = 0, t_sum = 0, limit = sd_wait_limit();
	struct sd_uhs first, before, after;
	struct sd_card card;
	long i, done = 0;

	ksft_print_header();
	ksft_set_plan(4);
	if (!unbind && strcmp(method, "resume"))
		ksft_exit_fail_msg("bst.uhs_cycle=%s: neither resume nor unbind\n", method);
	if (cycles < 1)
		ksft_exit_fail_msg("bst.uhs_cycles=%ld: nothing would be checked\n", cycles);
	if (!sd_wait_card(&card, limit))
		ksft_exit_fail_msg("no SD card within %.0f s\n", limit);
	if (!sd_uhs_read(&card, &first))
		ksft_exit_fail_msg("cannot read %s/uhs_fallback\n", card.host);
	before = first;

	for (i = 1; i <= cycles; i++) {
		t = bst_now();
		err = cycle(&card, unbind);
		if (err || !sd_wait_card(&card, limit)) {
			/* The card is gone: later cycles would only wait. */
			ksft_print_msg("cycle %ld (%s): %s\n", i, method,
				       err ? strerror(-err) : "no card in time");
			break;
		}
		/* The card was powered off: the read needs a new initialisation. */
		if (!sd_data_matches("cycle"))
			bad_data++;
		t = bst_now() - t;
		t_sum += t;
		if (t > t_max)
			t_max = t;
		if (strcmp(sd_ios_mode(&card), want_mode)) {
			ksft_print_msg("cycle %ld: ios says %s\n", i, sd_ios_mode(&card));
			bad_mode++;
		}
		if (!sd_uhs_read(&card, &after)) {
			bad_init++;
		} else {
			if (!cycle_costs_ok(i, unbind, want_mode, &first, &before, &after))
				bad_init++;
			before = after;
		}
		done++;
	}
	io_errors = sd_log_count("I/O error", "mmcblk");
	ksft_print_msg("%ld of %ld %s cycles: %.0f ms each on average, %.0f ms at most\n",
		       done, cycles, method, 1000 * t_sum / (done ?: 1), 1000 * t_max);
	if (!unbind)
		ksft_print_msg("uhs_fallback over the cycles: failures +%ld, cmd11 +%ld, cmd6 +%ld, tunings +%ld, power cycles +%ld\n",
			       before.failures - first.failures,
			       before.cmd11 - first.cmd11, before.cmd6 - first.cmd6,
			       before.tunings - first.tunings,
			       before.power_cycles - first.power_cycles);
	ksft_test_result(done == cycles, "%ld %s cycles: the card came back each time (%ld did)\n",
			 cycles, method, done);
	ksft_test_result(done == cycles && !bad_mode, "every cycle: card in %s (%d not)\n",
			 want_mode, bad_mode);
	ksft_test_result(done == cycles && !bad_data && !io_errors,
			 "every cycle: data matches the image (%d did not), %d I/O errors logged\n",
			 bad_data, io_errors);
	if (unbind)
		ksft_test_result(done == cycles && !bad_init,
				 "every bind: the fallback ran again to %ld failures, ceiling %s (%d not)\n",
				 first.failures, first.ceiling, bad_init);
	else
		ksft_test_result(done == cycles && !bad_init,
				 "every resume: initialised again straight to %s, no new failure, no power cycle (%d not)\n",
				 want_mode, bad_init);
	ksft_finished();
}
