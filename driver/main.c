// SPDX-License-Identifier: GPL-2.0
/*
 * armpmu: the ARM PMU for unprivileged users, programmed in kernel mode.
 * User mode never gets PMUSERENR; it asks /dev/armpmu.
 */
#include <linux/module.h>
#include "armpmu.h"

static int __init armpmu_init(void)
{
	int ret = armpmu_cpus_init();

	if (ret)
		return ret;
	ret = armpmu_cdev_init();
	if (ret)
		armpmu_cpus_exit();
	return ret;
}

static void __exit armpmu_exit(void)
{
	armpmu_cdev_exit();
	armpmu_cpus_exit();
}

module_init(armpmu_init);
module_exit(armpmu_exit);

MODULE_DESCRIPTION("ARM PMU counters through /dev/armpmu, programmed in kernel mode");
MODULE_LICENSE("GPL");
