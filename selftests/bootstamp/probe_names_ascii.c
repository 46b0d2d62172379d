// SPDX-License-Identifier: GPL-2.0
/*
 * Does a probe whose device and driver names are not ASCII come out in
 * printable ASCII? The test-only module bst_odd_name
 * (selftests/bootstamp/modules) registers a platform device and driver
 * named "bst-caf\xe9" (a Latin-1 byte, which the kernel's isgraph()
 * accepts and which is not valid UTF-8 alone) and the device probes at
 * load. The probes file must have exactly one row for it, naming device
 * and driver "bst-caf?", and trace.json must be ASCII throughout: a byte
 * above 0x7f there makes the JSON invalid UTF-8 (review C2). Needs the
 * module's probes (kretprobes): a skip that says so otherwise.
 */
#include "bootstamp_test.h"

#define ODD_KO		"/lib/modules/bst_odd_name.ko"
#define ODD_PREFIX	"bst-caf"
#define WANT		"bst-caf?"

static bool printable_ascii(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x21 || (unsigned char)*s > 0x7e)
			return false;
	return true;
}

int main(void)
{
	int fd, rows = 0, c_dev, c_drv, i;
	const char *state;
	char *summary, *text, *json;
	struct bst_table t;
	size_t len, bad = 0, first_bad = 0;
	bool names_ok = true;

	ksft_print_header();
	ksft_set_plan(3);
	bst_need_module();
	summary = bst_read("summary");
	if (!summary)
		ksft_exit_fail_msg("read summary: %s\n", strerror(errno));
	state = bst_key(summary, "probes");
	if (!state || strcmp(state, "on")) {
		ksft_print_msg("probes: %s\n", state ? state : "(missing)");
		ksft_exit_skip("the module records no probes on this kernel (no kretprobes)\n");
	}

	fd = open(ODD_KO, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || syscall(SYS_finit_module, fd, "", 0))
		ksft_exit_fail_msg("load %s: %s\n", ODD_KO, strerror(errno));
	close(fd);
	ksft_test_result_pass("loaded %s: its device probed at load\n", ODD_KO);

	text = bst_read("probes");
	if (!text)
		ksft_exit_fail_msg("read probes: %s\n", strerror(errno));
	bst_parse(text, &t);
	c_dev = bst_col(&t, "device");
	c_drv = bst_col(&t, "driver");
	for (i = 0; i < t.nrows; i++) {
		const struct bst_row *r = &t.rows[i];

		if (r->n <= c_drv || strncmp(r->f[c_drv], ODD_PREFIX, strlen(ODD_PREFIX)))
			continue;
		rows++;
		if (strcmp(r->f[c_dev], WANT) || strcmp(r->f[c_drv], WANT) ||
		    !printable_ascii(r->f[c_dev]) || !printable_ascii(r->f[c_drv])) {
			names_ok = false;
			ksft_print_msg("row: device %s driver %s\n", r->f[c_dev], r->f[c_drv]);
		}
	}
	ksft_test_result(rows == 1 && names_ok,
			 "probes: %d row(s) for the device, named \"%s\" in printable ASCII\n",
			 rows, WANT);
	bst_table_free(&t);
	free(text);

	json = bst_read_all(BST_DIR "/trace.json", &len);
	if (!json)
		ksft_exit_fail_msg("read trace.json: %s\n", strerror(errno));
	for (i = 0; (size_t)i < len; i++)
		if ((unsigned char)json[i] > 0x7e ||
		    ((unsigned char)json[i] < 0x20 && json[i] != '\n')) {
			if (!bad++)
				first_bad = i;
		}
	ksft_test_result(!bad, "trace.json is printable ASCII (%zu bytes; %zu not, first at %zu)\n",
			 len, bad, first_bad);
	free(json);
	free(summary);
	ksft_finished();
}
