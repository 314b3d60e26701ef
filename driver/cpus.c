// SPDX-License-Identifier: GPL-2.0
/*
 * The CPU registry: what each CPU's PMU can do, and which session owns it.
 *
 * Capabilities are probed on each CPU as it comes online (a CPU offline at
 * load time is probed when it arrives). One mutex orders claims, releases
 * and hotplug, so a CPU's owner cannot change under a hotplug callback that
 * parks or restores the owner's counters.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpu.h>
#include <linux/cpu_pm.h>
#include <linux/cpuhotplug.h>
#include <linux/irqflags.h>
#include <linux/cred.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include "armpmu.h"
#include "pmu_regs.h"

/*
 * @online is this driver's own view, set and cleared by its hotplug
 * callbacks under owners_lock: cpu_online() is still true for a while after
 * the offline callback has run, and a claim accepted then would leave its
 * session unparked on a dead CPU.
 */
struct armpmu_cpu {
	struct armpmu_caps caps;
	bool probed;
	bool usable;
	bool online;
	struct armpmu_session *owner;
};

static struct armpmu_cpu *cpus;
static DEFINE_MUTEX(owners_lock);
static enum cpuhp_state hotplug_state;

/* Runs on @cpu, in its hotplug thread. */
static int armpmu_cpu_online(unsigned int cpu)
{
	struct armpmu_cpu *c = &cpus[cpu];
	const char *why = NULL;
	unsigned long flags;

	mutex_lock(&owners_lock);
	local_irq_save(flags);
	if (!c->probed) {
		why = armpmu_probe_cpu(&c->caps);
		c->usable = !why;
		c->probed = true;
	}
	armpmu_cpu_up(c->owner);
	c->online = true;
	local_irq_restore(flags);
	mutex_unlock(&owners_lock);

	if (why)
		pr_info("CPU%u: %s: not used\n", cpu, why);
	return 0;
}

/* Runs on @cpu, in its hotplug thread, before it goes down. */
static int armpmu_cpu_offline(unsigned int cpu)
{
	struct armpmu_cpu *c = &cpus[cpu];
	unsigned long flags;

	mutex_lock(&owners_lock);
	local_irq_save(flags);
	c->online = false;
	if (c->owner)
		armpmu_cpu_down(c->owner);
	local_irq_restore(flags);
	mutex_unlock(&owners_lock);
	return 0;
}

/* Idle states that power the core down lose the PMU's state. */
static int armpmu_cpu_pm(struct notifier_block *nb, unsigned long cmd, void *v)
{
	switch (cmd) {
	case CPU_PM_ENTER:
		armpmu_idle_enter();
		break;
	case CPU_PM_ENTER_FAILED:
	case CPU_PM_EXIT:
		armpmu_idle_exit();
		break;
	}
	return NOTIFY_OK;
}

/* After perf's notifier (priority 0), whose exit resets the whole PMU. */
static struct notifier_block armpmu_cpu_pm_nb = {
	.notifier_call = armpmu_cpu_pm,
	.priority = -1,
};

int armpmu_cpus_init(void)
{
	unsigned int cpu, usable = 0;
	int ret;

	cpus = kcalloc(nr_cpu_ids, sizeof(*cpus), GFP_KERNEL);
	if (!cpus)
		return -ENOMEM;
	ret = cpuhp_setup_state(CPUHP_AP_ONLINE_DYN, "misc/armpmu:online",
				armpmu_cpu_online, armpmu_cpu_offline);
	if (ret < 0)
		goto free;
	hotplug_state = ret;

	for_each_possible_cpu(cpu)
		usable += cpus[cpu].usable;
	if (!usable) {
		pr_err("no online CPU has a PMU this driver can use\n");
		ret = -ENODEV;
		goto remove;
	}
	ret = cpu_pm_register_notifier(&armpmu_cpu_pm_nb);
	if (ret)
		goto remove;
	pr_info("%s PMU on %u CPUs\n", PMU_NAME, usable);
	return 0;
remove:
	cpuhp_remove_state(hotplug_state);
free:
	kfree(cpus);
	return ret;
}

void armpmu_cpus_exit(void)
{
	cpu_pm_unregister_notifier(&armpmu_cpu_pm_nb);
	cpuhp_remove_state(hotplug_state);
	kfree(cpus);
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

/* A CPU-mode file owns this CPU's PMU (interrupts off). */
bool armpmu_cpu_owned_here(void)
{
	return READ_ONCE(cpus[smp_processor_id()].owner);
}

/* The capabilities of @cpu, or NULL if it has no usable PMU (yet). */
const struct armpmu_caps *armpmu_cpu_caps(unsigned int cpu)
{
	return cpus[cpu].usable ? &cpus[cpu].caps : NULL;
}

int armpmu_cpu_claim(unsigned int cpu, struct armpmu_session *s)
{
	struct armpmu_cpu *c;
	int ret;

	if (cpu >= nr_cpu_ids || !cpu_possible(cpu))
		return -EINVAL;
	c = &cpus[cpu];

	mutex_lock(&owners_lock);
	if (!c->online) {
		ret = -ENXIO;
	} else if (!c->usable) {
		ret = -ENODEV;
	} else if (c->owner) {
		ret = -EBUSY;
	} else {
		WRITE_ONCE(c->owner, s);
		s->cpu = cpu;
		s->caps = &c->caps;
		ret = armpmu_cpu_attach(s);
		if (ret) {
			WRITE_ONCE(c->owner, NULL);
			s->cpu = -1;
			s->caps = NULL;
		}
	}
	mutex_unlock(&owners_lock);
	return ret;
}

/* A session revoked by an administrator no longer owns its CPU. */
void armpmu_cpu_release(unsigned int cpu, struct armpmu_session *s)
{
	mutex_lock(&owners_lock);
	if (cpus[cpu].owner == s) {
		armpmu_cpu_detach(s);
		WRITE_ONCE(cpus[cpu].owner, NULL);
	}
	mutex_unlock(&owners_lock);
}

/* Take @cpu from its owner, if that is @only (any owner if @only is NULL). */
int armpmu_cpu_revoke(u32 cpu, const struct armpmu_session *only)
{
	struct armpmu_session *owner;
	int ret = -ESRCH;

	if (cpu >= nr_cpu_ids || !cpu_possible(cpu))
		return -EINVAL;
	mutex_lock(&owners_lock);
	owner = cpus[cpu].owner;
	if (owner && (!only || owner == only)) {
		armpmu_cpu_revoke_session(owner);
		WRITE_ONCE(cpus[cpu].owner, NULL);
		ret = 0;
		pr_info("CPU%u: PMU released by an administrator (pid %d)\n",
			cpu, task_tgid_nr(current));
	}
	mutex_unlock(&owners_lock);
	return ret;
}

struct pmu_peek {
	const struct armpmu_session *owner;
	u32 userenr;
	u32 foreign;
};

/* On the CPU looked at, interrupts off, so the owner cannot start or stop. */
static void peek_on_cpu(void *info)
{
	struct pmu_peek *peek = info;

	peek->userenr = pmu_read_userenr();
	peek->foreign = pmu_read_enabled() &
			~(armpmu_cpu_counting(peek->owner) | armpmu_task_counting());
}

int armpmu_cpu_status(const struct armpmu_session *caller,
		      struct armpmu_cpu_status *st)
{
	u32 cpu = st->cpu;
	struct armpmu_cpu *c;
	struct pmu_peek peek = { };

	if (cpu >= nr_cpu_ids || !cpu_possible(cpu))
		return -EINVAL;
	c = &cpus[cpu];
	memset(st, 0, sizeof(*st));
	st->cpu = cpu;

	mutex_lock(&owners_lock);
	if (c->usable) {
		st->flags |= ARMPMU_CPU_USABLE;
		armpmu_fill_info(&c->caps, &st->info);
		st->info.cpu = cpu;
	}
	if (c->owner) {
		st->flags |= ARMPMU_CPU_OWNED;
		if (c->owner == caller)
			st->flags |= ARMPMU_CPU_CALLER;
		st->owner_pid = pid_vnr(c->owner->owner_pid);
		st->owner_uid = from_kuid_munged(current_user_ns(), c->owner->owner_uid);
	}
	/* Hotplug waits for the lock: an online CPU stays up for the call. */
	peek.owner = c->owner;
	if (c->online &&
	    (!c->usable || !smp_call_function_single(cpu, peek_on_cpu, &peek, 1))) {
		st->flags |= ARMPMU_CPU_ONLINE;
		if (peek.userenr)
			st->flags |= ARMPMU_CPU_USERENR_SET;
		if (peek.foreign) {
			st->flags |= ARMPMU_CPU_FOREIGN;
			st->foreign_counters = peek.foreign;
		}
	}
	mutex_unlock(&owners_lock);
	return 0;
}
