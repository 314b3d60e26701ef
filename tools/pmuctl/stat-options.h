/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pmuctl stat's options (stat-options.c): perf stat's, parsed into what
 * to count (the events, the target) and how to print it; --help.
 */
#ifndef PMUCTL_STAT_OPTIONS_H
#define PMUCTL_STAT_OPTIONS_H

#include <stdbool.h>

#include "stat-counts.h"
#include "stat-events.h"

/* perf's aggregation of CPU-mode counts by topology. */
enum stat_aggr {
	AGGR_NONE,		/* every CPU summed (or -A: each apart) */
	AGGR_CORE,		/* --per-core */
	AGGR_CLUSTER,		/* --per-cluster */
	AGGR_SOCKET,		/* --per-socket */
};

/* The options that are not the measurement's; argv[optind] on is the command. */
struct stat_options {
	int repeat;
	char *sep, *output;
	bool json, append;
	bool no_aggr;		/* -A: a line per CPU */
	int interval_ms;	/* -I, or 0 */
	int delay_ms;		/* -D, or 0 */
	bool passes;		/* --passes: a run of the command per set of events that fits */
	bool per_thread;	/* --per-thread: a line per thread and event */
	int detailed;		/* -d, -dd, -ddd: perf's detailed events' levels */
	bool quiet;		/* --quiet: no counts printed */
	int interval_count;	/* --interval-count: intervals to print, or 0 */
	bool interval_clear;	/* --interval-clear: a clear screen before each */
	int timeout_ms;		/* --timeout, or 0 */
	const char *pre, *post;	/* --pre, --post: shell commands around each run */
	bool table;		/* --table: each run's elapsed time */
	bool summary;		/* --summary: -I's totals at the end */
	bool no_csv_summary;	/* --no-csv-summary: with -x, no "summary" field first */
	int log_fd;		/* --log-fd, or -1 */
	char all_mode;		/* --all-user 'u', --all-kernel 'k', or 0 */
	bool null_run;		/* -n: nothing counted, the time alone */
	enum stat_aggr aggr;	/* --per-core, --per-socket, --per-cluster */
	bool system_wide;	/* no command, no target: -a until Ctrl-C, as perf */
};

/*
 * Parses pmuctl stat's options into @o, whom to count (@target), how to
 * show the counts (@config) and what to count (@ev). Returns 0 to go on,
 * or the exit status of a usage error; --help and -M list print and exit.
 */
int stat_options_parse(int argc, char **argv, struct stat_options *o, struct stat_target *target,
		       struct stat_config *config, struct stat_events *ev);

/*
 * What is counted without -e: perf's default events and the software
 * lines pmuctl has a source for, for @target; then -d's events and
 * --all-user's or --all-kernel's modes. 0, or the usage error's status.
 */
int stat_options_defaults(const struct stat_options *o, const struct stat_target *target,
			  struct stat_config *config, struct stat_events *ev);

#endif /* PMUCTL_STAT_OPTIONS_H */
