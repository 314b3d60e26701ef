/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The PMU of a 32-bit kernel: ARMv7 registers through CP15 c9 (Cortex-A5
 * to A17, and ARMv8 cores running AArch32 kernels). arm64/pmu_regs.h has
 * the same helpers for arm64 kernels, with the same contract; Kbuild puts
 * this architecture's folder on the include path, so "pmu_regs.h" is the
 * one built for. Accessors only, one tiny inline helper per access, so
 * that the hot paths compile to the accesses themselves: the control
 * registers, one event counter's (select, value, type), and any
 * counter's, the cycle counter's included. What to do with them, and the
 * runs over a mask of counters, are counters.c's. On the CPU whose PMU
 * they touch, interrupts off. Include after armpmu.h.
 *
 * Event types and counters are reached through PMSELR + PMXEVTYPER /
 * PMXEVCNTR only: the direct PMEVTYPERn encodings are ARMv8-only, and QEMU
 * accepting them on ARMv7 models proves nothing about real ARMv7 cores.
 */
#ifndef ARMPMU_ARM_PMU_REGS_H
#define ARMPMU_ARM_PMU_REGS_H

#include <asm/barrier.h>
#include <asm/cputype.h>

/* What the driver says it drives, and how the probe reads the PMU version. */
#define PMU_NAME		"ARMv7 CP15"
#define PMU_ISA			ARMPMU_ISA_V7

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

/*
 * PMSELR, for a look at the registers that must leave it as it found it
 * (a program may have selected a counter by hand).
 */
static inline u32 pmu_save_selection(void)
{
	return pmselr_read();
}

static inline void pmu_restore_selection(u32 sel)
{
	pmselr_write(sel);
	isb();
}

/*
 * One event counter @idx (below ARMPMU_CYCLE_IDX), with one contract on
 * both architectures: pmu_evcntr_select(@idx), then any of the accesses
 * below with the same @idx, until another counter is selected. Here the
 * selection is PMSELR and an ISB, so one select serves a counter's type
 * and value, and the accesses go through PMXEVTYPER and PMXEVCNTR.
 * PMU_EVCNTR_NEEDS_SELECT: a select costs two instructions, so counters.c's
 * runs skip the counters of no interest to them.
 */
#define PMU_EVCNTR_NEEDS_SELECT	1

static inline void pmu_evcntr_select(u32 idx)
{
	pmselr_write(idx);
	isb();
}

static inline u32 pmu_evcntr_read_type(u32 idx)
{
	return pmxevtyper_read();
}

static inline void pmu_evcntr_write_type(u32 idx, u32 val)
{
	pmxevtyper_write(val);
}

static inline u64 pmu_evcntr_read(u32 idx)
{
	return pmxevcntr_read();
}

static inline void pmu_evcntr_write(u32 idx, u64 val)
{
	pmxevcntr_write(val);
}

/*
 * Any counter, the cycle counter (ARMPMU_CYCLE_IDX) included. PMSELR = 31
 * makes PMXEVTYPER the cycle counter's filter (PMUv2).
 */
static inline u32 pmu_read_evtype(u32 idx)
{
	pmu_evcntr_select(idx);
	return pmu_evcntr_read_type(idx);
}

static inline void pmu_write_evtype(u32 idx, u32 val)
{
	pmu_evcntr_select(idx);
	pmu_evcntr_write_type(idx, val);
}

static inline u64 pmu_read_counter(u32 idx)
{
	if (idx == ARMPMU_CYCLE_IDX)
		return pmccntr_read();
	pmu_evcntr_select(idx);
	return pmu_evcntr_read(idx);
}

static inline void pmu_write_counter(u32 idx, u64 val)
{
	if (idx == ARMPMU_CYCLE_IDX) {
		pmccntr_write(val);
		return;
	}
	pmu_evcntr_select(idx);
	pmu_evcntr_write(idx, val);
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

/* An event type for @event with ARMPMU_EXCLUDE_* @flags. */
static inline u32 pmu_encode_evtype(u32 event, u32 flags)
{
	return event | armpmu_filter_bits(flags);
}

/* ID_DFR0, whose PerfMon field armpmu_probe_version() reads. */
static inline u32 pmu_read_id_dfr(void)
{
	return read_cpuid_ext(CPUID_EXT_DFR0);
}

/*
 * The generic timer's counter (CNTVCT) is there: ID_PFR1.GenTimer. Cortex-A8
 * and A9 have none, and reading it there is an undefined instruction.
 */
static inline bool pmu_has_timer_counter(void)
{
	return (read_cpuid_ext(CPUID_EXT_PFR1) >> 16) & 0xf;
}

#endif /* ARMPMU_ARM_PMU_REGS_H */
