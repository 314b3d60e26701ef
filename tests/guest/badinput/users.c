// SPDX-License-Identifier: GPL-2.0
/*
 * badinput-test: the matrix as root then as lab (a child that numbers its
 * TAP lines after ours), a file whose CPU went offline, and other owners:
 * guest cannot open, lab cannot touch root's CPU.
 */
#include "common.h"

void walk_matrix(void)
{
	walk_pointers();
	walk_reserved();
	walk_flags();
	walk_ranges();
	walk_multiplex();
	walk_enotty();
	walk_read();
	walk_file_ops();
}

/*
 * Runs @fn as @as in a child that numbers its TAP lines after ours, then
 * takes its count. Returns false (after a failed test) if it died.
 */
bool in_child(enum guest_user as, void (*fn)(void))
{
	char name[96];
	int status;
	pid_t pid;

	*shared_tap = tap;
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		if (!become_user(as))
			_exit(100);
		who = as;
		fn();
		*shared_tap = tap;
		fflush(stdout);
		_exit(0);
	}
	if (pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
	    WEXITSTATUS(status) == 0) {
		tap = *shared_tap;
		return true;
	}
	snprintf(name, sizeof(name), "the walk as %s finished", user_name(as));
	tap_check(false, name, "child status %#x", pid > 0 ? status : -1);
	return false;
}

/* ---- a file whose CPU went offline ---- */

static void offline_lab_walk(void)
{
	struct armpmu_cpu_status st = { .cpu = 1 };
	struct armpmu_regs regs = { .cpu = 1 };

	tap_errno(u32_on_fresh(ARMPMU_IOC_BIND, 1), EPERM,
		  "lab: BIND to an offline CPU: EPERM (whole-CPU mode)");
	tap_check(!on_fresh_file(ARMPMU_IOC_CPU_STATUS, &st) && !(st.flags & ARMPMU_CPU_ONLINE),
		  "lab: CPU_STATUS of an offline CPU: not ARMPMU_CPU_ONLINE",
		  "flags %#x", st.flags);
	tap_errno(on_fresh_file(ARMPMU_IOC_REGS, &regs), EPERM, "lab: REGS of an offline CPU: EPERM");
}

void walk_offline(void)
{
	/* The calls that go to the CPU fail; the ones that only take note do not. */
	static const struct { const char *name; unsigned long req; int want; } rows[] = {
		{ "INFO", ARMPMU_IOC_INFO, ENXIO },
		{ "SET_EVENT", ARMPMU_IOC_SET_EVENT, ENXIO },
		{ "SET_VALUE", ARMPMU_IOC_SET_VALUE, ENXIO },
		{ "SET_CYCLE_FILTER", ARMPMU_IOC_SET_CYCLE_FILTER, ENXIO },
		{ "RESET", ARMPMU_IOC_RESET, ENXIO },
		{ "START", ARMPMU_IOC_START, ENXIO },
		{ "STOP", ARMPMU_IOC_STOP, ENXIO },
		{ "READ", ARMPMU_IOC_READ, ENXIO },
		{ "SELECT", ARMPMU_IOC_SELECT, 0 },
		{ "SET_DIVIDER", ARMPMU_IOC_SET_DIVIDER, ENXIO },
		{ "BIND", ARMPMU_IOC_BIND, EALREADY },
	};
	union {
		struct armpmu_event ev;
		struct armpmu_value val;
		struct armpmu_counts c;
		struct armpmu_info info;
		struct armpmu_regs regs;
		__u32 u;
	} arg;
	char name[160];
	unsigned int i;
	ssize_t n;
	int fd, err;

	if (access(CPU1_ONLINE, W_OK)) {
		tap_skip("calls on a file whose CPU went offline", "CPU 1 cannot go offline here");
		return;
	}
	err = open_bound(1, &fd);
	if (!tap_errno(err, 0, "offline: a file bound to CPU 1"))
		return;
	if (!tap_errno(write_file(CPU1_ONLINE, "0"), 0, "offline: CPU 1 goes offline")) {
		dev_close(&fd);
		return;
	}
	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		memset(&arg, 0, sizeof(arg));
		if (rows[i].req == ARMPMU_IOC_SET_EVENT)
			arg.ev = (struct armpmu_event){ .event = ARMPMU_EV_CPU_CYCLES,
							.flags = root_excl_k() };
		if (rows[i].req == ARMPMU_IOC_SET_CYCLE_FILTER)
			arg.u = root_excl_k();
		snprintf(name, sizeof(name), "root: %s on a file whose CPU is offline: %s",
			 rows[i].name, tap_errname(rows[i].want));
		tap_errno(ioc(fd, rows[i].req, &arg), rows[i].want, name);
	}
	n = read(fd, &arg.c, sizeof(arg.c));
	tap_errno(n < 0 ? errno : 0, ENXIO, "root: read() on a file whose CPU is offline: ENXIO");
	memset(&arg, 0, sizeof(arg));
	arg.regs.cpu = 1;
	tap_errno(on_fresh_file(ARMPMU_IOC_REGS, &arg.regs), ENXIO,
		  "root: REGS of an offline CPU: ENXIO");
	in_child(AS_LAB, offline_lab_walk);
	tap_errno(write_file(CPU1_ONLINE, "1"), 0, "offline: CPU 1 comes back");
	tap_errno(read_counts(fd, &arg.c), 0, "root: READ works again once the CPU is back");
	dev_close(&fd);
}

/* ---- other owners ---- */

static void lab_against_root(void)
{
	struct armpmu_cpu_status st = { .cpu = 0 };
	struct armpmu_counts c;

	tap_errno(u32_on_fresh(ARMPMU_IOC_BIND, 0), EPERM, "lab: BIND to root's CPU: EPERM");
	/* A first use counts lab's own thread: root's CPU owner is no obstacle. */
	tap_errno(on_fresh_file(ARMPMU_IOC_READ, &c), 0,
		  "lab: READ on a fresh file beside root's CPU owner (task mode): success");
	tap_errno(on_fresh_file(ARMPMU_IOC_RESET, NULL), 0,
		  "lab: RESET on a fresh file beside root's CPU owner: success");
	tap_errno(on_fresh_file(ARMPMU_IOC_STOP, NULL), 0,
		  "lab: STOP on a fresh file beside root's CPU owner: success");
	tap_errno(u32_on_fresh(ARMPMU_IOC_RELEASE, 0), EPERM, "lab: RELEASE of root's CPU: EPERM");
	tap_check(!on_fresh_file(ARMPMU_IOC_CPU_STATUS, &st) && (st.flags & ARMPMU_CPU_OWNED) &&
		  !(st.flags & ARMPMU_CPU_CALLER) && st.owner_uid == 0,
		  "lab: CPU_STATUS shows root's ownership, not the caller's",
		  "flags %#x, owner uid %u", st.flags, st.owner_uid);
}

static void guest_opens(void)
{
	int fd = open(DEV, O_RDWR | O_CLOEXEC);

	tap_errno(fd < 0 ? errno : 0, EACCES, "guest: open(O_RDWR): EACCES");
	dev_close(&fd);
	fd = open(DEV, O_RDONLY | O_CLOEXEC);
	tap_errno(fd < 0 ? errno : 0, EACCES, "guest: open(O_RDONLY): EACCES");
	dev_close(&fd);
}

void walk_owners(void)
{
	struct armpmu_counts before, after;
	int fd, err;

	err = open_bound(0, &fd);
	err = err ? err : program(fd, 0, ARMPMU_EV_CPU_CYCLES, root_excl_k());
	err = err ? err : ioc0(fd, ARMPMU_IOC_START);
	loop_n(100000);
	err = err ? err : read_counts(fd, &before);
	if (!tap_errno(err, 0, "owners: root counts on CPU 0")) {
		dev_close(&fd);
		return;
	}
	in_child(AS_LAB, lab_against_root);
	in_child(AS_GUEST, guest_opens);
	err = read_counts(fd, &after);
	tap_check(!err && (after.flags & ARMPMU_COUNTS_RUNNING) &&
		  !(after.flags & ARMPMU_COUNTS_DISTURBED) && after.events[0] >= before.events[0] &&
		  after.cycles >= before.cycles,
		  "owners: root's counts go on, neither reset nor stopped by lab",
		  "%s, flags %#x, events[0] %llu then %llu", tap_errname(err), after.flags,
		  (ull)before.events[0], (ull)after.events[0]);
	dev_close(&fd);
}
