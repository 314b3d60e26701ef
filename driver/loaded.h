/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A file's configuration loaded in one CPU's PMU, for both modes (struct
 * armpmu_loaded): which configuration is loaded (the file's, or one set
 * of a multiplexed file), loading it, folding what it counted into the
 * file's totals and slots, and pausing it. CPU mode keeps one in the
 * session, loaded on the bound CPU; task mode one per CPU, loaded while a
 * counted thread runs there. What differs stays with the mode: its clock
 * and times, and what a disturbance does to the file.
 *
 * Inline, in a header of its own included by the two modes only: the
 * counted switch makes no calls of its own beyond counters.c's (task.h),
 * and this calls multiplex.c, which counters.c, below it, must not.
 *
 * Locking: on the CPU whose PMU it is, interrupts off, holding what
 * steadies the file's totals (task mode: its count_lock; CPU mode: being
 * the bound CPU).
 */
#ifndef ARMPMU_LOADED_H
#define ARMPMU_LOADED_H

#include "armpmu.h"

/*
 * What the next load of @s loads: its configuration and totals, or the
 * next set of a multiplexed file, filled into @set_cfg (a copy of the
 * file's, unless it is the file's own) and counted into @set_total.
 */
static __always_inline void armpmu_loaded_choose(struct armpmu_loaded *l,
						 struct armpmu_session *s,
						 struct armpmu_config *set_cfg,
						 u64 *set_total)
{
	if (likely(!s->mux.on)) {
		l->cfg = &s->cfg;
		l->total = s->total;
		return;
	}
	l->set = armpmu_mux_take_next(&s->mux);
	if (set_cfg != &s->cfg)
		*set_cfg = s->cfg;
	armpmu_mux_fill(&s->mux, l->set, set_cfg);
	l->cfg = set_cfg;
	l->total = set_total;
}

/*
 * Load what was chosen into this CPU's PMU, its counters' values the base
 * of the next fold; a multiplexed file keeps what the load learnt. EBUSY
 * if someone else holds one of its counters.
 */
static __always_inline int armpmu_loaded_load(struct armpmu_loaded *l,
					      struct armpmu_session *s)
{
	int ret = armpmu_counters_load(l->cfg, &l->vals);

	if (!ret && unlikely(s->mux.on))
		armpmu_mux_learn(&s->mux, l->set, l->cfg);
	return ret;
}

/* A multiplexed file: what the loaded set counted, over @ran ns, goes to its slots. */
static __always_inline void armpmu_loaded_account(struct armpmu_loaded *l,
						  struct armpmu_session *s, u64 ran)
{
	if (unlikely(s->mux.on))
		armpmu_mux_account(&s->mux, l->set, l->total, ran, s->total);
}

/*
 * A look at the loaded, running counters: what they counted since the
 * last look, over @ran ns, folded into the totals (and @also, unless
 * NULL). False if they were disturbed: what is still ours is stopped, and
 * nothing folded in.
 */
static __always_inline bool armpmu_loaded_look(struct armpmu_loaded *l,
					       struct armpmu_session *s,
					       u64 *also, u64 ran)
{
	if (!armpmu_counters_look(l->cfg, &l->vals, l->total, also)) {
		armpmu_counters_stop_own(l->cfg);
		return false;
	}
	armpmu_loaded_account(l, s, ran);
	return true;
}

/*
 * Stop the loaded counters and fold in what they counted, over @ran ns
 * (see armpmu_counters_pause(): @check_enable, @zero). False if they were
 * disturbed: nothing folded in then.
 */
static __always_inline bool armpmu_loaded_pause(struct armpmu_loaded *l,
						struct armpmu_session *s, u64 *also,
						u64 ran, bool check_enable, bool zero)
{
	if (!armpmu_counters_pause(l->cfg, &l->vals, l->total, also, check_enable, zero))
		return false;
	armpmu_loaded_account(l, s, ran);
	return true;
}

#endif /* ARMPMU_LOADED_H */
