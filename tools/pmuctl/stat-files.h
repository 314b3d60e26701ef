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
#include "stat-events.h"

struct stat_files {
	struct pmudev **pmu;
	int n, allocated;
};


/*
 * Task mode for a command: a file attached to its held process @pid with
 * FOLLOW (its threads and children too) and, if @on_exec, ENABLE_ON_EXEC
 * (START arms it; counting starts in the exec, where perf's
 * enable_on_exec starts; without, -D's, START starts it), and programmed. Returns 0, or the exit status, said.
 */
int stat_files_open_command(struct stat_files *f, pid_t pid, bool on_exec,
			    struct stat_events *ev, struct stat_run *run);
/*
 * -p: a file attached with FOLLOW to each thread of each process of
 * run->target->pid_list, as /proc lists them, twice over (a thread created before
 * its creator was attached); -t (target->tids): to each thread of the list
 * alone. run->threads says how many. Returns 0, or the exit status.
 */
int stat_files_open_process(struct stat_files *f, struct stat_events *ev, struct stat_run *run);
/*
 * CPU mode: -C's CPUs (run->target->cpu_list), or -a's every online CPU; nothing
 * pinned, the command included, as perf pins nothing. run->cpus says how
 * many. Returns 0, or the exit status.
 */
int stat_files_open_cpus(struct stat_files *f, struct stat_events *ev, struct stat_run *run);

/* @op on every file, in order: 0, or the first negative errno. */
int stat_files_each(const struct stat_files *f, int (*op)(struct pmudev *));
/* The files' counts summed into @sum: 0, -EIO if any was disturbed, or another errno. */
int stat_files_read(const struct stat_files *f, struct stat_sample *sum);
/*
 * Task mode: the driver's totals of the files' threads (READ_THREADS'
 * header), summed into @sum's switches, migrations and task_clock: 0, or
 * the first negative errno.
 */
int stat_files_thread_totals(const struct stat_files *f, struct armpmu_threads *sum);
/* File @i's counts alone (-A): 0, -EIO if disturbed, or another errno. */
int stat_files_read_one(const struct stat_files *f, int i, struct stat_sample *s);
/* The CPU file @i counts (CPU mode). */
int stat_files_cpu(const struct stat_files *f, int i);
void stat_files_close(struct stat_files *f);

#endif /* PMUCTL_STAT_FILES_H */
