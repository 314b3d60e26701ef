// SPDX-License-Identifier: GPL-2.0
/*
 * pmuctl stat --passes: the events split into passes of the command that
 * each fit the counters, and the passes' counts put back together.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/armpmu_arch.h>

#include "pmuctl.h"
#include "stat-passes.h"

/* What a pass holds so far, or an item (an event, or a {} group) needs. */
struct load {
	unsigned int events;	/* event counters */
	bool cycles;		/* the cycle counter is taken */
	bool reference;		/* the reference is among the events */
};

/* The modifier that gives @flags, for the reference's spec. */
static const char *modifier(uint32_t flags)
{
	switch (flags & ARMPMU_EVENT_FLAGS) {
	case ARMPMU_EXCLUDE_KERNEL:
		return ":u";
	case ARMPMU_EXCLUDE_USER:
		return ":k";
	default:
		return "";
	}
}

/* Whether @spec counts what the reference counts: INST_RETIRED, in its mode. */
static bool is_reference(const char *spec, const struct armpmu_info *info, uint32_t flags)
{
	struct pmudev_event e;

	return !pmudev_spec_is_cycles(spec) && !pmudev_event_parse(spec, info, &e) &&
	       e.number == ARMPMU_EV_INST_RETIRED && e.flags == flags;
}

/*
 * The reference's mode: the events' own when they all have one (:u,
 * :k, or both), else user mode.
 */
static uint32_t reference_flags(const struct stat_events *ev, const struct armpmu_info *info)
{
	struct pmudev_event e;
	uint32_t flags = 0;

	for (int i = 0; i < ev->nspecs; i++) {
		if (pmudev_event_parse(ev->specs[i], info, &e))
			continue;
		if (i && e.flags != flags)
			return ARMPMU_EXCLUDE_KERNEL;
		flags = e.flags;
	}
	return flags;
}

/* @pass with item @first..@last (of @ev) added: whether it still fits. */
static bool fits(const struct load *pass, const struct stat_events *ev, int first, int last,
		 const struct stat_passes *p, const struct armpmu_info *info, struct load *after)
{
	*after = *pass;
	for (int i = first; i <= last; i++) {
		if (pmudev_spec_is_cycles(ev->specs[i]) && !after->cycles)
			after->cycles = true;
		else
			after->events++;
		after->reference |= p->reference[0] && is_reference(ev->specs[i], info,
								      p->reference_flags);
	}
	return after->events + (p->reference[0] && !after->reference) <= info->num_counters;
}

/* Adds @ev's spec @i to @pass, as spec @from of -e's list (-1: the reference). */
static void pass_add(struct stat_pass *pass, const struct stat_events *ev, int i, int from)
{
	struct stat_events *pe = &pass->events;
	int k = pe->nspecs++;

	snprintf(pe->rewritten[k], sizeof(pe->rewritten[k]), "%s", ev->specs[i]);
	pe->specs[k] = pe->rewritten[k];
	pe->names[k] = ev->names[i];
	pe->pmu_core[k] = ev->pmu_core[i];
	pe->group_of[k] = ev->group_of[i];
	pass->of[k] = from;
}

/* Ends pass @p->n - 1: its reference, if none of its events is one. */
static void pass_end(struct stat_passes *p, const struct load *load,
		     const struct armpmu_info *info)
{
	struct stat_pass *pass = &p->pass[p->n - 1];
	struct stat_events ref = { .nspecs = 1 };

	pass->reference = -1;
	if (!p->reference[0])
		return;
	for (int i = 0; load->reference && i < pass->events.nspecs; i++)
		if (is_reference(pass->events.specs[i], info, p->reference_flags))
			pass->reference = i;
	if (load->reference)
		return;
	ref.specs[0] = p->reference;
	pass->reference = pass->events.nspecs;
	pass_add(pass, &ref, 0, -1);
}

int stat_passes_plan(const struct stat_events *ev, const struct armpmu_info *info,
		     struct stat_passes *p)
{
	struct load load = { 0 }, after;
	char why[200];
	int first, last, err;

	if (ev->group && (err = stat_metric_group_check(ev->group, ev->group_as, info, why,
							       sizeof(why))) &&
	    err != -ENOSPC)
		return fail("%s", why);
	if (stat_events_check(ev, info))
		return EXIT_FAILURE;
	p->reference_flags = reference_flags(ev, info);
	snprintf(p->reference, sizeof(p->reference), "0x%x%s", ARMPMU_EV_INST_RETIRED,
		 modifier(p->reference_flags));
	snprintf(p->reference_name, sizeof(p->reference_name), "INST_RETIRED%s",
		 modifier(p->reference_flags));
	/* A core that does not count it (QEMU's arm64 boards without -icount): no check. */
	if (pmudev_event_parse(p->reference, info, &(struct pmudev_event){ 0 }))
		p->reference[0] = '\0';
	p->n = 0;
	for (first = 0; first < ev->nspecs; first = last + 1) {
		for (last = first; ev->group_of[first] && last + 1 < ev->nspecs &&
				   ev->group_of[last + 1] == ev->group_of[first]; last++)
			;
		if (!p->n || !fits(&load, ev, first, last, p, info, &after)) {
			if (p->n)
				pass_end(p, &load, info);
			load = (struct load){ 0 };
			if (!fits(&load, ev, first, last, p, info, &after))
				return fail("--passes: %s%s needs more than the %u event counters of a %s with one kept in each pass for %s, which checks that the passes ran alike: put INST_RETIRED%s in it, or make it smaller",
					    ev->group_of[first] ? "a group of " : "", ev->specs[first],
					    info->num_counters, core_name(info), p->reference_name,
					    modifier(p->reference_flags));
			p->pass[p->n].events.ngroups = ev->ngroups;
			p->n++;
		}
		load = after;
		for (int i = first; i <= last; i++)
			pass_add(&p->pass[p->n - 1], ev, i, i);
	}
	if (p->n == 1)
		p->reference[0] = '\0';	/* one pass: nothing to compare */
	pass_end(p, &load, info);
	return 0;
}

/* The counter of @pass's spec @i in its @run, or NULL (a default the core lacks). */
static const struct counter *counter_of(const struct stat_pass *pass, const struct stat_run *run,
					int i)
{
	for (int c = 0; i >= 0 && c < run->ncounters; c++)
		if (pass->events.programmed[c] == pass->events.specs[i])
			return &run->counters[c];
	return NULL;
}

/* Adds what pass @k counted of spec @from (-e's) to @out. */
static void merge_spec(const struct stat_pass *pass, const struct stat_run *run, int from,
		       struct stat_run *out)
{
	for (int i = 0; i < pass->events.nspecs; i++) {
		const struct counter *c = counter_of(pass, run, i);

		if (pass->of[i] != from)
			continue;
		if (c)
			out->counters[out->ncounters++] = *c;
		for (int u = 0; u < run->nunsupported; u++)
			if (run->unsupported[u].spec == pass->events.specs[i]) {
				out->unsupported[out->nunsupported] = run->unsupported[u];
				out->unsupported[out->nunsupported++].at = out->ncounters;
			}
	}
}

bool stat_passes_merge(const struct stat_passes *p, const struct stat_run *runs,
		       struct stat_run *out)
{
	*out = runs[0];
	out->ncounters = out->nunsupported = 0;
	out->passes = p->n;
	out->reference = p->reference[0] ? p->reference_name : NULL;
	for (int k = 0; k < p->n; k++) {
		const struct counter *ref = counter_of(&p->pass[k], &runs[k], p->pass[k].reference);
		double v = ref ? stat_counts_mean(&runs[k], ref) : -1;

		if (!k || v < out->reference_min)
			out->reference_min = v;
		if (!k || v > out->reference_max)
			out->reference_max = v;
		out->disturbed |= runs[k].disturbed;
		out->exec_left |= runs[k].exec_left;
		if (!out->status && runs[k].status) {
			out->status = runs[k].status;
			out->signal = runs[k].signal;
		}
	}
	for (int from = 0; from < MAX_EVENTS + 1; from++)
		for (int k = 0; k < p->n; k++)
			merge_spec(&p->pass[k], &runs[k], from, out);
	return !out->reference || out->reference_min == out->reference_max;
}
