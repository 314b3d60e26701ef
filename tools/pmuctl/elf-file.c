// SPDX-License-Identifier: GPL-2.0
/* What record's and report's readers of the programs' files share (elf-file.h). */
#include <gelf.h>
#include <unistd.h>
#include <sys/stat.h>

#include "elf-file.h"

int elf_file_regular(int fd)
{
	struct stat st;

	if (fd >= 0 && (fstat(fd, &st) || !S_ISREG(st.st_mode))) {
		close(fd);
		return -1;
	}
	return fd;
}

bool elf_file_address(Elf *elf, uint64_t off, uint64_t *addr)
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
