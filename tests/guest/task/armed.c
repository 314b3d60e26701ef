// SPDX-License-Identifier: GPL-2.0
/*
 * task-test: a file armed with ARMPMU_ATTACH_ENABLE_ON_EXEC (started,
 * waiting for its thread's exec) refuses SET_EVENT, SET_VALUE,
 * SET_CYCLE_FILTER and SET_DIVIDER with EBUSY, and a refused call changes
 * nothing: after the exec the file counts as it was configured before the
 * call, no slot programmed, no count set, no multiplexing switched on.
 * (The driver before issue 27's fix answered EBUSY and applied the call.)
 * The counted program is exact-loop, whose user-mode instructions are
 * known: under --icount the counts are asserted exactly.
 */
#include <string.h>
#include <sys/utsname.h>

#include "../checks.h"
#include "task.h"

#define EXCL_U		ARMPMU_EXCLUDE_USER
#define LOOP_PROG	"/usr/local/bin/exact-loop"
#define LOOP_ARGC	10
#define SET_VALUE_TO	(1ULL << 40)

enum refusal { EVENT_SLOT0, EVENT_MUX, VALUE, CYCLE_FILTER, DIVIDER, NR_REFUSALS };

static const char *const refusal_name[NR_REFUSALS] = {
	[EVENT_SLOT0] = "SET_EVENT of slot 0",
	[EVENT_MUX] = "SET_EVENT of a slot above num_counters",
	[VALUE] = "SET_VALUE of counter 0",
	[CYCLE_FILTER] = "SET_CYCLE_FILTER excluding everything",
	[DIVIDER] = "SET_DIVIDER 1",
};

/* exact-loop's user-mode instructions, the SVC included, by its ISA. */
static unsigned long long loop_insns(void)
{
	struct utsname u;
	bool a64 = !uname(&u) && strcmp(u.machine, "aarch64") == 0;

	return 2ULL * 100000 * LOOP_ARGC + (a64 ? 7 : 6);
}

static void exec_loop(void *unused)
{
	char *argv[LOOP_ARGC + 1];
	int i;

	(void)unused;
	for (i = 0; i < LOOP_ARGC; i++)
		argv[i] = (char *)"x";
	argv[LOOP_ARGC] = NULL;
	execv(LOOP_PROG, argv);
}

static int refuse(int fd, enum refusal r)
{
	struct armpmu_event ev = { .event = work_event(), .flags = EXCL_K };
	struct armpmu_value val = { .counter = 0, .value = SET_VALUE_TO };
	int err;

	switch (r) {
	case EVENT_SLOT0:
		return ioc(fd, ARMPMU_IOC_SET_EVENT, &ev);
	case EVENT_MUX:
		err = ioc_u32(fd, ARMPMU_IOC_SELECT, task_num_counters + 2);
		return err ? err : ioc(fd, ARMPMU_IOC_SET_EVENT, &ev);
	case VALUE:
		return ioc(fd, ARMPMU_IOC_SET_VALUE, &val);
	case CYCLE_FILTER:
		return ioc_u32(fd, ARMPMU_IOC_SET_CYCLE_FILTER, EXCL_U | EXCL_K);
	case DIVIDER:
		return ioc_u32(fd, ARMPMU_IOC_SET_DIVIDER, 1);
	default:
		return EINVAL;
	}
}

struct armed_run {
	int err;			/* of the setup and the reads */
	int refused;			/* the refused call's errno */
	struct {
		struct armpmu_read hdr;
		struct armpmu_slot slot[1];
	} before, after;
	struct armpmu_counts c;
};

/*
 * Slot 0 counts @event in user mode, the cycle counter too; the file is
 * ATTACHed to a child with ENABLE_ON_EXEC and armed, then @r is tried; the
 * child executes exact-loop, and the counts are read after it exited.
 */
static void armed_run(enum refusal r, __u32 event, struct armed_run *res)
{
	struct armpmu_attach at = { .flags = ARMPMU_ATTACH_ENABLE_ON_EXEC };
	int fd = -1, go = -1, status, err;
	pid_t pid;

	memset(res, 0, sizeof(*res));
	pid = start_waiting_child(&go, exec_loop, NULL);
	if (pid < 0) {
		res->err = errno;
		return;
	}
	at.tid = (__u32)pid;
	err = dev_open(&fd);
	err = err ? err : ioc(fd, ARMPMU_IOC_ATTACH, &at);
	err = err ? err : program(fd, 0, event, EXCL_K);
	err = err ? err : ioc_u32(fd, ARMPMU_IOC_SET_CYCLE_FILTER, EXCL_K);
	err = err ? err : ioc0(fd, ARMPMU_IOC_START);
	if (!err) {
		res->refused = refuse(fd, r);
		err = read_slots(fd, &res->before.hdr, 1);
	}
	if (write(go, "x", 1) != 1)
		err = err ? err : EPIPE;
	close(go);
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status))
		err = err ? err : ECHILD;
	err = err ? err : read_slots(fd, &res->after.hdr, 1);
	err = err ? err : read_counts(fd, &res->c);
	res->err = err;
	dev_close(&fd);
}

/* What a refused @r would have changed is as it was. */
static bool unchanged(enum refusal r, const struct armed_run *res, char *why, size_t size)
{
	const struct armpmu_counts *c = &res->c;
	unsigned long long want = loop_insns();

	snprintf(why, size, "event %llu, cycles %llu, flags %#x, slot 0 running %llu of %llu ns",
		 (ull)c->events[0], (ull)c->cycles, c->flags,
		 (ull)res->after.slot[0].time_running, (ull)res->after.slot[0].time_enabled);
	switch (r) {
	case EVENT_SLOT0:
		/* SW_INCR, which nothing writes: 0; the refused event counts. */
		return c->events[0] == 0;
	case EVENT_MUX:
		return !(c->flags & ARMPMU_COUNTS_MULTIPLEXED) && c->events[0] > 0 &&
		       res->after.slot[0].time_running == res->after.slot[0].time_enabled &&
		       (!task_icount || c->events[0] == want);
	case VALUE:
		return c->events[0] > 0 && c->events[0] < SET_VALUE_TO &&
		       (!task_icount || c->events[0] == want);
	case CYCLE_FILTER:
		return c->cycles > 0 && (!task_icount || c->events[0] == want);
	case DIVIDER:
		/* User-mode cycles against the same run's cycles: not a 64th. */
		return c->cycles * 2 > c->events[0] && (!task_icount || c->events[0] == want);
	default:
		return false;
	}
}

void test_armed_refusals(void)
{
	struct armpmu_info info;
	struct armed_run res;
	char name[160], why[160];
	bool can_divide = false;
	int fd, r;

	if (!dev_open(&fd)) {
		can_divide = !ioc(fd, ARMPMU_IOC_INFO, &info) &&
			     (info.flags & ARMPMU_INFO_CAN_DIVIDE);
		dev_close(&fd);
	}
	for (r = 0; r < NR_REFUSALS; r++) {
		snprintf(name, sizeof(name), "armed file: %s refused with EBUSY",
			 refusal_name[r]);
		if (r == DIVIDER && !can_divide) {
			tap_skip(name, "the core cannot divide the cycle counter");
			continue;
		}
		armed_run(r, r == EVENT_SLOT0 ? ARMPMU_EV_SW_INCR : work_event(), &res);
		if (res.err) {
			tap_check(false, name, "setup: %s", tap_errname(res.err));
			continue;
		}
		tap_errno(res.refused, EBUSY, name);
		snprintf(name, sizeof(name), "armed file: after a refused %s, the slots as they were",
			 refusal_name[r]);
		tap_check(res.before.hdr.programmed == 1 && res.after.hdr.programmed == 1 &&
			  res.after.hdr.slots == 1 &&
			  !(res.before.hdr.flags & ARMPMU_COUNTS_MULTIPLEXED) &&
			  !(res.after.hdr.flags & ARMPMU_COUNTS_MULTIPLEXED),
			  name, "programmed %#x then %#x, slots %u, flags %#x then %#x",
			  res.before.hdr.programmed, res.after.hdr.programmed,
			  res.after.hdr.slots, res.before.hdr.flags, res.after.hdr.flags);
		snprintf(name, sizeof(name), task_icount ?
			 "armed file: after a refused %s, the exec counted exactly as configured" :
			 "armed file: after a refused %s, the exec counted as configured",
			 refusal_name[r]);
		tap_check(unchanged((enum refusal)r, &res, why, sizeof(why)), name, "%s (want %llu)",
			  why, loop_insns());
	}
}
