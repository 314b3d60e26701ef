// SPDX-License-Identifier: GPL-2.0
/*
 * task-test: a counted thread moved between CPUs and switched out, against
 * Linux's own counts of migrations and context switches.
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

/*
 * A thread moved from CPU to CPU while counted: counted on each. Its
 * migrations are at least the moves the test made; perf's count judges
 * armpmu's only where perf saw those moves too (once, on the 32-bit
 * program on arm64 6.1, perf's CPU_MIGRATIONS read 0 after 19 moves).
 */
void test_migration(void)
{
	struct armpmu_counts c;
	struct thread_list l;
	struct perf_reading perf;
	unsigned int i, n = online_cpus(), moves = 0;
	int fd, err, pfd;

	if (n < 2) {
		tap_skip("a thread migrating between CPUs is counted throughout", "one CPU");
		tap_skip("a thread moved between CPUs has at least as many migrations", "one CPU");
		tap_skip("cpu-migrations no more than perf's count of them", "one CPU");
		return;
	}
	err = open_task_file(&fd);
	err = err ? err : ioc0(fd, ARMPMU_IOC_RESET);
	pfd = perf_software(PERF_COUNT_SW_CPU_MIGRATIONS);
	err = err ? err : ioc0(fd, ARMPMU_IOC_START);
	for (i = 0; !err && i < 20; i++) {
		/* The caller is on CPU 0 (main pins it there). */
		moves += i % n != (i ? (i - 1) % n : 0);
		err = pin(i % n);
		loop_n(SPIN);
	}
	err = err ? err : ioc0(fd, ARMPMU_IOC_STOP);
	perf = perf_value(pfd);
	err = err ? err : read_counts(fd, &c);
	tap_check(!err && c.flags == 0 && c.events[0] > 0 && c.time_running == c.time_enabled,
		  "a thread migrating between CPUs is counted throughout, complete",
		  "%s, flags %#x, %llu", tap_errname(err), c.flags, (ull)c.events[0]);
	err = err ? err : read_threads(fd, &l);
	tap_note("%u moves by affinity: armpmu's cpu-migrations %llu, the thread's %llu, "
		 "perf's %lld (enabled %llu ns, running %llu ns)", moves,
		 (ull)l.hdr.migrations, (ull)thread_at(&l, 0)->migrations, perf.value,
		 (ull)perf.enabled, (ull)perf.running);
	tap_check(!err && l.hdr.nr == 1 && l.hdr.migrations >= moves &&
		  thread_at(&l, 0)->migrations == l.hdr.migrations,
		  "a thread moved between CPUs has at least as many migrations",
		  "%s, %llu migrations for %u moves", tap_errname(err),
		  (ull)l.hdr.migrations, moves);
	if (!perf_counted(&perf, moves))
		tap_skip("cpu-migrations no more than perf's count of them",
			 "perf did not count the moves the test made here, so it is no oracle");
	else
		tap_check(!err && l.hdr.migrations <= (unsigned long long)perf.value + 2,
			  "cpu-migrations no more than perf's count of them",
			  "armpmu %llu, perf %lld", (ull)l.hdr.migrations, perf.value);
	if (pfd >= 0)
		close(pfd);
	pin(0);
	dev_close(&fd);
}

/*
 * A thread that sleeps N times while counted is switched out at least as
 * often as the kernel says it gave up the CPU (getrusage's voluntary and
 * involuntary switches; a sleep whose time has passed before the thread
 * blocks is no switch: the debug kernel once slept 9 times of 10), and
 * as perf's context-switches counts it too; pinned, it never
 * migrates; its task-clock is within the time that passed; the totals only
 * grow. Then the bad input: too many slots, a reserved field, a CPU-mode
 * file.
 */
void test_switches(void)
{
	struct thread_list a, b;
	struct armpmu_threads bad;
	const unsigned int sleeps = 10;
	const struct timespec ms = { .tv_nsec = 1000000 };
	unsigned int i;
	int fd, err, pfd;
	struct perf_reading perf;
	struct rusage ru0, ru1;
	uint64_t t0, elapsed, gave_up;

	err = open_task_file(&fd);
	err = err ? err : ioc0(fd, ARMPMU_IOC_RESET);
	pfd = perf_software(PERF_COUNT_SW_CONTEXT_SWITCHES);
	t0 = now_ns();
	err = err ? err : ioc0(fd, ARMPMU_IOC_START);
	err = err ? err : read_threads(fd, &a);
	err = err ? err : (getrusage(RUSAGE_THREAD, &ru0) ? errno : 0);
	for (i = 0; i < sleeps; i++)
		nanosleep(&ms, NULL);
	err = err ? err : (getrusage(RUSAGE_THREAD, &ru1) ? errno : 0);
	err = err ? err : read_threads(fd, &b);
	err = err ? err : ioc0(fd, ARMPMU_IOC_STOP);
	gave_up = (uint64_t)(ru1.ru_nvcsw - ru0.ru_nvcsw) + (uint64_t)(ru1.ru_nivcsw - ru0.ru_nivcsw);
	elapsed = now_ns() - t0;
	perf = perf_value(pfd);
	if (pfd >= 0)
		close(pfd);
	err = err ? err : read_threads(fd, &b);
	tap_note("%u sleeps: armpmu's context-switches %llu (%llu before), the thread's %llu, "
		 "getrusage's %llu, perf's %lld; task-clock %llu ns of %llu ns", sleeps,
		 (ull)b.hdr.switches, (ull)a.hdr.switches, (ull)thread_at(&b, 0)->switches,
		 (ull)gave_up, perf.value, (ull)b.hdr.task_clock, (ull)elapsed);
	tap_check(!err && b.hdr.nr == 1 && gave_up > 0 &&
		  b.hdr.switches >= a.hdr.switches + gave_up &&
		  thread_at(&b, 0)->switches == b.hdr.switches &&
		  b.hdr.task_clock >= a.hdr.task_clock,
		  "a thread that sleeps N times has at least the switches getrusage counts",
		  "%s, %llu then %llu switches, getrusage %llu", tap_errname(err),
		  (ull)a.hdr.switches, (ull)b.hdr.switches, (ull)gave_up);
	tap_check(!err && b.hdr.migrations == 0 && b.hdr.task_clock <= elapsed &&
		  thread_at(&b, 0)->time_enabled == b.hdr.task_clock &&
		  thread_at(&b, 0)->time_running <= thread_at(&b, 0)->time_enabled,
		  "pinned: no migration; task-clock within the time that passed",
		  "%s, %llu migrations, task-clock %llu of %llu ns", tap_errname(err),
		  (ull)b.hdr.migrations, (ull)b.hdr.task_clock, (ull)elapsed);
	if (!perf_counted(&perf, sleeps))
		tap_skip("context switches agree with perf's",
			 "perf did not count the sleeps the test made here, so it is no oracle");
	else
		tap_check(!err && b.hdr.switches + 2 >= (unsigned long long)perf.value &&
			  b.hdr.switches <= (unsigned long long)perf.value + 2,
			  "context switches agree with perf's within 2 (the calls around)",
			  "armpmu %llu, perf %lld", (ull)b.hdr.switches, perf.value);
	memset(&bad, 0, sizeof(bad));
	bad.slots = ARMPMU_MAX_COUNTERS + 1;
	err = ioc(fd, ARMPMU_IOC_READ_THREADS, &bad);
	bad.slots = 0;
	bad.reserved[1] = 1;
	tap_check(err == EINVAL && ioc(fd, ARMPMU_IOC_READ_THREADS, &bad) == EINVAL,
		  "READ_THREADS: 32 slots or a reserved field is EINVAL", "%s", tap_errname(err));
	dev_close(&fd);
	err = dev_open(&fd);
	err = err ? err : ioc_u32(fd, ARMPMU_IOC_BIND, 0);
	memset(&bad, 0, sizeof(bad));
	err = err ? err : ioc(fd, ARMPMU_IOC_READ_THREADS, &bad);
	tap_errno(err, EOPNOTSUPP, "READ_THREADS of a CPU-mode file is EOPNOTSUPP");
	dev_close(&fd);
}
