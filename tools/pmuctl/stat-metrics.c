// SPDX-License-Identifier: GPL-2.0
/*
 * pmuctl stat's derived metrics, shown beside a count when the counts they
 * need were all counted (as perf stat does), and -M's named groups of
 * events, each chosen so that its metrics come out.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include <linux/armpmu_arch.h>

#include "pmuctl.h"
#include "stat-metrics.h"

/* In the order they show on a line. */
static const struct stat_metric metrics[] = {
	/* perf's GHz on cycles: per ns of task-clock (-a, -C: cpu-clock). */
	{ ARMPMU_EV_CPU_CYCLES, ARMPMU_EV_CPU_CYCLES, STAT_METRIC_CLOCK, 1e-6, 3, "GHz" },
	{ ARMPMU_EV_INST_RETIRED, ARMPMU_EV_INST_RETIRED, ARMPMU_EV_CPU_CYCLES, 1, 2, "insn per cycle" },
	{ ARMPMU_EV_BR_MIS_PRED, ARMPMU_EV_BR_MIS_PRED, ARMPMU_EV_BR_PRED, 1, 4, "mispredicts per branch" },
	{ ARMPMU_EV_BR_MIS_PRED, ARMPMU_EV_BR_MIS_PRED, ARMPMU_EV_INST_RETIRED, 1000, 2, "mispredicts per 1000 insns" },
	{ ARMPMU_EV_BR_MIS_PRED_RETIRED, ARMPMU_EV_BR_MIS_PRED_RETIRED, ARMPMU_EV_BR_RETIRED, 1, 4,
	  "mispredicts per branch" },
	{ ARMPMU_EV_BR_MIS_PRED_RETIRED, ARMPMU_EV_BR_MIS_PRED_RETIRED, ARMPMU_EV_INST_RETIRED, 1000, 2,
	  "mispredicts per 1000 insns" },
	{ ARMPMU_EV_L1D_CACHE_REFILL, ARMPMU_EV_L1D_CACHE_REFILL, ARMPMU_EV_L1D_CACHE, 1, 4, "refills per L1D access" },
	{ ARMPMU_EV_L1D_CACHE_REFILL, ARMPMU_EV_L1D_CACHE_REFILL, ARMPMU_EV_INST_RETIRED, 1000, 2,
	  "L1D refills per 1000 insns" },
	{ ARMPMU_EV_L2D_CACHE_REFILL, ARMPMU_EV_L2D_CACHE_REFILL, ARMPMU_EV_L2D_CACHE, 1, 4, "refills per L2 access" },
	{ ARMPMU_EV_L2D_CACHE_REFILL, ARMPMU_EV_L2D_CACHE_REFILL, ARMPMU_EV_INST_RETIRED, 1000, 2,
	  "L2 refills per 1000 insns" },
	{ ARMPMU_EV_STALL_FRONTEND, ARMPMU_EV_STALL_FRONTEND, ARMPMU_EV_CPU_CYCLES, 1, 2,
	  "frontend stall cycles per cycle" },
	{ ARMPMU_EV_STALL_BACKEND, ARMPMU_EV_STALL_BACKEND, ARMPMU_EV_CPU_CYCLES, 1, 2,
	  "backend stall cycles per cycle" },
};

#define NMETRICS (sizeof(metrics) / sizeof(metrics[0]))

const struct stat_metric *stat_metric_of(const struct counter *c, unsigned int index)
{
	for (size_t i = 0; i < NMETRICS; i++)
		if (metrics[i].on == c->event && index-- == 0)
			return &metrics[i];
	return NULL;
}

bool stat_metric_value(const struct stat_run *run, const struct counter *on,
		       const struct stat_metric *m, double *value)
{
	const struct counter *num = m->num == on->event ? on :
				    stat_counts_counter(run, m->num, on->mode);
	const struct counter *den = stat_counts_counter(run, m->den, on->mode);
	unsigned int clock = run->software & (1U << SW_TASK_CLOCK | 1U << SW_CPU_CLOCK);
	double d;

	if (m->den == STAT_METRIC_CLOCK) {
		/* The cycle counter's ("cycles"), over a clock printed beside it. */
		if (on->idx != ARMPMU_CYCLE_COUNTER || !clock || !stat_counts_counted(run, on))
			return false;
		d = stat_counts_software(run, clock & (1U << SW_TASK_CLOCK) ? SW_TASK_CLOCK :
					 SW_CPU_CLOCK);
		*value = d > 0 ? stat_counts_mean(run, on) * m->scale / d : 0;
		return true;
	}
	if (!num || !den || !stat_counts_counted(run, num) || !stat_counts_counted(run, den))
		return false;
	d = stat_counts_mean(run, den);
	*value = d > 0 ? stat_counts_mean(run, num) * m->scale / d : 0;
	return true;
}

/* "cycles" is the cycle counter: it takes no event counter. */
static const struct stat_group groups[] = {
	{ "ipc", "instructions per cycle",
	  { "cycles", "INST_RETIRED" } },
	{ "branch", "branch mispredictions per branch and per 1000 instructions (speculative)",
	  { "cycles", "INST_RETIRED", "BR_PRED", "BR_MIS_PRED" } },
	{ "l1d", "level 1 data cache refills per access and per 1000 instructions",
	  { "cycles", "INST_RETIRED", "L1D_CACHE", "L1D_CACHE_REFILL" } },
	{ "l2", "level 2 cache refills per access and per 1000 instructions",
	  { "cycles", "INST_RETIRED", "L2D_CACHE", "L2D_CACHE_REFILL" } },
	{ "cache", "l1d and l2 together: 5 event counters",
	  { "cycles", "INST_RETIRED", "L1D_CACHE", "L1D_CACHE_REFILL", "L2D_CACHE",
	    "L2D_CACHE_REFILL" } },
	{ "stall", "frontend and backend stall cycles per cycle",
	  { "cycles", "STALL_FRONTEND", "STALL_BACKEND" } },
};

#define NGROUPS (sizeof(groups) / sizeof(groups[0]))

const struct stat_group *stat_metric_group(const char *name)
{
	for (size_t i = 0; i < NGROUPS; i++)
		if (!strcasecmp(name, groups[i].name))
			return &groups[i];
	return NULL;
}

void stat_metric_groups_print(FILE *out, int indent)
{
	for (size_t i = 0; i < NGROUPS; i++) {
		fprintf(out, "%*s%-7s %s:\n%*s        ", indent, "", groups[i].name,
			groups[i].summary, indent, "");
		for (int k = 0; k < GROUP_MAX_EVENTS && groups[i].events[k]; k++)
			fprintf(out, "%s%s", k ? "," : "", groups[i].events[k]);
		fputc('\n', out);
	}
}

int stat_metric_group_check(const struct stat_group *g, const struct armpmu_info *info,
			    char *why, size_t len)
{
	char missing[160] = "";
	struct pmudev_event ev;
	unsigned int need = 0;

	for (int k = 0; k < GROUP_MAX_EVENTS && g->events[k]; k++) {
		const char *name = g->events[k];
		size_t used = strlen(missing);

		if (!strcasecmp(name, "cycles"))
			continue;
		need++;
		if (pmudev_event_parse(name, info, &ev))
			snprintf(missing + used, sizeof(missing) - used, "%s%s", used ? ", " : "",
				 name);
	}
	if (missing[0]) {
		snprintf(why, len, "-M %s: this %s does not implement %s", g->name,
			 core_name(info), missing);
		return -ENOENT;
	}
	if (need > info->num_counters) {
		snprintf(why, len, "-M %s needs %u event counters, but a %s has %u: its events are multiplexed",
			 g->name, need, core_name(info), info->num_counters);
		return -ENOSPC;
	}
	return 0;
}
