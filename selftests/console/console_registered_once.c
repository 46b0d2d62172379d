// SPDX-License-Identifier: GPL-2.0
/*
 * The PL011 console after boot: registered once, enabled and preferred (but
 * when a later console= names another console, as console=tty1 does), no
 * boot console left behind, registered when the boot expects it (at
 * console_init with the series and a PL011 stdout-path, at probe otherwise),
 * and writable from userspace. Saves the kernel log to /tmp/bst-console/kmsg
 * for the host, which checks that every record reached the console once, and
 * what the pass over /dev/kmsg saw to /tmp/bst-console/kmsg-summary, so that
 * the host can tell a whole dump from a cut one. The log must be whole: from
 * sequence number 0, with no record overwritten (a ring that wrapped would
 * shrink "every record" to its tail; boot with a larger log_buf_len).
 *
 * The boot says when registration is expected with bst.console_at=init or
 * bst.console_at=probe on the kernel command line.
 *
 * Userspace's write goes to the tty while the console still prints a
 * backlog: the tty's output must wait for the end of a record the console
 * writes in pieces, so the host finds every record on a line of its own.
 * The records written here make the backlog: 48 of about 110 characters,
 * 0.46 s at 115200 baud (with a backlog of six, 60 ms, it was gone before
 * the tty's write on the slow-UART model, and a driver that let the tty's
 * output inside a record passed).
 */
#include <stdlib.h>
#include <sys/stat.h>
#include <termios.h>

#include "kselftest.h"
#include "console.h"

#define SAVE_DIR	"/tmp/bst-console"
/* On a line of its own: the kernel may be printing at the same time. */
#define MARKER		"\nbst-console-marker: written by userspace\n"

struct scan {
	int enabled;			/* "console [ttyAMA..] enabled" records */
	unsigned long long enabled_seq;
	int driver;			/* "Serial: AMBA PL011 UART driver" */
	unsigned long long driver_seq;
	int deferred;			/* "test: probe deferred" (test-only fault) */
	FILE *save;
};

static void scan_record(const char *rec, void *arg)
{
	struct scan *s = arg;
	const char *text = kmsg_text(rec);

	if (strstr(text, "console [ttyAMA") && strstr(text, "] enabled")) {
		if (!s->enabled++)
			s->enabled_seq = kmsg_seq(rec);
	}
	if (strstr(text, "Serial: AMBA PL011 UART driver") && !s->driver++)
		s->driver_seq = kmsg_seq(rec);
	if (strstr(text, "test: probe deferred"))
		s->deferred++;
	if (s->save)
		fprintf(s->save, "%s\n", rec);
}

/*
 * Is the PL011 to be the preferred console? The last console= names the
 * preferred one (Raspberry Pi OS ends with console=tty1, a VT); without
 * console=, the device tree's stdout-path does.
 */
static int amba_preferred(void)
{
	char *last = console_cmdline_value("console", 1);

	return !last || !strncmp(last, "ttyAMA", 6);
}

static void check_proc_consoles(void)
{
	char line[256], name[64], flags[64];
	int amba = 0, amba_ok = 0, boot = 0;
	int preferred = amba_preferred();
	const char *want = preferred ? "enabled and preferred" : "enabled, not preferred";
	FILE *f = fopen("/proc/consoles", "r");

	if (!f) {
		ksft_test_result_fail("one ttyAMA console, %s: /proc/consoles: %s\n",
				      want, strerror(errno));
		/* Unknown is not "none left". */
		ksft_test_result_fail("no boot console left: no /proc/consoles\n");
		return;
	}
	/* "ttyAMA0              -W- (EC p a)    204:64" */
	while (fgets(line, sizeof(line), f)) {
		char *open = strchr(line, '('), *close = strchr(line, ')');

		if (sscanf(line, "%63s", name) != 1 || !open || !close || close < open)
			continue;
		snprintf(flags, sizeof(flags), "%.*s", (int)(close - open - 1), open + 1);
		ksft_print_msg("/proc/consoles: %s", line);
		if (strchr(flags, 'B'))
			boot++;
		if (!strncmp(name, "ttyAMA", 6)) {
			amba++;
			amba_ok += strchr(flags, 'E') && !strchr(flags, 'C') == !preferred;
		}
	}
	fclose(f);
	ksft_test_result(amba == 1 && amba_ok == 1,
			 "one ttyAMA console, %s (%d found)\n", want, amba);
	ksft_test_result(boot == 0, "no boot console left (%d found)\n", boot);
}

/* Under printk.devkmsg's default burst of 10 records. */
#define BACKLOG_RECORDS	48

/* Records for the console to print while userspace writes to the tty. */
static void fill_console_backlog(void)
{
	int fd = open("/dev/kmsg", O_WRONLY);
	int i, written = 0;
	char rec[160];

	for (i = 0; fd >= 0 && i < BACKLOG_RECORDS; i++) {
		int len = snprintf(rec, sizeof(rec),
				   "bst-console-backlog: record %d of %d, longer than a FIFO, for the console to print while userspace writes to its tty\n",
				   i + 1, BACKLOG_RECORDS);

		if (write(fd, rec, len) == len)
			written++;
	}
	if (fd >= 0)
		close(fd);
	ksft_test_result(written == BACKLOG_RECORDS,
			 "records written to /dev/kmsg for the console's backlog (%d of %d)\n",
			 written, BACKLOG_RECORDS);
}

static void check_userspace_write(void)
{
	int fd = open("/dev/ttyAMA0", O_WRONLY | O_NOCTTY);
	ssize_t len = -1;
	int err = errno;

	if (fd >= 0) {
		len = write(fd, MARKER, strlen(MARKER));
		err = errno;
		tcdrain(fd);
		close(fd);
	}
	ksft_test_result(len == (ssize_t)strlen(MARKER),
			 "userspace writes to /dev/ttyAMA0 (%s)\n",
			 len == (ssize_t)strlen(MARKER) ? "marker written" :
			 len >= 0 ? "short write" : strerror(err));
}

/*
 * Save the kernel log for the host, and what the pass saw beside it: the
 * host compares the two, so a dump cut on its way is not taken for the log.
 */
static void save_log(struct scan *s)
{
	struct kmsg_log log;
	FILE *summary;
	int saved;

	mkdir(SAVE_DIR, 0700);
	s->save = fopen(SAVE_DIR "/kmsg", "w");
	kmsg_read_log(&log, scan_record, s);
	saved = s->save && !ferror(s->save);
	if (s->save && fclose(s->save))
		saved = 0;
	summary = fopen(SAVE_DIR "/kmsg-summary", "w");
	if (summary) {
		kmsg_log_print(summary, &log);
		if (ferror(summary))
			saved = 0;
		if (fclose(summary))
			saved = 0;
	} else {
		saved = 0;
	}
	ksft_print_msg("/dev/kmsg: ");
	kmsg_log_print(stdout, &log);
	ksft_test_result(saved && log.records > 0,
			 "kernel log saved for the host (%d records)\n", log.records);
	ksft_test_result(kmsg_log_whole(&log),
			 "kernel log whole: first seq %llu (want 0), %llu missing, %d overwritten, %d bad, read error %d\n",
			 log.first_seq, log.missing, log.overwritten, log.bad, log.err);
}

int main(void)
{
	struct scan s = { 0 };
	const char *at = console_cmdline_param("bst.console_at");
	const char *defer = console_cmdline_param("amba_pl011.test_defer_probes");
	int deferrals = defer ? atoi(defer) : 0;

	ksft_print_header();
	ksft_set_plan(8 + !!defer);

	check_proc_consoles();
	fill_console_backlog();
	save_log(&s);
	check_userspace_write();
	ksft_test_result(s.enabled == 1, "console enabled once in the kernel log (%d times)\n",
			 s.enabled);

	if (!at)
		ksft_test_result_skip("registered when expected: the boot sets no bst.console_at\n");
	else if (s.enabled != 1 || s.driver != 1)
		ksft_test_result_fail("registered when expected: %d console enabled, %d PL011 driver records (want 1 each)\n",
				      s.enabled, s.driver);
	else if (!strcmp(at, "init"))
		ksft_test_result(s.enabled_seq < s.driver_seq,
				 "registered at console_init, before the driver (seq %llu < %llu)\n",
				 s.enabled_seq, s.driver_seq);
	else if (!strcmp(at, "probe"))
		ksft_test_result(s.enabled_seq > s.driver_seq,
				 "registered at probe, after the driver (seq %llu > %llu)\n",
				 s.enabled_seq, s.driver_seq);
	else
		ksft_test_result_fail("registered when expected: bst.console_at=%s is neither init nor probe\n",
				      at);

	/* The models and debug kernels' test-only fault (scripts/bench/lab/). */
	if (defer)
		ksft_test_result(deferrals > 0 && s.deferred == deferrals,
				 "the PL011 probe was deferred %d times (amba_pl011.test_defer_probes=%s)\n",
				 s.deferred, defer);
	ksft_finished();
}
