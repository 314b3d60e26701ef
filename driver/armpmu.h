/* SPDX-License-Identifier: GPL-2.0 */
/*
 * armpmu internals shared by the character device, the session logic, the
 * CPU registry and the PMU backends.
 */
#ifndef ARMPMU_DRIVER_H
#define ARMPMU_DRIVER_H

#include <linux/bits.h>
#include <linux/hrtimer.h>
#include <linux/mutex.h>
#include <linux/pid.h>
#include <linux/uidgid.h>
#include <linux/types.h>
#include <linux/armpmu.h>
#include "pmu_probe.h"

/*
 * The cycle counter is bit 31 of PMCNTENSET/CLR, PMOVSR and PMINTENCLR on
 * both architectures; the backends also take 31 as its counter index.
 */
#define ARMPMU_CYCLE_IDX	ARMPMU_CYCLE_COUNTER
#define ARMPMU_CYCLE_BIT	BIT(ARMPMU_CYCLE_IDX)

/* PMCR / PMCR_EL0 fields, identical on ARMv7 and ARMv8. */
#define ARMPMU_PMCR_E		BIT(0)	/* enable all counters */
#define ARMPMU_PMCR_D		BIT(3)	/* cycle counter counts every 64 cycles */
#define ARMPMU_PMCR_LC		BIT(6)	/* ARMv8: 64-bit cycle counter overflow */
#define ARMPMU_PMCR_N_SHIFT	11
#define ARMPMU_PMCR_N_MASK	0x1f

/* PMXEVTYPER / PMEVTYPER / PMCCFILTR filter bits, identical too. */
#define ARMPMU_EVTYPE_P		BIT(31)	/* do not count at PL1 / EL1 */
#define ARMPMU_EVTYPE_U		BIT(30)	/* do not count at PL0 / EL0 */
#define ARMPMU_EVTYPE_NSH	BIT(27)	/* ARMv8: count at EL2 */

/*
 * How often a running session folds the hardware counters into its 64-bit
 * totals (module parameter poll_ms). A 32-bit counter gaining 4e10 a second
 * (8 events a cycle at 5 GHz) wraps in 107 ms: 100 ms keeps every wrap
 * single.
 */
#define ARMPMU_POLL_MS_MAX	100
extern unsigned int armpmu_poll_ms;

/* An event type's P and U bits for ARMPMU_EXCLUDE_* @flags. */
static inline u32 armpmu_filter_bits(u32 flags)
{
	return (flags & ARMPMU_EXCLUDE_USER ? ARMPMU_EVTYPE_U : 0) |
	       (flags & ARMPMU_EXCLUDE_KERNEL ? ARMPMU_EVTYPE_P : 0);
}

/*
 * One PMU flavour. Every hook but probe runs on the CPU whose PMU it
 * touches, with interrupts disabled. Counter index ARMPMU_CYCLE_IDX is the
 * cycle counter (its "event type" is the cycle counter's filter).
 */
struct armpmu_ops {
	const char *name;
	/* NULL if this CPU has a usable PMU, else why not. */
	const char *(*probe)(struct armpmu_caps *caps);
	u32 (*encode_evtype)(u32 event, u32 flags);
	u32 (*read_pmcr)(void);
	void (*write_pmcr)(u32 val);
	u32 (*read_enabled)(void);
	void (*enable)(u32 mask);
	void (*disable)(u32 mask);
	void (*disable_irq)(u32 mask);
	void (*clear_overflow)(u32 mask);
	void (*write_evtype)(u32 idx, u32 val);
	u32 (*read_evtype)(u32 idx);
	u64 (*read_counter)(u32 idx);
	void (*write_counter)(u32 idx, u64 val);
	u32 (*read_userenr)(void);
	/* Bits of PMCR this driver may change (the rest is kept). */
	u32 pmcr_owned;
	/* Width of the cycle counter's value. */
	u64 cycle_mask;
};

/* What on_cpu() (counting.c) does for the process-context side. */
enum armpmu_op {
	OP_ATTACH,
	OP_DETACH,
	OP_INFO,
	OP_PROGRAM,
	OP_CYCLE_FILTER,
	OP_SET_VALUE,
	OP_START,
	OP_STOP,
	OP_READ,
	OP_RESET,
};

/* The one backend built into this module (pmu_v7.c or pmu_v8.c). */
extern const struct armpmu_ops armpmu_backend;

/*
 * An open /dev/armpmu. Process-context fields are changed with @lock held.
 * Fields below "on-CPU state" are touched only on the bound CPU with
 * interrupts off (cross-call, poll timer, hotplug and idle callbacks), which
 * orders them without a lock of their own.
 */
struct armpmu_session {
	struct mutex lock;
	int cpu;			/* bound CPU, or -1 */
	const struct armpmu_caps *caps;	/* of the bound CPU */
	bool kernel_allowed;
	struct pid *owner_pid;		/* the process that bound the file */
	kuid_t owner_uid;
	u32 selected;
	u32 divider;

	/* Arguments of the operation on_cpu() is asked to do. */
	enum armpmu_op op;
	u32 arg_idx;
	u32 arg_evtype;
	u64 arg_value;
	int call_ret;			/* and how it went */

	/* on-CPU state */
	u32 programmed;			/* mask of event counters with an event */
	u32 evtype[ARMPMU_MAX_COUNTERS];
	u32 cycle_filter;
	bool running;
	bool parked;			/* the CPU is offline; counts are kept */
	bool idle_saved;		/* the CPU is powered down in idle */
	bool revoked;			/* an administrator took the PMU */
	bool disturbed;			/* someone else touched our counters */
	u32 userenr;			/* PMUSERENR as last seen */
	u64 total[ARMPMU_MAX_COUNTERS + 1];	/* 64-bit counts, [31] = cycles */
	u64 last[ARMPMU_MAX_COUNTERS + 1];	/* hardware value at last look */
	u32 seen_evtype[ARMPMU_MAX_COUNTERS + 1]; /* read back at START */
	struct hrtimer poll;
	/* Kept here, not on the stack, so READ does not zero 264 bytes. */
	struct armpmu_counts snapshot;
};

/* cpus.c: the per-CPU registry of capabilities and owners. */
int armpmu_cpus_init(void);
void armpmu_cpus_exit(void);
const struct armpmu_caps *armpmu_cpu_caps(unsigned int cpu);
int armpmu_cpu_claim(unsigned int cpu, struct armpmu_session *s);
void armpmu_cpu_release(unsigned int cpu, struct armpmu_session *s);
int armpmu_cpu_status(const struct armpmu_session *caller,
		      struct armpmu_cpu_status *st);
int armpmu_cpu_revoke(u32 cpu);

/* counting.c: what runs on the bound CPU, interrupts off. */
int armpmu_run_on_cpu(struct armpmu_session *s, enum armpmu_op op);
void armpmu_counting_init(struct armpmu_session *s);
void armpmu_session_revoke(struct armpmu_session *s);
u32 armpmu_session_counting(const struct armpmu_session *s);
void armpmu_session_cpu_down(struct armpmu_session *s);
void armpmu_session_cpu_up(struct armpmu_session *s);
void armpmu_idle_enter(void);
void armpmu_idle_exit(void);

/* session.c: the file's operations, in process context. */
void armpmu_session_init(struct armpmu_session *s, bool kernel_allowed);
void armpmu_session_release(struct armpmu_session *s);
int armpmu_session_attach(struct armpmu_session *s);
void armpmu_session_detach(struct armpmu_session *s);
int armpmu_session_bind(struct armpmu_session *s, u32 cpu);
int armpmu_session_info(struct armpmu_session *s, struct armpmu_info *info);
int armpmu_session_select(struct armpmu_session *s, u32 idx);
int armpmu_session_set_event(struct armpmu_session *s,
			     const struct armpmu_event *ev);
int armpmu_session_set_divider(struct armpmu_session *s, u32 divider);
int armpmu_session_set_value(struct armpmu_session *s,
			     const struct armpmu_value *val);
int armpmu_session_set_cycle_filter(struct armpmu_session *s, u32 flags);
int armpmu_session_reset(struct armpmu_session *s);
int armpmu_session_start(struct armpmu_session *s);
int armpmu_session_stop(struct armpmu_session *s);
int armpmu_session_read(struct armpmu_session *s);
void armpmu_fill_info(const struct armpmu_caps *caps, struct armpmu_info *info);

/* cdev.c: the character device. */
int armpmu_cdev_init(void);
void armpmu_cdev_exit(void);

#endif /* ARMPMU_DRIVER_H */
