// SPDX-License-Identifier: GPL-2.0
/*
 * The SD card comes up in the mode the boot's faults leave (bst.uhs_mode),
 * after the expected number of UHS-I failures (bst.uhs_failures), each
 * logged once, with at most one power cycle, and reads back as the image.
 * bst.uhs_path lists the modes that must fail, in order ("SDR104,SDR50";
 * 1.8V for the voltage switch). With bst.uhs_quirk_warning=1, sdhci warns once that debug_quirks2 replaces
 * the drivers' quirks2. With bst.uhs_reinit=1: a resume of the same card goes straight to that
 * mode; another card (a new serial number, fail_mmc_uhs/serial) gets a fresh
 * UHS-I attempt; "reset" in uhs_fallback forgets, and bad input is refused.
 */
#include "sd.h"

#define OTHER_SERIAL	"0x5eed0001"

static struct sd_card card;

/* The modes of uhs_fallback's "failure:" lines, in order: "SDR104,SDR50". */
static void failed_modes(const char *text, char *out, size_t size)
{
	const char *p = text;
	size_t len = 0;
	int n;

	out[0] = '\0';
	while ((p = strstr(p, "failure: "))) {
		p += strlen("failure: ");
		n = strcspn(p, " \n");
		len += snprintf(out + len, size - len, "%s%.*s", len ? "," : "", n, p);
		if (len >= size)
			break;
	}
}

static void check_mode(const char *when, const char *want)
{
	const char *mode = sd_ios_mode(&card);

	ksft_test_result(!strcmp(mode, want), "%s: ios says %s (want %s)\n",
			 when, mode, want);
}

/* The same card initialised again: no failure, nothing tried above it. */
static void check_resume(const char *want_mode)
{
	struct sd_uhs a, b;
	int err;

	if (!sd_uhs_read(&card, &a))
		ksft_exit_fail_msg("cannot read uhs_fallback\n");
	err = sd_suspend_resume();
	if (err || !sd_wait_card(&card, sd_wait_limit())) {
		ksft_test_result_fail("resume: card back (suspend: %s)\n",
				      err ? strerror(-err) : "ok");
		return;
	}
	/*
	 * The suspend powered the card off: this read only works once the
	 * card was initialised again.
	 */
	ksft_test_result(sd_data_matches("resume"), "resume: data matches the image\n");
	if (!sd_uhs_read(&card, &b))
		ksft_exit_fail_msg("cannot read uhs_fallback after the resume\n");
	ksft_print_msg("resume: cmd11 +%ld, cmd6 +%ld, tunings +%ld, power cycles +%ld\n",
		       b.cmd11 - a.cmd11, b.cmd6 - a.cmd6, b.tunings - a.tunings,
		       b.power_cycles - a.power_cycles);
	ksft_test_result(b.failures == a.failures && !strcmp(b.ceiling, a.ceiling),
			 "resume: no new failure, ceiling still %s\n", b.ceiling);
	if (!strcmp(want_mode, "HS"))
		ksft_test_result(b.cmd11 == a.cmd11 && b.cmd6 == a.cmd6,
				 "resume: no 1.8 V request, no UHS-I switch\n");
	else
		ksft_test_result(b.cmd6 - a.cmd6 == 1 && b.power_cycles == a.power_cycles,
				 "resume: one CMD6 switch, straight to %s, no power cycle\n",
				 want_mode);
	check_mode("resume", want_mode);
}

/* Another card (another CID) gets its own UHS-I attempt. */
static void check_other_card(const char *want_mode, long want_failures)
{
	struct sd_uhs a, b;
	char serial[32] = "", cid[40] = "";
	int err;

	if (!sd_uhs_read(&card, &a))
		ksft_exit_fail_msg("cannot read uhs_fallback\n");
	err = sd_host_write(&card, "fail_mmc_uhs/serial", OTHER_SERIAL);
	if (!err)
		err = sd_suspend_resume();
	/* The old card is removed and the new one added by the rescan. */
	for (double end = bst_now() + sd_wait_limit(); !err && bst_now() < end;
	     usleep(20000))
		if (sd_wait_card(&card, 1) &&
		    sd_card_attr(&card, "serial", serial, sizeof(serial)) > 0 &&
		    !strncmp(serial, OTHER_SERIAL, strlen(OTHER_SERIAL)))
			break;
	if (err || strncmp(serial, OTHER_SERIAL, strlen(OTHER_SERIAL))) {
		ksft_test_result_fail("another card: detected (%s, serial %s)\n",
				      err ? strerror(-err) : "ok", serial);
		return;
	}
	ksft_test_result(sd_data_matches("another card"),
			 "another card: data matches the image\n");
	if (!sd_uhs_read(&card, &b))
		ksft_exit_fail_msg("cannot read uhs_fallback for another card\n");
	sd_card_attr(&card, "cid", cid, sizeof(cid));
	cid[strcspn(cid, "\n")] = '\0';
	ksft_print_msg("another card: cmd11 +%ld, cmd6 +%ld, tunings +%ld, power cycles +%ld\n",
		       b.cmd11 - a.cmd11, b.cmd6 - a.cmd6, b.tunings - a.tunings,
		       b.power_cycles - a.power_cycles);
	ksft_test_result(b.failures - a.failures == want_failures &&
			 (!want_failures || !strcmp(b.card, cid)),
			 "another card: fresh attempt, %ld new failures (want %ld), ceiling for its CID\n",
			 b.failures - a.failures, want_failures);
	check_mode("another card", want_mode);
}

static void check_reset(void)
{
	struct sd_uhs u;
	bool read;
	int err;

	err = sd_host_write(&card, "uhs_fallback", "reset\n");
	read = sd_uhs_read(&card, &u);
	ksft_test_result(!err && read &&
			 !strcmp(u.ceiling, "none") && u.failures == 0 &&
			 u.power_cycles == 0,
			 "uhs_fallback: \"reset\" forgets (ceiling %s, failures %ld)\n",
			 u.ceiling, u.failures);
	err = sd_host_write(&card, "uhs_fallback", "resett");
	ksft_test_result(err == -EINVAL, "uhs_fallback: other input gives EINVAL (%s)\n",
			 strerror(-err));
	err = sd_host_write(&card, "fail_mmc_uhs/modes", "sdr105");
	ksft_test_result(err == -EINVAL, "fail_mmc_uhs/modes: unknown mode gives EINVAL (%s)\n",
			 strerror(-err));
}

int main(void)
{
	const char *want_mode = sd_param("bst.uhs_mode") ?: "HS";
	long want_failures = sd_param_long("bst.uhs_failures", 0);
	bool reinit = sd_param_long("bst.uhs_reinit", 0);
	bool quirk_warning = sd_param_long("bst.uhs_quirk_warning", 0);
	const char *want_path = sd_param("bst.uhs_path");
	char path[256];
	long want_cycles = want_failures && !strcmp(want_mode, "HS") ? 1 : 0;
	struct sd_uhs u;
	int logged;

	ksft_print_header();
	ksft_set_plan(6 + (reinit ? 10 : 0) + !!quirk_warning + !!want_path);

	if (!sd_wait_card(&card, sd_wait_limit()))
		ksft_exit_fail_msg("no SD card within %.0f s (see the console log)\n",
				   sd_wait_limit());
	ksft_test_result_pass("card %s on %s initialised\n", card.dev, card.host);
	if (!sd_uhs_read(&card, &u))
		ksft_exit_fail_msg("cannot read %s/uhs_fallback\n", card.host);
	for (char *l = strtok(strdup(u.text), "\n"); l; l = strtok(NULL, "\n"))
		ksft_print_msg("uhs_fallback: %s\n", l);

	check_mode("boot", want_mode);
	logged = sd_log_count("UHS-I ", " failed at ");
	ksft_test_result(u.failures == want_failures && logged == want_failures,
			 "%ld UHS-I failures (want %ld), %d log lines\n",
			 u.failures, want_failures, logged);
	ksft_test_result(!strcmp(u.ceiling, want_failures ? want_mode : "none"),
			 "ceiling %s\n", u.ceiling);
	if (want_path) {
		failed_modes(u.text, path, sizeof(path));
		ksft_test_result(!strcmp(path, want_path),
				 "failed modes in order: %s (want %s)\n", path, want_path);
	}
	ksft_test_result(u.power_cycles == want_cycles,
			 "%ld power cycles (want %ld)\n", u.power_cycles, want_cycles);
	ksft_test_result(sd_data_matches("boot"), "data matches the image\n");
	if (quirk_warning) {
		logged = sd_log_count("debug_quirks2=", "falls back");
		ksft_test_result(logged == 1, "sdhci.debug_quirks2 with NO_1_8_V: %d warnings (want 1)\n",
				 logged);
	}

	if (reinit) {
		check_resume(want_mode);
		check_other_card(want_mode, want_failures);
		check_reset();
	}
	ksft_finished();
}
