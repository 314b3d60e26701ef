/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ARMv7 PMU registers through CP15 c9, for 32-bit kernels (Cortex-A5 to
 * A17, and ARMv8 cores running AArch32 kernels): one tiny inline helper
 * per access, so that the hot paths compile to the accesses themselves.
 * On the CPU whose PMU they touch, interrupts off.
 *
 * Event types and counters are reached through PMSELR + PMXEVTYPER /
 * PMXEVCNTR only: the direct PMEVTYPERn encodings are ARMv8-only, and QEMU
 * accepting them on ARMv7 models proves nothing about real ARMv7 cores.
 */
#ifndef ARMPMU_PMU_REGS_V7_H
#define ARMPMU_PMU_REGS_V7_H

#include <asm/barrier.h>

/* Bits of PMCR this driver may change (the rest is kept). */
#define PMU_PMCR_OWNED		(ARMPMU_PMCR_E | ARMPMU_PMCR_D)
/* The cycle counter is 32 bits wide. */
#define PMU_CYCLE_MASK		U32_MAX

#define V7_PMU_READER(name, crm, op2)					\
static inline u32 name##_read(void)					\
{									\
	u32 val;							\
	asm volatile("mrc p15, 0, %0, c9, " #crm ", " #op2 : "=r" (val)); \
	return val;							\
}

#define V7_PMU_WRITER(name, crm, op2)					\
static inline void name##_write(u32 val)				\
{									\
	asm volatile("mcr p15, 0, %0, c9, " #crm ", " #op2 : : "r" (val)); \
}

V7_PMU_READER(pmcr, c12, 0)
V7_PMU_WRITER(pmcr, c12, 0)
V7_PMU_READER(pmcntenset, c12, 1)
V7_PMU_WRITER(pmcntenset, c12, 1)
V7_PMU_WRITER(pmcntenclr, c12, 2)
V7_PMU_READER(pmovsr, c12, 3)
V7_PMU_WRITER(pmovsr, c12, 3)
V7_PMU_READER(pmselr, c12, 5)
V7_PMU_WRITER(pmselr, c12, 5)
V7_PMU_READER(pmceid0, c12, 6)
V7_PMU_READER(pmceid1, c12, 7)
V7_PMU_READER(pmccntr, c13, 0)
V7_PMU_WRITER(pmccntr, c13, 0)
V7_PMU_READER(pmxevtyper, c13, 1)
V7_PMU_WRITER(pmxevtyper, c13, 1)
V7_PMU_READER(pmxevcntr, c13, 2)
V7_PMU_WRITER(pmxevcntr, c13, 2)
V7_PMU_READER(pmuserenr, c14, 0)
V7_PMU_READER(pmintenset, c14, 1)
V7_PMU_WRITER(pmintenclr, c14, 2)

static inline u32 pmu_read_pmcr(void)
{
	return pmcr_read();
}

/*
 * D is ignored while LC is set, on ARMv8 cores running a 32-bit kernel:
 * LC is cleared with the divider on (bit 6 is should-be-zero on ARMv7).
 */
static inline void pmu_write_pmcr(u32 val)
{
	if (val & ARMPMU_PMCR_D)
		val &= ~ARMPMU_PMCR_LC;
	pmcr_write(val);
	isb();
}

static inline u32 pmu_read_enabled(void)
{
	return pmcntenset_read();
}

static inline void pmu_enable(u32 mask)
{
	pmcntenset_write(mask);
	isb();
}

static inline void pmu_disable(u32 mask)
{
	pmcntenclr_write(mask);
	isb();
}

static inline u32 pmu_read_irq_enabled(void)
{
	return pmintenset_read();
}

static inline void pmu_disable_irq(u32 mask)
{
	pmintenclr_write(mask);
}

static inline u32 pmu_read_overflow(void)
{
	return pmovsr_read();
}

static inline void pmu_clear_overflow(u32 mask)
{
	pmovsr_write(mask);
}

static inline u32 pmu_read_selection(void)
{
	return pmselr_read();
}

static inline void pmu_select(u32 idx)
{
	pmselr_write(idx);
	isb();
}

/* The event counter PMSELR selects. */
static inline u32 pmu_read_selected_evtype(void)
{
	return pmxevtyper_read();
}

static inline void pmu_write_selected_evtype(u32 val)
{
	pmxevtyper_write(val);
}

static inline u64 pmu_read_selected_counter(void)
{
	return pmxevcntr_read();
}

static inline void pmu_write_selected_counter(u64 val)
{
	pmxevcntr_write(val);
}

/* PMSELR = 31 makes PMXEVTYPER the cycle counter's filter (PMUv2). */
static inline u32 pmu_read_evtype(u32 idx)
{
	pmu_select(idx);
	return pmu_read_selected_evtype();
}

static inline void pmu_write_evtype(u32 idx, u32 val)
{
	pmu_select(idx);
	pmu_write_selected_evtype(val);
}

static inline u64 pmu_read_counter(u32 idx)
{
	if (idx == ARMPMU_CYCLE_IDX)
		return pmccntr_read();
	pmu_select(idx);
	return pmu_read_selected_counter();
}

static inline void pmu_write_counter(u32 idx, u64 val)
{
	if (idx == ARMPMU_CYCLE_IDX) {
		pmccntr_write(val);
		return;
	}
	pmu_select(idx);
	pmu_write_selected_counter(val);
}

static inline u32 pmu_read_userenr(void)
{
	return pmuserenr_read();
}

/* PMUv3 and later only: on PMUv2 models QEMU makes them undefined. */
static inline u32 pmu_read_ceid0(void)
{
	return pmceid0_read();
}

static inline u32 pmu_read_ceid1(void)
{
	return pmceid1_read();
}

#endif /* ARMPMU_PMU_REGS_V7_H */
