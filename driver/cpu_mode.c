// SPDX-License-Identifier: GPL-2.0
/*
 * Whole-CPU counting: a file bound to a CPU keeps its configuration loaded
 * in that CPU's PMU. Every operation runs on the bound CPU with interrupts
 * off: through smp_call_function_single() (a plain call when the caller is
 * already there), the poll timer, and the hotplug and idle callbacks. So
 * the on-CPU state needs no lock of its own, and a file can only ever
 * report its own CPU.
 *
 * The poll timer looks at the counters often enough that none can wrap
 * twice between looks. A look that finds the counters disturbed (see
 * counters.c) stops the file, and its counts are reported as not
 * trustworthy (EIO from READ) until RESET.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/percpu.h>
#include <linux/sched/clock.h>
#include <linux/smp.h>
#include <linux/string.h>
#include "armpmu.h"
#include "pmu_regs.h"


/* The session counting on this CPU, for the idle callbacks. */
static DEFINE_PER_CPU(struct armpmu_session *, active_session);

static ktime_t poll_period(void)
{
	return ms_to_ktime(armpmu_counters_poll_ms);
}

static void mark_disturbed(struct armpmu_session *s)
{
	s->running = false;
	s->disturbed = true;
	/* The poll timer ends at its next expiry: no timer calls in idle. */
	pr_notice_ratelimited("CPU%d: another user of the PMU (perf?) stopped, reprogrammed or reset armpmu's counters: counts are not trustworthy until RESET\n",
			      s->cpu);
}

/* Counting time is time started, on a CPU that is there. */
static void take_time(struct armpmu_session *s)
{
	u64 now = sched_clock();

	s->time_enabled += now - s->since_ns;
	s->time_running += now - s->since_ns;
	s->since_ns = now;
}

/* A look at running counters: fold in their deltas, or find them disturbed. */
static void look(struct armpmu_session *s)
{
	take_time(s);
	if (!armpmu_counters_look(&s->cfg, &s->load, s->total)) {
		armpmu_counters_stop_own(&s->cfg);
		mark_disturbed(s);
	}
}

static void start_polling(struct armpmu_session *s)
{
	hrtimer_start(&s->poll, poll_period(), HRTIMER_MODE_REL_PINNED_HARD);
}

static int start_counting(struct armpmu_session *s)
{
	int ret = armpmu_counters_load(&s->cfg, &s->load);

	if (ret)
		return ret;
	s->running = true;
	s->started = true;
	s->since_ns = sched_clock();
	start_polling(s);
	return 0;
}

/*
 * Counting pauses while the CPU is away (offline, or powered down in idle,
 * where the poll timer cannot fire before the CPU is back).
 */
static void pause_counting(struct armpmu_session *s, bool check_enable)
{
	take_time(s);
	if (!armpmu_counters_pause(&s->cfg, &s->load, s->total, check_enable, false))
		mark_disturbed(s);
}

static void stop_counting(struct armpmu_session *s)
{
	pause_counting(s, true);
	if (!s->running)
		return;	/* disturbed: the disturbance has stopped it */
	s->running = false;
	/* We are on the timer's CPU with interrupts off: it cannot be running. */
	hrtimer_try_to_cancel(&s->poll);
	armpmu_counters_release_pmcr();
}

/* The CPU is back, its PMU reset by perf or by power-down. */
static bool resume_counting(struct armpmu_session *s)
{
	s->running = false;
	if (!armpmu_counters_load(&s->cfg, &s->load)) {
		s->running = true;
		s->since_ns = sched_clock();
		return true;
	}
	s->disturbed = true;
	pr_notice_ratelimited("CPU%d: armpmu's counters were taken while the CPU was away: counts are not trustworthy until RESET\n",
			      s->cpu);
	return false;
}

struct cpu_call {
	struct armpmu_session *s;
	int (*fn)(struct armpmu_session *s, const void *arg);
	const void *arg;
	int ret;
};

static void call_on_cpu(void *info)
{
	struct cpu_call *call = info;
	struct armpmu_session *s = call->s;

	if (s->revoked)
		call->ret = -ECANCELED;
	else if (s->parked)
		call->ret = -ENXIO;
	else
		call->ret = call->fn(s, call->arg);
}

/* Run @fn(@s, @arg) on the bound CPU, interrupts off. */
static int on_bound_cpu(struct armpmu_session *s,
			int (*fn)(struct armpmu_session *s, const void *arg),
			const void *arg)
{
	struct cpu_call call = { .s = s, .fn = fn, .arg = arg };
	int ret = smp_call_function_single(s->cpu, call_on_cpu, &call, 1);

	return ret ? ret : call.ret;
}

static int peek_userenr(struct armpmu_session *s, const void *unused)
{
	s->userenr = pmu_read_userenr();
	return 0;
}

static int attach(struct armpmu_session *s, const void *unused)
{
	armpmu_task_evict();
	s->cfg.cycle_filterable = s->caps->can_filter;
	memset(s->total, 0, sizeof(s->total));
	s->disturbed = false;
	this_cpu_write(active_session, s);
	return peek_userenr(s, NULL);
}

int armpmu_cpu_attach(struct armpmu_session *s)
{
	return on_bound_cpu(s, attach, NULL);
}

/* Leaves nothing of @s in the registers or in the per-CPU pointer. */
static int detach(struct armpmu_session *s, const void *unused)
{
	if (s->running)
		stop_counting(s);
	s->started = false;
	armpmu_counters_clear(&s->cfg);
	if (this_cpu_read(active_session) == s)
		this_cpu_write(active_session, NULL);
	return 0;
}

/* Offline, the session was parked (and its CPU left clean) going down. */
void armpmu_cpu_detach(struct armpmu_session *s)
{
	if (on_bound_cpu(s, detach, NULL))
		s->running = false;
}

int armpmu_cpu_peek(struct armpmu_session *s)
{
	return on_bound_cpu(s, peek_userenr, NULL);
}

struct counter_arg {
	u32 idx;
	u32 evtype;
	u64 value;
};

/* SET_EVENT, SET_CYCLE_FILTER and SET_VALUE: the counter must be free. */
static int program(struct armpmu_session *s, const void *arg)
{
	const struct counter_arg *a = arg;

	if (armpmu_counters_foreign(BIT(a->idx)))
		return -EBUSY;
	armpmu_counters_set_evtype(&s->cfg, a->idx, a->evtype);
	armpmu_counters_program(&s->cfg, BIT(a->idx));
	armpmu_counters_set(&s->load, s->total, a->idx, 0);
	return 0;
}

static int cpu_program(struct armpmu_session *s, u32 idx, u32 evtype)
{
	struct counter_arg a = { .idx = idx, .evtype = evtype };

	return on_bound_cpu(s, program, &a);
}

static int set_value(struct armpmu_session *s, const void *arg)
{
	const struct counter_arg *a = arg;

	if (armpmu_counters_foreign(BIT(a->idx)))
		return -EBUSY;
	armpmu_counters_set(&s->load, s->total, a->idx, a->value);
	return 0;
}

static int cpu_set_value(struct armpmu_session *s, u32 idx, u64 value)
{
	struct counter_arg a = { .idx = idx, .value = value };

	return on_bound_cpu(s, set_value, &a);
}

static int start(struct armpmu_session *s, const void *unused)
{
	if (s->disturbed)
		return -EIO;
	return s->running ? 0 : start_counting(s);
}

static int cpu_start(struct armpmu_session *s)
{
	return on_bound_cpu(s, start, NULL);
}

static int stop(struct armpmu_session *s, const void *unused)
{
	if (s->running)
		stop_counting(s);
	s->started = false;
	return 0;
}

static int cpu_stop(struct armpmu_session *s)
{
	return on_bound_cpu(s, stop, NULL);
}

static int read_counts(struct armpmu_session *s, const void *unused)
{
	if (s->running)
		look(s);
	return armpmu_snapshot(s, 0);
}

static int cpu_read(struct armpmu_session *s)
{
	return on_bound_cpu(s, read_counts, NULL);
}

/*
 * Zero the counts (in software: the hardware may hold someone else's counts
 * by now). A started session goes on counting from zero. If its counters
 * were taken, it starts again on them, and while someone else still holds
 * them RESET fails with EBUSY and changes nothing: never a success that
 * leaves nothing counting.
 */
static int reset(struct armpmu_session *s, const void *unused)
{
	if (s->running)
		look(s);
	if (s->running) {
		armpmu_counters_rebase(&s->cfg, &s->load);
	} else if (s->started) {
		int ret = start_counting(s);

		if (ret)
			return ret;
	}
	s->disturbed = false;
	memset(s->total, 0, sizeof(s->total));
	s->time_enabled = 0;
	s->time_running = 0;
	s->since_ns = sched_clock();
	return 0;
}

static int cpu_reset(struct armpmu_session *s)
{
	return on_bound_cpu(s, reset, NULL);
}

static enum hrtimer_restart poll(struct hrtimer *timer)
{
	struct armpmu_session *s = container_of(timer, struct armpmu_session, poll);

	/* A timer migrated off a dead CPU must not read another CPU's PMU. */
	if (!s->running || s->parked || smp_processor_id() != s->cpu)
		return HRTIMER_NORESTART;
	look(s);
	if (!s->running)
		return HRTIMER_NORESTART;
	hrtimer_forward_now(timer, poll_period());
	return HRTIMER_RESTART;
}

void armpmu_cpu_mode_init(struct armpmu_session *s)
{
	hrtimer_init(&s->poll, CLOCK_MONOTONIC, HRTIMER_MODE_REL_PINNED_HARD);
	s->poll.function = poll;
}

/*
 * Hotplug: on the CPU going down, interrupts off. Keep what was counted,
 * and leave neither counts in the registers nor a pointer to @s behind:
 * the session may be closed and freed while the CPU is away.
 */
void armpmu_cpu_down(struct armpmu_session *s)
{
	if (s->running) {
		pause_counting(s, true);
		/* Timers leave a dead CPU: this one must not poll elsewhere. */
		hrtimer_try_to_cancel(&s->poll);
	}
	armpmu_counters_clear(&s->cfg);
	this_cpu_write(active_session, NULL);
	s->parked = true;
}

/*
 * Hotplug: on the CPU coming back (perf has reset its PMU), interrupts off,
 * with its owner if it has one.
 */
void armpmu_cpu_up(struct armpmu_session *owner)
{
	/* Going down cleared it; anything here would point at a freed session. */
	WARN_ON_ONCE(this_cpu_read(active_session));
	if (!owner)
		return;
	owner->parked = false;
	this_cpu_write(active_session, owner);
	if (owner->running && resume_counting(owner))
		start_polling(owner);
}

/*
 * Idle power-down (CPU_PM_ENTER), on the CPU, interrupts off, and maybe
 * with timekeeping suspended (system sleep): no timer calls. Registered to
 * run after perf's callbacks: perf may have stopped its own events, and so
 * cleared E, just before.
 */
void armpmu_idle_enter(void)
{
	struct armpmu_session *s = this_cpu_read(active_session);

	if (!s || !s->running)
		return;
	pause_counting(s, false);
	s->idle_saved = s->running;
}

/* Idle exit (CPU_PM_EXIT, or ENTER_FAILED), after perf's reset of the PMU. */
void armpmu_idle_exit(void)
{
	struct armpmu_session *s = this_cpu_read(active_session);

	if (!s || !s->idle_saved)
		return;
	s->idle_saved = false;
	resume_counting(s);
}

/*
 * An administrator's release, on the CPU, interrupts off. The owner may be
 * in the middle of a call: it finds ECANCELED on this CPU, after this.
 */
static void revoke_on_cpu(void *info)
{
	struct armpmu_session *s = info;

	detach(s, NULL);
	s->revoked = true;
}

/* Called by the CPU registry, which then forgets the owner. */
void armpmu_cpu_revoke_session(struct armpmu_session *s)
{
	/* Offline: the session was parked when the CPU went down. */
	if (s->parked || smp_call_function_single(s->cpu, revoke_on_cpu, s, 1)) {
		s->running = false;
		s->revoked = true;
	}
}

/* The counters @s is counting with (on its CPU, interrupts off). */
u32 armpmu_cpu_counting(const struct armpmu_session *s)
{
	if (!s || !s->running || s->parked || s->revoked)
		return 0;
	return armpmu_counters_of(&s->cfg);
}

static void cpu_release(struct armpmu_session *s)
{
	armpmu_cpu_release(s->cpu, s);
	hrtimer_cancel(&s->poll);
}

const struct armpmu_mode armpmu_cpu_mode = {
	.program = cpu_program,
	.set_value = cpu_set_value,
	.start = cpu_start,
	.stop = cpu_stop,
	.read = cpu_read,
	.reset = cpu_reset,
	.release = cpu_release,
};
