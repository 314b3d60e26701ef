/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A mapped file's offset as the address its ELF file gives it
 * (elf-offset.c): what a sample's place in a mapping (its offset, from
 * /proc/PID/maps or an MMAP2 record) is in the file's symbols and unwind
 * tables, for record's and report's readers alike.
 */
#ifndef PMUCTL_ELF_OFFSET_H
#define PMUCTL_ELF_OFFSET_H

#include <stdbool.h>
#include <stdint.h>
#include <libelf.h>

/* The address of file offset @off in @elf's loadable segments; false if none holds it. */
bool elf_offset_address(Elf *elf, uint64_t off, uint64_t *addr);

#endif /* PMUCTL_ELF_OFFSET_H */
