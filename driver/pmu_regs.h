/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The PMU's registers for the architecture this module is built for: the
 * same inline helpers (pmu_read_counter(), pmu_enable(), ...) from
 * pmu_regs_v7.h on 32-bit kernels and pmu_regs_v8.h on arm64. Include
 * after armpmu.h.
 */
#ifndef ARMPMU_PMU_REGS_H
#define ARMPMU_PMU_REGS_H

#ifdef CONFIG_ARM64
#include "pmu_regs_v8.h"
#else
#include "pmu_regs_v7.h"
#endif

#endif /* ARMPMU_PMU_REGS_H */
