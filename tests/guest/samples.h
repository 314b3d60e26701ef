/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Sampling for the guest programs (sample-test, sample-dump): turning it
 * on, taking a ring's records out into one growing buffer, and walking
 * them. Each call returns 0 or an errno value, as devio.h's do.
 */
#ifndef ARMPMU_TESTS_SAMPLES_H
#define ARMPMU_TESTS_SAMPLES_H

#include <poll.h>
#include <stdlib.h>
#include <sys/utsname.h>

#include "devio.h"

static inline int set_sampling(int fd, __u64 period_ns, __u32 ring_bytes, __u32 flags)
{
	struct armpmu_sampling sm = {
		.period_ns = period_ns, .ring_bytes = ring_bytes, .flags = flags,
	};

	return ioc(fd, ARMPMU_IOC_SET_SAMPLING, &sm);
}

/* READ_SAMPLES' header and room for records, as the ioctl wants them. */
#define SAMPLES_ROOM	16384
struct samples_buf {
	struct armpmu_samples hdr;
	unsigned char room[SAMPLES_ROOM];
};

/* Every record taken so far, and the last header READ_SAMPLES gave. */
struct records {
	unsigned char *data;
	size_t len, cap;
	struct armpmu_samples last;
	unsigned int reads;
};

/* One READ_SAMPLES into @r; @got: bytes of records it gave. */
static inline int take_samples(int fd, struct records *r, size_t *got)
{
	static struct samples_buf b;
	unsigned char *p;

	memset(&b.hdr, 0, sizeof(b.hdr));
	b.hdr.size = SAMPLES_ROOM;
	if (ioctl(fd, ARMPMU_IOC_READ_SAMPLES, &b) < 0)
		return errno;
	r->last = b.hdr;
	r->reads++;
	*got = b.hdr.size;
	if (r->len + b.hdr.size > r->cap) {
		size_t cap = (r->cap ? r->cap * 2 : 65536) + b.hdr.size;

		p = realloc(r->data, cap);
		if (!p)
			return ENOMEM;
		r->data = p;
		r->cap = cap;
	}
	memcpy(r->data + r->len, b.room, b.hdr.size);
	r->len += b.hdr.size;
	return 0;
}

/* Everything the ring holds now. */
static inline int drain_samples(int fd, struct records *r)
{
	size_t got;
	int err;

	do
		err = take_samples(fd, r, &got);
	while (!err && got);
	return err;
}

/* Whether @r holds a SAMPLE record (next_record, below, walks them). */
static inline bool has_sample(const struct records *r, const void *unused);

/*
 * Reads as poll(2) says there is something, until the ring says sampling
 * has ended and it is empty (@enough, if not NULL: until @enough(@r,
 * @arg) holds, ENODATA if sampling ends first), or @timeout_ms passes
 * without it (ETIMEDOUT).
 */
static inline int collect_until(int fd, struct records *r, int timeout_ms,
				bool (*enough)(const struct records *r, const void *arg),
				const void *arg)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	uint64_t end = now_ns() + (uint64_t)timeout_ms * 1000000;
	int err;

	for (;;) {
		err = drain_samples(fd, r);
		if (err)
			return err;
		if (enough && enough(r, arg))
			return 0;
		if ((r->last.flags & ARMPMU_SAMPLES_ENDED) && enough)
			return ENODATA;
		if ((r->last.flags & ARMPMU_SAMPLES_ENDED) && !r->last.pending)
			return 0;
		if (now_ns() > end)
			return ETIMEDOUT;
		if (poll(&pfd, 1, 20) < 0 && errno != EINTR)
			return errno;
	}
}

static inline int collect_until_ended(int fd, struct records *r, int timeout_ms)
{
	return collect_until(fd, r, timeout_ms, NULL, NULL);
}

static inline void free_records(struct records *r)
{
	free(r->data);
	memset(r, 0, sizeof(*r));
}

/* The records of @r, one at a time: NULL after the last (or a bad size). */
static inline const struct armpmu_record *next_record(const struct records *r, size_t *off)
{
	const struct armpmu_record *h;

	if (*off + sizeof(*h) > r->len)
		return NULL;
	h = (const void *)(r->data + *off);
	if (h->size < sizeof(*h) || h->size % 8 || *off + h->size > r->len)
		return NULL;
	*off += h->size;
	return h;
}

static inline bool has_sample(const struct records *r, const void *unused)
{
	const struct armpmu_record *h;
	size_t off = 0;

	(void)unused;
	while ((h = next_record(r, &off)))
		if (h->type == ARMPMU_RECORD_SAMPLE)
			return true;
	return false;
}

/* The user address space's top, for this program on this kernel. */
static inline uint64_t user_top(void)
{
	struct utsname u;

	uname(&u);
	if (strcmp(u.machine, "aarch64"))
		return 0xbf000000ULL;	/* 32-bit kernel, 3G/1G split: TASK_SIZE */
	if (sizeof(void *) == 4)
		return 0xffff0000ULL;	/* TASK_SIZE_32 with 4 KiB pages */
	return 1ULL << 48;		/* the cores' 48-bit virtual addresses */
}

static inline const char *record_name(unsigned int type)
{
	static const char *const names[] = {
		"?", "SAMPLE", "LOST", "FORK", "EXEC", "EXIT", "LET_GO",
	};

	return type < sizeof(names) / sizeof(names[0]) ? names[type] : "?";
}

#endif /* ARMPMU_TESTS_SAMPLES_H */
