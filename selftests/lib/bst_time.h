/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared by the test directories: the monotonic clock in seconds, for the
 * deadlines of loops that wait for the kernel.
 */
#ifndef BST_TIME_H
#define BST_TIME_H

#include <time.h>

static inline double bst_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

#endif /* BST_TIME_H */
