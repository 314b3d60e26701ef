// SPDX-License-Identifier: GPL-2.0
/*
 * task-test: task mode, a file counting a thread wherever and only while it
 * runs. Runs as root in the guest (switching to lab where a test says so),
 * prints TAP.
 *
 *   task-test [--icount] [--compat] [--then PROGRAM]
 *
 * With --icount (QEMU's exact mode, one CPU) user-mode instruction counts
 * are exact and asserted so, with a busy neighbour process on the same CPU
 * that a task-mode file must not count. Without it, counts are CPU_CYCLES
 * and checked for what is true: positive, ordered, within the time that
 * passed. --compat: this is a 32-bit build on a 64-bit kernel, and says so.
 * --then PROGRAM: the run goes on in PROGRAM (sample-test), with the same
 * options, numbering on (tap_then).
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

#include "checks.h"
#include "task/task.h"
#include "users.h"

#define EXCL_K			ARMPMU_EXCLUDE_KERNEL
#define SPIN			100000UL

static bool icount;
static unsigned int num_counters;
bool task_icount;
unsigned int task_num_counters;

/* The event that counts user-mode work on this board: exactly, with icount. */
static __u32 work_event(void)
{
	return icount ? ARMPMU_EV_INST_RETIRED : ARMPMU_EV_CPU_CYCLES;
}

/* A child spinning in user mode until killed: the noisy neighbour. */
static pid_t start_neighbour(void)
{
	pid_t pid = fork();

	if (pid == 0) {
		for (;;)
			loop_n(1000000);
	}
	return pid;
}

/* An unbound file: counter 0 counts the work event in user mode. */
static int open_task_file(int *fd)
{
	int err = dev_open(fd);

	err = err ? err : program(*fd, 0, work_event(), EXCL_K);
	err = err ? err : ioc_u32(*fd, ARMPMU_IOC_SET_CYCLE_FILTER, EXCL_K);
	if (err)
		dev_close(fd);
	return err;
}

/* READ_THREADS' answer with room for 16 threads of one slot each. */
#define THREAD_ROOM	16
struct thread_list {
	struct armpmu_threads hdr;
	unsigned char room[THREAD_ROOM * ARMPMU_THREAD_SIZE(1)];
};

static struct armpmu_thread *thread_at(struct thread_list *l, unsigned int i)
{
	return (struct armpmu_thread *)(void *)(l->room + i * ARMPMU_THREAD_SIZE(1));
}

/* The file's totals and its first threads, with slot 0. */
static int read_threads(int fd, struct thread_list *l)
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
static int perf_software(__u64 config)
{
	struct perf_event_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_SOFTWARE;
	attr.config = config;
	attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	return (int)syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0);
}

struct perf_reading {
	long long value;	/* -1: perf could not count here */
	uint64_t enabled, running;
};

static struct perf_reading perf_value(int pfd)
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
static bool perf_counted(const struct perf_reading *r, unsigned long long least)
{
	return r->value >= 0 && r->enabled > 0 && r->running == r->enabled &&
	       (unsigned long long)r->value >= least;
}

/* What a child measured as another user, for the parent to check. */
struct own_counts {
	int err, info_err;
	struct armpmu_counts empty, a, b;
	struct armpmu_info info;
};

/*
 * measure_loop(@n), the least of three: without icount, the host may stall
 * QEMU while the thread is in user mode, and cycles are host time.
 */
static int least_of_three(int fd, unsigned long n, struct armpmu_counts *least)
{
	struct armpmu_counts c;
	int i, err = 0;

	for (i = 0; i < 3 && !err; i++) {
		err = measure_loop(fd, n, &c);
		if (!err && (i == 0 || c.events[0] < least->events[0]))
			*least = c;
	}
	return err;
}

/* measure_loop(n) for 0, n and 2n on an unbound file, as @who. */
static void measure_own_thread(struct own_counts *r)
{
	int fd;

	r->err = open_task_file(&fd);
	r->err = r->err ? r->err : least_of_three(fd, 0, &r->empty);
	r->err = r->err ? r->err : least_of_three(fd, SPIN, &r->a);
	r->err = r->err ? r->err : least_of_three(fd, 2 * SPIN, &r->b);
	r->info_err = ioc(fd, ARMPMU_IOC_INFO, &r->info);
	dev_close(&fd);
}

/*
 * With the neighbour running: under icount the difference between the
 * loops is exactly their 2n instructions, and the empty measurement holds
 * no more than a few hundred (the calls themselves), not the neighbour's
 * millions.
 */
static void test_own_thread_as(enum guest_user who)
{
	struct own_counts *r = mmap(NULL, sizeof(*r), PROT_READ | PROT_WRITE,
				    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	const char *name = user_name(who);
	pid_t neighbour, pid;
	char test[160];
	int status;

	if (r == MAP_FAILED) {
		tap_check(false, "shared memory for a child's counts", "mmap: %s",
			  tap_errname(errno));
		return;
	}
	r->err = ECHILD;
	neighbour = start_neighbour();
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		if (become_user(who))
			measure_own_thread(r);
		_exit(0);
	}
	waitpid(pid, &status, 0);
	stop_child(neighbour);
	snprintf(test, sizeof(test), "%s: an unbound file counts its thread's loops", name);
	if (!tap_errno(r->err, 0, test))
		goto out;
	tap_note("%s: empty %llu, loop %llu, 2 loops %llu (flags %#x, enabled %llu ns, running %llu ns)",
		 name, (ull)r->empty.events[0], (ull)r->a.events[0], (ull)r->b.events[0],
		 r->b.flags, (ull)r->b.time_enabled, (ull)r->b.time_running);
	snprintf(test, sizeof(test),
		 "%s: complete counts: time_running == time_enabled > 0, flags 0", name);
	tap_check(r->b.flags == 0 && r->b.time_enabled > 0 &&
		  r->b.time_running == r->b.time_enabled, test,
		  "flags %#x, enabled %llu, running %llu", r->b.flags,
		  (ull)r->b.time_enabled, (ull)r->b.time_running);
	snprintf(test, sizeof(test), "%s: INFO says task mode", name);
	tap_check(!r->info_err && (r->info.flags & ARMPMU_INFO_TASK) &&
		  !(r->info.flags & ARMPMU_INFO_BOUND), test, "%s, flags %#x",
		  tap_errname(r->info_err), r->info.flags);
	snprintf(test, sizeof(test), "%s: %s of the loop, with a busy neighbour on the CPU", name,
		 icount ? "exactly the instructions" : "the cycles");
	if (icount)
		tap_check(r->b.events[0] - r->a.events[0] == LOOP_INSNS_PER_ITER * SPIN &&
			  r->empty.events[0] < 1000, test,
			  "2 loops - 1 loop = %llu (want %lu), empty %llu",
			  (ull)(r->b.events[0] - r->a.events[0]), LOOP_INSNS_PER_ITER * SPIN,
			  (ull)r->empty.events[0]);
	else
		tap_check(r->b.events[0] > r->a.events[0] && r->a.events[0] > r->empty.events[0],
			  test, "empty %llu, loop %llu, 2 loops %llu", (ull)r->empty.events[0],
			  (ull)r->a.events[0], (ull)r->b.events[0]);
out:
	munmap(r, sizeof(*r));
}

/*
 * 20 loops of @n, each followed by sched_yield() (to the other process):
 * what the file counted meanwhile. noinline: the same code for every @n.
 */
static __attribute__((noinline)) uint64_t yielding_loops(int fd, unsigned long n, int *err)
{
	struct armpmu_counts a, b;
	int k;

	*err = read_counts(fd, &a);
	for (k = 0; k < 20; k++) {
		loop_n(n);
		sched_yield();
	}
	*err = *err ? *err : read_counts(fd, &b);
	return b.events[0] - a.events[0];
}

/*
 * Two processes on one CPU, each counting itself, yielding to each other
 * after every loop: under icount, twice the loops count exactly 20n more
 * loop instructions; the other process's work never lands in the count.
 */
static void test_two_counting(void)
{
	pid_t pids[2];
	int i, status, ok = 0;

	fflush(stdout);
	for (i = 0; i < 2; i++) {
		pids[i] = fork();
		if (pids[i] == 0) {
			uint64_t once, twice;
			int fd, err;

			pin(0);
			err = open_task_file(&fd);
			err = err ? err : ioc0(fd, ARMPMU_IOC_START);
			once = err ? 0 : yielding_loops(fd, SPIN / 20, &err);
			twice = err ? 0 : yielding_loops(fd, 2 * SPIN / 20, &err);
			if (err)
				_exit(2);
			printf("# process %d: %llu, then %llu with loops twice as long\n", i,
			       (ull)once, (ull)twice);
			if (icount)
				_exit(twice - once == LOOP_INSNS_PER_ITER * SPIN ? 0 : 1);
			_exit(once > 0 && twice > 0 ? 0 : 1);
		}
	}
	for (i = 0; i < 2; i++) {
		waitpid(pids[i], &status, 0);
		ok += WIFEXITED(status) && WEXITSTATUS(status) == 0;
	}
	tap_check(ok == 2, icount ? "two processes on one CPU, yielding, each count exactly their own loops" :
		  "two processes on one CPU, yielding, each count themselves",
		  "%d of 2 were right", ok);
}

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
	if (icount)
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
static void test_follow(void)
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
	if (icount)
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
static void test_attach_other(void)
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
	if (icount)
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

/* The errors of ATTACH and BIND, as root and as lab. */
static void test_rules(void)
{
	struct armpmu_attach at = { 0 };
	int fd, fd2, err, status;
	pid_t pid, root_child;

	err = dev_open(&fd);
	err = err ? err : ioc(fd, ARMPMU_IOC_ATTACH, &at);
	tap_errno(err ? err : ioc(fd, ARMPMU_IOC_ATTACH, &at), EALREADY,
		  "EALREADY: ATTACH on a file in task mode");
	tap_errno(ioc_u32(fd, ARMPMU_IOC_BIND, 0), EALREADY, "EALREADY: BIND on a file in task mode");
	err = dev_open(&fd2);
	tap_errno(err ? err : ioc(fd2, ARMPMU_IOC_ATTACH, &at), EBUSY,
		  "EBUSY: a second file attaching the same thread");
	dev_close(&fd2);
	dev_close(&fd);
	at.tid = 0x3fffffff;
	err = dev_open(&fd);
	tap_errno(err ? err : ioc(fd, ARMPMU_IOC_ATTACH, &at), ESRCH, "ESRCH: ATTACH to no thread");
	dev_close(&fd);
	at.tid = 0;
	at.reserved[1] = 1;
	err = dev_open(&fd);
	tap_errno(err ? err : ioc(fd, ARMPMU_IOC_ATTACH, &at), EINVAL,
		  "EINVAL: ATTACH with a reserved field set");
	at.reserved[1] = 0;
	at.flags = 0x80;
	tap_errno(ioc(fd, ARMPMU_IOC_ATTACH, &at), EINVAL, "EINVAL: ATTACH with an undefined flag");
	dev_close(&fd);

	root_child = start_neighbour();
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		struct armpmu_attach other = { .tid = (__u32)root_child };
		int attach_err = ECHILD, bind_err = ECHILD;

		if (become_user(AS_LAB)) {
			err = dev_open(&fd);
			attach_err = err ? err : ioc(fd, ARMPMU_IOC_ATTACH, &other);
			dev_close(&fd);
			err = dev_open(&fd);
			bind_err = err ? err : ioc_u32(fd, ARMPMU_IOC_BIND, 0);
			dev_close(&fd);
		}
		/* Two small errno values in one exit status. */
		_exit((attach_err == EACCES) | (bind_err == EPERM) << 1);
	}
	waitpid(pid, &status, 0);
	stop_child(root_child);
	tap_check(WIFEXITED(status) && (WEXITSTATUS(status) & 1),
		  "EACCES: lab attaching root's process", "exit status %#x", status);
	tap_check(WIFEXITED(status) && (WEXITSTATUS(status) & 2),
		  "EPERM: lab binding a CPU (whole-CPU mode needs CAP_PERFMON)",
		  "exit status %#x", status);
}

/*
 * A CPU-mode file owning the only CPU: a task-mode file's thread runs there
 * uncounted, and its counts say so.
 */
static void test_incomplete(void)
{
	struct armpmu_counts c;
	int cpu_fd = -1, fd, err;

	if (online_cpus() != 1) {
		tap_skip("INCOMPLETE while a CPU-mode file owns the CPU", "needs one CPU");
		return;
	}
	err = open_task_file(&fd);
	err = err ? err : ioc0(fd, ARMPMU_IOC_START);
	loop_n(SPIN);
	err = err ? err : open_bound(0, &cpu_fd);
	loop_n(SPIN);
	dev_close(&cpu_fd);
	err = err ? err : ioc0(fd, ARMPMU_IOC_STOP);
	err = err ? err : read_counts(fd, &c);
	tap_check(!err && (c.flags & ARMPMU_COUNTS_INCOMPLETE) && c.time_running < c.time_enabled,
		  "INCOMPLETE, time_running < time_enabled, while a CPU-mode file owned the CPU",
		  "%s, flags %#x, enabled %llu, running %llu", tap_errname(err), c.flags,
		  (ull)c.time_enabled, (ull)c.time_running);
	tap_errno(ioc0(fd, ARMPMU_IOC_RESET), 0, "RESET clears INCOMPLETE");
	err = measure_loop(fd, SPIN, &c);
	tap_check(!err && c.flags == 0 && c.time_running == c.time_enabled,
		  "with the CPU free again, counts are complete",
		  "%s, flags %#x", tap_errname(err), c.flags);
	dev_close(&fd);
}

/*
 * A thread moved from CPU to CPU while counted: counted on each. Its
 * migrations are at least the moves the test made; perf's count judges
 * armpmu's only where perf saw those moves too (once, on the 32-bit
 * program on arm64 6.1, perf's CPU_MIGRATIONS read 0 after 19 moves).
 */
static void test_migration(void)
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
static void test_switches(void)
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

/* The first file, by id, that user @uid owns. */
static int find_file(int fd, __u32 uid, struct armpmu_file_status *st)
{
	__u32 id = 1;
	int err;

	for (;;) {
		memset(st, 0, sizeof(*st));
		st->id = id;
		err = ioc(fd, ARMPMU_IOC_FILE_STATUS, st);
		if (err || st->owner_uid == uid)
			return err;
		id = st->id + 1;
	}
}

/*
 * An administrator sees a lab user's task-mode file (FILE_STATUS) and ends
 * it (RELEASE_FILE); the owner then gets ECANCELED.
 */
static void test_admin(void)
{
	struct armpmu_file_status st;
	int ready[2], done[2], fd = -1, err, status;
	char byte;
	pid_t pid;

	if (pipe(ready) || pipe(done)) {
		tap_check(false, "FILE_STATUS: setup", "pipe: %s", tap_errname(errno));
		return;
	}
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		int lab_fd = -1;

		if (!become_user(AS_LAB) || open_task_file(&lab_fd) ||
		    ioc0(lab_fd, ARMPMU_IOC_START))
			_exit(3);
		if (write(ready[1], "r", 1) != 1 || read(done[0], &byte, 1) != 1)
			_exit(4);
		_exit(ioc0(lab_fd, ARMPMU_IOC_START) == ECANCELED ? 0 : 1);
	}
	err = read(ready[0], &byte, 1) == 1 ? 0 : EPIPE;
	err = err ? err : dev_open(&fd);
	err = err ? err : find_file(fd, LAB_UID, &st);
	tap_check(!err && (st.flags & ARMPMU_FILE_TASK) && (st.flags & ARMPMU_FILE_RUNNING) &&
		  st.owner_pid == (__u32)pid && st.target_tid == (__u32)pid && st.threads == 1 &&
		  st.counters == (1U | 1U << 31),
		  "FILE_STATUS shows lab's task-mode file: owner, thread, counters, running",
		  "%s: id %u flags %#x owner %u/%u target %u threads %u counters %#x (child %d)",
		  tap_errname(err), st.id, st.flags, st.owner_pid, st.owner_uid, st.target_tid,
		  st.threads, st.counters, pid);
	if (!err) {
		tap_errno(ioc_u32(fd, ARMPMU_IOC_RELEASE_FILE, 0x7fffffff), ESRCH,
			  "ESRCH: RELEASE_FILE of no file");
		tap_errno(ioc_u32(fd, ARMPMU_IOC_RELEASE_FILE, st.id), 0,
			  "RELEASE_FILE: root ends lab's file");
		tap_errno(ioc_u32(fd, ARMPMU_IOC_RELEASE_FILE, st.id), ESRCH,
			  "ESRCH: RELEASE_FILE of a file already released");
	}
	if (write(done[1], "d", 1) != 1)
		err = EPIPE;
	waitpid(pid, &status, 0);
	tap_check(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		  "ECANCELED: the owner's next call after RELEASE_FILE", "child status %#x", status);
	st.id = 0x7fffffff;
	tap_errno(ioc(fd, ARMPMU_IOC_FILE_STATUS, &st), ENOENT, "ENOENT: FILE_STATUS past the last file");
	dev_close(&fd);
	close(ready[0]);
	close(ready[1]);
	close(done[0]);
	close(done[1]);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "icount", no_argument, NULL, 'i' },
		{ "compat", no_argument, NULL, 'C' },
		{ "then", required_argument, NULL, 't' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct armpmu_info info;
	const char *then = NULL, *then_opts[3] = { NULL };
	bool compat = false;
	struct utsname u;
	int opt, fd, err;

	while ((opt = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if (opt == 'i') {
			icount = true;
		} else if (opt == 'C') {
			compat = true;
		} else if (opt == 't') {
			then = optarg;
		} else {
			fprintf(stderr, "usage: task-test [--icount] [--compat] [--then PROGRAM]\n");
			return opt == 'h' ? 0 : 2;
		}
	}
	tap_init();
	if (compat) {
		uname(&u);
		tap_check(sizeof(void *) == 4 && strcmp(u.machine, "aarch64") == 0,
			  "compat: a 32-bit program on a 64-bit kernel",
			  "%zu-byte pointers on %s", sizeof(void *), u.machine);
	}
	err = dev_open(&fd);
	err = err ? err : ioc(fd, ARMPMU_IOC_INFO, &info);
	dev_close(&fd);
	if (!tap_errno(err, 0, "open the device and read INFO"))
		return tap_done();
	num_counters = info.num_counters;
	task_icount = icount;
	task_num_counters = num_counters;
	if (!(info.flags & ARMPMU_INFO_CAN_FILTER)) {
		tap_skip("task mode", "this core cannot count user mode alone");
		return tap_done();
	}
	pin(0);
	test_own_thread_as(AS_ROOT);
	test_own_thread_as(AS_LAB);
	test_two_counting();
	test_follow();
	test_attach_other();
	test_armed_refusals();
	test_rules();
	test_incomplete();
	test_migration();
	test_switches();
	test_admin();
	test_file_visibility();
	test_release_by_opener();
	test_kernel_log();
	if (then) {
		then_opts[0] = icount ? "--icount" : NULL;
		then_opts[icount] = compat ? "--compat" : NULL;
		return tap_then(then, argv[0], then_opts);
	}
	return tap_done();
}
