/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The host table tests' TAP (probe-unit.c, privilege-unit.c): one line a
 * row, the detail under a failed one, the plan at the end.
 */
#ifndef UNIT_TAP_H
#define UNIT_TAP_H

#include <stdbool.h>
#include <stdio.h>

static int n, failed;

static void check(bool ok, const char *name, const char *detail)
{
	n++;
	if (!ok)
		failed++;
	printf("%sok %d - %s\n", ok ? "" : "not ", n, name);
	if (!ok)
		printf("# %s\n", detail);
}

/* The plan; the exit status: 1 if a row failed. */
static int done(void)
{
	printf("1..%d\n", n);
	return failed != 0;
}

#endif
