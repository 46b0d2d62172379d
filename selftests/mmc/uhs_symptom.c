// SPDX-License-Identifier: GPL-2.0
/*
 * What a user sees when the SD card or its bus has one of the faults of the
 * test-only card model (scripts/bench/lab/sd-uhs-model.patch: a layer
 * between the mmc core and QEMU's sdhci-pci, the mmc core and sdhci.c
 * unmodified): on the unpatched kernel (uhsmodel-base), the symptom users
 * report; on the series, what it does about it. The model's debugfs file
 * (mmcN/uhs_model) counts each fault fired, so every check first asserts
 * that the fault was really hit. bst.symptom= picks the fault:
 *
 *   dead18  (sdhci_pci.uhs_fault=dead18:... on the command line) CMD11
 *           works, then nothing answers at 1.8 V until a power cycle: does
 *           the card come up within bst.symptom_wait s (default 60)?
 *           bst.symptom_card=absent, or the mode it must come up in.
 *   bringup (any fault of the command line, or none) how the card's
 *           bring-up ends, for make bench-uhs: the card must come up
 *           within bst.symptom_wait s (default 30) in bst.symptom_card (a
 *           mode, absent, or any: only reported); bst.symptom_fault=KIND
 *           must have fired (bst.symptom_fired=1, the default) or never
 *           (bst.symptom_fired=0: with sdhci.debug_quirks2=4 no fault at
 *           1.8 V can fire). Whether a 4 KiB read of the card's first
 *           block then works is reported (without the series nothing
 *           checks a mode with a read before the card is added).
 *   crc     (sdhci_pci.uhs_fault=crc:... on the command line) reads of a
 *           block or more fail CRC in the card's mode: bst.symptom_reads
 *           4 KiB direct reads (default 16) spread over the card.
 *   irq     armed here after bring-up (bst.symptom_arm=, default
 *           irq:all:always): block requests end by sdhci's own 10 s timer.
 *           The reads must each take 10 s or more; every request whose
 *           interrupts were lost shows at least one "Timeout waiting for
 *           hardware interrupt" (its CMD12 may wait for one more). Then the
 *           fault is disarmed and the card must read again.
 *   remove  armed here after bring-up (remove:all:1): the card is pulled at
 *           the next block request. The read must end, the card must be
 *           gone; writing "none" puts it back, and it must come up in the
 *           mode it had (a removal is no reason to step down).
 *
 * bst.symptom_eio=MIN-MAX (or N): the number of reads here that must fail
 * (EIO or another error), checked for crc and irq; bst.symptom_kernel_eio=
 * MIN-MAX: the "I/O error, dev mmcblk0" lines of the whole boot (the
 * kernel's own reads too: the partition table, a root mount), if given. bst.symptom_hang=S:
 * a read that has not returned after S s (default 150) is a hang. Every
 * measured number is printed as "symptom: KEY=VALUE" for the report.
 */
#include "sd.h"

#include <signal.h>
#include <sys/wait.h>

static struct sd_card card;

/* The host whose debugfs has the model's file; false if none does. */
static bool model_host(char *host, size_t size)
{
	char path[300];
	struct dirent *d;
	DIR *dir = opendir(SD_DEBUGFS);
	bool found = false;

	while (dir && !found && (d = readdir(dir))) {
		if (strncmp(d->d_name, "mmc", 3))
			continue;
		snprintf(path, sizeof(path), SD_DEBUGFS "/%s/" SD_MODEL, d->d_name);
		if (!access(path, F_OK)) {
			snprintf(host, size, "%s", d->d_name);
			found = true;
		}
	}
	if (dir)
		closedir(dir);
	return found;
}

static bool model_read(char *buf, size_t size)
{
	return sd_host_file(&card, SD_MODEL, buf, size) > 0;
}

static long model_field(const char *key)
{
	char buf[1024];
	long v;

	if (!model_read(buf, sizeof(buf)) || !sd_field_long(buf, key, &v))
		return -1;
	return v;
}

static void model_show(const char *when)
{
	char buf[1024];

	if (!model_read(buf, sizeof(buf)))
		return;
	for (char *l = strtok(buf, "\n"); l; l = strtok(NULL, "\n"))
		ksft_print_msg("%s: uhs_model: %s\n", when, l);
}

/* Is the host's card (any card) registered now? */
static bool card_present(void)
{
	char path[600];
	struct dirent *d;
	DIR *dir;
	bool found = false;

	snprintf(path, sizeof(path), SD_HOSTS "/%s", card.host);
	dir = opendir(path);
	while (dir && !found && (d = readdir(dir)))
		found = !strncmp(d->d_name, card.host, strlen(card.host)) &&
			d->d_name[strlen(card.host)] == ':';
	if (dir)
		closedir(dir);
	return found;
}

static bool wait_gone(double limit)
{
	double end = bst_now() + limit;

	while (card_present() || !access("/dev/mmcblk0", F_OK)) {
		if (bst_now() > end)
			return false;
		usleep(20000);
	}
	return true;
}

/*
 * One 4 KiB direct read at @off in a child process, so that a read that
 * never returns is measured as a hang instead of stopping the test. Returns
 * 0, -errno of the read, or -ETIME if it had not returned after @limit s
 * (the child is left behind). *secs: how long it took.
 */
static int timed_read(long long off, double limit, double *secs)
{
	double start = bst_now();
	int status, err;
	pid_t pid;

	pid = fork();
	if (pid < 0)
		return -errno;
	if (!pid) {
		void *buf;
		int fd = open("/dev/mmcblk0", O_RDONLY | O_DIRECT);
		ssize_t n;

		if (fd < 0)
			_exit(errno & 0xff);
		if (posix_memalign(&buf, 4096, 4096))
			_exit(ENOMEM);
		n = pread(fd, buf, 4096, off);
		_exit(n == 4096 ? 0 : n < 0 ? (errno & 0xff) : EIO);
	}
	for (;;) {
		pid_t w = waitpid(pid, &status, WNOHANG);

		*secs = bst_now() - start;
		if (w == pid)
			break;
		if (w < 0)
			return -errno;
		if (*secs > limit) {
			kill(pid, SIGKILL);
			return -ETIME;
		}
		usleep(10000);
	}
	err = WIFEXITED(status) ? WEXITSTATUS(status) : EINTR;
	return -err;
}

/* "MIN-MAX", "MIN-" or "N" */
static bool in_range(long n, const char *range)
{
	char *end;
	long lo, hi;

	lo = strtol(range, &end, 10);
	if (*end == '-')
		hi = end[1] ? strtol(end + 1, NULL, 10) : __LONG_MAX__;
	else
		hi = lo;
	return n >= lo && n <= hi;
}

/* @n reads spread over the card; returns the number that failed. */
static long read_spread(const char *when, long n, double hang, double *total,
			double *min_secs, bool *hung)
{
	long long size = 0;
	long failed = 0;
	int fd = open("/dev/mmcblk0", O_RDONLY);

	if (fd >= 0) {
		size = lseek(fd, 0, SEEK_END);
		close(fd);
	}
	if (size < 4096 * n)
		size = 4096 * n;
	*total = 0;
	*min_secs = 1e9;
	*hung = false;
	for (long i = 0; i < n && !*hung; i++) {
		long long off = (size / n * i) & ~4095LL;
		double secs;
		int err = timed_read(off, hang, &secs);

		*total += secs;
		if (secs < *min_secs)
			*min_secs = secs;
		if (err)
			failed++;
		if (err == -ETIME)
			*hung = true;
		ksft_print_msg("%s: read %ld at %lld: %s after %.3f s\n", when, i, off,
			       err ? strerror(-err) : "ok", secs);
	}
	return failed;
}

static void symptom_dead18(void)
{
	const char *want = sd_param("bst.symptom_card") ?: "absent";
	double wait = sd_param_long("bst.symptom_wait", 60), start = bst_now();
	bool up = sd_wait_card(&card, wait);
	int errs = sd_log_count("whilst initialising SD card", "error -110");
	long fired, lost;

	if (!up && !model_host(card.host, sizeof(card.host)))
		ksft_exit_fail_msg("no host with " SD_MODEL " (is this the model's kernel?)\n");
	model_show("dead18");
	fired = sd_model_fired(&card, "dead18");
	lost = model_field("dead18 commands");
	ksft_print_msg("symptom: card=%s after=%.1fs init_errors=%d cmd11=%ld dead18_fired=%ld dead18_commands=%ld\n",
		       up ? sd_ios_mode(&card) : "absent", bst_now() - start, errs,
		       model_field("cmd11"), fired, lost);
	ksft_test_result(fired > 0 && lost > 0,
			 "dead18: the 1.8 V bus went dead after CMD11 (%ld times, %ld commands lost)\n",
			 fired, lost);
	if (!strcmp(want, "absent"))
		ksft_test_result(!up && errs > 0,
				 "dead18: no card after %.0f s, %d \"error -110 whilst initialising\" lines (the users' symptom)\n",
				 wait, errs);
	else
		ksft_test_result(up && !strcmp(sd_ios_mode(&card), want),
				 "dead18: card up in %s (want %s)\n",
				 up ? sd_ios_mode(&card) : "nothing", want);
}

static void symptom_bringup(void)
{
	const char *want = sd_param("bst.symptom_card") ?: "any";
	const char *fault = sd_param("bst.symptom_fault");
	bool fire = sd_param_long("bst.symptom_fired", 1);
	double wait = sd_param_long("bst.symptom_wait", 30), start = bst_now();
	bool up = sd_wait_card(&card, wait);
	const char *mode = up ? sd_ios_mode(&card) : "absent";
	double secs = 0;
	int err = -ENODEV;
	long fired;

	if (!up && !model_host(card.host, sizeof(card.host)))
		ksft_exit_fail_msg("no host with " SD_MODEL " (is this the model's kernel?)\n");
	/* A card that came up may still not read (no verify without the series). */
	if (up)
		err = timed_read(0, sd_param_long("bst.symptom_hang", 150), &secs);
	fired = fault ? sd_model_fired(&card, fault) : 0;
	model_show("bringup");
	ksft_print_msg("symptom: card=%s after=%.1fs init_errors=%d cmd11=%ld fault=%s fired=%ld read=%s read_secs=%.3f boot_io_errors=%d\n",
		       mode, bst_now() - start, sd_log_count("whilst initialising SD card", "error"),
		       model_field("cmd11"), fault ?: "none", fired,
		       up ? (err ? strerror(-err) : "ok") : "none", secs,
		       sd_log_count("I/O error, dev mmcblk0", ""));
	if (fault)
		ksft_test_result(fire ? fired > 0 : fired == 0,
				 "bringup: the %s fault fired %ld times (want %s)\n",
				 fault, fired, fire ? "1 or more" : "none");
	if (!strcmp(want, "any"))
		ksft_test_result_skip("bringup: card %s after %.0f s, only reported (bst.symptom_card=any)\n",
				      mode, wait);
	else
		ksft_test_result(!strcmp(mode, want), "bringup: card %s after %.0f s (want %s)\n",
				 mode, wait, want);
}

/* The fault of the command line, or armed now; then reads. */
static void symptom_reads(const char *kind)
{
	const char *eio = sd_param("bst.symptom_eio") ?: "1-";
	const char *arm = sd_param("bst.symptom_arm");
	const char *kernel_eio = sd_param("bst.symptom_kernel_eio");
	long n = sd_param_long("bst.symptom_reads", !strcmp(kind, "crc") ? 16 : 2);
	double hang = sd_param_long("bst.symptom_hang", 150), total, min_secs;
	char mode0[16], host_uhs[300];
	long failed, fired, timeouts0, timeouts, stepped0, stepped, blk_errors;
	bool hung, irq = !strcmp(kind, "irq");
	int err;

	if (!sd_wait_card(&card, sd_wait_limit()))
		ksft_exit_fail_msg("no SD card within %.0f s\n", sd_wait_limit());
	snprintf(mode0, sizeof(mode0), "%s", sd_ios_mode(&card));
	snprintf(host_uhs, sizeof(host_uhs), "%s: UHS-I ", card.host);
	timeouts0 = sd_log_count("Timeout waiting for hardware interrupt", card.host);
	stepped0 = sd_log_count(host_uhs, " failed at ");
	model_show("before");
	if (irq && !arm)
		arm = "irq:all:always";
	if (arm) {
		err = sd_host_write(&card, SD_MODEL, arm);
		if (err)
			ksft_exit_fail_msg("arming %s: %s\n", arm, strerror(-err));
	}
	failed = read_spread(kind, n, hang, &total, &min_secs, &hung);
	fired = sd_model_fired(&card, kind);
	timeouts = sd_log_count("Timeout waiting for hardware interrupt", card.host) - timeouts0;
	stepped = sd_log_count(host_uhs, " failed at ") - stepped0;
	blk_errors = sd_log_count("I/O error, dev mmcblk0", "");
	model_show("after");
	ksft_print_msg("symptom: fault=%s mode_before=%s mode_after=%s reads=%ld failed=%ld total=%.1fs shortest=%.1fs hung=%d fired=%ld sdhci_timeouts=%ld stepdowns=%ld boot_io_errors=%ld\n",
		       arm ?: kind, mode0, card_present() ? sd_ios_mode(&card) : "gone",
		       n, failed, total, min_secs, hung, fired, timeouts, stepped, blk_errors);
	ksft_test_result(fired > 0, "%s: the fault fired (%ld times)\n", kind, fired);
	ksft_test_result(!hung, "%s: every read returned within %.0f s\n", kind, hang);
	ksft_test_result(in_range(failed, eio), "%s: %ld of %ld reads failed (want %s)\n",
			 kind, failed, n, eio);
	if (kernel_eio)
		ksft_test_result(in_range(blk_errors, kernel_eio),
				 "%s: %ld block layer I/O errors in the boot (want %s)\n",
				 kind, blk_errors, kernel_eio);
	if (!irq)
		return;
	/* Real timing: only sdhci's 10 s timer ends a request whose interrupts are lost. */
	ksft_test_result(min_secs >= 10.0 && timeouts >= fired,
			 "irq: each read took 10 s or more (shortest %.1f s), %ld sdhci timeouts for %ld requests whose interrupts were lost\n",
			 min_secs, timeouts, fired);
	err = sd_host_write(&card, SD_MODEL, "none");
	if (!err && !sd_wait_card(&card, sd_wait_limit()))
		err = -ENODEV;
	ksft_test_result(!err && sd_data_matches("after irq"),
			 "irq: disarmed, the card is there (%s) and reads back as the image (%s)\n",
			 card_present() ? sd_ios_mode(&card) : "gone", err ? strerror(-err) : "ok");
}

static void symptom_remove(void)
{
	double hang = sd_param_long("bst.symptom_hang", 150), secs;
	char mode0[16], host_uhs[300];
	long stepped0, fired;
	bool gone, back;
	int err;

	if (!sd_wait_card(&card, sd_wait_limit()))
		ksft_exit_fail_msg("no SD card within %.0f s\n", sd_wait_limit());
	snprintf(mode0, sizeof(mode0), "%s", sd_ios_mode(&card));
	snprintf(host_uhs, sizeof(host_uhs), "%s: UHS-I ", card.host);
	stepped0 = sd_log_count(host_uhs, " failed at ");
	err = sd_host_write(&card, SD_MODEL, "remove:all:1");
	if (err)
		ksft_exit_fail_msg("arming remove: %s\n", strerror(-err));
	err = timed_read(0, hang, &secs);
	fired = sd_model_fired(&card, "remove");
	gone = wait_gone(30);
	ksft_print_msg("symptom: fault=remove mode_before=%s read=%s read_secs=%.3f gone=%d fired=%ld\n",
		       mode0, err ? strerror(-err) : "ok", secs, gone, fired);
	ksft_test_result(fired == 1, "remove: the card was pulled at a block request (%ld)\n", fired);
	ksft_test_result(err && err != -ETIME,
			 "remove: the read in flight ended with an error (%s) after %.3f s, no hang\n",
			 strerror(-err), secs);
	ksft_test_result(gone, "remove: the card and /dev/mmcblk0 are gone\n");
	err = sd_host_write(&card, SD_MODEL, "none");
	back = !err && sd_wait_card(&card, sd_wait_limit());
	ksft_print_msg("symptom: reinserted=%d mode_after=%s stepdowns=%d\n", back,
		       back ? sd_ios_mode(&card) : "none",
		       sd_log_count(host_uhs, " failed at ") - (int)stepped0);
	ksft_test_result(back && !strcmp(sd_ios_mode(&card), mode0) &&
			 sd_log_count(host_uhs, " failed at ") == stepped0,
			 "remove: put back, the card comes up in %s as before (%s), no step down\n",
			 mode0, back ? sd_ios_mode(&card) : "no card");
	ksft_test_result(back && sd_data_matches("reinserted"),
			 "remove: the card put back reads back as the image\n");
}

int main(void)
{
	const char *kind = sd_param("bst.symptom");

	ksft_print_header();
	if (!kind)
		ksft_exit_fail_msg("no bst.symptom= (bringup, dead18, crc, irq or remove)\n");
	if (!strcmp(kind, "bringup")) {
		ksft_set_plan(1 + !!sd_param("bst.symptom_fault"));
		symptom_bringup();
	} else if (!strcmp(kind, "dead18")) {
		ksft_set_plan(2);
		symptom_dead18();
	} else if (!strcmp(kind, "crc")) {
		ksft_set_plan(3 + !!sd_param("bst.symptom_kernel_eio"));
		symptom_reads(kind);
	} else if (!strcmp(kind, "irq")) {
		ksft_set_plan(5 + !!sd_param("bst.symptom_kernel_eio"));
		symptom_reads(kind);
	} else if (!strcmp(kind, "remove")) {
		ksft_set_plan(5);
		symptom_remove();
	} else {
		ksft_exit_fail_msg("bst.symptom=%s: not bringup, dead18, crc, irq or remove\n", kind);
	}
	ksft_finished();
}
