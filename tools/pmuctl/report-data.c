// SPDX-License-Identifier: GPL-2.0
/*
 * pmuctl report's reading of perf.data (report-data.h), by the layout of
 * Linux's tools/perf/Documentation/perf.data-file-format.txt and the
 * records of include/uapi/linux/perf_event.h: the file is mapped, its
 * records sorted by time, and each sample's weights summed into the row
 * its thread, file and function make.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/perf_event.h>
#include <sys/mman.h>
#include <sys/stat.h>

#include "pmuctl.h"
#include "report-data.h"
#include "report-symbols.h"

#define PERF_MAGIC	0x32454c4946524550ULL
#define FEAT_EVENT_DESC	12
#define FEAT_GROUP_DESC	17

struct section {
	uint64_t offset, size;
};

struct header {
	uint64_t magic, size, attr_size;
	struct section attrs, data, event_types;
	uint64_t features[4];
};

struct map {
	uint64_t start, end, pgoff;
	const char *path;	/* in the mapped file */
	size_t path_len;
};

struct process {
	uint32_t pid;
	struct map *maps;
	size_t nmaps;
};

struct thread {
	uint32_t tid, pid;
	char comm[32];
};

struct id {
	uint64_t id;
	unsigned int event;
	uint64_t last;		/* its previous group value */
};

struct rec {
	uint64_t time;
	size_t index;
	const struct perf_event_header *h;
};

struct reader {
	const char *base;
	size_t size;
	struct header hdr;
	uint64_t sample_type, read_format;
	bool sample_id_all;
	struct id *ids;		/* perf has an ID per event and CPU or thread */
	size_t nids;
	struct thread *threads;
	size_t nthreads;
	struct process *procs;
	size_t nprocs;
	struct report_symbols *syms;
	const enum report_key *keys;
	unsigned int nkeys;
	size_t *hash;		/* rows + 1, 0 empty */
	size_t hash_size;
	struct report *r;
};

int report_key_parse(const char *name, enum report_key *key)
{
	static const char *const names[] = { "comm", "pid", "dso", "sym" };

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (!strcmp(name, names[i]) || (i == KEY_SYM && !strcmp(name, "symbol"))) {
			*key = (enum report_key)i;
			return 0;
		}
	}
	return -1;
}

static const void *at(const struct reader *rd, uint64_t off, uint64_t len)
{
	return off <= rd->size && len <= rd->size - off ? rd->base + off : NULL;
}

/* ---- the header, the attributes, the features ---- */

static int read_attrs(struct reader *rd)
{
	const struct header *h = &rd->hdr;
	uint64_t n = h->attr_size ? h->attrs.size / h->attr_size : 0;
	struct report *r = rd->r;

	if (!n || n > REPORT_MAX_EVENTS || h->attr_size < PERF_ATTR_SIZE_VER0 + 16)
		return -EPROTO;
	for (uint64_t i = 0; i < n; i++) {
		const struct perf_event_attr *a = at(rd, h->attrs.offset + i * h->attr_size,
						     h->attr_size);
		const struct section *ids;
		const uint64_t *id;
		struct id *more;

		if (!a)
			return -EPROTO;
		ids = (const void *)((const char *)a + h->attr_size - sizeof(*ids));
		id = at(rd, ids->offset, ids->size);
		if (!id || ids->size % 8)
			return -EPROTO;
		more = realloc(rd->ids, (rd->nids + ids->size / 8) * sizeof(*more));
		if (!more)
			return -ENOMEM;
		rd->ids = more;
		for (uint64_t k = 0; k < ids->size / 8; k++)
			rd->ids[rd->nids++] = (struct id){ .id = id[k], .event = (unsigned int)i };
		if (!i) {
			rd->sample_type = a->sample_type;
			rd->read_format = a->read_format;
			rd->sample_id_all = a->sample_id_all;
		}
		snprintf(r->names[i], sizeof(r->names[i]), "%s%s",
			 a->type == PERF_TYPE_SOFTWARE && a->config == PERF_COUNT_SW_CPU_CLOCK ?
			 "cpu-clock" : "event", a->exclude_kernel ? ":u" : "");
	}
	r->nevents = (unsigned int)n;
	return 0;
}

/* The feature @feat's section, or NULL: the table follows the data. */
static const struct section *feature(const struct reader *rd, int feat)
{
	const struct header *h = &rd->hdr;
	int index = 0;

	if (!(h->features[feat / 64] & (1ULL << (feat % 64))))
		return NULL;
	for (int b = 0; b < feat; b++)
		index += !!(h->features[b / 64] & (1ULL << (b % 64)));
	return at(rd, h->data.offset + h->data.size + (uint64_t)index * sizeof(struct section),
		  sizeof(struct section));
}

/* The events' names from HEADER_EVENT_DESC. */
static void read_names(struct reader *rd)
{
	const struct section *s = feature(rd, FEAT_EVENT_DESC);
	const uint32_t *p;
	uint64_t off;
	uint32_t nr, attr_size;

	if (!s || !(p = at(rd, s->offset, 8)))
		return;
	nr = p[0];
	attr_size = p[1];
	off = s->offset + 8;
	for (uint32_t i = 0; i < nr && i < rd->r->nevents; i++) {
		const uint32_t *nids = at(rd, off + attr_size, 8), *len;
		const char *name;

		if (!nids)
			return;
		len = nids + 1;
		name = at(rd, off + attr_size + 8, *len);
		if (!name)
			return;
		snprintf(rd->r->names[i], sizeof(rd->r->names[i]), "%.*s", (int)*len, name);
		off += attr_size + 8 + *len + (uint64_t)*nids * 8;
	}
}

/* ---- threads and processes ---- */

static struct thread *thread(struct reader *rd, uint32_t pid, uint32_t tid)
{
	struct thread *t;

	for (size_t i = 0; i < rd->nthreads; i++)
		if (rd->threads[i].tid == tid)
			return &rd->threads[i];
	t = realloc(rd->threads, (rd->nthreads + 1) * sizeof(*t));
	if (!t)
		return NULL;
	rd->threads = t;
	t += rd->nthreads++;
	*t = (struct thread){ .tid = tid, .pid = pid };
	snprintf(t->comm, sizeof(t->comm), ":%u", tid);
	return t;
}

static struct process *process(struct reader *rd, uint32_t pid)
{
	struct process *p;

	for (size_t i = 0; i < rd->nprocs; i++)
		if (rd->procs[i].pid == pid)
			return &rd->procs[i];
	p = realloc(rd->procs, (rd->nprocs + 1) * sizeof(*p));
	if (!p)
		return NULL;
	rd->procs = p;
	p += rd->nprocs++;
	*p = (struct process){ .pid = pid };
	return p;
}

/* A new mapping replaces what it overlaps, as perf's maps do. */
static void add_map(struct process *p, const struct map *m)
{
	size_t n = 0;

	for (size_t i = 0; i < p->nmaps; i++)
		if (p->maps[i].end <= m->start || p->maps[i].start >= m->end)
			p->maps[n++] = p->maps[i];
	p->nmaps = n;
	struct map *maps = realloc(p->maps, (n + 1) * sizeof(*maps));

	if (!maps)
		return;
	p->maps = maps;
	p->maps[p->nmaps++] = *m;
}

static void fork_process(struct reader *rd, uint32_t pid, uint32_t ppid)
{
	struct process *parent = process(rd, ppid), *child;
	size_t pi = parent ? (size_t)(parent - rd->procs) : 0;

	child = process(rd, pid);	/* may move the array */
	if (!parent || !child)
		return;
	parent = &rd->procs[pi];
	free(child->maps);
	child->maps = parent->nmaps ? malloc(parent->nmaps * sizeof(*child->maps)) : NULL;
	child->nmaps = child->maps ? parent->nmaps : 0;
	if (child->maps)
		memcpy(child->maps, parent->maps, parent->nmaps * sizeof(*child->maps));
}

/* ---- records ---- */

/* The time of a record: a sample's, else its trailing sample ID's. */
static bool record_time(const struct reader *rd, const struct perf_event_header *h, uint64_t *time)
{
	uint64_t st = rd->sample_type, off;

	if (!(st & PERF_SAMPLE_TIME))
		return false;
	if (h->type == PERF_RECORD_SAMPLE) {
		off = sizeof(*h) + 8 * (!!(st & PERF_SAMPLE_IDENTIFIER) + !!(st & PERF_SAMPLE_IP) +
					!!(st & PERF_SAMPLE_TID));
	} else {
		if (!rd->sample_id_all || h->type >= PERF_RECORD_MAX)
			return false;
		unsigned int trailer = 8 * (!!(st & PERF_SAMPLE_TID) + 1 + !!(st & PERF_SAMPLE_ID) +
					    !!(st & PERF_SAMPLE_STREAM_ID) + !!(st & PERF_SAMPLE_CPU) +
					    !!(st & PERF_SAMPLE_IDENTIFIER));

		if (h->size < sizeof(*h) + trailer)
			return false;
		off = h->size - trailer + 8 * !!(st & PERF_SAMPLE_TID);
	}
	if (off + 8 > h->size)
		return false;
	memcpy(time, (const char *)h + off, 8);
	return true;
}

static int by_time(const void *a, const void *b)
{
	const struct rec *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->index < y->index ? -1 : x->index > y->index;
}

static struct id *id_of(const struct reader *rd, uint64_t id)
{
	for (size_t i = 0; i < rd->nids; i++)
		if (rd->ids[i].id == id)
			return &rd->ids[i];
	return NULL;
}

static int event_of(const struct reader *rd, uint64_t id)
{
	const struct id *i = id_of(rd, id);

	return i ? (int)i->event : rd->r->nevents == 1 ? 0 : -1;
}

static size_t hash_of(const char *s)
{
	size_t h = 5381;

	while (*s)
		h = h * 33 + (unsigned char)*s++;
	return h;
}

/* The row for these key values, made if new. */
static struct report_row *row(struct reader *rd, char **vals)
{
	struct report *r = rd->r;
	char joined[1024] = "";
	size_t h, len = 0;

	for (unsigned int k = 0; k < rd->nkeys; k++)
		len += (size_t)snprintf(joined + len, sizeof(joined) - len, "%s\x1f", vals[k]);
	if (r->nrows * 2 >= rd->hash_size) {
		size_t size = rd->hash_size ? rd->hash_size * 2 : 1024, *hash = calloc(size, sizeof(*hash));

		if (!hash)
			return NULL;
		free(rd->hash);
		rd->hash = hash;
		rd->hash_size = size;
		for (size_t i = 0; i < r->nrows; i++) {
			char j[1024] = "";
			size_t l = 0;

			for (unsigned int k = 0; k < rd->nkeys; k++)
				l += (size_t)snprintf(j + l, sizeof(j) - l, "%s\x1f", r->rows[i].key[k]);
			for (h = hash_of(j) % size; hash[h]; h = (h + 1) % size)
				;
			hash[h] = i + 1;
		}
	}
	for (h = hash_of(joined) % rd->hash_size; rd->hash[h]; h = (h + 1) % rd->hash_size) {
		struct report_row *x = &r->rows[rd->hash[h] - 1];
		unsigned int k = 0;

		while (k < rd->nkeys && !strcmp(x->key[k], vals[k]))
			k++;
		if (k == rd->nkeys)
			return x;
	}
	struct report_row *rows = realloc(r->rows, (r->nrows + 1) * sizeof(*rows));

	if (!rows)
		return NULL;
	r->rows = rows;
	rows += r->nrows;
	memset(rows, 0, sizeof(*rows));
	for (unsigned int k = 0; k < rd->nkeys; k++)
		if (!(rows->key[k] = strdup(vals[k])))
			return NULL;
	rd->hash[h] = ++r->nrows;
	return rows;
}

/* The row a sample of thread @tid at @ip goes to. */
static struct report_row *sample_row(struct reader *rd, uint32_t pid, uint32_t tid, uint64_t ip,
				     bool kernel)
{
	struct thread *t = thread(rd, pid, tid);
	struct process *p = process(rd, pid);
	const struct map *m = NULL;
	char pidbuf[48], dso[256], sym[512], *vals[REPORT_MAX_KEYS];
	const char *name = NULL;
	uint64_t addr = ip;

	if (!t || !p)
		return NULL;
	for (size_t i = 0; i < p->nmaps && !kernel; i++)
		if (ip >= p->maps[i].start && ip < p->maps[i].end)
			m = &p->maps[i];
	if (m) {
		char path[4096];
		const char *slash;

		snprintf(path, sizeof(path), "%.*s", (int)m->path_len, m->path);
		slash = strrchr(path, '/');
		snprintf(dso, sizeof(dso), "%.255s", slash ? slash + 1 : path);
		name = report_symbols_find(rd->syms, path, m->start, m->pgoff, ip, &addr);
	} else {
		snprintf(dso, sizeof(dso), kernel ? "[kernel]" : "[unknown]");
	}
	if (name)
		snprintf(sym, sizeof(sym), "[%c] %s", kernel ? 'k' : '.', name);
	else
		snprintf(sym, sizeof(sym), "[%c] 0x%016llx", kernel ? 'k' : '.', (unsigned long long)addr);
	snprintf(pidbuf, sizeof(pidbuf), "%7u:%s", tid, t->comm);	/* perf's */
	for (unsigned int k = 0; k < rd->nkeys; k++)
		vals[k] = rd->keys[k] == KEY_COMM ? t->comm : rd->keys[k] == KEY_PID ? pidbuf :
			  rd->keys[k] == KEY_DSO ? dso : sym;
	return row(rd, vals);
}

static void add_weight(struct reader *rd, struct report_row *rw, int ev, uint64_t w)
{
	/* perf delivers no sample of no weight. */
	if (ev < 0 || !rw || !w)
		return;
	rw->weight[ev] += w;
	rd->r->totals[ev] += w;
	rd->r->weighed[ev]++;
}

static void take_sample(struct reader *rd, const struct perf_event_header *h)
{
	const uint64_t *p = (const void *)(h + 1), *end = (const void *)((const char *)h + h->size);
	uint64_t st = rd->sample_type, ip = 0, id = 0, period = 1;
	uint32_t pid = 0, tid = 0;
	struct report_row *rw;

#define NEXT(v) do { if (p >= end) return; (v) = *p++; } while (0)
	if (st & PERF_SAMPLE_IDENTIFIER)
		NEXT(id);
	if (st & PERF_SAMPLE_IP)
		NEXT(ip);
	if (st & PERF_SAMPLE_TID) {
		uint64_t v;

		NEXT(v);
		memcpy(&pid, &v, 4);
		memcpy(&tid, (const char *)&v + 4, 4);
	}
	if (st & PERF_SAMPLE_TIME)
		p++;
	if (st & PERF_SAMPLE_ADDR)
		p++;
	if (st & PERF_SAMPLE_ID)
		NEXT(id);
	if (st & PERF_SAMPLE_STREAM_ID)
		p++;
	if (st & PERF_SAMPLE_CPU)
		p++;
	if (st & PERF_SAMPLE_PERIOD)
		NEXT(period);
	rd->r->samples++;
	rw = sample_row(rd, pid, tid, ip, (h->misc & PERF_RECORD_MISC_CPUMODE_MASK) ==
					 PERF_RECORD_MISC_KERNEL);
	if (!(st & PERF_SAMPLE_READ) || !(rd->read_format & PERF_FORMAT_GROUP) ||
	    !(rd->read_format & PERF_FORMAT_ID)) {
		add_weight(rd, rw, event_of(rd, id), period);
		return;
	}
	/* A group read: each value's difference from its previous one. */
	uint64_t nr;

	NEXT(nr);
	if (rd->read_format & PERF_FORMAT_TOTAL_TIME_ENABLED)
		p++;
	if (rd->read_format & PERF_FORMAT_TOTAL_TIME_RUNNING)
		p++;
	for (uint64_t i = 0; i < nr; i++) {
		uint64_t value, vid;
		struct id *id;

		NEXT(value);
		NEXT(vid);
		if (rd->read_format & PERF_FORMAT_LOST)
			p++;
		id = id_of(rd, vid);
		if (!id)
			continue;
		add_weight(rd, rw, (int)id->event, value - id->last);
		id->last = value;
	}
#undef NEXT
}

static void take(struct reader *rd, const struct perf_event_header *h)
{
	const uint32_t *u = (const void *)(h + 1);
	struct thread *t, *parent;
	struct process *p;
	struct map m;

	switch (h->type) {
	case PERF_RECORD_SAMPLE:
		take_sample(rd, h);
		break;
	case PERF_RECORD_LOST:
		if (h->size >= sizeof(*h) + 16)
			rd->r->lost += ((const uint64_t *)u)[1];
		break;
	case PERF_RECORD_COMM:
		if (h->size < sizeof(*h) + 9 || !(t = thread(rd, u[0], u[1])))
			break;
		snprintf(t->comm, sizeof(t->comm), "%.*s", (int)(h->size - sizeof(*h) - 8),
			 (const char *)(u + 2));
		if (h->misc & PERF_RECORD_MISC_COMM_EXEC && (p = process(rd, u[0])))
			p->nmaps = 0;	/* a new program */
		break;
	case PERF_RECORD_FORK:
		/* pid, ppid, tid, ptid: the new thread takes its creator's name. */
		if (h->size < sizeof(*h) + 16)
			break;
		parent = thread(rd, u[1], u[3]);
		if (parent) {
			char comm[32];

			memcpy(comm, parent->comm, sizeof(comm));
			t = thread(rd, u[0], u[2]);
			if (t)
				memcpy(t->comm, comm, sizeof(comm));
		}
		if (u[0] != u[1])
			fork_process(rd, u[0], u[1]);
		break;
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2: {
		const uint64_t *q = (const void *)(u + 2);
		size_t fixed = h->type == PERF_RECORD_MMAP ? 32 : 64;

		if (h->size <= sizeof(*h) + fixed)
			break;
		m = (struct map){ .start = q[0], .end = q[0] + q[1], .pgoff = q[2],
				  .path = (const char *)h + sizeof(*h) + fixed };
		m.path_len = strnlen(m.path, h->size - sizeof(*h) - fixed);
		p = process(rd, u[0]);
		if (p)
			add_map(p, &m);
		break;
	}
	}
}

static int read_records(struct reader *rd)
{
	const struct header *hdr = &rd->hdr;
	struct rec *recs = NULL;
	size_t n = 0, room = 0;
	uint64_t off = hdr->data.offset, end = hdr->data.offset + hdr->data.size, last = 0;

	if (!at(rd, off, hdr->data.size))
		return -EPROTO;
	while (off + sizeof(struct perf_event_header) <= end) {
		const struct perf_event_header *h = (const void *)(rd->base + off);

		if (h->size < sizeof(*h) || off + h->size > end) {
			free(recs);
			return -EPROTO;
		}
		if (n == room) {
			struct rec *r = realloc(recs, (room = room ? room * 2 : 4096) * sizeof(*r));

			if (!r) {
				free(recs);
				return -ENOMEM;
			}
			recs = r;
		}
		recs[n] = (struct rec){ .time = last, .index = n, .h = h };
		if (record_time(rd, h, &recs[n].time))
			last = recs[n].time;
		n++;
		off += h->size;
	}
	qsort(recs, n, sizeof(*recs), by_time);
	for (size_t i = 0; i < n; i++)
		take(rd, recs[i].h);
	free(recs);
	return 0;
}

int report_read(const char *path, const char *symfs, const enum report_key *keys,
		unsigned int nkeys, struct report *r)
{
	struct reader rd = { .keys = keys, .nkeys = nkeys, .r = r };
	struct stat st;
	void *base;
	int fd, err;

	memset(r, 0, sizeof(*r));
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return fail("%s: %s", path, strerror(errno));
	if (fstat(fd, &st) || (size_t)st.st_size < sizeof(rd.hdr)) {
		close(fd);
		return fail("%s: not a perf.data file (too short)", path);
	}
	base = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (base == MAP_FAILED)
		return fail("%s: %s", path, strerror(errno));
	rd.base = base;
	rd.size = (size_t)st.st_size;
	memcpy(&rd.hdr, base, sizeof(rd.hdr));
	if (rd.hdr.magic != PERF_MAGIC) {
		munmap(base, rd.size);
		return fail("%s: not a perf.data file of this machine's byte order", path);
	}
	err = read_attrs(&rd);
	if (!err) {
		read_names(&rd);
		r->grouped = feature(&rd, FEAT_GROUP_DESC) != NULL;
		err = report_symbols_new(&rd.syms, symfs);
	}
	if (!err)
		err = read_records(&rd);
	for (size_t i = 0; i < rd.nprocs; i++)
		free(rd.procs[i].maps);
	free(rd.procs);
	free(rd.ids);
	free(rd.threads);
	free(rd.hash);
	report_symbols_free(rd.syms);
	/* The rows' keys are copies: the file can go. */
	munmap(base, rd.size);
	if (err == -EPROTO)
		return fail("%s: a malformed perf.data file", path);
	if (err)
		return fail("%s: %s", path, strerror(-err));
	return 0;
}

void report_free(struct report *r)
{
	for (size_t i = 0; i < r->nrows; i++)
		for (unsigned int k = 0; k < REPORT_MAX_KEYS; k++)
			free(r->rows[i].key[k]);
	free(r->rows);
	r->rows = NULL;
	r->nrows = 0;
}
