// SPDX-License-Identifier: GPL-2.0
/*
 * Are the bootstamp files root only (core.c: 0400, mark 0200)? As root:
 * owner and mode of each file. As nobody (setgid/setuid 65534, which drops
 * every capability): opening each file fails with EACCES or EPERM, and a
 * write to "mark" adds no mark. The debugfs mount point is 0700, which alone
 * would stop nobody at the directory; it is made traversable (0755) for the
 * duration of the test so that the files' own modes are what is tested, and
 * the child checks that it can see the files: a file nobody cannot even see
 * fails, since its own mode would then go untested.
 */
#include "bootstamp_test.h"

#include <grp.h>
#include <sys/wait.h>

#define NOBODY		65534
#define DEBUGFS		"/sys/kernel/debug"

struct bst_file {
	const char	*name;
	mode_t		mode;
	int		flags;		/* how nobody tries to open it */
};

static const struct bst_file files[] = {
	{ "summary",	0400,	O_RDONLY },
	{ "initcalls",	0400,	O_RDONLY },
	{ "cpus",	0400,	O_RDONLY },
	{ "trace.json",	0400,	O_RDONLY },
	{ "bootgraph",	0400,	O_RDONLY },
	{ "probes",	0400,	O_RDONLY },
	{ "mark",	0200,	O_WRONLY },	/* last: see main() */
};

#define NFILES	BST_ARRAY_SIZE(files)

/* What the unprivileged child saw, per file. */
struct verdict {
	int	stat_err;	/* errno of stat(), 0 if visible */
	int	open_err;	/* errno of open(), 0 if it opened */
	int	rdwr_err;	/* errno of open(O_RDWR), 0 if it opened */
	int	write_err;	/* mark: errno of the write, 0 if it went through */
};

/* Child: become nobody, try every file, report through the pipe. */
static void try_as_nobody(int out)
{
	struct verdict v[NFILES];
	char path[128];
	size_t i;

	memset(v, 0, sizeof(v));
	if (setgroups(0, NULL) || setgid(NOBODY) || setuid(NOBODY))
		_exit(2);
	if (geteuid() != NOBODY || getegid() != NOBODY)
		_exit(3);
	for (i = 0; i < NFILES; i++) {
		struct stat st;
		int fd;

		snprintf(path, sizeof(path), "%s/%s", BST_DIR, files[i].name);
		v[i].stat_err = stat(path, &st) ? errno : 0;
		fd = open(path, files[i].flags | O_CLOEXEC);
		v[i].open_err = fd < 0 ? errno : 0;
		if (fd >= 0) {
			if (files[i].flags == O_WRONLY)
				v[i].write_err = write(fd, "nobody", 6) < 0 ? errno : 0;
			close(fd);
		} else {
			v[i].write_err = v[i].open_err;
		}
		fd = open(path, O_RDWR | O_CLOEXEC);
		v[i].rdwr_err = fd < 0 ? errno : 0;
		if (fd >= 0)
			close(fd);
	}
	if (write(out, v, sizeof(v)) != sizeof(v))
		_exit(4);
	_exit(0);
}

static bool denied(int err)
{
	return err == EACCES || err == EPERM;
}

int main(void)
{
	struct verdict v[NFILES];
	long long marks_before, marks_after;
	struct stat root_st;
	bool chmodded = false;
	char *summary;
	int pfd[2], status;
	size_t i;
	pid_t pid;

	ksft_print_header();
	bst_need_module();
	ksft_set_plan(3 * NFILES + 2);

	for (i = 0; i < NFILES; i++) {
		char path[128];
		struct stat st;

		snprintf(path, sizeof(path), "%s/%s", BST_DIR, files[i].name);
		if (stat(path, &st)) {
			ksft_test_result_fail("%s is root:root %04o: stat: %s\n", files[i].name,
					      files[i].mode, strerror(errno));
			continue;
		}
		ksft_test_result(S_ISREG(st.st_mode) && (st.st_mode & 07777) == files[i].mode &&
				 st.st_uid == 0 && st.st_gid == 0,
				 "%s is root:root %04o (is %u:%u %04o)\n", files[i].name,
				 files[i].mode, st.st_uid, st.st_gid, st.st_mode & 07777);
	}

	summary = bst_read("summary");
	marks_before = bst_key_num(summary, "marks");
	free(summary);
	if (marks_before < 0)
		ksft_exit_fail_msg("summary has no \"# marks:\" line\n");

	/* Let nobody reach the files, so that their own modes are tested. */
	if (stat(DEBUGFS, &root_st))
		ksft_exit_fail_msg("stat %s: %s\n", DEBUGFS, strerror(errno));
	if ((root_st.st_mode & 0005) != 0005) {
		if (chmod(DEBUGFS, 0755))
			ksft_print_msg("chmod %s: %s: nobody is stopped at the mount point\n",
				       DEBUGFS, strerror(errno));
		else
			chmodded = true;
	}

	if (pipe(pfd))
		ksft_exit_fail_msg("pipe: %s\n", strerror(errno));
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		ksft_exit_fail_msg("fork: %s\n", strerror(errno));
	if (!pid) {
		close(pfd[0]);
		try_as_nobody(pfd[1]);
	}
	close(pfd[1]);
	memset(v, 0, sizeof(v));
	if (read(pfd[0], v, sizeof(v)) != sizeof(v))
		memset(v, 0xff, sizeof(v));
	close(pfd[0]);
	waitpid(pid, &status, 0);
	if (chmodded && chmod(DEBUGFS, root_st.st_mode & 07777))
		ksft_print_msg("restoring %s to %04o: %s\n", DEBUGFS,
			       root_st.st_mode & 07777, strerror(errno));
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		ksft_exit_fail_msg("child could not become uid/gid %d (status %#x)\n",
				   NOBODY, status);

	for (i = 0; i < NFILES; i++) {
		const char *how = files[i].flags == O_WRONLY ? "write" : "read";
		char name[96];

		snprintf(name, sizeof(name), "nobody cannot open %s for %s", files[i].name, how);
		if (v[i].stat_err)
			ksft_test_result_fail("%s: not even visible to nobody (stat: %s), so its mode is untested\n",
					      name, strerror(v[i].stat_err));
		else
			ksft_test_result(denied(v[i].open_err), "%s (%s)\n", name,
					 v[i].open_err ? strerror(v[i].open_err) : "opened");
		snprintf(name, sizeof(name), "nobody cannot open %s read-write", files[i].name);
		if (v[i].stat_err)
			ksft_test_result_fail("%s: not even visible to nobody (stat: %s)\n",
					      name, strerror(v[i].stat_err));
		else
			ksft_test_result(denied(v[i].rdwr_err), "%s (%s)\n", name,
					 v[i].rdwr_err ? strerror(v[i].rdwr_err) : "opened");
	}

	i = NFILES - 1;		/* mark */
	ksft_test_result(v[i].write_err != 0, "nobody cannot write a mark (%s)\n",
			 v[i].write_err ? strerror(v[i].write_err) : "written");
	summary = bst_read("summary");
	marks_after = bst_key_num(summary, "marks");
	free(summary);
	ksft_test_result(marks_after == marks_before,
			 "nobody's attempts add no mark (marks %lld -> %lld)\n",
			 marks_before, marks_after);
	ksft_finished();
}
