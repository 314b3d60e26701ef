// SPDX-License-Identifier: GPL-2.0
/*
 * pmuctl stat's events: -e's list taken apart by libpmudev's event lists
 * (pmudev_event_list_add(), as the Python module takes its events), into
 * the specs libpmudev takes (see stat-events.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmuctl.h"
#include "stat-events.h"

const char *stat_events_software_name(enum stat_software sw)
{
	return pmudev_software_name(sw);
}

/*
 * The list of one -e lives as long as pmuctl: @ev's specs and names are
 * its strings.
 */
int stat_events_add(struct stat_events *ev, char *arg)
{
	struct pmudev_event_list *list = pmudev_event_list_new(MAX_EVENTS - ev->nspecs);
	char msg[400];
	int err;

	if (!list)
		return fail("%s", pmudev_strerror(-ENOMEM));
	err = pmudev_event_list_add(list, arg, msg, sizeof(msg));
	if (err == -ENOMEM)
		return fail("%s", msg);
	if (err)
		return usage_error("%s", msg);
	for (unsigned int k = 0; k < pmudev_event_list_size(list); k++) {
		const struct pmudev_list_event *e = pmudev_event_list_get(list, k);
		int i = ev->nspecs++;

		ev->specs[i] = (char *)e->spec;
		ev->names[i] = e->name;
		ev->pmu_core[i] = e->pmu_core;
		ev->group_of[i] = e->group ? ev->ngroups + (int)e->group : 0;
	}
	ev->ngroups += (int)pmudev_event_list_groups(list);
	ev->software |= pmudev_event_list_software(list);
	return 0;
}

int stat_events_all_modes(struct stat_events *ev, char mode)
{
	for (int i = 0; i < ev->nspecs; i++) {
		const char *spec = ev->specs[i];
		size_t len = strlen(spec);

		if (strchr(spec, ':'))
			continue;	/* its own modifier stands, as perf's */
		if (len + 3 > sizeof(ev->rewritten[i]))
			return usage_error("%s: too long a name", spec);
		memmove(ev->rewritten[i], spec, len);
		snprintf(ev->rewritten[i] + len, 3, ":%c", mode);
		ev->specs[i] = ev->rewritten[i];
		if (ev->names[i]) {
			/* PMU syntax: the modifier after the last slash. */
			snprintf(ev->moded_names[i], sizeof(ev->moded_names[i]), "%s%c",
				 ev->names[i], mode);
			ev->names[i] = ev->moded_names[i];
		}
	}
	return 0;
}

int stat_events_check(const struct stat_events *ev, const struct armpmu_info *info)
{
	struct pmudev_list_event events[MAX_EVENTS + 1];
	char msg[400];

	for (int i = 0; i < ev->nspecs; i++)
		events[i] = (struct pmudev_list_event){
			.spec = ev->specs[i], .name = ev->names[i],
			.pmu_core = ev->pmu_core[i], .group = (unsigned int)ev->group_of[i],
		};
	if (pmudev_event_list_check(events, (unsigned int)ev->nspecs, info, msg, sizeof(msg)))
		return fail("%s", msg);
	return 0;
}
