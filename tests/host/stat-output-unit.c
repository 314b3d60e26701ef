// SPDX-License-Identifier: GPL-2.0
/*
 * stat-output-unit: pmuctl stat's output formats and metrics on the host,
 * from made-up counts (no device): perf stat 6.1's -x and -j layouts as
 * perf prints them (7 CSV fields, 8 with -r; its JSON keys in its order,
 * its number formats), <not counted> and <not supported> for what has no
 * number to trust, the share of time counted, the metrics beside their
 * counts, and -M's groups checked against known cores. Prints TAP, exits 1
 * if a test failed.
 *
 *   stat-output-unit              the tests
 *   stat-output-unit --print csv|csv-r|json|json-r|csv-nc|json-nc|table
 *                    [-I] [-A | --per-thread] [--metric-only] [--software | --system]
 *                    [--no-metrics]
 *                    [-o FILE [--append]]
 *                                 a made-up run's lines in that format
 *                                 (-nc: counted during 0% of the time), for
 *                                 tests/host/stat-format-test and
 *                                 stat-layout-test to hold against perf's
 *                                 own (see print() below)
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/armpmu_arch.h>

#include "stat-metrics.h"
#include "stat-output.h"
#include "stat-render.h"
#include "tap.h"

/* Each run's ns enabled, in the made-up runs. */
#define ENABLED	5000

/* Whom the made-up runs counted (a command), and how they are shown (as set). */
static struct stat_target command_target = { .kind = TARGET_COMMAND };
static struct stat_config config;

/* @run emptied, of a command, shown as config says. */
static void empty_run(struct stat_run *run)
{
	memset(run, 0, sizeof(*run));
	run->target = &command_target;
	run->config = &config;
}

/* A counter of @values, one a run, each counted @running ns of ENABLED. */
static void add_counter(struct stat_run *run, const char *name, uint32_t event,
			const double *values, uint64_t running)
{
	struct counter *c = &run->counters[run->ncounters++];

	snprintf(c->name, sizeof(c->name), "%s", name);
	c->idx = event == ARMPMU_EV_CPU_CYCLES ? ARMPMU_CYCLE_COUNTER : (unsigned int)run->ncounters;
	c->event = event;
	for (int r = 0; r < run->runs; r++)
		stat_counts_add_counter(c, (uint64_t)values[r], ENABLED, running);
}

/*
 * A run of @runs (1 or 3): cycles, instructions, branches and their
 * mispredicts, and STALL_FRONTEND not supported, each counted @running[i]
 * ns of every run's ENABLED (NULL: all of it), the file @file_running.
 * With 3 runs each count is its value, +10% and -10%: a relative standard
 * deviation of 10%.
 */
static void made_up_partial(struct stat_run *run, int runs, const uint64_t *running,
			    uint64_t file_running)
{
	static const double spread[3] = { 1, 1.1, 0.9 };
	static const struct { const char *name; uint32_t event; double value; } counts[] = {
		{ "cycles", 0x11, 2000 },
		{ "INST_RETIRED:u", 0x08, 1000 },
		{ "BR_MIS_PRED", 0x10, 10 },
		{ "BR_PRED", 0x12, 200 },
	};
	double v[3];

	empty_run(run);
	run->runs = runs;
	run->elapsed = 0.001 * runs;
	run->time_enabled = (uint64_t)ENABLED * (unsigned int)runs;
	run->time_running = file_running * (unsigned int)runs;
	run->info.midr = 0x410fd083;
	for (size_t i = 0; i < sizeof(counts) / sizeof(counts[0]); i++) {
		for (int r = 0; r < runs; r++)
			v[r] = counts[i].value * (runs > 1 ? spread[r] : 1);
		add_counter(run, counts[i].name, counts[i].event, v,
			    running ? running[i] : file_running);
	}
	run->unsupported[run->nunsupported++] = (struct stat_unsupported){
		.spec = "STALL_FRONTEND", .name = "STALL_FRONTEND", .at = run->ncounters };
}

static void made_up_run(struct stat_run *run, int runs)
{
	made_up_partial(run, runs, NULL, ENABLED);
}

/* @run in @format (CSV: separated by @sep), as one string (freed by the caller). */
static char *render_as(const struct stat_run *run, enum format format, const char *sep)
{
	return render_runs_as(run, 1, format, sep);
}

/* @n runs (-A, --per-thread) in @format, as one string (freed by the caller). */
static char *render_runs(const struct stat_run *runs, int n, enum format format)
{
	return render_runs_as(runs, n, format, ",");
}

static char *render(const struct stat_run *run, enum format format)
{
	return render_as(run, format, ",");
}

/* Line @n (from 0) of @text, in @buf. */
static const char *line_of(const char *text, int n, char *buf, size_t len)
{
	for (; n > 0 && text; n--) {
		text = strchr(text, '\n');
		text = text ? text + 1 : NULL;
	}
	if (!text) {
		snprintf(buf, len, "(no such line)");
		return buf;
	}
	snprintf(buf, len, "%.*s", (int)strcspn(text, "\n"), text);
	return buf;
}

static int count_char(const char *s, char c)
{
	int n = 0;

	for (; *s; s++)
		n += *s == c;
	return n;
}

/* Line @n of @text is @want exactly. */
static void expect_line(const char *text, int n, const char *want, const char *name)
{
	char got[512];

	line_of(text, n, got, sizeof(got));
	tap_check(!strcmp(got, want), name, "line %d: expected '%s', got '%s'", n, want, got);
}

/* Line @line of a made-up run's output is @text. */
struct want {
	int line;
	const char *text;
	const char *name;
};

#define NWANT(w) (sizeof(w) / sizeof((w)[0]))

/* A made-up run of @runs in @format (CSV: separated by @sep), line by line. */
static void expect_lines(int runs, enum format format, const char *sep, const struct want *w,
			 size_t n)
{
	struct stat_run run;
	char *text;

	made_up_run(&run, runs);
	text = render_as(&run, format, sep);
	for (size_t i = 0; i < n; i++)
		expect_line(text, w[i].line, w[i].text, w[i].name);
	free(text);
}

/* perf's order: value, unit, event, runtime, pcnt, metric value, metric unit. */
static const struct want csv[] = {
	{ 0, "2000,,cycles,5000,100.00,,",
	  "-x,: a count without a metric: value, empty unit, event, ns, %, two empty fields" },
	{ 1, "1000,,INST_RETIRED:u,5000,100.00,0.50,insn per cycle",
	  "-x,: instructions with IPC in perf's metric columns" },
	{ 2, "10,,BR_MIS_PRED,5000,100.00,0.0500,mispredicts per branch",
	  "-x,: mispredicts per branch beside BR_MIS_PRED" },
	{ 3, ",,,,,10.00,mispredicts per 1000 insns",
	  "-x,: its second metric on a line of its own, the count's fields empty" },
	{ 5, "<not supported>,,STALL_FRONTEND,0,100.00,,",
	  "-x,: a default event the core lacks is <not supported>, as perf shows it" },
};

static const struct want semicolon[] = {
	{ 1, "1000;;INST_RETIRED:u;5000;100.00;0.50;insn per cycle",
	  "-x';': the separator given, everywhere" },
};

/* With -r perf adds the variance after the event: 8 fields. */
static const struct want csv_repeat[] = {
	/* perf's +-: the runs' 10% deviation over the square root of 3 runs. */
	{ 0, "2000,,cycles,5.77%,5000,100.00,,",
	  "-x, -r 3: the relative standard deviation after the event, as N.NN%" },
	{ 3, ",,,,,,10.00,mispredicts per 1000 insns",
	  "-x, -r 3: a further metric line has 8 fields too" },
	{ 5, "<not supported>,,STALL_FRONTEND,0.00%,0,100.00,,",
	  "-x, -r 3: <not supported> with a variance of 0" },
};

static const struct want json[] = {
	{ 0, "{\"counter-value\" : \"2000.000000\", \"unit\" : \"\", \"event\" : \"cycles\", \"event-runtime\" : 5000, \"pcnt-running\" : 100.00, \"metric-value\" : 0.000000, \"metric-unit\" : \"\"}",
	  "--json: perf's keys in perf's order, the value a %f string, no metric as 0 and \"\"" },
	{ 1, "{\"counter-value\" : \"1000.000000\", \"unit\" : \"\", \"event\" : \"INST_RETIRED:u\", \"event-runtime\" : 5000, \"pcnt-running\" : 100.00, \"metric-value\" : 0.500000, \"metric-unit\" : \"insn per cycle\"}",
	  "--json: IPC as metric-value and metric-unit" },
	{ 3, "{\"metric-value\" : 10.000000, \"metric-unit\" : \"mispredicts per 1000 insns\"}",
	  "--json: a further metric as an object of its own" },
	{ 5, "{\"counter-value\" : \"<not supported>\", \"unit\" : \"\", \"event\" : \"STALL_FRONTEND\", \"event-runtime\" : 0, \"pcnt-running\" : 100.00, \"metric-value\" : 0.000000, \"metric-unit\" : \"\"}",
	  "--json: <not supported> as perf shows it" },
};

static const struct want json_repeat[] = {
	{ 0, "{\"counter-value\" : \"2000.000000\", \"unit\" : \"\", \"event\" : \"cycles\", \"variance\" : 5.77, \"event-runtime\" : 5000, \"pcnt-running\" : 100.00, \"metric-value\" : 0.000000, \"metric-unit\" : \"\"}",
	  "--json -r 3: variance after event, as perf puts it" },
};

static void test_layouts(void)
{
	struct stat_run run;
	char *text, line[512];
	int lines, bad = -1;

	expect_lines(1, CSV, ",", csv, NWANT(csv));
	expect_lines(1, CSV, ";", semicolon, NWANT(semicolon));
	expect_lines(3, CSV, ",", csv_repeat, NWANT(csv_repeat));
	expect_lines(1, JSON, NULL, json, NWANT(json));
	expect_lines(3, JSON, NULL, json_repeat, NWANT(json_repeat));
	made_up_run(&run, 1);
	text = render(&run, CSV);
	lines = count_char(text, '\n');
	for (int i = 0; i < lines && bad < 0; i++)
		if (count_char(line_of(text, i, line, sizeof(line)), ',') != 6)
			bad = i;
	tap_check(lines == 6 && bad < 0, "-x,: every line has perf's 7 fields",
		  "%d lines, line %d: '%s'", lines, bad, bad < 0 ? "" : line);
	free(text);
}

/* How a run whose counts are not numbers must print, and the tests' names. */
struct no_numbers {
	const char *csv;	/* line 1 of -x, (INST_RETIRED:u, no IPC) */
	const char *value;	/* what the table shows instead of a count */
	const char *why;	/* the table's note */
	const char *not_there;	/* nor this, in the table (or NULL) */
	const char *names[3];	/* -x, --json, the table */
};

static void expect_no_numbers(const struct stat_run *run, const struct no_numbers *w)
{
	char *text, cycles[64];

	text = render(run, CSV);
	expect_line(text, 1, w->csv, w->names[0]);
	free(text);
	text = render(run, JSON);
	tap_check(strstr(text, "\"counter-value\" : \"<not counted>\", \"unit\" : \"\", \"event\" : \"cycles\"") &&
		  !strstr(text, "insn per cycle"), w->names[1], "%s", text);
	free(text);
	text = render(run, TABLE);
	snprintf(cycles, sizeof(cycles), "%s      cycles", w->value);
	tap_check(strstr(text, cycles) && !strstr(text, "insn per cycle") && strstr(text, w->why) &&
		  !(w->not_there && strstr(text, w->not_there)), w->names[2], "%s", text);
	free(text);
}

/* Counts that cannot be trusted are never numbers; partial ones say so. */
static void test_untrusted(void)
{
	static const struct no_numbers disturbed = {
		"<not counted>,,INST_RETIRED:u,5000,100.00,,", "<not trustworthy>",
		"not trustworthy. See pmuctl status.", NULL,
		{ "disturbed: <not counted>, and no metric from it",
		  "disturbed, --json: counter-value \"<not counted>\", no IPC",
		  "disturbed, table: no number, no metric, and why" },
	};
	static const struct no_numbers exec_left = {
		"<not counted>,,INST_RETIRED:u,1250,25.00,,", "<not counted>",
		"executed a program this user may not count", "Incomplete:",
		{ "exec left: <not counted>, never a part as if complete, no IPC",
		  "exec left, --json: <not counted>, no IPC",
		  "exec left, table: <not counted>, and the reason named" },
	};
	struct stat_run run;
	char *text;

	made_up_run(&run, 1);
	run.disturbed = true;
	expect_no_numbers(&run, &disturbed);
	/* A counted thread executed a set-user-ID program and was let go. */
	made_up_partial(&run, 1, NULL, 1250);
	run.exec_left = true;
	expect_no_numbers(&run, &exec_left);

	made_up_partial(&run, 1, NULL, 1250);
	text = render(&run, CSV);
	expect_line(text, 0, "8000,,cycles,1250,25.00,,",
		    "counted a quarter of the time: scaled x4, runtime and 25.00 in perf's columns");
	expect_line(text, 1, "4000,,INST_RETIRED:u,1250,25.00,0.50,insn per cycle",
		    "  and the metric from the scaled counts");
	free(text);
	text = render(&run, JSON);
	tap_check(strstr(text, "\"counter-value\" : \"4000.000000\", \"unit\" : \"\", \"event\" : \"INST_RETIRED:u\", \"event-runtime\" : 1250, \"pcnt-running\" : 25.00") != NULL,
		  "  and in --json", "%s", text);
	free(text);
	text = render(&run, TABLE);
	tap_check(strstr(text, "             4,000      INST_RETIRED:u                   #    0.50  insn per cycle           (25.00%)\n") &&
		  strstr(text, "Incomplete: counted 25.00%") && strstr(text, "scaled up"),
		  "  and the table shows perf's (25.00%) after the metric, and says why", "%s", text);
	free(text);
}

/*
 * Each count its own share of the time (the driver's multiplexing, or
 * counters loaded part of the time): scaled by its own, perf's column of
 * its own, the metrics from the scaled counts, and one never counted
 * <not counted> with no metric from it, the others numbers.
 */
static void test_scaled(void)
{
	/* cycles, INST_RETIRED:u, BR_MIS_PRED, BR_PRED */
	static const uint64_t thirds[] = { ENABLED, ENABLED * 2 / 3, ENABLED / 2, ENABLED / 4 };
	static const uint64_t one_missed[] = { ENABLED, 0, ENABLED / 2, ENABLED / 2 };
	struct stat_run run;
	char *text, want[128];

	made_up_partial(&run, 1, thirds, ENABLED);
	text = render(&run, CSV);
	expect_line(text, 0, "2000,,cycles,5000,100.00,,", "per count: one counted throughout, unscaled");
	expect_line(text, 1, "1500,,INST_RETIRED:u,3333,66.00,0.75,insn per cycle",
		    "  2/3 of the time: scaled (truncated), perf's whole percent, IPC of the scaled counts");
	expect_line(text, 2, "20,,BR_MIS_PRED,2500,50.00,0.0250,mispredicts per branch",
		    "  a metric of two scaled counts, each by its own share");
	free(text);
	text = render(&run, TABLE);
	tap_check(strstr(text, "             2,000      cycles\n") &&
		  strstr(text, "             1,500      INST_RETIRED:u                   #    0.75  insn per cycle           (66.66%)\n") &&
		  strstr(text, "  (50.00%)\n") && strstr(text, "  (25.00%)\n"),
		  "  table: no column for the one counted throughout, each share to two places (66.66%)", "%s", text);
	free(text);
	text = render(&run, JSON);
	tap_check(strstr(text, "\"counter-value\" : \"1500.000000\", \"unit\" : \"\", \"event\" : \"INST_RETIRED:u\", \"event-runtime\" : 3333, \"pcnt-running\" : 66.00, \"metric-value\" : 0.750000") != NULL,
		  "  --json: its own runtime and share", "%s", text);
	free(text);

	made_up_partial(&run, 1, one_missed, ENABLED);
	text = render(&run, CSV);
	expect_line(text, 1, "<not counted>,,INST_RETIRED:u,0,0.00,,",
		    "never counted, the others counted: <not counted>, runtime 0, no IPC");
	expect_line(text, 2, "20,,BR_MIS_PRED,2500,50.00,0.0500,mispredicts per branch",
		    "  the others' metrics still come out");
	tap_check(!strstr(text, "per 1000 insns"), "  no metric of it as an input", "%s", text);
	free(text);
	text = render(&run, TABLE);
	/* perf's event column of 25 on such a line, its blank metric of 35. */
	snprintf(want, sizeof(want), "     <not counted>      %-25s%35s  (0.00%%)\n",
		 "INST_RETIRED:u", "");
	tap_check(strstr(text, want) &&
		  !strstr(text, "insn per cycle"),
		  "  table: <not counted> with perf's (0.00%), no IPC", "%s", text);
	free(text);
	/* Three runs, one of which never counted it: no mean of the others. */
	made_up_partial(&run, 3, NULL, ENABLED);
	stat_counts_add_counter(&run.counters[1], 0, ENABLED, 0);
	text = render(&run, CSV);
	expect_line(text, 1, "<not counted>,,INST_RETIRED:u,5.77%,5000,75.00,,",
		    "-r 3: a run that never counted it makes it <not counted>");
	free(text);
}

/*
 * A run counted during none of its time (a whole-CPU file owned the only
 * CPU): perf's "<not counted>", never 0, and no metric, in every format.
 */
static void test_not_counted(void)
{
	struct stat_run run;
	char *text;

	made_up_partial(&run, 1, NULL, 0);
	text = render(&run, CSV);
	expect_line(text, 0, "<not counted>,,cycles,0,0.00,,",
		    "0% counted, -x,: <not counted>, runtime 0, 0.00% counted");
	expect_line(text, 1, "<not counted>,,INST_RETIRED:u,0,0.00,,",
		    "  and no IPC (perf shows no metric for it)");
	expect_line(text, 3, "<not counted>,,BR_PRED,0,0.00,,",
		    "  and no line for a further metric");
	tap_check(count_char(text, '\n') == 5, "  one line per count, the unsupported one too",
		  "%s", text);
	free(text);
	text = render(&run, JSON);
	expect_line(text, 1, "{\"counter-value\" : \"<not counted>\", \"unit\" : \"\", \"event\" : \"INST_RETIRED:u\", \"event-runtime\" : 0, \"pcnt-running\" : 0.00, \"metric-value\" : 0.000000, \"metric-unit\" : \"\"}",
		    "0% counted, --json: counter-value \"<not counted>\", no metric");
	free(text);
	text = render(&run, TABLE);
	tap_check(strstr(text, "     <not counted>      cycles") &&
		  strstr(text, "     <not counted>      INST_RETIRED:u") &&
		  !strstr(text, "insn per cycle") && !strstr(text, "        0      ") &&
		  strstr(text, "Not counted: the threads ran"),
		  "0% counted, table: <not counted>, no metric, and why", "%s", text);
	free(text);
	/* Nothing ran while started (an exec that never came): the same. */
	run.time_enabled = 0;
	for (int i = 0; i < run.ncounters; i++)
		run.counters[i].time_enabled = 0;
	text = render(&run, TABLE);
	tap_check(strstr(text, "     <not counted>      cycles") &&
		  strstr(text, "Not counted: no counted thread ran"),
		  "no time at all: <not counted>, and why", "%s", text);
	free(text);
}

/* The command's end, as a shell reports it. */
static void test_status(void)
{
	struct stat_run run;
	char *text;

	made_up_run(&run, 1);
	run.status = 137;
	run.signal = 9;
	text = render(&run, TABLE);
	tap_check(strstr(text, "The command was killed by SIGKILL (Killed).") &&
		  !strstr(text, "status 137"),
		  "a command killed by SIGKILL: the table names the signal", "%s", text);
	free(text);
	run.status = 3;
	run.signal = 0;
	text = render(&run, TABLE);
	tap_check(strstr(text, "The command exited with status 3.") != NULL,
		  "a command that exited with 3: the table says so", "%s", text);
	free(text);
}

static void test_table(void)
{
	struct stat_run run;
	char *text, below[128];

	made_up_run(&run, 1);
	text = render(&run, TABLE);
	tap_check(strstr(text, "             1,000      INST_RETIRED:u                   #    0.50  insn per cycle\n") != NULL,
		  "table: IPC after '#' on the instructions line", "%s", text);
	/* Under the metric column: 57 columns in (perf's #, at 58), as the first metric. */
	snprintf(below, sizeof(below), "\n%57s#   10.00  mispredicts per 1000 insns\n", "");
	tap_check(strstr(text, below) != NULL,
		  "table: a further metric below, after '#'", "%s", text);
	tap_check(strstr(text, "   <not supported>      STALL_FRONTEND\n") != NULL,
		  "table: <not supported>", "%s", text);
	free(text);
}

/* An event the core lacks: perf's <not supported> line where -e put it. */
static void test_unsupported_in_place(void)
{
	struct stat_run run;
	const char *at, *want;
	char *text;

	made_up_run(&run, 1);
	run.unsupported[0].at = 1;	/* -e cycles,STALL_FRONTEND,INST_RETIRED:u,... */
	text = render(&run, TABLE);
	at = strstr(text, "      cycles\n");
	want = "   <not supported>      STALL_FRONTEND\n";
	tap_check(at && !strncmp(strchr(at, '\n') + 1, want, strlen(want)),
		  "table: <not supported> in its place, after cycles", "%s", text);
	free(text);
	text = render(&run, CSV);
	expect_line(text, 1, "<not supported>,,STALL_FRONTEND,0,100.00,,",
		    "-x,: <not supported> in its place, perf's fields");
	free(text);
}

static void test_metrics(void)
{
	struct stat_run run;
	double v = -1;
	const struct stat_metric *ipc;

	made_up_run(&run, 1);
	ipc = stat_metric_of(&run.counters[1], 0);
	tap_check(ipc && !strcmp(ipc->unit, "insn per cycle") && stat_metric_value(&run, &run.counters[1], ipc, &v) &&
		  v == 0.5, "IPC is instructions over cycles", "%f", v);
	run.ncounters = 2;	/* no branches counted: no branch metric */
	ipc = stat_metric_of(&run.counters[0], 0);
	tap_check(ipc && !strcmp(ipc->unit, "GHz") && !stat_metric_of(&run.counters[0], 1) &&
		  !stat_metric_value(&run, &run.counters[0], ipc, &v),
		  "cycles' one metric is perf's GHz, and not without a clock printed", "%f", v);
	run.software = 1U << SW_TASK_CLOCK;
	run.sw_sum[SW_TASK_CLOCK] = 0.001;	/* 1 us: 2,000 cycles are 2 GHz */
	tap_check(stat_metric_value(&run, &run.counters[0], ipc, &v) && fabs(v - 2.0) < 1e-9,
		  "  over task-clock: cycles per ns", "%f", v);
	run.software = 0;
	ipc = stat_metric_of(&run.counters[1], 0);
	run.counters[0].sum = 0;
	tap_check(stat_metric_value(&run, &run.counters[1], ipc, &v) && v == 0,
		  "a denominator of 0 gives 0, as perf shows it", "%f", v);
	run.counters[1].mode = ARMPMU_EXCLUDE_USER;	/* instructions:k over cycles (both modes) */
	tap_check(!stat_metric_value(&run, &run.counters[1], ipc, &v),
		  "no IPC of instructions:k over cycles of another mode (perf's rule)", "IPC %f", v);
	run.counters[0].mode = ARMPMU_EXCLUDE_USER;
	tap_check(stat_metric_value(&run, &run.counters[1], ipc, &v),
		  "  but over cycles:k", "none");
	run.counters[0] = run.counters[1];	/* instructions, no cycles */
	run.ncounters = 1;
	tap_check(!stat_metric_value(&run, &run.counters[0], ipc, &v), "no IPC without cycles counted", "IPC %f", v);
}

/* A known core's info, with @counters event counters. */
static struct armpmu_info core(const char *want, unsigned int counters)
{
	struct armpmu_info info = { 0 };
	const char *name;

	for (unsigned int i = 0; (name = pmudev_known_core(i, &info)); i++)
		if (!strcmp(name, want))
			break;
	if (!name) {
		fprintf(stderr, "no known core %s\n", want);
		exit(2);
	}
	info.num_counters = counters;
	return info;
}

static void test_groups(void)
{
	struct armpmu_info a7 = core("Cortex-A7", 4), a53 = core("Cortex-A53", 6);
	struct armpmu_info a72 = core("Cortex-A72", 6);
	const struct stat_group *g;
	char why[256], name[96];
	int err;

	tap_check(stat_metric_group("IPC") && stat_metric_group("cache") && !stat_metric_group("nope"),
		  "groups are found by name, any case; an unknown one is not", "they are not");
	static const char *const names[] = { "ipc", "branch", "l1d", "l2", "cache", "stall" };

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		g = stat_metric_group(names[i]);
		err = stat_metric_group_check(g, NULL, &a72, why, sizeof(why));
		snprintf(name, sizeof(name), "-M %s on a Cortex-A72: %s", names[i],
			 strcmp(names[i], "stall") ? "fits" : "refused (no STALL_FRONTEND there)");
		tap_check((err == 0) == (strcmp(names[i], "stall") != 0), name, "%d %s", err,
			  err ? why : "");
	}
	err = stat_metric_group_check(stat_metric_group("cache"), NULL, &a7, why, sizeof(why));
	tap_check(err == -ENOSPC && strstr(why, "-M cache needs 5 event counters, but a Cortex-A7 has 4"),
		  "-M cache on a Cortex-A7 (4 counters) is refused, saying so", "%d %s", err, why);
	err = stat_metric_group_check(stat_metric_group("l1d"), NULL, &a7, why, sizeof(why));
	tap_check(err == 0, "-M l1d fits a Cortex-A7", "%d %s", err, why);
	err = stat_metric_group_check(stat_metric_group("stall"), NULL, &a53, why, sizeof(why));
	tap_check(err == -ENOENT &&
		  strstr(why, "-M stall: this Cortex-A53 does not implement STALL_FRONTEND, STALL_BACKEND"),
		  "-M stall on a Cortex-A53 is refused, naming the core and the events", "%d %s",
		  err, why);
	err = stat_metric_group_check(stat_metric_group("frontend_stalled_cycles"),
				      "frontend_stalled_cycles", &a53, why, sizeof(why));
	tap_check(err == -ENOENT &&
		  !strncmp(why, "-M frontend_stalled_cycles: this Cortex-A53 does not implement", 62),
		  "  by perf's name, the refusal names the group as typed", "%d %s", err, why);
}

/*
 * --per-thread's runs: @n threads "prog-1000", "prog-1001", ... made from
 * @run, each with the counts scaled by its factor (2, 3, 1, ...: not in
 * order) and the driver's task-clock, context-switches and
 * cpu-migrations.
 */
static void made_up_threads(struct stat_run *runs, int n)
{
	static const double factor[] = { 2, 3, 1 };

	for (int r = n - 1; r >= 0; r--) {
		struct stat_usage u = { 0 };
		double f = factor[r % 3];

		runs[r] = runs[0];
		runs[r].where.per_thread = true;
		snprintf(runs[r].where.thread_comm, sizeof(runs[r].where.thread_comm), "prog");
		runs[r].where.thread_tid = 1000 + r;
		for (int i = 0; i < runs[r].ncounters; i++) {
			runs[r].counters[i].sum *= f;
			runs[r].counters[i].sumsq *= f * f;
		}
		runs[r].software = 1U << SW_TASK_CLOCK | 1U << SW_CONTEXT_SWITCHES |
				   1U << SW_CPU_MIGRATIONS;
		memset(runs[r].sw_sum, 0, sizeof(runs[r].sw_sum));
		memset(runs[r].sw_sumsq, 0, sizeof(runs[r].sw_sumsq));
		u.value[SW_TASK_CLOCK] = 0.25 * f;
		u.value[SW_CONTEXT_SWITCHES] = 4 * f;
		u.value[SW_CPU_MIGRATIONS] = 3 - f;
		stat_counts_add_software(&runs[r], &u);
	}
}

/*
 * --per-thread, as perf orders it: event by event, each event's threads
 * from the largest count down; every line starts with its thread.
 */
static void test_per_thread(void)
{
	struct stat_run runs[3];
	char *buf = NULL, line[256], want[64];
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	static const int by_count[] = { 1001, 1000, 1002 }, by_migrations[] = { 1002, 1000, 1001 };
	bool order = true;

	if (!out)
		abort();
	made_up_run(&runs[0], 1);
	runs[0].ncounters = 1;
	runs[0].nunsupported = 0;
	made_up_threads(runs, 3);
	stat_fields_separated(out, runs, 3, ",");
	fclose(out);
	/* task-clock, context-switches: 3 lines each; cpu-migrations; cycles. */
	for (int k = 0; k < 12; k++) {
		int tid = k >= 6 && k < 9 ? by_migrations[k % 3] : by_count[k % 3];

		snprintf(want, sizeof(want), "prog-%d,", tid);
		order &= !strncmp(line_of(buf, k, line, sizeof(line)), want, strlen(want));
	}
	line_of(buf, 12, line, sizeof(line));
	tap_check(order && (!line[0] || !strcmp(line, "(no such line)")),
		  "--per-thread -x,: event by event, each thread's line from the largest count down",
		  "%s", buf);
	free(buf);
}

/* The value of the metric with @unit on @c's line of @run, or -1 (none shown). */
static double metric_on(const struct stat_run *run, const struct counter *c, const char *unit)
{
	const struct stat_metric *m;
	double v;

	for (unsigned int k = 0; (m = stat_metric_of(c, k)); k++)
		if (!strcmp(m->unit, unit) && stat_metric_value(run, c, m, &v))
			return v;
	return -1;
}

/*
 * --topdown's level 1 (Arm's Neoverse N1 method, the A76's events): of
 * 1000 cycles 200 frontend and 300 backend stalls, 400 of 500 instructions
 * speculated retired: 20%, 30%, retiring 0.8 x 50% = 40%, bad speculation
 * 10%; the stall ratios give way to them, and come back without it.
 */
static void test_topdown(void)
{
	static const struct { const char *name; uint32_t event; double value; } counts[] = {
		{ "cycles", 0x11, 1000 }, { "STALL_FRONTEND", 0x23, 200 },
		{ "STALL_BACKEND", 0x24, 300 }, { "INST_SPEC", 0x1b, 500 },
		{ "INST_RETIRED", 0x08, 400 },
	};
	struct stat_run run;
	const struct stat_group *g = stat_metric_group("TopdownL1");
	struct armpmu_info a72 = core("Cortex-A72", 6);
	char why[300];

	empty_run(&run);
	run.runs = 1;
	run.time_enabled = run.time_running = ENABLED;
	for (size_t i = 0; i < sizeof(counts) / sizeof(counts[0]); i++)
		add_counter(&run, counts[i].name, counts[i].event, &counts[i].value, ENABLED);
	config.topdown = true;
	tap_check(metric_on(&run, &run.counters[1], "% frontend bound") == 20 &&
		  metric_on(&run, &run.counters[2], "% backend bound") == 30 &&
		  fabs(metric_on(&run, &run.counters[4], "% retiring") - 40) < 1e-9 &&
		  fabs(metric_on(&run, &run.counters[3], "% bad speculation") - 10) < 1e-9,
		  "--topdown: frontend 20%, backend 30%, retiring 40%, bad speculation 10%", "%f %f %f %f",
		  metric_on(&run, &run.counters[1], "% frontend bound"),
		  metric_on(&run, &run.counters[2], "% backend bound"),
		  metric_on(&run, &run.counters[4], "% retiring"),
		  metric_on(&run, &run.counters[3], "% bad speculation"));
	tap_check(metric_on(&run, &run.counters[1], "frontend stall cycles per cycle") < 0 &&
		  metric_on(&run, &run.counters[4], "insn per cycle") == 0.4,
		  "  in place of the stall ratios; IPC still there", "%s", "-");
	config.topdown = false;
	tap_check(metric_on(&run, &run.counters[1], "% frontend bound") < 0 &&
		  metric_on(&run, &run.counters[1], "frontend stall cycles per cycle") == 0.2,
		  "  without --topdown: the stall ratio, no share", "%s", "-");
	tap_check(g && !strcmp(g->name, "topdown") && stat_metric_group("Default") &&
		  !strcmp(stat_metric_group("Default")->name, "ipc") &&
		  !strcmp(stat_metric_group("l1d_cache_miss_ratio")->name, "l1d"),
		  "-M: perf's names (TopdownL1, Default, l1d_cache_miss_ratio)", "%s", "-");
	tap_check(g && stat_metric_group_check(g, NULL, &a72, why, sizeof(why)) == -ENOENT &&
		  strstr(why, "made for the Cortex-A76") && strstr(why, "STALL_SLOT"),
		  "  --topdown on a Cortex-A72: refused, saying why", "%s", why);
}

/*
 * --per-thread: a thread let go at an exec (ARMPMU_THREAD_EXEC_LEFT) and an
 * idle one (never ran while counted) are <not counted>, software lines too,
 * as perf prints them; the table's note says the let-go.
 */
static void test_per_thread_not_counted(void)
{
	struct stat_run runs[3];
	char *text;

	made_up_run(&runs[0], 1);
	runs[0].ncounters = 1;
	runs[0].nunsupported = 0;
	made_up_threads(runs, 3);
	runs[1].exec_left = true;
	runs[2].time_enabled = runs[2].time_running = 0;
	runs[2].counters[0].missed = true;
	text = render_runs(runs, 3, CSV);
	tap_check(strstr(text, "prog-1001,<not counted>,,cycles,") &&
		  strstr(text, "prog-1001,<not counted>,msec,task-clock,") &&
		  strstr(text, "prog-1002,<not counted>,,context-switches,") &&
		  strstr(text, "prog-1000,4000,,cycles,"),
		  "--per-thread -x,: a let-go thread and an idle one <not counted>, the other a count",
		  "%s", text);
	free(text);
	text = render_runs(runs, 3, TABLE);
	tap_check(strstr(text, "let go at that exec") != NULL,
		  "--per-thread table: the let-go thread's note", "%s", text);
	free(text);
}

/*
 * --print FORMAT [-I] [-A | --per-thread] [--metric-only] [--software]
 * [--no-metrics] [-o FILE [--append]]: a made-up run's lines as pmuctl stat prints them,
 * FORMAT one of csv, csv-r, json, json-r, csv-nc, json-nc (counted 0% of
 * the time), table: -I two intervals, each with its header where
 * pmuctl prints one; -A, CPUs 0 and 1; --per-thread, threads prog-1000
 * to prog-1002 with the driver's software lines; --software, the task-clock and
 * page-faults lines first; --system, -a's cpu-clock, context-switches
 * and page-faults lines first; --no-metrics, cycles alone (no metric); -o,
 * into FILE after its header, as pmuctl stat -o writes it.
 */
static int print(int argc, char **argv)
{
	const char *what = argv[0], *path = NULL, *sep = strncmp(what, "csv", 3) ? NULL : ",";
	bool json = !strncmp(what, "json", 4), intervals = false, append = false;
	char *cmd[] = { "prog", NULL };
	struct stat_run runs[3];
	bool per_thread = false;
	int n = 1;
	FILE *out = stdout;

	if (!sep && !json && strcmp(what, "table"))
		return 2;
	made_up_run(&runs[0], strstr(what, "-r") ? 3 : 1);
	if (strstr(what, "-nc"))
		made_up_partial(&runs[0], runs[0].runs, NULL, 0);
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-I")) {
			intervals = true;
		} else if (!strcmp(argv[i], "-A")) {
			runs[0].where.per_cpu = true;
			n = 2;
		} else if (!strcmp(argv[i], "--per-thread")) {
			per_thread = true;
		} else if (!strcmp(argv[i], "--metric-only")) {
			config.metric_only = true;
		} else if (!strcmp(argv[i], "--software")) {
			struct stat_usage u = { .user = 0.0005, .sys = 0.0002 };

			u.value[SW_TASK_CLOCK] = 0.7;
			u.value[SW_PAGE_FAULTS] = 50;
			runs[0].software = 1U << SW_TASK_CLOCK | 1U << SW_PAGE_FAULTS;
			for (int r = 0; r < runs[0].runs; r++)
				stat_counts_add_usage(&runs[0], &u);
		} else if (!strcmp(argv[i], "--system")) {
			/* -a's: cpu-clock of 2 CPUs, the system's switches and faults. */
			struct stat_usage u = { 0 };

			u.value[SW_CPU_CLOCK] = 2.1;
			u.value[SW_CONTEXT_SWITCHES] = 120;
			u.value[SW_PAGE_FAULTS] = 50;
			runs[0].software = 1U << SW_CPU_CLOCK | 1U << SW_CONTEXT_SWITCHES |
					   1U << SW_PAGE_FAULTS;
			for (int r = 0; r < runs[0].runs; r++)
				stat_counts_add_software(&runs[0], &u);
		} else if (!strcmp(argv[i], "--no-metrics")) {
			runs[0].ncounters = 1;
			runs[0].nunsupported = 0;
		} else if (!strcmp(argv[i], "-o") && i + 1 < argc) {
			path = argv[++i];
		} else if (!strcmp(argv[i], "--append")) {
			append = true;
		} else {
			return 2;
		}
	}
	if (per_thread) {
		n = 3;
		made_up_threads(runs, n);
	}
	if (path && !(out = stat_print_output_file(path, append))) {
		perror(path);
		return 1;
	}
	for (int t = 0; t < (intervals ? 2 : 1); t++) {
		for (int r = 0; r < n; r++) {
			if (r && !per_thread)
				runs[r] = runs[0];
			runs[r].where.line_cpu = r;
			runs[r].where.interval = intervals ? 0.1 * (t + 1) : 0;
		}
		if (intervals)
			stat_print_interval_header(out, &runs[0], sep, json);
		if (json)
			stat_fields_json(out, runs, n);
		else if (sep)
			stat_fields_separated(out, runs, n, sep);
		else if (intervals)
			stat_print_interval(out, runs, n);
		else
			stat_print_table(out, runs, n, cmd);
	}
	if (out != stdout)
		fclose(out);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc >= 3 && !strcmp(argv[1], "--print"))
		return print(argc - 2, argv + 2);
	tap_init();
	test_layouts();
	test_untrusted();
	test_scaled();
	test_not_counted();
	test_status();
	test_table();
	test_unsupported_in_place();
	test_metrics();
	test_groups();
	test_per_thread();
	test_per_thread_not_counted();
	test_topdown();
	return tap_done();
}
