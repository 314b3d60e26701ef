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
};

/*
 * Parses pmuctl stat's options into @o, @run's target and @ev. Returns 0
 * to go on, or the exit status of a usage error; --help and -M list print
 * and exit.
 */
int stat_options_parse(int argc, char **argv, struct stat_options *o, struct stat_run *run,
		       struct stat_events *ev);

#endif /* PMUCTL_STAT_OPTIONS_H */
