/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ARMv8 PMUv3 registers as AArch64 system registers, for arm64 kernels:
 * one tiny inline helper per access, so that the hot paths (a look at the
 * counters on READ, a context switch) compile to the accesses themselves.
 * On the CPU whose PMU they touch, interrupts off.
 */
#ifndef ARMPMU_PMU_REGS_V8_H
#define ARMPMU_PMU_REGS_V8_H

#include <asm/barrier.h>
#include <asm/sysreg.h>

/* Bits of PMCR this driver may change (the rest is kept). */
#define PMU_PMCR_OWNED		(ARMPMU_PMCR_E | ARMPMU_PMCR_D | ARMPMU_PMCR_LC)
/* The cycle counter is 64 bits wide. */
#define PMU_CYCLE_MASK		U64_MAX

static inline u32 pmu_read_pmcr(void)
{
	return read_sysreg(pmcr_el0);
}

static inline void pmu_write_pmcr(u32 val)
{
	write_sysreg(val, pmcr_el0);
	isb();
}

static inline u32 pmu_read_enabled(void)
{
	return read_sysreg(pmcntenset_el0);
}

static inline void pmu_enable(u32 mask)
{
	write_sysreg(mask, pmcntenset_el0);
	isb();
}

static inline void pmu_disable(u32 mask)
{
	write_sysreg(mask, pmcntenclr_el0);
	isb();
}

static inline u32 pmu_read_irq_enabled(void)
{
	return read_sysreg(pmintenset_el1);
}

static inline void pmu_disable_irq(u32 mask)
{
	write_sysreg(mask, pmintenclr_el1);
}

/* PMOVSCLR_EL0 reads as the overflow status, as PMOVSSET_EL0 does. */
static inline u32 pmu_read_overflow(void)
{
	return read_sysreg(pmovsclr_el0);
}

static inline void pmu_clear_overflow(u32 mask)
{
	write_sysreg(mask, pmovsclr_el0);
}

static inline u32 pmu_read_selection(void)
{
	return read_sysreg(pmselr_el0);
}

static inline void pmu_select(u32 idx)
{
	write_sysreg(idx, pmselr_el0);
	isb();
}

/* The event counter PMSELR selects. */
static inline u32 pmu_read_selected_evtype(void)
{
	return read_sysreg(pmxevtyper_el0);
}

static inline void pmu_write_selected_evtype(u32 val)
{
	write_sysreg(val, pmxevtyper_el0);
}

static inline u64 pmu_read_selected_counter(void)
{
	return read_sysreg(pmxevcntr_el0);
}

static inline void pmu_write_selected_counter(u64 val)
{
	write_sysreg(val, pmxevcntr_el0);
}

/* Index ARMPMU_CYCLE_IDX is the cycle counter, its type PMCCFILTR. */
static inline u32 pmu_read_evtype(u32 idx)
{
	if (idx == ARMPMU_CYCLE_IDX)
		return read_sysreg(pmccfiltr_el0);
	pmu_select(idx);
	return pmu_read_selected_evtype();
}

static inline void pmu_write_evtype(u32 idx, u32 val)
{
	if (idx == ARMPMU_CYCLE_IDX) {
		write_sysreg(val, pmccfiltr_el0);
		return;
	}
	pmu_select(idx);
	pmu_write_selected_evtype(val);
}

static inline u64 pmu_read_counter(u32 idx)
{
	if (idx == ARMPMU_CYCLE_IDX)
		return read_sysreg(pmccntr_el0);
	pmu_select(idx);
	return pmu_read_selected_counter();
}

static inline void pmu_write_counter(u32 idx, u64 val)
{
	if (idx == ARMPMU_CYCLE_IDX) {
		write_sysreg(val, pmccntr_el0);
		return;
	}
	pmu_select(idx);
	pmu_write_selected_counter(val);
}

static inline u32 pmu_read_userenr(void)
{
	return read_sysreg(pmuserenr_el0);
}

static inline u32 pmu_read_ceid0(void)
{
	return read_sysreg(pmceid0_el0);
}

static inline u32 pmu_read_ceid1(void)
{
	return read_sysreg(pmceid1_el0);
}

#endif /* ARMPMU_PMU_REGS_V8_H */
