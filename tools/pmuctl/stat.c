// SPDX-License-Identifier: GPL-2.0
/*
 * pmuctl stat: count events while a command runs, on a CPU whose PMU this
 * process owns. The command is forked first and held on a pipe, so the
 * counting window holds only the release, the wait and the command itself:
 * pmuctl's own share is small and the same every run.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "pmuctl.h"

#define MAX_EVENTS	(ARMPMU_MAX_COUNTERS + 1)
#define EV_INST_RETIRED	0x08
#define EV_CPU_CYCLES	0x11
#define CALIBRATION_RUNS 3

struct counter {
	unsigned int idx;	/* event counter, or ARMPMU_CYCLE_COUNTER */
	const char *name;
	uint32_t event;		/* what it counts, for IPC */
	double sum, sumsq;	/* over the runs, pmuctl's share taken off */
	uint64_t overhead;	/* pmuctl's own share of a run */
	bool below_overhead;	/* a run counted less than that */
};

struct stat_run {
	struct counter counters[MAX_EVENTS];
	int ncounters;
	/* Default events this core does not implement, shown as such. */
	const char *unsupported[MAX_EVENTS];
	int nunsupported;
	int runs;
	int status;		/* the command's, as a shell reports it */
	bool calibrated;
	bool disturbed;
	double elapsed;		/* seconds, summed over the runs */
};

static const char *const default_events[] = { "cycles", "instructions" };

/*
 * Programs the events. The default ones a core does not implement (QEMU's
 * boards count instructions only with -icount) are listed as not supported
 * rather than failing: the user did not ask for them.
 */
static int add_events(struct pmudev *pmu, struct stat_run *run, char **specs, int nspecs,
		      bool defaults)
{
	const struct armpmu_info *info = pmudev_info(pmu);
	struct pmudev_event ev;
	char why[200];
	int idx;

	for (int i = 0; i < nspecs; i++) {
		idx = pmudev_add_event(pmu, specs[i]);
		if (idx == -ENOSPC)
			return fail("%d events, but CPU %d (%s) has %u event counters, and the cycle counter for 'cycles': armpmu does not multiplex; count them in several runs",
				    nspecs, pmudev_cpu(pmu),
				    pmudev_core_name(info->midr) ? pmudev_core_name(info->midr) : "?",
				    info->num_counters);
		if (idx == -ENOENT && defaults) {
			run->unsupported[run->nunsupported++] = specs[i];
			continue;
		}
		if (idx == -EACCES)
			return fail("%s: counting kernel mode needs CAP_PERFMON or CAP_SYS_ADMIN; count user mode with :u",
				    specs[i]);
		if (idx < 0) {
			if (pmudev_event_error(specs[i], info, why, sizeof(why)))
				return fail("%s", why);
			return fail("%s: %s", specs[i], pmudev_strerror(idx));
		}
		struct counter *c = &run->counters[run->ncounters++];

		c->idx = (unsigned int)idx;
		c->name = pmudev_counter_name(pmu, c->idx);
		c->event = idx == ARMPMU_CYCLE_COUNTER ? EV_CPU_CYCLES :
			   pmudev_event_parse(specs[i], info, &ev) ? 0 : ev.number;
	}
	return EXIT_SUCCESS;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* A shell's view of a wait status: the code, or 128 + the signal. */
static int shell_status(int status)
{
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	return 128 + WTERMSIG(status);
}

/*
 * The command's file, searched in PATH as a shell does, before the counting
 * starts: the search is not the command's work.
 */
static int resolve(const char *name, char *path, size_t len)
{
	const char *dirs = getenv("PATH"), *end;
	int err = ENOENT;

	if (strchr(name, '/')) {
		snprintf(path, len, "%s", name);
		return access(path, X_OK) ? errno : 0;
	}
	for (dirs = dirs ? dirs : "/usr/bin:/bin"; *dirs; dirs = *end ? end + 1 : end) {
		end = strchrnul(dirs, ':');
		snprintf(path, len, "%.*s/%s", (int)(end - dirs), end == dirs ? "." : dirs, name);
		if (!access(path, X_OK))
			return 0;
		if (errno == EACCES)
			err = EACCES;
	}
	return err;
}

/* Set by the vfork()ed child, which shares this memory until it execs. */
static volatile int child_start_err, child_exec_err;

/*
 * One counted run of @path (NULL: no command, the calibration run). The
 * child starts the counters itself, then makes the execve (or exit_group)
 * system call through the same syscall() path, while the parent waits in
 * vfork(): the only user-mode instructions counted besides the command's
 * are the child's return from START and the parent's from vfork() to
 * waitpid() and from waitpid() to STOP, the same every run. A calibration
 * run measures exactly those.
 */
static int count_child(struct pmudev *pmu, const char *path, char **cmd,
		       struct armpmu_counts *counts, int *status)
{
	/* Chosen now: the child's path to the system call is the same for both. */
	long nr = path ? SYS_execve : SYS_exit_group;
	int err;
	pid_t pid;

	err = pmudev_reset(pmu);
	if (err)
		return err;
	child_start_err = child_exec_err = 0;
	fflush(NULL);
	pid = vfork();
	if (pid < 0)
		return -errno;
	if (pid == 0) {
		err = pmudev_start(pmu);
		if (err) {
			child_start_err = err;
			_exit(127);
		}
		/* exit_group takes path, NULL here, as its status: 0. */
		syscall(nr, path, cmd, environ);
		child_exec_err = errno;
		syscall(SYS_exit_group, 126);
	}
	while (waitpid(pid, status, 0) < 0 && errno == EINTR)
		;
	pmudev_stop(pmu);
	return child_start_err ? child_start_err : pmudev_read(pmu, counts);
}

static uint64_t value_of(const struct counter *c, const struct armpmu_counts *counts)
{
	return c->idx == ARMPMU_CYCLE_COUNTER ? counts->cycles : counts->events[c->idx];
}

/*
 * pmuctl's own share of a run, per counter: the least of a few empty runs
 * (interrupts can only add to it; under -icount it is exact).
 */
static int calibrate(struct pmudev *pmu, struct stat_run *run)
{
	struct armpmu_counts counts;
	int status, err;

	for (int k = 0; k < CALIBRATION_RUNS; k++) {
		err = count_child(pmu, NULL, NULL, &counts, &status);
		if (err == -EIO)
			return fail("the counters were disturbed during calibration (see pmuctl status)");
		if (err)
			return fail("cannot calibrate: %s", pmudev_strerror(err));
		for (int i = 0; i < run->ncounters; i++) {
			struct counter *c = &run->counters[i];
			uint64_t v = value_of(c, &counts);

			if (k == 0 || v < c->overhead)
				c->overhead = v;
		}
	}
	run->calibrated = true;
	return EXIT_SUCCESS;
}

static int run_once(struct pmudev *pmu, struct stat_run *run, const char *path, char **cmd)
{
	struct armpmu_counts counts;
	int status, err;
	double t0, t1;

	t0 = now();
	err = count_child(pmu, path, cmd, &counts, &status);
	t1 = now();
	if (child_exec_err)
		fail("cannot run '%s': %s", cmd[0], strerror(child_exec_err));
	if (err == -EIO)
		run->disturbed = true;
	else if (err)
		return fail("cannot count: %s", pmudev_strerror(err));
	run->status = shell_status(status);
	run->elapsed += t1 - t0;
	for (int i = 0; i < run->ncounters; i++) {
		struct counter *c = &run->counters[i];
		double v = (double)value_of(c, &counts);

		if (run->calibrated) {
			if (v < c->overhead)
				c->below_overhead = true;
			v = v < c->overhead ? 0 : v - c->overhead;
		}
		c->sum += v;
		c->sumsq += v * v;
	}
	run->runs++;
	return EXIT_SUCCESS;
}

static double mean(const struct stat_run *run, const struct counter *c)
{
	return c->sum / run->runs;
}

/* The sample standard deviation over the runs, relative to the mean, in %. */
static double rel_stddev(const struct stat_run *run, const struct counter *c)
{
	double m = mean(run, c), var;

	if (run->runs < 2 || m == 0)
		return 0;
	var = (c->sumsq - run->runs * m * m) / (run->runs - 1);
	return var > 0 ? sqrt(var) / m * 100 : 0;
}

/* Instructions per cycle, or a negative value if not both were counted. */
static double ipc(const struct stat_run *run)
{
	double cycles = -1, insns = -1;

	for (int i = 0; i < run->ncounters; i++) {
		const struct counter *c = &run->counters[i];

		if (c->event == EV_CPU_CYCLES && cycles < 0)
			cycles = mean(run, c);
		else if (c->event == EV_INST_RETIRED && insns < 0)
			insns = mean(run, c);
	}
	return cycles > 0 && insns >= 0 ? insns / cycles : -1;
}

/*
 * A count as shown: its mean, or why there is none to trust: disturbed, or
 * a run counted less than pmuctl's own share (not calibrated out, then).
 */
static const char *value_text(const struct stat_run *run, const struct counter *c,
			      char *buf, size_t len, bool grouped)
{
	unsigned long long v = (unsigned long long)llround(mean(run, c));

	if (run->disturbed)
		return "<not trustworthy>";
	if (c->below_overhead)
		return "<below overhead>";
	if (grouped)
		return group_digits(v, buf, len);
	snprintf(buf, len, "%llu", v);
	return buf;
}

static void print_table(FILE *out, const struct stat_run *run, struct pmudev *pmu, char **cmd)
{
	const char *core = pmudev_core_name(pmudev_info(pmu)->midr);
	char digits[32];
	double r = ipc(run);

	fprintf(out, "\n Performance counter stats for '");
	for (char **a = cmd; *a; a++)
		fprintf(out, "%s%s", a == cmd ? "" : " ", *a);
	fprintf(out, "'");
	if (run->runs > 1)
		fprintf(out, " (%d runs", run->runs);
	fprintf(out, "%sCPU %d, %s)%s:\n\n", run->runs > 1 ? ", " : " (", pmudev_cpu(pmu),
		core ? core : "unknown core", "");
	for (int i = 0; i < run->ncounters; i++) {
		const struct counter *c = &run->counters[i];
		char note[48] = "";

		if (c->event == EV_INST_RETIRED && r >= 0 && !run->disturbed)
			snprintf(note, sizeof(note), " #  %6.2f  insn per cycle", r);
		if (run->runs > 1 && !run->disturbed)
			snprintf(note + strlen(note), sizeof(note) - strlen(note), "  ( +- %5.2f%% )",
				 rel_stddev(run, c));
		fprintf(out, " %18s      %-*s%s\n", value_text(run, c, digits, sizeof(digits), true),
			note[0] ? 24 : 0, c->name, note);
	}
	for (int i = 0; i < run->nunsupported; i++)
		fprintf(out, " %18s      %s\n", "<not supported>", run->unsupported[i]);
	fprintf(out, "\n %18.9f seconds time elapsed%s\n\n", run->elapsed / run->runs,
		run->runs > 1 ? " (mean)" : "");
	if (run->calibrated) {
		fprintf(out, " Taken off each count: pmuctl's own share of a run, least of %d empty runs:\n ",
			CALIBRATION_RUNS);
		for (int i = 0; i < run->ncounters; i++)
			fprintf(out, " %s %llu", run->counters[i].name,
				(unsigned long long)run->counters[i].overhead);
		fprintf(out, " (--no-calibrate keeps it).\n\n");
	}
	if (run->disturbed)
		fprintf(out, " Another user of the PMU (perf?) took or reset these counters during the run:\n"
			     " the counts are not trustworthy. See pmuctl status.\n\n");
	if (run->status)
		fprintf(out, " The command exited with status %d.\n\n", run->status);
}

static void print_separated(FILE *out, const struct stat_run *run, const char *sep)
{
	char digits[32];

	for (int i = 0; i < run->ncounters; i++) {
		const struct counter *c = &run->counters[i];

		fprintf(out, "%s%s%s", value_text(run, c, digits, sizeof(digits), false), sep,
			c->name);
		if (run->runs > 1)
			fprintf(out, "%s%.2f%%", sep, rel_stddev(run, c));
		fputc('\n', out);
	}
}

static void json_string(FILE *out, const char *s)
{
	fputc('"', out);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fprintf(out, "\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			fprintf(out, "\\u%04x", *s);
		else
			fputc(*s, out);
	}
	fputc('"', out);
}

static void print_json(FILE *out, const struct stat_run *run, struct pmudev *pmu, char **cmd)
{
	const char *core = pmudev_core_name(pmudev_info(pmu)->midr);
	double r = ipc(run);

	fprintf(out, "{\"command\": [");
	for (char **a = cmd; *a; a++) {
		fprintf(out, "%s", a == cmd ? "" : ", ");
		json_string(out, *a);
	}
	fprintf(out, "], \"cpu\": %d, \"core\": ", pmudev_cpu(pmu));
	json_string(out, core ? core : "unknown");
	fprintf(out, ", \"runs\": %d, \"status\": %d, \"elapsed_s\": %.9f, \"trustworthy\": %s, \"calibrated\": %s, \"counters\": [",
		run->runs, run->status, run->elapsed / run->runs, run->disturbed ? "false" : "true",
		run->calibrated ? "true" : "false");
	for (int i = 0; i < run->ncounters; i++) {
		const struct counter *c = &run->counters[i];

		fprintf(out, "%s{\"event\": ", i ? ", " : "");
		json_string(out, c->name);
		if (run->disturbed || c->below_overhead)
			fprintf(out, ", \"value\": null");
		else
			fprintf(out, ", \"value\": %llu", (unsigned long long)llround(mean(run, c)));
		fprintf(out, ", \"rsd_percent\": %.2f", rel_stddev(run, c));
		if (run->calibrated)
			fprintf(out, ", \"overhead\": %llu", (unsigned long long)c->overhead);
		fprintf(out, "}");
	}
	fprintf(out, "]");
	if (r >= 0 && !run->disturbed)
		fprintf(out, ", \"ipc\": %.4f", r);
	fprintf(out, "}\n");
}

static void usage(void)
{
	printf("Usage: pmuctl stat [-e EVENT[,EVENT...]]... [-r N] [-x SEP | --json]\n"
	       "                   [-C CPU] [-o FILE] [--no-calibrate] -- COMMAND [ARGS...]\n\n"
	       "Runs COMMAND on a CPU whose PMU pmuctl owns, pinned there, and prints\n"
	       "what the events counted (default: cycles,instructions), IPC when both\n"
	       "are counted, and the elapsed time, on stderr (-o: in FILE).\n\n"
	       "  -e, --event EVENTS  event names (pmuctl list), perf aliases, raw 0x11 or r11,\n"
	       "                      with :u (user mode) or :k (kernel mode); repeatable\n"
	       "  -r, --repeat N      run N times: means, and the relative standard deviation\n"
	       "  -x, --field-separator SEP\n"
	       "                      one line per event: VALUE SEP EVENT [SEP RSD%%]\n"
	       "      --json          one JSON object\n"
	       "  -C, --cpu CPU       count on CPU (default: this CPU, or another free one)\n"
	       "  -o, --output FILE   write the counts to FILE\n"
	       "      --no-calibrate  keep pmuctl's own share of each count (by default the\n"
	       "                      least of %d empty runs is taken off, and shown)\n\n"
	       "More events than the CPU has counters is refused: no multiplexing.\n"
	       "Exit status: COMMAND's (128+N if killed by signal N), or 1 if pmuctl\n"
	       "failed or the counts are not trustworthy, 2 for a usage error.\n",
	       CALIBRATION_RUNS);
}

int cmd_stat(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "event", required_argument, NULL, 'e' },
		{ "repeat", required_argument, NULL, 'r' },
		{ "field-separator", required_argument, NULL, 'x' },
		{ "json", no_argument, NULL, 'j' },
		{ "cpu", required_argument, NULL, 'C' },
		{ "output", required_argument, NULL, 'o' },
		{ "no-calibrate", no_argument, NULL, 'n' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	char *specs[MAX_EVENTS + 1], *sep = NULL, *output = NULL, *tok, *save, *end;
	struct stat_run run = { .runs = 0 };
	int opt, nspecs = 0, repeat = 1, cpu = PMUDEV_CPU_ANY, ret, err;
	struct pmudev *pmu;
	bool json = false, calibrated = true, defaults;
	char path[4096];
	FILE *out = stderr;

	while ((opt = getopt_long(argc, argv, "+e:r:x:C:o:h", opts, NULL)) != -1) {
		switch (opt) {
		case 'e':
			for (tok = strtok_r(optarg, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
				if (nspecs > MAX_EVENTS)
					return usage_error("too many events");
				specs[nspecs++] = tok;
			}
			break;
		case 'r':
			errno = 0;
			repeat = (int)strtol(optarg, &end, 10);
			if (errno || *end || end == optarg || repeat < 1 || repeat > 100000)
				return usage_error("-r needs a count from 1 to 100000, not '%s'", optarg);
			break;
		case 'x':
			sep = optarg;
			break;
		case 'j':
			json = true;
			break;
		case 'C':
			if (!parse_cpu(optarg, &cpu))
				return usage_error("no CPU '%s'", optarg);
			break;
		case 'o':
			output = optarg;
			break;
		case 'n':
			calibrated = false;
			break;
		case 'h':
			usage();
			return EXIT_SUCCESS;
		default:
			return usage_error("unknown option");
		}
	}
	if (optind == argc)
		return usage_error("no command to run");
	if (sep && json)
		return usage_error("-x and --json do not go together");
	defaults = !nspecs;
	if (defaults) {
		for (size_t i = 0; i < sizeof(default_events) / sizeof(default_events[0]); i++)
			specs[nspecs++] = (char *)default_events[i];
	}
	err = resolve(argv[optind], path, sizeof(path));
	if (err) {
		fail("cannot run '%s': %s", argv[optind], strerror(err));
		return err == ENOENT ? 127 : 126;
	}
	if (output && !(out = fopen(output, "we")))
		return fail("%s: %s", output, strerror(errno));
	if (open_pmu(&pmu, cpu, 0)) {
		ret = EXIT_FAILURE;
		goto close_out;
	}
	ret = add_events(pmu, &run, specs, nspecs, defaults);
	if (ret == EXIT_SUCCESS && calibrated)
		ret = calibrate(pmu, &run);
	for (int i = 0; i < repeat && ret == EXIT_SUCCESS; i++)
		ret = run_once(pmu, &run, path, argv + optind);
	if (run.runs) {
		if (json)
			print_json(out, &run, pmu, argv + optind);
		else if (sep)
			print_separated(out, &run, sep);
		else
			print_table(out, &run, pmu, argv + optind);
		ret = run.status ? run.status : run.disturbed ? EXIT_FAILURE : ret;
	}
	pmudev_close(pmu);
close_out:
	if (out != stderr)
		fclose(out);
	return ret;
}
