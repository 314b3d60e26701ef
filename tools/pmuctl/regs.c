// SPDX-License-Identifier: GPL-2.0
/*
 * pmuctl regs: one CPU's PMU registers as they are, every field named: what
 * the tutorials program by hand with MCR and MSR, seen from outside.
 */
#include <errno.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <linux/armpmu_arch.h>

#include "pmuctl.h"

#define BIT(n)			(1U << (n))
#define FIELD(val, shift, mask)	(((val) >> (shift)) & (mask))
#define BIT_SET(val, bit)	((val) & (bit) ? 1U : 0U)

/* PMUSERENR: what user mode may do with the PMU (ARMv7 has EN only). */
static const char *const userenr_bits[] = { "EN", "SW", "CR", "ER" };

/* Event type filter bits, from bit 31 down: PMUv2 has the first five. */
static const char *const filter_bits[] = { "P", "U", "NSK", "NSU", "NSH", "M" };

/* How many of filter_bits[] the architecture gives this PMU. */
static unsigned int nr_filter_bits(unsigned int pmu_version)
{
	if (pmu_version >= ARMPMU_PMUV3)
		return 6;
	return pmu_version == ARMPMU_PMUV2 ? 5 : 0;
}

/* "P U": the filter bits set in @evtype, "-" if none. */
static const char *filters(const struct armpmu_regs *r, uint32_t evtype, char *buf,
			   size_t len)
{
	unsigned int n = nr_filter_bits(r->pmu_version);
	size_t o = 0;

	buf[0] = '\0';
	for (unsigned int i = 0; i < n && o < len; i++)
		if (evtype & BIT(31 - i))
			o += (size_t)snprintf(buf + o, len - o, "%s%s", o ? " " : "",
					      filter_bits[i]);
	if (!buf[0])
		snprintf(buf, len, "-");
	return buf;
}

/* "0 5 cycles": the counters of a PMCNTENSET-style @mask, or "none". */
static void print_mask(const char *reg, uint32_t mask, const char *what)
{
	printf("%-11s 0x%08x  %s:", reg, mask, what);
	if (!mask)
		printf(" none");
	for (unsigned int i = 0; i < 32; i++)
		if (mask & BIT(i))
			printf(i == ARMPMU_CYCLE_COUNTER ? " cycles" : " %u", i);
	putchar('\n');
}

static void print_pmcr(uint32_t pmcr)
{
	uint32_t imp = FIELD(pmcr, ARMPMU_PMCR_IMP_SHIFT, ARMPMU_PMCR_IMP_MASK);

	printf("%-11s 0x%08x  IMP 0x%02x%s IDCODE 0x%02x N %u LC %u DP %u X %u D %u C %u P %u E %u\n",
	       "PMCR", pmcr, imp, imp == ARMPMU_IMPLEMENTER_ARM ? " (Arm)" : "",
	       FIELD(pmcr, ARMPMU_PMCR_IDCODE_SHIFT, ARMPMU_PMCR_IDCODE_MASK), ARMPMU_PMCR_N(pmcr),
	       BIT_SET(pmcr, ARMPMU_PMCR_LC), BIT_SET(pmcr, ARMPMU_PMCR_DP),
	       BIT_SET(pmcr, ARMPMU_PMCR_X), BIT_SET(pmcr, ARMPMU_PMCR_D),
	       BIT_SET(pmcr, ARMPMU_PMCR_C), BIT_SET(pmcr, ARMPMU_PMCR_P),
	       BIT_SET(pmcr, ARMPMU_PMCR_E));
}

static void print_userenr(uint32_t userenr)
{
	printf("%-11s 0x%08x ", "PMUSERENR", userenr);
	for (unsigned int i = 0; i < 4; i++)
		printf(" %s %u", userenr_bits[i], FIELD(userenr, i, 1));
	printf("%s\n", userenr ? "  (user mode may use the PMU)" : "");
}

static const char *yes_no(uint32_t mask, unsigned int idx)
{
	return mask & BIT(idx) ? "yes" : "no";
}

static void print_counter(const struct armpmu_regs *r, unsigned int idx, const char *label,
			  const char *event, const char *name, const char *filter)
{
	printf("%-8s %-7s %-24s %-14s %20llu  %-7s %-8s %s\n", label, event, name, filter,
	       (unsigned long long)r->counter[idx], yes_no(r->pmcntenset, idx),
	       yes_no(r->pmovsr, idx), yes_no(r->pmintenset, idx));
}

static void print_counters(const struct armpmu_regs *r)
{
	uint32_t mask = (uint32_t)((1ULL << armpmu_event_bits(r->pmu_version)) - 1);
	char label[8], number[8], buf[32];
	const char *name, *cycle_filter = "(none: PMUv1)";

	printf("\ncounter  event   name                     filters                       value  enabled overflow irq\n");
	for (unsigned int i = 0; i < r->num_counters && i < ARMPMU_MAX_COUNTERS; i++) {
		uint32_t ev = r->evtype[i] & mask;

		snprintf(label, sizeof(label), "%u", i);
		snprintf(number, sizeof(number), "0x%04x", ev);
		name = core_event_name(r->midr, ev);
		print_counter(r, i, label, number, name ? name : "(unknown)",
			      filters(r, r->evtype[i], buf, sizeof(buf)));
	}
	if (r->flags & ARMPMU_REGS_CYCLE_FILTER)
		cycle_filter = filters(r, r->evtype[ARMPMU_CYCLE_COUNTER], buf, sizeof(buf));
	print_counter(r, ARMPMU_CYCLE_COUNTER, "cycles", "-", "(cycle counter)", cycle_filter);
	if (nr_filter_bits(r->pmu_version))
		printf("\nFilters: P not EL1 (kernel), U not EL0 (user); NSK, NSU: non-secure EL1,\n"
		       "EL0 counted only if equal to P, U; NSH: EL2 counted%s.\n"
		       "A counter counts while PMCR.E and its enable bit are 1.\n",
		       nr_filter_bits(r->pmu_version) > 5 ? "; M: EL3 counted only if equal to P" : "");
}

static void print_regs(const struct armpmu_regs *r)
{
	const char *core = pmudev_core_name(r->midr);

	printf("CPU %u: %s (MIDR 0x%08x), PMU version %u, %u event counters and the cycle counter\n",
	       r->cpu, core ? core : "unknown core", r->midr, r->pmu_version, r->num_counters);
	print_pmcr(r->pmcr);
	print_mask("PMCNTENSET", r->pmcntenset, "enabled");
	print_mask("PMOVSR", r->pmovsr, "overflowed");
	print_userenr(r->pmuserenr);
	print_mask("PMINTENSET", r->pmintenset, "overflow interrupts");
	print_counters(r);
}

static const char regs_help[] =
	"Usage: pmuctl regs [-C CPU]\n\n"
	"A CPU's PMU registers as they are, whoever programmed them (armpmu, perf,\n"
	"a hand-written module), each field named: PMCR (IMP, IDCODE, N, LC, DP,\n"
	"X, D, C, P, E), the enabled, overflowed and interrupt-enabled counters,\n"
	"PMUSERENR (EN, SW, CR, ER), and a table of the counters: event number and\n"
	"name, filter bits, value, and whether it is enabled, overflowed and\n"
	"interrupting. They show every user's counts: root or CAP_PERFMON only.\n\n"
	"  -C, --cpu CPU  this CPU (default: the one pmuctl runs on, pinned there)\n"
	"  -h, --help     this text\n";

int cmd_regs(int argc, char **argv)
{
	struct armpmu_regs regs;
	struct pmudev *pmu;
	int cpu = -1, ret = parse_cpu_option(argc, argv, &cpu, regs_help), err;
	cpu_set_t one;

	if (ret)
		return ret;
	if (cpu < 0) {
		cpu = sched_getcpu();
		CPU_ZERO(&one);
		CPU_SET(cpu, &one);
		/* Stay there, so that the registers are the CPU's it runs on. */
		if (sched_setaffinity(0, sizeof(one), &one))
			return fail("cannot stay on CPU %d: %s", cpu, pmudev_strerror(-errno));
	}
	if (open_pmu(&pmu, PMUDEV_CPU_ANY, PMUDEV_OPEN_UNBOUND))
		return EXIT_FAILURE;
	err = pmudev_regs(pmu, cpu, &regs);
	pmudev_close(pmu);
	switch (err) {
	case 0:
		print_regs(&regs);
		return EXIT_SUCCESS;
	case -EPERM:
		fprintf(stderr, "pmuctl regs shows every user's counts on CPU %d: it needs root or CAP_PERFMON\n",
			cpu);
		return EXIT_FAILURE;
	case -ENXIO:
		return fail("CPU %d is offline", cpu);
	case -ENODEV:
		return fail("CPU %d has no PMU armpmu can use", cpu);
	default:
		return fail("CPU %d: %s", cpu, pmudev_strerror(err));
	}
}
