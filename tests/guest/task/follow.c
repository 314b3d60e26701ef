// SPDX-License-Identifier: GPL-2.0
/*
 * task-test: FOLLOW, a file counting a process's threads, each thread's
 * share and the file's total; ATTACH to another process, the counts of a
 * child that exits.
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

struct worker {
	unsigned long n;
	int cpu;
	pid_t tid;
};

static void *work(void *arg)
{
	struct worker *w = arg;

	w->tid = (pid_t)syscall(SYS_gettid);
	if (w->cpu >= 0)
		pin((unsigned int)w->cpu);
	loop_n(w->n);
	return NULL;
}

/*
 * test_follow's threads, one by one: the attached thread, the 4 workers in
 * the order they were created and the child, each with its own tid; their
 * counts, cycles and times add up to the file's exactly, whatever the
 * scheduler did. Under icount each worker's count differs from the one
 * before by exactly its extra loops, and the child counts its 5 loops.
 */
static void check_followed_threads(int fd, const struct armpmu_counts *c,
				   const struct worker *w, pid_t child)
{
	struct thread_list l;
	__u64 events = 0, cycles = 0, enabled = 0, running = 0;
	bool ids = true, exited = true, exact = true;
	unsigned int i;
	int err = read_threads(fd, &l);

	for (i = 0; !err && i < l.hdr.nr; i++) {
		struct armpmu_thread *t = thread_at(&l, i);

		events += t->value[0];
		cycles += t->cycles;
		enabled += t->time_enabled;
		running += t->time_running;
		exited &= !!(t->flags & ARMPMU_THREAD_EXITED) == (i > 0);
		tap_note("thread %u: tid %u, flags %#x, %llu, %llu cycles, %llu switches, "
			 "%llu migrations, %llu ns", i, t->tid, t->flags, (ull)t->value[0],
			 (ull)t->cycles, (ull)t->switches, (ull)t->migrations,
			 (ull)t->time_enabled);
	}
	if (!err && l.hdr.nr == 6) {
		ids = thread_at(&l, 0)->tid == (__u32)syscall(SYS_gettid) &&
		      thread_at(&l, 5)->tid == (__u32)child;
		for (i = 0; i < 4; i++)
			ids &= thread_at(&l, 1 + i)->tid == (__u32)w[i].tid;
		for (i = 1; i < 4; i++)
			exact &= thread_at(&l, 1 + i)->value[0] - thread_at(&l, i)->value[0] ==
				 LOOP_INSNS_PER_ITER * SPIN;
		exact &= thread_at(&l, 1)->value[0] >= LOOP_INSNS_PER_ITER * SPIN &&
			 thread_at(&l, 5)->value[0] >= LOOP_INSNS_PER_ITER * 5 * SPIN &&
			 thread_at(&l, 5)->value[0] < LOOP_INSNS_PER_ITER * 5 * SPIN + 200000;
	}
	tap_check(!err && l.hdr.nr == 6 && l.hdr.threads == 6 && l.hdr.flags == 0 &&
		  l.hdr.lost == 0 && ids && exited,
		  "READ_THREADS: the attached thread, 4 threads and a child, in order, "
		  "with their tids, the exited ones flagged",
		  "%s, %u entries of %u kept, flags %#x, lost %u, tids %s, exited %s",
		  tap_errname(err), l.hdr.nr, l.hdr.threads, l.hdr.flags, l.hdr.lost,
		  ids ? "right" : "wrong", exited ? "right" : "wrong");
	tap_check(!err && events == c->events[0] && cycles == c->cycles &&
		  enabled == c->time_enabled && running == c->time_running &&
		  l.hdr.task_clock == c->time_enabled,
		  "the threads' counts, cycles and times add up to the file's exactly",
		  "%s, %llu of %llu, %llu of %llu cycles, %llu of %llu ns enabled, task-clock %llu",
		  tap_errname(err), (ull)events, (ull)c->events[0], (ull)cycles,
		  (ull)c->cycles, (ull)enabled, (ull)c->time_enabled, (ull)l.hdr.task_clock);
	if (task_icount)
		tap_check(!err && exact,
			  "icount: each thread counted exactly its own loops",
			  "%s: see the threads above", tap_errname(err));
}

/*
 * FOLLOW: threads and a child created after ATTACH are counted too, into
 * the same totals, each on whatever CPU it runs. Without icount, nothing is
 * counted twice: QEMU's cycle counter runs at 1 GHz of host time, so the
 * user cycles of all threads fit in the time that passed times the CPUs.
 */
void test_follow(void)
{
	struct armpmu_attach at = { .flags = ARMPMU_ATTACH_FOLLOW };
	struct armpmu_counts base, c;
	struct worker w[4];
	pthread_t t[4];
	int fd, err, i, status;
	uint64_t t0, elapsed;
	pid_t child;

	err = dev_open(&fd);
	err = err ? err : ioc(fd, ARMPMU_IOC_ATTACH, &at);
	err = err ? err : program(fd, 0, work_event(), EXCL_K);
	err = err ? err : ioc_u32(fd, ARMPMU_IOC_SET_CYCLE_FILTER, EXCL_K);
	err = err ? err : measure_loop(fd, 0, &base);
	if (!tap_errno(err, 0, "ATTACH FOLLOW of the calling thread")) {
		dev_close(&fd);
		return;
	}
	err = ioc0(fd, ARMPMU_IOC_RESET);
	t0 = now_ns();
	err = err ? err : ioc0(fd, ARMPMU_IOC_START);
	for (i = 0; i < 4; i++) {
		w[i].n = SPIN * (i + 1);
		w[i].cpu = online_cpus() > 1 ? i % 2 : -1;
		w[i].tid = 0;
		pthread_create(&t[i], NULL, work, &w[i]);
	}
	for (i = 0; i < 4; i++)
		pthread_join(t[i], NULL);
	fflush(stdout);
	child = fork();
	if (child == 0) {
		loop_n(5 * SPIN);
		_exit(0);
	}
	waitpid(child, &status, 0);
	err = err ? err : ioc0(fd, ARMPMU_IOC_STOP);
	elapsed = now_ns() - t0;
	err = err ? err : read_counts(fd, &c);
	tap_note("followed: %llu (threads 1+2+3+4 and a child of 5 loops of %lu), flags %#x, "
		 "enabled %llu ns, running %llu ns, %llu ns passed on %u CPUs", (ull)c.events[0],
		 SPIN, c.flags, (ull)c.time_enabled, (ull)c.time_running, (ull)elapsed,
		 online_cpus());
	if (task_icount)
		tap_check(!err && c.flags == 0 &&
			  c.events[0] >= LOOP_INSNS_PER_ITER * 15 * SPIN &&
			  c.events[0] < LOOP_INSNS_PER_ITER * 15 * SPIN + 2000000,
			  "4 threads and a child: every loop counted, nothing twice",
			  "%s, flags %#x, %llu (loops alone: %lu)", tap_errname(err), c.flags,
			  (ull)c.events[0], LOOP_INSNS_PER_ITER * 15 * SPIN);
	else
		tap_check(!err && !(c.flags & ARMPMU_COUNTS_DISTURBED) && c.events[0] > 0 &&
			  c.time_running <= c.time_enabled &&
			  c.time_enabled <= elapsed * online_cpus() &&
			  c.events[0] <= elapsed * online_cpus(),
			  "threads on every CPU and a child: CPU_CYCLES:u and time within the time "
			  "passed times the CPUs",
			  "%s, flags %#x, %llu cycles, enabled %llu, running %llu, %llu ns passed",
			  tap_errname(err), c.flags, (ull)c.events[0], (ull)c.time_enabled,
			  (ull)c.time_running, (ull)elapsed);
	check_followed_threads(fd, &c, w, child);
	dev_close(&fd);
}

static void loop_then_exit(void *n)
{
	loop_n(*(unsigned long *)n);
	_exit(0);
}

/* A child that waits for a byte on a pipe, then loops *@n and exits. */
static pid_t start_loop_child(int *go, unsigned long *n)
{
	return start_waiting_child(go, loop_then_exit, n);
}

/* ATTACH to another process: it is counted, and its counts outlive it. */
void test_attach_other(void)
{
	struct armpmu_counts small = { 0 }, big = { 0 };
	struct armpmu_attach at = { 0 };
	int i, fd = -1, go = -1, err = 0, status;
	struct armpmu_counts *c;
	unsigned long n;
	pid_t pid;

	for (i = 0; i < 2; i++) {
		c = i ? &big : &small;
		n = i ? 3 * SPIN : SPIN;
		pid = start_loop_child(&go, &n);
		if (pid < 0) {
			err = err ? err : errno;
			break;
		}
		at.tid = (__u32)pid;
		err = err ? err : dev_open(&fd);
		err = err ? err : ioc(fd, ARMPMU_IOC_ATTACH, &at);
		err = err ? err : program(fd, 0, work_event(), EXCL_K);
		err = err ? err : ioc0(fd, ARMPMU_IOC_START);
		if (write(go, "x", 1) != 1)
			err = err ? err : EPIPE;
		close(go);
		waitpid(pid, &status, 0);
		/* The counted process is gone: its counts are still here. */
		err = err ? err : read_counts(fd, c);
		dev_close(&fd);
	}
	tap_note("attached: child of %lu loops %llu, of %lu loops %llu", SPIN,
		 (ull)small.events[0], 3 * SPIN, (ull)big.events[0]);
	if (task_icount)
		tap_check(!err && big.events[0] - small.events[0] == LOOP_INSNS_PER_ITER * 2 * SPIN,
			  "ATTACH to a child: its loop counted exactly, read after it exited",
			  "%s: difference %llu, want %lu", tap_errname(err),
			  (ull)(big.events[0] - small.events[0]), LOOP_INSNS_PER_ITER * 2 * SPIN);
	else
		/*
		 * Without icount CPU_CYCLES is host time: a host that stalls the
		 * short child can make it outlast the long one, so only the
		 * icount lanes compare the two.
		 */
		tap_check(!err && small.events[0] > 0 && big.events[0] > 0 &&
			  small.time_running > 0 && big.time_running > 0 &&
			  small.time_running <= small.time_enabled &&
			  big.time_running <= big.time_enabled,
			  "ATTACH to a child: counted while it ran, read after it exited",
			  "%s: %llu (running %llu of %llu ns) then %llu (running %llu of %llu ns)",
			  tap_errname(err), (ull)small.events[0], (ull)small.time_running,
			  (ull)small.time_enabled, (ull)big.events[0], (ull)big.time_running,
			  (ull)big.time_enabled);
}
