// SPDX-License-Identifier: GPL-2.0
/*
 * The CPU registry: what each CPU's PMU can do, whether the driver sees the
 * CPU online, and which CPU-mode file owns it. It is the bottom of the
 * driver's files and calls none above it: CPU mode (cpu_mode.c) runs the
 * hotplug and idle callbacks and the claims, and the admin view
 * (admin.c) reads a CPU's state here.
 *
 * Capabilities are probed on each CPU as it comes online (a CPU offline at
 * load time is probed when it arrives). One mutex, armpmu_cpus_lock(),
 * orders claims, releases and hotplug, so a CPU's owner cannot change under
 * a hotplug callback that parks or restores the owner's counters: the
 * changes of online and owner are made with it held.
 */
#include <linux/cpumask.h>
#include <linux/lockdep.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include "armpmu.h"
#include "pmu_regs.h"

/*
 * @online is this driver's own view, set and cleared by its hotplug
 * callbacks with the lock held: cpu_online() is still true for a while
 * after the offline callback has run, and a claim accepted then would leave
 * its session unparked on a dead CPU.
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

/*
 * What task mode asks at every counted switch, kept ready: this CPU's
 * MIDR while its PMU is usable and no CPU-mode file owns it, else 0 (no
 * core has MIDR 0). Written with the lock held, read on the CPU.
 */
DEFINE_PER_CPU(u32, armpmu_cpus_task_midr);

static void update_task_midr(unsigned int cpu)
{
	const struct armpmu_cpu *c = &cpus[cpu];

	WRITE_ONCE(per_cpu(armpmu_cpus_task_midr, cpu),
		   c->usable && !c->owner ? c->caps.midr : 0);
}

int armpmu_cpus_init(void)
{
	cpus = kcalloc(nr_cpu_ids, sizeof(*cpus), GFP_KERNEL);
	return cpus ? 0 : -ENOMEM;
}

void armpmu_cpus_exit(void)
{
	kfree(cpus);
}

void armpmu_cpus_lock(void)
{
	mutex_lock(&owners_lock);
}

void armpmu_cpus_unlock(void)
{
	mutex_unlock(&owners_lock);
}

/* A CPU number from user space names a possible CPU. */
bool armpmu_cpus_valid(u32 cpu)
{
	return cpu < nr_cpu_ids && cpu_possible(cpu);
}

/*
 * On @cpu as it comes online, locked, interrupts off: probe its PMU the
 * first time. NULL, or why its PMU is not used (said once).
 */
const char *armpmu_cpus_probe(unsigned int cpu)
{
	struct armpmu_cpu *c = &cpus[cpu];
	const char *why = NULL;

	lockdep_assert_held(&owners_lock);
	if (!c->probed) {
		why = armpmu_probe_cpu(&c->caps);
		c->usable = !why;
		c->probed = true;
		update_task_midr(cpu);
	}
	return why;
}

/* By the hotplug callbacks, locked. */
void armpmu_cpus_set_online(unsigned int cpu, bool online)
{
	lockdep_assert_held(&owners_lock);
	cpus[cpu].online = online;
}

/* Whether the hotplug callbacks have brought @cpu up (locked). */
bool armpmu_cpus_online(unsigned int cpu)
{
	lockdep_assert_held(&owners_lock);
	return cpus[cpu].online;
}

/* How many CPUs have a PMU this driver can use. */
unsigned int armpmu_cpus_usable(void)
{
	unsigned int cpu, usable = 0;

	for_each_possible_cpu(cpu)
		usable += cpus[cpu].usable;
	return usable;
}

/* The CPU-mode file that owns @cpu, or NULL (locked). */
struct armpmu_session *armpmu_cpus_owner(unsigned int cpu)
{
	lockdep_assert_held(&owners_lock);
	return cpus[cpu].owner;
}

/* @s owns @cpu from now, if @cpu is online, usable and free (locked). */
int armpmu_cpus_set_owner(unsigned int cpu, struct armpmu_session *s)
{
	struct armpmu_cpu *c = &cpus[cpu];

	lockdep_assert_held(&owners_lock);
	if (!c->online)
		return -ENXIO;
	if (!c->usable)
		return -ENODEV;
	if (c->owner)
		return -EBUSY;
	WRITE_ONCE(c->owner, s);
	update_task_midr(cpu);
	return 0;
}

void armpmu_cpus_clear_owner(unsigned int cpu)
{
	lockdep_assert_held(&owners_lock);
	WRITE_ONCE(cpus[cpu].owner, NULL);
	update_task_midr(cpu);
}

/* The capabilities of @cpu, or NULL if it has no usable PMU (yet). */
const struct armpmu_caps *armpmu_cpus_caps(unsigned int cpu)
{
	return cpus[cpu].usable ? &cpus[cpu].caps : NULL;
}

/* What @caps says; the caller adds cpu and the flags about its file. */
void armpmu_cpus_fill_info(const struct armpmu_caps *caps, struct armpmu_info *info)
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

/* INFO about the PMU of the CPU the caller runs on, as it is now. */
int armpmu_cpus_info_here(struct armpmu_info *info)
{
	const struct armpmu_caps *caps;
	u32 userenr;
	int cpu;

	cpu = get_cpu();
	caps = armpmu_cpus_caps(cpu);
	userenr = caps ? pmu_read_userenr() : 0;
	put_cpu();
	if (!caps)
		return -ENODEV;
	armpmu_cpus_fill_info(caps, info);
	info->cpu = cpu;
	if (userenr)
		info->flags |= ARMPMU_INFO_USERENR_SET;
	return 0;
}
