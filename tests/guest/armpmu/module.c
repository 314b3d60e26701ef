// SPDX-License-Identifier: GPL-2.0
/*
 * armpmu-test: the module itself: its parameter, and with --unload, rmmod
 * and what it leaves behind, then the kernel log.
 */
#include <errno.h>
#include <stdio.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "common.h"

/* The module's one parameter, read-only at run time. */
void test_poll_param(void)
{
	FILE *f = fopen("/sys/module/armpmu/parameters/poll_ms", "re");
	unsigned int ms = 0;
	int n = f ? fscanf(f, "%u", &ms) : -1;

	if (f)
		fclose(f);
	tap_check(n == 1 && ms == 50, "module parameter poll_ms is 50 by default",
		  "read %d values, %u", n, ms);
}

void test_unload(void)
{
	struct stat st;
	int status, tries;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		execlp("rmmod", "rmmod", "armpmu", (char *)NULL);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		status = -1;
	tap_check(status == 0, "rmmod armpmu succeeds", "status %#x", status);
	/* devtmpfs removes the node from its own thread. */
	for (tries = 0; tries < 50 && stat(DEV, &st) == 0; tries++)
		usleep(20000);
	tap_check(stat(DEV, &st) && errno == ENOENT, DEV " is gone after rmmod",
		  "it is still there");
	tap_check(stat("/sys/module/armpmu", &st) && errno == ENOENT,
		  "/sys/module/armpmu is gone after rmmod", "it is still there");
	test_kernel_log();
}
