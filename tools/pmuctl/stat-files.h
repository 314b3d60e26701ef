/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pmuctl stat's files of the device (stat-files.c): opened, attached or
 * bound, programmed alike with the events asked for, then started,
 * stopped and read together, their counts summed: one in task mode for a
 * command, one per thread for -p, one per CPU for -a.
 */
#ifndef PMUCTL_STAT_FILES_H
#define PMUCTL_STAT_FILES_H

#include <stdbool.h>
#include <pmudev.h>

#include "stat-counts.h"
#include "stat-metrics.h"

struct stat_files {
	struct pmudev **pmu;
	int n, allocated;
};

/* What to count: the events asked for, and how the first file took them. */
struct stat_events {
	char *specs[MAX_EVENTS + 1];	/* -e's, then -M's, in order */
	int nspecs;
	bool defaults;			/* the defaults: one the core lacks is <not supported> */
	const struct stat_group *group;	/* -M's, or NULL */
	char group_specs[GROUP_MAX_EVENTS][48];	/* -M's events, with its modifier */
	/* The specs that got a counter in the first file: a later one gets the same. */
	char *programmed[MAX_EVENTS];
	int nprogrammed;
	bool known;			/* programmed[], and the run's counters and info */
};

/*
 * Task mode for a command: a file attached to its held process @pid with
 * FOLLOW (its threads and children too) and ENABLE_ON_EXEC (START arms
 * it; counting starts in the exec, where perf's enable_on_exec starts),
 * and programmed. Returns 0, or the exit status, said.
 */
int stat_files_open_command(struct stat_files *f, pid_t pid, struct stat_events *ev,
			    struct stat_run *run);
/*
 * -p: a file attached with FOLLOW to each thread of run->pid, as /proc
 * lists them, twice over (a thread created before its creator was
 * attached); run->threads says how many. Returns 0, or the exit status.
 */
int stat_files_open_process(struct stat_files *f, struct stat_events *ev, struct stat_run *run);
/*
 * CPU mode: -C's CPU (this process pinned there), or -a's every online
 * CPU (nothing pinned; run->cpus says how many). Returns 0, or the exit
 * status.
 */
int stat_files_open_cpus(struct stat_files *f, struct stat_events *ev, struct stat_run *run);

/* @op on every file, in order: 0, or the first negative errno. */
int stat_files_each(const struct stat_files *f, int (*op)(struct pmudev *));
/* The files' counts summed into @sum: 0, -EIO if any was disturbed, or another errno. */
int stat_files_read(const struct stat_files *f, struct armpmu_counts *sum);
void stat_files_close(struct stat_files *f);

#endif /* PMUCTL_STAT_FILES_H */
