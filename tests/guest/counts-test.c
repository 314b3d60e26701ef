// SPDX-License-Identifier: GPL-2.0
/*
 * counts-test: the 64-bit counts are right across hardware wraps. Presets
 * (SET_VALUE) put a 32-bit counter just below its wrap, so a wrap takes
 * microseconds; a long sleep wraps event counters naturally, across many
 * polls; with --icount a loop retires more than 2^32 user instructions and
 * the count must be exact. Also the cycle counter's own filter. Runs as
 * root in the guest, prints TAP.
 *
 *   counts-test [--icount] [--no-power-cycle=WHY]
 *
 * --no-power-cycle=WHY: the power-down cycle is a skip that says WHY (a
 * lane where another lane of the same check is worth its time).
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "devio.h"
#include "tap.h"

#define EXCL_U			ARMPMU_EXCLUDE_USER
#define EXCL_K			ARMPMU_EXCLUDE_KERNEL

#define WRAP			(1ULL << 32)
#define SPIN			200000UL

static bool icount;
static const char *no_power_cycle;
static struct armpmu_info info;

static int set_value(int fd, __u32 counter, __u64 value)
{
	struct armpmu_value v = { .counter = counter, .value = value };

	return ioc(fd, ARMPMU_IOC_SET_VALUE, &v);
}

static void test_set_value(int fd)
{
	struct armpmu_value v = { .counter = 0, .reserved = 1 };
	struct armpmu_counts c;
	int err;

	tap_errno(ioc(fd, ARMPMU_IOC_SET_VALUE, &v), EINVAL,
		  "EINVAL: SET_VALUE with the reserved field set");
	tap_errno(set_value(fd, info.num_counters, 1), EINVAL,
		  "EINVAL: SET_VALUE of counter num_counters");
	tap_errno(set_value(fd, ARMPMU_CYCLE_COUNTER - 1, 1), EINVAL,
		  "EINVAL: SET_VALUE of counter 30");
	err = program(fd, 0, ARMPMU_EV_CPU_CYCLES, 0);
	err |= set_value(fd, 0, 0x123456789ULL);
	err |= set_value(fd, ARMPMU_CYCLE_COUNTER, 0xfffffff0ULL);
	err |= read_counts(fd, &c);
	tap_check(!err && c.events[0] == 0x123456789ULL && c.cycles == 0xfffffff0ULL,
		  "SET_VALUE: READ returns the values set, 64 bits wide",
		  "%s: events[0] %#llx, cycles %#llx", tap_errname(err),
		  (ull)c.events[0], (ull)c.cycles);
	err = ioc0(fd, ARMPMU_IOC_START);
	tap_errno(err ? err : set_value(fd, 0, 1), EBUSY, "EBUSY: SET_VALUE while counting");
	ioc0(fd, ARMPMU_IOC_STOP);
}

/*
 * Counters 0 and 1 count the same event, started and stopped by one write
 * each: they must agree to the count, however close to its wrap counter 0
 * started.
 */
static void test_event_wrap(int fd, unsigned long trips, const char *name)
{
	__u32 event = icount ? ARMPMU_EV_INST_RETIRED : ARMPMU_EV_CPU_CYCLES;
	__u64 preset = WRAP - 5000;
	struct armpmu_counts c;
	int err;

	err = program(fd, 0, event, EXCL_K);
	err |= program(fd, 1, event, EXCL_K);
	err |= ioc0(fd, ARMPMU_IOC_RESET);
	err |= set_value(fd, 0, preset);
	err |= ioc0(fd, ARMPMU_IOC_START);
	loop_n(trips);
	err |= ioc0(fd, ARMPMU_IOC_STOP);
	err |= read_counts(fd, &c);
	/* QEMU times each counter at its own register access, without icount. */
	tap_check(!err && c.events[0] > WRAP &&
		  (icount ? c.events[0] - preset == c.events[1] :
			    within_pct(c.events[0] - preset, c.events[1], 1)),
		  name, "%s: counter 0 from %#llx to %#llx (+%llu), counter 1 %llu",
		  tap_errname(err), (ull)preset, (ull)c.events[0],
		  (ull)(c.events[0] - preset), (ull)c.events[1]);
}

/* The cycle counter from just below 2^32, with and without the divider. */
static void test_cycle_wrap(int fd, unsigned int divider)
{
	__u64 preset = WRAP - (divider ? 10 : 1000);
	struct armpmu_counts c;
	uint64_t cycles, scaled;
	bool close_enough;
	char name[96];
	int err;

	err = ioc_u32(fd, ARMPMU_IOC_SET_DIVIDER, divider);
	err |= program(fd, 0, ARMPMU_EV_CPU_CYCLES, EXCL_K);
	err |= ioc_u32(fd, ARMPMU_IOC_SET_CYCLE_FILTER, EXCL_K);
	err |= ioc0(fd, ARMPMU_IOC_RESET);
	err |= set_value(fd, ARMPMU_CYCLE_COUNTER, preset);
	err |= ioc0(fd, ARMPMU_IOC_START);
	loop_n(SPIN);
	err |= ioc0(fd, ARMPMU_IOC_STOP);
	err |= read_counts(fd, &c);
	ioc_u32(fd, ARMPMU_IOC_SET_DIVIDER, 0);
	cycles = c.cycles - preset;
	/*
	 * With the divider, cycles tick every 64th cycle, and QEMU rounds the
	 * divided count at every change of exception level: within 1%.
	 */
	scaled = divider ? cycles * 64 : cycles;
	snprintf(name, sizeof(name), "the cycle counter wraps 2^32 %s",
		 divider ? "with the divider (every 64 cycles)" : "without the divider");
	close_enough = icount && !divider ? scaled == c.events[0] :
					    within_pct(scaled, c.events[0], divider ? 1 : 2);
	tap_check(!err && c.cycles > WRAP && close_enough,
		  name, "%s: from %#llx to %#llx (+%llu), CPU_CYCLES:u %llu", tap_errname(err),
		  (ull)preset, (ull)c.cycles, (ull)cycles, (ull)c.events[0]);
}

/*
 * Several seconds of CPU_CYCLES (QEMU counts host time at 1 GHz, asleep
 * too): the 32-bit counters wrap by themselves, between many polls.
 */
static void test_natural_wrap(int fd)
{
	struct timespec ts = { .tv_sec = 5 };
	struct armpmu_counts c;
	int err;

	err = program(fd, 0, ARMPMU_EV_CPU_CYCLES, 0);
	err |= program(fd, 1, ARMPMU_EV_CPU_CYCLES, 0);
	err |= ioc_u32(fd, ARMPMU_IOC_SET_CYCLE_FILTER, 0);
	err |= ioc0(fd, ARMPMU_IOC_RESET);
	err |= ioc0(fd, ARMPMU_IOC_START);
	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
	err |= ioc0(fd, ARMPMU_IOC_STOP);
	err |= read_counts(fd, &c);
	tap_check(!err && c.events[0] > WRAP && within_pct(c.events[0], c.events[1], 1) &&
		  within_pct(c.cycles, c.events[0], 1),
		  "5 s of CPU_CYCLES: past 2^32 by themselves, counters within 1%",
		  "%s: events[0] %llu, events[1] %llu, cycles %llu", tap_errname(err),
		  (ull)c.events[0], (ull)c.events[1], (ull)c.cycles);
	tap_note("5 s asleep: CPU_CYCLES %llu, cycle counter %llu", (ull)c.events[0],
		 (ull)c.cycles);
}

/* More than 2^32 user instructions, exact to the instruction. */
/*
 * On @fd, bound or in task mode (@mode says which): in task mode nothing
 * switches the thread out during the loop, so the per-CPU poll timer alone
 * keeps the 32-bit counter from wrapping unseen.
 */
static void test_long_exact(int fd, const char *mode)
{
	unsigned long trips = (1UL << 31) + 12345;
	struct armpmu_counts c0, c;
	uint64_t expected;
	char name[128];
	int err;

	err = program(fd, 0, ARMPMU_EV_INST_RETIRED, EXCL_K);
	err |= measure_loop(fd, 0, &c0);
	err |= measure_loop(fd, trips, &c);
	expected = c0.events[0] + (uint64_t)LOOP_INSNS_PER_ITER * trips;
	snprintf(name, sizeof(name), "%s: INST_RETIRED:u of 2^32 + 24690 loop instructions is exact",
		 mode);
	tap_check(!err && c.events[0] == expected && !(c.flags & ~ARMPMU_COUNTS_RUNNING), name,
		  "%s: %llu, expected %llu (error %lld), flags %#x", tap_errname(err),
		  (ull)c.events[0], (ull)expected, (long long)(c.events[0] - expected), c.flags);
	tap_note("%s long loop: INST_RETIRED:u %llu, expected %llu, error %lld", mode,
		 (ull)c.events[0], (ull)expected, (long long)(c.events[0] - expected));
}

static void test_cycle_filter(int fd)
{
	struct armpmu_counts user, kernel;
	int err;

	tap_errno(ioc_u32(fd, ARMPMU_IOC_SET_CYCLE_FILTER, 4), EINVAL,
		  "EINVAL: SET_CYCLE_FILTER with an undefined flag");
	err = set_value(fd, ARMPMU_CYCLE_COUNTER, 12345);
	err |= ioc_u32(fd, ARMPMU_IOC_SET_CYCLE_FILTER, EXCL_K);
	err |= read_counts(fd, &user);
	tap_check(!err && user.cycles == 0, "SET_CYCLE_FILTER zeroes the cycle counter",
		  "%s: cycles %llu", tap_errname(err), (ull)user.cycles);
	err = ioc0(fd, ARMPMU_IOC_START);
	tap_errno(err ? err : ioc_u32(fd, ARMPMU_IOC_SET_CYCLE_FILTER, 0), EBUSY,
		  "EBUSY: SET_CYCLE_FILTER while counting");
	ioc0(fd, ARMPMU_IOC_STOP);

	err = program(fd, 0, icount ? ARMPMU_EV_INST_RETIRED : ARMPMU_EV_CPU_CYCLES, EXCL_K);
	err |= ioc_u32(fd, ARMPMU_IOC_SET_CYCLE_FILTER, EXCL_K);
	err |= measure_loop(fd, SPIN, &user);
	err |= ioc_u32(fd, ARMPMU_IOC_SET_CYCLE_FILTER, EXCL_U);
	/*
	 * A whole CPU's kernel mode holds the kernel's own work too: on 6.12,
	 * for seconds after boot, bursts of crypto self-tests (millions of
	 * instructions every few milliseconds). The least of ten loops finds
	 * one between the bursts.
	 */
	memset(&kernel, 0, sizeof(kernel));
	for (int i = 0; i < 10 && !err; i++) {
		struct armpmu_counts c;

		err = measure_loop(fd, SPIN, &c);
		if (!err && (i == 0 || c.cycles < kernel.cycles))
			kernel = c;
	}
	/* Under icount a cycle is an instruction. */
	tap_check(!err && (icount ? user.cycles == user.events[0] :
				    within_pct(user.cycles, user.events[0], 2)),
		  icount ? "cycle filter :u: cycles == INST_RETIRED:u" :
			   "cycle filter :u: cycles within 2% of CPU_CYCLES:u",
		  "%s: cycles %llu, counter %llu", tap_errname(err), (ull)user.cycles,
		  (ull)user.events[0]);
	/*
	 * Without icount, QEMU's cycles are host time, and translating the
	 * ioctls' kernel code can take longer than the loop: exact lanes only.
	 */
	if (icount)
		tap_check(!err && kernel.cycles < user.cycles / 4,
			  "cycle filter :k: a user loop adds (almost) nothing",
			  "%s: kernel-only cycles %llu, user-only %llu", tap_errname(err),
			  (ull)kernel.cycles, (ull)user.cycles);
	else
		tap_skip("cycle filter :k: a user loop adds (almost) nothing",
			 "QEMU's cycles are host time without --icount");
	ioc_u32(fd, ARMPMU_IOC_SET_CYCLE_FILTER, 0);
}

/*
 * RESET, START, a loop, a hibernation test to pm_test level @level, the
 * loop again, STOP, READ.
 */
static int loop_sleep_loop(int fd, const char *level, struct armpmu_counts *c)
{
	int err = write_file("/sys/power/pm_test", level), werr;

	err |= ioc0(fd, ARMPMU_IOC_RESET);
	err |= ioc0(fd, ARMPMU_IOC_START);
	loop_n(SPIN);
	werr = write_file("/sys/power/state", "disk");
	loop_n(SPIN);
	err |= ioc0(fd, ARMPMU_IOC_STOP);
	err = err ? err : read_counts(fd, c);
	return werr ? werr : err;
}

/*
 * A hibernation test cycle to pm_test level "core" powers the boot CPU down
 * the way idle states do: CPU_PM_ENTER, CPU_PM_EXIT, and on arm64 perf's
 * reset of the whole PMU at exit; the other CPUs go offline and back.
 * Counting must survive it undisturbed, and under -icount lose no user
 * instruction compared with a cycle that stops after freezing the tasks
 * (level "freezer": the same user-mode path, which on arm64 costs one more
 * user instruction than a plain write, but no power-down).
 */
static void test_power_cycle(int fd)
{
	struct armpmu_counts quiet, cycled;
	int err;

	if (no_power_cycle) {
		tap_skip("counts survive a CPU power-down cycle", "%s", no_power_cycle);
		return;
	}
	if (access("/sys/power/pm_test", W_OK)) {
		tap_skip("counts survive a CPU power-down cycle", "no /sys/power/pm_test");
		return;
	}
	err = program(fd, 0, icount ? ARMPMU_EV_INST_RETIRED : ARMPMU_EV_CPU_CYCLES, EXCL_K);
	err |= ioc_u32(fd, ARMPMU_IOC_SET_CYCLE_FILTER, EXCL_K);
	err |= loop_sleep_loop(fd, "freezer", &quiet);
	tap_errno(err, 0, "baseline: a loop, a hibernation test up to freezing tasks, a loop");
	err = loop_sleep_loop(fd, "core", &cycled);
	tap_check(!err && cycled.flags == 0 && cycled.events[0] > 0 && cycled.cycles > 0,
		  "counts survive a CPU power-down cycle (CPU_PM_ENTER/EXIT), undisturbed",
		  "%s: flags %#x, counter 0 %llu, cycles %llu", tap_errname(err), cycled.flags,
		  (ull)cycled.events[0], (ull)cycled.cycles);
	if (icount)
		tap_check(!err && cycled.events[0] == quiet.events[0],
			  "INST_RETIRED:u across the power-down cycle is exact",
			  "%llu, expected %llu (error %lld)", (ull)cycled.events[0],
			  (ull)quiet.events[0], (long long)(cycled.events[0] - quiet.events[0]));
	tap_note("power-down cycle: counter 0 %llu, without the power-down %llu", (ull)cycled.events[0],
		 (ull)quiet.events[0]);
	write_file("/sys/power/pm_test", "none");
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "icount", no_argument, NULL, 'i' },
		{ "no-power-cycle", required_argument, NULL, 'p' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int opt, fd = -1, err;

	while ((opt = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		if (opt == 'i') {
			icount = true;
		} else if (opt == 'p') {
			no_power_cycle = optarg;
		} else {
			printf("usage: counts-test [--icount] [--no-power-cycle=WHY]\n");
			return opt == 'h' ? 0 : 2;
		}
	}
	tap_init();
	err = pin(0);
	if (!err)
		err = open_bound(0, &fd);
	if (!err)
		err = ioc(fd, ARMPMU_IOC_INFO, &info);
	if (!tap_errno(err, 0, "bind CPU 0 and read INFO"))
		return tap_done();
	tap_note("counts-test%s: %u counters, cycle counter %s", icount ? " (icount)" : "",
		 info.num_counters, info.pmu_version >= ARMPMU_PMUV3 ? "64-bit" : "32-bit");

	test_set_value(fd);
	test_event_wrap(fd, SPIN, icount ? "an event counter preset below 2^32 wraps, exact to the count" :
					"an event counter preset below 2^32 wraps, within 1%");
	test_event_wrap(fd, 10 * SPIN, icount ? "a longer run across the wrap, exact to the count" :
					     "a longer run across the wrap, within 1%");
	test_cycle_wrap(fd, 0);
	test_cycle_wrap(fd, 1);
	test_cycle_filter(fd);
	test_natural_wrap(fd);
	test_power_cycle(fd);
	if (icount) {
		test_long_exact(fd, "whole-CPU mode");
		dev_close(&fd);
		err = dev_open(&fd);
		if (tap_errno(err, 0, "a file that is not bound: task mode"))
			test_long_exact(fd, "task mode");
	} else {
		tap_skip("INST_RETIRED:u past 2^32 is exact", "exact counts need --icount");
	}
	dev_close(&fd);
	test_kernel_log();
	return tap_done();
}
