// SPDX-License-Identifier: GPL-2.0
/*
 * armpmu-test: checks /dev/armpmu against uapi/linux/armpmu.h on an emulated
 * board. Runs as root inside the guest (tools/pmu-vm), drops to the lab's
 * users in forked children for the unprivileged checks, prints TAP and exits
 * non-zero if any test failed.
 *
 *   armpmu-test --cpu cortex-a7|cortex-a8|cortex-a9|cortex-a15|cortex-a53|
 *                     cortex-a72|cortex-a76|max [--icount] [--compat] [--unload]
 *
 * --cpu names the board, so the test knows what INFO must say, and whether
 * QEMU's model of its PMU counts at all: on cortex-a8 and cortex-a9 (PMUv1)
 * it never advances a counter, so there the tests check what holds without
 * counting (INFO, errnos, the PMUv1 rules, values set and read back
 * through every counter register) and skip the ones about counts; --icount says
 * QEMU counts one cycle per instruction on one CPU (exact counts); --compat
 * says this is a 32-bit program on a 64-bit kernel; --unload ends with
 * `rmmod armpmu` and a look at the kernel log.
 *
 * Each topic is a file of tests/guest/armpmu/ (common.h lists them); this
 * file reads the options and runs the topics in order, so that a test's
 * number is the same from run to run.
 */
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/utsname.h>

#include "armpmu/common.h"
#include "checks.h"

static bool compat, unload;

static void usage(FILE *f)
{
	fprintf(f, "usage: armpmu-test --cpu cortex-a7|cortex-a8|cortex-a9|cortex-a15|"
		   "cortex-a53|cortex-a72|cortex-a76|max "
		   "[--icount] [--compat] [--unload]\n");
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "cpu", required_argument, NULL, 'c' },
		{ "icount", no_argument, NULL, 'i' },
		{ "compat", no_argument, NULL, 'C' },
		{ "unload", no_argument, NULL, 'u' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct utsname u;
	int opt;

	while ((opt = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (opt) {
		case 'c':
			board = find_board(optarg);
			if (!board) {
				fprintf(stderr, "armpmu-test: unknown CPU %s\n", optarg);
				return 2;
			}
			break;
		case 'i':
			icount = true;
			break;
		case 'C':
			compat = true;
			break;
		case 'u':
			unload = true;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (!board || optind != argc) {
		usage(stderr);
		return 2;
	}
	tap_init();
	page_size = sysconf(_SC_PAGESIZE);
	ncpus = (unsigned int)sysconf(_SC_NPROCESSORS_ONLN);
	num_counters = board->num_counters;
	root_excl_k = board->filters ? EXCL_K : 0;
	report = mmap(NULL, sizeof(*report), PROT_READ | PROT_WRITE,
		      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (report == MAP_FAILED) {
		perror("armpmu-test: mmap");
		return 1;
	}
	uname(&u);
	tap_note("armpmu-test on %s%s, %s %s, built as %s, %u CPUs online", board->name,
		 icount ? " (icount)" : "", u.release, u.machine, TEST_BUILD_ARCH, ncpus);

	if (compat)
		test_compat();
	/* Under icount one CPU is up (a Raspberry Pi's others never come up). */
	if (icount)
		tap_check(ncpus == 1, "the icount board has one CPU online", "%u CPUs online", ncpus);
	else
		tap_check(ncpus == board_cpus() && ncpus >= board->cpus,
			  "every CPU of the board is online, as many as the lab gives it or more",
			  "%u CPUs online, %u in the board's device tree, %u or more expected",
			  ncpus, board_cpus(), board->cpus);
	test_device();
	test_info();
	if (board->counts) {
		test_counting();
		test_cycles_event();
		test_divider();
		test_filters();
		test_exact();
		test_multiplex();
	} else {
		tap_skip("counting, the divider's effect, filters and exact counts",
			 "QEMU's %s PMU never counts", board->name);
		test_static_counters();
	}
	test_read_syscall();
	test_errors();
	test_unprivileged();
	test_cpu_mode_opt_in();
	test_close_releases();
	test_killed_owner();
	test_other_cpu();
	test_hotplug();
	test_status_release();
	test_poll_param();
	/* A direct user-mode read of the cycle counter traps, while a file counts. */
	check_user_read_sigill();
	if (unload)
		test_unload();
	return tap_done();
}
