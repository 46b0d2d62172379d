/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared by the SD card tests: find the host and its card, read the mmc
 * debugfs files (ios, uhs_fallback), read the whole card and check it against
 * the image the host made (run-boots.sh: bst.sd=), and re-initialise the card
 * the way a resume does (system suspend with pm_test=devices).
 */
#ifndef BST_SD_H
#define BST_SD_H

#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "kselftest.h"
#include "../console/console.h"
#include "../lib/bst_file.h"
#include "../lib/bst_time.h"
#include "../lib/bst_trace.h"

#define SD_DEBUGFS	"/sys/kernel/debug"
#define SD_HOSTS	"/sys/class/mmc_host"

/* A kernel command line value ("bst.uhs_mode=SDR50"), or NULL; a copy. */
static inline const char *sd_param(const char *name)
{
	static char cmdline[4096];
	char key[64];
	char *p, *end;
	FILE *f;

	if (!cmdline[0]) {
		f = fopen("/proc/cmdline", "r");
		if (!f || !fgets(cmdline, sizeof(cmdline), f))
			ksft_exit_fail_msg("cannot read /proc/cmdline\n");
		fclose(f);
	}
	snprintf(key, sizeof(key), " %s=", name);
	p = strstr(cmdline, key);
	if (!p)
		return NULL;
	p += strlen(key);
	end = p + strcspn(p, " \n");
	return strndup(p, end - p);
}

/* A number; a value that is not one fails the test instead of reading as 0. */
static inline long sd_param_long(const char *name, long dflt)
{
	const char *v = sd_param(name);
	char *end;
	long n;

	if (!v)
		return dflt;
	n = strtol(v, &end, 0);
	if (!*v || *end)
		ksft_exit_fail_msg("%s=%s is not a number\n", name, v);
	return n;
}

/*
 * Read a whole file into buf; returns its length or -errno: -EFBIG if it
 * does not fit, so that a cut file is never parsed as the whole.
 */
static inline int sd_read_file(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY);
	size_t len = 0;
	ssize_t n = 0;
	char more;
	int err = 0;

	if (fd < 0)
		return -errno;
	while (len < size - 1 && (n = read(fd, buf + len, size - 1 - len)) > 0)
		len += n;
	if (n < 0)
		err = -errno;
	else if (len == size - 1 && read(fd, &more, 1) > 0)
		err = -EFBIG;
	close(fd);
	if (err)
		return err;
	buf[len] = '\0';
	return len;
}

/* The card: its host ("mmc0"), its device ("mmc0:0001"). */
struct sd_card {
	char host[256];
	char dev[256];
};

/*
 * Can /dev/mmcblk0 be opened? Its node appears before the disk is live
 * (open then fails with ENXIO), so the node alone is not enough.
 */
static inline bool sd_disk_ready(void)
{
	int fd = open("/dev/mmcblk0", O_RDONLY);

	if (fd < 0)
		return false;
	close(fd);
	return true;
}

/*
 * How long a wait for the card may take before the test gives up. The waits
 * are polls that return as soon as the card is there; only a lost card waits
 * this long. A fixed 5 s gave up too early under TCG (a bring-up through
 * failed tunings takes seconds there): a quarter of the program's own limit
 * (bst.timeout, /init's default 300 s), so that a lost card still fails the
 * test and not the whole program by timeout.
 */
static inline double sd_wait_limit(void)
{
	long limit = sd_param_long("bst.timeout", 300) / 4;

	return limit > 10 ? limit : 10;
}

/* Wait up to @timeout s for a host with an SD card; false if none came. */
static inline bool sd_wait_card(struct sd_card *c, double timeout)
{
	double end = bst_now() + timeout;
	char path[800], type[16];
	struct dirent *h, *d;
	DIR *hosts, *dir;

	do {
		hosts = opendir(SD_HOSTS);
		while (hosts && (h = readdir(hosts))) {
			if (h->d_name[0] == '.')
				continue;
			snprintf(path, sizeof(path), SD_HOSTS "/%s", h->d_name);
			dir = opendir(path);
			while (dir && (d = readdir(dir))) {
				if (strncmp(d->d_name, h->d_name, strlen(h->d_name)) ||
				    d->d_name[strlen(h->d_name)] != ':')
					continue;
				snprintf(path, sizeof(path), SD_HOSTS "/%s/%s/type",
					 h->d_name, d->d_name);
				if (sd_read_file(path, type, sizeof(type)) > 0 &&
				    !strncmp(type, "SD", 2) && sd_disk_ready()) {
					snprintf(c->host, sizeof(c->host), "%s", h->d_name);
					snprintf(c->dev, sizeof(c->dev), "%s", d->d_name);
					closedir(dir);
					closedir(hosts);
					return true;
				}
			}
			if (dir)
				closedir(dir);
		}
		if (hosts)
			closedir(hosts);
		usleep(20000);
	} while (bst_now() < end);
	return false;
}

/* A debugfs file of the host ("ios", "uhs_model", "mmc0:0001/uhs_fallback"). */
static inline int sd_host_file(const struct sd_card *c, const char *name,
			       char *buf, size_t size)
{
	char path[1024];

	snprintf(path, sizeof(path), SD_DEBUGFS "/%s/%s", c->host, name);
	return sd_read_file(path, buf, size);
}

static inline int sd_host_write(const struct sd_card *c, const char *name,
				const char *s)
{
	char path[1024];

	snprintf(path, sizeof(path), SD_DEBUGFS "/%s/%s", c->host, name);
	return bst_write_file(path, s);
}

/* A card attribute in sysfs ("cid", "serial"). */
static inline int sd_card_attr(const struct sd_card *c, const char *name,
			       char *buf, size_t size)
{
	char path[800];

	snprintf(path, sizeof(path), SD_HOSTS "/%s/%s/%s", c->host, c->dev, name);
	return sd_read_file(path, buf, size);
}

/* The value of the first "key:<blanks>value" line; "" if absent. */
static inline const char *sd_field(const char *text, const char *key)
{
	static char val[128];
	char k[64];
	const char *p;

	snprintf(k, sizeof(k), "%s:", key);
	val[0] = '\0';
	for (p = text; p; p = strchr(p, '\n')) {
		if (*p == '\n')
			p++;
		if (!strncmp(p, k, strlen(k))) {
			p += strlen(k);
			p += strspn(p, " \t");
			snprintf(val, sizeof(val), "%.*s", (int)strcspn(p, "\n"), p);
			break;
		}
	}
	return val;
}

/* A number field; false if absent or not a number (never read as 0). */
static inline bool sd_field_long(const char *text, const char *key, long *val)
{
	const char *v = sd_field(text, key);
	char *end;

	*val = strtol(v, &end, 0);
	return *v && !*end;
}

/* What the card's uhs_fallback debugfs file says, parsed. */
struct sd_uhs {
	char mode[16], ceiling[16];
	long failures;
	char path[256];		/* the modes of the "failure:" lines: "SDR104,DDR50" */
	char steps[256];	/* their steps: "tuning,verify" */
	char retried[64];	/* per failure, 'r': the mode was tried again */
	char text[2048];
};

/*
 * False if the file cannot be read or a field is missing: a field read as 0
 * would pass every "no new failure" check. @u is zeroed either way.
 */
static inline bool sd_uhs_read(const struct sd_card *c, struct sd_uhs *u)
{
	char name[300];
	size_t lp = 0, ls = 0, lr = 0;
	const char *p, *end;
	bool ok;

	memset(u, 0, sizeof(*u));
	snprintf(name, sizeof(name), "%s/uhs_fallback", c->dev);
	if (sd_host_file(c, name, u->text, sizeof(u->text)) <= 0)
		return false;
	snprintf(u->mode, sizeof(u->mode), "%s", sd_field(u->text, "mode"));
	snprintf(u->ceiling, sizeof(u->ceiling), "%s", sd_field(u->text, "ceiling"));
	for (p = u->text; (p = strstr(p, "failure: ")); ) {
		int n;

		p += strlen("failure: ");
		n = strcspn(p, " \n");
		lp += snprintf(u->path + lp, sizeof(u->path) - lp, "%s%.*s",
			       lp ? "," : "", n, p);
		p += n + (p[n] == ' ');
		n = strcspn(p, " \n");
		ls += snprintf(u->steps + ls, sizeof(u->steps) - ls, "%s%.*s",
			       ls ? "," : "", n, p);
		/* "failure: SDR50 verify -84 retried": p is at "verify". */
		end = p + strcspn(p, "\n");
		if (lr + 1 < sizeof(u->retried))
			u->retried[lr++] = end - p > 8 &&
					   !strncmp(end - 8, " retried", 8) ? 'r' : '-';
		if (lp >= sizeof(u->path) || ls >= sizeof(u->steps))
			break;
	}
	ok = u->mode[0] && u->ceiling[0] &&
	     sd_field_long(u->text, "failures", &u->failures);
	if (!ok)
		ksft_print_msg("uhs_fallback lacks a field:\n%s", u->text);
	return ok;
}

/* The test-only model's debugfs file (scripts/bench/lab/sd-uhs-model.patch). */
#define SD_MODEL	"uhs_model"

/* How often the model's fault @kind ("crc") fired, from its "fired:" line; -1 if unknown. */
static inline long sd_model_fired(const struct sd_card *c, const char *kind)
{
	char buf[1024], key[32];
	const char *p;

	if (sd_host_file(c, SD_MODEL, buf, sizeof(buf)) <= 0)
		return -1;
	snprintf(key, sizeof(key), " %s=", kind);
	p = strstr(buf, key);
	return p ? strtol(p + strlen(key), NULL, 10) : -1;
}

/*
 * The commands the host really issued, from the mmc_request_start trace
 * event (the boot enables it: trace_event=mmc:mmc_request_start), so that a
 * test does not judge the code by what the code says of itself.
 */
#ifndef SD_TRACE	/* tests/ reads a file of its own */
#define SD_TRACE	"/sys/kernel/tracing/trace"
#endif

struct sd_cmds {
	int cmd11;		/* CMD11 voltage switches sent */
	int s18r, no_s18r;	/* ACMD41 with and without the 1.8 V request */
	char switches[256];	/* CMD6 bus speed switches: "3,4,2" */
	int nr_switches;
};

/*
 * Count the commands of @c's host in the trace; false when the trace cannot
 * be read or lost events (bst_read_trace()), so that nothing is counted from
 * a part of it.
 */
static inline bool sd_trace_cmds(const struct sd_card *c, struct sd_cmds *t)
{
	size_t len = 0;
	char *text, *line, *save;
	char who[300];

	memset(t, 0, sizeof(*t));
	text = bst_read_trace(SD_TRACE);
	if (!text)
		return false;
	snprintf(who, sizeof(who), " %s: start ", c->host);
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		unsigned int op, arg, blocks;
		const char *p = strstr(line, who), *b;

		if (!p || !(p = strstr(p, "cmd_opcode=")) ||
		    sscanf(p, "cmd_opcode=%u cmd_arg=0x%x", &op, &arg) != 2)
			continue;
		b = strstr(p, " blocks=");
		blocks = b ? strtoul(b + 8, NULL, 10) : 0;
		if (op == 11)
			t->cmd11++;
		else if (op == 41 && arg)
			arg & (1u << 24) ? t->s18r++ : t->no_s18r++;
		else if (op == 6 && blocks && (arg & (1u << 31)) &&
			 (arg & 0xf) != 0xf) {
			len += snprintf(t->switches + len, sizeof(t->switches) - len,
					"%s%u", len ? "," : "", arg & 0xf);
			t->nr_switches++;
		}
	}
	free(text);
	return true;
}

/* Empty the trace buffer (an open with O_TRUNC), so that the next read shows what came after. */
static inline int sd_trace_clear(void)
{
	int fd;

	bst_tracefs(SD_TRACE);
	fd = open(SD_TRACE, O_WRONLY | O_TRUNC);

	if (fd < 0)
		return -errno;
	close(fd);
	return 0;
}

/* The CMD6 function (group 1) of a mode name: SDR25 and HS are both 1. */
static inline int sd_mode_function(const char *mode)
{
	static const char *const names[] = { "SDR12", "SDR25", "SDR50", "SDR104", "DDR50" };
	unsigned int i;

	if (!strcmp(mode, "HS"))
		return 1;
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(mode, names[i]))
			return i;
	return -1;
}

/* "SDR104,DDR50" to "3,4"; false for an unknown name. */
static inline bool sd_path_functions(const char *path, char *out, size_t size)
{
	char *copy = strdup(path ?: ""), *save, *m;
	size_t len = 0;
	bool ok = copy;

	out[0] = '\0';
	for (m = copy ? strtok_r(copy, ",", &save) : NULL; m; m = strtok_r(NULL, ",", &save)) {
		int fn = sd_mode_function(m);

		if (fn < 0)
			ok = false;
		else
			len += snprintf(out + len, size - len, "%s%d", len ? "," : "", fn);
	}
	free(copy);
	return ok;
}

/* The clock a mode runs at, as mmc/core sets it (Hz); 0 if unknown. */
static inline long sd_mode_clock(const char *mode)
{
	static const struct { const char *mode; long hz; } clocks[] = {
		{ "SDR104", 208000000 }, { "SDR50", 100000000 }, { "DDR50", 50000000 },
		{ "SDR25", 50000000 }, { "SDR12", 25000000 }, { "HS", 50000000 },
		{ "DS", 25000000 },
	};
	unsigned int i;

	for (i = 0; i < sizeof(clocks) / sizeof(clocks[0]); i++)
		if (!strcmp(mode, clocks[i].mode))
			return clocks[i].hz;
	return 0;
}

/*
 * The mode the host runs the card in, from ios: "SDR104" ... "SDR12" for a
 * UHS-I timing at 1.80 V, "HS" for high speed at 3.30 V, "?" otherwise.
 */
static inline const char *sd_ios_mode(const struct sd_card *c)
{
	static const char *const uhs[] = { "SDR12", "SDR25", "SDR50", "SDR104", "DDR50" };
	static char ios[1024];
	const char *timing, *volt;
	unsigned int i;

	if (sd_host_file(c, "ios", ios, sizeof(ios)) <= 0)
		return "?";
	timing = sd_field(ios, "timing spec");
	if (strstr(timing, "legacy"))
		return "DS";
	if (strstr(timing, "sd high-speed")) {
		volt = sd_field(ios, "signal voltage");
		return strstr(volt, "3.30 V") ? "HS" : "?";
	}
	for (i = 0; i < sizeof(uhs) / sizeof(uhs[0]); i++) {
		char want[32];

		snprintf(want, sizeof(want), "sd uhs %s)", uhs[i]);
		if (strstr(timing, want)) {
			volt = sd_field(ios, "signal voltage");
			return strstr(volt, "1.80 V") ? uhs[i] : "?";
		}
	}
	return "?";
}

/* CRC-32 (IEEE 802.3, as zlib computes it), to compare with the host's. */
static inline uint32_t sd_crc32(uint32_t crc, const unsigned char *p, size_t n)
{
	static uint32_t table[256];
	uint32_t c;
	int i, k;

	if (!table[1]) {
		for (i = 0; i < 256; i++) {
			c = i;
			for (k = 0; k < 8; k++)
				c = c & 1 ? 0xedb88320 ^ (c >> 1) : c >> 1;
			table[i] = c;
		}
	}
	crc = ~crc;
	while (n--)
		crc = table[(crc ^ *p++) & 0xff] ^ (crc >> 8);
	return ~crc;
}

/*
 * Read the whole card through /dev/mmcblk0, bypassing the page cache;
 * returns 0 and its CRC-32 and size, or -errno of the first failed read.
 */
static inline int sd_read_card(uint32_t *crc, long long *size)
{
	const size_t chunk = 256 * 1024;
	unsigned char *buf;
	ssize_t n;
	int fd, err = 0;

	if (posix_memalign((void **)&buf, 4096, chunk))
		return -ENOMEM;
	fd = open("/dev/mmcblk0", O_RDONLY | O_DIRECT);
	if (fd < 0) {
		free(buf);
		return -errno;
	}
	*crc = 0;
	*size = 0;
	while ((n = read(fd, buf, chunk)) > 0) {
		*crc = sd_crc32(*crc, buf, n);
		*size += n;
	}
	if (n < 0)
		err = -errno;
	close(fd);
	free(buf);
	return err;
}

/* Does the card read back as the image the host made (bst.sd_crc)? */
static inline bool sd_data_matches(const char *what)
{
	const char *crc_param = sd_param("bst.sd_crc");
	unsigned long want;
	long long size = 0;
	uint32_t crc = 0;
	int err;

	if (!crc_param) {
		ksft_print_msg("%s: no bst.sd_crc= to compare with\n", what);
		return false;
	}
	want = strtoul(crc_param, NULL, 16);
	err = sd_read_card(&crc, &size);
	if (err)
		ksft_print_msg("%s: read error %d (%s)\n", what, err, strerror(-err));
	else if (crc != want)
		ksft_print_msg("%s: %lld bytes, CRC-32 %08x, the image's is %08lx\n",
			       what, size, crc, want);
	return !err && crc == want;
}

/* Completed system suspends (/sys/power/suspend_stats/success), or -errno. */
static inline long sd_suspends(void)
{
	char buf[32];
	char *end;
	long n;
	int err = sd_read_file("/sys/power/suspend_stats/success", buf, sizeof(buf));

	if (err < 0)
		return err;
	n = strtol(buf, &end, 10);
	return end != buf && (*end == '\n' || !*end) ? n : -EINVAL;
}

/*
 * Re-initialise the card as a resume does: system suspend to idle with
 * pm_test=devices suspends and resumes every device, the card included,
 * without sleeping. The card's suspend powers it off, so it must be
 * initialised again before it answers a read (on first use: runtime
 * resume). Returns 0 or -errno; -EIO when the kernel did not count one
 * more completed suspend, i.e. the devices were not suspended.
 */
static inline int sd_suspend_resume(void)
{
	long before = sd_suspends(), after;
	int err, reset;

	/* Left at its default, each suspend would wait 5 s. */
	err = bst_write_file("/sys/module/suspend/parameters/pm_test_delay", "0");
	if (!err)
		err = bst_write_file("/sys/power/pm_test", "devices");
	if (!err)
		err = bst_write_file("/sys/power/state", "freeze");
	reset = bst_write_file("/sys/power/pm_test", "none");
	if (err || reset)
		return err ?: reset;
	after = sd_suspends();
	if (before < 0 || after != before + 1) {
		ksft_print_msg("suspend_stats/success went from %ld to %ld, not up by one\n",
			       before, after);
		return -EIO;
	}
	return 0;
}

struct sd_log_match {
	const char *a, *b;
	int n;
};

static inline void sd_log_match(const char *rec, void *arg)
{
	struct sd_log_match *m = arg;

	if (strstr(kmsg_text(rec), m->a) && strstr(kmsg_text(rec), m->b))
		m->n++;
}

/*
 * Records of the kernel log that contain both strings, or -errno: -EPIPE
 * when the log is not whole, where a count could miss what was overwritten.
 */
static inline int sd_log_count(const char *a, const char *b)
{
	struct sd_log_match m = { a, b, 0 };
	int err = kmsg_for_each(sd_log_match, &m);

	if (err < 0)
		ksft_print_msg("cannot count \"%s\"...\"%s\" in the kernel log: %s\n",
			       a, b, strerror(-err));
	return err < 0 ? err : m.n;
}

#endif
