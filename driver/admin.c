// SPDX-License-Identifier: GPL-2.0
/*
 * The administrator's view: the list of files that have chosen a mode,
 * FILE_STATUS (anyone may look, at the files privilege.c lets it see),
 * CPU_STATUS (anyone), RELEASE and RELEASE_FILE (whoever privilege.c
 * lets). What differs between the modes is asked of
 * the file's mode table.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cred.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/pid.h>
#include <linux/sched.h>
#include <linux/smp.h>
#include <linux/string.h>
#include "armpmu.h"
#include "pmu_regs.h"

/* Files that have chosen a mode, by id, for FILE_STATUS and RELEASE_FILE. */
static LIST_HEAD(files);
static DEFINE_MUTEX(files_lock);
static u32 last_file_id;

/* @s has chosen its mode: it gets its id and is listed. */
void armpmu_admin_add(struct armpmu_session *s)
{
	mutex_lock(&files_lock);
	s->id = ++last_file_id;
	list_add_tail(&s->file_node, &files);
	mutex_unlock(&files_lock);
}

/* @s is closing: RELEASE_FILE can no longer find it. */
void armpmu_admin_remove(struct armpmu_session *s)
{
	mutex_lock(&files_lock);
	list_del(&s->file_node);
	mutex_unlock(&files_lock);
}

/*
 * The first listed file whose id is @st->id or above that @caller's opener
 * may see, and how many of those it may not (privilege.c decides).
 */
int armpmu_admin_file_status(const struct armpmu_session *caller,
			     struct armpmu_file_status *st)
{
	struct armpmu_session *s;
	u32 id = st->id, hidden = 0;
	int ret = -ENOENT;

	if (memchr_inv(st->reserved, 0, sizeof(st->reserved)))
		return -EINVAL;
	memset(st, 0, sizeof(*st));
	mutex_lock(&files_lock);
	list_for_each_entry(s, &files, file_node) {
		if (s->id < id)
			continue;
		if (!armpmu_priv_sees(caller, s->owner_uid)) {
			hidden++;
			continue;
		}
		if (!ret)
			continue;
		st->id = s->id;
		s->mode->describe(s, st);
		if (READ_ONCE(s->running))
			st->flags |= ARMPMU_FILE_RUNNING;
		if (s->follow)
			st->flags |= ARMPMU_FILE_FOLLOW;
		if (READ_ONCE(s->armed))
			st->flags |= ARMPMU_FILE_ARMED;
		if (s == caller)
			st->flags |= ARMPMU_FILE_CALLER;
		st->owner_pid = pid_vnr(s->owner_pid);
		st->owner_uid = from_kuid_munged(current_user_ns(), s->owner_uid);
		st->counters = armpmu_mux_configured(&s->mux, &s->cfg);
		ret = 0;
	}
	mutex_unlock(&files_lock);
	st->hidden = hidden;
	return ret;
}

/*
 * Under files_lock, so that the file cannot close meanwhile; not under the
 * file's own lock, which its owner holds while it adds the file to the
 * list. Both modes' revocations are safe beside the owner's calls, which
 * then find the file revoked.
 */
int armpmu_admin_release_file(u32 id)
{
	struct armpmu_session *s;
	int ret = -ESRCH;

	mutex_lock(&files_lock);
	list_for_each_entry(s, &files, file_node) {
		if (s->id == id) {
			ret = READ_ONCE(s->revoked) ? -ESRCH : s->mode->revoke(s);
			break;
		}
	}
	mutex_unlock(&files_lock);
	if (!ret)
		pr_info("file %u released by an administrator (pid %d)\n", id,
			task_tgid_nr(current));
	return ret;
}

/* RELEASE: whoever owns @cpu loses it. */
int armpmu_admin_release_cpu(u32 cpu)
{
	return armpmu_cpu_mode_revoke(cpu, NULL);
}

struct pmu_peek {
	const struct armpmu_session *owner;
	u32 userenr;
	u32 foreign;
};

/* On the CPU looked at, interrupts off, so the owner cannot start or stop. */
static void peek_on_cpu(void *info)
{
	struct pmu_peek *peek = info;

	peek->userenr = pmu_read_userenr();
	peek->foreign = pmu_read_enabled() &
			~(armpmu_cpu_mode_counting(peek->owner) | armpmu_task_cpu_counting());
}

int armpmu_admin_cpu_status(const struct armpmu_session *caller,
			    struct armpmu_cpu_status *st)
{
	u32 cpu = st->cpu;
	const struct armpmu_caps *caps;
	struct pmu_peek peek = { };

	if (memchr_inv(st->reserved, 0, sizeof(st->reserved)))
		return -EINVAL;
	if (!armpmu_cpus_valid(cpu))
		return -EINVAL;
	memset(st, 0, sizeof(*st));
	st->cpu = cpu;

	armpmu_cpus_lock();
	caps = armpmu_cpus_caps(cpu);
	peek.owner = armpmu_cpus_owner(cpu);
	if (caps) {
		st->flags |= ARMPMU_CPU_USABLE;
		armpmu_cpus_fill_info(caps, &st->info);
		st->info.cpu = cpu;
	}
	if (peek.owner) {
		st->flags |= ARMPMU_CPU_OWNED;
		if (peek.owner == caller)
			st->flags |= ARMPMU_CPU_CALLER;
		st->owner_pid = pid_vnr(peek.owner->owner_pid);
		st->owner_uid = from_kuid_munged(current_user_ns(), peek.owner->owner_uid);
	}
	/* Hotplug waits for the lock: an online CPU stays up for the call. */
	if (armpmu_cpus_online(cpu) &&
	    (!caps || !smp_call_function_single(cpu, peek_on_cpu, &peek, 1))) {
		st->flags |= ARMPMU_CPU_ONLINE;
		if (peek.userenr)
			st->flags |= ARMPMU_CPU_USERENR_SET;
		if (peek.foreign) {
			st->flags |= ARMPMU_CPU_FOREIGN;
			st->foreign_counters = peek.foreign;
		}
	}
	armpmu_cpus_unlock();
	return 0;
}
