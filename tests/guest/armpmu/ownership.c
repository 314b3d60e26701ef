// SPDX-License-Identifier: GPL-2.0
/*
 * armpmu-test: a CPU's PMU belongs to one file at a time: close and an
 * owner's death give it back clean, and a file bound to another CPU counts
 * that CPU only.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <unistd.h>
#include <sys/wait.h>

#include "common.h"

void test_close_releases(void)
{
	struct armpmu_counts c;
	int fd, fd2, err;

	if (!setup_bound(0, "close releases: setup", &fd))
		return;
	err = program(fd, 0, ARMPMU_EV_CPU_CYCLES, 0);
	err |= ioc_u32(fd, ARMPMU_IOC_SET_DIVIDER, 1);
	err |= ioc0(fd, ARMPMU_IOC_START);
	loop_n(SPIN);
	tap_errno(err, 0, "owner programs, sets the divider and starts");
	dev_close(&fd);	/* still counting */
	if (rebind_cpu0("after close, a new file binds the same CPU",
			"after close, the new file reads all zeros, not running", &fd2)) {
		/* Nothing of the old configuration: no divider, no events. */
		if (!board->counts) {
			tap_skip("after close, the new file's counter 0 is unprogrammed",
				 "QEMU's %s PMU never counts", board->name);
			tap_skip("after close, no divider", "QEMU's %s PMU never counts",
				 board->name);
			dev_close(&fd2);
			return;
		}
		err = program(fd2, 1, ARMPMU_EV_CPU_CYCLES, 0);
		err |= measure_loop(fd2, SPIN, &c);
		tap_check(!err && c.cycles > 0 && c.events[0] == 0,
			  "after close, the new file's counter 0 is unprogrammed",
			  "%s: cycles %llu, events[0] %llu", tap_errname(err),
			  (ull)c.cycles, (ull)c.events[0]);
		tap_check(!err && (icount ? c.cycles == c.events[1] :
				   within_pct(c.cycles, c.events[1], 1)),
			  icount ? "after close, no divider: cycle counter == CPU_CYCLES" :
				   "after close, no divider: cycle counter within 1% of CPU_CYCLES",
			  "%s: cycles %llu, CPU_CYCLES %llu", tap_errname(err),
			  (ull)c.cycles, (ull)c.events[1]);
		dev_close(&fd2);
	}
}

void test_killed_owner(void)
{
	int ready[2], status, fd, err, child_err = -1;
	pid_t pid;

	pin(0);
	if (pipe(ready)) {
		tap_check(false, "SIGKILL: setup", "pipe: %s", tap_errname(errno));
		return;
	}
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		close(ready[0]);
		err = open_bound(ARMPMU_CPU_CURRENT, &fd);
		if (!err)
			err = program(fd, 0, ARMPMU_EV_CPU_CYCLES, 0);
		if (!err)
			err = ioc0(fd, ARMPMU_IOC_START);
		if (write(ready[1], &err, sizeof(err)) != sizeof(err))
			_exit(1);
		for (;;)
			loop_n(SPIN);
	}
	close(ready[1]);
	if (pid < 0 || read(ready[0], &child_err, sizeof(child_err)) != sizeof(child_err)) {
		close(ready[0]);
		if (pid > 0) {
			kill(pid, SIGKILL);
			waitpid(pid, NULL, 0);
		}
		tap_check(false, "SIGKILL: the owner child started", "no report");
		return;
	}
	close(ready[0]);
	tap_errno(child_err, 0, "SIGKILL: the owner child binds CPU 0 and starts counting");
	err = open_bound(0, &fd);
	tap_errno(err, EBUSY, "EBUSY: the live child owns CPU 0");
	dev_close(&fd);
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
	tap_check(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL,
		  "SIGKILL: the owner died mid-measurement", "status %#x", status);
	if (rebind_cpu0("after the owner's death, the parent binds CPU 0",
			"after the owner's death: all zeros, not running", &fd))
		dev_close(&fd);
}

/* A file bound to CPU 1 counts CPU 1, never the caller on CPU 0. */
void test_other_cpu(void)
{
	struct armpmu_counts own, other;
	int fo, fd, err;

	if (ncpus < 2) {
		tap_skip("a file bound to CPU 1 counts CPU 1, not the caller", "one CPU");
		return;
	}
	if (!board->counts) {
		tap_skip("a file bound to CPU 1 counts CPU 1, not the caller",
			 "QEMU's %s PMU never counts", board->name);
		return;
	}
	if (!setup_bound(1, "other CPU: setup", &fo))
		return;
	err = open_bound(0, &fd);
	if (err) {
		dev_close(&fo);
		tap_check(false, "other CPU: setup", "BIND 0: %s", tap_errname(err));
		return;
	}
	err = program(fo, 0, ARMPMU_EV_CPU_CYCLES, EXCL_K);
	err |= program(fd, 0, ARMPMU_EV_CPU_CYCLES, EXCL_K);
	/*
	 * CPU 1's file counts whatever user code runs there (udev, say), so a
	 * run where something did is tried again, three times at most.
	 */
	for (int i = 0; i < 3 && !err; i++) {
		err |= ioc0(fo, ARMPMU_IOC_RESET) | ioc0(fd, ARMPMU_IOC_RESET);
		err |= ioc0(fo, ARMPMU_IOC_START);
		err |= ioc0(fd, ARMPMU_IOC_START);
		loop_n(SPIN_BIG);
		err |= ioc0(fd, ARMPMU_IOC_STOP);
		err |= ioc0(fo, ARMPMU_IOC_STOP);
		err |= read_counts(fo, &other) | read_counts(fd, &own);
		if (other.events[0] * 100 < own.events[0])
			break;
	}
	tap_note("a loop on CPU 0: CPU_CYCLES:u on CPU 0 %llu, on CPU 1 %llu",
		 (ull)own.events[0], (ull)other.events[0]);
	tap_check(!err && own.events[0] > 0,
		  "the file bound to CPU 0 counts the loop on CPU 0",
		  "%s: %llu", tap_errname(err), (ull)own.events[0]);
	tap_check(!err && other.events[0] * 100 < own.events[0],
		  "the file bound to CPU 1 does not count the loop on CPU 0 (< 1%)",
		  "%s: CPU 1 %llu, CPU 0 %llu", tap_errname(err), (ull)other.events[0],
		  (ull)own.events[0]);
	dev_close(&fd);
	dev_close(&fo);
}
