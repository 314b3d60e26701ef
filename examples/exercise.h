/* SPDX-License-Identifier: MIT */
/*
 * What the lab exercises (cache-walk, branch-predict, loop-unroll) share:
 * open the device in task mode, add the events given on the command line
 * or the exercise's defaults, and count two named regions. A default event
 * the core does not count is left out with a note (QEMU's boards report
 * few); an event asked for by name must work. See examples/README.md.
 */
#ifndef EXERCISE_H
#define EXERCISE_H

#include <stdio.h>
#include <string.h>

#include <pmudev.h>

struct exercise {
	const char *name;
	struct pmudev *pmu;
	struct pmudev_regions *regions;
};

static int exercise_fail(const struct exercise *ex, const char *what, int err)
{
	fprintf(stderr, "%s: %s: %s\n", ex->name, what, pmudev_strerror(err));
	return 1;
}

static int exercise_add(struct exercise *ex, const char *spec, int required)
{
	char why[200];
	int err = pmudev_add_event(ex->pmu, spec);

	if (err >= 0)
		return 0;
	if (pmudev_event_error(spec, pmudev_info(ex->pmu), why, sizeof(why)) && !required) {
		fprintf(stderr, "%s: not counted: %s\n", ex->name, why);
		return 0;
	}
	if (*why)
		fprintf(stderr, "%s: %s\n", ex->name, why);
	return exercise_fail(ex, spec, err);
}

/*
 * Opens, adds argv[1..] (or @defaults, NULL-terminated) and starts the
 * regions. Returns 0, or 1 after a message.
 */
static int exercise_start(struct exercise *ex, int argc, char **argv,
			  const char *const *defaults)
{
	int err = pmudev_open(&ex->pmu, PMUDEV_CPU_ANY, 0);

	if (err)
		return exercise_fail(ex, "open", err);
	for (int i = 1; i < argc; i++)
		if (exercise_add(ex, argv[i], 1))
			return 1;
	for (int i = 0; argc < 2 && defaults[i]; i++)
		if (exercise_add(ex, defaults[i], 0))
			return 1;
	err = pmudev_regions_new(ex->pmu, &ex->regions);
	return err ? exercise_fail(ex, "regions", err) : 0;
}

/*
 * Runs @first and @second @rounds times each, in turn, each in the region
 * of its name; prints the regions' table and closes. Returns 0 if the two
 * gave the same result (each version must compute the same thing), else 1.
 */
static int exercise_compare(struct exercise *ex, int rounds,
			    const char *first, long (*a)(void),
			    const char *second, long (*b)(void))
{
	int ra = pmudev_region(ex->regions, first);
	int rb = pmudev_region(ex->regions, second);
	long sum_a = 0, sum_b = 0;

	for (int k = 0; k < rounds; k++) {
		pmudev_region_begin(ex->regions, ra);
		sum_a += a();
		pmudev_region_end(ex->regions, ra);
		pmudev_region_begin(ex->regions, rb);
		sum_b += b();
		pmudev_region_end(ex->regions, rb);
	}
	pmudev_regions_print(ex->regions, stdout, PMUDEV_FORMAT_TABLE);
	pmudev_regions_free(ex->regions);
	pmudev_close(ex->pmu);
	if (sum_a == sum_b)
		return 0;
	fprintf(stderr, "%s: %s and %s disagree: %ld against %ld\n", ex->name, first,
		second, sum_a, sum_b);
	return 1;
}

#endif /* EXERCISE_H */
