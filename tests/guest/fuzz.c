// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz: a seeded, repeatable fuzzer of /dev/armpmu. Runs as root inside the
 * guest (tools/pmu-vm), prints TAP and exits non-zero if anything failed.
 *
 *   fuzz [--seed N] [--calls N] [--threads N] [--procs N] [--timeout S]
 *        [--cpu-hotplug] [--no-counting]
 *
 * --no-counting: QEMU's model of the board's PMU never counts (Cortex-A8,
 * A9): the checks at the end ask for everything but counts.
 *
 * Several worker processes (root; lab, in the armpmu group; guest, who is
 * not) each run several threads. Every thread has its own PRNG, seeded from
 * (seed, process, thread): the calls a thread makes are the same on every
 * run with the same options, only their interleaving with the other threads
 * differs. A failure names the seed, the process, the thread, its seed and
 * the index of the call, and the call with its arguments.
 *
 * What is checked: every errno is one armpmu(4) documents (and one that call
 * can return: ENOTTY only for unknown numbers, ESPIPE only from lseek, ...),
 * outputs are sane, the guest user only ever gets EACCES from open, no
 * worker dies or hangs, and afterwards every CPU's PMU is free, can be
 * claimed again and counts, and the kernel log is clean.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <grp.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <linux/armpmu.h>

#include "checks.h"
#include "devio.h"
#include "pmu-asm.h"
#include "tap.h"
#include "users.h"

#define EXCL_K			ARMPMU_EXCLUDE_KERNEL
#define EXCL_U			ARMPMU_EXCLUDE_USER

#define MAX_PROCS		16
#define MAX_THREADS		64
#define MAX_CPUS		64
/* Per thread: slot 0 is never bound (a watcher), the others may be. */
#define PRIV_FDS		4
/* Per process: fds every thread of it uses, so calls race on one file. */
#define SHARED_FDS		4
/* errno histogram: 0 is success, the last slot takes any errno above. */
#define NERR			256
/* Failure lines printed per thread: the first ones say enough. */
#define MAX_PRINTED		8
/* Trips of loop_n() (two instructions each) inside a counting sequence. */
#define SPIN_SEQ		2000UL

#define ARRAY_SIZE(a)		(sizeof(a) / sizeof((a)[0]))

/* Kinds of failure, each its own TAP test at the end. */
enum fail_kind {
	F_UNDOC,	/* an errno armpmu(4) does not document */
	F_WRONG,	/* a documented errno that this call cannot return */
	F_OUTPUT,	/* a successful call whose output is wrong */
	F_GUEST,	/* the guest's open() did not fail with EACCES */
	F_KINDS
};

/* The calls, for the per-kind summary. */
enum op_kind {
	OP_OPEN, OP_CLOSE, OP_DUP, OP_DUP2, OP_IOCTL, OP_MAGIC, OP_RANDOM,
	OP_READ, OP_WRITE, OP_LSEEK, OP_MMAP, OP_SEQ, OP_RELEASE, OP_KINDS
};
static const char *const op_name[] = {
	"open", "close", "dup", "dup2", "ioctl", "ioctl(armpmu magic, random nr/dir/size)",
	"ioctl(random number)", "read", "write", "lseek", "mmap",
	"ioctl(counting sequence)", "ioctl(RELEASE by root)",
};

/* What one thread did, in memory shared with the parent (one writer each). */
struct thread_stats {
	uint64_t seed;
	uint64_t calls;
	uint64_t errs[NERR];
	uint64_t ops[OP_KINDS];
	uint64_t fails[F_KINDS];
	uint32_t done;
};

struct shared {
	volatile int stop_hotplug;
	uint64_t hotplug_flips, hotplug_errors;
	int hotplug_last_err;
	struct thread_stats t[];	/* [proc * threads + thread] */
};

static struct shared *sh;

/* Options. */
static uint64_t opt_seed = 1;
static uint64_t opt_calls = 100000;
static unsigned int opt_threads = 4, opt_procs = 3, opt_timeout = 300;
static bool opt_hotplug;

/* What the board is, found by the parent before the workers start. */
static long page_size;
static unsigned int ncpus;		/* possible CPUs: 0 .. ncpus - 1 */
static unsigned int cpu_nc[MAX_CPUS];	/* num_counters per CPU, 0: unknown */
static unsigned int cpu_eb[MAX_CPUS];	/* event_bits per CPU */
static unsigned int num_counters, event_bits;	/* CPU 0's */
/*
 * Calls per thread. The guest can only be refused at open(): a tenth as
 * many calls, and --calls counts those of the users who get further.
 */
static uint64_t quota, guest_quota;

/* Interesting values, filled in once num_counters and event_bits are known. */
static uint32_t cpu_vals[12], idx_vals[12], ev_vals[16], counter_vals[12];
static const uint32_t flag_vals[] = {
	0, EXCL_K, EXCL_K, EXCL_K, EXCL_U, EXCL_U | EXCL_K, EXCL_U | EXCL_K,
	4, 0x80000000U, 0xffffffffU,
};
static const uint32_t div_vals[] = { 0, 0, 1, 1, 2, 0x80000000U, 0xffffffffU };
/* Groups: mostly none, a few small ones that fill up, noise. */
static const uint32_t group_vals[] = { 0, 0, 0, 0, 1, 1, 2, 3, 0xffffffffU };
static uint32_t nr_vals[8];

/* ---- the PRNG ---- */

/* splitmix64: tiny, fast, and good enough to pick calls. */
static uint64_t splitmix64(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* A thread's seed depends on the run's seed and on its place only. */
static uint64_t thread_seed(uint64_t seed, unsigned int proc, unsigned int thread)
{
	uint64_t s = seed ^ ((uint64_t)(proc + 1) << 40) ^ ((uint64_t)(thread + 1) << 20);

	return splitmix64(&s);
}

/* ---- a worker thread ---- */

enum pkind {
	PK_VALID, PK_MISALIGNED, PK_NULL, PK_NOACCESS, PK_READONLY, PK_STRADDLE,
	PK_KERNEL, PK_SMALL, PK_RANDOM,
};
static const char *const pkind_name[] = {
	"buffer", "misaligned buffer", "NULL", "PROT_NONE page", "read-only page",
	"buffer running into a PROT_NONE page", "kernel address", "small integer",
	"random address",
};

/* A pointer argument: where it points, and where to put the input. */
struct ptr {
	enum pkind kind;
	uintptr_t addr;
	unsigned char *fill;	/* writable start, or NULL */
	size_t fill_len;	/* bytes that can be written there */
};

/* One call, kept to describe it if it fails. */
struct call {
	const char *op;
	int fd;
	const char *fdkind;
	unsigned long req;
	bool has_ptr, has_len;
	enum pkind pkind;
	uintptr_t ptr;
	size_t len;
	unsigned int nargs;
	uint64_t arg[5];
};

struct worker {
	unsigned int proc, thread;
	enum guest_user role;
	uint64_t seed, rng;
	uint64_t ncall;			/* index of the current call */
	struct thread_stats *st;
	int priv[PRIV_FDS];
	bool excl[PRIV_FDS];		/* opened here, never a dup of a shared fd */
	unsigned char *pages;		/* buffer, straddle, PROT_NONE, read-only */
	unsigned int printed;
	pthread_t tid;
};

/* Per process, never changed once the threads run: see replace_shared(). */
static int shared_fd[SHARED_FDS];
static pthread_barrier_t start_barrier;

static uint32_t rnd(struct worker *w)
{
	return (uint32_t)(splitmix64(&w->rng) >> 32);
}

static uint64_t rnd64(struct worker *w)
{
	return splitmix64(&w->rng);
}

/* Uniform in 0 .. n - 1. */
static uint32_t below(struct worker *w, uint32_t n)
{
	return (uint32_t)(((uint64_t)rnd(w) * n) >> 32);
}

static bool chance(struct worker *w, unsigned int per_mille)
{
	return below(w, 1000) < per_mille;
}

/* Mostly the interesting values, sometimes anything or one bit. */
static uint32_t pick(struct worker *w, const uint32_t *vals, size_t n)
{
	uint32_t r = below(w, 100);

	if (r < 8)
		return rnd(w);
	if (r < 12)
		return 1U << below(w, 32);
	return vals[below(w, (uint32_t)n)];
}

#define PICK(w, vals) pick(w, vals, ARRAY_SIZE(vals))

static uint64_t pick64(struct worker *w)
{
	static const uint64_t vals[] = {
		0, 1, 1000, 0x7fffffffULL, 0xffffffffULL, 0x100000000ULL,
		0xfffffffffff0ULL, 0x7fffffffffffffffULL, ~0ULL,
	};
	return chance(w, 200) ? rnd64(w) : vals[below(w, ARRAY_SIZE(vals))];
}

/* Reserved fields: zero, and now and then not. */
static uint32_t reserved(struct worker *w)
{
	return chance(w, 40) ? (rnd(w) | 1) : 0;
}

/* A valid CPU number, mostly, for calls that should get somewhere. */
static uint32_t some_cpu(struct worker *w)
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

static void find_stack_zone(void)
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
static struct ptr pick_ptr(struct worker *w, size_t size)
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
static bool readable(const struct ptr *p)
{
	return p->kind == PK_VALID || p->kind == PK_MISALIGNED || p->kind == PK_READONLY;
}

static bool writable(const struct ptr *p)
{
	return p->kind == PK_VALID || p->kind == PK_MISALIGNED;
}

/* Copies the input to where the pointer points, as far as it can. */
static void fill_ptr(const struct ptr *p, const void *data, size_t size)
{
	if (p->fill)
		memcpy(p->fill, data, size < p->fill_len ? size : p->fill_len);
}

static bool documented(int err)
{
	switch (err) {
	case EACCES: case EALREADY: case EBUSY: case ECANCELED: case EFAULT:
	case EINVAL: case EIO: case ENODEV: case ENOENT: case ENOSPC: case ENOTTY: case ENXIO:
	case EOPNOTSUPP: case EPERM: case ESPIPE: case ESRCH:
	/* A shared fd closed by another thread; EINTR if a signal came. */
	case EBADF: case EINTR:
		return true;
	}
	return false;
}

static void call_init(struct call *c, const char *op, int fd, const char *fdkind)
{
	memset(c, 0, sizeof(*c));
	c->op = op;
	c->fd = fd;
	c->fdkind = fdkind;
}

static void call_ptr(struct call *c, const struct ptr *p)
{
	c->has_ptr = true;
	c->pkind = p->kind;
	c->ptr = p->addr;
}

static void call_arg(struct call *c, uint64_t v)
{
	if (c->nargs < ARRAY_SIZE(c->arg))
		c->arg[c->nargs++] = v;
}

static int describe(const struct call *c, char *buf, size_t len)
{
	int n = snprintf(buf, len, "%s(fd %d%s%s", c->op, c->fd,
			 c->fdkind ? " " : "", c->fdkind ? c->fdkind : "");
	unsigned int i;

	if (c->req && n < (int)len)
		n += snprintf(buf + n, len - n, ", req %#lx", c->req);
	if (c->has_ptr && n < (int)len)
		n += snprintf(buf + n, len - n, ", %s %#llx", pkind_name[c->pkind],
			      (ull)c->ptr);
	if (c->has_len && n < (int)len)
		n += snprintf(buf + n, len - n, ", len %#llx", (ull)c->len);
	for (i = 0; i < c->nargs && n < (int)len; i++)
		n += snprintf(buf + n, len - n, "%s%#llx", i ? " " : ", args ",
			      (ull)c->arg[i]);
	if (n < (int)len)
		n += snprintf(buf + n, len - n, ")");
	return n;
}

/*
 * A failure: counted, and the first few printed as `# ` lines, each in one
 * write() so that lines of different processes do not mix.
 */
__attribute__((format(printf, 4, 5)))
static void fail(struct worker *w, enum fail_kind kind, const struct call *c,
		 const char *fmt, ...)
{
	char line[640];
	va_list ap;
	int n;

	w->st->fails[kind]++;
	if (w->printed++ >= MAX_PRINTED)
		return;
	n = snprintf(line, sizeof(line),
		     "# FAIL seed %llu proc %u (%s) thread %u (thread seed %#llx) call #%llu: ",
		     (ull)opt_seed, w->proc, user_name(w->role), w->thread,
		     (ull)w->seed, (ull)w->ncall);
	if (c && n < (int)sizeof(line)) {
		n += describe(c, line + n, sizeof(line) - n);
		if (n < (int)sizeof(line))
			n += snprintf(line + n, sizeof(line) - n, ": ");
	}
	if (n < (int)sizeof(line)) {
		va_start(ap, fmt);
		n += vsnprintf(line + n, sizeof(line) - n, fmt, ap);
		va_end(ap);
	}
	if (n >= (int)sizeof(line) - 1)
		n = sizeof(line) - 2;
	line[n++] = '\n';
	if (write(STDOUT_FILENO, line, n) < 0)
		return;	/* nowhere else to say it: the count stays */
}

/*
 * Counts a finished call and checks its errno: documented, and if @only is
 * given, one of those (0-terminated; EBADF and EINTR always pass).
 */
static void done(struct worker *w, struct call *c, enum op_kind kind, int err,
		 const int *only)
{
	const int *o;

	w->st->calls++;
	w->st->ops[kind]++;
	w->st->errs[err >= 0 && err < NERR - 1 ? err : NERR - 1]++;
	if (err && !documented(err)) {
		fail(w, F_UNDOC, c, "%s (%d), which armpmu(4) does not document",
		     tap_errname(err), err);
	} else if (err && only && err != EBADF && err != EINTR) {
		for (o = only; *o && *o != err; o++)
			;
		if (!*o)
			fail(w, F_WRONG, c, "%s (%d), which this call cannot return",
			     tap_errname(err), err);
	}
	w->ncall++;
}

/* ncall is the index of the call about to be made, for the messages. */
#define FAIL_AFTER(w, kind, c, ...) do {	\
	(w)->ncall--;				\
	fail(w, kind, c, __VA_ARGS__);		\
	(w)->ncall++;				\
} while (0)

/* An fd to call on: a private one (if open) or a shared one. */
static int pick_fd(struct worker *w, const char **kind, int *slot)
{
	unsigned int i;

	*slot = -1;
	if (chance(w, 600)) {
		i = 1 + below(w, PRIV_FDS - 1);
		if (w->priv[i] >= 0) {
			*kind = "(private)";
			*slot = (int)i;
			return w->priv[i];
		}
	}
	*kind = "(shared)";
	return shared_fd[below(w, SHARED_FDS)];
}

/* ---- ioctls ---- */

enum argkind {
	A_NONE, A_CPU, A_INDEX, A_EVENT, A_DIVIDER, A_FLAGS, A_VALUE, A_STATUS,
	A_OUT, A_ATTACH, A_FILE, A_FILE_ID, A_REGS, A_SLOTS, A_THREADS, A_SAMPLING,
	A_SAMPLES,
};

/*
 * READ_SAMPLES' room after its header. A call's size is at most this, or
 * one the driver refuses (below the largest sample): the driver writes
 * whole records up to the size it is given.
 */
#define SAMPLES_ROOM	2048

/*
 * READ_THREADS' room: entries of every slot after the header. A call asks
 * for at most this many, or more only with a field that makes it EINVAL:
 * a file may count more threads than that (FOLLOW), and the driver writes
 * every entry it fills.
 */
#define THREADS_ROOM	4
#define THREAD_BYTES	ARMPMU_THREAD_SIZE(ARMPMU_MAX_COUNTERS)

static const struct ioc_desc {
	const char *name;
	unsigned long req;
	enum argkind arg;
	size_t size;
} iocs[] = {
	{ "INFO", ARMPMU_IOC_INFO, A_OUT, sizeof(struct armpmu_info) },
	{ "BIND", ARMPMU_IOC_BIND, A_CPU, sizeof(__u32) },
	{ "SELECT", ARMPMU_IOC_SELECT, A_INDEX, sizeof(__u32) },
	{ "SET_EVENT", ARMPMU_IOC_SET_EVENT, A_EVENT, sizeof(struct armpmu_event) },
	{ "SET_DIVIDER", ARMPMU_IOC_SET_DIVIDER, A_DIVIDER, sizeof(__u32) },
	{ "RESET", ARMPMU_IOC_RESET, A_NONE, 0 },
	{ "START", ARMPMU_IOC_START, A_NONE, 0 },
	{ "STOP", ARMPMU_IOC_STOP, A_NONE, 0 },
	{ "READ", ARMPMU_IOC_READ, A_OUT, sizeof(struct armpmu_counts) },
	{ "CPU_STATUS", ARMPMU_IOC_CPU_STATUS, A_STATUS, sizeof(struct armpmu_cpu_status) },
	{ "RELEASE", ARMPMU_IOC_RELEASE, A_CPU, sizeof(__u32) },
	{ "SET_VALUE", ARMPMU_IOC_SET_VALUE, A_VALUE, sizeof(struct armpmu_value) },
	{ "SET_CYCLE_FILTER", ARMPMU_IOC_SET_CYCLE_FILTER, A_FLAGS, sizeof(__u32) },
	{ "ATTACH", ARMPMU_IOC_ATTACH, A_ATTACH, sizeof(struct armpmu_attach) },
	{ "FILE_STATUS", ARMPMU_IOC_FILE_STATUS, A_FILE, sizeof(struct armpmu_file_status) },
	{ "RELEASE_FILE", ARMPMU_IOC_RELEASE_FILE, A_FILE_ID, sizeof(__u32) },
	{ "REGS", ARMPMU_IOC_REGS, A_REGS, sizeof(struct armpmu_regs) },
	/* The header and room for every slot it may ask for. */
	{ "READ_SLOTS", ARMPMU_IOC_READ_SLOTS, A_SLOTS,
	  sizeof(struct armpmu_read) + ARMPMU_MAX_COUNTERS * sizeof(struct armpmu_slot) },
	{ "READ_THREADS", ARMPMU_IOC_READ_THREADS, A_THREADS,
	  sizeof(struct armpmu_threads) + THREADS_ROOM * THREAD_BYTES },
	{ "SET_SAMPLING", ARMPMU_IOC_SET_SAMPLING, A_SAMPLING, sizeof(struct armpmu_sampling) },
	{ "READ_SAMPLES", ARMPMU_IOC_READ_SAMPLES, A_SAMPLES,
	  sizeof(struct armpmu_samples) + SAMPLES_ROOM },
};

static const int only_efault[] = { EFAULT, 0 };
static const int only_not_enotty[] = {
	EACCES, EALREADY, EBUSY, ECANCELED, EFAULT, EINVAL, EIO, ENODEV, ENOENT,
	ENOSPC, ENXIO, EOPNOTSUPP, EPERM, ESRCH, 0
};
/* SET_SAMPLING's own: a period, a ring, memory. */
static const int only_sampling[] = {
	E2BIG, EACCES, EBUSY, ECANCELED, EFAULT, EINVAL, ENODEV, ENOMEM, EOPNOTSUPP,
	ERANGE, ESRCH, 0
};
/* Calls that never bind: no EBUSY, ENXIO from binding. */
static const int only_watcher[] = { EFAULT, EINVAL, ENODEV, ENOENT, EPERM, 0 };

static bool zero_u32s(const __u32 *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (v[i])
			return false;
	return true;
}

/* Checks what INFO wrote. @watcher: the file was never bound. */
static void check_info(struct worker *w, const struct call *c,
		       const struct armpmu_info *info, bool watcher)
{
	bool bound = info->flags & ARMPMU_INFO_BOUND;

	if (info->cpu >= ncpus || info->cpu >= MAX_CPUS) {
		FAIL_AFTER(w, F_OUTPUT, c, "INFO cpu %u, but there are %u CPUs", info->cpu, ncpus);
		return;
	}
	if (info->num_counters != cpu_nc[info->cpu] || info->event_bits != cpu_eb[info->cpu] ||
	    (info->flags & ~0x7fU) || !zero_u32s(info->reserved, ARRAY_SIZE(info->reserved)) ||
	    !!(info->flags & ARMPMU_INFO_KERNEL_ALLOWED) != (w->role == AS_ROOT) ||
	    (watcher && bound))
		FAIL_AFTER(w, F_OUTPUT, c,
			   "INFO cpu %u num_counters %u (expected %u) event_bits %u (expected %u) "
			   "flags %#x reserved[0] %#x%s", info->cpu, info->num_counters,
			   cpu_nc[info->cpu], info->event_bits, cpu_eb[info->cpu], info->flags,
			   info->reserved[0], watcher ? ", on a file never bound" : "");
}

/* Checks a snapshot from READ or read(2), @err its outcome (0 or EIO). */
static void check_counts(struct worker *w, const struct call *c,
			 const struct armpmu_counts *counts, int err)
{
	unsigned int i;
	bool zero_tail = true;

	for (i = counts->nr; i < ARMPMU_MAX_COUNTERS && counts->nr <= ARMPMU_MAX_COUNTERS; i++)
		zero_tail &= counts->events[i] == 0;
	bool mux = counts->flags & ARMPMU_COUNTS_MULTIPLEXED;

	if ((mux ? counts->nr < num_counters || counts->nr > ARMPMU_MAX_COUNTERS ||
	     !(counts->flags & ARMPMU_COUNTS_INCOMPLETE) : counts->nr != num_counters) ||
	    (counts->flags & ~0x1fU) || !zero_tail ||
	    counts->time_running > counts->time_enabled ||
	    !!(counts->flags & ARMPMU_COUNTS_DISTURBED) != (err == EIO))
		FAIL_AFTER(w, F_OUTPUT, c, "%s: counts nr %u (expected %u) flags %#x%s",
			   tap_errname(err), counts->nr, num_counters, counts->flags,
			   zero_tail ? "" : ", events past nr not zero");
}

/*
 * A READ_SLOTS answer: the slots asked for, each within the file's time,
 * nothing programmed past the slots reported, empty slots all zero.
 */
static void check_slots(struct worker *w, const struct call *c, const struct armpmu_read *rd,
			const struct armpmu_slot *slot, uint32_t nr, int err)
{
	unsigned int i, bad = 0;

	for (i = 0; i < nr; i++)
		bad += slot[i].time_running > slot[i].time_enabled ||
		       slot[i].time_enabled > rd->time_enabled ||
		       (!(rd->programmed & (1U << i)) &&
			(slot[i].value || slot[i].time_enabled || slot[i].time_running));
	if (rd->nr != nr || rd->reserved[0] || rd->reserved[1] || (rd->flags & ~0x1fU) ||
	    rd->slots > ARMPMU_MAX_COUNTERS || (rd->programmed >> rd->slots) ||
	    rd->time_running > rd->time_enabled || bad ||
	    !!(rd->flags & ARMPMU_COUNTS_DISTURBED) != (err == EIO))
		FAIL_AFTER(w, F_OUTPUT, c,
			   "%s: READ_SLOTS nr %u (asked %u) flags %#x slots %u programmed %#x, "
			   "%u slots off", tap_errname(err), rd->nr, nr, rd->flags, rd->slots,
			   rd->programmed, bad);
}

/*
 * READ_SLOTS reads its input words (nr and reserved, the header's first
 * 24 bytes), then writes the header and the @nr slots asked for: a buffer
 * that ends after the input is EFAULT only if the call gets to the copy.
 */
static void check_read_slots(struct worker *w, struct call *c, const struct ptr *p,
			     uint32_t nr, int err)
{
	size_t in = offsetof(struct armpmu_read, cycles), hdr = sizeof(struct armpmu_read);
	size_t out = nr <= ARMPMU_MAX_COUNTERS ? hdr + nr * sizeof(struct armpmu_slot) : 0;
	bool straddles = p->kind == PK_STRADDLE;

	if (!readable(p) && !(straddles && p->fill_len >= in)) {
		done(w, c, OP_IOCTL, err, only_efault);
		return;
	}
	done(w, c, OP_IOCTL, err, only_not_enotty);
	if ((!err || err == EIO) && !writable(p) && !(straddles && p->fill_len >= out))
		FAIL_AFTER(w, F_WRONG, c, "%s with a pointer it cannot write",
			   tap_errname(err));
}

/*
 * READ_THREADS reads its header, then writes the entries it filled and
 * the header: a successful call had room for both (a straddling buffer's
 * header, copied out last, says how many entries), and said sane things:
 * no more entries than asked or kept, from the index asked, each within
 * its own times, flags only the documented ones, no slot values where the
 * file kept none.
 */
/*
 * READ_SAMPLES: as READ_THREADS, the header read first; what it gave must
 * be whole records of the kinds there are, no more than the room.
 */
static void check_read_samples(struct worker *w, struct call *c, const struct ptr *p,
			       const struct armpmu_samples *in, int err)
{
	struct armpmu_samples out;
	struct armpmu_record h;
	bool straddles = p->kind == PK_STRADDLE;
	size_t off = 0, len;

	if (!readable(p) && !(straddles && p->fill_len >= sizeof(*in))) {
		done(w, c, OP_IOCTL, err, only_efault);
		return;
	}
	done(w, c, OP_IOCTL, err, only_not_enotty);
	if (err)
		return;
	if (!writable(p) && !straddles) {
		FAIL_AFTER(w, F_WRONG, c, "success with a pointer it cannot write");
		return;
	}
	memcpy(&out, p->fill, sizeof(out));
	len = out.size;
	if (len > in->size || sizeof(out) + len > p->fill_len || len % 8 ||
	    out.flags & ~ARMPMU_SAMPLES_ENDED) {
		FAIL_AFTER(w, F_OUTPUT, c, "READ_SAMPLES gave %zu bytes (room %u), flags %#x",
			   len, in->size, out.flags);
		return;
	}
	while (off < len) {
		memcpy(&h, (char *)p->fill + sizeof(out) + off, sizeof(h));
		if (h.size < sizeof(h) || h.size % 8 || off + h.size > len ||
		    h.type < ARMPMU_RECORD_SAMPLE || h.type > ARMPMU_RECORD_LET_GO) {
			FAIL_AFTER(w, F_OUTPUT, c, "READ_SAMPLES record at %zu: type %u size %u",
				   off, h.type, h.size);
			return;
		}
		off += h.size;
	}
}

static void check_read_threads(struct worker *w, struct call *c, const struct ptr *p,
			       const struct armpmu_threads *in, int err)
{
	struct armpmu_threads out;
	const struct armpmu_threads *hdr = &out;
	union {
		struct armpmu_thread t;
		char bytes[THREAD_BYTES];
	} e;
	size_t size = ARMPMU_THREAD_SIZE(in->slots), need;
	unsigned int bad = 0;
	bool straddles = p->kind == PK_STRADDLE;

	if (!readable(p) && !(straddles && p->fill_len >= sizeof(*in))) {
		done(w, c, OP_IOCTL, err, only_efault);
		return;
	}
	done(w, c, OP_IOCTL, err, only_not_enotty);
	if (err)
		return;
	if (!writable(p) && !straddles) {
		FAIL_AFTER(w, F_WRONG, c, "success with a pointer it cannot write");
		return;
	}
	/* Copies: a misaligned buffer's fields are read byte by byte. */
	memcpy(&out, p->fill, sizeof(out));
	need = sizeof(*hdr) + (size_t)hdr->nr * size;
	if (hdr->nr > in->nr || need > p->fill_len) {
		FAIL_AFTER(w, F_OUTPUT, c, "READ_THREADS filled %u entries (asked %u), %zu bytes "
			   "into a buffer of %zu", hdr->nr, in->nr, need, p->fill_len);
		return;
	}
	for (uint32_t i = 0; i < hdr->nr; i++) {
		const struct armpmu_thread *t = &e.t;
		bool no_slots;

		memcpy(e.bytes, p->fill + sizeof(out) + i * size, size);
		no_slots = t->flags & ARMPMU_THREAD_NO_SLOTS;

		bad += (t->flags & ~(ARMPMU_THREAD_EXITED | ARMPMU_THREAD_NO_SLOTS)) ||
		       t->time_running > t->time_enabled;
		for (uint32_t k = 0; no_slots && k < in->slots; k++)
			bad += t->value[k] != 0;
	}
	if (hdr->index != in->index || hdr->slots != in->slots ||
	    hdr->reserved[0] || hdr->reserved[1] || (hdr->flags & ~ARMPMU_THREADS_LOST) ||
	    !!(hdr->flags & ARMPMU_THREADS_LOST) != (hdr->lost != 0) ||
	    hdr->threads > ARMPMU_THREADS_KEPT ||
	    (hdr->nr && (uint64_t)hdr->index + hdr->nr > hdr->threads) || bad)
		FAIL_AFTER(w, F_OUTPUT, c,
			   "READ_THREADS index %u (asked %u) nr %u slots %u flags %#x threads %u "
			   "lost %u, %u entries off", hdr->index, in->index, hdr->nr, hdr->slots,
			   hdr->flags, hdr->threads, hdr->lost, bad);
}

static void check_status(struct worker *w, const struct call *c,
			 const struct armpmu_cpu_status *st, uint32_t cpu)
{
	bool usable = st->flags & ARMPMU_CPU_USABLE;

	if (st->cpu != cpu || (st->flags & ~0x3fU) ||
	    !zero_u32s(st->reserved, ARRAY_SIZE(st->reserved)) ||
	    (!(st->flags & ARMPMU_CPU_OWNED) && (st->owner_pid || st->owner_uid ||
						  (st->flags & ARMPMU_CPU_CALLER))) ||
	    (!(st->flags & ARMPMU_CPU_FOREIGN) && st->foreign_counters) ||
	    (usable && cpu < MAX_CPUS && (st->info.num_counters != cpu_nc[cpu] ||
					  st->info.cpu != cpu ||
					  (st->info.flags & ~(ARMPMU_INFO_CAN_FILTER |
							      ARMPMU_INFO_EVENTS_KNOWN |
							      ARMPMU_INFO_CAN_DIVIDE)))))
		FAIL_AFTER(w, F_OUTPUT, c,
			   "CPU_STATUS cpu %u (asked %u) flags %#x owner %u/%u foreign %#x "
			   "info.cpu %u info.num_counters %u info.flags %#x",
			   st->cpu, cpu, st->flags, st->owner_pid, st->owner_uid,
			   st->foreign_counters, st->info.cpu, st->info.num_counters,
			   st->info.flags);
}

/* A successful REGS: root's only, of the CPU asked, its N as INFO says. */
static void check_regs(struct worker *w, const struct call *c,
		       const struct armpmu_regs *r, uint32_t cpu)
{
	uint32_t n = (r->pmcr >> 11) & 0x1f;

	if (w->role != AS_ROOT || r->cpu != cpu || cpu >= MAX_CPUS ||
	    (r->flags & ~ARMPMU_REGS_CYCLE_FILTER) ||
	    !zero_u32s(r->reserved, ARRAY_SIZE(r->reserved)) ||
	    (cpu_nc[cpu] && (r->num_counters != cpu_nc[cpu] || n != cpu_nc[cpu])))
		FAIL_AFTER(w, F_OUTPUT, c,
			   "REGS as %s: cpu %u (asked %u) flags %#x num_counters %u PMCR.N %u "
			   "(INFO says %u)", user_name(w->role), r->cpu, cpu, r->flags,
			   r->num_counters, n, cpu < MAX_CPUS ? cpu_nc[cpu] : 0);
}

/*
 * One of the real ioctls, with arguments from the interesting values.
 * @watcher: the call goes to the never-bound private fd, so only calls that
 * do not bind are made there.
 */
static void op_real_ioctl(struct worker *w, bool watcher)
{
	/* INFO, CPU_STATUS, RELEASE, FILE_STATUS, RELEASE_FILE */
	static const unsigned int watcher_iocs[] = { 0, 9, 10, 14, 15 };
	const struct ioc_desc *d;
	union {
		__u32 u32;
		struct armpmu_event ev;
		struct armpmu_value val;
		struct armpmu_cpu_status st;
		struct armpmu_info info;
		struct armpmu_counts counts;
		struct armpmu_attach at;
		struct armpmu_file_status fst;
		struct armpmu_regs regs;
		struct {
			struct armpmu_read hdr;
			struct armpmu_slot slot[ARMPMU_MAX_COUNTERS];
		} rd;
		struct {
			struct armpmu_threads hdr;
			char room[THREADS_ROOM * THREAD_BYTES];
		} th;
		struct armpmu_sampling sm;
		struct {
			struct armpmu_samples hdr;
			char room[SAMPLES_ROOM];
		} smp;
	} in, out;
	const char *fdkind = "(watcher)";
	struct call c;
	struct ptr p = { 0 };
	int fd, slot, err;
	uint32_t status_cpu = 0;

	if (watcher) {
		d = &iocs[watcher_iocs[below(w, ARRAY_SIZE(watcher_iocs))]];
		fd = w->priv[0];
	} else {
		d = &iocs[below(w, ARRAY_SIZE(iocs))];
		fd = pick_fd(w, &fdkind, &slot);
	}
	/*
	 * Root's RELEASE is rare (op_release): it takes CPUs from the others;
	 * RELEASE_FILE would end their files at random.
	 */
	if ((d->req == ARMPMU_IOC_RELEASE || d->req == ARMPMU_IOC_RELEASE_FILE) &&
	    w->role == AS_ROOT)
		d = &iocs[9];
	memset(&in, 0, sizeof(in));
	switch (d->arg) {
	case A_NONE:
		break;
	case A_CPU:
		in.u32 = PICK(w, cpu_vals);
		break;
	case A_INDEX:
		in.u32 = PICK(w, idx_vals);
		break;
	case A_DIVIDER:
		in.u32 = PICK(w, div_vals);
		break;
	case A_FLAGS:
		in.u32 = PICK(w, flag_vals);
		break;
	case A_EVENT:
		in.ev.event = PICK(w, ev_vals);
		in.ev.flags = PICK(w, flag_vals);
		in.ev.group = PICK(w, group_vals);
		in.ev.reserved = reserved(w);
		break;
	case A_VALUE:
		in.val.counter = PICK(w, counter_vals);
		in.val.reserved = reserved(w);
		in.val.value = pick64(w);
		break;
	case A_STATUS:
		in.st.cpu = chance(w, 800) ? below(w, ncpus) : PICK(w, cpu_vals);
		in.st.reserved[below(w, 3)] = reserved(w);
		/* Output fields are ignored on input: garbage must not matter. */
		if (chance(w, 300)) {
			in.st.flags = rnd(w);
			in.st.owner_pid = rnd(w);
			in.st.info.num_counters = rnd(w);
		}
		status_cpu = in.st.cpu;
		break;
	case A_OUT:
		memset(&in, 0xa5, sizeof(in));
		break;
	case A_SLOTS:
		memset(&in, 0xa5, sizeof(in));
		in.rd.hdr.nr = PICK(w, nr_vals);
		in.rd.hdr.reserved[0] = reserved(w);
		in.rd.hdr.reserved[1] = reserved(w);
		break;
	case A_THREADS:
		memset(&in, 0xa5, sizeof(in));
		in.th.hdr.index = chance(w, 700) ? below(w, 3) : PICK(w, idx_vals);
		in.th.hdr.nr = chance(w, 900) ? below(w, THREADS_ROOM + 1) : PICK(w, nr_vals);
		in.th.hdr.slots = chance(w, 800) ? below(w, ARMPMU_MAX_COUNTERS + 1) :
			       PICK(w, nr_vals);
		in.th.hdr.reserved[0] = reserved(w);
		in.th.hdr.reserved[1] = reserved(w);
		/* More than the room: only with slots the driver refuses. */
		if (in.th.hdr.nr > THREADS_ROOM && in.th.hdr.slots <= ARMPMU_MAX_COUNTERS)
			in.th.hdr.slots = ARMPMU_MAX_COUNTERS + 1 + below(w, 2);
		break;
	case A_SAMPLING: {
		static const __u64 periods[] = { 0, 100000, 1000000, 99999, 1 };
		static const __u32 rings[] = { 4096, 8192, 0, 1U << 20, 4095, (1U << 20) + 1 };

		in.sm.period_ns = chance(w, 900) ? periods[below(w, ARRAY_SIZE(periods))] :
				  rnd64(w);
		in.sm.ring_bytes = chance(w, 900) ? rings[below(w, ARRAY_SIZE(rings))] : rnd(w);
		in.sm.flags = chance(w, 900) ? below(w, 2) : rnd(w);
		in.sm.reserved[below(w, 4)] = reserved(w);
		break;
	}
	case A_SAMPLES:
		memset(&in, 0xa5, sizeof(in));
		in.smp.hdr.size = chance(w, 900) ? SAMPLES_ROOM - 8 * below(w, 200) :
				  below(w, ARMPMU_SAMPLE_SIZE(ARMPMU_MAX_COUNTERS));
		in.smp.hdr.reserved[0] = reserved(w);
		in.smp.hdr.reserved[1] = reserved(w);
		in.smp.hdr.reserved[2] = reserved(w);
		break;
	case A_ATTACH:
		/* Itself, a thread that does not exist, init (root's), noise. */
		in.at.tid = chance(w, 600) ? 0 : chance(w, 500) ? 0x3fffffffU :
			    chance(w, 500) ? 1 : rnd(w);
		in.at.flags = chance(w, 800) ? below(w, 2) : rnd(w);
		in.at.reserved[below(w, 2)] = reserved(w);
		break;
	case A_FILE:
		in.fst.id = chance(w, 800) ? below(w, 64) : rnd(w);
		in.fst.reserved[below(w, 4)] = reserved(w);
		break;
	case A_FILE_ID:
		in.u32 = chance(w, 800) ? below(w, 64) : rnd(w);
		break;
	case A_REGS:
		in.regs.cpu = chance(w, 800) ? below(w, ncpus) : PICK(w, cpu_vals);
		in.regs.reserved[below(w, 4)] = reserved(w);
		/* Output fields are ignored on input. */
		if (chance(w, 300)) {
			in.regs.flags = rnd(w);
			in.regs.num_counters = rnd(w);
		}
		status_cpu = in.regs.cpu;
		break;
	}

	call_init(&c, d->name, fd, fdkind);
	c.req = d->req;
	if (d->arg == A_NONE) {
		/* The argument is ignored: anything will do. */
		p.kind = chance(w, 900) ? PK_NULL : PK_RANDOM;
		p.addr = p.kind == PK_NULL ? 0 : (uintptr_t)rnd64(w);
		p.fill = NULL;
	} else {
		p = pick_ptr(w, d->size);
		fill_ptr(&p, &in, d->size);
		call_ptr(&c, &p);
		switch (d->arg) {
		case A_EVENT:
			call_arg(&c, in.ev.event);
			call_arg(&c, in.ev.flags);
			call_arg(&c, in.ev.group);
			call_arg(&c, in.ev.reserved);
			break;
		case A_VALUE:
			call_arg(&c, in.val.counter);
			call_arg(&c, in.val.reserved);
			call_arg(&c, in.val.value);
			break;
		case A_REGS:
			call_arg(&c, in.regs.cpu);
			call_arg(&c, in.regs.reserved[0]);
			break;
		case A_SLOTS:
			call_arg(&c, in.rd.hdr.nr);
			call_arg(&c, in.rd.hdr.reserved[0]);
			call_arg(&c, in.rd.hdr.reserved[1]);
			break;
		case A_THREADS:
			call_arg(&c, in.th.hdr.index);
			call_arg(&c, in.th.hdr.nr);
			call_arg(&c, in.th.hdr.slots);
			call_arg(&c, in.th.hdr.reserved[0]);
			call_arg(&c, in.th.hdr.reserved[1]);
			break;
		case A_STATUS:
			call_arg(&c, in.st.cpu);
			call_arg(&c, in.st.reserved[0]);
			call_arg(&c, in.st.reserved[1]);
			call_arg(&c, in.st.reserved[2]);
			break;
		case A_ATTACH:
			call_arg(&c, in.at.tid);
			call_arg(&c, in.at.flags);
			call_arg(&c, in.at.reserved[0]);
			call_arg(&c, in.at.reserved[1]);
			break;
		case A_FILE:
			call_arg(&c, in.fst.id);
			break;
		case A_SAMPLING:
			call_arg(&c, in.sm.period_ns);
			call_arg(&c, in.sm.ring_bytes);
			call_arg(&c, in.sm.flags);
			break;
		case A_SAMPLES:
			call_arg(&c, in.smp.hdr.size);
			break;
		case A_OUT:
			break;
		default:
			call_arg(&c, in.u32);
		}
	}
	err = ioctl(fd, d->req, (void *)p.addr) < 0 ? errno : 0;

	if (d->arg == A_SLOTS) {
		check_read_slots(w, &c, &p, in.rd.hdr.nr, err);
	} else if (d->arg == A_THREADS) {
		check_read_threads(w, &c, &p, &in.th.hdr, err);
		return;
	} else if (d->arg == A_SAMPLES) {
		check_read_samples(w, &c, &p, &in.smp.hdr, err);
		return;
	} else if (d->arg == A_SAMPLING && readable(&p)) {
		done(w, &c, OP_IOCTL, err, only_sampling);
	} else if (d->arg != A_NONE && !readable(&p) && (d->arg != A_OUT)) {
		/* Input copied first: a pointer it cannot read is EFAULT, always. */
		done(w, &c, OP_IOCTL, err, only_efault);
	} else if (d->arg == A_OUT || d->arg == A_STATUS || d->arg == A_FILE ||
		   d->arg == A_REGS) {
		done(w, &c, OP_IOCTL, err, watcher ? only_watcher : only_not_enotty);
		if ((!err || err == EIO) && !writable(&p) && d->arg != A_NONE)
			FAIL_AFTER(w, F_WRONG, &c, "%s with a pointer it cannot write",
				   tap_errname(err));
	} else if (d->req == ARMPMU_IOC_RELEASE || d->req == ARMPMU_IOC_RELEASE_FILE) {
		/* Not root here: get_user, then the capability. */
		static const int only_eperm[] = { EPERM, EFAULT, 0 };

		done(w, &c, OP_IOCTL, err, only_eperm);
	} else {
		done(w, &c, OP_IOCTL, err, watcher ? only_watcher : only_not_enotty);
	}
	if (!writable(&p))
		return;
	if (d->req == ARMPMU_IOC_INFO && !err) {
		memcpy(&out.info, p.fill, sizeof(out.info));
		check_info(w, &c, &out.info, watcher);
	} else if (d->req == ARMPMU_IOC_READ && (!err || err == EIO)) {
		memcpy(&out.counts, p.fill, sizeof(out.counts));
		check_counts(w, &c, &out.counts, err);
	} else if (d->req == ARMPMU_IOC_CPU_STATUS && !err) {
		memcpy(&out.st, p.fill, sizeof(out.st));
		check_status(w, &c, &out.st, status_cpu);
	} else if (d->req == ARMPMU_IOC_REGS && !err) {
		memcpy(&out.regs, p.fill, sizeof(out.regs));
		check_regs(w, &c, &out.regs, status_cpu);
	} else if (d->req == ARMPMU_IOC_READ_SLOTS && (!err || err == EIO)) {
		memcpy(&out.rd, p.fill, sizeof(out.rd.hdr) + in.rd.hdr.nr * sizeof(out.rd.slot[0]));
		check_slots(w, &c, &out.rd.hdr, out.rd.slot, in.rd.hdr.nr, err);
	}
}

/*
 * Ioctl type bytes the VFS answers itself, before the driver (FIOCLEX,
 * FIONBIO, FIONREAD, FIGETBSZ, FIFREEZE, FICLONE, FS_IOC_*...): their
 * errnos are the VFS's, not armpmu's, so random numbers avoid them.
 */
static bool vfs_type(unsigned int type)
{
	return type == 0x00 || type == 'T' || type == 'X' || type == 'f' ||
	       type == 0x94 || type == 0x15;
}

/* The armpmu magic with a random nr, direction and size. */
static void op_magic_ioctl(struct worker *w)
{
	static const unsigned int sizes[] = {
		0, 1, 4, 8, 16, sizeof(struct armpmu_info), sizeof(struct armpmu_counts),
		sizeof(struct armpmu_cpu_status), sizeof(struct armpmu_value),
	};
	unsigned int dir = below(w, 4), nr, size;
	const char *fdkind;
	unsigned long req;
	struct call c;
	struct ptr p;
	int fd, slot, err;

	nr = chance(w, 700) ? below(w, 16) : rnd(w) & 0xff;
	size = chance(w, 700) ? sizes[below(w, ARRAY_SIZE(sizes))] : rnd(w) & _IOC_SIZEMASK;
	req = _IOC(dir, ARMPMU_IOC_MAGIC, nr, size);
	/* RELEASE from root is op_release's, rarely. */
	if (req == ARMPMU_IOC_RELEASE && w->role == AS_ROOT)
		req = _IOC(dir, ARMPMU_IOC_MAGIC, 0x0e, size);
	/* READ_SAMPLES writes as much as its header says: op_ioctl's, with its room. */
	if (req == ARMPMU_IOC_READ_SAMPLES)
		req = _IOC(dir, ARMPMU_IOC_MAGIC, 0x16, size);
	fd = pick_fd(w, &fdkind, &slot);
	p = pick_ptr(w, size);
	if (p.fill)
		memset(p.fill, below(w, 2) ? 0 : 0xa5, p.fill_len);
	call_init(&c, "ioctl", fd, fdkind);
	c.req = req;
	call_ptr(&c, &p);
	err = ioctl(fd, req, (void *)p.addr) < 0 ? errno : 0;
	done(w, &c, OP_MAGIC, err, NULL);
	if (!err && !writable(&p) && (dir & _IOC_READ) && size)
		FAIL_AFTER(w, F_WRONG, &c, "success with a pointer it cannot write");
}

/* A random ioctl number: not armpmu's, so ENOTTY. */
static void op_random_ioctl(struct worker *w)
{
	static const int only_enotty[] = { ENOTTY, 0 };
	const char *fdkind;
	unsigned long req;
	struct call c;
	struct ptr p;
	int fd, slot, err;

	do {
		req = rnd(w);
	} while (_IOC_TYPE(req) == ARMPMU_IOC_MAGIC || vfs_type(_IOC_TYPE(req)));
	fd = pick_fd(w, &fdkind, &slot);
	p = pick_ptr(w, 512);
	call_init(&c, "ioctl", fd, fdkind);
	c.req = req;
	call_ptr(&c, &p);
	err = ioctl(fd, req, (void *)p.addr) < 0 ? errno : 0;
	done(w, &c, OP_RANDOM, err, only_enotty);
}

/* Root only, rarely: take a CPU from whoever owns it. */
static void op_release(struct worker *w)
{
	static const int only_release[] = { ESRCH, 0 };
	uint32_t cpu = below(w, ncpus);
	const char *fdkind;
	struct call c;
	int fd, slot, err;

	fd = chance(w, 500) ? w->priv[0] : pick_fd(w, &fdkind, &slot);
	call_init(&c, "RELEASE", fd, fd == w->priv[0] ? "(watcher)" : fdkind);
	c.req = ARMPMU_IOC_RELEASE;
	call_arg(&c, cpu);
	err = ioc_u32(fd, ARMPMU_IOC_RELEASE, cpu);
	done(w, &c, OP_RELEASE, err, only_release);
}

/* ---- read, write, lseek, mmap ---- */

static void op_read(struct worker *w)
{
	static const int only_short[] = { EINVAL, EFAULT, 0 };
	const size_t sz = sizeof(struct armpmu_counts);
	const size_t lens[] = {
		0, 1, 4, sz - 8, sz - 1, sz, sz, sz, sz + 1, sz + 7, 4096, 1 << 20,
		SSIZE_MAX, SIZE_MAX,
	};
	struct armpmu_counts counts;
	const char *fdkind;
	struct call c;
	struct ptr p;
	size_t len;
	ssize_t ret;
	int fd, slot, err;

	len = chance(w, 100) ? below(w, 600) : lens[below(w, ARRAY_SIZE(lens))];
	fd = pick_fd(w, &fdkind, &slot);
	p = pick_ptr(w, sz);
	if (p.fill)
		memset(p.fill, 0xa5, p.fill_len);
	call_init(&c, "read", fd, fdkind);
	call_ptr(&c, &p);
	c.has_len = true;
	c.len = len;
	ret = read(fd, (void *)p.addr, len);
	err = ret < 0 ? errno : 0;
	done(w, &c, OP_READ, err, len < sz ? only_short : only_not_enotty);
	if (ret >= 0 && (size_t)ret != sz)
		FAIL_AFTER(w, F_OUTPUT, &c, "returned %zd, expected %zu", ret, sz);
	if ((ret >= 0 || err == EIO) && !writable(&p))
		FAIL_AFTER(w, F_WRONG, &c, "%s with a pointer it cannot write",
			   tap_errname(err));
	if ((ret >= 0 || err == EIO) && writable(&p)) {
		memcpy(&counts, p.fill, sz);
		check_counts(w, &c, &counts, err);
	}
}

static void op_write(struct worker *w)
{
	static const int only_einval[] = { EINVAL, 0 };
	const char *fdkind;
	struct call c;
	struct ptr p;
	size_t len;
	int fd, slot, err;

	len = chance(w, 300) ? 0 : chance(w, 500) ? sizeof(struct armpmu_counts) : below(w, 4096);
	fd = pick_fd(w, &fdkind, &slot);
	p = pick_ptr(w, len);
	call_init(&c, "write", fd, fdkind);
	call_ptr(&c, &p);
	c.has_len = true;
	c.len = len;
	err = write(fd, (void *)p.addr, len) < 0 ? errno : 0;
	done(w, &c, OP_WRITE, err, only_einval);
	if (!err)
		FAIL_AFTER(w, F_WRONG, &c, "write(2) succeeded on a device that cannot be written");
}

static void op_lseek(struct worker *w)
{
	static const int only_espipe[] = { ESPIPE, 0 };
	static const int only_einval[] = { EINVAL, 0 };
	const char *fdkind;
	struct call c;
	off_t off;
	int fd, slot, whence, err;

	off = chance(w, 500) ? 0 : (off_t)(int32_t)rnd(w);
	whence = chance(w, 900) ? (int)below(w, 3) : (int)rnd(w);
	fd = pick_fd(w, &fdkind, &slot);
	call_init(&c, "lseek", fd, fdkind);
	call_arg(&c, (uint64_t)off);
	call_arg(&c, (uint64_t)(unsigned int)whence);
	err = lseek(fd, off, whence) < 0 ? errno : 0;
	/* The VFS refuses a whence it does not know before the driver sees it. */
	done(w, &c, OP_LSEEK, err,
	     whence >= SEEK_SET && whence <= SEEK_HOLE ? only_espipe : only_einval);
	if (!err)
		FAIL_AFTER(w, F_WRONG, &c, "lseek(2) succeeded on a device that cannot seek");
}

static void op_mmap(struct worker *w)
{
	static const int only_mmap[] = { ENODEV, EINVAL, EACCES, 0 };
	static const int prots[] = {
		PROT_READ, PROT_READ | PROT_WRITE, PROT_NONE, PROT_WRITE,
	};
	size_t len = chance(w, 100) ? 1 : (size_t)page_size * (1 + below(w, 4));
	int prot = prots[below(w, ARRAY_SIZE(prots))];
	int flags = chance(w, 500) ? MAP_SHARED : MAP_PRIVATE;
	off_t off = chance(w, 700) ? 0 : (off_t)page_size * below(w, 16);
	const char *fdkind;
	struct call c;
	void *m;
	int fd, slot, err;

	fd = pick_fd(w, &fdkind, &slot);
	call_init(&c, "mmap", fd, fdkind);
	c.has_len = true;
	c.len = len;
	call_arg(&c, (uint64_t)prot);
	call_arg(&c, (uint64_t)flags);
	call_arg(&c, (uint64_t)off);
	m = mmap(NULL, len, prot, flags, fd, off);
	err = m == MAP_FAILED ? errno : 0;
	done(w, &c, OP_MMAP, err, only_mmap);
	if (!err) {
		FAIL_AFTER(w, F_WRONG, &c, "mmap(2) succeeded on a device that cannot be mapped");
		munmap(m, len);
	}
}

/* ---- fds ---- */

static const int only_ok[] = { 0 };	/* no errno at all, but EBADF/EINTR */

static int do_open(struct worker *w, const char *why)
{
	struct call c;
	int fd, err;

	call_init(&c, "open", -1, why);
	fd = open(DEV, O_RDWR | O_CLOEXEC);
	err = fd < 0 ? errno : 0;
	done(w, &c, OP_OPEN, err, only_ok);
	return fd;
}

static void do_close(struct worker *w, int fd, const char *why)
{
	struct call c;
	int err;

	call_init(&c, "close", fd, why);
	err = close(fd) ? errno : 0;
	done(w, &c, OP_CLOSE, err, only_ok);
}

/* BIND @fd to a (mostly valid) CPU; the errno is the driver's to choose. */
static void do_bind(struct worker *w, int fd, const char *why)
{
	uint32_t cpu = some_cpu(w);
	struct call c;

	call_init(&c, "BIND", fd, why);
	c.req = ARMPMU_IOC_BIND;
	call_arg(&c, cpu);
	done(w, &c, OP_IOCTL, ioc_u32(fd, ARMPMU_IOC_BIND, cpu), only_not_enotty);
}

/* A fresh private fd in @slot (slot 0: never bound). */
static void reopen_private(struct worker *w, unsigned int slot)
{
	if (w->priv[slot] >= 0)
		do_close(w, w->priv[slot], "(private)");
	w->priv[slot] = do_open(w, "(private)");
	w->excl[slot] = true;
	if (slot && w->priv[slot] >= 0 && chance(w, 500))
		do_bind(w, w->priv[slot], "(private)");
}

/*
 * A new file for a shared slot. dup2() swaps it in atomically: other
 * threads may be inside a call on the old file (its release comes when they
 * leave), but the slot's number never goes free, so it can never be reused
 * by another thread's open() and shared calls never land on a private file.
 */
static void replace_shared(struct worker *w)
{
	unsigned int i = below(w, SHARED_FDS);
	struct call c;
	int fd, err;

	fd = do_open(w, "(new shared)");
	if (fd < 0)
		return;
	if (chance(w, 500))
		do_bind(w, fd, "(new shared)");
	call_init(&c, "dup2", fd, "(new shared)");
	call_arg(&c, (uint64_t)shared_fd[i]);
	err = dup2(fd, shared_fd[i]) < 0 ? errno : 0;
	done(w, &c, OP_DUP2, err, only_ok);
	do_close(w, fd, "(new shared)");
}

static void op_fds(struct worker *w)
{
	unsigned int slot = 1 + below(w, PRIV_FDS - 1), from;
	uint32_t r = below(w, 100);
	struct call c;
	int fd, err;

	if (r < 35) {
		reopen_private(w, chance(w, 150) ? 0 : slot);
	} else if (r < 50) {
		if (w->priv[slot] >= 0)
			do_close(w, w->priv[slot], "(private)");
		w->priv[slot] = -1;
	} else if (r < 75) {
		/* A private fd sharing a file with a shared slot or another slot. */
		from = 1 + below(w, PRIV_FDS - 1);
		if (chance(w, 500) || w->priv[from] < 0 || from == slot) {
			fd = shared_fd[below(w, SHARED_FDS)];
			from = 0;
		} else {
			fd = w->priv[from];
		}
		call_init(&c, "dup", fd, from ? "(private)" : "(shared)");
		if (w->priv[slot] >= 0)
			do_close(w, w->priv[slot], "(private)");
		w->priv[slot] = dup(fd);
		err = w->priv[slot] < 0 ? errno : 0;
		done(w, &c, OP_DUP, err, only_ok);
		w->excl[slot] = from && w->excl[from];
	} else {
		replace_shared(w);
	}
}

/* Moves the thread now and then, so that calls run locally and remotely. */
static void op_pin(struct worker *w)
{
	cpu_set_t set;
	unsigned int i;

	CPU_ZERO(&set);
	if (chance(w, 300)) {
		for (i = 0; i < ncpus; i++)
			CPU_SET(i, &set);
	} else {
		CPU_SET(below(w, ncpus), &set);
	}
	/* An offline CPU gives EINVAL: the thread then stays where it is. */
	sched_setaffinity(0, sizeof(set), &set);
}

/* ---- a legal counting sequence ---- */

static int seq_call(struct worker *w, int fd, const char *fdkind, const char *name,
		    unsigned long req, void *arg, uint64_t a0)
{
	struct call c;
	int err;

	call_init(&c, name, fd, fdkind);
	c.req = req;
	if (arg)
		call_arg(&c, a0);
	err = ioctl(fd, req, arg) < 0 ? errno : 0;
	done(w, &c, OP_SEQ, err, only_not_enotty);
	return err;
}

/* FILE_STATUS's flags for @fd's own file (0: it has no mode). */
static __u32 file_flags(int fd)
{
	struct armpmu_file_status st = { .id = 1 };

	while (ioctl(fd, ARMPMU_IOC_FILE_STATUS, &st) == 0) {
		if (st.flags & ARMPMU_FILE_CALLER)
			return st.flags;
		st.id++;
		st.flags = 0;
	}
	return 0;
}

/*
 * SELECT, SET_EVENT, RESET, START, work, READ, STOP, READ: what a real user
 * does, so that counting runs while the garbage flies. On a file only this
 * thread uses, the snapshots must make sense: RUNNING while started, not
 * after STOP, and counts that never go back.
 */
static void op_counting(struct worker *w)
{
	unsigned int slot = 1 + below(w, PRIV_FDS - 1);
	struct armpmu_event ev = { .event = ARMPMU_EV_CPU_CYCLES, .flags = EXCL_K };
	struct armpmu_counts a, b;
	const char *k = "(private)";
	struct call c;
	__u32 v;
	int fd, e_read_a, e_stop, e_read_b, e_start, e_reset;
	bool excl, armed;

	if (w->priv[slot] < 0 || chance(w, 100))
		reopen_private(w, slot);
	fd = w->priv[slot];
	excl = w->excl[slot];
	if (fd < 0)
		return;
	if (chance(w, 300))
		ev.event = chance(w, 500) ? 0x08 : 0x03;	/* INST_RETIRED, L1D_CACHE_REFILL */
	v = below(w, num_counters);
	seq_call(w, fd, k, "SELECT", ARMPMU_IOC_SELECT, &v, v);
	seq_call(w, fd, k, "SET_EVENT", ARMPMU_IOC_SET_EVENT, &ev, ev.event);
	if (chance(w, 200)) {
		v = below(w, 2);
		seq_call(w, fd, k, "SET_DIVIDER", ARMPMU_IOC_SET_DIVIDER, &v, v);
	}
	if (chance(w, 200)) {
		v = EXCL_K;
		seq_call(w, fd, k, "SET_CYCLE_FILTER", ARMPMU_IOC_SET_CYCLE_FILTER, &v, v);
	}
	if (chance(w, 100)) {
		struct armpmu_value val = {
			.counter = chance(w, 500) ? ARMPMU_CYCLE_COUNTER : 0,
			.value = 0xffffffffULL - below(w, 1000),
		};
		seq_call(w, fd, k, "SET_VALUE", ARMPMU_IOC_SET_VALUE, &val, val.counter);
	}
	e_reset = seq_call(w, fd, k, "RESET", ARMPMU_IOC_RESET, NULL, 0);
	e_start = seq_call(w, fd, k, "START", ARMPMU_IOC_START, NULL, 0);
	loop_n(SPIN_SEQ + below(w, SPIN_SEQ));
	memset(&a, 0xa5, sizeof(a));
	e_read_a = seq_call(w, fd, k, "READ", ARMPMU_IOC_READ, &a, 0);
	armed = !e_read_a && !(a.flags & ARMPMU_COUNTS_RUNNING) &&
		(file_flags(fd) & ARMPMU_FILE_ARMED);
	e_stop = seq_call(w, fd, k, "STOP", ARMPMU_IOC_STOP, NULL, 0);
	memset(&b, 0xa5, sizeof(b));
	e_read_b = seq_call(w, fd, k, "READ", ARMPMU_IOC_READ, &b, 0);

	call_init(&c, "counting sequence", fd, excl ? "(private, this thread's only)" : k);
	if (!e_read_a || e_read_a == EIO)
		check_counts(w, &c, &a, e_read_a);
	if (!e_read_b || e_read_b == EIO)
		check_counts(w, &c, &b, e_read_b);
	if (!excl)
		return;
	/* ATTACH with ENABLE_ON_EXEC arms at START instead: it shows so. */
	if (!e_start && !e_read_a && !(a.flags & ARMPMU_COUNTS_RUNNING) && !armed)
		FAIL_AFTER(w, F_OUTPUT, &c, "READ after START: RUNNING clear (flags %#x)", a.flags);
	if (!e_stop && !e_read_b && (b.flags & ARMPMU_COUNTS_RUNNING))
		FAIL_AFTER(w, F_OUTPUT, &c, "READ after STOP: RUNNING set (flags %#x)", b.flags);
	if (!e_reset && !e_read_a && !e_stop && !e_read_b &&
	    (b.cycles < a.cycles || b.events[0] < a.events[0]))
		FAIL_AFTER(w, F_OUTPUT, &c,
			   "counts went back: cycles %llu then %llu, events[0] %llu then %llu",
			   (ull)a.cycles, (ull)b.cycles, (ull)a.events[0], (ull)b.events[0]);
}

/* ---- the workers ---- */

/* The guest user is not in the armpmu group: open must say EACCES, always. */
static void op_guest_open(struct worker *w)
{
	static const int modes[] = { O_RDONLY, O_WRONLY, O_RDWR };
	int flags = modes[below(w, 3)] | O_CLOEXEC;
	struct call c;
	int fd, err;

	if (chance(w, 300))
		flags |= O_NONBLOCK;
	if (chance(w, 100))
		flags |= O_NOCTTY | O_SYNC;
	call_init(&c, "open", -1, "(guest)");
	call_arg(&c, (uint64_t)flags);
	fd = open(DEV, flags);
	err = fd < 0 ? errno : 0;
	done(w, &c, OP_OPEN, err, NULL);
	if (err != EACCES)
		FAIL_AFTER(w, F_GUEST, &c, "%s, expected EACCES", tap_errname(err));
	if (fd >= 0)
		close(fd);
}

static void one_op(struct worker *w)
{
	uint32_t r = below(w, 1000);

	if (r < 560)
		op_real_ioctl(w, false);
	else if (r < 600)
		op_real_ioctl(w, true);
	else if (r < 650)
		op_magic_ioctl(w);
	else if (r < 680)
		op_random_ioctl(w);
	else if (r < 760)
		op_read(w);
	else if (r < 775)
		op_write(w);
	else if (r < 790)
		op_lseek(w);
	else if (r < 800)
		op_mmap(w);
	else if (r < 850)
		op_fds(w);
	else if (r < 900)
		op_counting(w);
	else if (r < 910)
		op_pin(w);
	else if (w->role == AS_ROOT && r == 999 && chance(w, 250))
		op_release(w);
	else
		op_real_ioctl(w, false);
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	unsigned int i;

	pthread_barrier_wait(&start_barrier);
	if (w->role == AS_GUEST) {
		while (w->st->calls < guest_quota)
			op_guest_open(w);
	} else {
		for (i = 0; i < PRIV_FDS; i++)
			reopen_private(w, i);
		while (w->st->calls < quota)
			one_op(w);
		for (i = 0; i < PRIV_FDS; i++)
			if (w->priv[i] >= 0)
				close(w->priv[i]);
	}
	w->st->done = 1;
	return NULL;
}

/* A worker process: its identity, its shared fds, its threads. */
static int worker_process(unsigned int proc)
{
	static struct worker workers[MAX_THREADS];
	enum guest_user role = (enum guest_user)(proc % 3);
	unsigned char *pages;
	unsigned int t, i;

	if (!become_user(role))
		return 100;

	for (i = 0; i < SHARED_FDS; i++) {
		shared_fd[i] = -1;
		if (role == AS_GUEST)
			continue;
		shared_fd[i] = open(DEV, O_RDWR | O_CLOEXEC);
		if (shared_fd[i] < 0) {
			printf("# FAIL seed %llu proc %u (%s): open " DEV ": %s\n",
			       (ull)opt_seed, proc, user_name(role), tap_errname(errno));
			return 3;
		}
	}
	/*
	 * Everything is mapped before the threads start (see any_mapped()):
	 * per thread a buffer page, a page that runs into a PROT_NONE page,
	 * and a read-only page.
	 */
	pages = mmap(NULL, (size_t)page_size * 4 * opt_threads, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (pages == MAP_FAILED)
		return 4;
	if (pthread_barrier_init(&start_barrier, NULL, opt_threads + 1))
		return 4;
	for (t = 0; t < opt_threads; t++) {
		struct worker *w = &workers[t];
		struct armpmu_event *ro;

		w->proc = proc;
		w->thread = t;
		w->role = role;
		w->seed = thread_seed(opt_seed, proc, t);
		w->rng = w->seed;
		w->st = &sh->t[proc * opt_threads + t];
		w->st->seed = w->seed;
		w->pages = pages + (size_t)page_size * 4 * t;
		for (i = 0; i < PRIV_FDS; i++)
			w->priv[i] = -1;
		/* Input from the read-only page: a plausible event. */
		ro = (struct armpmu_event *)(w->pages + 3 * page_size);
		ro->event = ARMPMU_EV_CPU_CYCLES;
		ro->flags = EXCL_K;
		if (mprotect(w->pages + 2 * page_size, (size_t)page_size, PROT_NONE) ||
		    mprotect(w->pages + 3 * page_size, (size_t)page_size, PROT_READ))
			return 4;
	}
	for (t = 0; t < opt_threads; t++)
		if (pthread_create(&workers[t].tid, NULL, worker_main, &workers[t]))
			return 5;
	pthread_barrier_wait(&start_barrier);
	for (t = 0; t < opt_threads; t++)
		pthread_join(workers[t].tid, NULL);
	return 0;
}

/* ---- CPU hotplug ---- */

static char online_path[MAX_CPUS][64];
static unsigned int hotplug_cpus[MAX_CPUS], n_hotplug;

static bool cpu_online(unsigned int cpu)
{
	char path[64], c = '1';
	int fd;

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%u/online", cpu);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return access(path, F_OK) != 0;	/* no such file: always online */
	if (read(fd, &c, 1) != 1)
		c = '1';
	close(fd);
	return c == '1';
}

/* Offlines and onlines the hotpluggable CPUs now and then, until told. */
static int hotplug_process(void)
{
	uint64_t rng = thread_seed(opt_seed, MAX_PROCS, 0);
	struct timespec ts;
	unsigned int cpu, tries;
	int err;

	while (!sh->stop_hotplug) {
		cpu = hotplug_cpus[splitmix64(&rng) % n_hotplug];
		ts.tv_sec = 0;
		ts.tv_nsec = (long)(20 + splitmix64(&rng) % 200) * 1000000L;
		nanosleep(&ts, NULL);
		err = write_file(online_path[cpu], "0");
		if (err) {
			sh->hotplug_errors++;
			sh->hotplug_last_err = err;
			continue;
		}
		ts.tv_nsec = (long)(5 + splitmix64(&rng) % 50) * 1000000L;
		nanosleep(&ts, NULL);
		/* The parent onlines it again at the end if this gives up. */
		for (tries = 0; (err = write_file(online_path[cpu], "1")) && tries < 100; tries++) {
			sh->hotplug_errors++;
			sh->hotplug_last_err = err;
			ts.tv_nsec = 10000000L;
			nanosleep(&ts, NULL);
		}
		if (err)
			return 1;
		sh->hotplug_flips++;
	}
	return 0;
}

/* ---- the parent ---- */

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static int cpu_status(int fd, __u32 cpu, struct armpmu_cpu_status *st)
{
	memset(st, 0, sizeof(*st));
	st->cpu = cpu;
	return ioc(fd, ARMPMU_IOC_CPU_STATUS, st);
}

/* What the board has: CPUs, and each one's counters and event width. */
static bool probe_board(void)
{
	struct armpmu_cpu_status st;
	unsigned int i, n = 0;
	int fd, err, last = last_possible_cpu();

	ncpus = last >= 0 ? (unsigned int)last + 1 : (unsigned int)sysconf(_SC_NPROCESSORS_CONF);
	if (ncpus > MAX_CPUS)
		ncpus = MAX_CPUS;
	err = dev_open(&fd);
	if (!tap_errno(err, 0, "root opens " DEV))
		return false;
	for (i = 0; i < ncpus; i++) {
		err = cpu_status(fd, i, &st);
		if (!err && (st.flags & ARMPMU_CPU_USABLE)) {
			cpu_nc[i] = st.info.num_counters;
			cpu_eb[i] = st.info.event_bits;
			n++;
		}
	}
	dev_close(&fd);
	num_counters = cpu_nc[0];
	event_bits = cpu_eb[0];
	tap_note("%u possible CPUs, %u with a usable PMU; CPU 0: %u counters, %u-bit events",
		 ncpus, n, num_counters, event_bits);
	return tap_check(n > 0 && num_counters > 0 && num_counters <= ARMPMU_MAX_COUNTERS &&
			 event_bits >= 8 && event_bits <= 16,
			 "CPU_STATUS describes the board's PMUs",
			 "%u usable CPUs, CPU 0 num_counters %u event_bits %u", n,
			 num_counters, event_bits);
}

static void fill_values(void)
{
	uint32_t nc = num_counters, eb = event_bits;
	const uint32_t cpus[] = {
		0, 0, 1, 1, ncpus - 1, ncpus, ncpus + 1, 31, 32, ARMPMU_CPU_CURRENT,
		0xfffffffeU, 0x80000000U,
	};
	const uint32_t idx[] = { 0, 0, 1, nc - 1, nc - 1, nc, nc + 1, 30, 31, 32, 0xffffffffU, 2 };
	const uint32_t ev[] = {
		ARMPMU_EV_CPU_CYCLES, ARMPMU_EV_CPU_CYCLES, ARMPMU_EV_CPU_CYCLES, 0x08, 0x00, 0x03, 0x3f, 0x40,
		(1U << eb) - 1, 1U << eb, 0x4000, 0xffff, 0x10000, 0xffffffffU, 0x1f, 0x23,
	};
	const uint32_t counters[] = {
		0, 1, nc - 1, nc, 30, ARMPMU_CYCLE_COUNTER, ARMPMU_CYCLE_COUNTER, 32,
		0xffffffffU, 2, 0x8000001fU, 0x3f,
	};
	const uint32_t nrs[] = { 0, 1, nc, nc, nc + 4, 31, 32, 0xffffffffU };

	memcpy(cpu_vals, cpus, sizeof(cpu_vals));
	memcpy(idx_vals, idx, sizeof(idx_vals));
	memcpy(ev_vals, ev, sizeof(ev_vals));
	memcpy(counter_vals, counters, sizeof(counter_vals));
	memcpy(nr_vals, nrs, sizeof(nr_vals));
}

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: fuzz [--seed N] [--calls N] [--threads N] [--procs N] [--timeout S]\n"
		"            [--cpu-hotplug] [--no-counting]\n"
		"Fuzzes /dev/armpmu as root and the lab's users; prints TAP.\n"
		"  --seed N       PRNG seed (default 1): the same seed, the same calls per thread\n"
		"  --calls N      calls by root and lab (default 100000); the guest makes a tenth more\n"
		"  --threads N    threads per process (default 4, at most %d)\n"
		"  --procs N      processes: root, lab, guest, root, ... (default 3, at most %d)\n"
		"  --timeout S    give the workers S seconds (default 300)\n"
		"  --cpu-hotplug  a worker offlines and onlines CPUs meanwhile\n"
		"  --no-counting  the board's PMU never counts (QEMU's Cortex-A8, A9)\n"
		"Exit status: 0 all good, 1 failures, 2 usage.\n", MAX_THREADS, MAX_PROCS);
}

static bool parse_u64(const char *s, uint64_t *v, uint64_t min, uint64_t max)
{
	char *end;
	unsigned long long x;

	errno = 0;
	x = strtoull(s, &end, 0);
	if (errno || end == s || *end || *s == '-' || x < min || x > max)
		return false;
	*v = x;
	return true;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "seed", required_argument, NULL, 's' },
		{ "calls", required_argument, NULL, 'c' },
		{ "threads", required_argument, NULL, 't' },
		{ "procs", required_argument, NULL, 'p' },
		{ "timeout", required_argument, NULL, 'T' },
		{ "cpu-hotplug", no_argument, NULL, 'H' },
		{ "no-counting", no_argument, NULL, 'N' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	pid_t pids[MAX_PROCS], hotplug_pid = -1;
	int status[MAX_PROCS];
	bool exited[MAX_PROCS], timed_out = false;
	uint64_t v, total = 0, errs[NERR] = { 0 }, ops[OP_KINDS] = { 0 };
	uint64_t fails[F_KINDS] = { 0 }, role_calls[3] = { 0 };
	unsigned int p, t, i, alive, nthreads;
	double start, elapsed, deadline;
	bool have_guest = false;
	struct utsname u;
	char hist[1024];
	size_t shsize;
	int opt, n, longindex = 0;

	while ((opt = getopt_long(argc, argv, "h", opts, &longindex)) != -1) {
		switch (opt) {
		case 's':
			if (!parse_u64(optarg, &opt_seed, 0, UINT64_MAX))
				goto bad;
			break;
		case 'c':
			if (!parse_u64(optarg, &opt_calls, 1, 1000000000ULL))
				goto bad;
			break;
		case 't':
			if (!parse_u64(optarg, &v, 1, MAX_THREADS))
				goto bad;
			opt_threads = (unsigned int)v;
			break;
		case 'p':
			if (!parse_u64(optarg, &v, 1, MAX_PROCS))
				goto bad;
			opt_procs = (unsigned int)v;
			break;
		case 'T':
			if (!parse_u64(optarg, &v, 1, 86400))
				goto bad;
			opt_timeout = (unsigned int)v;
			break;
		case 'H':
			opt_hotplug = true;
			break;
		case 'N':
			board_counts = false;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind != argc) {
		fprintf(stderr, "fuzz: unexpected argument %s\n", argv[optind]);
		usage(stderr);
		return 2;
	}

	tap_init();
	page_size = sysconf(_SC_PAGESIZE);
	uname(&u);
	nthreads = opt_procs * opt_threads;
	/* Processes go root, lab, guest, root...: those not guest's. */
	n = (int)((opt_procs - opt_procs / 3) * opt_threads);
	quota = (opt_calls + n - 1) / n;
	guest_quota = quota / 10 ? quota / 10 : 1;
	tap_note("fuzz on %s %s, built as %s: seed %llu, %llu calls, %u procs x %u threads "
		 "(%llu calls each, the guest's %llu), timeout %u s%s", u.release, u.machine,
		 TEST_BUILD_ARCH, (ull)opt_seed, (ull)opt_calls, opt_procs, opt_threads,
		 (ull)quota, (ull)guest_quota, opt_timeout, opt_hotplug ? ", CPU hotplug" : "");
	tap_note("replay: fuzz --seed %llu --calls %llu --procs %u --threads %u%s",
		 (ull)opt_seed, (ull)opt_calls, opt_procs, opt_threads,
		 opt_hotplug ? " --cpu-hotplug" : "");
	if (geteuid() != 0) {
		tap_check(false, "runs as root", "euid %u", (unsigned int)geteuid());
		return tap_done();
	}
	if (!probe_board())
		return tap_done();
	fill_values();
	find_stack_zone();

	shsize = sizeof(*sh) + sizeof(sh->t[0]) * nthreads;
	sh = mmap(NULL, shsize, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED) {
		perror("fuzz: mmap");
		return 1;
	}
	for (p = 0; p < opt_procs; p++) {
		for (t = 0; t < opt_threads; t++)
			tap_note("proc %u (%s) thread %u: thread seed %#llx", p,
				 user_name(p % 3), t, (ull)thread_seed(opt_seed, p, t));
		have_guest |= p % 3 == AS_GUEST;
	}

	if (opt_hotplug) {
		for (i = 1; i < ncpus; i++) {
			snprintf(online_path[i], sizeof(online_path[i]),
				 "/sys/devices/system/cpu/cpu%u/online", i);
			if (!access(online_path[i], W_OK))
				hotplug_cpus[n_hotplug++] = i;
		}
		if (access("/sys/devices/system/cpu/cpu1/online", W_OK) || !n_hotplug) {
			tap_skip("CPU hotplug during the fuzzing",
				 "no /sys/devices/system/cpu/cpu1/online");
			opt_hotplug = false;
		}
	}

	start = now();
	fflush(stdout);
	for (p = 0; p < opt_procs; p++) {
		pids[p] = fork();
		if (pids[p] < 0) {
			tap_check(false, "fork the workers", "fork: %s", tap_errname(errno));
			opt_procs = p;
			break;
		}
		if (pids[p] == 0)
			_exit(worker_process(p));
		exited[p] = false;
	}
	if (opt_hotplug) {
		hotplug_pid = fork();
		if (hotplug_pid == 0)
			_exit(hotplug_process());
	}

	/* Wait, with a deadline: a worker stuck in the driver is a hang. */
	deadline = start + opt_timeout;
	for (alive = opt_procs; alive;) {
		pid_t pid = waitpid(-1, &n, WNOHANG);

		if (pid > 0) {
			for (p = 0; p < opt_procs; p++) {
				if (pids[p] == pid && !exited[p]) {
					exited[p] = true;
					status[p] = n;
					alive--;
				}
			}
			continue;
		}
		if (now() > deadline) {
			if (timed_out)
				break;	/* killed, and still not gone: stuck in the kernel */
			timed_out = true;
			for (p = 0; p < opt_procs; p++)
				if (!exited[p])
					kill(pids[p], SIGKILL);
			deadline = now() + 10;
		}
		usleep(20000);
	}
	elapsed = now() - start;
	if (hotplug_pid > 0) {
		sh->stop_hotplug = 1;
		waitpid(hotplug_pid, &n, 0);
	}

	/* The figures. */
	for (p = 0; p < opt_procs; p++) {
		for (t = 0; t < opt_threads; t++) {
			struct thread_stats *st = &sh->t[p * opt_threads + t];

			total += st->calls;
			role_calls[p % 3] += st->calls;
			for (i = 0; i < NERR; i++)
				errs[i] += st->errs[i];
			for (i = 0; i < OP_KINDS; i++)
				ops[i] += st->ops[i];
			for (i = 0; i < F_KINDS; i++)
				fails[i] += st->fails[i];
		}
	}
	tap_note("%llu calls in %.1f s: %.0f calls/s (root %llu, lab %llu, guest %llu)",
		 (ull)total, elapsed, elapsed > 0 ? total / elapsed : 0.0,
		 (ull)role_calls[AS_ROOT], (ull)role_calls[AS_LAB], (ull)role_calls[AS_GUEST]);
	n = 0;
	hist[0] = '\0';
	for (i = 0; i < NERR && n < (int)sizeof(hist); i++)
		if (errs[i])
			n += snprintf(hist + n, sizeof(hist) - n, " %s %llu",
				      i == NERR - 1 ? "errno>=255" : i ? tap_errname((int)i) : "ok",
				      (ull)errs[i]);
	tap_note("errno histogram:%s", hist);
	n = 0;
	hist[0] = '\0';
	for (i = 0; i < OP_KINDS && n < (int)sizeof(hist); i++)
		if (ops[i])
			n += snprintf(hist + n, sizeof(hist) - n, "%s %s %llu", i ? "," : "",
				      op_name[i], (ull)ops[i]);
	tap_note("calls by kind:%s", hist);

	for (p = 0; p < opt_procs; p++) {
		char name[64];

		snprintf(name, sizeof(name), "worker %u (%s) ran to the end", p, user_name(p % 3));
		if (!exited[p])
			tap_check(false, name, "still running after SIGKILL: stuck in the kernel?");
		else if (WIFSIGNALED(status[p]))
			tap_check(false, name, "killed by signal %d (%s)%s", WTERMSIG(status[p]),
				  strsignal(WTERMSIG(status[p])),
				  timed_out && WTERMSIG(status[p]) == SIGKILL ? ": timed out" : "");
		else
			tap_check(WEXITSTATUS(status[p]) == 0, name, "exit status %d%s",
				  WEXITSTATUS(status[p]),
				  WEXITSTATUS(status[p]) >= 100 ? " (could not change identity)" : "");
	}
	tap_check(!timed_out, "the workers finished within the timeout",
		  "not done after %u s", opt_timeout);
	tap_check(role_calls[AS_ROOT] + role_calls[AS_LAB] >= opt_calls,
		  "calls made by root and lab >= --calls", "%llu calls, %llu asked",
		  (ull)(role_calls[AS_ROOT] + role_calls[AS_LAB]), (ull)opt_calls);
	tap_check(fails[F_UNDOC] == 0, "every errno is one armpmu(4) documents",
		  "%llu calls got another (shown above)", (ull)fails[F_UNDOC]);
	tap_check(fails[F_WRONG] == 0,
		  "every errno is one that call can return (EFAULT for unreadable input, "
		  "ENOTTY only for unknown numbers, ...)",
		  "%llu calls did not (shown above)", (ull)fails[F_WRONG]);
	tap_check(fails[F_OUTPUT] == 0,
		  "outputs make sense (INFO, READ, read(2), CPU_STATUS, counting sequences)",
		  "%llu calls did not (shown above)", (ull)fails[F_OUTPUT]);
	if (have_guest)
		tap_check(fails[F_GUEST] == 0, "the guest user only ever gets EACCES from open",
			  "%llu opens did not (shown above)", (ull)fails[F_GUEST]);
	else
		tap_skip("the guest user only ever gets EACCES from open",
			 "no guest worker (--procs 3 or more)");
	if (opt_hotplug) {
		tap_note("CPU hotplug: %llu offline/online cycles, %llu failed writes (last %s)",
			 (ull)sh->hotplug_flips, (ull)sh->hotplug_errors,
			 tap_errname(sh->hotplug_last_err));
		tap_check(sh->hotplug_flips > 0, "CPU hotplug ran during the fuzzing",
			  "no CPU went offline and back");
		for (i = 0; i < n_hotplug; i++)
			if (!cpu_online(hotplug_cpus[i]))
				write_file(online_path[hotplug_cpus[i]], "1");
	}

	/* Afterwards: every CPU is back online, free, and counts again. */
	tap_check(online_cpus() == ncpus, "every CPU is online at the end", "%u of %u online",
		  online_cpus(), ncpus);
	check_every_cpu_claimable();
	test_kernel_log();
	return tap_done();

bad:
	fprintf(stderr, "fuzz: bad value for --%s: %s\n", opts[longindex].name, optarg);
	usage(stderr);
	return 2;
}
