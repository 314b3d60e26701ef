// SPDX-License-Identifier: MIT
/*
 * Lab exercise 3: a loop before and after unrolling by four. Both hash the
 * same 16 Ki ints (h = h * 31 + x, a chain the compiler cannot reorder);
 * the unrolled loop pays its counter, compare and branch once per four
 * elements instead of once per element, so it retires fewer instructions.
 * The multiply chain is the same in both: on a real core cycles drop less
 * than instructions.
 *
 *   loop-unroll [EVENT...]   (default: cycles:u instructions:u)
 */
#include "exercise.h"

#define N (16 * 1024)
#define ROUNDS 4

static unsigned int data[N];

static unsigned int __attribute__((noinline)) rolled(void)
{
	unsigned int h = 0;

	for (int i = 0; i < N; i++)
		h = h * 31 + data[i];
	return h;
}

static unsigned int __attribute__((noinline)) unrolled(void)
{
	unsigned int h = 0;

	/* N is a multiple of 4: no remainder loop. */
	for (int i = 0; i < N; i += 4) {
		h = h * 31 + data[i];
		h = h * 31 + data[i + 1];
		h = h * 31 + data[i + 2];
		h = h * 31 + data[i + 3];
	}
	return h;
}

int main(int argc, char **argv)
{
	static const char *const defaults[] = { "cycles:u", "instructions:u", NULL };
	struct exercise ex = { .name = "loop-unroll" };
	unsigned int a = 0, b = 0;
	int before, after;

	for (int i = 0; i < N; i++)
		data[i] = (unsigned int)i * 2654435761U;
	if (exercise_start(&ex, argc, argv, defaults))
		return 1;
	before = pmudev_region(ex.regions, "rolled");
	after = pmudev_region(ex.regions, "unrolled");
	for (int k = 0; k < ROUNDS; k++) {
		pmudev_region_begin(ex.regions, before);
		a ^= rolled();
		pmudev_region_end(ex.regions, before);
		pmudev_region_begin(ex.regions, after);
		b ^= unrolled();
		pmudev_region_end(ex.regions, after);
	}
	exercise_end(&ex);
	return a != b;
}
