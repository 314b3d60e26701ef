// SPDX-License-Identifier: GPL-2.0
/*
 * pmuctl report: perf report's table from a perf.data file (pmuctl
 * record's, or perf record's own), on a board that has no perf: a row per
 * command, file and function, and a column per event of the group (as
 * perf report --group), the share of each event's weight. Symbols are
 * read with elfutils (report-symbols.c).
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "pmuctl.h"
#include "report-data.h"

static const char help[] =
	"Usage: pmuctl report [-i FILE] [-s KEYS] [-e EVENT] [--symfs DIR] [--no-demangle]\n"
	"                     [--stdio]\n"
	"\n"
	"Prints perf report's table from a perf.data file (pmuctl record's or perf\n"
	"record's): the share of each event's weight per command, file and function,\n"
	"a column per event of the group, highest first.\n"
	"\n"
	"  -i, --input FILE     the file (default perf.data)\n"
	"  -s, --sort KEYS      rows by these, comma-separated: comm, pid, dso, sym\n"
	"                       (default comm,dso,sym)\n"
	"  -e, --event EVENT    only this event's column (its name, as in the file:\n"
	"                       cpu-clock, instructions, ...)\n"
	"      --symfs DIR      look for the programs' files under DIR\n"
	"      --no-demangle    C++ names as in the file (default: as perf shows them,\n"
	"                       geo::Solver::run)\n"
	"      --stdio          the table as text (the only way; for perf's habits)\n"
	"  -h, --help           this help\n"
	"\n"
	"See pmuctl(1).\n";

static const char *const key_titles[] = {
	[KEY_COMM] = "Command", [KEY_PID] = "Pid:Command", [KEY_DSO] = "Shared Object",
	[KEY_SYM] = "Symbol",
};

struct options {
	const char *input;
	struct report_options read;
	const char *event;
};

static int parse_keys(struct report_options *o, char *arg)
{
	o->nkeys = 0;
	for (char *k = strtok(arg, ","); k; k = strtok(NULL, ",")) {
		if (o->nkeys == REPORT_MAX_KEYS)
			return usage_error("--sort: at most %d keys", REPORT_MAX_KEYS);
		if (report_key_parse(k, &o->keys[o->nkeys]))
			return usage_error("--sort: unknown key '%s' (comm, pid, dso, sym)", k);
		o->nkeys++;
	}
	return o->nkeys ? 0 : usage_error("--sort: no key");
}

static int parse(int argc, char **argv, struct options *o)
{
	enum { OPT_SYMFS = 256, OPT_STDIO, OPT_DEMANGLE, OPT_NO_DEMANGLE };
	static const struct option longs[] = {
		{ "input", required_argument, NULL, 'i' },
		{ "sort", required_argument, NULL, 's' },
		{ "event", required_argument, NULL, 'e' },
		{ "symfs", required_argument, NULL, OPT_SYMFS },
		{ "stdio", no_argument, NULL, OPT_STDIO },
		{ "demangle", no_argument, NULL, OPT_DEMANGLE },
		{ "no-demangle", no_argument, NULL, OPT_NO_DEMANGLE },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	int opt, ret;

	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":i:s:e:h", longs, NULL)) != -1) {
		switch (opt) {
		case 'i':
			o->input = optarg;
			break;
		case 's':
			ret = parse_keys(&o->read, optarg);
			if (ret)
				return ret;
			break;
		case 'e':
			o->event = optarg;
			break;
		case OPT_SYMFS:
			o->read.symfs = optarg;
			break;
		case OPT_STDIO:
			break;
		case OPT_DEMANGLE:
			o->read.demangle = true;
			break;
		case OPT_NO_DEMANGLE:
			o->read.demangle = false;
			break;
		case 'h':
			fputs(help, stdout);
			exit(EXIT_SUCCESS);
		default:
			return option_error(opt, argv);
		}
	}
	if (optind < argc)
		return usage_error("unexpected argument '%s'", argv[optind]);
	return 0;
}

/* Whether event name @name is the one @want names, with or without its modifier. */
static bool event_matches(const char *name, const char *want)
{
	size_t len = strcspn(name, ":");

	return !strcmp(name, want) || (strlen(want) == len && !strncmp(name, want, len));
}

/* The columns shown: every event, or -e's. */
static int columns(const struct report *r, const char *event, unsigned int *cols)
{
	unsigned int n = 0;

	for (unsigned int i = 0; i < r->nevents; i++)
		if (!event || event_matches(r->names[i], event))
			cols[n++] = i;
	return (int)n;
}

static unsigned int sort_col;
static const struct report *sort_report;

static int by_share(const void *a, const void *b)
{
	const struct report_row *x = a, *y = b;
	uint64_t wx = x->weight[sort_col], wy = y->weight[sort_col];

	if (wx != wy)
		return wx > wy ? -1 : 1;
	for (unsigned int i = 0; i < sort_report->nevents; i++)
		if (x->weight[i] != y->weight[i])
			return x->weight[i] > y->weight[i] ? -1 : 1;
	/* Ties as perf orders them: by the keys, in order. */
	for (unsigned int k = 0; k < REPORT_MAX_KEYS && x->key[k]; k++) {
		int c = strcmp(x->key[k], y->key[k]);

		if (c)
			return c;
	}
	return 0;
}

/* @n dots: the header's rule under a column, as wide as its widest value. */
static void rule(int n)
{
	while (n-- > 0)
		putchar('.');
}

static void print(struct report *r, const struct options *o, const unsigned int *cols,
		  unsigned int ncols)
{
	int width[REPORT_MAX_KEYS];
	int overhead = (int)ncols * 8;

	uint64_t samples = 0, count = 0;
	char unit = ' ';

	/* perf's figures: each event's weighed samples, and their weights, summed. */
	for (unsigned int c = 0; c < ncols; c++) {
		samples += r->weighed[cols[c]];
		count += r->totals[cols[c]];
	}
	for (const char *u = "KMG"; *u && samples > 1000; u++) {
		samples /= 1000;
		unit = *u;
	}
	/* perf's: the LOST_SAMPLES records'; lost chunks are said after the table. */
	printf("# Total Lost Samples: %llu\n#\n", (unsigned long long)r->lost_samples);
	printf("# Samples: %llu%c of event%s '", (unsigned long long)samples, unit,
	       ncols > 1 ? "s" : "");
	if (ncols > 1)
		printf("%s { ", r->grouped ? "anon group" : "events");
	for (unsigned int c = 0; c < ncols; c++)
		printf("%s%s", c ? ", " : "", r->names[cols[c]]);
	printf("%s'\n", ncols > 1 ? " }" : "");
	printf("# Event count (approx.): %llu\n#\n", (unsigned long long)count);

	for (unsigned int k = 0; k < o->read.nkeys; k++) {
		width[k] = (int)strlen(key_titles[o->read.keys[k]]);
		for (size_t i = 0; i < r->nrows; i++) {
			int len = (int)strlen(r->rows[i].key[k]);

			if (len > width[k])
				width[k] = len;
		}
	}
	printf("# %*s", overhead, "Overhead");
	/* perf centres the thread column's title, and left-aligns the others. */
	for (unsigned int k = 0; k < o->read.nkeys; k++) {
		const char *title = key_titles[o->read.keys[k]];
		int pad = o->read.keys[k] == KEY_PID ? (width[k] - (int)strlen(title)) / 2 : 0;

		printf("  %*s%-*s", pad, "", width[k] - pad, title);
	}
	printf("\n# ");
	rule(overhead);
	for (unsigned int k = 0; k < o->read.nkeys; k++) {
		printf("  ");
		rule(width[k]);
	}
	printf("\n#\n");

	sort_col = cols[0];
	sort_report = r;
	qsort(r->rows, r->nrows, sizeof(*r->rows), by_share);
	for (size_t i = 0; i < r->nrows; i++) {
		const struct report_row *rw = &r->rows[i];
		bool any = false;

		for (unsigned int c = 0; c < ncols; c++)
			any |= rw->weight[cols[c]] != 0;
		if (!any)
			continue;
		printf("  ");
		for (unsigned int c = 0; c < ncols; c++) {
			uint64_t total = r->totals[cols[c]];

			printf("%7.2f%%", total ? 100.0 * (double)rw->weight[cols[c]] / (double)total : 0.0);
		}
		for (unsigned int k = 0; k < o->read.nkeys; k++)
			printf("  %-*s", k + 1 < o->read.nkeys ? width[k] : 0, rw->key[k]);
		printf("\n");
	}
}

int cmd_report(int argc, char **argv)
{
	struct options o = { .input = "perf.data",
			     .read = { .keys = { KEY_COMM, KEY_DSO, KEY_SYM }, .nkeys = 3,
				       .demangle = true } };
	unsigned int cols[REPORT_MAX_EVENTS];
	struct report r;
	int ret, ncols;

	ret = parse(argc, argv, &o);
	if (ret)
		return ret;
	ret = report_read(o.input, &o.read, &r);
	if (ret)
		return ret;
	ncols = columns(&r, o.event, cols);
	if (!ncols) {
		ret = fail("-e %s: no such event in %s", o.event, o.input);
	} else if (!r.samples) {
		ret = fail("%s has no samples", o.input);
	} else {
		print(&r, &o, cols, (unsigned int)ncols);
		for (size_t i = 0; i < r.nrefused; i++)
			say("not read for its symbols, its samples shown by address: %s",
			    r.refused[i]);
		if (r.lost_chunks)
			say("%s: %llu samples were lost while recording (%llu lost chunks)",
			    o.input, (unsigned long long)r.lost, (unsigned long long)r.lost_chunks);
	}
	report_free(&r);
	return ret;
}
