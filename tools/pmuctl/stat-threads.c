// SPDX-License-Identifier: GPL-2.0
/*
 * pmuctl stat --per-thread: each thread's counts from the driver
 * (READ_THREADS), which keeps them per thread, exited threads included,
 * up to ARMPMU_THREADS_KEPT a file. Threads beyond are counted in the
 * totals but in no thread's line, and pmuctl says how many.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmuctl.h"
#include "stat-threads.h"

/* Entries asked for per READ_THREADS. */
#define BATCH	32

int stat_threads_check(const struct stat_run *run)
{
	for (int i = 0; i < run->ncounters; i++) {
		unsigned int idx = run->counters[i].idx;

		if (idx != ARMPMU_CYCLE_COUNTER && idx >= run->info.num_counters)
			return usage_error("--per-thread: %d events do not fit the %u counters, and armpmu keeps no per-thread counts of multiplexed events; count at most %u events (cycles aside) per thread, or use --passes without --per-thread",
					   run->ncounters, run->info.num_counters,
					   run->info.num_counters);
	}
	return 0;
}

/* The slots a file's events use: up to the highest event counter counted. */
static unsigned int slots_used(const struct stat_run *run)
{
	unsigned int slots = 0;

	for (int i = 0; i < run->ncounters; i++)
		if (run->counters[i].idx != ARMPMU_CYCLE_COUNTER &&
		    run->counters[i].idx + 1 > slots)
			slots = run->counters[i].idx + 1;
	return slots;
}

static struct stat_thread *find_or_add(struct stat_threads *th, pid_t tid)
{
	struct stat_thread *t;

	for (int i = 0; i < th->n; i++)
		if (th->t[i].tid == tid)
			return &th->t[i];
	if (th->n == th->allocated) {
		int more = th->allocated ? 2 * th->allocated : 16;

		t = realloc(th->t, (size_t)more * sizeof(*t));
		if (!t)
			return NULL;
		th->t = t;
		th->allocated = more;
	}
	t = &th->t[th->n++];
	*t = (struct stat_thread){ .tid = tid };
	strcpy(t->comm, "?");
	return t;
}

/* A live thread's name (15 characters at most), as /proc has it now: false if it is gone. */
static bool read_comm(pid_t tid, char comm[16])
{
	char path[48], buf[16];
	FILE *f;
	bool ok;

	snprintf(path, sizeof(path), "/proc/%d/comm", (int)tid);
	f = fopen(path, "re");
	if (!f)
		return false;
	ok = fgets(buf, sizeof(buf), f) != NULL;
	fclose(f);
	if (!ok)
		return false;
	buf[strcspn(buf, "\n")] = '\0';
	memcpy(comm, buf, sizeof(buf));
	return true;
}

/* File @pmu's threads, @slots values each, into @th: 0 or a negative errno. */
static int look_file(struct stat_threads *th, struct pmudev *pmu, unsigned int slots)
{
	size_t size = ARMPMU_THREAD_SIZE(slots);
	struct armpmu_threads *hdr = malloc(sizeof(*hdr) + BATCH * size);
	unsigned int index = 0;
	int err = 0;

	if (!hdr)
		return -ENOMEM;
	do {
		*hdr = (struct armpmu_threads){ .index = index, .nr = BATCH, .slots = slots };
		err = pmudev_read_threads(pmu, hdr);
		for (unsigned int i = 0; !err && i < hdr->nr; i++) {
			const struct armpmu_thread *e =
				(const void *)((const char *)(hdr + 1) + i * size);
			struct stat_thread *t = find_or_add(th, (pid_t)e->tid);

			if (!t) {
				err = -ENOMEM;
				break;
			}
			t->counts = *e;
			memcpy(t->value, e->value, slots * sizeof(e->value[0]));
			th->no_slots |= (e->flags & ARMPMU_THREAD_NO_SLOTS) != 0;
			/*
			 * Its name while it lives; an exited thread's tid may
			 * be another's by now: its name is the last one seen.
			 */
			if (e->tid && !(e->flags & ARMPMU_THREAD_EXITED))
				read_comm((pid_t)e->tid, t->comm);
		}
		index += hdr->nr;
	} while (!err && hdr->nr == BATCH);
	if (!err)
		th->lost += hdr->lost;
	free(hdr);
	return err;
}

void stat_threads_look(void *arg)
{
	struct stat_threads *th = arg;
	unsigned int slots = slots_used(th->run);

	th->lost = 0;
	th->no_slots = false;
	for (int i = 0; i < th->files->n; i++) {
		int err = look_file(th, th->files->pmu[i], slots);

		if (err && !th->err)
			th->err = err;
	}
}

void stat_threads_follow(struct stat_threads *th, struct stat_workload *w)
{
	while (!stat_workload_wait(w, STAT_THREADS_LOOK_MS))
		stat_threads_look(th);
	stat_threads_look(th);
	/*
	 * The command's first thread is not reaped yet, so its tid cannot
	 * be another's: its name stays readable, even if it exited.
	 */
	for (int i = 0; i < th->n; i++)
		if (th->t[i].tid == w->pid && !strcmp(th->t[i].comm, "?"))
			read_comm(w->pid, th->t[i].comm);
}

int stat_threads_runs(const struct stat_threads *th, const struct stat_run *base,
		      struct stat_run **runs)
{
	*runs = calloc(th->n ? (size_t)th->n : 1, sizeof(**runs));
	if (!*runs)
		return -1;
	for (int r = 0; r < th->n; r++) {
		const struct stat_thread *t = &th->t[r];
		struct stat_run *run = &(*runs)[r];
		struct stat_usage sw = { 0 };

		*run = *base;
		stat_counts_clear(run);
		memset(run->sw_sum, 0, sizeof(run->sw_sum));
		memset(run->sw_sumsq, 0, sizeof(run->sw_sumsq));
		run->runs = 1;
		run->usage = false;
		run->where.per_thread = true;
		/* Let go at an exec it may not count: <not counted>, and said. */
		run->exec_left = (t->counts.flags & ARMPMU_THREAD_EXEC_LEFT) != 0;
		snprintf(run->where.thread_comm, sizeof(run->where.thread_comm), "%s", t->comm);
		run->where.thread_tid = (int)t->tid;
		run->time_enabled = t->counts.time_enabled;
		run->time_running = t->counts.time_running;
		for (int i = 0; i < run->ncounters; i++) {
			struct counter *c = &run->counters[i];
			uint64_t v = c->idx == ARMPMU_CYCLE_COUNTER ? t->counts.cycles :
				     t->value[c->idx];

			stat_counts_add_counter(c, v, t->counts.time_enabled,
						t->counts.time_running);
		}
		run->software &= STAT_THREADS_SOFTWARE;
		sw.value[SW_TASK_CLOCK] = (double)t->counts.time_enabled / 1e6;
		sw.value[SW_CONTEXT_SWITCHES] = (double)t->counts.switches;
		sw.value[SW_CPU_MIGRATIONS] = (double)t->counts.migrations;
		stat_counts_add_software(run, &sw);
	}
	return th->n;
}

void stat_threads_notes(const struct stat_threads *th)
{
	int unnamed = 0;

	for (int i = 0; i < th->n; i++) {
		unnamed += !strcmp(th->t[i].comm, "?");
		if (th->t[i].counts.flags & ARMPMU_THREAD_EXEC_LEFT)
			say("--per-thread: %s-%d executed a program this user may not count (set-user-ID or set-group-ID, file capabilities, or not readable) and was let go at that exec, as perf lets it go: <not counted>",
			    th->t[i].comm, (int)th->t[i].tid);
	}
	if (th->lost)
		say("--per-thread: %llu more thread%s counted than armpmu keeps per file (%d): %s in the totals but in no line above",
		    th->lost, th->lost == 1 ? " was" : "s were", ARMPMU_THREADS_KEPT,
		    th->lost == 1 ? "it is" : "they are");
	if (unnamed)
		say("--per-thread: %d thread%s exited before pmuctl could read %s name: shown as ?-TID",
		    unnamed, unnamed == 1 ? "" : "s", unnamed == 1 ? "its" : "their");
}

int stat_threads_software(const struct stat_files *f, const struct armpmu_threads *before,
			  struct armpmu_threads *now, unsigned int from, struct stat_usage *u)
{
	static const struct armpmu_threads start;
	int err = stat_files_thread_totals(f, now);

	if (err)
		return err;
	before = before ? before : &start;
	if (from & 1U << SW_TASK_CLOCK)
		u->value[SW_TASK_CLOCK] = (double)(now->task_clock - before->task_clock) / 1e6;
	/* A task's cpu-clock is its time on a CPU too, as perf's. */
	if (from & 1U << SW_CPU_CLOCK)
		u->value[SW_CPU_CLOCK] = (double)(now->task_clock - before->task_clock) / 1e6;
	if (from & 1U << SW_CONTEXT_SWITCHES)
		u->value[SW_CONTEXT_SWITCHES] = (double)(now->switches - before->switches);
	if (from & 1U << SW_CPU_MIGRATIONS)
		u->value[SW_CPU_MIGRATIONS] = (double)(now->migrations - before->migrations);
	return 0;
}

void stat_threads_free(struct stat_threads *th)
{
	free(th->t);
	*th = (struct stat_threads){ 0 };
}
