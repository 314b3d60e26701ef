// SPDX-License-Identifier: MIT
/*
 * matrix rows|columns: sums a 256 x 256 matrix of ints row by row or column
 * by column, for `pmuctl stat` to compare. Row order walks memory
 * sequentially, so the compiler can load four elements at a time and a
 * real cache serves 16 per line; column order jumps 1 KiB per element, so
 * every load is its own, and on a real board most miss the cache.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#define N 256

static int m[N][N];

static long __attribute__((noinline)) sum_rows(void)
{
	long sum = 0;

	for (int i = 0; i < N; i++)
		for (int j = 0; j < N; j++)
			sum += m[i][j];
	return sum;
}

static long __attribute__((noinline)) sum_columns(void)
{
	long sum = 0;

	for (int j = 0; j < N; j++)
		for (int i = 0; i < N; i++)
			sum += m[i][j];
	return sum;
}

int main(int argc, char **argv)
{
	bool rows = argc == 2 && !strcmp(argv[1], "rows");

	if (argc != 2 || (!rows && strcmp(argv[1], "columns"))) {
		fprintf(stderr, "usage: matrix rows|columns\n");
		return 2;
	}
	for (int i = 0; i < N; i++)
		for (int j = 0; j < N; j++)
			m[i][j] = i ^ j;
	printf("%ld\n", rows ? sum_rows() : sum_columns());
	return 0;
}
