// SPDX-License-Identifier: GPL-2.0
/*
 * coexist-test: armpmu and Linux's perf on the same PMU. On the arm64
 * boards and the Raspberry Pi 2 (whose device tree names its PMU) perf's
 * driver is live: a per-CPU perf event holds a counter (perf allocates
 * from 0 up; its cycles event goes to the cycle counter, and so does a raw
 * CPU_CYCLES on arm64 but not on armv7) before or during a measurement. armpmu must refuse what perf holds, leave
 * perf's counts alone, and report its own counts as disturbed when perf
 * takes its counters, even when perf programs them exactly as armpmu did,
 * without ever touching perf's counters again. Runs as root in the guest,
 * prints TAP.
 *
 *   coexist-test [--icount]
 *
 * perf's INST_RETIRED counts only under QEMU's -icount: without --icount,
 * that perf kept counting is not checked.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <linux/perf_event.h>
#include <sys/syscall.h>

#include "devio.h"
#include "tap.h"

#define SPIN			200000UL

static struct armpmu_info info;
static bool icount;

/*
 * A pinned per-CPU perf event on CPU 0 counting raw event @config, user
 * mode only if @user_only: then perf programs the counter exactly as
 * armpmu programs a user-only event (P set, nothing else).
 */
static int perf_open_filtered(__u64 config, bool user_only, int *fd)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_RAW,
		.size = sizeof(attr),
		.config = config,
		.pinned = 1,
		.exclude_kernel = user_only,
		.exclude_hv = user_only,
	};

	*fd = (int)syscall(SYS_perf_event_open, &attr, -1, 0, -1, PERF_FLAG_FD_CLOEXEC);
	return *fd < 0 ? errno : 0;
}

static int perf_open(__u64 config, int *fd)
{
	return perf_open_filtered(config, false, fd);
}

/* A pinned per-CPU perf event on CPU 0 counting perf's own cycles event. */
static int perf_open_cycles(int *fd)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_HARDWARE,
		.size = sizeof(attr),
		.config = PERF_COUNT_HW_CPU_CYCLES,
		.pinned = 1,
	};

	*fd = (int)syscall(SYS_perf_event_open, &attr, -1, 0, -1, PERF_FLAG_FD_CLOEXEC);
	return *fd < 0 ? errno : 0;
}

/*
 * Whether perf's PMU is Linux's armv7 driver (a 32-bit kernel; its PMUs are
 * named armv7_*), which gives the cycle counter only its own cycles event
 * (0xFF) and puts a raw CPU_CYCLES on an event counter. arm64's driver
 * (armv8_*) puts a raw CPU_CYCLES on the cycle counter.
 */
static bool perf_is_armv7(void)
{
	DIR *d = opendir("/sys/bus/event_source/devices");
	struct dirent *e;
	bool v7 = false;

	if (!d)
		return false;
	while ((e = readdir(d)))
		v7 |= !strncmp(e->d_name, "armv7_", 6);
	closedir(d);
	return v7;
}

static uint64_t perf_count(int fd)
{
	uint64_t v = 0;

	if (read(fd, &v, sizeof(v)) != sizeof(v))
		return 0;
	return v;
}

static int foreign_counters(int fd, __u32 *mask)
{
	struct armpmu_cpu_status st = { .cpu = 0 };
	int err = ioc(fd, ARMPMU_IOC_CPU_STATUS, &st);

	*mask = st.foreign_counters;
	return err;
}

/* pmuctl status's line for CPU 0 contains @text (its output as notes). */
static bool status_shows(const char *text)
{
	FILE *p = popen("pmuctl status", "r");
	char line[256];
	bool found = false;

	if (!p)
		return false;
	while (fgets(line, sizeof(line), p)) {
		line[strcspn(line, "\n")] = '\0';
		if (line[0] == '0' && line[1] == ' ') {
			found = strstr(line, text) != NULL;
			tap_note("pmuctl status: %s", line);
		}
	}
	return pclose(p) == 0 && found;
}

/*
 * perf counts cycles on CPU 0: its own cycles event, or a raw CPU_CYCLES
 * (@raw). Where perf put it on the cycle counter, which START needs,
 * CPU_STATUS says so and START is refused; a raw CPU_CYCLES under armv7's
 * driver takes event counter 0 instead, and armpmu counts beside it with
 * its top counter and the cycle counter.
 */
static void test_perf_cycles(bool raw)
{
	const char *what = raw ? "raw CPU_CYCLES" : "cycles event";
	bool on_ccnt = !raw || !perf_is_armv7();
	__u32 top = info.num_counters - 1, mask = 0, want;
	uint64_t before, after;
	struct armpmu_counts c;
	int pfd, fd, err;
	char name[160];

	err = raw ? perf_open(ARMPMU_EV_CPU_CYCLES, &pfd) : perf_open_cycles(&pfd);
	snprintf(name, sizeof(name), "perf: a per-CPU %s on CPU 0 opens", what);
	if (!tap_errno(err, 0, name))
		return;
	err = open_bound(0, &fd);
	err = err ? err : foreign_counters(fd, &mask);
	want = on_ccnt ? 1U << ARMPMU_CYCLE_COUNTER : 1U;
	snprintf(name, sizeof(name), "CPU_STATUS: perf put its %s on %s", what,
		 on_ccnt ? "the cycle counter" : "event counter 0 (armv7's driver)");
	tap_check(!err && mask == want, name, "%s: foreign counters %#x, expected %#x",
		  tap_errname(err), mask, want);
	err = err ? err : program(fd, top, ARMPMU_EV_CPU_CYCLES, 0);
	before = perf_count(pfd);
	if (on_ccnt) {
		snprintf(name, sizeof(name), "EBUSY: START while perf holds the cycle counter (%s)",
			 what);
		tap_errno(err ? err : ioc0(fd, ARMPMU_IOC_START), EBUSY, name);
		loop_n(SPIN);
	} else {
		err = err ? err : measure_loop(fd, SPIN, &c);
		tap_check(!err && c.events[top] > 0 && c.cycles > 0 && c.flags == 0,
			  "armpmu counts with the cycle counter beside perf's raw CPU_CYCLES, undisturbed",
			  "%s: flags %#x, cycles %llu, CPU_CYCLES %llu", tap_errname(err),
			  c.flags, (ull)c.cycles, (ull)c.events[top]);
	}
	after = perf_count(pfd);
	snprintf(name, sizeof(name), "perf's %s count is untouched by armpmu's %s", what,
		 on_ccnt ? "refused START" : "measurement");
	/*
	 * Without icount perf's cycles are host time, which a fast host may
	 * advance by less than the loop's instructions: there it must only
	 * have gone on counting.
	 */
	tap_check(icount ? after - before >= SPIN : after > before, name,
		  "perf read %llu then %llu", (ull)before, (ull)after);
	dev_close(&fd);
	close(pfd);
}

/* perf holds counter 0, armpmu counts beside it with the top counter. */
static void test_perf_first(void)
{
	__u32 top = info.num_counters - 1, mask = 0;
	uint64_t before, after;
	struct armpmu_counts c;
	int pfd, fd, err;

	err = perf_open(ARMPMU_EV_INST_RETIRED, &pfd);
	if (!tap_errno(err, 0, "perf: a per-CPU event on CPU 0 opens"))
		return;
	err = open_bound(0, &fd);
	if (!tap_errno(err, 0, "armpmu binds CPU 0 beside perf")) {
		close(pfd);
		return;
	}
	err = foreign_counters(fd, &mask);
	tap_check(!err && (mask & 1), "CPU_STATUS shows perf's counter 0 as foreign",
		  "%s: foreign counters %#x", tap_errname(err), mask);
	tap_errno(program(fd, 0, ARMPMU_EV_CPU_CYCLES, 0), EBUSY,
		  "EBUSY: SET_EVENT on the counter perf holds");
	tap_check(status_shows("perf or another driver: counters 0"),
		  "pmuctl status says perf holds counter 0 of CPU 0", "see its output above");
	before = perf_count(pfd);
	err = program(fd, top, ARMPMU_EV_CPU_CYCLES, 0);
	err |= measure_loop(fd, SPIN, &c);
	after = perf_count(pfd);
	tap_check(!err && c.events[top] > 0 && within_pct(c.events[top], c.cycles, 2) &&
		  !(c.flags & ARMPMU_COUNTS_DISTURBED),
		  "armpmu counts on the top counter beside perf, undisturbed",
		  "%s: flags %#x, cycles %llu, CPU_CYCLES %llu", tap_errname(err), c.flags,
		  (ull)c.cycles, (ull)c.events[top]);
	if (icount)
		tap_check(after - before > SPIN, "perf's event kept counting during armpmu's measurement",
			  "perf read %llu then %llu", (ull)before, (ull)after);
	else
		tap_skip("perf's event kept counting during armpmu's measurement",
			 "QEMU counts INST_RETIRED only with --icount");
	tap_note("beside perf: armpmu cycles %llu; perf INST_RETIRED %llu -> %llu",
		 (ull)c.cycles, (ull)before, (ull)after);
	dev_close(&fd);
	close(pfd);

	test_perf_cycles(false);
	test_perf_cycles(true);
}

/* perf arrives while armpmu counts on counter 0: armpmu must say so. */
static void test_perf_during(void)
{
	struct armpmu_counts c;
	__u32 mask = 0;
	int pfd = -1, fd, err;

	err = open_bound(0, &fd);
	err |= program(fd, 0, ARMPMU_EV_CPU_CYCLES, 0);
	err |= ioc0(fd, ARMPMU_IOC_START);
	loop_n(SPIN);
	err |= read_counts(fd, &c);
	if (!tap_errno(err, 0, "armpmu counts on counter 0 before perf comes")) {
		dev_close(&fd);
		return;
	}
	err = perf_open(ARMPMU_EV_INST_RETIRED, &pfd);
	tap_errno(err, 0, "perf: a per-CPU event on CPU 0 opens during the measurement");
	loop_n(SPIN);
	err = read_counts(fd, &c);
	tap_check(err == EIO && (c.flags & ARMPMU_COUNTS_DISTURBED) &&
		  !(c.flags & ARMPMU_COUNTS_RUNNING),
		  "EIO: READ after perf took counter 0, counts flagged DISTURBED, stopped",
		  "%s, flags %#x", tap_errname(err), c.flags);
	tap_errno(ioc0(fd, ARMPMU_IOC_START), EIO, "EIO: START of disturbed counts");
	err = foreign_counters(fd, &mask);
	tap_check(!err && (mask & 1), "CPU_STATUS: counter 0 is perf's now",
		  "%s: foreign counters %#x", tap_errname(err), mask);
	err = ioc0(fd, ARMPMU_IOC_RESET);
	tap_errno(err ? err : ioc0(fd, ARMPMU_IOC_START), EBUSY,
		  "EBUSY: after RESET, START while perf holds counter 0");
	if (pfd >= 0)
		close(pfd);
	err = measure_loop(fd, SPIN, &c);
	tap_check(!err && c.events[0] > 0 && c.flags == 0,
		  "once perf is gone: RESET, START and READ work again",
		  "%s: flags %#x, events[0] %llu", tap_errname(err), c.flags, (ull)c.events[0]);
	dev_close(&fd);
}

/* After armpmu's @what, perf's INST_RETIRED still counts a loop. */
static void check_perf_counts_on(int pfd, const char *how, const char *what)
{
	uint64_t before, after;
	char name[160];

	before = perf_count(pfd);
	loop_n(SPIN);
	after = perf_count(pfd);
	snprintf(name, sizeof(name), "perf's counter (%s) keeps counting after armpmu's %s",
		 how, what);
	if (icount)
		tap_check(after - before >= 2 * SPIN, name, "perf read %llu then %llu",
			  (ull)before, (ull)after);
	else
		tap_skip(name, "QEMU counts INST_RETIRED only with --icount");
}

/*
 * An event both armpmu and perf put on an event counter: INST_RETIRED under
 * icount, where it counts; otherwise SW_INCR, the one other event QEMU's
 * PMCEID lists (CPU_CYCLES would go to perf's cycle counter).
 */
static __u32 shared_event(void)
{
	return icount ? ARMPMU_EV_INST_RETIRED : ARMPMU_EV_SW_INCR;
}

static const char *shared_event_name(void)
{
	return icount ? "INST_RETIRED" : "SW_INCR";
}

/*
 * armpmu counts the shared event in user mode on counter 0; perf arrives with it
 * on CPU 0 and takes counter 0, user-only (the very encoding armpmu wrote)
 * or kernel and user. armpmu must see it, and its STOP and close must
 * leave perf's counter running.
 */
static void test_takeover(bool user_only)
{
	const char *how = user_only ? "user-only, armpmu's own encoding" : "kernel and user";
	struct armpmu_counts c;
	int pfd, fd, err;
	char name[160];

	err = open_bound(0, &fd);
	err = err ? err : program(fd, 0, shared_event(), ARMPMU_EXCLUDE_KERNEL);
	err = err ? err : ioc0(fd, ARMPMU_IOC_START);
	snprintf(name, sizeof(name), "armpmu counts %s:u on counter 0 (perf: %s)",
		 shared_event_name(), how);
	if (!tap_errno(err, 0, name)) {
		dev_close(&fd);
		return;
	}
	err = perf_open_filtered(shared_event(), user_only, &pfd);
	snprintf(name, sizeof(name), "perf: a per-CPU %s event (%s) opens", shared_event_name(),
		 how);
	if (!tap_errno(err, 0, name)) {
		dev_close(&fd);
		return;
	}
	loop_n(SPIN);
	err = read_counts(fd, &c);
	snprintf(name, sizeof(name),
		 "EIO: READ after perf took counter 0 (%s), flagged DISTURBED", how);
	tap_check(err == EIO && (c.flags & ARMPMU_COUNTS_DISTURBED), name,
		  "%s, flags %#x, events[0] %llu", tap_errname(err), c.flags, (ull)c.events[0]);
	snprintf(name, sizeof(name), "STOP after the takeover (%s) succeeds", how);
	tap_errno(ioc0(fd, ARMPMU_IOC_STOP), 0, name);
	check_perf_counts_on(pfd, how, "STOP");
	dev_close(&fd);
	check_perf_counts_on(pfd, how, "close");
	close(pfd);
}

/*
 * RESET of counts perf disturbed, while counting: it must not succeed and
 * leave nothing counting. While perf holds the counter it fails with EBUSY
 * and changes nothing; once perf is gone it counts again from zero.
 */
static void test_reset_disturbed(void)
{
	struct armpmu_counts c;
	int pfd = -1, fd, err;

	err = open_bound(0, &fd);
	err = err ? err : program(fd, 0, ARMPMU_EV_CPU_CYCLES, ARMPMU_EXCLUDE_KERNEL);
	err = err ? err : ioc0(fd, ARMPMU_IOC_START);
	err = err ? err : perf_open(ARMPMU_EV_INST_RETIRED, &pfd);
	if (!tap_errno(err, 0, "armpmu counts CPU_CYCLES:u on counter 0, then perf takes it")) {
		dev_close(&fd);
		if (pfd >= 0)
			close(pfd);
		return;
	}
	loop_n(SPIN);
	tap_errno(ioc0(fd, ARMPMU_IOC_RESET), EBUSY,
		  "EBUSY: RESET of disturbed counts while perf holds the counter");
	err = read_counts(fd, &c);
	tap_check(err == EIO && (c.flags & ARMPMU_COUNTS_DISTURBED) &&
		  !(c.flags & ARMPMU_COUNTS_RUNNING),
		  "the refused RESET changed nothing: READ still EIO, DISTURBED",
		  "%s, flags %#x", tap_errname(err), c.flags);
	close(pfd);
	tap_errno(ioc0(fd, ARMPMU_IOC_RESET), 0, "RESET once perf is gone");
	loop_n(SPIN);
	err = read_counts(fd, &c);
	/*
	 * Without icount both count host time, which a fast host spends in
	 * fewer nanoseconds than the loop has trips: only "counting" holds.
	 */
	tap_check(!err && c.flags == ARMPMU_COUNTS_RUNNING && c.events[0] > 0 && c.cycles > 0,
		  "after that RESET the file counts again, from zero",
		  "%s, flags %#x, events[0] %llu, cycles %llu", tap_errname(err), c.flags,
		  (ull)c.events[0], (ull)c.cycles);
	dev_close(&fd);
}

/*
 * Task mode beside perf: this thread counts the shared event on counter 0
 * and perf takes counter 0 on the thread's CPU. READ must say so: EIO and
 * DISTURBED when perf took the counter while it was loaded, INCOMPLETE
 * when the thread ran while perf held it; never a plain count. Once perf
 * is gone, RESET and the counts are complete again.
 */
static void test_task_beside_perf(void)
{
	struct armpmu_counts c;
	int fd, pfd = -1, err;
	bool said;

	err = dev_open(&fd);
	err = err ? err : program(fd, 0, shared_event(), ARMPMU_EXCLUDE_KERNEL);
	err = err ? err : ioc_u32(fd, ARMPMU_IOC_SET_CYCLE_FILTER, ARMPMU_EXCLUDE_KERNEL);
	err = err ? err : ioc0(fd, ARMPMU_IOC_START);
	err = err ? err : perf_open_filtered(shared_event(), true, &pfd);
	if (!tap_errno(err, 0, "task mode: counting on counter 0, then perf takes it")) {
		dev_close(&fd);
		if (pfd >= 0)
			close(pfd);
		return;
	}
	loop_n(SPIN);
	err = read_counts(fd, &c);
	said = (err == EIO && (c.flags & ARMPMU_COUNTS_DISTURBED)) ||
	       (!err && (c.flags & ARMPMU_COUNTS_INCOMPLETE) && c.time_running < c.time_enabled);
	tap_check(said, "task mode beside perf: READ says disturbed or incomplete, never a plain count",
		  "%s, flags %#x, events[0] %llu, enabled %llu, running %llu", tap_errname(err),
		  c.flags, (ull)c.events[0], (ull)c.time_enabled, (ull)c.time_running);
	close(pfd);
	err = ioc0(fd, ARMPMU_IOC_RESET);
	loop_n(SPIN);
	err = err ? err : read_counts(fd, &c);
	tap_check(!err && c.flags == ARMPMU_COUNTS_RUNNING && c.time_running == c.time_enabled &&
		  c.cycles > 0, "task mode: once perf is gone, RESET and the counts are complete",
		  "%s, flags %#x, enabled %llu, running %llu", tap_errname(err), c.flags,
		  (ull)c.time_enabled, (ull)c.time_running);
	dev_close(&fd);
}

int main(int argc, char **argv)
{
	int fd = -1, pfd, err;

	icount = argc == 2 && !strcmp(argv[1], "--icount");
	if (argc > 2 || (argc == 2 && !icount)) {
		fprintf(stderr, "usage: coexist-test [--icount]\n");
		return 2;
	}
	tap_init();
	err = pin(0);
	if (!err)
		err = dev_open(&fd);
	if (!err)
		err = ioc(fd, ARMPMU_IOC_INFO, &info);
	dev_close(&fd);
	if (!tap_errno(err, 0, "open the device and read INFO"))
		return tap_done();
	/* 32-bit boards: QEMU's DT gives perf no PMU there. */
	if (perf_open(ARMPMU_EV_INST_RETIRED, &pfd)) {
		tap_skip("armpmu beside perf", "no perf PMU on this board (%s)",
			 tap_errname(errno));
	} else {
		close(pfd);
		test_perf_first();
		test_perf_during();
		test_takeover(true);
		test_takeover(false);
		test_reset_disturbed();
		test_task_beside_perf();
	}
	test_kernel_log();
	return tap_done();
}
