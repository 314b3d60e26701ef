// SPDX-License-Identifier: GPL-2.0
/*
 * isolation-test, attacks 5 and 6: nothing left in the registers after a
 * task-mode file closes; ATTACH racing the target's exit.
 */
#include "common.h"

struct regs_result {
	int err;
};

static void count_on_each_cpu(void *arg)
{
	struct regs_result *r = arg;
	unsigned int cpu, n = online_cpus();
	struct armpmu_info info;
	int fd = -1, i;

	r->err = dev_open(&fd);
	r->err = r->err ? r->err : ioc(fd, ARMPMU_IOC_INFO, &info);
	for (i = 0; !r->err && i < (int)info.num_counters; i++)
		r->err = program(fd, (__u32)i, work_event(), EXCL_K);
	r->err = r->err ? r->err : ioc_u32(fd, ARMPMU_IOC_SET_CYCLE_FILTER, EXCL_K);
	r->err = r->err ? r->err : ioc0(fd, ARMPMU_IOC_START);
	for (cpu = 0; !r->err && cpu < n; cpu++) {
		pin(cpu);
		loop_n(200000);
	}
	r->err = r->err ? r->err : ioc0(fd, ARMPMU_IOC_STOP);
	dev_close(&fd);
}

void test_registers_after_close(void)
{
	struct regs_result r = { 0 };
	unsigned int cpu, i, left = 0;
	struct armpmu_regs regs;
	int err, fd = -1;

	if (!counting) {
		tap_skip("a task-mode file stopped and closed leaves no count in any CPU's counters",
			 "this board's PMU never counts");
		return;
	}
	err = as_lab(count_on_each_cpu, &r, sizeof(r));
	err = err ? err : r.err;
	err = err ? err : dev_open(&fd);
	for (cpu = 0; !err && cpu < online_cpus(); cpu++) {
		memset(&regs, 0, sizeof(regs));
		regs.cpu = cpu;
		err = ioc(fd, ARMPMU_IOC_REGS, &regs);
		for (i = 0; !err && i < regs.num_counters; i++) {
			if (regs.pmcntenset & (1U << i) || !regs.counter[i])
				continue;
			tap_note("CPU%u counter %u holds %llu", cpu, i, (ull)regs.counter[i]);
			left++;
		}
	}
	dev_close(&fd);
	tap_check(!err && !left,
		  "a task-mode file stopped and closed leaves no count in any CPU's counters",
		  "%s: %u counters still hold counts", tap_errname(err), left);
}

/* ---- 6. ATTACH racing the target's exit ---- */

/*
 * @cold rounds (with --wrap) first wait until the driver has unhooked its
 * probes (a second after the last task-mode file closed): the ATTACH that
 * hooks them again takes milliseconds, a wide window for an exit.
 */
void test_exit_race(unsigned int cold)
{
	struct armpmu_file_status st;
	struct armpmu_attach at = { 0 };
	unsigned int round, attached = 0, gone = 0, dead = 0;
	int fd = -1, err = 0, aerr;
	pid_t pid;

	/*
	 * The child exits on the other CPU after a spin that grows each
	 * round, so that some exits fall inside ATTACH's own work.
	 */
	pin(0);
	for (round = 0; round < 300 + cold && !err; round++) {
		if (round < cold)
			usleep(1300000);
		fflush(stdout);
		pid = fork();
		if (pid == 0) {
			if (online_cpus() > 1)
				pin(1);
			loop_n(round < cold ? round * 20000UL : (round % 50) * 400UL);
			_exit(0);
		}
		at.tid = (__u32)pid;
		err = dev_open(&fd);
		aerr = err ? err : ioc(fd, ARMPMU_IOC_ATTACH, &at);
		waitpid(pid, NULL, 0);
		if (aerr == ESRCH) {
			gone++;
		} else if (!aerr) {
			attached++;
			/* This file, the newest: it must count no thread now. */
			memset(&st, 0, sizeof(st));
			st.id = 1;
			while (!ioc(fd, ARMPMU_IOC_FILE_STATUS, &st) &&
			       !(st.flags & ARMPMU_FILE_CALLER))
				st.id++;
			if (!(st.flags & ARMPMU_FILE_CALLER) || st.threads)
				dead++;
		} else {
			err = aerr;
		}
		dev_close(&fd);
	}
	unpin();
	tap_note("exit race: %u attached, %u already exiting (ESRCH), %u dead threads linked",
		 attached, gone, dead);
	tap_check(!err && !dead, "ATTACH racing the thread's exit never links a dead thread",
		  "%s: %u of %u attaches left a dead thread", tap_errname(err), dead, attached);
}
