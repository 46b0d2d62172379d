// SPDX-License-Identifier: GPL-2.0
/*
 * The SD card comes up in the mode the boot's faults leave (bst.uhs_mode, at
 * that mode's clock and signal voltage), after the UHS-I failures listed in
 * bst.uhs_path (modes in order, "1.8V" for the voltage switch; the card's
 * uhs_fallback file and one log line each), and reads back as the image.
 * A mode that fails is tried once more before the ceiling goes below it, so
 * a mode that always fails is listed twice ("SDR104,SDR104"); the first is
 * marked retried, and every step down follows such a retry at the same
 * mode (not a bus speed switch the card refuses: its answer, once).
 * The commands are checked as the host issued them, from the mmc trace
 * event: the CMD6 bus speed switches are the failed modes and then the
 * final one; each step down's log line comes with the kernel parameter that
 * starts later boots at the ceiling (mmc_core.sd_uhs_limit=), the last one
 * naming the card's, and a retry's with none; bst.uhs_cmd11 is the number of CMD11s at boot (default 0; the
 * UHS-I card of scripts/bench/lab/sd-uhs-model.patch takes a real CMD11 at
 * each initialisation that asks for 1.8 V).
 * With bst.uhs_reinit=1: bst.uhs_resumes resumes (default 1) go straight to
 * that mode, with one switch and no new failure, and one CMD11 if the mode
 * is a UHS-I one (the suspend powered the card off, so it is back at 3.3 V),
 * none for HS; with bst.uhs_resume_fault (a fault of the model, such as
 * dat:all:10), one more resume with that fault armed tries the mode once
 * more and comes back in it, the ceiling unchanged; unbinding and binding the
 * host removes the card, and the new card starts afresh.
 */
#include "sd.h"

#include <libgen.h>
#include <limits.h>

static struct sd_card card;

/* The card is in @want, at its clock and voltage (ios), and says so. */
static void check_mode(const char *when, const char *want)
{
	const char *mode = sd_ios_mode(&card);
	char ios[1024] = "";
	long clock = -1, hz = sd_mode_clock(want);
	struct sd_uhs u;

	ksft_test_result(!strcmp(mode, want), "%s: ios says %s (want %s)\n",
			 when, mode, want);
	if (sd_host_file(&card, "ios", ios, sizeof(ios)) > 0)
		clock = strtol(sd_field(ios, "clock"), NULL, 10);
	ksft_test_result(clock == hz, "%s: clock %ld Hz (want %ld)\n", when, clock, hz);
	ksft_test_result(sd_uhs_read(&card, &u) && !strcmp(u.mode, want),
			 "%s: uhs_fallback says mode %s\n", when, u.mode);
}

/* The CMD6 bus speed switches since the trace was last cleared. */
static void check_switches(const char *when, const char *want_modes, int want_cmd11)
{
	char want[256];
	struct sd_cmds t;

	if (!sd_trace_cmds(&card, &t) || !sd_path_functions(want_modes, want, sizeof(want))) {
		ksft_test_result_fail("%s: trace readable, modes known\n", when);
		ksft_test_result_fail("%s: CMD11 count\n", when);
		return;
	}
	ksft_test_result(!strcmp(t.switches, want),
			 "%s: CMD6 switches %s (want %s: %s)\n", when, t.switches, want,
			 want_modes);
	ksft_test_result(t.cmd11 == want_cmd11,
			 "%s: %d CMD11 sent (want %d), ACMD41 %d with 1.8 V request, %d without\n",
			 when, t.cmd11, want_cmd11, t.s18r, t.no_s18r);
}

static void check_resumes(const char *want_mode, long resumes, bool fell_back)
{
	struct sd_uhs a, b;
	struct sd_cmds t;
	int err = 0, fn = sd_mode_function(want_mode);
	int cmd11 = strcmp(want_mode, "HS") ? 1 : 0;
	long i;

	if (!sd_uhs_read(&card, &a))
		ksft_exit_fail_msg("cannot read uhs_fallback\n");
	for (i = 0; i < resumes && !err; i++) {
		sd_trace_clear();
		err = sd_suspend_resume();
		/* The suspend powered the card off: this read needs a new init. */
		if (!err && !sd_data_matches("resume"))
			err = -EIO;
		if (!err && (!sd_trace_cmds(&card, &t) || t.nr_switches != 1 ||
			     atoi(t.switches) != fn || t.cmd11 != cmd11 ||
			     (fell_back && !strcmp(want_mode, "HS") && t.s18r)))
			err = -EPROTO;
	}
	ksft_test_result(!err, "%ld resumes: data matches, each one CMD6 switch straight to %s, %d CMD11%s (%s)\n",
			 i, want_mode, cmd11, fell_back && !strcmp(want_mode, "HS") ? ", no 1.8 V request" : "",
			 err ? strerror(-err) : "ok");
	if (err == -EPROTO)
		ksft_print_msg("resume %ld: switches %s, CMD11 %d, ACMD41 with S18R %d\n",
			       i, t.switches, t.cmd11, t.s18r);
	ksft_test_result(sd_uhs_read(&card, &b) && b.failures == a.failures &&
			 !strcmp(b.ceiling, a.ceiling),
			 "resumes: no new failure, ceiling still %s\n", b.ceiling);
	check_mode("resume", want_mode);
}

/*
 * A resume whose voltage switch (or other step) fails, @arm
 * ("KIND:MODES:COUNT") armed in the model first: the fault fires COUNT
 * times, the mode is tried once more, and the card is back in @want_mode
 * with its ceiling, one new failure, marked retried.
 */
static void check_resume_fault(const char *arm, const char *want_mode)
{
	const char *count = strrchr(arm, ':');
	char kind[16];
	long fired0, fired1, want_fired = count ? atol(count + 1) : 0;
	struct sd_uhs a, b;
	bool ok;
	int err;

	snprintf(kind, sizeof(kind), "%.*s", (int)strcspn(arm, ":"), arm);
	if (!sd_uhs_read(&card, &a))
		ksft_exit_fail_msg("cannot read uhs_fallback\n");
	fired0 = sd_model_fired(&card, kind);
	err = sd_host_write(&card, SD_MODEL, arm) ?: sd_suspend_resume();
	if (!err && !sd_data_matches("resume with a fault"))
		err = -EIO;
	fired1 = sd_model_fired(&card, kind);
	ok = sd_uhs_read(&card, &b) && b.failures == a.failures + 1 &&
	     b.retried[0] && b.retried[strlen(b.retried) - 1] == 'r' &&
	     !strcmp(b.ceiling, a.ceiling);
	ksft_test_result(!err && ok && fired0 >= 0 && want_fired > 0 &&
			 fired1 == fired0 + want_fired,
			 "resume with %s: the fault fired %ld time(s), data matches, ceiling %s (was %s), %ld new failure(s), the last retried: %s (%s)\n",
			 arm, fired1 - fired0, b.ceiling, a.ceiling, b.failures - a.failures,
			 b.retried[0] && b.retried[strlen(b.retried) - 1] == 'r' ? "yes" : "no",
			 err ? strerror(-err) : "ok");
	sd_host_write(&card, SD_MODEL, "none");
	check_mode("resume with a fault", want_mode);
}

/*
 * One strike is no verdict: each failure that lowered the ceiling follows a
 * retried one at the same mode; excepted are I/O (failed again after a
 * same-mode reset) and the card's own answers, which a retry would only
 * repeat: a refused bus speed switch (switch, -EIO), -EINVAL, -EPERM.
 * Returns how many do not; the first listed one is not judged when the
 * file's ring dropped older failures.
 */
static int strikes_broken(const struct sd_uhs *u)
{
	char mode[16], step[16], prev[16] = "", more[16];
	bool prev_retried = false, first = true;
	const char *p = u->text;
	int broken = 0, err, n;

	while ((p = strstr(p, "failure: "))) {
		more[0] = '\0';
		n = sscanf(p, "failure: %15s %15s %d %15s", mode, step, &err, more);
		p += strlen("failure: ");
		if (n < 3)
			continue;
		if (strcmp(more, "retried") && !(first && u->failures > (long)strlen(u->retried)) &&
		    strcmp(step, "io") && err != -EINVAL && err != -EPERM &&
		    !(!strcmp(step, "switch") && err == -EIO) &&
		    (!prev_retried || strcmp(prev, mode))) {
			ksft_print_msg("%s failed at %s (%d) and lowered the ceiling at its first strike\n",
				       mode, step, err);
			broken++;
		}
		prev_retried = !strcmp(more, "retried");
		snprintf(prev, sizeof(prev), "%s", mode);
		first = false;
	}
	return broken;
}

/* The modes of @path that are CMD6 switches ("1.8V" is the voltage switch). */
static void switches_of(const char *path, char *out, size_t size)
{
	char *copy = strdup(path ?: ""), *save, *m;
	size_t len = 0;

	out[0] = '\0';
	for (m = copy ? strtok_r(copy, ",", &save) : NULL; m; m = strtok_r(NULL, ",", &save))
		if (strcmp(m, "1.8V"))
			len += snprintf(out + len, size - len, "%s,", m);
	free(copy);
}

/* Removing the card (unbinding its host) forgets it: the new card starts afresh. */
static void check_removal(const char *want_mode, const char *want_path, long want_failures)
{
	char link[PATH_MAX], path[PATH_MAX + 64], pci[NAME_MAX + 1];
	struct sd_uhs u;
	ssize_t n;
	int err;

	snprintf(path, sizeof(path), SD_HOSTS "/%s/device", card.host);
	n = readlink(path, link, sizeof(link) - 1);
	if (n < 0)
		ksft_exit_fail_msg("%s: %s\n", path, strerror(errno));
	link[n] = '\0';
	snprintf(pci, sizeof(pci), "%s", basename(link));
	sd_trace_clear();
	err = bst_write_file("/sys/bus/pci/drivers/sdhci-pci/unbind", pci) ?:
	      bst_write_file("/sys/bus/pci/drivers/sdhci-pci/bind", pci);
	if (err || !sd_wait_card(&card, sd_wait_limit()))
		ksft_exit_fail_msg("unbind and bind %s: card back (%s)\n", pci,
				   err ? strerror(-err) : "no card");
	ksft_test_result(sd_uhs_read(&card, &u) && u.failures == want_failures &&
			 !strcmp(u.path, want_path ?: ""),
			 "new card: %ld failures (want %ld), path %s: not carried over\n",
			 u.failures, want_failures, u.path);
	check_mode("new card", want_mode);
	ksft_test_result(sd_data_matches("new card"), "new card: data matches the image\n");
}

int main(void)
{
	const char *want_mode = sd_param("bst.uhs_mode") ?: "HS";
	const char *want_path = sd_param("bst.uhs_path");
	const char *resume_fault = sd_param("bst.uhs_resume_fault");
	long want_cmd11 = sd_param_long("bst.uhs_cmd11", 0);
	bool reinit = sd_param_long("bst.uhs_reinit", 0);
	long resumes = sd_param_long("bst.uhs_resumes", 1);
	long want_failures = 0;
	char switched[300], host_uhs[300], hint[384];
	struct sd_cmds t;
	struct sd_uhs u;
	int logged, hints, last, retries, lowered = 0;

	for (const char *p = want_path; p && *p; p = strchr(p + 1, ','))
		want_failures++;
	ksft_print_header();
	ksft_set_plan(10 + (reinit ? 10 : 0) + (reinit && resume_fault ? 4 : 0));

	if (!sd_wait_card(&card, sd_wait_limit()))
		ksft_exit_fail_msg("no SD card within %.0f s (see the console log)\n",
				   sd_wait_limit());
	ksft_test_result_pass("card %s on %s initialised\n", card.dev, card.host);
	if (!sd_uhs_read(&card, &u))
		ksft_exit_fail_msg("cannot read %s/%s/uhs_fallback\n", card.host, card.dev);
	for (char *l = strtok(strdup(u.text), "\n"); l; l = strtok(NULL, "\n"))
		ksft_print_msg("uhs_fallback: %s\n", l);

	check_mode("boot", want_mode);
	snprintf(host_uhs, sizeof(host_uhs), "%s: UHS-I ", card.host);
	logged = sd_log_count(host_uhs, " failed at ");
	ksft_test_result(u.failures == want_failures && logged == want_failures,
			 "%ld UHS-I failures (want %ld), %d log lines\n",
			 u.failures, want_failures, logged);
	ksft_test_result(!strcmp(u.path, want_path ?: ""),
			 "failed modes in order: %s (want %s)\n", u.path, want_path ?: "");
	/*
	 * Each step down names the parameter that starts later boots there;
	 * a failure tried once more names none, and comes first.
	 */
	retries = sd_log_count(host_uhs, "trying it once more");
	for (const char *r = u.retried; *r; r++)
		lowered += *r == '-';
	snprintf(host_uhs, sizeof(host_uhs), "%s: to start there on later boots: ", card.host);
	snprintf(hint, sizeof(hint), "mmc_core.sd_uhs_limit=%s:%s", card.host, u.ceiling);
	hints = sd_log_count(host_uhs, "mmc_core.sd_uhs_limit=");
	last = lowered ? sd_log_count(host_uhs, hint) : 0;
	ksft_test_result(hints == lowered && retries == (int)strlen(u.retried) - lowered &&
			 (!lowered || last >= 1) && !strikes_broken(&u),
			 "%d step downs (%s), each after a retry at its mode; %d later-boots hints, %d naming the ceiling (%s); %d tried once more, as many logged (%d)\n",
			 lowered, u.retried, hints, last, hint,
			 (int)strlen(u.retried) - lowered, retries);
	/* The voltage switch is no CMD6: the switches are the modes tried. */
	switches_of(want_path, switched, sizeof(switched) - strlen(want_mode));
	strcat(switched, want_mode);
	check_switches("boot", switched, want_cmd11);
	if (sd_trace_cmds(&card, &t))	/* for scripts/bench/uhs-fallback.sh */
		ksft_print_msg("uhs_cost: failures=%ld cmd11=%d cmd6=%d acmd41=%d\n",
			       u.failures, t.cmd11, t.nr_switches, t.s18r + t.no_s18r);
	ksft_test_result(sd_data_matches("boot"), "data matches the image\n");

	if (reinit) {
		check_resumes(want_mode, resumes, want_failures > 0);
		if (resume_fault)
			check_resume_fault(resume_fault, want_mode);
		check_removal(want_mode, want_path, want_failures);
	}
	ksft_finished();
}
