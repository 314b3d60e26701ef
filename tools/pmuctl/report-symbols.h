/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pmuctl report's symbols (report-symbols.c): the function an address of
 * a mapped file is in, read with elfutils' libdwfl from the file's own
 * symbol tables or its separate debug information, one ELF per file,
 * opened once.
 */
#ifndef PMUCTL_REPORT_SYMBOLS_H
#define PMUCTL_REPORT_SYMBOLS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct report_symbols;

/*
 * @symfs: a folder the files are looked for under (perf's --symfs), as
 * their root, or NULL; @demangle: C++ names as perf shows them (else as
 * in the file); @own_recording: the recording is the reader's own, and
 * a file it lists no build ID for may be read.
 */
int report_symbols_new(struct report_symbols **s, const char *symfs, bool demangle,
		       bool own_recording);
void report_symbols_free(struct report_symbols *s);

/*
 * The function at @ip in file @path, mapped at @start from file offset
 * @pgoff: its name, or NULL (no such file, no function there). *@addr gets
 * @ip as an address of the file (its p_vaddr terms), or the offset in
 * the mapping when the file cannot be read.
 */
const char *report_symbols_find(struct report_symbols *s, const char *path, uint64_t start,
				uint64_t pgoff, uint64_t ip, uint64_t *addr);

/*
 * The build ID the recording lists for @path: @size bytes of @id (at most
 * 20, perf's most); if not
 * @exact_size, an old perf's 20 bytes, a shorter ID padded with zeros.
 * Before the first report_symbols_find(). 0, -EINVAL or -ENOMEM.
 */
int report_symbols_expect(struct report_symbols *s, const char *path, const uint8_t *id,
			  size_t size, bool exact_size);

/* Calls @fn for each file not read because it is not the one recorded, and why. */
void report_symbols_refused(const struct report_symbols *s,
			    void (*fn)(const char *path, const char *why, void *arg), void *arg);

#endif /* PMUCTL_REPORT_SYMBOLS_H */
