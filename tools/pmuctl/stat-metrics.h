/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pmuctl stat's metric tables (stat-metrics.c): the ratios shown beside a
 * count, as perf stat shows them, and -M's named groups of events, each
 * chosen so that its metrics come out.
 */
#ifndef PMUCTL_STAT_METRICS_H
#define PMUCTL_STAT_METRICS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "stat-counts.h"

/* How a metric is made from its counts. */
enum stat_metric_kind {
	METRIC_RATIO,		/* num / den */
	METRIC_STALLS,		/* num / den, the top-down share: --topdown's only */
	METRIC_RETIRING,	/* top-down: INST_RETIRED / INST_SPEC x (1 - stalls / cycles) */
	METRIC_BAD_SPEC,	/* top-down: (1 - INST_RETIRED / INST_SPEC) x (1 - stalls / cycles) */
};

/* A metric of counts, shown on the line of the count it is about. */
struct stat_metric {
	uint32_t on;		/* the event whose line shows it */
	uint32_t num, den;	/* its inputs, event numbers (cycles: 0x11) */
	double scale;		/* 1, or 1000 for "per 1000 instructions", 100 for % */
	int digits;		/* after the decimal point */
	const char *unit;	/* "insn per cycle" */
	enum stat_metric_kind kind;
};

/* A metric's den: the clock printed (task-clock, else cpu-clock), in ms. */
#define STAT_METRIC_CLOCK	0xffffffffU

/* The @index-th metric shown on counter @c's line, or NULL past the last. */
const struct stat_metric *stat_metric_of(const struct counter *c, unsigned int index);
/*
 * Metric @m's value on counter @on's line of @run, if every count it needs
 * was counted, in @on's mode (perf's rule: instructions:k over cycles:k,
 * never over cycles:u), and can be trusted (a denominator of 0 gives 0,
 * as perf shows it).
 */
bool stat_metric_value(const struct stat_run *run, const struct counter *on,
		       const struct stat_metric *m, double *value);

/*
 * --topdown's level 1 on the Cortex-A76 (Raspberry Pi 5), from Arm's
 * top-down methodology for the Neoverse N1 (the A76's server sibling),
 * with the events the A76 has, for pmuctl explain: NULL-terminated lines.
 */
extern const char *const stat_metric_topdown_text[];

/* A named set of events for -M, whose metrics together make one idea. */
#define GROUP_MAX_EVENTS 6
struct stat_group {
	const char *name;
	const char *summary;
	const char *events[GROUP_MAX_EVENTS];	/* "cycles" is the cycle counter */
	const char *core;	/* the one core it is made for ("Cortex-A76"), or NULL */
};

/* The group called @name (any case), or NULL. */
const struct stat_group *stat_metric_group(const char *name);
/* Lists the groups, one a line, indented by @indent. */
void stat_metric_groups_print(FILE *out, int indent);
/*
 * Whether the core @info describes can count group @g at once: it has
 * every event (else "-M stall: this Cortex-A53 has no STALL_FRONTEND,
 * STALL_BACKEND" in @why) and enough event counters; @why names the
 * group @as, as the user typed it (perf's "Default"), or by its own name
 * if @as is NULL or empty. Returns 0 or -ENOENT, -ENOSPC.
 */
int stat_metric_group_check(const struct stat_group *g, const char *as,
			    const struct armpmu_info *info, char *why, size_t len);

#endif /* PMUCTL_STAT_METRICS_H */
