/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libpmudev: a thin C library over /dev/armpmu.
 *
 * Every function returning int returns 0 (or a non-negative value where
 * documented) on success and a negative errno value on failure; see
 * pmudev_strerror(). The library keeps no global state: distinct handles may
 * be used from distinct threads; one handle is not to be shared between
 * threads without a lock. Counter snapshots use the driver's own structures
 * from <linux/armpmu.h>, the contract shared by driver, library and tests.
 */
#ifndef PMUDEV_H
#define PMUDEV_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <linux/armpmu.h>

#ifdef __cplusplus
extern "C" {
#endif

/* An open /dev/armpmu, bound to one CPU. */
struct pmudev;

/* pmudev_open() cpu argument: the caller's CPU, or another it may run on. */
#define PMUDEV_CPU_ANY		(-1)

/* pmudev_open() flags */
/* Do not pin the calling thread to the bound CPU (to watch another CPU). */
#define PMUDEV_OPEN_NO_PIN	(1U << 0)
/*
 * Bind no CPU (cpu must be PMUDEV_CPU_ANY): a handle for pmudev_cpu_status()
 * and pmudev_release_cpu() only. pmudev_cpu() gives -1, pmudev_info() NULL.
 */
#define PMUDEV_OPEN_UNBOUND	(1U << 1)

/*
 * Open the device and bind it to @cpu. With PMUDEV_CPU_ANY: the CPU the
 * caller runs on, or if its PMU is taken (EBUSY) or unusable, each other CPU
 * the calling thread may run on. Unless PMUDEV_OPEN_NO_PIN, the calling
 * thread is then pinned to the bound CPU, so the code it runs is the code
 * counted; pmudev_close() restores its previous affinity.
 * Errors: -ENOENT (no /dev/armpmu: module not loaded), -EACCES (not in the
 * device's group), -EBUSY (every candidate CPU's PMU is owned), and the
 * driver's BIND errors.
 */
int pmudev_open(struct pmudev **pmu, int cpu, unsigned int flags);
void pmudev_close(struct pmudev *pmu);

int pmudev_cpu(const struct pmudev *pmu);
int pmudev_fd(const struct pmudev *pmu);
/* The bound CPU's description, as read at open. */
const struct armpmu_info *pmudev_info(const struct pmudev *pmu);

/* Any CPU's state: online, PMU, owner, other users (ARMPMU_IOC_CPU_STATUS). */
int pmudev_cpu_status(struct pmudev *pmu, unsigned int cpu,
		      struct armpmu_cpu_status *status);
/* Administrator: stop a CPU's PMU and take it from its owner (CAP_SYS_ADMIN). */
int pmudev_release_cpu(struct pmudev *pmu, unsigned int cpu);

/* The core's name from a MIDR value ("Cortex-A7"), or NULL if unknown. */
const char *pmudev_core_name(uint32_t midr);

/* One function per driver operation. */
int pmudev_select(struct pmudev *pmu, unsigned int counter);
int pmudev_set_event(struct pmudev *pmu, uint32_t event, uint32_t flags);
int pmudev_set_divider(struct pmudev *pmu, bool every_64_cycles);
int pmudev_reset(struct pmudev *pmu);
int pmudev_start(struct pmudev *pmu);
int pmudev_stop(struct pmudev *pmu);
int pmudev_read(struct pmudev *pmu, struct armpmu_counts *counts);

/* A message for a negative errno value returned by this library. */
const char *pmudev_strerror(int err);

/*
 * Events by name.
 *
 * A spec is an architectural event name (INST_RETIRED, L1D_CACHE_REFILL,
 * ...; any case), a perf alias (cycles, instructions, cache-references,
 * cache-misses, branches, branch-misses), or a raw number (0x11, r11),
 * optionally followed by :u (user mode only) or :k (kernel mode only).
 * Without a modifier, both modes are counted if the caller may count the
 * kernel (ARMPMU_INFO_KERNEL_ALLOWED in the info given), else user mode.
 */
struct pmudev_event {
	uint32_t number;
	uint32_t flags;		/* ARMPMU_EXCLUDE_* from the modifier */
};

/*
 * Parse @spec. With @info (may be NULL), aliases resolve for that core and
 * events it reports as not implemented give -ENOENT. An unknown name gives
 * -EINVAL (see pmudev_event_suggest()); a bad modifier or number -EINVAL.
 */
int pmudev_event_parse(const char *spec, const struct armpmu_info *info,
		       struct pmudev_event *ev);

/*
 * Write up to @max names close to the unknown event in @spec into @buf,
 * comma-separated. Returns how many were written.
 */
int pmudev_event_suggest(const char *spec, char *buf, size_t len, int max);

/* The architectural name of @number, or NULL. */
const char *pmudev_event_name(uint32_t number);

/* One line describing @number, or NULL. */
const char *pmudev_event_description(uint32_t number);

/*
 * Program a free counter with @spec, allocating from the highest counter
 * down (perf allocates from the lowest up). Returns the counter index.
 * -ENOSPC when every counter is programmed.
 */
int pmudev_add_event(struct pmudev *pmu, const char *spec);

/*
 * Regions: named pieces of a program, measured by begin/end pairs and
 * accumulated per region. Counting is started by pmudev_regions_new() and
 * runs until pmudev_regions_free().
 */
struct pmudev_regions;

int pmudev_regions_new(struct pmudev *pmu, struct pmudev_regions **regions);
void pmudev_regions_free(struct pmudev_regions *regions);

/* The id of the region called @name (created on first use). */
int pmudev_region(struct pmudev_regions *regions, const char *name);
int pmudev_region_begin(struct pmudev_regions *regions, int id);
int pmudev_region_end(struct pmudev_regions *regions, int id);

enum pmudev_format {
	PMUDEV_FORMAT_TABLE,
	PMUDEV_FORMAT_JSON,
};

int pmudev_regions_print(const struct pmudev_regions *regions, FILE *out,
			 enum pmudev_format format);

#ifdef __cplusplus
}
#endif

#endif /* PMUDEV_H */
