/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pmuctl stat --passes (stat-passes.c): more events than the core has
 * counters, counted exactly rather than estimated, by running the command
 * once per set of events that fits the counters ({} groups kept whole),
 * each pass also counting a reference, INST_RETIRED in the events' mode,
 * whose counts must agree for the passes to describe one program. The
 * plan, and the passes' counts put back together in -e's order; the runs
 * themselves are stat.c's.
 */
#ifndef PMUCTL_STAT_PASSES_H
#define PMUCTL_STAT_PASSES_H

#include <stddef.h>

#include "stat-counts.h"
#include "stat-events.h"

#define MAX_PASSES	MAX_EVENTS

struct stat_pass {
	struct stat_events events;	/* this pass's specs, then the reference if needed */
	int of[MAX_EVENTS + 1];		/* each spec's index in -e's list; -1: the reference */
	int reference;			/* the spec that counts the reference, or -1 */
};

struct stat_passes {
	struct stat_pass pass[MAX_PASSES];
	int n;
	char reference[16];		/* the reference's spec ("0x8:u"); "": none */
	char reference_name[24];	/* as printed ("INST_RETIRED:u") */
	uint32_t reference_flags;	/* its ARMPMU_EXCLUDE_* */
};

/*
 * Splits @ev's events into passes on the core @info describes: in -e's
 * order, each pass filled while its event counters (one kept for the
 * reference unless the pass has INST_RETIRED in the same mode) and the
 * cycle counter last. Returns 0, or EXIT_FAILURE with why said (an event
 * the core lacks, a group larger than the counters).
 */
int stat_passes_plan(const struct stat_events *ev, const struct armpmu_info *info,
		     struct stat_passes *p);
/*
 * Puts the passes' @runs together (each run with its pass's events as
 * stat-files.c left them: their programmed[] filled) into @out (a copy of the first, the
 * counters in -e's order, status and flags of all), and in @out's pass
 * fields the reference's counts. Returns whether they agree.
 */
bool stat_passes_merge(const struct stat_passes *p, const struct stat_run *runs,
		       struct stat_run *out);

#endif /* PMUCTL_STAT_PASSES_H */
