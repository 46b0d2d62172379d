/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A device of the QEMU virt guest that a test may unbind from its driver
 * and bind again through sysfs: the PL031 RTC if the kernel has its
 * driver, else the PL061 GPIO controller. Neither is the console, and only
 * one with no bound consumer is taken (device links would unbind those
 * too; QEMU's gpio-keys node consumes the PL061, but has no driver here).
 */
#ifndef BST_REBIND_H
#define BST_REBIND_H

#include "bootstamp_test.h"

#include <dirent.h>

struct bst_rebind {
	const char	*bus;
	const char	*drv;
	char		dev[256];
};

static inline bool bst_has_bound_consumer(const char *bus, const char *dev)
{
	char path[512];
	struct dirent *e;
	bool found = false;
	DIR *d;

	snprintf(path, sizeof(path), "/sys/bus/%s/devices/%s", bus, dev);
	d = opendir(path);
	if (!d)
		return true;	/* cannot tell: do not touch it */
	while ((e = readdir(d))) {
		char drv[1024];

		if (strncmp(e->d_name, "consumer:", 9))
			continue;
		/* The device link's consumer: unbound (no driver) is harmless. */
		snprintf(drv, sizeof(drv), "%s/%s/consumer/driver", path, e->d_name);
		if (!access(drv, F_OK))
			found = true;
	}
	closedir(d);
	return found;
}

/* Fill @r with a bound device of a driver above; false if none. */
static inline bool bst_rebind_find(struct bst_rebind *r)
{
	static const char *const cands[][2] = {
		{ "amba", "rtc-pl031" },
		{ "amba", "pl061_gpio" },
	};
	char path[256];
	struct dirent *e;
	size_t i;
	DIR *d;

	for (i = 0; i < BST_ARRAY_SIZE(cands); i++) {
		snprintf(path, sizeof(path), "/sys/bus/%s/drivers/%s", cands[i][0], cands[i][1]);
		d = opendir(path);
		if (!d)
			continue;
		while ((e = readdir(d))) {
			char dpath[512];

			if (e->d_type != DT_LNK || !strcmp(e->d_name, "module"))
				continue;
			snprintf(dpath, sizeof(dpath), "/sys/bus/%s/devices/%s", cands[i][0],
				 e->d_name);
			if (access(dpath, F_OK))
				continue;
			if (bst_has_bound_consumer(cands[i][0], e->d_name)) {
				ksft_print_msg("%s has a bound consumer: not rebinding it\n",
					       e->d_name);
				continue;
			}
			r->bus = cands[i][0];
			r->drv = cands[i][1];
			snprintf(r->dev, sizeof(r->dev), "%s", e->d_name);
			closedir(d);
			return true;
		}
		closedir(d);
	}
	return false;
}

/* Write the device's name to the driver's @attr ("bind", "unbind"); 0 or -errno. */
static inline int bst_rebind_write(const struct bst_rebind *r, const char *attr)
{
	char path[512];

	snprintf(path, sizeof(path), "/sys/bus/%s/drivers/%s/%s", r->bus, r->drv, attr);
	return bst_write_file(path, r->dev);
}

#endif
