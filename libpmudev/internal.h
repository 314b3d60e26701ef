/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libpmudev internals, shared by the library's files and its host unit
 * tests. Nothing here is exported from the shared library (see
 * libpmudev.map).
 */
#ifndef PMUDEV_INTERNAL_H
#define PMUDEV_INTERNAL_H

#include <sched.h>
#include <sys/types.h>

#include "pmudev.h"

/* "cycles/64:u" and the like. */
#define CYCLES_NAME_MAX 16

struct pmudev {
	int fd;
	pid_t tid;		/* the thread pmudev_open() pinned */
	bool pinned;
	bool bound;		/* CPU mode */
	bool unbound;		/* no mode yet: PMUDEV_OPEN_UNBOUND, no attach */
	bool divided;		/* the cycle counter counts every 64 cycles */
	uint32_t cycle_flags;	/* the cycle counter's ARMPMU_EXCLUDE_* */
	cpu_set_t affinity;	/* that thread's affinity before */
	struct armpmu_info info;
	struct pmudev_regions *regions;
	uint32_t used;		/* counters given an event by pmudev_add_event() */
	char *counter_name[ARMPMU_MAX_COUNTERS];
	char cycles_name[CYCLES_NAME_MAX];
};

/* True if @spec names the cycle counter ("cycles", any case and modifier). */
bool pmudev_spec_is_cycles(const char *spec);

/* The suffix a user-only or kernel-only count shows: ":u", ":k" or "". */
const char *pmudev_mode_suffix(uint32_t flags);

struct region {
	char *name;
	bool open;
	bool incomplete;	/* some pair was not counted all its time */
	struct pmudev_region_counts total;
	struct armpmu_counts start;
};

/*
 * What one empty begin/end pair counts, per counter: subtracted once per
 * completed pair from what region reads and reports show, when on.
 */
struct calibration {
	bool on;
	struct pmudev_region_counts overhead;	/* calls: the pairs measured */
};

/*
 * @r's totals less @cal's overhead per call, each count clamped at 0
 * rather than wrapped; true if any count of @used (or the cycle counter)
 * was clamped. @cal may be NULL: the raw totals.
 */
bool pmudev_region_calibrated(const struct region *r, const struct calibration *cal,
			      uint32_t used, struct pmudev_region_counts *out);

/* Plain data for the report formatters, so the host can test them. */
struct region_report {
	int cpu;			/* -1: task mode, no CPU */
	const char *core;		/* may be NULL */
	const char *cycles_name;
	uint32_t used;			/* event counters shown */
	char *const *counter_name;	/* by counter index */
	const struct region *region;
	int nr;
	const struct calibration *calibration;	/* NULL: none measured */
};

int pmudev_format_regions(const struct region_report *report, FILE *out,
			  enum pmudev_format format);

#endif /* PMUDEV_INTERNAL_H */
