// SPDX-License-Identifier: GPL-2.0
/*
 * ARMv7 PMU backend: CP15 c9 registers, for 32-bit kernels (Cortex-A5 to
 * A17, and ARMv8 cores running AArch32 kernels).
 * Its registers are pmu_regs_v7.h's.
 */
#include <asm/cputype.h>
#include "armpmu.h"

static const char *v7_probe(struct armpmu_caps *caps)
{
	return armpmu_probe_cpu(ARMPMU_ISA_V7, read_cpuid_ext(CPUID_EXT_DFR0), caps);
}

static u32 v7_encode_evtype(u32 event, u32 flags)
{
	return event | armpmu_filter_bits(flags);
}

const struct armpmu_ops armpmu_backend = {
	.name = "ARMv7 CP15",
	.probe = v7_probe,
	.encode_evtype = v7_encode_evtype,
};
