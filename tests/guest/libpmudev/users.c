// SPDX-License-Identifier: GPL-2.0
/*
 * libpmudev-test: what the lab's users get: `lab` (group armpmu) counts
 * its own thread in user mode only, `guest` cannot open the device.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "../users.h"
#include "common.h"

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

/* Maps the memory the children write their checks to; false if it cannot. */
bool map_child_checks(void)
{
	shared = mmap(NULL, sizeof(*shared), PROT_READ | PROT_WRITE,
		      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	return shared != MAP_FAILED;
}

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

/* Runs @fn as @as (users.h); replays its checks under @who. */
static void run_as(enum guest_user as, void (*fn)(void), const char *who)
{
	char name[96];
	int status;
	pid_t pid;

	memset(shared, 0, sizeof(*shared));
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		if (!become_user(as))
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
			    "calls %llu cycles %llu", (ull)c.calls,
			    (ull)c.cycles);
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

void test_unprivileged(void)
{
	int err = chown(DEV, 0, ARMPMU_GID) ? errno : 0;

	if (!err)
		err = chmod(DEV, 0660) ? errno : 0;
	tap_errno(err, 0, "setup: " DEV " root:armpmu mode 0660");
	run_as(AS_LAB, lab_child, "uid 1000");
	run_as(AS_GUEST, guest_child, "uid 1001");
}
