// SPDX-License-Identifier: GPL-2.0
/*
 * isolation-test --soak: many lab files counting at once while CPU 1
 * goes off and on: every count complete or flagged.
 */
#include "common.h"

struct soak_result {
	int err;
	unsigned int runs, complete, flagged, bad;
};

static void soak_worker(void *arg)
{
	struct soak_result *r = arg;
	struct armpmu_attach at = { .flags = ARMPMU_ATTACH_FOLLOW };
	uint64_t end = now_ns() + soak_secs * 1000000000ULL;
	struct armpmu_counts c;
	int fd = -1, err;
	pid_t pid;

	while (now_ns() < end) {
		err = dev_open(&fd);
		err = err ? err : ioc(fd, ARMPMU_IOC_ATTACH, &at);
		err = err ? err : program_work(fd);
		err = err ? err : ioc0(fd, ARMPMU_IOC_START);
		pid = err ? -1 : fork();
		if (pid == 0) {
			loop_n(100000);
			_exit(0);
		}
		if (pid > 0)
			waitpid(pid, NULL, 0);
		loop_n(50000);
		err = err ? err : read_counts(fd, &c);
		dev_close(&fd);
		r->runs++;
		if (err) {
			r->err = err;
			break;
		}
		if (c.flags & (ARMPMU_COUNTS_INCOMPLETE | ARMPMU_COUNTS_DISTURBED))
			r->flagged++;
		else if (!counting || c.events[0] > 0)
			r->complete++;
		else
			r->bad++;
	}
}

void test_soak(void)
{
	struct soak_result r[4];
	unsigned int i, runs = 0, complete = 0, flagged = 0, bad = 0;
	int p[4][2], err = 0, toggles = 0;
	pid_t pid[4];
	uint64_t end;

	for (i = 0; i < 4; i++) {
		if (pipe(p[i]))
			return;
		fflush(stdout);
		pid[i] = fork();
		if (pid[i] == 0) {
			close(p[i][0]);
			memset(&r[i], 0, sizeof(r[i]));
			if (become_lab())
				soak_worker(&r[i]);
			else
				r[i].err = EPERM;
			_exit(write(p[i][1], &r[i], sizeof(r[i])) == sizeof(r[i]) ? 0 : 1);
		}
		close(p[i][1]);
	}
	end = now_ns() + soak_secs * 1000000000ULL;
	while (now_ns() < end) {
		if (online_cpus() < 2 && !toggles) {
			usleep(100000);
			continue;
		}
		/* A board that cannot take CPU 1 offline soaks without toggles. */
		toggles += !write_file(CPU1_ONLINE, "0");
		usleep(100000);
		write_file(CPU1_ONLINE, "1");
		usleep(100000);
	}
	for (i = 0; i < 4; i++) {
		if (read(p[i][0], &r[i], sizeof(r[i])) != sizeof(r[i]))
			r[i].err = ECHILD;
		close(p[i][0]);
		waitpid(pid[i], NULL, 0);
		err = err ? err : r[i].err;
		runs += r[i].runs;
		complete += r[i].complete;
		flagged += r[i].flagged;
		bad += r[i].bad;
	}
	write_file(CPU1_ONLINE, "1");
	tap_note("soak: %u runs by 4 lab programs, %d CPU 1 toggles: %u complete, %u flagged",
		 runs, toggles, complete, flagged);
	tap_check(!err && runs && !bad, "soak: every count complete or flagged",
		  "%s: %u of %u counts neither", tap_errname(err), bad, runs);
}
