// SPDX-License-Identifier: GPL-2.0
/*
 * Are the built-in initcalls in the boot log the ones that ran? With
 * initcall_debug on the command line the kernel logs
 *   "initcall <sym>+0x<off>/0x<size> returned <ret> after <n> usecs"
 * for each of them (module ones end in " [module]"); the "vmlinux" rows of
 * "initcalls" must list the same symbols, in the same order, with the same
 * return values, and the log must have dropped none. Needs full mode and a
 * boot with initcall_debug and a log buffer large enough to keep every line
 * (log_buf_len=1M): /dev/kmsg reports lost lines with EPIPE.
 */
#include "bootstamp_test.h"

#define MAX_CALLS	4096

struct call {
	char	sym[128];
	int	ret;
};

static struct call kmsg_calls[MAX_CALLS], log_calls[MAX_CALLS];

/* One "initcall" line of /dev/kmsg; false if it is not a built-in's. */
static bool parse_kmsg(const char *rec, struct call *c)
{
	const char *msg = strchr(rec, ';'), *plus, *ret;

	if (!msg || strncmp(msg + 1, "initcall ", 9))
		return false;
	msg += 10;
	plus = strchr(msg, '+');
	ret = strstr(msg, " returned ");
	if (!plus || !ret || plus > ret || (size_t)(plus - msg) >= sizeof(c->sym))
		return false;
	/* "sym+0x0/0x10 [mod] returned": a module's init function. */
	if (memchr(plus, '[', ret - plus))
		return false;
	snprintf(c->sym, sizeof(c->sym), "%.*s", (int)(plus - msg), msg);
	c->ret = atoi(ret + 10);
	return true;
}

static int cmp_call(const void *a, const void *b)
{
	const struct call *x = a, *y = b;
	int d = strcmp(x->sym, y->sym);

	return d ? d : (x->ret > y->ret) - (x->ret < y->ret);
}

int main(void)
{
	int nk = 0, nl = 0, i, lost = 0, first_diff = -1, sym_diff = -1;
	int c_sym, c_mod, c_ret;
	char rec[8192], *cmdline, *summary, *txt;
	struct bst_table t;
	long long dropped;
	ssize_t n;
	int fd;

	ksft_print_header();
	bst_need_module();
	summary = bst_read("summary");
	bst_need_full_mode(summary);
	cmdline = bst_slurp("/proc/cmdline");
	if (!cmdline || !strstr(cmdline, "initcall_debug"))
		ksft_exit_skip("boot without initcall_debug: the kernel logged no initcall to compare with\n");
	ksft_set_plan(6);

	fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		ksft_exit_fail_msg("open /dev/kmsg: %s\n", strerror(errno));
	for (;;) {
		n = read(fd, rec, sizeof(rec) - 1);
		if (n < 0 && errno == EPIPE) {
			lost++;
			continue;
		}
		/* EAGAIN: the end; any other error would cut the list short. */
		if (n < 0 && errno != EAGAIN)
			ksft_exit_fail_msg("read /dev/kmsg after %d initcalls: %s\n", nk,
					   strerror(errno));
		if (n <= 0)
			break;
		rec[n] = '\0';
		if (parse_kmsg(rec, &kmsg_calls[nk]) && ++nk == MAX_CALLS)
			ksft_exit_fail_msg("more than %d initcalls in the kernel log: raise MAX_CALLS\n",
					   MAX_CALLS - 1);
	}
	close(fd);
	ksft_print_msg("/dev/kmsg: %d built-in initcalls, %d gaps\n", nk, lost);
	ksft_test_result(!lost && nk > 0, "kernel log kept every initcall_debug line\n");

	txt = bst_read("initcalls");
	bst_parse(txt, &t);
	free(txt);
	c_sym = bst_col(&t, "symbol");
	c_mod = bst_col(&t, "module");
	c_ret = bst_col(&t, "ret");
	for (i = 0; i < t.nrows; i++) {
		if (strcmp(t.rows[i].f[c_mod], "vmlinux"))
			continue;
		if (nl == MAX_CALLS - 1)
			ksft_exit_fail_msg("more than %d vmlinux rows in initcalls: raise MAX_CALLS\n",
					   MAX_CALLS - 1);
		snprintf(log_calls[nl].sym, sizeof(log_calls[nl].sym), "%s", t.rows[i].f[c_sym]);
		log_calls[nl].ret = atoi(t.rows[i].f[c_ret]);
		nl++;
	}
	bst_table_free(&t);

	dropped = bst_key_num(summary, "log_dropped");
	ksft_print_msg("initcalls: %d vmlinux rows, log_dropped: %lld\n", nl, dropped);
	ksft_test_result(dropped == 0, "log_dropped is 0\n");
	ksft_test_result(nk == nl, "same number of built-in initcalls\n");

	for (i = 0; i < nk && i < nl; i++) {
		if (sym_diff < 0 && strcmp(kmsg_calls[i].sym, log_calls[i].sym))
			sym_diff = i;
		if (first_diff < 0 && (strcmp(kmsg_calls[i].sym, log_calls[i].sym) ||
				       kmsg_calls[i].ret != log_calls[i].ret))
			first_diff = i;
	}
	if (first_diff >= 0)
		ksft_print_msg("first difference at #%d: initcall_debug %s returned %d, bootstamp %s returned %d\n",
			       first_diff, kmsg_calls[first_diff].sym, kmsg_calls[first_diff].ret,
			       log_calls[first_diff].sym, log_calls[first_diff].ret);
	ksft_test_result(nk == nl && sym_diff < 0, "same symbols in the same order\n");
	ksft_test_result(nk == nl && first_diff < 0, "same return values\n");

	/* Order aside: the same (symbol, return value) pairs. */
	qsort(kmsg_calls, nk, sizeof(kmsg_calls[0]), cmp_call);
	qsort(log_calls, nl, sizeof(log_calls[0]), cmp_call);
	for (i = 0; i < nk && i < nl; i++)
		if (cmp_call(&kmsg_calls[i], &log_calls[i]))
			break;
	if (i < nk || i < nl)
		ksft_print_msg("sorted sets differ at %s / %s\n", i < nk ? kmsg_calls[i].sym : "(end)",
			       i < nl ? log_calls[i].sym : "(end)");
	ksft_test_result(nk == nl && i == nk, "same set of (symbol, return value) pairs\n");
	free(cmdline);
	free(summary);
	ksft_finished();
}
