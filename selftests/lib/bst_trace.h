/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared by the test directories that read the trace ring of a boot
 * (trace_event= on the command line): mount tracefs, read the trace whole,
 * and tell whether the ring still holds every event written since boot.
 * Include kselftest.h first.
 */
#ifndef BST_TRACE_H
#define BST_TRACE_H

#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <unistd.h>

#include "bst_file.h"

/*
 * /init mounts no tracefs: mount it when @path (a file of it) is not there.
 * A unit test on the host names a file of its own and mounts nothing.
 */
static inline void bst_tracefs(const char *path)
{
	if (access(path, F_OK))
		mount("nodev", "/sys/kernel/tracing", "tracefs", 0, NULL);
}

/*
 * Did the ring of @text (read from @path) keep every event since it was
 * last cleared? The trace file's header says how many events it holds and
 * how many were written (the difference: overwritten when the ring was
 * full), and a reader that skipped over lost events prints a
 * "CPU:N [LOST ... EVENTS]" line. Anything counted from a ring that lost
 * events could miss some: a lost CMD11 would read as "no CMD11 sent", a
 * lost clk_enable as a clock never turned on.
 */
static inline bool bst_trace_whole(const char *text, const char *path)
{
	const char *h = strstr(text, "# entries-in-buffer/entries-written: ");
	const char *lost;
	unsigned long held, written;

	if (!h || sscanf(h, "# entries-in-buffer/entries-written: %lu/%lu",
			 &held, &written) != 2) {
		ksft_print_msg("%s: no entries-in-buffer/entries-written header\n", path);
		return false;
	}
	if (held != written) {
		ksft_print_msg("%s: the ring lost %lu of %lu events (full)\n",
			       path, written - held, written);
		return false;
	}
	for (lost = strstr(text, "[LOST "); lost; lost = strstr(lost + 1, "[LOST ")) {
		size_t n = strcspn(lost, "\n");

		if (n >= 8 && !strncmp(lost + n - 8, " EVENTS]", 8)) {
			ksft_print_msg("%s: %.*s\n", path, (int)n, lost);
			return false;
		}
	}
	return true;
}

/*
 * The trace file @path, read whole and only if its ring kept every event
 * (bst_trace_whole()): a malloc'd, NUL-terminated copy, or NULL with the
 * reason printed.
 */
static inline char *bst_read_trace(const char *path)
{
	char *text;

	bst_tracefs(path);
	text = bst_read_all(path, NULL);
	if (!text) {
		ksft_print_msg("%s: %s\n", path, strerror(errno));
		return NULL;
	}
	if (!bst_trace_whole(text, path)) {
		free(text);
		return NULL;
	}
	return text;
}

#endif /* BST_TRACE_H */
