// SPDX-License-Identifier: GPL-2.0
/*
 * pmuctl stat's output: the human table, and perf stat's -x SEP fields and
 * -j JSON objects, so that scripts written for perf stat read pmuctl's.
 * A count that cannot be trusted is never shown as a number: perf's
 * "<not counted>" and "<not supported>" stand in for it, and a count of a
 * share of the time shows that share (percentage of time counted).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "pmuctl.h"
#include "stat.h"

#define NOT_COUNTED	"<not counted>"
#define NOT_SUPPORTED	"<not supported>"

const char *stat_core_name(const struct armpmu_info *info)
{
	const char *core = pmudev_core_name(info->midr);

	return core ? core : "unknown core";
}

const char *stat_signal_name(int sig, char *buf, size_t len)
{
	const char *abbrev = sigabbrev_np(sig), *text = strsignal(sig);

	if (abbrev)
		snprintf(buf, len, "SIG%s (%s)", abbrev, text);
	else
		snprintf(buf, len, "signal %d (%s)", sig, text);
	return buf;
}

double stat_mean(const struct stat_run *run, const struct counter *c)
{
	return run->runs ? c->sum / run->runs : 0;
}

/* The sample standard deviation over the runs, relative to the mean, in %. */
static double rel_stddev(const struct stat_run *run, const struct counter *c)
{
	double m = stat_mean(run, c), var;

	if (run->runs < 2 || m == 0)
		return 0;
	var = (c->sumsq - run->runs * m * m) / (run->runs - 1);
	return var > 0 ? sqrt(var) / m * 100 : 0;
}

/* The share of the time counted, in %: 100 unless counts are incomplete. */
static double coverage(const struct stat_run *run)
{
	const struct armpmu_counts c = {
		.time_enabled = run->time_enabled, .time_running = run->time_running,
	};

	return pmudev_coverage(&c) * 100;
}

static bool incomplete(const struct stat_run *run)
{
	return run->time_running < run->time_enabled;
}

/* Whether @c's count can be shown as a number. */
static bool trusted(const struct stat_run *run, const struct counter *c)
{
	return stat_counted(run) && !c->below_overhead;
}

static unsigned long long rounded(const struct stat_run *run, const struct counter *c)
{
	return (unsigned long long)llround(stat_mean(run, c));
}

/* ---- the table ---- */

/*
 * A count as the table shows it: its mean, or why there is none to trust:
 * disturbed, never counted (0% of the time), or a run counted less than
 * pmuctl's own share (not calibrated out, then).
 */
static const char *table_value(const struct stat_run *run, const struct counter *c,
			       char *buf, size_t len)
{
	if (run->disturbed)
		return "<not trustworthy>";
	if (!stat_counted(run))
		return NOT_COUNTED;
	if (c->below_overhead)
		return "<below overhead>";
	return group_digits(rounded(run, c), buf, len);
}

/* What was counted, for the header: "its threads and children, Cortex-A7". */
static void describe_target(FILE *out, const struct stat_run *run)
{
	switch (run->target) {
	case TARGET_COMMAND:
		fprintf(out, "with its threads and children, ");
		break;
	case TARGET_PROCESS:
		if (run->threads == 1)
			fprintf(out, "its thread and what it started, ");
		else
			fprintf(out, "its %d threads and what they started, ", run->threads);
		break;
	case TARGET_CPU:
		fprintf(out, "everything on CPU %d, ", run->cpu);
		break;
	case TARGET_ALL_CPUS:
		fprintf(out, "everything on all %d CPUs, ", run->files.n);
		break;
	}
	fprintf(out, "%s", stat_core_name(&run->info));
}

static void print_header(FILE *out, const struct stat_run *run, char **cmd)
{
	if (run->target == TARGET_PROCESS) {
		fprintf(out, "\n Performance counter stats for process id '%d' (", (int)run->pid);
	} else {
		fprintf(out, "\n Performance counter stats for '");
		for (char **a = cmd; *a; a++)
			fprintf(out, "%s%s", a == cmd ? "" : " ", *a);
		fprintf(out, "' (");
		if (run->runs > 1)
			fprintf(out, "%d runs, ", run->runs);
	}
	describe_target(out, run);
	fprintf(out, "):\n\n");
}

/* @c's line, with @metric (" #  1.00  insn per cycle", or ""). */
static void table_line(FILE *out, const struct stat_run *run, const struct counter *c,
		       const char *metric)
{
	char digits[32], note[160];

	snprintf(note, sizeof(note), "%s", metric);
	if (run->runs > 1 && !run->disturbed)
		snprintf(note + strlen(note), sizeof(note) - strlen(note), "  ( +- %5.2f%% )",
			 rel_stddev(run, c));
	if (incomplete(run))
		snprintf(note + strlen(note), sizeof(note) - strlen(note), "  (%.2f%%)",
			 coverage(run));
	fprintf(out, " %18s      %-*s%s\n", table_value(run, c, digits, sizeof(digits)),
		note[0] ? 24 : 0, c->name, note);
}

/* A count, its first metric beside it and any further one below. */
static void print_counter_lines(FILE *out, const struct stat_run *run, const struct counter *c)
{
	const struct stat_metric *m;
	bool first = true;
	char metric[80];
	double v;

	for (unsigned int k = 0; (m = stat_metric_of(c, k)); k++) {
		if (!stat_metric_value(run, m, &v))
			continue;
		snprintf(metric, sizeof(metric), " #  %6.*f  %s", m->digits, v, m->unit);
		if (first)
			table_line(out, run, c, metric);
		else
			fprintf(out, " %18s      %-24s%s\n", "", "", metric);
		first = false;
	}
	if (first)
		table_line(out, run, c, "");
}

static void print_notes(FILE *out, const struct stat_run *run)
{
	char sig[64];

	if (run->calibrated) {
		fprintf(out, " Taken off each count: pmuctl's own share of a run, least of %d empty runs:\n ",
			CALIBRATION_RUNS);
		for (int i = 0; i < run->ncounters; i++)
			fprintf(out, " %s %llu", run->counters[i].name,
				(unsigned long long)run->counters[i].overhead);
		fprintf(out, " (--no-calibrate keeps it).\n\n");
	}
	if (!run->disturbed && !run->time_enabled)
		fprintf(out, " Not counted: no counted thread ran while the counters were started.\n\n");
	else if (!run->disturbed && !run->time_running)
		fprintf(out, " Not counted: the threads ran, but their counters could never be loaded\n"
			     " (a whole-CPU counter or perf held the PMU all along; pmuctl status shows who).\n\n");
	else if (incomplete(run))
		fprintf(out, " Incomplete: counted %.2f%% of the time the threads ran; elsewhere their\n"
			     " counters could not be loaded (a whole-CPU counter or perf held the PMU).\n"
			     " The counts are of that share only, not scaled (pmuctl status shows who).\n\n",
			coverage(run));
	if (run->disturbed)
		fprintf(out, " Another user of the PMU (perf?) took or reset these counters during the run:\n"
			     " the counts are not trustworthy. See pmuctl status.\n\n");
	if (run->interrupted)
		fprintf(out, " Interrupted: the counts so far.\n\n");
	if (run->signal)
		fprintf(out, " The command was killed by %s.\n\n", stat_signal_name(run->signal, sig, sizeof(sig)));
	else if (run->status)
		fprintf(out, " The command exited with status %d.\n\n", run->status);
}

void stat_print_table(FILE *out, const struct stat_run *run, char **cmd)
{
	print_header(out, run, cmd);
	for (int i = 0; i < run->ncounters; i++)
		print_counter_lines(out, run, &run->counters[i]);
	for (int i = 0; i < run->nunsupported; i++)
		fprintf(out, " %18s      %s\n", NOT_SUPPORTED, run->unsupported[i]);
	fprintf(out, "\n %18.9f seconds time elapsed%s\n\n", run->elapsed / run->runs,
		run->runs > 1 ? " (mean)" : "");
	print_notes(out, run);
}

/* ---- perf's fields: -x SEP and --json ---- */

/*
 * One line of either format: a count (value NULL: not supported) with its
 * first metric, or (event NULL) a further metric of the count above.
 */
struct line {
	const char *value;	/* the count, or NOT_COUNTED, NOT_SUPPORTED */
	const char *event;
	bool variance;		/* -r: the relative standard deviation shown */
	double rsd;
	unsigned long long runtime;	/* ns counted, per run */
	double pcnt;			/* % of the time counted */
	const struct stat_metric *metric;	/* NULL: none */
	double metric_value;
};

static void csv_line(FILE *out, const struct line *l, const char *sep)
{
	if (l->event) {
		/* value, unit (none: counts have no unit), event */
		fprintf(out, "%s%s%s%s", l->value, sep, sep, l->event);
		if (l->variance)
			fprintf(out, "%s%.2f%%", sep, l->rsd);
		fprintf(out, "%s%llu%s%.2f", sep, l->runtime, sep, l->pcnt);
	} else {
		/* A further metric: every field before the metric's empty. */
		for (int k = l->variance ? 5 : 4; k > 0; k--)
			fputs(sep, out);
	}
	if (l->metric)
		fprintf(out, "%s%.*f%s%s\n", sep, l->metric->digits, l->metric_value, sep,
			l->metric->unit);
	else
		fprintf(out, "%s%s\n", sep, sep);
}

static void json_line(FILE *out, const struct line *l)
{
	fputc('{', out);
	if (l->event) {
		fputs("\"counter-value\" : ", out);
		json_string(out, l->value);
		fputs(", \"unit\" : \"\", \"event\" : ", out);
		json_string(out, l->event);
		if (l->variance)
			fprintf(out, ", \"variance\" : %.2f", l->rsd);
		fprintf(out, ", \"event-runtime\" : %llu, \"pcnt-running\" : %.2f, ", l->runtime,
			l->pcnt);
	}
	fprintf(out, "\"metric-value\" : %f, \"metric-unit\" : ",
		l->metric ? l->metric_value : 0.0);
	json_string(out, l->metric ? l->metric->unit : "");
	fputs("}\n", out);
}

/* A count's line, then one for each further metric of it that came out. */
static void count_lines(FILE *out, const struct stat_run *run, const struct counter *c,
			const char *sep)
{
	char value[40];
	struct line l = {
		.value = value, .event = c->name, .variance = run->runs > 1,
		.rsd = rel_stddev(run, c), .pcnt = coverage(run),
		.runtime = run->runs ? run->time_running / (unsigned int)run->runs : 0,
	};
	const struct stat_metric *m;

	if (!trusted(run, c))
		l.value = NOT_COUNTED;
	else if (sep)
		snprintf(value, sizeof(value), "%llu", rounded(run, c));
	else
		snprintf(value, sizeof(value), "%f", (double)rounded(run, c));
	for (unsigned int k = 0; (m = stat_metric_of(c, k)); k++) {
		if (!stat_metric_value(run, m, &l.metric_value))
			continue;
		l.metric = m;
		if (sep)
			csv_line(out, &l, sep);
		else
			json_line(out, &l);
		l.event = NULL;
	}
	if (!l.event)
		return;
	if (sep)
		csv_line(out, &l, sep);
	else
		json_line(out, &l);
}

/* The default events the core lacks: perf's "<not supported>" lines. */
static void unsupported_lines(FILE *out, const struct stat_run *run, const char *sep)
{
	for (int i = 0; i < run->nunsupported; i++) {
		struct line l = {
			.value = NOT_SUPPORTED, .event = run->unsupported[i],
			.variance = run->runs > 1, .pcnt = 100,
		};

		if (sep)
			csv_line(out, &l, sep);
		else
			json_line(out, &l);
	}
}

void stat_print_separated(FILE *out, const struct stat_run *run, const char *sep)
{
	for (int i = 0; i < run->ncounters; i++)
		count_lines(out, run, &run->counters[i], sep);
	unsupported_lines(out, run, sep);
}

void stat_print_json(FILE *out, const struct stat_run *run)
{
	for (int i = 0; i < run->ncounters; i++)
		count_lines(out, run, &run->counters[i], NULL);
	unsupported_lines(out, run, NULL);
}
