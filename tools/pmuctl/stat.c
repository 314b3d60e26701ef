// SPDX-License-Identifier: GPL-2.0
/*
 * pmuctl stat: count events while a command runs, or of a running process.
 * This file: the run; the rest in stat-*.c, each named for what it does
 * (tools/pmuctl/layers says which may call which).
 *
 * Task mode, the default: a command's process is counted wherever the
 * scheduler runs it, with every thread and child it creates (armpmu's
 * ATTACH with FOLLOW), and nothing else: no pinning, other processes on
 * the same CPUs not counted. The command is forked first and held on a
 * pipe while a file is attached to it (with ENABLE_ON_EXEC too),
 * programmed and armed; released, it execs, and the counting starts in
 * that exec where perf stat's (enable_on_exec) does: nothing of pmuctl's
 * is counted, and nothing is taken off.
 *
 * -p PIDS attaches to running processes' threads, -t TIDS to threads; -C
 * CPUS and -a count whole CPUs (CPU mode), which the driver allows only
 * to the privileged; the command is never pinned. The options are parsed
 * in stat-options.c.
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>

#include "pmuctl.h"
#include "stat-files.h"
#include "stat-options.h"
#include "stat-output.h"
#include "stat-passes.h"
#include "stat-system.h"
#include "stat-threads.h"
#include "stat-workload.h"

/* One pmuctl stat: what it counts, with what, and what came of it. */
struct measurement {
	struct stat_target target;	/* whom to count */
	struct stat_config config;	/* how to show the counts */
	struct stat_run run;		/* what was counted: the printers are given it */
	struct stat_events events;	/* what to count */
	struct stat_files files;	/* CPU mode's and -p's: opened once for all runs */
	struct stat_workload command;
	bool workload_failed;		/* the command could not be executed: no counts */
	struct stat_passes *passes;	/* --passes: the plan (the merged run points into it) */
	bool passes_differ;		/* --passes: the reference's counts differ */
	struct stat_threads threads;	/* --per-thread: the threads' counts */
	struct stat_workload_targets *watch;	/* -p, -t without a command: their end */
	double deadline;		/* --timeout: when the count stops, or 0 */
	double *elapsed_each;		/* --table: each run's seconds */
	/* -a's context switches and page faults: the system's when counting started. */
	struct stat_system system_start;
	/* -I's and -p's page faults, from /proc: the targets' when counting started, and now. */
	struct stat_faults faults_start, faults;
	bool faults_from_exec;		/* started at the command's exec: less its held child's */
	const struct stat_options *o;
	FILE *out;
	char **cmd;
};


static bool task_mode(const struct stat_run *run)
{
	return run->target->kind == TARGET_COMMAND || run->target->kind == TARGET_PROCESS;
}

#define FAULTS	(1U << SW_PAGE_FAULTS | 1U << SW_MINOR_FAULTS | 1U << SW_MAJOR_FAULTS)

/*
 * Whether page faults are followed in /proc as the count goes (-I, -p,
 * -t): the driver counts none, and the resource usage of a command is
 * known only at its end.
 */
static bool faults_followed(const struct measurement *m)
{
	return task_mode(&m->run) && (m->run.software & FAULTS) &&
	       (m->o->interval_ms || m->run.target->kind == TARGET_PROCESS);
}

/*
 * The page faults of the command (held, @at_exec: from its exec on), or
 * of -p's processes or -t's threads, from now on.
 */
static void faults_start(struct measurement *m, bool at_exec)
{
	if (!faults_followed(m))
		return;
	if (m->run.target->kind == TARGET_COMMAND)
		stat_system_faults_init(&m->faults, &m->command.pid, 1, false);
	else
		stat_system_faults_init(&m->faults, m->target.pid_list, m->target.npid_list,
					m->target.tids);
	stat_system_faults_look(&m->faults);
	m->faults_start = m->faults;
	m->faults_from_exec = at_exec;
}

/* The page faults since faults_start(), from a look now, into @u's values. */
static void faults_so_far(struct measurement *m, struct stat_usage *u)
{
	struct stat_faults start = m->faults_start;

	stat_system_faults_look(&m->faults);
	/* What the held child did before its exec is not the command's (0 until it is known). */
	if (m->faults_from_exec) {
		start.minor[0] = (uint64_t)m->command.before_exec->ru_minflt;
		start.major[0] = (uint64_t)m->command.before_exec->ru_majflt;
	}
	stat_system_faults_delta(&start, &m->faults, u);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* ---- a command ---- */

/* The driver's task-clock, asked for as the time software lines were counted. */
#define RAN	(1U << SW_TASK_CLOCK)

/* @files' counts: summed, or (-A) one per file, into @counts. */
static int read_counts(const struct measurement *m, const struct stat_files *files,
		       struct stat_sample *counts)
{
	int err, ret = 0;

	if (!m->o->no_aggr && !m->o->aggr)
		return stat_files_read(files, counts);
	for (int i = 0; i < files->n; i++) {
		err = stat_files_read_one(files, i, &counts[i]);
		if (err && err != -EIO)
			return err;
		ret = ret ? ret : err;
	}
	return ret;
}

/*
 * The runs to print of @counts less @before (NULL: nothing before): one,
 * or (-A) one per file, each with @m's counters and nothing counted yet.
 */
static int make_runs(const struct measurement *m, const struct stat_files *files,
		     const struct stat_sample *counts, const struct stat_sample *before,
		     struct stat_run *runs)
{
	int n = m->o->no_aggr || m->o->aggr ? files->n : 1;

	for (int r = 0; r < n; r++) {
		struct stat_sample d = counts[r];

		runs[r] = m->run;
		stat_counts_clear(&runs[r]);
		if (before)
			stat_counts_sub(&d, &before[r]);
		stat_counts_add(&runs[r], &d);
		/* CPU mode: its cpu-clock, the file's (files') time enabled. */
		if (!task_mode(&m->run) && (runs[r].software & 1U << SW_CPU_CLOCK)) {
			struct stat_usage u = { 0 };

			memset(runs[r].sw_sum, 0, sizeof(runs[r].sw_sum));
			memset(runs[r].sw_sumsq, 0, sizeof(runs[r].sw_sumsq));
			u.value[SW_CPU_CLOCK] = (double)d.time_enabled / 1e6;
			stat_counts_add_software(&runs[r], &u);
		}
		runs[r].where.per_cpu = m->o->no_aggr;
		runs[r].where.line_cpu = m->o->no_aggr || m->o->aggr ? stat_files_cpu(files, r) : 0;
	}
	return n;
}

static void print_runs(const struct measurement *m, const struct stat_run *runs, int n)
{
	if (m->o->json)
		stat_fields_json(m->out, runs, n);
	else if (m->o->sep)
		stat_fields_separated(m->out, runs, n, m->o->sep);
	else if (runs[0].where.interval > 0)
		stat_print_interval(m->out, runs, n);
	else
		stat_print_table(m->out, runs, n, m->cmd);
}

/*
 * Waits up to @msecs for the end of the count: the command's, or without
 * one, -p's targets' (or SIGINT). True if it came.
 */
static bool wait_end(struct measurement *m, int msecs)
{
	bool ended;

	/* --timeout: the wait ends at the deadline, which stops the count. */
	if (m->deadline > 0) {
		int left = (int)((m->deadline - now()) * 1e3 + 0.5);

		msecs = left < 0 ? 0 : msecs < 0 || msecs > left ? left : msecs;
	}
	ended = m->watch ? stat_workload_wait_targets(m->watch, msecs) :
		stat_workload_wait(&m->command, msecs);
	if (ended || m->deadline <= 0 || now() < m->deadline)
		return ended;
	m->deadline = 0;
	m->run.timeout_ms = m->o->timeout_ms;
	if (m->watch)
		return true;
	/* perf's way: the command gets SIGTERM, and is waited for. */
	kill(m->command.pid, SIGTERM);
	return stat_workload_wait(&m->command, -1);
}

/*
 * A command --timeout stopped with its SIGTERM: asked for, so not a
 * failure (perf's 0); the table says so instead.
 */
static void timed_out(struct measurement *m)
{
	m->deadline = 0;
	if (m->run.timeout_ms && m->run.signal == SIGTERM)
		m->run.signal = m->run.status = 0;
}

/*
 * -I: while the command runs, the counts of every interval, as perf
 * prints them (the last one shorter, at its end).
 */
static void print_intervals(struct measurement *m, const struct stat_files *files, double t0)
{
	int n = m->o->no_aggr ? files->n : 1, printed = 0;
	struct stat_sample *now_c = calloc((size_t)n, sizeof(*now_c));
	struct stat_sample *before = calloc((size_t)n, sizeof(*before));
	struct stat_run *runs = calloc((size_t)n, sizeof(*runs));
	struct armpmu_threads totals = { 0 }, totals_now;
	struct stat_usage faults_before = { 0 };
	struct stat_system sys_before = m->system_start, sys_now;
	/* -a's switches and faults: the system's, at every interval. */
	bool system = !task_mode(&m->run) && (m->run.software & ~(1U << SW_CPU_CLOCK));
	double next = t0;
	bool ended = false;

	if (!now_c || !before || !runs) {
		say("out of memory: no intervals");
		goto out;
	}
	while (!ended) {
		double t;

		next += m->o->interval_ms / 1e3;
		t = now();
		ended = wait_end(m, next > t ? (int)((next - t) * 1e3 + 0.5) : 0);
		t = now();
		if (read_counts(m, files, now_c) && !m->run.disturbed) {
			m->run.disturbed = true;
			say("the counters were taken or reset during the run: later intervals not trustworthy");
		}
		make_runs(m, files, now_c, before, runs);
		/* A command's driver-counted software lines, this interval's. */
		if (m->run.software && task_mode(&m->run)) {
			struct stat_usage u = { 0 }, f;

			/* Its time on a CPU, printed or not: the lines' time counted. */
			runs[0].ran_known = !stat_threads_software(files, &totals, &totals_now,
								   m->run.software | RAN, &u);
			if (!runs[0].ran_known)
				m->run.software = runs[0].software =
					m->run.software & ~STAT_THREADS_SOFTWARE;
			/*
			 * Its page faults: this interval's, from /proc; those of
			 * an interval it did not run in (<not counted>), seen as
			 * it ran after the driver's look, go to the next one.
			 */
			if (faults_followed(m)) {
				faults_so_far(m, &f);
				for (int k = SW_PAGE_FAULTS; k <= SW_MAJOR_FAULTS; k++)
					u.value[k] = f.value[k] > faults_before.value[k] ?
						     f.value[k] - faults_before.value[k] : 0;
				if (!runs[0].ran_known || u.value[SW_TASK_CLOCK] > 0)
					faults_before = f;
			}
			stat_counts_add_software(&runs[0], &u);
			totals = totals_now;
		}
		/* -a's: the system's switches and faults in this interval. */
		if (system && !stat_system_read(&sys_now)) {
			struct stat_usage u = { 0 };

			stat_system_delta(&sys_before, &sys_now, &u);
			stat_counts_add_software(&runs[0], &u);
			sys_before = sys_now;
		} else if (system) {
			system = false;
			m->run.software &= 1U << SW_CPU_CLOCK;
			runs[0].software = m->run.software;
		}
		for (int r = 0; r < n; r++) {
			runs[r].where.interval = t - t0;
			runs[r].elapsed = t - (next - m->o->interval_ms / 1e3);
			runs[r].disturbed = m->run.disturbed;
		}
		/* --interval-clear: perf's clear screen, and the header, each time. */
		if (m->o->interval_clear)
			fputs("\033[H\033[2J", m->out);
		if (printed++ % 25 == 0 || m->o->interval_clear)
			stat_print_interval_header(m->out, &runs[0], m->o->sep, m->o->json);
		if (!m->o->quiet)
			print_runs(m, runs, n);
		fflush(m->out);
		memcpy(before, now_c, (size_t)n * sizeof(*now_c));
		/* --interval-count: then the command is waited for, as perf does. */
		if (m->o->interval_count && printed == m->o->interval_count)
			break;
	}
out:
	free(now_c);
	free(before);
	free(runs);
}

/*
 * A command's software events from the driver, which sees every switch of
 * its threads while counted, from its exec on (as perf's): task-clock and
 * cpu-clock (the time they ran: exact, where the resource usage's is in
 * ticks), context-switches and cpu-migrations. Without that source the
 * first three keep their resource usage's values in @usage, and
 * cpu-migrations is not printed, never as 0.
 */
static void driver_software(struct measurement *m, const struct stat_files *files,
			    struct stat_usage *usage)
{
	unsigned int from = (STAT_THREADS_SOFTWARE | 1U << SW_CPU_CLOCK) & m->run.software;
	struct armpmu_threads now;

	if (from && stat_threads_software(files, NULL, &now, from, usage))
		m->run.software &= ~(1U << SW_CPU_MIGRATIONS);
}

/*
 * One counted run of the command: its files reset and started (task
 * mode: armed, to start in its exec) before it is released, or with -D
 * started that long after; stopped once it has exited, and read into
 * @counts (-A: one per file).
 */
static int count_command(struct measurement *m, struct stat_sample *counts, double *t0)
{
	struct stat_files task_files = { 0 }, *files = &m->files;
	struct stat_usage usage, cpus = { 0 };
	struct stat_system sys_after;
	bool delayed = m->o->delay_ms > 0;
	/* -a's context switches and page faults: the system's, from start to stop. */
	bool system = m->run.software & ~(1U << SW_CPU_CLOCK);
	int err, ret;

	ret = stat_workload_prepare(&m->command);
	if (ret)
		return ret;
	if (task_mode(&m->run)) {
		files = &task_files;
		/* -n: no file, the time alone. */
		if (!m->o->null_run)
			ret = stat_files_open_command(files, m->command.pid, !delayed, &m->events,
						      &m->run);
	}
	if (!ret && m->o->per_thread)
		ret = stat_threads_check(&m->run);
	if (!ret && (err = stat_files_each(files, pmudev_reset)))
		ret = fail("cannot reset the counters: %s", pmudev_strerror(err));
	if (!ret && !delayed && (err = stat_files_each(files, pmudev_start))) {
		if (err == -EIO)
			m->run.disturbed = true;
		else
			ret = fail("cannot start the counters: %s", pmudev_strerror(err));
	}
	if (ret) {
		stat_workload_abandon(&m->command);
		goto close;
	}
	if (delayed)
		fprintf(stderr, "Events disabled\n");
	system = system && !delayed && !task_mode(&m->run) && !stat_system_read(&m->system_start);
	if (!delayed)
		faults_start(m, true);
	*t0 = now();
	m->deadline = m->o->timeout_ms ? *t0 + m->o->timeout_ms / 1e3 : 0;
	stat_workload_release(&m->command);
	if (delayed && !stat_workload_wait(&m->command, m->o->delay_ms)) {
		fprintf(stderr, "Events enabled\n");
		*t0 = now();
		err = stat_files_each(files, pmudev_start);
		if (err == -EIO)
			m->run.disturbed = true;
		else if (err)
			say("cannot start the counters: %s", pmudev_strerror(err));
		faults_start(m, false);
	}
	if (m->o->interval_ms)
		print_intervals(m, files, *t0);
	if (m->o->per_thread) {
		m->threads.files = files;
		stat_threads_follow(&m->threads, &m->command);
	}
	while (m->deadline > 0 && !wait_end(m, -1))
		;
	ret = stat_workload_finish(&m->command, &m->run.status, &m->run.signal, &usage);
	stat_files_each(files, pmudev_stop);
	timed_out(m);
	system = system && !stat_system_read(&sys_after);
	if (ret) {
		m->workload_failed = true;
		goto close;
	}
	if (task_mode(&m->run) && !delayed) {
		driver_software(m, files, &usage);
		stat_counts_add_usage(&m->run, &usage);
	}
	err = read_counts(m, files, counts);
	if (m->o->per_thread)
		stat_threads_look(&m->threads);
	if (err == -EIO)
		m->run.disturbed = true;
	else if (err)
		ret = fail("cannot read the counters: %s", pmudev_strerror(err));
	if (!task_mode(&m->run) && m->run.software) {
		/* Lines without a source are not printed, never as 0. */
		if (system)
			stat_system_delta(&m->system_start, &sys_after, &cpus);
		else
			m->run.software &= 1U << SW_CPU_CLOCK;
		cpus.value[SW_CPU_CLOCK] = (double)counts->time_enabled / 1e6;
		stat_counts_add_software(&m->run, &cpus);
	}
close:
	stat_files_close(&task_files);
	return ret;
}

/* --pre, --post: @cmd through the shell, as perf runs it: 0, or said and its status. */
static int shell(const char *opt, const char *cmd)
{
	int status;

	if (!cmd)
		return 0;
	fflush(NULL);
	status = system(cmd);
	if (status == -1)
		return fail("%s: cannot run '%s': %s", opt, cmd, strerror(errno));
	if (WIFEXITED(status) && !WEXITSTATUS(status))
		return 0;
	fail("%s: '%s' %s %d", opt, cmd, WIFEXITED(status) ? "exited with status" : "killed by signal",
	     WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static int run_once(struct measurement *m, struct stat_sample *counts)
{
	double t0 = now(), t1;
	int ret;

	ret = count_command(m, counts, &t0);
	t1 = now();
	if (ret)
		return ret;
	if (m->elapsed_each)
		m->elapsed_each[m->run.runs] = t1 - t0;
	stat_counts_add_elapsed(&m->run, t1 - t0);
	stat_counts_add(&m->run, counts);
	return 0;
}

/* ---- -p PID, and -a without a command ---- */

/* How often -p's and -t's targets' page faults are looked at, in ms. */
#define FAULTS_LOOK_MS	50

/*
 * Counts the threads of -p's processes (or -t's threads), each existing
 * thread with a file of its own, and with FOLLOW the threads and children
 * they create after that: until a command given after them ends (it says
 * how long, as perf's), else until they exit or SIGINT. pmuctl's own work,
 * and the command's, are in none of them. The files are opened once: -r's
 * runs of the command count the same threads again.
 */
static int count_until(struct measurement *m, struct stat_sample *last)
{
	struct stat_usage usage = { 0 }, command_usage;
	struct stat_sample counts;
	struct armpmu_threads before = { 0 };
	struct stat_workload_targets watch;
	struct stat_system sys_after;
	bool command = m->cmd[0] != NULL, delayed = m->o->delay_ms > 0;
	/* -a's context switches and page faults: the system's, from start to stop. */
	bool system = !task_mode(&m->run) && (m->run.software & ~(1U << SW_CPU_CLOCK)) && !delayed;
	double t0;
	int ret = 0, err;

	if (!m->files.n && m->run.target->kind == TARGET_PROCESS) {
		ret = stat_files_open_process(&m->files, &m->events, &m->run);
		if (!ret && m->o->per_thread)
			ret = stat_threads_check(&m->run);
		if (ret)
			return ret;
	}
	if (command && (ret = stat_workload_prepare(&m->command)))
		return ret;
	if (!command && (ret = stat_workload_watch(&watch, &m->run)))
		return ret;
	m->watch = command ? NULL : &watch;
	stat_files_thread_totals(&m->files, &before);
	err = stat_files_each(&m->files, pmudev_reset);
	err = err || delayed ? err : stat_files_each(&m->files, pmudev_start);
	if (err) {
		ret = fail("cannot start the counters: %s", pmudev_strerror(err));
		if (command)
			stat_workload_abandon(&m->command);
		goto out;
	}
	if (delayed)
		fprintf(stderr, "Events disabled\n");
	system = system && !stat_system_read(&m->system_start);
	faults_start(m, false);
	t0 = now();
	m->deadline = m->o->timeout_ms ? t0 + m->o->timeout_ms / 1e3 : 0;
	if (command)
		stat_workload_release(&m->command);
	if (delayed && !wait_end(m, m->o->delay_ms)) {
		fprintf(stderr, "Events enabled\n");
		t0 = now();
		err = stat_files_each(&m->files, pmudev_start);
		if (err)
			say("cannot start the counters: %s", pmudev_strerror(err));
		faults_start(m, false);
	}
	m->threads.files = &m->files;
	if (m->o->per_thread)
		stat_threads_look(&m->threads);
	if (m->o->interval_ms)
		print_intervals(m, &m->files, t0);
	/*
	 * The command's end is looked for every second where it has no pidfd;
	 * the targets' page faults every FAULTS_LOOK_MS, so that one that is
	 * reaped before the end keeps nearly all of its.
	 */
	while (!m->o->interval_ms &&
	       !wait_end(m, m->o->per_thread ? STAT_THREADS_LOOK_MS :
			 faults_followed(m) ? FAULTS_LOOK_MS : command ? 1000 : -1)) {
		if (m->o->per_thread)
			stat_threads_look(&m->threads);
		if (faults_followed(m))
			stat_system_faults_look(&m->faults);
	}
	if (command)
		ret = stat_workload_finish(&m->command, &m->run.status, &m->run.signal,
					   &command_usage);
	stat_files_each(&m->files, pmudev_stop);
	system = system && !stat_system_read(&sys_after);
	timed_out(m);
	if (ret) {
		m->workload_failed = true;
		goto out;
	}
	if (m->o->per_thread)
		stat_threads_look(&m->threads);
	if (m->elapsed_each)
		m->elapsed_each[m->run.runs] = now() - t0;
	stat_counts_add_elapsed(&m->run, now() - t0);
	err = last ? read_counts(m, &m->files, last) : stat_files_read(&m->files, &counts);
	if (last)
		counts = last[0];
	if (err == -EIO) {
		m->run.disturbed = true;
	} else if (err) {
		ret = fail("cannot read the counters: %s", pmudev_strerror(err));
		goto out;
	}
	if (!task_mode(&m->run) && m->run.software) {
		/* Lines without a source are not printed, never as 0. */
		if (system)
			stat_system_delta(&m->system_start, &sys_after, &usage);
		else
			m->run.software &= 1U << SW_CPU_CLOCK;
		usage.value[SW_CPU_CLOCK] = (double)counts.time_enabled / 1e6;
		stat_counts_add_software(&m->run, &usage);
	} else if (!m->o->interval_ms) {
		struct armpmu_threads totals;
		unsigned int from = (STAT_THREADS_SOFTWARE | 1U << SW_CPU_CLOCK) & m->run.software;

		/* The targets' time on a CPU, printed or not: the lines' time counted. */
		m->run.ran_known = m->run.software &&
				   !stat_threads_software(&m->files, &before, &totals, from | RAN,
							  &usage);
		if (m->run.software && !m->run.ran_known)
			m->run.software &= ~from;
		if (faults_followed(m))
			faults_so_far(m, &usage);
		stat_counts_add_software(&m->run, &usage);
	}
	stat_counts_add(&m->run, &counts);
out:
	if (!command) {
		ret = ret ? ret : watch.failed ? EXIT_FAILURE : 0;
		stat_workload_unwatch(&watch);
	}
	m->watch = NULL;
	return ret;
}

/* ---- --passes ---- */

/*
 * --passes: the command run once per pass of events that fits the
 * counters, each pass's counts exact, put back together in -e's order,
 * with the passes' reference counts compared.
 */
static int measure_passes(struct measurement *m)
{
	struct stat_events all = m->events;
	struct stat_run base = m->run, *runs = NULL;
	struct stat_sample counts;
	struct pmudev *pmu;
	int ret;

	m->passes = calloc(1, sizeof(*m->passes));
	if (!m->passes)
		return fail("out of memory");
	if (open_pmu(&pmu, PMUDEV_CPU_ANY, PMUDEV_OPEN_UNBOUND))
		return EXIT_FAILURE;
	ret = stat_passes_plan(&all, pmudev_info(pmu), m->passes);
	pmudev_close(pmu);
	if (!ret && !(runs = calloc((size_t)m->passes->n, sizeof(*runs))))
		ret = fail("out of memory");
	signal(SIGINT, SIG_IGN);
	for (int k = 0; !ret && k < m->passes->n; k++) {
		m->events = m->passes->pass[k].events;
		m->run = base;
		ret = run_once(m, &counts);
		/* What stat-files.c made of the pass's events, for the merge. */
		m->passes->pass[k].events = m->events;
		runs[k] = m->run;
	}
	signal(SIGINT, SIG_DFL);
	m->events = all;
	if (!ret)
		m->passes_differ = !stat_passes_merge(m->passes, runs, &m->run);
	free(runs);
	return ret;
}

/* ---- the run ---- */

/* Counts the command (-r times), or -p's processes; -A's counts in *@last. */
static int measure(struct measurement *m, struct stat_sample **last)
{
	int ret = 0;

	if (m->run.target->kind == TARGET_PROCESS && !m->cmd[0])
		return count_until(m, NULL);
	if (m->o->passes)
		return measure_passes(m);
	if (!task_mode(&m->run) && !m->o->null_run)
		ret = stat_files_open_cpus(&m->files, &m->events, &m->run);
	if (ret)
		return ret;
	*last = calloc(m->files.n ? (size_t)m->files.n : 1, sizeof(**last));
	if (!*last)
		return fail("out of memory");
	if (!m->cmd[0])
		return count_until(m, *last);	/* -a, -C: until Ctrl-C */
	if (m->o->table && m->o->repeat > 1 &&
	    !(m->elapsed_each = calloc((size_t)m->o->repeat, sizeof(double))))
		return fail("out of memory");
	/* Ctrl-C is for the command: pmuctl lives on to print the counts. */
	signal(SIGINT, SIG_IGN);
	for (int i = 0; i < m->o->repeat && !ret; i++) {
		ret = shell("--pre", m->o->pre);
		if (!ret)
			ret = m->run.target->kind == TARGET_PROCESS ? count_until(m, NULL) :
			      run_once(m, *last);
		if (!ret)
			ret = shell("--post", m->o->post);
	}
	m->run.elapsed_each = m->elapsed_each;
	signal(SIGINT, SIG_DFL);
	return ret;
}

static void print(struct measurement *m, const struct stat_sample *last)
{
	struct stat_run *runs = &m->run;
	int n = 1;

	if (m->o->per_thread) {
		n = stat_threads_runs(&m->threads, &m->run, &runs);
		if (n < 0) {
			say("out of memory: no counts per thread");
			return;
		}
	} else if ((m->o->no_aggr || m->o->aggr) && last &&
		   (runs = calloc((size_t)m->files.n, sizeof(*runs)))) {
		n = make_runs(m, &m->files, last, NULL, runs);
		if (m->o->aggr)
			n = stat_system_aggregate(runs, n, (int)m->o->aggr);
		for (int r = 0; r < n; r++) {
			runs[r].elapsed = m->run.elapsed;
			runs[r].elapsed_sumsq = m->run.elapsed_sumsq;
			runs[r].disturbed = m->run.disturbed;
		}
	} else if (!runs) {
		runs = &m->run;
	}
	if ((!m->o->interval_ms || m->o->summary) && n && !m->o->quiet) {
		/* --summary: after -I's intervals, the whole run's counts. */
		for (int r = 0; r < n; r++) {
			runs[r].where.interval = 0;
			runs[r].where.summary = m->o->interval_ms && m->o->sep &&
						!m->o->no_csv_summary;
		}
		print_runs(m, runs, n);
	}
	if (m->o->per_thread)
		stat_threads_notes(&m->threads);
	if (m->o->json || m->o->sep || m->o->interval_ms)
		stat_print_stderr_notes(&m->run, m->cmd[0]);
	if (runs != &m->run)
		free(runs);
}

/* --per-thread: whether the threads' counts were read: 0, or said and EXIT_FAILURE. */
static int threads_read(const struct measurement *m)
{
	if (m->threads.err)
		return fail("--per-thread: cannot read the threads' counts: %s",
			    pmudev_strerror(m->threads.err));
	if (m->threads.no_slots)
		return fail("--per-thread: the file was multiplexed: armpmu kept no per-thread event counts");
	return 0;
}

/*
 * No command: perf counts the whole system until Ctrl-C, which needs the
 * privilege of whole-CPU counting. Without it, what a member of the
 * device's group can do instead: 0, or the usage error's status.
 */
static int system_wide_allowed(void)
{
	struct pmudev *pmu;
	int err = pmudev_open(&pmu, 0, PMUDEV_OPEN_NO_PIN);

	if (!err)
		pmudev_close(pmu);
	if (err == -EPERM || err == -EACCES)
		return usage_error("no command to run; without one perf counts the whole system until Ctrl-C, which needs CAP_PERFMON or CAP_SYS_ADMIN (or armpmu's cpu_mode_for_all=1). Without them, count a command (pmuctl stat -- COMMAND) or your own running processes (pmuctl stat -p PID, until they exit or Ctrl-C)");
	return 0;
}

int cmd_stat(int argc, char **argv)
{
	struct measurement m = { .target.kind = TARGET_COMMAND, .out = stderr };
	struct stat_options o = { .repeat = 1, .log_fd = -1 };
	struct stat_sample *last = NULL;
	int ret;

	m.o = &o;
	m.run.target = &m.target;
	m.run.config = &m.config;
	m.threads.run = &m.run;
	ret = stat_options_parse(argc, argv, &o, &m.target, &m.config, &m.events);
	if (ret)
		return ret;
	m.cmd = argv + optind;
	ret = stat_options_defaults(&o, &m.target, &m.config, &m.events);
	if (!ret && o.system_wide)
		ret = system_wide_allowed();
	if (ret)
		return ret;
	m.run.software = m.events.software;
	if (m.cmd[0]) {
		ret = stat_workload_find(&m.command, m.cmd);
		if (ret)
			return ret;
	}
	if (o.output && !(m.out = stat_print_output_file(o.output, o.append)))
		return fail("%s: %s", o.output, strerror(errno));
	/* --log-fd: perf's; the descriptor is pmuctl's to close. */
	if (o.log_fd >= 0 && !(m.out = fdopen(o.log_fd, o.append ? "a" : "w")))
		return fail("--log-fd %d: %s", o.log_fd, strerror(errno));
	ret = measure(&m, &last);
	if (!ret && o.per_thread && m.run.runs && !m.workload_failed)
		ret = threads_read(&m);
	if (!ret && m.run.runs && !m.workload_failed) {
		print(&m, last);
		/* -p ended by Ctrl-C: a shell's 128 + SIGINT, as perf's. */
		ret = m.run.status ? m.run.status :
		      m.run.disturbed || m.passes_differ ? EXIT_FAILURE :
		      m.run.interrupted ? 128 + SIGINT : ret;
	}
	free(last);
	free(m.passes);
	stat_threads_free(&m.threads);
	stat_files_close(&m.files);
	if (m.out != stderr)
		fclose(m.out);
	return ret;
}
