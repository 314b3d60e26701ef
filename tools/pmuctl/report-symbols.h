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
#include <stdint.h>

struct report_symbols;

/*
 * @symfs: a folder the files are looked for under (perf's --symfs), or
 * NULL; @demangle: C++ names as perf shows them (else as in the file).
 */
int report_symbols_new(struct report_symbols **s, const char *symfs, bool demangle);
void report_symbols_free(struct report_symbols *s);

/*
 * The function at @ip in file @path, mapped at @start from file offset
 * @pgoff: its name, or NULL (no such file, no function there). *@addr gets
 * @ip as an address of the file (its p_vaddr terms), or the offset in
 * the mapping when the file cannot be read.
 */
const char *report_symbols_find(struct report_symbols *s, const char *path, uint64_t start,
				uint64_t pgoff, uint64_t ip, uint64_t *addr);

#endif /* PMUCTL_REPORT_SYMBOLS_H */
