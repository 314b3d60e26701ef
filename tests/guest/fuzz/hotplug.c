// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz, --cpu-hotplug: a process that offlines and onlines CPUs while the
 * workers run.
 */
#include "common.h"

char online_path[MAX_CPUS][64];
unsigned int hotplug_cpus[MAX_CPUS], n_hotplug;

bool cpu_online(unsigned int cpu)
{
	char path[64], c = '1';
	int fd;

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%u/online", cpu);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return access(path, F_OK) != 0;	/* no such file: always online */
	if (read(fd, &c, 1) != 1)
		c = '1';
	close(fd);
	return c == '1';
}

/* Offlines and onlines the hotpluggable CPUs now and then, until told. */
int hotplug_process(void)
{
	uint64_t rng = thread_seed(opt_seed, MAX_PROCS, 0);
	struct timespec ts;
	unsigned int cpu, tries;
	int err;

	while (!sh->stop_hotplug) {
		cpu = hotplug_cpus[splitmix64(&rng) % n_hotplug];
		ts.tv_sec = 0;
		ts.tv_nsec = (long)(20 + splitmix64(&rng) % 200) * 1000000L;
		nanosleep(&ts, NULL);
		err = write_file(online_path[cpu], "0");
		if (err) {
			sh->hotplug_errors++;
			sh->hotplug_last_err = err;
			continue;
		}
		ts.tv_nsec = (long)(5 + splitmix64(&rng) % 50) * 1000000L;
		nanosleep(&ts, NULL);
		/* The parent onlines it again at the end if this gives up. */
		for (tries = 0; (err = write_file(online_path[cpu], "1")) && tries < 100; tries++) {
			sh->hotplug_errors++;
			sh->hotplug_last_err = err;
			ts.tv_nsec = 10000000L;
			nanosleep(&ts, NULL);
		}
		if (err)
			return 1;
		sh->hotplug_flips++;
	}
	return 0;
}
