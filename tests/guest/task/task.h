/* SPDX-License-Identifier: GPL-2.0 */
/*
 * task-test's topics beside its main (tests/guest/task-test.c): each file
 * here tests one side of task mode and prints TAP through tap.h; helpers.c
 * has what several of them use.
 */
#ifndef ARMPMU_TESTS_TASK_H
#define ARMPMU_TESTS_TASK_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include <linux/armpmu.h>

#define EXCL_K			ARMPMU_EXCLUDE_KERNEL
/* Trips of loop_n (two instructions each) in a measured loop. */
#define SPIN			100000UL

/* READ_THREADS' answer with room for 16 threads of one slot each. */
#define THREAD_ROOM	16
struct thread_list {
	struct armpmu_threads hdr;
	unsigned char room[THREAD_ROOM * ARMPMU_THREAD_SIZE(1)];
};

/* A reading of one of perf's software counters (helpers.c). */
struct perf_reading {
	long long value;	/* -1: perf could not count here */
	uint64_t enabled, running;
};

/* The options task-test was run with, and the board's counters. */
extern bool task_icount;
extern unsigned int task_num_counters;

/* armed.c: calls refused on an armed file change nothing. */
void test_armed_refusals(void);

/* admin.c: what an opener may see (FILE_STATUS) and end (RELEASE*) of others' files. */
void test_file_visibility(void);
void test_release_by_opener(void);

/* helpers.c: what several topics use. */
__u32 work_event(void);
pid_t start_neighbour(void);
int open_task_file(int *fd);
struct armpmu_thread *thread_at(struct thread_list *l, unsigned int i);
int read_threads(int fd, struct thread_list *l);
int perf_software(__u64 config);
struct perf_reading perf_value(int pfd);
bool perf_counted(const struct perf_reading *r, unsigned long long least);

/* follow.c: FOLLOW of a process's threads; ATTACH to another process. */
void test_follow(void);
void test_attach_other(void);

/* sched.c: migrations and context switches against Linux's own counts. */
void test_migration(void);
void test_switches(void);

#endif /* ARMPMU_TESTS_TASK_H */
