// SPDX-License-Identifier: GPL-2.0
/*
 * Task mode's per-CPU switch path: the sched_switch probe that saves the
 * outgoing thread's counts into its file, zeroing the counters it leaves,
 * and loads the incoming thread's configuration into this CPU's PMU; the
 * poll and sampling timers of the thread loaded here; task mode's clock;
 * and the work a file's operations do on the CPUs where its threads run.
 * The switch path's helpers are task.h's, inlined.
 *
 * Locking: this CPU's struct task_cpu is touched only on this CPU with
 * interrupts off (the probe, the timers, cross-calls); a file's totals
 * under its count_lock, from whichever CPU its thread runs on.
 */
#include <linux/clocksource.h>
#include <linux/cpu.h>
#include <linux/cpuhotplug.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/smp.h>
#include "task.h"
#include "pmu_regs.h"

DEFINE_PER_CPU(struct task_cpu, armpmu_task_cpu_state);

/* Task mode's clock (see task.h's task_clock), chosen at load. */
bool __ro_after_init armpmu_task_cpu_clock_direct;
u32 __ro_after_init armpmu_task_cpu_clock_mult;
u32 __ro_after_init armpmu_task_cpu_clock_shift;

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
	clocks_calc_mult_shift(&armpmu_task_cpu_clock_mult, &armpmu_task_cpu_clock_shift,
			       freq, NSEC_PER_SEC, 3600);
	armpmu_task_cpu_clock_direct = true;
#endif
}

/* Counters found disturbed (what is still ours stopped): they are cleared. */
static void drop_disturbed(struct task_cpu *tc)
{
	struct armpmu_session *s = tc->cur;

	armpmu_counters_clear(tc->in_pmu.cfg);
	s->disturbed = true;
	tc->loaded = false;
}

/* Fold in what the loaded counters counted since the last look. */
static void look(struct task_cpu *tc, u64 now)
{
	u64 ran = take_time(tc, now);

	if (!tc->loaded)
		return;
	if (!armpmu_loaded_look(&tc->in_pmu, tc->cur, own_total(tc), ran))
		drop_disturbed(tc);
}

/* The signature is not checked by the tracepoint: see task_hooks.c. */
void armpmu_task_cpu_switch(void *data, bool preempt, struct task_struct *prev,
			    struct task_struct *next, unsigned int prev_state)
{
	struct task_cpu *tc = this_cpu_ptr(&armpmu_task_cpu_state);
	struct task_link *link;

	if (tc->cur)
		switch_out(tc, true);
	link = link_of(next);
	if (link)
		switch_in(tc, link);
}

static enum hrtimer_restart poll_task_cpu(struct hrtimer *timer)
{
	struct task_cpu *tc = container_of(timer, struct task_cpu, poll);
	struct armpmu_session *s = tc->cur;

	/*
	 * A timer migrated off a dead CPU must not read another CPU's PMU,
	 * nor touch that CPU's state: task_cpu_online() takes it from here.
	 */
	if (tc != this_cpu_ptr(&armpmu_task_cpu_state))
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
	ktime_t mono = 0;

	/* As the poll timer's: one migrated off a dead CPU stops. */
	if (tc != this_cpu_ptr(&armpmu_task_cpu_state) || !s || !tc->st)
		return HRTIMER_NORESTART;
	raw_spin_lock(&s->count_lock);
	/* Not once the file is closing: see sample_out(). */
	if (s->sampling.sampler && s->running && !s->closing) {
		/* One read of the timer's clock: the sample's time, and the timer's next. */
		mono = ktime_get();
		now = task_clock();
		look(tc, now);
		armpmu_sampling_tick(s, tc->st, thread_total(tc), tc->loaded, now,
				     ktime_to_ns(mono));
		period = armpmu_sampling_period(s);
	}
	raw_spin_unlock(&s->count_lock);
	if (!period)
		return HRTIMER_NORESTART;
	hrtimer_forward(timer, mono, ns_to_ktime(period));
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
	struct task_cpu *tc = per_cpu_ptr(&armpmu_task_cpu_state, cpu);

	hrtimer_cancel(&tc->poll);
	hrtimer_cancel(&tc->sample);
	local_irq_disable();
	tc->polling = false;
	local_irq_enable();
	return 0;
}

static enum cpuhp_state task_cpu_state;

/* The clock, and each CPU's timers and hotplug callback. */
int armpmu_task_cpu_init(void)
{
	unsigned int cpu;
	int ret;

	choose_clock();
	for_each_possible_cpu(cpu) {
		struct task_cpu *tc = per_cpu_ptr(&armpmu_task_cpu_state, cpu);

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
	return 0;
}

/* Once the probes are gone: no timer runs on. */
void armpmu_task_cpu_exit(void)
{
	unsigned int cpu;

	cpuhp_remove_state_nocalls(task_cpu_state);
	for_each_possible_cpu(cpu) {
		hrtimer_cancel(&per_cpu_ptr(&armpmu_task_cpu_state, cpu)->poll);
		hrtimer_cancel(&per_cpu_ptr(&armpmu_task_cpu_state, cpu)->sample);
	}
}

/* ---- for a file's operations, in process context or a cross-call ---- */

/* Work on the CPUs where @s is loaded, or where its threads are current. */
static void on_file(struct armpmu_session *s, smp_call_func_t fn, bool tasks_too)
{
	unsigned int cpu;
	cpumask_var_t cpus;

	if (!zalloc_cpumask_var(&cpus, GFP_KERNEL)) {
		on_each_cpu(fn, s, 1);
		return;
	}
	cpus_read_lock();
	for_each_online_cpu(cpu)
		if (READ_ONCE(per_cpu_ptr(&armpmu_task_cpu_state, cpu)->cur) == s)
			cpumask_set_cpu(cpu, cpus);
	if (tasks_too)
		armpmu_task_links_cpus(s, cpus);
	cpumask_and(cpus, cpus, cpu_online_mask);
	on_each_cpu_mask(cpus, fn, s, 1);
	cpus_read_unlock();
	free_cpumask_var(cpus);
}

/*
 * The next four are cross-calls (on_file) and, always inlined, the work of
 * START, STOP and RESET on the caller's own CPU below: left to itself GCC
 * calls them out of line on armhf, a call more for each operation.
 */

/* A thread of @s started running here before START: count it from now. */
static __always_inline void load_if_current(void *info)
{
	struct armpmu_session *s = info;
	struct task_cpu *tc = this_cpu_ptr(&armpmu_task_cpu_state);
	struct task_link *link;

	rcu_read_lock();
	link = link_of(current);
	if (!tc->cur && link && link->s == s)
		switch_in(tc, link);
	rcu_read_unlock();
}

static __always_inline void unload_here(void *info)
{
	struct task_cpu *tc = this_cpu_ptr(&armpmu_task_cpu_state);

	if (tc->cur == info)
		switch_out(tc, false);
}

/* @fn(this CPU's share, now) under the count lock, if a thread of @s runs here. */
static __always_inline void on_file_here(struct armpmu_session *s,
					  void (*fn)(struct task_cpu *tc, u64 now))
{
	struct task_cpu *tc = this_cpu_ptr(&armpmu_task_cpu_state);

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
		armpmu_counters_rebase(tc->in_pmu.cfg, &tc->in_pmu.vals);
		tc->loaded_ns = now;
	} else {
		load(tc, s, now);
	}
}

/* RESET where a thread of @info runs. */
static __always_inline void reset_here(void *info)
{
	on_file_here(info, restart);
}

/*
 * For a file's own thread, on its own CPU, no cross-call is needed. The
 * entry points below are one call each from the mode's operations, with
 * their work inlined here, as before the split: a call more cost START,
 * STOP and RESET about 8 instructions each on the A7.
 */
static __always_inline void on_this_file(struct armpmu_session *s, smp_call_func_t fn)
{
	struct task_cpu *tc;
	bool here;

	local_irq_disable();
	tc = this_cpu_ptr(&armpmu_task_cpu_state);
	here = tc->cur == s;
	if (here)
		fn(s);
	local_irq_enable();
	if (!here || !list_is_singular(&s->tasks))
		on_file(s, fn, false);
}

/*
 * START and STOP are task mode's operations themselves (task_mode.c's
 * struct armpmu_mode points here): a call from there cost each about 10
 * instructions on the A7, where the mode's other operations cost none.
 * Their state changes under the file's count_lock, which every load
 * takes.
 */
int armpmu_task_cpu_start(struct armpmu_session *s)
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
	/* The caller's thread at once; the file's others where they run. */
	local_irq_disable();
	load_if_current(s);
	local_irq_enable();
	if (!only_caller(s))
		on_file(s, load_if_current, true);
	return 0;
}

int armpmu_task_cpu_stop(struct armpmu_session *s)
{
	raw_spin_lock_irq(&s->count_lock);
	s->running = false;
	s->armed = false;
	s->started = false;
	raw_spin_unlock_irq(&s->count_lock);
	on_this_file(s, unload_here);
	return 0;
}

/* RESET of a running file: each CPU where it runs counts from zero. */
void armpmu_task_cpu_restart(struct armpmu_session *s)
{
	on_this_file(s, reset_here);
}

/* Closing: unloaded everywhere (unloading zeroes: no CPU keeps its counts). */
void armpmu_task_cpu_unload_all(struct armpmu_session *s)
{
	on_file(s, unload_here, false);
}

/* A CPU-mode file takes this CPU: the thread running here stops counting. */
void armpmu_task_cpu_evict(void)
{
	struct task_cpu *tc = this_cpu_ptr(&armpmu_task_cpu_state);
	struct armpmu_session *s = tc->cur;

	if (!s || !tc->loaded)
		return;
	raw_spin_lock(&s->count_lock);
	unload(tc, task_clock());
	s->incomplete = true;
	raw_spin_unlock(&s->count_lock);
}

/* The counters task mode holds in this CPU's PMU (interrupts off). */
u32 armpmu_task_cpu_counting(void)
{
	struct task_cpu *tc = this_cpu_ptr(&armpmu_task_cpu_state);

	return tc->cur && tc->loaded ? armpmu_counters_of(tc->in_pmu.cfg) : 0;
}

/* The file's one thread runs here: a look here is a look everywhere. */
static bool look_if_only_here(struct armpmu_session *s)
{
	struct task_cpu *tc = this_cpu_ptr(&armpmu_task_cpu_state);

	if (tc->cur != s || !list_is_singular(&s->tasks))
		return false;
	look(tc, task_clock());
	return true;
}

/*
 * A running file's counters folded in wherever its threads run. Under its
 * count_lock, interrupts off, which it may let go of for a while.
 */
void armpmu_task_cpu_fold(struct armpmu_session *s)
{
	if (s->running && !look_if_only_here(s)) {
		raw_spin_unlock_irq(&s->count_lock);
		on_file(s, fold_here, false);
		raw_spin_lock_irq(&s->count_lock);
	}
}
