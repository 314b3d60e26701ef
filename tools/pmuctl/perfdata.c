// SPDX-License-Identifier: GPL-2.0
/*
 * perf.data, written as perf record writes it (perfdata.h): the layout
 * is the one Linux's tools/perf/Documentation/perf.data-file-format.txt
 * describes, the records those of include/uapi/linux/perf_event.h.
 *
 * The file: the header; the IDs of each event and the attributes, which
 * point at them; the data section, records one after the other; then,
 * right after the data (perf looks for them there), a table of sections
 * for the features whose bits the header sets, and their contents.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/perf_event.h>
#include <sys/utsname.h>

#include "perf-format.h"
#include "perfdata.h"

struct file_section {
	uint64_t offset, size;
};

struct file_header {
	uint64_t magic;
	uint64_t size;		/* of this header */
	uint64_t attr_size;	/* of one struct file_attr */
	struct file_section attrs, data, event_types;
	uint64_t features[FEAT_BITS / 64];
};

struct file_attr {
	struct perf_event_attr attr;
	struct file_section ids;
};

/* Every record's sample ID (sample_id_all), for SAMPLE_TYPE below. */
struct sample_id {
	uint32_t pid, tid;
	uint64_t time;
	uint64_t id;
	uint32_t cpu, res;
};

/* What perf record -e '{cpu-clock,...}:S' has each event sample. */
#define SAMPLE_TYPE (PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID | \
		     PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | PERF_SAMPLE_READ)
#define READ_FORMAT (PERF_FORMAT_GROUP | PERF_FORMAT_ID)

/* The IDs perf would have had from the kernel: one per event. */
#define EVENT_ID(i)	((uint64_t)(i) + 1)

struct build_id {
	char *path;
	uint8_t id[BUILD_ID_BYTES];
	size_t size;
};

struct perfdata {
	FILE *f;
	struct perfdata_config cfg;
	struct file_header header;
	struct perf_event_attr attrs[PERFDATA_MAX_EVENTS];
	uint64_t totals[PERFDATA_MAX_EVENTS];	/* the group's running values */
	uint64_t samples, first_time, last_time;
	struct build_id *build_ids;
	size_t nbuild_ids;
	int error;		/* the first write's errno */
};

static void put(struct perfdata *pd, const void *buf, size_t len)
{
	if (len && fwrite(buf, 1, len, pd->f) != len && !pd->error)
		pd->error = errno ? errno : EIO;
}

static void put_u32(struct perfdata *pd, uint32_t v)
{
	put(pd, &v, sizeof(v));
}

static void put_u64(struct perfdata *pd, uint64_t v)
{
	put(pd, &v, sizeof(v));
}

static void put_zeros(struct perfdata *pd, size_t len)
{
	static const char zeros[64];

	while (len) {
		size_t n = len < sizeof(zeros) ? len : sizeof(zeros);

		put(pd, zeros, n);
		len -= n;
	}
}

static uint64_t offset(struct perfdata *pd)
{
	long off = ftell(pd->f);

	if (off < 0 && !pd->error)
		pd->error = errno;
	return off < 0 ? 0 : (uint64_t)off;
}

void perfdata_leader(struct perfdata_config *cfg)
{
	struct perfdata_event *e = &cfg->events[0];

	snprintf(e->name, sizeof(e->name), "cpu-clock%s", cfg->exclude_kernel ? ":u" : "");
	e->type = PERF_TYPE_SOFTWARE;
	e->config = PERF_COUNT_SW_CPU_CLOCK;
	if (cfg->nevents < 1)
		cfg->nevents = 1;
}

/* The attributes perf record gives a group read at its leader's samples. */
static void make_attr(struct perfdata *pd, unsigned int i)
{
	struct perf_event_attr *a = &pd->attrs[i];
	const struct perfdata_config *cfg = &pd->cfg;

	memset(a, 0, sizeof(*a));
	a->type = cfg->events[i].type;
	a->size = sizeof(*a);
	a->config = cfg->events[i].config;
	a->sample_type = SAMPLE_TYPE | (cfg->callchain ? PERF_SAMPLE_CALLCHAIN : 0);
	a->read_format = READ_FORMAT;
	if (cfg->callchain) {
		a->sample_max_stack = cfg->max_stack;
		a->exclude_callchain_kernel = cfg->exclude_kernel;
	}
	a->disabled = i == 0;
	a->inherit = 1;
	a->exclude_kernel = cfg->exclude_kernel;
	a->exclude_hv = 1;
	a->sample_id_all = 1;
	a->use_clockid = 1;
	a->clockid = CLOCK_MONOTONIC;
	if (i == 0) {
		/* The leader samples, and tracks the tasks and their mappings. */
		a->freq = cfg->freq;
		a->sample_period = cfg->period;
		a->enable_on_exec = cfg->enable_on_exec;
		a->mmap = 1;
		a->comm = 1;
		a->task = 1;
		a->mmap2 = 1;
		a->comm_exec = 1;
	}
}

int perfdata_create(struct perfdata **pdp, const char *path, const struct perfdata_config *cfg)
{
	struct perfdata *pd;
	uint64_t ids_at;
	unsigned int i;

	if (cfg->nevents < 1 || cfg->nevents > PERFDATA_MAX_EVENTS)
		return -EINVAL;
	pd = calloc(1, sizeof(*pd));
	if (!pd)
		return -ENOMEM;
	pd->cfg = *cfg;
	pd->f = fopen(path, "w+");
	if (!pd->f) {
		int err = errno;

		free(pd);
		return -err;
	}
	pd->header.magic = PERF_MAGIC;
	pd->header.size = sizeof(pd->header);
	pd->header.attr_size = sizeof(struct file_attr);
	put(pd, &pd->header, sizeof(pd->header));

	/* Each event's one ID, then the attributes that point at them. */
	ids_at = offset(pd);
	for (i = 0; i < cfg->nevents; i++)
		put_u64(pd, EVENT_ID(i));
	pd->header.attrs.offset = offset(pd);
	for (i = 0; i < cfg->nevents; i++) {
		struct file_attr fa = { .ids = { ids_at + i * sizeof(uint64_t), sizeof(uint64_t) } };

		make_attr(pd, i);
		fa.attr = pd->attrs[i];
		put(pd, &fa, sizeof(fa));
	}
	pd->header.attrs.size = offset(pd) - pd->header.attrs.offset;
	pd->header.data.offset = offset(pd);
	if (pd->error) {
		int err = pd->error;

		fclose(pd->f);
		free(pd);
		return -err;
	}
	*pdp = pd;
	return 0;
}

/* A record's head; @size counts the sample ID that end_record() adds. */
static void begin_record(struct perfdata *pd, uint32_t type, uint16_t misc, size_t size)
{
	struct perf_event_header h = {
		.type = type,
		.misc = misc,
		.size = (uint16_t)(size + sizeof(struct sample_id)),
	};

	put(pd, &h, sizeof(h));
}

static int end_record(struct perfdata *pd, const struct perfdata_where *w)
{
	struct sample_id id = {
		.pid = w->pid, .tid = w->tid, .time = w->time, .id = EVENT_ID(0), .cpu = w->cpu,
	};

	put(pd, &id, sizeof(id));
	return -pd->error;
}

/* @s NUL-terminated and padded with zeros to a multiple of 8 bytes. */
static size_t padded(const char *s)
{
	return (strlen(s) + 1 + 7) & ~(size_t)7;
}

static void put_padded(struct perfdata *pd, const char *s)
{
	size_t len = strlen(s);

	put(pd, s, len);
	put_zeros(pd, padded(s) - len);
}

int perfdata_comm(struct perfdata *pd, const struct perfdata_where *w, const char *comm,
		  bool exec)
{
	begin_record(pd, PERF_RECORD_COMM, exec ? PERF_RECORD_MISC_COMM_EXEC : 0,
		     sizeof(struct perf_event_header) + 8 + padded(comm));
	put_u32(pd, w->pid);
	put_u32(pd, w->tid);
	put_padded(pd, comm);
	return end_record(pd, w);
}

static int task_record(struct perfdata *pd, uint32_t type, const struct perfdata_where *w,
		       uint32_t ppid, uint32_t ptid)
{
	begin_record(pd, type, 0, sizeof(struct perf_event_header) + 24);
	put_u32(pd, w->pid);
	put_u32(pd, ppid);
	put_u32(pd, w->tid);
	put_u32(pd, ptid);
	put_u64(pd, w->time);
	return end_record(pd, w);
}

int perfdata_fork(struct perfdata *pd, const struct perfdata_where *w, uint32_t ppid,
		  uint32_t ptid)
{
	return task_record(pd, PERF_RECORD_FORK, w, ppid, ptid);
}

int perfdata_exit(struct perfdata *pd, const struct perfdata_where *w, uint32_t ppid,
		  uint32_t ptid)
{
	return task_record(pd, PERF_RECORD_EXIT, w, ppid, ptid);
}

int perfdata_mmap2(struct perfdata *pd, const struct perfdata_where *w,
		   const struct perfdata_map *m)
{
	begin_record(pd, PERF_RECORD_MMAP2, PERF_RECORD_MISC_USER,
		     sizeof(struct perf_event_header) + 64 + padded(m->path));
	put_u32(pd, w->pid);
	put_u32(pd, w->tid);
	put_u64(pd, m->start);
	put_u64(pd, m->len);
	put_u64(pd, m->pgoff);
	put_u32(pd, m->maj);
	put_u32(pd, m->min);
	put_u64(pd, m->ino);
	put_u64(pd, 0);		/* ino_generation */
	put_u32(pd, m->prot);
	put_u32(pd, m->flags);
	put_padded(pd, m->path);
	return end_record(pd, w);
}

int perfdata_sample(struct perfdata *pd, const struct perfdata_where *w, uint64_t ip,
		    bool kernel, uint64_t period, const uint64_t *counted, const uint64_t *ips,
		    uint32_t nips)
{
	uint64_t alone[2] = { kernel ? PERF_CONTEXT_KERNEL : PERF_CONTEXT_USER, ip };
	unsigned int n = pd->cfg.nevents, i;
	struct sample_id id = {
		.pid = w->pid, .tid = w->tid, .time = w->time, .id = EVENT_ID(0), .cpu = w->cpu,
	};
	struct perf_event_header h = {
		.type = PERF_RECORD_SAMPLE,
		.misc = kernel ? PERF_RECORD_MISC_KERNEL : PERF_RECORD_MISC_USER,
		.size = (uint16_t)(sizeof(h) + 8 + sizeof(id) + 8 + 8 + n * 16),
	};

	if (pd->cfg.callchain) {
		if (!ips) {
			ips = alone;
			nips = 2;
		}
		h.size += (uint16_t)(8 + nips * 8);
	}
	/* The group's values are running totals: perf takes the differences. */
	pd->totals[0] += period;
	for (i = 1; i < n; i++)
		pd->totals[i] += counted[i - 1];
	/* In perf's order: ip, pid and tid, time, id, cpu, period, read, callchain. */
	put(pd, &h, sizeof(h));
	put_u64(pd, ip);
	put_u32(pd, id.pid);
	put_u32(pd, id.tid);
	put_u64(pd, id.time);
	put_u64(pd, id.id);
	put_u32(pd, id.cpu);
	put_u32(pd, 0);
	put_u64(pd, period);
	put_u64(pd, n);
	for (i = 0; i < n; i++) {
		put_u64(pd, pd->totals[i]);
		put_u64(pd, EVENT_ID(i));
	}
	if (pd->cfg.callchain) {
		put_u64(pd, nips);
		put(pd, ips, nips * sizeof(*ips));
	}
	if (!pd->samples++)
		pd->first_time = w->time;
	pd->last_time = w->time;
	return -pd->error;
}

int perfdata_lost(struct perfdata *pd, const struct perfdata_where *w, uint64_t lost)
{
	begin_record(pd, PERF_RECORD_LOST, 0, sizeof(struct perf_event_header) + 16);
	put_u64(pd, EVENT_ID(0));
	put_u64(pd, lost);
	return end_record(pd, w);
}

int perfdata_build_id(struct perfdata *pd, const char *path, const uint8_t *id, size_t size)
{
	struct build_id *b;

	if (size > sizeof(b->id))
		return -EINVAL;
	b = realloc(pd->build_ids, (pd->nbuild_ids + 1) * sizeof(*b));
	if (!b)
		return -ENOMEM;
	pd->build_ids = b;
	b += pd->nbuild_ids;
	b->path = strdup(path);
	if (!b->path)
		return -ENOMEM;
	memcpy(b->id, id, size);
	b->size = size;
	pd->nbuild_ids++;
	return 0;
}

uint64_t perfdata_samples(const struct perfdata *pd)
{
	return pd->samples;
}

uint64_t perfdata_bytes(const struct perfdata *pd)
{
	return pd->header.data.size ? pd->header.data.size :
	       (uint64_t)ftell(pd->f) - pd->header.data.offset;
}

/* ---- the feature sections ---- */

/* A feature string: its padded length, then it, NUL-terminated and padded. */
static void put_string(struct perfdata *pd, const char *s)
{
	size_t len = strlen(s) + 1, room = (len + STRING_ALIGN - 1) / STRING_ALIGN * STRING_ALIGN;

	put_u32(pd, (uint32_t)room);
	put(pd, s, len - 1);
	put_zeros(pd, room - (len - 1));
}

/* The first "key : value" line of /proc/cpuinfo whose key is one of @keys. */
static void cpu_description(char *buf, size_t len)
{
	static const char *const keys[] = { "model name", "Hardware", "CPU part" };
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[256];

	snprintf(buf, len, "unknown");
	if (!f)
		return;
	for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
		rewind(f);
		while (fgets(line, sizeof(line), f)) {
			char *colon = strchr(line, ':');

			if (strncmp(line, keys[k], strlen(keys[k])) || !colon)
				continue;
			colon += strspn(colon + 1, " \t") + 1;
			colon[strcspn(colon, "\n")] = '\0';
			snprintf(buf, len, "%s", colon);
			fclose(f);
			return;
		}
	}
	fclose(f);
}

static uint64_t total_mem_kb(void)
{
	long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);

	return pages > 0 && page > 0 ? (uint64_t)pages * (uint64_t)page / 1024 : 0;
}

static void put_build_ids(struct perfdata *pd)
{
	for (size_t i = 0; i < pd->nbuild_ids; i++) {
		const struct build_id *b = &pd->build_ids[i];
		struct perf_event_header h = {
			.type = RECORD_HEADER_BUILD_ID,
			.misc = PERF_RECORD_MISC_USER | PERF_RECORD_MISC_BUILD_ID_SIZE,
			.size = (uint16_t)(sizeof(h) + 4 + BUILD_ID_FIELD + padded(b->path)),
		};
		uint8_t id[BUILD_ID_FIELD] = { 0 };

		memcpy(id, b->id, b->size);
		id[BUILD_ID_BYTES] = (uint8_t)b->size;
		put(pd, &h, sizeof(h));
		put_u32(pd, (uint32_t)-1);
		put(pd, id, sizeof(id));
		put_padded(pd, b->path);
	}
}

static void put_feature(struct perfdata *pd, int feat)
{
	const struct perfdata_config *cfg = &pd->cfg;
	struct utsname u;
	char buf[256];
	long cpus;

	uname(&u);
	switch (feat) {
	case FEAT_BUILD_ID:
		put_build_ids(pd);
		break;
	case FEAT_HOSTNAME:
		put_string(pd, u.nodename);
		break;
	case FEAT_OSRELEASE:
		put_string(pd, u.release);
		break;
	case FEAT_VERSION:
		put_string(pd, "pmuctl " PMUCTL_VERSION);
		break;
	case FEAT_ARCH:
		put_string(pd, u.machine);
		break;
	case FEAT_NRCPUS:
		cpus = sysconf(_SC_NPROCESSORS_CONF);
		put_u32(pd, cpus > 0 ? (uint32_t)cpus : 1);
		cpus = sysconf(_SC_NPROCESSORS_ONLN);
		put_u32(pd, cpus > 0 ? (uint32_t)cpus : 1);
		break;
	case FEAT_CPUDESC:
		cpu_description(buf, sizeof(buf));
		put_string(pd, buf);
		break;
	case FEAT_TOTAL_MEM:
		put_u64(pd, total_mem_kb());
		break;
	case FEAT_CMDLINE:
		put_u32(pd, (uint32_t)cfg->argc);
		for (int i = 0; i < cfg->argc; i++)
			put_string(pd, cfg->argv[i]);
		break;
	case FEAT_EVENT_DESC:
		put_u32(pd, cfg->nevents);
		put_u32(pd, sizeof(struct perf_event_attr));
		for (unsigned int i = 0; i < cfg->nevents; i++) {
			put(pd, &pd->attrs[i], sizeof(pd->attrs[i]));
			put_u32(pd, 1);
			put_string(pd, cfg->events[i].name);
			put_u64(pd, EVENT_ID(i));
		}
		break;
	case FEAT_GROUP_DESC:
		/* One group, perf's "{anon_group}": the leader and every event. */
		put_u32(pd, 1);
		put_string(pd, "{anon_group}");
		put_u32(pd, 0);
		put_u32(pd, cfg->nevents);
		break;
	case FEAT_SAMPLE_TIME:
		put_u64(pd, pd->first_time);
		put_u64(pd, pd->last_time);
		break;
	case FEAT_CLOCKID:
		put_u64(pd, 1);	/* the clock's resolution, ns */
		break;
	}
}

int perfdata_finish(struct perfdata *pd)
{
	static const int feats[] = {
		FEAT_BUILD_ID, FEAT_HOSTNAME, FEAT_OSRELEASE, FEAT_VERSION, FEAT_ARCH,
		FEAT_NRCPUS, FEAT_CPUDESC, FEAT_TOTAL_MEM, FEAT_CMDLINE, FEAT_EVENT_DESC,
		FEAT_GROUP_DESC, FEAT_SAMPLE_TIME, FEAT_CLOCKID,
	};
	enum { NFEATS = sizeof(feats) / sizeof(feats[0]) };
	struct file_section sections[NFEATS];
	uint64_t table;
	int err;

	pd->header.data.size = offset(pd) - pd->header.data.offset;
	/* The table of sections right after the data, then each feature. */
	table = offset(pd);
	put(pd, sections, sizeof(sections));
	for (int i = 0; i < NFEATS; i++) {
		sections[i].offset = offset(pd);
		put_feature(pd, feats[i]);
		sections[i].size = offset(pd) - sections[i].offset;
		pd->header.features[feats[i] / 64] |= 1ULL << (feats[i] % 64);
	}
	if (fseek(pd->f, (long)table, SEEK_SET) && !pd->error)
		pd->error = errno;
	put(pd, sections, sizeof(sections));
	if (fseek(pd->f, 0, SEEK_SET) && !pd->error)
		pd->error = errno;
	put(pd, &pd->header, sizeof(pd->header));
	if (fclose(pd->f) && !pd->error)
		pd->error = errno;
	err = pd->error;
	for (size_t i = 0; i < pd->nbuild_ids; i++)
		free(pd->build_ids[i].path);
	free(pd->build_ids);
	free(pd);
	return -err;
}
