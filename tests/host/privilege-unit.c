// SPDX-License-Identifier: GPL-2.0
/*
 * privilege-unit: the driver's privilege rule (driver/privilege.h, the
 * very header driver/privilege.c includes) on a table of cases, on the
 * host. Every case the guest suites hold against the kernel's own ptrace
 * read check (kcmp(2), isolation-test) or against an exec into another
 * security domain is a row, with the same verdict; then the rights that
 * do not depend on a thread: kernel-mode counting, CPU mode, RELEASE and
 * which files FILE_STATUS shows. TAP.
 *
 *   gcc -std=c11 -Wall -Wextra -Iuapi -Idriver tests/host/privilege-unit.c
 */
#include <stdio.h>

#include "privilege.h"
#include "unit-tap.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/* Capability numbers, as linux/capability.h has them. */
#define CAP_NET_RAW	13
#define CAP_SYS_PTRACE	19
#define CAP_SYS_ADMIN	21
#define CAP_PERFMON	38
#define ALL_CAPS	((1ULL << 41) - 1)

/* User namespaces: the initial one, and one lab made with unshare(2). */
#define INIT_NS		1
#define LABS_NS		2

#define IDS(u, g)	.uid = (u), .euid = (u), .suid = (u), .gid = (g), .egid = (g), .sgid = (g)
#define LAB		{ IDS(1000, 1000), .cap_permitted = 0, .user_ns = INIT_NS }
#define ROOT		{ IDS(0, 0), .cap_permitted = ALL_CAPS, .user_ns = INIT_NS }

static const struct armpmu_priv_opener lab = { .cred = LAB };
static const struct armpmu_priv_opener root = { .cred = ROOT, .perfmon = true, .sys_admin = true,
						  .ipc_lock = true };
/* lab after unshare(CLONE_NEWUSER): every capability, in its own namespace. */
static const struct armpmu_priv_opener lab_in_ns = {
	.cred = { IDS(1000, 1000), .cap_permitted = ALL_CAPS, .user_ns = LABS_NS },
};
/* An opener with CAP_NET_RAW only (a program with that file capability). */
static const struct armpmu_priv_opener lab_net_raw = {
	.cred = { IDS(1000, 1000), .cap_permitted = 1ULL << CAP_NET_RAW, .user_ns = INIT_NS },
};
/* CAP_PERFMON without CAP_SYS_ADMIN. */
static const struct armpmu_priv_opener perfmon = {
	.cred = { IDS(1002, 1002), .cap_permitted = 1ULL << CAP_PERFMON, .user_ns = INIT_NS },
	.perfmon = true,
};
/* CAP_SYS_PTRACE alone (the target's namespaces are below it). */
static const struct armpmu_priv_opener tracer = {
	.cred = { IDS(1003, 1003), .cap_permitted = 1ULL << CAP_SYS_PTRACE, .user_ns = INIT_NS },
};

struct row {
	const char *name;
	const struct armpmu_priv_opener *o;
	struct armpmu_priv_target t;
	bool allowed;
};

#define DUMPABLE	.has_mm = true, .dumpable = true
#define NOT_DUMPABLE	.has_mm = true, .dumpable = false

static const struct row rows[] = {
	/* isolation-test's ATTACH against kcmp(2). */
	{ "kcmp: lab's own other process: allowed", &lab,
	  { .cred = LAB, DUMPABLE }, true },
	{ "kcmp: lab in a new user namespace, its process outside: refused", &lab_in_ns,
	  { .cred = LAB, DUMPABLE }, false },
	{ "kcmp: a lab-uid process that kept root's capabilities: refused", &lab,
	  { .cred = { IDS(1000, 1000), .cap_permitted = ALL_CAPS, .user_ns = INIT_NS },
	    DUMPABLE }, false },
	{ "kcmp: root's process: refused", &lab, { .cred = ROOT, DUMPABLE }, false },
	{ "kcmp: another thread of lab's own non-dumpable process: allowed", &lab,
	  { .cred = LAB, .openers_own = true, NOT_DUMPABLE }, true },
	/* isolation-test's execs into another security domain, by lab's file. */
	{ "exec of a plain program: counted on", &lab, { .cred = LAB, DUMPABLE }, true },
	{ "exec of a set-user-ID-root program: let go", &lab,
	  { .cred = { .uid = 1000, .euid = 0, .suid = 0, .gid = 1000, .egid = 1000,
		      .sgid = 1000, .cap_permitted = ALL_CAPS, .user_ns = INIT_NS },
	    NOT_DUMPABLE }, false },
	{ "exec of a set-group-ID-root program: let go", &lab,
	  { .cred = { .uid = 1000, .euid = 1000, .suid = 1000, .gid = 1000, .egid = 0,
		      .sgid = 0, .user_ns = INIT_NS }, NOT_DUMPABLE }, false },
	{ "exec of a program lab may execute but not read: let go", &lab,
	  { .cred = LAB, NOT_DUMPABLE }, false },
	{ "exec of a program with file capabilities: let go", &lab,
	  { .cred = { IDS(1000, 1000), .cap_permitted = 1ULL << CAP_NET_RAW,
		      .user_ns = INIT_NS }, NOT_DUMPABLE }, false },
	{ "exec of a set-user-ID program, by root's file: counted on", &root,
	  { .cred = ROOT, NOT_DUMPABLE }, true },
	{ "exec of a set-user-ID program, in the opener's own process: let go", &lab,
	  { .cred = { .uid = 1000, .euid = 0, .suid = 0, .gid = 1000, .egid = 1000,
		      .sgid = 1000, .cap_permitted = ALL_CAPS, .user_ns = INIT_NS },
	    NOT_DUMPABLE }, false },
	/* The rest of the rule. */
	{ "CAP_PERFMON counts anyone", &perfmon, { .cred = ROOT, NOT_DUMPABLE }, true },
	{ "fewer capabilities than the opener: allowed", &lab_net_raw,
	  { .cred = LAB, DUMPABLE }, true },
	{ "a group ID of the target's not the opener's: refused", &lab,
	  { .cred = { .uid = 1000, .euid = 1000, .suid = 1000, .gid = 1000, .egid = 1000,
		      .sgid = 990, .user_ns = INIT_NS }, DUMPABLE }, false },
	{ "CAP_SYS_PTRACE over the target's namespaces: root's set-user-ID exec counted on",
	  &tracer, { .cred = ROOT, NOT_DUMPABLE, .ptrace_over_ns = true,
		     .ptrace_over_mm_ns = true }, true },
	{ "CAP_SYS_PTRACE over its namespace, not its memory's: a non-dumpable target refused",
	  &tracer, { .cred = ROOT, NOT_DUMPABLE, .ptrace_over_ns = true }, false },
	{ "same IDs, not dumpable, CAP_SYS_PTRACE over its memory's namespace: allowed",
	  &tracer, { .cred = { IDS(1003, 1003), .user_ns = INIT_NS }, NOT_DUMPABLE,
		     .ptrace_over_mm_ns = true }, true },
	{ "a kernel thread (no memory) with CAP_SYS_PTRACE over its namespace: allowed",
	  &tracer, { .cred = ROOT, .ptrace_over_ns = true }, true },
	{ "a kernel thread without it: refused", &lab, { .cred = ROOT }, false },
};

struct act_row {
	const char *name;
	const struct armpmu_priv_opener *o;
	enum armpmu_priv_act act;
	bool cpu_mode_for_all, allowed;
};

static const struct act_row acts[] = {
	{ "kernel-mode counting (and REGS): root", &root, ARMPMU_PRIV_KERNEL, false, true },
	{ "kernel-mode counting: CAP_PERFMON", &perfmon, ARMPMU_PRIV_KERNEL, false, true },
	{ "kernel-mode counting: lab refused", &lab, ARMPMU_PRIV_KERNEL, false, false },
	{ "kernel-mode counting: lab refused with cpu_mode_for_all too", &lab,
	  ARMPMU_PRIV_KERNEL, true, false },
	{ "kernel-mode counting: CAP_SYS_PTRACE is not enough", &tracer, ARMPMU_PRIV_KERNEL,
	  false, false },
	{ "BIND: CAP_PERFMON", &perfmon, ARMPMU_PRIV_BIND, false, true },
	{ "BIND: lab refused", &lab, ARMPMU_PRIV_BIND, false, false },
	{ "BIND: lab with cpu_mode_for_all", &lab, ARMPMU_PRIV_BIND, true, true },
	{ "RELEASE: CAP_SYS_ADMIN at open", &root, ARMPMU_PRIV_RELEASE, false, true },
	{ "RELEASE: CAP_PERFMON is not enough", &perfmon, ARMPMU_PRIV_RELEASE, false, false },
	{ "RELEASE: lab refused", &lab, ARMPMU_PRIV_RELEASE, true, false },
};

struct see_row {
	const char *name;
	const struct armpmu_priv_opener *o;
	u32 owner_uid;
	bool seen;
};

static const struct see_row sees[] = {
	{ "FILE_STATUS: lab sees its own files", &lab, 1000, true },
	{ "FILE_STATUS: lab does not see root's", &lab, 0, false },
	{ "FILE_STATUS: lab in its own namespace sees its own files", &lab_in_ns, 1000, true },
	{ "FILE_STATUS: CAP_PERFMON sees every user's", &perfmon, 0, true },
	{ "FILE_STATUS: root sees lab's", &root, 1000, true },
	{ "FILE_STATUS: CAP_SYS_PTRACE does not see another user's", &tracer, 1000, false },
};

/* Ring memory: a user's rings together, and CAP_IPC_LOCK's exemption. */
static const struct armpmu_priv_opener locker = {
	.cred = { IDS(1004, 1004), .cap_permitted = 1ULL << 14, .user_ns = INIT_NS },
	.ipc_lock = true,
};

struct ring_row {
	const char *name;
	const struct armpmu_priv_opener *o;
	u64 held, want, limit;
	bool fits;
};

#define KIB	1024ULL
static const struct ring_row rings[] = {
	{ "ring memory: lab's first 1 MiB ring in 8 MiB", &lab, 0, 1024 * KIB, 8192 * KIB, true },
	{ "ring memory: lab's eighth 1 MiB ring fills 8 MiB exactly", &lab, 7168 * KIB, 1024 * KIB,
	  8192 * KIB, true },
	{ "ring memory: lab's ninth 1 MiB ring is refused", &lab, 8192 * KIB, 1024 * KIB,
	  8192 * KIB, false },
	{ "ring memory: one page past the bound is refused", &lab, 8192 * KIB - 4 * KIB, 8 * KIB,
	  8192 * KIB, false },
	{ "ring memory: a bound of 0 refuses every ring", &lab, 0, 4 * KIB, 0, false },
	{ "ring memory: no wrap when the held bytes are near 2^64", &lab, ~0ULL - 4096, 8192,
	  8192 * KIB, false },
	{ "ring memory: a ring larger than the bound alone is refused", &lab, 0, 16384 * KIB,
	  8192 * KIB, false },
	{ "ring memory: CAP_PERFMON is no exemption", &perfmon, 8192 * KIB, 1024 * KIB, 8192 * KIB,
	  false },
	{ "ring memory: CAP_IPC_LOCK is exempt, as from perf_event_mlock_kb", &locker, 8192 * KIB,
	  1024 * KIB, 8192 * KIB, true },
	{ "ring memory: CAP_IPC_LOCK with a bound of 0", &locker, 0, 1024 * KIB, 0, true },
};

int main(void)
{
	char detail[128];
	size_t i;
	bool got;

	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		got = armpmu_priv_may_count(rows[i].o, &rows[i].t);
		snprintf(detail, sizeof(detail), "the rule says %s", got ? "allowed" : "refused");
		check(got == rows[i].allowed, rows[i].name, detail);
	}
	for (i = 0; i < ARRAY_SIZE(acts); i++) {
		got = armpmu_priv_allows(acts[i].o, acts[i].act, acts[i].cpu_mode_for_all);
		snprintf(detail, sizeof(detail), "the rule says %s", got ? "allowed" : "refused");
		check(got == acts[i].allowed, acts[i].name, detail);
	}
	for (i = 0; i < ARRAY_SIZE(sees); i++) {
		got = armpmu_priv_may_see(sees[i].o, sees[i].owner_uid);
		snprintf(detail, sizeof(detail), "the rule says %s", got ? "shown" : "hidden");
		check(got == sees[i].seen, sees[i].name, detail);
	}
	for (i = 0; i < ARRAY_SIZE(rings); i++) {
		got = armpmu_priv_ring_fits(rings[i].o, rings[i].held, rings[i].want, rings[i].limit);
		snprintf(detail, sizeof(detail), "the rule says %s", got ? "fits" : "refused");
		check(got == rings[i].fits, rings[i].name, detail);
	}
	return done();
}
