// SPDX-License-Identifier: GPL-2.0
/*
 * record-unwind-unit: pmuctl record -g's decision whether a sample's link
 * register is its caller (tools/pmuctl/record-unwind.c), asked of a file
 * at offsets the caller names:
 *
 *   record-unwind-unit FILE OFFSET...
 *
 * prints "OFFSET caller", "OFFSET stale" or "OFFSET unknown" per offset.
 * tests/host/record-test runs it on an arm64 program built as Debian
 * builds it, at a leaf, at a function's first instruction and after its
 * prologue; and on files that have no unwind table.
 */
#include <stdio.h>
#include <stdlib.h>

#include "record-unwind.h"

int main(int argc, char **argv)
{
	static const char *const verdict[] = {
		[RECORD_LR_UNKNOWN] = "unknown", [RECORD_LR_CALLER] = "caller",
		[RECORD_LR_STALE] = "stale",
	};
	struct record_unwind *u;

	if (argc < 3 || record_unwind_new(&u)) {
		fprintf(stderr, "usage: record-unwind-unit FILE OFFSET...\n");
		return 2;
	}
	for (int i = 2; i < argc; i++) {
		unsigned long long off = strtoull(argv[i], NULL, 0);

		printf("%#llx %s\n", off, verdict[record_unwind_lr(u, argv[1], off)]);
	}
	record_unwind_free(u);
	return 0;
}
