// SPDX-License-Identifier: GPL-2.0
/*
 * libpmudev-test: pmudev_cpu_status() describes a CPU and its owner;
 * pmudev_release_cpu(), for root, takes a CPU's PMU back.
 */
#include <errno.h>
#include <stdint.h>
#include <unistd.h>

#include "common.h"

void test_status_release(void)
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
