// SPDX-License-Identifier: GPL-2.0
/*
 * badinput-test: unknown ioctl numbers, then read(), write(), lseek() and
 * mmap() on the device.
 */
#include "common.h"

void walk_enotty(void)
{
	static const struct { const char *name; unsigned long req; } reqs[] = {
		{ "armpmu's magic, number 0x00", _IO(ARMPMU_IOC_MAGIC, 0x00) },
		{ "armpmu's magic, number 0x0e (one past the last)", _IO(ARMPMU_IOC_MAGIC, 0x0e) },
		{ "armpmu's magic, number 0xff", _IOWR(ARMPMU_IOC_MAGIC, 0xff, __u64) },
		{ "INFO's number with the wrong size", _IOR(ARMPMU_IOC_MAGIC, 0x01, __u64) },
		{ "INFO's number and size, written instead of read",
		  _IOW(ARMPMU_IOC_MAGIC, 0x01, struct armpmu_info) },
		{ "READ's number without its argument", _IO(ARMPMU_IOC_MAGIC, 0x09) },
		{ "READ_SLOTS' number with the wrong size", _IOWR(ARMPMU_IOC_MAGIC, 0x12, __u64) },
		{ "READ_THREADS' number with the wrong size", _IOWR(ARMPMU_IOC_MAGIC, 0x13, __u64) },
		{ "SET_SAMPLING's number with the wrong size", _IOW(ARMPMU_IOC_MAGIC, 0x14, __u64) },
		{ "READ_SAMPLES' number with the wrong size", _IOWR(ARMPMU_IOC_MAGIC, 0x15, __u64) },
		{ "armpmu's magic, number 0x16 (one past READ_SAMPLES)", _IO(ARMPMU_IOC_MAGIC, 0x16) },
		{ "START's number with an argument", _IOW(ARMPMU_IOC_MAGIC, 0x07, __u32) },
		{ "INFO's number and size, another magic",
		  _IOR(ARMPMU_IOC_MAGIC + 1, 0x01, struct armpmu_info) },
		{ "a terminal's TCGETS", TCGETS },
	};
	unsigned char buf[512];
	char name[160];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(reqs); i++) {
		snprintf(name, sizeof(name), "%s: ENOTTY: %s", user_name(who), reqs[i].name);
		memset(buf, 0, sizeof(buf));
		tap_errno(on_fresh_file(reqs[i].req, buf), ENOTTY, name);
	}
}

/* ---- read(), write(), lseek(), mmap() ---- */

static int read_fresh(void *buf, size_t len, ssize_t *n)
{
	int fd, err = dev_open(&fd);

	*n = -1;
	if (err)
		return err;
	*n = read(fd, buf, len);
	err = *n < 0 ? errno : 0;
	dev_close(&fd);
	return err;
}

static void read_row(const char *what, void *buf, size_t len, int want)
{
	char name[160];
	ssize_t n;
	int err = read_fresh(buf, len, &n);

	snprintf(name, sizeof(name), "%s: read() %s: %s", user_name(who), what,
		 want ? tap_errname(want) : "the size of struct armpmu_counts");
	if (want)
		tap_errno(err, want, name);
	else
		tap_check(n == (ssize_t)sizeof(struct armpmu_counts), name, "%zd (%s)", n,
			  tap_errname(err));
}

void walk_read(void)
{
	const size_t size = sizeof(struct armpmu_counts);
	static _Alignas(16) unsigned char buf[2 * sizeof(struct armpmu_counts)];
	unsigned char *big = malloc(1 << 20);
	unsigned char *ro = mmap(NULL, (size_t)page_size, PROT_READ,
				 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	read_row("of 0 bytes", buf, 0, EINVAL);
	read_row("of 1 byte", buf, 1, EINVAL);
	read_row("one byte short", buf, size - 1, EINVAL);
	read_row("of exactly its size", buf, size, 0);
	read_row("one byte more", buf, size + 1, 0);
	read_row("into an unaligned buffer", buf + 3, size, 0);
	if (big)
		read_row("of 1 MiB", big, 1 << 20, 0);
	read_row("into NULL", NULL, size, EFAULT);
	read_row("into an unmapped page", unmapped_address(), size, EFAULT);
	if (ro != MAP_FAILED)
		read_row("into a read-only page", ro, size, EFAULT);
	read_row("into the top page", (void *)(uintptr_t)-(intptr_t)page_size, size, EFAULT);
	/* arm64 checks the length against its own address space, not a 32-bit task's. */
	read_row("of more bytes than the address space has", buf, SIZE_MAX - (uintptr_t)buf,
		 sizeof(void *) == 4 && !native32 ? 0 : EFAULT);
	free(big);
	if (ro != MAP_FAILED)
		munmap(ro, (size_t)page_size);
}

void walk_file_ops(void)
{
	struct armpmu_counts c;
	char name[160];
	void *p;
	int fd, err, i;

	err = dev_open(&fd);
	if (!tap_errno(err, 0, "file operations: open"))
		return;
	for (i = 0; i < 3; i++) {
		static const size_t lens[] = { 0, 1, sizeof(struct armpmu_counts) };

		snprintf(name, sizeof(name), "%s: write() of %zu bytes: EINVAL", user_name(who),
			 lens[i]);
		tap_errno(write(fd, &c, lens[i]) < 0 ? errno : 0, EINVAL, name);
	}
	snprintf(name, sizeof(name), "%s: pread(): ESPIPE", user_name(who));
	tap_errno(pread(fd, &c, sizeof(c), 0) < 0 ? errno : 0, ESPIPE, name);
	snprintf(name, sizeof(name), "%s: pwrite(): ESPIPE", user_name(who));
	tap_errno(pwrite(fd, &c, sizeof(c), 0) < 0 ? errno : 0, ESPIPE, name);
	for (i = 0; i < 3; i++) {
		static const int whence[] = { SEEK_SET, SEEK_CUR, SEEK_END };

		snprintf(name, sizeof(name), "%s: lseek(whence %d): ESPIPE", user_name(who),
			 whence[i]);
		tap_errno(lseek(fd, 0, whence[i]) < 0 ? errno : 0, ESPIPE, name);
	}
	for (i = 0; i < 2; i++) {
		p = mmap(NULL, (size_t)page_size, i ? PROT_READ | PROT_WRITE : PROT_READ,
			 i ? MAP_PRIVATE : MAP_SHARED, fd, 0);
		snprintf(name, sizeof(name), "%s: mmap(%s): ENODEV", user_name(who),
			 i ? "private, read-write" : "shared, read-only");
		tap_errno(p == MAP_FAILED ? errno : 0, ENODEV, name);
		if (p != MAP_FAILED)
			munmap(p, (size_t)page_size);
	}
	dev_close(&fd);

	/*
	 * The open mode limits read(2) and write(2) only, as for any file.
	 * Where nothing filters, lab can program nothing (EOPNOTSUPP).
	 */
	fd = open(DEV, O_RDONLY | O_CLOEXEC);
	snprintf(name, sizeof(name), "%s: a read-only file counts (SET_EVENT, START, READ)%s",
		 user_name(who), who == AS_ROOT ? "" : filtered(0) ? ": EOPNOTSUPP" : "");
	err = fd < 0 ? errno : program(fd, 0, ARMPMU_EV_CPU_CYCLES,
				       who == AS_ROOT ? root_excl_k() : EXCL_K);
	err = err ? err : ioc0(fd, ARMPMU_IOC_START);
	err = err ? err : read_counts(fd, &c);
	tap_errno(err, who == AS_ROOT ? 0 : filtered(0), name);
	dev_close(&fd);
	fd = open(DEV, O_WRONLY | O_CLOEXEC);
	snprintf(name, sizeof(name), "%s: read() on a write-only file: EBADF", user_name(who));
	tap_errno(fd < 0 ? errno : read(fd, &c, sizeof(c)) < 0 ? errno : 0, EBADF, name);
	dev_close(&fd);
}
