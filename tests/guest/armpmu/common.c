// SPDX-License-Identifier: GPL-2.0
/*
 * What the topics of armpmu-test share (common.h): the boards, the state
 * the options and INFO set, and the helpers more than one topic uses.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/wait.h>

#include "common.h"

static const struct board boards[] = {
	{ "cortex-a7", 4, 0xc07, ARMPMU_PMUV2, ARMPMU_PMUV2, false, true, true, 2 },
	{ "cortex-a15", 6, 0xc0f, ARMPMU_PMUV2, ARMPMU_PMUV2, false, true, true, 2 },
	/* PMUv1, by MIDR: ID_DFR0.PerfMon says 0 on both. */
	{ "cortex-a8", 4, 0xc08, ARMPMU_PMUV1, ARMPMU_PMUV1, false, false, false, 1 },
	{ "cortex-a9", 6, 0xc09, ARMPMU_PMUV1, ARMPMU_PMUV1, false, false, false, 2 },
	{ "cortex-a53", 6, 0xd03, ARMPMU_PMUV3, ARMPMU_PMUV3, true, true, true, 2 },
	{ "cortex-a72", 6, 0xd08, ARMPMU_PMUV3, ARMPMU_PMUV3, true, true, true, 2 },
	/* The Raspberry Pi 5's core: PMUv3 for ARMv8.1 (16-bit events). */
	{ "cortex-a76", 6, 0xd0b, 4, 4, true, true, true, 2 },
	/* QEMU's "max" is no real part: its MIDR is not checked. */
	{ "max", 6, 0, ARMPMU_PMUV3, 15, true, true, true, 2 },
};

const struct board *board;
bool icount;
unsigned int ncpus;
unsigned int num_counters;
unsigned int event_bits = 8;
unsigned int root_excl_k;
long page_size;
struct child_report *report;
int inherited_fd = -1;

const struct board *find_board(const char *name)
{
	unsigned int i;

	for (i = 0; i < sizeof(boards) / sizeof(boards[0]); i++)
		if (!strcmp(name, boards[i].name))
			return &boards[i];
	return NULL;
}

/* RESET, START, sleep @ms, STOP, READ. */
int measure_sleep(int fd, unsigned int ms, struct armpmu_counts *c)
{
	struct timespec ts = { .tv_sec = 0, .tv_nsec = ms * 1000000L };
	int err = ioc0(fd, ARMPMU_IOC_RESET);

	if (!err)
		err = ioc0(fd, ARMPMU_IOC_START);
	if (err)
		return err;
	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
	err = ioc0(fd, ARMPMU_IOC_STOP);
	return err ? err : read_counts(fd, c);
}

/* True if counts are all zero and not running; else says what is not. */
bool counts_clear(const struct armpmu_counts *c, char *why, size_t len)
{
	unsigned int i;

	if (c->nr != num_counters) {
		snprintf(why, len, "nr %u, expected %u", c->nr, num_counters);
		return false;
	}
	if (c->flags) {
		snprintf(why, len, "flags %#x, expected 0", c->flags);
		return false;
	}
	if (c->cycles) {
		snprintf(why, len, "cycles %llu, expected 0", (ull)c->cycles);
		return false;
	}
	for (i = 0; i < num_counters; i++) {
		if (c->events[i]) {
			snprintf(why, len, "events[%u] %llu, expected 0", i,
				 (ull)c->events[i]);
			return false;
		}
	}
	snprintf(why, len, "all zero");
	return true;
}

/* An address with nothing mapped at it, right now. */
void *unmapped_address(void)
{
	void *p = mmap(NULL, (size_t)page_size, PROT_NONE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return (void *)16;	/* the zero page is never mapped */
	munmap(p, (size_t)page_size);
	return p;
}

/*
 * Runs @fn in a child as @who. Returns NULL when it exited normally, else
 * what went wrong.
 */
const char *run_as(enum guest_user who, child_fn fn)
{
	static char why[96];
	int status;
	pid_t pid;

	memset(report, 0, sizeof(*report));
	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		snprintf(why, sizeof(why), "fork: %s", tap_errname(errno));
		return why;
	}
	if (pid == 0) {
		if (!become_user(who))
			_exit(100);
		fn(report);
		_exit(0);
	}
	if (waitpid(pid, &status, 0) != pid) {
		snprintf(why, sizeof(why), "waitpid: %s", tap_errname(errno));
		return why;
	}
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return NULL;
	if (WIFEXITED(status))
		snprintf(why, sizeof(why), "child exited with %d%s",
			 WEXITSTATUS(status),
			 WEXITSTATUS(status) >= 100 ? " (could not change identity)" : "");
	else
		snprintf(why, sizeof(why), "child killed by signal %d (%s)",
			 WTERMSIG(status), strsignal(WTERMSIG(status)));
	return why;
}

const char *run_as_lab(child_fn fn)
{
	return run_as(AS_LAB, fn);
}

/*
 * After CPU 0's owner let go (closed, died, was released): a new file binds
 * it (test @bound) and reads all zeros, not running (test @clean). Returns
 * whether it bound, with the file in @fd.
 */
bool rebind_cpu0(const char *bound, const char *clean, int *fd)
{
	struct armpmu_counts c;
	char why[96];
	int err = open_bound(0, fd);

	if (!tap_errno(err, 0, bound))
		return false;
	err = read_counts(*fd, &c);
	tap_check(!err && counts_clear(&c, why, sizeof(why)), clean, "%s: %s",
		  tap_errname(err), why);
	return true;
}

/* Fresh root file bound to @cpu, the caller pinned to CPU 0. */
bool setup_bound(__u32 cpu, const char *what, int *fd)
{
	int err;

	pin(0);
	err = open_bound(cpu, fd);
	if (err)
		return tap_check(false, what, "setup: open and BIND CPU %u: %s", cpu,
				 tap_errname(err));
	return true;
}
