// SPDX-License-Identifier: GPL-2.0
/*
 * libpmudev-test: sampling through the library. A handle counting this
 * thread samples it every 200 us of its running time while it spins in
 * loop_n(): pmudev_read_samples() gives its samples (this thread's, in
 * user mode, most in this program, with weights that add up to no more
 * than pmudev_read()'s counts; under icount one about every period) and
 * no loss; a one-page ring loses samples
 * and says how many; the refusals of the driver come back as errnos;
 * pmudev_next_record() stops at a record that is not whole.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>

#include "common.h"
#include "../pmu-asm.h"

#define PERIOD_NS	200000ULL
#define ROOM		16384

extern const char __executable_start[], etext[];

struct sample_tally {
	unsigned int samples, others, in_text, kernel, strangers;
	uint64_t cycles, period;
	int err;
	struct armpmu_samples last;
};

/* Spins in loop_n() for @ms of this thread's CPU time. */
static void spin_for(unsigned int ms)
{
	struct timespec t0, t;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0);
	do {
		loop_n(SPIN / 4);
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	} while ((t.tv_sec - t0.tv_sec) * 1000 + (t.tv_nsec - t0.tv_nsec) / 1000000 < (long)ms);
}

/* Every record of @pmu's ring, added to @t, until an empty answer. */
static void tally(struct pmudev *pmu, struct sample_tally *t)
{
	static struct {
		struct armpmu_samples hdr;
		char room[ROOM];
	} buf;
	const struct armpmu_record *rec;
	pid_t tid = (pid_t)syscall(SYS_gettid);

	do {
		memset(&buf.hdr, 0, sizeof(buf.hdr));
		buf.hdr.size = ROOM;
		t->err = pmudev_read_samples(pmu, &buf.hdr);
		if (t->err)
			return;
		t->last = buf.hdr;
		for (rec = NULL; (rec = pmudev_next_record(&buf.hdr, rec));) {
			const struct armpmu_sample *s = (const void *)rec;

			if (rec->type != ARMPMU_RECORD_SAMPLE) {
				t->others++;
				continue;
			}
			t->samples++;
			t->strangers += rec->pid != (uint32_t)getpid() || rec->tid != (uint32_t)tid;
			t->kernel += !!(s->flags & ARMPMU_SAMPLE_KERNEL);
			t->in_text += s->ip >= (uintptr_t)__executable_start && s->ip < (uintptr_t)etext;
			t->cycles += s->cycles;
			t->period += s->period;
		}
	} while (buf.hdr.size);
}

/* A handle counting this thread's user-mode cycles, sampled; NULL on failure. */
static struct pmudev *sampled(uint32_t ring_bytes, const char *what)
{
	struct pmudev *pmu;
	int ret = pmudev_open(&pmu, PMUDEV_CPU_ANY, 0);

	if (!tap_errno(err_of(ret), 0, what))
		return NULL;
	ret = pmudev_add_event(pmu, "cycles:u");
	if (ret >= 0)
		ret = pmudev_set_sampling(pmu, PERIOD_NS, ring_bytes, 0);
	if (!tap_errno(err_of(ret), 0, "  its event and sampling")) {
		pmudev_close(pmu);
		return NULL;
	}
	return pmu;
}

static void test_refusals(void)
{
	struct pmudev *pmu;
	struct {
		struct armpmu_samples hdr;
		char room[ROOM];
	} buf = { .hdr.size = ROOM };

	if (pmudev_open(&pmu, PMUDEV_CPU_ANY, 0))
		return (void)tap_check(false, "sampling: open a task-mode handle", "%s", "");
	tap_errno(err_of(pmudev_read_samples(pmu, &buf.hdr)), EOPNOTSUPP,
		  "sampling: read_samples of a handle not sampled: EOPNOTSUPP");
	tap_errno(err_of(pmudev_set_sampling(pmu, PERIOD_NS, 100, 0)), EINVAL,
		  "sampling: a ring smaller than a page: EINVAL");
	tap_errno(err_of(pmudev_set_sampling(pmu, PERIOD_NS, 1U << 30, 0)), E2BIG,
		  "sampling: a 1 GiB ring (above sample_ring_kb_max): E2BIG");
	tap_errno(err_of(pmudev_set_sampling(pmu, 1, 65536, 0)), ERANGE,
		  "sampling: a 1 ns period (above sample_rate_max): ERANGE");
	tap_errno(err_of(pmudev_set_sampling(pmu, PERIOD_NS, 65536, 0)), 0,
		  "sampling: 200 us, 64 KiB");
	pmudev_start(pmu);
	tap_errno(err_of(pmudev_set_sampling(pmu, PERIOD_NS, 65536, 0)), EBUSY,
		  "sampling: set again while counting: EBUSY");
	pmudev_stop(pmu);
	tap_errno(err_of(pmudev_set_sampling(pmu, 0, 0, 0)), 0, "sampling: off (period 0)");
	tap_errno(err_of(pmudev_read_samples(pmu, &buf.hdr)), EOPNOTSUPP,
		  "sampling: read_samples after it was turned off: EOPNOTSUPP");
	pmudev_close(pmu);
}

static void test_next_record(void)
{
	static union {
		struct armpmu_samples hdr;
		char bytes[sizeof(struct armpmu_samples) + 128];
	} buf;
	/* Two records of 32 bytes each. */
	struct armpmu_record *rec0 = (void *)(buf.bytes + sizeof(buf.hdr));
	struct armpmu_record *rec1 = (void *)(buf.bytes + sizeof(buf.hdr) + 32);
	const struct armpmu_record *first;

	memset(&buf, 0, sizeof(buf));
	buf.hdr.size = 64;
	rec0->size = 32;
	rec1->size = 32;
	first = pmudev_next_record(&buf.hdr, NULL);
	tap_check(first == rec0 && pmudev_next_record(&buf.hdr, first) == rec1 &&
		  !pmudev_next_record(&buf.hdr, rec1),
		  "next_record: two whole records, then NULL", "%s", "");
	rec1->size = 40;
	tap_check(!pmudev_next_record(&buf.hdr, first),
		  "next_record: a record running past size: NULL", "%s", "");
	rec0->size = 0;
	tap_check(!pmudev_next_record(&buf.hdr, NULL), "next_record: a record of size 0: NULL",
		  "%s", "");
	rec0->size = 28;
	tap_check(!pmudev_next_record(&buf.hdr, NULL),
		  "next_record: a size not a multiple of 8: NULL", "%s", "");
	buf.hdr.size = 0;
	tap_check(!pmudev_next_record(&buf.hdr, NULL), "next_record: no records: NULL", "%s", "");
}

void test_sampling(void)
{
	struct armpmu_counts counts;
	struct sample_tally t;
	struct pmudev *pmu;

	test_refusals();
	test_next_record();

	/*
	 * Spinning, the ring read as it goes, until 20 samples (at 200 us,
	 * 4 ms of running under icount). Without icount QEMU delivers the
	 * timer late on a busy host, and a late tick is one sample of the
	 * periods it missed: 2 s of CPU time at most.
	 */
	pmu = sampled(65536, "sampling: a handle of this thread's cycles:u, 200 us, 64 KiB");
	if (!pmu)
		return;
	memset(&t, 0, sizeof(t));
	pmudev_start(pmu);
	for (unsigned int ms = 0; ms < 2000 && !t.err && t.samples < 20; ms += 5) {
		spin_for(5);
		tally(pmu, &t);
	}
	pmudev_stop(pmu);
	pmudev_read(pmu, &counts);
	tally(pmu, &t);
	tap_check(!t.err && t.samples >= 20 && !t.others && t.last.lost == 0 &&
		  t.last.recorded == t.samples,
		  "sampling: 20 samples read as the thread spins, all of them recorded, none lost",
		  "%s: %u samples, %u other records, recorded %llu, lost %llu",
		  tap_errname(-t.err), t.samples, t.others, (ull)t.last.recorded,
		  (ull)t.last.lost);
	tap_check(t.samples && !t.strangers && !t.kernel,
		  "sampling: every sample this thread's, in user mode",
		  "%u of %u another thread's, %u in kernel mode", t.strangers, t.samples, t.kernel);
	tap_check(t.in_text * 2 > t.samples, "sampling: most samples in this program's code",
		  "%u of %u", t.in_text, t.samples);
	tap_check(t.cycles > 0 && t.cycles <= counts.cycles,
		  "sampling: the samples' cycles add up to no more than the handle counted",
		  "samples %llu, counted %llu", (ull)t.cycles, (ull)counts.cycles);
	tap_check(t.samples && t.period >= t.samples * PERIOD_NS * 9 / 10,
		  "sampling: the samples weigh at least their periods of running time",
		  "%llu ns for %u samples", (ull)t.period, t.samples);
	/* Under icount only the ring's reads (kernel-mode ticks) merge periods. */
	if (icount)
		tap_check(t.samples && t.period <= t.samples * PERIOD_NS * 2,
			  "icount: a sample every period of running time, or close",
			  "%llu ns for %u samples", (ull)t.period, t.samples);
	tap_note("sampling: %u samples, %llu ns of running time each on average", t.samples,
		 (ull)(t.samples ? t.period / t.samples : 0));
	pmudev_close(pmu);

	/*
	 * A one-page ring (about 70 samples) left unread for 100 ms under
	 * icount (500 periods), 500 ms elsewhere: losses, counted.
	 */
	pmu = sampled(4096, "sampling: the same with a one-page ring");
	if (!pmu)
		return;
	memset(&t, 0, sizeof(t));
	pmudev_start(pmu);
	spin_for(icount ? 100 : 500);
	pmudev_stop(pmu);
	tally(pmu, &t);
	tap_check(!t.err && t.samples > 0 && t.last.lost > 0 &&
		  (!icount || t.last.recorded + t.last.lost >= 250),
		  "sampling: a full ring drops samples, and read_samples says how many",
		  "%s: %u samples read, recorded %llu, lost %llu", tap_errname(-t.err),
		  t.samples, (ull)t.last.recorded, (ull)t.last.lost);
	tap_note("sampling: one page held %u samples of %llu", t.samples,
		 (ull)(t.last.recorded + t.last.lost));
	pmudev_close(pmu);
}
