/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pmuctl record's file (record-file.c): the driver's records
 * (ARMPMU_IOC_READ_SAMPLES) turned into perf.data's (perfdata.h), with the
 * programs' mappings read from /proc/PID/maps as they run.
 *
 * The driver's records come in each CPU's order; perf wants them in time
 * order, and a mapping before the samples it explains. Records are held,
 * and written sorted by time when record_file_flush() is told that none
 * older can come any more. A mapping found by a look at /proc/PID/maps is
 * dated at the process's exec for the first look after it, else at the
 * previous look: it was there before every sample taken since.
 */
#ifndef PMUCTL_RECORD_FILE_H
#define PMUCTL_RECORD_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "perfdata.h"

/* Where an event of the group (after the leader) is in a driver sample. */
struct record_source {
	bool cycles;		/* the cycle counter */
	unsigned int slot;	/* else this slot of value[] */
};

struct record_file;

struct record_stats {
	uint64_t samples;	/* written */
	uint64_t lost;		/* the driver's LOST records' sum */
	uint64_t bytes;		/* of the data section */
	unsigned int let_go;	/* threads let go at an exec */
	uint64_t chains_cut;	/* call chains the driver's walk cut short */
	uint64_t no_frames;	/* samples of AArch32 code: no frames to walk */
};

/*
 * Creates @path with the events of @cfg; @src[i] says where events[i + 1]
 * is in the driver's samples. 0 or a negative errno.
 */
int record_file_open(struct record_file **rf, const char *path, const struct perfdata_config *cfg,
		     const struct record_source *src);

/*
 * A thread that was there before the recording (-p, -t; a command's
 * first): its name at @time, @name or else /proc's, and its process's
 * mappings at the next look.
 */
int record_file_thread(struct record_file *rf, uint32_t pid, uint32_t tid, uint64_t time,
		       const char *name);

/* @len bytes of the driver's records, held. 0 or a negative errno (-EPROTO: malformed). */
int record_file_add(struct record_file *rf, const void *buf, size_t len);

/*
 * Looks at the mappings of every process that may be alive, as of @now
 * (CLOCK_MONOTONIC ns), and holds a record of each executable one new.
 */
void record_file_scan(struct record_file *rf, uint64_t now);

/* Writes the held records made before @before, in time order. */
int record_file_flush(struct record_file *rf, uint64_t before);

/* Writes the rest and the file's end; frees @rf. 0 or a negative errno. */
int record_file_close(struct record_file *rf, struct record_stats *st);

/* The same figures while it is open. */
void record_file_stats(const struct record_file *rf, struct record_stats *st);

#endif /* PMUCTL_RECORD_FILE_H */
