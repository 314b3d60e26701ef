// SPDX-License-Identifier: GPL-2.0
/*
 * armpmu-test: the exception-level filters: user only, kernel only and
 * neither, against the unfiltered cycle counter.
 */
#include <stdint.h>

#include "common.h"

/* Exception-level filters on CPU_CYCLES (implemented on every board). */
void test_filters(void)
{
	struct armpmu_counts c;
	uint64_t u, k, sum;
	int fd, err;

	if (!setup_bound(0, "filters: setup", &fd))
		return;
	err = program(fd, 0, ARMPMU_EV_CPU_CYCLES, EXCL_K);
	err |= program(fd, 1, ARMPMU_EV_CPU_CYCLES, EXCL_U);
	err |= program(fd, 2, ARMPMU_EV_CPU_CYCLES, EXCL_U | EXCL_K);
	err |= measure_loop(fd, 5 * SPIN_BIG, &c);
	tap_errno(err, 0, "CPU_CYCLES:u, CPU_CYCLES:k and CPU_CYCLES excluding both");
	u = c.events[0];
	k = c.events[1];
	sum = u + k;
	tap_note("filters: user %llu, kernel %llu, none %llu, cycle counter %llu",
		 (ull)u, (ull)k, (ull)c.events[2], (ull)c.cycles);
	tap_check(!err && c.events[2] == 0, "excluding user and kernel counts nothing",
		  "got %llu", (ull)c.events[2]);
	/*
	 * Without icount, the kernel's share follows host time: QEMU stalls
	 * (other vCPU's exclusive work, a busy host) while CPU 0 is in the
	 * kernel can make it as large as the loop's. The sum below, and the
	 * uid 1000 loop (user-only cycle counter vs CPU_CYCLES:u), check the
	 * filters there.
	 */
	if (icount)
		tap_check(!err && u > 0 && k * 10 < u,
			  "icount: a user-mode loop: kernel-only count < 10% of user-only count",
			  "user %llu, kernel %llu", (ull)u, (ull)k);
	else
		tap_check(!err && u > 0, "a user-mode loop counts in user mode",
			  "user %llu", (ull)u);
	if (icount)
		tap_check(!err && sum == c.cycles,
			  "icount: user + kernel == the unfiltered cycle counter",
			  "user %llu + kernel %llu = %llu, cycles %llu", (ull)u, (ull)k,
			  (ull)sum, (ull)c.cycles);
	else
		tap_check(!err && within_pct(sum, c.cycles, 1),
			  "user + kernel within 1% of the unfiltered cycle counter",
			  "user %llu + kernel %llu = %llu, cycles %llu", (ull)u, (ull)k,
			  (ull)sum, (ull)c.cycles);
	dev_close(&fd);
}
