/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Small wrappers over /dev/armpmu for the guest test programs. Each returns
 * 0 or an errno value, so a test can compare it with the errno it expects.
 */
#ifndef ARMPMU_TESTS_DEVIO_H
#define ARMPMU_TESTS_DEVIO_H

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <linux/armpmu.h>
#include <linux/armpmu_arch.h>

#include "pmu-asm.h"

#define DEV			ARMPMU_DEVICE_PATH

typedef unsigned long long ull;

static inline int ioc(int fd, unsigned long req, void *arg)
{
	return ioctl(fd, req, arg) < 0 ? errno : 0;
}

static inline int ioc0(int fd, unsigned long req)
{
	return ioctl(fd, req) < 0 ? errno : 0;
}

static inline int ioc_u32(int fd, unsigned long req, __u32 val)
{
	return ioc(fd, req, &val);
}

static inline int dev_open(int *fd)
{
	*fd = open(DEV, O_RDWR | O_CLOEXEC);
	return *fd < 0 ? errno : 0;
}

static inline void dev_close(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

/* Opens the device and binds it to @cpu. */
static inline int open_bound(__u32 cpu, int *fd)
{
	int err = dev_open(fd);

	if (!err) {
		err = ioc_u32(*fd, ARMPMU_IOC_BIND, cpu);
		if (err)
			dev_close(fd);
	}
	return err;
}

/* Selects counter @idx and programs it. */
static inline int program(int fd, __u32 idx, __u32 event, __u32 flags)
{
	struct armpmu_event ev = { .event = event, .flags = flags };
	int err = ioc_u32(fd, ARMPMU_IOC_SELECT, idx);

	return err ? err : ioc(fd, ARMPMU_IOC_SET_EVENT, &ev);
}

/* Selects slot @idx and programs it in @group. */
static inline int program_group(int fd, __u32 idx, __u32 event, __u32 flags, __u32 group)
{
	struct armpmu_event ev = { .event = event, .flags = flags, .group = group };
	int err = ioc_u32(fd, ARMPMU_IOC_SELECT, idx);

	return err ? err : ioc(fd, ARMPMU_IOC_SET_EVENT, &ev);
}

/* READ_SLOTS of slots 0 to @nr - 1 into @rd, which has room for them. */
static inline int read_slots(int fd, struct armpmu_read *rd, __u32 nr)
{
	memset(rd, 0xa5, sizeof(*rd) + nr * sizeof(rd->slot[0]));
	memset(rd, 0, sizeof(*rd));
	rd->nr = nr;
	return ioc(fd, ARMPMU_IOC_READ_SLOTS, rd);
}

static inline int set_event(int fd, __u32 event, __u32 flags)
{
	struct armpmu_event ev = { .event = event, .flags = flags };

	return ioc(fd, ARMPMU_IOC_SET_EVENT, &ev);
}

static inline int read_counts(int fd, struct armpmu_counts *c)
{
	memset(c, 0xa5, sizeof(*c));
	return ioc(fd, ARMPMU_IOC_READ, c);
}

/*
 * RESET, START, loop_n(n), STOP, READ. noinline and the same instructions
 * whatever n is, so user-mode counts differ by exactly the loop's.
 */
static __attribute__((noinline, unused)) int measure_loop(int fd, unsigned long n,
							  struct armpmu_counts *c)
{
	if (ioctl(fd, ARMPMU_IOC_RESET) < 0)
		return errno;
	if (ioctl(fd, ARMPMU_IOC_START) < 0)
		return errno;
	loop_n(n);
	if (ioctl(fd, ARMPMU_IOC_STOP) < 0)
		return errno;
	return read_counts(fd, c);
}

/* Where modprobe finds armpmu.ko, from `modinfo -n` (NULL: not found). */
static inline const char *armpmu_module_path(void)
{
	static char path[256];
	FILE *p = popen("modinfo -n armpmu", "r");
	bool found = p && fgets(path, sizeof(path), p);

	if (p)
		pclose(p);
	if (!found)
		return NULL;
	path[strcspn(path, "\n")] = '\0';
	return path;
}

/*
 * Unload armpmu and load @path with module parameters @params, as rmmod
 * and insmod would, without their fork, exec and index lookups; then wait
 * for the device node, which devtmpfs makes from its own thread.
 */
static inline int reload_armpmu(const char *path, const char *params)
{
	struct stat node;
	bool had_node = stat(DEV, &node) == 0;
	int fd, err = 0, tries;

	if (syscall(SYS_delete_module, "armpmu", O_NONBLOCK))
		return errno;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return errno;
	if (syscall(SYS_finit_module, fd, params, 0))
		err = errno;
	close(fd);
	for (tries = 0; !err && tries < 100 && access(DEV, F_OK); tries++)
		usleep(10000);
	/* As udev's rule had it: the group and mode the tests' users rely on. */
	if (!err && had_node && (chown(DEV, node.st_uid, node.st_gid) ||
				 chmod(DEV, node.st_mode & 07777)))
		err = errno;
	return err;
}

static inline int pin(unsigned int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		return errno;
	/* Takes effect at once for the calling thread; make sure. */
	return sched_getcpu() == (int)cpu ? 0 : EAGAIN;
}

/* CLOCK_MONOTONIC in nanoseconds. */
static inline uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/*
 * A child that waits for a byte on a pipe, then runs @then(@arg) (which
 * may exec) and exits; *@go is the pipe's write end, for the caller to
 * write the byte to, or to close (the child then exits at once).
 */
static inline pid_t start_waiting_child(int *go, void (*then)(void *arg), void *arg)
{
	int p[2];
	pid_t pid;
	char byte;

	if (pipe(p))
		return -1;
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		close(p[1]);
		if (read(p[0], &byte, 1) == 1)
			then(arg);
		_exit(127);
	}
	close(p[0]);
	*go = p[1];
	return pid;
}

/* Kills and reaps a child the test forked, if it did. */
static inline void stop_child(pid_t pid)
{
	if (pid > 0) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
	}
}

/* |a - b| <= (a + b) / 2 / 100 * pct: within pct percent of each other. */
static inline bool within_pct(uint64_t a, uint64_t b, unsigned int pct)
{
	uint64_t diff = a > b ? a - b : b - a;
	uint64_t mean = a / 2 + b / 2;

	return diff * 100 <= mean * pct;
}

static inline int write_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t len = (ssize_t)strlen(text);
	int err = 0;

	if (fd < 0)
		return errno;
	if (write(fd, text, len) != len)
		err = errno ? errno : EIO;
	close(fd);
	return err;
}

#endif /* ARMPMU_TESTS_DEVIO_H */
