// SPDX-License-Identifier: MIT
/*
 * Lab exercise 1: a cache-friendly and a cache-hostile walk of the same
 * 2-D array. "rows" reads memory in order, so every cache line brought in
 * serves 16 ints; "columns" jumps a whole row (4 KiB) per read, so each
 * read wants a line of its own, and a 4 MiB array is larger than any
 * Raspberry Pi's L2 cache. One loop does both walks, told the steps: the
 * same instructions, the same sums, only the order of the reads differs.
 *
 *   cache-walk [EVENT...]   (default: cycles:u instructions:u L1D_CACHE:u
 *                            L1D_CACHE_REFILL:u; see examples/README.md)
 */
#include "exercise.h"

#define N 1024

static int m[N * N];

/* Element (i, j) of the walk is m[i * outer + j * inner]. */
static long __attribute__((noinline)) walk(long outer, long inner)
{
	long sum = 0;

	for (long i = 0; i < N; i++)
		for (long j = 0; j < N; j++)
			sum += m[i * outer + j * inner];
	return sum;
}

static long by_rows(void)
{
	return walk(N, 1);
}

static long by_columns(void)
{
	return walk(1, N);
}

int main(int argc, char **argv)
{
	static const char *const defaults[] = {
		"cycles:u", "instructions:u", "L1D_CACHE:u", "L1D_CACHE_REFILL:u", NULL,
	};
	struct exercise ex = { .name = "cache-walk" };

	for (int i = 0; i < N * N; i++)
		m[i] = (i / N) ^ (i % N);
	if (exercise_start(&ex, argc, argv, defaults))
		return 1;
	return exercise_compare(&ex, 1, "rows", by_rows, "columns", by_columns);
}
