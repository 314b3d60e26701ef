// SPDX-License-Identifier: GPL-2.0
/*
 * ARMv7 PMU backend: CP15 c9 registers, for 32-bit kernels (Cortex-A5 to
 * A17, and ARMv8 cores running AArch32 kernels).
 *
 * Event types and counters are reached through PMSELR + PMXEVTYPER /
 * PMXEVCNTR only: the direct PMEVTYPERn encodings are ARMv8-only, and QEMU
 * accepting them on ARMv7 models proves nothing about real ARMv7 cores.
 */
#include <asm/barrier.h>
#include <asm/cputype.h>
#include "armpmu.h"

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

/* PMCR.P and PMCR.C reset counters when written as 1. */
#define PMCR_RESET_BITS		(BIT(1) | BIT(2))

V7_PMU_READER(pmcr, c12, 0)
V7_PMU_WRITER(pmcr, c12, 0)
V7_PMU_READER(pmcntenset, c12, 1)
V7_PMU_WRITER(pmcntenset, c12, 1)
V7_PMU_WRITER(pmcntenclr, c12, 2)
V7_PMU_WRITER(pmovsr, c12, 3)
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

static void v7_select(u32 idx)
{
	pmselr_write(idx);
	isb();
}

/*
 * Writes P and U into the event type of a counter nobody has enabled (the
 * highest free event counter, perf allocating from 0 up; else the cycle
 * counter's filter, PMSELR = 31 on PMUv2 and later), reads it back and
 * puts the old value back. False if every counter is in use.
 */
static bool v7_probe_filter(u32 num_counters, u32 *readback)
{
	u32 enabled = pmcntenset_read();
	u32 idx = num_counters, old;

	while (idx > 0 && (enabled & BIT(idx - 1)))
		idx--;
	if (idx > 0)
		idx--;
	else if (!(enabled & ARMPMU_CYCLE_BIT))
		idx = ARMPMU_CYCLE_IDX;
	else
		return false;
	v7_select(idx);
	old = pmxevtyper_read();
	pmxevtyper_write(old | ARMPMU_EVTYPE_P | ARMPMU_EVTYPE_U);
	isb();
	*readback = pmxevtyper_read();
	pmxevtyper_write(old);
	isb();
	return true;
}

/*
 * Writes D = 1 and LC = 0 (bit 6 is reserved, should-be-zero, before
 * ARMv8), reads PMCR back and puts it back as it was. Perf's cycle counter,
 * if it runs, is divided for these few instructions.
 */
static u32 v7_probe_divider(void)
{
	u32 pmcr = pmcr_read() & ~PMCR_RESET_BITS;
	u32 readback;

	pmcr_write((pmcr & ~ARMPMU_PMCR_LC) | ARMPMU_PMCR_D);
	isb();
	readback = pmcr_read();
	pmcr_write(pmcr);
	isb();
	return readback;
}

/* On the CPU, interrupts off. The decisions are pmu_probe.h's. */
static const char *v7_probe(struct armpmu_caps *caps)
{
	struct armpmu_probe_regs regs = { .midr = read_cpuid_id() };
	const char *why;
	u32 version;

	why = armpmu_probe_version(ARMPMU_ISA_V7, regs.midr,
				   read_cpuid_ext(CPUID_EXT_DFR0), &version);
	if (why)
		return why;
	regs.pmcr = pmcr_read();
	if (armpmu_probe_wants_filter_test(version))
		regs.filter_tested =
			v7_probe_filter((regs.pmcr >> ARMPMU_PMCR_N_SHIFT) & ARMPMU_PMCR_N_MASK,
					&regs.filter_readback);
	regs.divider_readback = v7_probe_divider();
	/*
	 * PMCEID0/1 exist from PMUv3 on. On PMUv2 models QEMU makes them
	 * undefined instructions, so never touch them there.
	 */
	if (version >= ARMPMU_PMUV3) {
		regs.ceid0 = pmceid0_read();
		regs.ceid1 = pmceid1_read();
	}
	armpmu_probe_caps(version, &regs, caps);
	return NULL;
}

static u32 v7_encode_evtype(u32 event, u32 flags)
{
	return event | armpmu_filter_bits(flags);
}

static u32 v7_read_pmcr(void)
{
	return pmcr_read();
}

/*
 * D is ignored while LC is set, on ARMv8 cores running a 32-bit kernel:
 * LC is cleared with the divider on (bit 6 is should-be-zero on ARMv7).
 */
static void v7_write_pmcr(u32 val)
{
	if (val & ARMPMU_PMCR_D)
		val &= ~ARMPMU_PMCR_LC;
	pmcr_write(val);
	isb();
}

static u32 v7_read_enabled(void)
{
	return pmcntenset_read();
}

static void v7_enable(u32 mask)
{
	pmcntenset_write(mask);
	isb();
}

static void v7_disable(u32 mask)
{
	pmcntenclr_write(mask);
	isb();
}

static u32 v7_read_irq_enabled(void)
{
	return pmintenset_read();
}

static void v7_disable_irq(u32 mask)
{
	pmintenclr_write(mask);
}

static void v7_clear_overflow(u32 mask)
{
	pmovsr_write(mask);
}

/* PMSELR = 31 makes PMXEVTYPER the cycle counter's filter (PMUv2). */
static void v7_write_evtype(u32 idx, u32 val)
{
	v7_select(idx);
	pmxevtyper_write(val);
}

static u32 v7_read_evtype(u32 idx)
{
	v7_select(idx);
	return pmxevtyper_read();
}

static u64 v7_read_counter(u32 idx)
{
	if (idx == ARMPMU_CYCLE_IDX)
		return pmccntr_read();
	v7_select(idx);
	return pmxevcntr_read();
}

static void v7_write_counter(u32 idx, u64 val)
{
	if (idx == ARMPMU_CYCLE_IDX) {
		pmccntr_write(val);
		return;
	}
	v7_select(idx);
	pmxevcntr_write(val);
}

static u32 v7_read_userenr(void)
{
	return pmuserenr_read();
}

const struct armpmu_ops armpmu_backend = {
	.name = "ARMv7 CP15",
	.probe = v7_probe,
	.encode_evtype = v7_encode_evtype,
	.read_pmcr = v7_read_pmcr,
	.write_pmcr = v7_write_pmcr,
	.read_enabled = v7_read_enabled,
	.enable = v7_enable,
	.disable = v7_disable,
	.read_irq_enabled = v7_read_irq_enabled,
	.disable_irq = v7_disable_irq,
	.clear_overflow = v7_clear_overflow,
	.write_evtype = v7_write_evtype,
	.read_evtype = v7_read_evtype,
	.read_counter = v7_read_counter,
	.write_counter = v7_write_counter,
	.read_userenr = v7_read_userenr,
	.pmcr_owned = ARMPMU_PMCR_E | ARMPMU_PMCR_D,
	.cycle_mask = U32_MAX,
};
