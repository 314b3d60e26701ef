/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perf.data, perf's own file format (perfdata.c), written as perf record
 * writes it for `perf record -e '{cpu-clock,EVENTS}:S'`: a cpu-clock
 * leader that samples by time and reads the whole group at each sample
 * (PERF_SAMPLE_READ, PERF_FORMAT_GROUP | PERF_FORMAT_ID), so that perf
 * report --group shows a column per event. The header, the attributes
 * and their IDs first; the records as they come; the feature sections perf
 * report reads (hostname, release, architecture, CPUs, command line,
 * event and group descriptions, build IDs, first and last sample) at the
 * end, and then the header again with the sizes.
 *
 * perf turns the group's values into each sample's weights by taking the
 * previous sample's values from them, in time order: samples must be
 * given in time order, with what each event counted since the previous
 * sample of any thread; the writer keeps the running totals.
 */
#ifndef PMUCTL_PERFDATA_H
#define PMUCTL_PERFDATA_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* The leader, cpu-clock, and up to 32 events read with it. */
#define PERFDATA_MAX_EVENTS	33

struct perfdata_event {
	char name[64];		/* as perf names it: "instructions:u", "r11:u" */
	uint32_t type;		/* PERF_TYPE_* */
	uint64_t config;
};

struct perfdata_config {
	unsigned int nevents;	/* events[0] is the leader, cpu-clock */
	struct perfdata_event events[PERFDATA_MAX_EVENTS];
	bool freq;		/* period is a frequency in Hz (perf's -F), else ns (-c) */
	uint64_t period;
	bool exclude_kernel;	/* user mode only (":u") */
	bool enable_on_exec;	/* a command's: counting started at its exec */
	bool callchain;		/* samples carry call chains (PERF_SAMPLE_CALLCHAIN) */
	uint16_t max_stack;	/* their deepest, for the attribute */
	int argc;		/* the recording's command line, for CMDLINE */
	char **argv;
};

/* Where and when a record happened: the sample ID every record carries. */
struct perfdata_where {
	uint32_t pid, tid;
	uint64_t time;		/* ns */
	uint32_t cpu;
};

struct perfdata;

/* The leader cpu-clock's perf name for a user-only or a whole recording. */
void perfdata_leader(struct perfdata_config *cfg);

/*
 * Creates @path (truncated) and writes the header, attributes and IDs.
 * Returns 0 or a negative errno.
 */
int perfdata_create(struct perfdata **pd, const char *path, const struct perfdata_config *cfg);

/* A thread's name; @exec: at an exec (PERF_RECORD_MISC_COMM_EXEC). */
int perfdata_comm(struct perfdata *pd, const struct perfdata_where *w, const char *comm,
		  bool exec);
/* A new thread @w->tid of process @w->pid, made by @ptid of @ppid. */
int perfdata_fork(struct perfdata *pd, const struct perfdata_where *w, uint32_t ppid,
		  uint32_t ptid);
/* Thread @w->tid ended (or stopped being recorded). */
int perfdata_exit(struct perfdata *pd, const struct perfdata_where *w, uint32_t ppid,
		  uint32_t ptid);

/* An executable mapping of process @w->pid, as /proc/PID/maps shows it. */
struct perfdata_map {
	uint64_t start, len, pgoff;
	uint32_t maj, min;
	uint64_t ino;
	uint32_t prot, flags;	/* PROT_*, MAP_* */
	const char *path;	/* the file, or "[vdso]" ... */
};
int perfdata_mmap2(struct perfdata *pd, const struct perfdata_where *w,
		   const struct perfdata_map *m);

/*
 * A sample at user-mode PC @ip (@kernel: kernel mode) that ran @period ns
 * since the thread's previous one, with @counted[i] the count of
 * events[i + 1] since then. With cfg.callchain, @ips[@nips] is its call
 * chain as the kernel gives perf one: its context (PERF_CONTEXT_USER),
 * the PC, then the callers, innermost first; NULL for the PC alone.
 */
int perfdata_sample(struct perfdata *pd, const struct perfdata_where *w, uint64_t ip,
		    bool kernel, uint64_t period, const uint64_t *counted, const uint64_t *ips,
		    uint32_t nips);

/* @lost samples dropped (PERF_RECORD_LOST). */
int perfdata_lost(struct perfdata *pd, const struct perfdata_where *w, uint64_t lost);

/*
 * A DSO's build ID for the BUILD_ID feature (pid -1 for every process),
 * if it has one; @size bytes of @id, at most 20.
 */
int perfdata_build_id(struct perfdata *pd, const char *path, const uint8_t *id, size_t size);

/* Samples written so far, and the data section's bytes. */
uint64_t perfdata_samples(const struct perfdata *pd);
uint64_t perfdata_bytes(const struct perfdata *pd);

/*
 * Writes the feature sections and the header, and closes the file: 0 or
 * a negative errno (the file is then incomplete). Frees @pd either way.
 */
int perfdata_finish(struct perfdata *pd);

#endif /* PMUCTL_PERFDATA_H */
