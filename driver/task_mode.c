// SPDX-License-Identifier: GPL-2.0
/*
 * Task mode: a file counts threads, wherever and only while they run.
 * This file is the mode's operations (struct armpmu_mode) and ATTACH,
 * but for START and STOP, which task_cpu.c gives, beside the switch path;
 * task.h names the other three files of the mode and what each does.
 *
 * Locking: the operations run in process context with the session's
 * mutex held (revoke and describe: admin.c's list lock). A file's
 * configuration, totals and running/armed state change under its
 * count_lock, which every load takes and the exec that starts an armed
 * file flips it under; the work on the CPUs where its threads run is a
 * cross-call (task_cpu.c).
 *
 * Who may be counted is the opener's business (privilege.c's rule): ATTACH
 * holds the target's exec_update_lock from its check to the link, so an
 * exec cannot slip between them.
 */
#include <linux/cred.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include "snapshot.h"
#include "task.h"

/* The thread @tid (0: the caller), with a reference, or NULL. */
static struct task_struct *find_thread(u32 tid)
{
	struct task_struct *task;

	if (!tid)
		return get_task_struct(current);
	rcu_read_lock();
	task = pid_task(find_vpid(tid), PIDTYPE_PID);
	if (task)
		get_task_struct(task);
	rcu_read_unlock();
	return task;
}

/* ATTACH: @s counts the thread @tid, if its opener may. */
int armpmu_task_mode_attach(struct armpmu_session *s, u32 tid, u32 flags)
{
	struct task_struct *task = find_thread(tid);
	struct thread_rec *rec = NULL;
	struct task_link *link;
	int ret;

	if (!task || (task->flags & PF_EXITING)) {
		ret = -ESRCH;
		goto put;
	}
	link = kzalloc(sizeof(*link), GFP_KERNEL);
	ret = link ? armpmu_task_hooks_get() : -ENOMEM;
	if (ret) {
		kfree(link);
		goto put;
	}
	link->task = task;
	link->s = s;
	s->follow = flags & ARMPMU_ATTACH_FOLLOW;
	s->on_exec = flags & ARMPMU_ATTACH_ENABLE_ON_EXEC;
	/* From the check to the link, no exec changes who the thread is. */
	rec = armpmu_task_links_new_rec(s, GFP_KERNEL);
	ret = down_read_killable(&task->signal->exec_update_lock);
	if (!ret) {
		ret = armpmu_priv_may_attach(s, task) ?
		      armpmu_task_links_add(s, link, &rec) : -EACCES;
		up_read(&task->signal->exec_update_lock);
	}
	kfree(rec);
	if (!ret) {
		s->target_pid = get_task_pid(task, PIDTYPE_PID);
		return 0;
	}
	armpmu_task_hooks_put();
	kfree(link);
put:
	if (task)
		put_task_struct(task);
	return ret;
}

/*
 * Under the count lock, which every load takes and the exec that starts an
 * armed file flips it under: a file that neither counts nor is armed is
 * loaded on no CPU, and none loads it while @fn runs.
 */
static int task_change(struct armpmu_session *s,
		       int (*fn)(struct armpmu_session *s, void *arg), void *arg)
{
	int ret = -EBUSY;

	raw_spin_lock_irq(&s->count_lock);
	if (!s->running && !s->armed)
		ret = fn(s, arg);
	raw_spin_unlock_irq(&s->count_lock);
	return ret;
}

/* The three below are called by task_change()'s @fn only. */
static int task_program(struct armpmu_session *s, u32 idx, u32 evtype)
{
	struct thread_rec *rec;

	lockdep_assert_held(&s->count_lock);
	armpmu_counters_set_evtype(&s->cfg, idx, evtype);
	s->total[idx] = 0;
	list_for_each_entry(rec, &s->threads, node)
		rec->c.total[idx] = 0;
	armpmu_sampling_rebase(s);
	return 0;
}

static int task_set_value(struct armpmu_session *s, u32 idx, u64 value)
{
	lockdep_assert_held(&s->count_lock);
	s->total[idx] = value;
	armpmu_sampling_rebase(s);
	return 0;
}

static void task_multiplex(struct armpmu_session *s)
{
	lockdep_assert_held(&s->count_lock);
	armpmu_mux_begin(&s->mux, &s->cfg, s->total, s->time_running);
}

static int task_read(struct armpmu_session *s)
{
	int ret;

	raw_spin_lock_irq(&s->count_lock);
	armpmu_task_cpu_fold(s);
	/* Whatever the reason, counts that cover less than the time say so. */
	ret = armpmu_snapshot_take(s, (s->incomplete || s->time_running < s->time_enabled ?
				       ARMPMU_COUNTS_INCOMPLETE : 0) |
				   (s->exec_left ? ARMPMU_COUNTS_EXEC_LEFT : 0));
	raw_spin_unlock_irq(&s->count_lock);
	return ret;
}

/*
 * RESET: the threads that have gone leave the file, the others count anew.
 * One function, as before the split: a call out of it cost RESET about 14
 * instructions on the A72.
 */
static int task_reset(struct armpmu_session *s)
{
	struct thread_rec *rec, *next;
	LIST_HEAD(gone);

	raw_spin_lock_irq(&s->count_lock);
	list_for_each_entry_safe(rec, next, &s->threads, node) {
		if (rec->exited) {
			list_move(&rec->node, &gone);
			s->threads_kept--;
		}
	}
	zero_counts(s);
	raw_spin_unlock_irq(&s->count_lock);
	if (unlikely(!list_empty(&gone)))
		armpmu_task_links_free_recs(&gone);
	if (s->running)
		armpmu_task_cpu_restart(s);
	return 0;
}

/*
 * Closing, or an administrator's release: no more loads, every thread let
 * go, the hardware left clean. Once: a released file is closed later.
 */
static void task_release(struct armpmu_session *s)
{
	if (!armpmu_task_links_close(s))
		return;
	armpmu_task_cpu_unload_all(s);
	armpmu_task_links_free_threads(s);
	armpmu_task_hooks_put();
	put_pid(s->target_pid);
	s->target_pid = NULL;
}

/* An administrator's release: the owner's calls then find it revoked. */
static int task_revoke(struct armpmu_session *s)
{
	task_release(s);
	WRITE_ONCE(s->revoked, true);
	return 0;
}

static void task_describe(struct armpmu_session *s, struct armpmu_file_status *st)
{
	st->flags |= ARMPMU_FILE_TASK;
	st->target_tid = pid_vnr(s->target_pid);
	st->threads = armpmu_task_links_count(s);
}

/* Task mode counts on any CPU: the PMU of the one the caller is on. */
static int task_info(struct armpmu_session *s, struct armpmu_info *info)
{
	int ret = armpmu_cpus_info_here(info);

	if (!ret)
		info->flags |= ARMPMU_INFO_TASK;
	return ret;
}

static void describe_thread(const struct armpmu_session *s, const struct thread_rec *rec,
			    struct armpmu_thread_buf *buf)
{
	struct armpmu_thread *t = &buf->t;
	const u64 *total = rec->c.total;

	t->tid = pid_vnr(rec->pid);
	t->flags = (rec->exited ? ARMPMU_THREAD_EXITED : 0) |
		   (rec->exec_left ? ARMPMU_THREAD_EXEC_LEFT : 0) |
		   (s->mux.on ? ARMPMU_THREAD_NO_SLOTS : 0);
	if (s->follow) {
		t->switches = rec->c.switches;
		t->migrations = rec->c.migrations;
		t->time_enabled = rec->c.time_enabled;
		t->time_running = rec->c.time_running;
	} else {
		/* The file's one thread: its totals are the file's. */
		t->switches = s->switches;
		t->migrations = s->migrations;
		t->time_enabled = s->time_enabled;
		t->time_running = s->time_running;
		total = s->total;
	}
	t->cycles = total[ARMPMU_CYCLE_IDX];
	if (s->mux.on)
		memset(buf->value, 0, sizeof(buf->value));
	else
		memcpy(buf->value, total, sizeof(buf->value));
}

static int task_threads(struct armpmu_session *s, struct armpmu_threads *hdr,
			struct armpmu_thread_buf *buf, u32 n, bool fold)
{
	struct thread_rec *rec;
	u32 i = 0, filled = 0;

	raw_spin_lock_irq(&s->count_lock);
	if (fold)
		armpmu_task_cpu_fold(s);
	hdr->flags = s->threads_lost ? ARMPMU_THREADS_LOST : 0;
	hdr->threads = s->threads_kept;
	hdr->lost = s->threads_lost;
	hdr->switches = s->switches;
	hdr->migrations = s->migrations;
	hdr->task_clock = s->time_enabled;
	list_for_each_entry(rec, &s->threads, node) {
		if (filled == n)
			break;
		if (i++ >= hdr->index)
			describe_thread(s, rec, &buf[filled++]);
	}
	raw_spin_unlock_irq(&s->count_lock);
	return filled;
}

const struct armpmu_mode armpmu_task_mode = {
	.change = task_change,
	.program = task_program,
	.set_value = task_set_value,
	.multiplex = task_multiplex,
	/* START and STOP: task_cpu.c, beside the switch path they drive. */
	.start = armpmu_task_cpu_start,
	.stop = armpmu_task_cpu_stop,
	.read = task_read,
	.reset = task_reset,
	.release = task_release,
	.revoke = task_revoke,
	.describe = task_describe,
	.info = task_info,
	.threads = task_threads,
};

int armpmu_task_mode_init(void)
{
	int ret = armpmu_task_hooks_init();

	if (ret)
		return ret;
	ret = armpmu_task_cpu_init();
	if (ret)
		armpmu_task_hooks_exit();
	return ret;
}

void armpmu_task_mode_exit(void)
{
	armpmu_task_hooks_exit();
	armpmu_task_cpu_exit();
	/* Links and files freed by call_rcu must be gone with the module. */
	rcu_barrier();
}
