// SPDX-License-Identifier: GPL-2.0
/*
 * pmuctl stat: count events while a command runs, or of a running process.
 * This file: the options and the run; the rest, lowest first, in
 * stat-counts.c (counts and statistics), stat-metrics.c (metric tables),
 * stat-output.c (printers), stat-workload.c (the command's process) and
 * stat-files.c (the device's files).
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
 * -p PID attaches to a running process's threads; -C CPU and -a count
 * whole CPUs (CPU mode), which the driver allows only to the privileged.
 */
#include <errno.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>

#include "pmuctl.h"
#include "stat-files.h"
#include "stat-output.h"
#include "stat-workload.h"

static const char *const default_events[] = { "cycles", "instructions" };

/* One pmuctl stat: what it counts, with what, and what came of it. */
struct measurement {
	struct stat_run run;		/* what the printers are given */
	struct stat_events events;	/* what to count */
	struct stat_files files;	/* CPU mode's and -p's: opened once for all runs */
	struct stat_workload command;
	bool workload_failed;		/* the command could not be executed: no counts */
};

/* The options that are not the measurement's; argv[optind] on is the command. */
struct stat_options {
	int repeat;
	char *sep, *output;
	bool json;
};

static bool task_mode(const struct stat_run *run)
{
	return run->target == TARGET_COMMAND || run->target == TARGET_PROCESS;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* ---- a command ---- */

/*
 * One counted run of the command: its files reset and started (task
 * mode: armed) before it is released, stopped once it has exited, and
 * read into @counts.
 */
static int count_command(struct measurement *m, struct armpmu_counts *counts)
{
	struct stat_files task_files = { 0 }, *files = &m->files;
	int err, ret;

	ret = stat_workload_prepare(&m->command);
	if (ret)
		return ret;
	if (task_mode(&m->run)) {
		files = &task_files;
		ret = stat_files_open_command(files, m->command.pid, &m->events, &m->run);
	}
	if (!ret && (err = stat_files_each(files, pmudev_reset)))
		ret = fail("cannot reset the counters: %s", pmudev_strerror(err));
	if (!ret && (err = stat_files_each(files, pmudev_start))) {
		if (err == -EIO)
			m->run.disturbed = true;
		else
			ret = fail("cannot start the counters: %s", pmudev_strerror(err));
	}
	if (ret) {
		stat_workload_abandon(&m->command);
		goto close;
	}
	ret = stat_workload_run(&m->command, &m->run.status, &m->run.signal);
	stat_files_each(files, pmudev_stop);
	if (ret) {
		m->workload_failed = true;
		goto close;
	}
	err = stat_files_read(files, counts);
	if (err == -EIO)
		m->run.disturbed = true;
	else if (err)
		ret = fail("cannot read the counters: %s", pmudev_strerror(err));
close:
	stat_files_close(&task_files);
	return ret;
}

static int run_once(struct measurement *m)
{
	struct armpmu_counts counts;
	double t0, t1;
	int ret;

	t0 = now();
	ret = count_command(m, &counts);
	t1 = now();
	if (ret)
		return ret;
	m->run.elapsed += t1 - t0;
	stat_counts_add(&m->run, &counts);
	return 0;
}

/* ---- -p PID ---- */

static volatile sig_atomic_t got_sigint;

static void on_sigint(int sig)
{
	(void)sig;
	got_sigint = 1;
}

/*
 * Waits for @pid to exit, or for SIGINT: SIGINT is blocked but while
 * waiting, so that it cannot slip in between the check and the wait.
 */
static int wait_process(pid_t pid, struct stat_run *run)
{
	struct sigaction sa = { .sa_handler = on_sigint };
	struct pollfd pfd = { .events = POLLIN };
	sigset_t block, during;
	int ret = 0;

	pfd.fd = (int)syscall(SYS_pidfd_open, pid, 0);
	if (pfd.fd < 0)
		return fail("cannot watch process %d: %s", (int)pid, strerror(errno));
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigprocmask(SIG_BLOCK, &block, &during);
	sigdelset(&during, SIGINT);
	sigaction(SIGINT, &sa, NULL);
	while (!got_sigint) {
		if (ppoll(&pfd, 1, NULL, &during) > 0)
			break;
		if (errno != EINTR) {
			ret = fail("cannot watch process %d: %s", (int)pid, strerror(errno));
			break;
		}
	}
	run->interrupted = got_sigint;
	sigprocmask(SIG_UNBLOCK, &block, NULL);
	close(pfd.fd);
	return ret;
}

/*
 * Counts process run->pid's threads from now until it exits or SIGINT:
 * each existing thread gets a file, and with FOLLOW the threads and
 * children they create are counted too. pmuctl's own work is in none of
 * them.
 */
static int count_process(struct measurement *m)
{
	struct armpmu_counts counts;
	double t0;
	int ret, err;

	ret = stat_files_open_process(&m->files, &m->events, &m->run);
	if (ret)
		return ret;
	err = stat_files_each(&m->files, pmudev_reset);
	err = err ? err : stat_files_each(&m->files, pmudev_start);
	if (err)
		return fail("cannot start the counters: %s", pmudev_strerror(err));
	t0 = now();
	ret = wait_process(m->run.pid, &m->run);
	stat_files_each(&m->files, pmudev_stop);
	m->run.elapsed = now() - t0;
	err = stat_files_read(&m->files, &counts);
	if (err == -EIO)
		m->run.disturbed = true;
	else if (err)
		return fail("cannot read the counters: %s", pmudev_strerror(err));
	stat_counts_add(&m->run, &counts);
	return ret;
}

/* ---- the options ---- */

static void usage(void)
{
	printf("Usage: pmuctl stat [-e EVENT[,EVENT...]]... [-M GROUP] [-r N] [-x SEP | --json]\n"
	       "                   [-C CPU | -a] [-o FILE] [--no-calibrate] -- COMMAND [ARGS...]\n"
	       "       pmuctl stat [-e EVENT[,EVENT...]]... [-M GROUP] [-x SEP | --json] [-o FILE]\n"
	       "                   -p PID\n"
	       "       pmuctl stat -M list\n\n"
	       "Counts events while COMMAND runs: COMMAND and every thread and child process\n"
	       "it creates, wherever the scheduler runs them, and nothing else. Prints what\n"
	       "the events counted (default: cycles,instructions), the metrics whose counts\n"
	       "were all counted (IPC, mispredicts and refills per access and per 1000\n"
	       "instructions, stall cycles per cycle) after '#', and the elapsed time, on\n"
	       "stderr (-o: in FILE). Ctrl-C ends the command, and the counts so far are\n"
	       "printed.\n\n"
	       "  -e, --event EVENTS  event names (pmuctl list), perf aliases, raw 0x11 or r11,\n"
	       "                      with :u (user mode) or :k (kernel mode); repeatable\n"
	       "  -M, --metrics GROUP[:u|:k]\n"
	       "                      the events of a metric group (below), with the modifier\n"
	       "  -r, --repeat N      run N times: means, and the relative standard deviation\n"
	       "  -x, --field-separator SEP\n"
	       "                      perf stat's fields, one line per count: VALUE, UNIT,\n"
	       "                      EVENT, [VARIANCE%%,] TIME COUNTED (ns), %% OF TIME\n"
	       "                      COUNTED, METRIC VALUE, METRIC UNIT\n"
	       "      --json          perf stat -j's: one JSON object per count\n"
	       "  -p, --pid PID       count a running process instead, until it exits or\n"
	       "                      Ctrl-C: its threads, and the threads and children they\n"
	       "                      create after that\n"
	       "  -C, --cpu CPU       count everything that runs on CPU while COMMAND runs\n"
	       "                      (pinned there); needs CAP_PERFMON or CAP_SYS_ADMIN\n"
	       "  -a, --all-cpus      count everything on every CPU while COMMAND runs; the same\n"
	       "  -o, --output FILE   write the counts to FILE\n"
	       "      --no-calibrate  accepted for old scripts; does nothing (counting starts\n"
	       "                      at the command's exec: nothing of pmuctl's is counted)\n\n"
	       "Metric groups (-M; refused where the core lacks an event or counters):\n");
	stat_metric_groups_print(stdout, 2);
	printf("\nMore events than the core has counters is refused: no multiplexing. Where\n"
	       "the threads ran but their counters could not be loaded (a whole-CPU counter\n"
	       "or perf held the PMU) they were not counted: the counts then show the share\n"
	       "of the time counted; counts of none of it, and counts that cannot be\n"
	       "trusted, are <not counted>.\n"
	       "Exit status: COMMAND's (128+N if killed by signal N), or with -p 0; 127\n"
	       "if COMMAND was not found, 126 if it could not be executed (no counts\n"
	       "then); 1 if pmuctl failed or the counts are not trustworthy, 2 for a\n"
	       "usage error.\n");
}

static int parse_pid(const char *arg, pid_t *pid)
{
	char *end;
	long n;

	errno = 0;
	n = strtol(arg, &end, 10);
	if (errno || end == arg || *end || n <= 0 || n > 0x3fffffff)
		return usage_error("-p needs a process ID, not '%s'", arg);
	*pid = (pid_t)n;
	return 0;
}

/*
 * -e's comma-separated events, in place; an empty one ("", "a,,b") is
 * refused rather than skipped. Returns 0, or the exit status.
 */
static int parse_events(char *arg, struct stat_events *ev)
{
	size_t len = strlen(arg);
	char *next;

	if (!len || arg[0] == ',' || arg[len - 1] == ',' || strstr(arg, ",,"))
		return usage_error("-e '%s': an event name is empty", arg);
	for (; arg; arg = next) {
		next = strchr(arg, ',');
		if (next)
			*next++ = '\0';
		if (ev->nspecs >= MAX_EVENTS)
			return usage_error("too many events");
		ev->specs[ev->nspecs++] = arg;
	}
	return 0;
}

/*
 * -M GROUP[:MODIFIER]: the group's events, after -e's, each with the
 * modifier (:u, :k); "-M list" lists the groups and exits. Returns 0, or
 * the exit status.
 */
static int parse_group(const char *arg, struct stat_events *ev)
{
	const char *colon = strchr(arg, ':');
	char name[32];
	const struct stat_group *g;

	if (!strcmp(arg, "list")) {
		printf("Metric groups (pmuctl stat -M GROUP[:u|:k]):\n");
		stat_metric_groups_print(stdout, 2);
		exit(EXIT_SUCCESS);
	}
	if (ev->group)
		return usage_error("one -M at a time");
	snprintf(name, sizeof(name), "%.*s", colon ? (int)(colon - arg) : (int)strlen(arg), arg);
	g = stat_metric_group(name);
	if (!g)
		return usage_error("no metric group '%s' (pmuctl stat -M list lists them)", name);
	ev->group = g;
	for (int k = 0; k < GROUP_MAX_EVENTS && g->events[k]; k++) {
		if (ev->nspecs >= MAX_EVENTS)
			return usage_error("too many events");
		snprintf(ev->group_specs[k], sizeof(ev->group_specs[k]), "%s%.8s", g->events[k],
			 colon ? colon : "");
		ev->specs[ev->nspecs++] = ev->group_specs[k];
	}
	return 0;
}

/* Returns 0 to go on, or the exit status of a usage error. */
static int parse_options(int argc, char **argv, struct stat_options *o, struct measurement *m)
{
	static const struct option opts[] = {
		{ "event", required_argument, NULL, 'e' },
		{ "metrics", required_argument, NULL, 'M' },
		{ "repeat", required_argument, NULL, 'r' },
		{ "field-separator", required_argument, NULL, 'x' },
		{ "json", no_argument, NULL, 'j' },
		{ "pid", required_argument, NULL, 'p' },
		{ "cpu", required_argument, NULL, 'C' },
		{ "all-cpus", no_argument, NULL, 'a' },
		{ "output", required_argument, NULL, 'o' },
		{ "no-calibrate", no_argument, NULL, 'n' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	bool targets = false;	/* one of -p, -C, -a was given */
	char *end;
	int opt, ret;

	opterr = 0;
	while ((opt = getopt_long(argc, argv, "+:e:M:r:x:p:C:ao:h", opts, NULL)) != -1) {
		if ((opt == 'p' || opt == 'C' || opt == 'a') && targets)
			return usage_error("-p, -C and -a go one at a time");
		switch (opt) {
		case 'e':
			ret = parse_events(optarg, &m->events);
			if (ret)
				return ret;
			break;
		case 'M':
			ret = parse_group(optarg, &m->events);
			if (ret)
				return ret;
			break;
		case 'r':
			errno = 0;
			o->repeat = (int)strtol(optarg, &end, 10);
			if (errno || *end || end == optarg || o->repeat < 1 || o->repeat > 100000)
				return usage_error("-r needs a count from 1 to 100000, not '%s'", optarg);
			break;
		case 'x':
			o->sep = optarg;
			break;
		case 'j':
			o->json = true;
			break;
		case 'p':
			targets = true;
			m->run.target = TARGET_PROCESS;
			if (parse_pid(optarg, &m->run.pid))
				return EXIT_USAGE;
			break;
		case 'C':
			targets = true;
			m->run.target = TARGET_CPU;
			if (!parse_cpu(optarg, &m->run.cpu))
				return usage_error("no CPU '%s'", optarg);
			break;
		case 'a':
			targets = true;
			m->run.target = TARGET_ALL_CPUS;
			break;
		case 'o':
			o->output = optarg;
			break;
		case 'n':
			/* Nothing is calibrated any more: kept for old scripts. */
			break;
		case 'h':
			usage();
			exit(EXIT_SUCCESS);
		default:
			return option_error(opt, argv);
		}
	}
	if (m->run.target == TARGET_PROCESS) {
		if (optind != argc)
			return usage_error("-p counts a running process: no command too");
		if (o->repeat != 1)
			return usage_error("-p counts once: no -r");
	} else if (optind == argc) {
		return usage_error("no command to run");
	}
	if (o->sep && o->json)
		return usage_error("-x and --json do not go together");
	return 0;
}

/* ---- the run ---- */

/* Counts the command (-r times), or -p's process. */
static int measure(struct measurement *m, const struct stat_options *o)
{
	int ret = 0;

	if (m->run.target == TARGET_PROCESS)
		return count_process(m);
	if (!task_mode(&m->run))
		ret = stat_files_open_cpus(&m->files, &m->events, &m->run);
	/* Ctrl-C is for the command: pmuctl lives on to print the counts. */
	signal(SIGINT, SIG_IGN);
	for (int i = 0; i < o->repeat && !ret; i++)
		ret = run_once(m);
	signal(SIGINT, SIG_DFL);
	return ret;
}

static void print(FILE *out, const struct measurement *m, const struct stat_options *o,
		  char **cmd)
{
	if (o->json)
		stat_print_json(out, &m->run);
	else if (o->sep)
		stat_print_separated(out, &m->run, o->sep);
	else
		stat_print_table(out, &m->run, cmd);
	if (o->json || o->sep)
		stat_print_stderr_notes(&m->run, cmd[0]);
}

int cmd_stat(int argc, char **argv)
{
	struct measurement m = { .run.target = TARGET_COMMAND };
	struct stat_options o = { .repeat = 1 };
	FILE *out = stderr;
	int ret;

	ret = parse_options(argc, argv, &o, &m);
	if (ret)
		return ret;
	m.events.defaults = !m.events.nspecs;
	if (m.events.defaults) {
		for (size_t i = 0; i < sizeof(default_events) / sizeof(default_events[0]); i++)
			m.events.specs[m.events.nspecs++] = (char *)default_events[i];
	}
	if (m.run.target != TARGET_PROCESS) {
		ret = stat_workload_find(&m.command, argv + optind);
		if (ret)
			return ret;
	}
	if (o.output && !(out = fopen(o.output, "we")))
		return fail("%s: %s", o.output, strerror(errno));
	ret = measure(&m, &o);
	if (m.run.runs && !m.workload_failed) {
		print(out, &m, &o, argv + optind);
		ret = m.run.status ? m.run.status : m.run.disturbed ? EXIT_FAILURE : ret;
	}
	stat_files_close(&m.files);
	if (out != stderr)
		fclose(out);
	return ret;
}
