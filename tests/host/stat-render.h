/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The host's stat unit tests' (stat-output-unit.c, stat-lines-unit.c) one
 * way to print made-up runs: pmuctl stat's printers into a string.
 */
#ifndef STAT_RENDER_H
#define STAT_RENDER_H

#include <stdio.h>
#include <stdlib.h>

#include "stat-output.h"

enum format { CSV, JSON, TABLE };

/*
 * @n runs (-A, --per-thread: more than one) in @format (CSV: separated by
 * @sep), the table's header naming "prog": one string, freed by the caller.
 */
static inline char *render_runs_as(const struct stat_run *runs, int n, enum format format,
				   const char *sep)
{
	char *buf = NULL, *cmd[] = { "prog", NULL };
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);

	if (!out)
		abort();
	if (format == CSV)
		stat_fields_separated(out, runs, n, sep);
	else if (format == JSON)
		stat_fields_json(out, runs, n);
	else
		stat_print_table(out, runs, n, cmd);
	fclose(out);
	return buf;
}

#endif
