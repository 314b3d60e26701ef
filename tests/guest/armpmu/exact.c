// SPDX-License-Identifier: GPL-2.0
/*
 * armpmu-test, --icount only: INST_RETIRED:u counts loops of known length
 * to the instruction.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "common.h"

/* icount: INST_RETIRED:u counts loop_n() to the instruction. */
void test_exact(void)
{
	static const unsigned long sizes[] = { 1, 100, 10000, 1000000 };
	struct armpmu_counts c;
	uint64_t base[5];
	char name[96];
	unsigned int i;
	int fd, err;
	bool same;

	if (!icount) {
		tap_skip("INST_RETIRED:u counts loops exactly", "exact counts need --icount");
		return;
	}
	if (!setup_bound(0, "exact counts: setup", &fd))
		return;
	err = program(fd, 0, ARMPMU_EV_INST_RETIRED, EXCL_K);
	err |= program(fd, 1, ARMPMU_EV_CPU_CYCLES, EXCL_K);
	if (!tap_errno(err, 0, "icount: program INST_RETIRED:u and CPU_CYCLES:u")) {
		dev_close(&fd);
		return;
	}
	same = true;
	for (i = 0; i < 5; i++) {
		err |= measure_loop(fd, 0, &c);
		base[i] = c.events[0];
		same &= base[i] == base[0];
	}
	tap_note("INST_RETIRED:u of loop_n(0): %llu %llu %llu %llu %llu", (ull)base[0],
		 (ull)base[1], (ull)base[2], (ull)base[3], (ull)base[4]);
	tap_check(!err && same && base[0] > 0, "icount: count(0) is identical across 5 runs",
		  "%s: %llu %llu %llu %llu %llu", tap_errname(err), (ull)base[0],
		  (ull)base[1], (ull)base[2], (ull)base[3], (ull)base[4]);
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		uint64_t want = base[0] + LOOP_INSNS_PER_ITER * (uint64_t)sizes[i];

		err = measure_loop(fd, sizes[i], &c);
		snprintf(name, sizeof(name),
			 "icount: INST_RETIRED:u of loop_n(%lu) == count(0) + %d * %lu",
			 sizes[i], LOOP_INSNS_PER_ITER, sizes[i]);
		tap_check(!err && c.events[0] == want, name,
			  "%s: expected %llu, got %llu (difference %lld)", tap_errname(err),
			  (ull)want, (ull)c.events[0],
			  (long long)(c.events[0] - want));
		if (sizes[i] == 10000)
			tap_check(!err && c.events[1] == c.events[0],
				  "icount: CPU_CYCLES:u == INST_RETIRED:u",
				  "cycles:u %llu, instructions:u %llu",
				  (ull)c.events[1], (ull)c.events[0]);
	}
	dev_close(&fd);
}
