// SPDX-License-Identifier: GPL-2.0
/*
 * dlopen-work LIBRARY N: a dynamic program (the guest's glibc) that works
 * in a loop of its own, before_open, for N/3 rounds, then dlopen()s
 * LIBRARY and calls its late_work for N rounds: a library the program
 * maps after it has started, where it spends most of its time.
 * tests/guest/record-test.sh records it with pmuctl record, which must
 * find the library in a later look at /proc/PID/maps and name it.
 *
 * Its rounds take about 0.1 s per 10^7 on an emulated board:
 * before_open outlasts pmuctl record's first looks at the mappings (it
 * looks every 50 ms at most).
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

static volatile unsigned long before_sink;

/* Its own loop, so its samples are its own (not a shared helper's). */
static __attribute__((noinline)) void before_open(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		before_sink += i;
}

int main(int argc, char **argv)
{
	void (*late_work)(unsigned long);
	unsigned long n;
	void *lib;

	if (argc != 3) {
		fprintf(stderr, "usage: dlopen-work LIBRARY N\n");
		return 2;
	}
	n = strtoul(argv[2], NULL, 10);
	before_open(n / 3);
	lib = dlopen(argv[1], RTLD_NOW);
	if (!lib) {
		fprintf(stderr, "dlopen-work: %s\n", dlerror());
		return 1;
	}
	/* POSIX's way from dlsym's object pointer to a function pointer. */
	*(void **)&late_work = dlsym(lib, "late_work");
	if (!late_work) {
		fprintf(stderr, "dlopen-work: %s\n", dlerror());
		return 1;
	}
	late_work(n);
	dlclose(lib);
	return 0;
}
