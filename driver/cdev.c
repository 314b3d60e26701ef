// SPDX-License-Identifier: GPL-2.0
/*
 * /dev/armpmu: open, read, ioctl, release. Argument copying and decoding
 * live here; what each operation means is in session.c.
 */
#include <linux/bitops.h>
#include <linux/build_bug.h>
#include <linux/capability.h>
#include <linux/container_of.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/slab.h>
#include <linux/stddef.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include "armpmu.h"

static_assert(offsetof(struct armpmu_packed_counts, value) == ARMPMU_PACKED_HEADER_SIZE);

/*
 * An open file: its session, and what this file keeps for it. The session
 * comes first: armpmu_session_free() frees the allocation through it.
 */
struct armpmu_file {
	struct armpmu_session s;
	/* READ_PACKED's answer, built here: on the stack it would be zeroed. */
	struct armpmu_packed_counts packed;
};

static_assert(offsetof(struct armpmu_file, s) == 0);

static struct armpmu_file *to_file(struct armpmu_session *s)
{
	return container_of(s, struct armpmu_file, s);
}

static int armpmu_open(struct inode *inode, struct file *file)
{
	struct armpmu_file *f = kzalloc(sizeof(*f), GFP_KERNEL);

	if (!f)
		return -ENOMEM;
	armpmu_session_init(&f->s, file);
	file->private_data = &f->s;
	return stream_open(inode, file);
}

static int armpmu_release(struct inode *inode, struct file *file)
{
	struct armpmu_session *s = file->private_data;

	armpmu_session_release(s);
	armpmu_session_free(s);
	return 0;
}

/* Disturbed counts (EIO) are copied too, flagged, for the curious. */
static int copy_snapshot(struct armpmu_session *s, void __user *buf)
{
	int ret = armpmu_session_read(s);

	if ((!ret || ret == -EIO) && copy_to_user(buf, &s->snapshot, sizeof(s->snapshot)))
		ret = -EFAULT;
	return ret;
}

/*
 * READ_PACKED's answer is copied in one of two sizes, both known at build
 * time: for a copy of a variable size, copy_to_user() checks the bounds
 * of the kernel object (hardened usercopy), which costs more than the
 * bytes it would save. Most cores have at most 7 event counters.
 */
#define PACKED_SHORT	8

/* flags to value[@n - 1] at least, of @out to @to (both from flags on). */
static int copy_packed(void __user *to, const struct armpmu_packed_counts *out, u32 n)
{
	const size_t skip = offsetof(struct armpmu_packed_counts, flags);
	unsigned long left;

	if (n <= PACKED_SHORT)
		left = copy_to_user(to, &out->flags,
				    offsetof(struct armpmu_packed_counts, value[PACKED_SHORT]) - skip);
	else
		left = copy_to_user(to, &out->flags, sizeof(*out) - skip);
	return left ? -EFAULT : 0;
}

/*
 * The counts of @events (event counters) from the snapshot into @value, in
 * index order; how many. A run of more than 4 counters, as a library hands
 * them out, is one memcpy(), cheaper then than the loop.
 */
static u32 pack_events(u64 *value, const struct armpmu_counts *snap, u32 events)
{
	u32 lo, run, n = 0;

	if (!events)
		return 0;
	lo = __ffs(events);
	run = events >> lo;
	if (run > 0xf && !(run & (run + 1))) {
		n = fls(run);
		memcpy(value, &snap->events[lo], n * sizeof(*value));
		return n;
	}
	for (; events; events &= events - 1)
		value[n++] = snap->events[__ffs(events)];
	return n;
}

/*
 * READ, packed. The counters asked for are checked against the snapshot's
 * nr, which the read makes valid (choosing the mode if need be).
 */
static long ioctl_read_packed(struct armpmu_session *s,
			      struct armpmu_packed_counts __user *arg)
{
	struct armpmu_packed_counts *out = &to_file(s)->packed;
	const struct armpmu_counts *snap = &s->snapshot;
	/* counters and reserved, in one access */
	union {
		u64 both;
		u32 half[2];
	} in;
	u32 counters, n;
	int ret, err;

	if (get_user(in.both, (u64 __user *)&arg->counters))
		return -EFAULT;
	if (in.half[1])
		return -EINVAL;
	counters = in.half[0];
	ret = armpmu_session_read(s);
	if (ret && ret != -EIO)
		return ret;
	if ((counters & ~ARMPMU_CYCLE_BIT) >> snap->nr)
		return -EINVAL;
	n = pack_events(out->value, snap, counters & ~ARMPMU_CYCLE_BIT);
	if (counters & ARMPMU_CYCLE_BIT)
		out->value[n++] = snap->cycles;
	out->flags = snap->flags;
	out->nr = n;
	out->time_enabled = snap->time_enabled;
	out->time_running = snap->time_running;
	err = copy_packed(&arg->flags, out, n);
	return err ? err : ret;
}

static ssize_t armpmu_read(struct file *file, char __user *buf, size_t len,
			   loff_t *ppos)
{
	struct armpmu_session *s = file->private_data;
	int ret;

	if (len < sizeof(s->snapshot))
		return -EINVAL;
	mutex_lock(&s->lock);
	ret = copy_snapshot(s, buf);
	mutex_unlock(&s->lock);
	return ret ? ret : sizeof(s->snapshot);
}

static long ioctl_info(struct armpmu_session *s, void __user *arg)
{
	struct armpmu_info info;
	int ret = armpmu_session_info(s, &info);

	if (!ret && copy_to_user(arg, &info, sizeof(info)))
		ret = -EFAULT;
	return ret;
}

static long ioctl_set_event(struct armpmu_session *s, void __user *arg)
{
	struct armpmu_event ev;

	if (copy_from_user(&ev, arg, sizeof(ev)))
		return -EFAULT;
	return armpmu_session_set_event(s, &ev);
}

static long ioctl_set_value(struct armpmu_session *s, void __user *arg)
{
	struct armpmu_value val;

	if (copy_from_user(&val, arg, sizeof(val)))
		return -EFAULT;
	return armpmu_session_set_value(s, &val);
}

static long ioctl_attach(struct armpmu_session *s, void __user *arg)
{
	struct armpmu_attach at;

	if (copy_from_user(&at, arg, sizeof(at)))
		return -EFAULT;
	return armpmu_session_attach(s, &at);
}

static long ioctl_file_status(struct armpmu_session *s, void __user *arg)
{
	struct armpmu_file_status st;
	int ret;

	if (copy_from_user(&st, arg, sizeof(st)))
		return -EFAULT;
	if (memchr_inv(st.reserved, 0, sizeof(st.reserved)))
		return -EINVAL;
	ret = armpmu_session_file_status(s, &st);
	if (!ret && copy_to_user(arg, &st, sizeof(st)))
		ret = -EFAULT;
	return ret;
}

static long release_file(u32 id)
{
	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	return armpmu_session_release_file(id);
}

static long ioctl_cpu_status(struct armpmu_session *s, void __user *arg)
{
	struct armpmu_cpu_status st;
	int ret;

	if (copy_from_user(&st, arg, sizeof(st)))
		return -EFAULT;
	if (memchr_inv(st.reserved, 0, sizeof(st.reserved)))
		return -EINVAL;
	ret = armpmu_cpu_status(s, &st);
	if (!ret && copy_to_user(arg, &st, sizeof(st)))
		ret = -EFAULT;
	return ret;
}

/* Every user's counts: for those allowed to count the kernel, at open(). */
static long ioctl_regs(struct armpmu_session *s, void __user *arg)
{
	struct armpmu_regs regs;
	int ret;

	if (copy_from_user(&regs, arg, sizeof(regs)))
		return -EFAULT;
	if (!s->kernel_allowed)
		return -EPERM;
	ret = armpmu_read_regs(&regs);
	if (!ret && copy_to_user(arg, &regs, sizeof(regs)))
		ret = -EFAULT;
	return ret;
}

static long release_cpu(u32 cpu)
{
	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	return armpmu_cpu_revoke(cpu, NULL);
}

/* The ioctls whose argument is one __u32. */
static long ioctl_u32(struct armpmu_session *s, unsigned int cmd,
		      u32 __user *arg)
{
	u32 val;

	if (get_user(val, arg))
		return -EFAULT;
	switch (cmd) {
	case ARMPMU_IOC_BIND:
		return armpmu_session_bind(s, val);
	case ARMPMU_IOC_SELECT:
		return armpmu_session_select(s, val);
	case ARMPMU_IOC_RELEASE:
		return release_cpu(val);
	case ARMPMU_IOC_RELEASE_FILE:
		return release_file(val);
	case ARMPMU_IOC_SET_CYCLE_FILTER:
		return armpmu_session_set_cycle_filter(s, val);
	default:
		return armpmu_session_set_divider(s, val);
	}
}

static long dispatch(struct armpmu_session *s, unsigned int cmd,
		     void __user *arg)
{
	switch (cmd) {
	case ARMPMU_IOC_READ:
		return copy_snapshot(s, arg);
	case ARMPMU_IOC_READ_PACKED:
		return ioctl_read_packed(s, arg);
	case ARMPMU_IOC_START:
		return armpmu_session_start(s);
	case ARMPMU_IOC_STOP:
		return armpmu_session_stop(s);
	case ARMPMU_IOC_RESET:
		return armpmu_session_reset(s);
	case ARMPMU_IOC_INFO:
		return ioctl_info(s, arg);
	case ARMPMU_IOC_SET_EVENT:
		return ioctl_set_event(s, arg);
	case ARMPMU_IOC_CPU_STATUS:
		return ioctl_cpu_status(s, arg);
	case ARMPMU_IOC_SET_VALUE:
		return ioctl_set_value(s, arg);
	case ARMPMU_IOC_ATTACH:
		return ioctl_attach(s, arg);
	case ARMPMU_IOC_FILE_STATUS:
		return ioctl_file_status(s, arg);
	case ARMPMU_IOC_REGS:
		return ioctl_regs(s, arg);
	case ARMPMU_IOC_BIND:
	case ARMPMU_IOC_SELECT:
	case ARMPMU_IOC_SET_DIVIDER:
	case ARMPMU_IOC_RELEASE:
	case ARMPMU_IOC_RELEASE_FILE:
	case ARMPMU_IOC_SET_CYCLE_FILTER:
		return ioctl_u32(s, cmd, arg);
	default:
		return -ENOTTY;
	}
}

static long armpmu_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct armpmu_session *s = file->private_data;
	long ret;

	mutex_lock(&s->lock);
	ret = dispatch(s, cmd, (void __user *)arg);
	mutex_unlock(&s->lock);
	return ret;
}

static const struct file_operations armpmu_fops = {
	.owner = THIS_MODULE,
	.open = armpmu_open,
	.release = armpmu_release,
	.read = armpmu_read,
	.unlocked_ioctl = armpmu_ioctl,
	/* Every argument has the same layout for 32-bit callers. */
	.compat_ioctl = compat_ptr_ioctl,
};

static struct miscdevice armpmu_misc = {
	.minor = MISC_DYNAMIC_MINOR,
	.name = "armpmu",
	.fops = &armpmu_fops,
	.mode = 0600,
};

int armpmu_cdev_init(void)
{
	return misc_register(&armpmu_misc);
}

void armpmu_cdev_exit(void)
{
	misc_deregister(&armpmu_misc);
}
