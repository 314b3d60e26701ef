/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pmuctl report's threads and processes (report-tasks.c), as COMM, FORK
 * and MMAP records make them: a thread's name, a process's mappings. A
 * stranger's file may name any number of them, so they are found through
 * an index, a process's mappings are kept in a balanced tree (the C
 * library's tsearch(3): a lookup and an insertion take log time in any
 * order the file gives them), a fork shares its parent's until one of the two maps a file
 * (then it copies them, as perf's maps__clone() does at the fork), and
 * the mappings held in all copies together are bounded by the file's
 * size: a file whose forks would copy more is refused, never read at the
 * cost of the machine's memory.
 *
 * A pointer returned here holds until the next call that adds a thread
 * or a process.
 */
#ifndef PMUCTL_REPORT_TASKS_H
#define PMUCTL_REPORT_TASKS_H

#include <stddef.h>
#include <stdint.h>

#include "report-index.h"

struct report_map {
	uint64_t start, end, pgoff;
	const char *path;	/* in the file read, not NUL-terminated */
	size_t path_len;
};

struct report_thread {
	uint32_t tid, pid;
	char comm[32];
};

/* Mappings, none overlapping, in a tsearch(3) tree; shared by @refs processes. */
struct report_maps {
	size_t refs, n;
	void *root;
};

struct report_process {
	uint32_t pid;
	struct report_maps *maps;	/* NULL: none yet */
};

struct report_tasks {
	struct report_thread *threads;
	size_t nthreads;
	struct report_index thread_index;
	struct report_process *procs;
	size_t nprocs;
	struct report_index proc_index;
	size_t maps, max_maps;	/* mappings in all copies; their bound */
};

/* @max_maps: the most mappings all copies may hold at once. */
void report_tasks_init(struct report_tasks *t, size_t max_maps);
void report_tasks_free(struct report_tasks *t);

/* Thread @tid (of process @pid if new, named ":TID" then): NULL if out of memory. */
struct report_thread *report_tasks_thread(struct report_tasks *t, uint32_t pid, uint32_t tid);

/* Process @pid, made if new: NULL if out of memory. */
struct report_process *report_tasks_process(struct report_tasks *t, uint32_t pid);

/*
 * Maps @m into process @pid, in place of the mappings it overlaps, as
 * perf's maps do. 0, -ENOMEM, or -EFBIG past the bound.
 */
int report_tasks_map(struct report_tasks *t, uint32_t pid, const struct report_map *m);

/* Process @pid starts with @ppid's mappings, shared until either maps a file: 0 or -ENOMEM. */
int report_tasks_fork(struct report_tasks *t, uint32_t pid, uint32_t ppid);

/* Process @pid runs a new program: no mapping of the old one's stays. */
void report_tasks_exec(struct report_tasks *t, uint32_t pid);

/* The mapping of process @pid that holds @ip, or NULL. */
const struct report_map *report_tasks_find_map(const struct report_tasks *t, uint32_t pid,
					       uint64_t ip);

#endif /* PMUCTL_REPORT_TASKS_H */
