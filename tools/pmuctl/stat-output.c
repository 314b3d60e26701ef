// SPDX-License-Identifier: GPL-2.0
/*
 * pmuctl stat's printers: the human table, and perf stat's -x SEP fields
 * and -j JSON objects. A count that cannot be trusted is never shown as a
 * number: perf's "<not counted>" and "<not supported>" stand in for it,
 * and a count of a share of the time shows that share (percentage of time
 * counted).
 */
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "pmuctl.h"
#include "stat-events.h"
#include "stat-metrics.h"
#include "stat-output.h"

#define NOT_COUNTED	"<not counted>"
#define NOT_SUPPORTED	"<not supported>"
/* The table's event column, before a metric's '#' (perf 6.1's width). */
#define NAME_WIDTH	32

/* "SIGKILL (Killed)": signal @sig's name and the shell's word for it, in @buf. */
static const char *signal_name(int sig, char *buf, size_t len)
{
	const char *abbrev = sigabbrev_np(sig), *text = strsignal(sig);

	if (abbrev)
		snprintf(buf, len, "SIG%s (%s)", abbrev, text);
	else
		snprintf(buf, len, "signal %d (%s)", sig, text);
	return buf;
}

static unsigned long long rounded(const struct stat_run *run, const struct counter *c)
{
	return (unsigned long long)llround(stat_counts_mean(run, c));
}

/* Where a line is, before its fields: -I's time, -A's CPU. */
enum format { TABLE, CSV, JSON };

static void print_prefix(FILE *out, const struct stat_run *run, enum format f, const char *sep)
{
	if (run->interval > 0) {
		if (f == JSON)
			fprintf(out, "\"interval\" : %.9f, ", run->interval);
		else
			fprintf(out, "%16.9f%s", run->interval, f == CSV ? sep : run->per_cpu ? " " : "");
	}
	if (run->per_cpu) {
		if (f == JSON)
			fprintf(out, "\"cpu\" : \"%d\", ", run->line_cpu);
		else if (f == CSV)
			fprintf(out, "CPU%d%s", run->line_cpu, sep);
		else
			fprintf(out, "CPU%-7d", run->line_cpu);
	}
}

/* ---- the table ---- */

/*
 * A count as the table shows it: its mean, or why there is none to trust:
 * disturbed, or not counted (0% of the time, or a program it may not count).
 */
static const char *table_value(const struct stat_run *run, const struct counter *c,
			       char *buf, size_t len)
{
	if (run->disturbed)
		return "<not trustworthy>";
	if (!stat_counts_numbers(run))
		return NOT_COUNTED;
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
		if (run->tids && run->threads == 1)
			fprintf(out, "the thread and what it started, ");
		else if (run->tids)
			fprintf(out, "the %d threads and what they started, ", run->threads);
		else if (run->threads == 1)
			fprintf(out, "its thread and what it started, ");
		else
			fprintf(out, "its %d threads and what they started, ", run->threads);
		break;
	case TARGET_CPU:
		fprintf(out, "everything on CPU%s %s, ", run->ncpu_list > 1 ? "s" : "", run->targets);
		break;
	case TARGET_ALL_CPUS:
		fprintf(out, "everything on all %d CPUs, ", run->cpus);
		break;
	}
	fprintf(out, "%s", core_name(&run->info));
}

static void print_header(FILE *out, const struct stat_run *run, char **cmd)
{
	if (run->target == TARGET_PROCESS) {
		fprintf(out, "\n Performance counter stats for %s id '%s' (",
			run->tids ? "thread" : "process", run->targets);
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
			 stat_counts_rsd(run, c));
	if (stat_counts_incomplete(run))
		snprintf(note + strlen(note), sizeof(note) - strlen(note), "  (%.2f%%)",
			 stat_counts_coverage(run));
	print_prefix(out, run, TABLE, NULL);
	fprintf(out, " %18s      %-*s%s\n", table_value(run, c, digits, sizeof(digits)),
		note[0] ? NAME_WIDTH : 0, c->name, note);
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
		else {
			print_prefix(out, run, TABLE, NULL);
			fprintf(out, " %18s      %-*s%s\n", "", NAME_WIDTH, "", metric);
		}
		first = false;
	}
	if (first)
		table_line(out, run, c, "");
}

static void print_notes(FILE *out, const struct stat_run *run)
{
	char sig[64];

	if (run->exec_left)
		fprintf(out, " Not counted: the command executed a program this user may not count\n"
			     " (set-user-ID or set-group-ID, file capabilities, or not readable) and was\n"
			     " let go at that exec, as perf lets it go: the counts are not the program's.\n\n");
	else if (!run->disturbed && !run->time_enabled)
		fprintf(out, " Not counted: no counted thread ran while the counters were started.\n\n");
	else if (!run->disturbed && !run->time_running)
		fprintf(out, " Not counted: the threads ran, but their counters could never be loaded\n"
			     " (a whole-CPU counter or perf held the PMU all along; pmuctl status shows who).\n\n");
	else if (stat_counts_incomplete(run))
		fprintf(out, " Incomplete: counted %.2f%% of the time the threads ran; elsewhere their\n"
			     " counters could not be loaded (a whole-CPU counter or perf held the PMU).\n"
			     " The counts are of that share only, not scaled (pmuctl status shows who).\n\n",
			stat_counts_coverage(run));
	if (run->disturbed)
		fprintf(out, " Another user of the PMU (perf?) took or reset these counters during the run:\n"
			     " the counts are not trustworthy. See pmuctl status.\n\n");
	if (run->interrupted)
		fprintf(out, " Interrupted: the counts so far.\n\n");
	if (run->signal)
		fprintf(out, " The command was killed by %s.\n\n", signal_name(run->signal, sig, sizeof(sig)));
	else if (run->status)
		fprintf(out, " The command exited with status %d.\n\n", run->status);
}

/* ---- --metric-only: the metrics alone, a column each ---- */

/* Calls @each for every metric of @run that came out, in the counters' order. */
static int metrics_of(const struct stat_run *run, const struct stat_metric **ms, double *vs,
		      int max)
{
	const struct stat_metric *m;
	int n = 0;

	for (int i = 0; i < run->ncounters; i++)
		for (unsigned int k = 0; (m = stat_metric_of(&run->counters[i], k)) && n < max; k++)
			if (stat_metric_value(run, m, &vs[n]))
				ms[n++] = m;
	return n;
}

/*
 * --metric-only's line of units, in the table or -x: after the columns
 * of -I's time (only in -I's header) and -A's CPU, as perf heads them.
 */
static void metric_only_header(FILE *out, const struct stat_run *run, enum format f,
			       const char *sep)
{
	const struct stat_metric *ms[16];
	double vs[16];
	int nm = metrics_of(run, ms, vs, 16);

	if (f == CSV) {
		if (run->interval > 0)
			fprintf(out, " time%s", sep);
		if (run->per_cpu)
			fprintf(out, "cpu%s", sep);
	} else {
		if (run->interval > 0)
			fprintf(out, "#           time ");
		if (run->per_cpu)
			fprintf(out, run->interval > 0 ? "CPU     " : "      ");
	}
	for (int k = 0; k < nm; k++)
		if (f == CSV)
			fprintf(out, "%s%s", ms[k]->unit, sep);
		else
			fprintf(out, "%18s ", ms[k]->unit);
	fputc('\n', out);
}

/*
 * perf's --metric-only: a line of the metrics' units (with -I, the
 * interval header's), then a line of their values per run (-A: per CPU);
 * in JSON, one object of unit : value pairs per line.
 */
static void metric_only_lines(FILE *out, const struct stat_run *runs, int n, enum format f,
			      const char *sep)
{
	const struct stat_metric *ms[16];
	double vs[16];
	int nm;

	if (runs[0].interval <= 0 && f != JSON)
		metric_only_header(out, &runs[0], f, sep);
	for (int r = 0; r < n; r++) {
		nm = metrics_of(&runs[r], ms, vs, 16);
		if (f == JSON) {
			/* The prefix's keys and the metrics', one object: valid JSON. */
			fputc('{', out);
			if (runs[r].interval > 0)
				fprintf(out, "\"interval\" : %.9f%s", runs[r].interval,
					runs[r].per_cpu || nm ? ", " : "");
			if (runs[r].per_cpu)
				fprintf(out, "\"cpu\" : \"%d\"%s", runs[r].line_cpu, nm ? ", " : "");
		} else {
			print_prefix(out, &runs[r], f, sep);
			if (f == TABLE)
				fputc(' ', out);
		}
		for (int k = 0; k < nm; k++) {
			if (f == JSON)
				fprintf(out, "%s\"%s\" : \"%.*f\"", k ? ", " : "", ms[k]->unit,
					ms[k]->digits, vs[k]);
			else if (f == CSV)
				fprintf(out, "%.*f%s", ms[k]->digits, vs[k], sep);
			else
				fprintf(out, "%18.*f ", ms[k]->digits, vs[k]);
		}
		fputs(f == JSON ? "}\n" : "\n", out);
	}
}

/* ---- perf's software lines, from the command's resource usage ---- */

/*
 * Software count @sw of @run: its value as the table shows it in @value,
 * its unit ("msec" or ""), and its metric: CPUs utilized for task-clock,
 * a rate per second of task-clock for the others (when task-clock is
 * printed too, as perf shows it). Returns the metric's unit, or NULL.
 */
static const char *software_line(const struct stat_run *run, enum stat_software sw, char *value,
				 size_t len, const char **unit, double *metric)
{
	double v = stat_counts_software(run, sw), clock = stat_counts_software(run, SW_TASK_CLOCK);

	*unit = sw == SW_TASK_CLOCK ? "msec" : "";
	if (sw == SW_TASK_CLOCK)
		snprintf(value, len, "%.2f", v);
	else
		snprintf(value, len, "%.0f", v);
	if (sw == SW_TASK_CLOCK) {
		*metric = run->elapsed > 0 ? v / (run->elapsed / run->runs * 1e3) : 0;
		return "CPUs utilized";
	}
	if (!(run->software & (1U << SW_TASK_CLOCK)))
		return NULL;
	*metric = clock > 0 ? v / (clock / 1e3) : 0;
	if (*metric >= 1e6) {
		*metric /= 1e6;
		return "M/sec";
	}
	if (*metric >= 1e3) {
		*metric /= 1e3;
		return "K/sec";
	}
	return "/sec";
}

static void software_table(FILE *out, const struct stat_run *run)
{
	char value[40], note[80];
	const char *unit, *munit;
	double metric;

	for (int sw = 0; sw < SW_COUNT; sw++) {
		if (!(run->software & (1U << sw)))
			continue;
		munit = software_line(run, (enum stat_software)sw, value, sizeof(value), &unit, &metric);
		note[0] = '\0';
		if (munit)
			snprintf(note, sizeof(note), " # %8.3f %s", metric, munit);
		if (run->runs > 1)
			snprintf(note + strlen(note), sizeof(note) - strlen(note), "  ( +- %5.2f%% )",
				 stat_counts_software_rsd(run, (enum stat_software)sw));
		print_prefix(out, run, TABLE, NULL);
		fprintf(out, " %18s %-4s %-*s%s\n", value, unit, note[0] ? NAME_WIDTH : 0,
			stat_events_software_name((enum stat_software)sw), note);
	}
}

/* The elapsed time, and (one run of a command) its user and system seconds. */
static void elapsed_lines(FILE *out, const struct stat_run *run)
{
	double mean = run->elapsed / run->runs, sd = stat_counts_elapsed_sd(run);
	int digits = 9;

	if (run->runs > 1) {
		/* Three significant digits of the deviation, as perf shows it. */
		if (sd > 0)
			digits = (int)-floor(log10(sd)) + 2;
		digits = digits < 1 ? 1 : digits > 9 ? 9 : digits;
		fprintf(out, "\n %17.*f +- %.*f seconds time elapsed  ( +- %5.2f%% )\n\n", digits,
			mean, digits, sd, mean > 0 ? sd / mean * 100 : 0);
	} else {
		fprintf(out, "\n %17.9f seconds time elapsed\n\n", mean);
	}
	if (run->usage && run->runs == 1)
		fprintf(out, " %17.9f seconds user\n %17.9f seconds sys\n\n\n", run->user, run->sys);
}

/* Counter @i's lines in each of @n runs (-A: one per CPU), perf's order. */
static void table_lines(FILE *out, const struct stat_run *runs, int n)
{
	software_table(out, &runs[0]);
	for (int i = 0; i < runs[0].ncounters; i++)
		for (int r = 0; r < n; r++)
			print_counter_lines(out, &runs[r], &runs[r].counters[i]);
	for (int i = 0; i < runs[0].nunsupported; i++)
		for (int r = 0; r < n; r++) {
			print_prefix(out, &runs[r], TABLE, NULL);
			fprintf(out, " %18s      %s\n", NOT_SUPPORTED, runs[r].unsupported[i]);
		}
}

void stat_print_table(FILE *out, const struct stat_run *runs, int n, char **cmd)
{
	print_header(out, &runs[0], cmd);
	if (runs[0].metric_only)
		metric_only_lines(out, runs, n, TABLE, NULL);
	else
		table_lines(out, runs, n);
	elapsed_lines(out, &runs[0]);
	print_notes(out, &runs[0]);
}

void stat_print_interval_header(FILE *out, const struct stat_run *run, const char *sep, bool json)
{
	if (json)
		return;
	if (run->metric_only)
		metric_only_header(out, run, sep ? CSV : TABLE, sep);
	else if (sep)
		return;
	else if (run->per_cpu)
		fprintf(out, "#           time CPU                    counts unit events\n");
	else
		fprintf(out, "#           time             counts unit events\n");
}

void stat_print_interval(FILE *out, const struct stat_run *runs, int n)
{
	if (runs[0].metric_only)
		metric_only_lines(out, runs, n, TABLE, NULL);
	else
		table_lines(out, runs, n);
}

/* ---- perf's fields: -x SEP and --json ---- */

/*
 * One line of either format: a count (value NULL: not supported) with its
 * first metric, or (event NULL) a further metric of the count above.
 */
struct line {
	const struct stat_run *run;	/* for the prefix */
	const char *value;	/* the count, or NOT_COUNTED, NOT_SUPPORTED */
	const char *unit;	/* "msec", or "" */
	const char *event;
	bool variance;		/* -r: the relative standard deviation shown */
	double rsd;
	unsigned long long runtime;	/* ns counted, per run */
	double pcnt;			/* % of the time counted */
	const char *metric_unit;	/* NULL: no metric */
	int metric_digits;
	double metric_value;
};

static void csv_line(FILE *out, const struct line *l, const char *sep)
{
	print_prefix(out, l->run, CSV, sep);
	if (l->event) {
		fprintf(out, "%s%s%s%s%s", l->value, sep, l->unit ? l->unit : "", sep, l->event);
		if (l->variance)
			fprintf(out, "%s%.2f%%", sep, l->rsd);
		fprintf(out, "%s%llu%s%.2f", sep, l->runtime, sep, l->pcnt);
	} else {
		/* A further metric: every field before the metric's empty. */
		for (int k = l->variance ? 5 : 4; k > 0; k--)
			fputs(sep, out);
	}
	if (l->metric_unit)
		fprintf(out, "%s%.*f%s%s\n", sep, l->metric_digits, l->metric_value, sep,
			l->metric_unit);
	else
		fprintf(out, "%s%s\n", sep, sep);
}

static void json_line(FILE *out, const struct line *l)
{
	fputc('{', out);
	print_prefix(out, l->run, JSON, NULL);
	if (l->event) {
		fputs("\"counter-value\" : ", out);
		print_json_string(out, l->value);
		fputs(", \"unit\" : ", out);
		print_json_string(out, l->unit ? l->unit : "");
		fputs(", \"event\" : ", out);
		print_json_string(out, l->event);
		if (l->variance)
			fprintf(out, ", \"variance\" : %.2f", l->rsd);
		fprintf(out, ", \"event-runtime\" : %llu, \"pcnt-running\" : %.2f, ", l->runtime,
			l->pcnt);
	}
	fprintf(out, "\"metric-value\" : %f, \"metric-unit\" : ",
		l->metric_unit ? l->metric_value : 0.0);
	print_json_string(out, l->metric_unit ? l->metric_unit : "");
	fputs("}\n", out);
}

static void emit(FILE *out, const struct line *l, const char *sep)
{
	if (sep)
		csv_line(out, l, sep);
	else
		json_line(out, l);
}

/* A count's line, then one for each further metric of it that came out. */
static void count_lines(FILE *out, const struct stat_run *run, const struct counter *c,
			const char *sep)
{
	char value[40];
	struct line l = {
		.run = run, .value = value, .event = c->name, .variance = run->runs > 1,
		.rsd = stat_counts_rsd(run, c), .pcnt = stat_counts_coverage(run),
		.runtime = run->runs ? run->time_running / (unsigned int)run->runs : 0,
	};
	const struct stat_metric *m;

	if (!stat_counts_numbers(run))
		l.value = NOT_COUNTED;
	else if (sep)
		snprintf(value, sizeof(value), "%llu", rounded(run, c));
	else
		snprintf(value, sizeof(value), "%f", (double)rounded(run, c));
	for (unsigned int k = 0; (m = stat_metric_of(c, k)); k++) {
		if (!stat_metric_value(run, m, &l.metric_value))
			continue;
		l.metric_unit = m->unit;
		l.metric_digits = m->digits;
		emit(out, &l, sep);
		l.event = NULL;
	}
	if (l.event)
		emit(out, &l, sep);
}

static void software_fields(FILE *out, const struct stat_run *run, const char *sep)
{
	char value[40];

	for (int sw = 0; sw < SW_COUNT; sw++) {
		struct line l = {
			.run = run, .value = value, .variance = run->runs > 1, .pcnt = 100,
			.event = stat_events_software_name((enum stat_software)sw),
			.rsd = stat_counts_software_rsd(run, (enum stat_software)sw),
			.runtime = (unsigned long long)(stat_counts_software(run, SW_TASK_CLOCK) * 1e6),
			.metric_digits = 3,
		};

		if (!(run->software & (1U << sw)))
			continue;
		l.metric_unit = software_line(run, (enum stat_software)sw, value, sizeof(value),
					      &l.unit, &l.metric_value);
		if (!sep)
			snprintf(value, sizeof(value), "%f", stat_counts_software(run, (enum stat_software)sw));
		emit(out, &l, sep);
	}
}

static void fields(FILE *out, const struct stat_run *runs, int n, const char *sep)
{
	if (runs[0].metric_only) {
		metric_only_lines(out, runs, n, sep ? CSV : JSON, sep);
		return;
	}
	software_fields(out, &runs[0], sep);
	for (int i = 0; i < runs[0].ncounters; i++)
		for (int r = 0; r < n; r++)
			count_lines(out, &runs[r], &runs[r].counters[i], sep);
	/* The default events the core lacks: perf's "<not supported>" lines. */
	for (int i = 0; i < runs[0].nunsupported; i++)
		for (int r = 0; r < n; r++) {
			struct line l = {
				.run = &runs[r], .value = NOT_SUPPORTED,
				.event = runs[r].unsupported[i], .variance = runs[r].runs > 1,
				.pcnt = 100,
			};

			emit(out, &l, sep);
		}
}

void stat_print_separated(FILE *out, const struct stat_run *runs, int n, const char *sep)
{
	fields(out, runs, n, sep);
}

void stat_print_json(FILE *out, const struct stat_run *runs, int n)
{
	fields(out, runs, n, NULL);
}

FILE *stat_print_output_file(const char *path, bool append)
{
	time_t t = time(NULL);
	FILE *out = fopen(path, append ? "ae" : "we");

	if (!out)
		return NULL;
	fprintf(out, "# started on %s\n", ctime(&t));
	return out;
}

void stat_print_stderr_notes(const struct stat_run *run, const char *command)
{
	char sig[64];

	if (run->signal)
		say("%s: killed by %s", command, signal_name(run->signal, sig, sizeof(sig)));
	if (run->exec_left)
		say("not counted: the command executed a program this user may not count (set-user-ID or set-group-ID, file capabilities, or not readable), and was let go at that exec, as perf lets it go");
}
