// SPDX-License-Identifier: GPL-2.0
/*
 * ARMv8 PMUv3 backend: AArch64 system registers, for arm64 kernels.
 */
#include <asm/barrier.h>
#include <asm/cputype.h>
#include <asm/sysreg.h>
#include <asm/virt.h>
#include "armpmu.h"

/* PMCR.P and PMCR.C reset counters when written as 1. */
#define PMCR_RESET_BITS		(BIT(1) | BIT(2))

static void v8_select(u32 idx)
{
	write_sysreg(idx, pmselr_el0);
	isb();
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

/*
 * Writes P and U into the event type of a counter nobody has enabled (the
 * highest free event counter, perf allocating from 0 up; else PMCCFILTR),
 * reads it back and puts the old value back. False if every counter is in
 * use.
 */
static bool v8_probe_filter(u32 num_counters, u32 *readback)
{
	u32 enabled = read_sysreg(pmcntenset_el0);
	u32 idx = num_counters, old;

	while (idx > 0 && (enabled & BIT(idx - 1)))
		idx--;
	if (idx > 0)
		idx--;
	else if (!(enabled & ARMPMU_CYCLE_BIT))
		idx = ARMPMU_CYCLE_IDX;
	else
		return false;
	old = v8_read_evtype(idx);
	v8_write_evtype(idx, old | ARMPMU_EVTYPE_P | ARMPMU_EVTYPE_U);
	isb();
	*readback = v8_read_evtype(idx);
	v8_write_evtype(idx, old);
	isb();
	return true;
}

/*
 * Writes D = 1 and LC = 0, reads PMCR_EL0 back and puts it back as it was.
 * Perf's cycle counter, if it runs, is divided for these few instructions.
 */
static u32 v8_probe_divider(void)
{
	u32 pmcr = read_sysreg(pmcr_el0) & ~PMCR_RESET_BITS;
	u32 readback;

	write_sysreg((pmcr & ~ARMPMU_PMCR_LC) | ARMPMU_PMCR_D, pmcr_el0);
	isb();
	readback = read_sysreg(pmcr_el0);
	write_sysreg(pmcr, pmcr_el0);
	isb();
	return readback;
}

/* On the CPU, interrupts off. The decisions are pmu_probe.h's. */
static const char *v8_probe(struct armpmu_caps *caps)
{
	struct armpmu_probe_regs regs = { .midr = read_cpuid_id() };
	const char *why;
	u32 version;

	why = armpmu_probe_version(ARMPMU_ISA_V8, regs.midr,
				   lower_32_bits(read_sysreg(id_aa64dfr0_el1)), &version);
	if (why)
		return why;
	regs.pmcr = read_sysreg(pmcr_el0);
	if (armpmu_probe_wants_filter_test(version))
		regs.filter_tested =
			v8_probe_filter((regs.pmcr >> ARMPMU_PMCR_N_SHIFT) & ARMPMU_PMCR_N_MASK,
					&regs.filter_readback);
	regs.divider_readback = v8_probe_divider();
	regs.ceid0 = read_sysreg(pmceid0_el0);
	regs.ceid1 = read_sysreg(pmceid1_el0);
	armpmu_probe_caps(version, &regs, caps);
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
