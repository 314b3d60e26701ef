// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz: the PRNG (splitmix64, a seed per thread) and what it picks:
 * numbers, interesting values, and pointers good and bad.
 */
#include "common.h"

/* splitmix64: tiny, fast, and good enough to pick calls. */
uint64_t splitmix64(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* A thread's seed depends on the run's seed and on its place only. */
uint64_t thread_seed(uint64_t seed, unsigned int proc, unsigned int thread)
{
	uint64_t s = seed ^ ((uint64_t)(proc + 1) << 40) ^ ((uint64_t)(thread + 1) << 20);

	return splitmix64(&s);
}

uint32_t rnd(struct worker *w)
{
	return (uint32_t)(splitmix64(&w->rng) >> 32);
}

uint64_t rnd64(struct worker *w)
{
	return splitmix64(&w->rng);
}

/* Uniform in 0 .. n - 1. */
uint32_t below(struct worker *w, uint32_t n)
{
	return (uint32_t)(((uint64_t)rnd(w) * n) >> 32);
}

bool chance(struct worker *w, unsigned int per_mille)
{
	return below(w, 1000) < per_mille;
}

/* Mostly the interesting values, sometimes anything or one bit. */
uint32_t pick(struct worker *w, const uint32_t *vals, size_t n)
{
	uint32_t r = below(w, 100);

	if (r < 8)
		return rnd(w);
	if (r < 12)
		return 1U << below(w, 32);
	return vals[below(w, (uint32_t)n)];
}

uint64_t pick64(struct worker *w)
{
	static const uint64_t vals[] = {
		0, 1, 1000, 0x7fffffffULL, 0xffffffffULL, 0x100000000ULL,
		0xfffffffffff0ULL, 0x7fffffffffffffffULL, ~0ULL,
	};
	return chance(w, 200) ? rnd64(w) : vals[below(w, ARRAY_SIZE(vals))];
}

/* Reserved fields: zero, and now and then not. */
uint32_t reserved(struct worker *w)
{
	return chance(w, 40) ? (rnd(w) | 1) : 0;
}

/* A valid CPU number, mostly, for calls that should get somewhere. */
uint32_t some_cpu(struct worker *w)
{
	return chance(w, 900) ? below(w, ncpus) : PICK(w, cpu_vals);
}

/*
 * True if any page of [addr, addr + len) is mapped in this process: such an
 * address must not be handed to the kernel as a "bad" pointer, since the
 * call could then write over the fuzzer's own memory. Nothing is mapped
 * once the threads run (no malloc, no mmap that succeeds), so the answer
 * stays true for the call.
 */
static bool any_mapped(uintptr_t addr, size_t len)
{
	uintptr_t mask = (uintptr_t)page_size - 1;
	uintptr_t p = addr & ~mask;
	uintptr_t end = addr + (len ? len - 1 : 0);
	unsigned char vec;

	if (end < addr)
		end = UINTPTR_MAX;
	for (;;) {
		if (mincore((void *)p, (size_t)page_size, &vec) == 0)
			return true;
		if (p >= (end & ~mask) || p + (uintptr_t)page_size < p)
			return false;
		p += (uintptr_t)page_size;
	}
}

/*
 * The main thread's stack grows down on demand, also when the kernel
 * touches an address below it (6.1 still grows it from a uaccess fault):
 * an address there is readable after all. Found once, before the threads.
 */
static uintptr_t stack_zone_lo, stack_zone_hi;

void find_stack_zone(void)
{
	FILE *f = fopen("/proc/self/maps", "re");
	unsigned long lo, hi;
	struct rlimit rl;
	char line[256];
	uintptr_t room = 64UL << 20;

	if (!getrlimit(RLIMIT_STACK, &rl) && rl.rlim_cur != RLIM_INFINITY &&
	    rl.rlim_cur < room)
		room = (uintptr_t)rl.rlim_cur;
	while (f && fgets(line, sizeof(line), f)) {
		if (strstr(line, "[stack]") && sscanf(line, "%lx-%lx", &lo, &hi) == 2) {
			stack_zone_hi = hi;
			stack_zone_lo = hi > room ? hi - room : 0;
		}
	}
	if (f)
		fclose(f);
}

static bool in_stack_zone(uintptr_t addr, size_t len)
{
	return addr < stack_zone_hi && addr + len > stack_zone_lo;
}

static uintptr_t kernel_address(struct worker *w)
{
#if UINTPTR_MAX > 0xffffffffU
	static const uintptr_t vals[] = {
		0xffffffc000000000UL, 0xffff000000000000UL, 0xffff800000000000UL,
		0xffffff8000000000UL, 0xfffffffffffff000UL, 0x0001000000000000UL,
		0x8000000000000000UL,
	};
#else
	static const uintptr_t vals[] = {
		0xc0000000U, 0xbf000000U, 0xc0008000U, 0xffff0000U, 0xfffff000U,
		0xe0000000U,
	};
#endif
	return vals[below(w, ARRAY_SIZE(vals))] + (uintptr_t)(below(w, 16) * 8);
}

/*
 * A pointer for a @size-byte argument. Bad pointers are rarer than good
 * ones, so that the calls mostly get past the copy and into the driver.
 */
struct ptr pick_ptr(struct worker *w, size_t size)
{
	unsigned char *buf = w->pages, *straddle = w->pages + page_size;
	struct ptr p = { .kind = PK_VALID };
	uint32_t r = below(w, 1000);
	size_t off;

	/* Random sizes (op_magic_ioctl) go up to 16 KiB: one page is plenty. */
	if (size > (size_t)page_size - 8)
		size = (size_t)page_size - 8;
	if (r < 780) {
		p.kind = PK_VALID;
		p.fill = buf;
	} else if (r < 840) {
		p.kind = PK_MISALIGNED;
		p.fill = buf + 1 + below(w, 7);
	} else if (r < 865) {
		p.kind = PK_NULL;
	} else if (r < 890) {
		p.kind = PK_NOACCESS;
		p.addr = (uintptr_t)(w->pages + 2 * page_size) + below(w, 64);
	} else if (r < 920) {
		p.kind = PK_READONLY;
		p.addr = (uintptr_t)(w->pages + 3 * page_size) + (chance(w, 500) ? 0 : below(w, 8));
	} else if (r < 950) {
		p.kind = PK_STRADDLE;
		off = size > 1 ? 1 + below(w, (uint32_t)size - 1) : 0;
		p.fill = straddle + page_size - off;
		p.fill_len = off;
	} else if (r < 970) {
		p.kind = PK_KERNEL;
		p.addr = kernel_address(w);
	} else if (r < 985) {
		p.kind = PK_SMALL;
		p.addr = chance(w, 500) ? below(w, 16) : below(w, 4096);
	} else {
		p.kind = PK_RANDOM;
		p.addr = (uintptr_t)rnd64(w);
	}
	if (p.fill) {
		p.addr = (uintptr_t)p.fill;
		if (p.kind != PK_STRADDLE)
			p.fill_len = size;
	}
	/* A small or random address may be ours: then NULL instead. */
	if ((p.kind == PK_SMALL || p.kind == PK_RANDOM) &&
	    (in_stack_zone(p.addr, size > 512 ? size : 512) ||
	     any_mapped(p.addr, size > 512 ? size : 512))) {
		p.kind = PK_NULL;
		p.addr = 0;
	}
	return p;
}

/* The kernel can read [addr, addr + size). */
bool readable(const struct ptr *p)
{
	return p->kind == PK_VALID || p->kind == PK_MISALIGNED || p->kind == PK_READONLY;
}

bool writable(const struct ptr *p)
{
	return p->kind == PK_VALID || p->kind == PK_MISALIGNED;
}

/* Copies the input to where the pointer points, as far as it can. */
void fill_ptr(const struct ptr *p, const void *data, size_t size)
{
	if (p->fill)
		memcpy(p->fill, data, size < p->fill_len ? size : p->fill_len);
}
