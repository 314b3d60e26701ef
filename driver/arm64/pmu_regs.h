/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The PMU of an arm64 kernel: ARMv8 PMUv3 registers as AArch64 system
 * registers. arm/pmu_regs.h has the same helpers for 32-bit kernels, with
 * the same contract; Kbuild puts this architecture's folder on the include
 * path, so "pmu_regs.h" is the one built for. Accessors only, one tiny
 * inline helper per access, so that the hot paths (a look at the counters
 * on READ, a context switch) compile to the accesses themselves: the
 * control registers, one event counter's (select, value, type), and any
 * counter's, the cycle counter's included. What to do with them, and the
 * runs over a mask of counters, are counters.c's. On the CPU whose PMU
 * they touch, interrupts off. Include after armpmu.h.
 *
 * Event counters and their types are read and written directly, as
 * PMEVCNTR<n>_EL0 and PMEVTYPER<n>_EL0: no PMSELR, and no ISB between
 * selecting and reaching a counter.
 */
#ifndef ARMPMU_ARM64_PMU_REGS_H
#define ARMPMU_ARM64_PMU_REGS_H

#include <linux/kernel.h>
#include <asm/barrier.h>
#include <asm/sysreg.h>
#include <asm/virt.h>

/* What the driver says it drives, and how the probe reads the PMU version. */
#define PMU_NAME		"ARMv8 PMUv3"
#define PMU_ISA			ARMPMU_ISA_V8

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

/* PMSELR is never written here: nothing to keep. */
static inline u32 pmu_save_selection(void)
{
	return 0;
}

static inline void pmu_restore_selection(u32 sel)
{
}

/*
 * One event counter @idx (0 to 30), with one contract on both
 * architectures: pmu_evcntr_select(@idx), then any of the accesses below
 * with the same @idx, until another counter is selected. Here each
 * counter's registers have encodings of their own, PMEVCNTR<n>_EL0 and
 * PMEVTYPER<n>_EL0, the counter's number in them: the select is nothing,
 * and a switch over @idx, one case per counter (PMU_EVCNTR_CASES(C)
 * expands C(n) for each), picks the instruction. With a constant @idx
 * (counters.c's straight runs) the switch folds away into that one
 * instruction. An @idx past 30 reads as 0 and writes nothing (the callers
 * never pass one). Always inlined: GCC kept the switches out of line, and
 * a call, its pointer authentication and return cost more than the PMSELR
 * select they replace (make bench: READ 1,470 -> 1,646 instructions on
 * the A72). PMU_EVCNTR_NEEDS_SELECT: no select costs anything, so
 * counters.c's runs read a counter of no interest to them rather than
 * test whether to.
 */
#define PMU_EVCNTR_NEEDS_SELECT	0

#define PMU_EVCNTR_CASES(C)						\
	C(0) C(1) C(2) C(3) C(4) C(5) C(6) C(7) C(8) C(9)		\
	C(10) C(11) C(12) C(13) C(14) C(15) C(16) C(17) C(18) C(19)	\
	C(20) C(21) C(22) C(23) C(24) C(25) C(26) C(27) C(28) C(29)	\
	C(30)

#define PMU_READ_EVCNTR(n)	case n: return read_sysreg(pmevcntr##n##_el0);
#define PMU_WRITE_EVCNTR(n)	case n: write_sysreg(val, pmevcntr##n##_el0); break;
#define PMU_READ_EVTYPER(n)	case n: return read_sysreg(pmevtyper##n##_el0);
#define PMU_WRITE_EVTYPER(n)	case n: write_sysreg(val, pmevtyper##n##_el0); break;

static __always_inline void pmu_evcntr_select(u32 idx)
{
}

static __always_inline u32 pmu_evcntr_read_type(u32 idx)
{
	switch (idx) {
	PMU_EVCNTR_CASES(PMU_READ_EVTYPER)
	}
	return 0;
}

static __always_inline void pmu_evcntr_write_type(u32 idx, u32 val)
{
	switch (idx) {
	PMU_EVCNTR_CASES(PMU_WRITE_EVTYPER)
	}
}

static __always_inline u64 pmu_evcntr_read(u32 idx)
{
	switch (idx) {
	PMU_EVCNTR_CASES(PMU_READ_EVCNTR)
	}
	return 0;
}

static __always_inline void pmu_evcntr_write(u32 idx, u64 val)
{
	switch (idx) {
	PMU_EVCNTR_CASES(PMU_WRITE_EVCNTR)
	}
}

/* Any counter: ARMPMU_CYCLE_IDX is the cycle counter, its type PMCCFILTR. */
static inline u32 pmu_read_evtype(u32 idx)
{
	if (idx == ARMPMU_CYCLE_IDX)
		return read_sysreg(pmccfiltr_el0);
	pmu_evcntr_select(idx);
	return pmu_evcntr_read_type(idx);
}

static inline void pmu_write_evtype(u32 idx, u32 val)
{
	if (idx == ARMPMU_CYCLE_IDX) {
		write_sysreg(val, pmccfiltr_el0);
		return;
	}
	pmu_evcntr_select(idx);
	pmu_evcntr_write_type(idx, val);
}

static inline u64 pmu_read_counter(u32 idx)
{
	if (idx == ARMPMU_CYCLE_IDX)
		return read_sysreg(pmccntr_el0);
	pmu_evcntr_select(idx);
	return pmu_evcntr_read(idx);
}

static inline void pmu_write_counter(u32 idx, u64 val)
{
	if (idx == ARMPMU_CYCLE_IDX) {
		write_sysreg(val, pmccntr_el0);
		return;
	}
	pmu_evcntr_select(idx);
	pmu_evcntr_write(idx, val);
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

/*
 * An event type for @event with ARMPMU_EXCLUDE_* @flags. A VHE kernel runs
 * at EL2: counting the kernel there means counting EL2 too.
 */
static inline u32 pmu_encode_evtype(u32 event, u32 flags)
{
	u32 val = event | armpmu_filter_bits(flags);

	if (!(flags & ARMPMU_EXCLUDE_KERNEL) && is_kernel_in_hyp_mode())
		val |= ARMPMU_EVTYPE_NSH;
	return val;
}

/* The low half of ID_AA64DFR0_EL1, whose PMUVer armpmu_probe_version() reads. */
static inline u32 pmu_read_id_dfr(void)
{
	return lower_32_bits(read_sysreg(id_aa64dfr0_el1));
}

/* The generic timer's counter: every ARMv8 core has it. */
static inline bool pmu_has_timer_counter(void)
{
	return true;
}

#endif /* ARMPMU_ARM64_PMU_REGS_H */
