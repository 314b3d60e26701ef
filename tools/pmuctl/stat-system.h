/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pmuctl stat's software counts from /proc (stat-system.c): what the whole
 * system did while the CPUs were counted, from the kernel's own totals
 * (context switches, page faults), as perf's -a prints them (only -a: /proc
 * keeps no such count per CPU, so -C has none of these lines); and the page
 * faults of counted processes as they run (-I, -p, -t), which the driver
 * does not count.
 */
#ifndef PMUCTL_STAT_SYSTEM_H
#define PMUCTL_STAT_SYSTEM_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "stat-counts.h"

/* The system's totals since boot. */
struct stat_system {
	uint64_t ctxt;			/* /proc/stat's ctxt: context switches */
	uint64_t pgfault, pgmajfault;	/* /proc/vmstat's: page faults, the major ones */
};

/* Reads the totals now: 0, or -errno (said). */
int stat_system_read(struct stat_system *s);
/* @after less @before as perf's software counts, into @u's values. */
void stat_system_delta(const struct stat_system *before, const struct stat_system *after,
		       struct stat_usage *u);

/*
 * The page faults of running processes, as perf's page-faults of a task:
 * of each process (-p, a command) every thread's, live or gone, and its
 * reaped children's (/proc/PID/stat's minflt, cminflt, majflt, cmajflt);
 * of each thread (-t) its own (/proc/PID/task/TID/stat). A target gone
 * (exited and reaped) keeps the totals of its last look.
 */
struct stat_faults {
	pid_t pid[MAX_TARGETS];
	int n;
	bool threads;			/* -t: each pid a thread, its own faults */
	uint64_t minor[MAX_TARGETS], major[MAX_TARGETS];	/* at the last look */
};

/* @f for @n targets @pids (@threads: -t's), none looked at yet. */
void stat_system_faults_init(struct stat_faults *f, const pid_t *pids, int n, bool threads);
/* Looks at each target now, keeping the last totals of those gone: how many were read. */
int stat_system_faults_look(struct stat_faults *f);
/* @after less @before as page-faults, minor-faults and major-faults, into @u's values. */
void stat_system_faults_delta(const struct stat_faults *before, const struct stat_faults *after,
			      struct stat_usage *u);

/*
 * CPU @cpu's place in the topology, as sysfs gives it (its topology
 * folder): socket, core and cluster IDs, each 0 where sysfs has none.
 */
void stat_system_topology(int cpu, int *socket, int *core, int *cluster);

/*
 * --per-core, --per-cluster, --per-socket (@aggr 1, 2, 3: enum
 * stat_aggr's): @n runs of one CPU each (where.line_cpu) summed by the CPUs'
 * place in the topology, in place. Returns how many are left.
 */
int stat_system_aggregate(struct stat_run *runs, int n, int aggr);

#endif /* PMUCTL_STAT_SYSTEM_H */
