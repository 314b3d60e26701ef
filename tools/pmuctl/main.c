// SPDX-License-Identifier: GPL-2.0
/*
 * pmuctl: load and inspect the armpmu driver, and count events of a
 * command through /dev/armpmu. One file per subcommand.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmuctl.h"

struct subcommand {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *summary;
};

static const struct subcommand subcommands[] = {
	{ "load", cmd_load, "load the armpmu module [PARAM=VALUE...] (root)" },
	{ "unload", cmd_unload, "unload the armpmu module (root)" },
	{ "status", cmd_status, "the module, the device and who owns each CPU's PMU" },
	{ "info", cmd_info, "each CPU's core and PMU" },
	{ "list", cmd_list, "the events a CPU implements" },
	{ "stat", cmd_stat, "count events while a command runs" },
	{ "record", cmd_record, "sample where a command spends its time, into perf.data" },
	{ "report", cmd_report, "perf report's table from a perf.data file" },
	{ "explain", cmd_explain, "what an event counts, where, and its pitfalls" },
	{ "regs", cmd_regs, "a CPU's PMU registers, every field decoded (root)" },
	{ "reset", cmd_reset, "stop and release a CPU's PMU (root)" },
};

#define NSUB (sizeof(subcommands) / sizeof(subcommands[0]))

static void usage(FILE *out)
{
	fprintf(out, "Usage: pmuctl SUBCOMMAND [OPTIONS] [ARGS]\n"
		     "       pmuctl --help | --version\n\n"
		     "Subcommands (each takes --help):\n");
	for (size_t i = 0; i < NSUB; i++)
		fprintf(out, "  %-8s %s\n", subcommands[i].name, subcommands[i].summary);
	fprintf(out, "\nSee pmuctl(1), libpmudev(3) and armpmu(4).\n");
}

int main(int argc, char **argv)
{
	if (argc < 2)
		return usage(stderr), EXIT_USAGE;
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		usage(stdout);
		return EXIT_SUCCESS;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("pmuctl %s (libpmudev ABI %d)\n", PMUCTL_VERSION, PMUDEV_ABI_VERSION);
		return EXIT_SUCCESS;
	}
	for (size_t i = 0; i < NSUB; i++) {
		if (!strcmp(argv[1], subcommands[i].name)) {
			subcommand = subcommands[i].name;
			return subcommands[i].run(argc - 1, argv + 1);
		}
	}
	fprintf(stderr, "pmuctl: unknown subcommand '%s'\nTry 'pmuctl --help'.\n", argv[1]);
	return EXIT_USAGE;
}
