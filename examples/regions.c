// SPDX-License-Identifier: MIT
/*
 * libpmudev's region API in a few lines: two ways to sum a matrix, each
 * wrapped in a named region, called ten times, printed as a table (or JSON
 * with --json). Each count is less the overhead of a begin/end pair, which
 * the library measures first and the report shows; --raw keeps it. The
 * order changes the code the compiler can make of the loop, so the
 * instructions retired, and on a real board the cache misses.
 * The handle counts this thread only (task mode), wherever it runs: no
 * pinning, and other processes on the CPU add nothing.
 * Events come from the command line (default: instructions:u); under QEMU
 * only cycles, CPU_CYCLES and, with --icount, instructions count.
 *
 *   regions [--json] [--raw] [EVENT...]
 */
#include <stdio.h>
#include <string.h>

#include <pmudev.h>

#define N 128

static int m[N][N];

static long __attribute__((noinline)) by_rows(void)
{
	long sum = 0;

	for (int i = 0; i < N; i++)
		for (int j = 0; j < N; j++)
			sum += m[i][j];
	return sum;
}

static long __attribute__((noinline)) by_columns(void)
{
	long sum = 0;

	for (int j = 0; j < N; j++)
		for (int i = 0; i < N; i++)
			sum += m[i][j];
	return sum;
}

static int fail(const char *what, int err)
{
	fprintf(stderr, "regions: %s: %s\n", what, pmudev_strerror(err));
	return 1;
}

int main(int argc, char **argv)
{
	enum pmudev_format format = PMUDEV_FORMAT_TABLE;
	bool raw = false;
	struct pmudev_regions *regions;
	struct pmudev *pmu;
	int rows, columns, err, nevents = 0;
	long check = 0;
	char why[160];

	for (int i = 0; i < N; i++)
		for (int j = 0; j < N; j++)
			m[i][j] = i ^ j;
	/* Task mode: this thread, on whatever CPU the scheduler picks. */
	err = pmudev_open(&pmu, PMUDEV_CPU_ANY, 0);
	if (err)
		return fail("open", err);
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--json")) {
			format = PMUDEV_FORMAT_JSON;
			continue;
		}
		if (!strcmp(argv[i], "--raw")) {
			raw = true;
			continue;
		}
		err = pmudev_add_event(pmu, argv[i]);
		if (err < 0) {
			if (pmudev_event_error(argv[i], pmudev_info(pmu), why, sizeof(why)))
				fprintf(stderr, "regions: %s\n", why);
			return fail(argv[i], err);
		}
		nevents++;
	}
	if (!nevents && (err = pmudev_add_event(pmu, "instructions:u")) < 0)
		return fail("instructions:u", err);

	err = pmudev_regions_new(pmu, &regions);
	if (err)
		return fail("regions", err);
	if (raw)
		pmudev_regions_set_calibration(regions, false);
	/* Look ids up once: begin and end then cost a read(2) each. */
	rows = pmudev_region(regions, "by rows");
	columns = pmudev_region(regions, "by columns");
	for (int k = 0; k < 10; k++) {
		pmudev_region_begin(regions, rows);
		check += by_rows();
		pmudev_region_end(regions, rows);
		pmudev_region_begin(regions, columns);
		check -= by_columns();
		pmudev_region_end(regions, columns);
	}
	pmudev_regions_print(regions, stdout, format);
	pmudev_regions_free(regions);
	pmudev_close(pmu);
	return check != 0;
}
