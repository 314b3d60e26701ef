// SPDX-License-Identifier: GPL-2.0
/*
 * armpmu-test: CPU_STATUS describes any CPU without binding it, and
 * RELEASE, for root, takes a CPU's PMU back from its owner.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "../checks.h"
#include "common.h"

static int cpu_status(int fd, __u32 cpu, struct armpmu_cpu_status *st)
{
	memset(st, 0, sizeof(*st));
	st->cpu = cpu;
	return ioc(fd, ARMPMU_IOC_CPU_STATUS, st);
}

/* lab, through a file of its own: the rights are the opener's, at open. */
static void release_child(struct child_report *r)
{
	int fd = -1;

	r->err[0] = dev_open(&fd);
	r->err[0] = r->err[0] ? r->err[0] : ioc_u32(fd, ARMPMU_IOC_RELEASE, 0);
	dev_close(&fd);
}

/* CPU_STATUS of CPU 0 through @fd must say it is owned by this process. */
static void check_owned_by_me(int fd, __u32 caller_flag, const char *name)
{
	struct armpmu_cpu_status st;
	__u32 want = ARMPMU_CPU_ONLINE | ARMPMU_CPU_USABLE | ARMPMU_CPU_OWNED | caller_flag;
	int err = cpu_status(fd, 0, &st);

	tap_check(!err && (st.flags & ~ARMPMU_CPU_FOREIGN) == want &&
		  st.owner_pid == (__u32)getpid() && st.owner_uid == 0, name,
		  "%s: flags %#x (want %#x), owner pid %u uid %u (want %d, 0)",
		  tap_errname(err), st.flags, want, st.owner_pid, st.owner_uid,
		  (int)getpid());
}

/* CPU_STATUS describes any CPU without binding; RELEASE takes a PMU back. */
void test_status_release(void)
{
	struct armpmu_cpu_status st;
	struct armpmu_counts c;
	struct armpmu_info info;
	const char *child;
	int watcher, owner, next, err;
	int last = last_possible_cpu();

	pin(0);
	if (dev_open(&watcher)) {
		tap_check(false, "CPU_STATUS: setup", "open: %s", tap_errname(errno));
		return;
	}
	err = cpu_status(watcher, 0, &st);
	tap_check(!err && (st.flags & ~ARMPMU_CPU_FOREIGN) == (ARMPMU_CPU_ONLINE | ARMPMU_CPU_USABLE) &&
		  st.info.cpu == 0 && st.info.num_counters == num_counters &&
		  (!board->part || ((st.info.midr >> 4) & 0xfff) == board->part),
		  "CPU_STATUS: CPU 0 is online, usable, not owned, with the board's PMU",
		  "%s: flags %#x, cpu %u, %u counters, midr %#x", tap_errname(err), st.flags,
		  st.info.cpu, st.info.num_counters, st.info.midr);
	tap_note("CPU_STATUS of CPU 0: flags %#x, foreign counters %#x", st.flags,
		 st.foreign_counters);
	tap_errno(ioc(watcher, ARMPMU_IOC_INFO, &info), 0, "CPU_STATUS did not bind the file");
	tap_check(!(info.flags & ARMPMU_INFO_BOUND), "CPU_STATUS leaves the file unbound",
		  "INFO flags %#x", info.flags);
	tap_errno(cpu_status(watcher, last + 1, &st), EINVAL,
		  "EINVAL: CPU_STATUS of a CPU that does not exist");
	memset(&st, 0, sizeof(st));
	st.reserved[2] = 1;
	tap_errno(ioc(watcher, ARMPMU_IOC_CPU_STATUS, &st), EINVAL,
		  "EINVAL: CPU_STATUS with a reserved field set");
	tap_errno(ioc(watcher, ARMPMU_IOC_CPU_STATUS, unmapped_address()), EFAULT,
		  "EFAULT: CPU_STATUS at an unmapped address");
	tap_errno(ioc_u32(watcher, ARMPMU_IOC_RELEASE, 0), ESRCH,
		  "ESRCH: RELEASE of a CPU nobody owns");
	tap_errno(ioc_u32(watcher, ARMPMU_IOC_RELEASE, last + 1), EINVAL,
		  "EINVAL: RELEASE of a CPU that does not exist");

	if (open_bound(0, &owner)) {
		tap_check(false, "RELEASE: setup", "BIND 0 failed");
		dev_close(&watcher);
		return;
	}
	check_owned_by_me(watcher, 0, "CPU_STATUS names the owner's pid and uid");
	check_owned_by_me(owner, ARMPMU_CPU_CALLER, "CPU_STATUS through the owner says CALLER");
	err = program(owner, 0, ARMPMU_EV_CPU_CYCLES, 0);
	err |= ioc0(owner, ARMPMU_IOC_START);
	err |= cpu_status(watcher, 0, &st);
	tap_check(!err && !(st.foreign_counters & ((1U << 31) | 1U)),
		  "CPU_STATUS: the owner's own counters are not foreign",
		  "%s: foreign counters %#x", tap_errname(err), st.foreign_counters);

	child = run_as_lab(release_child);
	tap_check(!child && report->err[0] == EPERM,
		  "EPERM: RELEASE through a file opened without CAP_SYS_ADMIN",
		  "%s", child ? child : tap_errname(report->err[0]));

	tap_errno(ioc_u32(watcher, ARMPMU_IOC_RELEASE, 0), 0,
		  "RELEASE of a counting owner's CPU, as root");
	tap_errno(read_counts(owner, &c), ECANCELED, "ECANCELED: READ after RELEASE");
	tap_errno(ioc0(owner, ARMPMU_IOC_START), ECANCELED, "ECANCELED: START after RELEASE");
	tap_errno(ioc(owner, ARMPMU_IOC_INFO, &info), ECANCELED, "ECANCELED: INFO after RELEASE");
	tap_errno(ioc_u32(owner, ARMPMU_IOC_BIND, 0), ECANCELED, "ECANCELED: BIND after RELEASE");
	err = cpu_status(owner, 0, &st);
	tap_check(!err && !(st.flags & ARMPMU_CPU_OWNED),
		  "CPU_STATUS through the released file: CPU 0 has no owner",
		  "%s: flags %#x", tap_errname(err), st.flags);

	if (rebind_cpu0("after RELEASE, another file binds the CPU",
			"after RELEASE, the next owner reads all zeros, not running", &next)) {
		/* The released file's close must not touch the next owner. */
		dev_close(&owner);
		check_owned_by_me(next, ARMPMU_CPU_CALLER,
				  "closing the released file leaves the next owner in place");
		err = program(next, 0, ARMPMU_EV_CPU_CYCLES, 0);
		err |= measure_loop(next, SPIN, &c);
		tap_check(!err && (!board->counts || (c.cycles > 0 && c.events[0] > 0)),
			  board->counts ? "the next owner counts after the released file's close" :
					  "the next owner programs, starts and reads after the released file's close",
			  "%s: cycles %llu, events[0] %llu", tap_errname(err),
			  (ull)c.cycles, (ull)c.events[0]);
		dev_close(&next);
	}
	dev_close(&owner);

	if (cpu1_hotplug_missing()) {
		tap_skip("CPU_STATUS of an offline CPU", "%s", cpu1_hotplug_missing());
	} else if (tap_errno(write_file(CPU1_ONLINE, "0"), 0, "status: CPU 1 goes offline")) {
		err = cpu_status(watcher, 1, &st);
		tap_check(!err && (st.flags & (ARMPMU_CPU_ONLINE | ARMPMU_CPU_USABLE)) ==
				  ARMPMU_CPU_USABLE,
			  "CPU_STATUS of an offline CPU: usable, not online",
			  "%s: flags %#x", tap_errname(err), st.flags);
		tap_errno(write_file(CPU1_ONLINE, "1"), 0, "CPU 1 comes back online");
	}
	dev_close(&watcher);
}
