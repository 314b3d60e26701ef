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

#endif /* PMUCTL_STAT_SYSTEM_H */
