// SPDX-License-Identifier: GPL-2.0
/*
 * pmuctl stat's options: perf stat's, with its letters and its long
 * names, parsed into the measurement's target and events and the way the
 * counts are printed.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmuctl.h"
#include "stat-metrics.h"
#include "stat-options.h"
#include "stat-threads.h"

static void usage(void)
{
	printf("Usage: pmuctl stat [OPTIONS] [-- COMMAND [ARGS...]]\n"
	       "       pmuctl stat [OPTIONS] -p PID[,PID...] | -t TID[,TID...] [-- COMMAND...]\n"
	       "       pmuctl stat -M list\n\n"
	       "Counts events while COMMAND runs: COMMAND and every thread and child process\n"
	       "it creates, wherever the scheduler runs them, and nothing else. Prints, as\n"
	       "perf stat does, task-clock, context-switches and cpu-migrations (from the\n"
	       "driver), page-faults (from the command's resource usage; -I, -p, -t: from\n"
	       "/proc), what the events counted (default, perf's: cycles,instructions,\n"
	       "branches,branch-misses), the metrics whose counts\n"
	       "were all counted after '#', the elapsed time and the user and system\n"
	       "seconds, on stderr (-o: in FILE). Ctrl-C ends the command, and the counts\n"
	       "so far are printed.\n\n"
	       "  -e, --event EVENTS  event names (pmuctl list), perf aliases, raw 0x11 or r11,\n"
	       "                      perf's PMU/event=0xNN/ (cpu, armv8_pmuv3, armv7_cortex_a7,\n"
	       "                      ...), with :u (user mode) or :k (kernel mode); groups\n"
	       "                      {a,b}[:u] counted together; task-clock, context-switches,\n"
	       "                      page-faults, minor-faults, major-faults; with -a\n"
	       "                      cpu-clock and the system's switches and faults (-a's\n"
	       "                      default lines), with -C cpu-clock alone; repeatable\n"
	       "  -M, --metrics GROUP[:u|:k]\n"
	       "                      the events of a metric group (below), with the modifier\n"
	       "  -r, --repeat N      run N times: means, and perf's +- (the standard deviation\n"
	       "                      of the mean, in %%), the elapsed time's too\n"
	       "  -x, --field-separator SEP\n"
	       "                      perf stat's fields, one line per count: VALUE, UNIT,\n"
	       "                      EVENT, [VARIANCE%%,] TIME COUNTED (ns), %% OF TIME\n"
	       "                      COUNTED, METRIC VALUE, METRIC UNIT\n"
	       "  -j, --json          perf stat -j's: one JSON object per count\n"
	       "      --metric-only   the metrics alone, a column each\n"
	       "  -I, --interval-print MSECS\n"
	       "                      print the counts of every MSECS (10 and up) as the\n"
	       "                      command runs, each line after its time, as perf does\n"
	       "  -D, --delay MSECS   start counting MSECS after the command starts\n"
	       "  -p, --pid PIDS      count running processes instead: their threads, and the\n"
	       "                      threads and children they create after that; while\n"
	       "                      COMMAND runs (not counted: it says how long, as perf's),\n"
	       "                      else until they exit or Ctrl-C; -r with COMMAND\n"
	       "  -t, --tid TIDS      the same for threads alone\n"
	       "  -C, --cpu CPUS      count everything that runs on CPUS (0,1 or 1-2) while\n"
	       "                      COMMAND runs; COMMAND runs where the scheduler puts it;\n"
	       "                      needs CAP_PERFMON or CAP_SYS_ADMIN\n"
	       "  -a, --all-cpus      the same on every CPU\n"
	       "  -A, --no-aggr       with -C or -a: each CPU's counts on lines of their own\n"
	       "      --per-thread    with a command, -p or -t: each thread's counts on lines\n"
	       "                      of their own, named COMM-TID as perf names them, exited\n"
	       "                      threads included (not with more events than counters)\n"
	       "  -o, --output FILE   write the counts to FILE, after perf's \"# started on\"\n"
	       "      --append        append to -o's FILE\n"
	       "      --passes        more events than counters, exactly: run COMMAND once per\n"
	       "                      set of events that fits the counters ({} groups whole),\n"
	       "                      each pass also counting INST_RETIRED (in the events'\n"
	       "                      mode, else :u), which must agree between passes\n"
	       "      --no-calibrate  accepted for old scripts; does nothing (counting starts\n"
	       "                      at the command's exec: nothing of pmuctl's is counted)\n"
	       "  -d, --detailed      perf's detailed events, by Arm's names (-dd: more)\n"
	       "  -v, --verbose       say why an event is <not supported>\n"
	       "  -q, --quiet         print no counts\n"
	       "  -B, --big-num, --no-big-num\n"
	       "                      thousands' separators (default) or none\n"
	       "      --no-scale      counts of part of the time as counted, not scaled up\n"
	       "      --interval-count N, --interval-clear, --summary\n"
	       "                      -I's: N intervals; a clear screen before each; the\n"
	       "                      totals after them (with -x, first field \"summary\"\n"
	       "                      unless --no-csv-summary)\n"
	       "      --timeout MSECS stop after MSECS (the command gets SIGTERM)\n"
	       "      --pre CMD, --post CMD\n"
	       "                      run CMD (sh) before, after each run, not counted\n"
	       "      --table         with -r: each run's elapsed time\n"
	       "      --log-fd FD     write the counts to descriptor FD\n"
	       "      --all-user, --all-kernel\n"
	       "                      :u (:k) on every event without a modifier\n"
	       "  -n, --null          count nothing: the time alone\n"
	       "  -i, --no-inherit    the first thread alone, not what it creates\n"
	       "      --per-core, --per-cluster, --per-socket\n"
	       "                      with -a or -C: the CPUs' counts by topology\n"
	       "  -G, --topdown, --control and -D -1 are refused, saying why\n\n"
	       "Metric groups (-M; refused where the core lacks an event or counters):\n");
	stat_metric_groups_print(stdout, 2);
	printf("\nMore events than the core has counters take turns on them (multiplexed, as\n"
	       "perf does): each count is scaled to the whole time, with its share of it;\n"
	       "--passes counts them exactly instead. A group larger than the counters is\n"
	       "refused. :p (precise sampling) and :G, :H (KVM guest, host) are refused:\n"
	       "armpmu counts, it does not sample. Where the threads ran but their counters\n"
	       "could not be loaded (a whole-CPU counter or perf held the PMU) they were not\n"
	       "counted: each count is then scaled up to the whole time as perf scales it,\n"
	       "followed by the share of the time counted; counts of none of it, and counts\n"
	       "that cannot be trusted, are <not counted>.\n"
	       "Exit status: COMMAND's (128+N if killed by signal N; 0 if --timeout stopped\n"
	       "it); 127 if COMMAND was not found, 126 if it could not be executed (no\n"
	       "counts then); without a command (-p, -t, -a, -C, or none: the whole system\n"
	       "until Ctrl-C, with CAP_PERFMON) 0, or 130 if SIGINT ended it; 1 if pmuctl\n"
	       "failed or the counts are not trustworthy, or with --passes if the passes'\n"
	       "INST_RETIRED differ; 2 for a usage error; --pre's or --post's if it failed.\n");
}

/* -p's and -t's comma-separated IDs into target->pid_list. */
static int parse_pids(const char *arg, int opt, struct stat_target *target)
{
	const char *what = opt == 't' ? "thread" : "process";
	const char *p = arg;
	char *end;
	long n;

	do {
		errno = 0;
		n = strtol(p, &end, 10);
		if (errno || end == p || (*end && *end != ',') || n <= 0 || n > 0x3fffffff)
			return usage_error("-%c needs a %s ID, not '%s' (or a list: 1,2)", opt, what, arg);
		if (target->npid_list == MAX_TARGETS)
			return usage_error("-%c: %d IDs at most", opt, MAX_TARGETS);
		target->pid_list[target->npid_list++] = (pid_t)n;
		p = end + 1;
	} while (*end);
	snprintf(target->given, sizeof(target->given), "%s", arg);
	return 0;
}

/* -C's list, perf's: "0", "0,1", "1-2", "0,2-3", into target->cpu_list. */
static int parse_cpus(const char *arg, struct stat_target *target)
{
	char *list = strdup(arg), *item, *save = NULL, *dash;
	int first, last, ret = 0;

	if (!list)
		return fail("out of memory");
	for (item = strtok_r(list, ",", &save); item && !ret; item = strtok_r(NULL, ",", &save)) {
		dash = strchr(item, '-');
		if (dash)
			*dash = '\0';
		if (!parse_cpu(item, &first) || (dash && !parse_cpu(dash + 1, &last)))
			ret = usage_error("no CPU '%s'", dash && parse_cpu(item, &first) ? dash + 1 : item);
		else if (dash && last < first)
			ret = usage_error("-C %s: a range goes up (%d-%d)", arg, last, first);
		for (int c = first; !ret && c <= (dash ? last : first); c++) {
			bool seen = false;

			for (int k = 0; k < target->ncpu_list; k++)
				seen |= target->cpu_list[k] == c;
			if (!seen && target->ncpu_list == MAX_TARGETS)
				ret = usage_error("-C: %d CPUs at most", MAX_TARGETS);
			else if (!seen)
				target->cpu_list[target->ncpu_list++] = c;
		}
	}
	if (!ret && !target->ncpu_list)
		ret = usage_error("no CPU '%s'", arg);
	free(list);
	snprintf(target->given, sizeof(target->given), "%s", arg);
	return ret;
}

/* A number of milliseconds for -I or -D, from @min. */
static int parse_msecs(const char *arg, int opt, int min, int *ms)
{
	char *end;
	long n;

	errno = 0;
	n = strtol(arg, &end, 10);
	if (errno || end == arg || *end || n < min || n > 3600000) {
		if (!opt)
			return usage_error("--timeout needs milliseconds from %d to 3600000, not '%s'", min, arg);
		return usage_error("-%c needs milliseconds from %d to 3600000, not '%s'", opt, min, arg);
	}
	*ms = (int)n;
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
	snprintf(ev->group_as, sizeof(ev->group_as), "%s", name);
	for (int k = 0; k < GROUP_MAX_EVENTS && g->events[k]; k++) {
		if (ev->nspecs >= MAX_EVENTS)
			return usage_error("too many events");
		snprintf(ev->group_specs[k], sizeof(ev->group_specs[k]), "%s%.8s", g->events[k],
			 colon ? colon : "");
		ev->specs[ev->nspecs++] = ev->group_specs[k];
	}
	return 0;
}

/* --per-thread's refusals: 0, or the usage error's status. */
static int per_thread_options(const struct stat_options *o, const struct stat_target *target,
			      const struct stat_config *config,
			      const struct stat_events *ev)
{
	if (!o->per_thread)
		return 0;
	if (target->kind != TARGET_COMMAND && target->kind != TARGET_PROCESS)
		return usage_error("--per-thread counts threads (a command, -p, -t): not with -C or -a");
	if (o->repeat != 1 || o->interval_ms || o->passes)
		return usage_error("--per-thread prints one run's threads at its end: no -r, -I or --passes");
	if (config->metric_only)
		return usage_error("--per-thread prints counts: not with --metric-only");
	if (ev->software & ~(1U << SW_TASK_CLOCK | 1U << SW_CONTEXT_SWITCHES |
			     1U << SW_CPU_MIGRATIONS))
		return usage_error("--per-thread: the driver counts task-clock, context-switches and cpu-migrations per thread; page faults have no per-thread source");
	return 0;
}

/* The long options without a letter. */
enum { OPT_APPEND = 256, OPT_METRIC_ONLY, OPT_NO_CALIBRATE, OPT_PASSES, OPT_PER_THREAD,
       OPT_NO_BIG_NUM, OPT_INTERVAL_COUNT, OPT_INTERVAL_CLEAR, OPT_TIMEOUT, OPT_PRE,
       OPT_POST, OPT_TABLE, OPT_SUMMARY, OPT_NO_CSV_SUMMARY, OPT_LOG_FD, OPT_ALL_USER,
       OPT_ALL_KERNEL, OPT_NO_SCALE, OPT_PER_CORE, OPT_PER_SOCKET, OPT_PER_CLUSTER, OPT_TOPDOWN,
       OPT_CONTROL, OPT_QUIET };

/* A count of @what from 1, for --interval-count and --log-fd (from 0). */
static int parse_count(const char *arg, const char *what, int min, int *n)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(arg, &end, 10);
	if (errno || end == arg || *end || v < min || v > 1000000000)
		return usage_error("%s needs a number from %d, not '%s'", what, min, arg);
	*n = (int)v;
	return 0;
}

/*
 * perf stat's options beyond the first ones (issue 28): 0, the usage
 * error's status, or -1 for an option unknown to perf too.
 */
static int perf_option(int opt, struct stat_options *o, struct stat_target *target,
		       struct stat_config *config,
		       struct stat_events *ev)
{
	switch (opt) {
	case 'd':
		o->detailed++;
		return 0;
	case 'v':
		ev->verbose = true;
		return 0;
	case 'q':
	case OPT_QUIET:
		o->quiet = true;
		return 0;
	case 'B':
		config->no_big_num = false;
		return 0;
	case OPT_NO_BIG_NUM:
		config->no_big_num = true;
		return 0;
	case 'c':
		config->no_scale = false;	/* perf's default too */
		return 0;
	case OPT_NO_SCALE:
		config->no_scale = true;
		return 0;
	case OPT_INTERVAL_COUNT:
		return parse_count(optarg, "--interval-count", 1, &o->interval_count);
	case OPT_INTERVAL_CLEAR:
		o->interval_clear = true;
		return 0;
	case OPT_TIMEOUT:
		return parse_msecs(optarg, 0, 10, &o->timeout_ms);
	case OPT_PRE:
		o->pre = optarg;
		return 0;
	case OPT_POST:
		o->post = optarg;
		return 0;
	case OPT_TABLE:
		o->table = true;
		return 0;
	case OPT_SUMMARY:
		o->summary = true;
		return 0;
	case OPT_NO_CSV_SUMMARY:
		o->no_csv_summary = true;
		return 0;
	case OPT_LOG_FD:
		return parse_count(optarg, "--log-fd", 0, &o->log_fd);
	case OPT_ALL_USER:
	case OPT_ALL_KERNEL:
		if (o->all_mode && o->all_mode != (opt == OPT_ALL_USER ? 'u' : 'k'))
			return usage_error("--all-user and --all-kernel: one or the other");
		o->all_mode = opt == OPT_ALL_USER ? 'u' : 'k';
		return 0;
	case 'n':
		o->null_run = true;
		return 0;
	case 'i':
		target->no_inherit = true;
		return 0;
	case OPT_PER_CORE:
	case OPT_PER_SOCKET:
	case OPT_PER_CLUSTER:
		o->aggr = opt == OPT_PER_CORE ? AGGR_CORE : opt == OPT_PER_SOCKET ? AGGR_SOCKET :
			  AGGR_CLUSTER;
		return 0;
	case 'G':
		return usage_error("-G counts a cgroup's tasks; armpmu counts threads (a command, -p, -t) and whole CPUs (-C, -a), and has no cgroup filter: count the cgroup's processes with -p (cat its cgroup.procs)");
	case OPT_TOPDOWN:
		/* Level 1 only; on the Cortex-A76 (stat-metrics.c; pmuctl explain topdown). */
		if (optarg && strcmp(optarg, "1"))
			return usage_error("--td-level %s: pmuctl's top-down has level 1 alone (pmuctl explain topdown)",
					   optarg);
		return parse_group("topdown", ev);
	case OPT_CONTROL:
		return usage_error("--control: pmuctl has no control fifo; -D MSECS starts counting later, and -I prints as the command runs");
	}
	return -1;
}

/* The options that shape a run, checked together: 0, or the usage error's status. */
static int more_checks(const struct stat_options *o, const struct stat_target *target,
		       const struct stat_config *config,
		       const struct stat_events *ev)
{
	bool cpus = target->kind == TARGET_CPU || target->kind == TARGET_ALL_CPUS;

	if ((o->interval_count || o->interval_clear || o->summary) && !o->interval_ms)
		return usage_error("--interval-count, --interval-clear and --summary are -I's: no -I");
	if (o->timeout_ms && o->interval_ms)
		return usage_error("--timeout with -I: as perf, one or the other (--interval-count N stops -I after N intervals)");
	if (o->timeout_ms && o->per_thread)
		return usage_error("--timeout with --per-thread: not yet");
	if (o->log_fd >= 0 && o->output)
		return usage_error("--log-fd and -o: one or the other, as perf");
	if (o->null_run && (ev->nspecs || ev->software || o->detailed))
		return usage_error("-n counts nothing, the elapsed time alone: no -e, -M or -d");
	if (o->null_run && (o->passes || o->per_thread || config->metric_only || o->interval_ms))
		return usage_error("-n counts nothing: no --passes, --per-thread, --metric-only or -I");
	if (o->null_run && target->kind == TARGET_PROCESS)
		return usage_error("-n times a command, counting nothing: not with -p or -t");
	if (target->no_inherit && target->kind != TARGET_COMMAND && target->kind != TARGET_PROCESS)
		return usage_error("-i counts a command's (or -p's) first threads alone: not with -C or -a, which count whole CPUs");
	if (o->aggr && !cpus)
		return usage_error("--per-core, --per-socket and --per-cluster sum whole CPUs: with -a or -C");
	if (o->aggr && (o->no_aggr || o->repeat != 1 || o->interval_ms))
		return usage_error("--per-core, --per-socket and --per-cluster print one run's counts by topology: no -A, -r or -I");
	if (o->aggr && ev->software)
		return usage_error("software events are measured for all the CPUs together: not with --per-core, --per-socket or --per-cluster");
	return 0;
}

/* Returns 0 to go on, or the exit status of a usage error. */
int stat_options_parse(int argc, char **argv, struct stat_options *o, struct stat_target *target,
		       struct stat_config *config,
		       struct stat_events *ev)
{
	static const struct option opts[] = {
		{ "event", required_argument, NULL, 'e' },
		{ "metrics", required_argument, NULL, 'M' },
		{ "repeat", required_argument, NULL, 'r' },
		{ "field-separator", required_argument, NULL, 'x' },
		{ "json", no_argument, NULL, 'j' },
		{ "pid", required_argument, NULL, 'p' },
		{ "tid", required_argument, NULL, 't' },
		{ "cpu", required_argument, NULL, 'C' },
		{ "all-cpus", no_argument, NULL, 'a' },
		{ "no-aggr", no_argument, NULL, 'A' },
		{ "interval-print", required_argument, NULL, 'I' },
		{ "delay", required_argument, NULL, 'D' },
		{ "output", required_argument, NULL, 'o' },
		{ "append", no_argument, NULL, OPT_APPEND },
		{ "metric-only", no_argument, NULL, OPT_METRIC_ONLY },
		{ "no-calibrate", no_argument, NULL, OPT_NO_CALIBRATE },
		{ "passes", no_argument, NULL, OPT_PASSES },
		{ "per-thread", no_argument, NULL, OPT_PER_THREAD },
		{ "detailed", no_argument, NULL, 'd' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "quiet", no_argument, NULL, OPT_QUIET },
		{ "big-num", no_argument, NULL, 'B' },
		{ "no-big-num", no_argument, NULL, OPT_NO_BIG_NUM },
		{ "scale", no_argument, NULL, 'c' },
		{ "no-scale", no_argument, NULL, OPT_NO_SCALE },
		{ "interval-count", required_argument, NULL, OPT_INTERVAL_COUNT },
		{ "interval-clear", no_argument, NULL, OPT_INTERVAL_CLEAR },
		{ "timeout", required_argument, NULL, OPT_TIMEOUT },
		{ "pre", required_argument, NULL, OPT_PRE },
		{ "post", required_argument, NULL, OPT_POST },
		{ "table", no_argument, NULL, OPT_TABLE },
		{ "summary", no_argument, NULL, OPT_SUMMARY },
		{ "no-csv-summary", no_argument, NULL, OPT_NO_CSV_SUMMARY },
		{ "log-fd", required_argument, NULL, OPT_LOG_FD },
		{ "all-user", no_argument, NULL, OPT_ALL_USER },
		{ "all-kernel", no_argument, NULL, OPT_ALL_KERNEL },
		{ "null", no_argument, NULL, 'n' },
		{ "no-inherit", no_argument, NULL, 'i' },
		{ "per-core", no_argument, NULL, OPT_PER_CORE },
		{ "per-socket", no_argument, NULL, OPT_PER_SOCKET },
		{ "per-cluster", no_argument, NULL, OPT_PER_CLUSTER },
		{ "cgroup", required_argument, NULL, 'G' },
		{ "topdown", no_argument, NULL, OPT_TOPDOWN },
		{ "td-level", required_argument, NULL, OPT_TOPDOWN },
		{ "control", required_argument, NULL, OPT_CONTROL },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	bool targets = false;	/* one of -p, -t, -C, -a was given */
	char *end;
	int opt, ret = 0;

	opterr = 0;
	while ((opt = getopt_long(argc, argv, "+:e:M:r:x:jp:t:C:aAI:D:o:hdvqBcniG:", opts, NULL)) != -1) {
		if (strchr("ptCa", opt) && targets)
			return usage_error("-p, -t, -C and -a go one at a time");
		switch (opt) {
		case 'e':
			ret = stat_events_add(ev, optarg);
			break;
		case 'M':
			ret = parse_group(optarg, ev);
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
		case 't':
			targets = true;
			target->kind = TARGET_PROCESS;
			target->tids = opt == 't';
			ret = parse_pids(optarg, opt, target);
			break;
		case 'C':
			targets = true;
			target->kind = TARGET_CPU;
			ret = parse_cpus(optarg, target);
			break;
		case 'a':
			targets = true;
			target->kind = TARGET_ALL_CPUS;
			break;
		case 'A':
			o->no_aggr = true;
			break;
		case 'I':
			ret = parse_msecs(optarg, 'I', 10, &o->interval_ms);
			break;
		case 'D':
			if (!strcmp(optarg, "-1"))
				return usage_error("-D -1 starts with the events disabled for perf's --control to enable them; pmuctl has no --control: give -D the milliseconds to wait");
			ret = parse_msecs(optarg, 'D', 0, &o->delay_ms);
			break;
		case 'o':
			o->output = optarg;
			break;
		case OPT_APPEND:
			o->append = true;
			break;
		case OPT_METRIC_ONLY:
			config->metric_only = true;
			break;
		case OPT_PASSES:
			o->passes = true;
			break;
		case OPT_PER_THREAD:
			o->per_thread = true;
			break;
		case OPT_NO_CALIBRATE:
			/* Nothing is calibrated any more: kept for old scripts. */
			break;
		case 'h':
			usage();
			exit(EXIT_SUCCESS);
		default:
			ret = perf_option(opt, o, target, config, ev);
			if (ret < 0)
				return option_error(opt, argv);
		}
		if (ret)
			return ret;
	}
	if (target->kind == TARGET_PROCESS && optind == argc && o->repeat != 1)
		return usage_error("%s without a command counts once, until the %s end: -r repeats a command that says how long (-r 3 %s ID -- sleep 1)",
				   target->tids ? "-t" : "-p", target->tids ? "threads" : "processes",
				   target->tids ? "-t" : "-p");
	if (optind == argc && target->kind == TARGET_COMMAND) {
		/* perf's: the whole system until Ctrl-C (cmd_stat checks the privilege). */
		if (o->passes || o->per_thread || target->no_inherit || o->null_run || o->no_aggr)
			return usage_error("no command to run");
		target->kind = TARGET_ALL_CPUS;
		o->system_wide = true;
	}
	if (optind == argc && target->kind != TARGET_PROCESS && o->repeat != 1)
		return usage_error("without a command the CPUs are counted once, until Ctrl-C: -r repeats a command (-r 3 -a -- sleep 1)");
	if (optind == argc && target->kind != TARGET_PROCESS && o->passes)
		return usage_error("--passes runs a command once per set of events: no command to run");
	if (o->passes && target->kind != TARGET_COMMAND)
		return usage_error("--passes runs the command once per set of events: not with -p, -t, -C or -a");
	if (o->passes && (o->repeat != 1 || o->interval_ms || o->delay_ms))
		return usage_error("--passes runs the command once per set of events: no -r, -I or -D");
	ret = per_thread_options(o, target, config, ev);
	if (!ret)
		ret = more_checks(o, target, config, ev);
	if (ret)
		return ret;
	if (o->sep && o->json)
		return usage_error("-x and --json do not go together");
	if (o->append && !o->output && o->log_fd < 0)
		return usage_error("--append appends to -o's file (or --log-fd's): no -o");
	if (o->no_aggr && target->kind != TARGET_CPU && target->kind != TARGET_ALL_CPUS)
		return usage_error("-A gives each CPU's counts apart: with -C or -a");
	if (o->no_aggr && o->repeat != 1)
		return usage_error("-A gives one run's counts per CPU: no -r");
	if (o->interval_ms && o->repeat != 1)
		return usage_error("-I prints as the command runs: no -r");
	if ((ev->software & ~(1U << SW_CPU_CLOCK)) && target->kind == TARGET_CPU)
		return usage_error("-C: the kernel keeps context switches and page faults per process and for the whole system, not per CPU: of perf's software events only cpu-clock has a source there");
	if ((ev->software & 1U << SW_CPU_MIGRATIONS) && target->kind == TARGET_ALL_CPUS)
		return usage_error("-a: the kernel keeps no system-wide count of CPU migrations outside perf; cpu-migrations is a command's, from the driver");
	if ((ev->software & 1U << SW_TASK_CLOCK) && target->kind == TARGET_ALL_CPUS)
		return usage_error("-a: task-clock is a command's time; the CPUs' is cpu-clock");
	if ((ev->software & ~(1U << SW_CPU_CLOCK)) && o->no_aggr)
		return usage_error("-A: of perf's software events only cpu-clock has a source per CPU (each CPU file's time); the system's switches and faults are counted for all the CPUs together");
	return 0;
}

/*
 * The events counted without -e, perf's (its 6.1 default list): its
 * generic cycles, instructions, branches and branch-misses, by their place
 * in libpmudev's list of perf's names (pmudev_perf_alias()).
 */
static const unsigned int default_aliases[] = { 0, 1, 4, 5 };

/*
 * perf's default software lines, where pmuctl has a source for them, by
 * what is counted and how: a command's from its resource usage (-I: those
 * the driver counts, and page faults from /proc, at each interval), -a's
 * from the CPU files' times and /proc, -C's cpu-clock alone, -p's and
 * -t's from the driver and their page faults from /proc.
 */
#define SW(x)	(1U << SW_##x)
static const struct {
	enum target target;
	bool interval;		/* with -I */
	bool delayed_too;	/* with -D too (else none then) */
	unsigned int software;
} default_software[] = {
	{ TARGET_COMMAND, false, false,
	  SW(TASK_CLOCK) | SW(CONTEXT_SWITCHES) | SW(CPU_MIGRATIONS) | SW(PAGE_FAULTS) },
	{ TARGET_COMMAND, true, true, STAT_THREADS_SOFTWARE | SW(PAGE_FAULTS) },
	{ TARGET_ALL_CPUS, false, false, SW(CPU_CLOCK) | SW(CONTEXT_SWITCHES) | SW(PAGE_FAULTS) },
	{ TARGET_ALL_CPUS, true, false, SW(CPU_CLOCK) | SW(CONTEXT_SWITCHES) | SW(PAGE_FAULTS) },
	{ TARGET_CPU, false, false, SW(CPU_CLOCK) },
	{ TARGET_CPU, true, false, SW(CPU_CLOCK) },
	{ TARGET_PROCESS, false, true, STAT_THREADS_SOFTWARE | SW(PAGE_FAULTS) },
	{ TARGET_PROCESS, true, true, STAT_THREADS_SOFTWARE | SW(PAGE_FAULTS) },
};

/*
 * perf's detailed events (-d, -dd; perf's -ddd adds L1 data prefetches,
 * which arm64's perf maps to no event), as perf's arm64 driver maps its
 * cache events: L1-dcache-loads L1D_CACHE, its misses L1D_CACHE_REFILL,
 * LLC-loads LL_CACHE_RD, its misses LL_CACHE_MISS_RD; -dd L1-icache,
 * dTLB and iTLB loads and misses. By Arm's names, as pmuctl names events.
 */
static const char *const detailed_specs[][6] = {
	{ "L1D_CACHE", "L1D_CACHE_REFILL", "LL_CACHE_RD", "LL_CACHE_MISS_RD" },
	{ "L1I_CACHE", "L1I_CACHE_REFILL", "L1D_TLB", "L1D_TLB_REFILL", "L1I_TLB",
	  "L1I_TLB_REFILL" },
};

/* Without -e: perf's defaults; then -d's, and --all-user's modes. 0, or the usage error's status. */
int stat_options_defaults(const struct stat_options *o, const struct stat_target *target,
			  struct stat_config *config,
			  struct stat_events *ev)
{
	/* --topdown, -M topdown (TopdownL1): its shares in place of the stall ratios. */
	config->topdown = ev->group && !strcmp(ev->group->name, "topdown");
	if (!ev->nspecs && !ev->software && !o->null_run) {
		for (size_t i = 0; i < sizeof(default_aliases) / sizeof(default_aliases[0]); i++)
			ev->specs[ev->nspecs++] = (char *)pmudev_perf_alias(default_aliases[i]);
		for (size_t i = 0; i < sizeof(default_software) / sizeof(default_software[0]); i++)
			if (default_software[i].target == target->kind &&
			    default_software[i].interval == (o->interval_ms > 0) &&
			    (!o->delay_ms || default_software[i].delayed_too) && !o->aggr)
				/* -A: each CPU's cpu-clock, as perf's; the rest has no source per CPU. */
				ev->software = default_software[i].software &
					       (o->no_aggr ? 1U << SW_CPU_CLOCK : ~0U);
	}
	for (int level = 0; level < o->detailed && level < 2; level++)
		for (int k = 0; k < 6 && detailed_specs[level][k]; k++) {
			if (ev->nspecs >= MAX_EVENTS)
				return usage_error("-d: too many events with -e's");
			ev->specs[ev->nspecs++] = (char *)detailed_specs[level][k];
		}
	return o->all_mode ? stat_events_all_modes(ev, o->all_mode) : 0;
}
