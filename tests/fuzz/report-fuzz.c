// SPDX-License-Identifier: GPL-2.0
/*
 * report-fuzz: libFuzzer's entry into pmuctl report's reader
 * (tools/pmuctl/report-data.h, report_parse()), built with ASan and
 * UBSan (make fuzz, tests/host/report-hostile-test). Each input is a
 * perf.data file a stranger could hand over; it is read as pmuctl report
 * reads a file, with every sort key, and symbols looked for under a
 * folder that does not exist (the fuzzer must not open the machine's
 * files). Built with -DREPORT_FUZZ_MAIN instead of libFuzzer, it reads
 * each file named on its command line once: the regression inputs, on a
 * machine whose clang has no libFuzzer.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report-data.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct report_options o = {
		.keys = { KEY_COMM, KEY_PID, KEY_DSO, KEY_SYM }, .nkeys = 4,
		.symfs = "/nonexistent-symfs", .demangle = true,
	};
	/* report_parse() reads 8 zero bytes past the end, as report_read() leaves them. */
	char *copy = calloc(1, size + 8);
	struct report r;

	if (!copy)
		return 0;
	memcpy(copy, data, size);
	if (!report_parse(copy, size, &o, &r))
		report_free(&r);
	free(copy);
	return 0;
}

#ifdef REPORT_FUZZ_MAIN
int main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		FILE *f = fopen(argv[i], "rb");
		uint8_t *buf;
		long size;

		if (!f || fseek(f, 0, SEEK_END) || (size = ftell(f)) < 0 || fseek(f, 0, SEEK_SET)) {
			perror(argv[i]);
			return 2;
		}
		buf = malloc((size_t)size + 1);
		if (!buf || fread(buf, 1, (size_t)size, f) != (size_t)size) {
			perror(argv[i]);
			return 2;
		}
		fclose(f);
		LLVMFuzzerTestOneInput(buf, (size_t)size);
		free(buf);
	}
	return 0;
}
#endif
