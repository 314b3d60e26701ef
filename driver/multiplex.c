// SPDX-License-Identifier: GPL-2.0
/*
 * A file's event slots. While every programmed slot is below the core's
 * num_counters, slot n is event counter n and this file only keeps each
 * slot's times. Once a slot at or above num_counters is programmed, the
 * file is multiplexed: at START its slots are packed into sets that fit
 * the counters, which the modes load in turn (cpu_mode.c at its poll,
 * task_cpu.c at its poll and at every switch-in), and each fold of the
 * counters is accounted here to the slots of the set that was loaded:
 * their counts, and the time they ran.
 *
 * Nothing here touches the PMU or takes a lock: the callers hold what
 * guards the file's totals.
 */
#include <linux/bitops.h>
#include <linux/string.h>
#include "armpmu.h"

/* Each slot of @mask, lowest first. */
#define for_each_slot(slot, mask) \
	for (unsigned long __m = (mask); __m && ((slot) = __ffs(__m), true); __m &= __m - 1)

/* The slots of @m in group @group. */
static u32 members(const struct armpmu_mux *m, u32 group)
{
	u32 mask = 0;
	unsigned int slot;

	for_each_slot(slot, m->slots)
		if (m->group[slot] == group)
			mask |= BIT(slot);
	return mask;
}

/* -ENOSPC if @slot joining @group would make it larger than @n counters. */
int armpmu_mux_check_group(const struct armpmu_mux *m, u32 slot, u32 group, u32 n)
{
	if (!group)
		return 0;
	return hweight32(members(m, group) | BIT(slot)) > n ? -ENOSPC : 0;
}

/*
 * @slot gets @evtype in @group, with its count and times from zero: its
 * time enabled is counted from the file's @time_enabled now, and its time
 * running, before the file is multiplexed, from @time_running.
 */
void armpmu_mux_program(struct armpmu_mux *m, u32 slot, u32 evtype, u32 group,
			u64 time_enabled, u64 time_running)
{
	m->evtype[slot] = evtype;
	m->group[slot] = group;
	m->slots |= BIT(slot);
	m->known &= ~BIT(slot);
	m->packed = false;
	m->value[slot] = 0;
	m->enabled_base[slot] = time_enabled;
	m->running[slot] = m->on ? 0 : -time_running;
	m->based |= BIT(slot);
}

/* A slot's time base since the last RESET (see armpmu_mux.based). */
static u64 base_of(const struct armpmu_mux *m, const u64 *base, u32 slot)
{
	return m->based & BIT(slot) ? base[slot] : 0;
}

/*
 * The stopped file becomes multiplexed: what slot n counted as event
 * counter n moves from @total to the slot, with the time it ran, and
 * @cfg programs no event counter until a set is filled in.
 */
void armpmu_mux_begin(struct armpmu_mux *m, struct armpmu_config *cfg, u64 *total,
		      u64 time_running)
{
	unsigned int slot;

	for_each_slot(slot, m->slots) {
		m->value[slot] = total[slot];
		total[slot] = 0;
		m->enabled_base[slot] = base_of(m, m->enabled_base, slot);
		m->running[slot] = base_of(m, m->running, slot) + time_running;
		if (cfg->evtype_known & BIT(slot)) {
			m->seen[slot] = cfg->seen_evtype[slot];
			m->known |= BIT(slot);
		}
	}
	cfg->programmed = 0;
	cfg->evtype_known &= ARMPMU_CYCLE_BIT;
	m->based = m->slots;
	m->on = true;
	m->packed = false;
}

/*
 * Pack the slots into sets of at most @n: each group whole, or a slot of
 * its own, in order of lowest slot, into the first set with room; within
 * a set, its i-th lowest slot goes on event counter i. Groups were held to
 * @n at SET_EVENT, so everything fits.
 */
void armpmu_mux_pack(struct armpmu_mux *m, u32 n)
{
	u32 left = m->slots;
	unsigned int set, slot;

	memset(m->sets, 0, sizeof(m->sets));
	m->nsets = 0;
	while (left) {
		u32 first = __ffs(left);
		u32 unit = m->group[first] ? members(m, m->group[first]) : BIT(first);

		for (set = 0; set < m->nsets; set++)
			if (hweight32(m->sets[set]) + hweight32(unit) <= n)
				break;
		if (set == m->nsets)
			m->nsets++;
		m->sets[set] |= unit;
		left &= ~unit;
	}
	for (set = 0; set < m->nsets; set++) {
		u32 idx = 0;

		for_each_slot(slot, m->sets[set])
			m->hw[slot] = idx++;
	}
	m->next = 0;
	m->packed = true;
}

/* The set to load now; the one after it comes next. */
u32 armpmu_mux_take_next(struct armpmu_mux *m)
{
	u32 set = m->next;

	m->next = set + 1 < m->nsets ? set + 1 : 0;
	return set;
}

/* @cfg's event counters become those of @set (its cycle counter stays). */
void armpmu_mux_fill(struct armpmu_mux *m, u32 set, struct armpmu_config *cfg)
{
	unsigned int slot;

	cfg->programmed = 0;
	cfg->evtype_known &= ARMPMU_CYCLE_BIT;
	for_each_slot(slot, m->sets[set]) {
		u32 idx = m->hw[slot];

		cfg->evtype[idx] = m->evtype[slot];
		cfg->programmed |= BIT(idx);
		if (m->known & BIT(slot)) {
			cfg->seen_evtype[idx] = m->seen[slot];
			cfg->evtype_known |= BIT(idx);
		}
	}
}

/* After a load of @set with @cfg: keep the event types learnt there. */
void armpmu_mux_learn(struct armpmu_mux *m, u32 set, const struct armpmu_config *cfg)
{
	unsigned int slot;

	for_each_slot(slot, m->sets[set] & ~m->known) {
		u32 idx = m->hw[slot];

		if (cfg->evtype_known & BIT(idx)) {
			m->seen[slot] = cfg->seen_evtype[idx];
			m->known |= BIT(slot);
		}
	}
}

/*
 * A fold of @set's counters into @hw (indexed by event counter), over
 * @ran ns of running: each slot of the set takes its counter's count,
 * zeroed in @hw, and the time. When @hw is not the file's @total, the
 * cycles go there too.
 */
void armpmu_mux_account(struct armpmu_mux *m, u32 set, u64 *hw, u64 ran, u64 *total)
{
	unsigned int slot;

	for_each_slot(slot, m->sets[set]) {
		u32 idx = m->hw[slot];

		m->value[slot] += hw[idx];
		hw[idx] = 0;
		m->running[slot] += ran;
	}
	if (hw != total) {
		total[ARMPMU_CYCLE_IDX] += hw[ARMPMU_CYCLE_IDX];
		hw[ARMPMU_CYCLE_IDX] = 0;
	}
}

/*
 * RESET of a multiplexed file: each slot's own count and time go back to
 * 0 (unprogrammed slots are never read). A file that is not multiplexed
 * only clears @based.
 */
void armpmu_mux_zero(struct armpmu_mux *m)
{
	unsigned int slot;

	for_each_slot(slot, m->slots) {
		m->value[slot] = 0;
		m->enabled_base[slot] = 0;
		m->running[slot] = 0;
	}
}

/* FILE_STATUS.counters: a multiplexed file's slots, or its counters. */
u32 armpmu_mux_configured(const struct armpmu_mux *m, const struct armpmu_config *cfg)
{
	return m->on ? m->slots | ARMPMU_CYCLE_BIT : armpmu_counters_of(cfg);
}

/*
 * READ's snapshot of a multiplexed file: each slot's count as counted in
 * events[], flagged, with the entries that cover every programmed slot.
 */
static void mux_counts(const struct armpmu_mux *m, const u64 *total, u64 time_enabled,
		       u64 time_running, struct armpmu_counts *counts, u32 n)
{
	unsigned int slot;

	for (slot = 0; slot < ARMPMU_MAX_COUNTERS; slot++)
		counts->events[slot] = m->slots & BIT(slot) ? m->value[slot] : 0;
	counts->nr = max_t(u32, n, fls(m->slots));
	counts->cycles = total[ARMPMU_CYCLE_IDX];
	counts->time_enabled = time_enabled;
	counts->time_running = time_running;
}

/* READ_SLOTS: the header and @nr slots. */
static void mux_read(const struct armpmu_mux *m, const u64 *total, u64 time_enabled,
		     u64 time_running, struct armpmu_read_buf *rd, u32 nr)
{
	unsigned int slot;

	rd->hdr.cycles = total[ARMPMU_CYCLE_IDX];
	rd->hdr.slots = fls(m->slots);
	rd->hdr.programmed = m->slots;
	rd->hdr.time_enabled = time_enabled;
	rd->hdr.time_running = time_running;
	if (!m->on && !m->based) {
		/* Slot n is event counter n, programmed since the last RESET. */
		for (slot = 0; slot < nr; slot++) {
			struct armpmu_slot *out = &rd->slot[slot];
			bool used = m->slots & BIT(slot);

			out->value = used ? total[slot] : 0;
			out->time_enabled = used ? time_enabled : 0;
			out->time_running = used ? time_running : 0;
		}
		return;
	}
	for (slot = 0; slot < nr; slot++) {
		struct armpmu_slot *out = &rd->slot[slot];

		if (!(m->slots & BIT(slot))) {
			memset(out, 0, sizeof(*out));
			continue;
		}
		out->time_enabled = time_enabled - base_of(m, m->enabled_base, slot);
		if (m->on) {
			out->value = m->value[slot];
			out->time_running = m->running[slot];
		} else {
			out->value = total[slot];
			out->time_running = time_running + base_of(m, m->running, slot);
		}
	}
}

/*
 * The snapshot of armpmu_snapshot_take() when it is not READ's plain one: a
 * multiplexed file's (its slots' own counts), or READ_SLOTS'.
 */
int armpmu_mux_snapshot(struct armpmu_session *s, u32 flags)
{
	if (s->mux.on)
		flags |= ARMPMU_COUNTS_MULTIPLEXED;
	if (s->read_slots) {
		s->rd.hdr.flags = flags;
		mux_read(&s->mux, s->total, s->time_enabled, s->time_running, &s->rd,
			 s->rd.hdr.nr);
	} else {
		s->snapshot.flags = flags | ARMPMU_COUNTS_INCOMPLETE;
		mux_counts(&s->mux, s->total, s->time_enabled, s->time_running, &s->snapshot,
			   s->caps->num_counters);
	}
	return s->disturbed ? -EIO : 0;
}
