// SPDX-License-Identifier: GPL-2.0
/*
 * isolation-test: a file counts only threads its opener could count with
 * perf, and leaves nothing of them behind. Runs as root in the guest,
 * dropping to lab for each attack, prints TAP.
 *
 *   isolation-test [--icount] [--no-counting] [--wrap] [--soak SECS]
 *
 * The attacks of issue 18, each a test that the old driver fails:
 * - an exec into another security domain (set-user-ID, set-group-ID, file
 *   capabilities, a binary lab may execute but not read) of a thread lab
 *   counts, by ATTACH to a child and by FOLLOW of itself: the thread is let
 *   go at the exec (ARMPMU_COUNTS_EXEC_LEFT) and none of the program's
 *   user-mode work is counted;
 * - lab's descriptor handed to a set-user-ID program: its first read, and
 *   its ATTACH, are refused (the opener's credentials decide);
 * - ATTACH's verdict against kcmp(2)'s, the kernel's own ptrace read check
 *   with real credentials (perf_event_open's), in the cases that differed;
 * - the registers after a task-mode file stopped and closed: zero;
 * - ATTACH racing the target's exit: never a dead thread linked.
 * --wrap: a counted thread's 32-bit counter over 4.3 s on a CPU that went
 * offline and came back within a poll period: no wrap lost (the poll timer
 * followed the CPU; the driver before the fix lost 2^32 here).
 * --soak SECS: lab programs counting themselves and their children while
 * CPU 1 goes off and on: every count complete or flagged.
 * --no-counting: the board's PMU never counts (Cortex-A8, A9): the checks
 * of counts are skipped, the verdicts on who may count are not.
 */
#include <fcntl.h>
#include <getopt.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <time.h>
#include <linux/capability.h>
#include <linux/kcmp.h>

#include "checks.h"
#include "users.h"

#define EXCL_K			ARMPMU_EXCLUDE_KERNEL
#define DIR			"/tmp/isolation"
#define LOOP_PROG		"/usr/local/bin/exact-loop"
/* exact-loop retires 200000 user instructions per argument. */
#define LOOP_ARGS		300
#define LOOP_INSNS		(2ULL * 100000 * LOOP_ARGS)

static bool icount, counting = true;

static __u32 work_event(void)
{
	return icount ? ARMPMU_EV_INST_RETIRED : ARMPMU_EV_CPU_CYCLES;
}

/* ---- the programs lab executes ---- */

static int copy_file(const char *from, const char *to, mode_t mode)
{
	char buf[65536];
	int in = open(from, O_RDONLY | O_CLOEXEC), out, err = 0;
	ssize_t n;

	if (in < 0)
		return errno;
	out = open(to, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0700);
	if (out < 0) {
		err = errno;
		close(in);
		return err;
	}
	while ((n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, (size_t)n) != n) {
			err = errno ? errno : EIO;
			break;
		}
	if (n < 0)
		err = errno;
	close(in);
	close(out);
	/* After the write: writing clears the set-ID bits. */
	if (!err && chmod(to, mode))
		err = errno;
	return err;
}

/* A file capability (CAP_NET_RAW, permitted and effective), as setcap sets one. */
static int add_file_capability(const char *path)
{
	struct vfs_cap_data cap = { 0 };

	cap.magic_etc = VFS_CAP_REVISION_2 | VFS_CAP_FLAGS_EFFECTIVE;
	cap.data[0].permitted = 1U << CAP_NET_RAW;
	return setxattr(path, "security.capability", &cap, sizeof(cap), 0) ? errno : 0;
}

enum variant { PLAIN, SETUID, SETGID, UNREADABLE, FILE_CAPS, NR_VARIANTS };

static const struct {
	const char *name, *path;
	mode_t mode;
} variants[NR_VARIANTS] = {
	[PLAIN] = { "a plain program", DIR "/plain", 0755 },
	[SETUID] = { "a set-user-ID-root program", DIR "/setuid", 04755 },
	[SETGID] = { "a set-group-ID-root program", DIR "/setgid", 02755 },
	[UNREADABLE] = { "a program lab may execute but not read", DIR "/unreadable", 0711 },
	[FILE_CAPS] = { "a program with file capabilities", DIR "/filecaps", 0755 },
};

/* Why the file-capability program is missing, if it is. */
static int fcaps_err;

/* On a tmpfs of their own, which keeps security.capability. */
static int make_programs(void)
{
	int err = 0, v;

	if (mkdir(DIR, 0755) && errno != EEXIST)
		return errno;
	if (mount("isolation", DIR, "tmpfs", 0, "mode=0755"))
		return errno;
	for (v = 0; v < NR_VARIANTS && !err; v++)
		err = copy_file(LOOP_PROG, variants[v].path, variants[v].mode);
	fcaps_err = err ? err : add_file_capability(variants[FILE_CAPS].path);
	/* This program, set-user-ID root, to be handed lab's descriptor. */
	err = err ? err : copy_file("/proc/self/exe", DIR "/handed", 04755);
	return err;
}

static void remove_programs(void)
{
	umount2(DIR, MNT_DETACH);
	rmdir(DIR);
}

static void exec_loop(const char *path)
{
	char *argv[LOOP_ARGS + 1];
	int i;

	for (i = 0; i < LOOP_ARGS; i++)
		argv[i] = (char *)"x";
	argv[LOOP_ARGS] = NULL;
	execv(path, argv);
	_exit(127);
}

/* ---- running something as lab and getting a result back ---- */

/*
 * lab as a login session has it: setuid() left this process non-dumpable,
 * as an exec of an ordinary program would not, and ptrace (so perf and
 * armpmu) would refuse its children.
 */
static bool become_lab(void)
{
	return become_user(AS_LAB) && !prctl(PR_SET_DUMPABLE, 1, 0, 0, 0);
}

/* Runs @fn(@arg) in a child that became lab; its result comes back whole. */
static int as_lab(void (*fn)(void *res), void *res, size_t size)
{
	int p[2], status;
	pid_t pid;

	if (pipe(p))
		return errno;
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		return errno;
	if (pid == 0) {
		close(p[0]);
		memset(res, 0, size);
		if (!become_lab())
			_exit(2);
		fn(res);
		_exit(write(p[1], res, size) == (ssize_t)size ? 0 : 3);
	}
	close(p[1]);
	if (read(p[0], res, size) != (ssize_t)size)
		memset(res, 0, size);
	close(p[0]);
	waitpid(pid, &status, 0);
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : ECHILD;
}

/* Counter 0 counts the work event in user mode, and the cycle counter too. */
static int program_work(int fd)
{
	int err = program(fd, 0, work_event(), EXCL_K);

	return err ? err : ioc_u32(fd, ARMPMU_IOC_SET_CYCLE_FILTER, EXCL_K);
}

/*
 * Programs and starts the file, on a board that counts. One that never
 * counts (no mode filter either, so lab's START is EOPNOTSUPP) still links
 * and lets go of threads, which is what the verdicts below look at.
 */
static int start_work(int fd)
{
	int err;

	if (!counting)
		return 0;
	err = program_work(fd);
	return err ? err : ioc0(fd, ARMPMU_IOC_START);
}

/* ---- 1. an exec into another security domain ---- */

struct exec_result {
	int err;
	struct armpmu_counts c;
	__u32 child_flags;		/* READ_THREADS' for the child (~0U: none) */
};

/* READ_THREADS' flags of thread @tid of @fd's file (~0U: not listed). */
static __u32 thread_flags(int fd, pid_t tid)
{
	struct {
		struct armpmu_threads hdr;
		struct armpmu_thread t[8];
	} l;
	__u32 i;

	memset(&l, 0, sizeof(l));
	l.hdr.nr = 8;
	if (ioc(fd, ARMPMU_IOC_READ_THREADS, &l))
		return ~0U;
	for (i = 0; i < l.hdr.nr && i < 8; i++)
		if (l.t[i].tid == (__u32)tid)
			return l.t[i].flags;
	return ~0U;
}

static enum variant current_variant;

/* A child waiting on a pipe, then executing the variant. */
static pid_t start_exec_child(int *go)
{
	int p[2];
	char x;
	pid_t pid;

	if (pipe(p))
		return -1;
	pid = fork();
	if (pid == 0) {
		close(p[1]);
		if (read(p[0], &x, 1) != 1)
			_exit(1);
		exec_loop(variants[current_variant].path);
	}
	close(p[0]);
	*go = p[1];
	return pid;
}

/* lab ATTACHes its child, which executes the variant. */
static void exec_by_attach(void *arg)
{
	struct exec_result *r = arg;
	struct armpmu_attach at = { 0 };
	int fd = -1, go = -1;
	pid_t pid = start_exec_child(&go);

	if (pid < 0) {
		r->err = errno;
		return;
	}
	at.tid = (__u32)pid;
	r->err = dev_open(&fd);
	r->err = r->err ? r->err : ioc(fd, ARMPMU_IOC_ATTACH, &at);
	r->err = r->err ? r->err : start_work(fd);
	if (write(go, "x", 1) != 1)
		r->err = r->err ? r->err : EPIPE;
	close(go);
	waitpid(pid, NULL, 0);
	r->err = r->err ? r->err : ioc(fd, ARMPMU_IOC_READ, &r->c);
	r->child_flags = thread_flags(fd, pid);
	dev_close(&fd);
}

/* lab FOLLOWs itself; its child executes the variant. */
static void exec_by_follow(void *arg)
{
	struct exec_result *r = arg;
	struct armpmu_attach at = { .flags = ARMPMU_ATTACH_FOLLOW };
	int fd = -1, go = -1;
	pid_t pid;

	r->err = dev_open(&fd);
	r->err = r->err ? r->err : ioc(fd, ARMPMU_IOC_ATTACH, &at);
	r->err = r->err ? r->err : start_work(fd);
	pid = start_exec_child(&go);
	if (pid < 0) {
		r->err = r->err ? r->err : errno;
		dev_close(&fd);
		return;
	}
	if (write(go, "x", 1) != 1)
		r->err = r->err ? r->err : EPIPE;
	close(go);
	waitpid(pid, NULL, 0);
	if (counting)
		r->err = r->err ? r->err : ioc0(fd, ARMPMU_IOC_STOP);
	r->err = r->err ? r->err : ioc(fd, ARMPMU_IOC_READ, &r->c);
	r->child_flags = thread_flags(fd, pid);
	dev_close(&fd);
}

/*
 * Without icount the work event is CPU_CYCLES, host time: a host that
 * stalls QEMU while the child is in user mode before its exec adds
 * milliseconds (8 M cycles seen on a loaded host), so the program's own
 * loop is made long and the bound is half of it.
 */
static void test_exec(const char *how, void (*fn)(void *res))
{
	struct exec_result plain, r;
	char name[160];
	int v, err;

	current_variant = PLAIN;
	err = as_lab(fn, &plain, sizeof(plain));
	err = err ? err : plain.err;
	snprintf(name, sizeof(name), "lab, %s: exec of a plain program counted, not let go", how);
	tap_check(!err && !(plain.c.flags & ARMPMU_COUNTS_EXEC_LEFT) &&
		  (!counting || plain.c.events[0] >= (icount ? LOOP_INSNS : 1)), name,
		  "%s: %llu, flags %#x", tap_errname(err), (ull)plain.c.events[0], plain.c.flags);
	snprintf(name, sizeof(name), "lab, %s: READ_THREADS: the plain program's thread exited, not let go",
		 how);
	tap_check(!err && plain.child_flags == ARMPMU_THREAD_EXITED, name, "flags %#x",
		  plain.child_flags);
	for (v = PLAIN + 1; v < NR_VARIANTS; v++) {
		if (v == FILE_CAPS && fcaps_err) {
			tap_skip("exec of a program with file capabilities",
				 "no security.capability on tmpfs: %s", strerror(fcaps_err));
			continue;
		}
		current_variant = v;
		err = as_lab(fn, &r, sizeof(r));
		err = err ? err : r.err;
		tap_note("%s, %s: %llu (plain %llu), flags %#x", how, variants[v].name,
			 (ull)r.c.events[0], (ull)plain.c.events[0], r.c.flags);
		snprintf(name, sizeof(name),
			 "lab, %s: exec of %s let go (EXEC_LEFT), its work not counted",
			 how, variants[v].name);
		tap_check(!err && (r.c.flags & ARMPMU_COUNTS_EXEC_LEFT) &&
			  (r.c.flags & ARMPMU_COUNTS_INCOMPLETE) &&
			  (!counting || r.c.events[0] < plain.c.events[0] / 2), name,
			  "%s: %llu of the plain run's %llu, flags %#x", tap_errname(err),
			  (ull)r.c.events[0], (ull)plain.c.events[0], r.c.flags);
		snprintf(name, sizeof(name), "lab, %s: READ_THREADS: the thread that executed %s "
			 "is EXEC_LEFT", how, variants[v].name);
		tap_check(!err && r.child_flags != ~0U &&
			  (r.child_flags & (ARMPMU_THREAD_EXEC_LEFT | ARMPMU_THREAD_EXITED)) ==
			  (ARMPMU_THREAD_EXEC_LEFT | ARMPMU_THREAD_EXITED), name, "flags %#x",
			  r.child_flags);
	}
}

/* Root's file goes on counting: root could attach the program anyway. */
static void test_exec_as_root(void)
{
	struct exec_result r = { 0 };

	current_variant = SETUID;
	exec_by_attach(&r);
	tap_check(!r.err && !(r.c.flags & ARMPMU_COUNTS_EXEC_LEFT) &&
		  (!counting || r.c.events[0] >= (icount ? LOOP_INSNS : 1)),
		  "exec of a set-user-ID program counted by root's file: counted",
		  "%s: %llu, flags %#x", tap_errname(r.err), (ull)r.c.events[0], r.c.flags);
}

/* ---- 2. lab's descriptor handed to a set-user-ID program ---- */

/* The handed program's side (this program, set-user-ID root). */
static int handed_main(void)
{
	struct armpmu_counts c;
	struct armpmu_attach at = { .tid = 1 };
	int read_err = read(0, &c, sizeof(c)) < 0 ? errno : 0;
	int attach_err = ioc(0, ARMPMU_IOC_ATTACH, &at);

	return (read_err == EACCES) | (attach_err == EACCES) << 1 | (geteuid() == 0) << 2;
}

struct handed_result {
	int err, status;
};

static void hand_descriptor(void *arg)
{
	struct handed_result *r = arg;
	int fd = -1;
	pid_t pid;

	r->err = dev_open(&fd);
	if (r->err)
		return;
	pid = fork();
	if (pid == 0) {
		dup2(fd, 0);
		execl(DIR "/handed", "isolation-test", "--handed", (char *)NULL);
		_exit(127);
	}
	waitpid(pid, &r->status, 0);
	dev_close(&fd);
}

static void test_handed(void)
{
	struct handed_result r = { 0 };
	int err = as_lab(hand_descriptor, &r, sizeof(r));
	int bits = WIFEXITED(r.status) ? WEXITSTATUS(r.status) : 0;

	err = err ? err : r.err;
	tap_check(!err && (bits & 4), "the handed program ran set-user-ID root",
		  "%s: status %#x", tap_errname(err), r.status);
	tap_check(!err && (bits & 1),
		  "EACCES: a set-user-ID program's first read of lab's file (the opener decides)",
		  "%s: status %#x", tap_errname(err), r.status);
	tap_check(!err && (bits & 2),
		  "EACCES: a set-user-ID program's ATTACH of init through lab's file",
		  "%s: status %#x", tap_errname(err), r.status);
}

/* ---- 3. ATTACH against kcmp(2), the kernel's ptrace read check ---- */

struct verdicts {
	int attach_err, kcmp_err;
};

static pid_t target;

/* Both verdicts on @tid (@pid its process) from the caller's credentials. */
static void judge(struct verdicts *v, pid_t tid, pid_t pid)
{
	struct armpmu_attach at = { .tid = (__u32)tid };
	int fd = -1;

	v->kcmp_err = syscall(SYS_kcmp, getpid(), pid, KCMP_VM, 0, 0) < 0 ? errno : 0;
	v->attach_err = dev_open(&fd);
	v->attach_err = v->attach_err ? v->attach_err : ioc(fd, ARMPMU_IOC_ATTACH, &at);
	dev_close(&fd);
}

static void judge_target(void *arg)
{
	judge(arg, target, target);
}

static void judge_from_user_namespace(void *arg)
{
	struct verdicts *v = arg;

	if (unshare(CLONE_NEWUSER)) {
		v->attach_err = v->kcmp_err = -errno;
		return;
	}
	judge(v, target, target);
}

static atomic_int thread_stop;

static void *waiting_thread(void *arg)
{
	atomic_store((atomic_int *)arg, (int)syscall(SYS_gettid));
	while (!atomic_load(&thread_stop))
		usleep(1000);
	return NULL;
}

/* Another thread of lab's own process, which made itself non-dumpable. */
static void judge_own_thread(void *arg)
{
	atomic_int tid = 0;
	pthread_t t;

	prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
	atomic_store(&thread_stop, 0);
	if (pthread_create(&t, NULL, waiting_thread, &tid)) {
		((struct verdicts *)arg)->attach_err = EAGAIN;
		return;
	}
	while (!atomic_load(&tid))
		usleep(1000);
	judge(arg, atomic_load(&tid), getpid());
	atomic_store(&thread_stop, 1);
	pthread_join(t, NULL);
}

/* A child that takes lab's IDs (keeping capabilities if asked) and waits. */
static pid_t start_target(bool as_lab_user, bool keep_caps)
{
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		if (keep_caps) {
			prctl(PR_SET_KEEPCAPS, 1, 0, 0, 0);
			if (setresgid(LAB_GID, LAB_GID, LAB_GID) ||
			    setresuid(LAB_UID, LAB_UID, LAB_UID))
				_exit(1);
			prctl(PR_SET_DUMPABLE, 1, 0, 0, 0);
		} else if (as_lab_user && !become_lab()) {
			_exit(1);
		}
		for (;;)
			pause();
	}
	usleep(20000);
	return pid;
}

static void check_verdict(const char *what, struct verdicts *v, int err, bool allowed)
{
	bool kcmp_known = v->kcmp_err != ENOSYS;

	if (v->attach_err < 0) {
		tap_skip(what, "no user namespace for lab: %s", strerror(-v->attach_err));
		return;
	}
	tap_check(!err && (v->attach_err == 0) == allowed &&
		  (allowed || v->attach_err == EACCES) &&
		  (!kcmp_known || (v->kcmp_err == 0) == allowed),
		  what, "%s: ATTACH %s, kcmp %s, the ptrace rule says %s", tap_errname(err),
		  tap_errname(v->attach_err), tap_errname(v->kcmp_err),
		  allowed ? "allowed" : "refused");
}

static void test_ptrace_rule(void)
{
	struct verdicts v;
	int err;

	target = start_target(true, false);
	err = as_lab(judge_target, &v, sizeof(v));
	check_verdict("lab's own other process: ATTACH allowed, as kcmp", &v, err, true);
	err = as_lab(judge_from_user_namespace, &v, sizeof(v));
	check_verdict("lab in a new user namespace, its process outside: refused, as kcmp",
		      &v, err, false);
	stop_child(target);

	target = start_target(false, true);
	err = as_lab(judge_target, &v, sizeof(v));
	check_verdict("a lab-uid process that kept root's capabilities: refused, as kcmp",
		      &v, err, false);
	stop_child(target);

	target = start_target(false, false);
	err = as_lab(judge_target, &v, sizeof(v));
	check_verdict("root's process: refused, as kcmp", &v, err, false);
	stop_child(target);

	err = as_lab(judge_own_thread, &v, sizeof(v));
	check_verdict("another thread of lab's own non-dumpable process: allowed, as kcmp",
		      &v, err, true);
}

/* ---- 5. nothing left in the registers ---- */

struct regs_result {
	int err;
};

static void count_on_each_cpu(void *arg)
{
	struct regs_result *r = arg;
	unsigned int cpu, n = online_cpus();
	struct armpmu_info info;
	int fd = -1, i;

	r->err = dev_open(&fd);
	r->err = r->err ? r->err : ioc(fd, ARMPMU_IOC_INFO, &info);
	for (i = 0; !r->err && i < (int)info.num_counters; i++)
		r->err = program(fd, (__u32)i, work_event(), EXCL_K);
	r->err = r->err ? r->err : ioc_u32(fd, ARMPMU_IOC_SET_CYCLE_FILTER, EXCL_K);
	r->err = r->err ? r->err : ioc0(fd, ARMPMU_IOC_START);
	for (cpu = 0; !r->err && cpu < n; cpu++) {
		pin(cpu);
		loop_n(200000);
	}
	r->err = r->err ? r->err : ioc0(fd, ARMPMU_IOC_STOP);
	dev_close(&fd);
}

static void test_registers_after_close(void)
{
	struct regs_result r = { 0 };
	unsigned int cpu, i, left = 0;
	struct armpmu_regs regs;
	int err, fd = -1;

	if (!counting) {
		tap_skip("a task-mode file stopped and closed leaves no count in any CPU's counters",
			 "this board's PMU never counts");
		return;
	}
	err = as_lab(count_on_each_cpu, &r, sizeof(r));
	err = err ? err : r.err;
	err = err ? err : dev_open(&fd);
	for (cpu = 0; !err && cpu < online_cpus(); cpu++) {
		memset(&regs, 0, sizeof(regs));
		regs.cpu = cpu;
		err = ioc(fd, ARMPMU_IOC_REGS, &regs);
		for (i = 0; !err && i < regs.num_counters; i++) {
			if (regs.pmcntenset & (1U << i) || !regs.counter[i])
				continue;
			tap_note("CPU%u counter %u holds %llu", cpu, i, (ull)regs.counter[i]);
			left++;
		}
	}
	dev_close(&fd);
	tap_check(!err && !left,
		  "a task-mode file stopped and closed leaves no count in any CPU's counters",
		  "%s: %u counters still hold counts", tap_errname(err), left);
}

/* ---- 6. ATTACH racing the target's exit ---- */

/*
 * @cold rounds (with --wrap) first wait until the driver has unhooked its
 * probes (a second after the last task-mode file closed): the ATTACH that
 * hooks them again takes milliseconds, a wide window for an exit.
 */
static void test_exit_race(unsigned int cold)
{
	struct armpmu_file_status st;
	struct armpmu_attach at = { 0 };
	unsigned int round, attached = 0, gone = 0, dead = 0;
	int fd = -1, err = 0, aerr;
	pid_t pid;

	/*
	 * The child exits on the other CPU after a spin that grows each
	 * round, so that some exits fall inside ATTACH's own work.
	 */
	pin(0);
	for (round = 0; round < 300 + cold && !err; round++) {
		if (round < cold)
			usleep(1300000);
		fflush(stdout);
		pid = fork();
		if (pid == 0) {
			if (online_cpus() > 1)
				pin(1);
			loop_n(round < cold ? round * 20000UL : (round % 50) * 400UL);
			_exit(0);
		}
		at.tid = (__u32)pid;
		err = dev_open(&fd);
		aerr = err ? err : ioc(fd, ARMPMU_IOC_ATTACH, &at);
		waitpid(pid, NULL, 0);
		if (aerr == ESRCH) {
			gone++;
		} else if (!aerr) {
			attached++;
			/* This file, the newest: it must count no thread now. */
			memset(&st, 0, sizeof(st));
			st.id = 1;
			while (!ioc(fd, ARMPMU_IOC_FILE_STATUS, &st) &&
			       !(st.flags & ARMPMU_FILE_CALLER))
				st.id++;
			if (!(st.flags & ARMPMU_FILE_CALLER) || st.threads)
				dead++;
		} else {
			err = aerr;
		}
		dev_close(&fd);
	}
	unpin();
	tap_note("exit race: %u attached, %u already exiting (ESRCH), %u dead threads linked",
		 attached, gone, dead);
	tap_check(!err && !dead, "ATTACH racing the thread's exit never links a dead thread",
		  "%s: %u of %u attaches left a dead thread", tap_errname(err), dead, attached);
}

/* ---- --wrap: a counted thread across CPU 1 going off and on ---- */

#define CPU1_ONLINE		"/sys/devices/system/cpu/cpu1/online"
#define WRAP_TRIES		8

struct wrap_result {
	int err;
	unsigned int tries;
	uint64_t poll_ns, back_ns;	/* the poll period; CPU 1 regained after */
	long switches;			/* the thread's preemptions in the 5 s */
	struct armpmu_counts c;
};

static int pin_retry(unsigned int cpu)
{
	int i, err = EAGAIN;

	for (i = 0; i < 2000 && err; i++) {
		err = pin(cpu);
		if (err)
			usleep(1000);
	}
	return err;
}

static void spin_ns(uint64_t ns)
{
	uint64_t end = now_ns() + ns;

	while (now_ns() < end)
		loop_n(10000);
}

static int read_number(const char *path, long *val)
{
	FILE *f = fopen(path, "r");
	int ok = f && fscanf(f, "%ld", val) == 1;

	if (f)
		fclose(f);
	return ok ? 0 : ENOENT;
}

/*
 * One try: the thread's first load on CPU 1 starts that CPU's poll timer
 * (it was idle: nothing was loaded there for two periods), due one period
 * later. CPU 1 goes off and on at once and the thread takes it back, as a
 * real-time thread nothing there preempts. True if it did so before the
 * timer that the offline moved to CPU 0 was due: a driver that leaves that
 * timer to fire there now has counters loaded on CPU 1 with none polling.
 */
static bool wrap_try(struct wrap_result *r, int fd)
{
	struct sched_param fifo = { .sched_priority = 1 }, other = { 0 };
	uint64_t start;

	sched_setscheduler(0, SCHED_OTHER, &other);
	r->err = pin_retry(0);
	if (!r->err)
		usleep((useconds_t)(2 * r->poll_ns / 1000));
	r->err = r->err ? r->err : pin_retry(1);
	start = now_ns();
	r->err = r->err ? r->err : write_file(CPU1_ONLINE, "0");
	r->err = r->err ? r->err : write_file(CPU1_ONLINE, "1");
	r->err = r->err ? r->err : pin_retry(1);
	r->err = r->err ? r->err : ioc0(fd, ARMPMU_IOC_RESET);
	if (!r->err && sched_setscheduler(0, SCHED_FIFO, &fifo))
		r->err = errno;
	r->back_ns = now_ns() - start;
	r->tries++;
	/* A tenth of the period for the time before @start. */
	return r->err || r->back_ns < r->poll_ns - r->poll_ns / 10;
}

/* The counted thread: CPU 1 off and on under it, then 5 s there alone. */
static void *wrap_thread(void *arg)
{
	struct sched_param other = { 0 };
	struct wrap_result *r = arg;
	struct rusage ru;
	bool regained = false;
	int fd = -1;

	r->err = dev_open(&fd);
	r->err = r->err ? r->err : program(fd, 0, ARMPMU_EV_CPU_CYCLES, EXCL_K);
	r->err = r->err ? r->err : ioc_u32(fd, ARMPMU_IOC_SET_CYCLE_FILTER, EXCL_K);
	r->err = r->err ? r->err : ioc0(fd, ARMPMU_IOC_START);
	while (!r->err && !regained && r->tries < WRAP_TRIES)
		regained = wrap_try(r, fd);
	if (!r->err && !regained)
		r->err = ETIMEDOUT;
	getrusage(RUSAGE_THREAD, &ru);
	r->switches = ru.ru_nivcsw;
	if (!r->err)
		spin_ns(5000000000ULL);
	getrusage(RUSAGE_THREAD, &ru);
	r->switches = ru.ru_nivcsw - r->switches;
	sched_setscheduler(0, SCHED_OTHER, &other);
	r->err = r->err ? r->err : ioc0(fd, ARMPMU_IOC_STOP);
	r->err = r->err ? r->err : ioc(fd, ARMPMU_IOC_READ, &r->c);
	dev_close(&fd);
	return NULL;
}

/* Writes @text to @path, first saving what it held in @old (size 32). */
static void set_number(const char *path, const char *text, char *old)
{
	long val;

	if (!read_number(path, &val))
		snprintf(old, 32, "%ld", val);
	write_file(path, text);
}

/*
 * The old driver's hole (issue 18): CPU 1's poll timer, moved to CPU 0 by
 * the offline, still pending when the thread is loaded on CPU 1 again, so
 * no timer starts there; it then fires on CPU 0 and stops. The lab's
 * offline and online take tens of milliseconds with expedited RCU grace
 * periods, within a poll period of 100 ms (hostile-test.sh loads armpmu
 * with poll_ms=100 for this); the try is repeated until they do.
 */
static void test_wrap_across_hotplug(void)
{
	const char *rt = "/proc/sys/kernel/sched_rt_runtime_us";
	const char *expedite = "/sys/kernel/rcu_expedited";
	const char *watchdog = "/proc/sys/kernel/watchdog";
	struct wrap_result r = { 0 };
	char old_rt[32] = "950000", old_expedite[32] = "0", old_watchdog[32] = "1";
	uint64_t ev, cyc, ns;
	long poll_ms = 50;
	pthread_t t;
	int err;

	if (!counting || icount || online_cpus() < 2) {
		tap_skip("no wrap lost on a CPU that went offline and came back",
			 "needs two CPUs that count");
		return;
	}
	if (cpu1_hotplug_missing()) {
		tap_skip("no wrap lost on a CPU that went offline and came back", "%s",
			 cpu1_hotplug_missing());
		return;
	}
	read_number("/sys/module/armpmu/parameters/poll_ms", &poll_ms);
	r.poll_ns = (uint64_t)poll_ms * 1000000;
	/*
	 * Nothing may take CPU 1 from the thread, since a switch back loads
	 * the counters again: no real-time throttling, and no lockup
	 * watchdog, whose timer wakes CPU 1's stopper thread every 4 s. (On
	 * 6.12 a deadline server runs waiting threads 50 ms a second whatever
	 * the throttling, and changing it warns: the --wrap lanes boot 6.1.)
	 */
	set_number(rt, "-1", old_rt);
	set_number(watchdog, "0", old_watchdog);
	set_number(expedite, "1", old_expedite);
	pin(0);
	err = pthread_create(&t, NULL, wrap_thread, &r);
	if (!err)
		pthread_join(t, NULL);
	write_file(CPU1_ONLINE, "1");
	write_file(expedite, old_expedite);
	write_file(watchdog, old_watchdog);
	write_file(rt, old_rt);
	unpin();
	err = err ? err : r.err;
	ev = r.c.events[0];
	cyc = r.c.cycles;
	ns = r.c.time_running;
	tap_note("CPU 1 off and on in %llu ms (poll period %ld ms, try %u); then, preempted "
		 "%ld times, CPU_CYCLES on counter 0 %llu, cycle counter %llu, running %llu ns, "
		 "flags %#x", (ull)(r.back_ns / 1000000), poll_ms, r.tries, r.switches,
		 (ull)ev, (ull)cyc, (ull)ns, r.c.flags);
	/*
	 * QEMU's cycles are its clock's nanoseconds: 5 s of user mode is
	 * above 2^32, and a wrap lost takes 4.3e9 from a 32-bit counter.
	 */
	tap_check(!err && ns > 4500000000ULL && ev > ns / 2 && ev < ns + ns / 2 &&
		  (cyc < (1ULL << 32) || within_pct(ev, cyc, 10)) && !r.switches,
		  "no wrap lost by a thread counted on a CPU that went offline and came back",
		  "%s: counter 0 %llu, cycle counter %llu in %llu ns, %ld preemptions (each "
		  "one loads the counters again: a lost timer goes unseen)", tap_errname(err),
		  (ull)ev, (ull)cyc, (ull)ns, r.switches);
}

/* ---- --soak: many files at once while CPU 1 goes off and on ---- */

struct soak_result {
	int err;
	unsigned int runs, complete, flagged, bad;
};

static unsigned int soak_secs;

static void soak_worker(void *arg)
{
	struct soak_result *r = arg;
	struct armpmu_attach at = { .flags = ARMPMU_ATTACH_FOLLOW };
	uint64_t end = now_ns() + soak_secs * 1000000000ULL;
	struct armpmu_counts c;
	int fd = -1, err;
	pid_t pid;

	while (now_ns() < end) {
		err = dev_open(&fd);
		err = err ? err : ioc(fd, ARMPMU_IOC_ATTACH, &at);
		err = err ? err : program_work(fd);
		err = err ? err : ioc0(fd, ARMPMU_IOC_START);
		pid = err ? -1 : fork();
		if (pid == 0) {
			loop_n(100000);
			_exit(0);
		}
		if (pid > 0)
			waitpid(pid, NULL, 0);
		loop_n(50000);
		err = err ? err : read_counts(fd, &c);
		dev_close(&fd);
		r->runs++;
		if (err) {
			r->err = err;
			break;
		}
		if (c.flags & (ARMPMU_COUNTS_INCOMPLETE | ARMPMU_COUNTS_DISTURBED))
			r->flagged++;
		else if (!counting || c.events[0] > 0)
			r->complete++;
		else
			r->bad++;
	}
}

static void test_soak(void)
{
	struct soak_result r[4];
	unsigned int i, runs = 0, complete = 0, flagged = 0, bad = 0;
	int p[4][2], err = 0, toggles = 0;
	pid_t pid[4];
	uint64_t end;

	for (i = 0; i < 4; i++) {
		if (pipe(p[i]))
			return;
		fflush(stdout);
		pid[i] = fork();
		if (pid[i] == 0) {
			close(p[i][0]);
			memset(&r[i], 0, sizeof(r[i]));
			if (become_lab())
				soak_worker(&r[i]);
			else
				r[i].err = EPERM;
			_exit(write(p[i][1], &r[i], sizeof(r[i])) == sizeof(r[i]) ? 0 : 1);
		}
		close(p[i][1]);
	}
	end = now_ns() + soak_secs * 1000000000ULL;
	while (now_ns() < end) {
		if (online_cpus() < 2 && !toggles) {
			usleep(100000);
			continue;
		}
		/* A board that cannot take CPU 1 offline soaks without toggles. */
		toggles += !write_file(CPU1_ONLINE, "0");
		usleep(100000);
		write_file(CPU1_ONLINE, "1");
		usleep(100000);
	}
	for (i = 0; i < 4; i++) {
		if (read(p[i][0], &r[i], sizeof(r[i])) != sizeof(r[i]))
			r[i].err = ECHILD;
		close(p[i][0]);
		waitpid(pid[i], NULL, 0);
		err = err ? err : r[i].err;
		runs += r[i].runs;
		complete += r[i].complete;
		flagged += r[i].flagged;
		bad += r[i].bad;
	}
	write_file(CPU1_ONLINE, "1");
	tap_note("soak: %u runs by 4 lab programs, %d CPU 1 toggles: %u complete, %u flagged",
		 runs, toggles, complete, flagged);
	tap_check(!err && runs && !bad, "soak: every count complete or flagged",
		  "%s: %u of %u counts neither", tap_errname(err), bad, runs);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "icount", no_argument, NULL, 'i' },
		{ "no-counting", no_argument, NULL, 'n' },
		{ "wrap", no_argument, NULL, 'w' },
		{ "soak", required_argument, NULL, 's' },
		{ "handed", no_argument, NULL, 'h' },
		{ 0 }
	};
	bool wrap = false;
	int opt, err;

	while ((opt = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (opt) {
		case 'i': icount = true; break;
		case 'n': counting = false; break;
		case 'w': wrap = true; break;
		case 's': soak_secs = (unsigned int)atoi(optarg); break;
		case 'h': return handed_main();
		default:
			fprintf(stderr, "usage: isolation-test [--icount] [--no-counting] "
				"[--wrap] [--soak SECS]\n");
			return 2;
		}
	}
	tap_init();
	err = make_programs();
	if (!tap_check(!err, "the programs lab executes are in place", "%s", tap_errname(err))) {
		remove_programs();
		return tap_done();
	}
	test_exec("ATTACH to a child", exec_by_attach);
	test_exec("FOLLOW of itself", exec_by_follow);
	test_exec_as_root();
	test_handed();
	test_ptrace_rule();
	test_registers_after_close();
	test_exit_race(wrap ? 8 : 0);
	if (wrap)
		test_wrap_across_hotplug();
	if (soak_secs)
		test_soak();
	remove_programs();
	test_kernel_log();
	return tap_done();
}
