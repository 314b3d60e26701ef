// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Regions: begin/end pairs around named pieces of a program, accumulated
 * per region. A begin or an end is one read(2) of the device (into memory
 * the region owns) plus a loop over the programmed counters, so a small
 * loop can be wrapped.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"

struct pmudev_regions {
	struct pmudev *pmu;
	struct region *region;
	int nr;
	int allocated;
	struct armpmu_counts now;	/* scratch for region ends */
	struct calibration cal;
};

static int calibrate(struct pmudev_regions *regions);

int pmudev_regions_new(struct pmudev *pmu, struct pmudev_regions **out)
{
	struct pmudev_regions *regions;
	int err;

	if (pmu->unbound)
		return -EBADFD;
	if (pmu->regions)
		return -EBUSY;
	regions = calloc(1, sizeof(*regions));
	if (!regions)
		return -ENOMEM;
	regions->pmu = pmu;
	err = pmudev_reset(pmu);
	if (!err)
		err = pmudev_start(pmu);
	if (!err)
		err = calibrate(regions);
	if (err) {
		pmudev_regions_free(regions);
		return err;
	}
	pmu->regions = regions;
	*out = regions;
	return 0;
}

void pmudev_regions_free(struct pmudev_regions *regions)
{
	if (!regions)
		return;
	pmudev_stop(regions->pmu);
	regions->pmu->regions = NULL;
	for (int i = 0; i < regions->nr; i++)
		free(regions->region[i].name);
	free(regions->region);
	free(regions);
}

int pmudev_region(struct pmudev_regions *regions, const char *name)
{
	struct region *r;

	if (!name || !*name)
		return -EINVAL;
	for (int i = 0; i < regions->nr; i++)
		if (!strcmp(regions->region[i].name, name))
			return i;
	if (regions->nr == regions->allocated) {
		int more = regions->allocated ? 2 * regions->allocated : 8;

		r = realloc(regions->region, more * sizeof(*r));
		if (!r)
			return -ENOMEM;
		regions->region = r;
		regions->allocated = more;
	}
	r = &regions->region[regions->nr];
	memset(r, 0, sizeof(*r));
	r->name = strdup(name);
	if (!r->name)
		return -ENOMEM;
	return regions->nr++;
}

static struct region *region_by_id(const struct pmudev_regions *regions, int id)
{
	return id >= 0 && id < regions->nr ? &regions->region[id] : NULL;
}

/*
 * pmudev_read() without the call through the library's PLT and its check
 * of a handle with no mode (a region set's handle has one): one read(2).
 */
static int read_counts(const struct pmudev_regions *regions, struct armpmu_counts *counts)
{
	ssize_t n = read(regions->pmu->fd, counts, sizeof(*counts));

	if (n < 0)
		return -errno;
	return n == sizeof(*counts) ? 0 : -EIO;
}

int pmudev_region_begin(struct pmudev_regions *regions, int id)
{
	struct region *r = region_by_id(regions, id);
	int err;

	if (!r)
		return -EINVAL;
	if (r->open)
		return -EALREADY;
	err = read_counts(regions, &r->start);
	if (!err)
		r->open = true;
	return err;
}

int pmudev_region_end(struct pmudev_regions *regions, int id)
{
	struct region *r = region_by_id(regions, id);
	struct armpmu_counts *now = &regions->now;
	uint32_t used = regions->pmu->used;
	int err;

	if (!r || !r->open)
		return -EINVAL;
	err = read_counts(regions, now);
	if (err)
		return err;
	r->total.cycles += now->cycles - r->start.cycles;
	for (; used; used &= used - 1) {
		unsigned int i = __builtin_ctz(used);

		r->total.events[i] += now->events[i] - r->start.events[i];
	}
	r->total.calls++;
	/* Per pair, not the sticky flag: only this pair's time tells. */
	if (now->time_running - r->start.time_running != now->time_enabled - r->start.time_enabled)
		r->incomplete = true;
	r->open = false;
	return 0;
}

int pmudev_region_read(const struct pmudev_regions *regions, int id,
		       struct pmudev_region_counts *counts)
{
	const struct region *r = region_by_id(regions, id);

	if (!r)
		return -EINVAL;
	pmudev_region_calibrated(r, &regions->cal, regions->pmu->used, counts);
	return 0;
}

int pmudev_region_clamped(const struct pmudev_regions *regions, int id)
{
	const struct region *r = region_by_id(regions, id);
	struct pmudev_region_counts counts;

	if (!r)
		return -EINVAL;
	return pmudev_region_calibrated(r, &regions->cal, regions->pmu->used, &counts);
}

int pmudev_region_incomplete(const struct pmudev_regions *regions, int id)
{
	const struct region *r = region_by_id(regions, id);

	return r ? r->incomplete : -EINVAL;
}

/*
 * The pairs a calibration takes: enough that, without icount, some pair
 * runs uninterrupted; few enough to cost well under a millisecond.
 */
#define CALIBRATION_PAIRS 64

/*
 * One empty pair, called the way a program calls begin and end (through
 * the exported functions, the error of begin checked), so that it counts
 * what an empty region of the program counts.
 */
static __attribute__((noinline)) int empty_pair(struct pmudev_regions *regions, int id)
{
	int err = pmudev_region_begin(regions, id);

	return err ? err : pmudev_region_end(regions, id);
}

static void keep_min(uint64_t *min, uint64_t v, bool first)
{
	if (first || v < *min)
		*min = v;
}

/*
 * The overhead per pair, per counter: the minimum over the pairs. A pair
 * can only count more than its own code (an interrupt, a page fault, a
 * cache miss), never less, so the least is the best estimate; under
 * QEMU's -icount every pair counts the same and the minimum is exact. The
 * pairs run on a region of their own, removed afterwards.
 */
static int calibrate(struct pmudev_regions *regions)
{
	struct pmudev_region_counts *o = &regions->cal.overhead;
	uint32_t used = regions->pmu->used;
	int id = pmudev_region(regions, "calibration");
	struct region *r;

	if (id < 0)
		return id;
	for (int n = 0; n < CALIBRATION_PAIRS; n++) {
		int err;

		r = &regions->region[id];
		memset(&r->total, 0, sizeof(r->total));
		err = empty_pair(regions, id);
		if (err)
			return err;
		keep_min(&o->cycles, r->total.cycles, !n);
		for (unsigned int i = 0; used >> i; i++)
			if (used & (1U << i))
				keep_min(&o->events[i], r->total.events[i], !n);
	}
	o->calls = CALIBRATION_PAIRS;
	free(regions->region[id].name);
	regions->nr = 0;
	regions->cal.on = true;
	return 0;
}

void pmudev_regions_set_calibration(struct pmudev_regions *regions, bool on)
{
	regions->cal.on = on;
}

void pmudev_regions_overhead(const struct pmudev_regions *regions,
			     struct pmudev_region_counts *overhead)
{
	*overhead = regions->cal.overhead;
}

int pmudev_regions_print(const struct pmudev_regions *regions, FILE *out,
			 enum pmudev_format format)
{
	const struct pmudev *pmu = regions->pmu;
	const struct region_report report = {
		.cpu = pmudev_cpu(pmu),
		.core = pmudev_core_name(pmu->info.midr),
		.cycles_name = pmu->cycles_name,
		.used = pmu->used,
		.counter_name = pmu->counter_name,
		.region = regions->region,
		.nr = regions->nr,
		.calibration = &regions->cal,
	};

	return pmudev_format_regions(&report, out, format);
}
