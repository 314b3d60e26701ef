// SPDX-License-Identifier: GPL-2.0
/*
 * What the topics of libpmudev-test share (common.h): the boards, the state
 * the options set, and the helpers more than one topic uses.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "common.h"

static const struct board boards[] = {
	{ "cortex-a7", "Cortex-A7", 4 },
	{ "cortex-a15", "Cortex-A15", 6 },
	{ "cortex-a53", "Cortex-A53", 6 },
	{ "cortex-a72", "Cortex-A72", 6 },
	{ "max", NULL, 6 },
};

const struct board *board;
bool icount;
unsigned int ncpus;
cpu_set_t start_affinity;

const struct board *find_board(const char *name)
{
	for (size_t i = 0; i < sizeof(boards) / sizeof(boards[0]); i++)
		if (!strcmp(name, boards[i].name))
			return &boards[i];
	return NULL;
}

bool affinity_is(const cpu_set_t *want)
{
	cpu_set_t now;

	return !sched_getaffinity(0, sizeof(now), &now) && CPU_EQUAL(&now, want);
}

bool pinned_to(int cpu)
{
	cpu_set_t one;

	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	return affinity_is(&one) && sched_getcpu() == cpu;
}

/* A region around loop_n(@n): the same instructions whatever @n is. */
__attribute__((noinline)) int measure(struct pmudev_regions *regions, int id, unsigned long n)
{
	int err = pmudev_region_begin(regions, id);

	loop_n(n);
	return err ? err : pmudev_region_end(regions, id);
}

/* pmudev_regions_print() into a string (free it); its result in *@ret. */
char *print_to_string(struct pmudev_regions *regions, enum pmudev_format format, int *ret)
{
	char *text = NULL;
	size_t size;
	FILE *f = open_memstream(&text, &size);

	if (!f) {
		*ret = -errno;
		return NULL;
	}
	*ret = pmudev_regions_print(regions, f, format);
	fclose(f);
	return text;
}
