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
#include <linux/moduleparam.h>
#include "armpmu.h"
#include "pmu_regs.h"

/* Checked at load (main.c): 1 to ARMPMU_POLL_MS_MAX. */
unsigned int armpmu_counters_poll_ms = 50;
module_param_named(poll_ms, armpmu_counters_poll_ms, uint, 0444);
MODULE_PARM_DESC(poll_ms, "how often counting CPUs fold counters into 64 bits, 1 to "
		 __stringify(ARMPMU_POLL_MS_MAX) " ms (default 50)");

/* The counters @cfg counts with: its event counters and the cycle counter. */
u32 armpmu_counters_of(const struct armpmu_config *cfg)
{
	return cfg->programmed | ARMPMU_CYCLE_BIT;
}

/* Those of them with an event type: PMUv1 has no cycle filter. */
static u32 typed_counters(const struct armpmu_config *cfg)
{
	return cfg->cycle_filterable ? armpmu_counters_of(cfg) : cfg->programmed;
}

/*
 * Counter @idx of @cfg (ARMPMU_CYCLE_IDX: the cycle counter's filter)
 * gets event type @evtype, programmed at the next load.
 */
void armpmu_counters_set_evtype(struct armpmu_config *cfg, u32 idx, u32 evtype)
{
	cfg->evtype[idx] = evtype;
	cfg->evtype_known &= ~BIT(idx);
	if (idx != ARMPMU_CYCLE_IDX)
		cfg->programmed |= BIT(idx);
}

static u64 counter_width(u32 idx)
{
	return idx == ARMPMU_CYCLE_IDX ? PMU_CYCLE_MASK : U32_MAX;
}

/*
 * D is set only while a configuration counts, since perf's cycle counter
 * must not be divided. When counting stops, E is cleared only if no counter
 * is enabled, so that a perf user of the same PMU keeps counting. LC, where
 * the PMU has it, stays set but for the divider (which it would disable).
 */
static void write_pmcr(bool divider, bool running)
{
	u32 pmcr = pmu_read_pmcr() & ~ARMPMU_PMCR_RESET_BITS;

	pmcr &= ~(PMU_PMCR_OWNED & ~ARMPMU_PMCR_E);
	if (divider)
		pmcr |= ARMPMU_PMCR_D;
	else
		pmcr |= PMU_PMCR_OWNED & ARMPMU_PMCR_LC;
	if (running)
		pmcr |= ARMPMU_PMCR_E;
	else if (!pmu_read_enabled())
		pmcr &= ~ARMPMU_PMCR_E;
	pmu_write_pmcr(pmcr);
}

/* After the last counter of a configuration stopped: no divider, E if needed. */
void armpmu_counters_release_pmcr(void)
{
	write_pmcr(false, false);
}

/* Counters of @mask that someone else has enabled (ours being stopped). */
u32 armpmu_counters_foreign(u32 mask)
{
	return pmu_read_enabled() & mask;
}

/*
 * A straight run over the event counters of a mask: one jump into a
 * switch whose cases fall through from the highest counter of @mask down
 * to counter 0, so that a hot path pays one dispatch, not a loop step per
 * counter. Each case is @step(n, ...) with n a constant, so that on arm64
 * each of its accesses compiles to its counter's own instruction. A step
 * sees every counter below the highest, and tests @mask itself where it
 * must (skip()).
 */
#define EVCNTR_STEP(n, step, ...)	case n: step(n, __VA_ARGS__); fallthrough;
#define EVCNTR_RUN(mask, step, ...)						\
	do {									\
		switch (fls(mask) - 1) {					\
		EVCNTR_STEP(30, step, __VA_ARGS__) EVCNTR_STEP(29, step, __VA_ARGS__) \
		EVCNTR_STEP(28, step, __VA_ARGS__) EVCNTR_STEP(27, step, __VA_ARGS__) \
		EVCNTR_STEP(26, step, __VA_ARGS__) EVCNTR_STEP(25, step, __VA_ARGS__) \
		EVCNTR_STEP(24, step, __VA_ARGS__) EVCNTR_STEP(23, step, __VA_ARGS__) \
		EVCNTR_STEP(22, step, __VA_ARGS__) EVCNTR_STEP(21, step, __VA_ARGS__) \
		EVCNTR_STEP(20, step, __VA_ARGS__) EVCNTR_STEP(19, step, __VA_ARGS__) \
		EVCNTR_STEP(18, step, __VA_ARGS__) EVCNTR_STEP(17, step, __VA_ARGS__) \
		EVCNTR_STEP(16, step, __VA_ARGS__) EVCNTR_STEP(15, step, __VA_ARGS__) \
		EVCNTR_STEP(14, step, __VA_ARGS__) EVCNTR_STEP(13, step, __VA_ARGS__) \
		EVCNTR_STEP(12, step, __VA_ARGS__) EVCNTR_STEP(11, step, __VA_ARGS__) \
		EVCNTR_STEP(10, step, __VA_ARGS__) EVCNTR_STEP(9, step, __VA_ARGS__) \
		EVCNTR_STEP(8, step, __VA_ARGS__) EVCNTR_STEP(7, step, __VA_ARGS__) \
		EVCNTR_STEP(6, step, __VA_ARGS__) EVCNTR_STEP(5, step, __VA_ARGS__) \
		EVCNTR_STEP(4, step, __VA_ARGS__) EVCNTR_STEP(3, step, __VA_ARGS__) \
		EVCNTR_STEP(2, step, __VA_ARGS__) EVCNTR_STEP(1, step, __VA_ARGS__) \
		EVCNTR_STEP(0, step, __VA_ARGS__)				\
		default:							\
			break;							\
		}								\
	} while (0)

/*
 * Counter @n is in @mask. Not BIT(n): an unsigned long, which widens the
 * mask, and on arm64 that cost a register copy at every case of a run.
 */
static __always_inline bool in_mask(u32 mask, u32 n)
{
	return mask & (1U << n);
}

/*
 * Whether a step of a run that only reads passes over counter @n, not in
 * @mask: where reaching a counter needs a select first (ARMv7's PMSELR and
 * ISB), testing the mask costs less; where not (arm64), reading the
 * counter anyway and ignoring its bits does. A step that writes always
 * tests.
 */
static __always_inline bool skip(u32 n, u32 mask)
{
	return PMU_EVCNTR_NEEDS_SELECT && !in_mask(mask, n);
}

/* A look's step: @n's value into @now (with @values), its type against @seen. */
static __always_inline void look_step(u32 n, u32 mask, const u32 *seen, u64 *now,
				      bool values, u32 *differ)
{
	if (!skip(n, mask)) {
		pmu_evcntr_select(n);
		if (pmu_evcntr_read_type(n) != seen[n])
			*differ |= BIT(n);
		if (values)
			now[n] = pmu_evcntr_read(n);
	}
}

/* A pause's step: the look's, and with @zero, @n zeroed if its type is still @seen. */
static __always_inline void take_step(u32 n, u32 mask, const u32 *seen, u64 *now,
				      bool zero, u32 *differ)
{
	if (!skip(n, mask)) {
		pmu_evcntr_select(n);
		now[n] = pmu_evcntr_read(n);
		if (pmu_evcntr_read_type(n) != seen[n])
			*differ |= BIT(n);
		else if (zero && in_mask(mask, n))
			pmu_evcntr_write(n, 0);
	}
}

/* A load's step: @n of @mask gets its type from @evtype; with @last, its value read there. */
static __always_inline void program_step(u32 n, u32 mask, const u32 *evtype, u64 *last)
{
	if (in_mask(mask, n)) {
		pmu_evcntr_select(n);
		pmu_evcntr_write_type(n, evtype[n]);
		if (last)
			last[n] = pmu_evcntr_read(n);
	}
}

/*
 * The event counters of @mask: with @values, each value into @now, and the
 * mask of those whose event type is no longer @seen (bits outside @mask
 * mean nothing).
 */
static __always_inline u32 evcntrs_look(u32 mask, const u32 *seen, u64 *now, bool values)
{
	u32 differ = 0;

	EVCNTR_RUN(mask, look_step, mask, seen, now, values, &differ);
	return differ;
}

/*
 * Each value into @now, and the mask of those whose event type is no
 * longer @seen (bits outside @mask mean nothing); with @zero, each counter
 * of @mask whose type is still @seen zeroed once read.
 */
static __always_inline u32 evcntrs_take(u32 mask, const u32 *seen, u64 *now, bool zero)
{
	u32 differ = 0;

	EVCNTR_RUN(mask, take_step, mask, seen, now, zero, &differ);
	return differ;
}

/* Each counter of @mask gets its type from @evtype; with @last, its value read there. */
static __always_inline void evcntrs_program(u32 mask, const u32 *evtype, u64 *last)
{
	EVCNTR_RUN(mask, program_step, mask, evtype, last);
}

/*
 * Give the counters @mask of @cfg, stopped and ours, their event types and
 * no interrupt; with @ld, take their values as the base of the next fold.
 * The first time, learn each type as the hardware holds it (reserved bits
 * read as 0): the same on every CPU with the same core, so that later loads
 * need not read it back.
 */
static __always_inline void program(struct armpmu_config *cfg, struct armpmu_load *ld, u32 mask)
{
	u32 learn = mask & typed_counters(cfg) & ~cfg->evtype_known;
	unsigned int idx;

	evcntrs_program(mask & ~ARMPMU_CYCLE_BIT, cfg->evtype, ld ? ld->last : NULL);
	if (mask & ARMPMU_CYCLE_BIT) {
		if (cfg->cycle_filterable)
			pmu_write_evtype(ARMPMU_CYCLE_IDX, cfg->evtype[ARMPMU_CYCLE_IDX]);
		if (ld)
			ld->last[ARMPMU_CYCLE_IDX] = pmu_read_counter(ARMPMU_CYCLE_IDX);
	}
	for_each_counter(idx, learn)
		cfg->seen_evtype[idx] = pmu_read_evtype(idx);
	cfg->evtype_known |= learn;
	pmu_disable_irq(mask);
	pmu_clear_overflow(mask);
}

void armpmu_counters_program(struct armpmu_config *cfg, u32 mask)
{
	program(cfg, NULL, mask);
}

/* Counter @idx, stopped and ours, goes on from the 64-bit count @value. */
void armpmu_counters_set(struct armpmu_load *ld, u64 *total, u32 idx, u64 value)
{
	u64 width = counter_width(idx);

	pmu_write_counter(idx, value & width);
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
static u32 still_ours(const struct armpmu_config *cfg)
{
	u32 mask = armpmu_counters_of(cfg) & ~pmu_read_irq_enabled();
	u32 events = mask & cfg->programmed;

	if (cfg->cycle_filterable &&
	    pmu_read_evtype(ARMPMU_CYCLE_IDX) != cfg->seen_evtype[ARMPMU_CYCLE_IDX])
		mask &= ~ARMPMU_CYCLE_BIT;
	return mask & ~(evcntrs_look(events, cfg->seen_evtype, NULL, false) & events);
}

/*
 * Program and enable the counters of @cfg, taking their values as the new
 * base: while they were stopped, anyone may have changed them. EBUSY if
 * someone else has one of them enabled.
 */
int armpmu_counters_load(struct armpmu_config *cfg, struct armpmu_load *ld)
{
	u32 mask = armpmu_counters_of(cfg);

	if (armpmu_counters_foreign(mask))
		return -EBUSY;
	program(cfg, ld, mask);
	write_pmcr(cfg->divider, true);
	pmu_enable(mask);
	return 0;
}

/*
 * Did someone stop, take or divide these running counters? Entering idle,
 * perf may have cleared E just before: that loses nothing here (the
 * counters stop together) and is not held against them.
 */
static bool control_disturbed(const struct armpmu_config *cfg, bool check_enable)
{
	u32 mask = armpmu_counters_of(cfg);
	u32 pmcr = pmu_read_pmcr();

	if (check_enable && !(pmcr & ARMPMU_PMCR_E))
		return true;
	if (!!(pmcr & ARMPMU_PMCR_D) != cfg->divider)
		return true;
	return (pmu_read_enabled() & ~pmu_read_irq_enabled() & mask) != mask;
}

/* Stop what is still ours, leaving alone the counters someone else took. */
void armpmu_counters_stop_own(const struct armpmu_config *cfg)
{
	pmu_disable(still_ours(cfg));
	write_pmcr(false, false);
}

/* A fold's step: @n of @mask's delta from ld->last to ld->now into @total and @also. */
static __always_inline void fold_step(u32 n, u32 mask, struct armpmu_load *ld,
				      u64 *total, u64 *also)
{
	if (in_mask(mask, n)) {
		u64 d = (u32)(ld->now[n] - ld->last[n]);

		total[n] += d;
		if (also)
			also[n] += d;
		ld->last[n] = ld->now[n];
	}
}

/*
 * Fold into @total (and into @also, unless NULL: a thread's own totals)
 * the deltas of the event counters read into ld->now and of the cycle
 * counter, which is read here. A 64-bit cycle counter cannot
 * advance by 2^63 between looks (it may wrap, if SET_VALUE put it near the
 * top): a delta that large is the counter moving backwards, reset or
 * rewritten behind our back, and nothing is folded in. Returns false then.
 */
static __always_inline bool fold(const struct armpmu_config *cfg, struct armpmu_load *ld,
				 u64 *total, u64 *also)
{
	u64 cycles = pmu_read_counter(ARMPMU_CYCLE_IDX);
	u32 mask = cfg->programmed;
	u64 d;

	if (PMU_CYCLE_MASK == U64_MAX &&
	    (s64)(cycles - ld->last[ARMPMU_CYCLE_IDX]) < 0)
		return false;
	d = (cycles - ld->last[ARMPMU_CYCLE_IDX]) & PMU_CYCLE_MASK;
	total[ARMPMU_CYCLE_IDX] += d;
	if (also)
		also[ARMPMU_CYCLE_IDX] += d;
	ld->last[ARMPMU_CYCLE_IDX] = cycles;
	EVCNTR_RUN(mask, fold_step, mask, ld, total, also);
	return true;
}

/*
 * A look at running counters: fold in what they counted since the last
 * look. One pass reads each event counter and checks its event type is
 * still as left. False if someone stopped, reprogrammed, took or divided
 * them: nothing is folded in then, and the caller stops what is still ours.
 */
bool armpmu_counters_look(const struct armpmu_config *cfg, struct armpmu_load *ld,
			  u64 *total, u64 *also)
{
	bool ours = !control_disturbed(cfg, true);

	ours &= !(evcntrs_look(cfg->programmed, cfg->seen_evtype, ld->now, true) &
		  cfg->programmed);
	if (cfg->cycle_filterable)
		ours &= pmu_read_evtype(ARMPMU_CYCLE_IDX) == cfg->seen_evtype[ARMPMU_CYCLE_IDX];
	return ours && fold(cfg, ld, total, also);
}

/* Running counters go on from here: what they counted so far is dropped. */
void armpmu_counters_rebase(const struct armpmu_config *cfg, struct armpmu_load *ld)
{
	unsigned int idx;

	for_each_counter(idx, armpmu_counters_of(cfg))
		ld->last[idx] = pmu_read_counter(idx);
}

/*
 * Stop the running counters and fold in what they counted: disable first,
 * then read, so nothing counts after the pause. False if they were
 * disturbed (what is still ours is stopped then, and nothing folded in).
 * PMCR is left as it is: the caller knows whether counting ends here.
 * With @zero, each counter is zeroed once read (task mode: a thread's
 * counts never stay in a PMU it left; the next load takes its base anew).
 *
 * One pass reads each event counter's value and type, after the disable:
 * a counter someone else took with perf's interrupt was caught before it
 * (control_disturbed), and one found reprogrammed without it (a user-mode
 * writer) is enabled again at once, its value left as it was.
 */
bool armpmu_counters_pause(const struct armpmu_config *cfg, struct armpmu_load *ld,
			   u64 *total, u64 *also, bool check_enable, bool zero)
{
	u32 mask = armpmu_counters_of(cfg);
	u32 taken;

	if (control_disturbed(cfg, check_enable))
		goto disturbed;
	pmu_disable(mask);
	taken = evcntrs_take(cfg->programmed, cfg->seen_evtype, ld->now, zero) &
		cfg->programmed;
	if (cfg->cycle_filterable &&
	    pmu_read_evtype(ARMPMU_CYCLE_IDX) != cfg->seen_evtype[ARMPMU_CYCLE_IDX])
		taken |= ARMPMU_CYCLE_BIT;
	if (unlikely(taken)) {
		pmu_enable(taken);
		goto disturbed;
	}
	if (fold(cfg, ld, total, also)) {
		if (zero)
			pmu_write_counter(ARMPMU_CYCLE_IDX, 0);
		return true;
	}
disturbed:
	armpmu_counters_stop_own(cfg);
	if (zero)
		armpmu_counters_clear(cfg);
	return false;
}

/*
 * Zero the stopped counters that are still ours, so that nothing of these
 * counts is left in the registers for whoever reads them next.
 */
void armpmu_counters_clear(const struct armpmu_config *cfg)
{
	unsigned int idx;

	for_each_counter(idx, still_ours(cfg) & ~pmu_read_enabled())
		pmu_write_counter(idx, 0);
}
