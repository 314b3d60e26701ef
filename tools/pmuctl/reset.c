// SPDX-License-Identifier: GPL-2.0
/*
 * pmuctl reset: an administrator takes the PMU back: from the owner of a
 * CPU, from one file whatever its mode, or from every file.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

#include "pmuctl.h"

static int release_cpu(struct pmudev *pmu, int cpu)
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
		printf("CPU %d: no one owns its PMU\n", cpu);
		return EXIT_SUCCESS;
	case -EPERM:
		return fail("only an administrator (CAP_SYS_ADMIN) may release a CPU's PMU");
	default:
		return fail("CPU %d: %s", cpu, pmudev_strerror(err));
	}
}

static int release_file(struct pmudev *pmu, unsigned int id, bool quiet_if_gone)
{
	struct armpmu_file_status st;
	int err = pmudev_file_status(pmu, id, &st);

	if (err == -ENOENT || (!err && st.id != id))
		err = -ESRCH;
	if (!err)
		err = pmudev_release_file(pmu, id);
	switch (err) {
	case 0:
		printf("file %u: %s released from pid %u (uid %u)\n", id,
		       st.flags & ARMPMU_FILE_CPU ? "its CPU" : "its threads", st.owner_pid,
		       st.owner_uid);
		return EXIT_SUCCESS;
	case -ESRCH:
		/* It may have closed meanwhile, or been released before. */
		if (quiet_if_gone)
			return EXIT_SUCCESS;
		return fail("no open file %u counts anything (see pmuctl status)", id);
	case -EPERM:
		return fail("only an administrator (CAP_SYS_ADMIN) may end another user's file");
	default:
		return fail("file %u: %s", id, pmudev_strerror(err));
	}
}

static int release_every_file(struct pmudev *pmu)
{
	struct armpmu_file_status st;
	unsigned int id = 1, released = 0;
	int ret = EXIT_SUCCESS;

	/*
	 * Asked first, so that "no file counts anything" is never said to
	 * someone who could not have released one: id 0 is no file's, and
	 * the driver checks the privilege (EPERM) before the id (ESRCH).
	 */
	if (pmudev_release_file(pmu, 0) == -EPERM)
		return fail("only an administrator (CAP_SYS_ADMIN) may release files");
	while (ret == EXIT_SUCCESS && !pmudev_file_status(pmu, id, &st)) {
		/* A file's own thread may be this one: pmuctl's own file is spared. */
		if (!(st.flags & ARMPMU_FILE_CALLER)) {
			ret = release_file(pmu, st.id, true);
			released++;
		}
		id = st.id + 1;
	}
	if (ret == EXIT_SUCCESS && !released)
		printf("no file counts anything\n");
	return ret;
}

static const char reset_help[] =
	"Usage: pmuctl reset [-C CPU | -f FILE]\n\n"
	"Stops and zeroes counters and takes them from their owner, whose file\n"
	"then gets ECANCELED: with -C, the file that owns CPU's PMU (whole-CPU\n"
	"mode); with -f, the file FILE whatever its mode (ids from pmuctl\n"
	"status); with neither, every file. Needs CAP_SYS_ADMIN.\n\n"
	"  -C, --cpu CPU    the owner of this CPU's PMU\n"
	"  -f, --file FILE  this file (task or whole-CPU mode)\n"
	"  -h, --help       this text\n";

int cmd_reset(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "cpu", required_argument, NULL, 'C' },
		{ "file", required_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	unsigned long file = 0;
	struct pmudev *pmu;
	int opt, cpu = -1, ret;
	char *end;

	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":C:f:h", opts, NULL)) != -1) {
		switch (opt) {
		case 'C':
			if (!parse_cpu(optarg, &cpu))
				return usage_error("no CPU '%s'", optarg);
			break;
		case 'f':
			errno = 0;
			file = strtoul(optarg, &end, 10);
			if (errno || *end || !*optarg || !file || file > 0xffffffffUL)
				return usage_error("no file '%s': ids are whole numbers from 1",
						   optarg);
			break;
		case 'h':
			fputs(reset_help, stdout);
			return EXIT_SUCCESS;
		default:
			return option_error(opt, argv);
		}
	}
	if (optind != argc)
		return usage_error("unexpected argument '%s'", argv[optind]);
	if (cpu >= 0 && file)
		return usage_error("-C and -f choose differently: give one");
	if (open_pmu(&pmu, PMUDEV_CPU_ANY, PMUDEV_OPEN_UNBOUND))
		return EXIT_FAILURE;
	if (cpu >= 0)
		ret = release_cpu(pmu, cpu);
	else if (file)
		ret = release_file(pmu, (unsigned int)file, false);
	else
		ret = release_every_file(pmu);
	pmudev_close(pmu);
	return ret;
}
