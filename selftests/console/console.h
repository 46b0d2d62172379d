/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared by the console tests: read the kernel log from /dev/kmsg, and save
 * it for the host, which compares it with what reached the PL011.
 */
#ifndef BST_CONSOLE_H
#define BST_CONSOLE_H

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define KMSG_RECORD_MAX	8192

/*
 * Call @fn for every record of the kernel log, oldest first: the record as
 * /dev/kmsg gives it ("prio,seq,usec,flags;text"), without its dictionary
 * lines. Returns the number of records, or -errno.
 */
static inline int kmsg_for_each(void (*fn)(const char *rec, void *arg), void *arg)
{
	static char buf[KMSG_RECORD_MAX];
	int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK);
	int n = 0;
	ssize_t len;

	if (fd < 0)
		return -errno;
	for (;;) {
		len = read(fd, buf, sizeof(buf) - 1);
		if (len < 0 && errno == EPIPE)
			continue;	/* overwritten while reading: go on */
		if (len <= 0)
			break;
		buf[len] = '\0';
		buf[strcspn(buf, "\n")] = '\0';
		fn(buf, arg);
		n++;
	}
	close(fd);
	return n;
}

/* The text of a record: after the first ';'. */
static inline const char *kmsg_text(const char *rec)
{
	const char *semi = strchr(rec, ';');

	return semi ? semi + 1 : rec;
}

/* The sequence number of a record: its second field. */
static inline unsigned long long kmsg_seq(const char *rec)
{
	unsigned long long seq = 0;

	sscanf(rec, "%*u,%llu,", &seq);
	return seq;
}

#endif
