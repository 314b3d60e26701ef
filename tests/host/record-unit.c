// SPDX-License-Identifier: GPL-2.0
/*
 * record-unit: pmuctl record's file (tools/pmuctl/record-file.c,
 * perfdata.c) from made-up driver records, for a real host program:
 * runs PROGRAM (tests/host/record-shape), which says where work_one and
 * work_three are and waits; reads its mappings as pmuctl record does;
 * and makes up what the driver would say of two threads of it: an EXEC,
 * a FORK, 400 samples (one in four in work_one), in two batches whose
 * CPUs interleave in time, the EXITs, and with "lost" a LOST record.
 * Each sample ran 250 us, counted 1,000 cycles in work_one and 3,000 in
 * work_three, and 500 instructions in slot 2. With "late LIBRARY" the
 * program opens LIBRARY after the first look at its mappings, a second
 * look finds it, and the second batch's samples of work_one are in its
 * late_work instead. tests/host/record-test reads the file with perf.
 *
 *   record-unit OUT PROGRAM [lost | late LIBRARY]
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/perf_event.h>
#include <sys/wait.h>

#include "pmuctl.h"
#include "record-file.h"

#define NSAMPLES	400
#define PERIOD_NS	250000

struct sample3 {
	struct armpmu_sample s;
	uint64_t value[3];
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static struct armpmu_task_record task(uint16_t type, uint32_t cpu, uint32_t pid, uint32_t tid,
				      uint64_t time, const char *comm)
{
	struct armpmu_task_record t = {
		.head = { .type = type, .size = sizeof(t), .cpu = cpu, .pid = pid, .tid = tid,
			  .time = time },
	};

	if (type == ARMPMU_RECORD_FORK) {
		t.ppid = pid;
		t.ptid = pid;
	}
	snprintf(t.comm, sizeof(t.comm), "%s", comm);
	return t;
}

static void add(struct record_file *rf, const void *buf, size_t len)
{
	int err = record_file_add(rf, buf, len);

	if (err) {
		fprintf(stderr, "record-unit: record_file_add: %s\n", strerror(-err));
		exit(1);
	}
}

int main(int argc, char **argv)
{
	int to[2], from[2], err;
	unsigned long one, three, late = 0;
	bool with_late = argc > 4 && !strcmp(argv[3], "late");
	struct perfdata_config cfg = {
		.nevents = 3, .freq = true, .period = 4000, .exclude_kernel = true,
		.argc = argc, .argv = argv,
	};
	struct record_source src[2] = { { .cycles = true }, { .slot = 2 } };
	struct record_file *rf;
	struct record_stats st;
	FILE *in;
	pid_t pid;

	if (argc < 3)
		return fprintf(stderr, "usage: record-unit OUT PROGRAM [lost | late LIBRARY]\n"), 2;
	subcommand = "record";
	if (pipe(to) || pipe(from))
		return perror("pipe"), 1;
	pid = fork();
	if (!pid) {
		dup2(to[0], 0);
		dup2(from[1], 1);
		close(to[1]);
		close(from[0]);
		execl(argv[2], argv[2], with_late ? argv[4] : (char *)NULL, (char *)NULL);
		_exit(127);
	}
	close(to[0]);
	close(from[1]);
	in = fdopen(from[0], "r");
	if (!in || fscanf(in, "%lx %lx", &one, &three) != 2)
		return fprintf(stderr, "record-unit: %s said nothing\n", argv[2]), 1;

	perfdata_leader(&cfg);
	snprintf(cfg.events[1].name, sizeof(cfg.events[1].name), "cycles:u");
	cfg.events[1].type = PERF_TYPE_HARDWARE;
	cfg.events[1].config = PERF_COUNT_HW_CPU_CYCLES;
	snprintf(cfg.events[2].name, sizeof(cfg.events[2].name), "instructions:u");
	cfg.events[2].type = PERF_TYPE_HARDWARE;
	cfg.events[2].config = PERF_COUNT_HW_INSTRUCTIONS;
	err = record_file_open(&rf, argv[1], &cfg, src);
	if (err)
		return fprintf(stderr, "record-unit: %s: %s\n", argv[1], strerror(-err)), 1;

	uint64_t t0 = now_ns();
	const char *comm = strrchr(argv[2], '/') ? strrchr(argv[2], '/') + 1 : argv[2];
	uint32_t tid2 = (uint32_t)pid + 1;
	struct armpmu_task_record t = task(ARMPMU_RECORD_EXEC, 0, pid, pid, t0, comm);

	add(rf, &t, sizeof(t));
	t = task(ARMPMU_RECORD_FORK, 1, pid, tid2, t0 + 500, comm);
	add(rf, &t, sizeof(t));
	/* The program's mappings, looked at after its exec. */
	record_file_scan(rf, t0 + 1000);
	if (with_late) {
		/* It opens the library; the next look finds it. */
		if (write(to[1], "\n", 1) != 1 || fscanf(in, "%lx", &late) != 1)
			return fprintf(stderr, "record-unit: %s opened no %s\n", argv[2], argv[4]), 1;
		record_file_scan(rf, t0 + 1500);
	}

	/* Two batches: CPU 1's samples, then CPU 0's, their times interleaved. */
	for (int batch = 0; batch < 2; batch++) {
		for (int cpu = 1; cpu >= 0; cpu--) {
			for (int k = batch * NSAMPLES / 2; k < (batch + 1) * NSAMPLES / 2; k++) {
				struct sample3 s = { 0 };
				bool in_one = k % 4 == 0;

				if (k % 2 != cpu)
					continue;
				s.s.head = (struct armpmu_record){
					.type = ARMPMU_RECORD_SAMPLE, .size = sizeof(s), .cpu = (uint32_t)cpu,
					.pid = pid, .tid = cpu ? tid2 : (uint32_t)pid,
					.time = t0 + 2000 + (uint64_t)k * PERIOD_NS,
				};
				s.s.ip = (in_one ? batch && late ? late : one : three) + 4;
				s.s.nr = 3;
				s.s.period = PERIOD_NS;
				s.s.cycles = in_one ? 1000 : 3000;
				s.value[2] = 500;
				add(rf, &s, sizeof(s));
			}
		}
		if (batch == 0 && argc > 3 && !strcmp(argv[3], "lost")) {
			struct armpmu_lost l = {
				.head = { .type = ARMPMU_RECORD_LOST, .size = sizeof(l),
					  .time = t0 + 2000 + NSAMPLES / 2 * PERIOD_NS - 100 },
				.lost = 7,
			};

			add(rf, &l, sizeof(l));
		}
		err = record_file_flush(rf, t0 + 2000 + (uint64_t)(batch + 1) * NSAMPLES / 2 * PERIOD_NS);
		if (err)
			return fprintf(stderr, "record-unit: flush: %s\n", strerror(-err)), 1;
	}
	uint64_t end = t0 + 2000 + NSAMPLES * PERIOD_NS;

	t = task(ARMPMU_RECORD_EXIT, 1, pid, tid2, end, comm);
	add(rf, &t, sizeof(t));
	t = task(ARMPMU_RECORD_EXIT, 0, pid, pid, end + 10, comm);
	add(rf, &t, sizeof(t));
	err = record_file_close(rf, &st);
	if (write(to[1], "\n", 1) != 1)
		kill(pid, SIGTERM);
	waitpid(pid, NULL, 0);
	if (err)
		return fprintf(stderr, "record-unit: %s: %s\n", argv[1], strerror(-err)), 1;
	printf("%llu samples, %llu lost, %llu bytes\n", (unsigned long long)st.samples,
	       (unsigned long long)st.lost, (unsigned long long)st.bytes);
	return 0;
}
