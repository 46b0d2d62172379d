/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared by the test directories: one write of a string to a sysfs,
 * debugfs or procfs file, as "echo s > path" does; a whole file read; what
 * a test leaves for the host (bst.dump=) saved.
 */
#ifndef BST_FILE_H
#define BST_FILE_H

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
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

/*
 * All of @path (a sysfs, debugfs or tracefs file, whose size stat() does
 * not give): a malloc'd, NUL-terminated copy, its length in *@lenp if
 * @lenp is not NULL; NULL with errno set if it cannot be read.
 */
static inline char *bst_read_all(const char *path, size_t *lenp)
{
	size_t len = 0, size = 16384;
	char *buf = malloc(size), *bigger;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n = 0;

	if (fd < 0 || !buf)
		goto fail;
	while ((n = read(fd, buf + len, size - 1 - len)) > 0) {
		len += n;
		if (len == size - 1) {
			bigger = realloc(buf, size *= 2);
			if (!bigger)
				goto fail;
			buf = bigger;
		}
	}
	if (n < 0)
		goto fail;
	close(fd);
	buf[len] = '\0';
	if (lenp)
		*lenp = len;
	return buf;
fail:
	n = errno;
	free(buf);
	if (fd >= 0)
		close(fd);
	errno = n;
	return NULL;
}

/* @len bytes of @s into a new file @dir/@name (0444); 0, or -errno. */
static inline int bst_save(const char *dir, const char *name, const char *s, size_t len)
{
	char path[PATH_MAX];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0444);
	if (fd < 0)
		return -errno;
	if (write(fd, s, len) != (ssize_t)len) {
		close(fd);
		return -EIO;
	}
	return close(fd) ? -errno : 0;
}

/* Every file of @src (but dot files) into @dir: how many, or -errno. */
static inline int bst_save_dir(const char *src, const char *dir)
{
	DIR *d = opendir(src);
	struct dirent *de;
	int n = 0;

	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		char path[PATH_MAX], *text;
		size_t len;

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", src, de->d_name);
		text = bst_read_all(path, &len);
		if (!text)
			continue;
		if (!bst_save(dir, de->d_name, text, len))
			n++;
		free(text);
	}
	closedir(d);
	return n;
}

#endif /* BST_FILE_H */
