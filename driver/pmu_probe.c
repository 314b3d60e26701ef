// SPDX-License-Identifier: GPL-2.0
/*
 * The probe's register work on one CPU: it reads and tries what
 * pmu_probe.h's pure decisions need, on either architecture (pmu_regs.h
 * says which ID register and which decoding).
 */
#include <asm/cputype.h>
#include "armpmu.h"
#include "pmu_regs.h"

/*
 * Writes P and U into the event type of a counter nobody has enabled (the
 * highest free event counter, perf allocating from 0 up; else the cycle
 * counter's filter), reads it back and puts the old value back. False if
 * every counter is in use.
 */
static bool probe_filter(u32 num_counters, u32 *readback)
{
	u32 enabled = pmu_read_enabled();
	u32 idx = num_counters, old;

	while (idx > 0 && (enabled & BIT(idx - 1)))
		idx--;
	if (idx > 0)
		idx--;
	else if (!(enabled & ARMPMU_CYCLE_BIT))
		idx = ARMPMU_CYCLE_IDX;
	else
		return false;
	old = pmu_read_evtype(idx);
	pmu_write_evtype(idx, old | ARMPMU_EVTYPE_P | ARMPMU_EVTYPE_U);
	isb();
	*readback = pmu_read_evtype(idx);
	pmu_write_evtype(idx, old);
	isb();
	return true;
}

/*
 * Writes D = 1 and LC = 0 (bit 6 is reserved, should-be-zero, before
 * ARMv8), reads PMCR back and puts it back as it was. Perf's cycle counter,
 * if it runs, is divided for these few instructions.
 */
static u32 probe_divider(void)
{
	u32 pmcr = pmu_read_pmcr() & ~ARMPMU_PMCR_RESET_BITS;
	u32 readback;

	pmu_write_pmcr((pmcr & ~ARMPMU_PMCR_LC) | ARMPMU_PMCR_D);
	readback = pmu_read_pmcr();
	pmu_write_pmcr(pmcr);
	return readback;
}

/* On the CPU, interrupts off: the capabilities of its PMU, or why it has none usable. */
const char *armpmu_probe_cpu(struct armpmu_caps *caps)
{
	struct armpmu_probe_regs regs = { .midr = read_cpuid_id() };
	const char *why;
	u32 version;

	why = armpmu_probe_version(PMU_ISA, regs.midr, pmu_read_id_dfr(), &version);
	if (why)
		return why;
	regs.pmcr = pmu_read_pmcr();
	if (armpmu_probe_wants_filter_test(version))
		regs.filter_tested = probe_filter(ARMPMU_PMCR_N(regs.pmcr), &regs.filter_readback);
	regs.divider_readback = probe_divider();
	/*
	 * PMCEID0/1 exist from PMUv3 on. On PMUv2 models QEMU makes them
	 * undefined instructions, so never touch them there.
	 */
	if (version >= ARMPMU_PMUV3) {
		regs.ceid0 = pmu_read_ceid0();
		regs.ceid1 = pmu_read_ceid1();
	}
	armpmu_probe_caps(version, &regs, caps);
	return NULL;
}
