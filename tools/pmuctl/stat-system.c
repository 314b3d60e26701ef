// SPDX-License-Identifier: GPL-2.0
/*
 * pmuctl stat -a's software counts: the kernel's system-wide totals of
 * context switches (/proc/stat) and page faults (/proc/vmstat), read
 * when the counters start and when they stop.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "pmuctl.h"
#include "stat-system.h"

/* The value of the line "@key N" of @path, into *@v: 0 or -errno. */
static int read_key(const char *path, const char *key, uint64_t *v)
{
	char line[256];
	size_t n = strlen(key);
	FILE *f = fopen(path, "re");
	int ret = -ENOENT;

	if (!f)
		return -errno;
	while (ret && fgets(line, sizeof(line), f))
		if (!strncmp(line, key, n) && line[n] == ' ' &&
		    sscanf(line + n, "%" SCNu64, v) == 1)
			ret = 0;
	fclose(f);
	return ret;
}

int stat_system_read(struct stat_system *s)
{
	int err = read_key("/proc/stat", "ctxt", &s->ctxt);

	if (!err)
		err = read_key("/proc/vmstat", "pgfault", &s->pgfault);
	if (!err)
		err = read_key("/proc/vmstat", "pgmajfault", &s->pgmajfault);
	if (err)
		say("cannot read the system's context switches and page faults from /proc: %s",
		    strerror(-err));
	return err;
}

void stat_system_delta(const struct stat_system *before, const struct stat_system *after,
		       struct stat_usage *u)
{
	double major = (double)(after->pgmajfault - before->pgmajfault);
	double all = (double)(after->pgfault - before->pgfault);

	u->value[SW_CONTEXT_SWITCHES] = (double)(after->ctxt - before->ctxt);
	u->value[SW_PAGE_FAULTS] = all;
	u->value[SW_MAJOR_FAULTS] = major;
	u->value[SW_MINOR_FAULTS] = all - major;
}
