// SPDX-License-Identifier: GPL-2.0
/*
 * Whole-CPU counting: a file bound to a CPU keeps its configuration loaded
 * in that CPU's PMU. Every operation runs on the bound CPU with interrupts
 * off: through smp_call_function_single() (a plain call when the caller is
 * already there), the poll timer, and the hotplug and idle callbacks. So
 * the on-CPU state needs no lock of its own, and a file can only ever
 * report its own CPU.
 *
 * CPU mode runs the CPU's hotplug and idle callbacks, and the claims,
 * releases and revocations of a CPU, with the registry (cpus.c) locked
 * around each change of the CPU's owner or online state.
 *
 * The poll timer looks at the counters often enough that none can wrap
 * twice between looks. A look that finds the counters disturbed (see
 * counters.c) stops the file, and its counts are reported as not
 * trustworthy (EIO from READ) until RESET.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpu_pm.h>
#include <linux/cpuhotplug.h>
#include <linux/irqflags.h>
#include <linux/notifier.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/smp.h>
#include <linux/string.h>
#include "armpmu.h"
#include "loaded.h"
#include "snapshot.h"
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

/* Counting time is time started, on a CPU that is there. Returns it. */
static u64 take_time(struct armpmu_session *s)
{
	u64 now = sched_clock();
	u64 ran = now - s->since_ns;

	s->time_enabled += ran;
	s->time_running += ran;
	s->since_ns = now;
	return ran;
}

/* A look at running counters: fold in their deltas, or find them disturbed. */
static void look(struct armpmu_session *s)
{
	if (!armpmu_loaded_look(&s->in_pmu, s, NULL, take_time(s)))
		mark_disturbed(s);
}

/*
 * A multiplexed file's next set goes into @s->cfg itself (the counters of
 * the one before, stopped, are zeroed first).
 */
static void next_set(struct armpmu_session *s)
{
	armpmu_counters_clear(&s->cfg);
	armpmu_loaded_choose(&s->in_pmu, s, &s->cfg, s->total);
}

static int load(struct armpmu_session *s)
{
	return armpmu_loaded_load(&s->in_pmu, s);
}

static void start_polling(struct armpmu_session *s)
{
	hrtimer_start(&s->poll, poll_period(), HRTIMER_MODE_REL_PINNED_HARD);
}

static int start_counting(struct armpmu_session *s)
{
	int ret;

	if (s->mux.on)
		next_set(s);
	ret = load(s);
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
	if (!armpmu_loaded_pause(&s->in_pmu, s, NULL, take_time(s), check_enable, false))
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

/*
 * The CPU is back, its PMU reset by perf or by power-down; or a
 * multiplexed file's next set goes in, whose counters were not ours
 * meanwhile.
 */
static bool resume_counting(struct armpmu_session *s)
{
	s->running = false;
	if (!load(s)) {
		s->running = true;
		s->since_ns = sched_clock();
		return true;
	}
	s->disturbed = true;
	pr_notice_ratelimited("CPU%d: armpmu's counters were taken while they were not loaded: counts are not trustworthy until RESET\n",
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
	armpmu_task_cpu_evict();
	s->cfg.cycle_filterable = s->caps->can_filter;
	s->in_pmu.cfg = &s->cfg;
	s->in_pmu.total = s->total;
	memset(s->total, 0, sizeof(s->total));
	s->disturbed = false;
	this_cpu_write(active_session, s);
	return peek_userenr(s, NULL);
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

/*
 * The file neither counts nor is armed (CPU mode never is) as seen here,
 * on the bound CPU, where a rotation or a resume sets and clears
 * @running: so no call lands between the two.
 */
struct change_call {
	int (*fn)(struct armpmu_session *s, void *arg);
	void *arg;
};

static int change(struct armpmu_session *s, const void *arg)
{
	const struct change_call *call = arg;

	return s->running ? -EBUSY : call->fn(s, call->arg);
}

static int cpu_change(struct armpmu_session *s,
		      int (*fn)(struct armpmu_session *s, void *arg), void *arg)
{
	struct change_call call = { .fn = fn, .arg = arg };

	return on_bound_cpu(s, change, &call);
}

/*
 * The three below run on the bound CPU, from cpu_change() only.
 * SET_EVENT, SET_CYCLE_FILTER and SET_VALUE: the counter must be free.
 */
static int cpu_program(struct armpmu_session *s, u32 idx, u32 evtype)
{
	if (armpmu_counters_foreign(BIT(idx)))
		return -EBUSY;
	armpmu_counters_set_evtype(&s->cfg, idx, evtype);
	armpmu_counters_program(&s->cfg, BIT(idx));
	armpmu_counters_set(&s->in_pmu.vals, s->total, idx, 0);
	return 0;
}

static int cpu_set_value(struct armpmu_session *s, u32 idx, u64 value)
{
	if (armpmu_counters_foreign(BIT(idx)))
		return -EBUSY;
	armpmu_counters_set(&s->in_pmu.vals, s->total, idx, value);
	return 0;
}

/* The file's counters are left zeroed: its slots take turns from START. */
static void cpu_multiplex(struct armpmu_session *s)
{
	armpmu_counters_clear(&s->cfg);
	armpmu_mux_begin(&s->mux, &s->cfg, s->total, s->time_running);
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
	return armpmu_snapshot_take(s, 0);
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
		armpmu_counters_rebase(&s->cfg, &s->in_pmu.vals);
	} else if (s->started) {
		int ret = start_counting(s);

		if (ret)
			return ret;
	}
	s->disturbed = false;
	memset(s->total, 0, sizeof(s->total));
	if (unlikely(s->mux.on))
		armpmu_mux_zero(&s->mux);
	else
		s->mux.based = 0;
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
	/* A multiplexed file's next set takes its turn. */
	if (s->running && s->mux.on && s->mux.nsets > 1) {
		pause_counting(s, true);
		if (s->running) {
			next_set(s);
			resume_counting(s);
		}
	}
	if (!s->running)
		return HRTIMER_NORESTART;
	hrtimer_forward_now(timer, poll_period());
	return HRTIMER_RESTART;
}

void armpmu_cpu_mode_prepare(struct armpmu_session *s)
{
	hrtimer_init(&s->poll, CLOCK_MONOTONIC, HRTIMER_MODE_REL_PINNED_HARD);
	s->poll.function = poll;
}

/*
 * Hotplug: on the CPU going down, interrupts off. Keep what was counted,
 * and leave neither counts in the registers nor a pointer to @s behind:
 * the session may be closed and freed while the CPU is away.
 */
static void cpu_down(struct armpmu_session *s)
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
static void cpu_up(struct armpmu_session *owner)
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
static void idle_enter(void)
{
	struct armpmu_session *s = this_cpu_read(active_session);

	if (!s || !s->running)
		return;
	pause_counting(s, false);
	s->idle_saved = s->running;
}

/* Idle exit (CPU_PM_EXIT, or ENTER_FAILED), after perf's reset of the PMU. */
static void idle_exit(void)
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

/* The registry then forgets the owner. */
static void revoke_session(struct armpmu_session *s)
{
	/* Offline: the session was parked when the CPU went down. */
	if (s->parked || smp_call_function_single(s->cpu, revoke_on_cpu, s, 1)) {
		s->running = false;
		s->revoked = true;
	}
}

/* The counters @s is counting with (on its CPU, interrupts off). */
u32 armpmu_cpu_mode_counting(const struct armpmu_session *s)
{
	if (!s || !s->running || s->parked || s->revoked)
		return 0;
	return armpmu_counters_of(&s->cfg);
}

/* Runs on @cpu, in its hotplug thread. */
static int hotplug_online(unsigned int cpu)
{
	const char *why;
	unsigned long flags;

	armpmu_cpus_lock();
	local_irq_save(flags);
	why = armpmu_cpus_probe(cpu);
	cpu_up(armpmu_cpus_owner(cpu));
	armpmu_cpus_set_online(cpu, true);
	local_irq_restore(flags);
	armpmu_cpus_unlock();

	if (why)
		pr_info("CPU%u: %s: not used\n", cpu, why);
	return 0;
}

/* Runs on @cpu, in its hotplug thread, before it goes down. */
static int hotplug_offline(unsigned int cpu)
{
	struct armpmu_session *owner;
	unsigned long flags;

	armpmu_cpus_lock();
	local_irq_save(flags);
	armpmu_cpus_set_online(cpu, false);
	owner = armpmu_cpus_owner(cpu);
	if (owner)
		cpu_down(owner);
	local_irq_restore(flags);
	armpmu_cpus_unlock();
	return 0;
}

/* Idle states that power the core down lose the PMU's state. */
static int idle_notify(struct notifier_block *nb, unsigned long cmd, void *v)
{
	switch (cmd) {
	case CPU_PM_ENTER:
		idle_enter();
		break;
	case CPU_PM_ENTER_FAILED:
	case CPU_PM_EXIT:
		idle_exit();
		break;
	}
	return NOTIFY_OK;
}

/* After perf's notifier (priority 0), whose exit resets the whole PMU. */
static struct notifier_block idle_nb = {
	.notifier_call = idle_notify,
	.priority = -1,
};

static enum cpuhp_state hotplug_state;

/* The hotplug callbacks probe each CPU (now, for those online). */
int armpmu_cpu_mode_init(void)
{
	unsigned int usable;
	int ret;

	ret = cpuhp_setup_state(CPUHP_AP_ONLINE_DYN, "misc/armpmu:online",
				hotplug_online, hotplug_offline);
	if (ret < 0)
		return ret;
	hotplug_state = ret;

	usable = armpmu_cpus_usable();
	if (!usable) {
		pr_err("no online CPU has a PMU this driver can use\n");
		ret = -ENODEV;
		goto remove;
	}
	ret = cpu_pm_register_notifier(&idle_nb);
	if (ret)
		goto remove;
	pr_info("%s PMU on %u CPUs\n", PMU_NAME, usable);
	return 0;
remove:
	cpuhp_remove_state(hotplug_state);
	return ret;
}

void armpmu_cpu_mode_exit(void)
{
	cpu_pm_unregister_notifier(&idle_nb);
	cpuhp_remove_state(hotplug_state);
}

/* BIND: @s counts the whole of @cpu, if it is online, usable and free. */
int armpmu_cpu_mode_claim(struct armpmu_session *s, u32 cpu)
{
	int ret;

	if (!armpmu_cpus_valid(cpu))
		return -EINVAL;
	armpmu_cpus_lock();
	ret = armpmu_cpus_set_owner(cpu, s);
	if (!ret) {
		s->cpu = cpu;
		s->caps = armpmu_cpus_caps(cpu);
		ret = on_bound_cpu(s, attach, NULL);
		if (ret) {
			armpmu_cpus_clear_owner(cpu);
			s->cpu = -1;
			s->caps = NULL;
		}
	}
	armpmu_cpus_unlock();
	return ret;
}

/* Take @cpu from its owner, if that is @only (any owner if @only is NULL). */
int armpmu_cpu_mode_revoke(u32 cpu, const struct armpmu_session *only)
{
	struct armpmu_session *owner;
	int ret = -ESRCH;

	if (!armpmu_cpus_valid(cpu))
		return -EINVAL;
	armpmu_cpus_lock();
	owner = armpmu_cpus_owner(cpu);
	if (owner && (!only || owner == only)) {
		revoke_session(owner);
		armpmu_cpus_clear_owner(cpu);
		ret = 0;
		pr_info("CPU%u: PMU released by an administrator (pid %d)\n",
			cpu, task_tgid_nr(current));
	}
	armpmu_cpus_unlock();
	return ret;
}

/*
 * Closing: a session revoked by an administrator no longer owns its CPU.
 * Offline, the session was parked (and its CPU left clean) going down.
 */
static void cpu_release(struct armpmu_session *s)
{
	armpmu_cpus_lock();
	if (armpmu_cpus_owner(s->cpu) == s) {
		if (on_bound_cpu(s, detach, NULL))
			s->running = false;
		armpmu_cpus_clear_owner(s->cpu);
	}
	armpmu_cpus_unlock();
	hrtimer_cancel(&s->poll);
}

static int cpu_revoke(struct armpmu_session *s)
{
	return armpmu_cpu_mode_revoke(s->cpu, s);
}

static void cpu_describe(struct armpmu_session *s, struct armpmu_file_status *st)
{
	st->flags |= ARMPMU_FILE_CPU;
	st->cpu = s->cpu;
}

/* The bound CPU's PMU, and PMUSERENR as it is there now. */
static int cpu_info(struct armpmu_session *s, struct armpmu_info *info)
{
	int ret = on_bound_cpu(s, peek_userenr, NULL);

	if (ret)
		return ret;
	armpmu_cpus_fill_info(s->caps, info);
	info->cpu = s->cpu;
	info->flags |= ARMPMU_INFO_BOUND;
	if (s->userenr)
		info->flags |= ARMPMU_INFO_USERENR_SET;
	return 0;
}

const struct armpmu_mode armpmu_cpu_mode = {
	.change = cpu_change,
	.program = cpu_program,
	.set_value = cpu_set_value,
	.multiplex = cpu_multiplex,
	.start = cpu_start,
	.stop = cpu_stop,
	.read = cpu_read,
	.reset = cpu_reset,
	.release = cpu_release,
	.revoke = cpu_revoke,
	.describe = cpu_describe,
	.info = cpu_info,
};
