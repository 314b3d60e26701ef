// SPDX-License-Identifier: GPL-2.0
/*
 * probe-unit: the driver's probe decisions (driver/pmu_probe.h, the very
 * header driver/pmu_probe.c includes) on a table of cores, on the host.
 * Each row: the register values the probe reads on a CPU (MIDR, ID_DFR0 or
 * ID_AA64DFR0_EL1, PMCR, and what stuck of the filter bits and the
 * divider), and the verdict and capabilities the driver must draw. TAP.
 *
 *   gcc -std=c11 -Wall -Wextra -Iuapi -Idriver tests/host/probe-unit.c
 */
#include <stdio.h>
#include <string.h>

#include "pmu_probe.h"
#include "unit-tap.h"

#define P	ARMPMU_EVTYPE_P
#define U	ARMPMU_EVTYPE_U
#define D	ARMPMU_PMCR_D
#define LC	ARMPMU_PMCR_LC
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/* PMCR with N counters, as the probe finds it (IMP and IDCODE too). */
#define PMCR(imp_id, n)	((imp_id) | (n) << ARMPMU_PMCR_N_SHIFT)

struct row {
	const char *name;
	enum armpmu_isa isa;
	u32 midr, id;
	struct armpmu_probe_regs regs;	/* midr is copied in */
	/* expected */
	bool usable;
	u32 version, num_counters, event_bits;
	bool can_filter, can_divide, events_known;
	u64 common_events, common_events_hi;
};

static const struct row rows[] = {
	/* QEMU's models and their TRM values: the lab's boards. */
	{ "Cortex-A8 (ID_DFR0 0x400: PerfMon 0), PMUv1 by MIDR", ARMPMU_ISA_V7,
	  0x410fc080, 0x400, { .pmcr = PMCR(0x41002000, 4), .divider_readback = D },
	  true, ARMPMU_PMUV1, 4, 8, false, true, false, 0, 0 },
	{ "Cortex-A9 (ID_DFR0 0), PMUv1 by MIDR", ARMPMU_ISA_V7,
	  0x410fc090, 0x0, { .pmcr = PMCR(0x41093000, 6), .divider_readback = D },
	  true, ARMPMU_PMUV1, 6, 8, false, true, false, 0, 0 },
	{ "Cortex-A5, PMUv1 by MIDR whatever ID_DFR0 says", ARMPMU_ISA_V7,
	  0x410fc051, 0x02010555, { .pmcr = PMCR(0x41051000, 2), .divider_readback = D },
	  true, ARMPMU_PMUV1, 2, 8, false, true, false, 0, 0 },
	{ "Cortex-A9: filter bits that stick do not make PMUv1 filter", ARMPMU_ISA_V7,
	  0x413fc090, 0x0, { .pmcr = PMCR(0x41093000, 6), .filter_tested = true,
			     .filter_readback = P | U, .divider_readback = D },
	  true, ARMPMU_PMUV1, 6, 8, false, true, false, 0, 0 },
	{ "Cortex-A7 (PerfMon 2), filter bits stick", ARMPMU_ISA_V7,
	  0x410fc075, 0x02010555, { .pmcr = PMCR(0x41072000, 4), .filter_tested = true,
				    .filter_readback = P | U | ARMPMU_EV_CPU_CYCLES, .divider_readback = D },
	  true, ARMPMU_PMUV2, 4, 8, true, true, false, 0, 0 },
	{ "Cortex-A15 (PerfMon 2), filter bits stick", ARMPMU_ISA_V7,
	  0x412fc0f1, 0x02010555, { .pmcr = PMCR(0x410f3000, 6), .filter_tested = true,
				    .filter_readback = P | U, .divider_readback = D },
	  true, ARMPMU_PMUV2, 6, 8, true, true, false, 0, 0 },
	/* What the probe must not believe. */
	{ "PMUv2 core that drops the filter bits: no filtering", ARMPMU_ISA_V7,
	  0x410fc075, 0x02010555, { .pmcr = PMCR(0x41072000, 4), .filter_tested = true,
				    .filter_readback = 0, .divider_readback = D },
	  true, ARMPMU_PMUV2, 4, 8, false, true, false, 0, 0 },
	{ "PMUv2 core that keeps U but drops P: no filtering", ARMPMU_ISA_V7,
	  0x410fc0f1, 0x02010555, { .pmcr = PMCR(0x410f3000, 6), .filter_tested = true,
				    .filter_readback = U, .divider_readback = D },
	  true, ARMPMU_PMUV2, 6, 8, false, true, false, 0, 0 },
	{ "PMUv2, every counter in use, filter untested: no filtering", ARMPMU_ISA_V7,
	  0x410fc075, 0x02010555, { .pmcr = PMCR(0x41072000, 4), .filter_tested = false,
				    .filter_readback = P | U, .divider_readback = D },
	  true, ARMPMU_PMUV2, 4, 8, false, true, false, 0, 0 },
	{ "ARMv7 core whose D does not stick: no divider", ARMPMU_ISA_V7,
	  0x410fc075, 0x02010555, { .pmcr = PMCR(0x41072000, 4), .filter_tested = true,
				    .filter_readback = P | U, .divider_readback = 0 },
	  true, ARMPMU_PMUV2, 4, 8, true, false, false, 0, 0 },
	{ "PMUv2: reserved bit 6 reading 1 does not matter", ARMPMU_ISA_V7,
	  0x410fc075, 0x02010555, { .pmcr = PMCR(0x41072000, 4), .filter_tested = true,
				    .filter_readback = P | U, .divider_readback = D | LC },
	  true, ARMPMU_PMUV2, 4, 8, true, true, false, 0, 0 },
	/* ARMv8 cores under a 32-bit kernel (Raspberry Pi 3 and 4). */
	{ "Cortex-A53, 32-bit kernel (PerfMon 3): 10-bit events, PMCEID", ARMPMU_ISA_V7,
	  0x410fd034, 0x03010066, { .pmcr = PMCR(0x41033000, 6), .filter_tested = true,
				    .filter_readback = P | U, .divider_readback = D,
				    .ceid0 = 0x6e3fffff, .ceid1 = 0x0 },
	  true, ARMPMU_PMUV3, 6, 10, true, true, true, 0x6e3fffff, 0 },
	{ "Cortex-A72, 32-bit kernel, LC stuck at 1: D ignored, no divider", ARMPMU_ISA_V7,
	  0x410fd083, 0x03010066, { .pmcr = PMCR(0x41023000, 6), .filter_tested = true,
				    .filter_readback = P | U, .divider_readback = D | LC,
				    .ceid0 = 0x20001 },
	  true, ARMPMU_PMUV3, 6, 10, true, false, true, 0x20001, 0 },
	/* Turned away. */
	{ "ARM1176 (ARMv6, ID_DFR0 PerfMon 0): no architected PMU", ARMPMU_ISA_V7,
	  0x410fb767, 0x00000033, { .pmcr = 0 }, false, 0, 0, 0, false, false, false, 0, 0 },
	{ "an unknown ARMv7 core with PerfMon 0", ARMPMU_ISA_V7,
	  0x410fc0d0, 0x0, { .pmcr = 0 }, false, 0, 0, 0, false, false, false, 0, 0 },
	{ "PerfMon 0xf (IMPLEMENTATION DEFINED)", ARMPMU_ISA_V7,
	  0x410fc075, 0x0f000000, { .pmcr = 0 }, false, 0, 0, 0, false, false, false, 0, 0 },
	{ "part 0xc08 of another implementer (Qualcomm): not by MIDR", ARMPMU_ISA_V7,
	  0x510fc080, 0x0, { .pmcr = 0 }, false, 0, 0, 0, false, false, false, 0, 0 },
	/* arm64 kernels. */
	{ "Cortex-A53 (PMUVer 1): PMUv3, 10-bit events", ARMPMU_ISA_V8,
	  0x410fd034, 0x10305106, { .pmcr = PMCR(0x41033000, 6), .filter_tested = true,
				    .filter_readback = P | U, .divider_readback = D,
				    .ceid0 = 0x20001, .ceid1 = 0 },
	  true, ARMPMU_PMUV3, 6, 10, true, true, true, 0x20001, 0 },
	{ "Cortex-A72 under icount: INST_RETIRED in PMCEID0", ARMPMU_ISA_V8,
	  0x410fd083, 0x10305106, { .pmcr = PMCR(0x41023000, 6), .filter_tested = true,
				    .filter_readback = P | U, .divider_readback = D,
				    .ceid0 = 0x20101 },
	  true, ARMPMU_PMUV3, 6, 10, true, true, true, 0x20101, 0 },
	{ "Cortex-A76 (PMUVer 4): PMUv3 for ARMv8.1, 16-bit events, 0x4000 events",
	  ARMPMU_ISA_V8, 0x414fd0b1, 0x10305408,
	  { .pmcr = PMCR(0x410b3000, 6), .filter_tested = true, .filter_readback = P | U,
	    .divider_readback = D, .ceid0 = 0x0000000e7e3fffffULL,
	    .ceid1 = 0x0000000700000000ULL },
	  true, 4, 6, 16, true, true, true, 0x7e3fffffULL, 0x70000000eULL },
	{ "AArch64-only core: D RES0, no divider", ARMPMU_ISA_V8,
	  0x410fd4d0, 0x10305706, { .pmcr = PMCR(0x41123000, 6) | LC, .filter_tested = true,
				    .filter_readback = P | U, .divider_readback = LC },
	  true, 7, 6, 16, true, false, true, 0, 0 },
	{ "ARMv8 core whose LC is RES1: D ignored, no divider", ARMPMU_ISA_V8,
	  0x410fd0b1, 0x10305408, { .pmcr = PMCR(0x410b3000, 6) | LC, .filter_tested = true,
				    .filter_readback = P | U, .divider_readback = D | LC },
	  true, 4, 6, 16, true, false, true, 0, 0 },
	{ "arm64: every counter in use, filter untested: no filtering", ARMPMU_ISA_V8,
	  0x410fd083, 0x10305106, { .pmcr = PMCR(0x41023000, 6), .filter_tested = false,
				    .divider_readback = D },
	  true, ARMPMU_PMUV3, 6, 10, false, true, true, 0, 0 },
	{ "Cortex-A9 MIDR on arm64 means nothing: PMUVer 0 is turned away", ARMPMU_ISA_V8,
	  0x410fc090, 0x0, { .pmcr = 0 }, false, 0, 0, 0, false, false, false, 0, 0 },
	{ "PMUVer 0xf (IMPLEMENTATION DEFINED) is turned away", ARMPMU_ISA_V8,
	  0x410fd034, 0x00000f00, { .pmcr = 0 }, false, 0, 0, 0, false, false, false, 0, 0 },
};

static void run_row(const struct row *r)
{
	struct armpmu_probe_regs regs = r->regs;
	struct armpmu_caps caps;
	char detail[512];
	const char *why;
	u32 version;
	int ok;

	why = armpmu_probe_version(r->isa, r->midr, r->id, &version);
	if (!r->usable) {
		snprintf(detail, sizeof(detail), "accepted as version %u", version);
		check(why != NULL && version == 0, r->name, detail);
		return;
	}
	if (why) {
		snprintf(detail, sizeof(detail), "turned away: %s", why);
		check(0, r->name, detail);
		return;
	}
	regs.midr = r->midr;
	/* The probe makes the filter test only when asked to. */
	if (!armpmu_probe_wants_filter_test(version))
		regs.filter_tested = false;
	memset(&caps, 0xa5, sizeof(caps));
	armpmu_probe_caps(version, &regs, &caps);
	ok = caps.midr == r->midr && caps.pmu_version == r->version &&
	     caps.num_counters == r->num_counters && caps.event_bits == r->event_bits &&
	     caps.can_filter == r->can_filter && caps.can_divide == r->can_divide &&
	     caps.events_known == r->events_known &&
	     caps.common_events == r->common_events &&
	     caps.common_events_hi == r->common_events_hi;
	snprintf(detail, sizeof(detail),
		 "got version %u counters %u event_bits %u filter %d divide %d known %d "
		 "events %#llx hi %#llx; want version %u counters %u event_bits %u filter %d "
		 "divide %d known %d events %#llx hi %#llx",
		 caps.pmu_version, caps.num_counters, caps.event_bits, caps.can_filter,
		 caps.can_divide, caps.events_known, (unsigned long long)caps.common_events,
		 (unsigned long long)caps.common_events_hi, r->version, r->num_counters,
		 r->event_bits, r->can_filter, r->can_divide, r->events_known,
		 (unsigned long long)r->common_events,
		 (unsigned long long)r->common_events_hi);
	check(ok, r->name, detail);
}

int main(void)
{
	size_t i;

	/* The filter test is skipped on PMUv1, made from PMUv2 on. */
	check(!armpmu_probe_wants_filter_test(ARMPMU_PMUV1) &&
	      armpmu_probe_wants_filter_test(ARMPMU_PMUV2) &&
	      armpmu_probe_wants_filter_test(ARMPMU_PMUV3),
	      "the filter bits are written from PMUv2 on, never on PMUv1 (reserved there)",
	      "armpmu_probe_wants_filter_test() disagrees");
	for (i = 0; i < ARRAY_SIZE(rows); i++)
		run_row(&rows[i]);
	return done();
}
