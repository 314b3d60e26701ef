// SPDX-License-Identifier: GPL-2.0
/*
 * pmuctl stat's counts and statistics: the runs' counts summed, and the
 * figures the printers show of them.
 */
#include <math.h>

#include "stat-counts.h"

void stat_counts_add_counter(struct counter *c, uint64_t value, uint64_t enabled,
			     uint64_t running)
{
	double v = (double)value;

	c->time_enabled += enabled;
	c->time_running += running;
	if (!running) {
		c->missed = true;
		return;
	}
	if (running < enabled)
		v = floor(v * (double)enabled / (double)running);
	c->sum += v;
	c->sumsq += v * v;
}

void stat_counts_clear(struct stat_run *run)
{
	run->runs = 0;
	run->time_enabled = run->time_running = 0;
	run->exec_left = false;
	for (int i = 0; i < run->ncounters; i++) {
		struct counter *c = &run->counters[i];

		c->sum = c->sumsq = 0;
		c->time_enabled = c->time_running = 0;
		c->missed = false;
	}
}

/* What --per-thread's lines of counter @i (software -1 - @i) are ordered by. */
static double order_key(const struct stat_run *run, int i)
{
	if (i < 0)
		return run->sw_sum[-1 - i];
	return run->counters[i].missed ? -1.0 : run->counters[i].sum;
}

void stat_counts_order(const struct stat_run *runs, int n, int i, int *order)
{
	for (int r = 0; r < n; r++) {
		int k = r;

		/* Insertion: stable, and the threads are a few hundred at most. */
		while (runs[0].where.per_thread && k > 0 &&
		       order_key(&runs[order[k - 1]], i) < order_key(&runs[r], i)) {
			order[k] = order[k - 1];
			k--;
		}
		order[k] = r;
	}
}

static void slot_sub(struct armpmu_slot *a, const struct armpmu_slot *b)
{
	a->value -= b->value;
	a->time_enabled -= b->time_enabled;
	a->time_running -= b->time_running;
}

void stat_counts_sub(struct stat_sample *s, const struct stat_sample *before)
{
	s->time_enabled -= before->time_enabled;
	s->time_running -= before->time_running;
	for (int k = 0; k < MAX_EVENTS; k++)
		slot_sub(&s->slot[k], &before->slot[k]);
}

void stat_counts_add(struct stat_run *run, const struct stat_sample *s)
{
	for (int i = 0; i < run->ncounters; i++) {
		const struct armpmu_slot *slot = &s->slot[run->counters[i].idx];
		struct counter *c = &run->counters[i];

		if (run->config->no_scale && slot->time_running) {
			/* Its share of the time kept, its count not scaled up. */
			stat_counts_add_counter(c, slot->value, slot->time_enabled,
						slot->time_enabled);
			c->time_running -= slot->time_enabled - slot->time_running;
			continue;
		}
		stat_counts_add_counter(c, slot->value, slot->time_enabled, slot->time_running);
	}
	if (s->flags & ARMPMU_COUNTS_EXEC_LEFT)
		run->exec_left = true;
	run->time_enabled += s->time_enabled;
	run->time_running += s->time_running;
	run->runs++;
}

void stat_counts_add_software(struct stat_run *run, const struct stat_usage *u)
{
	for (int k = 0; k < SW_COUNT; k++) {
		run->sw_sum[k] += u->value[k];
		run->sw_sumsq[k] += u->value[k] * u->value[k];
	}
}

void stat_counts_add_usage(struct stat_run *run, const struct stat_usage *u)
{
	stat_counts_add_software(run, u);
	run->user += u->user;
	run->sys += u->sys;
	run->usage = true;
}

void stat_counts_add_elapsed(struct stat_run *run, double seconds)
{
	run->elapsed += seconds;
	run->elapsed_sumsq += seconds * seconds;
}

/*
 * The standard deviation of the mean of @n samples of @sum and @sumsq,
 * relative to the mean, in %: what perf stat -r shows after "+-" (the
 * samples' standard deviation over the square root of @n).
 */
static double rsd(int n, double sum, double sumsq)
{
	double m = n ? sum / n : 0, var;

	if (n < 2 || m == 0)
		return 0;
	var = (sumsq - n * m * m) / (n - 1);
	return var > 0 ? sqrt(var / n) / m * 100 : 0;
}

double stat_counts_software(const struct stat_run *run, enum stat_software sw)
{
	return run->runs ? run->sw_sum[sw] / run->runs : 0;
}

double stat_counts_software_rsd(const struct stat_run *run, enum stat_software sw)
{
	return rsd(run->runs, run->sw_sum[sw], run->sw_sumsq[sw]);
}

double stat_counts_elapsed_sd(const struct stat_run *run)
{
	double m = run->runs ? run->elapsed / run->runs : 0;

	return rsd(run->runs, run->elapsed, run->elapsed_sumsq) * m / 100;
}

double stat_counts_mean(const struct stat_run *run, const struct counter *c)
{
	return run->runs ? c->sum / run->runs : 0;
}

double stat_counts_rsd(const struct stat_run *run, const struct counter *c)
{
	return rsd(run->runs, c->sum, c->sumsq);
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

bool stat_counts_counted(const struct stat_run *run, const struct counter *c)
{
	return stat_counts_numbers(run) && c->time_running && !c->missed;
}

bool stat_counts_scaled(const struct counter *c)
{
	return c->time_running < c->time_enabled;
}

double stat_counts_running(const struct counter *c)
{
	return c->time_enabled ? 100.0 * (double)c->time_running / (double)c->time_enabled : 0;
}

unsigned long long stat_counts_runtime(const struct stat_run *run, const struct counter *c)
{
	return run->runs ? c->time_running / (unsigned int)run->runs : 0;
}

double stat_counts_pcnt(const struct counter *c)
{
	if (c->time_running == c->time_enabled)
		return 100;
	return (double)(100 * c->time_running / c->time_enabled);
}

const struct counter *stat_counts_counter(const struct stat_run *run, uint32_t event,
					  uint32_t mode)
{
	for (int i = 0; i < run->ncounters; i++)
		if (run->counters[i].event == event && run->counters[i].mode == mode)
			return &run->counters[i];
	return NULL;
}

/* @from's counts added to @to's, counter by counter (one run each). */
void stat_counts_add_run(struct stat_run *to, const struct stat_run *from)
{
	for (int i = 0; i < to->ncounters; i++) {
		struct counter *c = &to->counters[i];
		const struct counter *f = &from->counters[i];

		c->sum += f->sum;
		c->sumsq = c->sum * c->sum;
		c->time_enabled += f->time_enabled;
		c->time_running += f->time_running;
		c->missed |= f->missed;
	}
	to->time_enabled += from->time_enabled;
	to->time_running += from->time_running;
}
