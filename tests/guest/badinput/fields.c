// SPDX-License-Identifier: GPL-2.0
/*
 * badinput-test: reserved fields, unknown flags and out-of-range values,
 * call by call.
 */
#include "common.h"

static int set_event_on_fresh(struct armpmu_event ev)
{
	return on_fresh_file(ARMPMU_IOC_SET_EVENT, &ev);
}

int u32_on_fresh(unsigned long req, __u32 val)
{
	return on_fresh_file(req, &val);
}

/* A value row: "who: WHAT VALUE" gets @want. */
void row(int got, int want, const char *what, unsigned long long value)
{
	char name[160];

	snprintf(name, sizeof(name), "%s: %s %#llx: %s", user_name(who), what, value,
		 tap_errname(want));
	tap_errno(got, want, name);
}

/* REGS shows every user's counts: lab is refused whatever its argument says. */
static int regs_want(int want)
{
	return who == AS_ROOT ? want : EPERM;
}

static void walk_regs_reserved(const __u32 *patterns, unsigned int n)
{
	struct armpmu_regs regs;
	char what[64];

	for (unsigned int p = 0; p < n; p++) {
		for (unsigned int i = 0; i < ARRAY_SIZE(regs.reserved); i++) {
			memset(&regs, 0, sizeof(regs));
			regs.reserved[i] = patterns[p];
			snprintf(what, sizeof(what), "REGS reserved[%u] =", i);
			row(on_fresh_file(ARMPMU_IOC_REGS, &regs), regs_want(EINVAL), what,
			    patterns[p]);
		}
	}
	/* Only cpu and reserved are read. */
	memset(&regs, 0xff, sizeof(regs));
	regs.cpu = 0;
	memset(regs.reserved, 0, sizeof(regs.reserved));
	row(on_fresh_file(ARMPMU_IOC_REGS, &regs), regs_want(0),
	    "REGS with every output field's bits set, cpu =", 0);
}

void walk_reserved(void)
{
	static const __u32 patterns[] = { 1, 0x80000000U };
	struct armpmu_cpu_status st;
	struct armpmu_event ev;
	struct armpmu_value val;
	unsigned int i, p;

	for (p = 0; p < ARRAY_SIZE(patterns); p++) {
		ev = (struct armpmu_event){ .event = ARMPMU_EV_CPU_CYCLES, .flags = EXCL_K,
					    .reserved = patterns[p] };
		row(set_event_on_fresh(ev), EINVAL, "SET_EVENT reserved =", patterns[p]);
		val = (struct armpmu_value){ .counter = 0, .reserved = patterns[p] };
		row(on_fresh_file(ARMPMU_IOC_SET_VALUE, &val), EINVAL, "SET_VALUE reserved =",
		    patterns[p]);
		for (i = 0; i < 2; i++) {
			struct armpmu_attach at = { 0 };
			struct armpmu_file_status fst = { 0 };

			at.reserved[i] = patterns[p];
			row(on_fresh_file(ARMPMU_IOC_ATTACH, &at), EINVAL,
			    i ? "ATTACH reserved[1] =" : "ATTACH reserved[0] =", patterns[p]);
			fst.reserved[2 * i] = patterns[p];
			row(on_fresh_file(ARMPMU_IOC_FILE_STATUS, &fst), EINVAL,
			    i ? "FILE_STATUS reserved[2] =" : "FILE_STATUS reserved[0] =",
			    patterns[p]);
		}
		for (i = 0; i < 4; i++) {
			struct armpmu_sampling sm = { .period_ns = 1000000, .ring_bytes = 4096 };
			struct armpmu_samples hdr = {
				.size = ARMPMU_SAMPLE_SIZE(ARMPMU_MAX_COUNTERS),
			};
			char what[64];

			/* The last: max_stack, which only a file with call chains may set. */
			if (i < 3)
				sm.reserved[i] = patterns[p];
			else
				sm.max_stack = patterns[p];
			if (i < 3)
				snprintf(what, sizeof(what), "SET_SAMPLING reserved[%u] =", i);
			else
				snprintf(what, sizeof(what), "SET_SAMPLING without call chains, max_stack =");
			row(on_fresh_file(ARMPMU_IOC_SET_SAMPLING, &sm), EINVAL, what, patterns[p]);
			if (i == 3)
				break;
			hdr.reserved[i] = patterns[p];
			snprintf(what, sizeof(what), "READ_SAMPLES reserved[%u] =", i);
			row(on_fresh_file(ARMPMU_IOC_READ_SAMPLES, &hdr), EINVAL, what, patterns[p]);
		}
		for (i = 0; i < 3; i++) {
			char what[64];

			memset(&st, 0, sizeof(st));
			st.reserved[i] = patterns[p];
			snprintf(what, sizeof(what), "CPU_STATUS reserved[%u] =", i);
			row(on_fresh_file(ARMPMU_IOC_CPU_STATUS, &st), EINVAL, what, patterns[p]);
		}
	}
	walk_regs_reserved(patterns, ARRAY_SIZE(patterns));
	/* Only cpu is read: what comes in the output fields does not matter. */
	memset(&st, 0xff, sizeof(st));
	st.cpu = 0;
	memset(st.reserved, 0, sizeof(st.reserved));
	row(on_fresh_file(ARMPMU_IOC_CPU_STATUS, &st), 0,
	    "CPU_STATUS with every output field's bits set, cpu =", 0);
}

void walk_flags(void)
{
	char name[160];
	unsigned int bit, wrong_event = 0, wrong_filter = 0;
	int kernel_want = who == AS_ROOT ? 0 : EACCES;

	unsigned int wrong_attach = 0, wrong_sampling = 0;

	for (bit = 2; bit < 32; bit++) {
		struct armpmu_event ev = { .event = ARMPMU_EV_CPU_CYCLES, .flags = EXCL_K | 1U << bit };

		if (set_event_on_fresh(ev) != EINVAL)
			wrong_event |= 1U << bit;
		if (u32_on_fresh(ARMPMU_IOC_SET_CYCLE_FILTER, EXCL_K | 1U << bit) != EINVAL)
			wrong_filter |= 1U << bit;
	}
	for (bit = 2; bit < 32; bit++) {
		struct armpmu_attach at = { .flags = 1U << bit };

		if (on_fresh_file(ARMPMU_IOC_ATTACH, &at) != EINVAL)
			wrong_attach |= 1U << bit;
	}
	for (bit = 2; bit < 32; bit++) {
		struct armpmu_sampling sm = { .period_ns = 1000000, .ring_bytes = 4096,
					      .flags = 1U << bit };

		if (on_fresh_file(ARMPMU_IOC_SET_SAMPLING, &sm) != EINVAL)
			wrong_sampling |= 1U << bit;
	}
	snprintf(name, sizeof(name),
		 "%s: SET_SAMPLING with each undefined flag bit (2-31): EINVAL", user_name(who));
	tap_check(!wrong_sampling, name, "not EINVAL for the bits %#x", wrong_sampling);
	row(on_fresh_file(ARMPMU_IOC_SET_SAMPLING, &(struct armpmu_sampling){
		.period_ns = 1000000, .ring_bytes = 4096, .flags = ARMPMU_SAMPLING_KERNEL }),
	    who == AS_ROOT ? 0 : EACCES, "SET_SAMPLING of kernel-mode ticks, flags",
	    ARMPMU_SAMPLING_KERNEL);
	snprintf(name, sizeof(name),
		 "%s: ATTACH with each undefined flag bit (2-31): EINVAL", user_name(who));
	tap_check(!wrong_attach, name, "not EINVAL for the bits %#x", wrong_attach);
	snprintf(name, sizeof(name),
		 "%s: SET_EVENT with each undefined flag bit (2-31): EINVAL", user_name(who));
	tap_check(!wrong_event, name, "not EINVAL for the bits %#x", wrong_event);
	snprintf(name, sizeof(name),
		 "%s: SET_CYCLE_FILTER with each undefined bit (2-31): EINVAL", user_name(who));
	tap_check(!wrong_filter, name, "not EINVAL for the bits %#x", wrong_filter);

	row(set_event_on_fresh((struct armpmu_event){ .event = ARMPMU_EV_CPU_CYCLES }), kernel_want,
	    "SET_EVENT counting kernel mode, flags", 0);
	row(set_event_on_fresh((struct armpmu_event){ .event = ARMPMU_EV_CPU_CYCLES, .flags = EXCL_U }),
	    filtered(kernel_want), "SET_EVENT counting kernel mode only, flags", EXCL_U);
	row(set_event_on_fresh((struct armpmu_event){ .event = ARMPMU_EV_CPU_CYCLES,
						      .flags = EXCL_U | EXCL_K }),
	    filtered(0), "SET_EVENT counting nothing, flags", EXCL_U | EXCL_K);
	row(u32_on_fresh(ARMPMU_IOC_SET_CYCLE_FILTER, 0), kernel_want,
	    "SET_CYCLE_FILTER counting kernel mode, flags", 0);
}

void walk_ranges(void)
{
	static const __u32 wide[] = { 32, 0x80000000U, 0xffffffffU };
	int release_want = who == AS_ROOT ? EINVAL : EPERM;
	int bind_want = who == AS_ROOT ? EINVAL : EPERM;
	int release_file_want = who == AS_ROOT ? ESRCH : EPERM;
	struct armpmu_attach attach;
	struct armpmu_value val = { 0 };
	unsigned int i;

	row(u32_on_fresh(ARMPMU_IOC_SELECT, num_counters), 0,
	    "SELECT the number of counters (a multiplexed slot),", num_counters);
	/* Sampling's period and ring: sample_rate_max's and sample_ring_kb_max's defaults. */
	row(on_fresh_file(ARMPMU_IOC_SET_SAMPLING, &(struct armpmu_sampling){
		.period_ns = 1, .ring_bytes = 4096 }), ERANGE, "SET_SAMPLING period_ns", 1);
	row(on_fresh_file(ARMPMU_IOC_SET_SAMPLING, &(struct armpmu_sampling){
		.period_ns = 99999, .ring_bytes = 4096 }), ERANGE, "SET_SAMPLING period_ns", 99999);
	row(on_fresh_file(ARMPMU_IOC_SET_SAMPLING, &(struct armpmu_sampling){
		.period_ns = 100000, .ring_bytes = 4096 }), 0, "SET_SAMPLING period_ns", 100000);
	row(on_fresh_file(ARMPMU_IOC_SET_SAMPLING, &(struct armpmu_sampling){
		.period_ns = 1000000, .ring_bytes = 0xffffffffU }), E2BIG,
	    "SET_SAMPLING ring_bytes", 0xffffffffU);
	row(on_fresh_file(ARMPMU_IOC_SET_SAMPLING, &(struct armpmu_sampling){
		.period_ns = 1000000, .ring_bytes = 1U << 20 }), 0, "SET_SAMPLING ring_bytes",
	    1U << 20);
	row(on_fresh_file(ARMPMU_IOC_SET_SAMPLING, &(struct armpmu_sampling){
		.period_ns = 1000000, .ring_bytes = 0 }), EINVAL, "SET_SAMPLING ring_bytes", 0);
	/* Call chains' depth: sample_max_stack's default, 127. */
	row(on_fresh_file(ARMPMU_IOC_SET_SAMPLING, &(struct armpmu_sampling){
		.period_ns = 1000000, .ring_bytes = 4096, .flags = ARMPMU_SAMPLING_CALLCHAIN }), 0,
	    "SET_SAMPLING with call chains, max_stack", 0);
	row(on_fresh_file(ARMPMU_IOC_SET_SAMPLING, &(struct armpmu_sampling){
		.period_ns = 1000000, .ring_bytes = 4096, .flags = ARMPMU_SAMPLING_CALLCHAIN,
		.max_stack = 127 }), 0, "SET_SAMPLING with call chains, max_stack", 127);
	for (i = 0; i < 3; i++) {
		static const __u32 deep[] = { 128, ARMPMU_MAX_STACK_LIMIT + 1, 0xffffffffU };

		row(on_fresh_file(ARMPMU_IOC_SET_SAMPLING, &(struct armpmu_sampling){
			.period_ns = 1000000, .ring_bytes = 4096,
			.flags = ARMPMU_SAMPLING_CALLCHAIN, .max_stack = deep[i] }), E2BIG,
		    "SET_SAMPLING with call chains, max_stack", deep[i]);
	}
	row(on_fresh_file(ARMPMU_IOC_READ_SAMPLES, &(struct armpmu_samples){
		.size = ARMPMU_SAMPLE_SIZE(ARMPMU_MAX_COUNTERS) - 1 }), EINVAL,
	    "READ_SAMPLES size", ARMPMU_SAMPLE_SIZE(ARMPMU_MAX_COUNTERS) - 1);
	row(u32_on_fresh(ARMPMU_IOC_SELECT, ARMPMU_MAX_COUNTERS - 1), 0,
	    "SELECT the last slot,", ARMPMU_MAX_COUNTERS - 1);
	row(u32_on_fresh(ARMPMU_IOC_SELECT, ARMPMU_CYCLE_COUNTER), EINVAL,
	    "SELECT the cycle counter's index,", ARMPMU_CYCLE_COUNTER);
	row(u32_on_fresh(ARMPMU_IOC_SELECT, num_counters - 1), 0, "SELECT the last counter,",
	    num_counters - 1);
	for (i = 0; i < ARRAY_SIZE(wide); i++)
		row(u32_on_fresh(ARMPMU_IOC_SELECT, wide[i]), EINVAL, "SELECT", wide[i]);

	row(set_event_on_fresh((struct armpmu_event){ .event = 1U << event_bits, .flags = EXCL_K }),
	    EINVAL, "SET_EVENT one past the widest event number,", 1ULL << event_bits);
	row(set_event_on_fresh((struct armpmu_event){ .event = 0xffffffffU, .flags = EXCL_K }),
	    EINVAL, "SET_EVENT", 0xffffffffU);
	row(set_event_on_fresh((struct armpmu_event){ .event = (1U << event_bits) - 1,
						      .flags = EXCL_K }),
	    filtered(0), "SET_EVENT the widest event number,", (1ULL << event_bits) - 1);

	row(u32_on_fresh(ARMPMU_IOC_SET_DIVIDER, 0), 0, "SET_DIVIDER", 0);
	row(u32_on_fresh(ARMPMU_IOC_SET_DIVIDER, 2), EINVAL, "SET_DIVIDER", 2);
	row(u32_on_fresh(ARMPMU_IOC_SET_DIVIDER, 64), EINVAL, "SET_DIVIDER", 64);
	row(u32_on_fresh(ARMPMU_IOC_SET_DIVIDER, 0xffffffffU), EINVAL, "SET_DIVIDER", 0xffffffffU);

	val.counter = num_counters;
	row(on_fresh_file(ARMPMU_IOC_SET_VALUE, &val), EINVAL,
	    "SET_VALUE of the counter one past the last,", num_counters);
	val.counter = ARMPMU_CYCLE_COUNTER - 1;
	if (num_counters < ARMPMU_CYCLE_COUNTER - 1)
		row(on_fresh_file(ARMPMU_IOC_SET_VALUE, &val), EINVAL,
		    "SET_VALUE of an absent counter below the cycle counter,", val.counter);
	for (i = 0; i < ARRAY_SIZE(wide); i++) {
		val.counter = wide[i];
		row(on_fresh_file(ARMPMU_IOC_SET_VALUE, &val), EINVAL, "SET_VALUE of counter",
		    wide[i]);
	}
	val.counter = ARMPMU_CYCLE_COUNTER;
	val.value = ~0ULL;
	row(on_fresh_file(ARMPMU_IOC_SET_VALUE, &val), 0,
	    "SET_VALUE of the cycle counter to 2^64 - 1: counter", ARMPMU_CYCLE_COUNTER);

	/* Whole-CPU mode is refused to lab before its CPU number is looked at. */
	row(u32_on_fresh(ARMPMU_IOC_BIND, (__u32)last_cpu + 1), bind_want,
	    "BIND to one past the last possible CPU,", (unsigned int)last_cpu + 1);
	row(u32_on_fresh(ARMPMU_IOC_BIND, 0x7fffffffU), bind_want, "BIND to CPU", 0x7fffffffU);
	row(u32_on_fresh(ARMPMU_IOC_BIND, 0xfffffffeU), bind_want, "BIND to CPU", 0xfffffffeU);
	attach = (struct armpmu_attach){ .tid = 0x3fffffffU };
	row(on_fresh_file(ARMPMU_IOC_ATTACH, &attach), ESRCH, "ATTACH to no thread, tid",
	    attach.tid);
	row(u32_on_fresh(ARMPMU_IOC_RELEASE_FILE, 0), release_file_want,
	    "RELEASE_FILE of file id", 0);
	for (i = 0; i < 2; i++) {
		struct armpmu_cpu_status st = { .cpu = i ? 0xffffffffU : (__u32)last_cpu + 1 };

		row(on_fresh_file(ARMPMU_IOC_CPU_STATUS, &st), EINVAL, "CPU_STATUS of CPU", st.cpu);
	}
	for (i = 0; i < 2; i++) {
		struct armpmu_regs regs = { .cpu = i ? 0xffffffffU : (__u32)last_cpu + 1 };

		row(on_fresh_file(ARMPMU_IOC_REGS, &regs), regs_want(EINVAL), "REGS of CPU",
		    regs.cpu);
	}
	row(u32_on_fresh(ARMPMU_IOC_RELEASE, (__u32)last_cpu + 1), release_want,
	    "RELEASE of one past the last possible CPU,", (unsigned int)last_cpu + 1);
	row(u32_on_fresh(ARMPMU_IOC_RELEASE, 0xffffffffU), release_want, "RELEASE of CPU",
	    0xffffffffU);
}
