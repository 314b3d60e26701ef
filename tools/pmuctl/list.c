// SPDX-License-Identifier: GPL-2.0
/* pmuctl list: the common events a CPU implements, by name. */
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>

#include "pmuctl.h"

/* The common events have numbers 0x00-0x3f and, from ARMv8.1, 0x4000 up. */
#define COMMON_LAST	0x3f
#define COMMON_HI_BASE	0x4000

static bool implemented(const struct armpmu_info *info, unsigned int ev)
{
	if (ev >= COMMON_HI_BASE)
		return info->common_events_hi >> (ev - COMMON_HI_BASE) & 1;
	return info->common_events >> ev & 1;
}

static void list_range(const struct armpmu_info *info, bool known, unsigned int first,
		       unsigned int last)
{
	for (unsigned int ev = first; ev <= last; ev++) {
		const char *name = pmudev_event_name(ev);

		if (!name || (known && !implemented(info, ev)))
			continue;
		/* An ARMv7 core has the first 30 only. */
		if (!known && info->pmu_version < ARMPMU_PMUV3 && ev > 0x1d)
			continue;
		printf("  %-26s 0x%04x  %s\n", name, ev, pmudev_event_description(ev));
	}
}

static const char list_help[] =
	"Usage: pmuctl list [-C CPU]\n\n"
	"The common events CPU (default: this one) implements, with their\n"
	"number and meaning. Cores that do not say which they implement\n"
	"(ARMv7) get the architecture's list, marked as such. perf's\n"
	"aliases (cycles, instructions, cache-references, cache-misses,\n"
	"branches, branch-misses) and raw numbers (0x11, r11) work too.\n";

int cmd_list(int argc, char **argv)
{
	struct armpmu_cpu_status st;
	struct pmudev *pmu;
	int cpu = -1, ret, err;
	const char *core;
	bool known;

	ret = parse_cpu_option(argc, argv, &cpu, list_help);
	if (ret >= 0)
		return ret;
	if (cpu < 0)
		cpu = sched_getcpu();
	if (open_pmu(&pmu, PMUDEV_CPU_ANY, PMUDEV_OPEN_UNBOUND))
		return EXIT_FAILURE;
	err = pmudev_cpu_status(pmu, cpu, &st);
	pmudev_close(pmu);
	if (err)
		return fail("CPU %d: %s", cpu, pmudev_strerror(err));
	if (!(st.flags & ARMPMU_CPU_USABLE))
		return fail("CPU %d has no PMU armpmu can use", cpu);
	known = st.info.flags & ARMPMU_INFO_EVENTS_KNOWN;
	core = pmudev_core_name(st.info.midr);
	printf("CPU %d (%s): %s\n", cpu, core ? core : "unknown core",
	       known ? "the common events it implements" :
		       "the architecture's common events (this core does not say which it implements)");
	list_range(&st.info, known, 0, COMMON_LAST);
	if (st.info.event_bits >= 16)
		list_range(&st.info, known, COMMON_HI_BASE, COMMON_HI_BASE + 63);
	printf("  aliases: cycles, instructions, cache-references, cache-misses, branches, branch-misses\n");
	return EXIT_SUCCESS;
}
