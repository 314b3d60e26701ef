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

static long __attribute__((noinline)) rolled(void)
{
	unsigned int h = 0;

	for (int i = 0; i < N; i++)
		h = h * 31 + data[i];
	return h;
}

static long __attribute__((noinline)) unrolled(void)
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

	for (int i = 0; i < N; i++)
		data[i] = (unsigned int)i * 2654435761U;
	if (exercise_start(&ex, argc, argv, defaults))
		return 1;
	return exercise_compare(&ex, ROUNDS, "rolled", rolled, "unrolled", unrolled);
}
