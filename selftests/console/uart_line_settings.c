// SPDX-License-Identifier: GPL-2.0
/*
 * The PL011's line settings once /init runs, read back from its registers
 * through /dev/mem: the kernel has opened /dev/console by then, which
 * programs the console's line settings. They must be what the unpatched
 * driver leaves: the console options, or else the firmware's settings
 * (38400 8n1 when the firmware did not enable the UART), never the tty
 * default of 9600. QEMU ignores the divisors, so only the registers show
 * it.
 *
 * The boot gives the expected rate with bst.uart_expect=BAUD; the divisors
 * are the driver's for it at the rate of the UART's clock, which
 * bst.uart_clk=NAME names (clk debugfs). That clock must also be prepared
 * and enabled: the console holds it.
 *
 * After boot those counts say nothing of the early window: the probe holds
 * the clock by then whether or not the console did, and QEMU never gates a
 * clock. A boot that traces the clk framework and the log from trace_init()
 * on, before console_init() (trace_event=clk:clk_prepare,clk:clk_enable,
 * clk:clk_unprepare,clk:clk_disable,printk:console) gets one more test: the
 * clock was prepared and enabled, and still was, when the console's
 * "console [ttyAMA0] enabled" record was logged. The clk events fire only
 * when a count leaves or reaches 0, so the last of them before the record
 * give the clock's state then; printk:console gives the record's place
 * among them, without comparing two clocks.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/mount.h>

#include "kselftest.h"
#include "console.h"
#include "../lib/bst_trace.h"

#define UART011_IBRD		0x24
#define UART011_FBRD		0x28
#define UART011_LCRH		0x2c
#define UART011_CR		0x30
#define UART01x_LCRH_8N1_FIFO	0x70	/* WLEN_8 | FEN */
#define UART011_CR_TX_ON	0x101	/* UARTEN | TXE */

/* The start of the PL011's region in /proc/iomem, 0 if none. */
static unsigned long long pl011_base(void)
{
	unsigned long long start = 0, end;
	char line[256];
	FILE *f = fopen("/proc/iomem", "r");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (strstr(line, ".pl011") &&
		    sscanf(line, " %llx-%llx", &start, &end) == 2)
			break;
	fclose(f);
	return start;
}

/* A number from clk debugfs: /sys/kernel/debug/clk/CLK/FILE, or -1. */
static long long clk_value(const char *clk, const char *file)
{
	char path[256];
	long long v = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/kernel/debug/clk/%s/%s", clk, file);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (fscanf(f, "%lld", &v) != 1)
		v = -1;
	fclose(f);
	return v;
}

#ifndef ULS_TRACE	/* a test of the parser on the host reads a file of its own */
#define ULS_TRACE	"/sys/kernel/tracing/trace"
#endif

/* Is the trace line @line the clk event @event of @clk? */
static bool clk_event(const char *line, const char *event, const char *clk)
{
	char want[128];
	const char *p;
	size_t n;

	n = snprintf(want, sizeof(want), ": %s: %s", event, clk);
	p = strstr(line, want);
	return p && p[n] == '\0';
}

/*
 * Was @clk prepared and enabled when the console's "enabled" record was
 * logged, by the trace of the clk events and the log? The ring must hold
 * every event written since boot (entries-in-buffer equal to
 * entries-written, no "[LOST N EVENTS]" line): a ring that lost the clk
 * events would read as a clock never turned on, or a record never logged.
 */
static bool clock_held_at_console(const char *clk)
{
	bool prepared = false, enabled = false, found = false, events = false;
	char *text, *line, *save;

	text = bst_read_trace(ULS_TRACE);
	if (!text)
		return false;
	for (line = strtok_r(text, "\n", &save); line && !found;
	     line = strtok_r(NULL, "\n", &save)) {
		if (line[0] == '#')
			continue;
		if (clk_event(line, "clk_prepare", clk))
			prepared = events = true;
		else if (clk_event(line, "clk_unprepare", clk))
			prepared = false, events = true;
		else if (clk_event(line, "clk_enable", clk))
			enabled = events = true;
		else if (clk_event(line, "clk_disable", clk))
			enabled = false, events = true;
		else if (strstr(line, ": console: printk: console [ttyAMA") &&
			 strstr(line, "] enabled"))
			found = true;
	}
	free(text);
	if (!found)
		ksft_print_msg("%s: no \"console [ttyAMA...] enabled\" record (printk:console)\n",
			       ULS_TRACE);
	else
		ksft_print_msg("at the console's registration clock %s was %sprepared, %senabled%s\n",
			       clk, prepared ? "" : "not ", enabled ? "" : "not ",
			       events ? "" : " (no event of it before the record)");
	return found && prepared && enabled;
}

int main(void)
{
	const char *events = console_cmdline_param("trace_event");
	bool traced = events && strstr(events, "clk:clk_prepare") &&
		      strstr(events, "clk:clk_enable") && strstr(events, "clk:clk_unprepare") &&
		      strstr(events, "clk:clk_disable") && strstr(events, "printk:console");
	const char *expect = console_cmdline_param("bst.uart_expect");
	unsigned long baud = expect ? strtoul(expect, NULL, 10) : 0;
	const char *clk = console_cmdline_param("bst.uart_clk");
	unsigned long long base = pl011_base();
	long long rate, prepared, enabled;
	unsigned int quot, ibrd, fbrd, lcrh, cr;
	volatile uint32_t *regs;
	int fd;

	ksft_print_header();
	ksft_set_plan(traced ? 6 : 5);
	if (!baud)
		ksft_exit_fail_msg("no bst.uart_expect=BAUD on the command line\n");
	if (!clk)
		clk = "clk24mhz";	/* QEMU virt's apb-pclk */
	if (!base)
		ksft_exit_fail_msg("no PL011 region in /proc/iomem\n");
	rate = clk_value(clk, "clk_rate");
	prepared = clk_value(clk, "clk_prepare_count");
	enabled = clk_value(clk, "clk_enable_count");
	if (rate <= 0)
		ksft_exit_fail_msg("no rate for clock %s in /sys/kernel/debug/clk\n", clk);

	fd = open("/dev/mem", O_RDONLY | O_SYNC);
	if (fd < 0)
		ksft_exit_fail_msg("/dev/mem: %s (CONFIG_DEVMEM)\n", strerror(errno));
	regs = mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, base);
	if (regs == MAP_FAILED)
		ksft_exit_fail_msg("mmap /dev/mem at %#llx: %s\n", base, strerror(errno));
	ibrd = regs[UART011_IBRD / 4];
	fbrd = regs[UART011_FBRD / 4];
	lcrh = regs[UART011_LCRH / 4];
	cr = regs[UART011_CR / 4];
	munmap((void *)regs, 4096);
	close(fd);

	/* As pl011_set_termios() computes them, without oversampling. */
	quot = (rate * 4 + baud / 2) / baud;
	ksft_print_msg("PL011 at %#llx, clock %s %lld Hz: IBRD %u FBRD %u LCR_H %#x CR %#x\n",
		       base, clk, rate, ibrd, fbrd, lcrh, cr);
	ksft_test_result(ibrd == quot >> 6 && fbrd == (quot & 63),
			 "divisors for %lu baud (IBRD %u FBRD %u; got %u %u)\n",
			 baud, quot >> 6, quot & 63, ibrd, fbrd);
	ksft_test_result((lcrh & 0xff) == UART01x_LCRH_8N1_FIFO,
			 "8n1 with FIFOs (LCR_H %#x, got %#x)\n", UART01x_LCRH_8N1_FIFO, lcrh);
	ksft_test_result((cr & UART011_CR_TX_ON) == UART011_CR_TX_ON,
			 "UART enabled to send (CR %#x)\n", cr);
	ksft_test_result(prepared > 0, "clock %s prepared (count %lld)\n", clk, prepared);
	ksft_test_result(enabled > 0, "clock %s enabled (count %lld)\n", clk, enabled);
	if (traced)
		ksft_test_result(clock_held_at_console(clk),
				 "clock %s prepared and enabled when the console registered (trace)\n",
				 clk);
	ksft_finished();
}
