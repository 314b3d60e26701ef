// SPDX-License-Identifier: GPL-2.0
/*
 * badinput-test: walks the bad-input matrix of armpmu(4) (section BAD
 * INPUT) row by row, as root and then as `lab` (in the group, without
 * privilege), each row with the errno that user must get. Then the rows
 * about other owners: `guest` cannot open, `lab` cannot touch a CPU root
 * owns. Ends with the kernel log. Prints TAP; runs as root in the guest.
 *
 * The expectations follow CPU 0's INFO: without ARMPMU_INFO_CAN_FILTER
 * (PMUv1: Cortex-A8, A9), a filter is EOPNOTSUPP for everyone, root counts
 * unfiltered and lab cannot START; without ARMPMU_INFO_CAN_DIVIDE,
 * SET_DIVIDER 1 is EOPNOTSUPP.
 *
 *   badinput-test [--compat]
 *
 * --compat: this is the armhf build on an arm64 kernel (checked).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <linux/armpmu.h>

#include "devio.h"
#include "tap.h"
#include "users.h"

#define EXCL_K			ARMPMU_EXCLUDE_KERNEL
#define EXCL_U			ARMPMU_EXCLUDE_USER
#define CPU1_ONLINE		"/sys/devices/system/cpu/cpu1/online"
#define ARRAY_SIZE(a)		(sizeof(a) / sizeof((a)[0]))

static long page_size;
static unsigned int num_counters, event_bits;
static int last_cpu;			/* highest possible CPU */
static bool native32;			/* a 32-bit program on a 32-bit kernel */
static bool can_filter, can_divide;	/* CPU 0's INFO */
static enum guest_user who;		/* whose turn it is */

/* ---- where an argument can point ---- */

enum where {
	ARG_ALIGNED,		/* a valid argument, naturally aligned */
	ARG_MISALIGNED,		/* the same, one byte off alignment */
	ARG_READ_ONLY,		/* the same, in a read-only page */
	ARG_NULL,
	ARG_UNMAPPED,		/* a page with nothing mapped */
	ARG_PAST_MAPPING,	/* its last byte in an unmapped page */
	ARG_KERNEL_TOP,		/* the top page of the address space */
	ARG_KERNEL_LOW,		/* the kernel's own mapping */
	ARG_WHERE_COUNT
};

static const char *const where_name[] = {
	"a valid argument", "a valid argument 1 byte off alignment",
	"a valid argument in a read-only page", "a NULL pointer",
	"an unmapped address", "an argument whose last byte is unmapped",
	"the top page of the address space", "an address in the kernel's mapping",
};

/* An address in the kernel's own mapping (linear map or kernel image). */
static void *kernel_address(void)
{
	if (sizeof(void *) == 8)
		return (void *)(uintptr_t)0xffff800008000000ULL;
	/* A 32-bit task on arm64 can address all 4 GiB: only the top is not its. */
	return native32 ? (void *)(uintptr_t)0xc0008000U : NULL;
}

/* An address with nothing mapped at it, right now. */
static void *unmapped_address(void)
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
static void *place_arg(enum where w, const void *arg, size_t size, void **map)
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

static void unplace_arg(void *map)
{
	if (map)
		munmap(map, (size_t)page_size);
}

/* ---- the calls, with a valid argument each ---- */

struct call {
	const char *name;
	unsigned long req;
	size_t size;
	bool copies_out;	/* the driver writes the argument */
	void (*fill)(void *arg);
	int root_errno, lab_errno;	/* of the valid argument, on a fresh file */
	bool filtered;			/* the valid argument asks for a filter */
	bool divides;			/* ... for the divider */
};

static void fill_nothing(void *arg)
{
	(void)arg;
}

static void fill_cpu0(void *arg)
{
	memset(arg, 0, sizeof(__u32));
}

static void fill_one(void *arg)
{
	__u32 one = 1;

	memcpy(arg, &one, sizeof(one));
}

static void fill_excl_k(void *arg)
{
	__u32 flags = EXCL_K;

	memcpy(arg, &flags, sizeof(flags));
}

static void fill_event(void *arg)
{
	struct armpmu_event ev = { .event = ARMPMU_EV_CPU_CYCLES, .flags = EXCL_K };

	memcpy(arg, &ev, sizeof(ev));
}

static void fill_value(void *arg)
{
	struct armpmu_value val = { .counter = 0, .value = 1000 };

	memcpy(arg, &val, sizeof(val));
}

/* ATTACH of the calling thread. */
static void fill_attach_self(void *arg)
{
	struct armpmu_attach at = { .tid = 0 };

	memcpy(arg, &at, sizeof(at));
}

/* FILE_STATUS past any file's id. */
static void fill_file_status(void *arg)
{
	struct armpmu_file_status st = { .id = 0x7fffffffU };

	memcpy(arg, &st, sizeof(st));
}

static void fill_no_file(void *arg)
{
	__u32 id = 0x7fffffffU;

	memcpy(arg, &id, sizeof(id));
}

/* READ_SLOTS of no slot: the header alone. */
static void fill_read_none(void *arg)
{
	struct armpmu_read rd = { .nr = 0 };

	memcpy(arg, &rd, sizeof(rd));
}

/* READ_THREADS of no thread: the header alone, with the file's totals. */
static void fill_threads_none(void *arg)
{
	struct armpmu_threads th = { .nr = 0 };

	memcpy(arg, &th, sizeof(th));
}

/* SET_SAMPLING off: valid on any fresh file (it counts the caller). */
static void fill_sampling_off(void *arg)
{
	struct armpmu_sampling sm = { .period_ns = 0 };

	memcpy(arg, &sm, sizeof(sm));
}

/* READ_SAMPLES with room for the largest sample: a fresh file is not sampled. */
static void fill_samples(void *arg)
{
	struct armpmu_samples hdr = { .size = ARMPMU_SAMPLE_SIZE(ARMPMU_MAX_COUNTERS) };

	memcpy(arg, &hdr, sizeof(hdr));
}

static void fill_status(void *arg)
{
	struct armpmu_cpu_status st = { .cpu = 0 };

	memcpy(arg, &st, sizeof(st));
}

/*
 * RELEASE of CPU 0 while nobody owns it: ESRCH for root, EPERM for lab.
 * BIND, whole-CPU mode: EPERM for lab. FILE_STATUS and RELEASE_FILE past
 * any file: ENOENT and ESRCH (EPERM for lab).
 */
static const struct call calls[] = {
	{ "INFO", ARMPMU_IOC_INFO, sizeof(struct armpmu_info), true, fill_nothing, 0, 0, false, false },
	{ "BIND", ARMPMU_IOC_BIND, sizeof(__u32), false, fill_cpu0, 0, EPERM, false, false },
	{ "SELECT", ARMPMU_IOC_SELECT, sizeof(__u32), false, fill_cpu0, 0, 0, false, false },
	{ "SET_EVENT", ARMPMU_IOC_SET_EVENT, sizeof(struct armpmu_event), false,
	  fill_event, 0, 0, true, false },
	{ "SET_DIVIDER", ARMPMU_IOC_SET_DIVIDER, sizeof(__u32), false, fill_one, 0, 0,
	  false, true },
	{ "READ", ARMPMU_IOC_READ, sizeof(struct armpmu_counts), true, fill_nothing, 0, 0, false, false },
	{ "CPU_STATUS", ARMPMU_IOC_CPU_STATUS, sizeof(struct armpmu_cpu_status), true,
	  fill_status, 0, 0, false, false },
	{ "RELEASE", ARMPMU_IOC_RELEASE, sizeof(__u32), false, fill_cpu0, ESRCH, EPERM, false, false },
	{ "SET_VALUE", ARMPMU_IOC_SET_VALUE, sizeof(struct armpmu_value), false,
	  fill_value, 0, 0, false, false },
	{ "SET_CYCLE_FILTER", ARMPMU_IOC_SET_CYCLE_FILTER, sizeof(__u32), false,
	  fill_excl_k, 0, 0, true, false },
	{ "ATTACH", ARMPMU_IOC_ATTACH, sizeof(struct armpmu_attach), false,
	  fill_attach_self, 0, 0, false, false },
	/* Past the last file, nothing is written back: read-only memory will do. */
	{ "FILE_STATUS", ARMPMU_IOC_FILE_STATUS, sizeof(struct armpmu_file_status), false,
	  fill_file_status, ENOENT, ENOENT, false, false },
	{ "RELEASE_FILE", ARMPMU_IOC_RELEASE_FILE, sizeof(__u32), false, fill_no_file, ESRCH,
	  EPERM, false, false },
	{ "READ_SLOTS", ARMPMU_IOC_READ_SLOTS, sizeof(struct armpmu_read), true,
	  fill_read_none, 0, 0, false, false },
	{ "READ_THREADS", ARMPMU_IOC_READ_THREADS, sizeof(struct armpmu_threads), true,
	  fill_threads_none, 0, 0, false, false },
	{ "SET_SAMPLING", ARMPMU_IOC_SET_SAMPLING, sizeof(struct armpmu_sampling), false,
	  fill_sampling_off, 0, 0, false, false },
	{ "READ_SAMPLES", ARMPMU_IOC_READ_SAMPLES, sizeof(struct armpmu_samples), true,
	  fill_samples, EOPNOTSUPP, EOPNOTSUPP, false, false },
	/* Every user's counts: root's only. */
	{ "REGS", ARMPMU_IOC_REGS, sizeof(struct armpmu_regs), true, fill_cpu0, 0, EPERM,
	  false, false },
};

/* What a call that needs a filter gets where there is none, else @want. */
static int filtered(int want)
{
	return can_filter ? want : EOPNOTSUPP;
}

/* The flags root counts user mode with: none where nothing filters. */
static __u32 root_excl_k(void)
{
	return can_filter ? EXCL_K : 0;
}

/* Each row on a file of its own, so no row depends on another. */
static int on_fresh_file(unsigned long req, void *arg)
{
	int fd, err = dev_open(&fd);

	if (err)
		return err;
	err = ioc(fd, req, arg);
	dev_close(&fd);
	return err;
}

static void walk_pointers(void)
{
	unsigned char arg[512];
	char name[160];
	unsigned int i;
	enum where w;
	void *p, *map;
	int want;

	for (i = 0; i < ARRAY_SIZE(calls); i++) {
		for (w = 0; w < ARG_WHERE_COUNT; w++) {
			want = who == AS_ROOT ? calls[i].root_errno : calls[i].lab_errno;
			if (calls[i].filtered)
				want = filtered(want);
			if (calls[i].divides && !can_divide)
				want = EOPNOTSUPP;
			/* A call that fails writes nothing back. */
			if (w > ARG_READ_ONLY || (w == ARG_READ_ONLY && calls[i].copies_out && !want))
				want = EFAULT;
			snprintf(name, sizeof(name), "%s: %s with %s: %s", user_name(who),
				 calls[i].name, where_name[w], tap_errname(want));
			if (w == ARG_KERNEL_LOW && !kernel_address()) {
				tap_skip(name, "a 32-bit program on a 64-bit kernel owns the low 4 GiB");
				continue;
			}
			memset(arg, 0, sizeof(arg));
			calls[i].fill(arg);
			p = place_arg(w, arg, calls[i].size, &map);
			if (w == ARG_READ_ONLY && !map) {
				tap_check(false, name, "mmap: %s", tap_errname(errno));
				continue;
			}
			tap_errno(on_fresh_file(calls[i].req, p), want, name);
			unplace_arg(map);
		}
	}
	/* The calls without an argument ignore whatever comes in its place. */
	for (i = 0; i < 3; i++) {
		static const struct { const char *name; unsigned long req; } noarg[] = {
			{ "RESET", ARMPMU_IOC_RESET }, { "START", ARMPMU_IOC_START },
			{ "STOP", ARMPMU_IOC_STOP },
		};

		/* START of a user-only file where nothing filters: refused. */
		int want = i == 1 && who != AS_ROOT ? filtered(0) : 0;

		snprintf(name, sizeof(name), "%s: %s ignores an unmapped argument: %s",
			 user_name(who), noarg[i].name, want ? tap_errname(want) : "success");
		tap_errno(on_fresh_file(noarg[i].req, unmapped_address()), want, name);
	}
}

/* ---- reserved fields, flags and ranges ---- */

static int set_event_on_fresh(struct armpmu_event ev)
{
	return on_fresh_file(ARMPMU_IOC_SET_EVENT, &ev);
}

static int u32_on_fresh(unsigned long req, __u32 val)
{
	return on_fresh_file(req, &val);
}

/* A value row: "who: WHAT VALUE" gets @want. */
static void row(int got, int want, const char *what, unsigned long long value)
{
	char name[160];

	snprintf(name, sizeof(name), "%s: %s %#llx: %s", user_name(who), what, value,
		 tap_errname(want));
	tap_errno(got, want, name);
}

/* REGS shows every user's counts: lab is refused whatever its argument says. */
static int regs_want(int want)
{
	return who == AS_ROOT ? want : EPERM;
}

static void walk_regs_reserved(const __u32 *patterns, unsigned int n)
{
	struct armpmu_regs regs;
	char what[64];

	for (unsigned int p = 0; p < n; p++) {
		for (unsigned int i = 0; i < ARRAY_SIZE(regs.reserved); i++) {
			memset(&regs, 0, sizeof(regs));
			regs.reserved[i] = patterns[p];
			snprintf(what, sizeof(what), "REGS reserved[%u] =", i);
			row(on_fresh_file(ARMPMU_IOC_REGS, &regs), regs_want(EINVAL), what,
			    patterns[p]);
		}
	}
	/* Only cpu and reserved are read. */
	memset(&regs, 0xff, sizeof(regs));
	regs.cpu = 0;
	memset(regs.reserved, 0, sizeof(regs.reserved));
	row(on_fresh_file(ARMPMU_IOC_REGS, &regs), regs_want(0),
	    "REGS with every output field's bits set, cpu =", 0);
}

static void walk_reserved(void)
{
	static const __u32 patterns[] = { 1, 0x80000000U };
	struct armpmu_cpu_status st;
	struct armpmu_event ev;
	struct armpmu_value val;
	unsigned int i, p;

	for (p = 0; p < ARRAY_SIZE(patterns); p++) {
		ev = (struct armpmu_event){ .event = ARMPMU_EV_CPU_CYCLES, .flags = EXCL_K,
					    .reserved = patterns[p] };
		row(set_event_on_fresh(ev), EINVAL, "SET_EVENT reserved =", patterns[p]);
		val = (struct armpmu_value){ .counter = 0, .reserved = patterns[p] };
		row(on_fresh_file(ARMPMU_IOC_SET_VALUE, &val), EINVAL, "SET_VALUE reserved =",
		    patterns[p]);
		for (i = 0; i < 2; i++) {
			struct armpmu_attach at = { 0 };
			struct armpmu_file_status fst = { 0 };

			at.reserved[i] = patterns[p];
			row(on_fresh_file(ARMPMU_IOC_ATTACH, &at), EINVAL,
			    i ? "ATTACH reserved[1] =" : "ATTACH reserved[0] =", patterns[p]);
			fst.reserved[2 * i + 1] = patterns[p];
			row(on_fresh_file(ARMPMU_IOC_FILE_STATUS, &fst), EINVAL,
			    i ? "FILE_STATUS reserved[3] =" : "FILE_STATUS reserved[1] =",
			    patterns[p]);
		}
		for (i = 0; i < 4; i++) {
			struct armpmu_sampling sm = { .period_ns = 1000000, .ring_bytes = 4096 };
			struct armpmu_samples hdr = {
				.size = ARMPMU_SAMPLE_SIZE(ARMPMU_MAX_COUNTERS),
			};
			char what[64];

			sm.reserved[i] = patterns[p];
			snprintf(what, sizeof(what), "SET_SAMPLING reserved[%u] =", i);
			row(on_fresh_file(ARMPMU_IOC_SET_SAMPLING, &sm), EINVAL, what, patterns[p]);
			if (i == 3)
				break;
			hdr.reserved[i] = patterns[p];
			snprintf(what, sizeof(what), "READ_SAMPLES reserved[%u] =", i);
			row(on_fresh_file(ARMPMU_IOC_READ_SAMPLES, &hdr), EINVAL, what, patterns[p]);
		}
		for (i = 0; i < 3; i++) {
			char what[64];

			memset(&st, 0, sizeof(st));
			st.reserved[i] = patterns[p];
			snprintf(what, sizeof(what), "CPU_STATUS reserved[%u] =", i);
			row(on_fresh_file(ARMPMU_IOC_CPU_STATUS, &st), EINVAL, what, patterns[p]);
		}
	}
	walk_regs_reserved(patterns, ARRAY_SIZE(patterns));
	/* Only cpu is read: what comes in the output fields does not matter. */
	memset(&st, 0xff, sizeof(st));
	st.cpu = 0;
	memset(st.reserved, 0, sizeof(st.reserved));
	row(on_fresh_file(ARMPMU_IOC_CPU_STATUS, &st), 0,
	    "CPU_STATUS with every output field's bits set, cpu =", 0);
}

static void walk_flags(void)
{
	char name[160];
	unsigned int bit, wrong_event = 0, wrong_filter = 0;
	int kernel_want = who == AS_ROOT ? 0 : EACCES;

	unsigned int wrong_attach = 0, wrong_sampling = 0;

	for (bit = 2; bit < 32; bit++) {
		struct armpmu_event ev = { .event = ARMPMU_EV_CPU_CYCLES, .flags = EXCL_K | 1U << bit };

		if (set_event_on_fresh(ev) != EINVAL)
			wrong_event |= 1U << bit;
		if (u32_on_fresh(ARMPMU_IOC_SET_CYCLE_FILTER, EXCL_K | 1U << bit) != EINVAL)
			wrong_filter |= 1U << bit;
	}
	for (bit = 2; bit < 32; bit++) {
		struct armpmu_attach at = { .flags = 1U << bit };

		if (on_fresh_file(ARMPMU_IOC_ATTACH, &at) != EINVAL)
			wrong_attach |= 1U << bit;
	}
	for (bit = 1; bit < 32; bit++) {
		struct armpmu_sampling sm = { .period_ns = 1000000, .ring_bytes = 4096,
					      .flags = 1U << bit };

		if (on_fresh_file(ARMPMU_IOC_SET_SAMPLING, &sm) != EINVAL)
			wrong_sampling |= 1U << bit;
	}
	snprintf(name, sizeof(name),
		 "%s: SET_SAMPLING with each undefined flag bit (1-31): EINVAL", user_name(who));
	tap_check(!wrong_sampling, name, "not EINVAL for the bits %#x", wrong_sampling);
	row(on_fresh_file(ARMPMU_IOC_SET_SAMPLING, &(struct armpmu_sampling){
		.period_ns = 1000000, .ring_bytes = 4096, .flags = ARMPMU_SAMPLING_KERNEL }),
	    who == AS_ROOT ? 0 : EACCES, "SET_SAMPLING of kernel-mode ticks, flags",
	    ARMPMU_SAMPLING_KERNEL);
	snprintf(name, sizeof(name),
		 "%s: ATTACH with each undefined flag bit (2-31): EINVAL", user_name(who));
	tap_check(!wrong_attach, name, "not EINVAL for the bits %#x", wrong_attach);
	snprintf(name, sizeof(name),
		 "%s: SET_EVENT with each undefined flag bit (2-31): EINVAL", user_name(who));
	tap_check(!wrong_event, name, "not EINVAL for the bits %#x", wrong_event);
	snprintf(name, sizeof(name),
		 "%s: SET_CYCLE_FILTER with each undefined bit (2-31): EINVAL", user_name(who));
	tap_check(!wrong_filter, name, "not EINVAL for the bits %#x", wrong_filter);

	row(set_event_on_fresh((struct armpmu_event){ .event = ARMPMU_EV_CPU_CYCLES }), kernel_want,
	    "SET_EVENT counting kernel mode, flags", 0);
	row(set_event_on_fresh((struct armpmu_event){ .event = ARMPMU_EV_CPU_CYCLES, .flags = EXCL_U }),
	    filtered(kernel_want), "SET_EVENT counting kernel mode only, flags", EXCL_U);
	row(set_event_on_fresh((struct armpmu_event){ .event = ARMPMU_EV_CPU_CYCLES,
						      .flags = EXCL_U | EXCL_K }),
	    filtered(0), "SET_EVENT counting nothing, flags", EXCL_U | EXCL_K);
	row(u32_on_fresh(ARMPMU_IOC_SET_CYCLE_FILTER, 0), kernel_want,
	    "SET_CYCLE_FILTER counting kernel mode, flags", 0);
}

static void walk_ranges(void)
{
	static const __u32 wide[] = { 32, 0x80000000U, 0xffffffffU };
	int release_want = who == AS_ROOT ? EINVAL : EPERM;
	int bind_want = who == AS_ROOT ? EINVAL : EPERM;
	int release_file_want = who == AS_ROOT ? ESRCH : EPERM;
	struct armpmu_attach attach;
	struct armpmu_value val = { 0 };
	unsigned int i;

	row(u32_on_fresh(ARMPMU_IOC_SELECT, num_counters), 0,
	    "SELECT the number of counters (a multiplexed slot),", num_counters);
	/* Sampling's period and ring: sample_rate_max's and sample_ring_kb_max's defaults. */
	row(on_fresh_file(ARMPMU_IOC_SET_SAMPLING, &(struct armpmu_sampling){
		.period_ns = 1, .ring_bytes = 4096 }), ERANGE, "SET_SAMPLING period_ns", 1);
	row(on_fresh_file(ARMPMU_IOC_SET_SAMPLING, &(struct armpmu_sampling){
		.period_ns = 99999, .ring_bytes = 4096 }), ERANGE, "SET_SAMPLING period_ns", 99999);
	row(on_fresh_file(ARMPMU_IOC_SET_SAMPLING, &(struct armpmu_sampling){
		.period_ns = 100000, .ring_bytes = 4096 }), 0, "SET_SAMPLING period_ns", 100000);
	row(on_fresh_file(ARMPMU_IOC_SET_SAMPLING, &(struct armpmu_sampling){
		.period_ns = 1000000, .ring_bytes = 0xffffffffU }), E2BIG,
	    "SET_SAMPLING ring_bytes", 0xffffffffU);
	row(on_fresh_file(ARMPMU_IOC_SET_SAMPLING, &(struct armpmu_sampling){
		.period_ns = 1000000, .ring_bytes = 1U << 20 }), 0, "SET_SAMPLING ring_bytes",
	    1U << 20);
	row(on_fresh_file(ARMPMU_IOC_SET_SAMPLING, &(struct armpmu_sampling){
		.period_ns = 1000000, .ring_bytes = 0 }), EINVAL, "SET_SAMPLING ring_bytes", 0);
	row(on_fresh_file(ARMPMU_IOC_READ_SAMPLES, &(struct armpmu_samples){
		.size = ARMPMU_SAMPLE_SIZE(ARMPMU_MAX_COUNTERS) - 1 }), EINVAL,
	    "READ_SAMPLES size", ARMPMU_SAMPLE_SIZE(ARMPMU_MAX_COUNTERS) - 1);
	row(u32_on_fresh(ARMPMU_IOC_SELECT, ARMPMU_MAX_COUNTERS - 1), 0,
	    "SELECT the last slot,", ARMPMU_MAX_COUNTERS - 1);
	row(u32_on_fresh(ARMPMU_IOC_SELECT, ARMPMU_CYCLE_COUNTER), EINVAL,
	    "SELECT the cycle counter's index,", ARMPMU_CYCLE_COUNTER);
	row(u32_on_fresh(ARMPMU_IOC_SELECT, num_counters - 1), 0, "SELECT the last counter,",
	    num_counters - 1);
	for (i = 0; i < ARRAY_SIZE(wide); i++)
		row(u32_on_fresh(ARMPMU_IOC_SELECT, wide[i]), EINVAL, "SELECT", wide[i]);

	row(set_event_on_fresh((struct armpmu_event){ .event = 1U << event_bits, .flags = EXCL_K }),
	    EINVAL, "SET_EVENT one past the widest event number,", 1ULL << event_bits);
	row(set_event_on_fresh((struct armpmu_event){ .event = 0xffffffffU, .flags = EXCL_K }),
	    EINVAL, "SET_EVENT", 0xffffffffU);
	row(set_event_on_fresh((struct armpmu_event){ .event = (1U << event_bits) - 1,
						      .flags = EXCL_K }),
	    filtered(0), "SET_EVENT the widest event number,", (1ULL << event_bits) - 1);

	row(u32_on_fresh(ARMPMU_IOC_SET_DIVIDER, 0), 0, "SET_DIVIDER", 0);
	row(u32_on_fresh(ARMPMU_IOC_SET_DIVIDER, 2), EINVAL, "SET_DIVIDER", 2);
	row(u32_on_fresh(ARMPMU_IOC_SET_DIVIDER, 64), EINVAL, "SET_DIVIDER", 64);
	row(u32_on_fresh(ARMPMU_IOC_SET_DIVIDER, 0xffffffffU), EINVAL, "SET_DIVIDER", 0xffffffffU);

	val.counter = num_counters;
	row(on_fresh_file(ARMPMU_IOC_SET_VALUE, &val), EINVAL,
	    "SET_VALUE of the counter one past the last,", num_counters);
	val.counter = ARMPMU_CYCLE_COUNTER - 1;
	if (num_counters < ARMPMU_CYCLE_COUNTER - 1)
		row(on_fresh_file(ARMPMU_IOC_SET_VALUE, &val), EINVAL,
		    "SET_VALUE of an absent counter below the cycle counter,", val.counter);
	for (i = 0; i < ARRAY_SIZE(wide); i++) {
		val.counter = wide[i];
		row(on_fresh_file(ARMPMU_IOC_SET_VALUE, &val), EINVAL, "SET_VALUE of counter",
		    wide[i]);
	}
	val.counter = ARMPMU_CYCLE_COUNTER;
	val.value = ~0ULL;
	row(on_fresh_file(ARMPMU_IOC_SET_VALUE, &val), 0,
	    "SET_VALUE of the cycle counter to 2^64 - 1: counter", ARMPMU_CYCLE_COUNTER);

	/* Whole-CPU mode is refused to lab before its CPU number is looked at. */
	row(u32_on_fresh(ARMPMU_IOC_BIND, (__u32)last_cpu + 1), bind_want,
	    "BIND to one past the last possible CPU,", (unsigned int)last_cpu + 1);
	row(u32_on_fresh(ARMPMU_IOC_BIND, 0x7fffffffU), bind_want, "BIND to CPU", 0x7fffffffU);
	row(u32_on_fresh(ARMPMU_IOC_BIND, 0xfffffffeU), bind_want, "BIND to CPU", 0xfffffffeU);
	attach = (struct armpmu_attach){ .tid = 0x3fffffffU };
	row(on_fresh_file(ARMPMU_IOC_ATTACH, &attach), ESRCH, "ATTACH to no thread, tid",
	    attach.tid);
	row(u32_on_fresh(ARMPMU_IOC_RELEASE_FILE, 0), release_file_want,
	    "RELEASE_FILE of file id", 0);
	for (i = 0; i < 2; i++) {
		struct armpmu_cpu_status st = { .cpu = i ? 0xffffffffU : (__u32)last_cpu + 1 };

		row(on_fresh_file(ARMPMU_IOC_CPU_STATUS, &st), EINVAL, "CPU_STATUS of CPU", st.cpu);
	}
	for (i = 0; i < 2; i++) {
		struct armpmu_regs regs = { .cpu = i ? 0xffffffffU : (__u32)last_cpu + 1 };

		row(on_fresh_file(ARMPMU_IOC_REGS, &regs), regs_want(EINVAL), "REGS of CPU",
		    regs.cpu);
	}
	row(u32_on_fresh(ARMPMU_IOC_RELEASE, (__u32)last_cpu + 1), release_want,
	    "RELEASE of one past the last possible CPU,", (unsigned int)last_cpu + 1);
	row(u32_on_fresh(ARMPMU_IOC_RELEASE, 0xffffffffU), release_want, "RELEASE of CPU",
	    0xffffffffU);
}

/* Programs slots 0 to @n - 1 in @group on @fd; the first error. */
static int program_slots(int fd, unsigned int n, __u32 group)
{
	int err = 0;

	for (unsigned int i = 0; i < n && !err; i++)
		err = program_group(fd, i, ARMPMU_EV_CPU_CYCLES, EXCL_K, group);
	return err;
}

/* READ_SLOTS of @nr slots with @reserved in reserved[@which], on a fresh file. */
static int read_slots_on_fresh(__u32 nr, unsigned int which, __u32 reserved)
{
	struct {
		struct armpmu_read hdr;
		struct armpmu_slot slot[ARMPMU_MAX_COUNTERS + 1];
	} buf = { .hdr.nr = nr };

	buf.hdr.reserved[which] = reserved;
	return on_fresh_file(ARMPMU_IOC_READ_SLOTS, &buf);
}

/*
 * Multiplexing: slots past the counters, groups larger than them, and
 * READ_SLOTS' own fields and the memory it writes.
 */
static void walk_multiplex(void)
{
	static const __u32 wide[] = { ARMPMU_MAX_COUNTERS + 1, 0x80000000U, 0xffffffffU };
	struct {
		struct armpmu_read hdr;
		struct armpmu_slot slot[1];
	} buf = { .hdr.nr = 1 };
	struct armpmu_value val = { .counter = num_counters, .value = 5 };
	void *map, *p;
	int fd, err;

	err = dev_open(&fd);
	err = err ? err : program_slots(fd, num_counters, 7);
	row(err, filtered(0), "SET_EVENT: a group as large as the counters,", num_counters);
	err = err ? err : program_group(fd, num_counters, ARMPMU_EV_CPU_CYCLES, EXCL_K, 7);
	row(err, filtered(ENOSPC), "SET_EVENT: a group one larger than the counters,",
	    num_counters + 1);
	dev_close(&fd);
	err = dev_open(&fd);
	err = err ? err : program_group(fd, ARMPMU_MAX_COUNTERS - 1, ARMPMU_EV_CPU_CYCLES,
					EXCL_K, 0);
	row(err, filtered(0), "SET_EVENT on the last slot (multiplexed),",
	    ARMPMU_MAX_COUNTERS - 1);
	val.counter = ARMPMU_MAX_COUNTERS - 1;
	row(err ? err : ioc(fd, ARMPMU_IOC_SET_VALUE, &val), filtered(0),
	    "SET_VALUE of a multiplexed slot,", val.counter);
	err = err ? err : read_slots(fd, &buf.hdr, 1);
	/* Never started: programmed, never counted, and says so. */
	tap_check(err == filtered(0) && (err || (buf.hdr.programmed == 1U << 30 &&
						 buf.hdr.slots == ARMPMU_MAX_COUNTERS &&
						 !buf.slot[0].time_running)),
		  "READ_SLOTS: slot 30 programmed, slot 0 empty, nothing counted",
		  "%s: programmed %#x, slots %u", tap_errname(err), buf.hdr.programmed,
		  buf.hdr.slots);
	dev_close(&fd);
	for (unsigned int i = 0; i < ARRAY_SIZE(wide); i++)
		row(read_slots_on_fresh(wide[i], 0, 0), EINVAL, "READ_SLOTS of nr", wide[i]);
	row(read_slots_on_fresh(ARMPMU_MAX_COUNTERS, 0, 0), 0, "READ_SLOTS of every slot, nr",
	    ARMPMU_MAX_COUNTERS);
	for (unsigned int i = 0; i < 2; i++) {
		row(read_slots_on_fresh(1, i, 1), EINVAL,
		    i ? "READ_SLOTS with reserved[1] =" : "READ_SLOTS with reserved[0] =", 1);
		row(read_slots_on_fresh(1, i, 0x80000000U), EINVAL,
		    i ? "READ_SLOTS with reserved[1] =" : "READ_SLOTS with reserved[0] =",
		    0x80000000U);
	}
	/* A header followed by one slot whose last byte is not mapped. */
	buf.hdr.nr = 1;
	p = place_arg(ARG_PAST_MAPPING, &buf, sizeof(buf), &map);
	row(p ? on_fresh_file(ARMPMU_IOC_READ_SLOTS, p) : ENOMEM, EFAULT,
	    "READ_SLOTS of 1 slot into a buffer 1 byte short, nr", 1);
	unplace_arg(map);
	/* The header alone, right before the unmapped page: nr 0 fits. */
	buf.hdr.nr = 0;
	p = place_arg(ARG_PAST_MAPPING, &buf, sizeof(buf.hdr) + 1, &map);
	row(p ? on_fresh_file(ARMPMU_IOC_READ_SLOTS, p) : ENOMEM, 0,
	    "READ_SLOTS of no slot, the header just fitting, nr", 0);
	unplace_arg(map);
}

static void walk_enotty(void)
{
	static const struct { const char *name; unsigned long req; } reqs[] = {
		{ "armpmu's magic, number 0x00", _IO(ARMPMU_IOC_MAGIC, 0x00) },
		{ "armpmu's magic, number 0x0e (one past the last)", _IO(ARMPMU_IOC_MAGIC, 0x0e) },
		{ "armpmu's magic, number 0xff", _IOWR(ARMPMU_IOC_MAGIC, 0xff, __u64) },
		{ "INFO's number with the wrong size", _IOR(ARMPMU_IOC_MAGIC, 0x01, __u64) },
		{ "INFO's number and size, written instead of read",
		  _IOW(ARMPMU_IOC_MAGIC, 0x01, struct armpmu_info) },
		{ "READ's number without its argument", _IO(ARMPMU_IOC_MAGIC, 0x09) },
		{ "READ_SLOTS' number with the wrong size", _IOWR(ARMPMU_IOC_MAGIC, 0x12, __u64) },
		{ "READ_THREADS' number with the wrong size", _IOWR(ARMPMU_IOC_MAGIC, 0x13, __u64) },
		{ "SET_SAMPLING's number with the wrong size", _IOW(ARMPMU_IOC_MAGIC, 0x14, __u64) },
		{ "READ_SAMPLES' number with the wrong size", _IOWR(ARMPMU_IOC_MAGIC, 0x15, __u64) },
		{ "armpmu's magic, number 0x16 (one past READ_SAMPLES)", _IO(ARMPMU_IOC_MAGIC, 0x16) },
		{ "START's number with an argument", _IOW(ARMPMU_IOC_MAGIC, 0x07, __u32) },
		{ "INFO's number and size, another magic",
		  _IOR(ARMPMU_IOC_MAGIC + 1, 0x01, struct armpmu_info) },
		{ "a terminal's TCGETS", TCGETS },
	};
	unsigned char buf[512];
	char name[160];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(reqs); i++) {
		snprintf(name, sizeof(name), "%s: ENOTTY: %s", user_name(who), reqs[i].name);
		memset(buf, 0, sizeof(buf));
		tap_errno(on_fresh_file(reqs[i].req, buf), ENOTTY, name);
	}
}

/* ---- read(), write(), lseek(), mmap() ---- */

static int read_fresh(void *buf, size_t len, ssize_t *n)
{
	int fd, err = dev_open(&fd);

	*n = -1;
	if (err)
		return err;
	*n = read(fd, buf, len);
	err = *n < 0 ? errno : 0;
	dev_close(&fd);
	return err;
}

static void read_row(const char *what, void *buf, size_t len, int want)
{
	char name[160];
	ssize_t n;
	int err = read_fresh(buf, len, &n);

	snprintf(name, sizeof(name), "%s: read() %s: %s", user_name(who), what,
		 want ? tap_errname(want) : "the size of struct armpmu_counts");
	if (want)
		tap_errno(err, want, name);
	else
		tap_check(n == (ssize_t)sizeof(struct armpmu_counts), name, "%zd (%s)", n,
			  tap_errname(err));
}

static void walk_read(void)
{
	const size_t size = sizeof(struct armpmu_counts);
	static _Alignas(16) unsigned char buf[2 * sizeof(struct armpmu_counts)];
	unsigned char *big = malloc(1 << 20);
	unsigned char *ro = mmap(NULL, (size_t)page_size, PROT_READ,
				 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	read_row("of 0 bytes", buf, 0, EINVAL);
	read_row("of 1 byte", buf, 1, EINVAL);
	read_row("one byte short", buf, size - 1, EINVAL);
	read_row("of exactly its size", buf, size, 0);
	read_row("one byte more", buf, size + 1, 0);
	read_row("into an unaligned buffer", buf + 3, size, 0);
	if (big)
		read_row("of 1 MiB", big, 1 << 20, 0);
	read_row("into NULL", NULL, size, EFAULT);
	read_row("into an unmapped page", unmapped_address(), size, EFAULT);
	if (ro != MAP_FAILED)
		read_row("into a read-only page", ro, size, EFAULT);
	read_row("into the top page", (void *)(uintptr_t)-(intptr_t)page_size, size, EFAULT);
	/* arm64 checks the length against its own address space, not a 32-bit task's. */
	read_row("of more bytes than the address space has", buf, SIZE_MAX - (uintptr_t)buf,
		 sizeof(void *) == 4 && !native32 ? 0 : EFAULT);
	free(big);
	if (ro != MAP_FAILED)
		munmap(ro, (size_t)page_size);
}

static void walk_file_ops(void)
{
	struct armpmu_counts c;
	char name[160];
	void *p;
	int fd, err, i;

	err = dev_open(&fd);
	if (!tap_errno(err, 0, "file operations: open"))
		return;
	for (i = 0; i < 3; i++) {
		static const size_t lens[] = { 0, 1, sizeof(struct armpmu_counts) };

		snprintf(name, sizeof(name), "%s: write() of %zu bytes: EINVAL", user_name(who),
			 lens[i]);
		tap_errno(write(fd, &c, lens[i]) < 0 ? errno : 0, EINVAL, name);
	}
	snprintf(name, sizeof(name), "%s: pread(): ESPIPE", user_name(who));
	tap_errno(pread(fd, &c, sizeof(c), 0) < 0 ? errno : 0, ESPIPE, name);
	snprintf(name, sizeof(name), "%s: pwrite(): ESPIPE", user_name(who));
	tap_errno(pwrite(fd, &c, sizeof(c), 0) < 0 ? errno : 0, ESPIPE, name);
	for (i = 0; i < 3; i++) {
		static const int whence[] = { SEEK_SET, SEEK_CUR, SEEK_END };

		snprintf(name, sizeof(name), "%s: lseek(whence %d): ESPIPE", user_name(who),
			 whence[i]);
		tap_errno(lseek(fd, 0, whence[i]) < 0 ? errno : 0, ESPIPE, name);
	}
	for (i = 0; i < 2; i++) {
		p = mmap(NULL, (size_t)page_size, i ? PROT_READ | PROT_WRITE : PROT_READ,
			 i ? MAP_PRIVATE : MAP_SHARED, fd, 0);
		snprintf(name, sizeof(name), "%s: mmap(%s): ENODEV", user_name(who),
			 i ? "private, read-write" : "shared, read-only");
		tap_errno(p == MAP_FAILED ? errno : 0, ENODEV, name);
		if (p != MAP_FAILED)
			munmap(p, (size_t)page_size);
	}
	dev_close(&fd);

	/*
	 * The open mode limits read(2) and write(2) only, as for any file.
	 * Where nothing filters, lab can program nothing (EOPNOTSUPP).
	 */
	fd = open(DEV, O_RDONLY | O_CLOEXEC);
	snprintf(name, sizeof(name), "%s: a read-only file counts (SET_EVENT, START, READ)%s",
		 user_name(who), who == AS_ROOT ? "" : filtered(0) ? ": EOPNOTSUPP" : "");
	err = fd < 0 ? errno : program(fd, 0, ARMPMU_EV_CPU_CYCLES,
				       who == AS_ROOT ? root_excl_k() : EXCL_K);
	err = err ? err : ioc0(fd, ARMPMU_IOC_START);
	err = err ? err : read_counts(fd, &c);
	tap_errno(err, who == AS_ROOT ? 0 : filtered(0), name);
	dev_close(&fd);
	fd = open(DEV, O_WRONLY | O_CLOEXEC);
	snprintf(name, sizeof(name), "%s: read() on a write-only file: EBADF", user_name(who));
	tap_errno(fd < 0 ? errno : read(fd, &c, sizeof(c)) < 0 ? errno : 0, EBADF, name);
	dev_close(&fd);
}

/* ---- as root, then as lab ---- */

static void walk_matrix(void)
{
	walk_pointers();
	walk_reserved();
	walk_flags();
	walk_ranges();
	walk_multiplex();
	walk_enotty();
	walk_read();
	walk_file_ops();
}

/* The TAP count is kept in memory the child shares with us. */
static struct tap_state *shared_tap;

/*
 * Runs @fn as @as in a child that numbers its TAP lines after ours, then
 * takes its count. Returns false (after a failed test) if it died.
 */
static bool in_child(enum guest_user as, void (*fn)(void))
{
	char name[96];
	int status;
	pid_t pid;

	*shared_tap = tap;
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		if (!become_user(as))
			_exit(100);
		who = as;
		fn();
		*shared_tap = tap;
		fflush(stdout);
		_exit(0);
	}
	if (pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
	    WEXITSTATUS(status) == 0) {
		tap = *shared_tap;
		return true;
	}
	snprintf(name, sizeof(name), "the walk as %s finished", user_name(as));
	tap_check(false, name, "child status %#x", pid > 0 ? status : -1);
	return false;
}

/* ---- a file whose CPU went offline ---- */

static void offline_lab_walk(void)
{
	struct armpmu_cpu_status st = { .cpu = 1 };
	struct armpmu_regs regs = { .cpu = 1 };

	tap_errno(u32_on_fresh(ARMPMU_IOC_BIND, 1), EPERM,
		  "lab: BIND to an offline CPU: EPERM (whole-CPU mode)");
	tap_check(!on_fresh_file(ARMPMU_IOC_CPU_STATUS, &st) && !(st.flags & ARMPMU_CPU_ONLINE),
		  "lab: CPU_STATUS of an offline CPU: not ARMPMU_CPU_ONLINE",
		  "flags %#x", st.flags);
	tap_errno(on_fresh_file(ARMPMU_IOC_REGS, &regs), EPERM, "lab: REGS of an offline CPU: EPERM");
}

static void walk_offline(void)
{
	/* The calls that go to the CPU fail; the ones that only take note do not. */
	static const struct { const char *name; unsigned long req; int want; } rows[] = {
		{ "INFO", ARMPMU_IOC_INFO, ENXIO },
		{ "SET_EVENT", ARMPMU_IOC_SET_EVENT, ENXIO },
		{ "SET_VALUE", ARMPMU_IOC_SET_VALUE, ENXIO },
		{ "SET_CYCLE_FILTER", ARMPMU_IOC_SET_CYCLE_FILTER, ENXIO },
		{ "RESET", ARMPMU_IOC_RESET, ENXIO },
		{ "START", ARMPMU_IOC_START, ENXIO },
		{ "STOP", ARMPMU_IOC_STOP, ENXIO },
		{ "READ", ARMPMU_IOC_READ, ENXIO },
		{ "SELECT", ARMPMU_IOC_SELECT, 0 },
		{ "SET_DIVIDER", ARMPMU_IOC_SET_DIVIDER, 0 },
		{ "BIND", ARMPMU_IOC_BIND, EALREADY },
	};
	union {
		struct armpmu_event ev;
		struct armpmu_value val;
		struct armpmu_counts c;
		struct armpmu_info info;
		struct armpmu_regs regs;
		__u32 u;
	} arg;
	char name[160];
	unsigned int i;
	ssize_t n;
	int fd, err;

	if (access(CPU1_ONLINE, W_OK)) {
		tap_skip("calls on a file whose CPU went offline", "CPU 1 cannot go offline here");
		return;
	}
	err = open_bound(1, &fd);
	if (!tap_errno(err, 0, "offline: a file bound to CPU 1"))
		return;
	if (!tap_errno(write_file(CPU1_ONLINE, "0"), 0, "offline: CPU 1 goes offline")) {
		dev_close(&fd);
		return;
	}
	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		memset(&arg, 0, sizeof(arg));
		if (rows[i].req == ARMPMU_IOC_SET_EVENT)
			arg.ev = (struct armpmu_event){ .event = ARMPMU_EV_CPU_CYCLES,
							.flags = root_excl_k() };
		if (rows[i].req == ARMPMU_IOC_SET_CYCLE_FILTER)
			arg.u = root_excl_k();
		snprintf(name, sizeof(name), "root: %s on a file whose CPU is offline: %s",
			 rows[i].name, tap_errname(rows[i].want));
		tap_errno(ioc(fd, rows[i].req, &arg), rows[i].want, name);
	}
	n = read(fd, &arg.c, sizeof(arg.c));
	tap_errno(n < 0 ? errno : 0, ENXIO, "root: read() on a file whose CPU is offline: ENXIO");
	memset(&arg, 0, sizeof(arg));
	arg.regs.cpu = 1;
	tap_errno(on_fresh_file(ARMPMU_IOC_REGS, &arg.regs), ENXIO,
		  "root: REGS of an offline CPU: ENXIO");
	in_child(AS_LAB, offline_lab_walk);
	tap_errno(write_file(CPU1_ONLINE, "1"), 0, "offline: CPU 1 comes back");
	tap_errno(read_counts(fd, &arg.c), 0, "root: READ works again once the CPU is back");
	dev_close(&fd);
}

/* ---- other owners ---- */

static void lab_against_root(void)
{
	struct armpmu_cpu_status st = { .cpu = 0 };
	struct armpmu_counts c;

	tap_errno(u32_on_fresh(ARMPMU_IOC_BIND, 0), EPERM, "lab: BIND to root's CPU: EPERM");
	/* A first use counts lab's own thread: root's CPU owner is no obstacle. */
	tap_errno(on_fresh_file(ARMPMU_IOC_READ, &c), 0,
		  "lab: READ on a fresh file beside root's CPU owner (task mode): success");
	tap_errno(on_fresh_file(ARMPMU_IOC_RESET, NULL), 0,
		  "lab: RESET on a fresh file beside root's CPU owner: success");
	tap_errno(on_fresh_file(ARMPMU_IOC_STOP, NULL), 0,
		  "lab: STOP on a fresh file beside root's CPU owner: success");
	tap_errno(u32_on_fresh(ARMPMU_IOC_RELEASE, 0), EPERM, "lab: RELEASE of root's CPU: EPERM");
	tap_check(!on_fresh_file(ARMPMU_IOC_CPU_STATUS, &st) && (st.flags & ARMPMU_CPU_OWNED) &&
		  !(st.flags & ARMPMU_CPU_CALLER) && st.owner_uid == 0,
		  "lab: CPU_STATUS shows root's ownership, not the caller's",
		  "flags %#x, owner uid %u", st.flags, st.owner_uid);
}

static void guest_opens(void)
{
	int fd = open(DEV, O_RDWR | O_CLOEXEC);

	tap_errno(fd < 0 ? errno : 0, EACCES, "guest: open(O_RDWR): EACCES");
	dev_close(&fd);
	fd = open(DEV, O_RDONLY | O_CLOEXEC);
	tap_errno(fd < 0 ? errno : 0, EACCES, "guest: open(O_RDONLY): EACCES");
	dev_close(&fd);
}

static void walk_owners(void)
{
	struct armpmu_counts before, after;
	int fd, err;

	err = open_bound(0, &fd);
	err = err ? err : program(fd, 0, ARMPMU_EV_CPU_CYCLES, root_excl_k());
	err = err ? err : ioc0(fd, ARMPMU_IOC_START);
	loop_n(100000);
	err = err ? err : read_counts(fd, &before);
	if (!tap_errno(err, 0, "owners: root counts on CPU 0")) {
		dev_close(&fd);
		return;
	}
	in_child(AS_LAB, lab_against_root);
	in_child(AS_GUEST, guest_opens);
	err = read_counts(fd, &after);
	tap_check(!err && (after.flags & ARMPMU_COUNTS_RUNNING) &&
		  !(after.flags & ARMPMU_COUNTS_DISTURBED) && after.events[0] >= before.events[0] &&
		  after.cycles >= before.cycles,
		  "owners: root's counts go on, neither reset nor stopped by lab",
		  "%s, flags %#x, events[0] %llu then %llu", tap_errname(err), after.flags,
		  (ull)before.events[0], (ull)after.events[0]);
	dev_close(&fd);
}

static bool setup(void)
{
	struct armpmu_info info;
	struct utsname u;
	FILE *f;
	int fd, err;

	page_size = sysconf(_SC_PAGESIZE);
	native32 = sizeof(void *) == 4 && !uname(&u) && strcmp(u.machine, "aarch64");
	shared_tap = mmap(NULL, sizeof(*shared_tap), PROT_READ | PROT_WRITE,
			  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	f = fopen("/sys/devices/system/cpu/possible", "re");
	last_cpu = -1;
	if (f) {
		char line[64];
		int lo, hi;

		if (fgets(line, sizeof(line), f)) {
			if (sscanf(line, "%d-%d", &lo, &hi) == 2)
				last_cpu = hi;
			else if (sscanf(line, "%d", &lo) == 1)
				last_cpu = lo;
		}
		fclose(f);
	}
	err = pin(0);
	err = err ? err : open_bound(0, &fd);
	err = err ? err : ioc(fd, ARMPMU_IOC_INFO, &info);
	dev_close(&fd);
	if (!tap_errno(err, 0, "setup: INFO of CPU 0") || shared_tap == MAP_FAILED ||
	    !tap_check(last_cpu >= 0, "setup: the possible CPUs", "cannot read them"))
		return false;
	num_counters = info.num_counters;
	event_bits = info.event_bits;
	can_filter = info.flags & ARMPMU_INFO_CAN_FILTER;
	can_divide = info.flags & ARMPMU_INFO_CAN_DIVIDE;
	tap_note("%u counters, %u-bit events, %s, %s, CPUs 0-%d, %s", num_counters, event_bits,
		 can_filter ? "filters" : "no filtering", can_divide ? "divider" : "no divider",
		 last_cpu, sizeof(void *) == 8 ? "64-bit" : native32 ? "32-bit" : "32-bit on arm64");
	return true;
}

int main(int argc, char **argv)
{
	bool compat = argc == 2 && !strcmp(argv[1], "--compat");

	if (argc > 1 && !compat) {
		bool help = !strcmp(argv[1], "--help");

		fprintf(help ? stdout : stderr, "usage: badinput-test [--compat]\n");
		return help ? 0 : 2;
	}
	tap_init();
	if (setup()) {
		/* The kernel-space rows differ for a 32-bit program on arm64. */
		tap_check(compat == (sizeof(void *) == 4 && !native32),
			  "--compat is given exactly when a 32-bit program runs on arm64",
			  "--compat %d, pointer size %zu", compat, sizeof(void *));
		who = AS_ROOT;
		walk_matrix();
		in_child(AS_LAB, walk_matrix);
		walk_offline();
		walk_owners();
	}
	test_kernel_log();
	return tap_done();
}
