// SPDX-License-Identifier: GPL-2.0
/*
 * badinput-test: putting an argument where it should point: aligned or
 * not, in a read-only page, NULL, unmapped, running into an unmapped page,
 * or a kernel address.
 */
#include "common.h"

/* An address in the kernel's own mapping (linear map or kernel image). */
void *kernel_address(void)
{
	if (sizeof(void *) == 8)
		return (void *)(uintptr_t)0xffff800008000000ULL;
	/* A 32-bit task on arm64 can address all 4 GiB: only the top is not its. */
	return native32 ? (void *)(uintptr_t)0xc0008000U : NULL;
}

/* An address with nothing mapped at it, right now. */
void *unmapped_address(void)
{
	void *p = mmap(NULL, (size_t)page_size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return (void *)16;	/* the zero page is never mapped */
	munmap(p, (size_t)page_size);
	return p;
}

/*
 * Places the @size bytes at @arg where @w says. Returns the pointer to pass
 * and, in @map, a mapping to unmap afterwards (NULL: none).
 */
void *place_arg(enum where w, const void *arg, size_t size, void **map)
{
	static _Alignas(16) unsigned char scratch[512];
	unsigned char *p;

	*map = NULL;
	switch (w) {
	case ARG_ALIGNED:
		memcpy(scratch, arg, size);
		return scratch;
	case ARG_MISALIGNED:
		memcpy(scratch + 1, arg, size);
		return scratch + 1;
	case ARG_READ_ONLY:
	case ARG_PAST_MAPPING:
		p = mmap(NULL, 2 * (size_t)page_size, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED)
			return NULL;
		*map = p;
		munmap(p + page_size, (size_t)page_size);
		if (w == ARG_READ_ONLY) {
			memcpy(p, arg, size);
			mprotect(p, (size_t)page_size, PROT_READ);
			return p;
		}
		p += page_size - (size - 1);
		memcpy(p, arg, size - 1);
		return p;
	case ARG_NULL:
		return NULL;
	case ARG_UNMAPPED:
		return unmapped_address();
	case ARG_KERNEL_TOP:
		return (void *)(uintptr_t)-(intptr_t)page_size;
	default:
		return kernel_address();
	}
}

void unplace_arg(void *map)
{
	if (map)
		munmap(map, (size_t)page_size);
}
