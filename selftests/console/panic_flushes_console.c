// SPDX-License-Identifier: GPL-2.0
/*
 * A panic must still print everything: logs a burst of records through
 * /dev/kmsg (so that the printer thread has a backlog), each with its own
 * text ("bst-panic-burst: record 007 of 200"), writes the userspace marker to
 * /dev/ttyAMA0, hands the whole kernel log to the host on stdout as the
 * dumped file "kmsg" (and what the pass over /dev/kmsg saw as
 * "kmsg-summary"), and crashes the kernel with sysrq-c. It never returns.
 * The host (host-check) finds every burst record on the console once,
 * before the panic, every record of that log, the marker and the panic.
 *
 * Run it only in a boot with bst.expect=panic: the harness then expects the
 * panic instead of the program's end, and judges by host-check alone, so
 * whatever goes wrong here must show on the console or in the dump.
 */
#include <stdlib.h>
#include <termios.h>

#include "console.h"

/* host-check knows these two: keep them in step. */
#define BURST		200
#define BURST_FMT	"bst-panic-burst: record %03d of %d\n"
/* On a line of its own: the kernel may be printing at the same time. */
#define MARKER		"\nbst-console-marker: written by userspace\n"

static void print_record(const char *rec, void *arg __attribute__((unused)))
{
	printf("%s\n", rec);
}

/*
 * Write @buf to @path; for a tty (@drain), also wait until it has sent it:
 * init keeps /dev/console open, so this close is not the last one and
 * would not wait, and the panic could come while the tty still sends (a
 * tty's data is not the kernel log: the panic does not flush it).
 */
static void write_file(const char *path, const char *buf, int drain)
{
	int fd = open(path, O_WRONLY | O_NOCTTY);

	if (fd < 0 || write(fd, buf, strlen(buf)) != (ssize_t)strlen(buf) ||
	    (drain && tcdrain(fd)))
		printf("# panic_flushes_console: %s: %s\n", path, strerror(errno));
	if (fd >= 0)
		close(fd);
}

int main(void)
{
	struct kmsg_log log;
	char line[128];
	int i, fd = open("/dev/kmsg", O_WRONLY);

	if (fd < 0)
		printf("# panic_flushes_console: /dev/kmsg: %s\n", strerror(errno));
	for (i = 0; fd >= 0 && i < BURST; i++) {
		snprintf(line, sizeof(line), BURST_FMT, i + 1, BURST);
		if (write(fd, line, strlen(line)) != (ssize_t)strlen(line)) {
			/* The host misses the rest of the burst: it fails. */
			printf("# panic_flushes_console: record %d: %s\n", i + 1,
			       strerror(errno));
			break;
		}
	}
	if (fd >= 0)
		close(fd);

	write_file("/dev/ttyAMA0", MARKER, 1);
	printf("# bst-file-begin kmsg\n");
	kmsg_read_log(&log, print_record, NULL);
	printf("# bst-file-end kmsg\n");
	printf("# bst-file-begin kmsg-summary\n");
	kmsg_log_print(stdout, &log);
	printf("# bst-file-end kmsg-summary\n");
	fflush(stdout);
	/*
	 * The results channel's driver may still hold the tail of what was
	 * written: let it reach the host before the kernel stops.
	 */
	tcdrain(STDOUT_FILENO);

	write_file("/proc/sys/kernel/sysrq", "1\n", 0);
	write_file("/proc/sysrq-trigger", "c", 0);
	printf("# panic_flushes_console: still alive after sysrq-c\n");
	return 1;
}
