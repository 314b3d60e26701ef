// SPDX-License-Identifier: GPL-2.0
/*
 * armpmu-test on the boards whose PMU QEMU never advances (PMUv1): values set
 * in every counter come back unchanged through START, STOP and RESET, and
 * the divider stays set while counting.
 */
#include <stdbool.h>
#include <stdint.h>

#include "common.h"

/* True if @c holds @want in every event counter and @cycles. */
static bool counts_are(const struct armpmu_counts *c, const uint64_t *want, uint64_t cycles)
{
	unsigned int i;

	if (c->cycles != cycles || c->nr != num_counters)
		return false;
	for (i = 0; i < num_counters; i++)
		if (c->events[i] != want[i])
			return false;
	return true;
}

/*
 * On a board whose PMU QEMU never advances (PMUv1), a value set with
 * SET_VALUE must come back unchanged from every READ, counting or not: each
 * counter gets a value of its own, above 32 bits, so that a wrong PMSELR
 * selection, a lost high half or a mixed-up cycle counter shows. The
 * divider must stay set while counting (PMCR.D read back at every look).
 */
void test_static_counters(void)
{
	uint64_t want[ARMPMU_MAX_COUNTERS], cycles = 0x3fffff000ULL;
	struct armpmu_value v;
	struct armpmu_counts c;
	char why[96];
	unsigned int i;
	int fd, err = 0;

	if (!setup_bound(0, "values: setup", &fd))
		return;
	for (i = 0; i < num_counters; i++) {
		want[i] = ((uint64_t)(i + 1) << 32) + 0x100 * i + 7;
		err |= program(fd, i, ARMPMU_EV_CPU_CYCLES, 0);
		v = (struct armpmu_value){ .counter = i, .value = want[i] };
		err |= ioc(fd, ARMPMU_IOC_SET_VALUE, &v);
	}
	v = (struct armpmu_value){ .counter = ARMPMU_CYCLE_COUNTER, .value = cycles };
	err |= ioc(fd, ARMPMU_IOC_SET_VALUE, &v);
	tap_errno(err, 0, "program every counter and SET_VALUE each, and the cycle counter");
	err = read_counts(fd, &c);
	tap_check(!err && counts_are(&c, want, cycles) && !(c.flags & ARMPMU_COUNTS_RUNNING),
		  "stopped: READ gives back every value set",
		  "%s: flags %#x, cycles %#llx, events[0] %#llx events[1] %#llx", tap_errname(err),
		  c.flags, (ull)c.cycles, (ull)c.events[0], (ull)c.events[1]);
	err = ioc0(fd, ARMPMU_IOC_START);
	loop_n(SPIN);
	err = err ? err : read_counts(fd, &c);
	tap_check(!err && counts_are(&c, want, cycles) && (c.flags & ARMPMU_COUNTS_RUNNING),
		  "started: RUNNING, and every value read back from the hardware unchanged "
		  "(QEMU's PMUv1 never counts)",
		  "%s: flags %#x, cycles %#llx, events[0] %#llx events[1] %#llx", tap_errname(err),
		  c.flags, (ull)c.cycles, (ull)c.events[0], (ull)c.events[1]);
	err = ioc0(fd, ARMPMU_IOC_STOP);
	err = err ? err : read_counts(fd, &c);
	tap_check(!err && counts_are(&c, want, cycles) && !(c.flags & ARMPMU_COUNTS_RUNNING),
		  "STOP: RUNNING clear, values unchanged", "%s: flags %#x, cycles %#llx",
		  tap_errname(err), c.flags, (ull)c.cycles);
	err = ioc0(fd, ARMPMU_IOC_RESET);
	err = err ? err : read_counts(fd, &c);
	tap_check(!err && counts_clear(&c, why, sizeof(why)), "RESET zeroes every counter",
		  "%s: %s", tap_errname(err), why);

	/* The divider: set at START, and still set at every look (else EIO). */
	err = ioc_u32(fd, ARMPMU_IOC_SET_DIVIDER, 1);
	tap_errno(err, 0, "SET_DIVIDER 1 (CAN_DIVIDE)");
	err = ioc0(fd, ARMPMU_IOC_START);
	loop_n(SPIN);
	err = err ? err : read_counts(fd, &c);
	err = err ? err : ioc0(fd, ARMPMU_IOC_STOP);
	tap_check(!err && !(c.flags & ARMPMU_COUNTS_DISTURBED),
		  "counting with the divider: PMCR.D reads back set, not disturbed",
		  "%s, flags %#x", tap_errname(err), c.flags);
	err = ioc_u32(fd, ARMPMU_IOC_SET_DIVIDER, 0);
	err = err ? err : ioc0(fd, ARMPMU_IOC_START);
	err = err ? err : read_counts(fd, &c);
	err = err ? err : ioc0(fd, ARMPMU_IOC_STOP);
	tap_check(!err && !(c.flags & ARMPMU_COUNTS_DISTURBED),
		  "SET_DIVIDER 0 again: counting, not disturbed", "%s, flags %#x",
		  tap_errname(err), c.flags);
	dev_close(&fd);
}
