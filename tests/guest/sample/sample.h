/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What sample-test's parts share: the recording of a worker as lab
 * (sample-test.c), its shared memory and tally, and the hostile checks
 * (hostile.c, sample-test --hostile).
 */
#ifndef ARMPMU_TESTS_SAMPLE_H
#define ARMPMU_TESTS_SAMPLE_H

#include <stdbool.h>
#include <stdint.h>

#include "../samples.h"
#include "../tap.h"
#include "../users.h"

#define EXCL_K		ARMPMU_EXCLUDE_KERNEL
#define PERIOD_NS	100000ULL	/* 10 kHz: sample_rate_max's default */
#define SUID_DIR	"/tmp/sample-test"
#define SUID_PROG	SUID_DIR "/suid"
#define DATA_MAX	(8U << 20)
#define THREADS		4
/* The fork storm's children, each with two threads and a child: its new threads. */
#define STORM_CHILDREN	24
#define STORM_FORKS	(STORM_CHILDREN * 4)

/* What the recording child hands back to the test, in shared memory. */
struct shared {
	int err;
	char where[40];
	pid_t worker, recorder;	/* the worker's parent: the recording process */
	unsigned int reads;
	struct armpmu_samples last;
	struct armpmu_threads threads;
	unsigned char thread_room[32 * ARMPMU_THREAD_SIZE(1)];
	size_t len;
	unsigned char data[DATA_MAX];
};

extern struct shared *sh;

struct spec {
	const char *work;
	unsigned long n;
	__u32 attach;		/* ARMPMU_ATTACH_* */
	bool exec;		/* the worker executes itself with --work */
	__u32 ring;
	__u32 flags;		/* ARMPMU_SAMPLING_* */
	bool read_after;	/* take the records only once the worker is done */
	/*
	 * The worker (suid; threads: each of its threads and its child) works
	 * on until a sample of it was read: without icount a thread's ticks
	 * are QEMU's timer interrupts, which a busy host delivers late, many
	 * while the thread is in the kernel, where a user-mode file records
	 * nothing (seen: none in 1M rounds of work).
	 */
	bool until_sampled;
	enum guest_user who;
};

#define FAIL(e, w) do { sh->err = (e); snprintf(sh->where, sizeof(sh->where), "%s", (w)); } while (0)

/* What a recording holds. */
struct tally {
	unsigned int samples, kernel, above_top, in_a, in_b, incomplete;
	unsigned int forks, execs, exits, let_go, lost_records, bad;
	unsigned long long lost;
	char exec_comm[16], let_go_comm[16];
	uint64_t let_go_time;
	__u32 let_go_tid;
	unsigned int after_let_go;
	__u32 exit_ppid, exit_ptid;	/* the last EXIT's */
};

/* sample-test.c: the recorded loops, recording, and what a recording holds. */
void work_a(unsigned long n);
void work_b(unsigned long n);
void record_child(const struct spec *sp);
bool record(const struct spec *sp, const char *name);
struct records shared_records(void);
void count(struct tally *t);
bool has_record(__u32 tid, unsigned int type);

/* hostile.c: the fork storm's worker, and sample-test --hostile's checks. */
int storm(unsigned long n);
void test_ring_charge(void);
void test_fork_storm(void);
void test_hostile(void);

#endif /* ARMPMU_TESTS_SAMPLE_H */
