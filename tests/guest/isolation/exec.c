// SPDX-License-Identifier: GPL-2.0
/*
 * isolation-test, attacks 1 and 2: a counted thread's exec into another
 * security domain, by ATTACH and by FOLLOW; lab's descriptor handed to a
 * set-user-ID program.
 */
#include "common.h"

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
void exec_by_attach(void *arg)
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
void exec_by_follow(void *arg)
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
void test_exec(const char *how, void (*fn)(void *res))
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
void test_exec_as_root(void)
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
int handed_main(void)
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

void test_handed(void)
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
