// SPDX-License-Identifier: GPL-2.0
/*
 * armpmu-test: checks /dev/armpmu against uapi/linux/armpmu.h on an emulated
 * board. Runs as root inside the guest (tools/pmu-vm), drops to the lab's
 * users in forked children for the unprivileged checks, prints TAP and exits
 * non-zero if any test failed.
 *
 *   armpmu-test --cpu cortex-a7|cortex-a8|cortex-a9|cortex-a15|cortex-a53|
 *                     cortex-a72|cortex-a76|max [--icount] [--compat] [--unload]
 *
 * --cpu names the board, so the test knows what INFO must say, and whether
 * QEMU's model of its PMU counts at all: on cortex-a8 and cortex-a9 (PMUv1)
 * it never advances a counter, so there the tests check what holds without
 * counting (INFO, errnos, the PMUv1 rules, values set and read back
 * through every counter register) and skip the ones about counts; --icount says
 * QEMU counts one cycle per instruction on one CPU (exact counts); --compat
 * says this is a 32-bit program on a 64-bit kernel; --unload ends with
 * `rmmod armpmu` and a look at the kernel log.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <grp.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/klog.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <linux/armpmu.h>

#include "checks.h"
#include "devio.h"
#include "pmu-asm.h"
#include "tap.h"
#include "users.h"

/* Common event numbers. */
#define EV_SW_INCR		0x00
#define EV_L1D_CACHE_REFILL	0x03
#define EV_INST_RETIRED		0x08
#define EV_CPU_CYCLES		0x11

#define EXCL_K			ARMPMU_EXCLUDE_KERNEL
#define EXCL_U			ARMPMU_EXCLUDE_USER

/*
 * Loop sizes (trips of loop_n, two instructions each). TCG runs a few
 * hundred million guest instructions a second: these take milliseconds.
 */
#define SPIN_SMALL		20000UL
#define SPIN			200000UL
#define SPIN_BIG		2000000UL

/* What each board's INFO must say, and what QEMU's model of it does. */
struct board {
	const char *name;
	unsigned int num_counters;
	unsigned int part;		/* MIDR[15:4]; 0: not checked */
	unsigned int min_version, max_version;
	bool events_known;
	bool filters;			/* CAN_FILTER: PMUv2 and later */
	bool counts;			/* QEMU advances its counters */
	unsigned int cpus;		/* online CPUs without --icount */
};

static const struct board boards[] = {
	{ "cortex-a7", 4, 0xc07, ARMPMU_PMUV2, ARMPMU_PMUV2, false, true, true, 2 },
	{ "cortex-a15", 6, 0xc0f, ARMPMU_PMUV2, ARMPMU_PMUV2, false, true, true, 2 },
	/* PMUv1, by MIDR: ID_DFR0.PerfMon says 0 on both. */
	{ "cortex-a8", 4, 0xc08, ARMPMU_PMUV1, ARMPMU_PMUV1, false, false, false, 1 },
	{ "cortex-a9", 6, 0xc09, ARMPMU_PMUV1, ARMPMU_PMUV1, false, false, false, 2 },
	{ "cortex-a53", 6, 0xd03, ARMPMU_PMUV3, ARMPMU_PMUV3, true, true, true, 2 },
	{ "cortex-a72", 6, 0xd08, ARMPMU_PMUV3, ARMPMU_PMUV3, true, true, true, 2 },
	/* The Raspberry Pi 5's core: PMUv3 for ARMv8.1 (16-bit events). */
	{ "cortex-a76", 6, 0xd0b, 4, 4, true, true, true, 2 },
	/* QEMU's "max" is no real part: its MIDR is not checked. */
	{ "max", 6, 0, ARMPMU_PMUV3, 15, true, true, true, 2 },
};

static const struct board *board;
static bool icount, compat, unload;
static unsigned int ncpus;		/* online at start */
static unsigned int num_counters;	/* from INFO, else the board's */
static unsigned int event_bits = 8;	/* from INFO */
static unsigned int root_excl_k;	/* EXCL_K where the board filters, else 0 */
static long page_size;

/* RESET, START, sleep @ms, STOP, READ. */
static int measure_sleep(int fd, unsigned int ms, struct armpmu_counts *c)
{
	struct timespec ts = { .tv_sec = 0, .tv_nsec = ms * 1000000L };
	int err = ioc0(fd, ARMPMU_IOC_RESET);

	if (!err)
		err = ioc0(fd, ARMPMU_IOC_START);
	if (err)
		return err;
	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
	err = ioc0(fd, ARMPMU_IOC_STOP);
	return err ? err : read_counts(fd, c);
}

/* True if counts are all zero and not running; else says what is not. */
static bool counts_clear(const struct armpmu_counts *c, char *why, size_t len)
{
	unsigned int i;

	if (c->nr != num_counters) {
		snprintf(why, len, "nr %u, expected %u", c->nr, num_counters);
		return false;
	}
	if (c->flags) {
		snprintf(why, len, "flags %#x, expected 0", c->flags);
		return false;
	}
	if (c->cycles) {
		snprintf(why, len, "cycles %llu, expected 0", (ull)c->cycles);
		return false;
	}
	for (i = 0; i < num_counters; i++) {
		if (c->events[i]) {
			snprintf(why, len, "events[%u] %llu, expected 0", i,
				 (ull)c->events[i]);
			return false;
		}
	}
	snprintf(why, len, "all zero");
	return true;
}

/* An address with nothing mapped at it, right now. */
static void *unmapped_address(void)
{
	void *p = mmap(NULL, (size_t)page_size, PROT_NONE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return (void *)16;	/* the zero page is never mapped */
	munmap(p, (size_t)page_size);
	return p;
}

/* ---- forked children ---- */

/* What a child reports back, in memory shared with the parent. */
struct child_report {
	int err[12];
	struct armpmu_info info;
	struct armpmu_counts c[3];
	uint64_t value;
};

static struct child_report *report;
static int inherited_fd = -1;

typedef void (*child_fn)(struct child_report *r);

/*
 * Runs @fn in a child as @who. Returns NULL when it exited normally, else
 * what went wrong.
 */
static const char *run_as(enum guest_user who, child_fn fn)
{
	static char why[96];
	int status;
	pid_t pid;

	memset(report, 0, sizeof(*report));
	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		snprintf(why, sizeof(why), "fork: %s", tap_errname(errno));
		return why;
	}
	if (pid == 0) {
		if (!become_user(who))
			_exit(100);
		fn(report);
		_exit(0);
	}
	if (waitpid(pid, &status, 0) != pid) {
		snprintf(why, sizeof(why), "waitpid: %s", tap_errname(errno));
		return why;
	}
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return NULL;
	if (WIFEXITED(status))
		snprintf(why, sizeof(why), "child exited with %d%s",
			 WEXITSTATUS(status),
			 WEXITSTATUS(status) >= 100 ? " (could not change identity)" : "");
	else
		snprintf(why, sizeof(why), "child killed by signal %d (%s)",
			 WTERMSIG(status), strsignal(WTERMSIG(status)));
	return why;
}

static const char *run_as_lab(child_fn fn)
{
	return run_as(AS_LAB, fn);
}

/* ---- the tests ---- */

static void test_compat(void)
{
	struct utsname u;

	uname(&u);
	tap_check(sizeof(void *) == 4 && strcmp(u.machine, "aarch64") == 0,
		  "compat: a 32-bit program on a 64-bit kernel",
		  "expected 4-byte pointers on aarch64, got %zu-byte pointers on %s",
		  sizeof(void *), u.machine);
}

static void test_device(void)
{
	struct stat st;
	int err, fd;

	err = stat(DEV, &st) ? errno : 0;
	tap_errno(err, 0, DEV " exists");
	tap_check(!err && S_ISCHR(st.st_mode), DEV " is a character device",
		  "mode %#o", err ? 0 : (unsigned int)st.st_mode);
	/* The group grant the unprivileged tests rely on: udev's rule. */
	tap_check(!err && st.st_uid == 0 && st.st_gid == ARMPMU_GID &&
		  (st.st_mode & 07777) == 0660,
		  "udev made " DEV " root:armpmu mode 0660 (60-armpmu.rules)",
		  "owner %u, group %u, mode %04o", (unsigned int)st.st_uid,
		  (unsigned int)st.st_gid, (unsigned int)(st.st_mode & 07777));
	err = dev_open(&fd);
	tap_errno(err, 0, "root opens " DEV " read-write");
	dev_close(&fd);
}

static void check_info_board(const struct armpmu_info *info)
{
	unsigned int part = (info->midr >> 4) & 0xfff;
	unsigned int implementer = info->midr >> 24;
	unsigned int want_bits, i;
	bool known = info->flags & ARMPMU_INFO_EVENTS_KNOWN;
	bool reserved_zero = true;

	tap_check(info->num_counters == board->num_counters,
		  "INFO num_counters matches the board",
		  "expected %u on %s, got %u", board->num_counters, board->name,
		  info->num_counters);
	tap_check(implementer == 0x41, "INFO midr: implementer Arm (0x41)",
		  "midr %#x: implementer %#x", info->midr, implementer);
	if (board->part)
		tap_check(part == board->part, "INFO midr: part number matches the board",
			  "expected %#x on %s, got %#x (midr %#x)", board->part,
			  board->name, part, info->midr);
	else
		tap_skip("INFO midr: part number matches the board",
			 "%s has no fixed part number (midr %#x)", board->name, info->midr);
	if (board->min_version == board->max_version)
		tap_check(info->pmu_version == board->min_version,
			  "INFO pmu_version matches the board", "expected %u on %s, got %u",
			  board->min_version, board->name, info->pmu_version);
	else
		tap_check(info->pmu_version >= board->min_version &&
			  info->pmu_version <= board->max_version,
			  "INFO pmu_version matches the board",
			  "expected %u..%u on %s, got %u", board->min_version,
			  board->max_version, board->name, info->pmu_version);
	tap_check(!!(info->flags & ARMPMU_INFO_CAN_FILTER) == board->filters,
		  board->filters ? "INFO flags: CAN_FILTER set (the filter bits stuck)" :
				   "INFO flags: CAN_FILTER clear (PMUv1 has no filtering)",
		  "flags %#x", info->flags);
	/* QEMU emulates PMCR.D on every model; arm64 clears LC for it. */
	tap_check(info->flags & ARMPMU_INFO_CAN_DIVIDE,
		  "INFO flags: CAN_DIVIDE set (PMCR.D sticks, LC clears)", "flags %#x",
		  info->flags);
	tap_check(known == board->events_known,
		  board->events_known ? "INFO flags: EVENTS_KNOWN set (PMCEID)" :
					"INFO flags: EVENTS_KNOWN clear (ARMv7: no PMCEID to trust)",
		  "flags %#x", info->flags);
	if (board->events_known) {
		tap_check(known && (info->common_events >> EV_CPU_CYCLES & 1),
			  "INFO common_events: CPU_CYCLES (0x11) implemented",
			  "common_events %#llx", (ull)info->common_events);
		tap_check(known && (bool)(info->common_events >> EV_INST_RETIRED & 1) == icount,
			  icount ? "INFO common_events: INST_RETIRED (0x08) implemented with icount" :
				   "INFO common_events: INST_RETIRED (0x08) not implemented without icount",
			  "common_events %#llx", (ull)info->common_events);
		/*
		 * PMCEID1's low half lands in bits 32-63, the registers'
		 * upper halves (0x4000-0x403f) in common_events_hi: QEMU
		 * implements none of those, and STALL_FRONTEND (0x23) and
		 * STALL_BACKEND (0x24) only from PMUv3 for ARMv8.1 on.
		 */
		tap_check(known && info->common_events_hi == 0,
			  "INFO common_events_hi: none of 0x4000-0x403f (QEMU implements none)",
			  "common_events_hi %#llx", (ull)info->common_events_hi);
		if (board->min_version >= 4 && board->part)
			tap_check(known && (info->common_events >> 0x23 & 3) == 3,
				  "INFO common_events: STALL_FRONTEND and STALL_BACKEND (PMCEID1) "
				  "implemented on PMUv3 for ARMv8.1",
				  "common_events %#llx", (ull)info->common_events);
	}
	/* The header: 8 bits on ARMv7, 10 on PMUv3 for ARMv8.0, 16 from v8.1. */
	want_bits = info->pmu_version <= ARMPMU_PMUV2 ? 8 :
		    info->pmu_version == ARMPMU_PMUV3 ? 10 : 16;
	tap_check(info->event_bits == want_bits, "INFO event_bits matches pmu_version",
		  "expected %u for pmu_version %u, got %u", want_bits,
		  info->pmu_version, info->event_bits);
	for (i = 0; i < sizeof(info->reserved) / sizeof(info->reserved[0]); i++)
		reserved_zero &= info->reserved[i] == 0;
	tap_check(reserved_zero, "INFO reserved fields are zero",
		  "reserved %#x %#x %#x %#x %#x %#x %#x %#x", info->reserved[0],
		  info->reserved[1], info->reserved[2], info->reserved[3],
		  info->reserved[4], info->reserved[5], info->reserved[6],
		  info->reserved[7]);
	tap_check(!(info->flags & ~0x3fU), "INFO flags: no undefined bit set",
		  "flags %#x", info->flags);
	tap_check(!(info->flags & ARMPMU_INFO_USERENR_SET),
		  "INFO flags: USERENR_SET clear (nobody opened the PMU to user mode)",
		  "flags %#x", info->flags);
}

static void test_info(void)
{
	struct armpmu_info info, other;
	int fd, fd2, err;
	__u32 target;

	pin(0);
	err = dev_open(&fd);
	if (!tap_errno(err, 0, "INFO: open"))
		return;
	memset(&info, 0xff, sizeof(info));
	err = ioc(fd, ARMPMU_IOC_INFO, &info);
	if (tap_errno(err, 0, "INFO on an unbound file succeeds")) {
		tap_note("INFO: cpu %u midr %#x pmu_version %u num_counters %u flags %#x "
			 "event_bits %u common_events %#llx common_events_hi %#llx",
			 info.cpu, info.midr, info.pmu_version, info.num_counters,
			 info.flags, info.event_bits, (ull)info.common_events,
			 (ull)info.common_events_hi);
		check_info_board(&info);
		if (info.num_counters && info.num_counters <= ARMPMU_MAX_COUNTERS)
			num_counters = info.num_counters;
		event_bits = info.event_bits;
		tap_check(!(info.flags & ARMPMU_INFO_BOUND) && info.cpu == 0,
			  "INFO unbound, pinned to CPU 0: BOUND clear, cpu 0",
			  "flags %#x cpu %u", info.flags, info.cpu);
		tap_check(info.flags & ARMPMU_INFO_KERNEL_ALLOWED,
			  "INFO as root: KERNEL_ALLOWED set", "flags %#x", info.flags);
	}
	if (ncpus >= 2) {
		pin(1);
		memset(&other, 0xff, sizeof(other));
		err = ioc(fd, ARMPMU_IOC_INFO, &other);
		tap_check(!err && !(other.flags & ARMPMU_INFO_BOUND) && other.cpu == 1,
			  "INFO unbound, pinned to CPU 1: BOUND clear, cpu 1",
			  "%s, flags %#x cpu %u", tap_errname(err), other.flags, other.cpu);
		pin(0);
	} else {
		tap_skip("INFO unbound, pinned to CPU 1: BOUND clear, cpu 1", "one CPU");
	}

	/* INFO must not have bound the file: another one can take CPU 0. */
	err = open_bound(0, &fd2);
	tap_errno(err, 0, "INFO does not bind: another file binds the CPU");
	dev_close(&fd2);

	/* Bound: INFO describes the bound CPU, wherever the caller is. */
	target = ncpus >= 2 ? 1 : 0;
	err = ioc_u32(fd, ARMPMU_IOC_BIND, target);
	tap_errno(err, 0, "BIND to a free CPU succeeds");
	memset(&other, 0xff, sizeof(other));
	err = ioc(fd, ARMPMU_IOC_INFO, &other);
	tap_check(!err && (other.flags & ARMPMU_INFO_BOUND) && other.cpu == target,
		  ncpus >= 2 ? "INFO bound to CPU 1 from CPU 0: BOUND set, cpu 1" :
			       "INFO bound: BOUND set, cpu 0",
		  "%s, flags %#x cpu %u", tap_errname(err), other.flags, other.cpu);
	dev_close(&fd);
}

/* Fresh bound root file on CPU 0 (the caller pinned there). */
static bool setup_cpu0(const char *what, int *fd)
{
	int err;

	pin(0);
	err = open_bound(0, fd);
	if (err)
		return tap_check(false, what, "setup: open and BIND CPU 0: %s",
				 tap_errname(err));
	return true;
}

static void test_counting(void)
{
	struct armpmu_counts a, b, c, d, e;
	char why[96];
	unsigned int i;
	int fd, err;
	bool ok;

	if (!setup_cpu0("counting: setup", &fd))
		return;
	err = read_counts(fd, &a);
	tap_check(!err && counts_clear(&a, why, sizeof(why)),
		  "a newly bound file reads zeros, not running", "%s: %s",
		  tap_errname(err), why);
	err = program(fd, 0, EV_CPU_CYCLES, 0);
	tap_errno(err, 0, "SELECT 0 and SET_EVENT CPU_CYCLES");

	err = ioc0(fd, ARMPMU_IOC_START);
	tap_errno(err, 0, "START");
	loop_n(SPIN);
	err |= read_counts(fd, &a);
	loop_n(SPIN);
	err |= read_counts(fd, &b);
	tap_check(!err && (a.flags & ARMPMU_COUNTS_RUNNING) && (b.flags & ARMPMU_COUNTS_RUNNING) &&
		  a.nr == num_counters,
		  "READ while started: RUNNING set, nr == num_counters",
		  "%s, flags %#x, nr %u", tap_errname(err), a.flags, a.nr);
	tap_check(!err && a.cycles > 0 && b.cycles > a.cycles,
		  "the cycle counter advances while started",
		  "cycles %llu then %llu", (ull)a.cycles, (ull)b.cycles);
	tap_check(!err && a.events[0] > 0 && b.events[0] > a.events[0],
		  "event counter 0 (CPU_CYCLES) advances while started",
		  "events[0] %llu then %llu", (ull)a.events[0], (ull)b.events[0]);
	ok = true;
	for (i = 1; i < num_counters; i++)
		ok &= b.events[i] == 0;
	tap_check(ok, "counters never programmed stay at zero",
		  "events[1..] %llu %llu %llu", (ull)b.events[1], (ull)b.events[2],
		  (ull)b.events[3]);

	err = ioc0(fd, ARMPMU_IOC_STOP);
	tap_errno(err, 0, "STOP");
	err = read_counts(fd, &c);
	loop_n(SPIN);
	err |= read_counts(fd, &d);
	tap_check(!err && !(c.flags & ARMPMU_COUNTS_RUNNING), "READ after STOP: RUNNING clear",
		  "%s, flags %#x", tap_errname(err), c.flags);
	tap_check(!err && c.cycles >= b.cycles && d.cycles == c.cycles &&
		  d.events[0] == c.events[0],
		  "counters stand still while stopped",
		  "cycles %llu then %llu, events[0] %llu then %llu", (ull)c.cycles,
		  (ull)d.cycles, (ull)c.events[0], (ull)d.events[0]);

	err = ioc0(fd, ARMPMU_IOC_START);
	loop_n(SPIN);
	err |= ioc0(fd, ARMPMU_IOC_STOP);
	err |= read_counts(fd, &e);
	tap_check(!err && e.cycles > d.cycles && e.events[0] > d.events[0],
		  "counts accumulate across START/STOP pairs",
		  "%s: cycles %llu then %llu, events[0] %llu then %llu", tap_errname(err),
		  (ull)d.cycles, (ull)e.cycles, (ull)d.events[0], (ull)e.events[0]);

	err = ioc0(fd, ARMPMU_IOC_RESET);
	tap_errno(err, 0, "RESET");
	err = read_counts(fd, &a);
	tap_check(!err && counts_clear(&a, why, sizeof(why)),
		  "RESET zeroes the cycle counter and every event counter",
		  "%s: %s", tap_errname(err), why);
	err = ioc0(fd, ARMPMU_IOC_START);
	loop_n(SPIN);
	err |= ioc0(fd, ARMPMU_IOC_STOP);
	err |= read_counts(fd, &b);
	tap_check(!err && b.cycles > 0 && b.events[0] > 0,
		  "RESET keeps the configuration: START counts events again",
		  "%s: cycles %llu events[0] %llu", tap_errname(err), (ull)b.cycles,
		  (ull)b.events[0]);

	err = set_event(fd, EV_CPU_CYCLES, 0);
	err |= read_counts(fd, &c);
	tap_check(!err && c.events[0] == 0 && c.cycles == b.cycles,
		  "SET_EVENT zeroes the selected counter only",
		  "%s: events[0] %llu (expected 0), cycles %llu (expected %llu)",
		  tap_errname(err), (ull)c.events[0], (ull)c.cycles, (ull)b.cycles);

	/* Every counter, the highest index included. */
	err = 0;
	for (i = 0; i < num_counters; i++)
		err |= program(fd, i, EV_CPU_CYCLES, 0);
	err |= measure_loop(fd, SPIN, &a);
	ok = !err;
	for (i = 0; i < num_counters; i++)
		ok &= a.events[i] > 0;
	tap_check(ok, "every event counter counts CPU_CYCLES",
		  "%s: events %llu %llu %llu %llu %llu %llu", tap_errname(err),
		  (ull)a.events[0], (ull)a.events[1], (ull)a.events[2],
		  (ull)a.events[3], (ull)a.events[4], (ull)a.events[5]);
	if (icount) {
		ok = !err;
		for (i = 1; i < num_counters; i++)
			ok &= a.events[i] == a.events[0];
		tap_check(ok, "icount: every event counter on CPU_CYCLES counts the same",
			  "events %llu %llu %llu %llu %llu %llu", (ull)a.events[0],
			  (ull)a.events[1], (ull)a.events[2], (ull)a.events[3],
			  (ull)a.events[4], (ull)a.events[5]);
	}
	dev_close(&fd);
}

/* An event counter on CPU_CYCLES next to the cycle counter. */
static void test_cycles_event(void)
{
	struct armpmu_counts c;
	int64_t diff;
	int fd, err;

	if (!setup_cpu0("CPU_CYCLES vs cycle counter: setup", &fd))
		return;
	err = program(fd, 0, EV_CPU_CYCLES, 0);
	if (!err)
		err = measure_loop(fd, SPIN_BIG, &c);
	diff = (int64_t)(c.events[0] - c.cycles);
	tap_note("CPU_CYCLES event %llu, cycle counter %llu, difference %lld",
		 (ull)c.events[0], (ull)c.cycles, (long long)diff);
	if (icount)
		/* Both start and stop with the same register write. */
		tap_check(!err && c.events[0] == c.cycles,
			  "icount: CPU_CYCLES event == cycle counter",
			  "%s: event %llu, cycles %llu (difference %lld)",
			  tap_errname(err), (ull)c.events[0], (ull)c.cycles, (long long)diff);
	else
		tap_check(!err && c.cycles > 0 && within_pct(c.events[0], c.cycles, 1),
			  "CPU_CYCLES event within 1% of the cycle counter",
			  "%s: event %llu, cycles %llu", tap_errname(err),
			  (ull)c.events[0], (ull)c.cycles);
	dev_close(&fd);
}

/* Interrupts taken so far on every CPU: /proc/stat's intr total. */
static unsigned long long interrupts_so_far(void)
{
	FILE *f = fopen("/proc/stat", "re");
	unsigned long long n = 0;
	char line[256];

	while (f && fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "intr ", 5)) {
			n = strtoull(line + 5, NULL, 10);
			break;
		}
	}
	if (f)
		fclose(f);
	return n;
}

#define DIV_LOOP	100000UL

/* measure_loop(DIV_LOOP), retried until no interrupt came in between. */
static int uninterrupted_loop(int fd, struct armpmu_counts *c)
{
	unsigned int tries;

	for (tries = 0; tries < 20; tries++) {
		unsigned long long before = interrupts_so_far();
		int err = measure_loop(fd, DIV_LOOP, c);

		if (err)
			return err;
		if (interrupts_so_far() == before)
			return 0;
	}
	return ETIMEDOUT;
}

/*
 * As uid 1000, whose cycle counter counts user mode only: the same loop
 * with divider 0 and 1, each run free of interrupts, so that the user-mode
 * stretch from START to STOP is one piece, the same instructions each time.
 */
static void divider_child(struct child_report *r)
{
	int fd;

	/* Task mode: uid 1000 may not bind a CPU. */
	r->err[0] = dev_open(&fd);
	if (r->err[0])
		return;
	r->err[1] = program(fd, 0, EV_CPU_CYCLES, EXCL_K);
	loop_n(DIV_LOOP);
	r->err[2] = ioc_u32(fd, ARMPMU_IOC_SET_DIVIDER, 0);
	if (!r->err[2])
		r->err[2] = uninterrupted_loop(fd, &r->c[0]);
	r->err[3] = ioc_u32(fd, ARMPMU_IOC_SET_DIVIDER, 1);
	if (!r->err[3])
		r->err[3] = uninterrupted_loop(fd, &r->c[1]);
	close(fd);
}

static void test_divider_exact(void)
{
	const struct armpmu_counts *c1 = &report->c[0], *c64 = &report->c[1];
	const char *why = run_as_lab(divider_child);
	int64_t d;
	int err;

	if (why) {
		tap_check(false, "icount, uid 1000: divider runs", "%s", why);
		return;
	}
	err = report->err[0] ? report->err[0] : report->err[1] ? report->err[1] :
	      report->err[2] ? report->err[2] : report->err[3];
	tap_errno(err, 0, "icount, uid 1000: the same loop, uninterrupted, with divider 0 and 1");
	tap_note("uid 1000, divider 0: cycles %llu CPU_CYCLES:u %llu; divider 1: cycles %llu "
		 "CPU_CYCLES:u %llu", (ull)c1->cycles, (ull)c1->events[0], (ull)c64->cycles,
		 (ull)c64->events[0]);
	if (err)
		return;
	tap_check(c1->events[0] == c64->events[0],
		  "icount, uid 1000: CPU_CYCLES:u is the same in both runs",
		  "divider 0: %llu, divider 1: %llu", (ull)c1->events[0], (ull)c64->events[0]);
	tap_check(c1->cycles == c1->events[0],
		  "icount, uid 1000, divider 0: cycle counter == CPU_CYCLES:u",
		  "cycles %llu, CPU_CYCLES:u %llu", (ull)c1->cycles, (ull)c1->events[0]);
	/* C64 = floor(end / 64) - floor(start / 64), with end - start = C1. */
	d = (int64_t)(c64->cycles * 64) - (int64_t)c1->cycles;
	tap_check(d > -64 && d < 64,
		  "icount, uid 1000: |C64 * 64 - C1| < 64 (divider 1 vs divider 0)",
		  "C64 %llu * 64 = %llu, C1 %llu", (ull)c64->cycles, (ull)c64->cycles * 64,
		  (ull)c1->cycles);
}

/* Host time, divider 0 then 1: 16x..256x fewer cycles. */
static bool divided(const struct armpmu_counts *c1, const struct armpmu_counts *c64)
{
	return c64->cycles > 0 && c64->cycles * 16 <= c1->cycles &&
	       c64->cycles * 256 >= c1->cycles;
}

static void test_divider(void)
{
	struct armpmu_counts c1, c64, c0;
	unsigned int tries;
	int fd, err;

	if (!setup_cpu0("divider: setup", &fd))
		return;
	err = program(fd, 0, EV_CPU_CYCLES, 0);
	err |= ioc_u32(fd, ARMPMU_IOC_SET_DIVIDER, 0);
	err |= measure_loop(fd, SPIN_BIG, &c1);
	tap_errno(err, 0, "SET_DIVIDER 0, count a loop");
	err = ioc_u32(fd, ARMPMU_IOC_SET_DIVIDER, 1);
	tap_errno(err, 0, "SET_DIVIDER 1");
	err |= measure_loop(fd, SPIN_BIG, &c64);
	tap_note("divider 0: cycles %llu event %llu; divider 1: cycles %llu event %llu",
		 (ull)c1.cycles, (ull)c1.events[0], (ull)c64.cycles, (ull)c64.events[0]);
	if (icount) {
		/*
		 * The cycle counter takes one count each time the cycle count
		 * crosses a multiple of 64: from the same start and stop as
		 * the undivided CPU_CYCLES event, it counts E/64 rounded down
		 * or up (exactly E/64 when 64 divides E).
		 */
		int64_t d = (int64_t)(c64.cycles * 64) - (int64_t)c64.events[0];

		tap_check(!err && d > -64 && d < 64,
			  "icount: divided cycle counter * 64 within 64 of CPU_CYCLES (same run)",
			  "%s: cycles %llu * 64 = %llu, event %llu", tap_errname(err),
			  (ull)c64.cycles, (ull)c64.cycles * 64, (ull)c64.events[0]);
	} else {
		tap_check(!err && c64.cycles > 0 && c64.cycles * 56 <= c64.events[0] &&
			  c64.cycles * 72 >= c64.events[0],
			  "divided cycle counter is 1/64 of CPU_CYCLES (56x..72x, same run)",
			  "%s: cycles %llu, event %llu", tap_errname(err),
			  (ull)c64.cycles, (ull)c64.events[0]);
		/*
		 * Two runs follow host time: a stalled QEMU can make either one
		 * last longer. A stall only ever adds time, a wrong divider
		 * fails every pair: up to three pairs.
		 */
		for (tries = 1; !err && !divided(&c1, &c64) && tries < 3; tries++) {
			err = ioc_u32(fd, ARMPMU_IOC_SET_DIVIDER, 0);
			err |= measure_loop(fd, SPIN_BIG, &c1);
			err |= ioc_u32(fd, ARMPMU_IOC_SET_DIVIDER, 1);
			err |= measure_loop(fd, SPIN_BIG, &c64);
		}
		tap_check(!err && divided(&c1, &c64),
			  "same loop, divider 1 vs 0: 16x..256x fewer cycles",
			  "%s: divider 0 %llu, divider 1 %llu (pair %u of 3)", tap_errname(err),
			  (ull)c1.cycles, (ull)c64.cycles, tries);
	}
	err = ioc_u32(fd, ARMPMU_IOC_SET_DIVIDER, 0);
	err |= measure_loop(fd, SPIN_BIG, &c0);
	if (icount)
		tap_check(!err && c0.cycles == c0.events[0],
			  "SET_DIVIDER 0 again: cycle counter == CPU_CYCLES",
			  "%s: cycles %llu, event %llu", tap_errname(err),
			  (ull)c0.cycles, (ull)c0.events[0]);
	else
		tap_check(!err && within_pct(c0.cycles, c0.events[0], 1),
			  "SET_DIVIDER 0 again: cycle counter within 1% of CPU_CYCLES",
			  "%s: cycles %llu, event %llu", tap_errname(err),
			  (ull)c0.cycles, (ull)c0.events[0]);
	dev_close(&fd);
	/*
	 * Root's cycle counter also counts the kernel, interrupts included,
	 * which differ from run to run: two runs compare exactly in user mode
	 * only, without interrupts (CPU 0 free again for the child).
	 */
	if (icount)
		test_divider_exact();
}

/* Exception-level filters on CPU_CYCLES (implemented on every board). */
static void test_filters(void)
{
	struct armpmu_counts c;
	uint64_t u, k, sum;
	int fd, err;

	if (!setup_cpu0("filters: setup", &fd))
		return;
	err = program(fd, 0, EV_CPU_CYCLES, EXCL_K);
	err |= program(fd, 1, EV_CPU_CYCLES, EXCL_U);
	err |= program(fd, 2, EV_CPU_CYCLES, EXCL_U | EXCL_K);
	err |= measure_loop(fd, 5 * SPIN_BIG, &c);
	tap_errno(err, 0, "CPU_CYCLES:u, CPU_CYCLES:k and CPU_CYCLES excluding both");
	u = c.events[0];
	k = c.events[1];
	sum = u + k;
	tap_note("filters: user %llu, kernel %llu, none %llu, cycle counter %llu",
		 (ull)u, (ull)k, (ull)c.events[2], (ull)c.cycles);
	tap_check(!err && c.events[2] == 0, "excluding user and kernel counts nothing",
		  "got %llu", (ull)c.events[2]);
	/*
	 * Without icount, the kernel's share follows host time: QEMU stalls
	 * (other vCPU's exclusive work, a busy host) while CPU 0 is in the
	 * kernel can make it as large as the loop's. The sum below, and the
	 * uid 1000 loop (user-only cycle counter vs CPU_CYCLES:u), check the
	 * filters there.
	 */
	if (icount)
		tap_check(!err && u > 0 && k * 10 < u,
			  "icount: a user-mode loop: kernel-only count < 10% of user-only count",
			  "user %llu, kernel %llu", (ull)u, (ull)k);
	else
		tap_check(!err && u > 0, "a user-mode loop counts in user mode",
			  "user %llu", (ull)u);
	if (icount)
		tap_check(!err && sum == c.cycles,
			  "icount: user + kernel == the unfiltered cycle counter",
			  "user %llu + kernel %llu = %llu, cycles %llu", (ull)u, (ull)k,
			  (ull)sum, (ull)c.cycles);
	else
		tap_check(!err && within_pct(sum, c.cycles, 1),
			  "user + kernel within 1% of the unfiltered cycle counter",
			  "user %llu + kernel %llu = %llu, cycles %llu", (ull)u, (ull)k,
			  (ull)sum, (ull)c.cycles);
	dev_close(&fd);
}

/* icount: INST_RETIRED:u counts loop_n() to the instruction. */
static void test_exact(void)
{
	static const unsigned long sizes[] = { 1, 100, 10000, 1000000 };
	struct armpmu_counts c;
	uint64_t base[5];
	char name[96];
	unsigned int i;
	int fd, err;
	bool same;

	if (!icount) {
		tap_skip("INST_RETIRED:u counts loops exactly", "exact counts need --icount");
		return;
	}
	if (!setup_cpu0("exact counts: setup", &fd))
		return;
	err = program(fd, 0, EV_INST_RETIRED, EXCL_K);
	err |= program(fd, 1, EV_CPU_CYCLES, EXCL_K);
	if (!tap_errno(err, 0, "icount: program INST_RETIRED:u and CPU_CYCLES:u")) {
		dev_close(&fd);
		return;
	}
	same = true;
	for (i = 0; i < 5; i++) {
		err |= measure_loop(fd, 0, &c);
		base[i] = c.events[0];
		same &= base[i] == base[0];
	}
	tap_note("INST_RETIRED:u of loop_n(0): %llu %llu %llu %llu %llu", (ull)base[0],
		 (ull)base[1], (ull)base[2], (ull)base[3], (ull)base[4]);
	tap_check(!err && same && base[0] > 0, "icount: count(0) is identical across 5 runs",
		  "%s: %llu %llu %llu %llu %llu", tap_errname(err), (ull)base[0],
		  (ull)base[1], (ull)base[2], (ull)base[3], (ull)base[4]);
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		uint64_t want = base[0] + LOOP_INSNS_PER_ITER * (uint64_t)sizes[i];

		err = measure_loop(fd, sizes[i], &c);
		snprintf(name, sizeof(name),
			 "icount: INST_RETIRED:u of loop_n(%lu) == count(0) + %d * %lu",
			 sizes[i], LOOP_INSNS_PER_ITER, sizes[i]);
		tap_check(!err && c.events[0] == want, name,
			  "%s: expected %llu, got %llu (difference %lld)", tap_errname(err),
			  (ull)want, (ull)c.events[0],
			  (long long)(c.events[0] - want));
		if (sizes[i] == 10000)
			tap_check(!err && c.events[1] == c.events[0],
				  "icount: CPU_CYCLES:u == INST_RETIRED:u",
				  "cycles:u %llu, instructions:u %llu",
				  (ull)c.events[1], (ull)c.events[0]);
	}
	dev_close(&fd);
}

/* True if @c holds @want in every event counter and @cycles. */
static bool counts_are(const struct armpmu_counts *c, const uint64_t *want, uint64_t cycles)
{
	unsigned int i;

	if (c->cycles != cycles || c->nr != num_counters)
		return false;
	for (i = 0; i < num_counters; i++)
		if (c->events[i] != want[i])
			return false;
	return true;
}

/*
 * On a board whose PMU QEMU never advances (PMUv1), a value set with
 * SET_VALUE must come back unchanged from every READ, counting or not: each
 * counter gets a value of its own, above 32 bits, so that a wrong PMSELR
 * selection, a lost high half or a mixed-up cycle counter shows. The
 * divider must stay set while counting (PMCR.D read back at every look).
 */
static void test_static_counters(void)
{
	uint64_t want[ARMPMU_MAX_COUNTERS], cycles = 0x3fffff000ULL;
	struct armpmu_value v;
	struct armpmu_counts c;
	char why[96];
	unsigned int i;
	int fd, err = 0;

	if (!setup_cpu0("values: setup", &fd))
		return;
	for (i = 0; i < num_counters; i++) {
		want[i] = ((uint64_t)(i + 1) << 32) + 0x100 * i + 7;
		err |= program(fd, i, EV_CPU_CYCLES, 0);
		v = (struct armpmu_value){ .counter = i, .value = want[i] };
		err |= ioc(fd, ARMPMU_IOC_SET_VALUE, &v);
	}
	v = (struct armpmu_value){ .counter = ARMPMU_CYCLE_COUNTER, .value = cycles };
	err |= ioc(fd, ARMPMU_IOC_SET_VALUE, &v);
	tap_errno(err, 0, "program every counter and SET_VALUE each, and the cycle counter");
	err = read_counts(fd, &c);
	tap_check(!err && counts_are(&c, want, cycles) && !(c.flags & ARMPMU_COUNTS_RUNNING),
		  "stopped: READ gives back every value set",
		  "%s: flags %#x, cycles %#llx, events[0] %#llx events[1] %#llx", tap_errname(err),
		  c.flags, (ull)c.cycles, (ull)c.events[0], (ull)c.events[1]);
	err = ioc0(fd, ARMPMU_IOC_START);
	loop_n(SPIN);
	err = err ? err : read_counts(fd, &c);
	tap_check(!err && counts_are(&c, want, cycles) && (c.flags & ARMPMU_COUNTS_RUNNING),
		  "started: RUNNING, and every value read back from the hardware unchanged "
		  "(QEMU's PMUv1 never counts)",
		  "%s: flags %#x, cycles %#llx, events[0] %#llx events[1] %#llx", tap_errname(err),
		  c.flags, (ull)c.cycles, (ull)c.events[0], (ull)c.events[1]);
	err = ioc0(fd, ARMPMU_IOC_STOP);
	err = err ? err : read_counts(fd, &c);
	tap_check(!err && counts_are(&c, want, cycles) && !(c.flags & ARMPMU_COUNTS_RUNNING),
		  "STOP: RUNNING clear, values unchanged", "%s: flags %#x, cycles %#llx",
		  tap_errname(err), c.flags, (ull)c.cycles);
	err = ioc0(fd, ARMPMU_IOC_RESET);
	err = err ? err : read_counts(fd, &c);
	tap_check(!err && counts_clear(&c, why, sizeof(why)), "RESET zeroes every counter",
		  "%s: %s", tap_errname(err), why);

	/* The divider: set at START, and still set at every look (else EIO). */
	err = ioc_u32(fd, ARMPMU_IOC_SET_DIVIDER, 1);
	tap_errno(err, 0, "SET_DIVIDER 1 (CAN_DIVIDE)");
	err = ioc0(fd, ARMPMU_IOC_START);
	loop_n(SPIN);
	err = err ? err : read_counts(fd, &c);
	err = err ? err : ioc0(fd, ARMPMU_IOC_STOP);
	tap_check(!err && !(c.flags & ARMPMU_COUNTS_DISTURBED),
		  "counting with the divider: PMCR.D reads back set, not disturbed",
		  "%s, flags %#x", tap_errname(err), c.flags);
	err = ioc_u32(fd, ARMPMU_IOC_SET_DIVIDER, 0);
	err = err ? err : ioc0(fd, ARMPMU_IOC_START);
	err = err ? err : read_counts(fd, &c);
	err = err ? err : ioc0(fd, ARMPMU_IOC_STOP);
	tap_check(!err && !(c.flags & ARMPMU_COUNTS_DISTURBED),
		  "SET_DIVIDER 0 again: counting, not disturbed", "%s, flags %#x",
		  tap_errname(err), c.flags);
	dev_close(&fd);
}

static void test_read_syscall(void)
{
	struct armpmu_counts a, b[2];
	ssize_t n;
	int fd, err;

	if (!setup_cpu0("read(): setup", &fd))
		return;
	err = program(fd, 0, EV_CPU_CYCLES, 0);
	err |= measure_loop(fd, SPIN, &a);
	memset(b, 0x5a, sizeof(b));
	n = read(fd, b, sizeof(b));
	tap_check(n == (ssize_t)sizeof(a), "read() with a large buffer returns one snapshot",
		  "expected %zu, got %zd (%s)", sizeof(a), n, n < 0 ? tap_errname(errno) : "");
	tap_check(!err && n == (ssize_t)sizeof(a) && memcmp(&a, &b[0], sizeof(a)) == 0,
		  "read() when stopped: the same bytes as ARMPMU_IOC_READ",
		  "%s: READ cycles %llu events[0] %llu nr %u flags %#x; read() "
		  "cycles %llu events[0] %llu nr %u flags %#x", tap_errname(err),
		  (ull)a.cycles, (ull)a.events[0], a.nr, a.flags, (ull)b[0].cycles,
		  (ull)b[0].events[0], b[0].nr, b[0].flags);
	memset(b, 0x5a, sizeof(b));
	n = read(fd, b, sizeof(b[0]));
	tap_check(n == (ssize_t)sizeof(a) && memcmp(&a, &b[0], sizeof(a)) == 0,
		  "read() with exactly sizeof(struct armpmu_counts)",
		  "got %zd (%s)", n, n < 0 ? tap_errname(errno) : "");
	err = ioc0(fd, ARMPMU_IOC_START);
	loop_n(SPIN);
	n = read(fd, b, sizeof(b[0]));
	err |= ioc0(fd, ARMPMU_IOC_STOP);
	tap_check(!err && n == (ssize_t)sizeof(a) && (b[0].flags & ARMPMU_COUNTS_RUNNING) &&
		  (!board->counts || b[0].cycles > a.cycles),
		  board->counts ? "read() while started: RUNNING set, counts moving on" :
				  "read() while started: RUNNING set",
		  "%s: returned %zd, flags %#x, cycles %llu (before %llu)", tap_errname(err),
		  n, b[0].flags, (ull)b[0].cycles, (ull)a.cycles);
	dev_close(&fd);
}

static void test_enotty(int fd)
{
	tap_errno(ioc0(fd, _IO(ARMPMU_IOC_MAGIC, 0x00)), ENOTTY,
		  "ENOTTY: armpmu magic, number 0x00");
	tap_errno(ioc0(fd, _IO(ARMPMU_IOC_MAGIC, 0x0a)), ENOTTY,
		  "ENOTTY: armpmu magic, number 0x0a (one past the last)");
	{
		__u64 arg = 0;

		tap_errno(ioc(fd, _IOR(ARMPMU_IOC_MAGIC, 0x01, __u64), &arg), ENOTTY,
			  "ENOTTY: INFO's number with the wrong size");
	}
	{
		struct armpmu_info info;

		tap_errno(ioc(fd, _IOR(ARMPMU_IOC_MAGIC + 1, 0x01, struct armpmu_info), &info),
			  ENOTTY, "ENOTTY: INFO's number and size with another magic");
	}
}

static void test_efault(int fd)
{
	struct {
		const char *name;
		unsigned long req;
		bool needs_unbound;
	} calls[] = {
		{ "INFO", ARMPMU_IOC_INFO, false },
		{ "READ", ARMPMU_IOC_READ, false },
		{ "SET_EVENT", ARMPMU_IOC_SET_EVENT, false },
		{ "SELECT", ARMPMU_IOC_SELECT, false },
		{ "BIND", ARMPMU_IOC_BIND, true },
	};
	char name[96];
	unsigned int i, j;
	int fresh, err;

	for (i = 0; i < sizeof(calls) / sizeof(calls[0]); i++) {
		for (j = 0; j < 2; j++) {
			int target = fd;

			fresh = -1;
			if (calls[i].needs_unbound) {
				err = dev_open(&fresh);
				if (err) {
					tap_check(false, calls[i].name, "open: %s", tap_errname(err));
					continue;
				}
				target = fresh;
			}
			snprintf(name, sizeof(name), "EFAULT: %s with a%s pointer",
				 calls[i].name, j ? "n unmapped" : " NULL");
			err = ioc(target, calls[i].req, j ? unmapped_address() : NULL);
			tap_errno(err, EFAULT, name);
			if (calls[i].needs_unbound) {
				struct armpmu_info info;

				err = ioc(target, ARMPMU_IOC_INFO, &info);
				tap_check(!err && !(info.flags & ARMPMU_INFO_BOUND),
					  j ? "a failed BIND (unmapped) leaves the file unbound" :
					      "a failed BIND (NULL) leaves the file unbound",
					  "%s, flags %#x", tap_errname(err), info.flags);
			}
			dev_close(&fresh);
		}
	}
	{
		/* A snapshot that would end in an unmapped page. */
		char *p = mmap(NULL, 2 * (size_t)page_size, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (p != MAP_FAILED) {
			munmap(p + page_size, (size_t)page_size);
			err = ioc(fd, ARMPMU_IOC_READ, p + page_size - 16);
			tap_errno(err, EFAULT, "EFAULT: READ into a buffer running into an unmapped page");
			munmap(p, (size_t)page_size);
		}
	}
	{
		/* Through a volatile, so the compiler does not object. */
		void *volatile null = NULL;
		ssize_t n = read(fd, null, sizeof(struct armpmu_counts));

		tap_errno(n < 0 ? errno : 0, EFAULT, "EFAULT: read() into NULL");
	}
}

static void test_einval(int fd)
{
	struct armpmu_event ev;
	struct armpmu_counts c;
	char name[96];
	ssize_t n;
	int last, other;

	snprintf(name, sizeof(name), "EINVAL: SELECT %u (== num_counters)", num_counters);
	tap_errno(ioc_u32(fd, ARMPMU_IOC_SELECT, num_counters), EINVAL, name);
	tap_errno(ioc_u32(fd, ARMPMU_IOC_SELECT, ARMPMU_MAX_COUNTERS), EINVAL,
		  "EINVAL: SELECT 31 (the cycle counter's index)");
	tap_errno(ioc_u32(fd, ARMPMU_IOC_SELECT, 0xffffffffU), EINVAL,
		  "EINVAL: SELECT 0xffffffff");
	snprintf(name, sizeof(name), "SELECT %u (the last counter) succeeds", num_counters - 1);
	tap_errno(ioc_u32(fd, ARMPMU_IOC_SELECT, num_counters - 1), 0, name);
	tap_errno(ioc_u32(fd, ARMPMU_IOC_SELECT, 0), 0, "SELECT 0 succeeds");

	snprintf(name, sizeof(name), "EINVAL: SET_EVENT %#x (event_bits %u)",
		 1U << event_bits, event_bits);
	tap_errno(set_event(fd, 1U << event_bits, EXCL_K), EINVAL, name);
	tap_errno(set_event(fd, 0xffffffffU, EXCL_K), EINVAL, "EINVAL: SET_EVENT 0xffffffff");
	snprintf(name, sizeof(name), "SET_EVENT %#x (the widest event number) succeeds",
		 (1U << event_bits) - 1);
	tap_errno(set_event(fd, (1U << event_bits) - 1, root_excl_k), 0, name);
	tap_errno(set_event(fd, EV_CPU_CYCLES, 1U << 2), EINVAL,
		  "EINVAL: SET_EVENT with flag bit 2 (undefined)");
	tap_errno(set_event(fd, EV_CPU_CYCLES, EXCL_K | 1U << 31), EINVAL,
		  "EINVAL: SET_EVENT with flag bit 31 (undefined)");
	memset(&ev, 0, sizeof(ev));
	ev.event = EV_CPU_CYCLES;
	ev.reserved[0] = 1;
	tap_errno(ioc(fd, ARMPMU_IOC_SET_EVENT, &ev), EINVAL,
		  "EINVAL: SET_EVENT with reserved[0] non-zero");
	ev.reserved[0] = 0;
	ev.reserved[1] = 0x80000000U;
	tap_errno(ioc(fd, ARMPMU_IOC_SET_EVENT, &ev), EINVAL,
		  "EINVAL: SET_EVENT with reserved[1] non-zero");

	tap_errno(ioc_u32(fd, ARMPMU_IOC_SET_DIVIDER, 2), EINVAL, "EINVAL: SET_DIVIDER 2");
	tap_errno(ioc_u32(fd, ARMPMU_IOC_SET_DIVIDER, 0xffffffffU), EINVAL,
		  "EINVAL: SET_DIVIDER 0xffffffff");

	/* CPUs that do not exist, on a fresh (unbound) file. */
	last = last_possible_cpu();
	if (dev_open(&other) == 0) {
		if (last >= 0) {
			snprintf(name, sizeof(name), "EINVAL: BIND to CPU %d (past the last possible CPU)",
				 last + 1);
			tap_errno(ioc_u32(other, ARMPMU_IOC_BIND, (__u32)last + 1), EINVAL, name);
		} else {
			tap_check(false, "EINVAL: BIND past the last possible CPU",
				  "cannot read /sys/devices/system/cpu/possible");
		}
		tap_errno(ioc_u32(other, ARMPMU_IOC_BIND, 0xfffffffeU), EINVAL,
			  "EINVAL: BIND to CPU 0xfffffffe");
		tap_errno(ioc_u32(other, ARMPMU_IOC_BIND, 0x7fffffffU), EINVAL,
			  "EINVAL: BIND to CPU 0x7fffffff");
		dev_close(&other);
	} else {
		tap_check(false, "EINVAL: BIND to CPUs that do not exist", "open failed");
	}

	n = read(fd, &c, sizeof(c) - 1);
	tap_errno(n < 0 ? errno : 0, EINVAL, "EINVAL: read() with a buffer one byte short");
	n = read(fd, &c, 8);
	tap_errno(n < 0 ? errno : 0, EINVAL, "EINVAL: read() of 8 bytes");
	n = write(fd, &c, sizeof(c));
	tap_errno(n < 0 ? errno : 0, EINVAL, "EINVAL: write()");
}

static void test_errors(void)
{
	void *p;
	int fd, fd2, err;

	if (!setup_cpu0("errors: setup", &fd))
		return;
	test_enotty(fd);
	test_efault(fd);
	test_einval(fd);

	tap_errno(lseek(fd, 0, SEEK_SET) < 0 ? errno : 0, ESPIPE, "ESPIPE: lseek(SEEK_SET)");
	tap_errno(lseek(fd, 0, SEEK_CUR) < 0 ? errno : 0, ESPIPE, "ESPIPE: lseek(SEEK_CUR)");
	p = mmap(NULL, (size_t)page_size, PROT_READ, MAP_SHARED, fd, 0);
	tap_errno(p == MAP_FAILED ? errno : 0, ENODEV, "ENODEV: mmap()");
	if (p != MAP_FAILED)
		munmap(p, (size_t)page_size);

	/* EALREADY: explicitly bound, and bound by a first SELECT. */
	tap_errno(ioc_u32(fd, ARMPMU_IOC_BIND, 0), EALREADY, "EALREADY: BIND a bound file again");
	tap_errno(ioc_u32(fd, ARMPMU_IOC_BIND, ARMPMU_CPU_CURRENT), EALREADY,
		  "EALREADY: BIND a bound file to ARMPMU_CPU_CURRENT");

	/* EBUSY: another file wants CPU 0. */
	err = dev_open(&fd2);
	if (!err) {
		tap_errno(ioc_u32(fd2, ARMPMU_IOC_BIND, 0), EBUSY,
			  "EBUSY: a second file BINDs an owned CPU");
		tap_errno(ioc_u32(fd2, ARMPMU_IOC_BIND, ARMPMU_CPU_CURRENT), EBUSY,
			  "EBUSY: a second file BINDs ARMPMU_CPU_CURRENT on an owned CPU");
		tap_errno(ioc_u32(fd2, ARMPMU_IOC_SELECT, 0), 0,
			  "a second file's first SELECT chooses task mode beside the CPU's owner");
		dev_close(&fd2);
	} else {
		tap_check(false, "EBUSY: a second file BINDs an owned CPU", "open: %s",
			  tap_errname(err));
	}
	err = program(fd, 0, EV_CPU_CYCLES, 0);
	err |= ioc0(fd, ARMPMU_IOC_START);
	tap_errno(err, 0, "program and START");
	tap_errno(set_event(fd, EV_CPU_CYCLES, 0), EBUSY, "EBUSY: SET_EVENT while started");
	tap_errno(ioc_u32(fd, ARMPMU_IOC_SET_DIVIDER, 1), EBUSY,
		  "EBUSY: SET_DIVIDER while started");
	tap_errno(ioc0(fd, ARMPMU_IOC_STOP), 0, "STOP");
	tap_errno(set_event(fd, EV_CPU_CYCLES, 0), 0, "SET_EVENT after STOP succeeds");
	dev_close(&fd);

	/* EALREADY for a file whose first call chose task mode. */
	err = dev_open(&fd);
	if (!err) {
		err = ioc_u32(fd, ARMPMU_IOC_SELECT, 0);
		tap_errno(err, 0, "a first SELECT chooses task mode for the caller's thread");
		tap_errno(ioc_u32(fd, ARMPMU_IOC_BIND, 0), EALREADY,
			  "EALREADY: BIND after a first SELECT chose task mode");
		dev_close(&fd);
	}

	/* ENOENT: the common events PMCEID says are missing. */
	if (!board->events_known) {
		tap_skip("ENOENT: SET_EVENT of an unimplemented common event",
			 "%s lists no events (EVENTS_KNOWN clear)", board->name);
	} else if (setup_cpu0("ENOENT: setup", &fd)) {
		err = program(fd, 0, EV_L1D_CACHE_REFILL, EXCL_K);
		tap_errno(err, ENOENT, "ENOENT: SET_EVENT 0x03 (not in PMCEID on QEMU)");
		tap_errno(set_event(fd, EV_INST_RETIRED, EXCL_K), icount ? 0 : ENOENT,
			  icount ? "SET_EVENT 0x08 with icount succeeds" :
				   "ENOENT: SET_EVENT 0x08 without icount");
		tap_errno(set_event(fd, EV_CPU_CYCLES, EXCL_K), 0, "SET_EVENT 0x11 succeeds");
		tap_errno(set_event(fd, 0x40, EXCL_K), 0,
			  "SET_EVENT 0x40 (outside PMCEID's range) succeeds");
		dev_close(&fd);
	}
	if (board->filters) {
		tap_skip("EOPNOTSUPP: a filter on a core that cannot filter",
			 "%s can filter (CAN_FILTER)", board->name);
	} else if (setup_cpu0("EOPNOTSUPP: setup", &fd)) {
		tap_errno(set_event(fd, EV_CPU_CYCLES, EXCL_K), EOPNOTSUPP,
			  "EOPNOTSUPP: SET_EVENT excluding the kernel (PMUv1 cannot filter)");
		tap_errno(set_event(fd, EV_CPU_CYCLES, EXCL_U), EOPNOTSUPP,
			  "EOPNOTSUPP: SET_EVENT excluding user mode");
		tap_errno(set_event(fd, EV_CPU_CYCLES, EXCL_U | EXCL_K), EOPNOTSUPP,
			  "EOPNOTSUPP: SET_EVENT excluding both");
		tap_errno(ioc_u32(fd, ARMPMU_IOC_SET_CYCLE_FILTER, EXCL_K), EOPNOTSUPP,
			  "EOPNOTSUPP: SET_CYCLE_FILTER excluding the kernel");
		tap_errno(ioc_u32(fd, ARMPMU_IOC_SET_CYCLE_FILTER, 0), 0,
			  "root: SET_CYCLE_FILTER 0 (count everything) succeeds");
		tap_errno(set_event(fd, EV_CPU_CYCLES, 0), 0,
			  "root: SET_EVENT without a filter succeeds");
		tap_errno(ioc0(fd, ARMPMU_IOC_START), 0,
			  "root: START succeeds (it may count the kernel)");
		dev_close(&fd);
	}
}

/* ---- as the lab's users ---- */

static void lab_child(struct child_report *r)
{
	struct armpmu_counts sleep;
	unsigned int i;
	int fd;

	r->err[0] = dev_open(&fd);
	if (r->err[0])
		return;
	r->err[1] = ioc(fd, ARMPMU_IOC_INFO, &r->info);
	r->err[2] = ioc_u32(fd, ARMPMU_IOC_BIND, ARMPMU_CPU_CURRENT);
	r->err[3] = program(fd, 0, EV_CPU_CYCLES, 0);
	r->err[4] = set_event(fd, EV_CPU_CYCLES, EXCL_U);
	r->err[5] = set_event(fd, EV_CPU_CYCLES, EXCL_K);
	r->err[6] = icount ? program(fd, 1, EV_INST_RETIRED, EXCL_K) : 0;
	r->err[7] = measure_loop(fd, SPIN_BIG, &r->c[0]);
	/* Host stalls while in user mode add cycles: the least of three. */
	for (i = 0; i < 3 && !r->err[8]; i++) {
		r->err[8] = measure_sleep(fd, 20, &sleep);
		if (i == 0 || sleep.cycles < r->c[1].cycles)
			r->c[1] = sleep;
	}
	r->err[9] = ioc_u32(fd, ARMPMU_IOC_SET_CYCLE_FILTER, 0);
	r->err[10] = ioc_u32(fd, ARMPMU_IOC_SET_CYCLE_FILTER, EXCL_U);
	r->err[11] = ioc_u32(fd, ARMPMU_IOC_SET_CYCLE_FILTER, EXCL_K);
	close(fd);
}

/* BIND of the caller's CPU, for the opt-in's test. */
static void bind_child(struct child_report *r)
{
	int fd;

	r->err[0] = open_bound(ARMPMU_CPU_CURRENT, &fd);
	if (!r->err[0])
		close(fd);
}

/*
 * An administrator's opt-in, cpu_mode_for_all, lets uid 1000 bind a CPU;
 * turned off again, it may not.
 */
static void test_cpu_mode_opt_in(void)
{
	static const char param[] = "/sys/module/armpmu/parameters/cpu_mode_for_all";
	const char *why;
	int err;

	err = write_file(param, "1");
	if (!tap_errno(err, 0, "cpu_mode_for_all can be set at run time"))
		return;
	why = run_as_lab(bind_child);
	tap_check(!why && !report->err[0], "uid 1000: BIND succeeds with cpu_mode_for_all=1",
		  "%s", why ? why : tap_errname(report->err[0]));
	write_file(param, "0");
	why = run_as_lab(bind_child);
	tap_check(!why && report->err[0] == EPERM,
		  "EPERM: uid 1000 BIND once cpu_mode_for_all is 0 again",
		  "%s", why ? why : tap_errname(report->err[0]));
}

/*
 * PMUv1 as uid 1000: no filter to exclude the kernel, so no event can be
 * programmed and START is refused (its cycle counter would count the
 * kernel); what needs no counting works.
 */
static void lab_child_nofilter(struct child_report *r)
{
	int fd;

	r->err[0] = dev_open(&fd);
	if (r->err[0])
		return;
	r->err[1] = ioc(fd, ARMPMU_IOC_INFO, &r->info);
	r->err[2] = ioc_u32(fd, ARMPMU_IOC_BIND, ARMPMU_CPU_CURRENT);
	r->err[3] = program(fd, 0, EV_CPU_CYCLES, 0);
	r->err[4] = set_event(fd, EV_CPU_CYCLES, EXCL_U);
	r->err[5] = set_event(fd, EV_CPU_CYCLES, EXCL_K);
	r->err[6] = ioc_u32(fd, ARMPMU_IOC_SET_CYCLE_FILTER, 0);
	r->err[7] = ioc_u32(fd, ARMPMU_IOC_SET_CYCLE_FILTER, EXCL_K);
	r->err[8] = ioc0(fd, ARMPMU_IOC_START);
	r->err[9] = read_counts(fd, &r->c[0]);
	r->err[10] = ioc_u32(fd, ARMPMU_IOC_SET_DIVIDER, 1);
	r->err[11] = ioc0(fd, ARMPMU_IOC_STOP);
	close(fd);
}

static void check_lab_nofilter(const struct child_report *r)
{
	char why[96];

	tap_errno(r->err[0], 0, "uid 1000 (group armpmu): open succeeds");
	tap_check(!r->err[1] && !(r->info.flags & (ARMPMU_INFO_KERNEL_ALLOWED |
						   ARMPMU_INFO_CAN_FILTER)),
		  "uid 1000: INFO KERNEL_ALLOWED and CAN_FILTER clear", "%s, flags %#x",
		  tap_errname(r->err[1]), r->info.flags);
	tap_errno(r->err[2], EPERM,
		  "EPERM: uid 1000 BIND (whole-CPU counting needs CAP_PERFMON)");
	tap_errno(r->err[3], EACCES, "EACCES: uid 1000 SET_EVENT without EXCLUDE_KERNEL");
	tap_errno(r->err[4], EOPNOTSUPP, "EOPNOTSUPP: uid 1000 SET_EVENT with EXCLUDE_USER (no filter)");
	tap_errno(r->err[5], EOPNOTSUPP,
		  "EOPNOTSUPP: uid 1000 SET_EVENT with EXCLUDE_KERNEL (no filter)");
	tap_errno(r->err[6], EACCES, "EACCES: uid 1000 SET_CYCLE_FILTER without EXCLUDE_KERNEL");
	tap_errno(r->err[7], EOPNOTSUPP,
		  "EOPNOTSUPP: uid 1000 SET_CYCLE_FILTER with EXCLUDE_KERNEL (no filter)");
	tap_errno(r->err[8], EOPNOTSUPP,
		  "EOPNOTSUPP: uid 1000 START (PMUv1: the cycle counter would count the kernel)");
	tap_check(!r->err[9] && counts_clear(&r->c[0], why, sizeof(why)),
		  "uid 1000: READ after the refused START: zeros, not running", "%s: %s",
		  tap_errname(r->err[9]), why);
	tap_errno(r->err[10], 0, "uid 1000: SET_DIVIDER 1 succeeds");
	tap_errno(r->err[11], 0, "uid 1000: STOP of a file that never started succeeds");
}

static void guest_child(struct child_report *r)
{
	int fd = open(DEV, O_RDWR);

	r->err[0] = fd < 0 ? errno : 0;
	if (fd >= 0)
		close(fd);
	fd = open(DEV, O_RDONLY);
	r->err[1] = fd < 0 ? errno : 0;
	if (fd >= 0)
		close(fd);
}

/* A file root opened, used after dropping root. */
static void inherited_child(struct child_report *r)
{
	r->err[0] = ioc(inherited_fd, ARMPMU_IOC_INFO, &r->info);
	r->err[1] = program(inherited_fd, 0, EV_CPU_CYCLES, 0);
}

static void test_unprivileged(void)
{
	struct armpmu_counts root_sleep;
	struct child_report *r = report;
	const char *why;
	int fd, err;

	pin(0);
	why = run_as_lab(board->filters ? lab_child : lab_child_nofilter);
	if (!why && !board->filters) {
		check_lab_nofilter(r);
	} else if (why) {
		tap_check(false, "uid 1000 (group armpmu): checks ran", "%s", why);
	} else {
		tap_errno(r->err[0], 0, "uid 1000 (group armpmu): open succeeds");
		tap_check(!r->err[1] && !(r->info.flags & ARMPMU_INFO_KERNEL_ALLOWED),
			  "uid 1000: INFO KERNEL_ALLOWED clear", "%s, flags %#x",
			  tap_errname(r->err[1]), r->info.flags);
		tap_errno(r->err[2], EPERM,
			  "EPERM: uid 1000 BIND (whole-CPU counting needs CAP_PERFMON)");
		tap_errno(r->err[3], EACCES, "EACCES: uid 1000 SET_EVENT without EXCLUDE_KERNEL");
		tap_errno(r->err[4], EACCES, "EACCES: uid 1000 SET_EVENT with EXCLUDE_USER only");
		tap_errno(r->err[5], 0, "uid 1000: SET_EVENT with EXCLUDE_KERNEL succeeds");
		tap_errno(r->err[9], EACCES, "EACCES: uid 1000 SET_CYCLE_FILTER without EXCLUDE_KERNEL");
		tap_errno(r->err[10], EACCES, "EACCES: uid 1000 SET_CYCLE_FILTER with EXCLUDE_USER only");
		tap_errno(r->err[11], 0, "uid 1000: SET_CYCLE_FILTER with EXCLUDE_KERNEL succeeds");
		if (icount)
			tap_errno(r->err[6], 0, "uid 1000: SET_EVENT INST_RETIRED:u succeeds");
		tap_check(!r->err[7] && r->c[0].cycles > 0 && r->c[0].events[0] > 0,
			  "uid 1000: counts a loop", "%s: cycles %llu events[0] %llu",
			  tap_errname(r->err[7]), (ull)r->c[0].cycles, (ull)r->c[0].events[0]);
		tap_note("uid 1000 loop: cycles %llu, CPU_CYCLES:u %llu, INST_RETIRED:u %llu",
			 (ull)r->c[0].cycles, (ull)r->c[0].events[0], (ull)r->c[0].events[1]);
		if (icount)
			tap_check(!r->err[7] && r->c[0].cycles == r->c[0].events[0] &&
				  r->c[0].events[1] == r->c[0].events[0],
				  "icount, uid 1000: cycle counter == CPU_CYCLES:u == INST_RETIRED:u",
				  "cycles %llu, CPU_CYCLES:u %llu, INST_RETIRED:u %llu",
				  (ull)r->c[0].cycles, (ull)r->c[0].events[0],
				  (ull)r->c[0].events[1]);
		else
			tap_check(!r->err[7] && within_pct(r->c[0].cycles, r->c[0].events[0], 1),
				  "uid 1000: cycle counter within 1% of CPU_CYCLES:u",
				  "cycles %llu, CPU_CYCLES:u %llu", (ull)r->c[0].cycles,
				  (ull)r->c[0].events[0]);
		/* Root's cycle counter counts the same sleep in full. */
		err = open_bound(0, &fd);
		if (!err) {
			err = measure_sleep(fd, 20, &root_sleep);
			dev_close(&fd);
		}
		tap_note("20 ms sleep: uid 1000 cycles %llu (least of 3), root cycles %llu",
			 (ull)r->c[1].cycles, (ull)root_sleep.cycles);
		tap_check(!err && !r->err[8] && r->c[1].cycles * 10 < root_sleep.cycles,
			  "uid 1000: the cycle counter counts user mode only "
			  "(a sleep: < 1/10 of root's)",
			  "%s/%s: uid 1000 %llu, root %llu", tap_errname(r->err[8]),
			  tap_errname(err), (ull)r->c[1].cycles, (ull)root_sleep.cycles);
	}

	why = run_as(AS_GUEST, guest_child);
	if (why) {
		tap_check(false, "uid 1001 (not in group armpmu): checks ran", "%s", why);
	} else {
		tap_errno(r->err[0], EACCES, "EACCES: uid 1001 opens " DEV " read-write");
		tap_errno(r->err[1], EACCES, "EACCES: uid 1001 opens " DEV " read-only");
	}

	/* Capabilities are the opener's, taken at open(). */
	err = dev_open(&inherited_fd);
	if (!err) {
		why = run_as_lab(inherited_child);
		tap_check(!why && !r->err[0] && (r->info.flags & ARMPMU_INFO_KERNEL_ALLOWED),
			  "a file root opened keeps KERNEL_ALLOWED after setuid(1000)",
			  "%s, %s, flags %#x", why ? why : "ran", tap_errname(r->err[0]),
			  r->info.flags);
		tap_check(!why && r->err[1] == 0,
			  "a file root opened counts the kernel after setuid(1000)",
			  "%s, SET_EVENT without EXCLUDE_KERNEL: %s", why ? why : "ran",
			  tap_errname(r->err[1]));
		dev_close(&inherited_fd);
	}
}

/* ---- ownership ---- */

static void test_close_releases(void)
{
	struct armpmu_counts c;
	char why[96];
	int fd, fd2, err;

	if (!setup_cpu0("close releases: setup", &fd))
		return;
	err = program(fd, 0, EV_CPU_CYCLES, 0);
	err |= ioc_u32(fd, ARMPMU_IOC_SET_DIVIDER, 1);
	err |= ioc0(fd, ARMPMU_IOC_START);
	loop_n(SPIN);
	tap_errno(err, 0, "owner programs, sets the divider and starts");
	dev_close(&fd);	/* still counting */
	err = open_bound(0, &fd2);
	tap_errno(err, 0, "after close, a new file binds the same CPU");
	if (!err) {
		err = read_counts(fd2, &c);
		tap_check(!err && counts_clear(&c, why, sizeof(why)),
			  "after close, the new file reads all zeros, not running",
			  "%s: %s", tap_errname(err), why);
		/* Nothing of the old configuration: no divider, no events. */
		if (!board->counts) {
			tap_skip("after close, the new file's counter 0 is unprogrammed",
				 "QEMU's %s PMU never counts", board->name);
			tap_skip("after close, no divider", "QEMU's %s PMU never counts",
				 board->name);
			dev_close(&fd2);
			return;
		}
		err = program(fd2, 1, EV_CPU_CYCLES, 0);
		err |= measure_loop(fd2, SPIN, &c);
		tap_check(!err && c.cycles > 0 && c.events[0] == 0,
			  "after close, the new file's counter 0 is unprogrammed",
			  "%s: cycles %llu, events[0] %llu", tap_errname(err),
			  (ull)c.cycles, (ull)c.events[0]);
		tap_check(!err && (icount ? c.cycles == c.events[1] :
				   within_pct(c.cycles, c.events[1], 1)),
			  icount ? "after close, no divider: cycle counter == CPU_CYCLES" :
				   "after close, no divider: cycle counter within 1% of CPU_CYCLES",
			  "%s: cycles %llu, CPU_CYCLES %llu", tap_errname(err),
			  (ull)c.cycles, (ull)c.events[1]);
		dev_close(&fd2);
	}
}

static void test_killed_owner(void)
{
	struct armpmu_counts c;
	char why[96];
	int ready[2], status, fd, err, child_err = -1;
	pid_t pid;

	pin(0);
	if (pipe(ready)) {
		tap_check(false, "SIGKILL: setup", "pipe: %s", tap_errname(errno));
		return;
	}
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		close(ready[0]);
		err = open_bound(ARMPMU_CPU_CURRENT, &fd);
		if (!err)
			err = program(fd, 0, EV_CPU_CYCLES, 0);
		if (!err)
			err = ioc0(fd, ARMPMU_IOC_START);
		if (write(ready[1], &err, sizeof(err)) != sizeof(err))
			_exit(1);
		for (;;)
			loop_n(SPIN);
	}
	close(ready[1]);
	if (pid < 0 || read(ready[0], &child_err, sizeof(child_err)) != sizeof(child_err)) {
		close(ready[0]);
		if (pid > 0) {
			kill(pid, SIGKILL);
			waitpid(pid, NULL, 0);
		}
		tap_check(false, "SIGKILL: the owner child started", "no report");
		return;
	}
	close(ready[0]);
	tap_errno(child_err, 0, "SIGKILL: the owner child binds CPU 0 and starts counting");
	err = open_bound(0, &fd);
	tap_errno(err, EBUSY, "EBUSY: the live child owns CPU 0");
	dev_close(&fd);
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
	tap_check(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL,
		  "SIGKILL: the owner died mid-measurement", "status %#x", status);
	err = open_bound(0, &fd);
	tap_errno(err, 0, "after the owner's death, the parent binds CPU 0");
	if (!err) {
		err = read_counts(fd, &c);
		tap_check(!err && counts_clear(&c, why, sizeof(why)),
			  "after the owner's death: all zeros, not running", "%s: %s",
			  tap_errname(err), why);
		dev_close(&fd);
	}
}

/* A file bound to CPU 1 counts CPU 1, never the caller on CPU 0. */
static void test_other_cpu(void)
{
	struct armpmu_counts own, other;
	int fo, fd, err;

	if (ncpus < 2) {
		tap_skip("a file bound to CPU 1 counts CPU 1, not the caller", "one CPU");
		return;
	}
	if (!board->counts) {
		tap_skip("a file bound to CPU 1 counts CPU 1, not the caller",
			 "QEMU's %s PMU never counts", board->name);
		return;
	}
	pin(0);
	err = open_bound(1, &fo);
	if (err) {
		tap_check(false, "other CPU: setup", "BIND 1: %s", tap_errname(err));
		return;
	}
	err = open_bound(0, &fd);
	if (err) {
		dev_close(&fo);
		tap_check(false, "other CPU: setup", "BIND 0: %s", tap_errname(err));
		return;
	}
	err = program(fo, 0, EV_CPU_CYCLES, EXCL_K);
	err |= program(fd, 0, EV_CPU_CYCLES, EXCL_K);
	/*
	 * CPU 1's file counts whatever user code runs there (udev, say), so a
	 * run where something did is tried again, three times at most.
	 */
	for (int i = 0; i < 3 && !err; i++) {
		err |= ioc0(fo, ARMPMU_IOC_RESET) | ioc0(fd, ARMPMU_IOC_RESET);
		err |= ioc0(fo, ARMPMU_IOC_START);
		err |= ioc0(fd, ARMPMU_IOC_START);
		loop_n(SPIN_BIG);
		err |= ioc0(fd, ARMPMU_IOC_STOP);
		err |= ioc0(fo, ARMPMU_IOC_STOP);
		err |= read_counts(fo, &other) | read_counts(fd, &own);
		if (other.events[0] * 100 < own.events[0])
			break;
	}
	tap_note("a loop on CPU 0: CPU_CYCLES:u on CPU 0 %llu, on CPU 1 %llu",
		 (ull)own.events[0], (ull)other.events[0]);
	tap_check(!err && own.events[0] > 0,
		  "the file bound to CPU 0 counts the loop on CPU 0",
		  "%s: %llu", tap_errname(err), (ull)own.events[0]);
	tap_check(!err && other.events[0] * 100 < own.events[0],
		  "the file bound to CPU 1 does not count the loop on CPU 0 (< 1%)",
		  "%s: CPU 1 %llu, CPU 0 %llu", tap_errname(err), (ull)other.events[0],
		  (ull)own.events[0]);
	dev_close(&fd);
	dev_close(&fo);
}

#define CPU1_ONLINE	"/sys/devices/system/cpu/cpu1/online"

static void test_hotplug(void)
{
	struct armpmu_counts before, after, later;
	struct armpmu_info info;
	int fd, fd2, err;

	if (ncpus < 2) {
		tap_skip("ENXIO: the bound CPU goes offline", "one CPU");
		return;
	}
	pin(0);
	err = open_bound(1, &fd);
	if (err) {
		tap_check(false, "hotplug: setup", "BIND 1: %s", tap_errname(err));
		return;
	}
	err = program(fd, 0, EV_CPU_CYCLES, 0);
	err |= ioc0(fd, ARMPMU_IOC_START);
	loop_n(SPIN);
	err |= read_counts(fd, &before);
	tap_errno(err, 0, "hotplug: a file bound to CPU 1 counts");

	err = write_file(CPU1_ONLINE, "0");
	if (!tap_errno(err, 0, "CPU 1 goes offline")) {
		dev_close(&fd);
		return;
	}
	tap_errno(read_counts(fd, &after), ENXIO, "ENXIO: READ while the bound CPU is offline");
	tap_errno(ioc(fd, ARMPMU_IOC_INFO, &info), ENXIO,
		  "ENXIO: INFO while the bound CPU is offline");
	err = write_file(CPU1_ONLINE, "1");
	if (!tap_errno(err, 0, "CPU 1 comes back online")) {
		dev_close(&fd);
		return;
	}
	err = read_counts(fd, &after);
	tap_errno(err, 0, "READ works again once the CPU is back");
	loop_n(SPIN);
	err |= read_counts(fd, &later);
	tap_check(!err && after.cycles >= before.cycles && after.events[0] >= before.events[0],
		  "counts are kept across the CPU's absence",
		  "cycles %llu then %llu, events[0] %llu then %llu", (ull)before.cycles,
		  (ull)after.cycles, (ull)before.events[0], (ull)after.events[0]);
	tap_check(!err && (later.flags & ARMPMU_COUNTS_RUNNING) &&
		  (!board->counts || (later.cycles > after.cycles &&
				      later.events[0] > after.events[0])),
		  board->counts ? "counting resumes once the CPU is back" :
				  "counting resumes once the CPU is back (RUNNING)",
		  "flags %#x, cycles %llu then %llu, events[0] %llu then %llu", later.flags,
		  (ull)after.cycles, (ull)later.cycles, (ull)after.events[0],
		  (ull)later.events[0]);
	dev_close(&fd);

	/* BIND to an offline CPU nobody owns. */
	err = dev_open(&fd2);
	if (!err && !write_file(CPU1_ONLINE, "0")) {
		tap_errno(ioc_u32(fd2, ARMPMU_IOC_BIND, 1), ENXIO, "ENXIO: BIND to an offline CPU");
		tap_errno(write_file(CPU1_ONLINE, "1"), 0, "CPU 1 comes back online again");
		dev_close(&fd2);
		err = open_bound(1, &fd2);
		tap_errno(err, 0, "BIND to CPU 1 once it is back");
		dev_close(&fd2);
	} else {
		tap_check(false, "ENXIO: BIND to an offline CPU", "setup: %s",
			  tap_errname(err ? err : EIO));
		write_file(CPU1_ONLINE, "1");
		dev_close(&fd2);
	}
}

static int cpu_status(int fd, __u32 cpu, struct armpmu_cpu_status *st)
{
	memset(st, 0, sizeof(*st));
	st->cpu = cpu;
	return ioc(fd, ARMPMU_IOC_CPU_STATUS, st);
}

static void release_child(struct child_report *r)
{
	r->err[0] = inherited_fd < 0 ? EBADF : ioc_u32(inherited_fd, ARMPMU_IOC_RELEASE, 0);
}

/* CPU_STATUS of CPU 0 through @fd must say it is owned by this process. */
static void check_owned_by_me(int fd, __u32 caller_flag, const char *name)
{
	struct armpmu_cpu_status st;
	__u32 want = ARMPMU_CPU_ONLINE | ARMPMU_CPU_USABLE | ARMPMU_CPU_OWNED | caller_flag;
	int err = cpu_status(fd, 0, &st);

	tap_check(!err && (st.flags & ~ARMPMU_CPU_FOREIGN) == want &&
		  st.owner_pid == (__u32)getpid() && st.owner_uid == 0, name,
		  "%s: flags %#x (want %#x), owner pid %u uid %u (want %d, 0)",
		  tap_errname(err), st.flags, want, st.owner_pid, st.owner_uid,
		  (int)getpid());
}

/* CPU_STATUS describes any CPU without binding; RELEASE takes a PMU back. */
static void test_status_release(void)
{
	struct armpmu_cpu_status st;
	struct armpmu_counts c;
	struct armpmu_info info;
	char why[96];
	const char *child;
	int watcher, owner, next, err;
	int last = last_possible_cpu();

	pin(0);
	if (dev_open(&watcher)) {
		tap_check(false, "CPU_STATUS: setup", "open: %s", tap_errname(errno));
		return;
	}
	err = cpu_status(watcher, 0, &st);
	tap_check(!err && (st.flags & ~ARMPMU_CPU_FOREIGN) == (ARMPMU_CPU_ONLINE | ARMPMU_CPU_USABLE) &&
		  st.info.cpu == 0 && st.info.num_counters == num_counters &&
		  (!board->part || ((st.info.midr >> 4) & 0xfff) == board->part),
		  "CPU_STATUS: CPU 0 is online, usable, not owned, with the board's PMU",
		  "%s: flags %#x, cpu %u, %u counters, midr %#x", tap_errname(err), st.flags,
		  st.info.cpu, st.info.num_counters, st.info.midr);
	tap_note("CPU_STATUS of CPU 0: flags %#x, foreign counters %#x", st.flags,
		 st.foreign_counters);
	tap_errno(ioc(watcher, ARMPMU_IOC_INFO, &info), 0, "CPU_STATUS did not bind the file");
	tap_check(!(info.flags & ARMPMU_INFO_BOUND), "CPU_STATUS leaves the file unbound",
		  "INFO flags %#x", info.flags);
	tap_errno(cpu_status(watcher, last + 1, &st), EINVAL,
		  "EINVAL: CPU_STATUS of a CPU that does not exist");
	memset(&st, 0, sizeof(st));
	st.reserved[2] = 1;
	tap_errno(ioc(watcher, ARMPMU_IOC_CPU_STATUS, &st), EINVAL,
		  "EINVAL: CPU_STATUS with a reserved field set");
	tap_errno(ioc(watcher, ARMPMU_IOC_CPU_STATUS, unmapped_address()), EFAULT,
		  "EFAULT: CPU_STATUS at an unmapped address");
	tap_errno(ioc_u32(watcher, ARMPMU_IOC_RELEASE, 0), ESRCH,
		  "ESRCH: RELEASE of a CPU nobody owns");
	tap_errno(ioc_u32(watcher, ARMPMU_IOC_RELEASE, last + 1), EINVAL,
		  "EINVAL: RELEASE of a CPU that does not exist");

	if (open_bound(0, &owner)) {
		tap_check(false, "RELEASE: setup", "BIND 0 failed");
		dev_close(&watcher);
		return;
	}
	check_owned_by_me(watcher, 0, "CPU_STATUS names the owner's pid and uid");
	check_owned_by_me(owner, ARMPMU_CPU_CALLER, "CPU_STATUS through the owner says CALLER");
	err = program(owner, 0, EV_CPU_CYCLES, 0);
	err |= ioc0(owner, ARMPMU_IOC_START);
	err |= cpu_status(watcher, 0, &st);
	tap_check(!err && !(st.foreign_counters & ((1U << 31) | 1U)),
		  "CPU_STATUS: the owner's own counters are not foreign",
		  "%s: foreign counters %#x", tap_errname(err), st.foreign_counters);

	inherited_fd = watcher;
	child = run_as_lab(release_child);
	tap_check(!child && report->err[0] == EPERM, "EPERM: RELEASE without CAP_SYS_ADMIN",
		  "%s", child ? child : tap_errname(report->err[0]));
	inherited_fd = -1;

	tap_errno(ioc_u32(watcher, ARMPMU_IOC_RELEASE, 0), 0,
		  "RELEASE of a counting owner's CPU, as root");
	tap_errno(read_counts(owner, &c), ECANCELED, "ECANCELED: READ after RELEASE");
	tap_errno(ioc0(owner, ARMPMU_IOC_START), ECANCELED, "ECANCELED: START after RELEASE");
	tap_errno(ioc(owner, ARMPMU_IOC_INFO, &info), ECANCELED, "ECANCELED: INFO after RELEASE");
	tap_errno(ioc_u32(owner, ARMPMU_IOC_BIND, 0), ECANCELED, "ECANCELED: BIND after RELEASE");
	err = cpu_status(owner, 0, &st);
	tap_check(!err && !(st.flags & ARMPMU_CPU_OWNED),
		  "CPU_STATUS through the released file: CPU 0 has no owner",
		  "%s: flags %#x", tap_errname(err), st.flags);

	err = open_bound(0, &next);
	tap_errno(err, 0, "after RELEASE, another file binds the CPU");
	if (!err) {
		err = read_counts(next, &c);
		tap_check(!err && counts_clear(&c, why, sizeof(why)),
			  "after RELEASE, the next owner reads all zeros, not running",
			  "%s: %s", tap_errname(err), why);
		/* The released file's close must not touch the next owner. */
		dev_close(&owner);
		check_owned_by_me(next, ARMPMU_CPU_CALLER,
				  "closing the released file leaves the next owner in place");
		err = program(next, 0, EV_CPU_CYCLES, 0);
		err |= measure_loop(next, SPIN, &c);
		tap_check(!err && (!board->counts || (c.cycles > 0 && c.events[0] > 0)),
			  board->counts ? "the next owner counts after the released file's close" :
					  "the next owner programs, starts and reads after the released file's close",
			  "%s: cycles %llu, events[0] %llu", tap_errname(err),
			  (ull)c.cycles, (ull)c.events[0]);
		dev_close(&next);
	}
	dev_close(&owner);

	if (ncpus > 1 && !write_file(CPU1_ONLINE, "0")) {
		err = cpu_status(watcher, 1, &st);
		tap_check(!err && (st.flags & (ARMPMU_CPU_ONLINE | ARMPMU_CPU_USABLE)) ==
				  ARMPMU_CPU_USABLE,
			  "CPU_STATUS of an offline CPU: usable, not online",
			  "%s: flags %#x", tap_errname(err), st.flags);
		tap_errno(write_file(CPU1_ONLINE, "1"), 0, "CPU 1 comes back online");
	}
	dev_close(&watcher);
}

/* The module's one parameter, read-only at run time. */
static void test_poll_param(void)
{
	FILE *f = fopen("/sys/module/armpmu/parameters/poll_ms", "re");
	unsigned int ms = 0;
	int n = f ? fscanf(f, "%u", &ms) : -1;

	if (f)
		fclose(f);
	tap_check(n == 1 && ms == 50, "module parameter poll_ms is 50 by default",
		  "read %d values, %u", n, ms);
}

/* A direct user-mode read of the cycle counter traps, while a file counts. */
/* ---- unloading, and the kernel's log ---- */

static void test_unload(void)
{
	struct stat st;
	int status, tries;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		execlp("rmmod", "rmmod", "armpmu", (char *)NULL);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		status = -1;
	tap_check(status == 0, "rmmod armpmu succeeds", "status %#x", status);
	/* devtmpfs removes the node from its own thread. */
	for (tries = 0; tries < 50 && stat(DEV, &st) == 0; tries++)
		usleep(20000);
	tap_check(stat(DEV, &st) && errno == ENOENT, DEV " is gone after rmmod",
		  "it is still there");
	tap_check(stat("/sys/module/armpmu", &st) && errno == ENOENT,
		  "/sys/module/armpmu is gone after rmmod", "it is still there");
	test_kernel_log();
}

static void usage(FILE *f)
{
	fprintf(f, "usage: armpmu-test --cpu cortex-a7|cortex-a8|cortex-a9|cortex-a15|"
		   "cortex-a53|cortex-a72|cortex-a76|max "
		   "[--icount] [--compat] [--unload]\n");
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "cpu", required_argument, NULL, 'c' },
		{ "icount", no_argument, NULL, 'i' },
		{ "compat", no_argument, NULL, 'C' },
		{ "unload", no_argument, NULL, 'u' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct utsname u;
	unsigned int i;
	int opt;

	while ((opt = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (opt) {
		case 'c':
			for (i = 0; i < sizeof(boards) / sizeof(boards[0]); i++)
				if (!strcmp(optarg, boards[i].name))
					board = &boards[i];
			if (!board) {
				fprintf(stderr, "armpmu-test: unknown CPU %s\n", optarg);
				return 2;
			}
			break;
		case 'i':
			icount = true;
			break;
		case 'C':
			compat = true;
			break;
		case 'u':
			unload = true;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (!board || optind != argc) {
		usage(stderr);
		return 2;
	}
	tap_init();
	page_size = sysconf(_SC_PAGESIZE);
	ncpus = (unsigned int)sysconf(_SC_NPROCESSORS_ONLN);
	num_counters = board->num_counters;
	root_excl_k = board->filters ? EXCL_K : 0;
	report = mmap(NULL, sizeof(*report), PROT_READ | PROT_WRITE,
		      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (report == MAP_FAILED) {
		perror("armpmu-test: mmap");
		return 1;
	}
	uname(&u);
	tap_note("armpmu-test on %s%s, %s %s, built as %s, %u CPUs online", board->name,
		 icount ? " (icount)" : "", u.release, u.machine, TEST_BUILD_ARCH, ncpus);

	if (compat)
		test_compat();
	tap_check(icount ? ncpus == 1 : ncpus == board->cpus,
		  icount ? "the icount board has one CPU" :
		  board->cpus == 1 ? "the board has one CPU" : "the board has 2 CPUs",
		  "%u CPUs online", ncpus);
	test_device();
	test_info();
	if (board->counts) {
		test_counting();
		test_cycles_event();
		test_divider();
		test_filters();
		test_exact();
	} else {
		tap_skip("counting, the divider's effect, filters and exact counts",
			 "QEMU's %s PMU never counts", board->name);
		test_static_counters();
	}
	test_read_syscall();
	test_errors();
	test_unprivileged();
	test_cpu_mode_opt_in();
	test_close_releases();
	test_killed_owner();
	test_other_cpu();
	test_hotplug();
	test_status_release();
	test_poll_param();
	check_user_read_sigill();
	if (unload)
		test_unload();
	return tap_done();
}
