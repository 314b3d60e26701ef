// SPDX-License-Identifier: GPL-2.0
/*
 * pmuctl record's file: the driver's records held, sorted by time and
 * written as perf.data's, with COMM, FORK and EXIT as the kernel writes
 * them for perf, and MMAP2 for each executable mapping that a look at
 * /proc/PID/maps finds new (record-file.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/sysmacros.h>
#include <linux/armpmu.h>
#include <linux/perf_event.h>
#include <elfutils/libdwelf.h>
#include <libelf.h>

#include "pmuctl.h"
#include "record-file.h"
#include "record-unwind.h"

/* At one time: tasks first, then mappings, samples, and ends last. */
enum order { ORDER_TASK, ORDER_MAP, ORDER_SAMPLE, ORDER_END };

/* A held record: the driver's (raw), or a mapping found in /proc. */
struct held {
	uint64_t time;
	uint64_t seq;
	enum order order;
	struct perfdata_where where;
	struct perfdata_map map;	/* map.path set: a mapping (its path in raw) */
	void *raw;			/* else the driver's record */
};

struct mapping {
	uint64_t start, end, pgoff, ino;
	uint32_t maj, min, prot;
	char *path;
};

struct process {
	uint32_t pid;
	bool alive;		/* its maps are worth a look */
	uint64_t since;		/* a new mapping's time */
	struct mapping *maps;
	size_t nmaps;
};

struct record_file {
	struct perfdata *pd;
	unsigned int nevents;
	struct record_source src[PERFDATA_MAX_EVENTS];
	struct held *held;
	size_t nheld, room;
	uint64_t seq;
	struct process *procs;
	size_t nprocs;
	struct record_stats stats;
	char **paths;		/* every file mapped, for their build IDs */
	size_t npaths;
	struct record_unwind *unwind;	/* with call chains: is lr the caller? */
	uint64_t *ips;		/* a sample's chain as perf gets it */
	int error;
};

int record_file_open(struct record_file **rfp, const char *path, const struct perfdata_config *cfg,
		     const struct record_source *src)
{
	struct record_file *rf = calloc(1, sizeof(*rf));
	int err;

	if (!rf)
		return -ENOMEM;
	err = 0;
	if (cfg->callchain) {
		err = record_unwind_new(&rf->unwind);
		rf->ips = malloc((3 + ARMPMU_MAX_STACK_LIMIT) * sizeof(*rf->ips));
		if (!err && !rf->ips)
			err = -ENOMEM;
	}
	err = err ? err : perfdata_create(&rf->pd, path, cfg);
	if (err) {
		record_unwind_free(rf->unwind);
		free(rf->ips);
		free(rf);
		return err;
	}
	rf->nevents = cfg->nevents;
	memcpy(rf->src, src, (cfg->nevents - 1) * sizeof(*src));
	*rfp = rf;
	return 0;
}

static struct held *hold(struct record_file *rf, uint64_t time, enum order order)
{
	struct held *h;

	if (rf->nheld == rf->room) {
		size_t room = rf->room ? rf->room * 2 : 1024;

		h = realloc(rf->held, room * sizeof(*h));
		if (!h) {
			rf->error = -ENOMEM;
			return NULL;
		}
		rf->held = h;
		rf->room = room;
	}
	h = &rf->held[rf->nheld++];
	memset(h, 0, sizeof(*h));
	h->time = time;
	h->seq = rf->seq++;
	h->order = order;
	return h;
}

/* ---- processes and their mappings ---- */

static struct process *process(struct record_file *rf, uint32_t pid, bool add)
{
	struct process *p;

	for (size_t i = 0; i < rf->nprocs; i++)
		if (rf->procs[i].pid == pid)
			return &rf->procs[i];
	if (!add)
		return NULL;
	p = realloc(rf->procs, (rf->nprocs + 1) * sizeof(*p));
	if (!p) {
		rf->error = -ENOMEM;
		return NULL;
	}
	rf->procs = p;
	p += rf->nprocs++;
	memset(p, 0, sizeof(*p));
	p->pid = pid;
	p->alive = true;
	return p;
}

static void forget_maps(struct process *p)
{
	for (size_t i = 0; i < p->nmaps; i++)
		free(p->maps[i].path);
	free(p->maps);
	p->maps = NULL;
	p->nmaps = 0;
}

static bool known(const struct process *p, const struct mapping *m)
{
	for (size_t i = 0; i < p->nmaps; i++) {
		const struct mapping *k = &p->maps[i];

		if (k->start == m->start && k->end == m->end && k->pgoff == m->pgoff &&
		    k->ino == m->ino && !strcmp(k->path, m->path))
			return true;
	}
	return false;
}

/* A copy of @from's mappings for its child @to, as perf copies them at a fork. */
static void inherit_maps(struct record_file *rf, struct process *to, const struct process *from)
{
	for (size_t i = 0; i < from->nmaps && !rf->error; i++) {
		struct mapping *m = realloc(to->maps, (to->nmaps + 1) * sizeof(*m));

		if (!m) {
			rf->error = -ENOMEM;
			return;
		}
		to->maps = m;
		m += to->nmaps;
		*m = from->maps[i];
		m->path = strdup(from->maps[i].path);
		if (!m->path) {
			rf->error = -ENOMEM;
			return;
		}
		to->nmaps++;
	}
}

/* A file mapped, once, for the BUILD_ID feature at the end. */
static void remember_path(struct record_file *rf, const char *path)
{
	char **paths;

	if (*path != '/')
		return;
	for (size_t i = 0; i < rf->npaths; i++)
		if (!strcmp(rf->paths[i], path))
			return;
	paths = realloc(rf->paths, (rf->npaths + 1) * sizeof(*paths));
	if (!paths || !(paths[rf->npaths] = strdup(path))) {
		if (paths)
			rf->paths = paths;
		return;		/* a build ID less: perf goes by the path */
	}
	rf->paths = paths;
	rf->npaths++;
}

/* Each mapped file's GNU build ID, as perf record lists them (with elfutils). */
static void add_build_ids(struct record_file *rf)
{
	elf_version(EV_CURRENT);
	for (size_t i = 0; i < rf->npaths; i++) {
		int fd = open(rf->paths[i], O_RDONLY | O_CLOEXEC);
		const void *id;
		ssize_t len;
		Elf *elf;

		if (fd < 0)
			continue;
		elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
		len = elf ? dwelf_elf_gnu_build_id(elf, &id) : -1;
		if (len > 0 && len <= 20)
			perfdata_build_id(rf->pd, rf->paths[i], id, (size_t)len);
		if (elf)
			elf_end(elf);
		close(fd);
	}
}

/* One line of /proc/PID/maps: true for an executable mapping perf would record. */
static bool parse_map(char *line, struct mapping *m)
{
	unsigned long long start, end, pgoff, ino;
	unsigned int maj, min;
	char perms[8];
	int n = 0;
	char *path;

	if (sscanf(line, "%llx-%llx %7s %llx %x:%x %llu %n", &start, &end, perms, &pgoff, &maj,
		   &min, &ino, &n) < 7 || !n || perms[2] != 'x')
		return false;
	path = line + n;
	path[strcspn(path, "\n")] = '\0';
	if (!*path)
		return false;	/* anonymous code (a JIT's): nothing to name it by */
	/* The kernel's pages ([vsyscall], [vectors]): perf gets no MMAP for them. */
	if (*path == '[' && strcmp(path, "[vdso]"))
		return false;
	*m = (struct mapping){
		.start = start, .end = end, .pgoff = pgoff, .ino = ino, .maj = maj, .min = min,
		.prot = (perms[0] == 'r' ? PROT_READ : 0) | (perms[1] == 'w' ? PROT_WRITE : 0) |
			PROT_EXEC,
		.path = path,
	};
	return true;
}

/* Holds an MMAP2 for each executable mapping of @p not known yet. */
static void scan(struct record_file *rf, struct process *p, uint64_t now)
{
	char name[64], line[4096 + 128];
	struct mapping m;
	FILE *f;
	bool any = false;

	snprintf(name, sizeof(name), "/proc/%" PRIu32 "/maps", p->pid);
	f = fopen(name, "r");
	if (!f) {
		p->alive = false;
		return;
	}
	while (fgets(line, sizeof(line), f) && !rf->error) {
		struct mapping *k;
		struct held *h;

		if (!parse_map(line, &m))
			continue;
		any = true;
		if (known(p, &m))
			continue;
		k = realloc(p->maps, (p->nmaps + 1) * sizeof(*k));
		if (!k || !(m.path = strdup(m.path))) {
			rf->error = -ENOMEM;
			break;
		}
		p->maps = k;
		p->maps[p->nmaps++] = m;
		remember_path(rf, m.path);
		h = hold(rf, p->since, ORDER_MAP);
		if (!h)
			break;
		/* Its own copy of the path: the process may forget its maps first. */
		h->raw = strdup(m.path);
		if (!h->raw) {
			rf->error = -ENOMEM;
			break;
		}
		h->where = (struct perfdata_where){ .pid = p->pid, .tid = p->pid, .time = p->since };
		h->map = (struct perfdata_map){
			.start = m.start, .len = m.end - m.start, .pgoff = m.pgoff, .maj = m.maj,
			.min = m.min, .ino = m.ino, .prot = m.prot, .flags = MAP_PRIVATE,
			.path = h->raw,
		};
	}
	fclose(f);
	/* A process that has exited (a zombie) has no mappings left. */
	if (!any)
		p->alive = false;
	p->since = now;
}

void record_file_scan(struct record_file *rf, uint64_t now)
{
	for (size_t i = 0; i < rf->nprocs; i++)
		if (rf->procs[i].alive)
			scan(rf, &rf->procs[i], now);
}

/* ---- the driver's records ---- */

int record_file_thread(struct record_file *rf, uint32_t pid, uint32_t tid, uint64_t time,
		       const char *name)
{
	char path[64], comm[32] = "";
	struct armpmu_task_record *t;
	struct process *p;
	struct held *h;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%" PRIu32 "/task/%" PRIu32 "/comm", pid, tid);
	f = name ? NULL : fopen(path, "r");
	if (f) {
		if (fgets(comm, sizeof(comm), f))
			comm[strcspn(comm, "\n")] = '\0';
		fclose(f);
	} else if (name) {
		snprintf(comm, sizeof(comm), "%s", name);
	}
	p = process(rf, pid, true);
	if (p && !p->nmaps)
		p->since = time;
	t = calloc(1, sizeof(*t));
	h = t ? hold(rf, time, ORDER_TASK) : NULL;
	if (!h) {
		free(t);
		return rf->error ? rf->error : -ENOMEM;
	}
	/* Written as the kernel's COMM of an exec, without its flag. */
	t->head = (struct armpmu_record){ .type = 0, .size = sizeof(*t), .pid = pid, .tid = tid,
					  .time = time };
	snprintf(t->comm, sizeof(t->comm), "%s", comm);
	h->raw = t;
	return 0;
}

static uint64_t stored_size(const struct armpmu_record *r)
{
	return r->size;
}

/* The checks a record must pass before it is looked into. */
static bool well_formed(const struct armpmu_record *r, size_t left)
{
	size_t need;

	if (left < sizeof(*r) || r->size < sizeof(*r) || r->size > left || r->size % 8)
		return false;
	switch (r->type) {
	case ARMPMU_RECORD_SAMPLE: {
		const struct armpmu_sample *s = (const void *)r;
		const struct armpmu_callchain *c;

		need = sizeof(struct armpmu_sample);
		if (r->size < need || s->nr > ARMPMU_MAX_COUNTERS ||
		    r->size < ARMPMU_SAMPLE_SIZE(s->nr))
			return false;
		if (!(s->flags & ARMPMU_SAMPLE_CALLCHAIN))
			return true;
		c = (const void *)&s->value[s->nr];
		need = ARMPMU_SAMPLE_SIZE(s->nr) + sizeof(*c);
		return r->size >= need && c->nr <= ARMPMU_MAX_STACK_LIMIT &&
		       r->size >= ARMPMU_SAMPLE_SIZE(s->nr) + ARMPMU_CALLCHAIN_SIZE(c->nr);
	}
	case ARMPMU_RECORD_LOST:
		return r->size >= sizeof(struct armpmu_lost);
	case ARMPMU_RECORD_FORK:
	case ARMPMU_RECORD_EXEC:
	case ARMPMU_RECORD_EXIT:
	case ARMPMU_RECORD_LET_GO:
		return r->size >= sizeof(struct armpmu_task_record);
	default:
		return true;	/* a kind this pmuctl does not know: skipped */
	}
}

static enum order order_of(uint16_t type)
{
	switch (type) {
	case ARMPMU_RECORD_SAMPLE:
	case ARMPMU_RECORD_LOST:
		return ORDER_SAMPLE;
	case ARMPMU_RECORD_EXIT:
	case ARMPMU_RECORD_LET_GO:
		return ORDER_END;
	default:
		return ORDER_TASK;
	}
}

/* What a task record tells about the processes, as it is taken in. */
static void note_task(struct record_file *rf, const struct armpmu_task_record *t)
{
	struct process *p, *parent;

	switch (t->head.type) {
	case ARMPMU_RECORD_FORK:
		if (t->head.pid == t->ppid || process(rf, t->head.pid, false))
			break;
		p = process(rf, t->head.pid, true);
		parent = process(rf, t->ppid, false);
		if (!p)
			break;
		p->since = t->head.time;
		if (parent)
			inherit_maps(rf, p, parent);
		break;
	case ARMPMU_RECORD_EXEC:
		/* A new program: its mappings are all new, dated at the exec. */
		p = process(rf, t->head.pid, true);
		if (!p)
			break;
		forget_maps(p);
		p->alive = true;
		p->since = t->head.time;
		break;
	}
}

int record_file_add(struct record_file *rf, const void *buf, size_t len)
{
	const char *at = buf;

	while (len) {
		const struct armpmu_record *r = (const void *)at;
		struct held *h;
		void *copy;

		if (!well_formed(r, len))
			return -EPROTO;
		at += r->size;
		len -= r->size;
		if (r->type < ARMPMU_RECORD_SAMPLE || r->type > ARMPMU_RECORD_LET_GO)
			continue;
		if (r->type != ARMPMU_RECORD_LOST && !r->pid)
			continue;	/* a thread outside our PID namespace */
		copy = malloc(stored_size(r));
		h = copy ? hold(rf, r->time, order_of(r->type)) : NULL;
		if (!h) {
			free(copy);
			return rf->error ? rf->error : -ENOMEM;
		}
		memcpy(copy, r, stored_size(r));
		h->raw = copy;
		if (r->type != ARMPMU_RECORD_SAMPLE && r->type != ARMPMU_RECORD_LOST)
			note_task(rf, copy);
	}
	return rf->error;
}

/*
 * Whether @lr is the caller of the code at @ip in process @pid: its
 * mapping's file's unwind table says whether the return address is still
 * in x30 there (record-unwind.h).
 */
static bool lr_is_caller(struct record_file *rf, uint32_t pid, uint64_t ip)
{
	const struct process *p = process(rf, pid, false);

	for (size_t i = 0; p && i < p->nmaps; i++) {
		const struct mapping *m = &p->maps[i];

		if (ip >= m->start && ip < m->end)
			return *m->path == '/' &&
			       record_unwind_lr(rf->unwind, m->path, ip - m->start + m->pgoff) ==
				       RECORD_LR_CALLER;
	}
	return false;
}

/*
 * @s's chain in rf->ips as the kernel gives perf one (perfdata.h): the
 * context, the PC, the caller in lr where it is one, the return addresses
 * the driver walked. Its length.
 */
static uint32_t chain_of(struct record_file *rf, const struct armpmu_sample *s, uint32_t pid)
{
	const struct armpmu_callchain *c = (const void *)&s->value[s->nr];
	uint32_t n = 0, nr = c->nr < ARMPMU_MAX_STACK_LIMIT ? c->nr : ARMPMU_MAX_STACK_LIMIT;

	rf->ips[n++] = PERF_CONTEXT_USER;
	rf->ips[n++] = s->ip;
	rf->stats.chains_cut += !!(c->flags & ARMPMU_CHAIN_CUT);
	rf->stats.no_frames += !!(c->flags & ARMPMU_CHAIN_NO_FRAMES);
	if (!(c->flags & ARMPMU_CHAIN_NO_FRAMES) && c->lr && lr_is_caller(rf, pid, s->ip))
		rf->ips[n++] = c->lr;
	memcpy(rf->ips + n, c->ret, nr * sizeof(*c->ret));
	return n + nr;
}

static int write_sample(struct record_file *rf, const struct armpmu_sample *s,
			const struct perfdata_where *w)
{
	uint64_t counted[PERFDATA_MAX_EVENTS] = { 0 };

	for (unsigned int i = 0; i + 1 < rf->nevents; i++) {
		const struct record_source *src = &rf->src[i];

		if (src->cycles)
			counted[i] = s->cycles;
		else if (src->slot < s->nr)
			counted[i] = s->value[src->slot];
	}
	rf->stats.samples++;
	if (!(s->flags & ARMPMU_SAMPLE_CALLCHAIN) || !rf->ips)
		return perfdata_sample(rf->pd, w, s->ip, s->flags & ARMPMU_SAMPLE_KERNEL, s->period,
				       counted, NULL, 0);
	return perfdata_sample(rf->pd, w, s->ip, false, s->period, counted, rf->ips,
			       chain_of(rf, s, w->pid));
}

static int write_raw(struct record_file *rf, const struct armpmu_record *r)
{
	const struct armpmu_task_record *t = (const void *)r;
	struct perfdata_where w = { .pid = r->pid, .tid = r->tid, .time = r->time, .cpu = r->cpu };
	char comm[sizeof(t->comm) + 1];

	switch (r->type) {
	case ARMPMU_RECORD_SAMPLE:
		return write_sample(rf, (const void *)r, &w);
	case ARMPMU_RECORD_LOST:
		rf->stats.lost += ((const struct armpmu_lost *)r)->lost;
		return perfdata_lost(rf->pd, &w, ((const struct armpmu_lost *)r)->lost);
	case ARMPMU_RECORD_FORK:
		return perfdata_fork(rf->pd, &w, t->ppid, t->ptid);
	case 0:			/* a thread there before: record_file_thread() */
	case ARMPMU_RECORD_EXEC:
		snprintf(comm, sizeof(comm), "%.*s", (int)sizeof(t->comm), t->comm);
		return perfdata_comm(rf->pd, &w, comm, r->type == ARMPMU_RECORD_EXEC);
	case ARMPMU_RECORD_LET_GO:
		snprintf(comm, sizeof(comm), "%.*s", (int)sizeof(t->comm), t->comm);
		say("%s (thread %" PRIu32 ") executed a program it may not be recorded in "
		    "(set-user-ID, set-group-ID or with capabilities) and was let go",
		    comm, r->tid);
		rf->stats.let_go++;
		/* perf's events leave such a thread with an EXIT. */
		return perfdata_exit(rf->pd, &w, t->ppid, t->ppid);
	case ARMPMU_RECORD_EXIT:
		/* The kernel's EXIT: the parent process's ID, twice. */
		return perfdata_exit(rf->pd, &w, t->ppid, t->ppid);
	}
	return 0;
}

static int by_time(const void *a, const void *b)
{
	const struct held *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	if (x->order != y->order)
		return x->order < y->order ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

int record_file_flush(struct record_file *rf, uint64_t before)
{
	size_t n = 0;
	int err = rf->error;

	qsort(rf->held, rf->nheld, sizeof(*rf->held), by_time);
	for (; n < rf->nheld && rf->held[n].time < before; n++) {
		struct held *h = &rf->held[n];

		if (!err)
			err = h->map.path ? perfdata_mmap2(rf->pd, &h->where, &h->map) :
					    write_raw(rf, h->raw);
		free(h->raw);
	}
	memmove(rf->held, rf->held + n, (rf->nheld - n) * sizeof(*rf->held));
	rf->nheld -= n;
	if (err && !rf->error)
		rf->error = err;
	return err;
}

void record_file_stats(const struct record_file *rf, struct record_stats *st)
{
	*st = rf->stats;
	st->bytes = perfdata_bytes(rf->pd);
}

int record_file_close(struct record_file *rf, struct record_stats *st)
{
	int err = record_file_flush(rf, UINT64_MAX), err2;

	record_file_stats(rf, st);
	add_build_ids(rf);
	err2 = perfdata_finish(rf->pd);
	for (size_t i = 0; i < rf->npaths; i++)
		free(rf->paths[i]);
	free(rf->paths);
	for (size_t i = 0; i < rf->nprocs; i++)
		forget_maps(&rf->procs[i]);
	free(rf->procs);
	free(rf->held);
	record_unwind_free(rf->unwind);
	free(rf->ips);
	free(rf);
	return err ? err : err2;
}
