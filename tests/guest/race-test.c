// SPDX-License-Identifier: GPL-2.0
/*
 * race-test: claims racing CPU hotplug. One thread takes CPU 1 offline and
 * brings it back, again and again, while another opens /dev/armpmu, binds
 * CPU 1, starts counting and closes. Whatever the interleaving, a claim
 * lands before the driver lets the CPU go (and is parked with it) or is
 * refused with ENXIO; a closed file must leave nothing on the CPU that
 * points at it. The driver checks that itself each time the CPU comes back
 * (a WARN in the kernel log), and the debug kernel's KASAN would see a
 * freed session touched. Runs as root with 2 CPUs or more, prints TAP.
 *
 *   race-test [--cycles N] [--no-counting]
 *
 * --no-counting: QEMU's model of this board's PMU never counts (Cortex-A8,
 * A9): the closing checks ask for everything but counts.
 */
#include <getopt.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

#include "checks.h"

#define CPU1_ONLINE	"/sys/devices/system/cpu/cpu1/online"
static atomic_bool toggling_done;

struct toggler {
	unsigned long cycles;
	unsigned long failed_writes;
};

static void *toggle_cpu1(void *arg)
{
	struct toggler *t = arg;
	unsigned long i;

	for (i = 0; i < t->cycles; i++) {
		if (write_file(CPU1_ONLINE, "0"))
			t->failed_writes++;
		if (write_file(CPU1_ONLINE, "1"))
			t->failed_writes++;
	}
	atomic_store(&toggling_done, true);
	return NULL;
}

struct claims {
	unsigned long bound, refused, other;
	int other_err;
};

/* Bind CPU 1, count on it if bound, close: until the toggler is done. */
static void claim_until_done(struct claims *c)
{
	int fd, err;

	while (!atomic_load(&toggling_done)) {
		err = open_bound(1, &fd);
		if (err == ENXIO) {
			c->refused++;
			continue;
		}
		if (!err) {
			c->bound++;
			/* Counting or not, the close must clean up. */
			err = program(fd, 0, ARMPMU_EV_CPU_CYCLES, ARMPMU_EXCLUDE_KERNEL);
			if (!err)
				ioc0(fd, ARMPMU_IOC_START);
			dev_close(&fd);
			continue;
		}
		c->other++;
		c->other_err = err;
	}
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "cycles", required_argument, NULL, 'c' },
		{ "no-counting", no_argument, NULL, 'n' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct toggler t = { .cycles = 200 };
	struct claims c = { 0 };
	pthread_t thread;
	int opt;

	while ((opt = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (opt) {
		case 'c':
			t.cycles = strtoul(optarg, NULL, 0);
			break;
		case 'n':
			board_counts = false;
			break;
		default:
			fprintf(stderr, "usage: race-test [--cycles N] [--no-counting]\n");
			return opt == 'h' ? 0 : 2;
		}
	}
	tap_init();
	if (online_cpus() < 2 || access(CPU1_ONLINE, W_OK)) {
		tap_skip("claims race CPU 1 going offline and back", "CPU 1 cannot go offline here");
		return tap_done();
	}
	if (pthread_create(&thread, NULL, toggle_cpu1, &t)) {
		tap_check(false, "the hotplug thread starts", "pthread_create failed");
		return tap_done();
	}
	claim_until_done(&c);
	pthread_join(thread, NULL);
	tap_note("%lu offline/online cycles (%lu failed writes); %lu claims bound, %lu refused",
		 t.cycles, t.failed_writes, c.bound, c.refused);
	tap_check(t.failed_writes == 0, "CPU 1 went offline and back every time",
		  "%lu of %lu writes failed", t.failed_writes, 2 * t.cycles);
	tap_check(c.other == 0, "a claim racing hotplug binds or is refused with ENXIO",
		  "%lu claims failed otherwise, last with %s", c.other, tap_errname(c.other_err));
	tap_check(c.bound > 0, "some claims landed between the cycles",
		  "none of %lu claims bound", c.refused);
	check_every_cpu_claimable();
	test_kernel_log();
	return tap_done();
}
