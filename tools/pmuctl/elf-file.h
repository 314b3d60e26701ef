/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What record's and report's readers of the programs' files share
 * (elf-file.c): a file kept only if it is a regular one, and a mapped
 * file's offset as the address its ELF file gives it (what a sample's
 * place in a mapping, from /proc/PID/maps or an MMAP2 record, is in the
 * file's symbols and unwind tables).
 */
#ifndef PMUCTL_ELF_FILE_H
#define PMUCTL_ELF_FILE_H

#include <stdbool.h>
#include <stdint.h>
#include <libelf.h>

/*
 * @fd if it is a regular file, else -1 with @fd closed: a path a mapping
 * names may be a FIFO or a device, which must neither block nor be read
 * (open it O_NONBLOCK). -1 stays -1.
 */
int elf_file_regular(int fd);

/* The address of file offset @off in @elf's loadable segments; false if none holds it. */
bool elf_file_address(Elf *elf, uint64_t off, uint64_t *addr);

#endif /* PMUCTL_ELF_FILE_H */
