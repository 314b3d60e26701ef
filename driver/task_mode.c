// SPDX-License-Identifier: GPL-2.0
/*
 * Task mode: a file counts threads, wherever and only while they run.
 *
 * Each counted thread has a link to its file in a hash keyed by the
 * task_struct. A probe on the scheduler's sched_switch tracepoint (found by
 * name: the tracepoint is not exported) saves the outgoing thread's counts
 * into its file and loads the incoming thread's configuration into this
 * CPU's PMU. Probes on sched_process_fork and sched_process_exit follow new
 * threads and children (when asked) and let go of threads that exit. The
 * probes are registered while at least one task-mode file exists, and
 * unregistered a second after the last one closes, so a program opening
 * and closing files does not wait for a grace period each time.
 *
 * The probes run with interrupts off (sched_switch also under the runqueue
 * lock): no sleeping, no printk; only the fork probe allocates, atomically,
 * and a thread it cannot follow makes the counts incomplete. A file's
 * totals are updated from any CPU under its count_lock; this CPU's part of
 * the state (which file is loaded here, the hardware as last seen) only
 * ever on this CPU with interrupts off. Files and links are freed after an
 * RCU grace period, since a probe may have found them just before.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/capability.h>
#include <linux/cred.h>
#include <linux/hash.h>
#include <linux/hashtable.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/sched/coredump.h>
#include <linux/sched/mm.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/tracepoint.h>
#include <linux/workqueue.h>
#include <trace/events/sched.h>
#include "armpmu.h"

struct task_link {
	struct hlist_node hash;		/* in task_links */
	struct list_head node;		/* in its file's tasks */
	struct task_struct *task;	/* a reference */
	struct armpmu_session *s;
	struct rcu_head rcu;
};

#define TASK_LINK_BITS	8
static DEFINE_HASHTABLE(task_links, TASK_LINK_BITS);
/* Changes to task_links and to files' task lists; readers use RCU. */
static DEFINE_RAW_SPINLOCK(links_lock);

/* This CPU's share of task mode, touched only here, interrupts off. */
struct task_cpu {
	struct armpmu_session *cur;	/* file of the thread running here */
	bool loaded;			/* its counters are in this PMU */
	u64 in_ns;			/* when that thread came in */
	u64 loaded_ns;			/* when its counters were loaded */
	struct armpmu_load load;
	bool polling;
	struct hrtimer poll;
};

static DEFINE_PER_CPU(struct task_cpu, task_cpus);

static struct armpmu_session *file_of(struct task_struct *task)
{
	struct task_link *link;

	hash_for_each_possible_rcu_notrace(task_links, link, hash, (unsigned long)task)
		if (link->task == task)
			return link->s;
	return NULL;
}

static ktime_t poll_period(void)
{
	return ms_to_ktime(armpmu_poll_ms);
}

/*
 * The time since the last look: enabled, and running too if loaded. Both
 * are taken together, so that a snapshot never shows more time running
 * than enabled. Under the file's count_lock.
 */
static void take_time(struct task_cpu *tc, u64 now)
{
	struct armpmu_session *s = tc->cur;

	s->time_enabled += now - tc->in_ns;
	tc->in_ns = now;
	if (tc->loaded) {
		s->time_running += now - tc->loaded_ns;
		tc->loaded_ns = now;
	}
}

/* Counters found disturbed: what is still ours stops, and nothing is folded. */
static void drop_disturbed(struct task_cpu *tc)
{
	struct armpmu_session *s = tc->cur;

	armpmu_stop_own_counters(&s->cfg);
	s->disturbed = true;
	tc->loaded = false;
}

/* Fold in what the loaded counters counted since the last look. */
static void look(struct task_cpu *tc, u64 now)
{
	struct armpmu_session *s = tc->cur;

	take_time(tc, now);
	if (tc->loaded && !armpmu_look_counters(&s->cfg, &tc->load, s->total))
		drop_disturbed(tc);
}

/* Count what ran on this CPU since it was loaded, and stop counting here. */
static void unload(struct task_cpu *tc, u64 now)
{
	struct armpmu_session *s = tc->cur;

	take_time(tc, now);
	if (!armpmu_pause_counters(&s->cfg, &tc->load, s->total, true))
		s->disturbed = true;
	else if (s->cfg.divider)
		armpmu_release_pmcr();
	tc->loaded = false;
}

/* The thread running here is switched out (or exits): save its counts. */
static void switch_out(struct task_cpu *tc)
{
	struct armpmu_session *s = tc->cur;
	u64 now = sched_clock();

	raw_spin_lock(&s->count_lock);
	if (tc->loaded)
		unload(tc, now);
	else
		take_time(tc, now);
	raw_spin_unlock(&s->count_lock);
	tc->cur = NULL;
}

static void load(struct task_cpu *tc, struct armpmu_session *s, u64 now)
{
	const struct armpmu_caps *caps = armpmu_cpu_caps(smp_processor_id());

	/* A CPU-mode owner counts everything here, and other cores differ. */
	if (armpmu_cpu_owned_here() || !caps || caps->midr != s->caps->midr ||
	    armpmu_load_counters(&s->cfg, &tc->load)) {
		s->incomplete = true;
		return;
	}
	tc->loaded = true;
	tc->loaded_ns = now;
	if (!tc->polling) {
		tc->polling = true;
		hrtimer_start(&tc->poll, poll_period(), HRTIMER_MODE_REL_PINNED_HARD);
	}
}

/* @s's thread is running here: count it, if @s is started. */
static void switch_in(struct task_cpu *tc, struct armpmu_session *s)
{
	u64 now = sched_clock();

	raw_spin_lock(&s->count_lock);
	if (s->running && !s->closing) {
		tc->cur = s;
		tc->in_ns = now;
		load(tc, s, now);
	}
	raw_spin_unlock(&s->count_lock);
}

/* The signature is not checked by the tracepoint: see armpmu_task_mode_init. */
static void probe_sched_switch(void *data, bool preempt, struct task_struct *prev,
			       struct task_struct *next, unsigned int prev_state)
{
	struct task_cpu *tc = this_cpu_ptr(&task_cpus);
	struct armpmu_session *s;

	if (tc->cur)
		switch_out(tc);
	s = file_of(next);
	if (s)
		switch_in(tc, s);
}

/* A followed thread's new thread or child is counted into the same file. */
static void probe_sched_process_fork(void *data, struct task_struct *parent,
				     struct task_struct *child)
{
	struct armpmu_session *s;
	struct task_link *link;
	unsigned long flags;

	rcu_read_lock();
	s = file_of(parent);
	if (!s || !s->follow) {
		rcu_read_unlock();
		return;
	}
	link = kzalloc(sizeof(*link), GFP_ATOMIC | __GFP_NOWARN);
	raw_spin_lock_irqsave(&links_lock, flags);
	if (link && !s->closing) {
		link->task = get_task_struct(child);
		link->s = s;
		hash_add_rcu(task_links, &link->hash, (unsigned long)child);
		list_add(&link->node, &s->tasks);
		link = NULL;
	} else if (!link) {
		raw_spin_lock(&s->count_lock);
		s->incomplete = true;
		raw_spin_unlock(&s->count_lock);
	}
	raw_spin_unlock_irqrestore(&links_lock, flags);
	rcu_read_unlock();
	kfree(link);
}

static void free_link(struct rcu_head *head)
{
	struct task_link *link = container_of(head, struct task_link, rcu);

	put_task_struct(link->task);
	kfree(link);
}

/* Under links_lock. */
static void unlink_task(struct task_link *link)
{
	hash_del_rcu(&link->hash);
	list_del(&link->node);
	call_rcu(&link->rcu, free_link);
}

/* An exiting thread (current): its counts go to its file, and it goes. */
static void probe_sched_process_exit(void *data, struct task_struct *task)
{
	struct task_cpu *tc;
	struct task_link *link;
	unsigned long flags;
	bool counted;

	/* Every exit in the system comes here: most are nobody's. */
	rcu_read_lock();
	counted = file_of(task);
	rcu_read_unlock();
	if (!counted)
		return;
	raw_spin_lock_irqsave(&links_lock, flags);
	hash_for_each_possible(task_links, link, hash, (unsigned long)task) {
		if (link->task != task)
			continue;
		tc = this_cpu_ptr(&task_cpus);
		if (tc->cur == link->s && task == current)
			switch_out(tc);
		unlink_task(link);
		break;
	}
	raw_spin_unlock_irqrestore(&links_lock, flags);
}

static enum hrtimer_restart poll_task_cpu(struct hrtimer *timer)
{
	struct task_cpu *tc = container_of(timer, struct task_cpu, poll);
	struct armpmu_session *s = tc->cur;

	/* A timer migrated off a dead CPU must not read another CPU's PMU. */
	if (tc != this_cpu_ptr(&task_cpus) || !s || !tc->loaded) {
		tc->polling = false;
		return HRTIMER_NORESTART;
	}
	raw_spin_lock(&s->count_lock);
	look(tc, sched_clock());
	raw_spin_unlock(&s->count_lock);
	hrtimer_forward_now(timer, poll_period());
	return HRTIMER_RESTART;
}

/* ---- the probes' registration ---- */

struct probe {
	const char *name;
	void *fn;
	struct tracepoint *tp;
};

static struct probe probes[] = {
	{ "sched_switch", probe_sched_switch },
	{ "sched_process_fork", probe_sched_process_fork },
	{ "sched_process_exit", probe_sched_process_exit },
};

static DEFINE_MUTEX(hook_lock);
static unsigned int task_files;		/* under hook_lock */
static bool hooked;			/* under hook_lock */

static void find_tracepoint(struct tracepoint *tp, void *unused)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(probes); i++)
		if (!strcmp(tp->name, probes[i].name))
			probes[i].tp = tp;
}

static void unhook(void)
{
	int i;

	for (i = ARRAY_SIZE(probes) - 1; i >= 0; i--)
		tracepoint_probe_unregister(probes[i].tp, probes[i].fn, NULL);
	tracepoint_synchronize_unregister();
	hooked = false;
}

static void unhook_unused(struct work_struct *work)
{
	mutex_lock(&hook_lock);
	if (hooked && !task_files)
		unhook();
	mutex_unlock(&hook_lock);
}

static DECLARE_DELAYED_WORK(unhook_work, unhook_unused);

static int hook(void)
{
	unsigned int i;
	int ret = 0;

	mutex_lock(&hook_lock);
	for (i = 0; !hooked && i < ARRAY_SIZE(probes); i++) {
		ret = tracepoint_probe_register(probes[i].tp, probes[i].fn, NULL);
		if (ret) {
			while (i--)
				tracepoint_probe_unregister(probes[i].tp, probes[i].fn, NULL);
			tracepoint_synchronize_unregister();
			break;
		}
	}
	if (!ret) {
		hooked = true;
		task_files++;
	}
	mutex_unlock(&hook_lock);
	return ret;
}

static void unhook_later(void)
{
	mutex_lock(&hook_lock);
	if (!--task_files)
		mod_delayed_work(system_wq, &unhook_work, HZ);
	mutex_unlock(&hook_lock);
}

int armpmu_task_mode_init(void)
{
	unsigned int i, cpu;

	/* Compile-time checks that the probes match the kernel's prototypes. */
	check_trace_callback_type_sched_switch(probe_sched_switch);
	check_trace_callback_type_sched_process_fork(probe_sched_process_fork);
	check_trace_callback_type_sched_process_exit(probe_sched_process_exit);

	for_each_kernel_tracepoint(find_tracepoint, NULL);
	for (i = 0; i < ARRAY_SIZE(probes); i++) {
		if (!probes[i].tp) {
			pr_err("no %s tracepoint: task mode needs it\n", probes[i].name);
			return -ENOENT;
		}
	}
	for_each_possible_cpu(cpu) {
		struct task_cpu *tc = per_cpu_ptr(&task_cpus, cpu);

		hrtimer_init(&tc->poll, CLOCK_MONOTONIC, HRTIMER_MODE_REL_PINNED_HARD);
		tc->poll.function = poll_task_cpu;
	}
	return 0;
}

void armpmu_task_mode_exit(void)
{
	unsigned int cpu;

	cancel_delayed_work_sync(&unhook_work);
	mutex_lock(&hook_lock);
	if (hooked)
		unhook();
	mutex_unlock(&hook_lock);
	for_each_possible_cpu(cpu)
		hrtimer_cancel(&per_cpu_ptr(&task_cpus, cpu)->poll);
	/* Links and files freed by call_rcu must be gone with the module. */
	rcu_barrier();
}

/* ---- the file's side, in process context ---- */

/* May the caller count @task? The ptrace rule without the LSM hooks. */
static bool may_count(struct task_struct *task)
{
	const struct cred *cred = current_cred(), *tcred;
	struct mm_struct *mm;
	bool same, dumpable;

	if (task == current || perfmon_capable() || capable(CAP_SYS_PTRACE))
		return true;
	rcu_read_lock();
	tcred = __task_cred(task);
	same = uid_eq(cred->uid, tcred->euid) && uid_eq(cred->uid, tcred->suid) &&
	       uid_eq(cred->uid, tcred->uid) && gid_eq(cred->gid, tcred->egid) &&
	       gid_eq(cred->gid, tcred->sgid) && gid_eq(cred->gid, tcred->gid);
	rcu_read_unlock();
	mm = get_task_mm(task);
	dumpable = mm && get_dumpable(mm) == SUID_DUMP_USER;
	if (mm)
		mmput(mm);
	return same && dumpable;
}

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

/* Work on the CPUs where @s is loaded, or where its threads are current. */
static void on_file_cpus(struct armpmu_session *s, smp_call_func_t fn, bool tasks_too)
{
	struct task_link *link;
	unsigned int cpu;
	cpumask_var_t cpus;

	if (!zalloc_cpumask_var(&cpus, GFP_KERNEL)) {
		on_each_cpu(fn, s, 1);
		return;
	}
	cpus_read_lock();
	for_each_online_cpu(cpu)
		if (READ_ONCE(per_cpu_ptr(&task_cpus, cpu)->cur) == s)
			cpumask_set_cpu(cpu, cpus);
	if (tasks_too) {
		raw_spin_lock_irq(&links_lock);
		list_for_each_entry(link, &s->tasks, node)
			cpumask_set_cpu(task_cpu(link->task), cpus);
		raw_spin_unlock_irq(&links_lock);
	}
	cpumask_and(cpus, cpus, cpu_online_mask);
	on_each_cpu_mask(cpus, fn, s, 1);
	cpus_read_unlock();
	free_cpumask_var(cpus);
}

/* A thread of @s started running here before START: count it from now. */
static void load_if_current(void *info)
{
	struct armpmu_session *s = info;
	struct task_cpu *tc = this_cpu_ptr(&task_cpus);

	rcu_read_lock();
	if (!tc->cur && file_of(current) == s)
		switch_in(tc, s);
	rcu_read_unlock();
}

static void unload_here(void *info)
{
	struct task_cpu *tc = this_cpu_ptr(&task_cpus);

	if (tc->cur == info)
		switch_out(tc);
}

/* @fn(this CPU's share, now) under the count lock, if a thread of @s runs here. */
static void on_file_here(struct armpmu_session *s, void (*fn)(struct task_cpu *tc, u64 now))
{
	struct task_cpu *tc = this_cpu_ptr(&task_cpus);

	if (tc->cur != s)
		return;
	raw_spin_lock(&s->count_lock);
	fn(tc, sched_clock());
	raw_spin_unlock(&s->count_lock);
}

static void fold_here(void *info)
{
	on_file_here(info, look);
}

static void zero_counts(struct armpmu_session *s)
{
	memset(s->total, 0, sizeof(s->total));
	s->time_enabled = 0;
	s->time_running = 0;
	s->disturbed = false;
	s->incomplete = false;
}

/*
 * The counts start again from here, zeroed in the same breath as the
 * counters are rebased, and counters a disturbance unloaded are loaded
 * again (or the counts say why not).
 */
static void restart(struct task_cpu *tc, u64 now)
{
	struct armpmu_session *s = tc->cur;

	zero_counts(s);
	tc->in_ns = now;
	if (tc->loaded) {
		armpmu_rebase_counters(&s->cfg, &tc->load);
		tc->loaded_ns = now;
	} else {
		load(tc, s, now);
	}
}

/* RESET where a thread of @info runs. */
static void reset_here(void *info)
{
	on_file_here(info, restart);
}

/* For a file's own thread, on its own CPU, no cross-call is needed. */
static void on_this_file(struct armpmu_session *s, smp_call_func_t fn)
{
	struct task_cpu *tc;
	bool here;

	local_irq_disable();
	tc = this_cpu_ptr(&task_cpus);
	here = tc->cur == s;
	if (here)
		fn(s);
	local_irq_enable();
	if (!here || !list_is_singular(&s->tasks))
		on_file_cpus(s, fn, false);
}

int armpmu_task_attach(struct armpmu_session *s, u32 tid, u32 flags)
{
	struct task_struct *task = find_thread(tid);
	struct task_link *link;
	int ret;

	if (!task || (task->flags & PF_EXITING)) {
		ret = -ESRCH;
		goto put;
	}
	if (!may_count(task)) {
		ret = -EACCES;
		goto put;
	}
	link = kzalloc(sizeof(*link), GFP_KERNEL);
	ret = link ? hook() : -ENOMEM;
	if (ret) {
		kfree(link);
		goto put;
	}
	s->follow = flags & ARMPMU_ATTACH_FOLLOW;
	link->task = task;
	link->s = s;
	raw_spin_lock_irq(&links_lock);
	rcu_read_lock();
	ret = file_of(task) ? -EBUSY : 0;
	rcu_read_unlock();
	if (!ret) {
		hash_add_rcu(task_links, &link->hash, (unsigned long)task);
		list_add(&link->node, &s->tasks);
	}
	raw_spin_unlock_irq(&links_lock);
	if (!ret) {
		s->target_pid = get_task_pid(task, PIDTYPE_PID);
		return 0;
	}
	unhook_later();
	kfree(link);
put:
	if (task)
		put_task_struct(task);
	return ret;
}

/* How many threads @s counts now. */
u32 armpmu_task_threads(struct armpmu_session *s)
{
	struct task_link *link;
	u32 n = 0;

	raw_spin_lock_irq(&links_lock);
	list_for_each_entry(link, &s->tasks, node)
		n++;
	raw_spin_unlock_irq(&links_lock);
	return n;
}

/* A CPU-mode file takes this CPU: the thread running here stops counting. */
void armpmu_task_evict(void)
{
	struct task_cpu *tc = this_cpu_ptr(&task_cpus);
	struct armpmu_session *s = tc->cur;

	if (!s || !tc->loaded)
		return;
	raw_spin_lock(&s->count_lock);
	unload(tc, sched_clock());
	s->incomplete = true;
	raw_spin_unlock(&s->count_lock);
}

/* The counters task mode holds in this CPU's PMU (interrupts off). */
u32 armpmu_task_counting(void)
{
	struct task_cpu *tc = this_cpu_ptr(&task_cpus);

	return tc->cur && tc->loaded ? armpmu_counters(&tc->cur->cfg) : 0;
}

static int task_program(struct armpmu_session *s, u32 idx, u32 evtype)
{
	armpmu_config_set_evtype(&s->cfg, idx, evtype);
	s->total[idx] = 0;
	return 0;
}

static int task_set_value(struct armpmu_session *s, u32 idx, u64 value)
{
	s->total[idx] = value;
	return 0;
}

/* The file counts the caller alone: no other CPU can hold its counters. */
static bool counts_only_caller(struct armpmu_session *s)
{
	bool only;

	raw_spin_lock_irq(&links_lock);
	only = list_is_singular(&s->tasks) &&
	       list_first_entry(&s->tasks, struct task_link, node)->task == current;
	raw_spin_unlock_irq(&links_lock);
	return only;
}

static int task_start(struct armpmu_session *s)
{
	if (s->disturbed)
		return -EIO;
	if (s->running)
		return 0;
	raw_spin_lock_irq(&s->count_lock);
	s->running = true;
	s->started = true;
	raw_spin_unlock_irq(&s->count_lock);
	local_irq_disable();
	load_if_current(s);
	local_irq_enable();
	if (!counts_only_caller(s))
		on_file_cpus(s, load_if_current, true);
	return 0;
}

static int task_stop(struct armpmu_session *s)
{
	raw_spin_lock_irq(&s->count_lock);
	s->running = false;
	s->started = false;
	raw_spin_unlock_irq(&s->count_lock);
	on_this_file(s, unload_here);
	return 0;
}

/* The file's one thread runs here: a look here is a look everywhere. */
static bool look_if_only_here(struct armpmu_session *s)
{
	struct task_cpu *tc = this_cpu_ptr(&task_cpus);

	if (tc->cur != s || !list_is_singular(&s->tasks))
		return false;
	look(tc, sched_clock());
	return true;
}

static int task_read(struct armpmu_session *s)
{
	int ret;

	raw_spin_lock_irq(&s->count_lock);
	if (s->running && !look_if_only_here(s)) {
		raw_spin_unlock_irq(&s->count_lock);
		on_file_cpus(s, fold_here, false);
		raw_spin_lock_irq(&s->count_lock);
	}
	/* Whatever the reason, counts that cover less than the time say so. */
	ret = armpmu_snapshot(s, s->incomplete || s->time_running < s->time_enabled ?
			      ARMPMU_COUNTS_INCOMPLETE : 0);
	raw_spin_unlock_irq(&s->count_lock);
	return ret;
}

static int task_reset(struct armpmu_session *s)
{
	raw_spin_lock_irq(&s->count_lock);
	zero_counts(s);
	raw_spin_unlock_irq(&s->count_lock);
	if (s->running)
		on_this_file(s, reset_here);
	return 0;
}

static void clear_here(void *info)
{
	struct armpmu_session *s = info;
	struct task_cpu *tc = this_cpu_ptr(&task_cpus);

	if (tc->cur != s)
		return;
	switch_out(tc);
	armpmu_clear_counters(&s->cfg);
}

/*
 * Closing, or an administrator's release: no more loads, every thread let
 * go, the hardware left clean. Once: a released file is closed later.
 */
static void task_release(struct armpmu_session *s)
{
	struct task_link *link, *next;

	raw_spin_lock_irq(&links_lock);
	if (s->closing) {
		raw_spin_unlock_irq(&links_lock);
		return;
	}
	raw_spin_lock(&s->count_lock);
	s->closing = true;
	s->running = false;
	raw_spin_unlock(&s->count_lock);
	list_for_each_entry_safe(link, next, &s->tasks, node)
		unlink_task(link);
	raw_spin_unlock_irq(&links_lock);
	on_file_cpus(s, clear_here, false);
	unhook_later();
	put_pid(s->target_pid);
	s->target_pid = NULL;
}

const struct armpmu_mode armpmu_task_mode = {
	.program = task_program,
	.set_value = task_set_value,
	.start = task_start,
	.stop = task_stop,
	.read = task_read,
	.reset = task_reset,
	.release = task_release,
};
