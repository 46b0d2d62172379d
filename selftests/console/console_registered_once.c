// SPDX-License-Identifier: GPL-2.0
/*
 * The PL011 console after boot: registered once, enabled and preferred, no
 * boot console left behind, registered when the boot expects it (at
 * console_init with the series and a PL011 stdout-path, at probe otherwise),
 * and writable from userspace. Saves the kernel log to /tmp/bst-console/kmsg
 * for the host, which checks that every record reached the console once.
 *
 * The boot says when registration is expected with bst.console_at=init or
 * bst.console_at=probe on the kernel command line.
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
	unsigned long long driver_seq;	/* "Serial: AMBA PL011 UART driver" */
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
	if (strstr(text, "Serial: AMBA PL011 UART driver") && !s->driver_seq)
		s->driver_seq = kmsg_seq(rec);
	if (s->save)
		fprintf(s->save, "%s\n", rec);
}

/* The value of a bst.KEY=VALUE kernel parameter, or NULL. */
static const char *cmdline_param(const char *key)
{
	static char line[4096];
	char *p, *tok;
	FILE *f = fopen("/proc/cmdline", "r");

	if (!f)
		return NULL;
	if (!fgets(line, sizeof(line), f))
		line[0] = '\0';
	fclose(f);
	for (tok = strtok_r(line, " \n", &p); tok; tok = strtok_r(NULL, " \n", &p))
		if (!strncmp(tok, key, strlen(key)) && tok[strlen(key)] == '=')
			return tok + strlen(key) + 1;
	return NULL;
}

static void check_proc_consoles(void)
{
	char line[256], name[64], flags[64];
	int amba = 0, amba_ok = 0, boot = 0;
	FILE *f = fopen("/proc/consoles", "r");

	if (!f) {
		ksft_test_result_fail("one ttyAMA console, enabled and preferred: /proc/consoles: %s\n",
				      strerror(errno));
		ksft_test_result_skip("no boot console left: no /proc/consoles\n");
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
			amba_ok += strchr(flags, 'E') && strchr(flags, 'C');
		}
	}
	fclose(f);
	ksft_test_result(amba == 1 && amba_ok == 1,
			 "one ttyAMA console, enabled and preferred (%d found)\n", amba);
	ksft_test_result(boot == 0, "no boot console left (%d found)\n", boot);
}

static void check_userspace_write(void)
{
	int fd = open("/dev/ttyAMA0", O_WRONLY | O_NOCTTY);
	ssize_t len = -1;

	if (fd >= 0) {
		len = write(fd, MARKER, strlen(MARKER));
		tcdrain(fd);
		close(fd);
	}
	ksft_test_result(len == (ssize_t)strlen(MARKER),
			 "userspace writes to /dev/ttyAMA0 (%s)\n",
			 fd < 0 ? strerror(errno) : "marker written");
}

int main(void)
{
	struct scan s = { 0 };
	const char *at = cmdline_param("bst.console_at");
	int n;

	ksft_print_header();
	ksft_set_plan(6);

	check_proc_consoles();

	mkdir(SAVE_DIR, 0700);
	s.save = fopen(SAVE_DIR "/kmsg", "w");
	n = kmsg_for_each(scan_record, &s);
	if (s.save)
		fclose(s.save);
	ksft_test_result(n > 0 && s.save, "kernel log saved for the host (%d records)\n", n);
	ksft_test_result(s.enabled == 1, "console enabled once in the kernel log (%d times)\n",
			 s.enabled);

	if (!at)
		ksft_test_result_skip("registered when expected: the boot sets no bst.console_at\n");
	else if (!s.enabled || !s.driver_seq)
		ksft_test_result_fail("registered when expected: no %s record\n",
				      s.enabled ? "PL011 driver" : "console enabled");
	else if (!strcmp(at, "init"))
		ksft_test_result(s.enabled_seq < s.driver_seq,
				 "registered at console_init, before the driver (seq %llu < %llu)\n",
				 s.enabled_seq, s.driver_seq);
	else
		ksft_test_result(s.enabled_seq > s.driver_seq,
				 "registered at probe, after the driver (seq %llu > %llu)\n",
				 s.enabled_seq, s.driver_seq);

	check_userspace_write();
	ksft_finished();
}
