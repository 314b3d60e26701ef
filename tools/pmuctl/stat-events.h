/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pmuctl stat's events (stat-events.c): -e's list taken apart as perf
 * takes it apart, by libpmudev's event lists (pmudev_event_list_add()):
 * groups "{a,b}" (with a modifier for all of them after the brace),
 * perf's PMU syntax "PMU/event=0xNN/" for the PMU names Linux's perf
 * gives these cores and "cpu", modifiers that cannot apply refused naming
 * why, and perf's software events (task-clock, context-switches,
 * page-faults), which pmuctl measures from the command's resource usage,
 * not from the device.
 */
#ifndef PMUCTL_STAT_EVENTS_H
#define PMUCTL_STAT_EVENTS_H

#include <stdbool.h>

#include "spec.h"
#include "stat-counts.h"
#include "stat-metrics.h"

/* What to count: the events asked for, and how the first file took them. */
struct stat_events {
	char *specs[MAX_EVENTS + 1];	/* for libpmudev, in -e's then -M's order */
	const char *names[MAX_EVENTS + 1];	/* as typed, for PMU syntax; else NULL */
	const char *pmu_core[MAX_EVENTS + 1];	/* the core a PMU name is of ("cortex-a72"), or NULL */
	int group_of[MAX_EVENTS + 1];	/* {...}: 1 and up; 0 alone */
	int nspecs, ngroups;
	char rewritten[MAX_EVENTS + 1][48];	/* --all-user's, --all-kernel's specs; a pass's copies */
	char moded_names[MAX_EVENTS + 1][112];	/* --all-user's, --all-kernel's names */
	bool verbose;			/* -v: why an event is <not supported> */
	unsigned int software;		/* 1 << enum stat_software: asked for */
	const struct stat_group *group;	/* -M's, or NULL */
	char group_as[32];		/* -M's group as typed (perf's name: "Default") */
	char group_specs[GROUP_MAX_EVENTS][48];	/* -M's events, with its modifier */
	/* The specs that got a counter in the first file: a later one gets the same. */
	char *programmed[MAX_EVENTS];
	int programmed_group[MAX_EVENTS];	/* their group_of[] */
	int nprogrammed;
	bool known;			/* programmed[], and the run's counters and info */
};

/*
 * Adds -e's comma-separated list @arg (taken apart in place) to @ev.
 * Returns 0, or the exit status of a usage error, said.
 */
int stat_events_add(struct stat_events *ev, char *arg);

/*
 * Whether @ev suits the core @info describes: each PMU name is its
 * PMU's, and each group fits its counters (a group is counted together,
 * or not at all). Returns 0, or EXIT_FAILURE, said.
 */
int stat_events_check(const struct stat_events *ev, const struct armpmu_info *info);

/*
 * --all-user, --all-kernel: each event without a modifier gets @mode ('u'
 * or 'k'), as perf gives it. Returns 0, or the usage error's status.
 */
int stat_events_all_modes(struct stat_events *ev, char mode);

/* The name of software event @sw as perf prints it ("task-clock"). */
const char *stat_events_software_name(enum stat_software sw);

#endif /* PMUCTL_STAT_EVENTS_H */
