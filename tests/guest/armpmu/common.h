/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the topics of armpmu-test share: the board under test and what INFO
 * said of it, the options, and a few helpers (common.c). Each topic is one
 * file of this folder; tests/guest/armpmu-test.c runs them in order.
 */
#ifndef ARMPMU_TEST_COMMON_H
#define ARMPMU_TEST_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/armpmu.h>
#include <linux/armpmu_arch.h>

#include "../devio.h"
#include "../tap.h"
#include "../users.h"

/* Mode filters, short. */
#define EXCL_K			ARMPMU_EXCLUDE_KERNEL
#define EXCL_U			ARMPMU_EXCLUDE_USER

/*
 * Loop sizes (trips of loop_n, two instructions each). TCG runs a few
 * hundred million guest instructions a second: these take milliseconds.
 */
#define SPIN			200000UL
#define SPIN_BIG		2000000UL

#define CPU1_ONLINE		"/sys/devices/system/cpu/cpu1/online"

/* What each board's INFO must say, and what QEMU's model of it does. */
struct board {
	const char *name;
	unsigned int num_counters;
	unsigned int part;		/* MIDR[15:4]; 0: not checked */
	unsigned int min_version, max_version;
	bool events_known;
	bool filters;			/* CAN_FILTER: PMUv2 and later */
	bool counts;			/* QEMU advances its counters */
	unsigned int cpus;		/* online CPUs without --icount, at least */
};

extern const struct board *board;
extern bool icount;
extern unsigned int ncpus;		/* online at start */
extern unsigned int num_counters;	/* from INFO, else the board's */
extern unsigned int event_bits;		/* from INFO */
extern unsigned int root_excl_k;	/* EXCL_K where the board filters, else 0 */
extern long page_size;

/* What a forked child reports back, in memory shared with the parent. */
struct child_report {
	int err[12];
	struct armpmu_info info;
	struct armpmu_counts c[2];
};

extern struct child_report *report;
/* A file root opened, for a child to use after dropping root; else -1. */
extern int inherited_fd;

typedef void (*child_fn)(struct child_report *r);

/* common.c */
const struct board *find_board(const char *name);	/* NULL: no such board */
int measure_sleep(int fd, unsigned int ms, struct armpmu_counts *c);
bool counts_clear(const struct armpmu_counts *c, char *why, size_t len);
void *unmapped_address(void);
const char *run_as(enum guest_user who, child_fn fn);
const char *run_as_lab(child_fn fn);
bool setup_bound(__u32 cpu, const char *what, int *fd);
bool rebind_cpu0(const char *bound, const char *clean, int *fd);

/* The topics, in the order armpmu-test runs them. */
void test_compat(void);			/* info.c */
void test_device(void);
void test_info(void);
void test_counting(void);		/* counting.c */
void test_cycles_event(void);
void test_divider(void);		/* divider.c */
void test_filters(void);		/* filters.c */
void test_exact(void);			/* exact.c */
void test_multiplex(void);		/* multiplex.c */
void test_static_counters(void);	/* static.c */
void test_read_syscall(void);		/* read.c */
void test_errors(void);			/* errors.c */
void test_unprivileged(void);		/* users.c */
void test_cpu_mode_opt_in(void);
void test_close_releases(void);		/* ownership.c */
void test_killed_owner(void);
void test_other_cpu(void);
void test_hotplug(void);		/* hotplug.c */
void test_status_release(void);		/* status.c */
void test_poll_param(void);		/* module.c */
void test_unload(void);

#endif /* ARMPMU_TEST_COMMON_H */
