/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * Facts of the ARM architecture's PMU that armpmu's driver, libpmudev,
 * pmuctl and the tests all rely on: register fields, ID register fields,
 * the event numbers armpmu names, and how wide an event number is. Each is
 * defined here and nowhere else (tests/host/facts-check fails otherwise).
 *
 * Values a program sees in ARMPMU_IOC_REGS and ARMPMU_IOC_INFO decode with
 * these. Plain C, no kernel or C library header: it compiles in the kernel,
 * on the host and in the guests alike.
 */
#ifndef _UAPI_LINUX_ARMPMU_ARCH_H
#define _UAPI_LINUX_ARMPMU_ARCH_H

#include <linux/armpmu.h>

/*
 * MIDR (MIDR_EL1): who made the core (8 bits), its variant (4), the
 * architecture (4; 0xf: see the ID registers), which core (12), its
 * revision (4).
 */
#define ARMPMU_MIDR_IMPLEMENTER_SHIFT	24
#define ARMPMU_MIDR_ARCH_SHIFT		16
#define ARMPMU_MIDR_ARCH_CPUID		0xf
#define ARMPMU_MIDR_PART_SHIFT		4
#define ARMPMU_MIDR_IMPLEMENTER(midr)	(((midr) >> ARMPMU_MIDR_IMPLEMENTER_SHIFT) & 0xff)
#define ARMPMU_MIDR_PART(midr)		(((midr) >> ARMPMU_MIDR_PART_SHIFT) & 0xfff)
#define ARMPMU_IMPLEMENTER_ARM		0x41

/*
 * The PMU version fields: ID_DFR0.PerfMon (AArch32) and
 * ID_AA64DFR0_EL1.PMUVer (AArch64), 4 bits each; 0xf is an IMPLEMENTATION
 * DEFINED PMU, and PMUVer says 1 for PMUv3 where PerfMon says 3.
 */
#define ARMPMU_ID_DFR0_PERFMON_SHIFT	24
#define ARMPMU_ID_AA64DFR0_PMUVER_SHIFT	8
#define ARMPMU_ID_PMU_FIELD_MASK	0xf
#define ARMPMU_ID_PMU_IMPDEF		0xf
#define ARMPMU_ID_AA64_PMUVER_V3	0x1

/* PMCR (PMCR_EL0): the same fields on ARMv7 and ARMv8. */
#define ARMPMU_PMCR_E			(1U << 0)	/* enable the counters */
#define ARMPMU_PMCR_P			(1U << 1)	/* write 1: zero event counters */
#define ARMPMU_PMCR_C			(1U << 2)	/* write 1: zero the cycle counter */
#define ARMPMU_PMCR_D			(1U << 3)	/* cycle counter counts every 64 */
#define ARMPMU_PMCR_X			(1U << 4)	/* export events */
#define ARMPMU_PMCR_DP			(1U << 5)	/* no cycle count where prohibited */
#define ARMPMU_PMCR_LC			(1U << 6)	/* ARMv8: 64-bit cycle overflow */
#define ARMPMU_PMCR_N_SHIFT		11		/* how many event counters */
#define ARMPMU_PMCR_N_MASK		0x1f
#define ARMPMU_PMCR_IDCODE_SHIFT	16
#define ARMPMU_PMCR_IDCODE_MASK		0xff
#define ARMPMU_PMCR_IMP_SHIFT		24		/* implementer, as in MIDR */
#define ARMPMU_PMCR_IMP_MASK		0xff
#define ARMPMU_PMCR_N(pmcr)		(((pmcr) >> ARMPMU_PMCR_N_SHIFT) & ARMPMU_PMCR_N_MASK)

/*
 * PMXEVTYPER / PMEVTYPER<n> / PMCCFILTR: filter bits from bit 31 down
 * (PMUv2 has P to NSH, PMUv3 adds M; PMUv1 has none), the event number in
 * the low bits (armpmu_event_bits() of them).
 */
#define ARMPMU_EVTYPE_P			(1U << 31)	/* do not count at PL1 / EL1 */
#define ARMPMU_EVTYPE_U			(1U << 30)	/* do not count at PL0 / EL0 */
#define ARMPMU_EVTYPE_NSK		(1U << 29)
#define ARMPMU_EVTYPE_NSU		(1U << 28)
#define ARMPMU_EVTYPE_NSH		(1U << 27)	/* ARMv8: count at EL2 */
#define ARMPMU_EVTYPE_M			(1U << 26)

/* Architectural event numbers armpmu names in code (the rest: libpmudev's tables). */
#define ARMPMU_EV_SW_INCR		0x00
#define ARMPMU_EV_L1D_CACHE_REFILL	0x03
#define ARMPMU_EV_L1D_CACHE		0x04
#define ARMPMU_EV_INST_RETIRED		0x08
#define ARMPMU_EV_PC_WRITE_RETIRED	0x0c
#define ARMPMU_EV_BR_MIS_PRED		0x10
#define ARMPMU_EV_CPU_CYCLES		0x11
#define ARMPMU_EV_BR_PRED		0x12
#define ARMPMU_EV_L2D_CACHE		0x16
#define ARMPMU_EV_L2D_CACHE_REFILL	0x17
#define ARMPMU_EV_INST_SPEC		0x1b
#define ARMPMU_EV_BR_RETIRED		0x21
#define ARMPMU_EV_BR_MIS_PRED_RETIRED	0x22
#define ARMPMU_EV_STALL_FRONTEND	0x23
#define ARMPMU_EV_STALL_BACKEND		0x24

/*
 * The common events PMCEID0/1 describe: 0x00-0x3f in their low halves and,
 * from PMUv3 for ARMv8.1 on, 0x4000-0x403f in their high halves.
 */
#define ARMPMU_EV_COMMON_LAST		0x3f
#define ARMPMU_EV_COMMON_HI_BASE	0x4000

/*
 * How many low bits of an event type are the event number, by PMU version
 * (ARMPMU_PMUV* scale): 8 on PMUv1 and PMUv2, 10 on PMUv3 for ARMv8.0
 * (evtCount[15:10] is RES0 there), 16 from PMUv3 for ARMv8.1 on.
 */
static inline unsigned int armpmu_event_bits(unsigned int pmu_version)
{
	if (pmu_version > ARMPMU_PMUV3)
		return 16;
	return pmu_version == ARMPMU_PMUV3 ? 10 : 8;
}

#endif /* _UAPI_LINUX_ARMPMU_ARCH_H */
