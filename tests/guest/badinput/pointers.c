// SPDX-License-Identifier: GPL-2.0
/*
 * badinput-test: every call with a valid argument in each place an
 * argument can point (its errno, or EFAULT where the kernel cannot read or
 * write it), and the calls without an argument, which ignore it.
 */
#include "common.h"

static const char *const where_name[] = {
	"a valid argument", "a valid argument 1 byte off alignment",
	"a valid argument in a read-only page", "a NULL pointer",
	"an unmapped address", "an argument whose last byte is unmapped",
	"the top page of the address space", "an address in the kernel's mapping",
};

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
int filtered(int want)
{
	return can_filter ? want : EOPNOTSUPP;
}

/* The flags root counts user mode with: none where nothing filters. */
__u32 root_excl_k(void)
{
	return can_filter ? EXCL_K : 0;
}

/* Each row on a file of its own, so no row depends on another. */
int on_fresh_file(unsigned long req, void *arg)
{
	int fd, err = dev_open(&fd);

	if (err)
		return err;
	err = ioc(fd, req, arg);
	dev_close(&fd);
	return err;
}

void walk_pointers(void)
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
