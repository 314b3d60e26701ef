// SPDX-License-Identifier: GPL-2.0
/*
 * armpmu-test, --icount only: more events than counters. The module is
 * loaded again with poll_ms=1, so that the sets of a multiplexed file take
 * many turns in a short loop; then each slot's count, scaled by its times,
 * is held against the exact count of the same loop, in both modes.
 */
#include <stdio.h>
#include <stdlib.h>

#include "common.h"

/* Trips of loop_n(): about 20 ms of guest time, 20 turns at 1 ms. */
#define MUX_TRIPS	10000000UL

struct mux_buf {
	struct armpmu_read hdr;
	struct armpmu_slot slot[ARMPMU_MAX_COUNTERS];
};

/* A fresh file of @mode ("task" or "CPU"), pinned to CPU 0. */
static int mux_open(bool cpu_mode, int *fd)
{
	pin(0);
	return cpu_mode ? open_bound(0, fd) : dev_open(fd);
}

/* The exact INST_RETIRED:u of the loop, from slot 0 alone. */
static int exact_count(bool cpu_mode, uint64_t *count)
{
	struct armpmu_counts c;
	int fd, err = mux_open(cpu_mode, &fd);

	err = err ? err : program(fd, 0, ARMPMU_EV_INST_RETIRED, EXCL_K);
	err = err ? err : measure_loop(fd, MUX_TRIPS, &c);
	*count = c.events[0];
	dev_close(&fd);
	return err;
}

/* Within 1%, value * time_enabled / time_running against @want. */
static bool scaled_ok(const struct armpmu_slot *s, uint64_t want, double *scaled)
{
	if (!s->time_running)
		return false;
	*scaled = (double)s->value * (double)s->time_enabled / (double)s->time_running;
	return *scaled > want * 0.99 && *scaled < want * 1.01;
}

/*
 * num_counters + 4 slots: INST_RETIRED:u and CPU_CYCLES:u (the same count
 * under icount) by turns, slots 0-1 in group 1 and the last two in group 2.
 */
static int program_mux(int fd, unsigned int nev)
{
	int err = 0;

	for (unsigned int i = 0; i < nev && !err; i++) {
		__u32 group = i < 2 ? 1 : i >= nev - 2 ? 2 : 0;

		err = program_group(fd, i, i % 2 ? ARMPMU_EV_CPU_CYCLES : ARMPMU_EV_INST_RETIRED,
				    EXCL_K, group);
	}
	return err;
}

/* FILE_STATUS shows the slots; SET_VALUE sets a slot's count (stopped). */
static void check_mux_status(int fd, const char *mode, unsigned int nev)
{
	struct armpmu_file_status st = { .id = 1 };
	struct armpmu_value val = { .counter = nev - 1, .value = 0x123456789ULL };
	__u32 want = (1U << ARMPMU_CYCLE_COUNTER) | ((1U << nev) - 1);
	struct mux_buf rd;
	char name[128];
	int err;

	while (!(err = ioc(fd, ARMPMU_IOC_FILE_STATUS, &st)) && !(st.flags & ARMPMU_FILE_CALLER))
		st.id++;
	snprintf(name, sizeof(name), "multiplex, %s: FILE_STATUS.counters shows every slot",
		 mode);
	tap_check(!err && st.counters == want, name, "%s: counters %#x, expected %#x",
		  tap_errname(err), st.counters, want);
	err = ioc(fd, ARMPMU_IOC_SET_VALUE, &val);
	err = err ? err : read_slots(fd, &rd.hdr, nev);
	snprintf(name, sizeof(name), "multiplex, %s: SET_VALUE of slot %u reads back", mode,
		 nev - 1);
	tap_check(!err && rd.slot[nev - 1].value == val.value, name, "%s: %#llx",
		  tap_errname(err), (ull)rd.slot[nev - 1].value);
}

static void check_mux(bool cpu_mode, uint64_t want)
{
	const char *mode = cpu_mode ? "CPU mode" : "task mode";
	unsigned int nev = num_counters + 4, bad = 0, i;
	struct mux_buf rd;
	struct armpmu_counts c;
	double scaled, worst = 0, lo = 1, hi = 0;
	char name[128], why[160] = "";
	int fd, err = mux_open(cpu_mode, &fd);

	err = err ? err : program_mux(fd, nev);
	snprintf(name, sizeof(name), "multiplex, %s: %u events on %u counters programmed",
		 mode, nev, num_counters);
	if (!tap_errno(err, 0, name)) {
		dev_close(&fd);
		return;
	}
	err = measure_loop(fd, MUX_TRIPS, &c);
	err = err ? err : read_slots(fd, &rd.hdr, nev);
	snprintf(name, sizeof(name), "multiplex, %s: READ_SLOTS says multiplexed, %u slots",
		 mode, nev);
	tap_check(!err && (rd.hdr.flags & ARMPMU_COUNTS_MULTIPLEXED) && rd.hdr.slots == nev &&
		  rd.hdr.programmed == (1U << nev) - 1, name,
		  "%s: flags %#x, slots %u, programmed %#x", tap_errname(err), rd.hdr.flags,
		  rd.hdr.slots, rd.hdr.programmed);
	for (i = 0; !err && i < nev; i++) {
		const struct armpmu_slot *s = &rd.slot[i];
		double frac = s->time_enabled ? (double)s->time_running / s->time_enabled : 0;
		bool ok = scaled_ok(s, want, &scaled);
		double e = ok || s->time_running ? (scaled - want) / want : 1;

		ok &= frac > 0 && frac < 1;
		worst = e < 0 ? (-e > worst ? -e : worst) : (e > worst ? e : worst);
		lo = frac < lo ? frac : lo;
		hi = frac > hi ? frac : hi;
		if (!ok && !bad++)
			snprintf(why, sizeof(why),
				 "slot %u: value %llu, enabled %llu, running %llu, exact %llu", i,
				 (ull)s->value, (ull)s->time_enabled, (ull)s->time_running,
				 (ull)want);
	}
	tap_note("%s: %u slots, worst scaled error %.4f%%, running fractions %.3f-%.3f",
		 mode, nev, worst * 100, lo, hi);
	snprintf(name, sizeof(name),
		 "multiplex, %s: each scaled count within 1%% of the exact one, ran 0 < f < 1",
		 mode);
	tap_check(!err && !bad, name, "%u slots off; %s", bad, why);
	snprintf(name, sizeof(name), "multiplex, %s: a group's members ran the same time",
		 mode);
	tap_check(!err && rd.slot[0].time_running == rd.slot[1].time_running &&
		  rd.slot[nev - 2].time_running == rd.slot[nev - 1].time_running, name,
		  "group 1: %llu %llu, group 2: %llu %llu", (ull)rd.slot[0].time_running,
		  (ull)rd.slot[1].time_running, (ull)rd.slot[nev - 2].time_running,
		  (ull)rd.slot[nev - 1].time_running);
	/* Old READ: raw counts, flagged, covering every slot. */
	err = read_counts(fd, &c);
	bad = 0;
	for (i = 0; !err && i < nev; i++)
		bad += c.events[i] != rd.slot[i].value;
	snprintf(name, sizeof(name),
		 "multiplex, %s: READ flags MULTIPLEXED and INCOMPLETE, raw counts", mode);
	tap_check(!err && bad == 0 && c.nr >= nev &&
		  (c.flags & (ARMPMU_COUNTS_MULTIPLEXED | ARMPMU_COUNTS_INCOMPLETE)) ==
		  (ARMPMU_COUNTS_MULTIPLEXED | ARMPMU_COUNTS_INCOMPLETE), name,
		  "%s: flags %#x, nr %u, %u entries differ", tap_errname(err), c.flags, c.nr, bad);
	check_mux_status(fd, mode, nev);
	dev_close(&fd);
}

/* Every counter programmed, none beyond: exact, unflagged, as before. */
static void check_unmultiplexed(bool cpu_mode, uint64_t want)
{
	const char *mode = cpu_mode ? "CPU mode" : "task mode";
	struct mux_buf rd;
	struct armpmu_counts c;
	unsigned int i, bad = 0;
	char name[128];
	int fd, err = mux_open(cpu_mode, &fd);

	for (i = 0; i < num_counters && !err; i++)
		err = program_group(fd, i, ARMPMU_EV_INST_RETIRED, EXCL_K, i < 2);
	err = err ? err : measure_loop(fd, MUX_TRIPS, &c);
	err = err ? err : read_slots(fd, &rd.hdr, num_counters);
	for (i = 0; !err && i < num_counters; i++)
		bad += rd.slot[i].value != want || c.events[i] != want ||
		       rd.slot[i].time_running != rd.slot[i].time_enabled ||
		       rd.slot[i].time_enabled != rd.hdr.time_enabled;
	snprintf(name, sizeof(name),
		 "no rotation, %s: %u counters exact, running == enabled, not flagged", mode,
		 num_counters);
	tap_check(!err && !bad && !(c.flags & ARMPMU_COUNTS_MULTIPLEXED) &&
		  !(rd.hdr.flags & ARMPMU_COUNTS_MULTIPLEXED), name,
		  "%s: %u slots off (exact %llu, slot 0 %llu), flags %#x", tap_errname(err), bad,
		  (ull)want, (ull)rd.slot[0].value, rd.hdr.flags);
	dev_close(&fd);
}

void test_multiplex(void)
{
	const char *path = armpmu_module_path();
	uint64_t want;
	int err;

	if (!icount) {
		tap_skip("multiplexed counts scaled within 1%", "exact counts need --icount");
		return;
	}
	if (!tap_check(path && !reload_armpmu(path, "poll_ms=1"),
		       "multiplex: armpmu loaded again with poll_ms=1", "path %s: %s",
		       path ? path : "(none)", tap_errname(errno)))
		return;
	for (int cpu_mode = 0; cpu_mode < 2; cpu_mode++) {
		err = exact_count(cpu_mode, &want);
		if (!tap_errno(err, 0, cpu_mode ? "multiplex, CPU mode: the exact count" :
			       "multiplex, task mode: the exact count"))
			continue;
		tap_note("%s: exact INST_RETIRED:u %llu", cpu_mode ? "CPU mode" : "task mode",
			 (ull)want);
		check_unmultiplexed(cpu_mode, want);
		check_mux(cpu_mode, want);
	}
	tap_check(!reload_armpmu(path, ""), "multiplex: armpmu loaded again with defaults",
		  "%s", tap_errname(errno));
}
