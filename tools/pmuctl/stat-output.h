/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pmuctl stat's printers (stat-output.c): the human table, and perf
 * stat's -x SEP fields and -j JSON objects, so that scripts written for
 * perf stat read pmuctl's. Each is a pure function of a struct stat_run,
 * so that the host can test it with counts made up.
 */
#ifndef PMUCTL_STAT_OUTPUT_H
#define PMUCTL_STAT_OUTPUT_H

#include <stdbool.h>
#include <stdio.h>

#include "stat-counts.h"

/*
 * The human table, as perf stat prints it, with pmuctl's notes: of @n
 * runs, one unless -A gives one per CPU (where.per_cpu, where.line_cpu), printed event by
 * event, CPU by CPU, as perf orders them.
 */
void stat_print_table(FILE *out, const struct stat_run *runs, int n, char **cmd);
/*
 * -I: the header perf prints every 25 intervals, in the format given (@sep
 * for -x SEP, @json for -j, else the table): the table's columns, or with
 * --metric-only the metrics' units after the time (and -A's CPU) column;
 * -x and -j print none but --metric-only's -x line. Then ...
 */
void stat_print_interval_header(FILE *out, const struct stat_run *run, const char *sep, bool json);
/* ... and the table's lines of one interval (each run's interval set). */
void stat_print_interval(FILE *out, const struct stat_run *runs, int n);
/*
 * perf stat -x SEP's fields, one line per count: value, unit, event,
 * [variance% with -r,] time counted (ns), percentage of time counted,
 * metric value, metric unit; a count's further metrics on lines of their
 * own with the first fields empty. -I's time and -A's CPU come first.
 */
void stat_fields_separated(FILE *out, const struct stat_run *runs, int n, const char *sep);
/* perf stat -j: one JSON object per count, by perf's keys. */
void stat_fields_json(FILE *out, const struct stat_run *runs, int n);
/*
 * What the table's notes would say that -x and --json have no place for,
 * on stderr: the signal that killed @command (as perf's psignal), and why
 * counts are <not counted> when an exec let a counted thread go.
 */
/*
 * -o FILE: @path opened (to append to it with --append) and perf's
 * "# started on" header written, the date as ctime(3) gives it and an
 * empty line. NULL (errno set) if it cannot be opened.
 */
FILE *stat_print_output_file(const char *path, bool append);
void stat_print_stderr_notes(const struct stat_run *run, const char *command);

/* ---- shared by stat-output.c and stat-fields.c ---- */

#define STAT_NOT_COUNTED	"<not counted>"
#define STAT_NOT_SUPPORTED	"<not supported>"

enum stat_format { STAT_TABLE, STAT_CSV, STAT_JSON };

/* @c's mean, rounded. */
unsigned long long stat_print_rounded(const struct stat_run *run, const struct counter *c);
/*
 * -I --summary's lines with -x: perf 6.1's first field, "summary"
 * right-aligned in 16 columns (where.summary), before a count's line
 * only: its further metrics' lines have none, as perf's.
 */
void stat_print_summary_field(FILE *out, const struct stat_run *run, const char *sep);
/* Where a line is, before its fields: -I's time, -A's CPU. */
void stat_print_prefix(FILE *out, const struct stat_run *run, enum stat_format f, const char *sep);
/*
 * perf's --metric-only: a line of the metrics' units (with -I, the
 * interval header's), then a line of their values per run (-A: per CPU);
 * in JSON, one object of unit : value pairs per line.
 */
void stat_print_metric_only(FILE *out, const struct stat_run *runs, int n, enum stat_format f,
			    const char *sep);
/* A format's printers of one line: a software count's, and a counter's (with its metrics). */
struct stat_print_lines {
	void (*software)(const struct stat_print_lines *p, const struct stat_run *run,
			 enum stat_software sw);
	void (*count)(const struct stat_print_lines *p, const struct stat_run *run,
		      const struct counter *c);
	void (*unsupported)(const struct stat_print_lines *p, const struct stat_run *run,
			    const struct stat_unsupported *u);
	FILE *out;
	const char *sep;	/* -x's, or NULL */
};
/*
 * @p's lines of @n runs in perf's order: the software lines (one run's, or
 * with --per-thread each thread's), then each counter's in every run,
 * the events not supported in their places among them; with --per-thread
 * each line's threads from the largest count down.
 */
void stat_print_each(const struct stat_print_lines *p, const struct stat_run *runs, int n);
/* The clock the software lines' rates are of: a command's task-clock, -a's cpu-clock. */
enum stat_software stat_print_clock(const struct stat_run *run);
/*
 * Software count @sw of @run: its value as the table shows it in @value,
 * its unit ("msec" or ""), and its metric: CPUs utilized for task-clock,
 * a rate per second of task-clock for the others (when task-clock is
 * printed too, as perf shows it). Returns the metric's unit, or NULL.
 */
const char *stat_print_software_line(const struct stat_run *run, enum stat_software sw,
				     char *value, size_t len, const char **unit, double *metric);

#endif /* PMUCTL_STAT_OUTPUT_H */
