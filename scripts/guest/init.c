// SPDX-License-Identifier: GPL-2.0
/*
 * /init of the test initramfs. It mounts the pseudo filesystems, then acts on
 * the kernel command line:
 *
 *   bst.insmod=A.ko[,B.ko]	load modules (paths under /lib/modules)
 *   bst.run=T1[,T2]		run test programs /bst/tests/T1 ... in order ("-": none)
 *   bst.timeout=SECONDS	per-program limit (default 240)
 *   bst.dump=DIR		copy every regular file of DIR to the host
 *   bst.work=N			make bench-console: what a user waits for after
 *				/init (bench_work()), N million iterations a CPU
 *
 * Everything it and the programs print goes to the results channel, the
 * virtio console /dev/hvc0, so that the PL011 console carries only what the
 * kernel prints. The host splits the stream on the "# bst-" lines. Finally
 * it powers the machine off, which ends QEMU.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#define RESULTS_TTY	"/dev/hvc0"
#define TESTS_DIR	"/bst/tests"
#define MODULES_DIR	"/lib/modules"

static char cmdline[4096];

/*
 * The arch counter as EL0 reads it (Linux enables that): /init's start on
 * the same time base as the kernel's boot stamps, with or without the series.
 */
static unsigned long long counter(void)
{
	unsigned long long v;

	asm volatile("isb; mrs %0, cntvct_el0" : "=r" (v));
	return v;
}

static unsigned long long counter_freq(void)
{
	unsigned long long v;

	asm volatile("mrs %0, cntfrq_el0" : "=r" (v));
	return v;
}

static void kmsg(const char *msg)
{
	int fd = open("/dev/kmsg", O_WRONLY);

	if (fd >= 0) {
		dprintf(fd, "<5>bst-init: %s\n", msg);
		close(fd);
	}
}

static void mount_fs(const char *src, const char *dir, const char *type)
{
	mkdir(dir, 0755);
	if (mount(src, dir, type, 0, NULL) && errno != EBUSY)
		printf("# bst-warning: mount %s on %s: %s\n", type, dir, strerror(errno));
}

/* Value of "key=" on the command line, copied into buf; NULL if absent. */
static char *param(const char *key, char *buf, size_t len)
{
	size_t klen = strlen(key);
	char *p = cmdline;

	while ((p = strstr(p, key))) {
		if ((p == cmdline || p[-1] == ' ') && p[klen] == '=') {
			size_t n = strcspn(p + klen + 1, " \n");

			if (n >= len)
				n = len - 1;
			memcpy(buf, p + klen + 1, n);
			buf[n] = '\0';
			return buf;
		}
		p += klen;
	}
	return NULL;
}

static void read_cmdline(void)
{
	int fd = open("/proc/cmdline", O_RDONLY);
	ssize_t n = fd >= 0 ? read(fd, cmdline, sizeof(cmdline) - 1) : -1;

	cmdline[n > 0 ? n : 0] = '\0';
	if (fd >= 0)
		close(fd);
}

/*
 * Results go to the virtio console; without one, to the kernel console. The
 * port appears asynchronously (QEMU announces it on the control queue, the
 * driver adds it from a work item), so /init can win the race: wait for it.
 */
static void open_results(void)
{
	struct termios tio;
	int fd, tries;

	for (tries = 0; tries < 500; tries++) {		/* up to 5 s */
		fd = open(RESULTS_TTY, O_WRONLY | O_NOCTTY);
		if (fd >= 0 || (errno != ENOENT && errno != ENODEV && errno != ENXIO))
			break;
		usleep(10000);
	}
	if (fd < 0) {
		printf("# bst-warning: no %s (%s), results on the console\n",
		       RESULTS_TTY, strerror(errno));
		return;
	}
	/* Raw output: dumped files must reach the host byte for byte (no CR). */
	if (!tcgetattr(fd, &tio)) {
		cfmakeraw(&tio);
		tcsetattr(fd, TCSANOW, &tio);
	}
	fflush(stdout);
	dup2(fd, STDOUT_FILENO);
	dup2(fd, STDERR_FILENO);
	close(fd);
	setvbuf(stdout, NULL, _IOLBF, 0);
}

static void load_modules(char *list)
{
	char path[PATH_MAX], *name;

	for (name = strtok(list, ","); name; name = strtok(NULL, ",")) {
		int fd, ret;

		snprintf(path, sizeof(path), "%s/%s", MODULES_DIR, name);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		ret = fd < 0 ? -1 : syscall(SYS_finit_module, fd, "", 0);
		printf("# bst-insmod %s %s\n", name, ret ? strerror(errno) : "ok");
		if (fd >= 0)
			close(fd);
	}
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Ask the kernel for a sysrq report ("w": blocked tasks) on its console. */
static void sysrq(char c)
{
	int fd = open("/proc/sysrq-trigger", O_WRONLY);

	if (fd >= 0) {
		if (write(fd, &c, 1) < 0)
			perror("sysrq-trigger");
		close(fd);
	}
}

/* Run one program; report how it ended on the "# bst-end" line. */
static void run_test(const char *name, int timeout)
{
	char path[PATH_MAX];
	double t0 = now();
	int status = 0;
	pid_t pid;

	snprintf(path, sizeof(path), "%s/%s", TESTS_DIR, name);
	printf("# bst-begin %s\n", name);
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		char *argv[] = { path, NULL };

		setsid();
		if (chdir(TESTS_DIR))
			_exit(127);
		execv(path, argv);
		printf("# bst-error: exec %s: %s\n", path, strerror(errno));
		_exit(127);
	}
	while (pid > 0 && waitpid(pid, &status, WNOHANG) == 0) {
		if (now() - t0 > timeout) {
			/*
			 * The blocked tasks' stacks to the console, for the
			 * host's logs; a task stuck in the kernel may not die,
			 * so wait for it only a little.
			 */
			sysrq('w');
			kill(-pid, SIGKILL);
			for (t0 = now(); now() - t0 < 5; usleep(10000))
				if (waitpid(pid, &status, WNOHANG))
					break;
			printf("# bst-end %s timeout=%d\n", name, timeout);
			return;
		}
		usleep(10000);
	}
	if (pid < 0)
		printf("# bst-end %s fork-failed\n", name);
	else if (WIFEXITED(status))
		printf("# bst-end %s exit=%d seconds=%.3f\n", name,
		       WEXITSTATUS(status), now() - t0);
	else
		printf("# bst-end %s signal=%d\n", name, WTERMSIG(status));
}

static void run_tests(char *list, int timeout)
{
	char *name, *save;

	if (!strcmp(list, "-"))	/* a plan line without tests */
		return;
	for (name = strtok_r(list, ",", &save); name; name = strtok_r(NULL, ",", &save))
		run_test(name, timeout);
}

/*
 * make bench-console's end-to-end part (bst.work=N, before the tests): what a
 * user waits for after /init on a board with a slow serial console.
 *
 * It opens the serial port, as a getty on it would (/dev/console is the
 * VT when console=tty1 comes last), and writes a first line ending in the
 * byte 0x1f; the test-only slow-UART model (scripts/bench/lab/slow-uart.patch)
 * notes when that byte left the line. Then every CPU does N million
 * iterations of arithmetic, a fixed amount of work, while the first
 * process also writes ten 64-character lines to the port, as a login's
 * output would: "# bst-bench milestone" is when all of it is done. Last it
 * logs a record ending in 0x1d; the model notes when the console sent it,
 * which is when everything logged before it had reached the line (the
 * console idle). /init waits for that (60 s at most) and passes on the
 * model's numbers (bst_uart_stats).
 */
#define BENCH_TTY	"/dev/ttyAMA0"
#define BENCH_STATS	"/sys/module/amba_pl011/parameters/bst_uart_stats"
#define BENCH_SLICES	10

static unsigned long long work_sum;

static void bench_spin(unsigned long long iters)
{
	unsigned long long x = 1;

	while (iters--) {
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
		asm volatile("" : "+r" (x));
	}
	work_sum += x;
}

static int bench_stats(char *buf, size_t len)
{
	int fd = open(BENCH_STATS, O_RDONLY);
	ssize_t n = fd >= 0 ? read(fd, buf, len - 1) : -1;

	if (fd >= 0)
		close(fd);
	buf[n > 0 ? n : 0] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return n > 0 ? 0 : -1;
}

static void bench_work(unsigned long long millions)
{
	unsigned long long iters = millions * 1000000ULL, done;
	static const char first[] = "\r\nbst-init: the first line of userspace on the UART\x1f\r\n";
	static const char idle[] = "<0>bst-init: work done, console idle once this is sent\x1d\n";
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	char line[80], stats[1024];
	double t0;
	int tty, kfd, i;

	tty = open(BENCH_TTY, O_WRONLY | O_NOCTTY);
	if (tty < 0) {
		printf("# bst-error: bench: open %s: %s\n", BENCH_TTY, strerror(errno));
		return;
	}
	printf("# bst-bench first-line counter=%llu\n", counter());
	if (write(tty, first, sizeof(first) - 1) < 0)
		printf("# bst-error: bench: write %s: %s\n", BENCH_TTY, strerror(errno));
	for (i = 1; i < cpus; i++) {
		if (fork() == 0) {
			bench_spin(iters);
			_exit(0);
		}
	}
	for (i = 0; i < BENCH_SLICES; i++) {
		bench_spin(iters / BENCH_SLICES);
		snprintf(line, sizeof(line), "bst-init: work %2d of %d %-36s\r\n",
			 i + 1, BENCH_SLICES, "as a login writes its lines");
		if (write(tty, line, strlen(line)) < 0)
			break;
	}
	while (wait(NULL) > 0)
		;
	done = counter();
	printf("# bst-bench milestone counter=%llu cpus=%ld work=%llu\n", done, cpus, millions);
	/*
	 * write(), not dprintf(): glibc's dprintf() asks lseek(SEEK_CUR)
	 * first, which /dev/kmsg refuses with EINVAL, so nothing is logged.
	 */
	kfd = open("/dev/kmsg", O_WRONLY);
	if (kfd < 0 || write(kfd, idle, sizeof(idle) - 1) < 0)
		printf("# bst-error: bench: /dev/kmsg: %s\n", strerror(errno));
	if (kfd >= 0)
		close(kfd);
	for (t0 = now(); now() - t0 < 60; usleep(5000))
		if (bench_stats(stats, sizeof(stats)) || !strstr(stats, " mark1d=0"))
			break;
	if (bench_stats(stats, sizeof(stats)))
		printf("# bst-error: bench: no %s\n", BENCH_STATS);
	else
		printf("# bst-bench uart %s\n", stats);
	close(tty);
}

/* Copy each regular file of dir to the host, between marker lines. */
static void dump_dir(const char *dir)
{
	struct dirent *de;
	char path[PATH_MAX], buf[4096];
	DIR *d = opendir(dir);

	if (!d) {
		printf("# bst-error: dump %s: %s\n", dir, strerror(errno));
		return;
	}
	while ((de = readdir(d))) {
		struct stat st;
		ssize_t n;
		char last;
		int fd;

		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if (stat(path, &st) || !S_ISREG(st.st_mode) || !(st.st_mode & 0444))
			continue;
		fd = open(path, O_RDONLY);
		if (fd < 0)
			continue;
		printf("# bst-file-begin %s\n", de->d_name);
		fflush(stdout);
		last = '\n';
		while ((n = read(fd, buf, sizeof(buf))) > 0) {
			if (write(STDOUT_FILENO, buf, n) != n)
				break;
			last = buf[n - 1];
		}
		close(fd);
		/* The end marker must start a line; content lines stay verbatim. */
		printf("%s# bst-file-end %s\n", last == '\n' ? "" : "\n", de->d_name);
	}
	closedir(d);
}

int main(void)
{
	unsigned long long start = counter();
	char buf[1024];
	int timeout = 240;	/* run-boots.sh passes its own */

	mount_fs("proc", "/proc", "proc");
	mount_fs("sysfs", "/sys", "sysfs");
	mount_fs("devtmpfs", "/dev", "devtmpfs");
	mount_fs("debugfs", "/sys/kernel/debug", "debugfs");
	mount_fs("tmpfs", "/tmp", "tmpfs");
	kmsg("started");
	read_cmdline();
	open_results();
	printf("# bst-init started counter=%llu freq=%llu\n", start, counter_freq());

	if (param("bst.timeout", buf, sizeof(buf)))
		timeout = atoi(buf) > 0 ? atoi(buf) : timeout;
	if (param("bst.work", buf, sizeof(buf)))
		bench_work(strtoull(buf, NULL, 0));
	if (param("bst.insmod", buf, sizeof(buf)))
		load_modules(buf);
	if (param("bst.run", buf, sizeof(buf)))
		run_tests(buf, timeout);
	if (param("bst.dump", buf, sizeof(buf)))
		dump_dir(buf);

	printf("# bst-done\n");
	fflush(stdout);
	kmsg("powering off");
	sync();
	reboot(RB_POWER_OFF);
	return 1;
}
