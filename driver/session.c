// SPDX-License-Identifier: GPL-2.0
/*
 * A session is one open /dev/armpmu bound to one CPU. Everything that
 * touches the PMU runs on that CPU with interrupts off: through
 * smp_call_function_single() (a plain call when the caller is already
 * there), the poll timer, or the CPU hotplug callbacks. So the on-CPU state
 * needs no lock of its own, and a file can only ever report its own CPU.
 *
 * Counts are kept in 64 bits in software: every look at the hardware adds
 * the delta since the previous look, modulo the counter's width. The poll
 * timer looks often enough that no counter can wrap twice between looks; the
 * overflow interrupt and PMOVSR are not used, since perf owns the one and
 * clears the other.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cred.h>
#include <linux/sched.h>
#include <linux/smp.h>
#include <linux/string.h>
#include "armpmu.h"

/* PMCR.P and PMCR.C reset counters when written as 1: never write them. */
#define PMCR_RESET_BITS		(BIT(1) | BIT(2))

/* The largest event number in the range PMCEID describes. */
#define COMMON_EVENT_LAST	0x3f

enum session_op {
	OP_ATTACH,
	OP_DETACH,
	OP_INFO,
	OP_PROGRAM,
	OP_DIVIDER,
	OP_START,
	OP_STOP,
	OP_READ,
	OP_RESET,
	OP_SET_VALUE,
	OP_CYCLE_FILTER,
};

static const struct armpmu_ops *const pmu = &armpmu_backend;

static u32 active_counters(const struct armpmu_session *s)
{
	return s->programmed | ARMPMU_CYCLE_BIT;
}

static ktime_t poll_period(void)
{
	return ms_to_ktime(armpmu_poll_ms);
}

static void accumulate(struct armpmu_session *s)
{
	unsigned long mask = active_counters(s);
	unsigned int idx;

	for_each_set_bit(idx, &mask, ARMPMU_CYCLE_IDX + 1) {
		u64 width = idx == ARMPMU_CYCLE_IDX ? pmu->cycle_mask : U32_MAX;
		u64 now = pmu->read_counter(idx);

		s->total[idx] += (now - s->last[idx]) & width;
		s->last[idx] = now;
	}
}

/*
 * E is set while counting; when counting stops, E is cleared only if no
 * other counter is enabled, so a perf user of the same PMU keeps counting.
 */
static void write_pmcr(bool divider, bool running)
{
	u32 pmcr = pmu->read_pmcr() & ~PMCR_RESET_BITS;

	pmcr &= ~(pmu->pmcr_owned & ~ARMPMU_PMCR_E);
	if (divider)
		pmcr |= ARMPMU_PMCR_D;
	if (running)
		pmcr |= ARMPMU_PMCR_E;
	else if (!pmu->read_enabled())
		pmcr &= ~ARMPMU_PMCR_E;
	pmu->write_pmcr(pmcr);
}

static void update_pmcr(const struct armpmu_session *s)
{
	write_pmcr(s->divider, s->running);
}

/*
 * Stop the PMU's counters and give each its event type (0 where @evtype is
 * NULL) and a zero count.
 */
static void write_config(const struct armpmu_caps *caps, u32 programmed,
			 const u32 *evtype, u32 cycle_filter)
{
	u32 all = (u32)(BIT(caps->num_counters) - 1) | ARMPMU_CYCLE_BIT;
	u32 idx;

	pmu->disable(all);
	pmu->disable_irq(all);
	pmu->clear_overflow(all);
	for (idx = 0; idx < caps->num_counters; idx++) {
		pmu->write_evtype(idx, programmed & BIT(idx) ? evtype[idx] : 0);
		pmu->write_counter(idx, 0);
	}
	/* PMUv1 has no cycle filter, and PMSELR = 31 is reserved there. */
	if (caps->can_filter)
		pmu->write_evtype(ARMPMU_CYCLE_IDX, cycle_filter);
	pmu->write_counter(ARMPMU_CYCLE_IDX, 0);
}

/* Put this session's configuration into a stopped PMU, counters at zero. */
static void load_config(struct armpmu_session *s)
{
	write_config(s->caps, s->programmed, s->evtype, s->cycle_filter);
	memset(s->last, 0, sizeof(s->last));
	update_pmcr(s);
}

static void start_counting(struct armpmu_session *s)
{
	s->running = true;
	update_pmcr(s);
	pmu->enable(active_counters(s));
	hrtimer_start(&s->poll, poll_period(),
		      HRTIMER_MODE_REL_PINNED_HARD);
}

static void stop_counting(struct armpmu_session *s)
{
	pmu->disable(active_counters(s));
	accumulate(s);
	s->running = false;
	/* We are on the timer's CPU with interrupts off: it cannot be running. */
	hrtimer_try_to_cancel(&s->poll);
	update_pmcr(s);
}

static void set_value(struct armpmu_session *s, u32 idx, u64 value)
{
	u64 width = idx == ARMPMU_CYCLE_IDX ? pmu->cycle_mask : U32_MAX;

	pmu->write_counter(idx, value & width);
	s->last[idx] = value & width;
	s->total[idx] = value;
}

static void reset_counts(struct armpmu_session *s)
{
	unsigned long mask = active_counters(s);
	unsigned int idx;

	for_each_set_bit(idx, &mask, ARMPMU_CYCLE_IDX + 1)
		set_value(s, idx, 0);
}

static void fill_snapshot(struct armpmu_session *s)
{
	struct armpmu_counts *counts = &s->snapshot;
	u32 n = s->caps->num_counters;

	counts->nr = n;
	counts->flags = s->running ? ARMPMU_COUNTS_RUNNING : 0;
	counts->cycles = s->total[ARMPMU_CYCLE_IDX];
	memcpy(counts->events, s->total, n * sizeof(counts->events[0]));
}

static void detach(struct armpmu_session *s)
{
	if (s->running)
		stop_counting(s);
	s->programmed = 0;
	s->divider = 0;
	s->cycle_filter = 0;
	load_config(s);
}

static void on_cpu(void *info)
{
	struct armpmu_session *s = info;

	if (s->revoked) {
		s->call_ret = -ECANCELED;
		return;
	}
	if (s->parked) {
		s->call_ret = -ENXIO;
		return;
	}
	s->call_ret = 0;
	switch (s->op) {
	case OP_ATTACH:
		memset(s->total, 0, sizeof(s->total));
		load_config(s);
		fallthrough;
	case OP_INFO:
		s->userenr = pmu->read_userenr();
		break;
	case OP_DETACH:
		detach(s);
		break;
	case OP_PROGRAM:
		pmu->write_evtype(s->selected, s->evtype[s->selected]);
		set_value(s, s->selected, 0);
		break;
	case OP_DIVIDER:
		update_pmcr(s);
		break;
	case OP_START:
		if (!s->running)
			start_counting(s);
		break;
	case OP_STOP:
		if (s->running)
			stop_counting(s);
		break;
	case OP_READ:
		if (s->running)
			accumulate(s);
		fill_snapshot(s);
		break;
	case OP_RESET:
		reset_counts(s);
		break;
	case OP_SET_VALUE:
		set_value(s, s->value_idx, s->value);
		break;
	case OP_CYCLE_FILTER:
		pmu->write_evtype(ARMPMU_CYCLE_IDX, s->cycle_filter);
		set_value(s, ARMPMU_CYCLE_IDX, 0);
		break;
	}
}

static int run_on_cpu(struct armpmu_session *s, enum session_op op)
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
	accumulate(s);
	hrtimer_forward_now(timer, poll_period());
	return HRTIMER_RESTART;
}

void armpmu_session_init(struct armpmu_session *s, bool kernel_allowed)
{
	mutex_init(&s->lock);
	s->cpu = -1;
	s->kernel_allowed = kernel_allowed;
	hrtimer_init(&s->poll, CLOCK_MONOTONIC, HRTIMER_MODE_REL_PINNED_HARD);
	s->poll.function = poll;
}

/* Called by the CPU registry, with the CPU's owner set to @s. */
int armpmu_session_attach(struct armpmu_session *s)
{
	u32 filter = s->kernel_allowed ? 0 : ARMPMU_EXCLUDE_KERNEL;
	int ret;

	s->cycle_filter = pmu->encode_evtype(0, filter);
	ret = run_on_cpu(s, OP_ATTACH);
	if (!ret && s->userenr)
		pr_warn("CPU%d: PMUSERENR is %#x: another module opened the PMU to user mode\n",
			s->cpu, s->userenr);
	return ret;
}

/*
 * Called by the CPU registry before it forgets the owner. If the CPU is
 * offline, its PMU was parked when it went down and the next owner's
 * attach clears it.
 */
void armpmu_session_detach(struct armpmu_session *s)
{
	if (run_on_cpu(s, OP_DETACH))
		s->running = false;
}

/* Hotplug: on the CPU going down, interrupts off. Keep what was counted. */
void armpmu_session_cpu_down(struct armpmu_session *s)
{
	if (s->running) {
		pmu->disable(active_counters(s));
		accumulate(s);
		hrtimer_try_to_cancel(&s->poll);
	}
	s->parked = true;
}

/* Hotplug: on the CPU coming back (perf has reset its PMU), interrupts off. */
void armpmu_session_cpu_up(struct armpmu_session *s)
{
	s->parked = false;
	load_config(s);
	if (s->running) {
		s->running = false;
		start_counting(s);
	}
}

/*
 * An administrator's release, on the CPU, interrupts off. Only the session's
 * fixed fields are read: its owner may be changing its configuration right
 * now, in process context, and must find a blank PMU and ECANCELED.
 */
static void revoke_on_cpu(void *info)
{
	struct armpmu_session *s = info;

	s->running = false;
	s->revoked = true;
	hrtimer_try_to_cancel(&s->poll);
	write_config(s->caps, 0, NULL, 0);
	write_pmcr(false, false);
}

/* Called by the CPU registry, which then forgets the owner. */
void armpmu_session_revoke(struct armpmu_session *s)
{
	/* Offline: the PMU was parked, and the next owner's attach clears it. */
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

void armpmu_session_release(struct armpmu_session *s)
{
	if (s->cpu < 0)
		return;
	armpmu_cpu_release(s->cpu, s);
	hrtimer_cancel(&s->poll);
	put_pid(s->owner_pid);
}

int armpmu_session_bind(struct armpmu_session *s, u32 cpu)
{
	int ret;

	if (READ_ONCE(s->revoked))
		return -ECANCELED;
	if (s->cpu >= 0)
		return -EALREADY;
	if (cpu == ARMPMU_CPU_CURRENT)
		cpu = raw_smp_processor_id();
	/* Set before the claim makes them visible to CPU_STATUS. */
	s->owner_pid = get_task_pid(current, PIDTYPE_TGID);
	s->owner_uid = current_uid();
	ret = armpmu_cpu_claim(cpu, s);
	if (ret) {
		put_pid(s->owner_pid);
		s->owner_pid = NULL;
	}
	return ret;
}

static int ensure_bound(struct armpmu_session *s)
{
	return s->cpu >= 0 ? 0 : armpmu_session_bind(s, ARMPMU_CPU_CURRENT);
}

/* What @caps says; the caller adds cpu and the flags about its file. */
void armpmu_fill_info(const struct armpmu_caps *caps, struct armpmu_info *info)
{
	info->midr = caps->midr;
	info->pmu_version = caps->pmu_version;
	info->num_counters = caps->num_counters;
	info->event_bits = caps->event_bits;
	if (caps->can_filter)
		info->flags |= ARMPMU_INFO_CAN_FILTER;
	if (caps->events_known) {
		info->flags |= ARMPMU_INFO_EVENTS_KNOWN;
		info->common_events = caps->common_events;
		info->common_events_hi = caps->common_events_hi;
	}
}

int armpmu_session_info(struct armpmu_session *s, struct armpmu_info *info)
{
	const struct armpmu_caps *caps;
	u32 userenr;
	int cpu;

	memset(info, 0, sizeof(*info));
	if (s->cpu >= 0) {
		int ret = run_on_cpu(s, OP_INFO);

		if (ret)
			return ret;
		cpu = s->cpu;
		caps = s->caps;
		userenr = s->userenr;
		info->flags |= ARMPMU_INFO_BOUND;
	} else {
		cpu = get_cpu();
		caps = armpmu_cpu_caps(cpu);
		userenr = caps ? pmu->read_userenr() : 0;
		put_cpu();
		if (!caps)
			return -ENODEV;
	}
	armpmu_fill_info(caps, info);
	info->cpu = cpu;
	if (userenr)
		info->flags |= ARMPMU_INFO_USERENR_SET;
	if (s->kernel_allowed)
		info->flags |= ARMPMU_INFO_KERNEL_ALLOWED;
	return 0;
}

int armpmu_session_select(struct armpmu_session *s, u32 idx)
{
	int ret = ensure_bound(s);

	if (ret)
		return ret;
	if (idx >= s->caps->num_counters)
		return -EINVAL;
	s->selected = idx;
	return 0;
}

static bool event_implemented(const struct armpmu_caps *caps, u32 event)
{
	if (!caps->events_known || event > COMMON_EVENT_LAST)
		return true;
	return caps->common_events & BIT_ULL(event);
}

/* The checks SET_EVENT and SET_CYCLE_FILTER share, on a bound file. */
static int check_filter(const struct armpmu_session *s, u32 flags)
{
	if (flags && !s->caps->can_filter)
		return -EOPNOTSUPP;
	if (!(flags & ARMPMU_EXCLUDE_KERNEL) && !s->kernel_allowed)
		return -EACCES;
	return 0;
}

int armpmu_session_set_event(struct armpmu_session *s,
			     const struct armpmu_event *ev)
{
	int ret;

	if ((ev->flags & ~ARMPMU_EVENT_FLAGS) || ev->reserved[0] || ev->reserved[1])
		return -EINVAL;
	ret = ensure_bound(s);
	if (ret)
		return ret;
	if (ev->event >= BIT(s->caps->event_bits))
		return -EINVAL;
	ret = check_filter(s, ev->flags);
	if (ret)
		return ret;
	if (!event_implemented(s->caps, ev->event))
		return -ENOENT;
	if (s->running)
		return -EBUSY;
	s->evtype[s->selected] = pmu->encode_evtype(ev->event, ev->flags);
	s->programmed |= BIT(s->selected);
	return run_on_cpu(s, OP_PROGRAM);
}

int armpmu_session_set_divider(struct armpmu_session *s, u32 divider)
{
	int ret;

	if (divider > 1)
		return -EINVAL;
	ret = ensure_bound(s);
	if (ret)
		return ret;
	if (s->running)
		return -EBUSY;
	s->divider = divider;
	return run_on_cpu(s, OP_DIVIDER);
}

int armpmu_session_set_cycle_filter(struct armpmu_session *s, u32 flags)
{
	int ret;

	if (flags & ~ARMPMU_EVENT_FLAGS)
		return -EINVAL;
	ret = ensure_bound(s);
	if (ret)
		return ret;
	ret = check_filter(s, flags);
	if (ret)
		return ret;
	if (s->running)
		return -EBUSY;
	s->cycle_filter = pmu->encode_evtype(0, flags);
	return run_on_cpu(s, OP_CYCLE_FILTER);
}

int armpmu_session_set_value(struct armpmu_session *s,
			     const struct armpmu_value *val)
{
	int ret;

	if (val->reserved)
		return -EINVAL;
	ret = ensure_bound(s);
	if (ret)
		return ret;
	if (val->counter >= s->caps->num_counters && val->counter != ARMPMU_CYCLE_COUNTER)
		return -EINVAL;
	if (s->running)
		return -EBUSY;
	s->value_idx = val->counter;
	s->value = val->value;
	return run_on_cpu(s, OP_SET_VALUE);
}

int armpmu_session_start(struct armpmu_session *s)
{
	int ret = ensure_bound(s);

	if (ret)
		return ret;
	/* Its cycle counter would count the kernel for an unprivileged file. */
	if (!s->kernel_allowed && !s->caps->can_filter)
		return -EOPNOTSUPP;
	return run_on_cpu(s, OP_START);
}

/* The operations that only need a bound file and a trip to its CPU. */
static int bound_op(struct armpmu_session *s, enum session_op op)
{
	int ret = ensure_bound(s);

	return ret ? ret : run_on_cpu(s, op);
}

int armpmu_session_stop(struct armpmu_session *s)
{
	return bound_op(s, OP_STOP);
}

int armpmu_session_read(struct armpmu_session *s)
{
	return bound_op(s, OP_READ);
}

int armpmu_session_reset(struct armpmu_session *s)
{
	return bound_op(s, OP_RESET);
}
