/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pmuctl report's index (report-index.c): a hash table from a 64-bit key
 * (a thread's ID, a process's, an event's sample ID) to a position in the
 * caller's array, so that a file of many threads or IDs is read in time
 * proportional to its size. Open addressing, doubled at half full.
 */
#ifndef PMUCTL_REPORT_INDEX_H
#define PMUCTL_REPORT_INDEX_H

#include <stddef.h>
#include <stdint.h>

struct report_index {
	uint64_t *keys;
	size_t *values;		/* position + 1; 0: the slot is empty */
	size_t size, used;
};

/* The position stored for @key, or -1 if none is. */
long report_index_find(const struct report_index *ix, uint64_t key);

/* Stores @key at @position: 0, or -ENOMEM. @key must not be stored yet. */
int report_index_add(struct report_index *ix, uint64_t key, size_t position);

void report_index_free(struct report_index *ix);

#endif /* PMUCTL_REPORT_INDEX_H */
