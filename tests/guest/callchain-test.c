// SPDX-License-Identifier: GPL-2.0
/*
 * callchain-test: the call chains of ARMPMU_SAMPLING_CALLCHAIN, recorded
 * as lab from a child of this program (forked, not executed: its functions
 * are where this program has them). Runs as root in the guest, prints TAP.
 *
 *   callchain-test [--icount] [--compat] [--tap-run N --tap-failed N --tap-skipped N]
 *   callchain-test --work chain
 *
 * A leaf called by middle(), called by outer(), called by top(), each in a
 * section of its own: on AArch64 every sample in the leaf's loop has the
 * leaf's caller in lr, outer and top next in its chain, and a chain that
 * ends at the outermost frame, not cut; on AArch32 (a 32-bit kernel, or a
 * 32-bit program under arm64: --compat) no frames, the caller in lr.
 * 10,000 frames deep: sample_max_stack's 127 return addresses, or the
 * file's max_stack, and cut. Frame pointers a hostile program sets (a
 * kernel address, a low one, a misaligned one, a record that points at
 * itself or below itself, a kernel return address): the walk stops there,
 * cut. No kernel address in any chain; a room too small for a deep chain's
 * sample is ENOSPC, nothing taken; a file without call chains gets
 * none; the kernel log stays clean. The --tap-* options continue another
 * program's TAP numbering (sample-test --then). --work chain is the
 * recorded program alone, for 200 ms: leaf <- middle <- outer <- top.
 */
#include <getopt.h>
#include <stddef.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/prctl.h>

#include "checks.h"
#include "samples.h"
#include "users.h"

#define PERIOD_NS	1000000ULL	/* 1 kHz */
#define RUN_NS		200000000ULL	/* each worker's time: about 200 samples */
#define DEEP		10000
#define DATA_MAX	(4U << 20)

static bool icount, compat;

/* ---- the recorded program ---- */

#if defined(__aarch64__)
#define WORK_LOOP(n) __asm__ volatile("1:	subs	%0, %0, #1\n	b.ne	1b\n" : "+r"(n) : : "cc")
#else
#define WORK_LOOP(n) __asm__ volatile("1:	subs	%0, %0, #1\n	bne	1b\n" : "+r"(n) : : "cc")
#endif
#define IN_SECTION(s)	__attribute__((noinline, noclone, section(s)))

extern const char __start_chain_leaf[], __stop_chain_leaf[];
extern const char __start_chain_middle[], __stop_chain_middle[];
extern const char __start_chain_outer[], __stop_chain_outer[];
extern const char __start_chain_top[], __stop_chain_top[];
extern const char __start_chain_deep[], __stop_chain_deep[];

IN_SECTION("chain_leaf") void leaf(unsigned long n)
{
	if (n)
		WORK_LOOP(n);
}

/* Each caller does something after its call: no tail call, a frame of its own. */
static volatile unsigned long sink;

IN_SECTION("chain_middle") void middle(unsigned long n)
{
	leaf(n);
	sink++;
}

IN_SECTION("chain_outer") void outer(unsigned long n)
{
	middle(n);
	sink++;
}

IN_SECTION("chain_top") void top(uint64_t end)
{
	while (now_ns() < end)
		outer(20000);
	sink++;
}

/*
 * RUN_NS at the bottom, counted from there: on the debug kernel the way
 * down (10,000 frames, each stack page faulted in under KASAN) took most
 * of a deadline set at the start, and left 3 or 4 samples in the leaf.
 */
IN_SECTION("chain_deep") void deep(unsigned int depth)
{
	uint64_t end;

	if (depth) {
		deep(depth - 1);
	} else {
		end = now_ns() + RUN_NS;
		while (now_ns() < end)
			leaf(20000);
	}
	sink++;
}

/* The hostile frame pointers (AArch64: AArch32 frames are never walked). */
enum work {
	W_CHAIN, W_DEEP, W_FP_KERNEL, W_FP_LOW, W_FP_MISALIGNED, W_FP_LOOP, W_FP_BELOW,
	W_RET_KERNEL, W_KINDS
};

#define KERNEL_ADDR	0xffff800010000000ULL

#if defined(__aarch64__)
static const struct hostile {
	const char *what;
	unsigned int nr;	/* return addresses the walk takes before it stops */
} hostile[W_KINDS] = {
	[W_FP_KERNEL] = { "x29 a kernel address", 0 },
	[W_FP_LOW] = { "x29 0x10, below the stack", 0 },
	[W_FP_MISALIGNED] = { "x29 misaligned", 0 },
	[W_FP_LOOP] = { "a frame record pointing at itself", 1 },
	[W_FP_BELOW] = { "a frame record pointing below itself", 1 },
	[W_RET_KERNEL] = { "a frame record whose return address is a kernel one", 0 },
};

/* Spins @n rounds with x29 = @fp, then puts x29 back. */
/*
 * Only between spin_loop and spin_loop_end does x29 hold @fp: a sample at
 * the instructions around them walks the real frames.
 */
extern const char spin_loop[], spin_loop_end[];

IN_SECTION("chain_spin") void spin_with_fp(uint64_t fp, unsigned long n)
{
	__asm__ volatile("mov	x9, x29\n"
			 "mov	x29, %1\n"
			 ".globl	spin_loop\n"
			 "spin_loop:\n"
			 "1:	subs	%0, %0, #1\n"
			 "b.ne	1b\n"
			 ".globl	spin_loop_end\n"
			 "spin_loop_end:\n"
			 "mov	x29, x9\n"
			 : "+r"(n) : "r"(fp) : "x9", "cc", "memory");
}

static void hostile_frames(enum work w, uint64_t end)
{
	uint64_t rec[2] __attribute__((aligned(16)));
	uint64_t fp = (uintptr_t)rec;

	rec[0] = 0;
	rec[1] = (uintptr_t)__start_chain_top + 8;
	switch (w) {
	case W_FP_KERNEL: fp = KERNEL_ADDR; break;
	case W_FP_LOW: fp = 0x10; break;
	case W_FP_MISALIGNED: fp = (uintptr_t)rec + 4; break;
	case W_FP_LOOP: rec[0] = (uintptr_t)rec; break;
	case W_FP_BELOW: rec[0] = (uintptr_t)rec - 256; break;
	case W_RET_KERNEL: rec[1] = KERNEL_ADDR; break;
	default: break;
	}
	while (now_ns() < end)
		spin_with_fp(fp, 20000);
	sink = rec[0];
}
#endif

static int work(enum work w)
{
	uint64_t end = now_ns() + RUN_NS;

	if (w == W_CHAIN)
		top(end);
	else if (w == W_DEEP)
		deep(DEEP);
#if defined(__aarch64__)
	else
		hostile_frames(w, end);
#endif
	return 0;
}

/* ---- recording, as lab, in a child ---- */

struct shared {
	int err;
	char where[40];
	size_t len;
	struct armpmu_samples last;
	unsigned char data[DATA_MAX];
};

static struct shared *sh;

#define FAIL(e, w) do { sh->err = (e); snprintf(sh->where, sizeof(sh->where), "%s", (w)); } while (0)

static void record_child(enum work w, __u32 flags, __u32 max_stack)
{
	struct armpmu_attach at = { 0 };
	struct armpmu_sampling sm = {
		.period_ns = PERIOD_NS, .ring_bytes = 1 << 20, .flags = flags, .max_stack = max_stack,
	};
	struct records r = { 0 };
	int go[2], fd = -1, err, status = 0;
	pid_t pid;
	char c;

	if (!become_user(AS_LAB) || prctl(PR_SET_DUMPABLE, 1) || pipe(go)) {
		FAIL(EPERM, "become lab");
		return;
	}
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		close(go[1]);
		_exit(read(go[0], &c, 1) == 1 ? work(w) : 3);
	}
	at.tid = (__u32)pid;
	err = dev_open(&fd);
	err = err ? err : ioc(fd, ARMPMU_IOC_ATTACH, &at);
	err = err ? err : program(fd, 0, icount ? ARMPMU_EV_INST_RETIRED : ARMPMU_EV_CPU_CYCLES,
				  ARMPMU_EXCLUDE_KERNEL);
	err = err ? err : ioc_u32(fd, ARMPMU_IOC_SET_CYCLE_FILTER, ARMPMU_EXCLUDE_KERNEL);
	err = err ? err : ioc(fd, ARMPMU_IOC_SET_SAMPLING, &sm);
	err = err ? err : ioc0(fd, ARMPMU_IOC_START);
	if (err) {
		FAIL(err, "open, attach, program, sample, start");
		kill(pid, SIGKILL);
	} else if (write(go[1], "g", 1) != 1) {
		FAIL(errno, "go");
	} else {
		err = collect_until_ended(fd, &r, 60000);
		if (err)
			FAIL(err, "collect");
	}
	waitpid(pid, &status, 0);
	if (!sh->err && (!WIFEXITED(status) || WEXITSTATUS(status)))
		FAIL(ECHILD, "worker's status");
	sh->last = r.last;
	sh->len = r.len < DATA_MAX ? r.len : DATA_MAX;
	memcpy(sh->data, r.data, sh->len);
	free_records(&r);
	dev_close(&fd);
}

/* Records @w as lab; false (a failed test) if that did not work. */
static bool record(enum work w, __u32 flags, __u32 max_stack, const char *name)
{
	pid_t pid;
	int status;

	memset(sh, 0, offsetof(struct shared, data));
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		record_child(w, flags, max_stack);
		_exit(0);
	}
	waitpid(pid, &status, 0);
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		FAIL(ECHILD, "recorder's status");
	return tap_check(!sh->err, name, "%s: %s", sh->where, tap_errname(sh->err));
}

/* ---- what the recordings hold ---- */

static bool in(uint64_t addr, const char *start, const char *stop)
{
	return addr >= (uintptr_t)start && addr < (uintptr_t)stop;
}

/* A code address as a chain gives it: Thumb's bit 0 taken off. */
static uint64_t code(uint64_t addr)
{
	return addr & ~1ULL;
}

struct tally {
	unsigned int samples, chained, in_section, good, cut, no_frames, kernel_addr, bad;
	unsigned int most;	/* the longest chain */
	char first_bad[320];
};

/*
 * Every sample of the last recording: its chain's shape; @good counts
 * those in [start, stop) that @ok accepts.
 */
static void tally(struct tally *t, const char *start, const char *stop,
		  bool (*ok)(const struct armpmu_callchain *c, const void *arg), const void *arg)
{
	struct records r = { .data = sh->data, .len = sh->len, .last = sh->last };
	const struct armpmu_record *h;
	uint64_t top_addr = user_top();
	size_t off = 0;

	memset(t, 0, sizeof(*t));
	while ((h = next_record(&r, &off))) {
		const struct armpmu_sample *s = (const void *)h;
		const struct armpmu_callchain *c = (const void *)&s->value[s->nr];
		unsigned int i;

		if (h->type != ARMPMU_RECORD_SAMPLE)
			continue;
		t->samples++;
		if (!(s->flags & ARMPMU_SAMPLE_CALLCHAIN))
			continue;
		t->chained++;
		if (h->size != ARMPMU_SAMPLE_SIZE(s->nr) + ARMPMU_CALLCHAIN_SIZE(c->nr) ||
		    (c->flags & ~(ARMPMU_CHAIN_CUT | ARMPMU_CHAIN_NO_FRAMES))) {
			t->bad++;
			continue;
		}
		t->most = c->nr > t->most ? c->nr : t->most;
		t->kernel_addr += c->lr >= top_addr;
		for (i = 0; i < c->nr; i++)
			t->kernel_addr += c->ret[i] >= top_addr;
		if (!in(s->ip, start, stop))
			continue;
		t->in_section++;
		t->cut += !!(c->flags & ARMPMU_CHAIN_CUT);
		t->no_frames += !!(c->flags & ARMPMU_CHAIN_NO_FRAMES);
		if (ok(c, arg)) {
			t->good++;
		} else if (!t->first_bad[0]) {
			int len = snprintf(t->first_bad, sizeof(t->first_bad),
					   "ip %#llx: nr %u flags %#x lr %#llx ret", (ull)s->ip,
					   c->nr, c->flags, (ull)c->lr);

			for (i = 0; i < c->nr && i < 12 && len > 0 &&
			     (size_t)len < sizeof(t->first_bad); i++)
				len += snprintf(t->first_bad + len, sizeof(t->first_bad) - len,
						" %#llx", (ull)c->ret[i]);
		}
	}
	t->bad += off != r.len;
}

static bool aarch64(void)
{
	return sizeof(void *) == 8;
}

/*
 * The leaf's: its caller in lr, outer's and top's return addresses next
 * (AArch64). Above top are this program's own callers and libc's start:
 * a chain may be cut there, where a function keeps no frame record
 * (seen once on the debug kernel's run, at the sixth return address).
 */
static bool leaf_chain(const struct armpmu_callchain *c, const void *arg)
{
	(void)arg;
	if (!in(code(c->lr), __start_chain_middle, __stop_chain_middle))
		return false;
	if (!aarch64())
		return c->nr == 0 && c->flags == ARMPMU_CHAIN_NO_FRAMES;
	return !(c->flags & ~ARMPMU_CHAIN_CUT) && c->nr >= 2 && c->nr < 127 &&
	       in(c->ret[0], __start_chain_outer, __stop_chain_outer) &&
	       in(c->ret[1], __start_chain_top, __stop_chain_top);
}

static void test_chain(void)
{
	struct tally t;

	if (!record(W_CHAIN, ARMPMU_SAMPLING_CALLCHAIN, 0,
		    "call chains: lab records leaf <- middle <- outer <- top"))
		return;
	tally(&t, __start_chain_leaf, __stop_chain_leaf, leaf_chain, NULL);
	tap_note("call chains: %u samples, %u with a chain, %u in the leaf, %u of them right, "
		 "%u cut; longest %u%s%s", t.samples, t.chained, t.in_section, t.good, t.cut,
		 t.most, t.first_bad[0] ? "; first wrong: " : "", t.first_bad);
	tap_check(t.samples > 0 && t.chained == t.samples && !t.bad && t.in_section >= 10,
		  "call chains: every sample has a well-formed chain, ten or more in the leaf",
		  "%u samples, %u chained, %u malformed, %u in the leaf", t.samples, t.chained,
		  t.bad, t.in_section);
	tap_check(t.in_section && t.good == t.in_section,
		  aarch64() ? "call chains: the leaf's caller in lr, then outer, then top"
			    : "call chains, AArch32: no frames walked (NO_FRAMES), the leaf's "
			      "caller in lr",
		  "%u of %u; first wrong: %s", t.good, t.in_section, t.first_bad);
	tap_check(!t.kernel_addr, "call chains: no kernel address in any chain or lr",
		  "%u addresses at or above the user's top", t.kernel_addr);
}

static bool deep_chain(const struct armpmu_callchain *c, const void *arg)
{
	__u32 want = *(const __u32 *)arg;
	unsigned int i;

	if (!aarch64())
		return c->nr == 0 && c->flags == ARMPMU_CHAIN_NO_FRAMES;
	if (c->nr != want || c->flags != ARMPMU_CHAIN_CUT)
		return false;
	for (i = 0; i < c->nr; i++)
		if (!in(c->ret[i], __start_chain_deep, __stop_chain_deep))
			return false;
	return true;
}

static void test_deep(__u32 max_stack)
{
	__u32 want = max_stack ? max_stack : 127;
	char name[128];
	struct tally t;

	snprintf(name, sizeof(name), "call chains %u frames deep, max_stack %u: lab records",
		 DEEP, max_stack);
	if (!record(W_DEEP, ARMPMU_SAMPLING_CALLCHAIN, max_stack, name))
		return;
	tally(&t, __start_chain_leaf, __stop_chain_leaf, deep_chain, &want);
	snprintf(name, sizeof(name), aarch64() ?
		 "call chains %u frames deep: %u return addresses, all in the recursion, cut" :
		 "call chains %u frames deep, AArch32: no frames walked (%u asked)", DEEP, want);
	tap_check(t.in_section >= 10 && t.good == t.in_section && !t.bad && !t.kernel_addr, name,
		  "%u of %u in the leaf; %u malformed, %u kernel addresses; first wrong: %s",
		  t.good, t.in_section, t.bad, t.kernel_addr, t.first_bad);
}

#if defined(__aarch64__)
static bool hostile_chain(const struct armpmu_callchain *c, const void *arg)
{
	const struct hostile *h = arg;

	return c->flags == ARMPMU_CHAIN_CUT && c->nr == h->nr &&
	       (!c->nr || in(c->ret[0], __start_chain_top, __stop_chain_top));
}

static void test_hostile(void)
{
	enum work w;

	for (w = W_FP_KERNEL; w < W_KINDS; w++) {
		char name[160];
		struct tally t;

		snprintf(name, sizeof(name), "hostile frames: lab records a program with %s",
			 hostile[w].what);
		if (!record(w, ARMPMU_SAMPLING_CALLCHAIN, 0, name))
			continue;
		tally(&t, spin_loop, spin_loop_end, hostile_chain, &hostile[w]);
		snprintf(name, sizeof(name), "hostile frames, %s: the walk stops there, cut, "
			 "%u return address%s, no kernel address", hostile[w].what, hostile[w].nr,
			 hostile[w].nr == 1 ? "" : "es");
		tap_check(t.in_section >= 10 && t.good == t.in_section && !t.bad && !t.kernel_addr,
			  name, "%u of %u right; %u malformed, %u kernel addresses; first wrong: %s",
			  t.good, t.in_section, t.bad, t.kernel_addr, t.first_bad);
	}
}
#else
static void test_hostile(void)
{
	tap_skip("hostile frames", "AArch32: no frame records are walked");
}
#endif

#if defined(__aarch64__)
/*
 * READ_SAMPLES' ENOSPC: lab's own thread sampled 64 frames deep, each
 * sample larger than the least room READ_SAMPLES takes. That room gets
 * ENOSPC; then a room large enough gets every sample the file recorded:
 * the refused call took none.
 */
static void room_child(void)
{
	struct armpmu_sampling sm = {
		.period_ns = PERIOD_NS, .ring_bytes = 1 << 20, .flags = ARMPMU_SAMPLING_CALLCHAIN,
	};
	struct samples_buf b;
	struct records r = { 0 };
	const struct armpmu_record *h;
	size_t off = 0;
	int fd = -1, err;

	if (!become_user(AS_LAB)) {
		FAIL(EPERM, "become lab");
		return;
	}
	err = dev_open(&fd);
	err = err ? err : program(fd, 0, ARMPMU_EV_CPU_CYCLES, ARMPMU_EXCLUDE_KERNEL);
	err = err ? err : ioc_u32(fd, ARMPMU_IOC_SET_CYCLE_FILTER, ARMPMU_EXCLUDE_KERNEL);
	err = err ? err : ioc(fd, ARMPMU_IOC_SET_SAMPLING, &sm);
	err = err ? err : ioc0(fd, ARMPMU_IOC_START);
	if (err) {
		FAIL(err, "open, program, sample, start");
		return;
	}
	deep(64);
	ioc0(fd, ARMPMU_IOC_STOP);
	memset(&b.hdr, 0, sizeof(b.hdr));
	b.hdr.size = ARMPMU_SAMPLE_SIZE(ARMPMU_MAX_COUNTERS);
	sh->err = ioc(fd, ARMPMU_IOC_READ_SAMPLES, &b);
	err = drain_samples(fd, &r);
	if (err)
		FAIL(err, "READ_SAMPLES, room enough");
	sh->last = r.last;
	while ((h = next_record(&r, &off)))
		sh->len += h->type == ARMPMU_RECORD_SAMPLE;
	free_records(&r);
	dev_close(&fd);
}

static void test_room(void)
{
	pid_t pid;

	memset(sh, 0, offsetof(struct shared, data));
	sh->err = -1;
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		room_child();
		_exit(0);
	}
	waitpid(pid, NULL, 0);
	tap_check(sh->err == ENOSPC && sh->len > 0 && sh->len == sh->last.recorded &&
		  !sh->last.lost,
		  "READ_SAMPLES: a room smaller than a deep chain's sample is ENOSPC, nothing taken",
		  "%s (%s); then %zu samples read of %llu recorded, %llu lost",
		  tap_errname(sh->err), sh->where, sh->len, (ull)sh->last.recorded,
		  (ull)sh->last.lost);
}
#else
static void test_room(void)
{
	tap_skip("READ_SAMPLES: a room smaller than a deep chain's sample is ENOSPC",
		 "AArch32: its chains are empty, its samples small");
}
#endif

/* A file without ARMPMU_SAMPLING_CALLCHAIN: samples as before, no chain. */
static void test_without(void)
{
	struct tally t;

	if (!record(W_CHAIN, 0, 0, "without call chains: lab records"))
		return;
	tally(&t, __start_chain_leaf, __stop_chain_leaf, leaf_chain, NULL);
	tap_check(t.samples > 0 && !t.chained, "without call chains: no sample carries one",
		  "%u of %u samples have a chain", t.chained, t.samples);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "icount", no_argument, NULL, 'i' },
		{ "compat", no_argument, NULL, 'C' },
		TAP_THEN_OPTIONS,
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int opt;

	/* The recorded program alone, for pmuctl record -g (record-test.sh). */
	if (argc == 3 && !strcmp(argv[1], "--work") && !strcmp(argv[2], "chain"))
		return work(W_CHAIN);
	while ((opt = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (opt) {
		case 'i': icount = true; break;
		case 'C': compat = true; break;
		default:
			if (tap_then_option(opt, optarg))
				break;
			fprintf(stderr, "usage: callchain-test [--icount] [--compat] "
					"[--tap-run N --tap-failed N --tap-skipped N]\n");
			return opt == 'h' ? 0 : 2;
		}
	}
	tap_init();
	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED) {
		tap_check(false, "callchain-test: shared memory", "%s", strerror(errno));
		return tap_done();
	}
	tap_note("callchain-test: %s, %s%s", aarch64() ? "AArch64" : "AArch32",
		 icount ? "icount" : "no icount", compat ? ", a 32-bit program on arm64" : "");
	pin(0);
	test_chain();
	test_deep(0);
	test_deep(8);
	test_hostile();
	test_room();
	test_without();
	test_kernel_log();
	return tap_done();
}
