/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Checks that end a hostile run: whatever came before, every CPU's PMU can
 * be claimed and counts again, and user mode still cannot touch the PMU.
 */
#ifndef ARMPMU_TESTS_CHECKS_H
#define ARMPMU_TESTS_CHECKS_H

#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>

#include "devio.h"
#include "tap.h"

/*
 * False on a board whose PMU QEMU never advances (Cortex-A8 and A9, PMUv1):
 * the programs' --no-counting. Checks then ask for everything but counts.
 */
static bool board_counts = true;

/* ARMPMU_EXCLUDE_KERNEL where @fd's CPU can filter, else 0 (root only). */
static inline __u32 user_only_if_possible(int fd)
{
	struct armpmu_info info;

	if (ioc(fd, ARMPMU_IOC_INFO, &info))
		return ARMPMU_EXCLUDE_KERNEL;
	return info.flags & ARMPMU_INFO_CAN_FILTER ? ARMPMU_EXCLUDE_KERNEL : 0;
}

static inline unsigned int online_cpus(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n > 0 ? (unsigned int)n : 1;
}

/* The highest possible CPU number (from sysfs's "0-1"), or -1. */
static inline int last_possible_cpu(void)
{
	FILE *f = fopen("/sys/devices/system/cpu/possible", "re");
	char buf[64] = "";
	char *p;
	int last = -1;

	if (!f)
		return -1;
	if (fgets(buf, sizeof(buf), f)) {
		/* A list of ranges: the last number is the highest. */
		for (p = buf; *p; p++) {
			if (*p >= '0' && *p <= '9') {
				last = (int)strtol(p, &p, 10);
				p--;
			}
		}
	}
	fclose(f);
	return last;
}

/*
 * The CPUs the board has: its device tree's cpu nodes (QEMU's virt writes
 * one for each CPU it is given; the other boards' trees name their SoC's),
 * or, without a tree, the CPUs the kernel knows.
 */
static inline unsigned int board_cpus(void)
{
	DIR *d = opendir("/sys/firmware/devicetree/base/cpus");
	struct dirent *e;
	unsigned int n = 0;
	long conf;

	if (d) {
		while ((e = readdir(d)))
			n += !strncmp(e->d_name, "cpu@", 4);
		closedir(d);
	}
	if (n)
		return n;
	conf = sysconf(_SC_NPROCESSORS_CONF);
	return conf > 0 ? (unsigned int)conf : 1;
}

/* Undoes pin(): every CPU the board has, online or not. */
static inline void unpin(void)
{
	cpu_set_t set;
	unsigned int cpu;

	CPU_ZERO(&set);
	for (cpu = 0; cpu < board_cpus(); cpu++)
		CPU_SET(cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

/*
 * Why CPU 1 cannot be taken offline and back here, or NULL if it can.
 * Linux gives a CPU no online file when the board has no way to stop it:
 * a Raspberry Pi 2's or 3's CPUs (the real boards and QEMU's) stay online.
 */
static inline const char *cpu1_hotplug_missing(void)
{
	if (online_cpus() < 2)
		return "one CPU online";
	if (access("/sys/devices/system/cpu/cpu1/online", W_OK))
		return "the board cannot take CPU 1 offline (no /sys/devices/system/cpu/cpu1/online, as on a Raspberry Pi 2 or 3)";
	return NULL;
}

/*
 * On every online CPU: nobody owns it, a new file binds it, counts user
 * cycles over a loop (or where QEMU never counts, programs, starts and
 * reads undisturbed), and after close nobody owns it again.
 */
static inline void check_every_cpu_claimable(void)
{
	unsigned int cpu, n = online_cpus();
	struct armpmu_cpu_status st;
	struct armpmu_counts c;
	char name[96];
	int fd, err;

	for (cpu = 0; cpu < n; cpu++) {
		snprintf(name, sizeof(name), board_counts ?
			 "CPU %u: claimable and counting afterwards" :
			 "CPU %u: claimable, programs and starts afterwards", cpu);
		err = pin(cpu);
		err = err ? err : open_bound(cpu, &fd);
		if (err) {
			tap_check(false, name, "pin or BIND: %s", tap_errname(err));
			continue;
		}
		err = program(fd, 0, ARMPMU_EV_CPU_CYCLES, user_only_if_possible(fd));
		err = err ? err : measure_loop(fd, 100000, &c);
		tap_check(!err && (!board_counts || c.events[0] > 0) &&
			  !(c.flags & ARMPMU_COUNTS_DISTURBED),
			  name, "%s, events[0] %llu, flags %#x", tap_errname(err),
			  (ull)c.events[0], c.flags);
		dev_close(&fd);
		memset(&st, 0, sizeof(st));
		st.cpu = cpu;
		err = dev_open(&fd);
		err = err ? err : ioc(fd, ARMPMU_IOC_CPU_STATUS, &st);
		snprintf(name, sizeof(name), "CPU %u: no owner once the file is closed", cpu);
		tap_check(!err && !(st.flags & ARMPMU_CPU_OWNED), name, "%s, flags %#x",
			  tap_errname(err), st.flags);
		dev_close(&fd);
	}
	pin(0);
}

/*
 * A user-mode read of the cycle counter, on every CPU, by a process that
 * owns that CPU's PMU and is counting: the driver never opens PMUSERENR.
 */
static inline void check_user_read_sigill(void)
{
	unsigned int cpu, n = online_cpus();
	char name[96];
	int status;
	pid_t pid;

	for (cpu = 0; cpu < n; cpu++) {
		snprintf(name, sizeof(name),
			 "SIGILL: a user-mode read of the cycle counter on CPU %u", cpu);
		fflush(stdout);
		pid = fork();
		if (pid == 0) {
			int fd = -1;

			if (pin(cpu) || open_bound(ARMPMU_CPU_CURRENT, &fd) ||
			    ioc0(fd, ARMPMU_IOC_START))
				_exit(2);
			printf("# the user-mode read returned %llu\n",
			       (ull)user_read_pmccntr());
			fflush(stdout);
			_exit(0);
		}
		if (pid < 0 || waitpid(pid, &status, 0) != pid) {
			tap_check(false, name, "fork/waitpid: %s", tap_errname(errno));
			continue;
		}
		tap_check(WIFSIGNALED(status) && WTERMSIG(status) == SIGILL, name,
			  "expected death by SIGILL, got %s %d",
			  WIFSIGNALED(status) ? "signal" : "exit status",
			  WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
	}
}

#endif /* ARMPMU_TESTS_CHECKS_H */
