// SPDX-License-Identifier: GPL-2.0
/*
 * pmuctl report's reading of perf.data (report-data.h), by the layout of
 * Linux's tools/perf/Documentation/perf.data-file-format.txt and the
 * records of include/uapi/linux/perf_event.h: the file is read into
 * memory, its records sorted by time, and each sample's weights summed
 * into the row its thread, file and function make.
 *
 * The file may be a stranger's: every offset and size in it is checked
 * against what was read, every field is read by copy (a section or
 * record may sit at any offset), a record is taken from an aligned copy
 * padded with zeros (a size not a multiple of 8 reads nothing past it),
 * and what its threads, processes and mappings make the reader hold is
 * bounded by the file's size (report-tasks.h).
 */
#include <errno.h>
#include <search.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/perf_event.h>
#include <sys/stat.h>

#include "perf-format.h"
#include "pmuctl.h"
#include "report-data.h"
#include "report-index.h"
#include "report-symbols.h"
#include "report-tasks.h"


/*
 * The most mappings all processes may hold at once, for a file of @size
 * bytes: an eighth of its size (a mapping's record is at least 72 bytes),
 * then room for ordinary forks that copy; each held one costs about two
 * struct report_map.
 */
#define MAPS_BOUND(size)	((size) / 8 + 65536)

struct section {
	uint64_t offset, size;
};

struct header {
	uint64_t magic, size, attr_size;
	struct section attrs, data, event_types;
	uint64_t features[4];
};

struct id {
	uint64_t id;
	unsigned int event;
	uint64_t last;		/* its previous group value */
};

struct rec {
	uint64_t time;
	size_t index;
	uint64_t off;		/* in the file */
};

struct reader {
	const char *base;
	size_t size;
	struct header hdr;
	uint64_t sample_type, read_format;
	bool sample_id_all;
	struct id *ids;		/* perf has an ID per event and CPU or thread */
	size_t nids;
	struct report_index id_index;
	struct report_tasks tasks;
	struct report_symbols *syms;
	const enum report_key *keys;
	unsigned int nkeys;
	void *rows;		/* the rows' keys (struct row_key), a tsearch(3) tree */
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

/*
 * The file's fields are read by copy: a stranger's file may put any
 * section at an odd offset.
 */
static uint64_t load64(const void *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static uint32_t load32(const void *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

/* ---- the header, the attributes, the features ---- */

static int add_id(struct reader *rd, uint64_t id, unsigned int event)
{
	/* An ID named twice stays its first event's, as perf's evlist keeps it. */
	if (report_index_find(&rd->id_index, id) >= 0)
		return 0;
	if (report_index_add(&rd->id_index, id, rd->nids))
		return -ENOMEM;
	rd->ids[rd->nids++] = (struct id){ .id = id, .event = event };
	return 0;
}

static int read_attrs(struct reader *rd)
{
	const struct header *h = &rd->hdr;
	uint64_t n = h->attr_size ? h->attrs.size / h->attr_size : 0;
	struct report *r = rd->r;

	if (!n || n > REPORT_MAX_EVENTS || h->attr_size < PERF_ATTR_SIZE_VER0 + 16 ||
	    h->attr_size > 4096 || h->attrs.offset > rd->size)
		return -EPROTO;
	for (uint64_t i = 0; i < n; i++) {
		const char *raw = at(rd, h->attrs.offset + i * h->attr_size, h->attr_size);
		struct perf_event_attr a = { 0 };
		struct section ids;
		const char *id;
		struct id *more;
		int err;

		if (!raw)
			return -EPROTO;
		memcpy(&a, raw, h->attr_size - sizeof(ids) < sizeof(a) ?
		       h->attr_size - sizeof(ids) : sizeof(a));
		memcpy(&ids, raw + h->attr_size - sizeof(ids), sizeof(ids));
		id = at(rd, ids.offset, ids.size);
		if (!id || ids.size % 8)
			return -EPROTO;
		if (ids.size) {
			more = realloc(rd->ids, (rd->nids + ids.size / 8) * sizeof(*more));
			if (!more)
				return -ENOMEM;
			rd->ids = more;
		}
		for (uint64_t k = 0; k < ids.size / 8; k++) {
			err = add_id(rd, load64(id + k * 8), (unsigned int)i);
			if (err)
				return err;
		}
		if (!i) {
			rd->sample_type = a.sample_type;
			rd->read_format = a.read_format;
			rd->sample_id_all = a.sample_id_all;
		}
		snprintf(r->names[i], sizeof(r->names[i]), "%s%s",
			 a.type == PERF_TYPE_SOFTWARE && a.config == PERF_COUNT_SW_CPU_CLOCK ?
			 "cpu-clock" : "event", a.exclude_kernel ? ":u" : "");
	}
	r->nevents = (unsigned int)n;
	return 0;
}

/* The feature @feat's section, or false: the table follows the data. */
static bool feature(const struct reader *rd, int feat, struct section *s)
{
	const struct header *h = &rd->hdr;
	const void *entry;
	int index = 0;

	if (!(h->features[feat / 64] & (1ULL << (feat % 64))))
		return false;
	for (int b = 0; b < feat; b++)
		index += !!(h->features[b / 64] & (1ULL << (b % 64)));
	if (h->data.offset > rd->size || h->data.size > rd->size - h->data.offset)
		return false;
	entry = at(rd, h->data.offset + h->data.size + (uint64_t)index * sizeof(*s), sizeof(*s));
	if (!entry)
		return false;
	memcpy(s, entry, sizeof(*s));
	return true;
}

/* The events' names from HEADER_EVENT_DESC. */
static void read_names(struct reader *rd)
{
	struct section s;
	const char *p;
	uint64_t off;
	uint32_t nr, attr_size;

	if (!feature(rd, FEAT_EVENT_DESC, &s) || !(p = at(rd, s.offset, 8)))
		return;
	nr = load32(p);
	attr_size = load32(p + 4);
	off = s.offset + 8;
	for (uint32_t i = 0; i < nr && i < rd->r->nevents; i++) {
		const char *counts = at(rd, off + attr_size, 8), *name;
		uint32_t nids, len;

		if (!counts)
			return;
		nids = load32(counts);
		len = load32(counts + 4);
		name = at(rd, off + attr_size + 8, len);
		if (!name)
			return;
		snprintf(rd->r->names[i], sizeof(rd->r->names[i]), "%.*s",
			 (int)strnlen(name, len < 63 ? len : 63), name);
		off += attr_size + 8 + (uint64_t)len + (uint64_t)nids * 8;
	}
}

/*
 * The files' build IDs from HEADER_BUILD_ID, for report-symbols.h to
 * read a file only if it is the one recorded. A malformed list ends it.
 */
static int read_build_ids(struct reader *rd)
{
	struct section s;
	uint64_t off;

	if (!feature(rd, FEAT_BUILD_ID, &s) || !at(rd, s.offset, s.size))
		return 0;
	for (off = s.offset; off < s.offset + s.size;) {
		const size_t fixed = sizeof(struct perf_event_header) + 4 + BUILD_ID_FIELD;
		const char *p = at(rd, off, fixed);
		struct perf_event_header h;
		const uint8_t *id;
		char path[4096];
		size_t len;
		bool exact;
		int err;

		if (!p)
			return 0;
		memcpy(&h, p, sizeof(h));
		if (h.size <= fixed || off + h.size > s.offset + s.size)
			return 0;
		id = (const uint8_t *)p + sizeof(h) + 4;
		exact = h.misc & PERF_RECORD_MISC_BUILD_ID_SIZE;
		len = exact ? id[BUILD_ID_BYTES] : BUILD_ID_BYTES;
		if (len > BUILD_ID_BYTES)
			return 0;
		/* The path, NUL-padded; one that fills its record ends there. */
		snprintf(path, sizeof(path), "%.*s", (int)strnlen(p + fixed, h.size - fixed),
			 p + fixed);
		err = report_symbols_expect(rd->syms, path, id, len, exact);
		if (err)
			return err;
		off += h.size;
	}
	return 0;
}

/* ---- records ---- */

/* The time of record @rec with header @h: a sample's, else its trailing sample ID's. */
static bool record_time(const struct reader *rd, const struct perf_event_header *h,
			const char *rec, uint64_t *time)
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
	*time = load64(rec + off);
	return true;
}

static int by_time(const void *a, const void *b)
{
	const struct rec *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->index < y->index ? -1 : x->index > y->index;
}

static int event_of(const struct reader *rd, uint64_t id)
{
	long i = report_index_find(&rd->id_index, id);

	return i >= 0 ? (int)rd->ids[i].event : rd->r->nevents == 1 ? 0 : -1;
}

/*
 * The rows' keys in a tsearch(3) tree: a stranger's file chooses the
 * strings (a thread's name), so the rows are found by comparison, which
 * no choice of strings makes slow, rather than by a hash it could make
 * collide.
 */
struct row_key {
	size_t index;		/* in the report's rows */
	unsigned int nkeys;
	char *const *key;	/* own, or a lookup's values */
	char *own[REPORT_MAX_KEYS];	/* the row's strings (the rows may move) */
};

static int by_keys(const void *a, const void *b)
{
	const struct row_key *x = a, *y = b;

	for (unsigned int k = 0; k < x->nkeys; k++) {
		int c = strcmp(x->key[k], y->key[k]);

		if (c)
			return c;
	}
	return 0;
}

/* The row for these key values, made if new. */
static struct report_row *row(struct reader *rd, char **vals)
{
	struct report *r = rd->r;
	struct row_key want = { .nkeys = rd->nkeys, .key = vals }, *made;
	void *found = tfind(&want, &rd->rows, by_keys);
	struct report_row *rw;

	if (found)
		return &r->rows[(*(struct row_key **)found)->index];
	if (!(r->nrows & (r->nrows - 1)) || r->nrows < 16) {
		struct report_row *rows = realloc(r->rows, (r->nrows < 16 ? 16 : r->nrows * 2) *
							    sizeof(*rows));

		if (!rows)
			return NULL;
		r->rows = rows;
	}
	rw = &r->rows[r->nrows];
	memset(rw, 0, sizeof(*rw));
	made = malloc(sizeof(*made));
	if (!made)
		return NULL;
	*made = (struct row_key){ .index = r->nrows, .nkeys = rd->nkeys };
	made->key = made->own;
	for (unsigned int k = 0; k < rd->nkeys; k++) {
		if (!(rw->key[k] = made->own[k] = strdup(vals[k])))
			goto fail;
	}
	if (!tsearch(made, &rd->rows, by_keys))
		goto fail;
	r->nrows++;
	return rw;
fail:
	for (unsigned int k = 0; k < rd->nkeys; k++) {
		free(rw->key[k]);
		rw->key[k] = NULL;
	}
	free(made);
	return NULL;
}

/* The row a sample of thread @tid at @ip goes to. */
static struct report_row *sample_row(struct reader *rd, uint32_t pid, uint32_t tid, uint64_t ip,
				     bool kernel)
{
	struct report_thread *t = report_tasks_thread(&rd->tasks, pid, tid);
	const struct report_map *m = kernel ? NULL : report_tasks_find_map(&rd->tasks, pid, ip);
	char pidbuf[48], dso[256], sym[512], *vals[REPORT_MAX_KEYS];
	const char *name = NULL;
	uint64_t addr = ip;

	if (!t)
		return NULL;
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

/*
 * A sample, from @p (its fields, 8-byte aligned) to @end; a field past
 * the end ends it.
 */
static void take_sample(struct reader *rd, const struct perf_event_header *h, const uint64_t *p,
			const uint64_t *end)
{
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
		long at;

		NEXT(value);
		NEXT(vid);
		if (rd->read_format & PERF_FORMAT_LOST)
			p++;
		at = report_index_find(&rd->id_index, vid);
		if (at < 0)
			continue;
		add_weight(rd, rw, (int)rd->ids[at].event, value - rd->ids[at].last);
		rd->ids[at].last = value;
	}
#undef NEXT
}

/*
 * Record @h, its body at @body (an aligned copy, zero past its end to a
 * multiple of 8) and at @raw in the file (a mapping's path stays there).
 * 0, or an error that ends the reading.
 */
static int take(struct reader *rd, const struct perf_event_header *h, const uint64_t *body,
		const char *raw)
{
	const uint32_t *u = (const void *)body;
	size_t len = h->size - sizeof(*h);
	struct report_thread *t, *parent;
	struct report_map m;

	switch (h->type) {
	case PERF_RECORD_SAMPLE:
		take_sample(rd, h, body, body + (len + 7) / 8);
		break;
	case PERF_RECORD_LOST:
		/* id, lost: perf's "lost chunks", apart from its lost samples. */
		if (len >= 16) {
			rd->r->lost_chunks++;
			rd->r->lost += body[1];
		}
		break;
	case PERF_RECORD_LOST_SAMPLES:
		if (len >= 8)
			rd->r->lost_samples += body[0];
		break;
	case PERF_RECORD_COMM:
		if (len < 9 || !(t = report_tasks_thread(&rd->tasks, u[0], u[1])))
			break;
		snprintf(t->comm, sizeof(t->comm), "%.*s", (int)(len - 8), (const char *)(u + 2));
		if (h->misc & PERF_RECORD_MISC_COMM_EXEC)
			report_tasks_exec(&rd->tasks, u[0]);	/* a new program */
		break;
	case PERF_RECORD_FORK:
		/* pid, ppid, tid, ptid: the new thread takes its creator's name. */
		if (len < 16)
			break;
		parent = report_tasks_thread(&rd->tasks, u[1], u[3]);
		if (parent) {
			char comm[32];

			memcpy(comm, parent->comm, sizeof(comm));
			t = report_tasks_thread(&rd->tasks, u[0], u[2]);
			if (t)
				memcpy(t->comm, comm, sizeof(comm));
		}
		return report_tasks_fork(&rd->tasks, u[0], u[1]);
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2: {
		size_t fixed = h->type == PERF_RECORD_MMAP ? 32 : 64;

		if (len <= fixed)
			break;
		m = (struct report_map){ .start = body[1], .end = body[1] + body[2],
					 .pgoff = body[3], .path = raw + sizeof(*h) + fixed };
		if (m.end < m.start)
			break;	/* wraps: maps nothing perf could place */
		m.path_len = strnlen(m.path, len - fixed);
		return report_tasks_map(&rd->tasks, u[0], &m);
	}
	}
	return 0;
}

static int read_records(struct reader *rd)
{
	const struct header *hdr = &rd->hdr;
	struct rec *recs = NULL;
	size_t n = 0, room = 0;
	uint64_t off = hdr->data.offset, end, last = 0;
	uint64_t *body;
	int err = 0;

	if (!at(rd, off, hdr->data.size))
		return -EPROTO;
	/* A record's size is 16 bits: room for the largest one's aligned copy. */
	body = malloc(65536);
	if (!body)
		return -ENOMEM;
	end = off + hdr->data.size;
	while (off + sizeof(struct perf_event_header) <= end) {
		struct perf_event_header h;

		memcpy(&h, rd->base + off, sizeof(h));
		if (h.size < sizeof(h) || h.size > end - off) {
			err = -EPROTO;
			break;
		}
		if (n == room) {
			struct rec *r = realloc(recs, (room = room ? room * 2 : 4096) * sizeof(*r));

			if (!r) {
				err = -ENOMEM;
				break;
			}
			recs = r;
		}
		recs[n] = (struct rec){ .time = last, .index = n, .off = off };
		if (record_time(rd, &h, rd->base + off, &recs[n].time))
			last = recs[n].time;
		n++;
		off += h.size;
	}
	if (!err && n)
		qsort(recs, n, sizeof(*recs), by_time);
	for (size_t i = 0; i < n && !err; i++) {
		const char *raw = rd->base + recs[i].off;
		struct perf_event_header h;
		size_t len;

		memcpy(&h, raw, sizeof(h));
		len = h.size - sizeof(h);
		memcpy(body, raw + sizeof(h), len);
		memset((char *)body + len, 0, 7);
		err = take(rd, &h, body, raw);
	}
	free(body);
	free(recs);
	return err;
}

/*
 * The file at @path, whole, into memory: a copy, so that its owner's
 * truncating it cannot fault the reading; and a regular file only, opened
 * without blocking, so that a FIFO cannot hang it. 0 or an errno.
 */
static int load(const char *path, char **base, size_t *size, bool *own)
{
	struct stat st;
	size_t got = 0;
	char *buf;
	int fd;

	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return errno;
	if (fstat(fd, &st)) {
		close(fd);
		return errno;
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		return S_ISDIR(st.st_mode) ? EISDIR : EINVAL;
	}
	/* As perf report trusts a file: the reader's own, or root's. */
	*own = st.st_uid == geteuid() || st.st_uid == 0;
	/* 8 bytes more, zero: the last record's aligned copy reads no further. */
	buf = malloc((size_t)st.st_size + 8);
	if (!buf) {
		close(fd);
		return ENOMEM;
	}
	while (got < (size_t)st.st_size) {
		ssize_t r = read(fd, buf + got, (size_t)st.st_size - got);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;	/* shorter now: what was there */
		got += (size_t)r;
	}
	close(fd);
	memset(buf + got, 0, 8);
	*base = buf;
	*size = got;
	return 0;
}

struct refusals {
	struct report *r;
	int err;		/* -ENOMEM if one was not kept */
};

/* A file report-symbols.h did not read, and why: said after the table. */
static void add_refused(const char *path, const char *why, void *arg)
{
	struct refusals *rf = arg;
	struct report *r = rf->r;
	char **more = realloc(r->refused, (r->nrefused + 1) * sizeof(*more));

	if (more)
		r->refused = more;
	if (!more || asprintf(&more[r->nrefused], "%s: %s", path, why) < 0) {
		rf->err = -ENOMEM;
		return;
	}
	r->nrefused++;
}

int report_parse(const char *base, size_t size, const struct report_options *o,
		 struct report *r)
{
	struct reader rd = { .base = base, .size = size, .keys = o->keys, .nkeys = o->nkeys,
			     .r = r };
	struct section groups;
	int err;

	memset(r, 0, sizeof(*r));
	if (size < sizeof(rd.hdr))
		return -ENODATA;
	memcpy(&rd.hdr, base, sizeof(rd.hdr));
	if (rd.hdr.magic != PERF_MAGIC)
		return -EILSEQ;
	/*
	 * What the processes' mappings may hold at once: a small multiple of
	 * the file's size, however its forks would copy them.
	 */
	report_tasks_init(&rd.tasks, MAPS_BOUND(size));
	err = read_attrs(&rd);
	if (!err) {
		read_names(&rd);
		r->grouped = feature(&rd, FEAT_GROUP_DESC, &groups);
		err = report_symbols_new(&rd.syms, o->symfs, o->demangle, o->own_recording);
	}
	if (!err)
		err = read_build_ids(&rd);
	if (!err)
		err = read_records(&rd);
	if (!err) {
		struct refusals rf = { .r = r };

		report_symbols_refused(rd.syms, add_refused, &rf);
		err = rf.err;
	}
	report_tasks_free(&rd.tasks);
	report_index_free(&rd.id_index);
	free(rd.ids);
	tdestroy(rd.rows, free);
	report_symbols_free(rd.syms);
	if (err)
		report_free(r);
	return err;
}

int report_read(const char *path, const struct report_options *o, struct report *r)
{
	struct report_options opts = *o;
	size_t size = 0;
	char *base = NULL;
	int err;

	memset(r, 0, sizeof(*r));
	err = load(path, &base, &size, &opts.own_recording);
	if (err == EINVAL)
		return fail("%s: not a regular file", path);
	if (err)
		return fail("%s: %s", path, strerror(err));
	err = report_parse(base, size, &opts, r);
	/* The rows' keys are copies: the file can go. */
	free(base);
	switch (err) {
	case 0:
		return 0;
	case -ENODATA:
		return fail("%s: not a perf.data file (too short)", path);
	case -EILSEQ:
		return fail("%s: not a perf.data file of this machine's byte order", path);
	case -EPROTO:
		return fail("%s: a malformed perf.data file", path);
	case -EFBIG:
		return fail("%s: its processes' mappings would take more than %zu MB "
			    "(a file made to exhaust memory?)", path,
			    MAPS_BOUND(size) * 2 * sizeof(struct report_map) >> 20);
	default:
		return fail("%s: %s", path, strerror(-err));
	}
}

void report_free(struct report *r)
{
	for (size_t i = 0; i < r->nrows; i++)
		for (unsigned int k = 0; k < REPORT_MAX_KEYS; k++)
			free(r->rows[i].key[k]);
	free(r->rows);
	r->rows = NULL;
	r->nrows = 0;
	for (size_t i = 0; i < r->nrefused; i++)
		free(r->refused[i]);
	free(r->refused);
	r->refused = NULL;
	r->nrefused = 0;
}
