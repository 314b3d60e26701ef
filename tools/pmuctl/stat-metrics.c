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
	{ ARMPMU_EV_CPU_CYCLES, ARMPMU_EV_CPU_CYCLES, STAT_METRIC_CLOCK, 1e-6, 3, "GHz", METRIC_RATIO },
	{ ARMPMU_EV_INST_RETIRED, ARMPMU_EV_INST_RETIRED, ARMPMU_EV_CPU_CYCLES, 1, 2, "insn per cycle", METRIC_RATIO },
	{ ARMPMU_EV_BR_MIS_PRED, ARMPMU_EV_BR_MIS_PRED, ARMPMU_EV_BR_PRED, 1, 4, "mispredicts per branch", METRIC_RATIO },
	{ ARMPMU_EV_BR_MIS_PRED, ARMPMU_EV_BR_MIS_PRED, ARMPMU_EV_INST_RETIRED, 1000, 2, "mispredicts per 1000 insns", METRIC_RATIO },
	{ ARMPMU_EV_BR_MIS_PRED_RETIRED, ARMPMU_EV_BR_MIS_PRED_RETIRED, ARMPMU_EV_BR_RETIRED, 1, 4,
	  "mispredicts per branch", METRIC_RATIO },
	{ ARMPMU_EV_BR_MIS_PRED_RETIRED, ARMPMU_EV_BR_MIS_PRED_RETIRED, ARMPMU_EV_INST_RETIRED, 1000, 2,
	  "mispredicts per 1000 insns", METRIC_RATIO },
	{ ARMPMU_EV_L1D_CACHE_REFILL, ARMPMU_EV_L1D_CACHE_REFILL, ARMPMU_EV_L1D_CACHE, 1, 4, "refills per L1D access", METRIC_RATIO },
	{ ARMPMU_EV_L1D_CACHE_REFILL, ARMPMU_EV_L1D_CACHE_REFILL, ARMPMU_EV_INST_RETIRED, 1000, 2,
	  "L1D refills per 1000 insns", METRIC_RATIO },
	{ ARMPMU_EV_L2D_CACHE_REFILL, ARMPMU_EV_L2D_CACHE_REFILL, ARMPMU_EV_L2D_CACHE, 1, 4, "refills per L2 access", METRIC_RATIO },
	{ ARMPMU_EV_L2D_CACHE_REFILL, ARMPMU_EV_L2D_CACHE_REFILL, ARMPMU_EV_INST_RETIRED, 1000, 2,
	  "L2 refills per 1000 insns", METRIC_RATIO },
	{ ARMPMU_EV_STALL_FRONTEND, ARMPMU_EV_STALL_FRONTEND, ARMPMU_EV_CPU_CYCLES, 1, 2,
	  "frontend stall cycles per cycle", METRIC_RATIO },
	{ ARMPMU_EV_STALL_BACKEND, ARMPMU_EV_STALL_BACKEND, ARMPMU_EV_CPU_CYCLES, 1, 2,
	  "backend stall cycles per cycle", METRIC_RATIO },
	/* --topdown's level 1 (stat_metric_topdown_text says whence). */
	{ ARMPMU_EV_STALL_FRONTEND, ARMPMU_EV_STALL_FRONTEND, ARMPMU_EV_CPU_CYCLES, 100, 1,
	  "% frontend bound", METRIC_STALLS },
	{ ARMPMU_EV_STALL_BACKEND, ARMPMU_EV_STALL_BACKEND, ARMPMU_EV_CPU_CYCLES, 100, 1,
	  "% backend bound", METRIC_STALLS },
	{ ARMPMU_EV_INST_SPEC, ARMPMU_EV_INST_RETIRED, ARMPMU_EV_INST_SPEC, 100, 1,
	  "% bad speculation", METRIC_BAD_SPEC },
	{ ARMPMU_EV_INST_RETIRED, ARMPMU_EV_INST_RETIRED, ARMPMU_EV_INST_SPEC, 100, 1,
	  "% retiring", METRIC_RETIRING },
};

const char *const stat_metric_topdown_text[] = {
	"pmuctl stat --topdown: top-down level 1 on the Cortex-A76 (Raspberry Pi 5)",
	"",
	"From Arm's top-down performance analysis methodology for the Neoverse N1",
	"(\"Arm Neoverse N1 Core: Performance Analysis Methodology\", Arm, 2020), the",
	"A76's server sibling, whose stage 1 splits the cycles into four shares. The",
	"N1's method counts operations (OP_RETIRED, OP_SPEC); the A76 has neither, so",
	"its instructions stand in (INST_RETIRED, INST_SPEC), and perf's generic arm64",
	"metrics need ARMv8.4's STALL_SLOT events, which the A76 lacks. Each share in",
	"% of CPU_CYCLES, the events counted in one mode:",
	"",
	"  frontend bound  = STALL_FRONTEND / CPU_CYCLES",
	"  backend bound   = STALL_BACKEND / CPU_CYCLES",
	"  retiring        = INST_RETIRED / INST_SPEC",
	"                    x (1 - (STALL_FRONTEND + STALL_BACKEND) / CPU_CYCLES)",
	"  bad speculation = (1 - INST_RETIRED / INST_SPEC)",
	"                    x (1 - (STALL_FRONTEND + STALL_BACKEND) / CPU_CYCLES)",
	"",
	"The four add up to 100%. Events: cycles (the cycle counter), STALL_FRONTEND",
	"(0x23), STALL_BACKEND (0x24), INST_SPEC (0x1B), INST_RETIRED (0x08): four",
	"of the A76's six event counters, counted together. Other cores: refused,",
	"saying why (the method is the N1's, and the A53 lacks the stall events).",
	NULL,
};

#define NMETRICS (sizeof(metrics) / sizeof(metrics[0]))

const struct stat_metric *stat_metric_of(const struct counter *c, unsigned int index)
{
	for (size_t i = 0; i < NMETRICS; i++)
		if (metrics[i].on == c->event && index-- == 0)
			return &metrics[i];
	return NULL;
}

/* The share of the cycles not stalled (top-down), or false without its counts. */
static bool not_stalled(const struct stat_run *run, uint32_t mode, double *share)
{
	const struct counter *fe = stat_counts_counter(run, ARMPMU_EV_STALL_FRONTEND, mode);
	const struct counter *be = stat_counts_counter(run, ARMPMU_EV_STALL_BACKEND, mode);
	const struct counter *cy = stat_counts_counter(run, ARMPMU_EV_CPU_CYCLES, mode);
	double c;

	if (!fe || !be || !cy || !stat_counts_counted(run, fe) || !stat_counts_counted(run, be) ||
	    !stat_counts_counted(run, cy))
		return false;
	c = stat_counts_mean(run, cy);
	*share = c > 0 ? 1 - (stat_counts_mean(run, fe) + stat_counts_mean(run, be)) / c : 0;
	*share = *share < 0 ? 0 : *share;
	return true;
}

bool stat_metric_value(const struct stat_run *run, const struct counter *on,
		       const struct stat_metric *m, double *value)
{
	double share, retired;

	/* --topdown's shares, in place of the stall ratios; only with it. */
	if ((m->kind != METRIC_RATIO) != run->config->topdown &&
	    (m->kind != METRIC_RATIO || m->on == ARMPMU_EV_STALL_FRONTEND ||
	     m->on == ARMPMU_EV_STALL_BACKEND))
		return false;
	if (m->kind == METRIC_RETIRING || m->kind == METRIC_BAD_SPEC) {
		const struct counter *r = stat_counts_counter(run, ARMPMU_EV_INST_RETIRED, on->mode);
		const struct counter *s = stat_counts_counter(run, ARMPMU_EV_INST_SPEC, on->mode);

		if (!r || !s || !stat_counts_counted(run, r) || !stat_counts_counted(run, s) ||
		    !not_stalled(run, on->mode, &share))
			return false;
		retired = stat_counts_mean(run, s) > 0 ?
			  stat_counts_mean(run, r) / stat_counts_mean(run, s) : 0;
		retired = retired > 1 ? 1 : retired;
		*value = m->scale * share * (m->kind == METRIC_RETIRING ? retired : 1 - retired);
		return true;
	}
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
	  { "cycles", "INST_RETIRED" }, NULL },
	{ "branch", "branch mispredictions per branch and per 1000 instructions (speculative)",
	  { "cycles", "INST_RETIRED", "BR_PRED", "BR_MIS_PRED" }, NULL },
	{ "l1d", "level 1 data cache refills per access and per 1000 instructions",
	  { "cycles", "INST_RETIRED", "L1D_CACHE", "L1D_CACHE_REFILL" }, NULL },
	{ "l2", "level 2 cache refills per access and per 1000 instructions",
	  { "cycles", "INST_RETIRED", "L2D_CACHE", "L2D_CACHE_REFILL" }, NULL },
	{ "cache", "l1d and l2 together: 5 event counters",
	  { "cycles", "INST_RETIRED", "L1D_CACHE", "L1D_CACHE_REFILL", "L2D_CACHE",
	    "L2D_CACHE_REFILL" }, NULL },
	{ "stall", "frontend and backend stall cycles per cycle",
	  { "cycles", "STALL_FRONTEND", "STALL_BACKEND" }, NULL },
	{ "topdown", "top-down level 1 (--topdown; Cortex-A76: pmuctl explain topdown)",
	  { "cycles", "STALL_FRONTEND", "STALL_BACKEND", "INST_SPEC", "INST_RETIRED" },
	  "Cortex-A76" },
};

/* perf's names for the groups, as perf users type them (-M Default). */
static const struct {
	const char *perf, *group;
} aliases[] = {
	{ "Default", "ipc" },	/* perf's default lines: cycles, instructions, IPC */
	{ "TopdownL1", "topdown" }, { "Topdown", "topdown" },
	{ "branch_misprediction_ratio", "branch" }, { "branch_mpki", "branch" },
	{ "l1d_cache_miss_ratio", "l1d" }, { "l1d_cache_mpki", "l1d" },
	{ "l2_cache_miss_ratio", "l2" }, { "l2_cache_mpki", "l2" },
	{ "frontend_stalled_cycles", "stall" }, { "backend_stalled_cycles", "stall" },
};

#define NGROUPS (sizeof(groups) / sizeof(groups[0]))

const struct stat_group *stat_metric_group(const char *name)
{
	for (size_t i = 0; i < sizeof(aliases) / sizeof(aliases[0]); i++)
		if (!strcasecmp(name, aliases[i].perf))
			name = aliases[i].group;
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

int stat_metric_group_check(const struct stat_group *g, const char *as,
			    const struct armpmu_info *info, char *why, size_t len)
{
	char missing[160] = "";
	struct pmudev_event ev;
	unsigned int need = 0;
	const char *name = as && as[0] ? as : g->name;

	if (g->core && strcmp(core_name(info), g->core)) {
		snprintf(why, len, "-M %s: made for the %s, from Arm's Neoverse N1 method (pmuctl explain topdown); a %s's pipeline is not the N1's, and perf's generic arm64 top-down needs ARMv8.4's STALL_SLOT events, which these cores lack",
			 name, g->core, core_name(info));
		return -ENOENT;
	}

	for (int k = 0; k < GROUP_MAX_EVENTS && g->events[k]; k++) {
		const char *event = g->events[k];
		size_t used = strlen(missing);

		if (!strcasecmp(event, "cycles"))
			continue;
		need++;
		if (pmudev_event_parse(event, info, &ev))
			snprintf(missing + used, sizeof(missing) - used, "%s%s", used ? ", " : "",
				 event);
	}
	if (missing[0]) {
		snprintf(why, len, "-M %s: this %s does not implement %s", name,
			 core_name(info), missing);
		return -ENOENT;
	}
	if (need > info->num_counters) {
		snprintf(why, len, "-M %s needs %u event counters, but a %s has %u: its events are multiplexed",
			 name, need, core_name(info), info->num_counters);
		return -ENOSPC;
	}
	return 0;
}
