// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Core names from the Main ID Register: implementer Arm (0x41) only; and
 * which cores have an event table (event-tables.c).
 */
#include <string.h>

#include "internal.h"

struct core_name {
	uint16_t part;
	const char *name;
};

static const struct core_name arm_cores[] = {
	{ 0xb76, "ARM1176" },
	{ 0xc05, "Cortex-A5" },
	{ 0xc07, "Cortex-A7" },
	{ 0xc08, "Cortex-A8" },
	{ 0xc09, "Cortex-A9" },
	{ 0xc0d, "Cortex-A12" },
	{ 0xc0e, "Cortex-A17" },
	{ 0xc0f, "Cortex-A15" },
	{ 0xd01, "Cortex-A32" },
	{ 0xd03, "Cortex-A53" },
	{ 0xd04, "Cortex-A35" },
	{ 0xd05, "Cortex-A55" },
	{ 0xd07, "Cortex-A57" },
	{ 0xd08, "Cortex-A72" },
	{ 0xd09, "Cortex-A73" },
	{ 0xd0a, "Cortex-A75" },
	{ 0xd0b, "Cortex-A76" },
	{ 0xd0c, "Neoverse-N1" },
	{ 0xd0d, "Cortex-A77" },
	{ 0xd0e, "Cortex-A76AE" },
	{ 0xd41, "Cortex-A78" },
	{ 0xd44, "Cortex-X1" },
	{ 0xd46, "Cortex-A510" },
	{ 0xd47, "Cortex-A710" },
	{ 0xd48, "Cortex-X2" },
	{ 0xd4b, "Cortex-A78C" },
};

const char *pmudev_core_name(uint32_t midr)
{
	if (ARMPMU_MIDR_IMPLEMENTER(midr) != ARMPMU_IMPLEMENTER_ARM)
		return NULL;
	for (size_t i = 0; i < sizeof(arm_cores) / sizeof(arm_cores[0]); i++)
		if (arm_cores[i].part == ARMPMU_MIDR_PART(midr))
			return arm_cores[i].name;
	return NULL;
}

const struct core_events *pmudev_core_events(uint32_t midr)
{
	if (ARMPMU_MIDR_IMPLEMENTER(midr) != ARMPMU_IMPLEMENTER_ARM)
		return NULL;
	for (size_t i = 0; i < pmudev_nr_core_tables; i++)
		if (pmudev_core_tables[i].part == ARMPMU_MIDR_PART(midr))
			return &pmudev_core_tables[i];
	return NULL;
}

const char *pmudev_known_core(unsigned int index, struct armpmu_info *info)
{
	const struct core_events *core;
	uint32_t midr;

	if (index >= pmudev_nr_core_tables)
		return NULL;
	core = &pmudev_core_tables[index];
	/* Architecture field 0xf (CPUID scheme), variant and revision 0. */
	midr = ARMPMU_IMPLEMENTER_ARM << ARMPMU_MIDR_IMPLEMENTER_SHIFT |
	       ARMPMU_MIDR_ARCH_CPUID << ARMPMU_MIDR_ARCH_SHIFT |
	       (uint32_t)core->part << ARMPMU_MIDR_PART_SHIFT;
	if (info) {
		memset(info, 0, sizeof(*info));
		info->midr = midr;
		info->event_bits = core->event_bits;
		/* PMUv2 on ARMv7 (PMUv1 on the A8 and A9: the same to names), 3, 3.1. */
		info->pmu_version = core->event_bits == 8 ? ARMPMU_PMUV2 :
				    core->event_bits == 10 ? ARMPMU_PMUV3 : ARMPMU_PMUV3 + 1;
	}
	return pmudev_core_name(midr);
}
