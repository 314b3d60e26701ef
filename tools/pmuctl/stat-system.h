/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pmuctl stat -a's software counts (stat-system.c): what the whole system
 * did while the CPUs were counted, from the kernel's own totals in /proc
 * (context switches, page faults), as perf's -a prints them. Only -a: /proc
 * keeps no such count per CPU, so -C has none of these lines.
 */
#ifndef PMUCTL_STAT_SYSTEM_H
#define PMUCTL_STAT_SYSTEM_H

#include <stdint.h>

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
 * CPU @cpu's place in the topology, as sysfs gives it (its topology
 * folder): socket, core and cluster IDs, each 0 where sysfs has none.
 */
void stat_system_topology(int cpu, int *socket, int *core, int *cluster);

/*
 * --per-core, --per-cluster, --per-socket (@aggr 1, 2, 3: enum
 * stat_aggr's): @n runs of one CPU each (line_cpu) summed by the CPUs'
 * place in the topology, in place. Returns how many are left.
 */
int stat_system_aggregate(struct stat_run *runs, int n, int aggr);

#endif /* PMUCTL_STAT_SYSTEM_H */
