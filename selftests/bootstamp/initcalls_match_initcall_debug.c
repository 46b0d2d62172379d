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
 *
 * Durations: initcall_debug reads ktime after its "calling" printk and
 * before its "returned" one, so "after N usecs" is the initcall without
 * those printks. The recorder stamps inside that window (its start probe
 * runs after initcall_debug's, its finish probe before), so no duration
 * may exceed N us by more than the rounding of N (1 us) and clock
 * conversion (0.1%). A recorder that stamped outside the window would
 * count a printk (several us each, more with a slow console) in every
 * initcall. Nor may a duration fall short of N us by more than
 * SHORT_NS + N / SHORT_DIV, for all but one in SHORT_SHARE of the
 * initcalls long enough to tell (MIN_NS and more): the recorder's window
 * is initcall_debug's less the hops from one probe to the next, so a
 * recorder that stamped the end at the start, or printed 0, fails on
 * every one of them. Only initcalls after clocksource_done_booting()
 * compare: until it (fs level) timekeeping runs on the jiffies
 * clocksource, and N counts whole ticks (0 or 4000 us at HZ=250).
 */
#include "bootstamp_test.h"

#define MAX_CALLS	4096
/*
 * Lower bound: initcall_debug's duration less the recorder's is its two
 * probe hops, plus whatever interrupts one of them, which lengthens
 * initcall_debug's window only (under single-threaded TCG that includes
 * the other vCPUs' turns, and the host taking QEMU's thread away). For
 * the initcalls of 100 us or more, on 2026-12-03 (loaded 2-core host):
 * bootstamp-full 0.6-6.9 us for 65 of 66 and 735 us for one;
 * bootstamp-debug (KASAN and lockdep in the probes' paths) 11-42 us for
 * 129 of 135, 55 us once, then 112 us of 3.4 s, 117 us of 1.2 ms, 118 us
 * of 16 ms, 10 ms of 10 ms and 427 ms of 5.2 s. SHORT_NS (60 us) + 2 %
 * leaves 1 of 66 and 3 of 135 outside (1 of 90 and 6 of 139 on a second
 * pair of boots), below one in SHORT_SHARE, while a recorder that reports
 * 0, or the start as the end, is short by the whole initcall on every one.
 */
#define MIN_NS		100000
#define SHORT_NS	60000
#define SHORT_DIV	50	/* 2 % */
#define SHORT_SHARE	5

struct call {
	char		sym[128];
	int		ret;
	long long	ns;	/* initcall_debug: usecs * 1000; log: duration_ns */
};

static struct call kmsg_calls[MAX_CALLS], log_calls[MAX_CALLS];

/* One "initcall" line of /dev/kmsg; false if it is not a built-in's. */
static bool parse_kmsg(const char *rec, struct call *c)
{
	const char *msg = strchr(rec, ';'), *plus, *ret, *after;

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
	after = strstr(ret, " after ");
	c->ns = after ? atoll(after + 7) * 1000 : -1;
	return true;
}

static int cmp_call(const void *a, const void *b)
{
	const struct call *x = a, *y = b;
	int d = strcmp(x->sym, y->sym);

	return d ? d : (x->ret > y->ret) - (x->ret < y->ret);
}

/* Before the sort: the lists pair up by position when the symbols match. */
static void check_durations(int nk, int nl, int sym_diff)
{
	long long over, worst = 0, excess = 0, under, worst_under = 0;
	int i, n = 0, bad = 0, w = -1, from = -1, nlong = 0, short_ = 0, ws = -1;

	for (i = 0; i < nk; i++)
		if (!strcmp(kmsg_calls[i].sym, "clocksource_done_booting"))
			from = i + 1;
	if (from < 0)
		ksft_print_msg("no clocksource_done_booting in the initcall_debug lines\n");
	for (i = from < 0 ? nk : from; i < nk && i < nl && sym_diff < 0; i++) {
		if (kmsg_calls[i].ns < 0 || log_calls[i].ns < 0)
			continue;
		n++;
		over = log_calls[i].ns - kmsg_calls[i].ns;
		if (kmsg_calls[i].ns >= MIN_NS) {
			nlong++;
			under = -over - SHORT_NS - kmsg_calls[i].ns / SHORT_DIV;
			if (under > 0) {
				short_++;
				if (under > worst_under) {
					worst_under = under;
					ws = i;
				}
			}
		}
		if (over > 0)
			excess += over;
		if (over <= 1000 + kmsg_calls[i].ns / 1000)
			continue;
		bad++;
		if (over > worst) {
			worst = over;
			w = i;
		}
	}
	ksft_print_msg("durations: %d compared, %d longer than initcall_debug's, %lld ns in excess in all\n",
		       n, bad, excess);
	if (w >= 0)
		ksft_print_msg("worst: %s %lld ns, initcall_debug %lld ns\n", log_calls[w].sym,
			       log_calls[w].ns, kmsg_calls[w].ns);
	ksft_test_result(sym_diff < 0 && from > 0 && n == nk - from && n > 0 && !bad,
			 "no duration longer than initcall_debug's (its printks not counted)\n");
	ksft_print_msg("durations of %d us and more: %d compared, %d shorter than initcall_debug's by more than %d us + 1/%d\n",
		       MIN_NS / 1000, nlong, short_, SHORT_NS / 1000, SHORT_DIV);
	if (ws >= 0)
		ksft_print_msg("shortest: %s %lld ns, initcall_debug %lld ns\n", log_calls[ws].sym,
			       log_calls[ws].ns, kmsg_calls[ws].ns);
	ksft_test_result(sym_diff < 0 && from > 0 && n == nk - from && nlong > 0 &&
			 short_ <= nlong / SHORT_SHARE,
			 "durations of %d us or more: none shorter than initcall_debug's by more than %d us + 1/%d, but 1 in %d\n",
			 MIN_NS / 1000, SHORT_NS / 1000, SHORT_DIV, SHORT_SHARE);
}

int main(void)
{
	int nk = 0, nl = 0, i, lost = 0, first_diff = -1, sym_diff = -1;
	int c_sym, c_mod, c_ret, c_dur;
	char rec[8192], *cmdline, *summary, *txt;
	struct bst_table t;
	long long dropped;
	ssize_t n;
	int fd;

	ksft_print_header();
	bst_need_module();
	summary = bst_read("summary");
	bst_need_full_mode(summary);
	cmdline = bst_slurp(BST_CMDLINE);
	if (!cmdline || !strstr(cmdline, "initcall_debug"))
		ksft_exit_skip("boot without initcall_debug: the kernel logged no initcall to compare with\n");
	ksft_set_plan(8);

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
	c_dur = bst_col(&t, "duration_ns");
	for (i = 0; i < t.nrows; i++) {
		if (strcmp(t.rows[i].f[c_mod], "vmlinux"))
			continue;
		if (nl == MAX_CALLS - 1)
			ksft_exit_fail_msg("more than %d vmlinux rows in initcalls: raise MAX_CALLS\n",
					   MAX_CALLS - 1);
		snprintf(log_calls[nl].sym, sizeof(log_calls[nl].sym), "%s", t.rows[i].f[c_sym]);
		log_calls[nl].ret = atoi(t.rows[i].f[c_ret]);
		log_calls[nl].ns = bst_num(&t.rows[i], c_dur);
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

	check_durations(nk, nl, sym_diff);

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
