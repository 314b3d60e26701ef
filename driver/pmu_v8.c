// SPDX-License-Identifier: GPL-2.0
/*
 * ARMv8 PMUv3 backend: AArch64 system registers, for arm64 kernels. Its
 * registers are pmu_regs_v8.h's.
 */
#include <asm/cputype.h>
#include <asm/sysreg.h>
#include <asm/virt.h>
#include "armpmu.h"

static const char *v8_probe(struct armpmu_caps *caps)
{
	return armpmu_probe_cpu(ARMPMU_ISA_V8, lower_32_bits(read_sysreg(id_aa64dfr0_el1)),
				caps);
}

static u32 v8_encode_evtype(u32 event, u32 flags)
{
	u32 val = event | armpmu_filter_bits(flags);

	/* A VHE kernel runs at EL2: count there too when counting the kernel. */
	if (!(flags & ARMPMU_EXCLUDE_KERNEL) && is_kernel_in_hyp_mode())
		val |= ARMPMU_EVTYPE_NSH;
	return val;
}

const struct armpmu_ops armpmu_backend = {
	.name = "ARMv8 PMUv3",
	.probe = v8_probe,
	.encode_evtype = v8_encode_evtype,
};
