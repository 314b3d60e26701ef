// SPDX-License-Identifier: GPL-2.0
/*
 * The operations of an open /dev/armpmu, in process context with the
 * session's lock held: binding, checking arguments and privilege, then
 * asking the bound CPU (counting.c) to do the rest.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cred.h>
#include <linux/sched.h>
#include <linux/smp.h>
#include <linux/string.h>
#include "armpmu.h"

/* The largest event number in the range PMCEID describes. */
#define COMMON_EVENT_LAST	0x3f

void armpmu_session_init(struct armpmu_session *s, bool kernel_allowed)
{
	mutex_init(&s->lock);
	s->cpu = -1;
	s->kernel_allowed = kernel_allowed;
	armpmu_counting_init(s);
}

/* Called by the CPU registry, with the CPU's owner set to @s. */
int armpmu_session_attach(struct armpmu_session *s)
{
	u32 filter = s->kernel_allowed ? 0 : ARMPMU_EXCLUDE_KERNEL;
	int ret;

	s->cycle_filter = armpmu_backend.encode_evtype(0, filter);
	ret = armpmu_run_on_cpu(s, OP_ATTACH);
	if (!ret && s->userenr)
		pr_warn("CPU%d: PMUSERENR is %#x: another module opened the PMU to user mode\n",
			s->cpu, s->userenr);
	return ret;
}

/* Called by the CPU registry before it forgets the owner. */
void armpmu_session_detach(struct armpmu_session *s)
{
	if (armpmu_run_on_cpu(s, OP_DETACH))
		s->running = false;
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

/* Also the check for calls that need no trip to the CPU. */
static int ensure_bound(struct armpmu_session *s)
{
	if (READ_ONCE(s->revoked))
		return -ECANCELED;
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
	if (caps->can_divide)
		info->flags |= ARMPMU_INFO_CAN_DIVIDE;
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
		int ret = armpmu_run_on_cpu(s, OP_INFO);

		if (ret)
			return ret;
		cpu = s->cpu;
		caps = s->caps;
		userenr = s->userenr;
		info->flags |= ARMPMU_INFO_BOUND;
	} else {
		cpu = get_cpu();
		caps = armpmu_cpu_caps(cpu);
		userenr = caps ? armpmu_backend.read_userenr() : 0;
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
	s->arg_idx = s->selected;
	s->arg_evtype = armpmu_backend.encode_evtype(ev->event, ev->flags);
	return armpmu_run_on_cpu(s, OP_PROGRAM);
}

int armpmu_session_set_divider(struct armpmu_session *s, u32 divider)
{
	int ret;

	if (divider > 1)
		return -EINVAL;
	ret = ensure_bound(s);
	if (ret)
		return ret;
	/* Rather than a cycle count 64 times too high. */
	if (divider && !s->caps->can_divide)
		return -EOPNOTSUPP;
	if (s->running)
		return -EBUSY;
	/* Applied at START: the divider must not touch perf's cycles. */
	s->divider = divider;
	return 0;
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
	s->arg_idx = ARMPMU_CYCLE_IDX;
	s->arg_evtype = armpmu_backend.encode_evtype(0, flags);
	return armpmu_run_on_cpu(s, OP_CYCLE_FILTER);
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
	s->arg_idx = val->counter;
	s->arg_value = val->value;
	return armpmu_run_on_cpu(s, OP_SET_VALUE);
}

int armpmu_session_start(struct armpmu_session *s)
{
	int ret = ensure_bound(s);

	if (ret)
		return ret;
	/* Its cycle counter would count the kernel for an unprivileged file. */
	if (!s->kernel_allowed && !s->caps->can_filter)
		return -EOPNOTSUPP;
	return armpmu_run_on_cpu(s, OP_START);
}

/* The operations that only need a bound file and a trip to its CPU. */
static int bound_op(struct armpmu_session *s, enum armpmu_op op)
{
	int ret = ensure_bound(s);

	return ret ? ret : armpmu_run_on_cpu(s, op);
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
