// SPDX-License-Identifier: GPL-2.0
/*
 * race-test: calls racing what the driver does on its own.
 *
 * Claims racing CPU hotplug: one thread takes CPU 1 offline and
 * brings it back, again and again, while another opens /dev/armpmu, binds
 * CPU 1, starts counting and closes. Whatever the interleaving, a claim
 * lands before the driver lets the CPU go (and is parked with it) or is
 * refused with ENXIO; a closed file must leave nothing on the CPU that
 * points at it. The driver checks that itself each time the CPU comes back
 * (a WARN in the kernel log), and the debug kernel's KASAN would see a
 * freed session touched.
 *
 * SET_EVENT racing a multiplexed CPU-mode file's rotation (its sets take
 * turns at every poll: the module is loaded again with poll_ms=1 for it,
 * and as it was afterwards) and racing an armed task-mode file's exec
 * (ARMPMU_ATTACH_ENABLE_ON_EXEC, START, then the counted child executes a
 * program while SET_EVENT is called again and again): every call on a
 * file that counts or is armed is refused with EBUSY, and none changes
 * what the file counts (issue 27: a call landing while the rotation
 * reloaded the counters succeeded, and an armed file's refused call still
 * took effect). Runs as root with 2 CPUs or more, prints TAP.
 *
 *   race-test [--cycles N] [--rounds N] [--no-counting]
 *
 * --rounds: rotations of the multiplexed file (poll periods of 1 ms) and
 * execs of armed files, 2000 each by default.
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

#define EXEC_PROG	"/usr/local/bin/exact-loop"

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

/* ---- SET_EVENT racing what counts ---- */

struct attempts {
	unsigned long calls, busy, succeeded, other;
	int other_err;
};

/*
 * SET_EVENT (of @slot, or of the slot selected if @slot is -1), which a
 * file that counts or is armed must refuse.
 */
static void try_set_event(int fd, int slot, struct attempts *a)
{
	int err = slot < 0 ? set_event(fd, ARMPMU_EV_CPU_CYCLES, 0) :
			     program(fd, (__u32)slot, ARMPMU_EV_CPU_CYCLES, 0);

	a->calls++;
	if (err == EBUSY) {
		a->busy++;
	} else if (!err) {
		a->succeeded++;
	} else {
		a->other++;
		a->other_err = err;
	}
}

static void check_attempts(const char *what, const struct attempts *a)
{
	tap_check(a->calls > 0 && a->busy == a->calls, what,
		  "of %lu calls %lu EBUSY, %lu succeeded, %lu failed otherwise (last %s)",
		  a->calls, a->busy, a->succeeded, a->other, tap_errname(a->other_err));
}

static int read_number(const char *path, unsigned long *val)
{
	FILE *f = fopen(path, "re");
	int ok = f && fscanf(f, "%lu", val) == 1;

	if (f)
		fclose(f);
	return ok ? 0 : ENOENT;
}

/*
 * A file bound to CPU 1 with num_counters + 2 slots takes turns every
 * millisecond there, while this thread, on CPU 0, calls SET_EVENT on a
 * slot it never programmed: refused every time, and the slot stays empty.
 */
static void test_set_event_vs_rotation(unsigned int n, unsigned long rounds)
{
	const char *name = "SET_EVENT on a multiplexed CPU-mode file racing its rotation: EBUSY every time";
	struct {
		struct armpmu_read hdr;
		struct armpmu_slot slot[ARMPMU_MAX_COUNTERS];
	} rd;
	struct attempts a = { 0 };
	unsigned long poll_ms = 0;
	__u32 slot, want = (1U << (n + 2)) - 1;
	const char *module = armpmu_module_path();
	uint64_t end;
	int fd = -1, err;

	err = module ? reload_armpmu(module, "poll_ms=1") : ENOENT;
	err = err ? err : read_number("/sys/module/armpmu/parameters/poll_ms", &poll_ms);
	err = err ? err : pin(0);
	err = err ? err : open_bound(1, &fd);
	for (slot = 0; !err && slot < n + 2; slot++)
		err = program(fd, slot, ARMPMU_EV_CPU_CYCLES, 0);
	err = err ? err : ioc_u32(fd, ARMPMU_IOC_SELECT, n + 3);
	err = err ? err : ioc0(fd, ARMPMU_IOC_START);
	if (err) {
		tap_check(false, name, "setup (module loaded again with poll_ms=1): %s",
			  tap_errname(err));
		dev_close(&fd);
		return;
	}
	/*
	 * A few calls per rotation, for @rounds rotations, and @rounds calls
	 * at least: on a busy host the board may not run this thread for the
	 * whole time (CI once saw 0 calls in 200 rotations).
	 */
	end = now_ns() + rounds * poll_ms * 1000000ULL;
	while (now_ns() < end || a.calls < rounds)
		try_set_event(fd, -1, &a);
	tap_note("%lu SET_EVENT calls over %lu rotations of %lu ms", a.calls, rounds, poll_ms);
	check_attempts(name, &a);
	err = ioc0(fd, ARMPMU_IOC_STOP);
	err = err ? err : read_slots(fd, &rd.hdr, ARMPMU_MAX_COUNTERS);
	tap_check(!err && rd.hdr.programmed == want && (rd.hdr.flags & ARMPMU_COUNTS_MULTIPLEXED),
		  "...and its slots are the ones programmed before START",
		  "%s, programmed %#x (want %#x), flags %#x", tap_errname(err),
		  rd.hdr.programmed, want, rd.hdr.flags);
	dev_close(&fd);
	err = module ? reload_armpmu(module, "") : ENOENT;
	tap_errno(err, 0, "armpmu loaded again with its default poll_ms");
}

static void exec_short_program(void *unused)
{
	(void)unused;
	execl(EXEC_PROG, "exact-loop", (char *)NULL);
}

/*
 * One round: a file counting SW_INCR in slot 0 is ATTACHed to a child
 * with ENABLE_ON_EXEC and armed; the child executes while SET_EVENT is
 * tried on slot 0 and on a slot that would make the file multiplexed,
 * until the child is gone. Returns 0, or the setup's errno.
 */
static int exec_round(unsigned int n, struct attempts *a, struct armpmu_read *rd)
{
	struct armpmu_attach at = { .flags = ARMPMU_ATTACH_ENABLE_ON_EXEC };
	int fd = -1, go = -1, err, status = 0;
	pid_t pid = start_waiting_child(&go, exec_short_program, NULL), got = 0;
	unsigned int i;

	if (pid < 0)
		return errno;
	at.tid = (__u32)pid;
	err = dev_open(&fd);
	err = err ? err : ioc(fd, ARMPMU_IOC_ATTACH, &at);
	/* Unfiltered: a PMUv1 board (cortex-a9) cannot exclude the kernel. */
	err = err ? err : program(fd, 0, ARMPMU_EV_SW_INCR, 0);
	err = err ? err : ioc0(fd, ARMPMU_IOC_START);
	if (write(go, "x", 1) != 1)
		err = err ? err : EPIPE;
	close(go);
	for (i = 0; !err && !got; i++) {
		try_set_event(fd, i & 1 ? (int)n + 2 : 0, a);
		got = waitpid(pid, &status, WNOHANG);
	}
	if (!got || got != pid)
		got = waitpid(pid, &status, 0);
	if (got != pid || !WIFEXITED(status) || WEXITSTATUS(status))
		err = err ? err : ECHILD;
	err = err ? err : read_slots(fd, rd, 1);
	dev_close(&fd);
	return err;
}

static void test_set_event_vs_exec(unsigned int n, unsigned long rounds)
{
	struct {
		struct armpmu_read hdr;
		struct armpmu_slot slot[1];
	} rd;
	struct attempts a = { 0 };
	unsigned long i, changed = 0;
	__u32 programmed = 1, flags = 0;
	int err = 0;

	for (i = 0; i < rounds && !err; i++) {
		err = exec_round(n, &a, &rd.hdr);
		if (!err && (rd.hdr.programmed != 1 ||
			     (rd.hdr.flags & ARMPMU_COUNTS_MULTIPLEXED))) {
			changed++;
			programmed = rd.hdr.programmed;
			flags = rd.hdr.flags;
		}
	}
	tap_note("%lu armed execs, %lu SET_EVENT calls", i, a.calls);
	if (!tap_errno(err, 0, "armed files' execs run"))
		return;
	check_attempts("SET_EVENT on an armed file racing its exec: EBUSY every time", &a);
	tap_check(changed == 0, "...and no refused call changed what the file counts",
		  "%lu of %lu files changed, the last programmed %#x, flags %#x", changed, i,
		  programmed, flags);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "cycles", required_argument, NULL, 'c' },
		{ "rounds", required_argument, NULL, 'r' },
		{ "no-counting", no_argument, NULL, 'n' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct toggler t = { .cycles = 200 };
	struct claims c = { 0 };
	unsigned long rounds = 2000;
	struct armpmu_info info;
	pthread_t thread;
	int opt, fd, err;

	while ((opt = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (opt) {
		case 'c':
			t.cycles = strtoul(optarg, NULL, 0);
			break;
		case 'r':
			rounds = strtoul(optarg, NULL, 0);
			break;
		case 'n':
			board_counts = false;
			break;
		default:
			fprintf(stderr, "usage: race-test [--cycles N] [--rounds N] [--no-counting]\n");
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
	err = dev_open(&fd);
	err = err ? err : ioc(fd, ARMPMU_IOC_INFO, &info);
	dev_close(&fd);
	if (tap_errno(err, 0, "INFO for the races of SET_EVENT")) {
		test_set_event_vs_rotation(info.num_counters, rounds);
		test_set_event_vs_exec(info.num_counters, rounds);
	}
	test_kernel_log();
	return tap_done();
}
