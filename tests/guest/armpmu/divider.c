// SPDX-License-Identifier: GPL-2.0
/*
 * armpmu-test: SET_DIVIDER, the cycle counter's divide-by-64: against the
 * undivided CPU_CYCLES event of the same run, against an undivided run, and
 * with --icount, as uid 1000, exactly.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common.h"

/* Interrupts taken so far on every CPU: /proc/stat's intr total. */
static unsigned long long interrupts_so_far(void)
{
	FILE *f = fopen("/proc/stat", "re");
	unsigned long long n = 0;
	char line[256];

	while (f && fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "intr ", 5)) {
			n = strtoull(line + 5, NULL, 10);
			break;
		}
	}
	if (f)
		fclose(f);
	return n;
}

#define DIV_LOOP	100000UL

/* measure_loop(DIV_LOOP), retried until no interrupt came in between. */
static int uninterrupted_loop(int fd, struct armpmu_counts *c)
{
	unsigned int tries;

	for (tries = 0; tries < 20; tries++) {
		unsigned long long before = interrupts_so_far();
		int err = measure_loop(fd, DIV_LOOP, c);

		if (err)
			return err;
		if (interrupts_so_far() == before)
			return 0;
	}
	return ETIMEDOUT;
}

/*
 * As uid 1000, whose cycle counter counts user mode only: the same loop
 * with divider 0 and 1, each run free of interrupts, so that the user-mode
 * stretch from START to STOP is one piece, the same instructions each time.
 */
static void divider_child(struct child_report *r)
{
	int fd;

	/* Task mode: uid 1000 may not bind a CPU. */
	r->err[0] = dev_open(&fd);
	if (r->err[0])
		return;
	r->err[1] = program(fd, 0, ARMPMU_EV_CPU_CYCLES, EXCL_K);
	loop_n(DIV_LOOP);
	r->err[2] = ioc_u32(fd, ARMPMU_IOC_SET_DIVIDER, 0);
	if (!r->err[2])
		r->err[2] = uninterrupted_loop(fd, &r->c[0]);
	r->err[3] = ioc_u32(fd, ARMPMU_IOC_SET_DIVIDER, 1);
	if (!r->err[3])
		r->err[3] = uninterrupted_loop(fd, &r->c[1]);
	close(fd);
}

static void test_divider_exact(void)
{
	const struct armpmu_counts *c1 = &report->c[0], *c64 = &report->c[1];
	const char *why = run_as_lab(divider_child);
	int64_t d;
	int err;

	if (why) {
		tap_check(false, "icount, uid 1000: divider runs", "%s", why);
		return;
	}
	err = report->err[0] ? report->err[0] : report->err[1] ? report->err[1] :
	      report->err[2] ? report->err[2] : report->err[3];
	tap_errno(err, 0, "icount, uid 1000: the same loop, uninterrupted, with divider 0 and 1");
	tap_note("uid 1000, divider 0: cycles %llu CPU_CYCLES:u %llu; divider 1: cycles %llu "
		 "CPU_CYCLES:u %llu", (ull)c1->cycles, (ull)c1->events[0], (ull)c64->cycles,
		 (ull)c64->events[0]);
	if (err)
		return;
	tap_check(c1->events[0] == c64->events[0],
		  "icount, uid 1000: CPU_CYCLES:u is the same in both runs",
		  "divider 0: %llu, divider 1: %llu", (ull)c1->events[0], (ull)c64->events[0]);
	tap_check(c1->cycles == c1->events[0],
		  "icount, uid 1000, divider 0: cycle counter == CPU_CYCLES:u",
		  "cycles %llu, CPU_CYCLES:u %llu", (ull)c1->cycles, (ull)c1->events[0]);
	/* C64 = floor(end / 64) - floor(start / 64), with end - start = C1. */
	d = (int64_t)(c64->cycles * 64) - (int64_t)c1->cycles;
	tap_check(d > -64 && d < 64,
		  "icount, uid 1000: |C64 * 64 - C1| < 64 (divider 1 vs divider 0)",
		  "C64 %llu * 64 = %llu, C1 %llu", (ull)c64->cycles, (ull)c64->cycles * 64,
		  (ull)c1->cycles);
}

/* Host time, divider 0 then 1: 16x..256x fewer cycles. */
static bool divided(const struct armpmu_counts *c1, const struct armpmu_counts *c64)
{
	return c64->cycles > 0 && c64->cycles * 16 <= c1->cycles &&
	       c64->cycles * 256 >= c1->cycles;
}

void test_divider(void)
{
	struct armpmu_counts c1, c64, c0;
	unsigned int tries;
	int fd, err;

	if (!setup_bound(0, "divider: setup", &fd))
		return;
	err = program(fd, 0, ARMPMU_EV_CPU_CYCLES, 0);
	err |= ioc_u32(fd, ARMPMU_IOC_SET_DIVIDER, 0);
	err |= measure_loop(fd, SPIN_BIG, &c1);
	tap_errno(err, 0, "SET_DIVIDER 0, count a loop");
	err = ioc_u32(fd, ARMPMU_IOC_SET_DIVIDER, 1);
	tap_errno(err, 0, "SET_DIVIDER 1");
	err |= measure_loop(fd, SPIN_BIG, &c64);
	tap_note("divider 0: cycles %llu event %llu; divider 1: cycles %llu event %llu",
		 (ull)c1.cycles, (ull)c1.events[0], (ull)c64.cycles, (ull)c64.events[0]);
	if (icount) {
		/*
		 * The cycle counter takes one count each time the cycle count
		 * crosses a multiple of 64: from the same start and stop as
		 * the undivided CPU_CYCLES event, it counts E/64 rounded down
		 * or up (exactly E/64 when 64 divides E).
		 */
		int64_t d = (int64_t)(c64.cycles * 64) - (int64_t)c64.events[0];

		tap_check(!err && d > -64 && d < 64,
			  "icount: divided cycle counter * 64 within 64 of CPU_CYCLES (same run)",
			  "%s: cycles %llu * 64 = %llu, event %llu", tap_errname(err),
			  (ull)c64.cycles, (ull)c64.cycles * 64, (ull)c64.events[0]);
	} else {
		tap_check(!err && c64.cycles > 0 && c64.cycles * 56 <= c64.events[0] &&
			  c64.cycles * 72 >= c64.events[0],
			  "divided cycle counter is 1/64 of CPU_CYCLES (56x..72x, same run)",
			  "%s: cycles %llu, event %llu", tap_errname(err),
			  (ull)c64.cycles, (ull)c64.events[0]);
		/*
		 * Two runs follow host time: a stalled QEMU can make either one
		 * last longer. A stall only ever adds time, a wrong divider
		 * fails every pair: up to three pairs.
		 */
		for (tries = 1; !err && !divided(&c1, &c64) && tries < 3; tries++) {
			err = ioc_u32(fd, ARMPMU_IOC_SET_DIVIDER, 0);
			err |= measure_loop(fd, SPIN_BIG, &c1);
			err |= ioc_u32(fd, ARMPMU_IOC_SET_DIVIDER, 1);
			err |= measure_loop(fd, SPIN_BIG, &c64);
		}
		tap_check(!err && divided(&c1, &c64),
			  "same loop, divider 1 vs 0: 16x..256x fewer cycles",
			  "%s: divider 0 %llu, divider 1 %llu (pair %u of 3)", tap_errname(err),
			  (ull)c1.cycles, (ull)c64.cycles, tries);
	}
	err = ioc_u32(fd, ARMPMU_IOC_SET_DIVIDER, 0);
	err |= measure_loop(fd, SPIN_BIG, &c0);
	if (icount)
		tap_check(!err && c0.cycles == c0.events[0],
			  "SET_DIVIDER 0 again: cycle counter == CPU_CYCLES",
			  "%s: cycles %llu, event %llu", tap_errname(err),
			  (ull)c0.cycles, (ull)c0.events[0]);
	else
		tap_check(!err && within_pct(c0.cycles, c0.events[0], 1),
			  "SET_DIVIDER 0 again: cycle counter within 1% of CPU_CYCLES",
			  "%s: cycles %llu, event %llu", tap_errname(err),
			  (ull)c0.cycles, (ull)c0.events[0]);
	dev_close(&fd);
	/*
	 * Root's cycle counter also counts the kernel, interrupts included,
	 * which differ from run to run: two runs compare exactly in user mode
	 * only, without interrupts (CPU 0 free again for the child).
	 */
	if (icount)
		test_divider_exact();
}
