// SPDX-License-Identifier: GPL-2.0
/* pmuctl reset: an administrator takes a CPU's PMU back from its owner. */
#include <errno.h>
#include <getopt.h>
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

int cmd_reset(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "cpu", required_argument, NULL, 'C' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct pmudev *pmu;
	int opt, cpu = -1, ret = EXIT_SUCCESS;

	while ((opt = getopt_long(argc, argv, "C:h", opts, NULL)) != -1) {
		switch (opt) {
		case 'C':
			if (!parse_cpu(optarg, &cpu))
				return usage_error("no CPU '%s'", optarg);
			break;
		case 'h':
			printf("Usage: pmuctl reset [-C CPU]\n\n"
			       "Stops and zeroes the counters of CPU (default: every CPU) and takes\n"
			       "its PMU from the program that owns it, which then gets ECANCELED.\n"
			       "Needs CAP_SYS_ADMIN.\n");
			return EXIT_SUCCESS;
		default:
			return usage_error("unknown option");
		}
	}
	if (optind != argc)
		return usage_error("unexpected argument '%s'", argv[optind]);
	if (open_pmu(&pmu, PMUDEV_CPU_ANY, PMUDEV_OPEN_UNBOUND))
		return EXIT_FAILURE;
	if (cpu >= 0) {
		ret = release(pmu, cpu, false);
	} else {
		for (cpu = 0; cpu < possible_cpus() && ret == EXIT_SUCCESS; cpu++)
			ret = release(pmu, cpu, true);
	}
	pmudev_close(pmu);
	return ret;
}
