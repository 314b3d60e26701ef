// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * What a student trips over when counting an event, for pmuctl explain and
 * the Python module's explain(): one text per class of event (speculative,
 * retired, cache, counted by QEMU or not, ...), and which classes an event
 * is in, from its name, number and group alone. To add a pitfall, add a
 * class and a line to the table.
 */
#include <string.h>

#include "internal.h"

enum pitfall_class {
	PF_EVERY = 1U << 0,		/* every event */
	PF_SPECULATIVE = 1U << 1,
	PF_RETIRED = 1U << 2,
	PF_PREDICTOR = 1U << 3,		/* the branch predictor's own counts */
	PF_CACHE = 1U << 4,
	PF_STALL = 1U << 5,
	PF_CYCLES = 1U << 6,
	PF_SW_INCR = 1U << 7,
	PF_QEMU_COUNTS = 1U << 8,	/* SW_INCR, CPU_CYCLES */
	PF_QEMU_ICOUNT = 1U << 9,	/* INST_RETIRED */
	PF_QEMU_ZERO = 1U << 10,	/* everything else */
	PF_OWN = 1U << 11,		/* IMPLEMENTATION DEFINED */
};

struct pitfall {
	unsigned int classes;
	const char *text;
};

static const struct pitfall pitfalls[] = {
	{ PF_SPECULATIVE,
	  "Speculative: counted when the core starts the work, including work it throws "
	  "away after a wrong guess (a mispredicted branch). Expect more than the program "
	  "asked for, varying from run to run; the _RETIRED event, where the core has one, "
	  "counts only what completed." },
	{ PF_RETIRED,
	  "Retired (architecturally executed): counts only what completed, so the same "
	  "path through a program gives the same count. Many cores leave these out: the "
	  "Cortex-A72 has no BR_RETIRED, LD_RETIRED or PC_WRITE_RETIRED, and pmuctl list "
	  "shows what is left." },
	{ PF_PREDICTOR,
	  "The predictor's view: most cores count these as branches are resolved, "
	  "speculatively, so a branch on a path later thrown away counts too. Compare "
	  "mispredictions with branches of the same kind, not with instructions retired." },
	{ PF_CACHE,
	  "Caches are shared: the kernel, other programs and the prefetcher change what "
	  "hits. A refill is a miss that brought a line in; the prefetcher hides the misses "
	  "of a regular walk, so compare access patterns, not one count against a formula. "
	  "Run several times (pmuctl stat -r) and look at the spread." },
	{ PF_STALL,
	  "Stall cycles are the core's attribution of cycles to a cause: causes overlap on "
	  "some cores, and a stall event is no measure of how much faster the code could be." },
	{ PF_CYCLES,
	  "Cycles follow the clock: with frequency scaling the same work takes a "
	  "different number of cycles at another speed, and waiting for memory counts. "
	  "pmuctl's 'cycles' is the dedicated cycle counter; CPU_CYCLES by name takes an "
	  "event counter." },
	{ PF_SW_INCR,
	  "It counts writes to the software increment register, nothing else: a program "
	  "counts its own marks with it, never the hardware's." },
	{ PF_QEMU_COUNTS,
	  "QEMU counts it. Its cycles are host time at 1 GHz unless the board runs with "
	  "-icount, so they are not repeatable there." },
	{ PF_QEMU_ICOUNT,
	  "QEMU counts it only with -icount (then exactly, and equal to its cycles); "
	  "without it, the event programs fine and reads 0." },
	{ PF_QEMU_ZERO,
	  "QEMU does not model it: on an emulated board it programs fine and reads 0. "
	  "Only SW_INCR, CPU_CYCLES and (with -icount) INST_RETIRED count there." },
	{ PF_OWN,
	  "The core's own (IMPLEMENTATION DEFINED) event: the same number means another "
	  "event, or nothing, on another core. Use the name, which pmuctl checks against "
	  "the running core, rather than the raw number." },
	{ PF_EVERY,
	  "Kernel and user mode: without :u or :k, pmuctl counts the kernel's work for "
	  "the program too (system calls, page faults) if the caller may; add :u to count "
	  "the program's own code alone. The Cortex-A8 and A9 (PMUv1) cannot tell the "
	  "modes apart." },
	{ PF_EVERY,
	  "Event counters are 32 bits wide (up to ARMv8.4): one counting at 1.5 GHz wraps "
	  "in under 3 seconds. armpmu folds them into 64-bit counts every poll_ms (50 ms), "
	  "so pmuctl's counts do not wrap; code reading the counter registers itself must "
	  "handle the wrap." },
};

#define NR_PITFALLS (sizeof(pitfalls) / sizeof(pitfalls[0]))

static unsigned int classes_of(const struct pmudev_event_info *ev)
{
	unsigned int c = PF_EVERY;

	if (strstr(ev->name, "_SPEC") || strstr(ev->description, "speculative"))
		c |= PF_SPECULATIVE;
	if (strstr(ev->name, "_RETIRED"))
		c |= PF_RETIRED;
	if (!(ev->flags & PMUDEV_EVENT_IMPDEF) && (ev->number == ARMPMU_EV_BR_MIS_PRED ||
						 ev->number == ARMPMU_EV_BR_PRED))
		c |= PF_PREDICTOR;
	if (ev->group == PMUDEV_GROUP_CACHE)
		c |= PF_CACHE;
	if (ev->group == PMUDEV_GROUP_STALL)
		c |= PF_STALL;
	if (ev->flags & PMUDEV_EVENT_IMPDEF) {
		c |= PF_OWN | PF_QEMU_ZERO;
		return c;
	}
	switch (ev->number) {
	case ARMPMU_EV_SW_INCR:
		return c | PF_SW_INCR | PF_QEMU_COUNTS;
	case ARMPMU_EV_CPU_CYCLES:
		return c | PF_CYCLES | PF_QEMU_COUNTS;
	case ARMPMU_EV_INST_RETIRED:
		return c | PF_QEMU_ICOUNT;
	default:
		return c | PF_QEMU_ZERO;
	}
}

bool pmudev_event_qemu_counts(const struct pmudev_event_info *ev)
{
	return !(classes_of(ev) & PF_QEMU_ZERO);
}

const char *pmudev_event_pitfall(const struct pmudev_event_info *ev, unsigned int index)
{
	unsigned int classes = classes_of(ev);

	for (size_t i = 0; i < NR_PITFALLS; i++)
		if ((pitfalls[i].classes & classes) && !index--)
			return pitfalls[i].text;
	return NULL;
}
