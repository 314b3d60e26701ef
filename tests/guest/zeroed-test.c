// SPDX-License-Identifier: GPL-2.0
/*
 * zeroed-test: a file that closes leaves none of its counts in the PMU's
 * registers for whoever reads them next. A file counts (whole-CPU mode,
 * then task mode, each closed while counting), then the benchmark's
 * test-only module bench_userenr.ko opens the PMU to user mode and this
 * program reads the counters it used directly: they must read 0. Runs as
 * root in the guest with bench_userenr.ko in the working directory; prints
 * TAP.
 *
 *   zeroed-test
 */
#include <stdio.h>
#include <stdlib.h>

#include "devio.h"
#include "tap.h"

#define SPIN			100000UL

/* Event counter 0, read from user mode (PMUSERENR must be open). */
static uint64_t user_read_evcntr0(void)
{
#if defined(__aarch64__)
	uint64_t v;

	__asm__ volatile("mrs %0, pmevcntr0_el0" : "=r"(v));
	return v;
#else
	uint32_t v;

	__asm__ volatile("mcr p15, 0, %0, c9, c12, 5\n\tisb" : : "r"(0) : "memory");
	__asm__ volatile("mrc p15, 0, %0, c9, c13, 2" : "=r"(v));
	return v;
#endif
}

/* Counter 0 and the cycle counter count a loop; the file closes counting. */
static int count_and_close(bool whole_cpu)
{
	struct armpmu_value preset = { .counter = 0, .value = 0x12345678 };
	int fd, err;

	err = whole_cpu ? open_bound(0, &fd) : dev_open(&fd);
	err = err ? err : program(fd, 0, ARMPMU_EV_CPU_CYCLES, 0);
	/* A count that cannot be 0 by chance, even where nothing counts. */
	err = err ? err : ioc(fd, ARMPMU_IOC_SET_VALUE, &preset);
	preset.counter = ARMPMU_CYCLE_COUNTER;
	err = err ? err : ioc(fd, ARMPMU_IOC_SET_VALUE, &preset);
	err = err ? err : ioc0(fd, ARMPMU_IOC_START);
	loop_n(SPIN);
	dev_close(&fd);
	return err;
}

static void test_mode(bool whole_cpu)
{
	const char *mode = whole_cpu ? "whole-CPU" : "task-mode";
	uint64_t cycles, ev0;
	char name[128];
	int err;

	snprintf(name, sizeof(name), "a %s file counts and closes while counting", mode);
	if (!tap_errno(count_and_close(whole_cpu), 0, name))
		return;
	err = system("insmod ./bench_userenr.ko");
	snprintf(name, sizeof(name), "%s: the test module opens the PMU to user mode", mode);
	if (!tap_check(err == 0, name, "insmod exited with %d", err))
		return;
	cycles = user_read_pmccntr();
	ev0 = user_read_evcntr0();
	err = system("rmmod bench_userenr");
	snprintf(name, sizeof(name),
		 "%s: after close, the cycle counter and counter 0 read 0 from user mode", mode);
	tap_check(cycles == 0 && ev0 == 0, name, "cycle counter %llu, counter 0 %llu",
		  (ull)cycles, (ull)ev0);
	tap_errno(err ? EIO : 0, 0, "the test module unloads");
}

int main(void)
{
	tap_init();
	if (pin(0)) {
		tap_check(false, "pinned to CPU 0", "%s", tap_errname(errno));
		return tap_done();
	}
	test_mode(true);
	test_mode(false);
	test_kernel_log();
	return tap_done();
}
