/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pmuctl stat --per-thread (stat-threads.c): each counted thread's own
 * counts, from the driver's (READ_THREADS), named comm-tid as perf names
 * them, each made a run of its own for the printers.
 *
 * The driver keeps a thread's totals after it exits, but not its name: the
 * names are read from /proc while the threads live, at every look
 * (stat_threads_look()), every STAT_THREADS_LOOK_MS as the run goes on. A thread that came and went
 * between two looks has no name to give: it is printed as "?-TID", never
 * under another thread's name.
 */
#ifndef PMUCTL_STAT_THREADS_H
#define PMUCTL_STAT_THREADS_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "stat-counts.h"
#include "stat-files.h"
#include "stat-workload.h"

/* How often the run looks for new threads' names, in ms. */
#define STAT_THREADS_LOOK_MS	10

struct stat_thread {
	pid_t tid;
	char comm[16];		/* "?" until seen alive */
	struct armpmu_thread counts;	/* its value[] below */
	uint64_t value[ARMPMU_MAX_COUNTERS];
};

struct stat_threads {
	struct stat_thread *t;
	int n, allocated;
	unsigned long long lost;	/* counted, but kept by no file */
	bool no_slots;		/* a file's threads have no event counts */
	int err;		/* the first look's error, or 0 */
	/* What to look at: the files, with the slots their run's counters use. */
	const struct stat_run *run;
	const struct stat_files *files;
};

/*
 * Whether @run's events can be counted per thread: refused (the usage
 * error's status) for a multiplexed file, whose threads the driver keeps
 * no event counts of; else 0.
 */
int stat_threads_check(const struct stat_run *run);
/*
 * Reads th->files' threads into @th, and names each that lives now; an
 * error (a negative errno) is kept in th->err. A tick of
 * stat_workload_wait_targets()'s waits, hence the void pointer.
 */
void stat_threads_look(void *th);
/* Looks every STAT_THREADS_LOOK_MS until @w's command ends (not reaped), and once then. */
void stat_threads_follow(struct stat_threads *th, struct stat_workload *w);
/*
 * One run per thread, made from @base (its counters, software lines and
 * elapsed time) in *@runs: task-clock, context-switches and cpu-migrations
 * from the driver's, page-faults dropped (no source per thread). Returns
 * how many, or -1 (out of memory).
 */
int stat_threads_runs(const struct stat_threads *th, const struct stat_run *base,
		      struct stat_run **runs);
/*
 * What the lines cannot show, on stderr: threads not kept (counted in no
 * line), threads whose name was never seen.
 */
void stat_threads_notes(const struct stat_threads *th);
void stat_threads_free(struct stat_threads *th);

/* The software events the driver counts for task-mode files' threads. */
#define STAT_THREADS_SOFTWARE	(1U << SW_TASK_CLOCK | 1U << SW_CONTEXT_SWITCHES | \
				 1U << SW_CPU_MIGRATIONS)
/*
 * @f's totals (READ_THREADS) in *@now, and those of @from
 * (STAT_THREADS_SOFTWARE's) since *@before (NULL: since the start) in
 * @u's values: 0, or a negative errno (@u untouched).
 */
int stat_threads_software(const struct stat_files *f, const struct armpmu_threads *before,
			  struct armpmu_threads *now, unsigned int from, struct stat_usage *u);

#endif /* PMUCTL_STAT_THREADS_H */
