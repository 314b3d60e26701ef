// SPDX-License-Identifier: GPL-2.0
/*
 * Counting, on the bound CPU with interrupts off: through
 * smp_call_function_single() (a plain call when the caller is already
 * there), the poll timer, and the hotplug and idle callbacks. So the on-CPU
 * state needs no lock of its own, and a file can only ever report its own
 * CPU.
 *
 * Counts are kept in 64 bits in software: every look at the hardware adds
 * the delta since the previous look, modulo the counter's width. The poll
 * timer looks often enough that no counter can wrap twice between looks; the
 * overflow interrupt and PMOVSR are not used, since perf owns the one and
 * clears the other.
 *
 * Others use the same PMU. Linux's perf driver allocates counters from 0 up,
 * reprograms counters it thinks free, clears PMCR.E when it stops its own
 * events and resets the whole PMU on hotplug and idle exit. So a session
 * touches only its own counters, refuses counters that someone else has
 * enabled (EBUSY), and at every look checks that its counters are still
 * enabled and programmed as it left them, under its PMCR.E and D, with
 * their overflow interrupt off. If not, the session is disturbed: it stops
 * what is still its own, and its counts are reported as not trustworthy
 * (EIO from READ) until RESET. Counters taken by someone else are never
 * touched again.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/percpu.h>
#include <linux/smp.h>
#include <linux/string.h>
#include "armpmu.h"

/* PMCR.P and PMCR.C reset counters when written as 1: never write them. */
#define PMCR_RESET_BITS		(BIT(1) | BIT(2))

static const struct armpmu_ops *const pmu = &armpmu_backend;

/* The session counting on this CPU, for the idle callbacks. */
static DEFINE_PER_CPU(struct armpmu_session *, active_session);

static u32 active_counters(const struct armpmu_session *s)
{
	return s->programmed | ARMPMU_CYCLE_BIT;
}

static u64 counter_width(u32 idx)
{
	return idx == ARMPMU_CYCLE_IDX ? pmu->cycle_mask : U32_MAX;
}

/* PMUv1 has no cycle filter, and PMSELR = 31 is reserved there. */
static bool has_evtype(const struct armpmu_session *s, u32 idx)
{
	return idx != ARMPMU_CYCLE_IDX || s->caps->can_filter;
}

static u32 wanted_evtype(const struct armpmu_session *s, u32 idx)
{
	return idx == ARMPMU_CYCLE_IDX ? s->cycle_filter : s->evtype[idx];
}

static ktime_t poll_period(void)
{
	return ms_to_ktime(armpmu_poll_ms);
}

/*
 * D is set only while this session counts, since perf's cycle counter must
 * not be divided. When counting stops, E is cleared only if no counter is
 * enabled, so that a perf user of the same PMU keeps counting. LC, where
 * the PMU has it, stays set but for the divider (which it would disable).
 */
static void write_pmcr(bool divider, bool running)
{
	u32 pmcr = pmu->read_pmcr() & ~PMCR_RESET_BITS;

	pmcr &= ~(pmu->pmcr_owned & ~ARMPMU_PMCR_E);
	if (divider)
		pmcr |= ARMPMU_PMCR_D;
	else
		pmcr |= pmu->pmcr_owned & ARMPMU_PMCR_LC;
	if (running)
		pmcr |= ARMPMU_PMCR_E;
	else if (!pmu->read_enabled())
		pmcr &= ~ARMPMU_PMCR_E;
	pmu->write_pmcr(pmcr);
}

/* Counters of @mask that someone else has enabled (ours being stopped). */
static u32 foreign(u32 mask)
{
	return pmu->read_enabled() & mask;
}

/*
 * Give counter @idx, stopped and ours, its event type and no interrupt, and
 * remember the type as the hardware holds it (reserved bits read as 0).
 */
static void program_counter(struct armpmu_session *s, u32 idx)
{
	if (has_evtype(s, idx))
		pmu->write_evtype(idx, wanted_evtype(s, idx));
	s->seen_evtype[idx] = has_evtype(s, idx) ? pmu->read_evtype(idx) : 0;
	pmu->disable_irq(BIT(idx));
	pmu->clear_overflow(BIT(idx));
}

static void set_value(struct armpmu_session *s, u32 idx, u64 value)
{
	u64 width = counter_width(idx);

	pmu->write_counter(idx, value & width);
	s->last[idx] = value & width;
	s->total[idx] = value;
}

/*
 * The counters of @s that nobody else has taken: programmed as this session
 * left them, and with their overflow interrupt off. Perf may program a
 * counter exactly as armpmu does (a user-only INST_RETIRED has one
 * encoding), but it always enables the counter's interrupt, which armpmu
 * never does: that bit is the witness a look-alike takeover leaves.
 */
static u32 still_ours(const struct armpmu_session *s)
{
	unsigned long mask = active_counters(s) & ~pmu->read_irq_enabled();
	unsigned int idx;
	u32 ours = 0;

	for_each_set_bit(idx, &mask, ARMPMU_CYCLE_IDX + 1)
		if (!has_evtype(s, idx) || pmu->read_evtype(idx) == s->seen_evtype[idx])
			ours |= BIT(idx);
	return ours;
}

/*
 * Did someone stop, reprogram, take or divide this session's running
 * counters? Entering idle, perf may have cleared E just before: that loses
 * nothing here (the counters stop together) and is not held against them.
 */
static bool disturbed(const struct armpmu_session *s, bool check_enable)
{
	u32 mask = active_counters(s);
	u32 pmcr = pmu->read_pmcr();

	if (check_enable && !(pmcr & ARMPMU_PMCR_E))
		return true;
	if (!!(pmcr & ARMPMU_PMCR_D) != !!s->divider)
		return true;
	if ((pmu->read_enabled() & mask) != mask)
		return true;
	return still_ours(s) != mask;
}

/*
 * Stop what is still ours, leaving alone the counters someone else took,
 * and keep the counts only to say they are not to be trusted.
 */
static void mark_disturbed(struct armpmu_session *s)
{
	pmu->disable(still_ours(s));
	s->running = false;
	s->disturbed = true;
	/* The poll timer ends at its next expiry: no timer calls in idle. */
	write_pmcr(false, false);
	pr_notice_ratelimited("CPU%d: another user of the PMU (perf?) stopped, reprogrammed or reset armpmu's counters: counts are not trustworthy until RESET\n",
			      s->cpu);
}

static void fold(struct armpmu_session *s, u32 idx, u64 now)
{
	s->total[idx] += (now - s->last[idx]) & counter_width(idx);
	s->last[idx] = now;
}

/*
 * Fold in the deltas since the last look. A 64-bit cycle counter cannot
 * advance by 2^63 between looks (it may wrap, if SET_VALUE put it near
 * the top): a delta that large is the counter moving backwards, reset or
 * rewritten behind our back, and nothing is folded in. Returns false then.
 */
static bool accumulate(struct armpmu_session *s)
{
	unsigned long mask = s->programmed;
	u64 cycles = pmu->read_counter(ARMPMU_CYCLE_IDX);
	unsigned int idx;

	if (pmu->cycle_mask == U64_MAX &&
	    (s64)(cycles - s->last[ARMPMU_CYCLE_IDX]) < 0)
		return false;
	fold(s, ARMPMU_CYCLE_IDX, cycles);
	for_each_set_bit(idx, &mask, ARMPMU_CYCLE_IDX)
		fold(s, idx, pmu->read_counter(idx));
	return true;
}

/* A look at running counters: fold in their deltas, or find them disturbed. */
static void look(struct armpmu_session *s)
{
	if (disturbed(s, true) || !accumulate(s))
		mark_disturbed(s);
}

/*
 * Begin (or resume) counting. While stopped, anyone may have changed the
 * counters: program them again and take their values as the new base.
 */
static int start_counting(struct armpmu_session *s)
{
	unsigned long mask = active_counters(s);
	unsigned int idx;

	if (foreign(mask))
		return -EBUSY;
	for_each_set_bit(idx, &mask, ARMPMU_CYCLE_IDX + 1) {
		program_counter(s, idx);
		s->last[idx] = pmu->read_counter(idx);
	}
	s->running = true;
	s->started = true;
	write_pmcr(s->divider, true);
	pmu->enable(mask);
	return 0;
}

static void start_polling(struct armpmu_session *s)
{
	hrtimer_start(&s->poll, poll_period(), HRTIMER_MODE_REL_PINNED_HARD);
}

/*
 * Counting pauses while the CPU is away (offline, or powered down in idle,
 * where the poll timer cannot fire before the CPU is back). Disable first,
 * then read: nothing counted after the pause.
 */
static void pause_counting(struct armpmu_session *s, bool check_enable)
{
	if (disturbed(s, check_enable)) {
		mark_disturbed(s);
		return;
	}
	pmu->disable(active_counters(s));
	if (!accumulate(s))
		mark_disturbed(s);
}

static void stop_counting(struct armpmu_session *s)
{
	pause_counting(s, true);
	if (!s->running)
		return;	/* disturbed: mark_disturbed() has stopped it */
	s->running = false;
	/* We are on the timer's CPU with interrupts off: it cannot be running. */
	hrtimer_try_to_cancel(&s->poll);
	write_pmcr(false, false);
}

/* The CPU is back, its PMU reset by perf or by power-down. */
static bool resume_counting(struct armpmu_session *s)
{
	s->running = false;
	if (!start_counting(s))
		return true;
	s->disturbed = true;
	pr_notice_ratelimited("CPU%d: armpmu's counters were taken while the CPU was away: counts are not trustworthy until RESET\n",
			      s->cpu);
	return false;
}

/*
 * Zero the counts (in software: the hardware may hold someone else's counts
 * by now). A started session goes on counting from zero. If its counters
 * were taken, it starts again on them, and while someone else still holds
 * them RESET fails with EBUSY and changes nothing: never a success that
 * leaves nothing counting.
 */
static int reset_counts(struct armpmu_session *s)
{
	unsigned long mask = active_counters(s);
	unsigned int idx;

	if (s->running)
		look(s);
	if (s->running) {
		for_each_set_bit(idx, &mask, ARMPMU_CYCLE_IDX + 1)
			s->last[idx] = pmu->read_counter(idx);
	} else if (s->started) {
		int ret = start_counting(s);

		if (ret)
			return ret;
		start_polling(s);
	}
	s->disturbed = false;
	memset(s->total, 0, sizeof(s->total));
	return 0;
}

static int read_counts(struct armpmu_session *s)
{
	struct armpmu_counts *counts = &s->snapshot;
	u32 n = s->caps->num_counters;

	if (s->running)
		look(s);
	counts->nr = n;
	counts->flags = 0;
	if (s->running)
		counts->flags |= ARMPMU_COUNTS_RUNNING;
	if (s->disturbed)
		counts->flags |= ARMPMU_COUNTS_DISTURBED;
	counts->cycles = s->total[ARMPMU_CYCLE_IDX];
	memcpy(counts->events, s->total, n * sizeof(counts->events[0]));
	return s->disturbed ? -EIO : 0;
}

/* SET_EVENT, SET_CYCLE_FILTER and SET_VALUE: the counter must be free. */
static int program(struct armpmu_session *s)
{
	u32 idx = s->arg_idx;

	if (foreign(BIT(idx)))
		return -EBUSY;
	switch (s->op) {
	case OP_PROGRAM:
		s->evtype[idx] = s->arg_evtype;
		s->programmed |= BIT(idx);
		break;
	case OP_CYCLE_FILTER:
		s->cycle_filter = s->arg_evtype;
		break;
	default:
		set_value(s, idx, s->arg_value);
		return 0;
	}
	program_counter(s, idx);
	set_value(s, idx, 0);
	return 0;
}

static void attach(struct armpmu_session *s)
{
	memset(s->total, 0, sizeof(s->total));
	s->disturbed = false;
	this_cpu_write(active_session, s);
}

/*
 * Zero the stopped counters that are still ours, so that nothing of this
 * session's counts is left in the registers for whoever reads them next.
 */
static void clear_counters(struct armpmu_session *s)
{
	unsigned long mask = still_ours(s) & ~pmu->read_enabled();
	unsigned int idx;

	for_each_set_bit(idx, &mask, ARMPMU_CYCLE_IDX + 1)
		pmu->write_counter(idx, 0);
}

static void detach(struct armpmu_session *s)
{
	if (s->running)
		stop_counting(s);
	s->started = false;
	clear_counters(s);
	if (this_cpu_read(active_session) == s)
		this_cpu_write(active_session, NULL);
}

static void on_cpu(void *info)
{
	struct armpmu_session *s = info;
	int ret = 0;

	if (s->revoked) {
		s->call_ret = -ECANCELED;
		return;
	}
	if (s->parked) {
		s->call_ret = -ENXIO;
		return;
	}
	switch (s->op) {
	case OP_ATTACH:
		attach(s);
		fallthrough;
	case OP_INFO:
		s->userenr = pmu->read_userenr();
		break;
	case OP_DETACH:
		detach(s);
		break;
	case OP_PROGRAM:
	case OP_CYCLE_FILTER:
	case OP_SET_VALUE:
		ret = program(s);
		break;
	case OP_START:
		ret = s->disturbed ? -EIO : 0;
		if (!ret && !s->running) {
			ret = start_counting(s);
			if (!ret)
				start_polling(s);
		}
		break;
	case OP_STOP:
		if (s->running)
			stop_counting(s);
		s->started = false;
		break;
	case OP_READ:
		ret = read_counts(s);
		break;
	case OP_RESET:
		ret = reset_counts(s);
		break;
	}
	s->call_ret = ret;
}

int armpmu_run_on_cpu(struct armpmu_session *s, enum armpmu_op op)
{
	int ret;

	s->op = op;
	ret = smp_call_function_single(s->cpu, on_cpu, s, 1);
	return ret ? ret : s->call_ret;
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

void armpmu_counting_init(struct armpmu_session *s)
{
	hrtimer_init(&s->poll, CLOCK_MONOTONIC, HRTIMER_MODE_REL_PINNED_HARD);
	s->poll.function = poll;
}

/*
 * Hotplug: on the CPU going down, interrupts off. Keep what was counted,
 * and leave neither counts in the registers nor a pointer to @s behind:
 * the session may be closed and freed while the CPU is away.
 */
void armpmu_session_cpu_down(struct armpmu_session *s)
{
	if (s->running) {
		pause_counting(s, true);
		/* Timers leave a dead CPU: this one must not poll elsewhere. */
		hrtimer_try_to_cancel(&s->poll);
	}
	clear_counters(s);
	this_cpu_write(active_session, NULL);
	s->parked = true;
}

/*
 * Hotplug: on the CPU coming back (perf has reset its PMU), interrupts off,
 * with its owner if it has one.
 */
void armpmu_counting_cpu_up(struct armpmu_session *owner)
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

	detach(s);
	s->revoked = true;
}

/* Called by the CPU registry, which then forgets the owner. */
void armpmu_session_revoke(struct armpmu_session *s)
{
	/* Offline: the session was parked when the CPU went down. */
	if (s->parked || smp_call_function_single(s->cpu, revoke_on_cpu, s, 1)) {
		s->running = false;
		s->revoked = true;
	}
}

/* The counters @s is counting with (on its CPU, interrupts off). */
u32 armpmu_session_counting(const struct armpmu_session *s)
{
	if (!s || !s->running || s->parked || s->revoked)
		return 0;
	return active_counters(s);
}
