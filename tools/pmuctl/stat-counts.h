/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pmuctl stat's counts and statistics (stat-counts.c): what a measurement
 * counted, summed over its runs and files, and what can be said of it:
 * means, their spread, the share of the time counted, whether the counts
 * are numbers at all. No device: the printers, and the host's unit tests,
 * work from a struct stat_run alone (and the target and config it points
 * to), as perf's stat-display.c works from its counts and config.
 *
 * Which of pmuctl's files may call which: tools/pmuctl/layers.
 */
#ifndef PMUCTL_STAT_COUNTS_H
#define PMUCTL_STAT_COUNTS_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include <pmudev.h>

/* The event counters, and the cycle counter. */
#define MAX_EVENTS	(ARMPMU_MAX_COUNTERS + 1)

/* -C's CPUs, -p's processes, -t's threads. */
#define MAX_TARGETS	64

/* What is counted. */
enum target {
	TARGET_COMMAND,		/* the command, its threads and children (task mode) */
	TARGET_PROCESS,		/* -p, -t: running processes' threads (task mode) */
	TARGET_CPU,		/* -C: everything on a list of CPUs (CPU mode) */
	TARGET_ALL_CPUS,	/* -a: everything on every CPU (CPU mode) */
};

/*
 * perf's software events pmuctl measures: for a command from its resource
 * usage (wait4's), from its exec to its end, with its reaped children;
 * for -a (stat-system.c) cpu-clock from the CPU files' time enabled and
 * the rest from the system's totals in /proc; for -C cpu-clock alone.
 * cpu-migrations, a command's only, from the driver (READ_THREADS: its
 * threads' switch-ins on another CPU than their last, while counted); where
 * that fails it is not printed, never as 0.
 */
enum stat_software {		/* libpmudev's enum pmudev_software, which -e's lists give */
	SW_CPU_CLOCK = PMUDEV_SW_CPU_CLOCK,	/* -a, -C: ms the CPUs were counted, summed */
	SW_TASK_CLOCK = PMUDEV_SW_TASK_CLOCK,	/* ms of CPU time, user and system */
	SW_CONTEXT_SWITCHES = PMUDEV_SW_CONTEXT_SWITCHES,	/* voluntary and involuntary */
	SW_CPU_MIGRATIONS = PMUDEV_SW_CPU_MIGRATIONS,
	SW_PAGE_FAULTS = PMUDEV_SW_PAGE_FAULTS,	/* minor and major */
	SW_MINOR_FAULTS = PMUDEV_SW_MINOR_FAULTS,
	SW_MAJOR_FAULTS = PMUDEV_SW_MAJOR_FAULTS,
	SW_COUNT = PMUDEV_SW_COUNT
};

/* One run's resource usage, from the command's exec to its end. */
struct stat_usage {
	double value[SW_COUNT];
	double user, sys;	/* seconds */
};

struct counter {
	unsigned int idx;	/* event counter, or ARMPMU_CYCLE_COUNTER */
	char name[96];		/* a copy: the file that named it may be closed */
	uint32_t event;		/* what it counts, for the metrics */
	uint32_t mode;		/* its ARMPMU_EXCLUDE_* flags: a metric's counts share them */
	double sum, sumsq;	/* over the runs, each scaled as perf scales it */
	/* Its own times, summed over runs and files: ns enabled, ns counted. */
	uint64_t time_enabled, time_running;
	bool missed;		/* a run counted it during none of its time */
};

/*
 * An event the core does not implement: not counted, its line perf's
 * "<not supported>", in its place among the counters' lines.
 */
struct stat_unsupported {
	const char *spec;	/* as -e gave it (the identity --passes merges by) */
	char name[96];		/* as printed: with the mode implied, as a counter's */
	int at;			/* printed before counters[at] (at ncounters: after the last) */
};

/*
 * What was asked: whom to count (perf's struct target). Set by the options;
 * each run points to it.
 */
struct stat_target {
	enum target kind;
	/* TARGET_CPU: -C's CPUs; TARGET_PROCESS: -p's processes or -t's threads. */
	int cpu_list[MAX_TARGETS], ncpu_list;
	pid_t pid_list[MAX_TARGETS];
	int npid_list;
	bool tids;		/* -t: the threads alone, not their processes' others */
	char given[128];	/* -C's, -p's or -t's list as given, for the header */
	bool no_inherit;	/* -i: the first threads alone, not what they create */
};

/*
 * How counts are shown, whatever they are (perf's struct
 * perf_stat_config): set by the options; each run points to it.
 */
struct stat_config {
	bool metric_only;	/* --metric-only */
	bool topdown;		/* --topdown (-M topdown): its shares, not the stall ratios */
	bool no_big_num;	/* --no-big-num: no thousands' separators */
	bool no_scale;		/* --no-scale: counts of part of the time left unscaled */
};

/*
 * Where a run's lines are, printed before them (perf's aggregation ID): -I's
 * time, -A's CPU, --per-core's group of CPUs, --per-thread's thread.
 */
struct stat_where {
	double interval;	/* -I: seconds since the start; 0: not -I */
	bool summary;		/* -I --summary -x: perf's "summary" field first */
	bool per_cpu;		/* -A: the lines are line_cpu's */
	int line_cpu;
	/* --per-core, --per-cluster, --per-socket: the lines are a group of CPUs'. */
	int aggr;		/* enum stat_aggr's: 0 none */
	int aggr_socket, aggr_id, aggr_nr;	/* S0-D0-C<id>, its CPUs */
	bool per_thread;	/* --per-thread: the lines are thread_comm-thread_tid's */
	char thread_comm[16];
	int thread_tid;
};

/*
 * What was measured: a command's runs, or a process's, or CPUs' counts,
 * and how the count ended. -A, -I and --per-thread make one per line
 * group, each with its own counts and place (where), all pointing to the
 * one target and config.
 */
struct stat_run {
	const struct stat_target *target;
	const struct stat_config *config;
	struct stat_where where;
	int threads;		/* TARGET_PROCESS: the threads attached */
	int cpus;		/* CPU mode: the CPUs counted */
	struct counter counters[MAX_EVENTS];
	int ncounters;
	/* Events this core does not implement: perf's <not supported> lines. */
	struct stat_unsupported unsupported[MAX_EVENTS + 1];
	int nunsupported;
	struct armpmu_info info;	/* of the first file opened */
	int runs;
	int status;		/* the command's, as a shell reports it */
	int signal;		/* the signal that killed it, or 0 */
	bool disturbed;
	bool exec_left;		/* a counted thread executed what may not be counted */
	bool interrupted;	/* -p: ended by SIGINT */
	double elapsed;		/* seconds, summed over the runs */
	double elapsed_sumsq;
	unsigned int software;	/* 1 << enum stat_software: the lines printed */
	double sw_sum[SW_COUNT], sw_sumsq[SW_COUNT];
	/*
	 * sw_sum[SW_TASK_CLOCK] is the driver's time on a CPU of the counted
	 * threads, printed or not (-I, -p, -t): 0 says none of them ran, and
	 * their software lines are perf's <not counted>.
	 */
	bool ran_known;
	bool usage;		/* the command's usage is known (user, sys) */
	double user, sys;	/* seconds, summed over the runs */
	const double *elapsed_each;	/* --table: each run's seconds (runs of them) */
	int timeout_ms;		/* the command was stopped by --timeout after this */
	uint64_t time_enabled, time_running;	/* summed over runs and files */
	/* --passes: how many runs of the command, and their reference's counts. */
	int passes;
	const char *reference;	/* its spec ("0x8:u") */
	double reference_min, reference_max;
};

/*
 * One reading of the device: a file's, or several files' summed slot by
 * slot. Each slot has its own times (a multiplexed file counts a slot only
 * while its set is in the PMU); slot[ARMPMU_CYCLE_COUNTER] is the cycle
 * counter, with the file's times.
 */
struct stat_sample {
	uint32_t flags;			/* ARMPMU_COUNTS_*, or-ed */
	uint64_t time_enabled, time_running;	/* the files' */
	struct armpmu_slot slot[MAX_EVENTS];
};

/*
 * @run emptied of counts, runs and times, its counters and what it
 * counts kept: the start of -I's, -A's and --per-thread's runs.
 */
void stat_counts_clear(struct stat_run *run);
/*
 * The order to print @n runs' lines of one count in: counter @i (or, @i
 * negative, software count -1 - @i) in @order. As given, but with
 * --per-thread (where.per_thread) from the largest count down, as perf orders
 * threads, ties in the given order.
 */
void stat_counts_order(const struct stat_run *runs, int n, int i, int *order);

/* @s less @before, slot by slot: an interval's counts. */
void stat_counts_sub(struct stat_sample *s, const struct stat_sample *before);

/*
 * Adds one run's counts (the sum of its files') to @run, each counter
 * with its slot's times (summed too): what it counted while in the PMU.
 */
void stat_counts_add(struct stat_run *run, const struct stat_sample *s);
/*
 * Adds one run's @value of @c, counted @running ns of the @enabled ns its
 * threads (or CPUs) ran, scaled up to @enabled as perf scales (value x
 * enabled / running, truncated) when @running is less; never counted
 * (@running 0) adds nothing, and marks @c missed.
 */
void stat_counts_add_counter(struct counter *c, uint64_t value, uint64_t enabled,
			     uint64_t running);

/* Adds @from's counts to @to's, counter by counter (one run each: -A's CPUs). */
void stat_counts_add_run(struct stat_run *to, const struct stat_run *from);
/* Adds one run's resource usage to @run's software counts, and its user and sys. */
void stat_counts_add_usage(struct stat_run *run, const struct stat_usage *u);
/* Adds one run's software counts alone (-a, -C: no user and sys). */
void stat_counts_add_software(struct stat_run *run, const struct stat_usage *u);
/* Adds one run's elapsed seconds. */
void stat_counts_add_elapsed(struct stat_run *run, double seconds);
/* The mean of software count @sw, and its relative standard deviation in %. */
double stat_counts_software(const struct stat_run *run, enum stat_software sw);
double stat_counts_software_rsd(const struct stat_run *run, enum stat_software sw);
/* The elapsed time's mean's standard deviation, in seconds, as perf's. */
double stat_counts_elapsed_sd(const struct stat_run *run);

/* @c's mean over the runs. */
double stat_counts_mean(const struct stat_run *run, const struct counter *c);
/*
 * The standard deviation of its mean (the runs' standard deviation over
 * the square root of their number), relative to the mean, in %: perf
 * stat -r's "+-".
 */
double stat_counts_rsd(const struct stat_run *run, const struct counter *c);
/* The share of the time counted, in %: 100 unless counts are incomplete. */
double stat_counts_coverage(const struct stat_run *run);
/* Whether the counters missed part of the time the threads ran. */
bool stat_counts_incomplete(const struct stat_run *run);
/*
 * Whether @run's counts are numbers: counted for some of the time (a
 * count of 0% of it is perf's "<not counted>"), not disturbed, and of
 * every program the command executed.
 */
bool stat_counts_numbers(const struct stat_run *run);
/*
 * Whether @c's mean is a number to print: @run's counts are (not
 * disturbed, of every program) and @c was counted during some of the time
 * of every run.
 */
bool stat_counts_counted(const struct stat_run *run, const struct counter *c);
/* Whether @c was counted during only part of the time: its mean is scaled. */
bool stat_counts_scaled(const struct counter *c);
/* @c's share of the time counted, in %, as the table shows it. */
double stat_counts_running(const struct counter *c);
/*
 * -x's and -j's two columns: @c's ns counted per run, and its share of the
 * time in whole percent, as perf computes it (100 when counted throughout).
 */
unsigned long long stat_counts_runtime(const struct stat_run *run, const struct counter *c);
double stat_counts_pcnt(const struct counter *c);
/* The first counter of @event in @mode (ARMPMU_EXCLUDE_* flags), or NULL. */
const struct counter *stat_counts_counter(const struct stat_run *run, uint32_t event,
					  uint32_t mode);

#endif /* PMUCTL_STAT_COUNTS_H */
