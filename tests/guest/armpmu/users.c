// SPDX-License-Identifier: GPL-2.0
/*
 * armpmu-test as the lab's users: what uid 1000 (group armpmu) may do, on
 * cores that filter and on PMUv1, that uid 1001 may not open the device,
 * that a file keeps its opener's rights, and the administrator's opt-in to
 * whole-CPU counting for everybody.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <unistd.h>

#include "common.h"

/*
 * What uid 1000 tries first on every core, into err[0] to err[5]: open,
 * INFO, BIND of its CPU, CPU_CYCLES counting the kernel, then excluding user
 * mode, then the kernel. Returns the file, or -1 if it would not open.
 */
static int lab_first_tries(struct child_report *r)
{
	int fd;

	r->err[0] = dev_open(&fd);
	if (r->err[0])
		return -1;
	r->err[1] = ioc(fd, ARMPMU_IOC_INFO, &r->info);
	r->err[2] = ioc_u32(fd, ARMPMU_IOC_BIND, ARMPMU_CPU_CURRENT);
	r->err[3] = program(fd, 0, ARMPMU_EV_CPU_CYCLES, 0);
	r->err[4] = set_event(fd, ARMPMU_EV_CPU_CYCLES, EXCL_U);
	r->err[5] = set_event(fd, ARMPMU_EV_CPU_CYCLES, EXCL_K);
	return fd;
}

/*
 * What lab_first_tries() met, up to the SET_EVENT counting the kernel;
 * @clear: the INFO flags uid 1000 must see clear, @info_name: that check.
 */
static void check_lab_first_tries(const struct child_report *r, __u32 clear,
				  const char *info_name)
{
	tap_errno(r->err[0], 0, "uid 1000 (group armpmu): open succeeds");
	tap_check(!r->err[1] && !(r->info.flags & clear), info_name, "%s, flags %#x",
		  tap_errname(r->err[1]), r->info.flags);
	tap_errno(r->err[2], EPERM,
		  "EPERM: uid 1000 BIND (whole-CPU counting needs CAP_PERFMON)");
	tap_errno(r->err[3], EACCES, "EACCES: uid 1000 SET_EVENT without EXCLUDE_KERNEL");
}

static void lab_child(struct child_report *r)
{
	struct armpmu_counts sleep;
	unsigned int i;
	int fd = lab_first_tries(r);

	if (fd < 0)
		return;
	r->err[6] = icount ? program(fd, 1, ARMPMU_EV_INST_RETIRED, EXCL_K) : 0;
	r->err[7] = measure_loop(fd, SPIN_BIG, &r->c[0]);
	/* Host stalls while in user mode add cycles: the least of three. */
	for (i = 0; i < 3 && !r->err[8]; i++) {
		r->err[8] = measure_sleep(fd, 20, &sleep);
		if (i == 0 || sleep.cycles < r->c[1].cycles)
			r->c[1] = sleep;
	}
	r->err[9] = ioc_u32(fd, ARMPMU_IOC_SET_CYCLE_FILTER, 0);
	r->err[10] = ioc_u32(fd, ARMPMU_IOC_SET_CYCLE_FILTER, EXCL_U);
	r->err[11] = ioc_u32(fd, ARMPMU_IOC_SET_CYCLE_FILTER, EXCL_K);
	close(fd);
}

/* BIND of the caller's CPU, for the opt-in's test. */
static void bind_child(struct child_report *r)
{
	int fd;

	r->err[0] = open_bound(ARMPMU_CPU_CURRENT, &fd);
	if (!r->err[0])
		close(fd);
}

/*
 * An administrator's opt-in, cpu_mode_for_all, lets uid 1000 bind a CPU;
 * turned off again, it may not.
 */
void test_cpu_mode_opt_in(void)
{
	static const char param[] = "/sys/module/armpmu/parameters/cpu_mode_for_all";
	const char *why;
	int err;

	err = write_file(param, "1");
	if (!tap_errno(err, 0, "cpu_mode_for_all can be set at run time"))
		return;
	why = run_as_lab(bind_child);
	tap_check(!why && !report->err[0], "uid 1000: BIND succeeds with cpu_mode_for_all=1",
		  "%s", why ? why : tap_errname(report->err[0]));
	write_file(param, "0");
	why = run_as_lab(bind_child);
	tap_check(!why && report->err[0] == EPERM,
		  "EPERM: uid 1000 BIND once cpu_mode_for_all is 0 again",
		  "%s", why ? why : tap_errname(report->err[0]));
}

/*
 * PMUv1 as uid 1000: no filter to exclude the kernel, so no event can be
 * programmed and START is refused (its cycle counter would count the
 * kernel); what needs no counting works.
 */
static void lab_child_nofilter(struct child_report *r)
{
	int fd = lab_first_tries(r);

	if (fd < 0)
		return;
	r->err[6] = ioc_u32(fd, ARMPMU_IOC_SET_CYCLE_FILTER, 0);
	r->err[7] = ioc_u32(fd, ARMPMU_IOC_SET_CYCLE_FILTER, EXCL_K);
	r->err[8] = ioc0(fd, ARMPMU_IOC_START);
	r->err[9] = read_counts(fd, &r->c[0]);
	r->err[10] = ioc_u32(fd, ARMPMU_IOC_SET_DIVIDER, 1);
	r->err[11] = ioc0(fd, ARMPMU_IOC_STOP);
	close(fd);
}

static void check_lab_nofilter(const struct child_report *r)
{
	char why[96];

	check_lab_first_tries(r, ARMPMU_INFO_KERNEL_ALLOWED | ARMPMU_INFO_CAN_FILTER,
			      "uid 1000: INFO KERNEL_ALLOWED and CAN_FILTER clear");
	tap_errno(r->err[4], EOPNOTSUPP, "EOPNOTSUPP: uid 1000 SET_EVENT with EXCLUDE_USER (no filter)");
	tap_errno(r->err[5], EOPNOTSUPP,
		  "EOPNOTSUPP: uid 1000 SET_EVENT with EXCLUDE_KERNEL (no filter)");
	tap_errno(r->err[6], EACCES, "EACCES: uid 1000 SET_CYCLE_FILTER without EXCLUDE_KERNEL");
	tap_errno(r->err[7], EOPNOTSUPP,
		  "EOPNOTSUPP: uid 1000 SET_CYCLE_FILTER with EXCLUDE_KERNEL (no filter)");
	tap_errno(r->err[8], EOPNOTSUPP,
		  "EOPNOTSUPP: uid 1000 START (PMUv1: the cycle counter would count the kernel)");
	tap_check(!r->err[9] && counts_clear(&r->c[0], why, sizeof(why)),
		  "uid 1000: READ after the refused START: zeros, not running", "%s: %s",
		  tap_errname(r->err[9]), why);
	tap_errno(r->err[10], 0, "uid 1000: SET_DIVIDER 1 succeeds");
	tap_errno(r->err[11], 0, "uid 1000: STOP of a file that never started succeeds");
}

static void guest_child(struct child_report *r)
{
	int fd = open(DEV, O_RDWR);

	r->err[0] = fd < 0 ? errno : 0;
	if (fd >= 0)
		close(fd);
	fd = open(DEV, O_RDONLY);
	r->err[1] = fd < 0 ? errno : 0;
	if (fd >= 0)
		close(fd);
}

/* A file root opened, used after dropping root. */
static void inherited_child(struct child_report *r)
{
	r->err[0] = ioc(inherited_fd, ARMPMU_IOC_INFO, &r->info);
	r->err[1] = program(inherited_fd, 0, ARMPMU_EV_CPU_CYCLES, 0);
}

void test_unprivileged(void)
{
	struct armpmu_counts root_sleep;
	struct child_report *r = report;
	const char *why;
	int fd, err;

	pin(0);
	why = run_as_lab(board->filters ? lab_child : lab_child_nofilter);
	if (!why && !board->filters) {
		check_lab_nofilter(r);
	} else if (why) {
		tap_check(false, "uid 1000 (group armpmu): checks ran", "%s", why);
	} else {
		check_lab_first_tries(r, ARMPMU_INFO_KERNEL_ALLOWED,
				      "uid 1000: INFO KERNEL_ALLOWED clear");
		tap_errno(r->err[4], EACCES, "EACCES: uid 1000 SET_EVENT with EXCLUDE_USER only");
		tap_errno(r->err[5], 0, "uid 1000: SET_EVENT with EXCLUDE_KERNEL succeeds");
		tap_errno(r->err[9], EACCES, "EACCES: uid 1000 SET_CYCLE_FILTER without EXCLUDE_KERNEL");
		tap_errno(r->err[10], EACCES, "EACCES: uid 1000 SET_CYCLE_FILTER with EXCLUDE_USER only");
		tap_errno(r->err[11], 0, "uid 1000: SET_CYCLE_FILTER with EXCLUDE_KERNEL succeeds");
		if (icount)
			tap_errno(r->err[6], 0, "uid 1000: SET_EVENT INST_RETIRED:u succeeds");
		tap_check(!r->err[7] && r->c[0].cycles > 0 && r->c[0].events[0] > 0,
			  "uid 1000: counts a loop", "%s: cycles %llu events[0] %llu",
			  tap_errname(r->err[7]), (ull)r->c[0].cycles, (ull)r->c[0].events[0]);
		tap_note("uid 1000 loop: cycles %llu, CPU_CYCLES:u %llu, INST_RETIRED:u %llu",
			 (ull)r->c[0].cycles, (ull)r->c[0].events[0], (ull)r->c[0].events[1]);
		if (icount)
			tap_check(!r->err[7] && r->c[0].cycles == r->c[0].events[0] &&
				  r->c[0].events[1] == r->c[0].events[0],
				  "icount, uid 1000: cycle counter == CPU_CYCLES:u == INST_RETIRED:u",
				  "cycles %llu, CPU_CYCLES:u %llu, INST_RETIRED:u %llu",
				  (ull)r->c[0].cycles, (ull)r->c[0].events[0],
				  (ull)r->c[0].events[1]);
		else
			tap_check(!r->err[7] && within_pct(r->c[0].cycles, r->c[0].events[0], 1),
				  "uid 1000: cycle counter within 1% of CPU_CYCLES:u",
				  "cycles %llu, CPU_CYCLES:u %llu", (ull)r->c[0].cycles,
				  (ull)r->c[0].events[0]);
		/* Root's cycle counter counts the same sleep in full. */
		err = open_bound(0, &fd);
		if (!err) {
			err = measure_sleep(fd, 20, &root_sleep);
			dev_close(&fd);
		}
		tap_note("20 ms sleep: uid 1000 cycles %llu (least of 3), root cycles %llu",
			 (ull)r->c[1].cycles, (ull)root_sleep.cycles);
		tap_check(!err && !r->err[8] && r->c[1].cycles * 10 < root_sleep.cycles,
			  "uid 1000: the cycle counter counts user mode only "
			  "(a sleep: < 1/10 of root's)",
			  "%s/%s: uid 1000 %llu, root %llu", tap_errname(r->err[8]),
			  tap_errname(err), (ull)r->c[1].cycles, (ull)root_sleep.cycles);
	}

	why = run_as(AS_GUEST, guest_child);
	if (why) {
		tap_check(false, "uid 1001 (not in group armpmu): checks ran", "%s", why);
	} else {
		tap_errno(r->err[0], EACCES, "EACCES: uid 1001 opens " DEV " read-write");
		tap_errno(r->err[1], EACCES, "EACCES: uid 1001 opens " DEV " read-only");
	}

	/* Capabilities are the opener's, taken at open(). */
	err = dev_open(&inherited_fd);
	if (!err) {
		why = run_as_lab(inherited_child);
		tap_check(!why && !r->err[0] && (r->info.flags & ARMPMU_INFO_KERNEL_ALLOWED),
			  "a file root opened keeps KERNEL_ALLOWED after setuid(1000)",
			  "%s, %s, flags %#x", why ? why : "ran", tap_errname(r->err[0]),
			  r->info.flags);
		tap_check(!why && r->err[1] == 0,
			  "a file root opened counts the kernel after setuid(1000)",
			  "%s, SET_EVENT without EXCLUDE_KERNEL: %s", why ? why : "ran",
			  tap_errname(r->err[1]));
		dev_close(&inherited_fd);
	}
}
