// SPDX-License-Identifier: GPL-2.0
/*
 * pmuctl stat's -x SEP fields and -j JSON objects, by perf stat's layout:
 * a count scaled from part of the time gives its own time counted and
 * share of it in perf's two columns; one never counted is "<not
 * counted>", with no metric.
 */
#include <stdio.h>
#include <string.h>

#include "json.h"
#include "pmuctl.h"

#include "stat-events.h"
#include "stat-metrics.h"
#include "stat-output.h"

/*
 * One line of either format: a count (value NULL: not supported) with its
 * first metric, or (event NULL) a further metric of the count above.
 */
struct line {
	const struct stat_run *run;	/* for the prefix */
	const char *value;	/* the count, or STAT_NOT_COUNTED, STAT_NOT_SUPPORTED */
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
	if (l->event)
		stat_print_summary_field(out, l->run, sep);
	stat_print_prefix(out, l->run, STAT_CSV, sep);
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
	stat_print_prefix(out, l->run, STAT_JSON, NULL);
	if (l->event) {
		fputs("\"counter-value\" : ", out);
		json_string(out, l->value);
		fputs(", \"unit\" : ", out);
		json_string(out, l->unit ? l->unit : "");
		fputs(", \"event\" : ", out);
		json_string(out, l->event);
		if (l->variance)
			fprintf(out, ", \"variance\" : %.2f", l->rsd);
		fprintf(out, ", \"event-runtime\" : %llu, \"pcnt-running\" : %.2f, ", l->runtime,
			l->pcnt);
	}
	fprintf(out, "\"metric-value\" : %f, \"metric-unit\" : ",
		l->metric_unit ? l->metric_value : 0.0);
	json_string(out, l->metric_unit ? l->metric_unit : "");
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
static void count_lines(const struct stat_print_lines *p, const struct stat_run *run,
			const struct counter *c)
{
	FILE *out = p->out;
	const char *sep = p->sep;
	char value[40];
	struct line l = {
		.run = run, .value = value, .event = c->name, .variance = run->runs > 1,
		.rsd = stat_counts_rsd(run, c), .pcnt = stat_counts_pcnt(c),
		.runtime = stat_counts_runtime(run, c),
	};
	const struct stat_metric *m;

	if (!stat_counts_counted(run, c))
		l.value = STAT_NOT_COUNTED;
	else if (sep)
		snprintf(value, sizeof(value), "%llu", stat_print_rounded(run, c));
	else
		snprintf(value, sizeof(value), "%f", (double)stat_print_rounded(run, c));
	for (unsigned int k = 0; (m = stat_metric_of(c, k)); k++) {
		if (!stat_metric_value(run, c, m, &l.metric_value))
			continue;
		l.metric_unit = m->unit;
		l.metric_digits = m->digits;
		emit(out, &l, sep);
		l.event = NULL;
	}
	if (l.event)
		emit(out, &l, sep);
}

/* Software count @sw's line of @run. */
static void software_fields(const struct stat_print_lines *p, const struct stat_run *run,
			    enum stat_software sw)
{
	FILE *out = p->out;
	const char *sep = p->sep;
	char value[40];
	struct line l = {
		.run = run, .value = value, .variance = run->runs > 1, .pcnt = 100,
		.event = stat_events_software_name(sw), .rsd = stat_counts_software_rsd(run, sw),
		.runtime = (unsigned long long)(stat_counts_software(run, stat_print_clock(run)) *
						1e6),
		.metric_digits = 3,
	};

	l.metric_unit = stat_print_software_line(run, sw, value, sizeof(value), &l.unit,
						 &l.metric_value);
	if (!sep && strcmp(value, STAT_NOT_COUNTED))
		snprintf(value, sizeof(value), "%f", stat_counts_software(run, sw));
	emit(out, &l, sep);
}

/* An event the core lacks: perf's "<not supported>" line. */
static void unsupported_fields(const struct stat_print_lines *p, const struct stat_run *run,
			       const struct stat_unsupported *u)
{
	struct line l = {
		.run = run, .value = STAT_NOT_SUPPORTED, .event = u->name,
		.variance = run->runs > 1, .pcnt = 100,
	};

	emit(p->out, &l, p->sep);
}

static void fields(FILE *out, const struct stat_run *runs, int n, const char *sep)
{
	if (runs[0].config->metric_only) {
		stat_print_metric_only(out, runs, n, sep ? STAT_CSV : STAT_JSON, sep);
		return;
	}
	const struct stat_print_lines p = {
		.software = software_fields, .count = count_lines,
		.unsupported = unsupported_fields, .out = out, .sep = sep,
	};

	stat_print_each(&p, runs, n);
}

void stat_fields_separated(FILE *out, const struct stat_run *runs, int n, const char *sep)
{
	fields(out, runs, n, sep);
}

void stat_fields_json(FILE *out, const struct stat_run *runs, int n)
{
	fields(out, runs, n, NULL);
}
