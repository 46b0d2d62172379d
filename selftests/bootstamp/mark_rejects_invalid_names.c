// SPDX-License-Identifier: GPL-2.0
/*
 * Does the "mark" file accept exactly the documented names? core.c: "1 to
 * 32 characters from [A-Za-z0-9._-], one trailing newline allowed, else
 * -EINVAL". Every rejected write must leave the marks untouched; every
 * accepted one must show up as the next "mark:<name>" row of the summary,
 * stamped between the counter values read just before and after the write.
 * The host check finds the same names in trace.json (VALID_NAMES in
 * host-check must list the names below).
 */
#include "bootstamp_test.h"

struct mark_case {
	const char	*what;
	const char	*buf;
	size_t		len;
	const char	*name;		/* as the summary must show it */
};

#define S(s)	.buf = s, .len = sizeof(s) - 1

static const struct mark_case bad[] = {
	{ .what = "empty write",			S("") },
	{ .what = "only a newline",			S("\n") },
	{ .what = "33 characters",			S("abcdefghijklmnopqrstuvwxyz0123456") },
	{ .what = "33 characters and a newline",	S("abcdefghijklmnopqrstuvwxyz0123456\n") },
	{ .what = "a space",				S("has space") },
	{ .what = "a tab",				S("has\ttab") },
	{ .what = "a control character",		S("ctrl\x01") },
	{ .what = "DEL",				S("del\x7f") },
	{ .what = "an embedded NUL",		.buf = "nul\0byte", .len = 8 },
	{ .what = "two trailing newlines",		S("twolines\n\n") },
	{ .what = "a newline inside",			S("two\nlines") },
	{ .what = "a colon",				S("mark:colon") },
	{ .what = "a slash",				S("a/b") },
	{ .what = "a double quote",			S("json\"quote") },
	{ .what = "a backslash",			S("back\\slash") },
	{ .what = "non-ASCII UTF-8 (e-acute)",		S("caf\xc3\xa9") },
	{ .what = "non-ASCII Latin-1 byte 0xe9",	S("caf\xe9") },
	{ .what = "non-ASCII Latin-1 byte 0xc0",	S("\xc0") },
};

static const struct mark_case good[] = {
	{ .what = "one character",			S("a"), .name = "a" },
	{ .what = "32 characters",			S("abcdefghijklmnopqrstuvwxyz012345"),
						.name = "abcdefghijklmnopqrstuvwxyz012345" },
	{ .what = "32 characters and a newline",	S("ABCDEFGHIJKLMNOPQRSTUVWXYZ.-_789\n"),
						.name = "ABCDEFGHIJKLMNOPQRSTUVWXYZ.-_789" },
	{ .what = "a trailing newline",			S("rootfs-mounted\n"), .name = "rootfs-mounted" },
	{ .what = "every allowed class",		S("Sel.test_mark-09"), .name = "Sel.test_mark-09" },
};

/* Printable form of a test buffer for messages. */
static const char *shown(const char *buf, size_t len)
{
	static char out[160];
	size_t i, o = 0;

	for (i = 0; i < len && o < sizeof(out) - 5; i++) {
		unsigned char c = buf[i];

		if (c >= 0x20 && c < 0x7f && c != '\\')
			out[o++] = c;
		else
			o += snprintf(out + o, sizeof(out) - o, "\\x%02x", c);
	}
	out[o] = '\0';
	return out;
}

/* One write(2) on a fresh descriptor: the byte count or -errno. */
static long write_mark(const char *buf, size_t len)
{
	int fd = open(BST_DIR "/mark", O_WRONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		ksft_exit_fail_msg("open mark: %s\n", strerror(errno));
	n = write(fd, buf, len);
	if (n < 0)
		n = -errno;
	close(fd);
	return n;
}

/* The mark rows of the summary, in order. */
static int mark_rows(struct bst_table *t, const char *summary)
{
	bst_parse(summary, t);
	return bst_key_num(summary, "marks");
}

int main(void)
{
	long long before, dropped, after, dropped_after, room;
	struct bst_table t;
	bool checkable;
	char *summary;
	size_t i;
	int first;

	ksft_print_header();
	bst_need_module();
	ksft_set_plan(BST_ARRAY_SIZE(bad) + 1 + BST_ARRAY_SIZE(good) + 1);

	summary = bst_read("summary");
	before = bst_key_num(summary, "marks");
	dropped = bst_key_num(summary, "marks_dropped");
	room = bst_key_num(summary, "marks_max") - before;
	if (before < 0 || dropped < 0 || room < 0)
		ksft_exit_fail_msg("summary lacks marks, marks_max or marks_dropped\n");
	/*
	 * In the harness the module was loaded for this boot and no test before
	 * this one writes marks: every slot is free, and a short table is a bug.
	 */
	if (room < (long long)BST_ARRAY_SIZE(good) && bst_in_harness())
		ksft_exit_fail_msg("only %lld free mark slots (%lld marks already) for %zu names\n",
				   room, before, BST_ARRAY_SIZE(good));
	free(summary);

	for (i = 0; i < BST_ARRAY_SIZE(bad); i++) {
		long ret = write_mark(bad[i].buf, bad[i].len);

		if (ret != -EINVAL)
			ksft_print_msg("write of \"%s\" (%zu bytes): %s\n",
				       shown(bad[i].buf, bad[i].len), bad[i].len,
				       ret < 0 ? strerror(-ret) : "accepted");
		ksft_test_result(ret == -EINVAL, "mark rejects %s with EINVAL\n", bad[i].what);
	}

	summary = bst_read("summary");
	after = bst_key_num(summary, "marks");
	dropped_after = bst_key_num(summary, "marks_dropped");
	if (after != before || dropped_after != dropped)
		ksft_print_msg("marks %lld -> %lld, marks_dropped %lld -> %lld\n",
			       before, after, dropped, dropped_after);
	ksft_test_result(after == before && dropped_after == dropped,
			 "rejected names add no mark\n");
	checkable = bst_user_counter(summary);
	room -= after - before;
	before = after;
	free(summary);

	for (i = 0; i < BST_ARRAY_SIZE(good); i++) {
		uint64_t t0, t1, stamp;
		char want[48], *summ;
		struct bst_row *r;
		long ret;
		int n;

		if ((long long)i >= room) {
			snprintf(want, sizeof(want), "mark accepts %s", good[i].what);
			bst_skip(want, "no free mark slot left (marks_max reached by earlier tests)");
			continue;
		}
		t0 = bst_cntvct();
		ret = write_mark(good[i].buf, good[i].len);
		t1 = bst_cntvct();
		if (ret != (long)good[i].len) {
			ksft_test_result_fail("mark accepts %s (\"%s\"): write returned %s\n",
					      good[i].what, shown(good[i].buf, good[i].len),
					      ret < 0 ? strerror(-ret) : "a short count");
			continue;
		}
		summ = bst_read("summary");
		n = mark_rows(&t, summ);
		free(summ);
		snprintf(want, sizeof(want), "mark:%s", good[i].name);
		r = t.nrows ? &t.rows[t.nrows - 1] : NULL;
		if (n != before + 1 || !r || strcmp(r->f[0], want)) {
			ksft_test_result_fail("mark accepts %s: summary has %d marks, last row %s (want %lld, %s)\n",
					      good[i].what, n, r ? r->f[0] : "none",
					      before + 1, want);
		} else if (!checkable || r->n < 2 ||
			   (stamp = strtoull(r->f[1], NULL, 10)) < t0 || stamp > t1) {
			ksft_test_result_fail("mark accepts %s: stamp %s not within the write [%llu, %llu]%s\n",
					      good[i].what, r->n < 2 ? "(none)" : r->f[1],
					      (unsigned long long)t0, (unsigned long long)t1,
					      checkable ? "" : " (counter not readable)");
		} else {
			ksft_test_result_pass("mark accepts %s: row %s stamped during the write\n",
					      good[i].what, want);
		}
		bst_table_free(&t);
		before = n;
	}

	/* The accepted marks, in the order written, end the summary. */
	summary = bst_read("summary");
	bst_parse(summary, &t);
	first = t.nrows - (int)BST_ARRAY_SIZE(good);
	for (i = 0; first >= 0 && i < BST_ARRAY_SIZE(good); i++) {
		char want[48];

		snprintf(want, sizeof(want), "mark:%s", good[i].name);
		if (strcmp(t.rows[first + i].f[0], want))
			break;
	}
	if ((long long)BST_ARRAY_SIZE(good) > room)
		bst_skip("summary lists the accepted marks in write order",
			 "not all of them could be written");
	else
		ksft_test_result(first >= 0 && i == BST_ARRAY_SIZE(good),
				 "summary lists the accepted marks in write order\n");
	bst_table_free(&t);
	free(summary);
	ksft_finished();
}
