/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the topics of libpmudev-test share: the board under test, the
 * options, the affinity the test started with, and a few helpers
 * (common.c). Each topic is one file of this folder;
 * tests/guest/libpmudev-test.c runs them in order.
 */
#ifndef LIBPMUDEV_TEST_COMMON_H
#define LIBPMUDEV_TEST_COMMON_H

#include <sched.h>
#include <stdbool.h>

#include "pmudev.h"
#include "../devio.h"
#include "../tap.h"

/* A CPU number no board has (the driver takes any below nr_cpu_ids). */
#define NO_SUCH_CPU		4000

/* Trips of loop_n(): milliseconds under TCG. */
#define SPIN			200000UL

struct board {
	const char *name;
	const char *core;		/* pmudev_core_name(), NULL: not checked */
	unsigned int num_counters;
};

extern const struct board *board;
extern bool icount;
extern unsigned int ncpus;		/* online at start */
extern cpu_set_t start_affinity;	/* the test's, at start */

/* A library result as an errno value for tap_errno(): 0 for any success. */
static inline int err_of(int ret)
{
	return ret < 0 ? -ret : 0;
}

/* common.c */
const struct board *find_board(const char *name);	/* NULL: no such board */
bool affinity_is(const cpu_set_t *want);
bool pinned_to(int cpu);
int measure(struct pmudev_regions *regions, int id, unsigned long n);
char *print_to_string(struct pmudev_regions *regions, enum pmudev_format format,
		      int *ret);

/* The topics, in the order libpmudev-test runs them. */
void test_device_missing(void);		/* open.c */
void test_open_task(void);
void test_open_specific(void);
void test_open_busy(void);
void test_open_nested(void);
void test_unbound(void);		/* attach.c */
void test_follow(void);
void test_operations(void);		/* operations.c */
void test_strerror(void);
void test_add_event(void);		/* events.c */
void test_multiplex(void);
void test_regions(void);		/* regions.c */
void test_calibration(void);		/* calibration.c */
void test_region_incomplete(void);	/* regions.c */
bool map_child_checks(void);		/* users.c */
void test_unprivileged(void);
void test_threads(void);		/* threads.c */
void test_status_release(void);		/* status.c */
void test_sampling(void);		/* sampling.c */

#endif /* LIBPMUDEV_TEST_COMMON_H */
