// SPDX-License-Identifier: GPL-2.0
/*
 * badinput-test: walks the bad-input matrix of armpmu(4) (section BAD
 * INPUT) row by row, as root and then as `lab` (in the group, without
 * privilege), each row with the errno that user must get. Then the rows
 * about other owners: `guest` cannot open, `lab` cannot touch a CPU root
 * owns. Ends with the kernel log. Prints TAP; runs as root in the guest.
 *
 * The expectations follow CPU 0's INFO: without ARMPMU_INFO_CAN_FILTER
 * (PMUv1: Cortex-A8, A9), a filter is EOPNOTSUPP for everyone, root counts
 * unfiltered and lab cannot START; without ARMPMU_INFO_CAN_DIVIDE,
 * SET_DIVIDER 1 is EOPNOTSUPP.
 *
 *   badinput-test [--compat]
 *
 * --compat: this is the armhf build on an arm64 kernel (checked).
 *
 * Each theme is a file of tests/guest/badinput/ (common.h lists them); this
 * file finds what CPU 0 can do and runs the walks in order, so that a test's
 * number is the same from run to run.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <linux/armpmu.h>

#include "badinput/common.h"

/* The state common.h declares, set here. */
long page_size;
unsigned int num_counters, event_bits;
int last_cpu;
bool native32;
bool can_filter, can_divide;
enum guest_user who;
struct tap_state *shared_tap;

static bool setup(void)
{
	struct armpmu_info info;
	struct utsname u;
	FILE *f;
	int fd = -1, err;

	page_size = sysconf(_SC_PAGESIZE);
	native32 = sizeof(void *) == 4 && !uname(&u) && strcmp(u.machine, "aarch64");
	shared_tap = mmap(NULL, sizeof(*shared_tap), PROT_READ | PROT_WRITE,
			  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	f = fopen("/sys/devices/system/cpu/possible", "re");
	last_cpu = -1;
	if (f) {
		char line[64];
		int lo, hi;

		if (fgets(line, sizeof(line), f)) {
			if (sscanf(line, "%d-%d", &lo, &hi) == 2)
				last_cpu = hi;
			else if (sscanf(line, "%d", &lo) == 1)
				last_cpu = lo;
		}
		fclose(f);
	}
	err = pin(0);
	err = err ? err : open_bound(0, &fd);
	err = err ? err : ioc(fd, ARMPMU_IOC_INFO, &info);
	dev_close(&fd);
	if (!tap_errno(err, 0, "setup: INFO of CPU 0") || shared_tap == MAP_FAILED ||
	    !tap_check(last_cpu >= 0, "setup: the possible CPUs", "cannot read them"))
		return false;
	num_counters = info.num_counters;
	event_bits = info.event_bits;
	can_filter = info.flags & ARMPMU_INFO_CAN_FILTER;
	can_divide = info.flags & ARMPMU_INFO_CAN_DIVIDE;
	tap_note("%u counters, %u-bit events, %s, %s, CPUs 0-%d, %s", num_counters, event_bits,
		 can_filter ? "filters" : "no filtering", can_divide ? "divider" : "no divider",
		 last_cpu, sizeof(void *) == 8 ? "64-bit" : native32 ? "32-bit" : "32-bit on arm64");
	return true;
}

int main(int argc, char **argv)
{
	bool compat = argc == 2 && !strcmp(argv[1], "--compat");

	if (argc > 1 && !compat) {
		bool help = !strcmp(argv[1], "--help");

		fprintf(help ? stdout : stderr, "usage: badinput-test [--compat]\n");
		return help ? 0 : 2;
	}
	tap_init();
	if (setup()) {
		/* The kernel-space rows differ for a 32-bit program on arm64. */
		tap_check(compat == (sizeof(void *) == 4 && !native32),
			  "--compat is given exactly when a 32-bit program runs on arm64",
			  "--compat %d, pointer size %zu", compat, sizeof(void *));
		who = AS_ROOT;
		walk_matrix();
		in_child(AS_LAB, walk_matrix);
		walk_offline();
		walk_owners();
	}
	test_kernel_log();
	return tap_done();
}
