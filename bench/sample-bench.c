// SPDX-License-Identifier: GPL-2.0
/*
 * sample-bench: what one sample costs, in instructions, kernel and user,
 * under QEMU's -icount shift=0 (where CLOCK_MONOTONIC advances one
 * nanosecond per instruction: see armpmu-bench.c).
 *
 *   sample-bench armpmu    as lab: a loop timed in a task-mode file that
 *                          counts it (instructions and cycles, user mode),
 *                          then in the same file sampled every 100 us
 *   sample-bench perf      as root: the same loop plain, then sampled by
 *                          perf's cpu-clock:u every 100 us (IP, TID, TIME,
 *                          PERIOD into a mapped ring, as perf record's)
 *   sample-bench tick      as root, with bench_tick.ko loaded (bench/tick):
 *                          the same loop plain, then interrupted every
 *                          100 us by a per-CPU timer of the kind armpmu
 *                          samples with that only re-arms itself: the
 *                          floor of any sample one timer interrupt takes
 *
 * Plain and sampled runs take turns (a kernel busy for a while after boot,
 * as 6.12's crypto self-tests are, then weighs on both alike); each figure
 * is the least of RUNS pairs (the tick's: TICK_RUNS); a sample's cost is the sampled run's extra
 * time over the samples it took (READ_SAMPLES' recorded, perf's ring's
 * SAMPLE records). The time is the wall clock's, so a run during which
 * another thread took the CPU (an involuntary switch: getrusage's
 * ru_nivcsw) holds that thread's time too: such a pair is said on stderr
 * and run again, up to TRIES pairs in all (the A7 on 6.12 took 20 for 8).
 * Only undisturbed pairs count, so that a sampled run cannot come out
 * faster than the plain one.
 * Output as armpmu-bench's:
 *   @bench OPERATION INSNS_PER_OP n=SAMPLES batches=RUNS
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <linux/armpmu.h>
#include <linux/armpmu_arch.h>

#define PERIOD_NS	100000ULL
#define LOOP_ITERS	20000000UL	/* 40 M instructions: about 400 samples */
#define RUNS		8
/* The empty tick's pairs: fewer, for make check's time (about 2 s less each). */
#define TICK_RUNS	4
#define TRIES		(8 * RUNS)
#define RING_BYTES	(256U << 10)
#define PERF_PAGES	64

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static __attribute__((noinline)) void spin(unsigned long n)
{
#if defined(__aarch64__)
	__asm__ volatile("1:	subs	%0, %0, #1\n	b.ne	1b\n" : "+r"(n) : : "cc");
#else
	__asm__ volatile("1:	subs	%0, %0, #1\n	bne	1b\n" : "+r"(n) : : "cc");
#endif
}

static int fail(const char *what)
{
	fprintf(stderr, "sample-bench: %s: %s\n", what, strerror(errno));
	return 1;
}

/* This thread's involuntary switches so far: others took the CPU. */
static long switched_out(void)
{
	struct rusage ru;

	return getrusage(RUSAGE_THREAD, &ru) ? -1 : ru.ru_nivcsw;
}

static int by_ioctl(int fd, unsigned long req)
{
	return ioctl(fd, req, 0) < 0 ? -1 : 0;
}

/* bench_tick's period_ns parameter, open as @fd: @ns (0 stops the ticks). */
static int by_param(int fd, unsigned long ns)
{
	char buf[32];
	int len = snprintf(buf, sizeof(buf), "%lu\n", ns);

	return pwrite(fd, buf, (size_t)len, 0) == len ? 0 : -1;
}

/*
 * The loop's time between @ctl(@fd, @on) and @ctl(@fd, @off) (START and
 * STOP, perf's ENABLE and DISABLE, or bench_tick's period and 0; none if
 * @fd < 0): 0 if one failed, UINT64_MAX if another thread took the CPU
 * meanwhile.
 */
static uint64_t timed(int (*ctl)(int, unsigned long), int fd, unsigned long on,
		      unsigned long off)
{
	uint64_t t0, t1;
	long sw0, sw1;

	if (fd >= 0 && ctl(fd, on))
		return 0;
	sw0 = switched_out();
	t0 = now_ns();
	spin(LOOP_ITERS);
	t1 = now_ns();
	sw1 = switched_out();
	if (fd >= 0 && ctl(fd, off))
		return 0;
	return sw0 < 0 || sw1 != sw0 ? UINT64_MAX : t1 - t0;
}

/*
 * A pair's runs, @plain and @sampled (@got samples): the least so far
 * kept (the samples of the least sampled run in *@n). Returns 1 if the
 * pair counts, 0 if another thread took the CPU during it.
 */
static int pair(const char *op, uint64_t plain, uint64_t sampled, uint64_t got,
		uint64_t *least_plain, uint64_t *least_sampled, uint64_t *n)
{
	if (plain == UINT64_MAX || sampled == UINT64_MAX) {
		fprintf(stderr, "sample-bench: %s: another thread ran during the %s run: again\n",
			op, plain == UINT64_MAX ? "plain" : "sampled");
		return 0;
	}
	if (plain < *least_plain)
		*least_plain = plain;
	if (sampled < *least_sampled) {
		*least_sampled = sampled;
		*n = got;
	}
	return 1;
}

static int report(const char *op, int runs, int pairs, uint64_t plain, uint64_t sampled,
		  uint64_t n)
{
	if (pairs < runs) {
		fprintf(stderr, "sample-bench: %s: %d undisturbed pairs of runs in %d\n", op, pairs,
			TRIES);
		return 1;
	}
	if (!n || sampled < plain) {
		fprintf(stderr, "sample-bench: %s: %llu samples, %llu vs %llu ns\n", op,
			(unsigned long long)n, (unsigned long long)sampled,
			(unsigned long long)plain);
		return 1;
	}
	printf("@bench %s %.0f n=%llu batches=%d\n", op, (double)(sampled - plain) / (double)n,
	       (unsigned long long)n, runs);
	return 0;
}

static int program(int fd, __u32 idx, __u32 event)
{
	struct armpmu_event ev = { .event = event, .flags = ARMPMU_EXCLUDE_KERNEL };
	__u32 filter = ARMPMU_EXCLUDE_KERNEL;

	if (ioctl(fd, ARMPMU_IOC_SELECT, &idx) < 0 || ioctl(fd, ARMPMU_IOC_SET_EVENT, &ev) < 0)
		return -1;
	return ioctl(fd, ARMPMU_IOC_SET_CYCLE_FILTER, &filter);
}

static int bench_armpmu(void)
{
	static struct {
		struct armpmu_samples hdr;
		unsigned char room[64 << 10];
	} b;
	struct armpmu_sampling sm = { .period_ns = PERIOD_NS, .ring_bytes = RING_BYTES };
	uint64_t plain = UINT64_MAX, sampled = UINT64_MAX, p, t, n = 0;
	int fd = open(ARMPMU_DEVICE_PATH, O_RDWR | O_CLOEXEC), pairs = 0, i;

	if (fd < 0 || program(fd, 0, ARMPMU_EV_INST_RETIRED) || program(fd, 1, ARMPMU_EV_CPU_CYCLES))
		return fail("open and program");
	for (i = 0; i < TRIES && pairs < RUNS; i++) {
		if (ioctl(fd, ARMPMU_IOC_SET_SAMPLING, &(struct armpmu_sampling){ 0 }) < 0)
			return fail("SET_SAMPLING off");
		p = timed(by_ioctl, fd, ARMPMU_IOC_START, ARMPMU_IOC_STOP);
		if (!p)
			return fail("START or STOP");
		/* A new ring each run: its tallies count this run's samples. */
		if (ioctl(fd, ARMPMU_IOC_SET_SAMPLING, &sm) < 0)
			return fail("SET_SAMPLING");
		t = timed(by_ioctl, fd, ARMPMU_IOC_START, ARMPMU_IOC_STOP);
		memset(&b.hdr, 0, sizeof(b.hdr));
		b.hdr.size = sizeof(b.room);
		if (!t || ioctl(fd, ARMPMU_IOC_READ_SAMPLES, &b) < 0)
			return fail("a sampled run");
		if (b.hdr.lost)
			fprintf(stderr, "sample-bench: %llu samples lost\n",
				(unsigned long long)b.hdr.lost);
		pairs += pair("armpmu_sample", p, t, b.hdr.recorded, &plain, &sampled, &n);
	}
	close(fd);
	return report("armpmu_sample", RUNS, pairs, plain, sampled, n);
}

/* The SAMPLE records in perf's ring since @tail. */
static uint64_t perf_samples(struct perf_event_mmap_page *pg)
{
	unsigned char *data = (unsigned char *)pg + pg->data_offset;
	uint64_t head = __atomic_load_n(&pg->data_head, __ATOMIC_ACQUIRE), pos, n = 0;
	struct perf_event_header h;

	for (pos = pg->data_tail; pos < head; pos += h.size) {
		memcpy(&h, data + pos % pg->data_size, sizeof(h));
		if (!h.size)
			break;
		n += h.type == PERF_RECORD_SAMPLE;
	}
	pg->data_tail = head;
	return n;
}

static int bench_perf(void)
{
	struct perf_event_attr attr;
	uint64_t plain = UINT64_MAX, sampled = UINT64_MAX, p, t, n = 0, got;
	long page = sysconf(_SC_PAGESIZE);
	size_t len = (size_t)(PERF_PAGES + 1) * (size_t)page;
	struct perf_event_mmap_page *pg;
	int fd, pairs = 0, i;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_SOFTWARE;
	attr.config = PERF_COUNT_SW_CPU_CLOCK;
	attr.sample_period = PERIOD_NS;
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD;
	attr.disabled = 1;
	attr.exclude_kernel = 1;
	attr.exclude_hv = 1;
	fd = (int)syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0);
	if (fd < 0)
		return fail("perf_event_open cpu-clock:u");
	pg = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (pg == MAP_FAILED)
		return fail("mmap perf's ring");
	for (i = 0; i < TRIES && pairs < RUNS; i++) {
		p = timed(by_ioctl, -1, 0, 0);
		t = timed(by_ioctl, fd, PERF_EVENT_IOC_ENABLE, PERF_EVENT_IOC_DISABLE);
		got = perf_samples(pg);
		if (!t)
			return fail("perf's ENABLE or DISABLE");
		pairs += pair("perf_sample", p, t, got, &plain, &sampled, &n);
	}
	munmap(pg, len);
	close(fd);
	return report("perf_sample", RUNS, pairs, plain, sampled, n);
}

#define TICK_PARAMS	"/sys/module/bench_tick/parameters/"

static int bench_tick(void)
{
	uint64_t plain = UINT64_MAX, ticked = UINT64_MAX, p, t, n = 0;
	int fd = open(TICK_PARAMS "period_ns", O_WRONLY | O_CLOEXEC), ticks, pairs = 0, i;
	char buf[32];
	ssize_t len;

	ticks = open(TICK_PARAMS "ticks", O_RDONLY | O_CLOEXEC);
	if (fd < 0 || ticks < 0)
		return fail("open bench_tick's parameters (is bench_tick.ko loaded?)");
	for (i = 0; i < TRIES && pairs < TICK_RUNS; i++) {
		p = timed(by_param, -1, 0, 0);
		t = timed(by_param, fd, PERIOD_NS, 0);
		len = pread(ticks, buf, sizeof(buf) - 1, 0);
		if (!t || len <= 0)
			return fail("a ticked run");
		buf[len] = '\0';
		pairs += pair("empty_tick", p, t, strtoull(buf, NULL, 10), &plain, &ticked, &n);
	}
	close(ticks);
	close(fd);
	return report("empty_tick", TICK_RUNS, pairs, plain, ticked, n);
}

int main(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "armpmu"))
		return bench_armpmu();
	if (argc == 2 && !strcmp(argv[1], "perf"))
		return bench_perf();
	if (argc == 2 && !strcmp(argv[1], "tick"))
		return bench_tick();
	fprintf(stderr, "usage: sample-bench armpmu|perf|tick\n");
	return 2;
}
