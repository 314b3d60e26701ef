// SPDX-License-Identifier: GPL-2.0
/*
 * stat-lines-unit: lines of pmuctl stat that perf 6.1 prints its own way,
 * from made-up counts (no device):
 *  - -I --summary with -x: the whole run's lines after the intervals begin
 *    with perf's field "summary", right-aligned in 16 columns (a count's
 *    further metric lines have none, as perf's; nor has --json);
 *  - a software line's time counted (-x's fifth field) is the time the
 *    counted threads ran, the driver's task-clock, printed or not;
 *  - -p, -t, -I: a software line of threads the driver saw on no CPU is
 *    <not counted>, never a made-up 0; unknown, the count.
 * Prints TAP, exits 1 if a row failed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/armpmu_arch.h>

#include "stat-output.h"
#include "stat-render.h"
#include "unit-tap.h"

static struct stat_target command = { .kind = TARGET_COMMAND };
static struct stat_config config;

/*
 * One run of cycles (4,000,000) and page-faults (@faults), software lines
 * @software, the driver's task-clock @ran_ms (known or not).
 */
static void made_up(struct stat_run *run, unsigned int software, double faults, double ran_ms,
		    bool ran_known)
{
	struct counter *c = &run->counters[0];
	struct stat_usage u = { 0 };

	memset(run, 0, sizeof(*run));
	run->target = &command;
	run->config = &config;
	run->runs = 1;
	run->elapsed = 0.1;
	run->time_enabled = run->time_running = 5000;
	run->software = software;
	run->ran_known = ran_known;
	u.value[SW_PAGE_FAULTS] = faults;
	u.value[SW_TASK_CLOCK] = ran_ms;
	stat_counts_add_software(run, &u);
	if (software & 1U << SW_TASK_CLOCK)
		return;
	snprintf(c->name, sizeof(c->name), "cycles");
	c->idx = ARMPMU_CYCLE_COUNTER;
	c->event = ARMPMU_EV_CPU_CYCLES;
	stat_counts_add_counter(c, 4000000, 5000, 5000);
	run->ncounters = 1;
}

/* @run's lines in @format (CSV: with commas), as one string (freed by the caller). */
static char *render(const struct stat_run *run, enum format f)
{
	return render_runs_as(run, 1, f, ",");
}

/* @text has a line that is @want exactly. */
static void has_line(const char *text, const char *want, const char *name)
{
	char detail[1024];
	const char *p = text;
	size_t n = strlen(want);
	bool found = false;

	while (p && *p && !found) {
		found = !strncmp(p, want, n) && (p[n] == '\n' || !p[n]);
		p = strchr(p, '\n');
		p = p ? p + 1 : NULL;
	}
	snprintf(detail, sizeof(detail), "no line '%s' in: %s", want, text);
	check(found, name, detail);
}

static void not_in(const char *text, const char *what, const char *name)
{
	char detail[1024];

	snprintf(detail, sizeof(detail), "'%s' in: %s", what, text);
	check(!strstr(text, what), name, detail);
}

static void test_summary(void)
{
	struct stat_run run;
	char *text;

	made_up(&run, 1U << SW_PAGE_FAULTS, 37, 5.70984, true);
	run.where.summary = true;
	text = render(&run, CSV);
	has_line(text, "         summary,37,,page-faults,5709840,100.00,,",
		 "-I --summary -x,: a software line begins with perf 6.1's \"summary\" field");
	has_line(text, "         summary,4000000,,cycles,5000,100.00,,",
		 "  and a count's line too");
	free(text);
	text = render(&run, JSON);
	not_in(text, "summary", "-I --summary -j: no summary key, as perf 6.1's JSON");
	free(text);
	run.where.summary = false;
	text = render(&run, CSV);
	has_line(text, "37,,page-faults,5709840,100.00,,",
		 "--no-csv-summary (where.summary false): the line as without -I");
	free(text);
}

static void test_software_time(void)
{
	struct stat_run run;
	char *text;

	made_up(&run, 1U << SW_PAGE_FAULTS, 34, 5.70984, true);
	run.where.interval = 0.103;
	text = render(&run, CSV);
	has_line(text, "     0.103000000,34,,page-faults,5709840,100.00,,",
		 "-I -e page-faults -x,: the time counted is the interval's task-clock, not printed");
	free(text);
}

static void test_not_run(void)
{
	struct stat_run run;
	char *text;

	made_up(&run, 1U << SW_PAGE_FAULTS, 0, 0, true);
	text = render(&run, CSV);
	has_line(text, "<not counted>,,page-faults,0,100.00,,",
		 "-p of a target that never ran: page-faults <not counted>, as perf's");
	free(text);
	text = render(&run, TABLE);
	not_in(text, "              0      page-faults", "  and in the table, no 0");
	check(strstr(text, "<not counted>") != NULL, "  the table says <not counted>", text);
	free(text);
	made_up(&run, 1U << SW_TASK_CLOCK | 1U << SW_PAGE_FAULTS, 0, 0, true);
	text = render(&run, CSV);
	has_line(text, "<not counted>,msec,task-clock,0,100.00,,",
		 "  its task-clock too (perf's run time 0)");
	free(text);
	made_up(&run, 1U << SW_PAGE_FAULTS, 0, 0, false);
	text = render(&run, CSV);
	has_line(text, "0,,page-faults,0,100.00,,",
		 "whether it ran unknown (no driver's clock): the count from /proc");
	free(text);
	made_up(&run, 1U << SW_PAGE_FAULTS, 0, 2.5, true);
	text = render(&run, CSV);
	has_line(text, "0,,page-faults,2500000,100.00,,",
		 "a target that ran 2.5 ms without a fault: 0, a count");
	free(text);
}

int main(void)
{
	test_summary();
	test_software_time();
	test_not_run();
	return done();
}
