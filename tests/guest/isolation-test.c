// SPDX-License-Identifier: GPL-2.0
/*
 * isolation-test: a file counts only threads its opener could count with
 * perf, and leaves nothing of them behind. Runs as root in the guest,
 * dropping to lab for each attack, prints TAP.
 *
 *   isolation-test [--icount] [--no-counting] [--wrap] [--soak SECS]
 *
 * The attacks of issue 18, each a test that the old driver fails:
 * - an exec into another security domain (set-user-ID, set-group-ID, file
 *   capabilities, a binary lab may execute but not read) of a thread lab
 *   counts, by ATTACH to a child and by FOLLOW of itself: the thread is let
 *   go at the exec (ARMPMU_COUNTS_EXEC_LEFT) and none of the program's
 *   user-mode work is counted;
 * - lab's descriptor handed to a set-user-ID program: its first read, and
 *   its ATTACH, are refused (the opener's credentials decide);
 * - ATTACH's verdict against kcmp(2)'s, the kernel's own ptrace read check
 *   with real credentials (perf_event_open's), in the cases that differed;
 * - the registers after a task-mode file stopped and closed: zero;
 * - ATTACH racing the target's exit: never a dead thread linked.
 * --wrap: a counted thread's 32-bit counter over 4.3 s on a CPU that went
 * offline and came back within a poll period: no wrap lost (the poll timer
 * followed the CPU; the driver before the fix lost 2^32 here).
 * --soak SECS: lab programs counting themselves and their children while
 * CPU 1 goes off and on: every count complete or flagged.
 * --no-counting: the board's PMU never counts (Cortex-A8, A9): the checks
 * of counts are skipped, the verdicts on who may count are not. *
 * Each attack is a file of tests/guest/isolation/ (common.h lists them);
 * this file reads the options and runs them in order.
 */
#include <fcntl.h>
#include <getopt.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <time.h>
#include <linux/capability.h>
#include <linux/kcmp.h>

#include "isolation/common.h"

/* The state common.h declares, set here. */
bool icount, counting = true;
int fcaps_err;
unsigned int soak_secs;

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "icount", no_argument, NULL, 'i' },
		{ "no-counting", no_argument, NULL, 'n' },
		{ "wrap", no_argument, NULL, 'w' },
		{ "soak", required_argument, NULL, 's' },
		{ "handed", no_argument, NULL, 'h' },
		{ 0 }
	};
	bool wrap = false;
	int opt, err;

	while ((opt = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (opt) {
		case 'i': icount = true; break;
		case 'n': counting = false; break;
		case 'w': wrap = true; break;
		case 's': soak_secs = (unsigned int)atoi(optarg); break;
		case 'h': return handed_main();
		default:
			fprintf(stderr, "usage: isolation-test [--icount] [--no-counting] "
				"[--wrap] [--soak SECS]\n");
			return 2;
		}
	}
	tap_init();
	err = make_programs();
	if (!tap_check(!err, "the programs lab executes are in place", "%s", tap_errname(err))) {
		remove_programs();
		return tap_done();
	}
	test_exec("ATTACH to a child", exec_by_attach);
	test_exec("FOLLOW of itself", exec_by_follow);
	test_exec_as_root();
	test_handed();
	test_ptrace_rule();
	test_registers_after_close();
	test_exit_race(wrap ? 8 : 0);
	if (wrap)
		test_wrap_across_hotplug();
	if (soak_secs)
		test_soak();
	remove_programs();
	test_kernel_log();
	return tap_done();
}
