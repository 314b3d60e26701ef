// SPDX-License-Identifier: GPL-2.0
/*
 * Task mode: a file counts threads, wherever and only while they run.
 *
 * Each counted thread has a link to its file in a hash keyed by the
 * task_struct. A probe on the scheduler's sched_switch tracepoint (found by
 * name: the tracepoint is not exported) saves the outgoing thread's counts
 * into its file, zeroing the counters it leaves, and loads the incoming
 * thread's configuration into this CPU's PMU. Probes on sched_process_fork
 * and sched_process_exit follow new threads and children (when asked) and
 * let go of threads that exit (a hook on exit_mm_release() first, where
 * perf lets go); probes on an exec start armed files
 * (task_rename, where perf's enable_on_exec takes effect) and let go of a
 * thread the exec made one the opener may not count (sched_process_exec,
 * once the new credentials are committed). The
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
 *
 * Who may be counted is the opener's business, never the caller's: every
 * way a thread comes to be counted (ATTACH, the first thread to use the
 * file, FOLLOW, an exec) is held against the credentials the file was
 * opened with, by ptrace's read check with real credentials, as perf holds
 * perf_event_open. ATTACH holds the target's exec_update_lock from its
 * check to the link, so an exec cannot slip between them.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/binfmts.h>
#include <linux/capability.h>
#include <linux/clocksource.h>
#include <linux/cpuhotplug.h>
#include <linux/cred.h>
#include <linux/delay.h>
#include <linux/fs.h>
#include <linux/ftrace.h>
#include <linux/hash.h>
#include <linux/hashtable.h>
#include <linux/math64.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/sched/coredump.h>
#include <linux/sched/mm.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/tracepoint.h>
#include <linux/workqueue.h>
#include <trace/events/sched.h>
#include <trace/events/task.h>
#include <asm/arch_timer.h>
#include <clocksource/arm_arch_timer.h>
#include "armpmu.h"
#include "pmu_regs.h"

/*
 * A counted thread's own totals, kept in its file (struct armpmu_session's
 * threads) after the thread exits, until RESET or close. Under the file's
 * count_lock. A file without FOLLOW counts one thread, whose totals are
 * the file's: its rec holds only who it is, and nothing is counted twice.
 */
struct thread_counts {
	u64 switches;
	u64 migrations;
	u64 time_enabled;
	u64 time_running;
	u64 total[ARMPMU_MAX_COUNTERS + 1];	/* [31] = cycles */
};

struct thread_rec {
	struct list_head node;		/* in its file's threads */
	struct pid *pid;		/* a reference */
	bool exited;
	struct thread_counts c;
};

struct task_link {
	struct hlist_node hash;		/* in task_links */
	struct list_head node;		/* in its file's tasks */
	struct task_struct *task;	/* a reference */
	struct armpmu_session *s;
	struct thread_rec *rec;		/* its totals, or NULL if not kept */
	int cpu;			/* where it last came in counted, or -1 */
	struct rcu_head rcu;
	struct armpmu_sample_thread st;	/* if its file is sampled */
};

#define TASK_LINK_BITS	8
static DEFINE_HASHTABLE(task_links, TASK_LINK_BITS);
/* Changes to task_links and to files' task lists; readers use RCU. */
static DEFINE_RAW_SPINLOCK(links_lock);

/* This CPU's share of task mode, touched only here, interrupts off. */
struct task_cpu {
	struct armpmu_session *cur;	/* file of the thread running here */
	struct thread_rec *rec;		/* that thread's own totals, or NULL */
	bool loaded;			/* its counters are in this PMU */
	u64 in_ns;			/* when that thread came in */
	u64 loaded_ns;			/* when its counters were loaded */
	struct armpmu_load load;
	/*
	 * What is loaded: the file's configuration and totals, or for a
	 * multiplexed file one set of it (@set) in @set_cfg, folded into
	 * @set_total and from there into the slots.
	 */
	struct armpmu_config *cfg;
	u64 *total;
	u32 set;
	struct armpmu_config set_cfg;
	u64 set_total[ARMPMU_MAX_COUNTERS + 1];
	/*
	 * @poll is queued here while loaded counters need it. A CPU going
	 * down hands its queued timers to another CPU: poll_task_cpu() lets
	 * such a one die, and the CPU coming back cancels it and starts
	 * afresh (task_cpu_online).
	 */
	bool polling;
	struct hrtimer poll;
	/*
	 * A sampled file's thread runs here: @sample fires when it has run
	 * its period (sampling.c); armed at its switch-in, cancelled at its
	 * switch-out.
	 */
	struct armpmu_sample_thread *st;
	struct hrtimer sample;
};

static DEFINE_PER_CPU(struct task_cpu, task_cpus);

static struct task_link *link_of(struct task_struct *task)
{
	struct task_link *link;

	hash_for_each_possible_rcu_notrace(task_links, link, hash, (unsigned long)task)
		if (link->task == task)
			return link;
	return NULL;
}

static struct armpmu_session *file_of(struct task_struct *task)
{
	struct task_link *link = link_of(task);

	return link ? link->s : NULL;
}

/*
 * Task mode's clock, in nanoseconds from an arbitrary start, read at every
 * counted switch: the generic timer's counter, read through the timer
 * driver's accessor and scaled here, costs about a third of sched_clock(),
 * which reads the same counter under a sequence count. Used only where the
 * counter is there and runs at the rate CNTFRQ gives, as checked against
 * sched_clock() at load (choose_clock); sched_clock() otherwise.
 */
static bool clock_direct __ro_after_init;
static u32 clock_mult __ro_after_init;
static u32 clock_shift __ro_after_init;

static __always_inline u64 task_clock(void)
{
	if (likely(clock_direct))
		return mul_u64_u32_shr(arch_timer_read_counter(), clock_mult, clock_shift);
	return sched_clock();
}

static void choose_clock(void)
{
#if IS_ENABLED(CONFIG_ARM_ARCH_TIMER)
	unsigned long flags;
	u64 c0, c1, t0, t1, rate;
	u32 freq;

	if (!pmu_has_timer_counter())
		return;
	freq = arch_timer_get_cntfrq();
	if (!freq)
		return;
	local_irq_save(flags);
	t0 = sched_clock();
	c0 = arch_timer_read_counter();
	udelay(200);
	c1 = arch_timer_read_counter();
	t1 = sched_clock();
	local_irq_restore(flags);
	if (c1 <= c0 || t1 <= t0)
		return;
	/* The counter's rate as sched_clock() sees it, within 1% of CNTFRQ. */
	rate = div64_u64((c1 - c0) * NSEC_PER_SEC, t1 - t0);
	if (rate * 100 < (u64)freq * 99 || rate * 100 > (u64)freq * 101)
		return;
	clocks_calc_mult_shift(&clock_mult, &clock_shift, freq, NSEC_PER_SEC, 3600);
	clock_direct = true;
#endif
}

static ktime_t poll_period(void)
{
	return ms_to_ktime(armpmu_counters_poll_ms);
}

/*
 * The time since the last look: enabled, and running too if loaded. Both
 * are taken together, so that a snapshot never shows more time running
 * than enabled. Under the file's count_lock. Returns the time running.
 */
static __always_inline u64 take_time(struct task_cpu *tc, u64 now)
{
	struct armpmu_session *s = tc->cur;
	struct thread_rec *rec = tc->rec;
	u64 ran = 0, in = now - tc->in_ns;

	s->time_enabled += in;
	tc->in_ns = now;
	if (tc->loaded) {
		ran = now - tc->loaded_ns;
		s->time_running += ran;
		tc->loaded_ns = now;
	}
	if (rec) {
		rec->c.time_enabled += in;
		rec->c.time_running += ran;
	}
	return ran;
}

/* Where the loaded counters' deltas go besides the file's totals. */
static u64 *own_total(struct task_cpu *tc)
{
	return tc->rec ? tc->rec->c.total : NULL;
}

/* A multiplexed file: what the loaded set counted goes to its slots. */
static void account(struct task_cpu *tc, u64 ran)
{
	struct armpmu_session *s = tc->cur;

	if (unlikely(tc->total != s->total))
		armpmu_mux_account(&s->mux, tc->set, tc->total, ran, s->total);
}

/* Counters found disturbed: what is still ours stops, and nothing is folded. */
static void drop_disturbed(struct task_cpu *tc)
{
	struct armpmu_session *s = tc->cur;

	armpmu_counters_stop_own(tc->cfg);
	armpmu_counters_clear(tc->cfg);
	s->disturbed = true;
	tc->loaded = false;
}

/* Fold in what the loaded counters counted since the last look. */
static void look(struct task_cpu *tc, u64 now)
{
	u64 ran = take_time(tc, now);

	if (!tc->loaded)
		return;
	if (armpmu_counters_look(tc->cfg, &tc->load, tc->total, own_total(tc)))
		account(tc, ran);
	else
		drop_disturbed(tc);
}

/*
 * Count what ran on this CPU since it was loaded, and stop counting here,
 * leaving zeroed counters: none of the thread's counts stay behind.
 */
static __always_inline void unload(struct task_cpu *tc, u64 now)
{
	struct armpmu_session *s = tc->cur;
	u64 ran = take_time(tc, now);

	if (!armpmu_counters_pause(tc->cfg, &tc->load, tc->total, own_total(tc), true, true)) {
		s->disturbed = true;
	} else {
		account(tc, ran);
		if (tc->cfg->divider)
			armpmu_counters_release_pmcr();
	}
	tc->loaded = false;
}

/* A sampled thread leaves: its timer stops, the rest of its period is kept. */
static void sample_out(struct task_cpu *tc, u64 now)
{
	hrtimer_try_to_cancel(&tc->sample);
	armpmu_sampling_stop(tc->st, now);
	tc->st = NULL;
}

/*
 * The thread running here is switched out (@switched: by the scheduler,
 * a context switch as perf counts them) or exits, or stops being counted:
 * save its counts.
 */
static __always_inline void switch_out(struct task_cpu *tc, bool switched)
{
	struct armpmu_session *s = tc->cur;
	u64 now = task_clock();

	if (unlikely(tc->st))
		sample_out(tc, now);
	raw_spin_lock(&s->count_lock);
	if (tc->loaded)
		unload(tc, now);
	else
		take_time(tc, now);
	if (switched) {
		s->switches++;
		if (tc->rec)
			tc->rec->c.switches++;
	}
	raw_spin_unlock(&s->count_lock);
	tc->cur = NULL;
	tc->rec = NULL;
}

/*
 * What a load here loads: the file's configuration, or the next set of a
 * multiplexed file (a copy here, since threads on other CPUs may have
 * other sets loaded).
 */
static void choose(struct task_cpu *tc, struct armpmu_session *s)
{
	if (likely(!s->mux.on)) {
		tc->cfg = &s->cfg;
		tc->total = s->total;
		return;
	}
	tc->set = armpmu_mux_take_next(&s->mux);
	tc->set_cfg = s->cfg;
	armpmu_mux_fill(&s->mux, tc->set, &tc->set_cfg);
	tc->cfg = &tc->set_cfg;
	tc->total = tc->set_total;
}

static __always_inline void load(struct task_cpu *tc, struct armpmu_session *s, u64 now)
{
	/*
	 * The timer first, so that its cost is not counted as the thread's
	 * work; if nothing loads, it finds nothing and stops.
	 */
	if (!tc->polling) {
		tc->polling = true;
		hrtimer_start(&tc->poll, poll_period(), HRTIMER_MODE_REL_PINNED_HARD);
	}
	choose(tc, s);
	if (!armpmu_cpus_task_may_load(s->caps->midr) ||
	    armpmu_counters_load(tc->cfg, &tc->load)) {
		s->incomplete = true;
		return;
	}
	if (unlikely(tc->cfg != &s->cfg))
		armpmu_mux_learn(&s->mux, tc->set, tc->cfg);
	tc->loaded = true;
	tc->loaded_ns = now;
}

/* A counted thread comes in here: a migration if it last came in elsewhere. */
static void arrive(struct armpmu_session *s, struct task_link *link,
		   struct thread_rec *tc_rec)
{
	int cpu = smp_processor_id();

	if (likely(link->cpu == cpu))
		return;
	if (link->cpu >= 0) {
		s->migrations++;
		if (tc_rec)
			tc_rec->c.migrations++;
	}
	link->cpu = cpu;
}

/* A sampled thread comes in: its timer starts with the rest of its period. */
static void sample_in(struct task_cpu *tc, struct task_link *link, u64 now)
{
	armpmu_sampling_start(link->s, &link->st, link->task, tc->loaded, now);
	tc->st = &link->st;
	hrtimer_start(&tc->sample, ns_to_ktime(link->st.left_ns), HRTIMER_MODE_REL_PINNED_HARD);
}

/* @link's thread is running here: count it, if its file is started. */
static __always_inline void switch_in(struct task_cpu *tc, struct task_link *link)
{
	struct armpmu_session *s = link->s;
	u64 now = task_clock();

	raw_spin_lock(&s->count_lock);
	if (s->running && !s->closing) {
		tc->cur = s;
		tc->rec = s->follow ? link->rec : NULL;
		tc->in_ns = now;
		arrive(s, link, tc->rec);
		load(tc, s, now);
		if (unlikely(s->sampling.sampler))
			sample_in(tc, link, now);
	}
	raw_spin_unlock(&s->count_lock);
}

/* The signature is not checked by the tracepoint: see armpmu_task_mode_init. */
static void probe_sched_switch(void *data, bool preempt, struct task_struct *prev,
			       struct task_struct *next, unsigned int prev_state)
{
	struct task_cpu *tc = this_cpu_ptr(&task_cpus);
	struct task_link *link;

	if (tc->cur)
		switch_out(tc, true);
	link = link_of(next);
	if (link)
		switch_in(tc, link);
}

/* Room for one more thread's totals, if @s keeps more; NULL otherwise. */
static struct thread_rec *new_rec(struct armpmu_session *s, gfp_t gfp)
{
	if (READ_ONCE(s->threads_kept) >= ARMPMU_THREADS_KEPT)
		return NULL;
	return kzalloc(sizeof(struct thread_rec), gfp | __GFP_NOWARN);
}

/*
 * A new link's thread gets @rec for its totals if its file keeps more,
 * else is counted as lost. Under links_lock; returns @rec if unused.
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
static void probe_sched_process_fork(void *data, struct task_struct *parent,
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
	rec = new_rec(s, GFP_ATOMIC);
	raw_spin_lock_irqsave(&links_lock, flags);
	if (link && !s->closing) {
		link->task = get_task_struct(child);
		link->s = s;
		rec = keep_rec(link, rec);
		hash_add_rcu(task_links, &link->hash, (unsigned long)child);
		list_add(&link->node, &s->tasks);
		if (unlikely(READ_ONCE(s->sampling.sampler)))
			armpmu_sampling_task(s, &link->st, ARMPMU_RECORD_FORK, child, parent);
		link = NULL;
	} else if (!link) {
		raw_spin_lock(&s->count_lock);
		s->incomplete = true;
		raw_spin_unlock(&s->count_lock);
	}
	raw_spin_unlock_irqrestore(&links_lock, flags);
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

/* Under links_lock. */
static void unlink_task(struct task_link *link)
{
	hash_del_rcu(&link->hash);
	list_del(&link->node);
	call_rcu(&link->rcu, free_link);
}

/*
 * Let go of @task (current): what it counted so far goes to its file,
 * which it leaves, and a sampled file gets @record (EXIT or LET_GO).
 * Under links_lock; returns the file it left, or NULL.
 */
static struct armpmu_session *let_go(struct task_struct *task, u16 record)
{
	struct armpmu_session *s;
	struct task_cpu *tc;
	struct task_link *link;

	hash_for_each_possible(task_links, link, hash, (unsigned long)task) {
		if (link->task != task)
			continue;
		s = link->s;
		tc = this_cpu_ptr(&task_cpus);
		if (tc->cur == s && task == current)
			switch_out(tc, false);
		if (link->rec) {
			raw_spin_lock(&s->count_lock);
			link->rec->exited = true;
			raw_spin_unlock(&s->count_lock);
		}
		if (unlikely(READ_ONCE(s->sampling.sampler)))
			armpmu_sampling_task(s, &link->st, record, task, NULL);
		unlink_task(link);
		if (unlikely(READ_ONCE(s->sampling.sampler)) && list_empty(&s->tasks))
			armpmu_sampling_ended(s);
		return s;
	}
	return NULL;
}

/*
 * An exiting thread (current): its counts go to its file, and it goes.
 * Always under links_lock, although most exits are nobody's: an ATTACH
 * that found the thread not yet exiting under the same lock is then
 * certain to be seen here.
 */
static void let_go_exiting(struct task_struct *task)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&links_lock, flags);
	let_go(task, ARMPMU_RECORD_EXIT);
	raw_spin_unlock_irqrestore(&links_lock, flags);
}

static void probe_sched_process_exit(void *data, struct task_struct *task)
{
	let_go_exiting(task);
}

static DEFINE_MUTEX(hook_lock);
static unsigned int task_files;		/* under hook_lock */
static bool hooked;			/* under hook_lock */

#ifdef CONFIG_DYNAMIC_FTRACE
/*
 * perf lets an exiting thread go before exit_mm() tears its address space
 * down (do_exit() calls perf_event_exit_task() there on the kernels the
 * lab runs, 6.1 and 6.12 stable), so the teardown is not in its
 * kernel-mode counts. A function-entry hook on exit_mm_release(),
 * exit_mm()'s first call, lets go of a counted thread at the same point.
 * It is registered once, at load: patching the kernel's text on arm takes
 * a stop_machine(), too much for every first task-mode file. Without
 * dynamic ftrace, or if this hook misses a link made as it looked, the
 * sched_process_exit probe lets go of the thread after the teardown.
 */
static void exit_mm_hook(unsigned long ip, unsigned long parent_ip,
			 struct ftrace_ops *ops, struct ftrace_regs *fregs)
{
	if (READ_ONCE(task_files))
		let_go_exiting(current);
}

/* It cannot recurse: nothing it calls reaches exit_mm_release(). */
static struct ftrace_ops exit_mm_ops = {
	.func = exit_mm_hook,
	.flags = FTRACE_OPS_FL_RECURSION,
};
static bool exit_mm_hooked;

static void hook_exit_mm(void)
{
	static char name[] = "exit_mm_release";
	int ret;

	ret = ftrace_set_filter(&exit_mm_ops, name, strlen(name), 0);
	ret = ret ? ret : register_ftrace_function(&exit_mm_ops);
	if (ret) {
		pr_info("no hook on %s (%d): an exiting thread's kernel-mode counts include its address space's teardown\n",
			name, ret);
		return;
	}
	exit_mm_hooked = true;
}

static void unhook_exit_mm(void)
{
	if (exit_mm_hooked)
		unregister_ftrace_function(&exit_mm_ops);
	ftrace_free_filter(&exit_mm_ops);
}
#else
static void hook_exit_mm(void) { }
static void unhook_exit_mm(void) { }
#endif

static bool same_ids(const struct cred *opener, const struct cred *t)
{
	return uid_eq(opener->uid, t->euid) && uid_eq(opener->uid, t->suid) &&
	       uid_eq(opener->uid, t->uid) && gid_eq(opener->gid, t->egid) &&
	       gid_eq(opener->gid, t->sgid) && gid_eq(opener->gid, t->gid);
}

/* The capability rule of Linux's commoncap: nothing the opener lacks. */
static bool caps_within(const struct cred *opener, const struct cred *t)
{
	return opener->user_ns == t->user_ns &&
	       cap_issubset(t->cap_permitted, opener->cap_permitted);
}

/*
 * May @s go on counting current, which has just executed a program? The
 * ptrace check again, in a probe's terms: no capability is asked of the
 * security modules here, so an opener without CAP_PERFMON, CAP_SYS_ADMIN
 * or CAP_SYS_PTRACE in the initial namespace needs the same IDs, no fewer
 * capabilities and a dumpable result: a set-user-ID, set-group-ID or
 * file-capability program, or one the thread may execute but not read,
 * is let go.
 */
static bool may_go_on(const struct armpmu_session *s)
{
	const struct cred *tcred;
	bool ok;

	if (s->kernel_allowed || s->opener_ptrace)
		return true;
	rcu_read_lock();
	tcred = __task_cred(current);
	ok = same_ids(s->opener_cred, tcred) && caps_within(s->opener_cred, tcred);
	rcu_read_unlock();
	return ok && get_dumpable(current->mm) == SUID_DUMP_USER;
}

/*
 * After an exec's new credentials are committed and before the new program
 * runs: a thread its file's opener may no longer count is let go, and the
 * counts say so.
 */
static void probe_sched_process_exec(void *data, struct task_struct *task,
				     pid_t old_pid, struct linux_binprm *bprm)
{
	struct armpmu_session *s;
	struct task_link *link;
	unsigned long flags;

	rcu_read_lock();
	link = link_of(current);
	s = link ? link->s : NULL;
	if (!s || may_go_on(s)) {
		if (s && unlikely(READ_ONCE(s->sampling.sampler)))
			armpmu_sampling_task(s, &link->st, ARMPMU_RECORD_EXEC, current, NULL);
		rcu_read_unlock();
		return;
	}
	raw_spin_lock_irqsave(&links_lock, flags);
	s = let_go(current, ARMPMU_RECORD_LET_GO);
	if (s) {
		raw_spin_lock(&s->count_lock);
		s->exec_left = true;
		s->incomplete = true;
		raw_spin_unlock(&s->count_lock);
	}
	raw_spin_unlock_irqrestore(&links_lock, flags);
	rcu_read_unlock();
}

/*
 * An armed file starts counting at its thread's exec, at the point where
 * perf's enable_on_exec does: task_rename fires there, the old program's
 * image gone and the new one's credentials not yet committed (so the probe
 * above still sees the file, and lets go of what it may not count).
 */
static void probe_task_rename(void *data, struct task_struct *task, const char *comm)
{
	struct task_cpu *tc = this_cpu_ptr(&task_cpus);
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

static enum hrtimer_restart poll_task_cpu(struct hrtimer *timer)
{
	struct task_cpu *tc = container_of(timer, struct task_cpu, poll);
	struct armpmu_session *s = tc->cur;

	/*
	 * A timer migrated off a dead CPU must not read another CPU's PMU,
	 * nor touch that CPU's state: task_cpu_online() takes it from here.
	 */
	if (tc != this_cpu_ptr(&task_cpus))
		return HRTIMER_NORESTART;
	if (!s || !tc->loaded) {
		tc->polling = false;
		return HRTIMER_NORESTART;
	}
	raw_spin_lock(&s->count_lock);
	look(tc, task_clock());
	/* A multiplexed file's next set takes its turn. */
	if (tc->loaded && s->mux.on && s->mux.nsets > 1) {
		unload(tc, tc->in_ns);
		load(tc, s, tc->in_ns);
	}
	raw_spin_unlock(&s->count_lock);
	hrtimer_forward_now(timer, poll_period());
	return HRTIMER_RESTART;
}

/* The totals of the thread running here, or NULL if its file keeps none. */
static const u64 *thread_total(struct task_cpu *tc)
{
	if (tc->rec)
		return tc->rec->c.total;
	return tc->cur->follow ? NULL : tc->cur->total;
}

/* A sampled thread has run its period here (see sampling.c). */
static enum hrtimer_restart sample_tick(struct hrtimer *timer)
{
	struct task_cpu *tc = container_of(timer, struct task_cpu, sample);
	struct armpmu_session *s = tc->cur;
	u64 now, period = 0;

	/* As the poll timer's: one migrated off a dead CPU stops. */
	if (tc != this_cpu_ptr(&task_cpus) || !s || !tc->st)
		return HRTIMER_NORESTART;
	raw_spin_lock(&s->count_lock);
	if (s->sampling.sampler) {
		now = task_clock();
		look(tc, now);
		armpmu_sampling_tick(s, tc->st, thread_total(tc), tc->loaded, now);
		period = armpmu_sampling_period(s);
	}
	raw_spin_unlock(&s->count_lock);
	if (!period)
		return HRTIMER_NORESTART;
	hrtimer_forward_now(timer, ns_to_ktime(period));
	return HRTIMER_RESTART;
}

/*
 * A CPU coming online, on that CPU before any user thread runs there: its
 * poll timer may have been handed to another CPU when it went down, and
 * may still be queued there. Cancelled, so that the next load starts it
 * here again; otherwise counters loaded here would run with no poll.
 */
static int task_cpu_online(unsigned int cpu)
{
	struct task_cpu *tc = per_cpu_ptr(&task_cpus, cpu);

	hrtimer_cancel(&tc->poll);
	hrtimer_cancel(&tc->sample);
	local_irq_disable();
	tc->polling = false;
	local_irq_enable();
	return 0;
}

static enum cpuhp_state task_cpu_state;

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
	{ "sched_process_exec", probe_sched_process_exec },
	{ "task_rename", probe_task_rename },
};

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
		WRITE_ONCE(task_files, task_files + 1);
	}
	mutex_unlock(&hook_lock);
	return ret;
}

static void unhook_later(void)
{
	mutex_lock(&hook_lock);
	WRITE_ONCE(task_files, task_files - 1);
	if (!task_files)
		mod_delayed_work(system_wq, &unhook_work, HZ);
	mutex_unlock(&hook_lock);
}

int armpmu_task_mode_init(void)
{
	unsigned int i, cpu;
	int ret;

	/* Compile-time checks that the probes match the kernel's prototypes. */
	check_trace_callback_type_sched_switch(probe_sched_switch);
	check_trace_callback_type_sched_process_fork(probe_sched_process_fork);
	check_trace_callback_type_sched_process_exit(probe_sched_process_exit);
	check_trace_callback_type_sched_process_exec(probe_sched_process_exec);
	check_trace_callback_type_task_rename(probe_task_rename);

	for_each_kernel_tracepoint(find_tracepoint, NULL);
	for (i = 0; i < ARRAY_SIZE(probes); i++) {
		if (!probes[i].tp) {
			pr_err("no %s tracepoint: task mode needs it\n", probes[i].name);
			return -ENOENT;
		}
	}
	choose_clock();
	for_each_possible_cpu(cpu) {
		struct task_cpu *tc = per_cpu_ptr(&task_cpus, cpu);

		hrtimer_init(&tc->poll, CLOCK_MONOTONIC, HRTIMER_MODE_REL_PINNED_HARD);
		tc->poll.function = poll_task_cpu;
		hrtimer_init(&tc->sample, CLOCK_MONOTONIC, HRTIMER_MODE_REL_PINNED_HARD);
		tc->sample.function = sample_tick;
	}
	ret = cpuhp_setup_state_nocalls(CPUHP_AP_ONLINE_DYN, "misc/armpmu:task",
					task_cpu_online, NULL);
	if (ret < 0)
		return ret;
	task_cpu_state = ret;
	hook_exit_mm();
	return 0;
}

void armpmu_task_mode_exit(void)
{
	unsigned int cpu;

	unhook_exit_mm();
	cancel_delayed_work_sync(&unhook_work);
	mutex_lock(&hook_lock);
	if (hooked)
		unhook();
	mutex_unlock(&hook_lock);
	cpuhp_remove_state_nocalls(task_cpu_state);
	for_each_possible_cpu(cpu) {
		hrtimer_cancel(&per_cpu_ptr(&task_cpus, cpu)->poll);
		hrtimer_cancel(&per_cpu_ptr(&task_cpus, cpu)->sample);
	}
	/* Links and files freed by call_rcu must be gone with the module. */
	rcu_barrier();
}

/* ---- the file's side, in process context ---- */

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
 * May @s's opener count @task? perf_event_open's rule: CAP_PERFMON (or
 * CAP_SYS_ADMIN), or ptrace_may_access(PTRACE_MODE_READ_REALCREDS), which
 * is not exported, so it is spelt out here with the opener's credentials:
 * the same thread group; the opener's real IDs equal to all of the
 * target's (or CAP_SYS_PTRACE over its user namespace); commoncap's
 * capability subset in one user namespace (or that capability again); a
 * dumpable target (or CAP_SYS_PTRACE over its memory's namespace). The
 * other security modules' ptrace hooks are not reachable from a module.
 * Process context; under task_lock, as ptrace reads task->mm.
 */
static bool may_count(const struct armpmu_session *s, struct task_struct *task)
{
	const struct cred *cred = s->opener_cred, *tcred;
	struct file *f = s->file;
	struct mm_struct *mm;
	bool ok;

	if (s->kernel_allowed || openers_own(s, task))
		return true;
	task_lock(task);
	rcu_read_lock();
	tcred = __task_cred(task);
	ok = (same_ids(cred, tcred) && caps_within(cred, tcred)) ||
	     file_ns_capable(f, tcred->user_ns, CAP_SYS_PTRACE);
	rcu_read_unlock();
	/* Dumpability after the credentials, as ptrace reads them. */
	smp_rmb();
	mm = task->mm;
	if (ok && mm && get_dumpable(mm) != SUID_DUMP_USER)
		ok = file_ns_capable(f, mm->user_ns, CAP_SYS_PTRACE);
	task_unlock(task);
	return ok;
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

	struct task_link *link;

	rcu_read_lock();
	link = link_of(current);
	if (!tc->cur && link && link->s == s)
		switch_in(tc, link);
	rcu_read_unlock();
}

static void unload_here(void *info)
{
	struct task_cpu *tc = this_cpu_ptr(&task_cpus);

	if (tc->cur == info)
		switch_out(tc, false);
}

/* @fn(this CPU's share, now) under the count lock, if a thread of @s runs here. */
static void on_file_here(struct armpmu_session *s, void (*fn)(struct task_cpu *tc, u64 now))
{
	struct task_cpu *tc = this_cpu_ptr(&task_cpus);

	if (tc->cur != s)
		return;
	raw_spin_lock(&s->count_lock);
	fn(tc, task_clock());
	raw_spin_unlock(&s->count_lock);
}

static void fold_here(void *info)
{
	on_file_here(info, look);
}

/*
 * A thread's counts from zero: only the counters a load can fold into
 * (those below num_counters, and the cycle counter) hold any.
 */
static void zero_rec(const struct armpmu_session *s, struct thread_rec *rec)
{
	struct thread_counts *c = &rec->c;

	c->switches = 0;
	c->migrations = 0;
	c->time_enabled = 0;
	c->time_running = 0;
	memset(c->total, 0, s->caps->num_counters * sizeof(c->total[0]));
	c->total[ARMPMU_CYCLE_IDX] = 0;
}

static void zero_counts(struct armpmu_session *s)
{
	struct thread_rec *rec;

	memset(s->total, 0, sizeof(s->total));
	s->time_enabled = 0;
	s->time_running = 0;
	s->switches = 0;
	s->migrations = 0;
	if (s->follow)
		list_for_each_entry(rec, &s->threads, node)
			zero_rec(s, rec);
	s->disturbed = false;
	s->incomplete = false;
	s->exec_left = false;
	armpmu_sampling_rebase(s);
	if (unlikely(s->mux.on))
		armpmu_mux_zero(&s->mux);
	else
		s->mux.based = 0;
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
		armpmu_counters_rebase(tc->cfg, &tc->load);
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

/*
 * Link @task to @s, under links_lock: EBUSY if another file counts it,
 * ESRCH if it is exiting. The exit probe takes the same lock after the
 * thread is marked exiting, so a thread found not exiting here will be
 * let go by it.
 */
static int link_task(struct armpmu_session *s, struct task_link *link,
		     struct thread_rec **rec)
{
	struct task_struct *task = link->task;
	int ret = 0;

	raw_spin_lock_irq(&links_lock);
	rcu_read_lock();
	if (READ_ONCE(task->flags) & PF_EXITING)
		ret = -ESRCH;
	else if (file_of(task))
		ret = -EBUSY;
	rcu_read_unlock();
	if (!ret) {
		*rec = keep_rec(link, *rec);
		hash_add_rcu(task_links, &link->hash, (unsigned long)task);
		list_add(&link->node, &s->tasks);
	}
	raw_spin_unlock_irq(&links_lock);
	return ret;
}

int armpmu_task_attach(struct armpmu_session *s, u32 tid, u32 flags)
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
	ret = link ? hook() : -ENOMEM;
	if (ret) {
		kfree(link);
		goto put;
	}
	link->task = task;
	link->s = s;
	s->follow = flags & ARMPMU_ATTACH_FOLLOW;
	s->on_exec = flags & ARMPMU_ATTACH_ENABLE_ON_EXEC;
	/* From the check to the link, no exec changes who the thread is. */
	rec = new_rec(s, GFP_KERNEL);
	ret = down_read_killable(&task->signal->exec_update_lock);
	if (!ret) {
		ret = may_count(s, task) ? link_task(s, link, &rec) : -EACCES;
		up_read(&task->signal->exec_update_lock);
	}
	kfree(rec);
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
static u32 threads_of(struct armpmu_session *s)
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
	unload(tc, task_clock());
	s->incomplete = true;
	raw_spin_unlock(&s->count_lock);
}

/* The counters task mode holds in this CPU's PMU (interrupts off). */
u32 armpmu_task_counting(void)
{
	struct task_cpu *tc = this_cpu_ptr(&task_cpus);

	return tc->cur && tc->loaded ? armpmu_counters_of(tc->cfg) : 0;
}

static int task_program(struct armpmu_session *s, u32 idx, u32 evtype)
{
	struct thread_rec *rec;

	armpmu_counters_set_evtype(&s->cfg, idx, evtype);
	s->total[idx] = 0;
	raw_spin_lock_irq(&s->count_lock);
	list_for_each_entry(rec, &s->threads, node)
		rec->c.total[idx] = 0;
	armpmu_sampling_rebase(s);
	raw_spin_unlock_irq(&s->count_lock);
	return 0;
}

static int task_set_value(struct armpmu_session *s, u32 idx, u64 value)
{
	raw_spin_lock_irq(&s->count_lock);
	s->total[idx] = value;
	armpmu_sampling_rebase(s);
	raw_spin_unlock_irq(&s->count_lock);
	return 0;
}

/* Stopped: no CPU has the file loaded, and its totals are steady. */
static void task_multiplex(struct armpmu_session *s)
{
	raw_spin_lock_irq(&s->count_lock);
	armpmu_mux_begin(&s->mux, &s->cfg, s->total, s->time_running);
	raw_spin_unlock_irq(&s->count_lock);
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
	if (s->running || s->armed)
		return 0;
	raw_spin_lock_irq(&s->count_lock);
	s->started = true;
	/* Armed: the probe on the exec starts it. */
	if (s->on_exec)
		s->armed = true;
	else
		s->running = true;
	raw_spin_unlock_irq(&s->count_lock);
	if (s->armed)
		return 0;
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
	s->armed = false;
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
	look(tc, task_clock());
	return true;
}

/*
 * A running file's counters folded in wherever its threads run. Under its
 * count_lock, interrupts off, which it may let go of for a while.
 */
static void fold_running(struct armpmu_session *s)
{
	if (s->running && !look_if_only_here(s)) {
		raw_spin_unlock_irq(&s->count_lock);
		on_file_cpus(s, fold_here, false);
		raw_spin_lock_irq(&s->count_lock);
	}
}

static int task_read(struct armpmu_session *s)
{
	int ret;

	raw_spin_lock_irq(&s->count_lock);
	fold_running(s);
	/* Whatever the reason, counts that cover less than the time say so. */
	ret = armpmu_snapshot(s, (s->incomplete || s->time_running < s->time_enabled ?
				  ARMPMU_COUNTS_INCOMPLETE : 0) |
			      (s->exec_left ? ARMPMU_COUNTS_EXEC_LEFT : 0));
	raw_spin_unlock_irq(&s->count_lock);
	return ret;
}

/*
 * Thread totals taken out of their file: nothing else holds them (a
 * thread's rec is in its link, and loaded on its CPU only while counted).
 */
static void free_recs(struct list_head *gone)
{
	struct thread_rec *rec, *next;

	list_for_each_entry_safe(rec, next, gone, node) {
		put_pid(rec->pid);
		kfree(rec);
	}
}

/* RESET: the threads that have gone leave the file, the others count anew. */
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
	free_recs(&gone);
	if (s->running)
		on_this_file(s, reset_here);
	return 0;
}

/*
 * Closing, or an administrator's release: no more loads, every thread let
 * go, the hardware left clean. Once: a released file is closed later.
 */
static void task_release(struct armpmu_session *s)
{
	struct task_link *link, *next;
	LIST_HEAD(gone);

	raw_spin_lock_irq(&links_lock);
	if (s->closing) {
		raw_spin_unlock_irq(&links_lock);
		return;
	}
	raw_spin_lock(&s->count_lock);
	s->closing = true;
	s->running = false;
	s->armed = false;
	raw_spin_unlock(&s->count_lock);
	list_for_each_entry_safe(link, next, &s->tasks, node)
		unlink_task(link);
	raw_spin_unlock_irq(&links_lock);
	/* Unloading zeroes: no CPU keeps the file's counts. */
	on_file_cpus(s, unload_here, false);
	raw_spin_lock_irq(&s->count_lock);
	list_splice_init(&s->threads, &gone);
	s->threads_kept = 0;
	raw_spin_unlock_irq(&s->count_lock);
	free_recs(&gone);
	unhook_later();
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
	st->threads = threads_of(s);
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
		fold_running(s);
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
	.program = task_program,
	.set_value = task_set_value,
	.start = task_start,
	.stop = task_stop,
	.read = task_read,
	.reset = task_reset,
	.multiplex = task_multiplex,
	.release = task_release,
	.revoke = task_revoke,
	.describe = task_describe,
	.info = task_info,
	.threads = task_threads,
};
