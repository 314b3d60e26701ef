// SPDX-License-Identifier: GPL-2.0
/*
 * /dev/armpmu: open, read, ioctl, release. Only the copying of arguments
 * in and out lives here; what each operation means, and who may do it, is
 * decided in session.c (and admin.c for the administrator's view).
 */
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/poll.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include "armpmu.h"

static int armpmu_open(struct inode *inode, struct file *file)
{
	struct armpmu_session *s = kzalloc(sizeof(*s), GFP_KERNEL);

	if (!s)
		return -ENOMEM;
	armpmu_session_init(s, file);
	file->private_data = s;
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

/* Slots 0 to 31 (READ_SLOTS asks for at most ARMPMU_MAX_COUNTERS). */
#define SLOT_COUNTS(C)							\
	C(0) C(1) C(2) C(3) C(4) C(5) C(6) C(7) C(8) C(9) C(10) C(11)	\
	C(12) C(13) C(14) C(15) C(16) C(17) C(18) C(19) C(20) C(21)	\
	C(22) C(23) C(24) C(25) C(26) C(27) C(28) C(29) C(30) C(31)

#define COPY_SLOTS(k)							\
	case k:								\
		return copy_to_user(arg, rd, offsetof(struct armpmu_read_buf, slot[k]));

/*
 * The header and @nr slots, which follow it in @rd as in the caller's
 * memory: one copy, of a size that is a constant in each case, so that
 * the hardened usercopy check is done at build time (checked at run
 * time, a variable size costs more than the copy itself at these sizes).
 * Non-zero if some of it was not copied.
 */
static unsigned long copy_slots(struct armpmu_read __user *arg,
				const struct armpmu_read_buf *rd, u32 nr)
{
	BUILD_BUG_ON(ARMPMU_MAX_COUNTERS > 31 ||
		     offsetof(struct armpmu_read_buf, slot) != sizeof(struct armpmu_read));
	switch (nr) {
	SLOT_COUNTS(COPY_SLOTS)
	}
	return 1;
}

/*
 * The header and the slots asked for, no more; disturbed ones too (EIO).
 * Of the header only nr and reserved are input: two loads, not a copy.
 */
static long ioctl_read_slots(struct armpmu_session *s, struct armpmu_read __user *arg)
{
	u32 nr;
	u64 reserved;
	int ret;

	BUILD_BUG_ON(offsetof(struct armpmu_read, reserved) % sizeof(u64) ||
		     sizeof(arg->reserved) != sizeof(reserved));
	if (get_user(nr, &arg->nr) || get_user(reserved, (u64 __user *)arg->reserved))
		return -EFAULT;
	ret = armpmu_session_read_slots(s, nr, reserved);
	if ((!ret || ret == -EIO) && copy_slots(arg, &s->rd, nr))
		ret = -EFAULT;
	return ret;
}

/* Threads taken from the file at a time, into a buffer of the call's own. */
#define THREADS_CHUNK	8

static int copy_threads(struct armpmu_threads __user *arg, const struct armpmu_thread_buf *buf,
			u32 done, u32 n, u32 slots)
{
	size_t size = ARMPMU_THREAD_SIZE(slots);
	char __user *to = (char __user *)(arg + 1) + (size_t)done * size;
	u32 i;

	for (i = 0; i < n; i++, to += size)
		if (copy_to_user(to, &buf[i], size))
			return -EFAULT;
	return 0;
}

/*
 * The file's totals and @nr threads from @index, a chunk at a time (the
 * file's threads are only ever added at the end while its lock is held,
 * so the chunks follow each other).
 */
static long ioctl_read_threads(struct armpmu_session *s, struct armpmu_threads __user *arg)
{
	struct armpmu_thread_buf *buf;
	struct armpmu_threads hdr;
	u32 index, want, done = 0;
	int ret;

	BUILD_BUG_ON(offsetof(struct armpmu_thread_buf, value) != sizeof(struct armpmu_thread));
	if (copy_from_user(&hdr, arg, sizeof(hdr)))
		return -EFAULT;
	if (hdr.slots > ARMPMU_MAX_COUNTERS || hdr.reserved[0] || hdr.reserved[1])
		return -EINVAL;
	buf = kmalloc_array(THREADS_CHUNK, sizeof(*buf), GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	index = hdr.index;
	want = hdr.nr;
	do {
		u32 n = min_t(u32, want - done, THREADS_CHUNK);

		hdr.index = index + done;
		ret = armpmu_session_threads(s, &hdr, buf, n, !done);
		if (ret < 0)
			break;
		if (copy_threads(arg, buf, done, ret, hdr.slots)) {
			ret = -EFAULT;
			break;
		}
		done += ret;
	} while (ret == THREADS_CHUNK && done < want);
	kfree(buf);
	if (ret < 0)
		return ret;
	hdr.index = index;
	hdr.nr = done;
	return copy_to_user(arg, &hdr, sizeof(hdr)) ? -EFAULT : 0;
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
	ret = armpmu_admin_file_status(s, &st);
	if (!ret && copy_to_user(arg, &st, sizeof(st)))
		ret = -EFAULT;
	return ret;
}

static long ioctl_cpu_status(struct armpmu_session *s, void __user *arg)
{
	struct armpmu_cpu_status st;
	int ret;

	if (copy_from_user(&st, arg, sizeof(st)))
		return -EFAULT;
	ret = armpmu_admin_cpu_status(s, &st);
	if (!ret && copy_to_user(arg, &st, sizeof(st)))
		ret = -EFAULT;
	return ret;
}

static long ioctl_regs(struct armpmu_session *s, void __user *arg)
{
	struct armpmu_regs regs;
	int ret;

	if (copy_from_user(&regs, arg, sizeof(regs)))
		return -EFAULT;
	ret = armpmu_session_regs(s, &regs);
	if (!ret && copy_to_user(arg, &regs, sizeof(regs)))
		ret = -EFAULT;
	return ret;
}

static long ioctl_set_sampling(struct armpmu_session *s, void __user *arg)
{
	struct armpmu_sampling sm;

	if (copy_from_user(&sm, arg, sizeof(sm)))
		return -EFAULT;
	return armpmu_session_set_sampling(s, &sm);
}

/* The records are copied out by sampling.c, straight from the ring. */
static long ioctl_read_samples(struct armpmu_session *s, struct armpmu_samples __user *arg)
{
	struct armpmu_samples hdr;

	if (copy_from_user(&hdr, arg, sizeof(hdr)))
		return -EFAULT;
	return armpmu_session_read_samples(s, &hdr, arg);
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
		return armpmu_session_release_cpu(s, val);
	case ARMPMU_IOC_RELEASE_FILE:
		return armpmu_session_release_file(s, val);
	case ARMPMU_IOC_SET_CYCLE_FILTER:
		return armpmu_session_set_cycle_filter(s, val);
	case ARMPMU_IOC_SET_DIVIDER:
		return armpmu_session_set_divider(s, val);
	default:
		return -ENOTTY;
	}
}

static long dispatch(struct armpmu_session *s, unsigned int cmd,
		     void __user *arg)
{
	switch (cmd) {
	case ARMPMU_IOC_READ:
		return copy_snapshot(s, arg);
	case ARMPMU_IOC_READ_SLOTS:
		return ioctl_read_slots(s, arg);
	case ARMPMU_IOC_READ_THREADS:
		return ioctl_read_threads(s, arg);
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
	case ARMPMU_IOC_SET_SAMPLING:
		return ioctl_set_sampling(s, arg);
	case ARMPMU_IOC_READ_SAMPLES:
		return ioctl_read_samples(s, arg);
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

/* POLLIN when a sampled file's ring has records to take (see the uAPI). */
static __poll_t armpmu_poll(struct file *file, struct poll_table_struct *pt)
{
	struct armpmu_session *s = file->private_data;
	__poll_t mask;

	poll_wait(file, &s->sampling.wait, pt);
	mutex_lock(&s->lock);
	mask = armpmu_session_poll(s);
	mutex_unlock(&s->lock);
	return mask;
}

static const struct file_operations armpmu_fops = {
	.owner = THIS_MODULE,
	.open = armpmu_open,
	.release = armpmu_release,
	.read = armpmu_read,
	.poll = armpmu_poll,
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
