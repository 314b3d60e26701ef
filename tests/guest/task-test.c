// SPDX-License-Identifier: GPL-2.0
/*
 * task-test: task mode, a file counting a thread wherever and only while it
 * runs. Runs as root in the guest (switching to lab where a test says so),
 * prints TAP.
 *
 *   task-test [--icount] [--compat] [--then PROGRAM [--then PROGRAM]]
 *
 * With --icount (QEMU's exact mode, one CPU) user-mode instruction counts
 * are exact and asserted so, with a busy neighbour process on the same CPU
 * that a task-mode file must not count. Without it, counts are CPU_CYCLES
 * and checked for what is true: positive, ordered, within the time that
 * passed. --compat: this is a 32-bit build on a 64-bit kernel, and says so.
 * --then PROGRAM: the run goes on in PROGRAM (sample-test), with the same
 * options, numbering on (tap_then); a second --then is passed on to it
 * (sample-test --then callchain-test).
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

static bool icount;
static unsigned int num_counters;
bool task_icount;
unsigned int task_num_counters;

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
	const char *then[2] = { NULL }, *then_opts[5] = { NULL };
	unsigned int nthen = 0, k = 0;
	bool compat = false;
	struct utsname u;
	int opt, fd, err;

	while ((opt = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if (opt == 'i') {
			icount = true;
		} else if (opt == 'C') {
			compat = true;
		} else if (opt == 't' && nthen < 2) {
			then[nthen++] = optarg;
		} else {
			fprintf(stderr, "usage: task-test [--icount] [--compat] [--then PROGRAM "
					"[--then PROGRAM]]\n");
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
	if (nthen) {
		if (icount)
			then_opts[k++] = "--icount";
		if (compat)
			then_opts[k++] = "--compat";
		if (nthen == 2) {
			then_opts[k++] = "--then";
			then_opts[k++] = then[1];
		}
		return tap_then(then[0], argv[0], then_opts);
	}
	return tap_done();
}
