// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Region reports as a table or JSON: pure functions of a struct
 * region_report, so that the host can test them without a device.
 */
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "internal.h"

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

static uint64_t value(const struct region *r, const struct column *col)
{
	if (col->counter < 0)
		return r->total.calls;
	if (col->counter == ARMPMU_CYCLE_COUNTER)
		return r->total.cycles;
	return r->total.events[col->counter];
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

/* Names left-aligned, numbers right-aligned, each column as wide as it needs. */
static void print_table(const struct region_report *rep, FILE *out)
{
	struct column col[ARMPMU_MAX_COUNTERS + 2];
	int width[ARMPMU_MAX_COUNTERS + 2];
	int ncol = columns(rep, col);
	int name_width = strlen("region");

	for (int i = 0; i < rep->nr; i++)
		name_width = max_int(name_width, strlen(rep->region[i].name));
	for (int c = 0; c < ncol; c++) {
		width[c] = strlen(col[c].name);
		for (int i = 0; i < rep->nr; i++)
			width[c] = max_int(width[c], digits(value(&rep->region[i], &col[c])));
	}
	fprintf(out, "%-*s", name_width, "region");
	for (int c = 0; c < ncol; c++)
		fprintf(out, "  %*s", width[c], col[c].name);
	fputc('\n', out);
	for (int i = 0; i < rep->nr; i++) {
		fprintf(out, "%-*s", name_width, rep->region[i].name);
		for (int c = 0; c < ncol; c++)
			fprintf(out, "  %*" PRIu64, width[c], value(&rep->region[i], &col[c]));
		fputc('\n', out);
	}
}

static void print_json_string(FILE *out, const char *s)
{
	fputc('"', out);
	for (; *s; s++) {
		unsigned char c = *s;

		if (c == '"' || c == '\\')
			fprintf(out, "\\%c", c);
		else if (c < 0x20)
			fprintf(out, "\\u%04x", c);
		else
			fputc(c, out);
	}
	fputc('"', out);
}

/*
 * One object: the CPU, the counters' names, and a region per element with
 * its counts keyed by those names (a counter may be called "calls" or
 * "name" without clashing).
 */
static void print_json(const struct region_report *rep, FILE *out)
{
	struct column col[ARMPMU_MAX_COUNTERS + 2];
	int ncol = columns(rep, col);

	fprintf(out, "{\"cpu\": %u, \"core\": ", rep->cpu);
	if (rep->core)
		print_json_string(out, rep->core);
	else
		fputs("null", out);
	fputs(", \"counters\": [", out);
	for (int c = 1; c < ncol; c++) {
		fputs(c > 1 ? ", " : "", out);
		print_json_string(out, col[c].name);
	}
	fputs("], \"regions\": [", out);
	for (int i = 0; i < rep->nr; i++) {
		const struct region *r = &rep->region[i];

		fputs(i ? ",\n  {\"name\": " : "\n  {\"name\": ", out);
		print_json_string(out, r->name);
		fprintf(out, ", \"calls\": %" PRIu64 ", \"counts\": {", r->total.calls);
		for (int c = 1; c < ncol; c++) {
			fputs(c > 1 ? ", " : "", out);
			print_json_string(out, col[c].name);
			fprintf(out, ": %" PRIu64, value(r, &col[c]));
		}
		fputs("}}", out);
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
