/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pmuctl stat's command (stat-workload.c), as perf's workload: found in
 * PATH, forked and held on a pipe while its counters are set up, then
 * released to execute it; waited for, and its end said as a shell says
 * it. A command that cannot be executed gets perf's words, a shell's
 * status (127, 126), and no counts.
 */
#ifndef PMUCTL_STAT_WORKLOAD_H
#define PMUCTL_STAT_WORKLOAD_H

#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <sys/resource.h>
#include <sys/types.h>

#include "stat-counts.h"

struct stat_workload {
	char **argv;		/* the command and its arguments */
	char path[4096];	/* its file, as PATH has it */
	pid_t pid;		/* the child, held or running */
	int release_fd;		/* a byte here releases it */
	int error_fd;		/* its exec's errno, or end of file */
	int error_wr;		/* the write end, held until the child is gone */
	struct rusage *before_exec;	/* shared: the held child's usage, before its exec */
};

/*
 * Finds @argv's command in PATH, as a shell does, before anything is
 * counted: 0, or "Workload failed" said and 127 (not found) or 126 (not
 * executable) returned.
 */
int stat_workload_find(struct stat_workload *w, char **argv);
/* Forks the child and holds it: 0, or EXIT_FAILURE, said. */
int stat_workload_prepare(struct stat_workload *w);
/*
 * Releases the held child to execute the command and waits for its end:
 * its status as a shell reports it (128 + N for signal N) in *@status,
 * the signal in *@signal (0: none), its resource usage from its exec on,
 * with its reaped children's, in *@u. Returns 0, or if the exec failed,
 * "Workload failed" said and 127 or 126.
 */
int stat_workload_run(struct stat_workload *w, int *status, int *signal, struct stat_usage *u);
/* The same in steps: release it, ... */
void stat_workload_release(struct stat_workload *w);
/* ... wait up to @msecs for its end (true: it ended; not reaped yet), ... */
bool stat_workload_wait(struct stat_workload *w, int msecs);
/* ... and wait for its end, and reap it, as stat_workload_run(). */
int stat_workload_finish(struct stat_workload *w, int *status, int *signal, struct stat_usage *u);
/* Kills a held child that will not be released. */
void stat_workload_abandon(struct stat_workload *w);

/*
 * -p, -t: watching run->target->pid_list's processes (-t: threads) end, or SIGINT
 * (run->interrupted then): SIGINT is blocked but while waiting, so that
 * it cannot slip in between the check and the wait. A process is watched
 * through a pidfd; a thread that leads no process has none, and is looked
 * for every 100 ms.
 */
struct stat_workload_targets {
	struct stat_run *run;
	struct pollfd pfd[MAX_TARGETS];
	int n;
	bool polled;		/* a target without a pidfd: looked for */
	bool watching;		/* SIGINT taken, to be given back */
	bool failed;		/* poll failed, said */
	sigset_t during;
	struct sigaction old_sigint;
};

/* Starts watching @run's targets: 0, or the exit status, said. */
int stat_workload_watch(struct stat_workload_targets *t, struct stat_run *run);
/*
 * Waits up to @msecs (negative: without end) for every target to exit,
 * or for SIGINT: true if either came (or watching failed, said).
 */
bool stat_workload_wait_targets(struct stat_workload_targets *t, int msecs);
void stat_workload_unwatch(struct stat_workload_targets *t);

#endif /* PMUCTL_STAT_WORKLOAD_H */
