// SPDX-License-Identifier: GPL-2.0
/*
 * armpmu-test: a bound CPU going offline and coming back: ENXIO meanwhile,
 * counts kept, counting resumed.
 */
#include <errno.h>

#include "../checks.h"
#include "common.h"

struct slots_buf {
	struct armpmu_read hdr;
	struct armpmu_slot slot[ARMPMU_MAX_COUNTERS];
};

/*
 * A multiplexed file bound to CPU 1 across its absence: every slot keeps
 * its count and times, and the sets go on taking turns once it is back.
 */
static void hotplug_multiplexed(void)
{
	unsigned int nev = num_counters + 2, i, bad = 0;
	struct slots_buf before, after;
	int fd, err;

	if (!setup_bound(1, "hotplug, multiplexed: setup", &fd))
		return;
	for (i = 0, err = 0; i < nev && !err; i++)
		err = program(fd, i, ARMPMU_EV_CPU_CYCLES, 0);
	err = err ? err : ioc0(fd, ARMPMU_IOC_START);
	loop_n(SPIN);
	err = err ? err : read_slots(fd, &before.hdr, nev);
	tap_errno(err, 0, "hotplug: a multiplexed file bound to CPU 1 counts");
	err = err ? err : write_file(CPU1_ONLINE, "0");
	err = err ? err : write_file(CPU1_ONLINE, "1");
	loop_n(SPIN);
	err = err ? err : read_slots(fd, &after.hdr, nev);
	for (i = 0; !err && i < nev; i++)
		bad += after.slot[i].value < before.slot[i].value ||
		       after.slot[i].time_running < before.slot[i].time_running ||
		       after.slot[i].time_enabled < before.slot[i].time_enabled ||
		       after.slot[i].time_running > after.slot[i].time_enabled;
	tap_check(!err && !bad && (after.hdr.flags & ARMPMU_COUNTS_RUNNING) &&
		  (after.hdr.flags & ARMPMU_COUNTS_MULTIPLEXED) &&
		  !(after.hdr.flags & ARMPMU_COUNTS_DISTURBED),
		  "hotplug, multiplexed: every slot's count and times kept, counting on",
		  "%s: flags %#x, %u slots went back", tap_errname(err), after.hdr.flags, bad);
	write_file(CPU1_ONLINE, "1");
	dev_close(&fd);
}

void test_hotplug(void)
{
	struct armpmu_counts before, after, later;
	struct armpmu_info info;
	const char *why = cpu1_hotplug_missing();
	int fd, fd2, err;

	if (why) {
		tap_skip("ENXIO: the bound CPU goes offline, BIND to an offline CPU, and counts kept across",
			 "%s", why);
		return;
	}
	if (!setup_bound(1, "hotplug: setup", &fd))
		return;
	err = program(fd, 0, ARMPMU_EV_CPU_CYCLES, 0);
	err |= ioc0(fd, ARMPMU_IOC_START);
	loop_n(SPIN);
	err |= read_counts(fd, &before);
	tap_errno(err, 0, "hotplug: a file bound to CPU 1 counts");

	err = write_file(CPU1_ONLINE, "0");
	if (!tap_errno(err, 0, "CPU 1 goes offline")) {
		dev_close(&fd);
		return;
	}
	tap_errno(read_counts(fd, &after), ENXIO, "ENXIO: READ while the bound CPU is offline");
	tap_errno(ioc(fd, ARMPMU_IOC_INFO, &info), ENXIO,
		  "ENXIO: INFO while the bound CPU is offline");
	err = write_file(CPU1_ONLINE, "1");
	if (!tap_errno(err, 0, "CPU 1 comes back online")) {
		dev_close(&fd);
		return;
	}
	err = read_counts(fd, &after);
	tap_errno(err, 0, "READ works again once the CPU is back");
	loop_n(SPIN);
	err |= read_counts(fd, &later);
	tap_check(!err && after.cycles >= before.cycles && after.events[0] >= before.events[0],
		  "counts are kept across the CPU's absence",
		  "cycles %llu then %llu, events[0] %llu then %llu", (ull)before.cycles,
		  (ull)after.cycles, (ull)before.events[0], (ull)after.events[0]);
	tap_check(!err && (later.flags & ARMPMU_COUNTS_RUNNING) &&
		  (!board->counts || (later.cycles > after.cycles &&
				      later.events[0] > after.events[0])),
		  board->counts ? "counting resumes once the CPU is back" :
				  "counting resumes once the CPU is back (RUNNING)",
		  "flags %#x, cycles %llu then %llu, events[0] %llu then %llu", later.flags,
		  (ull)after.cycles, (ull)later.cycles, (ull)after.events[0],
		  (ull)later.events[0]);
	dev_close(&fd);

	/* BIND to an offline CPU nobody owns. */
	err = dev_open(&fd2);
	if (!err && !write_file(CPU1_ONLINE, "0")) {
		tap_errno(ioc_u32(fd2, ARMPMU_IOC_BIND, 1), ENXIO, "ENXIO: BIND to an offline CPU");
		tap_errno(write_file(CPU1_ONLINE, "1"), 0, "CPU 1 comes back online again");
		dev_close(&fd2);
		err = open_bound(1, &fd2);
		tap_errno(err, 0, "BIND to CPU 1 once it is back");
		dev_close(&fd2);
	} else {
		tap_check(false, "ENXIO: BIND to an offline CPU", "setup: %s",
			  tap_errname(err ? err : EIO));
		write_file(CPU1_ONLINE, "1");
		dev_close(&fd2);
	}
	hotplug_multiplexed();
}
