// SPDX-License-Identifier: GPL-2.0
/*
 * libpmudev-test: regions: ids, begin and end, nesting and overlap, their
 * table and JSON, and a region flagged incomplete.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"

static void test_region_output(struct pmudev_regions *regions, int id)
{
	struct pmudev_region_counts c;
	char want[96], *text;
	int ret;

	pmudev_region_read(regions, id, &c);
	text = print_to_string(regions, PMUDEV_FORMAT_TABLE, &ret);
	snprintf(want, sizeof(want), "%llu", (ull)c.cycles);
	tap_check(!ret && text && !strncmp(text, "region", 6) && strstr(text, "outer") &&
		  strstr(text, "CPU_CYCLES") && strstr(text, want),
		  "regions_print: a table with the regions, counters and counts",
		  "%s:\n%s", tap_errname(err_of(ret)), text ? text : "");
	if (text)
		tap_note("table:\n%s", text);
	free(text);
	text = print_to_string(regions, PMUDEV_FORMAT_JSON, &ret);
	snprintf(want, sizeof(want), "\"calls\": %llu", (ull)c.calls);
	tap_check(!ret && text && text[0] == '{' && strstr(text, "\"name\": \"outer\"") &&
		  strstr(text, want) && !strcmp(text + strlen(text) - 3, "]}\n"),
		  "regions_print: one JSON object with the same counts",
		  "%s:\n%s", tap_errname(err_of(ret)), text ? text : "");
	free(text);
	text = print_to_string(regions, (enum pmudev_format)7, &ret);
	tap_errno(err_of(ret), EINVAL, "regions_print: -EINVAL for an unknown format");
	free(text);
}

void test_regions(void)
{
	struct pmudev_region_counts outer, inner, once;
	struct pmudev_regions *regions, *second;
	struct armpmu_counts counts;
	struct pmudev *pmu;
	int ret, o, in, ev;

	ret = pmudev_open(&pmu, PMUDEV_CPU_ANY, 0);
	if (!tap_errno(err_of(ret), 0, "regions: open"))
		return;
	ev = pmudev_add_event(pmu, "CPU_CYCLES");
	ret = pmudev_regions_new(pmu, &regions);
	if (!tap_errno(err_of(ret), 0, "regions_new: starts counting")) {
		pmudev_close(pmu);
		return;
	}
	tap_errno(err_of(pmudev_regions_new(pmu, &second)), EBUSY,
		  "regions_new: -EBUSY for a second set on one handle");
	tap_errno(err_of(pmudev_add_event(pmu, "CPU_CYCLES")), EBUSY,
		  "add_event: -EBUSY once regions count");
	o = pmudev_region(regions, "outer");
	in = pmudev_region(regions, "inner");
	tap_check(o == 0 && in == 1 && pmudev_region(regions, "outer") == 0,
		  "region: ids in creation order, the same name the same id",
		  "outer %d inner %d", o, in);
	tap_errno(err_of(pmudev_region(regions, "")), EINVAL, "region: -EINVAL for no name");
	tap_errno(err_of(pmudev_region_begin(regions, 7)), EINVAL,
		  "region_begin: -EINVAL for an unknown id");
	tap_errno(err_of(pmudev_region_end(regions, o)), EINVAL,
		  "region_end: -EINVAL for a region not begun");
	tap_errno(err_of(measure(regions, o, SPIN)), 0, "region: begin and end around a loop");
	pmudev_region_read(regions, o, &once);
	tap_check(once.calls == 1 && once.cycles > 0 && once.events[ev] > 0,
		  "region_read: one call, cycles and CPU_CYCLES counted",
		  "calls %llu cycles %llu events %llu", (ull)once.calls,
		  (ull)once.cycles, (ull)once.events[ev]);

	/* Nested: outer holds inner, both accumulate. */
	ret = pmudev_region_begin(regions, o);
	tap_errno(err_of(pmudev_region_begin(regions, o)), EALREADY,
		  "region_begin: -EALREADY for an open region");
	ret |= measure(regions, in, SPIN);
	loop_n(SPIN);
	ret |= pmudev_region_end(regions, o);
	tap_errno(err_of(ret), 0, "region: nested begin/end");
	pmudev_region_read(regions, o, &outer);
	pmudev_region_read(regions, in, &inner);
	tap_check(outer.calls == 2 && inner.calls == 1 && outer.cycles >= once.cycles + inner.cycles &&
		  outer.events[ev] >= once.events[ev] + inner.events[ev],
		  "region: the outer region holds the inner and accumulates over calls",
		  "outer %llu calls %llu cycles, inner %llu calls %llu cycles, first %llu",
		  (ull)outer.calls, (ull)outer.cycles,
		  (ull)inner.calls, (ull)inner.cycles,
		  (ull)once.cycles);
	/* Overlapping, ended in the order begun. */
	ret = pmudev_region_begin(regions, o);
	ret |= pmudev_region_begin(regions, in);
	ret |= pmudev_region_end(regions, o);
	ret |= pmudev_region_end(regions, in);
	tap_errno(err_of(ret), 0, "region: overlapping regions end in any order");
	tap_errno(err_of(pmudev_region_read(regions, 9, &outer)), EINVAL,
		  "region_read: -EINVAL for an unknown id");
	test_region_output(regions, o);
	pmudev_regions_free(regions);
	ret = pmudev_read(pmu, &counts);
	tap_check(!ret && !(counts.flags & ARMPMU_COUNTS_RUNNING),
		  "regions_free: counting stops", "%s flags %#x", tap_errname(err_of(ret)),
		  counts.flags);
	ret = pmudev_regions_new(pmu, &regions);
	tap_errno(err_of(ret), 0, "regions_new: again after regions_free");
	if (!ret)
		pmudev_regions_free(regions);
	pmudev_regions_free(NULL);
	pmudev_close(pmu);
}

/*
 * A region whose thread ran, for part of its time, on a CPU a CPU-mode
 * handle owned: not counted meanwhile, and flagged, never passed off as
 * whole. The thread is pinned to CPU 0 (by the test, not the library).
 */
void test_region_incomplete(void)
{
	struct pmudev_regions *regions;
	struct pmudev *pmu, *owner;
	int whole, part, ret, ev;
	char *table;

	pin(0);
	ret = pmudev_open(&pmu, PMUDEV_CPU_ANY, 0);
	if (!ret) {
		ev = pmudev_add_event(pmu, "CPU_CYCLES:u");
		ret = ev < 0 ? ev : 0;
	}
	ret = ret ? ret : pmudev_regions_new(pmu, &regions);
	if (!tap_errno(err_of(ret), 0, "incomplete: a task-mode handle with regions")) {
		sched_setaffinity(0, sizeof(start_affinity), &start_affinity);
		return;
	}
	whole = pmudev_region(regions, "whole");
	part = pmudev_region(regions, "part");
	measure(regions, whole, SPIN);
	pmudev_region_begin(regions, part);
	loop_n(SPIN);
	ret = pmudev_open(&owner, 0, PMUDEV_OPEN_NO_PIN);
	loop_n(SPIN);
	if (!ret)
		pmudev_close(owner);
	loop_n(SPIN);
	pmudev_region_end(regions, part);
	tap_errno(err_of(ret), 0, "incomplete: root owns CPU 0 for a while (CPU mode)");
	tap_check(pmudev_region_incomplete(regions, part) == 1 &&
		  pmudev_region_incomplete(regions, whole) == 0,
		  "region_incomplete: 1 for the region that ran uncounted, 0 for the other",
		  "part %d, whole %d", pmudev_region_incomplete(regions, part),
		  pmudev_region_incomplete(regions, whole));
	tap_errno(err_of(pmudev_region_incomplete(regions, 9)), EINVAL,
		  "region_incomplete: -EINVAL for an unknown id");
	table = print_to_string(regions, PMUDEV_FORMAT_TABLE, &ret);
	tap_check(table && strstr(table, "\npart!") && strstr(table, "! not counted all its time"),
		  "incomplete: the table marks the region '!' and says why", "%s",
		  table ? table : "(none)");
	free(table);
	table = print_to_string(regions, PMUDEV_FORMAT_JSON, &ret);
	tap_check(table && strstr(table, "\"incomplete\": true") && strstr(table, "\"cpu\": null"),
		  "incomplete: the JSON says \"incomplete\": true (and task mode has no CPU)", "%s",
		  table ? table : "(none)");
	free(table);
	pmudev_regions_free(regions);
	pmudev_close(pmu);
	sched_setaffinity(0, sizeof(start_affinity), &start_affinity);
}
