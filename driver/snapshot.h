/* SPDX-License-Identifier: GPL-2.0 */
/*
 * READ's snapshot of a file's totals, for both modes: inline in READ's
 * path (an out-of-line call cost READ about 19 instructions, 1.4%, on the
 * A72), and in a header of its own, included by the two modes only: it
 * calls multiplex.c, which the shared header's lower files (counters.c,
 * multiplex.c itself) must not reach back through.
 *
 * Locking: the caller holds what steadies the file's totals (task mode:
 * its count_lock; CPU mode: on the bound CPU, interrupts off) and the
 * session's mutex, under which @read_mux and @read_slots change.
 */
#ifndef ARMPMU_SNAPSHOT_H
#define ARMPMU_SNAPSHOT_H

#include <linux/string.h>
#include "armpmu.h"

/*
 * The file's snapshot for READ from its totals, with @flags; -EIO if the
 * counts were disturbed.
 */
static inline int armpmu_snapshot_take(struct armpmu_session *s, u32 flags)
{
	struct armpmu_counts *counts = &s->snapshot;
	u32 n = s->caps->num_counters;

	if (s->running)
		flags |= ARMPMU_COUNTS_RUNNING;
	if (s->disturbed)
		flags |= ARMPMU_COUNTS_DISTURBED;
	if (unlikely(s->read_mux || s->read_slots))
		return armpmu_mux_snapshot(s, flags);
	counts->nr = n;
	counts->flags = flags;
	counts->cycles = s->total[ARMPMU_CYCLE_IDX];
	memcpy(counts->events, s->total, n * sizeof(counts->events[0]));
	counts->time_enabled = s->time_enabled;
	counts->time_running = s->time_running;
	return s->disturbed ? -EIO : 0;
}

#endif /* ARMPMU_SNAPSHOT_H */
