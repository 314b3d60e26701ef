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
	u32 filter = kernel_allowed ? 0 : ARMPMU_EXCLUDE_KERNEL;

	mutex_init(&s->lock);
	s->cpu = -1;
	s->kernel_allowed = kernel_allowed;
	s->cfg.cycle_filter = armpmu_backend.encode_evtype(0, filter);
	armpmu_cpu_mode_init(s);
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
		return ret;
	}
	if (s->userenr)
		pr_warn("CPU%d: PMUSERENR is %#x: another module opened the PMU to user mode\n",
			s->cpu, s->userenr);
	return 0;
}

/* Also the check for calls that need no trip to the CPU. */
static int ensure_bound(struct armpmu_session *s)
{
	if (READ_ONCE(s->revoked))
		return -ECANCELED;
	return s->cpu >= 0 ? 0 : armpmu_session_bind(s, ARMPMU_CPU_CURRENT);
}

int armpmu_session_info(struct armpmu_session *s, struct armpmu_info *info)
{
	const struct armpmu_caps *caps;
	u32 userenr;
	int cpu;

	memset(info, 0, sizeof(*info));
	if (s->cpu >= 0) {
		int ret = armpmu_cpu_peek(s);

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
	return armpmu_cpu_program(s, s->selected,
				  armpmu_backend.encode_evtype(ev->event, ev->flags));
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
	/* Applied at START: the divider must not touch perf's cycles. */
	s->cfg.divider = divider;
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
	return armpmu_cpu_set_cycle_filter(s, armpmu_backend.encode_evtype(0, flags));
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
	return armpmu_cpu_set_value(s, val->counter, val->value);
}

int armpmu_session_start(struct armpmu_session *s)
{
	int ret = ensure_bound(s);

	if (ret)
		return ret;
	/* Its cycle counter would count the kernel for an unprivileged file. */
	if (!s->kernel_allowed && !s->caps->can_filter)
		return -EOPNOTSUPP;
	return armpmu_cpu_start(s);
}

int armpmu_session_stop(struct armpmu_session *s)
{
	int ret = ensure_bound(s);

	return ret ? ret : armpmu_cpu_stop(s);
}

int armpmu_session_read(struct armpmu_session *s)
{
	int ret = ensure_bound(s);

	return ret ? ret : armpmu_cpu_read(s);
}

int armpmu_session_reset(struct armpmu_session *s)
{
	int ret = ensure_bound(s);

	return ret ? ret : armpmu_cpu_reset(s);
}
