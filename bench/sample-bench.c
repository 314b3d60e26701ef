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
 *
 * Each figure is the least of RUNS runs; a sample's cost is the sampled
 * run's extra time over the samples it took (READ_SAMPLES' recorded,
 * perf's ring's SAMPLE records). Output as armpmu-bench's:
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
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <linux/armpmu.h>
#include <linux/armpmu_arch.h>

#define PERIOD_NS	100000ULL
#define LOOP_ITERS	20000000UL	/* 40 M instructions: about 400 samples */
#define RUNS		8
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

/* The loop's time between two calls of @ctl (START/STOP, or perf's). */
static uint64_t timed(int fd, unsigned long on, unsigned long off)
{
	uint64_t t0, t1;

	if (fd >= 0 && ioctl(fd, on, 0) < 0)
		return 0;
	t0 = now_ns();
	spin(LOOP_ITERS);
	t1 = now_ns();
	if (fd >= 0 && ioctl(fd, off, 0) < 0)
		return 0;
	return t1 - t0;
}

static void report(const char *op, uint64_t plain, uint64_t sampled, uint64_t n)
{
	if (!n || sampled < plain) {
		fprintf(stderr, "sample-bench: %s: %llu samples, %llu vs %llu ns\n", op,
			(unsigned long long)n, (unsigned long long)sampled,
			(unsigned long long)plain);
		return;
	}
	printf("@bench %s %.0f n=%llu batches=%d\n", op, (double)(sampled - plain) / (double)n,
	       (unsigned long long)n, RUNS);
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
	uint64_t plain = UINT64_MAX, sampled = UINT64_MAX, t, n = 0;
	int fd = open(ARMPMU_DEVICE_PATH, O_RDWR | O_CLOEXEC), i;

	if (fd < 0 || program(fd, 0, ARMPMU_EV_INST_RETIRED) || program(fd, 1, ARMPMU_EV_CPU_CYCLES))
		return fail("open and program");
	for (i = 0; i < RUNS; i++) {
		t = timed(fd, ARMPMU_IOC_START, ARMPMU_IOC_STOP);
		if (!t)
			return fail("START or STOP");
		plain = t < plain ? t : plain;
	}
	for (i = 0; i < RUNS; i++) {
		/* A new ring each run: its tallies count this run's samples. */
		if (ioctl(fd, ARMPMU_IOC_SET_SAMPLING, &sm) < 0)
			return fail("SET_SAMPLING");
		t = timed(fd, ARMPMU_IOC_START, ARMPMU_IOC_STOP);
		memset(&b.hdr, 0, sizeof(b.hdr));
		b.hdr.size = sizeof(b.room);
		if (!t || ioctl(fd, ARMPMU_IOC_READ_SAMPLES, &b) < 0)
			return fail("a sampled run");
		if (b.hdr.lost)
			fprintf(stderr, "sample-bench: %llu samples lost\n",
				(unsigned long long)b.hdr.lost);
		if (t < sampled) {
			sampled = t;
			n = b.hdr.recorded;
		}
	}
	close(fd);
	report("armpmu_sample", plain, sampled, n);
	return 0;
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
	uint64_t plain = UINT64_MAX, sampled = UINT64_MAX, t, n = 0, got;
	long page = sysconf(_SC_PAGESIZE);
	size_t len = (size_t)(PERF_PAGES + 1) * (size_t)page;
	struct perf_event_mmap_page *pg;
	int fd, i;

	for (i = 0; i < RUNS; i++) {
		t = timed(-1, 0, 0);
		plain = t < plain ? t : plain;
	}
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
	for (i = 0; i < RUNS; i++) {
		t = timed(fd, PERF_EVENT_IOC_ENABLE, PERF_EVENT_IOC_DISABLE);
		got = perf_samples(pg);
		if (!t)
			return fail("perf's ENABLE or DISABLE");
		if (t < sampled) {
			sampled = t;
			n = got;
		}
	}
	munmap(pg, len);
	close(fd);
	report("perf_sample", plain, sampled, n);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "armpmu"))
		return bench_armpmu();
	if (argc == 2 && !strcmp(argv[1], "perf"))
		return bench_perf();
	fprintf(stderr, "usage: sample-bench armpmu|perf\n");
	return 2;
}
