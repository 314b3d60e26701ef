// SPDX-License-Identifier: GPL-2.0
/*
 * pmuctl stat's counts and statistics: the runs' counts summed, and the
 * figures the printers show of them.
 */
#include <math.h>

#include "stat-counts.h"

static uint64_t value_of(const struct counter *c, const struct armpmu_counts *counts)
{
	return c->idx == ARMPMU_CYCLE_COUNTER ? counts->cycles : counts->events[c->idx];
}

void stat_counts_add(struct stat_run *run, const struct armpmu_counts *counts)
{
	for (int i = 0; i < run->ncounters; i++) {
		struct counter *c = &run->counters[i];
		double v = (double)value_of(c, counts);

		c->sum += v;
		c->sumsq += v * v;
	}
	if (counts->flags & ARMPMU_COUNTS_EXEC_LEFT)
		run->exec_left = true;
	run->time_enabled += counts->time_enabled;
	run->time_running += counts->time_running;
	run->runs++;
}

double stat_counts_mean(const struct stat_run *run, const struct counter *c)
{
	return run->runs ? c->sum / run->runs : 0;
}

double stat_counts_rsd(const struct stat_run *run, const struct counter *c)
{
	double m = stat_counts_mean(run, c), var;

	if (run->runs < 2 || m == 0)
		return 0;
	var = (c->sumsq - run->runs * m * m) / (run->runs - 1);
	return var > 0 ? sqrt(var) / m * 100 : 0;
}

double stat_counts_coverage(const struct stat_run *run)
{
	const struct armpmu_counts c = {
		.time_enabled = run->time_enabled, .time_running = run->time_running,
	};

	return pmudev_coverage(&c) * 100;
}

bool stat_counts_incomplete(const struct stat_run *run)
{
	return run->time_running < run->time_enabled;
}

bool stat_counts_numbers(const struct stat_run *run)
{
	return run->runs && run->time_running && !run->disturbed && !run->exec_left;
}

const struct counter *stat_counts_counter(const struct stat_run *run, uint32_t event)
{
	for (int i = 0; i < run->ncounters; i++)
		if (run->counters[i].event == event)
			return &run->counters[i];
	return NULL;
}
