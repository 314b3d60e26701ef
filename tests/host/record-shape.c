// SPDX-License-Identifier: GPL-2.0
/*
 * record-shape: a host program for the perf.data writer's test
 * (tests/host/record-test): it says where its two functions are, then
 * waits for a line on stdin while the test reads its mappings and makes
 * up samples in them.
 */
#include <stdio.h>

volatile unsigned long sink;

__attribute__((noinline)) void work_one(void)
{
	for (int i = 0; i < 1000; i++)
		sink += (unsigned long)i;
}

__attribute__((noinline)) void work_three(void)
{
	for (int i = 0; i < 3000; i++)
		sink += (unsigned long)i;
}

int main(void)
{
	char line[16];

	work_one();
	work_three();
	printf("%p %p\n", (void *)work_one, (void *)work_three);
	fflush(stdout);
	return fgets(line, sizeof(line), stdin) ? 0 : 1;
}
