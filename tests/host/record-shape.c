// SPDX-License-Identifier: GPL-2.0
/*
 * record-shape: a host program for the perf.data writer's test
 * (tests/host/record-test): it says where its two functions are, then
 * waits for a line on stdin while the test reads its mappings and makes
 * up samples in them. With a LIBRARY, after that line it opens it
 * (dlopen), says where its late_work is, and waits for another.
 *
 *   record-shape [LIBRARY]
 */
#include <dlfcn.h>
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

int main(int argc, char **argv)
{
	char line[16];
	void *lib, *late;

	work_one();
	work_three();
	printf("%p %p\n", (void *)work_one, (void *)work_three);
	fflush(stdout);
	if (!fgets(line, sizeof(line), stdin))
		return 1;
	if (argc < 2)
		return 0;
	lib = dlopen(argv[1], RTLD_NOW);
	late = lib ? dlsym(lib, "late_work") : NULL;
	if (!late)
		return 1;
	printf("%p\n", late);
	fflush(stdout);
	return fgets(line, sizeof(line), stdin) ? 0 : 1;
}
