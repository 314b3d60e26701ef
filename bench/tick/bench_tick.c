// SPDX-License-Identifier: GPL-2.0
/*
 * bench_tick: the floor of a timer-driven sample. Each CPU gets a timer
 * of the kind armpmu's sampling tick is (driver/task_cpu.c: a per-CPU
 * CLOCK_MONOTONIC hrtimer, pinned, run in hard interrupt context) whose
 * callback does nothing but count itself and re-arm one period on. What
 * such a tick costs the program it interrupts is what any sample taken by
 * one timer interrupt costs at least, armpmu's and perf's cpu-clock alike
 * (sample-bench tick).
 *
 *   echo NS > /sys/module/bench_tick/parameters/period_ns   start every
 *        online CPU's timer (its tally zeroed); 0 stops them all
 *   cat /sys/module/bench_tick/parameters/ticks             the ticks since
 *
 * Test-only: loaded only inside the lab's emulated boards, by the bench,
 * and unloaded after. A timer that a CPU going offline hands to another
 * goes on ticking there until stopped.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpu.h>
#include <linux/hrtimer.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/percpu.h>
#include <linux/smp.h>

/* The shortest period taken: a shorter one could leave the CPU no time. */
#define PERIOD_MIN_NS	10000ULL

struct tick_cpu {
	struct hrtimer timer;
	unsigned long ticks;
};

static DEFINE_PER_CPU(struct tick_cpu, tick_cpus);
static u64 period_ns;

static enum hrtimer_restart tick(struct hrtimer *timer)
{
	struct tick_cpu *t = container_of(timer, struct tick_cpu, timer);

	t->ticks++;
	hrtimer_forward_now(timer, ns_to_ktime(period_ns));
	return HRTIMER_RESTART;
}

/* A cross-call: this CPU's timer, from now. */
static void start_here(void *unused)
{
	struct tick_cpu *t = this_cpu_ptr(&tick_cpus);

	t->ticks = 0;
	hrtimer_start(&t->timer, ns_to_ktime(period_ns), HRTIMER_MODE_REL_PINNED_HARD);
}

static void stop_all(void)
{
	unsigned int cpu;

	for_each_possible_cpu(cpu)
		hrtimer_cancel(&per_cpu_ptr(&tick_cpus, cpu)->timer);
}

/* Under the module's parameter lock: one writer at a time. */
static int period_set(const char *val, const struct kernel_param *kp)
{
	u64 ns;
	int ret = kstrtou64(val, 0, &ns);

	if (ret)
		return ret;
	if (ns && ns < PERIOD_MIN_NS)
		return -ERANGE;
	stop_all();
	period_ns = ns;
	if (ns) {
		cpus_read_lock();
		on_each_cpu(start_here, NULL, 1);
		cpus_read_unlock();
	}
	return 0;
}

static const struct kernel_param_ops period_ops = {
	.set = period_set,
	.get = param_get_ullong,
};
module_param_cb(period_ns, &period_ops, &period_ns, 0600);
MODULE_PARM_DESC(period_ns, "each online CPU's empty tick every this many ns (0: none)");

static int ticks_get(char *buf, const struct kernel_param *kp)
{
	unsigned long sum = 0;
	unsigned int cpu;

	for_each_possible_cpu(cpu)
		sum += READ_ONCE(per_cpu_ptr(&tick_cpus, cpu)->ticks);
	return sysfs_emit(buf, "%lu\n", sum);
}

static const struct kernel_param_ops ticks_ops = {
	.get = ticks_get,
};
module_param_cb(ticks, &ticks_ops, NULL, 0400);
MODULE_PARM_DESC(ticks, "the ticks since the timers last started");

static int __init tick_init(void)
{
	unsigned int cpu;

	for_each_possible_cpu(cpu) {
		struct tick_cpu *t = per_cpu_ptr(&tick_cpus, cpu);

		hrtimer_init(&t->timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_PINNED_HARD);
		t->timer.function = tick;
	}
	return 0;
}

static void __exit tick_exit(void)
{
	stop_all();
}

module_init(tick_init);
module_exit(tick_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Test only: an empty per-CPU timer tick, the floor of armpmu's sample cost");
