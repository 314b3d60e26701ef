// SPDX-License-Identifier: GPL-2.0
/*
 * The operations of an open /dev/armpmu, in process context with the
 * session's lock held: choosing the mode, checking arguments and
 * privilege, then asking the mode (cpu_mode.c or task_mode.c), the
 * admin view (admin.c) or regs.c to do the rest. Every decision of who
 * may do what is taken here, from the opener's credentials or the
 * caller's capabilities; only whom a task-mode file may count is
 * decided in task_mode.c, where its probes follow exec.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/capability.h>
#include <linux/cred.h>
#include <linux/fs.h>
#include <linux/moduleparam.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/string.h>
#include "armpmu.h"
#include "pmu_regs.h"

/* The largest event number in the range PMCEID describes. */
#define COMMON_EVENT_LAST	0x3f

static bool cpu_mode_for_all;
module_param(cpu_mode_for_all, bool, 0644);
MODULE_PARM_DESC(cpu_mode_for_all,
		 "let every user who can open the device count whole CPUs (BIND), which shows other users' activity (default: only CAP_PERFMON or CAP_SYS_ADMIN)");

/*
 * Privilege is decided once, from the opener's credentials, as perf does;
 * whom the file may count too, from the same credentials (task_mode.c).
 */
void armpmu_session_init(struct armpmu_session *s, struct file *file)
{
	bool kernel_allowed = perfmon_capable();
	u32 filter = kernel_allowed ? 0 : ARMPMU_EXCLUDE_KERNEL;

	s->file = file;
	s->opener_cred = get_cred(file->f_cred);
	s->opener_tgid = get_task_pid(current, PIDTYPE_TGID);
	s->opener_exec_id = READ_ONCE(current->self_exec_id);
	s->opener_ptrace = has_capability_noaudit(current, CAP_SYS_PTRACE);
	mutex_init(&s->lock);
	raw_spin_lock_init(&s->count_lock);
	INIT_LIST_HEAD(&s->tasks);
	INIT_LIST_HEAD(&s->threads);
	INIT_LIST_HEAD(&s->file_node);
	s->cpu = -1;
	s->kernel_allowed = kernel_allowed;
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

/* RELEASE and RELEASE_FILE take a PMU from another user. */
int armpmu_session_release_cpu(struct armpmu_session *s, u32 cpu)
{
	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	return armpmu_admin_release_cpu(cpu);
}

int armpmu_session_release_file(struct armpmu_session *s, u32 id)
{
	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	return armpmu_admin_release_file(id);
}

/* Every user's counts: for those allowed to count the kernel, at open(). */
int armpmu_session_regs(struct armpmu_session *s, struct armpmu_regs *regs)
{
	if (!s->kernel_allowed)
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
	if (!s->kernel_allowed && !READ_ONCE(cpu_mode_for_all))
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
	ret = armpmu_task_attach(s, at->tid, at->flags);
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
	if (s->kernel_allowed)
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
	if (!(flags & ARMPMU_EXCLUDE_KERNEL) && !s->kernel_allowed)
		return -EACCES;
	return 0;
}

/*
 * Record a slot's event, group and start of its times; a multiplexed
 * file's sets are packed again. Under the count lock, which an armed
 * task-mode file's exec takes to start it: an armed file is busy too.
 */
static int set_slot(struct armpmu_session *s, u32 idx, u32 evtype, u32 group)
{
	int ret = 0;

	raw_spin_lock_irq(&s->count_lock);
	if (s->running || s->armed) {
		ret = -EBUSY;
	} else {
		armpmu_mux_program(&s->mux, idx, evtype, group, s->time_enabled,
				   s->time_running);
		if (s->mux.on)
			armpmu_mux_pack(&s->mux, s->caps->num_counters);
	}
	raw_spin_unlock_irq(&s->count_lock);
	return ret;
}

/*
 * Slot @idx below num_counters of a file that is not multiplexed is its
 * event counter; any other makes the file multiplexed.
 */
static int program_slot(struct armpmu_session *s, u32 idx, u32 evtype, u32 group)
{
	int ret = armpmu_mux_check_group(&s->mux, idx, group, s->caps->num_counters);

	if (ret)
		return ret;
	if (!s->mux.on && idx < s->caps->num_counters) {
		ret = s->mode->program(s, idx, evtype);
		return ret ? ret : set_slot(s, idx, evtype, group);
	}
	if (!s->mux.on) {
		s->mode->multiplex(s);
		s->read_slow |= ARMPMU_READ_MUX;
	}
	return set_slot(s, idx, evtype, group);
}

int armpmu_session_set_event(struct armpmu_session *s,
			     const struct armpmu_event *ev)
{
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
	if (s->running)
		return -EBUSY;
	/* A sampled file's slots must all be in the PMU at each tick. */
	if (s->sampling.sampler && s->selected >= s->caps->num_counters)
		return -EOPNOTSUPP;
	return program_slot(s, s->selected, pmu_encode_evtype(ev->event, ev->flags),
			    ev->group);
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
	ret = ensure_mode(s);
	if (ret)
		return ret;
	ret = check_filter(s, flags);
	if (ret)
		return ret;
	if (s->running)
		return -EBUSY;
	return s->mode->program(s, ARMPMU_CYCLE_IDX, pmu_encode_evtype(0, flags));
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
	if (val->counter == ARMPMU_CYCLE_COUNTER || (!s->mux.on &&
						       val->counter < s->caps->num_counters)) {
		if (s->running)
			return -EBUSY;
		return s->mode->set_value(s, val->counter, val->value);
	}
	if (!s->mux.on || val->counter >= ARMPMU_MAX_COUNTERS)
		return -EINVAL;
	if (s->running)
		return -EBUSY;
	/* A multiplexed slot is in no counter while stopped: in software. */
	raw_spin_lock_irq(&s->count_lock);
	s->mux.value[val->counter] = val->value;
	raw_spin_unlock_irq(&s->count_lock);
	return 0;
}

int armpmu_session_start(struct armpmu_session *s)
{
	int ret = ensure_mode(s);

	if (ret)
		return ret;
	/* Its cycle counter would count the kernel for an unprivileged file. */
	if (!s->kernel_allowed && !s->caps->can_filter)
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
	s->read_slow |= nr + 1;
	ret = s->mode->read(s);
	s->read_slow &= ARMPMU_READ_MUX;
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
	int ret = armpmu_sampling_check(arg, s->kernel_allowed);

	ret = ret ? ret : ensure_mode(s);
	if (ret)
		return ret;
	if (s->mode != &armpmu_task_mode || s->mux.on)
		return -EOPNOTSUPP;
	return armpmu_sampling_set(s, arg);
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
