// SPDX-License-Identifier: GPL-2.0
/*
 * task-test: what several topics use: the event that counts user-mode
 * work, a busy neighbour, a task-mode file, READ_THREADS' answer, and
 * Linux's own software counters as an oracle.
 */
#include <getopt.h>
#include <linux/perf_event.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>

#include "../checks.h"
#include "../users.h"
#include "task.h"

/* The event that counts user-mode work on this board: exactly, with icount. */
__u32 work_event(void)
{
	return task_icount ? ARMPMU_EV_INST_RETIRED : ARMPMU_EV_CPU_CYCLES;
}

/* A child spinning in user mode until killed: the noisy neighbour. */
pid_t start_neighbour(void)
{
	pid_t pid = fork();

	if (pid == 0) {
		for (;;)
			loop_n(1000000);
	}
	return pid;
}

/* An unbound file: counter 0 counts the work event in user mode. */
int open_task_file(int *fd)
{
	int err = dev_open(fd);

	err = err ? err : program(*fd, 0, work_event(), EXCL_K);
	err = err ? err : ioc_u32(*fd, ARMPMU_IOC_SET_CYCLE_FILTER, EXCL_K);
	if (err)
		dev_close(fd);
	return err;
}

/* READ_THREADS' answer with room for 16 threads of one slot each. */


struct armpmu_thread *thread_at(struct thread_list *l, unsigned int i)
{
	return (struct armpmu_thread *)(void *)(l->room + i * ARMPMU_THREAD_SIZE(1));
}

/* The file's totals and its first threads, with slot 0. */
int read_threads(int fd, struct thread_list *l)
{
	memset(&l->hdr, 0, sizeof(l->hdr));
	l->hdr.nr = THREAD_ROOM;
	l->hdr.slots = 1;
	return ioc(fd, ARMPMU_IOC_READ_THREADS, &l->hdr);
}

/*
 * Linux's own count of a software event for the calling thread, opened
 * enabled with its times (the reference for context switches and
 * migrations): an oracle only where it is shown to have counted (see
 * perf_counted).
 */
int perf_software(__u64 config)
{
	struct perf_event_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_SOFTWARE;
	attr.config = config;
	attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	return (int)syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0);
}


struct perf_reading perf_value(int pfd)
{
	struct perf_reading r = { .value = -1 };
	uint64_t v[3];

	if (pfd >= 0 && read(pfd, v, sizeof(v)) == (ssize_t)sizeof(v)) {
		r.value = (long long)v[0];
		r.enabled = v[1];
		r.running = v[2];
	}
	return r;
}

/*
 * Whether perf's count can judge armpmu's: perf counted all the time it
 * was enabled, and at least the @least events the test itself made
 * happen. Otherwise perf missed some of what the test did and is no
 * oracle: the caller says so and holds armpmu to what the test knows.
 */
bool perf_counted(const struct perf_reading *r, unsigned long long least)
{
	return r->value >= 0 && r->enabled > 0 && r->running == r->enabled &&
	       (unsigned long long)r->value >= least;
}
