// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Sampling in task mode: turning it on for a handle, taking the ring's
 * records into the caller's memory, and walking them.
 */
#include <string.h>

#include "internal.h"

int pmudev_set_sampling(struct pmudev *pmu, uint64_t period_ns, uint32_t ring_bytes,
			uint32_t flags)
{
	struct armpmu_sampling s = {
		.period_ns = period_ns, .ring_bytes = ring_bytes, .flags = flags,
	};

	/* A handle with no mode yet may be sampled: no bound_ioctl(). */
	return ioctl_errno(pmu->fd, ARMPMU_IOC_SET_SAMPLING, &s);
}

int pmudev_read_samples(struct pmudev *pmu, struct armpmu_samples *s)
{
	s->flags = 0;
	memset(s->reserved, 0, sizeof(s->reserved));
	return ioctl_errno(pmu->fd, ARMPMU_IOC_READ_SAMPLES, s);
}

const struct armpmu_record *pmudev_next_record(const struct armpmu_samples *s,
					       const struct armpmu_record *rec)
{
	const char *room = (const char *)(s + 1);
	size_t at = rec ? (size_t)((const char *)rec - room) + rec->size : 0;
	const struct armpmu_record *next;

	if (at + sizeof(*next) > s->size)
		return NULL;
	next = (const struct armpmu_record *)(room + at);
	if (next->size < sizeof(*next) || next->size % 8 || at + next->size > s->size)
		return NULL;
	return next;
}
