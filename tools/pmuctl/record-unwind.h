/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Whether a sample's link register belongs in its call chain (pmuctl
 * record -g, record-unwind.c). The driver walks frame records from x29
 * (armpmu(4), Call chains); in a leaf function, which keeps no frame
 * record, and in any function before its prologue has saved x30, x29 is
 * still the caller's, so the caller is only in the link register. The
 * function's unwind table says which it is: where the return address is
 * still in x30, the link register goes into the chain, as perf's arm64
 * leaf fix-up decides it.
 */
#ifndef PMUCTL_RECORD_UNWIND_H
#define PMUCTL_RECORD_UNWIND_H

#include <stdint.h>

enum record_lr {
	RECORD_LR_UNKNOWN,	/* no unwind table for the address: left out */
	RECORD_LR_CALLER,	/* the return address is in x30: it is the caller */
	RECORD_LR_STALE,	/* it was saved (in the frame record): x30 is not the caller */
};

struct record_unwind;

/* 0 or -ENOMEM. */
int record_unwind_new(struct record_unwind **u);
void record_unwind_free(struct record_unwind *u);

/*
 * The link register's part at the code at @offset in the regular file
 * @path (an ELF file, opened once and kept). AArch64 only: its register
 * numbers.
 */
enum record_lr record_unwind_lr(struct record_unwind *u, const char *path, uint64_t offset);

#endif /* PMUCTL_RECORD_UNWIND_H */
