// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Regions: begin/end pairs around named pieces of a program, accumulated
 * per region. A begin or an end is one read(2) of the device plus a loop
 * over the programmed counters, so a small loop can be wrapped.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

struct region {
	char *name;
	uint64_t calls;
	bool open;
	struct armpmu_counts start;
	uint64_t cycles;
	uint64_t events[ARMPMU_MAX_COUNTERS];
};

struct pmudev_regions {
	struct pmudev *pmu;
	struct region *region;
	int nr;
	int allocated;
	struct armpmu_counts now;	/* scratch for region ends */
};

int pmudev_regions_new(struct pmudev *pmu, struct pmudev_regions **out)
{
	struct pmudev_regions *regions = calloc(1, sizeof(*regions));
	int err;

	if (!regions)
		return -ENOMEM;
	regions->pmu = pmu;
	err = pmudev_reset(pmu);
	if (!err)
		err = pmudev_start(pmu);
	if (err) {
		free(regions);
		return err;
	}
	*out = regions;
	return 0;
}

void pmudev_regions_free(struct pmudev_regions *regions)
{
	if (!regions)
		return;
	pmudev_stop(regions->pmu);
	for (int i = 0; i < regions->nr; i++)
		free(regions->region[i].name);
	free(regions->region);
	free(regions);
}

int pmudev_region(struct pmudev_regions *regions, const char *name)
{
	struct region *r;

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

static struct region *region_by_id(struct pmudev_regions *regions, int id)
{
	return id >= 0 && id < regions->nr ? &regions->region[id] : NULL;
}

int pmudev_region_begin(struct pmudev_regions *regions, int id)
{
	struct region *r = region_by_id(regions, id);
	int err;

	if (!r)
		return -EINVAL;
	if (r->open)
		return -EALREADY;
	err = pmudev_read(regions->pmu, &r->start);
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

	if (!r)
		return -EINVAL;
	if (!r->open)
		return -EINVAL;
	err = pmudev_read(regions->pmu, now);
	if (err)
		return err;
	r->cycles += now->cycles - r->start.cycles;
	for (unsigned int i = 0; used >> i; i++)
		if (used & (1U << i))
			r->events[i] += now->events[i] - r->start.events[i];
	r->calls++;
	r->open = false;
	return 0;
}

static void print_json_string(FILE *out, const char *s)
{
	fputc('"', out);
	for (; *s; s++) {
		unsigned char c = *s;

		if (c == '"' || c == '\\')
			fprintf(out, "\\%c", c);
		else if (c < 0x20)
			fprintf(out, "\\u%04x", c);
		else
			fputc(c, out);
	}
	fputc('"', out);
}

static void print_json(const struct pmudev_regions *regions, FILE *out)
{
	const struct pmudev *pmu = regions->pmu;

	fprintf(out, "{\"cpu\": %u, \"regions\": [", pmu->info.cpu);
	for (int i = 0; i < regions->nr; i++) {
		const struct region *r = &regions->region[i];

		fprintf(out, "%s\n  {\"name\": ", i ? "," : "");
		print_json_string(out, r->name);
		fprintf(out, ", \"calls\": %" PRIu64 ", \"cycles\": %" PRIu64, r->calls,
			r->cycles);
		for (unsigned int c = 0; c < ARMPMU_MAX_COUNTERS; c++) {
			if (!(pmu->used & (1U << c)))
				continue;
			fputs(", ", out);
			print_json_string(out, pmu->counter_name[c]);
			fprintf(out, ": %" PRIu64, r->events[c]);
		}
		fputc('}', out);
	}
	fputs("\n]}\n", out);
}

static void print_table(const struct pmudev_regions *regions, FILE *out)
{
	const struct pmudev *pmu = regions->pmu;

	fprintf(out, "%-20s %10s %16s", "region", "calls", "cycles");
	for (unsigned int c = 0; c < ARMPMU_MAX_COUNTERS; c++)
		if (pmu->used & (1U << c))
			fprintf(out, " %16s", pmu->counter_name[c]);
	fputc('\n', out);
	for (int i = 0; i < regions->nr; i++) {
		const struct region *r = &regions->region[i];

		fprintf(out, "%-20s %10" PRIu64 " %16" PRIu64, r->name, r->calls, r->cycles);
		for (unsigned int c = 0; c < ARMPMU_MAX_COUNTERS; c++)
			if (pmu->used & (1U << c))
				fprintf(out, " %16" PRIu64, r->events[c]);
		fputc('\n', out);
	}
}

int pmudev_regions_print(const struct pmudev_regions *regions, FILE *out,
			 enum pmudev_format format)
{
	switch (format) {
	case PMUDEV_FORMAT_TABLE:
		print_table(regions, out);
		break;
	case PMUDEV_FORMAT_JSON:
		print_json(regions, out);
		break;
	default:
		return -EINVAL;
	}
	return ferror(out) ? -EIO : 0;
}
