// SPDX-License-Identifier: GPL-2.0
/*
 * libpmudev-test: regions calibrated for their own begin/end overhead,
 * exactly under icount and by orders of magnitude elsewhere, with a busy
 * neighbour on the CPU.
 */
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>
#include <sys/wait.h>

#include "common.h"

/* The shape of measure() without the loop, as a program writes an empty region. */
static __attribute__((noinline)) int empty(struct pmudev_regions *regions, int id)
{
	int err = pmudev_region_begin(regions, id);

	return err ? err : pmudev_region_end(regions, id);
}

#define REPS 3
#define SIZES 3

struct calibrated_counts {
	struct pmudev_region_counts empty, loop[SIZES], raw_empty, raw_loop[SIZES];
	struct pmudev_region_counts overhead;
	bool clamped;
};

/* REPS calls of an empty region and of loop_n(n) for each n. */
static int run_calibrated(struct pmudev_regions *regions, const unsigned long *n,
			  struct calibrated_counts *got)
{
	int e = pmudev_region(regions, "empty"), id[SIZES], ret = 0;
	char name[32];

	for (int r = 0; r < REPS; r++)
		ret |= empty(regions, e);
	for (int i = 0; i < SIZES; i++) {
		snprintf(name, sizeof(name), "n=%lu", n[i]);
		id[i] = pmudev_region(regions, name);
		for (int r = 0; r < REPS; r++)
			ret |= measure(regions, id[i], n[i]);
	}
	pmudev_regions_overhead(regions, &got->overhead);
	pmudev_region_read(regions, e, &got->empty);
	got->clamped = pmudev_region_clamped(regions, e);
	for (int i = 0; i < SIZES; i++) {
		pmudev_region_read(regions, id[i], &got->loop[i]);
		got->clamped |= pmudev_region_clamped(regions, id[i]);
	}
	pmudev_regions_set_calibration(regions, false);
	pmudev_region_read(regions, e, &got->raw_empty);
	for (int i = 0; i < SIZES; i++)
		pmudev_region_read(regions, id[i], &got->raw_loop[i]);
	pmudev_regions_set_calibration(regions, true);
	return ret;
}

static unsigned long long per_call(uint64_t total)
{
	return total / REPS;
}

/*
 * icount: calibration takes an empty region to exactly 0 user instructions
 * and cycles, and a region around loop_n(n) to LOOP_INSNS_PER_ITER * n
 * plus what calling loop_n(0) retires, the same for every n. Off, the raw
 * counts come back, larger by exactly the reported overhead per call.
 */
static void test_calibration_exact(int inst, const struct calibrated_counts *c,
				   const unsigned long *n)
{
	const struct pmudev_region_counts *o = &c->overhead;
	bool exact = true, raw = true;
	uint64_t call = c->loop[0].events[inst];

	tap_check(c->empty.events[inst] == 0 && c->empty.cycles == 0,
		  "icount calibration: an empty region counts 0 user instructions and cycles",
		  "instructions:u %llu, cycles:u %llu over %d calls",
		  (ull)c->empty.events[inst],
		  (ull)c->empty.cycles, REPS);
	for (int i = 0; i < SIZES; i++) {
		exact &= c->loop[i].events[inst] - call == REPS * LOOP_INSNS_PER_ITER * n[i];
		exact &= c->loop[i].cycles == c->loop[i].events[inst];
		tap_note("loop_n(%lu): %llu user instructions a call, %llu more than 2n",
			 n[i], per_call(c->loop[i].events[inst]),
			 per_call(c->loop[i].events[inst]) - LOOP_INSNS_PER_ITER * n[i]);
	}
	tap_check(exact && call % REPS == 0 && call / REPS < 16,
		  "icount calibration: loop_n(n) counts exactly 2n + the call of loop_n(0)",
		  "loop_n(0) %llu a call", per_call(call));
	raw &= c->raw_empty.events[inst] == REPS * o->events[inst];
	raw &= c->raw_empty.cycles == REPS * o->cycles;
	for (int i = 0; i < SIZES; i++)
		raw &= c->raw_loop[i].events[inst] - c->loop[i].events[inst] ==
		       REPS * o->events[inst];
	tap_check(raw && o->events[inst] == o->cycles,
		  "icount calibration: off, each call counts exactly the reported overhead more",
		  "overhead %llu instructions, %llu cycles; raw empty %llu",
		  (ull)o->events[inst], (ull)o->cycles,
		  per_call(c->raw_empty.events[inst]));
}

/*
 * Without icount both counts are host time: one stall of QEMU can make a
 * small loop count more than a big one (seen: 5,883,531 cycles for
 * loop_n(0) against 198,910 for loop_n(50000)), so no order between loops
 * holds. What does: every raw count is positive (a region's begin and end
 * retire instructions), and calibration only takes away.
 */
static void test_calibration_inexact(int inst, const struct calibrated_counts *c)
{
	bool positive = c->raw_empty.cycles > 0 && c->raw_empty.events[inst] > 0;
	bool no_more = c->empty.cycles <= c->raw_empty.cycles &&
		       c->empty.events[inst] <= c->raw_empty.events[inst];

	for (int i = 0; i < SIZES; i++) {
		positive &= c->raw_loop[i].cycles > 0 && c->raw_loop[i].events[inst] > 0;
		no_more &= c->loop[i].cycles <= c->raw_loop[i].cycles &&
			   c->loop[i].events[inst] <= c->raw_loop[i].events[inst];
	}
	tap_check(c->overhead.cycles > 0 && c->overhead.events[inst] > 0,
		  "calibration: the reported overheads are positive",
		  "%llu cycles, %llu CPU_CYCLES over %llu pairs",
		  (ull)c->overhead.cycles,
		  (ull)c->overhead.events[inst],
		  (ull)c->overhead.calls);
	tap_check(positive, "calibration: every region's raw counts are positive",
		  "raw cycles %llu %llu %llu %llu", (ull)c->raw_empty.cycles,
		  (ull)c->raw_loop[0].cycles, (ull)c->raw_loop[1].cycles,
		  (ull)c->raw_loop[2].cycles);
	tap_check(no_more, "calibration: calibrated counts are no more than raw ones, every region",
		  "cycles %llu %llu %llu", (ull)c->loop[0].cycles,
		  (ull)c->loop[1].cycles, (ull)c->loop[2].cycles);
}

/* A child spinning in user mode until killed: a busy neighbour on the CPU. */
static pid_t start_neighbour(void)
{
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid == 0)
		for (;;)
			loop_n(1000000);
	return pid;
}

static void test_calibration_task_mode(void)
{
	static const unsigned long n[SIZES] = { 0, 1000, 50000 };
	struct calibrated_counts c;
	struct pmudev_regions *regions;
	struct pmudev *pmu;
	int inst, ret;

	if (pmudev_open(&pmu, PMUDEV_CPU_ANY, 0))
		return (void)tap_check(false, "calibration: open", "%s", "");
	/* INST_RETIRED counts only under icount; CPU_CYCLES everywhere */
	inst = pmudev_add_event(pmu, icount ? "instructions:u" : "CPU_CYCLES:u");
	ret = pmudev_add_event(pmu, "cycles:u");
	if (!tap_check(inst >= 0 && ret == ARMPMU_CYCLE_COUNTER,
		       "calibration: an event counter and cycles:u added", "%d %d", inst, ret) ||
	    !tap_errno(err_of(pmudev_regions_new(pmu, &regions)), 0,
		       "calibration: regions_new calibrates")) {
		pmudev_close(pmu);
		return;
	}
	ret = run_calibrated(regions, n, &c);
	tap_errno(err_of(ret), 0, "calibration: every begin and end succeeds");
	/* without icount a region may honestly count less than the minimum pair */
	tap_check((!icount || !c.clamped) && c.overhead.calls > 0 &&
		  c.raw_empty.cycles >= c.empty.cycles,
		  "calibration: none wrapped; under icount, none clamped",
		  "empty: %llu cycles calibrated, %llu raw", (ull)c.empty.cycles,
		  (ull)c.raw_empty.cycles);
	tap_errno(err_of(pmudev_region_clamped(regions, 9)), EINVAL,
		  "region_clamped: -EINVAL for an unknown id");
	tap_note("overhead per pair: %llu cycles:u, %llu %s",
		 (ull)c.overhead.cycles,
		 (ull)c.overhead.events[inst], pmudev_counter_name(pmu, inst));
	if (icount)
		test_calibration_exact(inst, &c, n);
	else
		test_calibration_inexact(inst, &c);
	pmudev_regions_free(regions);
	pmudev_close(pmu);
}

/*
 * Task mode, with a busy process beside the regions on the CPU (all of
 * them, under icount: one): it must add nothing to any count.
 */
void test_calibration(void)
{
	pid_t neighbour = start_neighbour();

	test_calibration_task_mode();
	stop_child(neighbour);
}
