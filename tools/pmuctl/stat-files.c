// SPDX-License-Identifier: GPL-2.0
/*
 * pmuctl stat's files: each opened, attached or bound, and programmed with
 * the same events as the first, so that their counts add up counter by
 * counter.
 */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/armpmu_arch.h>

#include "pmuctl.h"
#include "stat-files.h"

/* Keeps @pmu among @f's files: 0, or -ENOMEM. */
static int files_add(struct stat_files *f, struct pmudev *pmu)
{
	if (f->n == f->allocated) {
		int more = f->allocated ? 2 * f->allocated : 4;
		struct pmudev **p = realloc(f->pmu, more * sizeof(*p));

		if (!p)
			return -ENOMEM;
		f->pmu = p;
		f->allocated = more;
	}
	f->pmu[f->n++] = pmu;
	return 0;
}

void stat_files_close(struct stat_files *f)
{
	for (int i = 0; i < f->n; i++)
		pmudev_close(f->pmu[i]);
	free(f->pmu);
	*f = (struct stat_files){ 0 };
}

/*
 * Gives @pmu spec @i of @specs, in group @groups[i] (0: alone): a group's
 * members (but "cycles", which always counts) all at its first, into
 * @slot_of. Returns the spec's counter or slot, or a negative errno (for
 * a group, the one of the member that failed, said in @why).
 */
static int add_spec(struct pmudev *pmu, char *const *specs, const int *groups, int n, int i,
		    int *slot_of, char *why, size_t len)
{
	const char *members[MAX_EVENTS] = { 0 };
	int at[MAX_EVENTS], got[MAX_EVENTS], k = 0, err;

	why[0] = '\0';
	if (!groups[i] || pmudev_spec_is_cycles(specs[i]))
		return pmudev_add_event(pmu, specs[i]);
	for (int j = 0; j < i; j++)
		if (groups[j] == groups[i] && !pmudev_spec_is_cycles(specs[j]))
			return slot_of[i];	/* added with its group's first */
	for (int j = i; j < n; j++) {
		if (groups[j] != groups[i] || pmudev_spec_is_cycles(specs[j]))
			continue;
		members[k] = specs[j];
		at[k++] = j;
	}
	err = pmudev_add_group(pmu, members, (unsigned int)k, got);
	if (err) {
		for (int m = 0; m < k; m++)
			if (pmudev_event_error(members[m], pmudev_info(pmu), why, len))
				break;
		return err;
	}
	for (int m = 0; m < k; m++)
		slot_of[at[m]] = got[m];
	return slot_of[i];
}

/*
 * Spec @i of @ev, which the core @info does not implement, made one of
 * @run's <not supported> lines after the counters so far, named as its
 * counter would be (perf's way: the mode implied shown).
 */
static void unsupported(const struct stat_events *ev, int i, const struct armpmu_info *info,
			struct stat_run *run)
{
	struct stat_unsupported *u = &run->unsupported[run->nunsupported++];
	const char *spec = ev->specs[i];
	bool implied_u = !strchr(spec, ':') && !(info->flags & ARMPMU_INFO_KERNEL_ALLOWED);

	u->spec = spec;
	u->at = run->ncounters;
	snprintf(u->name, sizeof(u->name), "%s%s", ev->names[i] ? ev->names[i] : spec,
		 implied_u && !ev->names[i] ? ":u" : "");
	if (ev->verbose) {
		char why[200];

		pmudev_event_error(spec, info, why, sizeof(why));
		say("%s: <not supported>: %s", u->name, why);
	}
}

/*
 * Programs the events on the first file, and records what they are. An
 * event the core does not implement (QEMU's boards count instructions
 * only with -icount; a Cortex-A72 has no cache-misses) is not counted and
 * printed as perf prints it, <not supported>, in its place; the others
 * are counted (a group without it). More events than counters multiplex
 * (armpmu(4)); a {} group stays whole; -M's events are not a group, so a
 * metric larger than the counters is estimated from scaled counts, as
 * perf's fallback does.
 */
static int program_first(struct pmudev *pmu, struct stat_events *ev, struct stat_run *run)
{
	const struct armpmu_info *info = pmudev_info(pmu);
	struct pmudev_event event;
	char *specs[MAX_EVENTS + 1];
	int groups[MAX_EVENTS + 1], n = 0;
	int slot_of[MAX_EVENTS + 1];
	char why[200];
	int idx, err;

	if (ev->group && (err = stat_metric_group_check(ev->group, ev->group_as, info, why,
							       sizeof(why))) &&
	    err != -ENOSPC)
		return fail("%s", why);
	if (stat_events_check(ev, info))
		return EXIT_FAILURE;
	/* What the core implements, in -e's order; a group keeps its others. */
	for (int i = 0; i < ev->nspecs; i++) {
		if (pmudev_event_parse(ev->specs[i], info, &event) == -ENOENT)
			continue;
		specs[n] = ev->specs[i];
		groups[n++] = ev->group_of[i];
	}
	for (int i = 0, k = 0; i < ev->nspecs; i++) {
		const char *spec = ev->specs[i];

		if (k == n || spec != specs[k]) {
			unsupported(ev, i, info, run);
			continue;
		}
		idx = add_spec(pmu, specs, groups, n, k++, slot_of, why, sizeof(why));
		if (why[0])
			return fail("%s", why);
		if (idx == -ENOSPC)
			return fail("%d events, but armpmu counts at most %d at once (the cycle counter and %d event slots, multiplexed)",
				    ev->nspecs, ARMPMU_MAX_COUNTERS + 1, ARMPMU_MAX_COUNTERS);
		if (idx == -EACCES)
			return fail("%s: counting kernel mode needs CAP_PERFMON or CAP_SYS_ADMIN; count user mode with :u",
				    spec);
		if (idx < 0) {
			if (pmudev_event_error(spec, info, why, sizeof(why)))
				return fail("%s", why);
			return fail("%s: %s", spec, pmudev_strerror(idx));
		}
		struct counter *c = &run->counters[run->ncounters++];

		ev->programmed_group[ev->nprogrammed] = ev->group_of[i];
		ev->programmed[ev->nprogrammed++] = ev->specs[i];
		c->idx = (unsigned int)idx;
		snprintf(c->name, sizeof(c->name), "%s",
			 ev->names[i] ? ev->names[i] : pmudev_counter_name(pmu, c->idx));
		if (pmudev_event_parse(spec, info, &event))
			event = (struct pmudev_event){ 0 };
		c->event = idx == ARMPMU_CYCLE_COUNTER ? ARMPMU_EV_CPU_CYCLES : event.number;
		c->mode = event.flags & (ARMPMU_EXCLUDE_USER | ARMPMU_EXCLUDE_KERNEL);
	}
	run->info = *info;
	ev->known = true;
	return 0;
}

/*
 * Programs a later file like the first: the same specs in the same order
 * and groups get the same counters (allocation is deterministic).
 */
static int program(struct pmudev *pmu, struct stat_events *ev, struct stat_run *run)
{
	int slot_of[MAX_EVENTS];
	char why[200];

	if (!ev->known)
		return program_first(pmu, ev, run);
	for (int i = 0; i < ev->nprogrammed; i++) {
		int idx = add_spec(pmu, ev->programmed, ev->programmed_group, ev->nprogrammed, i,
				   slot_of, why, sizeof(why));

		if (idx < 0 || (unsigned int)idx != run->counters[i].idx)
			return fail("%s: %s", ev->programmed[i],
				    idx < 0 ? pmudev_strerror(idx) : "a different counter than before");
	}
	return 0;
}

int stat_files_open_command(struct stat_files *f, pid_t pid, bool on_exec,
			    struct stat_events *ev, struct stat_run *run)
{
	struct pmudev *pmu;
	int err;

	if (open_pmu(&pmu, PMUDEV_CPU_ANY, PMUDEV_OPEN_UNBOUND | PMUDEV_OPEN_MULTIPLEX))
		return EXIT_FAILURE;
	err = files_add(f, pmu);
	if (err) {
		pmudev_close(pmu);
		return fail("%s", strerror(-err));
	}
	err = pmudev_attach(pmu, pid, (run->target->no_inherit ? 0 : PMUDEV_ATTACH_FOLLOW) |
			    (on_exec ? PMUDEV_ATTACH_ENABLE_ON_EXEC : 0));
	if (err)
		return fail("cannot count the command: %s", pmudev_strerror(err));
	return program(pmu, ev, run);
}

/* Whether @tid is among the @n threads attached. */
static bool attached(const pid_t *tids, int n, pid_t tid)
{
	for (int i = 0; i < n; i++)
		if (tids[i] == tid)
			return true;
	return false;
}

/* A thread gone, or followed by another file already: not an error. */
#define SKIP_THREAD	(-1)

/* Attaches a file (FOLLOW) to thread @tid of @pid: 0, SKIP_THREAD, or the exit status. */
static int attach_thread(struct stat_files *f, pid_t pid, pid_t tid, struct stat_events *ev,
			 struct stat_run *run)
{
	struct pmudev *pmu;
	int err;

	if (open_pmu(&pmu, PMUDEV_CPU_ANY, PMUDEV_OPEN_UNBOUND | PMUDEV_OPEN_MULTIPLEX))
		return EXIT_FAILURE;
	err = pmudev_attach(pmu, tid, run->target->no_inherit ? 0 : PMUDEV_ATTACH_FOLLOW);
	if (err) {
		pmudev_close(pmu);
		if (err == -EACCES)
			return fail("not allowed to count %s %d: it must be yours (and not setuid), or you need CAP_PERFMON, CAP_SYS_ADMIN or CAP_SYS_PTRACE",
				    run->target->tids ? "thread" : "process", (int)pid);
		if (err == -ESRCH && run->target->tids)
			return fail("no thread %d", (int)tid);
		if (tid == pid && err == -EBUSY)
			return fail("%s %d is already counted by another armpmu file",
				    run->target->tids ? "thread" : "process", (int)pid);
		if (tid == pid || (err != -ESRCH && err != -EBUSY))
			return fail("cannot count thread %d: %s", (int)tid, pmudev_strerror(err));
		return SKIP_THREAD;
	}
	if (files_add(f, pmu)) {
		pmudev_close(pmu);
		return fail("out of memory");
	}
	run->threads++;
	return program(pmu, ev, run);
}

/*
 * Attaches a file (FOLLOW) to each thread of @pid not attached yet, as
 * /proc lists them (-t: @pid alone). A thread that has exited meanwhile
 * is skipped, and so is one another file counts already (EBUSY) unless it
 * is the main thread: on a second look, that is a thread an attached one
 * created, which its file follows.
 */
static int attach_threads(struct stat_files *f, pid_t pid, pid_t **tids, int *ntids,
			  struct stat_events *ev, struct stat_run *run)
{
	char dir_path[64];
	struct dirent *d;
	DIR *dir;
	int ret = 0;

	if (run->target->tids) {
		if (attached(*tids, *ntids, pid))
			return 0;
		if (kill(pid, 0) && errno == ESRCH)
			return fail("no thread %d", (int)pid);
		ret = attach_thread(f, pid, pid, ev, run);
		if (ret == SKIP_THREAD)
			return fail("no thread %d to count", (int)pid);
		goto keep;
	}
	snprintf(dir_path, sizeof(dir_path), "/proc/%d/task", (int)pid);
	dir = opendir(dir_path);
	if (!dir)
		return fail("no process %d", (int)pid);
	while (!ret && (d = readdir(dir))) {
		pid_t tid = (pid_t)strtol(d->d_name, NULL, 10), *more;

		if (tid <= 0 || attached(*tids, *ntids, tid))
			continue;
		ret = attach_thread(f, pid, tid, ev, run);
		if (ret == SKIP_THREAD) {
			ret = 0;
			continue;
		}
		more = realloc(*tids, (*ntids + 1) * sizeof(**tids));
		if (!more) {
			ret = fail("out of memory");
			break;
		}
		*tids = more;
		(*tids)[(*ntids)++] = tid;
	}
	closedir(dir);
	return ret;
keep:
	if (!ret) {
		pid_t *more = realloc(*tids, (*ntids + 1) * sizeof(**tids));

		if (!more)
			return fail("out of memory");
		*tids = more;
		(*tids)[(*ntids)++] = pid;
	}
	return ret;
}

int stat_files_open_process(struct stat_files *f, struct stat_events *ev, struct stat_run *run)
{
	pid_t *tids = NULL;
	int ntids = 0, ret = 0;

	/* A thread created before its creator was attached: look again. */
	for (int pass = 0; pass < 2 && !ret; pass++)
		for (int i = 0; i < run->target->npid_list && !ret; i++)
			ret = attach_threads(f, run->target->pid_list[i], &tids, &ntids, ev, run);
	free(tids);
	return ret;
}

int stat_files_open_cpus(struct stat_files *f, struct stat_events *ev, struct stat_run *run)
{
	int n = run->target->kind == TARGET_CPU ? run->target->ncpu_list : possible_cpus();

	for (int i = 0; i < n; i++) {
		int cpu = run->target->kind == TARGET_CPU ? run->target->cpu_list[i] : i;
		struct pmudev *pmu;
		int err = pmudev_open(&pmu, cpu, PMUDEV_OPEN_NO_PIN | PMUDEV_OPEN_MULTIPLEX), ret;

		if (err == -ENXIO && run->target->kind == TARGET_ALL_CPUS)
			continue;	/* offline: nothing runs there */
		if (err) {
			explain_open_error(err, cpu);
			return EXIT_FAILURE;
		}
		if (files_add(f, pmu)) {
			pmudev_close(pmu);
			return fail("out of memory");
		}
		run->cpus = f->n;
		ret = program(pmu, ev, run);
		if (ret)
			return ret;
	}
	return 0;
}

int stat_files_cpu(const struct stat_files *f, int i)
{
	return pmudev_cpu(f->pmu[i]);
}

/*
 * File @i's counts added to @sum, slot by slot: 0, -EIO if disturbed (the
 * counts read all the same), or another errno.
 */
static int read_file(const struct stat_files *f, int i, struct stat_sample *sum)
{
	struct {
		struct armpmu_read hdr;
		struct armpmu_slot slot[ARMPMU_MAX_COUNTERS];
	} rd = { .hdr.nr = ARMPMU_MAX_COUNTERS };
	int err = pmudev_read_slots(f->pmu[i], &rd.hdr);

	if (err && err != -EIO)
		return err;
	sum->flags |= rd.hdr.flags;
	sum->time_enabled += rd.hdr.time_enabled;
	sum->time_running += rd.hdr.time_running;
	for (int k = 0; k < ARMPMU_MAX_COUNTERS; k++) {
		sum->slot[k].value += rd.slot[k].value;
		sum->slot[k].time_enabled += rd.slot[k].time_enabled;
		sum->slot[k].time_running += rd.slot[k].time_running;
	}
	sum->slot[ARMPMU_CYCLE_COUNTER].value += rd.hdr.cycles;
	sum->slot[ARMPMU_CYCLE_COUNTER].time_enabled += rd.hdr.time_enabled;
	sum->slot[ARMPMU_CYCLE_COUNTER].time_running += rd.hdr.time_running;
	return err;
}

int stat_files_read_one(const struct stat_files *f, int i, struct stat_sample *s)
{
	*s = (struct stat_sample){ 0 };
	return read_file(f, i, s);
}

int stat_files_each(const struct stat_files *f, int (*op)(struct pmudev *))
{
	for (int i = 0; i < f->n; i++) {
		int err = op(f->pmu[i]);

		if (err)
			return err;
	}
	return 0;
}

int stat_files_thread_totals(const struct stat_files *f, struct armpmu_threads *sum)
{
	*sum = (struct armpmu_threads){ 0 };
	for (int i = 0; i < f->n; i++) {
		struct armpmu_threads th = { .nr = 0 };
		int err = pmudev_read_threads(f->pmu[i], &th);

		if (err)
			return err;
		sum->switches += th.switches;
		sum->migrations += th.migrations;
		sum->task_clock += th.task_clock;
	}
	return 0;
}

int stat_files_read(const struct stat_files *f, struct stat_sample *sum)
{
	int ret = 0;

	*sum = (struct stat_sample){ 0 };
	for (int i = 0; i < f->n; i++) {
		int err = read_file(f, i, sum);

		if (err && err != -EIO)
			return err;
		ret = ret ? ret : err;
	}
	return ret;
}
