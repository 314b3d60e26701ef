// SPDX-License-Identifier: GPL-2.0
/*
 * Every privilege decision of the driver: privilege.h's rule, fed from the
 * kernel's credentials. A file's rights are its opener's, taken at open()
 * (as perf takes them at perf_event_open), wherever the descriptor goes
 * afterwards; a thread's, as they are when it would be counted. Nothing
 * else in the driver asks for a capability or compares IDs.
 */
#include <linux/capability.h>
#include <linux/cred.h>
#include <linux/fs.h>
#include <linux/moduleparam.h>
#include <linux/sched.h>
#include <linux/sched/coredump.h>
#include <linux/sched/mm.h>
#include <linux/sched/signal.h>
#include <linux/user_namespace.h>
#include <linux/version.h>
#include "armpmu.h"

static bool cpu_mode_for_all;
module_param(cpu_mode_for_all, bool, 0644);
MODULE_PARM_DESC(cpu_mode_for_all,
		 "let every user who can open the device count whole CPUs (BIND), which shows other users' activity (default: only CAP_PERFMON or CAP_SYS_ADMIN); checked at BIND");

static u64 caps_of(kernel_cap_t c)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 3, 0)
	return c.val;
#else
	return c.cap[0] | (u64)c.cap[1] << 32;
#endif
}

static void fill_cred(struct armpmu_priv_cred *pc, const struct cred *c)
{
	pc->uid = __kuid_val(c->uid);
	pc->euid = __kuid_val(c->euid);
	pc->suid = __kuid_val(c->suid);
	pc->gid = __kgid_val(c->gid);
	pc->egid = __kgid_val(c->egid);
	pc->sgid = __kgid_val(c->sgid);
	pc->cap_permitted = caps_of(c->cap_permitted);
	pc->user_ns = (u64)(uintptr_t)c->user_ns;
}

static void fill_opener(const struct armpmu_session *s, struct armpmu_priv_opener *o)
{
	fill_cred(&o->cred, s->opener_cred);
	o->perfmon = s->kernel_allowed;
	o->sys_admin = s->opener_admin;
	o->ipc_lock = s->opener_ipc_lock;
}

/* open(): the opener's credentials and rights, kept for the file's life. */
void armpmu_priv_open(struct armpmu_session *s, struct file *file)
{
	s->opener_cred = get_cred(file->f_cred);
	s->opener_tgid = get_task_pid(current, PIDTYPE_TGID);
	s->opener_exec_id = READ_ONCE(current->self_exec_id);
	s->kernel_allowed = perfmon_capable();
	s->opener_admin = ns_capable_noaudit(&init_user_ns, CAP_SYS_ADMIN);
	s->opener_ipc_lock = ns_capable_noaudit(&init_user_ns, CAP_IPC_LOCK);
}

/* May @s's opener do @act? The module parameter is read now. */
bool armpmu_priv_allowed(const struct armpmu_session *s, enum armpmu_priv_act act)
{
	struct armpmu_priv_opener o;

	fill_opener(s, &o);
	return armpmu_priv_allows(&o, act, READ_ONCE(cpu_mode_for_all));
}

/* May @s's opener's user, with rings of @held bytes, have one of @want more? */
bool armpmu_priv_ring_allowed(const struct armpmu_session *s, u64 held, u64 want, u64 limit)
{
	struct armpmu_priv_opener o;

	fill_opener(s, &o);
	return armpmu_priv_ring_fits(&o, held, want, limit);
}

/* FILE_STATUS: may @caller's opener see a file whose owner is @owner? */
bool armpmu_priv_sees(const struct armpmu_session *caller, kuid_t owner)
{
	struct armpmu_priv_opener o;

	fill_opener(caller, &o);
	return armpmu_priv_may_see(&o, __kuid_val(owner));
}

/*
 * A thread of the opener's own process, which has executed no program
 * since the open: ptrace lets a thread group read itself whatever its
 * credentials, but an exec may have made it someone else.
 */
static bool openers_own(const struct armpmu_session *s, struct task_struct *task)
{
	return task_tgid(task) == s->opener_tgid &&
	       READ_ONCE(task->self_exec_id) == s->opener_exec_id;
}

/*
 * Does @cred hold @cap over @ns? commoncap's answer (cap_capable()), for
 * a probe, which has neither a file nor the opener's task to ask the
 * security modules with: @cred's effective set in its own namespace, and
 * every capability in a namespace below it that its effective UID owns.
 * Other security modules may only refuse more.
 */
static bool cred_capable(const struct cred *cred, struct user_namespace *ns, int cap)
{
	for (;;) {
		if (ns == cred->user_ns)
			return cap_raised(cred->cap_effective, cap);
		if (ns->level <= cred->user_ns->level)
			return false;
		if (ns->parent == cred->user_ns && uid_eq(ns->owner, cred->euid))
			return true;
		ns = ns->parent;
	}
}

/*
 * The opener's CAP_SYS_PTRACE over @ns: in process context through the
 * file, so that the security modules are asked as ptrace asks them; in a
 * probe (@s->file NULL here) by commoncap's rule alone.
 */
static bool opener_ptrace(const struct armpmu_session *s, struct file *file,
			  struct user_namespace *ns)
{
	return file ? file_ns_capable(file, ns, CAP_SYS_PTRACE) :
		      cred_capable(s->opener_cred, ns, CAP_SYS_PTRACE);
}

/*
 * @task as the rule sees it. The capability is asked only where the rule
 * needs it, as ptrace does. Under task_lock (or on current), as ptrace
 * reads task->mm.
 */
static bool judge(const struct armpmu_session *s, struct file *file,
		  struct task_struct *task)
{
	struct armpmu_priv_opener o;
	struct armpmu_priv_target t = { 0 };
	const struct cred *tcred;
	struct mm_struct *mm;

	fill_opener(s, &o);
	if (o.perfmon)
		return true;
	t.openers_own = openers_own(s, task);
	rcu_read_lock();
	tcred = __task_cred(task);
	fill_cred(&t.cred, tcred);
	if (!t.openers_own && !(armpmu_priv_same_ids(&o.cred, &t.cred) &&
				armpmu_priv_caps_within(&o.cred, &t.cred)))
		t.ptrace_over_ns = opener_ptrace(s, file, tcred->user_ns);
	rcu_read_unlock();
	/* Dumpability after the credentials, as ptrace reads them. */
	smp_rmb();
	mm = task->mm;
	if (mm) {
		t.has_mm = true;
		t.dumpable = get_dumpable(mm) == SUID_DUMP_USER;
		if (!t.openers_own && !t.dumpable)
			t.ptrace_over_mm_ns = opener_ptrace(s, file, mm->user_ns);
	}
	return armpmu_priv_may_count(&o, &t);
}

/*
 * ATTACH, and the first thread to use a file: may @s's opener count
 * @task? The other security modules' ptrace hooks are not reachable from
 * a module; their capability hooks are. Process context.
 */
bool armpmu_priv_may_attach(const struct armpmu_session *s, struct task_struct *task)
{
	bool ok;

	task_lock(task);
	ok = judge(s, s->file, task);
	task_unlock(task);
	return ok;
}

/*
 * A counted thread (current) has just executed a program, its new
 * credentials committed: may @s go on counting it? The same rule as
 * ATTACH's, in a probe: no sleeping, and no security module asked.
 */
bool armpmu_priv_may_go_on(const struct armpmu_session *s)
{
	return judge(s, NULL, current);
}
