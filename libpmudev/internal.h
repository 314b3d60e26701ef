/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libpmudev internals, shared by the library's files and its host unit
 * tests. Nothing here is exported from the shared library (see
 * libpmudev.map).
 */
#ifndef PMUDEV_INTERNAL_H
#define PMUDEV_INTERNAL_H

#include <errno.h>
#include <sched.h>
#include <sys/ioctl.h>
#include <sys/types.h>

#include <linux/armpmu_arch.h>

#include "pmudev.h"
#include "spec.h"

/* An ioctl's result as the library returns it: 0 or a negative errno value. */
static inline int ioctl_errno(int fd, unsigned long req, void *arg)
{
	return ioctl(fd, req, arg) < 0 ? -errno : 0;
}

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
	uint32_t groups;	/* groups pmudev_add_group() made */
	bool multiplex;		/* PMUDEV_OPEN_MULTIPLEX */
	char *counter_name[ARMPMU_MAX_COUNTERS];
	char cycles_name[CYCLES_NAME_MAX];
};

/* The event tables (event-tables.c). */
struct event_range {
	uint16_t first, last;
};

/* perf's generic name @alias counts event @number on this core; @note says why. */
struct core_alias {
	const char *alias;
	uint32_t number;
	const char *note;
};

/*
 * One core's events: the architectural ones it implements (ranges over the
 * common and recommended tables: numbers neither table has are skipped),
 * its own ones in ascending order, and its stand-ins for perf's aliases.
 */
struct core_events {
	uint16_t part;			/* MIDR part number; implementer Arm */
	uint8_t event_bits;		/* 8 ARMv7, 10 ARMv8.0, 16 from ARMv8.1 */
	const struct event_range *arch;
	size_t nr_arch;
	const struct pmudev_event_info *own;
	size_t nr_own;
	const struct core_alias *aliases;
	size_t nr_aliases;
};

extern const struct pmudev_event_info pmudev_common_events[];
extern const size_t pmudev_nr_common_events;
extern const struct pmudev_event_info pmudev_recommended_events[];
extern const size_t pmudev_nr_recommended_events;
extern const struct core_events pmudev_core_tables[];
extern const size_t pmudev_nr_core_tables;

/* The table of the core with MIDR @midr, or NULL. */
const struct core_events *pmudev_core_events(uint32_t midr);


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
