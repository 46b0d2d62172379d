// SPDX-License-Identifier: GPL-2.0
/*
 * A panic must still print everything: logs a burst of records through
 * /dev/kmsg (so that the printer thread has a backlog), hands the whole
 * kernel log to the host on stdout as the dumped file "kmsg", writes the
 * userspace marker to /dev/ttyAMA0, and crashes the kernel with sysrq-c.
 * It never returns. The host (host-check) finds every record of that log
 * and the panic on the console.
 *
 * Run it only in a boot with bst.expect=panic: the harness then expects the
 * panic instead of the program's end.
 */
#include <stdlib.h>
#include <termios.h>

#include "console.h"

#define BURST		200
/* On a line of its own: the kernel may be printing at the same time. */
#define MARKER		"\nbst-console-marker: written by userspace\n"

static void print_record(const char *rec, void *arg __attribute__((unused)))
{
	printf("%s\n", rec);
}

static void write_file(const char *path, const char *buf)
{
	int fd = open(path, O_WRONLY | O_NOCTTY);

	if (fd < 0 || write(fd, buf, strlen(buf)) != (ssize_t)strlen(buf))
		printf("# panic_flushes_console: %s: %s\n", path, strerror(errno));
	if (fd >= 0)
		close(fd);
}

int main(void)
{
	char line[128];
	int i, fd = open("/dev/kmsg", O_WRONLY);

	for (i = 0; fd >= 0 && i < BURST; i++) {
		snprintf(line, sizeof(line), "bst-panic-burst: record %d of %d\n", i + 1, BURST);
		if (write(fd, line, strlen(line)) < 0)
			break;
	}
	if (fd >= 0)
		close(fd);

	write_file("/dev/ttyAMA0", MARKER);
	printf("# bst-file-begin kmsg\n");
	kmsg_for_each(print_record, NULL);
	printf("# bst-file-end kmsg\n");
	fflush(stdout);

	write_file("/proc/sys/kernel/sysrq", "1\n");
	write_file("/proc/sysrq-trigger", "c");
	printf("# panic_flushes_console: still alive after sysrq-c\n");
	return 1;
}
