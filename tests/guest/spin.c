// SPDX-License-Identifier: GPL-2.0
/*
 * spin N: runs loop_n(N) and exits, so that two runs with N of the same
 * number of digits differ by exactly LOOP_INSNS_PER_ITER * their difference
 * in user-mode instructions (pmuctl stat's exactness test).
 */
#include <stdlib.h>

#include "pmu-asm.h"

int main(int argc, char **argv)
{
	if (argc != 2)
		return 2;
	loop_n(strtoul(argv[1], NULL, 10));
	return 0;
}
