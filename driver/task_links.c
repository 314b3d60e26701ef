// SPDX-License-Identifier: GPL-2.0
/*
 * Task mode's links and per-thread records: which file counts which
 * thread, each counted thread's own totals, and the probes that follow a
 * thread's life (a fork makes a link, an exit or a forbidden exec ends
 * one, an exec starts an armed file).
 *
 * Each counted thread has a link to its file in a hash keyed by the
 * task_struct. Locking: links and files' task lists change under
 * armpmu_task_links_lock (a raw spinlock, interrupts off) and are read under RCU;
 * links are freed after a grace period, since a probe may have found one
 * just before. A file's records (its threads list, kept and lost) are
 * under its count_lock. The probes run with interrupts off: only the fork
 * probe allocates, atomically, and a thread it cannot follow makes the
 * counts incomplete.
 *
 * Who may be counted is the opener's business, never the caller's: every
 * way a thread comes to be counted (ATTACH, the first thread to use the
 * file, FOLLOW, an exec) is held against the credentials the file was
 * opened with, by ptrace's read check with real credentials, as perf holds
 * perf_event_open: one rule, privilege.c's.
 */
#include <linux/binfmts.h>
#include <linux/cpumask.h>
#include <linux/hashtable.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include "task.h"

DEFINE_HASHTABLE(armpmu_task_links_table, TASK_LINK_BITS);
/* Changes to armpmu_task_links_table and to files' task lists. */
DEFINE_RAW_SPINLOCK(armpmu_task_links_lock);

/* Room for one more thread's totals, if @s keeps more; NULL otherwise. */
struct thread_rec *armpmu_task_links_new_rec(struct armpmu_session *s, gfp_t gfp)
{
	if (READ_ONCE(s->threads_kept) >= ARMPMU_THREADS_KEPT)
		return NULL;
	return kzalloc(sizeof(struct thread_rec), gfp | __GFP_NOWARN);
}

/*
 * A new link's thread gets @rec for its totals if its file keeps more,
 * else is counted as lost. Under armpmu_task_links_lock; returns @rec if unused.
 */
static struct thread_rec *keep_rec(struct task_link *link, struct thread_rec *rec)
{
	struct armpmu_session *s = link->s;

	link->cpu = -1;
	raw_spin_lock(&s->count_lock);
	if (rec && s->threads_kept < ARMPMU_THREADS_KEPT) {
		rec->pid = get_task_pid(link->task, PIDTYPE_PID);
		list_add_tail(&rec->node, &s->threads);
		s->threads_kept++;
		link->rec = rec;
		rec = NULL;
	} else {
		s->threads_lost++;
	}
	raw_spin_unlock(&s->count_lock);
	return rec;
}

/*
 * A followed thread's new thread or child is counted into the same file.
 * It needs no check of its own: a fork copies the parent's credentials and
 * dumpability, which passed the opener's check at the attach or since the
 * parent's last exec, and only an exec can widen them again.
 */
void armpmu_task_links_fork(void *data, struct task_struct *parent,
			    struct task_struct *child)
{
	struct armpmu_session *s;
	struct task_link *link;
	struct thread_rec *rec;
	unsigned long flags;

	rcu_read_lock();
	s = file_of(parent);
	if (!s || !s->follow) {
		rcu_read_unlock();
		return;
	}
	link = kzalloc(sizeof(*link), GFP_ATOMIC | __GFP_NOWARN);
	rec = armpmu_task_links_new_rec(s, GFP_ATOMIC);
	raw_spin_lock_irqsave(&armpmu_task_links_lock, flags);
	if (link && !s->closing) {
		link->task = get_task_struct(child);
		link->s = s;
		rec = keep_rec(link, rec);
		hash_add_rcu(armpmu_task_links_table, &link->hash, (unsigned long)child);
		list_add(&link->node, &s->tasks);
		if (unlikely(READ_ONCE(s->sampling.sampler)))
			armpmu_sampling_task(s, &link->st, ARMPMU_RECORD_FORK, child, parent);
		link = NULL;
	} else if (!link) {
		raw_spin_lock(&s->count_lock);
		s->incomplete = true;
		raw_spin_unlock(&s->count_lock);
	}
	raw_spin_unlock_irqrestore(&armpmu_task_links_lock, flags);
	rcu_read_unlock();
	kfree(link);
	kfree(rec);
}

static void free_link(struct rcu_head *head)
{
	struct task_link *link = container_of(head, struct task_link, rcu);

	put_task_struct(link->task);
	kfree(link);
}

/* Under armpmu_task_links_lock. */
static void unlink_task(struct task_link *link)
{
	hash_del_rcu(&link->hash);
	list_del(&link->node);
	call_rcu(&link->rcu, free_link);
}

/*
 * Let go of @task (current): what it counted so far goes to its file,
 * which it leaves, and a sampled file gets @record: ARMPMU_RECORD_EXIT, or
 * ARMPMU_RECORD_LET_GO at an exec its opener may not count. Under
 * armpmu_task_links_lock; returns the file it left, or NULL.
 */
static struct armpmu_session *let_go(struct task_struct *task, u16 record)
{
	struct armpmu_session *s;
	struct task_cpu *tc;
	struct task_link *link;

	hash_for_each_possible(armpmu_task_links_table, link, hash, (unsigned long)task) {
		if (link->task != task)
			continue;
		s = link->s;
		tc = this_cpu_ptr(&armpmu_task_cpu_state);
		if (tc->cur == s && task == current)
			switch_out(tc, false);
		if (link->rec) {
			raw_spin_lock(&s->count_lock);
			link->rec->exited = true;
			link->rec->exec_left = record == ARMPMU_RECORD_LET_GO;
			raw_spin_unlock(&s->count_lock);
		}
		if (unlikely(READ_ONCE(s->sampling.sampler))) {
			/* Its parent's IDs, as perf's EXIT record carries them. */
			rcu_read_lock();
			armpmu_sampling_task(s, &link->st, record, task,
					     rcu_dereference(task->real_parent));
			rcu_read_unlock();
		}
		unlink_task(link);
		if (unlikely(READ_ONCE(s->sampling.sampler)) && list_empty(&s->tasks))
			armpmu_sampling_ended(s);
		return s;
	}
	return NULL;
}

/*
 * An exiting thread (current): its counts go to its file, and it goes.
 * Always under armpmu_task_links_lock, although most exits are nobody's: an ATTACH
 * that found the thread not yet exiting under the same lock is then
 * certain to be seen here.
 */
void armpmu_task_links_exiting(struct task_struct *task)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&armpmu_task_links_lock, flags);
	let_go(task, ARMPMU_RECORD_EXIT);
	raw_spin_unlock_irqrestore(&armpmu_task_links_lock, flags);
}

void armpmu_task_links_exit(void *data, struct task_struct *task)
{
	armpmu_task_links_exiting(task);
}

/*
 * After an exec's new credentials are committed and before the new program
 * runs: a thread its file's opener may no longer count is let go, and the
 * counts say so.
 */
void armpmu_task_links_exec(void *data, struct task_struct *task,
			    pid_t old_pid, struct linux_binprm *bprm)
{
	struct armpmu_session *s;
	struct task_link *link;
	unsigned long flags;

	rcu_read_lock();
	link = link_of(current);
	s = link ? link->s : NULL;
	if (!s || armpmu_priv_may_go_on(s)) {
		if (s && unlikely(READ_ONCE(s->sampling.sampler)))
			armpmu_sampling_task(s, &link->st, ARMPMU_RECORD_EXEC, current, NULL);
		rcu_read_unlock();
		return;
	}
	raw_spin_lock_irqsave(&armpmu_task_links_lock, flags);
	s = let_go(current, ARMPMU_RECORD_LET_GO);
	if (s) {
		raw_spin_lock(&s->count_lock);
		s->exec_left = true;
		s->incomplete = true;
		raw_spin_unlock(&s->count_lock);
	}
	raw_spin_unlock_irqrestore(&armpmu_task_links_lock, flags);
	rcu_read_unlock();
}

/*
 * An armed file starts counting at its thread's exec, at the point where
 * perf's enable_on_exec does: task_rename fires there, the old program's
 * image gone and the new one's credentials not yet committed (so the probe
 * above still sees the file, and lets go of what it may not count).
 */
void armpmu_task_links_rename(void *data, struct task_struct *task, const char *comm)
{
	struct task_cpu *tc = this_cpu_ptr(&armpmu_task_cpu_state);
	struct armpmu_session *s = NULL;
	struct task_link *link;
	unsigned long flags;

	if (task != current || !current->in_execve)
		return;
	rcu_read_lock();
	link = link_of(current);
	if (link)
		s = link->s;
	/* A let-go record names the thread as it was before. */
	if (s && unlikely(READ_ONCE(s->sampling.sampler)))
		memcpy(link->st.comm, current->comm, sizeof(link->st.comm));
	if (s && READ_ONCE(s->armed)) {
		local_irq_save(flags);
		raw_spin_lock(&s->count_lock);
		if (s->armed && !s->closing) {
			s->armed = false;
			s->on_exec = false;
			s->running = true;
		}
		raw_spin_unlock(&s->count_lock);
		if (!tc->cur)
			switch_in(tc, link);
		local_irq_restore(flags);
	}
	rcu_read_unlock();
}

/*
 * Link @task to @s, under armpmu_task_links_lock: EBUSY if another file counts it,
 * ESRCH if it is exiting. The exit probe takes the same lock after the
 * thread is marked exiting, so a thread found not exiting here will be
 * let go by it.
 */
int armpmu_task_links_add(struct armpmu_session *s, struct task_link *link,
			  struct thread_rec **rec)
{
	struct task_struct *task = link->task;
	int ret = 0;

	raw_spin_lock_irq(&armpmu_task_links_lock);
	rcu_read_lock();
	if (READ_ONCE(task->flags) & PF_EXITING)
		ret = -ESRCH;
	else if (file_of(task))
		ret = -EBUSY;
	rcu_read_unlock();
	if (!ret) {
		*rec = keep_rec(link, *rec);
		hash_add_rcu(armpmu_task_links_table, &link->hash, (unsigned long)task);
		list_add(&link->node, &s->tasks);
	}
	raw_spin_unlock_irq(&armpmu_task_links_lock);
	return ret;
}

/* How many threads @s counts now. */
u32 armpmu_task_links_count(struct armpmu_session *s)
{
	struct task_link *link;
	u32 n = 0;

	raw_spin_lock_irq(&armpmu_task_links_lock);
	list_for_each_entry(link, &s->tasks, node)
		n++;
	raw_spin_unlock_irq(&armpmu_task_links_lock);
	return n;
}

/* The CPUs where @s's threads are current, or were last, added to @cpus. */
void armpmu_task_links_cpus(struct armpmu_session *s, struct cpumask *cpus)
{
	struct task_link *link;

	raw_spin_lock_irq(&armpmu_task_links_lock);
	list_for_each_entry(link, &s->tasks, node)
		cpumask_set_cpu(task_cpu(link->task), cpus);
	raw_spin_unlock_irq(&armpmu_task_links_lock);
}

/*
 * Thread totals taken out of their file: nothing else holds them (a
 * thread's rec is in its link, and loaded on its CPU only while counted).
 */
void armpmu_task_links_free_recs(struct list_head *gone)
{
	struct thread_rec *rec, *next;

	list_for_each_entry_safe(rec, next, gone, node) {
		put_pid(rec->pid);
		kfree(rec);
	}
}

/*
 * Closing, or an administrator's release: no more loads, every thread let
 * go. False if @s was closing already (a released file is closed later).
 */
bool armpmu_task_links_close(struct armpmu_session *s)
{
	struct task_link *link, *next;

	raw_spin_lock_irq(&armpmu_task_links_lock);
	if (s->closing) {
		raw_spin_unlock_irq(&armpmu_task_links_lock);
		return false;
	}
	raw_spin_lock(&s->count_lock);
	s->closing = true;
	s->running = false;
	s->armed = false;
	raw_spin_unlock(&s->count_lock);
	list_for_each_entry_safe(link, next, &s->tasks, node)
		unlink_task(link);
	raw_spin_unlock_irq(&armpmu_task_links_lock);
	return true;
}

/* A closed file's records, once no CPU has its counters loaded. */
void armpmu_task_links_free_threads(struct armpmu_session *s)
{
	LIST_HEAD(gone);

	raw_spin_lock_irq(&s->count_lock);
	list_splice_init(&s->threads, &gone);
	s->threads_kept = 0;
	raw_spin_unlock_irq(&s->count_lock);
	armpmu_task_links_free_recs(&gone);
}
