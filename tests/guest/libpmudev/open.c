// SPDX-License-Identifier: GPL-2.0
/*
 * libpmudev-test: pmudev_open() and pmudev_close() in each mode: task mode,
 * a CPU by number, pinned or not, busy CPUs, nested pinning, and the
 * device missing.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "common.h"

void test_device_missing(void)
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
void test_open_task(void)
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

void test_open_specific(void)
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
void test_open_busy(void)
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
void test_open_nested(void)
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
