// SPDX-License-Identifier: GPL-2.0
/*
 * sample-dump: runs a command sampled by armpmu and prints every record
 * of the ring as a line of text, for whoever writes or checks a reader of
 * ARMPMU_IOC_READ_SAMPLES (pmuctl record).
 *
 *   sample-dump [-F HZ] [-r KIB] [-f] [-k] [-e EVENT]... -- COMMAND [ARG...]
 *
 * -F: samples a second of each thread's running time (default 1000);
 * -r: the ring's size (default 256); -f: follow threads and children;
 * -k: ticks in kernel mode too (root); -e: a raw event number per slot
 * (default 0x08, INST_RETIRED), user mode only unless -k. Counting starts
 * at the command's exec (ENABLE_ON_EXEC), as pmuctl's does.
 */
#include <stdlib.h>

#include "samples.h"

static void print_record(const struct armpmu_record *h)
{
	const struct armpmu_sample *s = (const void *)h;
	const struct armpmu_task_record *t = (const void *)h;
	unsigned int i;

	printf("%llu.%09llu cpu %u %s pid %u tid %u", (ull)(h->time / 1000000000),
	       (ull)(h->time % 1000000000), h->cpu, record_name(h->type), h->pid, h->tid);
	switch (h->type) {
	case ARMPMU_RECORD_SAMPLE:
		printf(" ip %#llx flags %#x period %llu cycles %llu", (ull)s->ip, s->flags,
		       (ull)s->period, (ull)s->cycles);
		for (i = 0; i < s->nr; i++)
			printf(" v%u %llu", i, (ull)s->value[i]);
		break;
	case ARMPMU_RECORD_LOST:
		printf(" lost %llu", (ull)((const struct armpmu_lost *)h)->lost);
		break;
	default:
		printf(" ppid %u ptid %u comm %.16s", t->ppid, t->ptid, t->comm);
	}
	putchar('\n');
}

int main(int argc, char **argv)
{
	struct armpmu_attach at = { .flags = ARMPMU_ATTACH_ENABLE_ON_EXEC };
	unsigned long hz = 1000, ring_kb = 256;
	__u32 events[ARMPMU_MAX_COUNTERS], nev = 0, excl = ARMPMU_EXCLUDE_KERNEL, sflags = 0, i;
	struct records r = { 0 };
	const struct armpmu_record *h;
	int opt, fd, go[2], err, status;
	size_t off = 0;
	char c;
	pid_t pid;

	while ((opt = getopt(argc, argv, "F:r:fke:")) != -1) {
		switch (opt) {
		case 'F': hz = strtoul(optarg, NULL, 0); break;
		case 'r': ring_kb = strtoul(optarg, NULL, 0); break;
		case 'f': at.flags |= ARMPMU_ATTACH_FOLLOW; break;
		case 'k': excl = 0; sflags = ARMPMU_SAMPLING_KERNEL; break;
		case 'e':
			if (nev < ARMPMU_MAX_COUNTERS)
				events[nev++] = (__u32)strtoul(optarg, NULL, 0);
			break;
		default:
			fprintf(stderr, "usage: sample-dump [-F HZ] [-r KIB] [-f] [-k] [-e EVENT]... "
					"-- COMMAND [ARG...]\n");
			return 2;
		}
	}
	if (optind >= argc || !hz) {
		fprintf(stderr, "sample-dump: no command\n");
		return 2;
	}
	if (!nev)
		events[nev++] = ARMPMU_EV_INST_RETIRED;
	if (pipe(go))
		return 1;
	pid = fork();
	if (pid == 0) {
		if (read(go[0], &c, 1) != 1)
			_exit(126);
		execvp(argv[optind], argv + optind);
		_exit(127);
	}
	at.tid = (__u32)pid;
	err = dev_open(&fd);
	err = err ? err : ioc(fd, ARMPMU_IOC_ATTACH, &at);
	for (i = 0; i < nev && !err; i++)
		err = program(fd, i, events[i], excl);
	err = err ? err : ioc_u32(fd, ARMPMU_IOC_SET_CYCLE_FILTER, excl);
	err = err ? err : set_sampling(fd, 1000000000ULL / hz, (__u32)(ring_kb << 10), sflags);
	err = err ? err : ioc0(fd, ARMPMU_IOC_START);
	if (err) {
		fprintf(stderr, "sample-dump: %s\n", strerror(err));
		kill(pid, SIGKILL);
		return 1;
	}
	if (write(go[1], "g", 1) != 1)
		return 1;
	err = collect_until_ended(fd, &r, 3600 * 1000);
	waitpid(pid, &status, 0);
	while ((h = next_record(&r, &off)))
		print_record(h);
	fprintf(stderr, "sample-dump: %zu bytes of records, recorded %llu, lost %llu%s%s\n",
		r.len, (ull)r.last.recorded, (ull)r.last.lost, err ? ": " : "",
		err ? strerror(err) : "");
	free_records(&r);
	return err || !WIFEXITED(status) ? 1 : WEXITSTATUS(status);
}
