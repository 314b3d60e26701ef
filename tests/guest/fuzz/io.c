// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz: read(2), write(2), lseek(2) and mmap(2) on the device.
 */
#include "common.h"

void op_read(struct worker *w)
{
	static const int only_short[] = { EINVAL, EFAULT, 0 };
	const size_t sz = sizeof(struct armpmu_counts);
	const size_t lens[] = {
		0, 1, 4, sz - 8, sz - 1, sz, sz, sz, sz + 1, sz + 7, 4096, 1 << 20,
		SSIZE_MAX, SIZE_MAX,
	};
	struct armpmu_counts counts;
	const char *fdkind;
	struct call c;
	struct ptr p;
	size_t len;
	ssize_t ret;
	int fd, slot, err;

	len = chance(w, 100) ? below(w, 600) : lens[below(w, ARRAY_SIZE(lens))];
	fd = pick_fd(w, &fdkind, &slot);
	p = pick_ptr(w, sz);
	if (p.fill)
		memset(p.fill, 0xa5, p.fill_len);
	call_init(&c, "read", fd, fdkind);
	call_ptr(&c, &p);
	c.has_len = true;
	c.len = len;
	ret = read(fd, (void *)p.addr, len);
	err = ret < 0 ? errno : 0;
	done(w, &c, OP_READ, err, len < sz ? only_short : only_not_enotty);
	if (ret >= 0 && (size_t)ret != sz)
		FAIL_AFTER(w, F_OUTPUT, &c, "returned %zd, expected %zu", ret, sz);
	if ((ret >= 0 || err == EIO) && !writable(&p))
		FAIL_AFTER(w, F_WRONG, &c, "%s with a pointer it cannot write",
			   tap_errname(err));
	if ((ret >= 0 || err == EIO) && writable(&p)) {
		memcpy(&counts, p.fill, sz);
		check_counts(w, &c, &counts, err);
	}
}

void op_write(struct worker *w)
{
	static const int only_einval[] = { EINVAL, 0 };
	const char *fdkind;
	struct call c;
	struct ptr p;
	size_t len;
	int fd, slot, err;

	len = chance(w, 300) ? 0 : chance(w, 500) ? sizeof(struct armpmu_counts) : below(w, 4096);
	fd = pick_fd(w, &fdkind, &slot);
	p = pick_ptr(w, len);
	call_init(&c, "write", fd, fdkind);
	call_ptr(&c, &p);
	c.has_len = true;
	c.len = len;
	err = write(fd, (void *)p.addr, len) < 0 ? errno : 0;
	done(w, &c, OP_WRITE, err, only_einval);
	if (!err)
		FAIL_AFTER(w, F_WRONG, &c, "write(2) succeeded on a device that cannot be written");
}

void op_lseek(struct worker *w)
{
	static const int only_espipe[] = { ESPIPE, 0 };
	static const int only_einval[] = { EINVAL, 0 };
	const char *fdkind;
	struct call c;
	off_t off;
	int fd, slot, whence, err;

	off = chance(w, 500) ? 0 : (off_t)(int32_t)rnd(w);
	whence = chance(w, 900) ? (int)below(w, 3) : (int)rnd(w);
	fd = pick_fd(w, &fdkind, &slot);
	call_init(&c, "lseek", fd, fdkind);
	call_arg(&c, (uint64_t)off);
	call_arg(&c, (uint64_t)(unsigned int)whence);
	err = lseek(fd, off, whence) < 0 ? errno : 0;
	/* The VFS refuses a whence it does not know before the driver sees it. */
	done(w, &c, OP_LSEEK, err,
	     whence >= SEEK_SET && whence <= SEEK_HOLE ? only_espipe : only_einval);
	if (!err)
		FAIL_AFTER(w, F_WRONG, &c, "lseek(2) succeeded on a device that cannot seek");
}

void op_mmap(struct worker *w)
{
	static const int only_mmap[] = { ENODEV, EINVAL, EACCES, 0 };
	static const int prots[] = {
		PROT_READ, PROT_READ | PROT_WRITE, PROT_NONE, PROT_WRITE,
	};
	size_t len = chance(w, 100) ? 1 : (size_t)page_size * (1 + below(w, 4));
	int prot = prots[below(w, ARRAY_SIZE(prots))];
	int flags = chance(w, 500) ? MAP_SHARED : MAP_PRIVATE;
	off_t off = chance(w, 700) ? 0 : (off_t)page_size * below(w, 16);
	const char *fdkind;
	struct call c;
	void *m;
	int fd, slot, err;

	fd = pick_fd(w, &fdkind, &slot);
	call_init(&c, "mmap", fd, fdkind);
	c.has_len = true;
	c.len = len;
	call_arg(&c, (uint64_t)prot);
	call_arg(&c, (uint64_t)flags);
	call_arg(&c, (uint64_t)off);
	m = mmap(NULL, len, prot, flags, fd, off);
	err = m == MAP_FAILED ? errno : 0;
	done(w, &c, OP_MMAP, err, only_mmap);
	if (!err) {
		FAIL_AFTER(w, F_WRONG, &c, "mmap(2) succeeded on a device that cannot be mapped");
		munmap(m, len);
	}
}
