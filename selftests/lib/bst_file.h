/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared by the test directories: one write of a string to a sysfs,
 * debugfs or procfs file, as "echo s > path" does.
 */
#ifndef BST_FILE_H
#define BST_FILE_H

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

/* Write @s to @path in one write(); 0, or -errno (-EIO for a short write). */
static inline int bst_write_file(const char *path, const char *s)
{
	size_t len = strlen(s);
	int fd = open(path, O_WRONLY | O_CLOEXEC), err = 0;
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = write(fd, s, len);
	if (n < 0)
		err = -errno;
	else if ((size_t)n != len)
		err = -EIO;
	close(fd);
	return err;
}

#endif /* BST_FILE_H */
