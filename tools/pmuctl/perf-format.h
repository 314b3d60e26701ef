/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The facts of perf.data's layout that are not in
 * include/uapi/linux/perf_event.h, once for its writer (perfdata.c) and
 * its reader (report-data.c): from Linux's
 * tools/perf/Documentation/perf.data-file-format.txt and
 * tools/perf/util/header.h.
 */
#ifndef PMUCTL_PERF_FORMAT_H
#define PMUCTL_PERF_FORMAT_H

/* perf's magic, "PERFILE2" as a number, so that it also says the byte order. */
#define PERF_MAGIC	0x32454c4946524550ULL

/* The feature bits used here. */
enum {
	FEAT_BUILD_ID = 2,
	FEAT_HOSTNAME = 3,
	FEAT_OSRELEASE = 4,
	FEAT_VERSION = 5,
	FEAT_ARCH = 6,
	FEAT_NRCPUS = 7,
	FEAT_CPUDESC = 8,
	FEAT_TOTAL_MEM = 10,
	FEAT_CMDLINE = 11,
	FEAT_EVENT_DESC = 12,
	FEAT_GROUP_DESC = 17,
	FEAT_SAMPLE_TIME = 21,
	FEAT_CLOCKID = 23,
	FEAT_BITS = 256,
};

/*
 * perf record's own record type for a file's build ID, as the BUILD_ID
 * feature lists them: the header, a pid, 24 bytes of ID, the path
 * (NUL-padded to 8). With PERF_RECORD_MISC_BUILD_ID_SIZE in misc, the ID's
 * length is the 21st of its bytes; without it (perfs before 5.12), the ID
 * is 20 bytes.
 */
#define RECORD_HEADER_BUILD_ID		67
#define PERF_RECORD_MISC_BUILD_ID_SIZE	(1 << 15)
#define BUILD_ID_BYTES			20
#define BUILD_ID_FIELD			24

/* Strings in feature sections are padded to this (perf's NAME_ALIGN). */
#define STRING_ALIGN	64

#endif /* PMUCTL_PERF_FORMAT_H */
