// SPDX-License-Identifier: GPL-2.0
/* pmuctl reset: an administrator takes a CPU's PMU back from its owner. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "pmuctl.h"

static int release(struct pmudev *pmu, int cpu, bool quiet_if_free)
{
	struct armpmu_cpu_status st;
	int err = pmudev_cpu_status(pmu, cpu, &st);

	if (!err)
		err = pmudev_release_cpu(pmu, cpu);
	switch (err) {
	case 0:
		printf("CPU %d: PMU released from pid %u (uid %u)\n", cpu, st.owner_pid,
		       st.owner_uid);
		return EXIT_SUCCESS;
	case -ESRCH:
		if (!quiet_if_free)
			printf("CPU %d: no one owns its PMU\n", cpu);
		return EXIT_SUCCESS;
	case -EPERM:
		return fail("only an administrator (CAP_SYS_ADMIN) may release a CPU's PMU");
	default:
		return fail("CPU %d: %s", cpu, pmudev_strerror(err));
	}
}

static const char reset_help[] =
	"Usage: pmuctl reset [-C CPU]\n\n"
	"Stops and zeroes the counters of CPU (default: every CPU) and takes\n"
	"its PMU from the program that owns it, which then gets ECANCELED.\n"
	"Needs CAP_SYS_ADMIN.\n";

int cmd_reset(int argc, char **argv)
{
	struct pmudev *pmu;
	int cpu = -1, ret;

	ret = parse_cpu_option(argc, argv, &cpu, reset_help);
	if (ret >= 0)
		return ret;
	if (open_pmu(&pmu, PMUDEV_CPU_ANY, PMUDEV_OPEN_UNBOUND))
		return EXIT_FAILURE;
	if (cpu >= 0) {
		ret = release(pmu, cpu, false);
	} else {
		ret = EXIT_SUCCESS;
		for (cpu = 0; cpu < possible_cpus() && ret == EXIT_SUCCESS; cpu++)
			ret = release(pmu, cpu, true);
	}
	pmudev_close(pmu);
	return ret;
}
