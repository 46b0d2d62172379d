// SPDX-License-Identifier: GPL-2.0
/*
 * Does "mark" hold exactly the documented number of marks (core.c: "-ENOSPC
 * after 64 marks"), count the writes it refused, and keep the marks it has?
 * Fills the remaining slots with valid names, then writes twice more.
 */
#include "bootstamp_test.h"

#define MARKS_MAX	64	/* documented in module/core.c */

static long write_mark(const char *name)
{
	int fd = open(BST_DIR "/mark", O_WRONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		ksft_exit_fail_msg("open mark: %s\n", strerror(errno));
	n = write(fd, name, strlen(name));
	if (n < 0)
		n = -errno;
	close(fd);
	return n;
}

static int count_mark_rows(const char *summary)
{
	struct bst_table t;
	int i, n = 0;

	bst_parse(summary, &t);
	for (i = 0; i < t.nrows; i++)
		n += !strncmp(t.rows[i].f[0], "mark:", 5);
	bst_table_free(&t);
	return n;
}

int main(void)
{
	long long marks, dropped, max, failed_at = -1;
	long ret1, ret2;
	char name[32], *summary;
	int i;

	ksft_print_header();
	bst_need_module();
	ksft_set_plan(6);

	summary = bst_read("summary");
	marks = bst_key_num(summary, "marks");
	dropped = bst_key_num(summary, "marks_dropped");
	max = bst_key_num(summary, "marks_max");
	free(summary);
	if (marks < 0 || dropped < 0)
		ksft_exit_fail_msg("summary lacks marks or marks_dropped\n");

	ksft_test_result(max == MARKS_MAX, "summary says marks_max: %lld (documented %d)\n",
			 max, MARKS_MAX);

	for (i = marks; i < MARKS_MAX; i++) {
		long ret;

		snprintf(name, sizeof(name), "fill-%02d", i);
		ret = write_mark(name);
		if (ret != (long)strlen(name)) {
			failed_at = i;
			ksft_print_msg("mark %d (%s): %s\n", i, name,
				       ret < 0 ? strerror(-ret) : "short write");
			break;
		}
	}
	/* With the table already full nothing was written: nothing to claim. */
	if (marks >= MARKS_MAX && !bst_in_harness())
		bst_skip("the first marks are accepted", "the table was full before the test (%lld marks)",
			 marks);
	else
		ksft_test_result(failed_at < 0 && marks < MARKS_MAX,
				 "the first %d marks are accepted (%lld were there already)\n",
				 MARKS_MAX, marks);

	ret1 = write_mark("one-too-many");
	ksft_test_result(ret1 == -ENOSPC, "mark %d is refused with ENOSPC (%s)\n",
			 MARKS_MAX + 1, ret1 < 0 ? strerror(-ret1) : "accepted");
	ret2 = write_mark("two-too-many");
	ksft_test_result(ret2 == -ENOSPC, "a full mark table keeps refusing with ENOSPC (%s)\n",
			 ret2 < 0 ? strerror(-ret2) : "accepted");

	summary = bst_read("summary");
	ksft_test_result(bst_key_num(summary, "marks") == MARKS_MAX &&
			 count_mark_rows(summary) == MARKS_MAX,
			 "summary keeps %d marks and %d mark rows (marks: %lld, rows: %d)\n",
			 MARKS_MAX, MARKS_MAX, bst_key_num(summary, "marks"),
			 count_mark_rows(summary));
	ksft_test_result(bst_key_num(summary, "marks_dropped") == dropped + 2,
			 "marks_dropped counts the 2 refused writes (%lld -> %lld)\n",
			 dropped, bst_key_num(summary, "marks_dropped"));
	free(summary);
	ksft_finished();
}
