// SPDX-License-Identifier: MIT
/*
 * Lab exercise 1: a cache-friendly and a cache-hostile walk of the same
 * 2-D array. "rows" reads memory in order, so every cache line brought in
 * serves 16 ints; "columns" jumps a whole row (4 KiB) per read, so each
 * read wants a line of its own, and a 4 MiB array is larger than any
 * Raspberry Pi's L2 cache. Same sums, same number of reads.
 *
 *   cache-walk [EVENT...]   (default: cycles:u instructions:u L1D_CACHE:u
 *                            L1D_CACHE_REFILL:u; see examples/README.md)
 */
#include "exercise.h"

#define N 1024

static int m[N][N];

static long __attribute__((noinline)) by_rows(void)
{
	long sum = 0;

	for (int i = 0; i < N; i++)
		for (int j = 0; j < N; j++)
			sum += m[i][j];
	return sum;
}

static long __attribute__((noinline)) by_columns(void)
{
	long sum = 0;

	for (int j = 0; j < N; j++)
		for (int i = 0; i < N; i++)
			sum += m[i][j];
	return sum;
}

int main(int argc, char **argv)
{
	static const char *const defaults[] = {
		"cycles:u", "instructions:u", "L1D_CACHE:u", "L1D_CACHE_REFILL:u", NULL,
	};
	struct exercise ex = { .name = "cache-walk" };
	int rows, columns;
	long a, b;

	for (int i = 0; i < N; i++)
		for (int j = 0; j < N; j++)
			m[i][j] = i ^ j;
	if (exercise_start(&ex, argc, argv, defaults))
		return 1;
	rows = pmudev_region(ex.regions, "rows");
	columns = pmudev_region(ex.regions, "columns");
	pmudev_region_begin(ex.regions, rows);
	a = by_rows();
	pmudev_region_end(ex.regions, rows);
	pmudev_region_begin(ex.regions, columns);
	b = by_columns();
	pmudev_region_end(ex.regions, columns);
	exercise_end(&ex);
	return a != b;
}
