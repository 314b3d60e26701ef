/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pmuctl stat's counts and statistics (stat-counts.c): what a measurement
 * counted, summed over its runs and files, and what can be said of it:
 * means, their spread, the share of the time counted, whether the counts
 * are numbers at all. No device: the printers, and the host's unit tests,
 * work from a struct stat_run alone.
 *
 * pmuctl stat's files, lowest first, each calling only those before it:
 * stat-counts.c, stat-metrics.c (the metric tables), stat-output.c (the
 * printers), stat-workload.c (the command's process), stat-files.c (the
 * device's files), stat.c (the options and the run).
 */
#ifndef PMUCTL_STAT_COUNTS_H
#define PMUCTL_STAT_COUNTS_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include <pmudev.h>

/* The event counters, and the cycle counter. */
#define MAX_EVENTS	(ARMPMU_MAX_COUNTERS + 1)

#define EV_INST_RETIRED	0x08
#define EV_CPU_CYCLES	0x11

/* What is counted. */
enum target {
	TARGET_COMMAND,		/* the command, its threads and children (task mode) */
	TARGET_PROCESS,		/* -p: a running process's threads (task mode) */
	TARGET_CPU,		/* -C: everything on one CPU (CPU mode) */
	TARGET_ALL_CPUS,	/* -a: everything on every CPU (CPU mode) */
};

struct counter {
	unsigned int idx;	/* event counter, or ARMPMU_CYCLE_COUNTER */
	char name[96];		/* a copy: the file that named it may be closed */
	uint32_t event;		/* what it counts, for the metrics */
	double sum, sumsq;	/* over the runs */
};

/* One measurement: a command's runs, or a process, or CPUs. */
struct stat_run {
	enum target target;
	int cpu;		/* TARGET_CPU */
	pid_t pid;		/* TARGET_PROCESS */
	int threads;		/* TARGET_PROCESS: the threads attached */
	int cpus;		/* TARGET_ALL_CPUS: the CPUs counted */
	struct counter counters[MAX_EVENTS];
	int ncounters;
	/* Default events this core does not implement, shown as such. */
	const char *unsupported[MAX_EVENTS];
	int nunsupported;
	struct armpmu_info info;	/* of the first file opened */
	int runs;
	int status;		/* the command's, as a shell reports it */
	int signal;		/* the signal that killed it, or 0 */
	bool disturbed;
	bool exec_left;		/* a counted thread executed what may not be counted */
	bool interrupted;	/* -p: ended by SIGINT */
	double elapsed;		/* seconds, summed over the runs */
	uint64_t time_enabled, time_running;	/* summed over runs and files */
};

/* Adds one run's counts (the sum of its files') to @run. */
void stat_counts_add(struct stat_run *run, const struct armpmu_counts *counts);

/* @c's mean over the runs. */
double stat_counts_mean(const struct stat_run *run, const struct counter *c);
/* Its sample standard deviation, relative to the mean, in %. */
double stat_counts_rsd(const struct stat_run *run, const struct counter *c);
/* The share of the time counted, in %: 100 unless counts are incomplete. */
double stat_counts_coverage(const struct stat_run *run);
/* Whether the counters missed part of the time the threads ran. */
bool stat_counts_incomplete(const struct stat_run *run);
/*
 * Whether @run's counts are numbers: counted for some of the time (a
 * count of 0% of it is perf's "<not counted>"), not disturbed, and of
 * every program the command executed.
 */
bool stat_counts_numbers(const struct stat_run *run);
/* The first counter of @event, or NULL. */
const struct counter *stat_counts_counter(const struct stat_run *run, uint32_t event);

#endif /* PMUCTL_STAT_COUNTS_H */
