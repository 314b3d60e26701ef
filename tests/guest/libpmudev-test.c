// SPDX-License-Identifier: GPL-2.0
/*
 * libpmudev-test: every function of libpmudev, success and failure, against
 * the real driver on an emulated board. Runs as root inside the guest
 * (tools/pmu-vm), drops to the lab's users in forked children for the
 * unprivileged checks, prints TAP and exits 1 if any test failed.
 *
 *   libpmudev-test --cpu cortex-a7|cortex-a15|cortex-a53|cortex-a72|max
 *                  [--icount] [--compat]
 *
 * --cpu names the board, so the test knows what the core must say;
 * --icount says QEMU counts one cycle per instruction on one CPU, so
 * user-mode counts are exact and asserted as such; --compat says this is
 * a 32-bit program on a 64-bit kernel, and checks that it is.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <grp.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>

#include "pmudev.h"
#include "pmu-asm.h"
#include "tap.h"

#define DEV			ARMPMU_DEVICE_PATH
#define ARMPMU_GID		990
#define LAB_UID			1000
#define GUEST_UID		1001
#define GUEST_GID		1001

/* A CPU number no board has (the driver takes any below nr_cpu_ids). */
#define NO_SUCH_CPU		4000

/* Trips of loop_n(): milliseconds under TCG. */
#define SPIN			200000UL

struct board {
	const char *name;
	const char *core;		/* pmudev_core_name(), NULL: not checked */
	unsigned int num_counters;
	bool v8;
};

static const struct board boards[] = {
	{ "cortex-a7", "Cortex-A7", 4, false },
	{ "cortex-a15", "Cortex-A15", 6, false },
	{ "cortex-a53", "Cortex-A53", 6, true },
	{ "cortex-a72", "Cortex-A72", 6, true },
	{ "max", NULL, 6, true },
};

static const struct board *board;
static bool icount, compat;
static unsigned int ncpus;
static cpu_set_t start_affinity;

/* A library result as an errno value for tap_errno(): 0 for any success. */
static int err_of(int ret)
{
	return ret < 0 ? -ret : 0;
}

static bool affinity_is(const cpu_set_t *want)
{
	cpu_set_t now;

	return !sched_getaffinity(0, sizeof(now), &now) && CPU_EQUAL(&now, want);
}

static bool pinned_to(int cpu)
{
	cpu_set_t one;

	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	return affinity_is(&one) && sched_getcpu() == cpu;
}

/* ---- forked children, as other users ---- */

/*
 * A child records its checks in shared memory; the parent replays them as
 * TAP lines, so numbering stays in one process.
 */
struct child_check {
	bool ok;
	char name[100];
	char diag[160];
};

struct child_checks {
	unsigned int n;
	struct child_check c[48];
};

static struct child_checks *shared;

__attribute__((format(printf, 3, 4)))
static bool child_check(bool ok, const char *name, const char *fmt, ...)
{
	struct child_check *c;
	va_list ap;

	if (shared->n == sizeof(shared->c) / sizeof(shared->c[0]))
		_exit(102);
	c = &shared->c[shared->n++];
	c->ok = ok;
	snprintf(c->name, sizeof(c->name), "%s", name);
	va_start(ap, fmt);
	vsnprintf(c->diag, sizeof(c->diag), fmt, ap);
	va_end(ap);
	return ok;
}

static bool child_errno(int ret, int want, const char *name)
{
	int got = err_of(ret);

	return child_check(got == want, name, "expected %s, got %s",
			   tap_errname(want), tap_errname(got));
}

/* Runs @fn as @uid with group @gid only; replays its checks. */
static void run_as(uid_t uid, gid_t gid, void (*fn)(void), const char *who)
{
	char name[96];
	int status;
	pid_t pid;

	memset(shared, 0, sizeof(*shared));
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		if (setgroups(1, &gid) || setgid(gid) || setuid(uid))
			_exit(100);
		fn();
		_exit(0);
	}
	if (pid > 0 && waitpid(pid, &status, 0) != pid)
		pid = -1;
	for (unsigned int i = 0; i < shared->n; i++)
		tap_check(shared->c[i].ok, shared->c[i].name, "%s", shared->c[i].diag);
	snprintf(name, sizeof(name), "%s: the child ran to completion", who);
	tap_check(pid > 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0, name,
		  "fork/wait failed or status %#x (100: could not change identity)",
		  pid > 0 ? status : -1);
}

/* ---- open, pinning, close ---- */

static void test_device_missing(void)
{
	struct pmudev *pmu = NULL;
	int ret, moved;

	/* No udev: root moves the node away for a moment. */
	moved = rename(DEV, DEV ".away") ? errno : 0;
	if (!tap_errno(moved, 0, "setup: move " DEV " away"))
		return;
	ret = pmudev_open(&pmu, PMUDEV_CPU_ANY, 0);
	tap_errno(err_of(ret), ENOENT, "open: -ENOENT without " DEV);
	if (!ret)
		pmudev_close(pmu);
	tap_errno(rename(DEV ".away", DEV) ? errno : 0, 0, "setup: put " DEV " back");
}

/* PMUDEV_CPU_ANY: task mode, the calling thread counted, nothing pinned. */
static void test_open_task(void)
{
	const struct armpmu_info *info;
	struct pmudev *pmu, *again;
	struct stat st;
	int ret;

	ret = pmudev_open(&pmu, PMUDEV_CPU_ANY, 0);
	if (!tap_errno(err_of(ret), 0, "open: task mode (PMUDEV_CPU_ANY)"))
		return;
	info = pmudev_info(pmu);
	tap_check(pmudev_cpu(pmu) == -1, "open: task mode has no CPU (pmudev_cpu() -1)",
		  "got %d", pmudev_cpu(pmu));
	tap_check(affinity_is(&start_affinity), "open: task mode leaves the affinity alone",
		  "running on %d", sched_getcpu());
	tap_check(info && (info->flags & ARMPMU_INFO_TASK) && !(info->flags & ARMPMU_INFO_BOUND) &&
		  (info->flags & ARMPMU_INFO_KERNEL_ALLOWED),
		  "open: pmudev_info() says task mode, not bound, kernel allowed for root",
		  "info %p flags %#x", (const void *)info, info ? info->flags : 0);
	ret = pmudev_open(&again, PMUDEV_CPU_ANY, 0);
	tap_errno(err_of(ret), EBUSY, "open: -EBUSY for a thread another handle counts");
	if (!ret)
		pmudev_close(again);
	tap_check(info && info->num_counters == board->num_counters,
		  "open: pmudev_info() has the board's counters", "expected %u, got %u",
		  board->num_counters, info ? info->num_counters : 0);
	tap_check(!board->core || (info && pmudev_core_name(info->midr) &&
				   !strcmp(pmudev_core_name(info->midr), board->core)),
		  "pmudev_core_name() names the board's core", "expected %s, got %s",
		  board->core, info && pmudev_core_name(info->midr) ?
		  pmudev_core_name(info->midr) : "NULL");
	tap_check(pmudev_core_name(0x51000000 | (0xd08 << 4)) == NULL,
		  "pmudev_core_name() is NULL for another implementer", "%s", "");
	tap_check(fstat(pmudev_fd(pmu), &st) == 0 && S_ISCHR(st.st_mode),
		  "pmudev_fd() is the device", "fd %d", pmudev_fd(pmu));
	pmudev_close(pmu);
	ret = pmudev_open(&pmu, PMUDEV_CPU_ANY, PMUDEV_OPEN_NO_PIN);
	tap_errno(err_of(ret), 0,
		  "close: frees the thread for the next open (NO_PIN accepted in task mode)");
	if (!ret)
		pmudev_close(pmu);
	pmudev_close(NULL);
	tap_check(true, "close: NULL is ignored", "%s", "");
}

static void test_open_specific(void)
{
	int last = ncpus - 1;
	struct pmudev *pmu;
	int ret;

	ret = pmudev_open(&pmu, last, 0);
	if (tap_errno(err_of(ret), 0, "open: root, CPU mode on a specific CPU (the last)")) {
		tap_check(pmudev_cpu(pmu) == last && pinned_to(last) &&
			  (pmudev_info(pmu)->flags & ARMPMU_INFO_BOUND) &&
			  pmudev_info(pmu)->cpu == (unsigned int)last,
			  "open: bound to and pinned on the CPU asked for, info describes it",
			  "asked %d, bound %d, on %d", last, pmudev_cpu(pmu), sched_getcpu());
		pmudev_close(pmu);
		tap_check(affinity_is(&start_affinity), "close: the thread's affinity is restored",
			  "%s", "");
	}
	ret = pmudev_open(&pmu, 0, PMUDEV_OPEN_NO_PIN);
	if (tap_errno(err_of(ret), 0, "open: CPU 0 with PMUDEV_OPEN_NO_PIN")) {
		tap_check(pmudev_cpu(pmu) == 0 && affinity_is(&start_affinity),
			  "open: NO_PIN leaves the affinity alone", "bound %d", pmudev_cpu(pmu));
		pmudev_close(pmu);
	}
	tap_errno(err_of(pmudev_open(&pmu, NO_SUCH_CPU, 0)), EINVAL,
		  "open: -EINVAL for a CPU that does not exist");
	tap_errno(err_of(pmudev_open(&pmu, -2, 0)), EINVAL, "open: -EINVAL for cpu -2");
	tap_errno(err_of(pmudev_open(&pmu, PMUDEV_CPU_ANY, 1U << 7)), EINVAL,
		  "open: -EINVAL for an undefined flag");
	tap_errno(err_of(pmudev_open(&pmu, 0, PMUDEV_OPEN_UNBOUND)), EINVAL,
		  "open: -EINVAL for UNBOUND with a CPU");
	tap_errno(err_of(pmudev_open(&pmu, 0, PMUDEV_OPEN_FOLLOW)), EINVAL,
		  "open: -EINVAL for FOLLOW with a CPU");
	tap_errno(err_of(pmudev_open(&pmu, PMUDEV_CPU_ANY,
				     PMUDEV_OPEN_FOLLOW | PMUDEV_OPEN_UNBOUND)), EINVAL,
		  "open: -EINVAL for FOLLOW with UNBOUND");
	tap_check(affinity_is(&start_affinity), "open: failures leave the affinity alone",
		  "%s", "");
}

/* An owned CPU refuses CPU mode, and task mode does not care. */
static void test_open_busy(void)
{
	struct pmudev *first, *other, *task;
	int ret, a = sched_getcpu();

	ret = pmudev_open(&first, a, PMUDEV_OPEN_NO_PIN);
	if (!tap_errno(err_of(ret), 0, "busy: first open, the caller's CPU, not pinned"))
		return;
	ret = pmudev_open(&other, a, 0);
	tap_errno(err_of(ret), EBUSY, "busy: -EBUSY for the owned CPU asked by number");
	if (!ret)
		pmudev_close(other);
	ret = pmudev_open(&task, PMUDEV_CPU_ANY, 0);
	tap_errno(err_of(ret), 0, "busy: task mode opens while a CPU is owned");
	if (!ret)
		pmudev_close(task);
	pmudev_close(first);
	tap_check(affinity_is(&start_affinity), "busy: the affinity is untouched", "%s", "");
}

/* Pinning nests: each close restores what its open found. */
static void test_open_nested(void)
{
	struct pmudev *outer, *inner;
	cpu_set_t outer_pin;
	int ret;

	if (ncpus == 1)
		return;
	ret = pmudev_open(&outer, 0, 0);
	if (!tap_errno(err_of(ret), 0, "nested: open CPU 0"))
		return;
	CPU_ZERO(&outer_pin);
	CPU_SET(pmudev_cpu(outer), &outer_pin);
	ret = pmudev_open(&inner, pmudev_cpu(outer) ? 0 : 1, 0);
	if (tap_errno(err_of(ret), 0, "nested: open another CPU by number")) {
		tap_check(pinned_to(pmudev_cpu(inner)), "nested: pinned to the second CPU",
			  "on %d", sched_getcpu());
		pmudev_close(inner);
		tap_check(affinity_is(&outer_pin),
			  "nested: closing the second restores the first's pinning", "%s", "");
	}
	pmudev_close(outer);
	tap_check(affinity_is(&start_affinity), "nested: closing both restores the affinity",
		  "%s", "");
}

/* ---- the driver operations ---- */

static void test_unbound(void)
{
	struct armpmu_counts counts;
	struct armpmu_cpu_status st;
	struct pmudev_regions *regions;
	struct pmudev *pmu;
	int ret;

	ret = pmudev_open(&pmu, PMUDEV_CPU_ANY, PMUDEV_OPEN_UNBOUND);
	if (!tap_errno(err_of(ret), 0, "unbound: open"))
		return;
	tap_check(pmudev_cpu(pmu) == -1 && pmudev_info(pmu) &&
		  pmudev_info(pmu)->num_counters == board->num_counters &&
		  affinity_is(&start_affinity),
		  "unbound: no CPU, the caller's CPU's info, no pinning", "cpu %d",
		  pmudev_cpu(pmu));
	tap_errno(err_of(pmudev_select(pmu, 0)), EBADFD, "unbound: select gives -EBADFD");
	tap_errno(err_of(pmudev_set_event(pmu, 0x11, 0)), EBADFD,
		  "unbound: set_event gives -EBADFD");
	tap_errno(err_of(pmudev_set_divider(pmu, true)), EBADFD,
		  "unbound: set_divider gives -EBADFD");
	tap_errno(err_of(pmudev_set_value(pmu, 0, 1)), EBADFD,
		  "unbound: set_value gives -EBADFD");
	tap_errno(err_of(pmudev_set_cycle_filter(pmu, 0)), EBADFD,
		  "unbound: set_cycle_filter gives -EBADFD");
	tap_errno(err_of(pmudev_reset(pmu)), EBADFD, "unbound: reset gives -EBADFD");
	tap_errno(err_of(pmudev_start(pmu)), EBADFD, "unbound: start gives -EBADFD");
	tap_errno(err_of(pmudev_stop(pmu)), EBADFD, "unbound: stop gives -EBADFD");
	tap_errno(err_of(pmudev_read(pmu, &counts)), EBADFD, "unbound: read gives -EBADFD");
	tap_errno(err_of(pmudev_add_event(pmu, "cycles")), EBADFD,
		  "unbound: add_event gives -EBADFD");
	tap_errno(err_of(pmudev_regions_new(pmu, &regions)), EBADFD,
		  "unbound: regions_new gives -EBADFD");
	tap_check(!pmudev_counter_name(pmu, ARMPMU_CYCLE_COUNTER),
		  "unbound: no counter names", "%s", "");
	/* Nothing above may have bound the file: CPU 0 is still free. */
	ret = pmudev_cpu_status(pmu, 0, &st);
	tap_check(!ret && !(st.flags & ARMPMU_CPU_OWNED),
		  "unbound: the refused calls bound nothing", "%s, flags %#x",
		  tap_errname(err_of(ret)), st.flags);
	tap_errno(err_of(pmudev_attach(pmu, -1, 0)), EINVAL, "attach: -EINVAL for tid -1");
	tap_errno(err_of(pmudev_attach(pmu, 0, 1U << 7)), EINVAL,
		  "attach: -EINVAL for an undefined flag");
	tap_errno(err_of(pmudev_attach(pmu, 0x3fffffff, 0)), ESRCH,
		  "attach: -ESRCH for no such thread");
	tap_errno(err_of(pmudev_attach(pmu, 0, PMUDEV_ATTACH_FOLLOW)), 0,
		  "attach: the calling thread, with FOLLOW");
	tap_errno(err_of(pmudev_attach(pmu, 0, 0)), EALREADY, "attach: -EALREADY a second time");
	tap_errno(err_of(pmudev_select(pmu, 0)), 0, "attach: counter calls work after it");
	pmudev_close(pmu);
	ret = pmudev_open(&pmu, PMUDEV_CPU_ANY, 0);
	if (tap_errno(err_of(ret), 0, "attach: open task mode")) {
		tap_errno(err_of(pmudev_attach(pmu, 0, 0)), EALREADY,
			  "attach: -EALREADY on a handle already in task mode");
		pmudev_close(pmu);
	}
}

static void *follow_worker(void *arg)
{
	loop_n(*(unsigned long *)arg);
	return NULL;
}

/*
 * PMUDEV_OPEN_FOLLOW: a thread created after the open is counted into the
 * same counts; complete counts have coverage 1.
 */
static void test_follow(void)
{
	unsigned long trips = 4 * SPIN;
	struct armpmu_counts c;
	struct pmudev *pmu;
	pthread_t t;
	int ev, ret;

	ret = pmudev_open(&pmu, PMUDEV_CPU_ANY, PMUDEV_OPEN_FOLLOW);
	if (!tap_errno(err_of(ret), 0, "follow: open with PMUDEV_OPEN_FOLLOW"))
		return;
	ev = pmudev_add_event(pmu, icount ? "instructions:u" : "CPU_CYCLES:u");
	ret = ev < 0 ? ev : pmudev_start(pmu);
	if (!ret && !pthread_create(&t, NULL, follow_worker, &trips))
		pthread_join(t, NULL);
	ret = ret ? ret : pmudev_stop(pmu);
	ret = ret ? ret : pmudev_read(pmu, &c);
	tap_note("follow: %llu with a thread of %lu trips, enabled %llu ns, running %llu ns",
		 ret ? 0ULL : (unsigned long long)c.events[ev], trips,
		 ret ? 0ULL : (unsigned long long)c.time_enabled,
		 ret ? 0ULL : (unsigned long long)c.time_running);
	tap_check(!ret && c.events[ev] >= (icount ? LOOP_INSNS_PER_ITER * trips : 1),
		  "follow: the new thread's loop is counted",
		  "%s: %llu", tap_errname(err_of(ret)), ret ? 0ULL : (unsigned long long)c.events[ev]);
	tap_check(!ret && c.time_enabled > 0 && pmudev_coverage(&c) == 1.0 &&
		  !(c.flags & ARMPMU_COUNTS_INCOMPLETE),
		  "coverage: complete counts, time_enabled > 0, pmudev_coverage() 1", "%s",
		  tap_errname(err_of(ret)));
	pmudev_close(pmu);
}

static void test_operations(void)
{
	struct armpmu_counts a, b;
	struct pmudev *pmu;
	unsigned int n, top;
	uint32_t bits;
	int ret;

	ret = pmudev_open(&pmu, PMUDEV_CPU_ANY, 0);
	if (!tap_errno(err_of(ret), 0, "operations: open"))
		return;
	n = pmudev_info(pmu)->num_counters;
	bits = pmudev_info(pmu)->event_bits;
	top = n - 1;
	tap_errno(err_of(pmudev_select(pmu, top)), 0, "select: the last counter");
	tap_errno(err_of(pmudev_select(pmu, n)), EINVAL, "select: -EINVAL past the last");
	tap_errno(err_of(pmudev_set_event(pmu, 0x11, 0)), 0, "set_event: CPU_CYCLES");
	tap_errno(err_of(pmudev_set_event(pmu, 0x11, 1U << 5)), EINVAL,
		  "set_event: -EINVAL for an undefined flag");
	tap_errno(err_of(pmudev_set_event(pmu, 1U << bits, 0)), EINVAL,
		  "set_event: -EINVAL for a number wider than event_bits");
	tap_errno(err_of(pmudev_set_divider(pmu, true)), 0, "set_divider: on");
	tap_check(!strcmp(pmudev_counter_name(pmu, ARMPMU_CYCLE_COUNTER), "cycles/64"),
		  "set_divider: the cycle counter is named cycles/64", "got %s",
		  pmudev_counter_name(pmu, ARMPMU_CYCLE_COUNTER));
	tap_errno(err_of(pmudev_set_divider(pmu, false)), 0, "set_divider: off");
	tap_errno(err_of(pmudev_set_cycle_filter(pmu, ARMPMU_EXCLUDE_KERNEL)), 0,
		  "set_cycle_filter: user mode only");
	tap_check(!strcmp(pmudev_counter_name(pmu, ARMPMU_CYCLE_COUNTER), "cycles:u"),
		  "set_cycle_filter: the cycle counter is named cycles:u", "got %s",
		  pmudev_counter_name(pmu, ARMPMU_CYCLE_COUNTER));
	tap_errno(err_of(pmudev_set_cycle_filter(pmu, 1U << 4)), EINVAL,
		  "set_cycle_filter: -EINVAL for an undefined flag");
	tap_errno(err_of(pmudev_set_cycle_filter(pmu, 0)), 0, "set_cycle_filter: both modes");

	tap_errno(err_of(pmudev_set_value(pmu, top, 0xfffffff0ULL)), 0,
		  "set_value: an event counter");
	tap_errno(err_of(pmudev_set_value(pmu, ARMPMU_CYCLE_COUNTER, 0xfffffff0ULL)), 0,
		  "set_value: the cycle counter");
	tap_errno(err_of(pmudev_set_value(pmu, n, 1)), EINVAL,
		  "set_value: -EINVAL for a counter that does not exist");
	ret = pmudev_read(pmu, &a);
	tap_check(!ret && a.events[top] == 0xfffffff0ULL && a.cycles == 0xfffffff0ULL &&
		  !(a.flags & ARMPMU_COUNTS_RUNNING) && a.nr == n,
		  "read: the values set, stopped, nr == num_counters",
		  "%s: events %#llx cycles %#llx flags %#x nr %u", tap_errname(err_of(ret)),
		  (unsigned long long)a.events[top], (unsigned long long)a.cycles, a.flags, a.nr);

	tap_errno(err_of(pmudev_start(pmu)), 0, "start");
	loop_n(SPIN);
	pmudev_read(pmu, &a);
	loop_n(SPIN);
	ret = pmudev_read(pmu, &b);
	tap_check(!ret && (a.flags & ARMPMU_COUNTS_RUNNING) && b.cycles > a.cycles &&
		  b.events[top] > a.events[top],
		  "read while running: RUNNING, both counters grow",
		  "%s: flags %#x cycles %llu -> %llu events %llu -> %llu",
		  tap_errname(err_of(ret)), a.flags, (unsigned long long)a.cycles,
		  (unsigned long long)b.cycles, (unsigned long long)a.events[top],
		  (unsigned long long)b.events[top]);
	tap_check(a.cycles > 0xffffffffULL && a.events[top] > 0xffffffffULL,
		  "read: counts go past 32 bits (64-bit values reach the caller)",
		  "cycles %#llx events %#llx", (unsigned long long)a.cycles,
		  (unsigned long long)a.events[top]);
	tap_errno(err_of(pmudev_set_event(pmu, 0x11, 0)), EBUSY,
		  "set_event: -EBUSY while counting");
	tap_errno(err_of(pmudev_set_divider(pmu, true)), EBUSY,
		  "set_divider: -EBUSY while counting");
	tap_errno(err_of(pmudev_set_value(pmu, top, 0)), EBUSY,
		  "set_value: -EBUSY while counting");
	tap_errno(err_of(pmudev_set_cycle_filter(pmu, 0)), EBUSY,
		  "set_cycle_filter: -EBUSY while counting");
	tap_errno(err_of(pmudev_add_event(pmu, "CPU_CYCLES")), EBUSY,
		  "add_event: -EBUSY while counting");
	tap_errno(err_of(pmudev_stop(pmu)), 0, "stop");
	pmudev_read(pmu, &a);
	loop_n(SPIN);
	pmudev_read(pmu, &b);
	tap_check(!(a.flags & ARMPMU_COUNTS_RUNNING) && a.cycles == b.cycles &&
		  a.events[top] == b.events[top], "stop: the counts stand still",
		  "flags %#x cycles %llu -> %llu", a.flags, (unsigned long long)a.cycles,
		  (unsigned long long)b.cycles);
	tap_errno(err_of(pmudev_reset(pmu)), 0, "reset");
	ret = pmudev_read(pmu, &a);
	tap_check(!ret && a.cycles == 0 && a.events[top] == 0, "reset: every count is zero",
		  "cycles %llu events %llu", (unsigned long long)a.cycles,
		  (unsigned long long)a.events[top]);
	pmudev_close(pmu);
}

static void test_strerror(void)
{
	static const int errs[] = { ENOENT, EACCES, EBUSY, ENOSPC, EOPNOTSUPP, ERANGE,
				    EALREADY, EBADFD, ECANCELED, ESRCH, EINVAL };
	bool ok = true;

	for (size_t i = 0; i < sizeof(errs) / sizeof(errs[0]); i++)
		ok &= pmudev_strerror(-errs[i]) && *pmudev_strerror(-errs[i]);
	tap_check(ok, "strerror: a message for every error the library gives", "%s", "");
	tap_check(!strcmp(pmudev_strerror(-EINVAL), strerror(EINVAL)),
		  "strerror: others are the C library's", "got %s", pmudev_strerror(-EINVAL));
}

/* ---- events ---- */

static bool implemented(const struct armpmu_info *info, uint32_t number)
{
	return !(info->flags & ARMPMU_INFO_EVENTS_KNOWN) ||
	       (info->common_events >> number & 1);
}

static void test_event_names(struct pmudev *pmu)
{
	const struct armpmu_info *info = pmudev_info(pmu);
	struct pmudev_event ev, ev2;
	char msg[160], near[80];
	int ret;

	ret = pmudev_event_parse("CPU_CYCLES", info, &ev);
	tap_check(!ret && ev.number == 0x11 && ev.flags == 0,
		  "parse: CPU_CYCLES is 0x11, both modes for root", "%s: %#x flags %#x",
		  tap_errname(err_of(ret)), ev.number, ev.flags);
	ret = pmudev_event_parse("cpu_cycles:u", info, &ev2);
	tap_check(!ret && ev2.number == 0x11 && ev2.flags == ARMPMU_EXCLUDE_KERNEL,
		  "parse: lowercase with :u", "%s: %#x flags %#x", tap_errname(err_of(ret)),
		  ev2.number, ev2.flags);
	ret = pmudev_event_parse("r11:k", info, &ev);
	tap_check(!ret && ev.number == 0x11 && ev.flags == ARMPMU_EXCLUDE_USER,
		  "parse: raw r11 with :k", "%s: %#x flags %#x", tap_errname(err_of(ret)),
		  ev.number, ev.flags);
	ret = pmudev_event_parse("0x11:uk", info, &ev);
	tap_check(!ret && ev.number == 0x11 && ev.flags == 0, "parse: raw 0x11 with :uk",
		  "%s: %#x flags %#x", tap_errname(err_of(ret)), ev.number, ev.flags);
	ret = pmudev_event_parse("cycles", info, &ev);
	tap_check(!ret && ev.number == 0x11, "parse: the alias cycles is CPU_CYCLES",
		  "%s: %#x", tap_errname(err_of(ret)), ev.number);
	ret = pmudev_event_parse("INSTRUCTIONS", info, &ev);
	tap_errno(err_of(ret), implemented(info, 0x08) ? 0 : ENOENT,
		  "parse: INSTRUCTIONS as the core reports INST_RETIRED");
	tap_errno(err_of(pmudev_event_parse("cycles:x", info, &ev)), EINVAL,
		  "parse: -EINVAL for modifier :x");
	tap_errno(err_of(pmudev_event_parse("cycles:uu", info, &ev)), EINVAL,
		  "parse: -EINVAL for modifier :uu");
	tap_errno(err_of(pmudev_event_parse("cycles:", info, &ev)), EINVAL,
		  "parse: -EINVAL for an empty modifier");
	tap_errno(err_of(pmudev_event_parse("0x1g", info, &ev)), EINVAL,
		  "parse: -EINVAL for a bad number");
	snprintf(msg, sizeof(msg), "0x%x", 1U << info->event_bits);
	tap_errno(err_of(pmudev_event_parse(msg, info, &ev)), ERANGE,
		  "parse: -ERANGE for a number wider than the core's event_bits");

	ret = pmudev_event_error("INST_RETIRD", info, msg, sizeof(msg));
	tap_check(ret == -EINVAL && strstr(msg, "INST_RETIRED"),
		  "event_error: an unknown name suggests the closest", "%d: %s", ret, msg);
	ret = pmudev_event_suggest("cpu-cycle", near, sizeof(near), 2);
	tap_check(ret >= 1 && !strncmp(near, "CPU_CYCLES", 10),
		  "event_suggest: the closest name first", "%d: %s", ret, near);
	ret = pmudev_event_error("cycles:x", info, msg, sizeof(msg));
	tap_check(ret == -EINVAL && strstr(msg, "modifier"), "event_error: a bad modifier",
		  "%d: %s", ret, msg);
	tap_check(pmudev_event_error("r11", info, msg, sizeof(msg)) == 0 && !*msg,
		  "event_error: nothing for a valid spec", "%s", msg);
	tap_check(!strcmp(pmudev_event_name(0x08), "INST_RETIRED") &&
		  pmudev_event_description(0x08) && !pmudev_event_name(0x40) &&
		  !pmudev_event_description(0x40),
		  "event_name, event_description: common events only", "%s", "");

	if (info->flags & ARMPMU_INFO_EVENTS_KNOWN) {
		/* QEMU leaves most events out; find one the core says it lacks. */
		uint32_t missing = 0x01;

		while (missing < 0x40 && implemented(info, missing))
			missing++;
		snprintf(near, sizeof(near), "%s", pmudev_event_name(missing));
		ret = pmudev_event_parse(near, info, &ev);
		tap_errno(err_of(ret), ENOENT,
			  "parse: -ENOENT for an event the core reports unimplemented");
		ret = pmudev_event_error(near, info, msg, sizeof(msg));
		tap_check(ret == -ENOENT && strstr(msg, "not implemented"),
			  "event_error: says the event is not implemented", "%s", msg);
		tap_note("unimplemented event tried: %s; common_events %#llx", near,
			 (unsigned long long)info->common_events);
		tap_errno(err_of(pmudev_add_event(pmu, near)), ENOENT,
			  "add_event: -ENOENT for it, before the driver sees it");
		pmudev_select(pmu, 0);
		tap_errno(err_of(pmudev_set_event(pmu, missing, 0)), ENOENT,
			  "set_event: the driver's -ENOENT for it passes through");
	} else {
		tap_errno(err_of(pmudev_event_parse("L1D_CACHE_REFILL", info, &ev)), 0,
			  "parse: any ARMv7 event where the core lists none");
		tap_errno(err_of(pmudev_event_parse("BR_RETIRED", info, &ev)), ENOENT,
			  "parse: -ENOENT for an ARMv8 name on an ARMv7 core");
		tap_errno(err_of(pmudev_event_parse("0x21", info, &ev)), 0,
			  "parse: raw numbers past ARMv7's common events are accepted");
	}
}

static void test_add_event(void)
{
	const struct armpmu_info *info;
	struct pmudev *pmu;
	unsigned int n, i;
	bool ok = true;
	int ret;

	ret = pmudev_open(&pmu, PMUDEV_CPU_ANY, 0);
	if (!tap_errno(err_of(ret), 0, "events: open"))
		return;
	info = pmudev_info(pmu);
	n = info->num_counters;
	test_event_names(pmu);

	ret = pmudev_add_event(pmu, "cycles:u");
	tap_check(ret == ARMPMU_CYCLE_COUNTER &&
		  !strcmp(pmudev_counter_name(pmu, ret), "cycles:u"),
		  "add_event: cycles:u is the cycle counter, named so", "got %d", ret);
	ret = pmudev_add_event(pmu, "CPU_CYCLES");
	tap_check(ret == (int)n - 1 && !strcmp(pmudev_counter_name(pmu, n - 1), "CPU_CYCLES"),
		  "add_event: CPU_CYCLES takes the highest counter", "got %d", ret);
	for (i = 1; i < n && ok; i++) {
		ret = pmudev_add_event(pmu, i % 2 ? "r11" : "sw_incr:u");
		ok = ret == (int)(n - 1 - i);
	}
	tap_check(ok, "add_event: the next counters, highest first", "counter %u got %d",
		  i, ret);
	tap_check(pmudev_counter_name(pmu, n - 2) && !strcmp(pmudev_counter_name(pmu, n - 2), "r11"),
		  "counter_name: the spec as given", "got %s", pmudev_counter_name(pmu, n - 2));
	tap_errno(err_of(pmudev_add_event(pmu, "CPU_CYCLES")), ENOSPC,
		  "add_event: -ENOSPC when every counter is taken");
	ret = pmudev_add_event(pmu, "cycles");
	tap_check(ret == ARMPMU_CYCLE_COUNTER &&
		  !strcmp(pmudev_counter_name(pmu, ret), "cycles"),
		  "add_event: cycles still works, needing no event counter", "got %d", ret);
	tap_errno(err_of(pmudev_add_event(pmu, "NO_SUCH_EVENT")), EINVAL,
		  "add_event: -EINVAL for an unknown name");
	tap_check(!pmudev_counter_name(pmu, 40), "counter_name: NULL past the counters",
		  "%s", "");
	pmudev_close(pmu);
}

/* ---- regions ---- */

static __attribute__((noinline)) int measure(struct pmudev_regions *regions, int id,
					     unsigned long n)
{
	int err = pmudev_region_begin(regions, id);

	loop_n(n);
	return err ? err : pmudev_region_end(regions, id);
}

static char *print_to_string(struct pmudev_regions *regions, enum pmudev_format format,
			     int *ret)
{
	char *text = NULL;
	size_t size;
	FILE *f = open_memstream(&text, &size);

	if (!f) {
		*ret = -errno;
		return NULL;
	}
	*ret = pmudev_regions_print(regions, f, format);
	fclose(f);
	return text;
}

static void test_region_output(struct pmudev_regions *regions, int id)
{
	struct pmudev_region_counts c;
	char want[96], *text;
	int ret;

	pmudev_region_read(regions, id, &c);
	text = print_to_string(regions, PMUDEV_FORMAT_TABLE, &ret);
	snprintf(want, sizeof(want), "%llu", (unsigned long long)c.cycles);
	tap_check(!ret && text && !strncmp(text, "region", 6) && strstr(text, "outer") &&
		  strstr(text, "CPU_CYCLES") && strstr(text, want),
		  "regions_print: a table with the regions, counters and counts",
		  "%s:\n%s", tap_errname(err_of(ret)), text ? text : "");
	if (text)
		tap_note("table:\n%s", text);
	free(text);
	text = print_to_string(regions, PMUDEV_FORMAT_JSON, &ret);
	snprintf(want, sizeof(want), "\"calls\": %llu", (unsigned long long)c.calls);
	tap_check(!ret && text && text[0] == '{' && strstr(text, "\"name\": \"outer\"") &&
		  strstr(text, want) && !strcmp(text + strlen(text) - 3, "]}\n"),
		  "regions_print: one JSON object with the same counts",
		  "%s:\n%s", tap_errname(err_of(ret)), text ? text : "");
	free(text);
	text = print_to_string(regions, (enum pmudev_format)7, &ret);
	tap_errno(err_of(ret), EINVAL, "regions_print: -EINVAL for an unknown format");
	free(text);
}

static void test_regions(void)
{
	struct pmudev_region_counts outer, inner, once;
	struct pmudev_regions *regions, *second;
	struct armpmu_counts counts;
	struct pmudev *pmu;
	int ret, o, in, ev;

	ret = pmudev_open(&pmu, PMUDEV_CPU_ANY, 0);
	if (!tap_errno(err_of(ret), 0, "regions: open"))
		return;
	ev = pmudev_add_event(pmu, "CPU_CYCLES");
	ret = pmudev_regions_new(pmu, &regions);
	if (!tap_errno(err_of(ret), 0, "regions_new: starts counting")) {
		pmudev_close(pmu);
		return;
	}
	tap_errno(err_of(pmudev_regions_new(pmu, &second)), EBUSY,
		  "regions_new: -EBUSY for a second set on one handle");
	tap_errno(err_of(pmudev_add_event(pmu, "CPU_CYCLES")), EBUSY,
		  "add_event: -EBUSY once regions count");
	o = pmudev_region(regions, "outer");
	in = pmudev_region(regions, "inner");
	tap_check(o == 0 && in == 1 && pmudev_region(regions, "outer") == 0,
		  "region: ids in creation order, the same name the same id",
		  "outer %d inner %d", o, in);
	tap_errno(err_of(pmudev_region(regions, "")), EINVAL, "region: -EINVAL for no name");
	tap_errno(err_of(pmudev_region_begin(regions, 7)), EINVAL,
		  "region_begin: -EINVAL for an unknown id");
	tap_errno(err_of(pmudev_region_end(regions, o)), EINVAL,
		  "region_end: -EINVAL for a region not begun");
	tap_errno(err_of(measure(regions, o, SPIN)), 0, "region: begin and end around a loop");
	pmudev_region_read(regions, o, &once);
	tap_check(once.calls == 1 && once.cycles > 0 && once.events[ev] > 0,
		  "region_read: one call, cycles and CPU_CYCLES counted",
		  "calls %llu cycles %llu events %llu", (unsigned long long)once.calls,
		  (unsigned long long)once.cycles, (unsigned long long)once.events[ev]);

	/* Nested: outer holds inner, both accumulate. */
	ret = pmudev_region_begin(regions, o);
	tap_errno(err_of(pmudev_region_begin(regions, o)), EALREADY,
		  "region_begin: -EALREADY for an open region");
	ret |= measure(regions, in, SPIN);
	loop_n(SPIN);
	ret |= pmudev_region_end(regions, o);
	tap_errno(err_of(ret), 0, "region: nested begin/end");
	pmudev_region_read(regions, o, &outer);
	pmudev_region_read(regions, in, &inner);
	tap_check(outer.calls == 2 && inner.calls == 1 && outer.cycles >= once.cycles + inner.cycles &&
		  outer.events[ev] >= once.events[ev] + inner.events[ev],
		  "region: the outer region holds the inner and accumulates over calls",
		  "outer %llu calls %llu cycles, inner %llu calls %llu cycles, first %llu",
		  (unsigned long long)outer.calls, (unsigned long long)outer.cycles,
		  (unsigned long long)inner.calls, (unsigned long long)inner.cycles,
		  (unsigned long long)once.cycles);
	/* Overlapping, ended in the order begun. */
	ret = pmudev_region_begin(regions, o);
	ret |= pmudev_region_begin(regions, in);
	ret |= pmudev_region_end(regions, o);
	ret |= pmudev_region_end(regions, in);
	tap_errno(err_of(ret), 0, "region: overlapping regions end in any order");
	tap_errno(err_of(pmudev_region_read(regions, 9, &outer)), EINVAL,
		  "region_read: -EINVAL for an unknown id");
	test_region_output(regions, o);
	pmudev_regions_free(regions);
	ret = pmudev_read(pmu, &counts);
	tap_check(!ret && !(counts.flags & ARMPMU_COUNTS_RUNNING),
		  "regions_free: counting stops", "%s flags %#x", tap_errname(err_of(ret)),
		  counts.flags);
	ret = pmudev_regions_new(pmu, &regions);
	tap_errno(err_of(ret), 0, "regions_new: again after regions_free");
	if (!ret)
		pmudev_regions_free(regions);
	pmudev_regions_free(NULL);
	pmudev_close(pmu);
}

/* The shape of measure() without the loop, as a program writes an empty region. */
static __attribute__((noinline)) int empty(struct pmudev_regions *regions, int id)
{
	int err = pmudev_region_begin(regions, id);

	return err ? err : pmudev_region_end(regions, id);
}

#define REPS 3
#define SIZES 3

struct calibrated_counts {
	struct pmudev_region_counts empty, loop[SIZES], raw_empty, raw_loop[SIZES];
	struct pmudev_region_counts overhead;
	bool clamped;
};

/* REPS calls of an empty region and of loop_n(n) for each n. */
static int run_calibrated(struct pmudev_regions *regions, const unsigned long *n,
			  struct calibrated_counts *got)
{
	int e = pmudev_region(regions, "empty"), id[SIZES], ret = 0;
	char name[32];

	for (int r = 0; r < REPS; r++)
		ret |= empty(regions, e);
	for (int i = 0; i < SIZES; i++) {
		snprintf(name, sizeof(name), "n=%lu", n[i]);
		id[i] = pmudev_region(regions, name);
		for (int r = 0; r < REPS; r++)
			ret |= measure(regions, id[i], n[i]);
	}
	pmudev_regions_overhead(regions, &got->overhead);
	pmudev_region_read(regions, e, &got->empty);
	got->clamped = pmudev_region_clamped(regions, e);
	for (int i = 0; i < SIZES; i++) {
		pmudev_region_read(regions, id[i], &got->loop[i]);
		got->clamped |= pmudev_region_clamped(regions, id[i]);
	}
	pmudev_regions_set_calibration(regions, false);
	pmudev_region_read(regions, e, &got->raw_empty);
	for (int i = 0; i < SIZES; i++)
		pmudev_region_read(regions, id[i], &got->raw_loop[i]);
	pmudev_regions_set_calibration(regions, true);
	return ret;
}

static unsigned long long per_call(uint64_t total)
{
	return total / REPS;
}

/*
 * icount: calibration takes an empty region to exactly 0 user instructions
 * and cycles, and a region around loop_n(n) to LOOP_INSNS_PER_ITER * n
 * plus what calling loop_n(0) retires, the same for every n. Off, the raw
 * counts come back, larger by exactly the reported overhead per call.
 */
static void test_calibration_exact(int inst, const struct calibrated_counts *c,
				   const unsigned long *n)
{
	const struct pmudev_region_counts *o = &c->overhead;
	bool exact = true, raw = true;
	uint64_t call = c->loop[0].events[inst];

	tap_check(c->empty.events[inst] == 0 && c->empty.cycles == 0,
		  "icount calibration: an empty region counts 0 user instructions and cycles",
		  "instructions:u %llu, cycles:u %llu over %d calls",
		  (unsigned long long)c->empty.events[inst],
		  (unsigned long long)c->empty.cycles, REPS);
	for (int i = 0; i < SIZES; i++) {
		exact &= c->loop[i].events[inst] - call == REPS * LOOP_INSNS_PER_ITER * n[i];
		exact &= c->loop[i].cycles == c->loop[i].events[inst];
		tap_note("loop_n(%lu): %llu user instructions a call, %llu more than 2n",
			 n[i], per_call(c->loop[i].events[inst]),
			 per_call(c->loop[i].events[inst]) - LOOP_INSNS_PER_ITER * n[i]);
	}
	tap_check(exact && call % REPS == 0 && call / REPS < 16,
		  "icount calibration: loop_n(n) counts exactly 2n + the call of loop_n(0)",
		  "loop_n(0) %llu a call", per_call(call));
	raw &= c->raw_empty.events[inst] == REPS * o->events[inst];
	raw &= c->raw_empty.cycles == REPS * o->cycles;
	for (int i = 0; i < SIZES; i++)
		raw &= c->raw_loop[i].events[inst] - c->loop[i].events[inst] ==
		       REPS * o->events[inst];
	tap_check(raw && o->events[inst] == o->cycles,
		  "icount calibration: off, each call counts exactly the reported overhead more",
		  "overhead %llu instructions, %llu cycles; raw empty %llu",
		  (unsigned long long)o->events[inst], (unsigned long long)o->cycles,
		  per_call(c->raw_empty.events[inst]));
}

/*
 * Without icount cycles are host time: only orders of magnitude hold, so
 * loop_n(50000) against the smaller loops, on both cycle counts.
 */
static bool bigger_counts_more(const struct pmudev_region_counts *loop, int inst)
{
	return loop[2].cycles > loop[1].cycles && loop[2].cycles > loop[0].cycles &&
	       loop[2].events[inst] > loop[1].events[inst] &&
	       loop[2].events[inst] > loop[0].events[inst];
}

static void test_calibration_inexact(int inst, const struct calibrated_counts *c)
{
	tap_check(c->overhead.cycles > 0 && c->overhead.events[inst] > 0,
		  "calibration: the reported overheads are positive",
		  "%llu cycles, %llu CPU_CYCLES over %llu pairs",
		  (unsigned long long)c->overhead.cycles,
		  (unsigned long long)c->overhead.events[inst],
		  (unsigned long long)c->overhead.calls);
	tap_check(bigger_counts_more(c->loop, inst) && bigger_counts_more(c->raw_loop, inst),
		  "calibration: a bigger loop counts more, calibrated and raw",
		  "cycles %llu %llu %llu", (unsigned long long)c->loop[0].cycles,
		  (unsigned long long)c->loop[1].cycles, (unsigned long long)c->loop[2].cycles);
	tap_check(c->loop[2].cycles <= c->raw_loop[2].cycles &&
		  c->loop[2].events[inst] <= c->raw_loop[2].events[inst],
		  "calibration: calibrated counts are no more than raw ones", "%s", "");
}

static void test_calibration_task_mode(void);

/* A child spinning in user mode until killed: a busy neighbour on the CPU. */
static pid_t start_neighbour(void)
{
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid == 0)
		for (;;)
			loop_n(1000000);
	return pid;
}

static void stop_neighbour(pid_t pid)
{
	if (pid > 0) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
	}
}

/*
 * Task mode, with a busy process beside the regions on the CPU (all of
 * them, under icount: one): it must add nothing to any count.
 */
static void test_calibration(void)
{
	pid_t neighbour = start_neighbour();

	test_calibration_task_mode();
	stop_neighbour(neighbour);
}

static void test_calibration_task_mode(void)
{
	static const unsigned long n[SIZES] = { 0, 1000, 50000 };
	struct calibrated_counts c;
	struct pmudev_regions *regions;
	struct pmudev *pmu;
	int inst, ret;

	if (pmudev_open(&pmu, PMUDEV_CPU_ANY, 0))
		return (void)tap_check(false, "calibration: open", "%s", "");
	/* INST_RETIRED counts only under icount; CPU_CYCLES everywhere */
	inst = pmudev_add_event(pmu, icount ? "instructions:u" : "CPU_CYCLES:u");
	ret = pmudev_add_event(pmu, "cycles:u");
	if (!tap_check(inst >= 0 && ret == ARMPMU_CYCLE_COUNTER,
		       "calibration: an event counter and cycles:u added", "%d %d", inst, ret) ||
	    !tap_errno(err_of(pmudev_regions_new(pmu, &regions)), 0,
		       "calibration: regions_new calibrates")) {
		pmudev_close(pmu);
		return;
	}
	ret = run_calibrated(regions, n, &c);
	tap_errno(err_of(ret), 0, "calibration: every begin and end succeeds");
	/* without icount a region may honestly count less than the minimum pair */
	tap_check((!icount || !c.clamped) && c.overhead.calls > 0 &&
		  c.raw_empty.cycles >= c.empty.cycles,
		  "calibration: none wrapped; under icount, none clamped",
		  "empty: %llu cycles calibrated, %llu raw", (unsigned long long)c.empty.cycles,
		  (unsigned long long)c.raw_empty.cycles);
	tap_errno(err_of(pmudev_region_clamped(regions, 9)), EINVAL,
		  "region_clamped: -EINVAL for an unknown id");
	tap_note("overhead per pair: %llu cycles:u, %llu %s",
		 (unsigned long long)c.overhead.cycles,
		 (unsigned long long)c.overhead.events[inst], pmudev_counter_name(pmu, inst));
	if (icount)
		test_calibration_exact(inst, &c, n);
	else
		test_calibration_inexact(inst, &c);
	pmudev_regions_free(regions);
	pmudev_close(pmu);
}

/*
 * A region whose thread ran, for part of its time, on a CPU a CPU-mode
 * handle owned: not counted meanwhile, and flagged, never passed off as
 * whole. The thread is pinned to CPU 0 (by the test, not the library).
 */
static void test_region_incomplete(void)
{
	struct pmudev_regions *regions;
	struct pmudev *pmu, *owner;
	int whole, part, ret;
	cpu_set_t cpu0;
	char *table;

	CPU_ZERO(&cpu0);
	CPU_SET(0, &cpu0);
	sched_setaffinity(0, sizeof(cpu0), &cpu0);
	ret = pmudev_open(&pmu, PMUDEV_CPU_ANY, 0);
	ret = ret ? ret : pmudev_add_event(pmu, "CPU_CYCLES:u") < 0;
	ret = ret ? ret : pmudev_regions_new(pmu, &regions);
	if (!tap_errno(err_of(ret), 0, "incomplete: a task-mode handle with regions")) {
		sched_setaffinity(0, sizeof(start_affinity), &start_affinity);
		return;
	}
	whole = pmudev_region(regions, "whole");
	part = pmudev_region(regions, "part");
	measure(regions, whole, SPIN);
	pmudev_region_begin(regions, part);
	loop_n(SPIN);
	ret = pmudev_open(&owner, 0, PMUDEV_OPEN_NO_PIN);
	loop_n(SPIN);
	if (!ret)
		pmudev_close(owner);
	loop_n(SPIN);
	pmudev_region_end(regions, part);
	tap_errno(err_of(ret), 0, "incomplete: root owns CPU 0 for a while (CPU mode)");
	tap_check(pmudev_region_incomplete(regions, part) == 1 &&
		  pmudev_region_incomplete(regions, whole) == 0,
		  "region_incomplete: 1 for the region that ran uncounted, 0 for the other",
		  "part %d, whole %d", pmudev_region_incomplete(regions, part),
		  pmudev_region_incomplete(regions, whole));
	tap_errno(err_of(pmudev_region_incomplete(regions, 9)), EINVAL,
		  "region_incomplete: -EINVAL for an unknown id");
	table = print_to_string(regions, PMUDEV_FORMAT_TABLE, &ret);
	tap_check(table && strstr(table, "\npart!") && strstr(table, "! not counted all its time"),
		  "incomplete: the table marks the region '!' and says why", "%s",
		  table ? table : "(none)");
	free(table);
	table = print_to_string(regions, PMUDEV_FORMAT_JSON, &ret);
	tap_check(table && strstr(table, "\"incomplete\": true") && strstr(table, "\"cpu\": null"),
		  "incomplete: the JSON says \"incomplete\": true (and task mode has no CPU)", "%s",
		  table ? table : "(none)");
	free(table);
	pmudev_regions_free(regions);
	pmudev_close(pmu);
	sched_setaffinity(0, sizeof(start_affinity), &start_affinity);
}

/* ---- other users ---- */

static void lab_child(void)
{
	struct pmudev_region_counts c;
	struct pmudev_regions *regions;
	struct armpmu_cpu_status st;
	struct pmudev_event ev;
	struct pmudev *pmu, *cpu_pmu;
	int ret, cpu, id;

	ret = pmudev_open(&pmu, PMUDEV_CPU_ANY, 0);
	if (!child_errno(ret, 0, "uid 1000: open"))
		return;
	cpu = sched_getcpu();
	child_check(!(pmudev_info(pmu)->flags & ARMPMU_INFO_KERNEL_ALLOWED) &&
		    affinity_is(&start_affinity) && pmudev_cpu(pmu) == -1,
		    "uid 1000: task mode, no kernel mode, not pinned", "flags %#x",
		    pmudev_info(pmu)->flags);
	ret = pmudev_event_parse("CPU_CYCLES", pmudev_info(pmu), &ev);
	child_check(!ret && ev.flags == ARMPMU_EXCLUDE_KERNEL,
		    "uid 1000: no modifier means user mode", "%d flags %#x", ret, ev.flags);
	child_errno(pmudev_add_event(pmu, "CPU_CYCLES:k"), EACCES,
		    "uid 1000: add_event -EACCES for :k");
	child_errno(pmudev_add_event(pmu, "cycles:uk"), EACCES,
		    "uid 1000: add_event -EACCES for cycles:uk");
	ret = pmudev_add_event(pmu, "CPU_CYCLES");
	child_check(ret >= 0 && !strcmp(pmudev_counter_name(pmu, ret), "CPU_CYCLES:u") &&
		    !strcmp(pmudev_counter_name(pmu, ARMPMU_CYCLE_COUNTER), "cycles:u"),
		    "uid 1000: names show the implied :u", "%d", ret);
	child_errno(pmudev_release_cpu(pmu, cpu), EPERM, "uid 1000: release_cpu -EPERM");
	ret = pmudev_cpu_status(pmu, cpu, &st);
	child_check(!ret && !(st.flags & ARMPMU_CPU_OWNED),
		    "uid 1000: task mode owns no CPU", "%d flags %#x", ret, st.flags);
	child_errno(pmudev_open(&cpu_pmu, 0, PMUDEV_OPEN_NO_PIN), EPERM,
		    "uid 1000: CPU mode -EPERM (needs CAP_PERFMON or CAP_SYS_ADMIN)");
	ret = pmudev_regions_new(pmu, &regions);
	if (child_errno(ret, 0, "uid 1000: regions_new")) {
		id = pmudev_region(regions, "loop");
		child_errno(measure(regions, id, SPIN), 0, "uid 1000: a region around a loop");
		pmudev_region_read(regions, id, &c);
		child_check(c.calls == 1 && c.cycles > 0, "uid 1000: the region counts",
			    "calls %llu cycles %llu", (unsigned long long)c.calls,
			    (unsigned long long)c.cycles);
		pmudev_regions_free(regions);
	}
	pmudev_close(pmu);
}

static void guest_child(void)
{
	struct pmudev *pmu;

	child_errno(pmudev_open(&pmu, PMUDEV_CPU_ANY, 0), EACCES,
		    "uid 1001 (not in group armpmu): open -EACCES");
}

static void test_unprivileged(void)
{
	int err = chown(DEV, 0, ARMPMU_GID) ? errno : 0;

	if (!err)
		err = chmod(DEV, 0660) ? errno : 0;
	tap_errno(err, 0, "setup: " DEV " root:armpmu mode 0660");
	run_as(LAB_UID, ARMPMU_GID, lab_child, "uid 1000");
	run_as(GUEST_UID, GUEST_GID, guest_child, "uid 1001");
}

/* ---- threads ---- */

struct worker {
	pthread_barrier_t *barrier;
	int open_err, cpu, region_err;
	struct pmudev_region_counts counts;
};

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct pmudev_regions *regions;
	struct pmudev *pmu = NULL;
	int id;

	w->open_err = pmudev_open(&pmu, PMUDEV_CPU_ANY, 0);
	/* Both hold their handle here at once: each counts its own thread. */
	pthread_barrier_wait(w->barrier);
	if (w->open_err)
		return NULL;
	w->cpu = pmudev_cpu(pmu);
	pmudev_add_event(pmu, "CPU_CYCLES");
	w->region_err = pmudev_regions_new(pmu, &regions);
	if (!w->region_err) {
		id = pmudev_region(regions, "work");
		w->region_err = measure(regions, id, SPIN);
		pmudev_region_read(regions, id, &w->counts);
		pmudev_regions_free(regions);
	}
	pmudev_close(pmu);
	return NULL;
}

static void test_threads(void)
{
	pthread_barrier_t barrier;
	struct worker w[2] = { { .barrier = &barrier }, { .barrier = &barrier } };
	pthread_t t[2];
	int started = 0;

	pthread_barrier_init(&barrier, NULL, 2);
	for (int i = 0; i < 2; i++)
		started += !pthread_create(&t[i], NULL, worker_main, &w[i]);
	if (!tap_check(started == 2, "threads: two threads start", "%d started", started))
		return;
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	pthread_barrier_destroy(&barrier);
	tap_check(!w[0].open_err && !w[1].open_err && w[0].cpu == -1 && w[1].cpu == -1,
		  "threads: two task-mode handles at once, on any CPUs", "errors %d %d, CPUs %d %d",
		  w[0].open_err, w[1].open_err, w[0].cpu, w[1].cpu);
	tap_check(!w[0].region_err && !w[1].region_err && w[0].counts.cycles > 0 &&
		  w[1].counts.cycles > 0, "threads: each counts its own region",
		  "%d %d, cycles %llu %llu", w[0].region_err, w[1].region_err,
		  (unsigned long long)w[0].counts.cycles, (unsigned long long)w[1].counts.cycles);
	tap_check(affinity_is(&start_affinity), "threads: the main thread was never pinned",
		  "%s", "");
}

/* ---- cpu_status and release ---- */

static void test_status_release(void)
{
	struct pmudev *watcher, *owner, *next;
	struct armpmu_cpu_status st;
	struct armpmu_counts counts;
	int ret, cpu;

	if (pmudev_open(&watcher, PMUDEV_CPU_ANY, PMUDEV_OPEN_UNBOUND))
		return (void)tap_check(false, "status: open an unbound handle", "%s", "");
	ret = pmudev_open(&owner, ncpus - 1, 0);
	if (!tap_errno(err_of(ret), 0, "status: open an owner (CPU mode, the last CPU)")) {
		pmudev_close(watcher);
		return;
	}
	cpu = pmudev_cpu(owner);
	ret = pmudev_cpu_status(watcher, cpu, &st);
	tap_check(!ret && (st.flags & ARMPMU_CPU_ONLINE) && (st.flags & ARMPMU_CPU_USABLE) &&
		  (st.flags & ARMPMU_CPU_OWNED) && !(st.flags & ARMPMU_CPU_CALLER) &&
		  st.owner_pid == (uint32_t)getpid() && st.owner_uid == 0 &&
		  st.info.num_counters == board->num_counters,
		  "cpu_status: online, usable, owned by this process, with the board's PMU",
		  "%s: flags %#x pid %u uid %u counters %u", tap_errname(err_of(ret)),
		  st.flags, st.owner_pid, st.owner_uid, st.info.num_counters);
	ret = pmudev_cpu_status(owner, cpu, &st);
	tap_check(!ret && (st.flags & ARMPMU_CPU_CALLER), "cpu_status: the owner is the caller",
		  "%s: flags %#x", tap_errname(err_of(ret)), st.flags);
	if (ncpus > 1) {
		ret = pmudev_cpu_status(watcher, cpu ? 0 : 1, &st);
		tap_check(!ret && !(st.flags & ARMPMU_CPU_OWNED),
			  "cpu_status: another CPU is not owned", "flags %#x", st.flags);
	}
	tap_errno(err_of(pmudev_cpu_status(watcher, NO_SUCH_CPU, &st)), EINVAL,
		  "cpu_status: -EINVAL for a CPU that does not exist");

	pmudev_add_event(owner, "CPU_CYCLES");
	pmudev_start(owner);
	tap_errno(err_of(pmudev_release_cpu(watcher, cpu)), 0, "release_cpu: root takes the PMU");
	tap_errno(err_of(pmudev_read(owner, &counts)), ECANCELED,
		  "release_cpu: the released owner's read gives -ECANCELED");
	tap_errno(err_of(pmudev_start(owner)), ECANCELED,
		  "release_cpu: the released owner's start gives -ECANCELED");
	tap_errno(err_of(pmudev_release_cpu(watcher, cpu)), ESRCH,
		  "release_cpu: -ESRCH for a CPU no one owns");
	tap_errno(err_of(pmudev_release_cpu(watcher, NO_SUCH_CPU)), EINVAL,
		  "release_cpu: -EINVAL for a CPU that does not exist");
	ret = pmudev_open(&next, cpu, PMUDEV_OPEN_NO_PIN);
	tap_errno(err_of(ret), 0, "release_cpu: the CPU can be opened again");
	pmudev_close(owner);
	if (!ret) {
		ret = pmudev_cpu_status(watcher, cpu, &st);
		tap_check(!ret && (st.flags & ARMPMU_CPU_OWNED),
			  "release_cpu: closing the released handle keeps the new owner",
			  "flags %#x", st.flags);
		pmudev_close(next);
	}
	pmudev_close(watcher);
	tap_check(affinity_is(&start_affinity), "status: the affinity is restored", "%s", "");
}

static void usage(FILE *f)
{
	fputs("usage: libpmudev-test --cpu cortex-a7|cortex-a15|cortex-a53|cortex-a72|max "
	      "[--icount] [--compat]\n", f);
}

static const struct board *find_board(const char *name)
{
	for (size_t i = 0; i < sizeof(boards) / sizeof(boards[0]); i++)
		if (!strcmp(name, boards[i].name))
			return &boards[i];
	return NULL;
}

/* Sets board, icount and compat; returns -1 to go on, else the exit status. */
static int parse_args(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "cpu", required_argument, NULL, 'c' },
		{ "icount", no_argument, NULL, 'i' },
		{ "compat", no_argument, NULL, 'C' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int opt;

	while ((opt = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		if (opt == 'c') {
			board = find_board(optarg);
		} else if (opt == 'i') {
			icount = true;
		} else if (opt == 'C') {
			compat = true;
		} else {
			usage(opt == 'h' ? stdout : stderr);
			return opt == 'h' ? 0 : 2;
		}
	}
	if (board && optind == argc)
		return -1;
	usage(stderr);
	return 2;
}

int main(int argc, char **argv)
{
	struct utsname u;
	int status = parse_args(argc, argv);

	if (status >= 0)
		return status;
	tap_init();
	ncpus = (unsigned int)sysconf(_SC_NPROCESSORS_ONLN);
	shared = mmap(NULL, sizeof(*shared), PROT_READ | PROT_WRITE,
		      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (shared == MAP_FAILED || sched_getaffinity(0, sizeof(start_affinity),
						      &start_affinity)) {
		perror("libpmudev-test: setup");
		return 1;
	}
	uname(&u);
	tap_note("libpmudev-test on %s%s, %s %s, built as %s, %u CPUs online", board->name,
		 icount ? " (icount)" : "", u.release, u.machine, TEST_BUILD_ARCH, ncpus);

	if (compat)
		tap_check(sizeof(void *) == 4 && !strcmp(u.machine, "aarch64"),
			  "compat: a 32-bit program on a 64-bit kernel", "%zu-byte pointers on %s",
			  sizeof(void *), u.machine);
	test_device_missing();
	test_open_task();
	test_open_specific();
	test_open_busy();
	test_open_nested();
	test_unbound();
	test_follow();
	test_operations();
	test_strerror();
	test_add_event();
	test_regions();
	test_calibration();
	test_region_incomplete();
	test_unprivileged();
	test_threads();
	test_status_release();
	test_kernel_log();
	return tap_done();
}
