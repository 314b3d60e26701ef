// SPDX-License-Identifier: GPL-2.0
/*
 * armpmu-test: read(2) of a file gives the same snapshot as READ.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "common.h"

void test_read_syscall(void)
{
	struct armpmu_counts a, b[2];
	ssize_t n;
	int fd, err;

	if (!setup_bound(0, "read(): setup", &fd))
		return;
	err = program(fd, 0, ARMPMU_EV_CPU_CYCLES, 0);
	err |= measure_loop(fd, SPIN, &a);
	memset(b, 0x5a, sizeof(b));
	n = read(fd, b, sizeof(b));
	tap_check(n == (ssize_t)sizeof(a), "read() with a large buffer returns one snapshot",
		  "expected %zu, got %zd (%s)", sizeof(a), n, n < 0 ? tap_errname(errno) : "");
	tap_check(!err && n == (ssize_t)sizeof(a) && memcmp(&a, &b[0], sizeof(a)) == 0,
		  "read() when stopped: the same bytes as ARMPMU_IOC_READ",
		  "%s: READ cycles %llu events[0] %llu nr %u flags %#x; read() "
		  "cycles %llu events[0] %llu nr %u flags %#x", tap_errname(err),
		  (ull)a.cycles, (ull)a.events[0], a.nr, a.flags, (ull)b[0].cycles,
		  (ull)b[0].events[0], b[0].nr, b[0].flags);
	memset(b, 0x5a, sizeof(b));
	n = read(fd, b, sizeof(b[0]));
	tap_check(n == (ssize_t)sizeof(a) && memcmp(&a, &b[0], sizeof(a)) == 0,
		  "read() with exactly sizeof(struct armpmu_counts)",
		  "got %zd (%s)", n, n < 0 ? tap_errname(errno) : "");
	err = ioc0(fd, ARMPMU_IOC_START);
	loop_n(SPIN);
	n = read(fd, b, sizeof(b[0]));
	err |= ioc0(fd, ARMPMU_IOC_STOP);
	tap_check(!err && n == (ssize_t)sizeof(a) && (b[0].flags & ARMPMU_COUNTS_RUNNING) &&
		  (!board->counts || b[0].cycles > a.cycles),
		  board->counts ? "read() while started: RUNNING set, counts moving on" :
				  "read() while started: RUNNING set",
		  "%s: returned %zd, flags %#x, cycles %llu (before %llu)", tap_errname(err),
		  n, b[0].flags, (ull)b[0].cycles, (ull)a.cycles);
	dev_close(&fd);
}
