/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pmuctl stat's parts: running and counting (stat.c), the derived metrics
 * and -M's groups (stat-metrics.c), and the three output formats
 * (stat-output.c). The output is a pure function of a struct stat_run, so
 * that the host can test it with counts made up.
 */
#ifndef PMUCTL_STAT_H
#define PMUCTL_STAT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <pmudev.h>

#define MAX_EVENTS	(ARMPMU_MAX_COUNTERS + 1)
#define CALIBRATION_RUNS 3

#define EV_INST_RETIRED	0x08
#define EV_CPU_CYCLES	0x11

struct stat_group;

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
	double sum, sumsq;	/* over the runs, pmuctl's share taken off */
	uint64_t overhead;	/* pmuctl's own share of a run */
	bool below_overhead;	/* a run counted less than that */
};

/*
 * The open files of one measurement, their counts summed: one in task
 * mode for a command, one per thread for -p, one per CPU for -a.
 */
struct files {
	struct pmudev **pmu;
	int n, allocated;
};

struct stat_run {
	enum target target;
	int cpu;		/* TARGET_CPU */
	pid_t pid;		/* TARGET_PROCESS */
	int threads;		/* TARGET_PROCESS: the threads attached */
	struct files files;	/* CPU mode's and -p's: opened once for all runs */
	/* The specs that program a counter, to program each new file alike. */
	char *specs[MAX_EVENTS];
	int nspecs;
	struct counter counters[MAX_EVENTS];
	int ncounters;
	/* Default events this core does not implement, shown as such. */
	const char *unsupported[MAX_EVENTS];
	int nunsupported;
	const struct stat_group *group;	/* -M's, or NULL */
	struct armpmu_info info;	/* of the first file opened */
	bool events_known;		/* counters[] and info are set */
	int runs;
	int status;		/* the command's, as a shell reports it */
	int signal;		/* the signal that killed it, or 0 */
	bool calibrated;
	bool disturbed;
	bool interrupted;	/* -p: ended by SIGINT */
	bool workload_failed;	/* the command could not be executed */
	double elapsed;		/* seconds, summed over the runs */
	uint64_t time_enabled, time_running;	/* summed over runs and files */
};

/*
 * Whether @run's counts are numbers: counted for some of the time (a
 * count of 0% of it is perf's "<not counted>") and not disturbed.
 */
static inline bool stat_counted(const struct stat_run *run)
{
	return run->runs && run->time_running && !run->disturbed;
}

/* "Cortex-A72", or "unknown core". */
const char *stat_core_name(const struct armpmu_info *info);

/* ---- stat-metrics.c ---- */

/* A ratio of two counts, shown on the line of the count it is about. */
struct stat_metric {
	uint32_t on;		/* the event whose line shows it */
	uint32_t num, den;	/* its inputs, event numbers (cycles: 0x11) */
	double scale;		/* 1, or 1000 for "per 1000 instructions" */
	int digits;		/* after the decimal point */
	const char *unit;	/* "insn per cycle" */
};

/* The @index-th metric shown on counter @c's line, or NULL past the last. */
const struct stat_metric *stat_metric_of(const struct counter *c, unsigned int index);
/*
 * Metric @m's value in @run, if every count it needs was counted and can
 * be trusted (a denominator of 0 gives 0, as perf shows it).
 */
bool stat_metric_value(const struct stat_run *run, const struct stat_metric *m, double *value);

/* A named set of events for -M, whose metrics together make one idea. */
#define GROUP_MAX_EVENTS 6
struct stat_group {
	const char *name;
	const char *summary;
	const char *events[GROUP_MAX_EVENTS];	/* "cycles" is the cycle counter */
};

/* The group called @name (any case), or NULL. */
const struct stat_group *stat_group_find(const char *name);
/* Lists the groups, one a line, indented by @indent. */
void stat_groups_print(FILE *out, int indent);
/*
 * Whether the core @info describes can count group @g at once: it has
 * every event (else "-M stall: this Cortex-A53 has no STALL_FRONTEND,
 * STALL_BACKEND" in @why) and enough event counters. Returns 0 or
 * -ENOENT, -ENOSPC.
 */
int stat_group_check(const struct stat_group *g, const struct armpmu_info *info,
		     char *why, size_t len);

/* ---- stat-output.c ---- */

double stat_mean(const struct stat_run *run, const struct counter *c);
/* "SIGKILL (Killed)": signal @sig's name and the shell's word for it, in @buf. */
const char *stat_signal_name(int sig, char *buf, size_t len);
/* The human table, as perf stat prints it, with pmuctl's notes. */
void stat_print_table(FILE *out, const struct stat_run *run, char **cmd);
/*
 * perf stat -x SEP's fields, one line per count: value, unit, event,
 * [variance% with -r,] time counted (ns), percentage of time counted,
 * metric value, metric unit; a count's further metrics on lines of their
 * own with the first fields empty.
 */
void stat_print_separated(FILE *out, const struct stat_run *run, const char *sep);
/* perf stat -j: one JSON object per count, by perf's keys. */
void stat_print_json(FILE *out, const struct stat_run *run);

#endif /* PMUCTL_STAT_H */
