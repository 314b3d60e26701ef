/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The few instructions the tests need to control exactly: a loop whose
 * instruction count is known, and a direct user-mode read of the cycle
 * counter (which must trap: the driver never opens the PMU to user mode).
 */
#ifndef ARMPMU_TESTS_PMU_ASM_H
#define ARMPMU_TESTS_PMU_ASM_H

#include <stdint.h>

/* Instructions retired by each trip of loop_n()'s loop. */
#define LOOP_INSNS_PER_ITER	2

/*
 * Runs exactly LOOP_INSNS_PER_ITER * n instructions more than loop_n(0):
 * a test-and-branch that skips the loop for n == 0 (executed whatever n is),
 * then `subs; bne` n times. noinline, so that the code around a call is the
 * same for every n.
 */
#if defined(__aarch64__)
static __attribute__((noinline)) void loop_n(unsigned long n)
{
	__asm__ volatile(
		"	cbz	%0, 2f\n"
		"1:	subs	%0, %0, #1\n"
		"	b.ne	1b\n"
		"2:\n"
		: "+r"(n)
		:
		: "cc");
}
#elif defined(__arm__)
/* Valid as ARM and as Thumb-2 (armhf's default) in unified syntax. */
static __attribute__((noinline)) void loop_n(unsigned long n)
{
	__asm__ volatile(
		"	cmp	%0, #0\n"
		"	beq	2f\n"
		"1:	subs	%0, %0, #1\n"
		"	bne	1b\n"
		"2:\n"
		: "+r"(n)
		:
		: "cc");
}
#else
#error "armpmu tests run on 32-bit ARM or AArch64"
#endif

/* The cycle counter, read from user mode: SIGILL unless PMUSERENR allows. */
static inline uint64_t user_read_pmccntr(void)
{
#if defined(__aarch64__)
	uint64_t v;

	__asm__ volatile("mrs %0, pmccntr_el0" : "=r"(v));
	return v;
#else
	uint32_t v;

	__asm__ volatile("mrc p15, 0, %0, c9, c13, 0" : "=r"(v));
	return v;
#endif
}

/* What the program was built as, for the compat lane's self-check. */
#if defined(__aarch64__)
#define TEST_BUILD_ARCH		"aarch64"
#elif defined(__thumb2__)
#define TEST_BUILD_ARCH		"arm (Thumb-2)"
#else
#define TEST_BUILD_ARCH		"arm"
#endif

#endif /* ARMPMU_TESTS_PMU_ASM_H */
