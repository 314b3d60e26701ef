// SPDX-License-Identifier: GPL-2.0
/*
 * A file's configuration in one CPU's PMU, on that CPU with interrupts off:
 * loading it, folding the hardware's deltas into 64-bit totals, finding out
 * whether someone else touched it, pausing it. Every mode of counting
 * builds on these.
 *
 * Counts are kept in 64 bits in software: every look at the hardware adds
 * the delta since the previous look, modulo the counter's width. The
 * overflow interrupt and PMOVSR are not used, since perf owns the one and
 * clears the other.
 *
 * Others use the same PMU. Linux's perf driver allocates counters from 0 up,
 * reprograms counters it thinks free, clears PMCR.E when it stops its own
 * events and resets the whole PMU on hotplug and idle exit. So a
 * configuration touches only its own counters, refuses counters that
 * someone else has enabled (EBUSY), and at every look checks that its
 * counters are still enabled and programmed as it left them, under its
 * PMCR.E and D, with their overflow interrupt off. If not, it is disturbed:
 * what is still its own is stopped, and counters someone else took are
 * never touched again.
 */
#include <linux/bitops.h>
#include "armpmu.h"

/* PMCR.P and PMCR.C reset counters when written as 1: never write them. */
#define PMCR_RESET_BITS		(BIT(1) | BIT(2))

static const struct armpmu_ops *const pmu = &armpmu_backend;

/* The counters @cfg counts with: its event counters and the cycle counter. */
u32 armpmu_counters(const struct armpmu_config *cfg)
{
	return cfg->programmed | ARMPMU_CYCLE_BIT;
}

static u64 counter_width(u32 idx)
{
	return idx == ARMPMU_CYCLE_IDX ? pmu->cycle_mask : U32_MAX;
}

/* PMUv1 has no cycle filter, and PMSELR = 31 is reserved there. */
static bool has_evtype(const struct armpmu_config *cfg, u32 idx)
{
	return idx != ARMPMU_CYCLE_IDX || cfg->cycle_filterable;
}

static u32 wanted_evtype(const struct armpmu_config *cfg, u32 idx)
{
	return idx == ARMPMU_CYCLE_IDX ? cfg->cycle_filter : cfg->evtype[idx];
}

/*
 * D is set only while a configuration counts, since perf's cycle counter
 * must not be divided. When counting stops, E is cleared only if no counter
 * is enabled, so that a perf user of the same PMU keeps counting. LC, where
 * the PMU has it, stays set but for the divider (which it would disable).
 */
static void write_pmcr(bool divider, bool running)
{
	u32 pmcr = pmu->read_pmcr() & ~PMCR_RESET_BITS;

	pmcr &= ~(pmu->pmcr_owned & ~ARMPMU_PMCR_E);
	if (divider)
		pmcr |= ARMPMU_PMCR_D;
	else
		pmcr |= pmu->pmcr_owned & ARMPMU_PMCR_LC;
	if (running)
		pmcr |= ARMPMU_PMCR_E;
	else if (!pmu->read_enabled())
		pmcr &= ~ARMPMU_PMCR_E;
	pmu->write_pmcr(pmcr);
}

/* After the last counter of a configuration stopped: no divider, E if needed. */
void armpmu_release_pmcr(void)
{
	write_pmcr(false, false);
}

/* Counters of @mask that someone else has enabled (ours being stopped). */
u32 armpmu_foreign(u32 mask)
{
	return pmu->read_enabled() & mask;
}

/*
 * Give counter @idx, stopped and ours, its event type and no interrupt, and
 * remember the type as the hardware holds it (reserved bits read as 0).
 */
void armpmu_program_counter(const struct armpmu_config *cfg,
			    struct armpmu_load *ld, u32 idx)
{
	if (has_evtype(cfg, idx))
		pmu->write_evtype(idx, wanted_evtype(cfg, idx));
	ld->seen_evtype[idx] = has_evtype(cfg, idx) ? pmu->read_evtype(idx) : 0;
	pmu->disable_irq(BIT(idx));
	pmu->clear_overflow(BIT(idx));
}

/* Counter @idx, stopped and ours, goes on from the 64-bit count @value. */
void armpmu_set_counter(struct armpmu_load *ld, u64 *total, u32 idx, u64 value)
{
	u64 width = counter_width(idx);

	pmu->write_counter(idx, value & width);
	ld->last[idx] = value & width;
	total[idx] = value;
}

/*
 * The counters of @cfg that nobody else has taken: programmed as it left
 * them, and with their overflow interrupt off. Perf may program a counter
 * exactly as armpmu does (a user-only INST_RETIRED has one encoding), but
 * it always enables the counter's interrupt, which armpmu never does: that
 * bit is the witness a look-alike takeover leaves.
 */
static u32 still_ours(const struct armpmu_config *cfg, const struct armpmu_load *ld)
{
	unsigned long mask = armpmu_counters(cfg) & ~pmu->read_irq_enabled();
	unsigned int idx;
	u32 ours = 0;

	for_each_set_bit(idx, &mask, ARMPMU_CYCLE_IDX + 1)
		if (!has_evtype(cfg, idx) || pmu->read_evtype(idx) == ld->seen_evtype[idx])
			ours |= BIT(idx);
	return ours;
}

/*
 * Program and enable the counters of @cfg, taking their values as the new
 * base: while they were stopped, anyone may have changed them. EBUSY if
 * someone else has one of them enabled.
 */
int armpmu_load_counters(const struct armpmu_config *cfg, struct armpmu_load *ld)
{
	unsigned long mask = armpmu_counters(cfg);
	unsigned int idx;

	if (armpmu_foreign(mask))
		return -EBUSY;
	for_each_set_bit(idx, &mask, ARMPMU_CYCLE_IDX + 1) {
		armpmu_program_counter(cfg, ld, idx);
		ld->last[idx] = pmu->read_counter(idx);
	}
	write_pmcr(cfg->divider, true);
	pmu->enable(mask);
	return 0;
}

/*
 * Did someone stop, reprogram, take or divide these running counters?
 * Entering idle, perf may have cleared E just before: that loses nothing
 * here (the counters stop together) and is not held against them.
 */
bool armpmu_counters_disturbed(const struct armpmu_config *cfg,
			       const struct armpmu_load *ld, bool check_enable)
{
	u32 mask = armpmu_counters(cfg);
	u32 pmcr = pmu->read_pmcr();

	if (check_enable && !(pmcr & ARMPMU_PMCR_E))
		return true;
	if (!!(pmcr & ARMPMU_PMCR_D) != cfg->divider)
		return true;
	if ((pmu->read_enabled() & mask) != mask)
		return true;
	return still_ours(cfg, ld) != mask;
}

/* Stop what is still ours, leaving alone the counters someone else took. */
void armpmu_stop_own_counters(const struct armpmu_config *cfg,
			      const struct armpmu_load *ld)
{
	pmu->disable(still_ours(cfg, ld));
	write_pmcr(false, false);
}

static void fold(struct armpmu_load *ld, u64 *total, u32 idx, u64 now)
{
	total[idx] += (now - ld->last[idx]) & counter_width(idx);
	ld->last[idx] = now;
}

/*
 * Fold the deltas since the last look into @total. A 64-bit cycle counter
 * cannot advance by 2^63 between looks (it may wrap, if SET_VALUE put it
 * near the top): a delta that large is the counter moving backwards, reset
 * or rewritten behind our back, and nothing is folded in. Returns false
 * then.
 */
bool armpmu_fold_counters(const struct armpmu_config *cfg,
			  struct armpmu_load *ld, u64 *total)
{
	unsigned long mask = cfg->programmed;
	u64 cycles = pmu->read_counter(ARMPMU_CYCLE_IDX);
	unsigned int idx;

	if (pmu->cycle_mask == U64_MAX &&
	    (s64)(cycles - ld->last[ARMPMU_CYCLE_IDX]) < 0)
		return false;
	fold(ld, total, ARMPMU_CYCLE_IDX, cycles);
	for_each_set_bit(idx, &mask, ARMPMU_CYCLE_IDX)
		fold(ld, total, idx, pmu->read_counter(idx));
	return true;
}

/* Running counters go on from here: what they counted so far is dropped. */
void armpmu_rebase_counters(const struct armpmu_config *cfg, struct armpmu_load *ld)
{
	unsigned long mask = armpmu_counters(cfg);
	unsigned int idx;

	for_each_set_bit(idx, &mask, ARMPMU_CYCLE_IDX + 1)
		ld->last[idx] = pmu->read_counter(idx);
}

/*
 * Stop the running counters and fold in what they counted: disable first,
 * then read, so nothing counts after the pause. False if they were
 * disturbed (what is still ours is stopped then, and nothing folded in).
 * PMCR is left as it is: the caller knows whether counting ends here.
 */
bool armpmu_pause_counters(const struct armpmu_config *cfg,
			   struct armpmu_load *ld, u64 *total, bool check_enable)
{
	if (armpmu_counters_disturbed(cfg, ld, check_enable)) {
		armpmu_stop_own_counters(cfg, ld);
		return false;
	}
	pmu->disable(armpmu_counters(cfg));
	if (armpmu_fold_counters(cfg, ld, total))
		return true;
	armpmu_stop_own_counters(cfg, ld);
	return false;
}

/*
 * Zero the stopped counters that are still ours, so that nothing of these
 * counts is left in the registers for whoever reads them next.
 */
void armpmu_clear_counters(const struct armpmu_config *cfg,
			   const struct armpmu_load *ld)
{
	unsigned long mask = still_ours(cfg, ld) & ~pmu->read_enabled();
	unsigned int idx;

	for_each_set_bit(idx, &mask, ARMPMU_CYCLE_IDX + 1)
		pmu->write_counter(idx, 0);
}
