// SPDX-License-Identifier: MIT
/*
 * Lab exercise 2: a predictable and an unpredictable branch. The same
 * 64 Ki random bytes are summed where they are at least 128, once sorted
 * (the branch goes one way, then the other: the predictor learns it) and
 * once in random order (a coin toss each time). The same instructions
 * retire in both; on a real core the random order costs mispredictions,
 * and each one a pipeline refill.
 *
 *   branch-predict [EVENT...]   (default: cycles:u instructions:u
 *                                BR_MIS_PRED:u BR_PRED:u)
 */
#include <stdlib.h>

#include "exercise.h"

#define N (64 * 1024)
#define ROUNDS 4

static unsigned char random_order[N], sorted[N];

/* The empty asm keeps a real branch: without it the compiler may select. */
static long __attribute__((noinline)) sum_big(const unsigned char *v)
{
	long sum = 0;

	for (int i = 0; i < N; i++) {
		if (v[i] >= 128) {
			sum += v[i];
			__asm__ volatile("" ::: "memory");
		}
	}
	return sum;
}

static int by_value(const void *a, const void *b)
{
	return *(const unsigned char *)a - *(const unsigned char *)b;
}

static long in_order(void)
{
	return sum_big(sorted);
}

static long at_random(void)
{
	return sum_big(random_order);
}

int main(int argc, char **argv)
{
	static const char *const defaults[] = {
		"cycles:u", "instructions:u", "BR_MIS_PRED:u", "BR_PRED:u", NULL,
	};
	struct exercise ex = { .name = "branch-predict" };

	srand(1);
	for (int i = 0; i < N; i++)
		random_order[i] = sorted[i] = (unsigned char)(rand() >> 7);
	qsort(sorted, N, 1, by_value);
	if (exercise_start(&ex, argc, argv, defaults))
		return 1;
	return exercise_compare(&ex, ROUNDS, "sorted", in_order, "random", at_random);
}
