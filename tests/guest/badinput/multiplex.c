// SPDX-License-Identifier: GPL-2.0
/*
 * badinput-test: slots past the counters: a group as large as the counters
 * and one larger, SET_VALUE and READ_SLOTS of a multiplexed slot, and
 * READ_SLOTS' nr, slot numbers, reserved words and pointer.
 */
#include "common.h"

/* Programs slots 0 to @n - 1 in @group on @fd; the first error. */
static int program_slots(int fd, unsigned int n, __u32 group)
{
	int err = 0;

	for (unsigned int i = 0; i < n && !err; i++)
		err = program_group(fd, i, ARMPMU_EV_CPU_CYCLES, EXCL_K, group);
	return err;
}

/* READ_SLOTS of @nr slots with @reserved in reserved[@which], on a fresh file. */
static int read_slots_on_fresh(__u32 nr, unsigned int which, __u32 reserved)
{
	struct {
		struct armpmu_read hdr;
		struct armpmu_slot slot[ARMPMU_MAX_COUNTERS + 1];
	} buf = { .hdr.nr = nr };

	buf.hdr.reserved[which] = reserved;
	return on_fresh_file(ARMPMU_IOC_READ_SLOTS, &buf);
}

/*
 * Multiplexing: slots past the counters, groups larger than them, and
 * READ_SLOTS' own fields and the memory it writes.
 */
void walk_multiplex(void)
{
	static const __u32 wide[] = { ARMPMU_MAX_COUNTERS + 1, 0x80000000U, 0xffffffffU };
	struct {
		struct armpmu_read hdr;
		struct armpmu_slot slot[1];
	} buf = { .hdr.nr = 1 };
	struct armpmu_value val = { .counter = num_counters, .value = 5 };
	void *map, *p;
	int fd, err;

	err = dev_open(&fd);
	err = err ? err : program_slots(fd, num_counters, 7);
	row(err, filtered(0), "SET_EVENT: a group as large as the counters,", num_counters);
	err = err ? err : program_group(fd, num_counters, ARMPMU_EV_CPU_CYCLES, EXCL_K, 7);
	row(err, filtered(ENOSPC), "SET_EVENT: a group one larger than the counters,",
	    num_counters + 1);
	dev_close(&fd);
	err = dev_open(&fd);
	err = err ? err : program_group(fd, ARMPMU_MAX_COUNTERS - 1, ARMPMU_EV_CPU_CYCLES,
					EXCL_K, 0);
	row(err, filtered(0), "SET_EVENT on the last slot (multiplexed),",
	    ARMPMU_MAX_COUNTERS - 1);
	val.counter = ARMPMU_MAX_COUNTERS - 1;
	row(err ? err : ioc(fd, ARMPMU_IOC_SET_VALUE, &val), filtered(0),
	    "SET_VALUE of a multiplexed slot,", val.counter);
	err = err ? err : read_slots(fd, &buf.hdr, 1);
	/* Never started: programmed, never counted, and says so. */
	tap_check(err == filtered(0) && (err || (buf.hdr.programmed == 1U << 30 &&
						 buf.hdr.slots == ARMPMU_MAX_COUNTERS &&
						 !buf.slot[0].time_running)),
		  "READ_SLOTS: slot 30 programmed, slot 0 empty, nothing counted",
		  "%s: programmed %#x, slots %u", tap_errname(err), buf.hdr.programmed,
		  buf.hdr.slots);
	dev_close(&fd);
	for (unsigned int i = 0; i < ARRAY_SIZE(wide); i++)
		row(read_slots_on_fresh(wide[i], 0, 0), EINVAL, "READ_SLOTS of nr", wide[i]);
	row(read_slots_on_fresh(ARMPMU_MAX_COUNTERS, 0, 0), 0, "READ_SLOTS of every slot, nr",
	    ARMPMU_MAX_COUNTERS);
	for (unsigned int i = 0; i < 2; i++) {
		row(read_slots_on_fresh(1, i, 1), EINVAL,
		    i ? "READ_SLOTS with reserved[1] =" : "READ_SLOTS with reserved[0] =", 1);
		row(read_slots_on_fresh(1, i, 0x80000000U), EINVAL,
		    i ? "READ_SLOTS with reserved[1] =" : "READ_SLOTS with reserved[0] =",
		    0x80000000U);
	}
	/* A header followed by one slot whose last byte is not mapped. */
	buf.hdr.nr = 1;
	p = place_arg(ARG_PAST_MAPPING, &buf, sizeof(buf), &map);
	row(p ? on_fresh_file(ARMPMU_IOC_READ_SLOTS, p) : ENOMEM, EFAULT,
	    "READ_SLOTS of 1 slot into a buffer 1 byte short, nr", 1);
	unplace_arg(map);
	/* The header alone, right before the unmapped page: nr 0 fits. */
	buf.hdr.nr = 0;
	p = place_arg(ARG_PAST_MAPPING, &buf, sizeof(buf.hdr) + 1, &map);
	row(p ? on_fresh_file(ARMPMU_IOC_READ_SLOTS, p) : ENOMEM, 0,
	    "READ_SLOTS of no slot, the header just fitting, nr", 0);
	unplace_arg(map);
}
