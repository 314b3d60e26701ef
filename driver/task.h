/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Task mode's private header, for its four files only: the types they
 * share (a counted thread's link and totals, one CPU's share of task
 * mode) and the switch path's hot helpers, inlined into every caller as
 * they were when task mode was one file.
 *
 *   task_links.c  links and per-thread records, and the probes that follow
 *                 a thread's life (fork, exec, exit)
 *   task_cpu.c    the per-CPU switch path: the sched_switch probe, the
 *                 poll and sampling timers, the work done on a CPU for
 *                 a file's operations, and START and STOP themselves
 *                 (inlined with the switch path's code they run)
 *   task_hooks.c  the tracepoint and ftrace hooks' registration
 *   task_mode.c   the mode's other operations (struct armpmu_mode)
 *
 * Locking, for all four: a file's totals are updated from any CPU under
 * its count_lock; a CPU's struct task_cpu only ever on that CPU with
 * interrupts off; links and files' task lists change under task_links.c's
 * armpmu_task_links_lock and are read under RCU. The probes run with interrupts off
 * (sched_switch also under the runqueue lock): no sleeping, no printk.
 */
#ifndef ARMPMU_TASK_H
#define ARMPMU_TASK_H

#include <linux/hashtable.h>
#include <linux/hrtimer.h>
#include <linux/math64.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/smp.h>
#include <asm/arch_timer.h>
#include <clocksource/arm_arch_timer.h>
#include "armpmu.h"
#include "loaded.h"


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
	bool exec_left;			/* let go at an exec (exited too) */
	struct thread_counts c;
};

struct task_link {
	struct hlist_node hash;		/* in armpmu_task_links_table */
	struct list_head node;		/* in its file's tasks */
	struct task_struct *task;	/* a reference */
	struct armpmu_session *s;
	struct thread_rec *rec;		/* its totals, or NULL if not kept */
	int cpu;			/* where it last came in counted, or -1 */
	struct rcu_head rcu;
	struct armpmu_sample_thread st;	/* if its file is sampled */
};

#define TASK_LINK_BITS	8

/* task_links.c's: every link, keyed by its task_struct; readers use RCU. */
extern struct hlist_head armpmu_task_links_table[1 << TASK_LINK_BITS];
/* task_links.c's lock over the links (interrupts off). */
extern raw_spinlock_t armpmu_task_links_lock;

/* This CPU's share of task mode, touched only here, interrupts off. */
struct task_cpu {
	/*
	 * What is loaded: the file's configuration and totals, or for a
	 * multiplexed file one set of it in @set_cfg, folded into
	 * @set_total and from there into the slots. First, so that its
	 * address is the struct's: the switch path then needs no register
	 * of its own for it.
	 */
	struct armpmu_loaded in_pmu;
	struct armpmu_session *cur;	/* file of the thread running here */
	struct thread_rec *rec;		/* that thread's own totals, or NULL */
	bool loaded;			/* its counters are in this PMU */
	u64 in_ns;			/* when that thread came in */
	u64 loaded_ns;			/* when its counters were loaded */
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

DECLARE_PER_CPU(struct task_cpu, armpmu_task_cpu_state);

/* task_links.c: links and per-thread records; the probes on a thread's life. */
struct thread_rec *armpmu_task_links_new_rec(struct armpmu_session *s, gfp_t gfp);
int armpmu_task_links_add(struct armpmu_session *s, struct task_link *link,
			  struct thread_rec **rec);
u32 armpmu_task_links_count(struct armpmu_session *s);
void armpmu_task_links_cpus(struct armpmu_session *s, struct cpumask *cpus);
void armpmu_task_links_free_recs(struct list_head *gone);
bool armpmu_task_links_close(struct armpmu_session *s);
void armpmu_task_links_free_threads(struct armpmu_session *s);
void armpmu_task_links_exiting(struct task_struct *task);
void armpmu_task_links_fork(void *data, struct task_struct *parent,
			    struct task_struct *child);
void armpmu_task_links_exit(void *data, struct task_struct *task);
struct linux_binprm;
void armpmu_task_links_exec(void *data, struct task_struct *task,
			    pid_t old_pid, struct linux_binprm *bprm);
void armpmu_task_links_rename(void *data, struct task_struct *task, const char *comm);

/*
 * task_cpu.c: the sched_switch probe, the timers, and a file's work on the
 * CPUs where its threads run (the void * ones are cross-calls, @info the
 * file). armpmu_task_cpu_fold() wants the file's count_lock held,
 * interrupts off.
 */
int armpmu_task_cpu_init(void);
void armpmu_task_cpu_exit(void);
void armpmu_task_cpu_switch(void *data, bool preempt, struct task_struct *prev,
			    struct task_struct *next, unsigned int prev_state);
int armpmu_task_cpu_start(struct armpmu_session *s);
int armpmu_task_cpu_stop(struct armpmu_session *s);
void armpmu_task_cpu_restart(struct armpmu_session *s);
void armpmu_task_cpu_unload_all(struct armpmu_session *s);
void armpmu_task_cpu_fold(struct armpmu_session *s);

/* task_hooks.c: the probes' registration, held while a task-mode file exists. */
int armpmu_task_hooks_init(void);
void armpmu_task_hooks_exit(void);
int armpmu_task_hooks_get(void);
void armpmu_task_hooks_put(void);

/* @task's link, or NULL. Under RCU, or task_links.c's lock. */
static inline struct task_link *link_of(struct task_struct *task)
{
	struct task_link *link;

	hash_for_each_possible_rcu_notrace(armpmu_task_links_table, link, hash,
					   (unsigned long)task)
		if (link->task == task)
			return link;
	return NULL;
}

/*
 * The file counts the caller alone: no other CPU can hold its counters.
 * Inline: START asks it, and a call cost the A7 about 10 instructions.
 */
static inline bool only_caller(struct armpmu_session *s)
{
	bool only;

	raw_spin_lock_irq(&armpmu_task_links_lock);
	only = list_is_singular(&s->tasks) &&
	       list_first_entry(&s->tasks, struct task_link, node)->task == current;
	raw_spin_unlock_irq(&armpmu_task_links_lock);
	return only;
}

static inline struct armpmu_session *file_of(struct task_struct *task)
{
	struct task_link *link = link_of(task);

	return link ? link->s : NULL;
}

/*
 * @s's counts and its threads' from zero, under its count_lock: RESET's
 * and the restart on each CPU. Inline: a call out of RESET cost the A7
 * about 8 instructions. Only the counters a load can fold into (those
 * below num_counters, and the cycle counter) hold any.
 */
static inline void zero_counts(struct armpmu_session *s)
{
	struct thread_rec *rec;
	struct thread_counts *c;

	memset(s->total, 0, sizeof(s->total));
	s->time_enabled = 0;
	s->time_running = 0;
	s->switches = 0;
	s->migrations = 0;
	if (s->follow) {
		list_for_each_entry(rec, &s->threads, node) {
			c = &rec->c;
			c->switches = 0;
			c->migrations = 0;
			c->time_enabled = 0;
			c->time_running = 0;
			memset(c->total, 0, s->caps->num_counters * sizeof(c->total[0]));
			c->total[ARMPMU_CYCLE_IDX] = 0;
		}
	}
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
 * Task mode's clock, in nanoseconds from an arbitrary start, read at every
 * counted switch: the generic timer's counter, read through the timer
 * driver's accessor and scaled here, costs about a third of sched_clock(),
 * which reads the same counter under a sequence count. Used only where the
 * counter is there and runs at the rate CNTFRQ gives, as checked against
 * sched_clock() at load (task_cpu.c's choose_clock); sched_clock()
 * otherwise.
 */
extern bool armpmu_task_cpu_clock_direct;
extern u32 armpmu_task_cpu_clock_mult;
extern u32 armpmu_task_cpu_clock_shift;

static __always_inline u64 task_clock(void)
{
	if (likely(armpmu_task_cpu_clock_direct))
		return mul_u64_u32_shr(arch_timer_read_counter(), armpmu_task_cpu_clock_mult,
				       armpmu_task_cpu_clock_shift);
	return sched_clock();
}

static inline ktime_t poll_period(void)
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
static inline u64 *own_total(struct task_cpu *tc)
{
	return tc->rec ? tc->rec->c.total : NULL;
}

/*
 * Count what ran on this CPU since it was loaded, and stop counting here,
 * leaving zeroed counters: none of the thread's counts stay behind.
 */
static __always_inline void unload(struct task_cpu *tc, u64 now)
{
	struct armpmu_session *s = tc->cur;
	u64 ran = take_time(tc, now);

	if (!armpmu_loaded_pause(&tc->in_pmu, s, own_total(tc), ran, true, true))
		s->disturbed = true;
	else if (tc->in_pmu.cfg->divider)
		armpmu_counters_release_pmcr();
	tc->loaded = false;
}

/*
 * A sampled thread leaves: its timer stops, the rest of its period is
 * kept. Not once its file is closing: its link may be gone (a link is
 * freed a grace period after it is unlinked, and this CPU may be in user
 * mode, quiescent, until the close's cross-call reaches it).
 */
static inline void sample_out(struct task_cpu *tc, u64 now)
{
	hrtimer_try_to_cancel(&tc->sample);
	if (likely(!READ_ONCE(tc->cur->closing)))
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
	/*
	 * A multiplexed file's set is a copy here: threads on other CPUs may
	 * have other sets loaded.
	 */
	armpmu_loaded_choose(&tc->in_pmu, s, &tc->set_cfg, tc->set_total);
	if (!armpmu_cpus_task_may_load(s->caps->midr) ||
	    armpmu_loaded_load(&tc->in_pmu, s)) {
		s->incomplete = true;
		return;
	}
	tc->loaded = true;
	tc->loaded_ns = now;
}

/* A counted thread comes in here: a migration if it last came in elsewhere. */
static inline void arrive(struct armpmu_session *s, struct task_link *link,
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
static inline void sample_in(struct task_cpu *tc, struct task_link *link, u64 now)
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

#endif /* ARMPMU_TASK_H */
