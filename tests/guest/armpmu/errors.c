// SPDX-License-Identifier: GPL-2.0
/*
 * armpmu-test: every errno a root caller can meet: unknown calls, bad
 * pointers, out-of-range arguments, the wrong state (bound, owned,
 * started), events the core lacks and filters it cannot apply.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>

#include "../checks.h"
#include "common.h"

static void test_enotty(int fd)
{
	tap_errno(ioc0(fd, _IO(ARMPMU_IOC_MAGIC, 0x00)), ENOTTY,
		  "ENOTTY: armpmu magic, number 0x00");
	tap_errno(ioc0(fd, _IO(ARMPMU_IOC_MAGIC, 0x0a)), ENOTTY,
		  "ENOTTY: armpmu magic, number 0x0a (one past the last)");
	{
		__u64 arg = 0;

		tap_errno(ioc(fd, _IOR(ARMPMU_IOC_MAGIC, 0x01, __u64), &arg), ENOTTY,
			  "ENOTTY: INFO's number with the wrong size");
	}
	{
		struct armpmu_info info;

		tap_errno(ioc(fd, _IOR(ARMPMU_IOC_MAGIC + 1, 0x01, struct armpmu_info), &info),
			  ENOTTY, "ENOTTY: INFO's number and size with another magic");
	}
}

static void test_efault(int fd)
{
	struct {
		const char *name;
		unsigned long req;
		bool needs_unbound;
	} calls[] = {
		{ "INFO", ARMPMU_IOC_INFO, false },
		{ "READ", ARMPMU_IOC_READ, false },
		{ "SET_EVENT", ARMPMU_IOC_SET_EVENT, false },
		{ "SELECT", ARMPMU_IOC_SELECT, false },
		{ "BIND", ARMPMU_IOC_BIND, true },
	};
	char name[96];
	unsigned int i, j;
	int fresh, err;

	for (i = 0; i < sizeof(calls) / sizeof(calls[0]); i++) {
		for (j = 0; j < 2; j++) {
			int target = fd;

			fresh = -1;
			if (calls[i].needs_unbound) {
				err = dev_open(&fresh);
				if (err) {
					tap_check(false, calls[i].name, "open: %s", tap_errname(err));
					continue;
				}
				target = fresh;
			}
			snprintf(name, sizeof(name), "EFAULT: %s with a%s pointer",
				 calls[i].name, j ? "n unmapped" : " NULL");
			err = ioc(target, calls[i].req, j ? unmapped_address() : NULL);
			tap_errno(err, EFAULT, name);
			if (calls[i].needs_unbound) {
				struct armpmu_info info;

				err = ioc(target, ARMPMU_IOC_INFO, &info);
				tap_check(!err && !(info.flags & ARMPMU_INFO_BOUND),
					  j ? "a failed BIND (unmapped) leaves the file unbound" :
					      "a failed BIND (NULL) leaves the file unbound",
					  "%s, flags %#x", tap_errname(err), info.flags);
			}
			dev_close(&fresh);
		}
	}
	{
		/* A snapshot that would end in an unmapped page. */
		char *p = mmap(NULL, 2 * (size_t)page_size, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (p != MAP_FAILED) {
			munmap(p + page_size, (size_t)page_size);
			err = ioc(fd, ARMPMU_IOC_READ, p + page_size - 16);
			tap_errno(err, EFAULT, "EFAULT: READ into a buffer running into an unmapped page");
			munmap(p, (size_t)page_size);
		}
	}
	{
		/* Through a volatile, so the compiler does not object. */
		void *volatile null = NULL;
		ssize_t n = read(fd, null, sizeof(struct armpmu_counts));

		tap_errno(n < 0 ? errno : 0, EFAULT, "EFAULT: read() into NULL");
	}
}

static void test_einval(int fd)
{
	struct armpmu_event ev;
	struct armpmu_counts c;
	char name[96];
	ssize_t n;
	int last, other;

	snprintf(name, sizeof(name), "SELECT %u (== num_counters: a multiplexed slot) succeeds",
		 num_counters);
	tap_errno(ioc_u32(fd, ARMPMU_IOC_SELECT, num_counters), 0, name);
	tap_errno(ioc_u32(fd, ARMPMU_IOC_SELECT, ARMPMU_MAX_COUNTERS - 1), 0,
		  "SELECT 30 (the last slot) succeeds");
	tap_errno(ioc_u32(fd, ARMPMU_IOC_SELECT, ARMPMU_MAX_COUNTERS), EINVAL,
		  "EINVAL: SELECT 31 (the cycle counter's index)");
	tap_errno(ioc_u32(fd, ARMPMU_IOC_SELECT, 0xffffffffU), EINVAL,
		  "EINVAL: SELECT 0xffffffff");
	snprintf(name, sizeof(name), "SELECT %u (the last counter) succeeds", num_counters - 1);
	tap_errno(ioc_u32(fd, ARMPMU_IOC_SELECT, num_counters - 1), 0, name);
	tap_errno(ioc_u32(fd, ARMPMU_IOC_SELECT, 0), 0, "SELECT 0 succeeds");

	snprintf(name, sizeof(name), "EINVAL: SET_EVENT %#x (event_bits %u)",
		 1U << event_bits, event_bits);
	tap_errno(set_event(fd, 1U << event_bits, EXCL_K), EINVAL, name);
	tap_errno(set_event(fd, 0xffffffffU, EXCL_K), EINVAL, "EINVAL: SET_EVENT 0xffffffff");
	snprintf(name, sizeof(name), "SET_EVENT %#x (the widest event number) succeeds",
		 (1U << event_bits) - 1);
	tap_errno(set_event(fd, (1U << event_bits) - 1, root_excl_k), 0, name);
	tap_errno(set_event(fd, ARMPMU_EV_CPU_CYCLES, 1U << 2), EINVAL,
		  "EINVAL: SET_EVENT with flag bit 2 (undefined)");
	tap_errno(set_event(fd, ARMPMU_EV_CPU_CYCLES, EXCL_K | 1U << 31), EINVAL,
		  "EINVAL: SET_EVENT with flag bit 31 (undefined)");
	memset(&ev, 0, sizeof(ev));
	ev.event = ARMPMU_EV_CPU_CYCLES;
	ev.reserved = 1;
	tap_errno(ioc(fd, ARMPMU_IOC_SET_EVENT, &ev), EINVAL,
		  "EINVAL: SET_EVENT with reserved 1");
	ev.reserved = 0x80000000U;
	tap_errno(ioc(fd, ARMPMU_IOC_SET_EVENT, &ev), EINVAL,
		  "EINVAL: SET_EVENT with reserved 0x80000000");

	tap_errno(ioc_u32(fd, ARMPMU_IOC_SET_DIVIDER, 2), EINVAL, "EINVAL: SET_DIVIDER 2");
	tap_errno(ioc_u32(fd, ARMPMU_IOC_SET_DIVIDER, 0xffffffffU), EINVAL,
		  "EINVAL: SET_DIVIDER 0xffffffff");

	/* CPUs that do not exist, on a fresh (unbound) file. */
	last = last_possible_cpu();
	if (dev_open(&other) == 0) {
		if (last >= 0) {
			snprintf(name, sizeof(name), "EINVAL: BIND to CPU %d (past the last possible CPU)",
				 last + 1);
			tap_errno(ioc_u32(other, ARMPMU_IOC_BIND, (__u32)last + 1), EINVAL, name);
		} else {
			tap_check(false, "EINVAL: BIND past the last possible CPU",
				  "cannot read /sys/devices/system/cpu/possible");
		}
		tap_errno(ioc_u32(other, ARMPMU_IOC_BIND, 0xfffffffeU), EINVAL,
			  "EINVAL: BIND to CPU 0xfffffffe");
		tap_errno(ioc_u32(other, ARMPMU_IOC_BIND, 0x7fffffffU), EINVAL,
			  "EINVAL: BIND to CPU 0x7fffffff");
		dev_close(&other);
	} else {
		tap_check(false, "EINVAL: BIND to CPUs that do not exist", "open failed");
	}

	n = read(fd, &c, sizeof(c) - 1);
	tap_errno(n < 0 ? errno : 0, EINVAL, "EINVAL: read() with a buffer one byte short");
	n = read(fd, &c, 8);
	tap_errno(n < 0 ? errno : 0, EINVAL, "EINVAL: read() of 8 bytes");
	n = write(fd, &c, sizeof(c));
	tap_errno(n < 0 ? errno : 0, EINVAL, "EINVAL: write()");
}

void test_errors(void)
{
	void *p;
	int fd, fd2, err;

	if (!setup_bound(0, "errors: setup", &fd))
		return;
	test_enotty(fd);
	test_efault(fd);
	test_einval(fd);

	tap_errno(lseek(fd, 0, SEEK_SET) < 0 ? errno : 0, ESPIPE, "ESPIPE: lseek(SEEK_SET)");
	tap_errno(lseek(fd, 0, SEEK_CUR) < 0 ? errno : 0, ESPIPE, "ESPIPE: lseek(SEEK_CUR)");
	p = mmap(NULL, (size_t)page_size, PROT_READ, MAP_SHARED, fd, 0);
	tap_errno(p == MAP_FAILED ? errno : 0, ENODEV, "ENODEV: mmap()");
	if (p != MAP_FAILED)
		munmap(p, (size_t)page_size);

	/* EALREADY: explicitly bound, and bound by a first SELECT. */
	tap_errno(ioc_u32(fd, ARMPMU_IOC_BIND, 0), EALREADY, "EALREADY: BIND a bound file again");
	tap_errno(ioc_u32(fd, ARMPMU_IOC_BIND, ARMPMU_CPU_CURRENT), EALREADY,
		  "EALREADY: BIND a bound file to ARMPMU_CPU_CURRENT");

	/* EBUSY: another file wants CPU 0. */
	err = dev_open(&fd2);
	if (!err) {
		tap_errno(ioc_u32(fd2, ARMPMU_IOC_BIND, 0), EBUSY,
			  "EBUSY: a second file BINDs an owned CPU");
		tap_errno(ioc_u32(fd2, ARMPMU_IOC_BIND, ARMPMU_CPU_CURRENT), EBUSY,
			  "EBUSY: a second file BINDs ARMPMU_CPU_CURRENT on an owned CPU");
		tap_errno(ioc_u32(fd2, ARMPMU_IOC_SELECT, 0), 0,
			  "a second file's first SELECT chooses task mode beside the CPU's owner");
		dev_close(&fd2);
	} else {
		tap_check(false, "EBUSY: a second file BINDs an owned CPU", "open: %s",
			  tap_errname(err));
	}
	err = program(fd, 0, ARMPMU_EV_CPU_CYCLES, 0);
	err |= ioc0(fd, ARMPMU_IOC_START);
	tap_errno(err, 0, "program and START");
	tap_errno(set_event(fd, ARMPMU_EV_CPU_CYCLES, 0), EBUSY, "EBUSY: SET_EVENT while started");
	tap_errno(ioc_u32(fd, ARMPMU_IOC_SET_DIVIDER, 1), EBUSY,
		  "EBUSY: SET_DIVIDER while started");
	tap_errno(ioc0(fd, ARMPMU_IOC_STOP), 0, "STOP");
	tap_errno(set_event(fd, ARMPMU_EV_CPU_CYCLES, 0), 0, "SET_EVENT after STOP succeeds");
	dev_close(&fd);

	/* EALREADY for a file whose first call chose task mode. */
	err = dev_open(&fd);
	if (!err) {
		err = ioc_u32(fd, ARMPMU_IOC_SELECT, 0);
		tap_errno(err, 0, "a first SELECT chooses task mode for the caller's thread");
		tap_errno(ioc_u32(fd, ARMPMU_IOC_BIND, 0), EALREADY,
			  "EALREADY: BIND after a first SELECT chose task mode");
		dev_close(&fd);
	}

	/* ENOENT: the common events PMCEID says are missing. */
	if (!board->events_known) {
		tap_skip("ENOENT: SET_EVENT of an unimplemented common event",
			 "%s lists no events (EVENTS_KNOWN clear)", board->name);
	} else if (setup_bound(0, "ENOENT: setup", &fd)) {
		err = program(fd, 0, ARMPMU_EV_L1D_CACHE_REFILL, EXCL_K);
		tap_errno(err, ENOENT, "ENOENT: SET_EVENT 0x03 (not in PMCEID on QEMU)");
		tap_errno(set_event(fd, ARMPMU_EV_INST_RETIRED, EXCL_K), icount ? 0 : ENOENT,
			  icount ? "SET_EVENT 0x08 with icount succeeds" :
				   "ENOENT: SET_EVENT 0x08 without icount");
		tap_errno(set_event(fd, ARMPMU_EV_CPU_CYCLES, EXCL_K), 0, "SET_EVENT 0x11 succeeds");
		tap_errno(set_event(fd, 0x40, EXCL_K), 0,
			  "SET_EVENT 0x40 (outside PMCEID's range) succeeds");
		dev_close(&fd);
	}
	if (board->filters) {
		tap_skip("EOPNOTSUPP: a filter on a core that cannot filter",
			 "%s can filter (CAN_FILTER)", board->name);
	} else if (setup_bound(0, "EOPNOTSUPP: setup", &fd)) {
		tap_errno(set_event(fd, ARMPMU_EV_CPU_CYCLES, EXCL_K), EOPNOTSUPP,
			  "EOPNOTSUPP: SET_EVENT excluding the kernel (PMUv1 cannot filter)");
		tap_errno(set_event(fd, ARMPMU_EV_CPU_CYCLES, EXCL_U), EOPNOTSUPP,
			  "EOPNOTSUPP: SET_EVENT excluding user mode");
		tap_errno(set_event(fd, ARMPMU_EV_CPU_CYCLES, EXCL_U | EXCL_K), EOPNOTSUPP,
			  "EOPNOTSUPP: SET_EVENT excluding both");
		tap_errno(ioc_u32(fd, ARMPMU_IOC_SET_CYCLE_FILTER, EXCL_K), EOPNOTSUPP,
			  "EOPNOTSUPP: SET_CYCLE_FILTER excluding the kernel");
		tap_errno(ioc_u32(fd, ARMPMU_IOC_SET_CYCLE_FILTER, 0), 0,
			  "root: SET_CYCLE_FILTER 0 (count everything) succeeds");
		tap_errno(set_event(fd, ARMPMU_EV_CPU_CYCLES, 0), 0,
			  "root: SET_EVENT without a filter succeeds");
		tap_errno(ioc0(fd, ARMPMU_IOC_START), 0,
			  "root: START succeeds (it may count the kernel)");
		dev_close(&fd);
	}
}
