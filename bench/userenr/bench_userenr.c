// SPDX-License-Identifier: GPL-2.0
/*
 * bench_userenr: opens the PMU to user mode (PMUSERENR) on every CPU, for
 * as long as it is loaded, so that armpmu-bench can time a user-mode read
 * of the counters: the floor no system call can reach.
 *
 * Test-only. It is what armpmu exists to avoid (any program of any user
 * may then read and write the PMU) and is loaded only inside the lab's
 * emulated boards, by the bench, and unloaded after. CPUs coming online
 * while it is loaded are opened too; unloading closes every CPU
 * (PMUSERENR = 0, as Linux leaves it). Linux's perf may close a CPU again
 * when it starts its own events there.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpuhotplug.h>
#include <linux/module.h>
#include <asm/barrier.h>

#ifdef CONFIG_ARM64
#include <asm/sysreg.h>

/* PMUSERENR_EL0: EN (all EL0 accesses), CR (cycle counter), ER (event counters). */
#define USERENR_OPEN	(BIT(0) | BIT(2) | BIT(3))

static void userenr_write(u32 val)
{
	write_sysreg(val, pmuserenr_el0);
	isb();
}
#else
/* ARMv7 PMUSERENR.EN: PL0 may access the PMU's registers. */
#define USERENR_OPEN	BIT(0)

static void userenr_write(u32 val)
{
	asm volatile("mcr p15, 0, %0, c9, c14, 0" : : "r" (val));
	isb();
}
#endif

static enum cpuhp_state userenr_state;

/* Hotplug callbacks: they run on the CPU concerned. */
static int userenr_open(unsigned int cpu)
{
	userenr_write(USERENR_OPEN);
	return 0;
}

static int userenr_close(unsigned int cpu)
{
	userenr_write(0);
	return 0;
}

static int __init userenr_init(void)
{
	int ret = cpuhp_setup_state(CPUHP_AP_ONLINE_DYN, "bench/userenr:online",
				    userenr_open, userenr_close);

	if (ret < 0)
		return ret;
	userenr_state = ret;
	pr_info("PMU opened to user mode on every CPU (test only)\n");
	return 0;
}

static void __exit userenr_exit(void)
{
	cpuhp_remove_state(userenr_state);
	pr_info("PMU closed to user mode\n");
}

module_init(userenr_init);
module_exit(userenr_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Test only: open the PMU to user mode (PMUSERENR) for armpmu's benchmark");
