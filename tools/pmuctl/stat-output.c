// SPDX-License-Identifier: GPL-2.0
/*
 * pmuctl stat's printers: the human table, -I's and --metric-only's lines,
 * and what -x SEP and -j (stat-fields.c) share with them. A count that
 * cannot be trusted is never shown as a number: perf's "<not counted>"
 * and "<not supported>" stand in for it, and a count of a share of the
 * time is scaled up to the whole, and shows that share as perf does.
 */
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "pmuctl.h"
#include "stat-events.h"
#include "stat-metrics.h"
#include "stat-output.h"

/* The table's event column, before a metric's '#' (perf 6.1's width). */
#define NAME_WIDTH	32
#define NOT_COUNTED_WIDTH	25
/* The metric's column, before -r's variance and the share of time counted. */
#define METRIC_WIDTH	35

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

unsigned long long stat_print_rounded(const struct stat_run *run, const struct counter *c)
{
	return (unsigned long long)llround(stat_counts_mean(run, c));
}

/* perf's --per-core, --per-cluster and --per-socket prefix: "S0-D0-C1   1". */
static void aggr_prefix(FILE *out, const struct stat_run *run, enum stat_format f, const char *sep)
{
	static const char *const key[] = { "", "core", "cluster", "socket" };
	char id[48];
	bool table = f == STAT_TABLE;
	int width = run->where.aggr == 1 ? -8 : -5;

	/* enum stat_aggr: 1 core, 2 cluster, 3 socket. */
	if (run->where.aggr == 3)
		snprintf(id, sizeof(id), "S%*d", table ? width : 0, run->where.aggr_socket);
	else
		snprintf(id, sizeof(id), "S%d-D0-%s%*d", run->where.aggr_socket,
			 run->where.aggr == 1 ? "C" : "CLS",
			 table ? width : 0, run->where.aggr_id);
	if (f == STAT_JSON)
		fprintf(out, "\"%s\" : \"%s\", \"aggregate-number\" : %d, ", key[run->where.aggr], id,
			run->where.aggr_nr);
	else
		fprintf(out, "%s%s%*d%s", id, table ? " " : sep, table ? 4 : 0, run->where.aggr_nr,
			table ? " " : sep);
}

void stat_print_summary_field(FILE *out, const struct stat_run *run, const char *sep)
{
	if (run->where.summary)
		fprintf(out, "%16s%s", "summary", sep);
}

void stat_print_prefix(FILE *out, const struct stat_run *run, enum stat_format f, const char *sep)
{
	if (run->where.interval > 0) {
		if (f == STAT_JSON)
			fprintf(out, "\"interval\" : %.9f, ", run->where.interval);
		else
			fprintf(out, "%16.9f%s", run->where.interval,
				f == STAT_CSV ? sep : run->where.per_cpu ? " " : "");
	}
	if (run->where.per_cpu) {
		if (f == STAT_JSON)
			fprintf(out, "\"cpu\" : \"%d\", ", run->where.line_cpu);
		else if (f == STAT_CSV)
			fprintf(out, "CPU%d%s", run->where.line_cpu, sep);
		else
			fprintf(out, "CPU%-7d", run->where.line_cpu);
	}
	if (run->where.aggr)
		aggr_prefix(out, run, f, sep);
	if (run->where.per_thread) {
		if (f == STAT_JSON)
			fprintf(out, "\"thread\" : \"%s-%d\", ", run->where.thread_comm, run->where.thread_tid);
		else if (f == STAT_CSV)
			fprintf(out, "%s-%d%s", run->where.thread_comm, run->where.thread_tid, sep);
		else
			fprintf(out, "%16s-%-8d", run->where.thread_comm, run->where.thread_tid);
	}
}

/* ---- the table ---- */

/* A table line's start: perf's value column ends at 18, after -I's time and -A's CPU. */
static void table_prefix(FILE *out, const struct stat_run *run)
{
	stat_print_prefix(out, run, STAT_TABLE, NULL);
	if (run->where.interval > 0 || run->where.per_cpu || run->where.per_thread)
		fputc(' ', out);
}

/*
 * A count as the table shows it: its mean (scaled, if counted part of the
 * time), or why there is none to trust: disturbed, or not counted (0% of
 * the time, or a program it may not count).
 */
static const char *table_value(const struct stat_run *run, const struct counter *c,
			       char *buf, size_t len)
{
	if (run->disturbed)
		return "<not trustworthy>";
	if (!stat_counts_counted(run, c))
		return STAT_NOT_COUNTED;
	if (run->config->no_big_num) {
		snprintf(buf, len, "%llu", stat_print_rounded(run, c));
		return buf;
	}
	return group_digits(stat_print_rounded(run, c), buf, len);
}

/* What was counted, for the header: "its threads and children, Cortex-A7". */
static void describe_target(FILE *out, const struct stat_run *run)
{
	switch (run->target->kind) {
	case TARGET_COMMAND:
		fprintf(out, run->target->no_inherit ? "its first thread alone, " :
			"with its threads and children, ");
		break;
	case TARGET_PROCESS:
		if (run->target->no_inherit)
			fprintf(out, "%s %d thread%s alone, ", run->target->tids ? "the" : "its", run->threads,
				run->threads == 1 ? "" : "s");
		else if (run->target->tids && run->threads == 1)
			fprintf(out, "the thread and what it started, ");
		else if (run->target->tids)
			fprintf(out, "the %d threads and what they started, ", run->threads);
		else if (run->threads == 1)
			fprintf(out, "its thread and what it started, ");
		else
			fprintf(out, "its %d threads and what they started, ", run->threads);
		break;
	case TARGET_CPU:
		fprintf(out, "everything on CPU%s %s, ", run->target->ncpu_list > 1 ? "s" : "",
			run->target->given);
		break;
	case TARGET_ALL_CPUS:
		fprintf(out, "everything on all %d CPUs, ", run->cpus);
		break;
	}
	/* -n: no file was opened, no core read. */
	fprintf(out, "%s", run->info.midr ? core_name(&run->info) : "nothing counted");
}

static void print_header(FILE *out, const struct stat_run *run, char **cmd)
{
	if (run->target->kind == TARGET_PROCESS) {
		fprintf(out, "\n Performance counter stats for %s id '%s' (",
			run->target->tids ? "thread" : "process", run->target->given);
	} else if (run->target->kind == TARGET_ALL_CPUS) {
		fprintf(out, "\n Performance counter stats for 'system wide' (");
	} else if (run->target->kind == TARGET_CPU) {
		fprintf(out, "\n Performance counter stats for 'CPU(s) %s' (", run->target->given);
	} else {
		fprintf(out, "\n Performance counter stats for '");
		for (char **a = cmd; *a; a++)
			fprintf(out, "%s%s", a == cmd ? "" : " ", *a);
		fprintf(out, "' (");
	}
	if (run->runs > 1)
		fprintf(out, "%d runs, ", run->runs);
	if (run->passes > 1)
		fprintf(out, "%d passes, ", run->passes);
	describe_target(out, run);
	fprintf(out, "):\n\n");
}

/* @c's line, with @metric (" #  1.00  insn per cycle", or ""). */
static void table_line(FILE *out, const struct stat_run *run, const struct counter *c,
		       const char *metric)
{
	char digits[32], note[160];
	const char *value = table_value(run, c, digits, sizeof(digits));
	size_t plain;

	/* What follows the metric stands past perf's metric column. */
	snprintf(note, sizeof(note), "%-*s", METRIC_WIDTH, metric);
	plain = strlen(note);
	if (run->runs > 1 && !run->disturbed)
		snprintf(note + strlen(note), sizeof(note) - strlen(note), "  ( +- %5.2f%% )",
			 stat_counts_rsd(run, c));
	/* perf's share of the time counted, for a count scaled from part of it. */
	if (stat_counts_scaled(c))
		snprintf(note + strlen(note), sizeof(note) - strlen(note), "  (%.2f%%)",
			 stat_counts_running(c));
	if (strlen(note) == plain)
		note[strlen(metric)] = '\0';
	table_prefix(out, run);
	/* perf's event column is narrower on a line without a number. */
	fprintf(out, "%18s      %-*s%s\n", value,
		!note[0] ? 0 : value == digits ? NAME_WIDTH : NOT_COUNTED_WIDTH, c->name, note);
}

/* A count, its first metric beside it and any further one below. */
static void print_counter_lines(const struct stat_print_lines *p, const struct stat_run *run,
				const struct counter *c)
{
	FILE *out = p->out;
	const struct stat_metric *m;
	bool first = true;
	char metric[80];
	double v;

	for (unsigned int k = 0; (m = stat_metric_of(c, k)); k++) {
		if (!stat_metric_value(run, c, m, &v))
			continue;
		/* perf's formats: GHz's "%8.3f " as its CPUs utilized, the ratios' "%7.2f  ". */
		if (m->den == STAT_METRIC_CLOCK)
			snprintf(metric, sizeof(metric), " # %8.*f %s", m->digits, v, m->unit);
		else
			snprintf(metric, sizeof(metric), " #  %6.*f  %s", m->digits, v, m->unit);
		if (first)
			table_line(out, run, c, metric);
		else {
			table_prefix(out, run);
			fprintf(out, "%18s      %-*s%s\n", "", NAME_WIDTH, "", metric);
		}
		first = false;
	}
	if (first)
		table_line(out, run, c, "");
}

/* --passes: how many, and whether their reference agreed. */
static void print_passes(FILE *out, const struct stat_run *run)
{
	char a[32], b[32];

	if (run->passes < 2)
		return;
	if (!run->reference || run->reference_max == 0)
		fprintf(out, " Counted in %d passes of the command, each exact. This board does not count\n"
			     " INST_RETIRED, so whether the passes ran alike is unchecked.\n\n",
			run->passes);
	else if (run->reference_min == run->reference_max)
		fprintf(out, " Counted in %d passes of the command, each exact; %s counted\n"
			     " %s in every pass: the passes ran alike.\n\n", run->passes,
			run->reference, group_digits((unsigned long long)run->reference_min, a, sizeof(a)));
	else
		fprintf(out, " Not one program: %s counted from %s to %s across the %d passes.\n"
			     " The command does not run alike each time (address randomization, input,\n"
			     " timing), so counts of different passes are of different runs.\n\n",
			run->reference,
			run->reference_min < 0 ? "<not counted>" :
			group_digits((unsigned long long)run->reference_min, a, sizeof(a)),
			group_digits((unsigned long long)run->reference_max, b, sizeof(b)), run->passes);
}

static void print_notes(FILE *out, const struct stat_run *run)
{
	char sig[64];

	if (run->exec_left)
		fprintf(out, " Not counted: the command executed a program this user may not count\n"
			     " (set-user-ID or set-group-ID, file capabilities, or not readable) and was\n"
			     " let go at that exec, as perf lets it go: the counts are not the program's.\n\n");
	else if (!run->disturbed && !run->time_enabled && run->ncounters)
		fprintf(out, " Not counted: no counted thread ran while the counters were started.\n\n");
	else if (!run->disturbed && !run->time_running && run->ncounters)
		fprintf(out, " Not counted: the threads ran, but their counters could never be loaded\n"
			     " (a whole-CPU counter or perf held the PMU all along; pmuctl status shows who).\n\n");
	else if (stat_counts_incomplete(run))
		fprintf(out, " Incomplete: counted %.2f%% of the time the threads ran; elsewhere their\n"
			     " counters could not be loaded (a whole-CPU counter or perf held the PMU).\n"
			     " Each count is scaled up to the whole time, as perf scales it: an estimate\n"
			     " (pmuctl status shows who).\n\n",
			stat_counts_coverage(run));
	if (run->disturbed)
		fprintf(out, " Another user of the PMU (perf?) took or reset these counters during the run:\n"
			     " the counts are not trustworthy. See pmuctl status.\n\n");
	if (run->interrupted)
		fprintf(out, " Interrupted: the counts so far.\n\n");
	print_passes(out, run);
	if (run->timeout_ms)
		fprintf(out, " Stopped by --timeout after %d ms: the command was sent SIGTERM.\n\n",
			run->timeout_ms);
	else if (run->signal)
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
			if (stat_metric_value(run, &run->counters[i], m, &vs[n]))
				ms[n++] = m;
	return n;
}

/*
 * --metric-only's line of units, in the table or -x: after the columns
 * of -I's time (only in -I's header) and -A's CPU, as perf heads them.
 */
static void metric_only_header(FILE *out, const struct stat_run *run, enum stat_format f,
			       const char *sep)
{
	const struct stat_metric *ms[16];
	double vs[16];
	int nm = metrics_of(run, ms, vs, 16);

	if (f == STAT_CSV) {
		if (run->where.interval > 0)
			fprintf(out, " time%s", sep);
		if (run->where.per_cpu)
			fprintf(out, "cpu%s", sep);
	} else {
		if (run->where.interval > 0)
			fprintf(out, "#           time ");
		if (run->where.per_cpu)
			fprintf(out, run->where.interval > 0 ? "CPU     " : "      ");
	}
	for (int k = 0; k < nm; k++)
		if (f == STAT_CSV)
			fprintf(out, "%s%s", ms[k]->unit, sep);
		else
			fprintf(out, "%18s ", ms[k]->unit);
	fputc('\n', out);
}

void stat_print_metric_only(FILE *out, const struct stat_run *runs, int n, enum stat_format f,
			    const char *sep)
{
	const struct stat_metric *ms[16];
	double vs[16];
	int nm;

	if (runs[0].where.interval <= 0 && f != STAT_JSON)
		metric_only_header(out, &runs[0], f, sep);
	for (int r = 0; r < n; r++) {
		nm = metrics_of(&runs[r], ms, vs, 16);
		if (f == STAT_JSON) {
			/* The prefix's keys and the metrics', one object: valid STAT_JSON. */
			fputc('{', out);
			if (runs[r].where.interval > 0)
				fprintf(out, "\"interval\" : %.9f%s", runs[r].where.interval,
					runs[r].where.per_cpu || nm ? ", " : "");
			if (runs[r].where.per_cpu)
				fprintf(out, "\"cpu\" : \"%d\"%s", runs[r].where.line_cpu, nm ? ", " : "");
		} else {
			stat_print_prefix(out, &runs[r], f, sep);
			if (f == STAT_TABLE)
				fputc(' ', out);
		}
		for (int k = 0; k < nm; k++) {
			if (f == STAT_JSON)
				fprintf(out, "%s\"%s\" : \"%.*f\"", k ? ", " : "", ms[k]->unit,
					ms[k]->digits, vs[k]);
			else if (f == STAT_CSV)
				fprintf(out, "%.*f%s", ms[k]->digits, vs[k], sep);
			else
				fprintf(out, "%18.*f ", ms[k]->digits, vs[k]);
		}
		fputs(f == STAT_JSON ? "}\n" : "\n", out);
	}
}

/* ---- perf's software lines, from the command's resource usage ---- */

enum stat_software stat_print_clock(const struct stat_run *run)
{
	return run->software & (1U << SW_CPU_CLOCK) ? SW_CPU_CLOCK : SW_TASK_CLOCK;
}

const char *stat_print_software_line(const struct stat_run *run, enum stat_software sw,
				     char *value, size_t len, const char **unit, double *metric)
{
	enum stat_software by = stat_print_clock(run);
	bool is_clock = sw == SW_TASK_CLOCK || sw == SW_CPU_CLOCK;
	double v = stat_counts_software(run, sw), clock = stat_counts_software(run, by);

	*unit = is_clock ? "msec" : "";
	/*
	 * --per-thread: a thread that never ran while counted, or was let go;
	 * -I, -p, -t: targets the driver saw on no CPU. perf's <not counted>.
	 */
	if ((run->where.per_thread && !stat_counts_numbers(run)) ||
	    (run->ran_known && stat_counts_software(run, SW_TASK_CLOCK) <= 0)) {
		snprintf(value, len, "%s", STAT_NOT_COUNTED);
		return NULL;
	}
	if (is_clock)
		snprintf(value, len, "%.2f", v);
	else
		snprintf(value, len, "%.0f", v);
	if (is_clock) {
		*metric = run->elapsed > 0 ? v / (run->elapsed / run->runs * 1e3) : 0;
		return "CPUs utilized";
	}
	if (!(run->software & (1U << by)))
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

/* Software count @sw's line of @run. */
static void software_line(const struct stat_print_lines *p, const struct stat_run *run,
			  enum stat_software sw)
{
	FILE *out = p->out;
	char value[40], note[80];
	const char *unit, *munit;
	double metric;

	munit = stat_print_software_line(run, sw, value, sizeof(value), &unit, &metric);
	note[0] = '\0';
	if (munit)
		snprintf(note, sizeof(note), " # %8.3f %s", metric, munit);
	if (run->runs > 1)
		snprintf(note + strlen(note), sizeof(note) - strlen(note), "  ( +- %5.2f%% )",
			 stat_counts_software_rsd(run, sw));
	table_prefix(out, run);
	fprintf(out, "%18s %-4s %-*s%s\n", value, unit, note[0] ? NAME_WIDTH : 0,
		stat_events_software_name(sw), note);
}

/*
 * --table: each run's elapsed time, its difference from the mean, and a
 * bar of a '#' per 5% of it, as perf prints them before the mean.
 */
static void runs_table(FILE *out, const struct stat_run *run, int digits, double mean)
{
	char tmp[64];
	int indent = 0;

	snprintf(tmp, sizeof(tmp), " %17.*f", digits, mean);
	while (tmp[indent] == ' ')
		indent++;
	fprintf(out, "%*s# Table of individual measurements:\n", indent, "");
	for (int r = 0; r < run->runs; r++) {
		double t = run->elapsed_each[r];
		int bars = 1 + abs((int)(t > 0 ? 100.0 * (t - mean) / t : 0) / 5);

		fprintf(out, " %17.*f (%+.*f) ", digits, t, digits, t - mean);
		while (bars--)
			fputc('#', out);
		fputc('\n', out);
	}
	fprintf(out, "\n%*s# Final result:\n", indent, "");
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
		fputc('\n', out);
		if (run->elapsed_each)
			runs_table(out, run, digits, mean);
		fprintf(out, " %17.*f +- %.*f seconds time elapsed  ( +- %5.2f%% )\n\n", digits,
			mean, digits, sd, mean > 0 ? sd / mean * 100 : 0);
	} else {
		fprintf(out, "\n %17.9f seconds time elapsed\n\n", mean);
	}
	if (run->usage && run->runs == 1)
		fprintf(out, " %17.9f seconds user\n %17.9f seconds sys\n\n\n", run->user, run->sys);
}

void stat_print_each(const struct stat_print_lines *p, const struct stat_run *runs, int n)
{
	int order[n];

	for (int sw = 0; sw < SW_COUNT; sw++) {
		if (!(runs[0].software & (1U << sw)))
			continue;
		stat_counts_order(runs, n, -1 - sw, order);
		for (int r = 0; r < (runs[0].where.per_thread || runs[0].where.per_cpu ? n : 1); r++)
			p->software(p, &runs[order[r]], (enum stat_software)sw);
	}
	for (int i = 0, u = 0; i <= runs[0].ncounters; i++) {
		for (; u < runs[0].nunsupported && runs[0].unsupported[u].at <= i; u++)
			for (int r = 0; r < n; r++)
				p->unsupported(p, &runs[r], &runs[r].unsupported[u]);
		if (i == runs[0].ncounters)
			break;
		stat_counts_order(runs, n, i, order);
		for (int r = 0; r < n; r++)
			p->count(p, &runs[order[r]], &runs[order[r]].counters[i]);
	}
}

static void unsupported_line(const struct stat_print_lines *p, const struct stat_run *run,
			     const struct stat_unsupported *u)
{
	table_prefix(p->out, run);
	fprintf(p->out, "%18s      %s\n", STAT_NOT_SUPPORTED, u->name);
}

/* The table's lines of @n runs (-A: one per CPU), perf's order. */
static void table_lines(FILE *out, const struct stat_run *runs, int n)
{
	const struct stat_print_lines p = {
		.software = software_line, .count = print_counter_lines,
		.unsupported = unsupported_line, .out = out,
	};

	stat_print_each(&p, runs, n);
}

void stat_print_table(FILE *out, const struct stat_run *runs, int n, char **cmd)
{
	print_header(out, &runs[0], cmd);
	if (runs[0].config->metric_only)
		stat_print_metric_only(out, runs, n, STAT_TABLE, NULL);
	else
		table_lines(out, runs, n);
	elapsed_lines(out, &runs[0]);
	/* --per-thread: the notes are of all the threads together. */
	struct stat_run all = runs[0];

	for (int r = 1; r < n && all.where.per_thread; r++) {
		all.time_enabled += runs[r].time_enabled;
		all.time_running += runs[r].time_running;
		all.exec_left |= runs[r].exec_left;
	}
	print_notes(out, &all);
}

void stat_print_interval_header(FILE *out, const struct stat_run *run, const char *sep, bool json)
{
	if (json)
		return;
	if (run->config->metric_only)
		metric_only_header(out, run, sep ? STAT_CSV : STAT_TABLE, sep);
	else if (sep)
		return;
	else if (run->where.per_cpu)
		fprintf(out, "#           time CPU                    counts unit events\n");
	else
		fprintf(out, "#           time             counts unit events\n");
}

void stat_print_interval(FILE *out, const struct stat_run *runs, int n)
{
	if (runs[0].config->metric_only)
		stat_print_metric_only(out, runs, n, STAT_TABLE, NULL);
	else
		table_lines(out, runs, n);
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

	if (run->timeout_ms)
		say("%s: stopped by --timeout after %d ms (SIGTERM)", command, run->timeout_ms);
	else if (run->signal)
		say("%s: killed by %s", command, signal_name(run->signal, sig, sizeof(sig)));
	if (run->passes > 1 && run->reference && run->reference_min != run->reference_max)
		say("--passes: %s differed between the %d passes: the command does not run alike each time, so counts of different passes are of different runs",
		    run->reference, run->passes);
	if (run->exec_left)
		say("not counted: the command executed a program this user may not count (set-user-ID or set-group-ID, file capabilities, or not readable), and was let go at that exec, as perf lets it go");
}
