// SPDX-License-Identifier: GPL-2.0
/*
 * armpmu: the ARM PMU for unprivileged users, programmed in kernel mode.
 * User mode never gets PMUSERENR; it asks /dev/armpmu.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include "armpmu.h"

static int __init armpmu_init(void)
{
	int ret;

	if (!armpmu_counters_poll_ms || armpmu_counters_poll_ms > ARMPMU_POLL_MS_MAX) {
		pr_err("poll_ms=%u: must be 1 to %u\n", armpmu_counters_poll_ms, ARMPMU_POLL_MS_MAX);
		return -EINVAL;
	}
	ret = armpmu_cpus_init();
	if (ret)
		return ret;
	ret = armpmu_task_mode_init();
	if (ret)
		goto cpus;
	ret = armpmu_cpu_mode_init();
	if (ret)
		goto task_mode;
	ret = armpmu_cdev_init();
	if (ret)
		goto cpu_mode;
	return 0;
cpu_mode:
	armpmu_cpu_mode_exit();
task_mode:
	armpmu_task_mode_exit();
cpus:
	armpmu_cpus_exit();
	return ret;
}

static void __exit armpmu_exit(void)
{
	armpmu_cdev_exit();
	/* The probes may outlive the last file by a second: unhook them first. */
	armpmu_task_mode_exit();
	armpmu_cpu_mode_exit();
	armpmu_cpus_exit();
	armpmu_ring_charges_exit();
}

module_init(armpmu_init);
module_exit(armpmu_exit);

MODULE_DESCRIPTION("ARM PMU counters through /dev/armpmu, programmed in kernel mode");
MODULE_LICENSE("GPL");
