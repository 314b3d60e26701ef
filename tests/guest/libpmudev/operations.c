// SPDX-License-Identifier: GPL-2.0
/*
 * libpmudev-test: the counter calls on one counter and the cycle counter
 * (select, set_event, set_divider, set_cycle_filter, set_value, start,
 * read, stop, reset), and pmudev_strerror().
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "common.h"

void test_operations(void)
{
	struct armpmu_counts a, b;
	struct pmudev *pmu;
	unsigned int n, top;
	uint32_t bits;
	int ret;

	ret = pmudev_open(&pmu, PMUDEV_CPU_ANY, 0);
	if (!tap_errno(err_of(ret), 0, "operations: open"))
		return;
	n = pmudev_info(pmu)->num_counters;
	bits = pmudev_info(pmu)->event_bits;
	top = n - 1;
	tap_errno(err_of(pmudev_select(pmu, top)), 0, "select: the last counter");
	tap_errno(err_of(pmudev_select(pmu, n)), 0, "select: a slot past the counters");
	tap_errno(err_of(pmudev_select(pmu, ARMPMU_MAX_COUNTERS)), EINVAL,
		  "select: -EINVAL past the last slot");
	tap_errno(err_of(pmudev_select(pmu, top)), 0, "select: the last counter again");
	tap_errno(err_of(pmudev_set_event(pmu, 0x11, 0)), 0, "set_event: CPU_CYCLES");
	tap_errno(err_of(pmudev_set_event(pmu, 0x11, 1U << 5)), EINVAL,
		  "set_event: -EINVAL for an undefined flag");
	tap_errno(err_of(pmudev_set_event(pmu, 1U << bits, 0)), EINVAL,
		  "set_event: -EINVAL for a number wider than event_bits");
	tap_errno(err_of(pmudev_set_divider(pmu, true)), 0, "set_divider: on");
	tap_check(!strcmp(pmudev_counter_name(pmu, ARMPMU_CYCLE_COUNTER), "cycles/64"),
		  "set_divider: the cycle counter is named cycles/64", "got %s",
		  pmudev_counter_name(pmu, ARMPMU_CYCLE_COUNTER));
	tap_errno(err_of(pmudev_set_divider(pmu, false)), 0, "set_divider: off");
	tap_errno(err_of(pmudev_set_cycle_filter(pmu, ARMPMU_EXCLUDE_KERNEL)), 0,
		  "set_cycle_filter: user mode only");
	tap_check(!strcmp(pmudev_counter_name(pmu, ARMPMU_CYCLE_COUNTER), "cycles:u"),
		  "set_cycle_filter: the cycle counter is named cycles:u", "got %s",
		  pmudev_counter_name(pmu, ARMPMU_CYCLE_COUNTER));
	tap_errno(err_of(pmudev_set_cycle_filter(pmu, 1U << 4)), EINVAL,
		  "set_cycle_filter: -EINVAL for an undefined flag");
	tap_errno(err_of(pmudev_set_cycle_filter(pmu, 0)), 0, "set_cycle_filter: both modes");

	tap_errno(err_of(pmudev_set_value(pmu, top, 0xfffffff0ULL)), 0,
		  "set_value: an event counter");
	tap_errno(err_of(pmudev_set_value(pmu, ARMPMU_CYCLE_COUNTER, 0xfffffff0ULL)), 0,
		  "set_value: the cycle counter");
	tap_errno(err_of(pmudev_set_value(pmu, n, 1)), EINVAL,
		  "set_value: -EINVAL for a counter that does not exist");
	ret = pmudev_read(pmu, &a);
	tap_check(!ret && a.events[top] == 0xfffffff0ULL && a.cycles == 0xfffffff0ULL &&
		  !(a.flags & ARMPMU_COUNTS_RUNNING) && a.nr == n,
		  "read: the values set, stopped, nr == num_counters",
		  "%s: events %#llx cycles %#llx flags %#x nr %u", tap_errname(err_of(ret)),
		  (ull)a.events[top], (ull)a.cycles, a.flags, a.nr);

	tap_errno(err_of(pmudev_start(pmu)), 0, "start");
	loop_n(SPIN);
	pmudev_read(pmu, &a);
	loop_n(SPIN);
	ret = pmudev_read(pmu, &b);
	tap_check(!ret && (a.flags & ARMPMU_COUNTS_RUNNING) && b.cycles > a.cycles &&
		  b.events[top] > a.events[top],
		  "read while running: RUNNING, both counters grow",
		  "%s: flags %#x cycles %llu -> %llu events %llu -> %llu",
		  tap_errname(err_of(ret)), a.flags, (ull)a.cycles,
		  (ull)b.cycles, (ull)a.events[top],
		  (ull)b.events[top]);
	tap_check(a.cycles > 0xffffffffULL && a.events[top] > 0xffffffffULL,
		  "read: counts go past 32 bits (64-bit values reach the caller)",
		  "cycles %#llx events %#llx", (ull)a.cycles,
		  (ull)a.events[top]);
	tap_errno(err_of(pmudev_set_event(pmu, 0x11, 0)), EBUSY,
		  "set_event: -EBUSY while counting");
	tap_errno(err_of(pmudev_set_divider(pmu, true)), EBUSY,
		  "set_divider: -EBUSY while counting");
	tap_errno(err_of(pmudev_set_value(pmu, top, 0)), EBUSY,
		  "set_value: -EBUSY while counting");
	tap_errno(err_of(pmudev_set_cycle_filter(pmu, 0)), EBUSY,
		  "set_cycle_filter: -EBUSY while counting");
	tap_errno(err_of(pmudev_add_event(pmu, "CPU_CYCLES")), EBUSY,
		  "add_event: -EBUSY while counting");
	tap_errno(err_of(pmudev_stop(pmu)), 0, "stop");
	pmudev_read(pmu, &a);
	loop_n(SPIN);
	pmudev_read(pmu, &b);
	tap_check(!(a.flags & ARMPMU_COUNTS_RUNNING) && a.cycles == b.cycles &&
		  a.events[top] == b.events[top], "stop: the counts stand still",
		  "flags %#x cycles %llu -> %llu", a.flags, (ull)a.cycles,
		  (ull)b.cycles);
	tap_errno(err_of(pmudev_reset(pmu)), 0, "reset");
	ret = pmudev_read(pmu, &a);
	tap_check(!ret && a.cycles == 0 && a.events[top] == 0, "reset: every count is zero",
		  "cycles %llu events %llu", (ull)a.cycles,
		  (ull)a.events[top]);
	pmudev_close(pmu);
}

void test_strerror(void)
{
	static const int errs[] = { ENOENT, EACCES, EBUSY, ENOSPC, EOPNOTSUPP, ERANGE,
				    EALREADY, EBADFD, ECANCELED, ESRCH, EINVAL };
	bool ok = true;

	for (size_t i = 0; i < sizeof(errs) / sizeof(errs[0]); i++)
		ok &= pmudev_strerror(-errs[i]) && *pmudev_strerror(-errs[i]);
	tap_check(ok, "strerror: a message for every error the library gives", "%s", "");
	tap_check(!strcmp(pmudev_strerror(-EINVAL), strerror(EINVAL)),
		  "strerror: others are the C library's", "got %s", pmudev_strerror(-EINVAL));
}
