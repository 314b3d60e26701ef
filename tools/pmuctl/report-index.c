// SPDX-License-Identifier: GPL-2.0
/*
 * pmuctl report's index (report-index.h). The keys come from a file a
 * stranger may have written, so the slot is chosen by a mixing function
 * (the finalizer of splitmix64) rather than the key's low bits: IDs in a
 * stride of the table's size would otherwise share one chain.
 */
#include <errno.h>
#include <stdlib.h>

#include "report-index.h"

static size_t slot_of(uint64_t key, size_t size)
{
	key ^= key >> 30;
	key *= 0xbf58476d1ce4e5b9ULL;
	key ^= key >> 27;
	key *= 0x94d049bb133111ebULL;
	key ^= key >> 31;
	return (size_t)(key & (size - 1));
}

long report_index_find(const struct report_index *ix, uint64_t key)
{
	if (!ix->size)
		return -1;
	for (size_t s = slot_of(key, ix->size); ix->values[s]; s = (s + 1) & (ix->size - 1))
		if (ix->keys[s] == key)
			return (long)(ix->values[s] - 1);
	return -1;
}

static void put(uint64_t *keys, size_t *values, size_t size, uint64_t key, size_t value)
{
	size_t s = slot_of(key, size);

	while (values[s])
		s = (s + 1) & (size - 1);
	keys[s] = key;
	values[s] = value;
}

int report_index_add(struct report_index *ix, uint64_t key, size_t position)
{
	if ((ix->used + 1) * 2 > ix->size) {
		size_t size = ix->size ? ix->size * 2 : 256;
		uint64_t *keys = malloc(size * sizeof(*keys));
		size_t *values = calloc(size, sizeof(*values));

		if (!keys || !values) {
			free(keys);
			free(values);
			return -ENOMEM;
		}
		for (size_t s = 0; s < ix->size; s++)
			if (ix->values[s])
				put(keys, values, size, ix->keys[s], ix->values[s]);
		free(ix->keys);
		free(ix->values);
		ix->keys = keys;
		ix->values = values;
		ix->size = size;
	}
	put(ix->keys, ix->values, ix->size, key, position + 1);
	ix->used++;
	return 0;
}

void report_index_free(struct report_index *ix)
{
	free(ix->keys);
	free(ix->values);
	*ix = (struct report_index){ 0 };
}
