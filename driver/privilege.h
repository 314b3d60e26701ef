/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Every privilege decision of the driver, as pure functions over what the
 * opener of a file had at open() and what a thread it would count is now:
 * IDs, capabilities, user namespaces and dumpability. No kernel-only
 * dependency: driver/privilege.c fills the structures from the kernel's
 * credentials and calls these, and tests/host/privilege-unit.c compiles
 * this same file on the host and runs it on a table of cases.
 */
#ifndef ARMPMU_PRIVILEGE_H
#define ARMPMU_PRIVILEGE_H

#ifdef __KERNEL__
#include <linux/types.h>
#else
#include <stdbool.h>
#include <stdint.h>
typedef uint32_t u32;
typedef uint64_t u64;
#endif

/* Credentials as the rule reads them: global IDs, permitted capabilities. */
struct armpmu_priv_cred {
	u32 uid, euid, suid;
	u32 gid, egid, sgid;
	u64 cap_permitted;		/* bit n: capability n */
	u64 user_ns;			/* the user namespace's identity */
};

/* A file's opener, as open() found it. */
struct armpmu_priv_opener {
	struct armpmu_priv_cred cred;
	bool perfmon;			/* CAP_PERFMON or CAP_SYS_ADMIN */
	bool sys_admin;			/* CAP_SYS_ADMIN */
	bool ipc_lock;			/* CAP_IPC_LOCK */
};

/* A thread the file would count, as it is now. */
struct armpmu_priv_target {
	struct armpmu_priv_cred cred;
	/* A thread of the opener's own process, which executed nothing since the open. */
	bool openers_own;
	bool has_mm;			/* a user thread (kernel threads have no mm) */
	bool dumpable;			/* its mm's dumpability is SUID_DUMP_USER */
	/* The opener has CAP_SYS_PTRACE over cred.user_ns, and over its mm's namespace. */
	bool ptrace_over_ns;
	bool ptrace_over_mm_ns;
};

/* What an opener may do whatever it counts. */
enum armpmu_priv_act {
	ARMPMU_PRIV_KERNEL,		/* count kernel mode; REGS; every file in FILE_STATUS */
	ARMPMU_PRIV_BIND,		/* CPU mode: every user's activity on a CPU */
	ARMPMU_PRIV_RELEASE,		/* RELEASE and RELEASE_FILE: take a PMU from others */
};

/*
 * @act for @o; @cpu_mode_for_all is the module parameter, read at the
 * call (a file already bound keeps its CPU when it is set back to N).
 */
static inline bool armpmu_priv_allows(const struct armpmu_priv_opener *o,
				      enum armpmu_priv_act act, bool cpu_mode_for_all)
{
	switch (act) {
	case ARMPMU_PRIV_KERNEL:
		return o->perfmon;
	case ARMPMU_PRIV_BIND:
		return o->perfmon || cpu_mode_for_all;
	case ARMPMU_PRIV_RELEASE:
		return o->sys_admin;
	}
	return false;
}

/* FILE_STATUS: a file of another user is shown to a privileged opener only. */
static inline bool armpmu_priv_may_see(const struct armpmu_priv_opener *o, u32 owner_uid)
{
	return o->perfmon || o->cred.uid == owner_uid;
}

/*
 * SET_SAMPLING: may @o's user, whose rings already hold @held bytes, have
 * a ring of @want more? Ring memory is locked kernel memory charged to the
 * opener's user, as perf charges its buffers: up to @limit bytes for all
 * of that user's rings (the module's sample_ring_user_kb), and without a
 * bound for CAP_IPC_LOCK, which may lock any memory (perf's exemption).
 */
static inline bool armpmu_priv_ring_fits(const struct armpmu_priv_opener *o, u64 held,
					 u64 want, u64 limit)
{
	return o->ipc_lock || (want <= limit && held <= limit - want);
}

/* The opener's real IDs are all of the target's: ptrace's first test. */
static inline bool armpmu_priv_same_ids(const struct armpmu_priv_cred *o,
					const struct armpmu_priv_cred *t)
{
	return o->uid == t->uid && o->uid == t->euid && o->uid == t->suid &&
	       o->gid == t->gid && o->gid == t->egid && o->gid == t->sgid;
}

/* commoncap's rule: in one user namespace, nothing the opener lacks. */
static inline bool armpmu_priv_caps_within(const struct armpmu_priv_cred *o,
					   const struct armpmu_priv_cred *t)
{
	return o->user_ns == t->user_ns && !(t->cap_permitted & ~o->cap_permitted);
}

/*
 * May @o count @t? perf_event_open's rule, which is ptrace's read check
 * with real credentials: CAP_PERFMON (or CAP_SYS_ADMIN); or a thread of
 * the opener's own process that executed nothing since; or the same IDs
 * and no more capabilities in the same namespace (or CAP_SYS_PTRACE over
 * the target's namespace), and a dumpable target (or CAP_SYS_PTRACE over
 * its memory's namespace). The one rule for ATTACH, the first thread to
 * use a file, and every exec of a counted thread.
 */
static inline bool armpmu_priv_may_count(const struct armpmu_priv_opener *o,
					 const struct armpmu_priv_target *t)
{
	bool ok;

	if (o->perfmon || t->openers_own)
		return true;
	ok = (armpmu_priv_same_ids(&o->cred, &t->cred) &&
	      armpmu_priv_caps_within(&o->cred, &t->cred)) || t->ptrace_over_ns;
	if (ok && t->has_mm && !t->dumpable)
		ok = t->ptrace_over_mm_ns;
	return ok;
}

#endif /* ARMPMU_PRIVILEGE_H */
