// SPDX-License-Identifier: GPL-2.0
/*
 * libpmudev-test: every function of libpmudev, success and failure, against
 * the real driver on an emulated board. Runs as root inside the guest
 * (tools/pmu-vm), drops to the lab's users in forked children for the
 * unprivileged checks, prints TAP and exits 1 if any test failed.
 *
 *   libpmudev-test --cpu cortex-a7|cortex-a15|cortex-a53|cortex-a72|max
 *                  [--icount] [--compat]
 *
 * --cpu names the board, so the test knows what the core must say;
 * --icount says QEMU counts one cycle per instruction on one CPU, so
 * user-mode counts are exact and asserted as such; --compat says this is
 * a 32-bit program on a 64-bit kernel, and checks that it is.
 *
 * Each topic is a file of tests/guest/libpmudev/ (common.h lists them);
 * this file reads the options and runs the topics in order, so that a
 * test's number is the same from run to run.
 */
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/utsname.h>

#include "libpmudev/common.h"

static bool compat;

static void usage(FILE *f)
{
	fputs("usage: libpmudev-test --cpu cortex-a7|cortex-a15|cortex-a53|cortex-a72|max "
	      "[--icount] [--compat]\n", f);
}

/* Sets board, icount and compat; returns -1 to go on, else the exit status. */
static int parse_args(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "cpu", required_argument, NULL, 'c' },
		{ "icount", no_argument, NULL, 'i' },
		{ "compat", no_argument, NULL, 'C' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int opt;

	while ((opt = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		if (opt == 'c') {
			board = find_board(optarg);
		} else if (opt == 'i') {
			icount = true;
		} else if (opt == 'C') {
			compat = true;
		} else {
			usage(opt == 'h' ? stdout : stderr);
			return opt == 'h' ? 0 : 2;
		}
	}
	if (board && optind == argc)
		return -1;
	usage(stderr);
	return 2;
}

int main(int argc, char **argv)
{
	struct utsname u;
	int status = parse_args(argc, argv);

	if (status >= 0)
		return status;
	tap_init();
	ncpus = (unsigned int)sysconf(_SC_NPROCESSORS_ONLN);
	if (!map_child_checks() ||
	    sched_getaffinity(0, sizeof(start_affinity), &start_affinity)) {
		perror("libpmudev-test: setup");
		return 1;
	}
	uname(&u);
	tap_note("libpmudev-test on %s%s, %s %s, built as %s, %u CPUs online", board->name,
		 icount ? " (icount)" : "", u.release, u.machine, TEST_BUILD_ARCH, ncpus);

	if (compat)
		tap_check(sizeof(void *) == 4 && !strcmp(u.machine, "aarch64"),
			  "compat: a 32-bit program on a 64-bit kernel", "%zu-byte pointers on %s",
			  sizeof(void *), u.machine);
	test_device_missing();
	test_open_task();
	test_open_specific();
	test_open_busy();
	test_open_nested();
	test_unbound();
	test_follow();
	test_operations();
	test_strerror();
	test_add_event();
	test_multiplex();
	test_regions();
	test_calibration();
	test_region_incomplete();
	test_unprivileged();
	test_threads();
	test_status_release();
	test_sampling();
	test_kernel_log();
	return tap_done();
}
