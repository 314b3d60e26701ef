/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a CPU's PMU can do, decided from what pmu_probe.c read on that CPU:
 * the ID registers, PMCR, and what stuck when it wrote the filter bits and
 * the divider. Pure functions, no kernel-only dependency: pmu_probe.c
 * calls them with register values on either architecture, and
 * tests/host/probe-unit.c compiles this same file on the host and runs it
 * on a table of cores.
 */
#ifndef ARMPMU_PMU_PROBE_H
#define ARMPMU_PMU_PROBE_H

#ifdef __KERNEL__
#include <linux/types.h>
#else
#include <stdbool.h>
#include <stdint.h>
typedef uint32_t u32;
typedef uint64_t u64;
#endif
#include <linux/armpmu.h>
#include <linux/armpmu_arch.h>

/* What a CPU's PMU can do, probed on that CPU when it comes online. */
struct armpmu_caps {
	u32 midr;
	u32 pmu_version;	/* ARMPMU_PMUV* scale */
	u32 num_counters;
	u32 event_bits;
	u64 common_events;
	u64 common_events_hi;
	bool can_filter;	/* the P and U filter bits stick */
	bool can_divide;	/* PMCR.D divides the cycle counter */
	bool events_known;
};

/* Which register file: CP15 (32-bit kernels) or AArch64 system registers. */
enum armpmu_isa {
	ARMPMU_ISA_V7,
	ARMPMU_ISA_V8,
};

/*
 * Arm's ARMv7 cores with PMUv1, which say nothing of it in ID_DFR0
 * (Cortex-A8 and A9 report PerfMon 0): Linux's perf knows them from the
 * device tree, this driver by MIDR part number. Their PMU has no mode
 * filtering, 8-bit event numbers and no PMCEID.
 */
static inline bool armpmu_midr_is_pmuv1(u32 midr)
{
	if (ARMPMU_MIDR_IMPLEMENTER(midr) != ARMPMU_IMPLEMENTER_ARM)
		return false;
	switch (ARMPMU_MIDR_PART(midr)) {
	case 0xc05:	/* Cortex-A5 */
	case 0xc08:	/* Cortex-A8 */
	case 0xc09:	/* Cortex-A9 */
		return true;
	}
	return false;
}

/*
 * The verdict from the ID registers: NULL and the PMU version
 * (ARMPMU_PMUV* scale) in *version, or why the CPU is turned away. @id is
 * ID_DFR0 on ARMPMU_ISA_V7, the low half of ID_AA64DFR0_EL1 on
 * ARMPMU_ISA_V8.
 */
static inline const char *armpmu_probe_version(enum armpmu_isa isa, u32 midr, u32 id,
					       u32 *version)
{
	u32 field;

	*version = 0;
	if (isa == ARMPMU_ISA_V8) {
		field = (id >> ARMPMU_ID_AA64DFR0_PMUVER_SHIFT) & ARMPMU_ID_PMU_FIELD_MASK;
		if (field == 0 || field == ARMPMU_ID_PMU_IMPDEF)
			return "no PMUv3 (ID_AA64DFR0_EL1.PMUVer is 0 or IMPLEMENTATION DEFINED)";
		/* PMUVer says 1 for PMUv3; from ARMv8.1 on both scales agree. */
		*version = field == ARMPMU_ID_AA64_PMUVER_V3 ? ARMPMU_PMUV3 : field;
		return NULL;
	}
	if (armpmu_midr_is_pmuv1(midr)) {
		*version = ARMPMU_PMUV1;
		return NULL;
	}
	field = (id >> ARMPMU_ID_DFR0_PERFMON_SHIFT) & ARMPMU_ID_PMU_FIELD_MASK;
	if (field == 0 || field == ARMPMU_ID_PMU_IMPDEF)
		return "no architected PMU (ID_DFR0.PerfMon is 0 or IMPLEMENTATION DEFINED, and the MIDR is no known PMUv1 core)";
	*version = field;
	return NULL;
}

/*
 * Whether the probe should write the filter bits to see if they stick:
 * PMUv1 has none (the bits are reserved there), later PMUs should have them.
 */
static inline bool armpmu_probe_wants_filter_test(u32 version)
{
	return version >= ARMPMU_PMUV2;
}

/* What the probe read on the CPU, for armpmu_probe_caps(). */
struct armpmu_probe_regs {
	u32 midr;
	u32 pmcr;		/* as found */
	/*
	 * An event type register of a counter nobody had enabled, read back
	 * after P and U were written to it (filter_tested false: no such
	 * counter was free, or armpmu_probe_wants_filter_test() said no).
	 */
	bool filter_tested;
	u32 filter_readback;
	/* PMCR read back after writing D = 1 and LC = 0. */
	u32 divider_readback;
	/* PMCEID0 and PMCEID1 (64 bits on AArch64), PMUv3 and later only. */
	u64 ceid0, ceid1;
};

/* The capabilities from @r, for a PMU of @version (armpmu_probe_version()). */
static inline void armpmu_probe_caps(u32 version, const struct armpmu_probe_regs *r,
				     struct armpmu_caps *caps)
{
	const u32 filter = ARMPMU_EVTYPE_P | ARMPMU_EVTYPE_U;
	bool lc_stuck;

	caps->midr = r->midr;
	caps->pmu_version = version;
	caps->num_counters = ARMPMU_PMCR_N(r->pmcr);
	caps->event_bits = armpmu_event_bits(version);
	/* Only bits that stick filter: a core that drops them counts the kernel. */
	caps->can_filter = version >= ARMPMU_PMUV2 && r->filter_tested &&
			   (r->filter_readback & filter) == filter;
	/*
	 * D must stick, and on ARMv8 (PMUv3) LC must read 0 once cleared: with
	 * LC set D is ignored though it reads back 1, and a core without
	 * AArch32 has D RES0 and LC RES1. Before PMUv3, bit 6 is reserved.
	 */
	lc_stuck = version >= ARMPMU_PMUV3 && (r->divider_readback & ARMPMU_PMCR_LC);
	caps->can_divide = (r->divider_readback & ARMPMU_PMCR_D) && !lc_stuck;
	/* PMCEID0/1 exist from PMUv3 on: low halves 0x00-0x3f, high 0x4000-0x403f. */
	caps->events_known = version >= ARMPMU_PMUV3;
	if (caps->events_known) {
		caps->common_events = (r->ceid0 & 0xffffffffULL) | (r->ceid1 & 0xffffffffULL) << 32;
		caps->common_events_hi = r->ceid0 >> 32 | (r->ceid1 >> 32) << 32;
	} else {
		caps->common_events = 0;
		caps->common_events_hi = 0;
	}
}

#endif /* ARMPMU_PMU_PROBE_H */
