/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pmuctl report's reading of perf.data (report-data.c): pmuctl record's
 * files and perf record's own. The records are taken in time order, as
 * perf report takes them: COMM, FORK and EXIT name the threads, MMAP and
 * MMAP2 place the files in each process, and each sample's weight per
 * event (a group read's difference from the previous one, or the sample's
 * period) goes to its row, a row per value of the sort keys.
 */
#ifndef PMUCTL_REPORT_DATA_H
#define PMUCTL_REPORT_DATA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define REPORT_MAX_EVENTS	64
#define REPORT_MAX_KEYS		4

enum report_key { KEY_COMM, KEY_PID, KEY_DSO, KEY_SYM };

struct report_row {
	char *key[REPORT_MAX_KEYS];
	uint64_t weight[REPORT_MAX_EVENTS];
};

struct report {
	unsigned int nevents;
	char names[REPORT_MAX_EVENTS][64];
	uint64_t totals[REPORT_MAX_EVENTS];
	uint64_t weighed[REPORT_MAX_EVENTS];	/* samples that gave the event weight */
	bool grouped;		/* the file has a group (HEADER_GROUP_DESC) */
	uint64_t samples;		/* in the file */
	uint64_t lost, lost_chunks;	/* the LOST records' sum, and how many */
	uint64_t lost_samples;		/* the LOST_SAMPLES records' sum */
	struct report_row *rows;
	size_t nrows;
	char **refused;		/* "PATH: WHY", files not read for their symbols */
	size_t nrefused;
};

/* A sort key by perf's name ("comm", "pid", "dso", "sym"): 0, or -1 if unknown. */
int report_key_parse(const char *name, enum report_key *key);

/* How a file is read. */
struct report_options {
	enum report_key keys[REPORT_MAX_KEYS];	/* a row per distinct value of these */
	unsigned int nkeys;
	const char *symfs;	/* the programs' files under this folder, or NULL */
	bool demangle;		/* C++ names as perf shows them */
	bool own_recording;	/* the reader's own: files without a listed build ID are read */
};

/* Reads @path into @r: 0, or says why not and returns EXIT_FAILURE. */
int report_read(const char *path, const struct report_options *o, struct report *r);
void report_free(struct report *r);

/*
 * report_read()'s reading of a file already in memory, @size bytes at
 * @base (followed by 8 bytes of zeros): 0, or -ENODATA (too short),
 * -EILSEQ (not perf.data of this byte order), -EPROTO (malformed),
 * -EFBIG (its mappings would exceed the bound), -ENOMEM. The fuzzer's
 * way in (tests/fuzz).
 */
int report_parse(const char *base, size_t size, const struct report_options *o,
		 struct report *r);

#endif /* PMUCTL_REPORT_DATA_H */
