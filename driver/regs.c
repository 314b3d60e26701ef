// SPDX-License-Identifier: GPL-2.0
/*
 * ARMPMU_IOC_REGS: a look at a CPU's PMU registers as they are, whoever
 * programmed them. Read on that CPU, interrupts off, so that the values
 * are of one moment and no context switch loads other counters meanwhile.
 */
#include <linux/cpumask.h>
#include <linux/smp.h>
#include <linux/string.h>
#include "armpmu.h"
#include "pmu_regs.h"

struct regs_look {
	const struct armpmu_caps *caps;
	struct armpmu_regs *regs;
};

/* On the CPU looked at, interrupts off. */
static void read_regs_here(void *info)
{
	const struct regs_look *look = info;
	struct armpmu_regs *r = look->regs;
	u32 selection = pmu_save_selection();
	u32 i;

	r->pmcr = pmu_read_pmcr();
	r->pmcntenset = pmu_read_enabled();
	r->pmovsr = pmu_read_overflow();
	r->pmuserenr = pmu_read_userenr();
	r->pmintenset = pmu_read_irq_enabled();
	for (i = 0; i < look->caps->num_counters; i++) {
		r->evtype[i] = pmu_read_evtype(i);
		r->counter[i] = pmu_read_counter(i);
	}
	/* PMUv1 has no cycle filter: PMSELR = 31 selects nothing there. */
	if (r->flags & ARMPMU_REGS_CYCLE_FILTER)
		r->evtype[ARMPMU_CYCLE_IDX] = pmu_read_evtype(ARMPMU_CYCLE_IDX);
	r->counter[ARMPMU_CYCLE_IDX] = pmu_read_counter(ARMPMU_CYCLE_IDX);
	/* A program that selected a counter by hand finds it selected still. */
	pmu_restore_selection(selection);
}

int armpmu_regs_read(struct armpmu_regs *regs)
{
	u32 cpu = regs->cpu;
	struct regs_look look = { .regs = regs };

	if (memchr_inv(regs->reserved, 0, sizeof(regs->reserved)))
		return -EINVAL;
	if (cpu >= nr_cpu_ids || !cpu_possible(cpu))
		return -EINVAL;
	if (!cpu_online(cpu))
		return -ENXIO;
	look.caps = armpmu_cpus_caps(cpu);
	if (!look.caps)
		return -ENODEV;

	memset(regs, 0, sizeof(*regs));
	regs->cpu = cpu;
	regs->midr = look.caps->midr;
	regs->pmu_version = look.caps->pmu_version;
	regs->num_counters = look.caps->num_counters;
	if (look.caps->can_filter)
		regs->flags |= ARMPMU_REGS_CYCLE_FILTER;
	/* -ENXIO if the CPU went offline since. */
	return smp_call_function_single(cpu, read_regs_here, &look, 1);
}
