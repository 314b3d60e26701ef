// SPDX-License-Identifier: GPL-2.0
/*
 * The operations of an open /dev/armpmu, in process context with the
 * session's lock held: choosing the mode, checking arguments, then asking
 * the mode (cpu_mode.c or task_mode.c), the admin view (admin.c) or
 * regs.c to do the rest. Who may do what is privilege.c's answer, from
 * the opener's rights taken at open; whether a file may be changed now is
 * the mode's (struct armpmu_mode's @change): this file never reads the
 * counting state itself.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cred.h>
#include <linux/fs.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/string.h>
#include "armpmu.h"
#include "pmu_regs.h"

/* The largest event number in the range PMCEID describes. */
#define COMMON_EVENT_LAST	0x3f

/*
 * Privilege is decided once, from the opener's credentials, as perf does
 * (privilege.c); whom the file may count too, from the same credentials.
 */
void armpmu_session_init(struct armpmu_session *s, struct file *file)
{
	u32 filter;

	armpmu_priv_open(s, file);
	filter = armpmu_priv_allowed(s, ARMPMU_PRIV_KERNEL) ? 0 : ARMPMU_EXCLUDE_KERNEL;
	s->file = file;
	mutex_init(&s->lock);
	raw_spin_lock_init(&s->count_lock);
	INIT_LIST_HEAD(&s->tasks);
	INIT_LIST_HEAD(&s->threads);
	INIT_LIST_HEAD(&s->file_node);
	s->cpu = -1;
	armpmu_sampling_init(s);
	armpmu_counters_set_evtype(&s->cfg, ARMPMU_CYCLE_IDX,
				   pmu_encode_evtype(0, filter));
	armpmu_cpu_mode_prepare(s);
}

static void free_session(struct rcu_head *head)
{
	struct armpmu_session *s = container_of(head, struct armpmu_session, rcu);

	put_cred(s->opener_cred);
	kfree(s);
}

/* After release: a probe may have found a task-mode file just now. */
void armpmu_session_free(struct armpmu_session *s)
{
	mutex_destroy(&s->lock);
	put_pid(s->opener_tgid);
	call_rcu(&s->rcu, free_session);
}

void armpmu_session_release(struct armpmu_session *s)
{
	if (!s->mode)
		return;
	armpmu_admin_remove(s);
	s->mode->release(s);
	armpmu_sampling_release(s);
	put_pid(s->owner_pid);
}

/*
 * RELEASE and RELEASE_FILE take a PMU from another user: the opener's
 * right at open, whoever holds the descriptor now.
 */
int armpmu_session_release_cpu(struct armpmu_session *s, u32 cpu)
{
	if (!armpmu_priv_allowed(s, ARMPMU_PRIV_RELEASE))
		return -EPERM;
	return armpmu_admin_release_cpu(cpu);
}

int armpmu_session_release_file(struct armpmu_session *s, u32 id)
{
	if (!armpmu_priv_allowed(s, ARMPMU_PRIV_RELEASE))
		return -EPERM;
	return armpmu_admin_release_file(id);
}

/* Every user's counts: for those allowed to count the kernel, at open(). */
int armpmu_session_regs(struct armpmu_session *s, struct armpmu_regs *regs)
{
	if (!armpmu_priv_allowed(s, ARMPMU_PRIV_KERNEL))
		return -EPERM;
	return armpmu_regs_read(regs);
}

/* Set before the mode makes them visible to CPU_STATUS. */
static void set_owner(struct armpmu_session *s)
{
	s->owner_pid = get_task_pid(current, PIDTYPE_TGID);
	s->owner_uid = current_uid();
}

static void clear_owner(struct armpmu_session *s)
{
	put_pid(s->owner_pid);
	s->owner_pid = NULL;
}

int armpmu_session_bind(struct armpmu_session *s, u32 cpu)
{
	int ret;

	if (READ_ONCE(s->revoked))
		return -ECANCELED;
	if (s->mode)
		return -EALREADY;
	/* A whole CPU shows every user's activity there. */
	if (!armpmu_priv_allowed(s, ARMPMU_PRIV_BIND))
		return -EPERM;
	if (cpu == ARMPMU_CPU_CURRENT)
		cpu = raw_smp_processor_id();
	set_owner(s);
	ret = armpmu_cpu_mode_claim(s, cpu);
	if (ret) {
		clear_owner(s);
		return ret;
	}
	s->mode = &armpmu_cpu_mode;
	armpmu_admin_add(s);
	if (s->userenr)
		pr_warn("CPU%d: PMUSERENR is %#x: another module opened the PMU to user mode\n",
			s->cpu, s->userenr);
	return 0;
}

int armpmu_session_attach(struct armpmu_session *s, const struct armpmu_attach *at)
{
	int cpu, ret;

	if (at->reserved[0] || at->reserved[1] || (at->flags & ~ARMPMU_ATTACH_FLAGS))
		return -EINVAL;
	if (READ_ONCE(s->revoked))
		return -ECANCELED;
	if (s->mode)
		return -EALREADY;
	/* Task mode counts on any CPU: each of them is the same core. */
	cpu = get_cpu();
	s->caps = armpmu_cpus_caps(cpu);
	put_cpu();
	if (!s->caps)
		return -ENODEV;
	s->cfg.cycle_filterable = s->caps->can_filter;
	set_owner(s);
	ret = armpmu_task_mode_attach(s, at->tid, at->flags);
	if (ret) {
		clear_owner(s);
		return ret;
	}
	s->mode = &armpmu_task_mode;
	armpmu_admin_add(s);
	return 0;
}

/* The first call that needs a PMU, without BIND or ATTACH: count the caller. */
static int ensure_mode(struct armpmu_session *s)
{
	static const struct armpmu_attach self;

	if (READ_ONCE(s->revoked))
		return -ECANCELED;
	return s->mode ? 0 : armpmu_session_attach(s, &self);
}

/* A file without a mode describes the PMU of the CPU it asks on. */
int armpmu_session_info(struct armpmu_session *s, struct armpmu_info *info)
{
	int ret;

	memset(info, 0, sizeof(*info));
	ret = s->mode ? s->mode->info(s, info) : armpmu_cpus_info_here(info);
	if (ret)
		return ret;
	if (armpmu_priv_allowed(s, ARMPMU_PRIV_KERNEL))
		info->flags |= ARMPMU_INFO_KERNEL_ALLOWED;
	return 0;
}

int armpmu_session_select(struct armpmu_session *s, u32 idx)
{
	int ret = ensure_mode(s);

	if (ret)
		return ret;
	if (idx >= ARMPMU_MAX_COUNTERS)
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

/* The checks SET_EVENT and SET_CYCLE_FILTER share, once a mode is chosen. */
static int check_filter(const struct armpmu_session *s, u32 flags)
{
	if (flags && !s->caps->can_filter)
		return -EOPNOTSUPP;
	if (!(flags & ARMPMU_EXCLUDE_KERNEL) && !armpmu_priv_allowed(s, ARMPMU_PRIV_KERNEL))
		return -EACCES;
	return 0;
}

/*
 * The calls that change what a file counts ask its mode, which answers
 * where the counting path runs and, if the file may change now, runs the
 * change there; else EBUSY (counting, or armed) and nothing has changed:
 * no counter programmed, no total zeroed, no multiplexing switched on.
 * Every argument is checked before.
 */
struct slot_change {
	u32 idx;
	u32 evtype;
	u32 group;
};

/*
 * Slot @idx below num_counters of a file that is not multiplexed is its
 * event counter; any other makes the file multiplexed. Then the slot's
 * event, group and start of its times are recorded, and a multiplexed
 * file's sets are packed again.
 */
static int change_slot(struct armpmu_session *s, void *arg)
{
	const struct slot_change *c = arg;
	int ret = armpmu_mux_check_group(&s->mux, c->idx, c->group, s->caps->num_counters);

	if (ret)
		return ret;
	if (!s->mux.on && c->idx < s->caps->num_counters) {
		ret = s->mode->program(s, c->idx, c->evtype);
		if (ret)
			return ret;
	} else if (!s->mux.on) {
		s->mode->multiplex(s);
		/* The caller holds the session's lock, as READ does. */
		s->read_mux = true;
	}
	armpmu_mux_program(&s->mux, c->idx, c->evtype, c->group, s->time_enabled,
			   s->time_running);
	if (s->mux.on)
		armpmu_mux_pack(&s->mux, s->caps->num_counters);
	return 0;
}

int armpmu_session_set_event(struct armpmu_session *s,
			     const struct armpmu_event *ev)
{
	struct slot_change c;
	int ret;

	if ((ev->flags & ~ARMPMU_EVENT_FLAGS) || ev->reserved)
		return -EINVAL;
	ret = ensure_mode(s);
	if (ret)
		return ret;
	if (ev->event >= BIT(s->caps->event_bits))
		return -EINVAL;
	ret = check_filter(s, ev->flags);
	if (ret)
		return ret;
	if (!event_implemented(s->caps, ev->event))
		return -ENOENT;
	/* A sampled file's slots must all be in the PMU at each tick. */
	if (s->sampling.sampler && s->selected >= s->caps->num_counters)
		return -EOPNOTSUPP;
	c.idx = s->selected;
	c.evtype = pmu_encode_evtype(ev->event, ev->flags);
	c.group = ev->group;
	return s->mode->change(s, change_slot, &c);
}

/* Applied at START: the divider must not touch perf's cycles. */
static int change_divider(struct armpmu_session *s, void *arg)
{
	s->cfg.divider = *(const u32 *)arg;
	return 0;
}

int armpmu_session_set_divider(struct armpmu_session *s, u32 divider)
{
	int ret;

	if (divider > 1)
		return -EINVAL;
	ret = ensure_mode(s);
	if (ret)
		return ret;
	/* Rather than a cycle count 64 times too high. */
	if (divider && !s->caps->can_divide)
		return -EOPNOTSUPP;
	return s->mode->change(s, change_divider, &divider);
}

static int change_cycle_filter(struct armpmu_session *s, void *arg)
{
	return s->mode->program(s, ARMPMU_CYCLE_IDX, *(const u32 *)arg);
}

int armpmu_session_set_cycle_filter(struct armpmu_session *s, u32 flags)
{
	u32 evtype;
	int ret;

	if (flags & ~ARMPMU_EVENT_FLAGS)
		return -EINVAL;
	ret = ensure_mode(s);
	if (ret)
		return ret;
	ret = check_filter(s, flags);
	if (ret)
		return ret;
	evtype = pmu_encode_evtype(0, flags);
	return s->mode->change(s, change_cycle_filter, &evtype);
}

/* A multiplexed slot is in no counter while stopped: set in software. */
static int change_value(struct armpmu_session *s, void *arg)
{
	const struct armpmu_value *val = arg;

	if (val->counter == ARMPMU_CYCLE_COUNTER || !s->mux.on)
		return s->mode->set_value(s, val->counter, val->value);
	s->mux.value[val->counter] = val->value;
	return 0;
}

int armpmu_session_set_value(struct armpmu_session *s,
			     const struct armpmu_value *val)
{
	int ret;

	if (val->reserved)
		return -EINVAL;
	ret = ensure_mode(s);
	if (ret)
		return ret;
	/* A counter of the file: its cycle counter, or one of its slots. */
	if (val->counter != ARMPMU_CYCLE_COUNTER &&
	    val->counter >= (s->mux.on ? ARMPMU_MAX_COUNTERS : s->caps->num_counters))
		return -EINVAL;
	return s->mode->change(s, change_value, (void *)val);
}

int armpmu_session_start(struct armpmu_session *s)
{
	int ret = ensure_mode(s);

	if (ret)
		return ret;
	/* Its cycle counter would count the kernel for an unprivileged file. */
	if (!armpmu_priv_allowed(s, ARMPMU_PRIV_KERNEL) && !s->caps->can_filter)
		return -EOPNOTSUPP;
	return s->mode->start(s);
}

int armpmu_session_stop(struct armpmu_session *s)
{
	int ret = ensure_mode(s);

	return ret ? ret : s->mode->stop(s);
}

int armpmu_session_read(struct armpmu_session *s)
{
	int ret = ensure_mode(s);

	return ret ? ret : s->mode->read(s);
}

/* READ_SLOTS: s->rd for @nr slots; @reserved must be zero. */
int armpmu_session_read_slots(struct armpmu_session *s, u32 nr, u64 reserved)
{
	int ret;

	if (nr > ARMPMU_MAX_COUNTERS || reserved)
		return -EINVAL;
	ret = ensure_mode(s);
	if (ret)
		return ret;
	s->rd.hdr.nr = nr;
	s->read_slots = true;
	ret = s->mode->read(s);
	s->read_slots = false;
	return ret;
}

/* READ_THREADS, a few threads at a time: see struct armpmu_mode's @threads. */
int armpmu_session_threads(struct armpmu_session *s, struct armpmu_threads *hdr,
			   struct armpmu_thread_buf *buf, u32 n, bool fold)
{
	int ret = ensure_mode(s);

	if (ret)
		return ret;
	if (!s->mode->threads)
		return -EOPNOTSUPP;
	return s->mode->threads(s, hdr, buf, n, fold);
}

int armpmu_session_reset(struct armpmu_session *s)
{
	int ret = ensure_mode(s);

	return ret ? ret : s->mode->reset(s);
}

/*
 * SET_SAMPLING: its argument first, then a task-mode file (the caller's,
 * if it had no mode yet) that is not multiplexed; see sampling.c.
 */
int armpmu_session_set_sampling(struct armpmu_session *s, const struct armpmu_sampling *arg)
{
	struct armpmu_sampler *r;
	int ret = armpmu_sampling_check(arg, armpmu_priv_allowed(s, ARMPMU_PRIV_KERNEL));

	ret = ret ? ret : ensure_mode(s);
	if (ret)
		return ret;
	if (s->mode != &armpmu_task_mode || s->mux.on)
		return -EOPNOTSUPP;
	r = armpmu_sampling_new(s, arg);
	if (IS_ERR(r))
		return PTR_ERR(r);
	/* The old ring if the new one went in, else the new one. */
	ret = s->mode->change(s, armpmu_sampling_swap, &r);
	armpmu_sampling_free(r);
	return ret;
}

/* READ_SAMPLES: @hdr as the caller gave it, records to the room after @arg. */
int armpmu_session_read_samples(struct armpmu_session *s, struct armpmu_samples *hdr,
				struct armpmu_samples __user *arg)
{
	if (hdr->size < ARMPMU_SAMPLE_SIZE(ARMPMU_MAX_COUNTERS) || hdr->reserved[0] ||
	    hdr->reserved[1] || hdr->reserved[2])
		return -EINVAL;
	if (!s->sampling.sampler)
		return -EOPNOTSUPP;
	return armpmu_sampling_read(s, hdr, arg);
}

/* poll(2): a sampled file's ring. */
__poll_t armpmu_session_poll(struct armpmu_session *s)
{
	return armpmu_sampling_poll(s);
}
