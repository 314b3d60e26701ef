// SPDX-License-Identifier: MIT
/*
 * Three ways to count the set bits of 4096 words, each measured with
 * /dev/armpmu: retired user-mode instructions and cycles.
 *
 * What it teaches: the work an algorithm does shows up in the instructions
 * it retires. Testing every bit costs the same for any data; clearing the
 * lowest set bit (x &= x - 1) costs one trip per set bit; a lookup table
 * costs four lookups per word whatever the data.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <linux/armpmu.h>
#include <linux/armpmu_arch.h>

#define WORDS		4096

static uint32_t data[WORDS];
static uint8_t byte_bits[256];

static unsigned int __attribute__((noinline)) every_bit(void)
{
	unsigned int n = 0;

	for (int i = 0; i < WORDS; i++)
		for (int b = 0; b < 32; b++)
			n += (data[i] >> b) & 1;
	return n;
}

static unsigned int __attribute__((noinline)) clear_lowest(void)
{
	unsigned int n = 0;

	for (int i = 0; i < WORDS; i++)
		for (uint32_t x = data[i]; x; x &= x - 1)
			n++;
	return n;
}

static unsigned int __attribute__((noinline)) table(void)
{
	unsigned int n = 0;

	for (int i = 0; i < WORDS; i++) {
		uint32_t x = data[i];

		n += byte_bits[x & 0xff] + byte_bits[(x >> 8) & 0xff] +
		     byte_bits[(x >> 16) & 0xff] + byte_bits[x >> 24];
	}
	return n;
}

static uint32_t next_random(uint32_t *seed)
{
	*seed = *seed * 1103515245 + 12345;
	return *seed;
}

static void die(const char *what)
{
	fprintf(stderr, "popcount: %s: %s\n", what, strerror(errno));
	exit(1);
}

static void xioctl(int fd, unsigned long req, void *arg, const char *what)
{
	if (ioctl(fd, req, arg) < 0)
		die(what);
}

/* A file that nobody binds counts the thread that configures it: ours. */
static int open_pmu(void)
{
	int fd = open(ARMPMU_DEVICE_PATH, O_RDWR);

	if (fd < 0)
		die(ARMPMU_DEVICE_PATH);
	return fd;
}

/* Print one row; return the user-mode instructions, store the bit count. */
static unsigned long long measure(int fd, const char *name,
				  unsigned int (*fn)(void), unsigned int *bits_out)
{
	struct armpmu_counts counts;
	unsigned int bits;

	xioctl(fd, ARMPMU_IOC_RESET, NULL, "reset");
	xioctl(fd, ARMPMU_IOC_START, NULL, "start");
	bits = fn();
	xioctl(fd, ARMPMU_IOC_STOP, NULL, "stop");
	xioctl(fd, ARMPMU_IOC_READ, &counts, "read");
	printf("%-14s %8u %14llu %14llu\n", name, bits,
	       (unsigned long long)counts.events[0],
	       (unsigned long long)counts.cycles);
	*bits_out = bits;
	return counts.events[0];
}

int main(void)
{
	struct armpmu_event inst = {
		.event = ARMPMU_EV_INST_RETIRED,
		.flags = ARMPMU_EXCLUDE_KERNEL,
	};
	unsigned long long every, lowest, lookup;
	unsigned int bits;
	__u32 counter = 0;
	int fd = open_pmu();
	uint32_t seed = 1;

	for (int i = 0; i < 256; i++)
		byte_bits[i] = (i & 1) + byte_bits[i / 2];
	/* Three random words ANDed: about 4 bits set in 32. */
	for (int i = 0; i < WORDS; i++)
		data[i] = next_random(&seed) & next_random(&seed) & next_random(&seed);

	xioctl(fd, ARMPMU_IOC_SELECT, &counter, "select");
	if (ioctl(fd, ARMPMU_IOC_SET_EVENT, &inst) < 0) {
		if (errno == ENOENT)
			fprintf(stderr, "popcount: this core does not count INST_RETIRED (under QEMU, boot with --icount)\n");
		die("set INST_RETIRED");
	}
	printf("%-14s %8s %14s %14s\n", "method", "bits", "instructions:u", "cycles");
	every = measure(fd, "every bit", every_bit, &bits);
	lowest = measure(fd, "clear lowest", clear_lowest, &bits);
	lookup = measure(fd, "byte table", table, &bits);
	printf("Testing all 32 bits retired %.1fx the instructions of clearing only the %.1f set bits per word;\n"
	       "the table needs %.1f instructions per word whatever the data.\n",
	       (double)every / lowest, (double)bits / WORDS, (double)lookup / WORDS);
	close(fd);
	return 0;
}
