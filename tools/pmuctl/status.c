// SPDX-License-Identifier: GPL-2.0
/*
 * pmuctl status: the module, the device node, each CPU's PMU, and every
 * open file counting a thread or a CPU that the caller may see (its own
 * user's, or every user's with CAP_PERFMON or CAP_SYS_ADMIN), with how
 * many it may not.
 */
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "pmuctl.h"

#define SYS_MODULE "/sys/module/armpmu"

/* The first line of @path, without its newline, or "" if unreadable. */
static const char *first_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "re");

	buf[0] = '\0';
	if (f) {
		if (fgets(buf, (int)len, f))
			buf[strcspn(buf, "\n")] = '\0';
		fclose(f);
	}
	return buf;
}

static bool module_status(void)
{
	char state[32], refcnt[32], poll[32], cpu_mode[32];

	first_line(SYS_MODULE "/initstate", state, sizeof(state));
	if (strcmp(state, "live")) {
		printf("module:  armpmu is not loaded%s%s\n", state[0] ? ", state " : "", state);
		return false;
	}
	printf("module:  armpmu loaded, %s open files, poll_ms=%s\n",
	       first_line(SYS_MODULE "/refcnt", refcnt, sizeof(refcnt)),
	       first_line(SYS_MODULE "/parameters/poll_ms", poll, sizeof(poll)));
	first_line(SYS_MODULE "/parameters/cpu_mode_for_all", cpu_mode, sizeof(cpu_mode));
	printf("         whole-CPU counting: %s\n", cpu_mode[0] == 'Y' ?
	       "every member of the device's group (cpu_mode_for_all=Y)" :
	       "CAP_PERFMON or CAP_SYS_ADMIN only");
	return true;
}

static void device_status(void)
{
	struct passwd *pw;
	struct group *gr;
	struct stat st;

	if (stat(DEVICE_PATH, &st)) {
		printf("device:  " DEVICE_PATH " does not exist\n");
		return;
	}
	pw = getpwuid(st.st_uid);
	gr = getgrgid(st.st_gid);
	printf("device:  " DEVICE_PATH ", owner %s, group %s, mode %04o\n",
	       pw ? pw->pw_name : "?", gr ? gr->gr_name : "?",
	       (unsigned int)(st.st_mode & 07777));
}

/* "pid 812 (matrix), user lab". */
static void describe_process(unsigned int pid, unsigned int uid, char *buf, size_t len)
{
	char path[64], comm[64];
	struct passwd *pw;

	snprintf(path, sizeof(path), "/proc/%u/comm", pid);
	first_line(path, comm, sizeof(comm));
	pw = getpwuid(uid);
	snprintf(buf, len, "pid %u (%s), user %s", pid, comm[0] ? comm : "?",
		 pw ? pw->pw_name : "?");
}

static void describe_owner(const struct armpmu_cpu_status *st, char *buf, size_t len)
{
	if (st->flags & ARMPMU_CPU_OWNED)
		describe_process(st->owner_pid, st->owner_uid, buf, len);
	else
		snprintf(buf, len, "-");
}

/* "0,1,cycle": the counters of @mask. */
static void describe_counters(unsigned int mask, char *buf, size_t len)
{
	size_t o = 0;

	buf[0] = '\0';
	for (unsigned int i = 0; i < 32 && o < len; i++) {
		if (!(mask & (1U << i)))
			continue;
		if (i == ARMPMU_CYCLE_COUNTER)
			o += (size_t)snprintf(buf + o, len - o, "%scycle", o ? "," : "");
		else
			o += (size_t)snprintf(buf + o, len - o, "%s%u", o ? "," : "", i);
	}
}

/* What a file counts: "thread 812 and 2 more", "thread 812", "CPU 1". */
static void describe_target(const struct armpmu_file_status *st, char *buf, size_t len)
{
	if (st->flags & ARMPMU_FILE_CPU)
		snprintf(buf, len, "CPU %u", st->cpu);
	else if (st->threads > 1)
		snprintf(buf, len, "thread %u and %u more", st->target_tid, st->threads - 1);
	else if (st->threads)
		snprintf(buf, len, "thread %u", st->target_tid);
	else
		snprintf(buf, len, "thread %u (exited)", st->target_tid);
}

/* Every file that counts something: its id is what `pmuctl reset -f` takes. */
static void file_table(struct pmudev *pmu)
{
	struct armpmu_file_status st;
	char owner[128], target[64], counters[64];
	unsigned int id = 1, hidden;
	int err;

	printf("\nFILE  mode  owner                                 counts                   counters     state\n");
	/* The first answer counts every file this one may not see (0 from older drivers). */
	err = pmudev_file_status(pmu, id, &st);
	hidden = st.hidden;
	for (; !err; err = pmudev_file_status(pmu, id, &st)) {
		describe_process(st.owner_pid, st.owner_uid, owner, sizeof(owner));
		describe_target(&st, target, sizeof(target));
		describe_counters(st.counters, counters, sizeof(counters));
		printf("%-5u %-5s %-37s %-24s %-12s %s%s\n", st.id,
		       st.flags & ARMPMU_FILE_CPU ? "cpu" : "task", owner, target, counters,
		       st.flags & ARMPMU_FILE_RUNNING ? "counting" : "stopped",
		       st.flags & ARMPMU_FILE_FOLLOW ? ", follows new threads" : "");
		id = st.id + 1;
	}
	if (id == 1)
		printf("(none)\n");
	if (hidden)
		printf("(%u file%s of other users not shown: only CAP_PERFMON or CAP_SYS_ADMIN sees every user's)\n",
		       hidden, hidden == 1 ? "" : "s");
}

static int cpu_table(void)
{
	struct armpmu_cpu_status st;
	char owner[128], counters[64], others[128];
	struct pmudev *pmu;
	int err;

	if (open_pmu(&pmu, PMUDEV_CPU_ANY, PMUDEV_OPEN_UNBOUND))
		return EXIT_FAILURE;
	printf("\nCPU  state    owner                                 PMUSERENR  others using the PMU\n");
	for (int cpu = 0; cpu < possible_cpus(); cpu++) {
		err = pmudev_cpu_status(pmu, cpu, &st);
		if (err) {
			printf("%-4d %s\n", cpu, pmudev_strerror(err));
			continue;
		}
		describe_owner(&st, owner, sizeof(owner));
		others[0] = '\0';
		if (st.flags & ARMPMU_CPU_FOREIGN) {
			describe_counters(st.foreign_counters, counters, sizeof(counters));
			snprintf(others, sizeof(others), "perf or another driver: counters %s",
				 counters);
		}
		printf("%-4d %-8s %-37s %-10s %s\n", cpu,
		       !(st.flags & ARMPMU_CPU_USABLE) ? "no PMU" :
		       st.flags & ARMPMU_CPU_ONLINE ? "online" : "offline",
		       owner, st.flags & ARMPMU_CPU_USERENR_SET ? "SET" : "clear",
		       others[0] ? others : (st.flags & ARMPMU_CPU_ONLINE ? "none" : "-"));
	}
	file_table(pmu);
	pmudev_close(pmu);
	return EXIT_SUCCESS;
}

int cmd_status(int argc, char **argv)
{
	if (wants_help(argc, argv)) {
		printf("Usage: pmuctl status\n\n"
		       "Shows whether armpmu is loaded (and its parameters), who may open\n"
		       DEVICE_PATH ", and per CPU: online, which process and user own its\n"
		       "PMU, whether PMUSERENR is set (another module opened the PMU to user\n"
		       "mode) and which counters others (perf) have enabled. Then every open\n"
		       "file that counts: its id (for pmuctl reset -f), owner, the thread or\n"
		       "CPU it counts, its counters and whether it is counting; never the\n"
		       "counts.\n");
		return EXIT_SUCCESS;
	}
	if (argc > 1)
		return usage_error("status takes no arguments");
	if (!module_status()) {
		device_status();
		return EXIT_SUCCESS;
	}
	device_status();
	return cpu_table();
}
