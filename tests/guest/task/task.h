/* SPDX-License-Identifier: GPL-2.0 */
/*
 * task-test's topics beside its main (tests/guest/task-test.c): each file
 * here tests one side of task mode and prints TAP through tap.h.
 */
#ifndef ARMPMU_TESTS_TASK_H
#define ARMPMU_TESTS_TASK_H

#include <stdbool.h>

/* The options task-test was run with, and the board's counters. */
extern bool task_icount;
extern unsigned int task_num_counters;

/* armed.c: calls refused on an armed file change nothing. */
void test_armed_refusals(void);

/* admin.c: what an opener may see (FILE_STATUS) and end (RELEASE*) of others' files. */
void test_file_visibility(void);
void test_release_by_opener(void);

#endif /* ARMPMU_TESTS_TASK_H */
