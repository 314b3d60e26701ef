// SPDX-License-Identifier: GPL-2.0
/* pmuctl info: each CPU's core, decoded from MIDR, and its PMU. */
#include <stdio.h>
#include <stdlib.h>

#include <linux/armpmu_arch.h>

#include "pmuctl.h"

/* "PMUv3 (ARMv8.1)": the ARMPMU_PMUV* scale in words. */
static const char *pmu_version_name(unsigned int version)
{
	static const char *const names[] = {
		[ARMPMU_PMUV1] = "PMUv1",
		[ARMPMU_PMUV2] = "PMUv2",
		[ARMPMU_PMUV3] = "PMUv3",
		[4] = "PMUv3 (ARMv8.1)",
		[5] = "PMUv3 (ARMv8.4)",
		[6] = "PMUv3 (ARMv8.5)",
		[7] = "PMUv3 (ARMv8.7)",
		[8] = "PMUv3 (ARMv8.9)",
	};

	if (version < sizeof(names) / sizeof(names[0]) && names[version])
		return names[version];
	return "unknown";
}

static void print_cpu(int cpu, const struct armpmu_cpu_status *st)
{
	const struct armpmu_info *info = &st->info;
	const char *core = pmudev_core_name(info->midr);
	char unknown[40];

	if (!(st->flags & ARMPMU_CPU_USABLE)) {
		printf("%-4d %s\n", cpu, st->flags & ARMPMU_CPU_ONLINE ?
		       "no PMU armpmu can use" : "offline, not seen yet");
		return;
	}
	if (!core) {
		snprintf(unknown, sizeof(unknown), "impl. %#x part %#x",
			 ARMPMU_MIDR_IMPLEMENTER(info->midr), ARMPMU_MIDR_PART(info->midr));
		core = unknown;
	}
	printf("%-4d %-24s %#010x  %-16s %-9u %-7s %u%s\n", cpu, core, info->midr,
	       pmu_version_name(info->pmu_version), info->num_counters,
	       info->flags & ARMPMU_INFO_CAN_FILTER ? "yes" : "no", info->event_bits,
	       st->flags & ARMPMU_CPU_ONLINE ? "" : "  (offline)");
}

int cmd_info(int argc, char **argv)
{
	struct armpmu_cpu_status st;
	struct pmudev *pmu;
	int err;

	if (wants_help(argc, argv)) {
		printf("Usage: pmuctl info\n\n"
		       "Per CPU: the core (from its Main ID Register), the PMU version, the\n"
		       "number of event counters (the cycle counter comes on top), whether\n"
		       "user/kernel filtering exists, and the width of event numbers.\n");
		return EXIT_SUCCESS;
	}
	if (argc > 1)
		return usage_error("info takes no arguments");
	if (open_pmu(&pmu, PMUDEV_CPU_ANY, PMUDEV_OPEN_UNBOUND))
		return EXIT_FAILURE;
	printf("CPU  core                     MIDR        PMU              counters  filter  event bits\n");
	for (int cpu = 0; cpu < possible_cpus(); cpu++) {
		err = pmudev_cpu_status(pmu, cpu, &st);
		if (err)
			printf("%-4d %s\n", cpu, pmudev_strerror(err));
		else
			print_cpu(cpu, &st);
	}
	pmudev_close(pmu);
	return EXIT_SUCCESS;
}
