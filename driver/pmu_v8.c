// SPDX-License-Identifier: GPL-2.0
/*
 * ARMv8 PMUv3 backend: AArch64 system registers, for arm64 kernels.
 */
#include <asm/barrier.h>
#include <asm/cputype.h>
#include <asm/sysreg.h>
#include <asm/virt.h>
#include "armpmu.h"

#define ID_AA64DFR0_PMUVER_SHIFT	8
#define ID_AA64DFR0_PMUVER_V3		0x1
#define ID_AA64DFR0_PMUVER_IMPDEF	0xf

static void v8_select(u32 idx)
{
	write_sysreg(idx, pmselr_el0);
	isb();
}

/*
 * ID_AA64DFR0_EL1.PMUVer says 1 for PMUv3 where AArch32's ID_DFR0.PerfMon
 * says 3; from ARMv8.1 on (4, 5, ...) the two scales agree.
 */
static u32 v8_pmu_version(u32 pmuver)
{
	return pmuver == ID_AA64DFR0_PMUVER_V3 ? ARMPMU_PMUV3 : pmuver;
}

static const char *v8_probe(struct armpmu_caps *caps)
{
	u32 pmuver = (read_sysreg(id_aa64dfr0_el1) >> ID_AA64DFR0_PMUVER_SHIFT) & 0xf;
	u64 ceid0, ceid1;

	if (pmuver == 0 || pmuver == ID_AA64DFR0_PMUVER_IMPDEF)
		return "no PMUv3 (ID_AA64DFR0_EL1.PMUVer is 0 or IMPLEMENTATION DEFINED)";

	caps->midr = read_cpuid_id();
	caps->pmu_version = v8_pmu_version(pmuver);
	caps->num_counters = (read_sysreg(pmcr_el0) >> ARMPMU_PMCR_N_SHIFT) &
			     ARMPMU_PMCR_N_MASK;
	caps->can_filter = true;
	/* evtCount[15:10] is RES0 before PMUv3 for ARMv8.1. */
	caps->event_bits = caps->pmu_version > ARMPMU_PMUV3 ? 16 : 10;

	/* Low halves: events 0x00-0x3f; high halves: 0x4000-0x403f. */
	ceid0 = read_sysreg(pmceid0_el0);
	ceid1 = read_sysreg(pmceid1_el0);
	caps->events_known = true;
	caps->common_events = lower_32_bits(ceid0) | (u64)lower_32_bits(ceid1) << 32;
	caps->common_events_hi = upper_32_bits(ceid0) | (u64)upper_32_bits(ceid1) << 32;
	return NULL;
}

static u32 v8_encode_evtype(u32 event, u32 flags)
{
	u32 val = event | armpmu_filter_bits(flags);

	/* A VHE kernel runs at EL2: count there too when counting the kernel. */
	if (!(flags & ARMPMU_EXCLUDE_KERNEL) && is_kernel_in_hyp_mode())
		val |= ARMPMU_EVTYPE_NSH;
	return val;
}

static u32 v8_read_pmcr(void)
{
	return read_sysreg(pmcr_el0);
}

static void v8_write_pmcr(u32 val)
{
	write_sysreg(val, pmcr_el0);
	isb();
}

static u32 v8_read_enabled(void)
{
	return read_sysreg(pmcntenset_el0);
}

static void v8_enable(u32 mask)
{
	write_sysreg(mask, pmcntenset_el0);
	isb();
}

static void v8_disable(u32 mask)
{
	write_sysreg(mask, pmcntenclr_el0);
	isb();
}

static u32 v8_read_irq_enabled(void)
{
	return read_sysreg(pmintenset_el1);
}

static void v8_disable_irq(u32 mask)
{
	write_sysreg(mask, pmintenclr_el1);
}

static void v8_clear_overflow(u32 mask)
{
	write_sysreg(mask, pmovsclr_el0);
}

static void v8_write_evtype(u32 idx, u32 val)
{
	if (idx == ARMPMU_CYCLE_IDX) {
		write_sysreg(val, pmccfiltr_el0);
		return;
	}
	v8_select(idx);
	write_sysreg(val, pmxevtyper_el0);
}

static u32 v8_read_evtype(u32 idx)
{
	if (idx == ARMPMU_CYCLE_IDX)
		return read_sysreg(pmccfiltr_el0);
	v8_select(idx);
	return read_sysreg(pmxevtyper_el0);
}

static u64 v8_read_counter(u32 idx)
{
	if (idx == ARMPMU_CYCLE_IDX)
		return read_sysreg(pmccntr_el0);
	v8_select(idx);
	return read_sysreg(pmxevcntr_el0);
}

static void v8_write_counter(u32 idx, u64 val)
{
	if (idx == ARMPMU_CYCLE_IDX) {
		write_sysreg(val, pmccntr_el0);
		return;
	}
	v8_select(idx);
	write_sysreg(val, pmxevcntr_el0);
}

static u32 v8_read_userenr(void)
{
	return read_sysreg(pmuserenr_el0);
}

const struct armpmu_ops armpmu_backend = {
	.name = "ARMv8 PMUv3",
	.probe = v8_probe,
	.encode_evtype = v8_encode_evtype,
	.read_pmcr = v8_read_pmcr,
	.write_pmcr = v8_write_pmcr,
	.read_enabled = v8_read_enabled,
	.enable = v8_enable,
	.disable = v8_disable,
	.read_irq_enabled = v8_read_irq_enabled,
	.disable_irq = v8_disable_irq,
	.clear_overflow = v8_clear_overflow,
	.write_evtype = v8_write_evtype,
	.read_evtype = v8_read_evtype,
	.read_counter = v8_read_counter,
	.write_counter = v8_write_counter,
	.read_userenr = v8_read_userenr,
	/*
	 * LC is cleared while the divider is on, since D is ignored with it,
	 * and set otherwise, as perf's reset leaves it: a 32-bit overflow
	 * point would give perf's cycle counter needless interrupts, and QEMU
	 * an overflow timer whose callback races with the vCPU and can
	 * restart a counter.
	 */
	.pmcr_owned = ARMPMU_PMCR_E | ARMPMU_PMCR_D | ARMPMU_PMCR_LC,
	.cycle_mask = U64_MAX,
};
