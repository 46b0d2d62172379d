// SPDX-License-Identifier: GPL-2.0
/*
 * bootstamp: userspace milestones written to the "mark" file.
 */
#include "internal.h"

#include <linux/ctype.h>
#include <linux/fs.h>
#include <linux/mutex.h>
#include <linux/uaccess.h>

struct bs_mark {
	u64	stamp;
	char	name[BS_MARK_LEN + 1];
};

static struct bs_mark bs_marks[BS_MAX_MARKS];
static unsigned int bs_marks_nr;	/* published with release */
static unsigned int bs_marks_lost;
static DEFINE_MUTEX(bs_marks_lock);	/* serialises writers */

static bool bs_mark_name_valid(const char *s, size_t len)
{
	size_t i;

	if (!len || len > BS_MARK_LEN)
		return false;
	for (i = 0; i < len; i++) {
		/* ASCII only: the kernel's isalnum() also takes Latin-1 letters. */
		if (!isascii(s[i]))
			return false;
		if (!isalnum(s[i]) && s[i] != '.' && s[i] != '_' && s[i] != '-')
			return false;
	}
	return true;
}

static ssize_t bs_mark_write(struct file *file, const char __user *ubuf,
			     size_t count, loff_t *ppos)
{
	char buf[BS_MARK_LEN + 2];
	u64 now = bs_read_counter();	/* as close to the write as we get */
	struct bs_mark *mk;
	size_t len = count;

	if (!count || count > sizeof(buf) - 1)
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	if (buf[len - 1] == '\n')
		len--;
	if (!bs_mark_name_valid(buf, len))
		return -EINVAL;
	buf[len] = '\0';

	mutex_lock(&bs_marks_lock);
	if (bs_marks_nr >= BS_MAX_MARKS) {
		WRITE_ONCE(bs_marks_lost, bs_marks_lost + 1);
		mutex_unlock(&bs_marks_lock);
		return -ENOSPC;
	}
	mk = &bs_marks[bs_marks_nr];
	mk->stamp = now;
	strscpy(mk->name, buf);
	/* Pairs with bs_nr_marks(): the slot is filled before it counts. */
	smp_store_release(&bs_marks_nr, bs_marks_nr + 1);
	mutex_unlock(&bs_marks_lock);
	return count;
}

const struct file_operations bs_mark_fops = {
	.owner	= THIS_MODULE,
	.open	= simple_open,
	.write	= bs_mark_write,
	.llseek	= noop_llseek,
};

/**
 * bs_nr_marks() - number of marks written so far
 *
 * Return: count; bs_mark() may be called for every index below it.
 */
unsigned int bs_nr_marks(void)
{
	/* Pairs with bs_mark_write(). */
	return smp_load_acquire(&bs_marks_nr);
}

/**
 * bs_marks_dropped() - writes refused because all slots were used
 *
 * Return: count of -ENOSPC writes.
 */
unsigned int bs_marks_dropped(void)
{
	return READ_ONCE(bs_marks_lost);
}

/**
 * bs_mark() - read one mark
 * @i: index, below bs_nr_marks()
 * @stamp: counter value when it was written
 * @name: its name, valid until the module is unloaded
 *
 * Return: false if @i is out of range.
 */
bool bs_mark(unsigned int i, u64 *stamp, const char **name)
{
	if (i >= bs_nr_marks())
		return false;
	*stamp = bs_marks[i].stamp;
	*name = bs_marks[i].name;
	return true;
}

/**
 * bs_marks_bytes() - memory used by marks
 *
 * Return: bytes of the slots filled.
 */
size_t bs_marks_bytes(void)
{
	return bs_nr_marks() * sizeof(bs_marks[0]);
}
