// SPDX-License-Identifier: GPL-2.0
/*
 * libdlopen-late.so: the library tests/guest/dlopen/dlopen-work opens
 * after it starts; late_work is where that program spends most of its
 * time.
 */

void late_work(unsigned long n);

static volatile unsigned long late_sink;

void late_work(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		late_sink += i;
}
