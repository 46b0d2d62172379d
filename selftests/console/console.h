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

/* How much of the kernel log one pass over /dev/kmsg saw. */
struct kmsg_log {
	int records;
	unsigned long long first_seq;	/* of the oldest record read */
	unsigned long long last_seq;
	unsigned long long missing;	/* records skipped between those read */
	int overwritten;		/* reads that failed with EPIPE */
	int bad;			/* records without "prio,seq,usec,flags;" */
	int err;			/* errno of a read that ended the pass early */
};

/*
 * The sequence number of a record ("prio,seq,usec,flags;text"): its second
 * field. False if the record does not have one.
 */
static inline int kmsg_parse_seq(const char *rec, unsigned long long *seq)
{
	int end = 0;

	return sscanf(rec, "%*[0-9],%llu,%*[0-9],%*[^;];%n", seq, &end) == 1 && end > 0;
}

static inline unsigned long long kmsg_seq(const char *rec)
{
	unsigned long long seq = 0;

	kmsg_parse_seq(rec, &seq);
	return seq;
}

/* The text of a record: after the first ';'. */
static inline const char *kmsg_text(const char *rec)
{
	const char *semi = strchr(rec, ';');

	return semi ? semi + 1 : rec;
}

/*
 * Is the log whole: from the first record the kernel logged (seq 0), with no
 * record lost on the way? A ring that wrapped before the reader came shows as
 * a first sequence number above 0; one that wrapped while it read gives
 * EPIPE and a jump in the sequence numbers.
 */
static inline int kmsg_log_whole(const struct kmsg_log *log)
{
	return log->records > 0 && log->first_seq == 0 && !log->missing &&
	       !log->overwritten && !log->bad && !log->err;
}

/* One line for the test's output and for the host: what the pass saw. */
static inline void kmsg_log_print(FILE *f, const struct kmsg_log *log)
{
	fprintf(f, "records=%d first_seq=%llu last_seq=%llu missing=%llu overwritten=%d bad=%d error=%d\n",
		log->records, log->first_seq, log->last_seq, log->missing,
		log->overwritten, log->bad, log->err);
}

/*
 * Call @fn for every record of the kernel log, oldest first: the record as
 * /dev/kmsg gives it ("prio,seq,usec,flags;text"), without its dictionary
 * lines. Fills @log. Returns the number of records, or -errno: -EPIPE when
 * the log was not whole (kmsg_log_whole()), so that a ring that overwrote
 * records cannot make "every record" mean only the tail of the log.
 */
static inline int kmsg_read_log(struct kmsg_log *log,
				void (*fn)(const char *rec, void *arg), void *arg)
{
	static char buf[KMSG_RECORD_MAX];
	int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK);
	unsigned long long seq;
	ssize_t len;

	memset(log, 0, sizeof(*log));
	if (fd < 0)
		return -errno;
	for (;;) {
		len = read(fd, buf, sizeof(buf) - 1);
		if (len < 0 && errno == EPIPE) {
			/* The ring overwrote records not read yet: lost. */
			log->overwritten++;
			continue;
		}
		if (len < 0 && errno != EAGAIN)
			log->err = errno;	/* EINVAL: a record too long */
		if (len <= 0)
			break;			/* EAGAIN: the end of the log */
		buf[len] = '\0';
		buf[strcspn(buf, "\n")] = '\0';
		if (!kmsg_parse_seq(buf, &seq)) {
			log->bad++;
		} else {
			if (!log->records)
				log->first_seq = seq;
			else if (seq > log->last_seq + 1)
				log->missing += seq - log->last_seq - 1;
			else if (seq <= log->last_seq)
				log->bad++;	/* never: seq only grows */
			log->last_seq = seq;
		}
		fn(buf, arg);
		log->records++;
	}
	close(fd);
	if (log->err)
		return -log->err;
	return kmsg_log_whole(log) ? log->records : -EPIPE;
}

static inline int kmsg_for_each(void (*fn)(const char *rec, void *arg), void *arg)
{
	struct kmsg_log log;

	return kmsg_read_log(&log, fn, arg);
}

/*
 * The value of the first (or, with @last, the last) KEY=VALUE kernel
 * parameter, or NULL: a copy of its own (strdup()), which the tests keep
 * until they exit.
 */
static inline char *console_cmdline_value(const char *key, int last)
{
	char line[4096];
	char *p, *tok, *found = NULL;
	FILE *f = fopen("/proc/cmdline", "r");

	if (!f)
		return NULL;
	if (!fgets(line, sizeof(line), f))
		line[0] = '\0';
	fclose(f);
	for (tok = strtok_r(line, " \n", &p); tok; tok = strtok_r(NULL, " \n", &p)) {
		if (strncmp(tok, key, strlen(key)) || tok[strlen(key)] != '=')
			continue;
		found = tok + strlen(key) + 1;
		if (!last)
			break;
	}
	return found ? strdup(found) : NULL;
}

static inline char *console_cmdline_param(const char *key)
{
	return console_cmdline_value(key, 0);
}

#endif
