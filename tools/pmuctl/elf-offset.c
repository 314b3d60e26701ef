// SPDX-License-Identifier: GPL-2.0
/* A mapped file's offset as its ELF address (elf-offset.h). */
#include <gelf.h>

#include "elf-offset.h"

bool elf_offset_address(Elf *elf, uint64_t off, uint64_t *addr)
{
	size_t n;

	if (elf_getphdrnum(elf, &n))
		return false;
	for (size_t i = 0; i < n; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		if (off >= ph.p_offset && off - ph.p_offset < ph.p_filesz) {
			*addr = off - ph.p_offset + ph.p_vaddr;
			return true;
		}
	}
	return false;
}
