/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* libpmudev internals: the handle's layout, shared by the library's files. */
#ifndef PMUDEV_INTERNAL_H
#define PMUDEV_INTERNAL_H

#include <sched.h>
#include <sys/types.h>

#include "pmudev.h"

struct pmudev {
	int fd;
	pid_t tid;		/* the thread pmudev_open() pinned */
	bool pinned;
	bool unbound;		/* PMUDEV_OPEN_UNBOUND */
	cpu_set_t affinity;	/* that thread's affinity before */
	struct armpmu_info info;
	uint32_t used;		/* counters given an event by pmudev_add_event() */
	char *counter_name[ARMPMU_MAX_COUNTERS];
};

#endif /* PMUDEV_INTERNAL_H */
