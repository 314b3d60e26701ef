// SPDX-License-Identifier: GPL-2.0
/*
 * Whether a sample's link register is its caller (record-unwind.h): the
 * file's .eh_frame, read with elfutils' libdw, asked where the return
 * address is at the sampled code. Each file is opened once, only if it is
 * a regular file, and kept with its unwind table until the end.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <elfutils/libdw.h>

#include "elf-file.h"
#include "record-unwind.h"

/* DWARF's number of x30, the AArch64 link register. */
#define DWARF_REG_LR	30

struct unwind_file {
	char *path;
	int fd;			/* -1: not a file we could read */
	Elf *elf;
	Dwarf_CFI *cfi;		/* NULL: no .eh_frame */
};

struct record_unwind {
	struct unwind_file *files;
	size_t nfiles;
};

int record_unwind_new(struct record_unwind **u)
{
	*u = calloc(1, sizeof(**u));
	if (!*u)
		return -ENOMEM;
	elf_version(EV_CURRENT);
	return 0;
}

void record_unwind_free(struct record_unwind *u)
{
	if (!u)
		return;
	for (size_t i = 0; i < u->nfiles; i++) {
		struct unwind_file *f = &u->files[i];

		if (f->cfi)
			dwarf_cfi_end(f->cfi);
		if (f->elf)
			elf_end(f->elf);
		if (f->fd >= 0)
			close(f->fd);
		free(f->path);
	}
	free(u->files);
	free(u);
}

/* @path's entry, opened the first time: NULL only without memory. */
static struct unwind_file *file_of(struct record_unwind *u, const char *path)
{
	struct unwind_file *f;

	for (size_t i = 0; i < u->nfiles; i++)
		if (!strcmp(u->files[i].path, path))
			return &u->files[i];
	f = realloc(u->files, (u->nfiles + 1) * sizeof(*f));
	if (!f)
		return NULL;
	u->files = f;
	f += u->nfiles;
	*f = (struct unwind_file){ .path = strdup(path), .fd = -1 };
	if (!f->path)
		return NULL;
	u->nfiles++;
	/* Non-blocking: a FIFO in its place must not hang the recording. */
	f->fd = elf_file_regular(open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK));
	if (f->fd >= 0)
		f->elf = elf_begin(f->fd, ELF_C_READ_MMAP, NULL);
	if (f->elf)
		f->cfi = dwarf_getcfi_elf(f->elf);
	return f;
}

enum record_lr record_unwind_lr(struct record_unwind *u, const char *path, uint64_t offset)
{
	struct unwind_file *f = file_of(u, path);
	Dwarf_Op ops_mem[3], *ops;
	Dwarf_Frame *frame = NULL;
	enum record_lr lr = RECORD_LR_UNKNOWN;
	uint64_t vaddr;
	size_t nops;

	if (!f || !f->cfi || !elf_file_address(f->elf, offset, &vaddr) ||
	    dwarf_cfi_addrframe(f->cfi, vaddr, &frame) || !frame)
		return RECORD_LR_UNKNOWN;
	/* "Same value": this function has not moved its return address out of x30. */
	if (!dwarf_frame_register(frame, DWARF_REG_LR, ops_mem, &ops, &nops))
		lr = !nops && !ops ? RECORD_LR_CALLER : RECORD_LR_STALE;
	free(frame);
	return lr;
}
