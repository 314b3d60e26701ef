// SPDX-License-Identifier: GPL-2.0
/*
 * pmuctl stat -a's software counts: the kernel's system-wide totals of
 * context switches (/proc/stat) and page faults (/proc/vmstat), read
 * when the counters start and when they stop; the page faults of
 * processes and threads (/proc/PID/stat), at each look; and for --per-core,
 * --per-cluster and --per-socket, the CPUs' topology from sysfs.
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

void stat_system_faults_init(struct stat_faults *f, const pid_t *pids, int n, bool threads)
{
	*f = (struct stat_faults){ .n = n < MAX_TARGETS ? n : MAX_TARGETS, .threads = threads };
	memcpy(f->pid, pids, (size_t)f->n * sizeof(*pids));
}

/*
 * /proc/PID/stat's (or a thread's) faults, with its reaped children's
 * unless @own: 0, or -errno. The fields after the command name, which
 * may hold spaces and parentheses, so after its last ')': state ppid pgrp
 * session tty_nr tpgid flags minflt cminflt majflt cmajflt.
 */
static int task_faults(pid_t pid, bool own, uint64_t *minor, uint64_t *major)
{
	char path[64], buf[1024], *p;
	unsigned long long min, cmin, maj, cmaj;
	size_t got;
	FILE *f;

	if (own)
		snprintf(path, sizeof(path), "/proc/%d/task/%d/stat", (int)pid, (int)pid);
	else
		snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	got = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[got] = '\0';
	p = strrchr(buf, ')');
	if (!p || sscanf(p + 1, " %*c %*d %*d %*d %*d %*d %*u %llu %llu %llu %llu",
			 &min, &cmin, &maj, &cmaj) != 4)
		return -EINVAL;
	/* A thread's cminflt is its process's: not the thread's own. */
	*minor = own ? min : min + cmin;
	*major = own ? maj : maj + cmaj;
	return 0;
}

int stat_system_faults_look(struct stat_faults *f)
{
	int read = 0;

	for (int i = 0; i < f->n; i++)
		if (!task_faults(f->pid[i], f->threads, &f->minor[i], &f->major[i]))
			read++;
	return read;
}

void stat_system_faults_delta(const struct stat_faults *before, const struct stat_faults *after,
			      struct stat_usage *u)
{
	double minor = 0, major = 0;

	for (int i = 0; i < after->n && i < before->n; i++) {
		/* Never below 0: a total read before a held command's own was known. */
		if (after->minor[i] > before->minor[i])
			minor += (double)(after->minor[i] - before->minor[i]);
		if (after->major[i] > before->major[i])
			major += (double)(after->major[i] - before->major[i]);
	}
	u->value[SW_MINOR_FAULTS] = minor;
	u->value[SW_MAJOR_FAULTS] = major;
	u->value[SW_PAGE_FAULTS] = minor + major;
}

/* A number from CPU @cpu's topology file @name, or 0. */
static int topology_id(int cpu, const char *name)
{
	char path[96];
	FILE *f;
	int id = 0;

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/topology/%s", cpu, name);
	f = fopen(path, "re");
	if (!f)
		return 0;
	if (fscanf(f, "%d", &id) != 1 || id < 0)
		id = 0;
	fclose(f);
	return id;
}

void stat_system_topology(int cpu, int *socket, int *core, int *cluster)
{
	*socket = topology_id(cpu, "physical_package_id");
	*core = topology_id(cpu, "core_id");
	*cluster = topology_id(cpu, "cluster_id");
}

/*
 * --per-core, --per-cluster, --per-socket (@aggr 1, 2, 3: enum
 * stat_aggr's): @n runs of one CPU each summed by the CPUs' place in the
 * topology, in place; one cluster or socket for all is said. Returns how
 * many.
 */
int stat_system_aggregate(struct stat_run *runs, int n, int aggr)
{
	int groups = 0;

	for (int r = 0; r < n; r++) {
		int socket, core, cluster, id, g;

		stat_system_topology(runs[r].where.line_cpu, &socket, &core, &cluster);
		id = aggr == 1 ? core : aggr == 2 ? cluster : 0;
		for (g = 0; g < groups; g++)
			if (runs[g].where.aggr_socket == socket && runs[g].where.aggr_id == id)
				break;
		if (g < groups) {
			stat_counts_add_run(&runs[g], &runs[r]);
			runs[g].where.aggr_nr++;
			continue;
		}
		runs[g] = runs[r];
		runs[g].where.per_cpu = false;
		runs[g].where.aggr = aggr;
		runs[g].where.aggr_socket = socket;
		runs[g].where.aggr_id = id;
		runs[g].where.aggr_nr = 1;
		groups++;
	}
	if (groups == 1 && aggr != 1)
		say("%s: all %d CPUs counted are in one %s: its line is theirs together",
		    aggr == 2 ? "--per-cluster" : "--per-socket", runs[0].where.aggr_nr,
		    aggr == 2 ? "cluster" : "socket");
	return groups;
}
