// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Region reports as a table or JSON: pure functions of a struct
 * region_report, so that the host can test them without a device.
 */
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "internal.h"
#include "json.h"

/* Column c of a row: 0 calls, 1 the cycle counter, then the event counters. */
struct column {
	const char *name;
	int counter;		/* -1 calls, ARMPMU_CYCLE_COUNTER, or an index */
};

static int columns(const struct region_report *rep, struct column *col)
{
	int n = 0;

	col[n++] = (struct column){ "calls", -1 };
	col[n++] = (struct column){ rep->cycles_name, ARMPMU_CYCLE_COUNTER };
	for (int i = 0; i < ARMPMU_MAX_COUNTERS; i++)
		if (rep->used & (1U << i))
			col[n++] = (struct column){ rep->counter_name[i], i };
	return n;
}

/* @total less @calls * @overhead, or 0 and *@clamped; no product overflows. */
static uint64_t less(uint64_t total, uint64_t overhead, uint64_t calls, bool *clamped)
{
	if (!overhead || calls <= total / overhead)
		return total - calls * overhead;
	*clamped = true;
	return 0;
}

bool pmudev_region_calibrated(const struct region *r, const struct calibration *cal,
			      uint32_t used, struct pmudev_region_counts *out)
{
	const struct pmudev_region_counts *o;
	bool clamped = false;

	*out = r->total;
	if (!cal || !cal->on)
		return false;
	o = &cal->overhead;
	out->cycles = less(r->total.cycles, o->cycles, r->total.calls, &clamped);
	for (int i = 0; i < ARMPMU_MAX_COUNTERS; i++)
		if (used & (1U << i))
			out->events[i] = less(r->total.events[i], o->events[i],
					      r->total.calls, &clamped);
	return clamped;
}

static uint64_t value(const struct pmudev_region_counts *c, const struct column *col)
{
	if (col->counter < 0)
		return c->calls;
	if (col->counter == ARMPMU_CYCLE_COUNTER)
		return c->cycles;
	return c->events[col->counter];
}

/* Region @i's counts as reported; true if any was clamped. */
static bool counts(const struct region_report *rep, int i, struct pmudev_region_counts *c)
{
	return pmudev_region_calibrated(&rep->region[i], rep->calibration, rep->used, c);
}

static bool calibrated(const struct region_report *rep)
{
	return rep->calibration && rep->calibration->on;
}

static int digits(uint64_t v)
{
	int n = 1;

	while (v >= 10) {
		v /= 10;
		n++;
	}
	return n;
}

static int max_int(int a, int b)
{
	return a > b ? a : b;
}

/* The marks after a region's name: "*" clamped, "!" incomplete. */
static const char *marks(bool clamped, bool incomplete)
{
	return clamped ? (incomplete ? "*!" : "*") : incomplete ? "!" : "";
}

/*
 * Names left-aligned, numbers right-aligned, each column as wide as it
 * needs. With calibration, a footer gives the overhead subtracted, and a
 * region with a count clamped at 0 has its name marked "*": a count that
 * is less than the overhead says the estimate was off, not that nothing
 * was counted. A region not counted all its time is marked "!": its
 * counts are short, and must not pass for whole ones.
 */
static void print_table(const struct region_report *rep, FILE *out)
{
	struct column col[ARMPMU_MAX_COUNTERS + 2];
	int width[ARMPMU_MAX_COUNTERS + 2];
	int ncol = columns(rep, col);
	int name_width = strlen("region");
	struct pmudev_region_counts c;
	bool any_clamped = false, any_incomplete = false;

	for (int k = 0; k < ncol; k++)
		width[k] = strlen(col[k].name);
	for (int i = 0; i < rep->nr; i++) {
		bool clamped = counts(rep, i, &c);

		name_width = max_int(name_width, strlen(rep->region[i].name) +
				     strlen(marks(clamped, rep->region[i].incomplete)));
		for (int k = 0; k < ncol; k++)
			width[k] = max_int(width[k], digits(value(&c, &col[k])));
	}
	fprintf(out, "%-*s", name_width, "region");
	for (int k = 0; k < ncol; k++)
		fprintf(out, "  %*s", width[k], col[k].name);
	fputc('\n', out);
	for (int i = 0; i < rep->nr; i++) {
		const char *name = rep->region[i].name;
		bool clamped = counts(rep, i, &c);

		any_clamped |= clamped;
		any_incomplete |= rep->region[i].incomplete;
		fprintf(out, "%s%-*s", name, name_width - (int)strlen(name),
			marks(clamped, rep->region[i].incomplete));
		for (int k = 0; k < ncol; k++)
			fprintf(out, "  %*" PRIu64, width[k], value(&c, &col[k]));
		fputc('\n', out);
	}
	if (any_incomplete)
		fputs("! not counted all its time (its thread ran where its counters could not be loaded): counts short\n",
		      out);
	if (!calibrated(rep))
		return;
	fputs("overhead subtracted per call:", out);
	for (int k = 1; k < ncol; k++)
		fprintf(out, " %s %" PRIu64, col[k].name,
			value(&rep->calibration->overhead, &col[k]));
	fputc('\n', out);
	if (any_clamped)
		fputs("* counted less than the overhead somewhere: clamped at 0\n", out);
}

/* {"counter": count, ...} over the counter columns. */
static void print_json_counts(FILE *out, const struct column *col, int ncol,
			      const struct pmudev_region_counts *c)
{
	fputc('{', out);
	for (int k = 1; k < ncol; k++) {
		fputs(k > 1 ? ", " : "", out);
		json_string(out, col[k].name);
		fprintf(out, ": %" PRIu64, value(c, &col[k]));
	}
	fputc('}', out);
}

/*
 * One object: the CPU (null in task mode), the counters' names, and a region per element with
 * its counts keyed by those names (a counter may be called "calls" or
 * "name" without clashing). With calibration, a "calibration" object gives
 * the overhead subtracted per call, and each region says if it was clamped.
 */
static void print_json(const struct region_report *rep, FILE *out)
{
	struct column col[ARMPMU_MAX_COUNTERS + 2];
	int ncol = columns(rep, col);
	struct pmudev_region_counts c;

	if (rep->cpu < 0)
		fputs("{\"cpu\": null, \"core\": ", out);
	else
		fprintf(out, "{\"cpu\": %d, \"core\": ", rep->cpu);
	if (rep->core)
		json_string(out, rep->core);
	else
		fputs("null", out);
	fputs(", \"counters\": [", out);
	for (int k = 1; k < ncol; k++) {
		fputs(k > 1 ? ", " : "", out);
		json_string(out, col[k].name);
	}
	fputs("], ", out);
	if (calibrated(rep)) {
		fputs("\"calibration\": {\"overhead_per_call\": ", out);
		print_json_counts(out, col, ncol, &rep->calibration->overhead);
		fputs("}, ", out);
	}
	fputs("\"regions\": [", out);
	for (int i = 0; i < rep->nr; i++) {
		bool clamped = counts(rep, i, &c);

		fputs(i ? ",\n  {\"name\": " : "\n  {\"name\": ", out);
		json_string(out, rep->region[i].name);
		fprintf(out, ", \"calls\": %" PRIu64 ", \"counts\": ", c.calls);
		print_json_counts(out, col, ncol, &c);
		if (calibrated(rep))
			fprintf(out, ", \"clamped\": %s", clamped ? "true" : "false");
		/* Only when true: whole counts look as they always did. */
		if (rep->region[i].incomplete)
			fputs(", \"incomplete\": true", out);
		fputc('}', out);
	}
	fputs(rep->nr ? "\n]}\n" : "]}\n", out);
}

int pmudev_format_regions(const struct region_report *report, FILE *out,
			  enum pmudev_format format)
{
	switch (format) {
	case PMUDEV_FORMAT_TABLE:
		print_table(report, out);
		break;
	case PMUDEV_FORMAT_JSON:
		print_json(report, out);
		break;
	default:
		return -EINVAL;
	}
	return ferror(out) ? -EIO : 0;
}
