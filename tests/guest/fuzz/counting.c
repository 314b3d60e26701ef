// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz: a legal counting sequence, as a real user makes it, amid the noise.
 */
#include "common.h"
#include "../pmu-asm.h"

static int seq_call(struct worker *w, int fd, const char *fdkind, const char *name,
		    unsigned long req, void *arg, uint64_t a0)
{
	struct call c;
	int err;

	call_init(&c, name, fd, fdkind);
	c.req = req;
	if (arg)
		call_arg(&c, a0);
	err = ioctl(fd, req, arg) < 0 ? errno : 0;
	done(w, &c, OP_SEQ, err, only_not_enotty);
	return err;
}

/* FILE_STATUS's flags for @fd's own file (0: it has no mode). */
static __u32 file_flags(int fd)
{
	struct armpmu_file_status st = { .id = 1 };

	while (ioctl(fd, ARMPMU_IOC_FILE_STATUS, &st) == 0) {
		if (st.flags & ARMPMU_FILE_CALLER)
			return st.flags;
		st.id++;
		st.flags = 0;
	}
	return 0;
}

/*
 * SELECT, SET_EVENT, RESET, START, work, READ, STOP, READ: what a real user
 * does, so that counting runs while the garbage flies. On a file only this
 * thread uses, the snapshots must make sense: RUNNING while started, not
 * after STOP, and counts that never go back.
 */
void op_counting(struct worker *w)
{
	unsigned int slot = 1 + below(w, PRIV_FDS - 1);
	struct armpmu_event ev = { .event = ARMPMU_EV_CPU_CYCLES, .flags = EXCL_K };
	struct armpmu_counts a, b;
	const char *k = "(private)";
	struct call c;
	__u32 v;
	int fd, e_read_a, e_stop, e_read_b, e_start, e_reset;
	bool excl, armed;

	if (w->priv[slot] < 0 || chance(w, 100))
		reopen_private(w, slot);
	fd = w->priv[slot];
	excl = w->excl[slot];
	if (fd < 0)
		return;
	if (chance(w, 300))
		ev.event = chance(w, 500) ? 0x08 : 0x03;	/* INST_RETIRED, L1D_CACHE_REFILL */
	v = below(w, num_counters);
	seq_call(w, fd, k, "SELECT", ARMPMU_IOC_SELECT, &v, v);
	seq_call(w, fd, k, "SET_EVENT", ARMPMU_IOC_SET_EVENT, &ev, ev.event);
	if (chance(w, 200)) {
		v = below(w, 2);
		seq_call(w, fd, k, "SET_DIVIDER", ARMPMU_IOC_SET_DIVIDER, &v, v);
	}
	if (chance(w, 200)) {
		v = EXCL_K;
		seq_call(w, fd, k, "SET_CYCLE_FILTER", ARMPMU_IOC_SET_CYCLE_FILTER, &v, v);
	}
	if (chance(w, 100)) {
		struct armpmu_value val = {
			.counter = chance(w, 500) ? ARMPMU_CYCLE_COUNTER : 0,
			.value = 0xffffffffULL - below(w, 1000),
		};
		seq_call(w, fd, k, "SET_VALUE", ARMPMU_IOC_SET_VALUE, &val, val.counter);
	}
	e_reset = seq_call(w, fd, k, "RESET", ARMPMU_IOC_RESET, NULL, 0);
	e_start = seq_call(w, fd, k, "START", ARMPMU_IOC_START, NULL, 0);
	loop_n(SPIN_SEQ + below(w, SPIN_SEQ));
	memset(&a, 0xa5, sizeof(a));
	e_read_a = seq_call(w, fd, k, "READ", ARMPMU_IOC_READ, &a, 0);
	armed = !e_read_a && !(a.flags & ARMPMU_COUNTS_RUNNING) &&
		(file_flags(fd) & ARMPMU_FILE_ARMED);
	e_stop = seq_call(w, fd, k, "STOP", ARMPMU_IOC_STOP, NULL, 0);
	memset(&b, 0xa5, sizeof(b));
	e_read_b = seq_call(w, fd, k, "READ", ARMPMU_IOC_READ, &b, 0);

	call_init(&c, "counting sequence", fd, excl ? "(private, this thread's only)" : k);
	if (!e_read_a || e_read_a == EIO)
		check_counts(w, &c, &a, e_read_a);
	if (!e_read_b || e_read_b == EIO)
		check_counts(w, &c, &b, e_read_b);
	if (!excl)
		return;
	/* ATTACH with ENABLE_ON_EXEC arms at START instead: it shows so. */
	if (!e_start && !e_read_a && !(a.flags & ARMPMU_COUNTS_RUNNING) && !armed)
		FAIL_AFTER(w, F_OUTPUT, &c, "READ after START: RUNNING clear (flags %#x)", a.flags);
	if (!e_stop && !e_read_b && (b.flags & ARMPMU_COUNTS_RUNNING))
		FAIL_AFTER(w, F_OUTPUT, &c, "READ after STOP: RUNNING set (flags %#x)", b.flags);
	if (!e_reset && !e_read_a && !e_stop && !e_read_b &&
	    (b.cycles < a.cycles || b.events[0] < a.events[0]))
		FAIL_AFTER(w, F_OUTPUT, &c,
			   "counts went back: cycles %llu then %llu, events[0] %llu then %llu",
			   (ull)a.cycles, (ull)b.cycles, (ull)a.events[0], (ull)b.events[0]);
}
