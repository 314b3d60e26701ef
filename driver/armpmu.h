/* SPDX-License-Identifier: GPL-2.0 */
/*
 * armpmu internals shared by the driver's files. Each file's exported
 * names begin with its own prefix, and a file calls only files below it
 * (driver/layers lists them, lowest first; tests/host/layers-test checks):
 * the probe, the counters, the CPU registry, task mode, CPU mode, the
 * admin view, the session logic, the character device, the module. The
 * PMU's registers are pmu_regs.h's: arm/pmu_regs.h or arm64/pmu_regs.h,
 * the same inline helpers for each architecture, chosen by the include
 * path Kbuild sets.
 */
#ifndef ARMPMU_DRIVER_H
#define ARMPMU_DRIVER_H

#include <linux/bitops.h>
#include <linux/bits.h>
#include <linux/hrtimer.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/pid.h>
#include <linux/rcupdate.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/uidgid.h>
#include <linux/types.h>
#include <linux/wait.h>
#include <linux/armpmu.h>
#include "pmu_probe.h"
#include "privilege.h"

/*
 * The cycle counter is bit 31 of PMCNTENSET/CLR, PMOVSR and PMINTENCLR on
 * both architectures; pmu_regs.h also takes 31 as its counter index.
 */
#define ARMPMU_CYCLE_IDX	ARMPMU_CYCLE_COUNTER
#define ARMPMU_CYCLE_BIT	BIT(ARMPMU_CYCLE_IDX)

/* PMCR's P and C zero counters when written as 1: this driver never does. */
#define ARMPMU_PMCR_RESET_BITS	(ARMPMU_PMCR_P | ARMPMU_PMCR_C)

/*
 * How often a running session folds the hardware counters into its 64-bit
 * totals (module parameter poll_ms, in counters.c). A 32-bit counter
 * gaining 4e10 a second (8 events a cycle at 5 GHz) wraps in 107 ms:
 * 100 ms keeps every wrap single.
 */
#define ARMPMU_POLL_MS_MAX	100
extern unsigned int armpmu_counters_poll_ms;

/* An event type's P and U bits for ARMPMU_EXCLUDE_* @flags. */
static inline u32 armpmu_filter_bits(u32 flags)
{
	return (flags & ARMPMU_EXCLUDE_USER ? ARMPMU_EVTYPE_U : 0) |
	       (flags & ARMPMU_EXCLUDE_KERNEL ? ARMPMU_EVTYPE_P : 0);
}

/*
 * pmu_probe.c: on the CPU, interrupts off, the capabilities of its PMU:
 * NULL if it is usable, else why not.
 */
const char *armpmu_probe_cpu(struct armpmu_caps *caps);

/* Each counter of @mask, lowest first, the cycle counter (31) last. */
#define for_each_counter(idx, mask) \
	for (unsigned long __m = (mask); __m && ((idx) = __ffs(__m), true); __m &= __m - 1)

/* What a file counts: set in process context while its counters are stopped. */
struct armpmu_config {
	u32 programmed;			/* mask of event counters with an event */
	/* Event types as written, [31] = the cycle counter's filter. */
	u32 evtype[ARMPMU_MAX_COUNTERS + 1];
	/*
	 * The same as the hardware holds them, for the counters of
	 * evtype_known: learnt at a load, under the count lock in task mode.
	 */
	u32 seen_evtype[ARMPMU_MAX_COUNTERS + 1];
	u32 evtype_known;
	bool cycle_filterable;		/* PMUv1 has no cycle filter */
	bool divider;
};

/* A configuration in one CPU's PMU: the counters' values as last seen. */
struct armpmu_load {
	u64 last[ARMPMU_MAX_COUNTERS + 1];	/* [31] = cycles */
	u64 now[ARMPMU_MAX_COUNTERS];		/* read by a look, then folded */
};

/*
 * A file's configuration loaded in one CPU's PMU, for both modes
 * (loaded.h): what is loaded, where its counts go, and the counters'
 * values as last seen.
 */
struct armpmu_loaded {
	struct armpmu_config *cfg;	/* the file's, or a multiplexed set's */
	u64 *total;			/* the file's totals, or that set's */
	u32 set;			/* multiplexed: the set loaded */
	struct armpmu_load vals;
};

/*
 * A file's event slots (multiplex.c), set in process context while its
 * counters are stopped, except the counts and times, which are updated
 * where the file's totals are (count_lock in task mode, the bound CPU in
 * CPU mode). Until @on, slot n is event counter n and the counts are in
 * the session's totals; then slots take turns in sets, and each slot's
 * count and time running are kept here.
 */
struct armpmu_mux {
	bool on;			/* a slot at or above num_counters */
	bool packed;			/* @sets hold the slots as programmed */
	u8 nsets;
	u8 next;			/* the set loaded next */
	u8 hw[ARMPMU_MAX_COUNTERS];	/* a slot's event counter in its set */
	u32 slots;			/* slots with an event */
	u32 known;			/* slots whose @seen is learnt */
	/*
	 * Slots whose @enabled_base and @running hold since the last RESET:
	 * for the others they are 0 (so that a RESET of a file that is not
	 * multiplexed costs one store, not a loop).
	 */
	u32 based;
	u32 evtype[ARMPMU_MAX_COUNTERS];
	u32 seen[ARMPMU_MAX_COUNTERS];	/* as armpmu_config's seen_evtype */
	u32 group[ARMPMU_MAX_COUNTERS];
	u32 sets[ARMPMU_MAX_COUNTERS];	/* the slots of each set */
	u64 value[ARMPMU_MAX_COUNTERS];	/* once @on: a slot's count */
	/* The file's time_enabled when the slot was programmed (or 0). */
	u64 enabled_base[ARMPMU_MAX_COUNTERS];
	/*
	 * Once @on, the time the slot ran; before, minus the file's
	 * time_running when it was programmed (modulo 2^64).
	 */
	u64 running[ARMPMU_MAX_COUNTERS];
};

/* READ_SLOTS' answer, kept in the session (not zeroed on the stack). */
struct armpmu_read_buf {
	struct armpmu_read hdr;
	struct armpmu_slot slot[ARMPMU_MAX_COUNTERS];
};

/* One thread of READ_THREADS' answer, with every slot it may ask for. */
struct armpmu_thread_buf {
	struct armpmu_thread t;
	u64 value[ARMPMU_MAX_COUNTERS];
};

struct armpmu_session;

/*
 * sampling.c: a file's ring of samples and records (ARMPMU_IOC_SET_SAMPLING).
 * The ring itself is sampling.c's; these are what the other files see.
 */
struct armpmu_sampler;

/*
 * One counted thread's sampling state, in its link (task_links.c). Touched
 * only on the CPU where the thread runs, interrupts off: at its switches
 * and by the sampling tick there; @gen under the file's count_lock.
 */
struct armpmu_sample_thread {
	u32 gen;		/* the file's sampling gen it was set up for */
	bool incomplete;	/* its counters were out of the PMU for a while */
	u32 pid, tid;		/* in the opener's PID namespace */
	u64 left_ns;		/* running time until its next sample */
	u64 ran_ns;		/* running time since its previous sample, to @in_ns */
	u64 in_ns;		/* task clock when its current run began */
	u64 base[ARMPMU_MAX_COUNTERS + 1];	/* its totals at its previous sample */
	char comm[16];		/* its name before an exec, for LET_GO */
};

/* A file's sampling: in the session, whether it samples or not. */
struct armpmu_sampling_file {
	/* NULL if not sampled; changed under count_lock while stopped. */
	struct armpmu_sampler *sampler;
	/*
	 * Changed, under count_lock, whenever the totals a thread's @base
	 * refers to are zeroed or set: a thread then starts again from 0.
	 */
	u32 gen;
	wait_queue_head_t wait;		/* poll(2) */
};

/*
 * What a file does once its mode is chosen: cpu_mode.c and task_mode.c
 * give one each. Called in process context with the session's lock held,
 * except @revoke and @describe (admin.c, with its list of files locked).
 */
struct armpmu_mode {
	/*
	 * May the file's configuration change now? The mode answers where
	 * its counting path runs (task mode: under the count lock, which an
	 * exec that starts an armed file takes; CPU mode: on the bound CPU,
	 * interrupts off): if the file neither counts nor is armed, @fn(@s,
	 * @arg) runs there and its result is returned; else EBUSY, and
	 * nothing changes. @fn may not sleep. It changes the configuration,
	 * totals and slots, through @program, @set_value and @multiplex,
	 * which are called from there only.
	 */
	int (*change)(struct armpmu_session *s,
		      int (*fn)(struct armpmu_session *s, void *arg), void *arg);
	int (*program)(struct armpmu_session *s, u32 idx, u32 evtype);
	int (*set_value)(struct armpmu_session *s, u32 idx, u64 value);
	/* The file becomes multiplexed (stopped): see armpmu_mux_begin(). */
	void (*multiplex)(struct armpmu_session *s);
	int (*start)(struct armpmu_session *s);
	int (*stop)(struct armpmu_session *s);
	int (*read)(struct armpmu_session *s);
	int (*reset)(struct armpmu_session *s);
	void (*release)(struct armpmu_session *s);
	/* RELEASE_FILE: 0, or -ESRCH if the file has already lost its PMU. */
	int (*revoke)(struct armpmu_session *s);
	/* FILE_STATUS: the mode's flag and what the file counts. */
	void (*describe)(struct armpmu_session *s, struct armpmu_file_status *st);
	/* INFO: the PMU the file counts with, and where. */
	int (*info)(struct armpmu_session *s, struct armpmu_info *info);
	/*
	 * READ_THREADS: the file's totals into @hdr, and up to @n threads
	 * from hdr->index on into @buf; with @fold, a running file's
	 * counters are folded in first. Returns the threads filled. NULL for
	 * CPU mode.
	 */
	int (*threads)(struct armpmu_session *s, struct armpmu_threads *hdr,
		       struct armpmu_thread_buf *buf, u32 n, bool fold);
};

extern const struct armpmu_mode armpmu_cpu_mode;
extern const struct armpmu_mode armpmu_task_mode;

/*
 * An open /dev/armpmu: what every file has, the counting state both modes
 * share, then a part per mode and READ's scratch, each headed by the rule
 * that guards it. Process-context fields are changed with @lock held.
 */
struct armpmu_session {
	struct mutex lock;
	const struct armpmu_mode *mode;	/* NULL until chosen */
	u32 id;				/* from 1, once a mode is chosen */
	struct list_head file_node;	/* in session.c's list of files */
	int cpu;			/* CPU mode: the bound CPU, or -1 */
	const struct armpmu_caps *caps;	/* of the bound CPU, or of the CPU
					 * that chose task mode */
	bool kernel_allowed;		/* CAP_PERFMON or CAP_SYS_ADMIN at open */
	/*
	 * The opener, as open() found it: whom the file may count, wherever
	 * the descriptor goes. @file is for process context only (an ioctl
	 * holds it); the probes read @opener_cred, freed with the session.
	 */
	struct file *file;
	const struct cred *opener_cred;
	struct pid *opener_tgid;
	u64 opener_exec_id;		/* its self_exec_id then */
	bool opener_admin;		/* CAP_SYS_ADMIN at open */
	bool opener_ipc_lock;		/* CAP_IPC_LOCK at open */
	struct pid *owner_pid;		/* the process that chose the mode */
	kuid_t owner_uid;
	u32 selected;
	struct rcu_head rcu;

	/*
	 * The counting state, both modes': in CPU mode touched only on the
	 * bound CPU with interrupts off (cross-call, poll timer, hotplug and
	 * idle callbacks), which orders it without a lock of its own; in
	 * task mode on whichever CPU a counted thread runs, under
	 * @count_lock.
	 */
	struct armpmu_config cfg;
	bool running;
	bool started;			/* START, and no STOP since */
	bool revoked;			/* an administrator took the PMU */
	bool disturbed;			/* someone else touched our counters */
	u64 total[ARMPMU_MAX_COUNTERS + 1];	/* 64-bit counts, [31] = cycles */
	u64 time_enabled;
	u64 time_running;
	struct armpmu_mux mux;

	/*
	 * CPU mode's (cpu_mode.c): touched only on the bound CPU with
	 * interrupts off, as the counting state above.
	 */
	struct {
		struct armpmu_loaded in_pmu;	/* the file's configuration, or a set */
		bool parked;		/* the CPU is offline; counts are kept */
		bool idle_saved;	/* the CPU is powered down in idle */
		u32 userenr;		/* PMUSERENR as last seen */
		u64 since_ns;		/* when time was last taken */
		struct hrtimer poll;
	};

	/*
	 * Task mode's (task.h's files): under @count_lock, taken with
	 * interrupts off on any CPU, but @tasks, under task_links.c's lock,
	 * and @target_pid, set at ATTACH and dropped at release in process
	 * context.
	 */
	struct {
		raw_spinlock_t count_lock;
		struct list_head tasks;	/* counted threads, under the links lock */
		struct pid *target_pid;	/* the thread attached first */
		bool follow;
		bool on_exec;		/* START arms; a counted thread's exec starts */
		bool armed;		/* started, waiting for that exec */
		bool closing;		/* no more loads: the file is going */
		bool incomplete;
		bool exec_left;		/* a thread was let go at its exec */
		/*
		 * Each counted thread's own totals (task_links.c), kept in
		 * the order the threads came, at most ARMPMU_THREADS_KEPT;
		 * @threads_lost came after.
		 */
		struct list_head threads;
		u32 threads_kept;
		u32 threads_lost;
		u64 switches;
		u64 migrations;
		struct armpmu_sampling_file sampling;
	};

	/*
	 * READ's scratch, in process context under @lock (and under what
	 * steadies the totals while filled): kept here, not on the stack,
	 * so that READ does not zero 264 bytes.
	 */
	struct {
		struct armpmu_counts snapshot;
		/* Multiplexed: READ gives each slot's own count (multiplex.c). */
		bool read_mux;
		/* A READ_SLOTS runs: @rd for rd.hdr.nr slots, not @snapshot. */
		bool read_slots;
		struct armpmu_read_buf rd;
	};
};

/*
 * multiplex.c: a file's slots, packed into sets that take turns in the
 * PMU, and each slot's own count and times. Pure bookkeeping: the modes
 * load and fold the counters.
 */
int armpmu_mux_check_group(const struct armpmu_mux *m, u32 slot, u32 group, u32 n);
void armpmu_mux_program(struct armpmu_mux *m, u32 slot, u32 evtype, u32 group,
			u64 time_enabled, u64 time_running);
void armpmu_mux_begin(struct armpmu_mux *m, struct armpmu_config *cfg, u64 *total,
		      u64 time_running);
void armpmu_mux_pack(struct armpmu_mux *m, u32 n);
u32 armpmu_mux_take_next(struct armpmu_mux *m);
void armpmu_mux_fill(struct armpmu_mux *m, u32 set, struct armpmu_config *cfg);
void armpmu_mux_learn(struct armpmu_mux *m, u32 set, const struct armpmu_config *cfg);
void armpmu_mux_account(struct armpmu_mux *m, u32 set, u64 *hw, u64 ran, u64 *total);
void armpmu_mux_zero(struct armpmu_mux *m);
u32 armpmu_mux_configured(const struct armpmu_mux *m, const struct armpmu_config *cfg);
int armpmu_mux_snapshot(struct armpmu_session *s, u32 flags);

/*
 * privilege.c: every privilege decision, privilege.h's rule fed from the
 * opener's credentials at open() and a thread's as they are. Process
 * context, but for armpmu_priv_may_go_on (the exec probe, on current).
 */
struct file;
struct task_struct;
void armpmu_priv_open(struct armpmu_session *s, struct file *file);
bool armpmu_priv_allowed(const struct armpmu_session *s, enum armpmu_priv_act act);
bool armpmu_priv_sees(const struct armpmu_session *caller, kuid_t owner);
bool armpmu_priv_ring_allowed(const struct armpmu_session *s, u64 held, u64 want, u64 limit);
bool armpmu_priv_may_attach(const struct armpmu_session *s, struct task_struct *task);
bool armpmu_priv_may_go_on(const struct armpmu_session *s);

/*
 * ring_charge.c: each user's ring memory, charged at SET_SAMPLING and
 * given back when the ring is freed; its own lock. Process context.
 */
int armpmu_ring_charge(const struct armpmu_session *s, u32 bytes, kuid_t *user);
void armpmu_ring_uncharge(kuid_t user, u32 bytes);
void armpmu_ring_charges_exit(void);

/* callchain.c: a user-mode sample's call chain (ARMPMU_SAMPLING_CALLCHAIN). */
struct pt_regs;
u32 armpmu_callchain_max(void);
void armpmu_callchain_walk(struct pt_regs *regs, u64 *ret, u32 max,
			   struct armpmu_callchain *chain);

/*
 * sampling.c: each sampled file's ring, its records and ARMPMU_IOC_SET_SAMPLING,
 * READ_SAMPLES and poll(2). The writers (tick, probes) hold the file's
 * count_lock, interrupts off; the calls marked "process" hold its mutex.
 */
void armpmu_sampling_init(struct armpmu_session *s);
void armpmu_sampling_release(struct armpmu_session *s);	/* process */
struct armpmu_sampler *armpmu_sampling_new(struct armpmu_session *s,
					   const struct armpmu_sampling *arg); /* process */
int armpmu_sampling_swap(struct armpmu_session *s, void *arg);
void armpmu_sampling_free(struct armpmu_sampler *r);	/* process */
int armpmu_sampling_read(struct armpmu_session *s, struct armpmu_samples *hdr,
			 struct armpmu_samples __user *arg);	/* process */
__poll_t armpmu_sampling_poll(struct armpmu_session *s);
int armpmu_sampling_check(const struct armpmu_sampling *arg, bool kernel_allowed);
u64 armpmu_sampling_period(const struct armpmu_session *s);
void armpmu_sampling_start(struct armpmu_session *s, struct armpmu_sample_thread *st,
			   struct task_struct *task, bool loaded, u64 now);
void armpmu_sampling_stop(struct armpmu_sample_thread *st, u64 now);
void armpmu_sampling_tick(struct armpmu_session *s, struct armpmu_sample_thread *st,
			  const u64 *total, bool loaded, u64 now, u64 time);
void armpmu_sampling_task(struct armpmu_session *s, struct armpmu_sample_thread *st,
			  u16 type, struct task_struct *task, struct task_struct *parent);
void armpmu_sampling_ended(struct armpmu_session *s);

static inline void armpmu_sampling_rebase(struct armpmu_session *s)
{
	s->sampling.gen++;
}

/*
 * cpus.c: the per-CPU registry of capabilities, online state and owners,
 * at the bottom. The calls marked "locked" want armpmu_cpus_lock() held.
 */
int armpmu_cpus_init(void);
void armpmu_cpus_exit(void);
void armpmu_cpus_lock(void);
void armpmu_cpus_unlock(void);
bool armpmu_cpus_valid(u32 cpu);
const char *armpmu_cpus_probe(unsigned int cpu);
void armpmu_cpus_set_online(unsigned int cpu, bool online);
bool armpmu_cpus_online(unsigned int cpu);
unsigned int armpmu_cpus_usable(void);
struct armpmu_session *armpmu_cpus_owner(unsigned int cpu);
int armpmu_cpus_set_owner(unsigned int cpu, struct armpmu_session *s);
void armpmu_cpus_clear_owner(unsigned int cpu);
const struct armpmu_caps *armpmu_cpus_caps(unsigned int cpu);
DECLARE_PER_CPU(u32, armpmu_cpus_task_midr);

/*
 * This CPU's PMU may count a task-mode file made on a core @midr: it is
 * usable, of that core (other cores' events differ), and no CPU-mode file
 * owns it (an owner counts everything here). Interrupts off.
 */
static inline bool armpmu_cpus_task_may_load(u32 midr)
{
	return this_cpu_read(armpmu_cpus_task_midr) == midr;
}
void armpmu_cpus_fill_info(const struct armpmu_caps *caps, struct armpmu_info *info);
int armpmu_cpus_info_here(struct armpmu_info *info);

/*
 * counters.c: a configuration's counters in this CPU's PMU, interrupts
 * off. Each returns what it found; none keeps state of its own.
 */
u32 armpmu_counters_of(const struct armpmu_config *cfg);
void armpmu_counters_set_evtype(struct armpmu_config *cfg, u32 idx, u32 evtype);
u32 armpmu_counters_foreign(u32 mask);
void armpmu_counters_program(struct armpmu_config *cfg, u32 mask);
void armpmu_counters_set(struct armpmu_load *ld, u64 *total, u32 idx, u64 value);
int armpmu_counters_load(struct armpmu_config *cfg, struct armpmu_load *ld);
bool armpmu_counters_look(const struct armpmu_config *cfg, struct armpmu_load *ld,
			  u64 *total, u64 *also);
void armpmu_counters_rebase(const struct armpmu_config *cfg, struct armpmu_load *ld);
bool armpmu_counters_pause(const struct armpmu_config *cfg, struct armpmu_load *ld,
			   u64 *total, u64 *also, bool check_enable, bool zero);
void armpmu_counters_stop_own(const struct armpmu_config *cfg);
void armpmu_counters_release_pmcr(void);
void armpmu_counters_clear(const struct armpmu_config *cfg);

/*
 * task_mode.c and the files of its private task.h: files counting threads,
 * their counters switched in and out with the threads by a probe on the
 * scheduler's sched_switch tracepoint (task_cpu.c).
 */
int armpmu_task_mode_init(void);
void armpmu_task_mode_exit(void);
int armpmu_task_mode_attach(struct armpmu_session *s, u32 tid, u32 flags);
/* task_cpu.c, for CPU mode, interrupts off. */
void armpmu_task_cpu_evict(void);
u32 armpmu_task_cpu_counting(void);

/*
 * cpu_mode.c: a file bound to a CPU, with the CPUs' hotplug and idle
 * callbacks. Each call runs its work on the bound CPU (a cross-call, or a
 * plain call when already there).
 */
int armpmu_cpu_mode_init(void);
void armpmu_cpu_mode_exit(void);
void armpmu_cpu_mode_prepare(struct armpmu_session *s);
int armpmu_cpu_mode_claim(struct armpmu_session *s, u32 cpu);
int armpmu_cpu_mode_revoke(u32 cpu, const struct armpmu_session *only);
u32 armpmu_cpu_mode_counting(const struct armpmu_session *s);

/* regs.c: ARMPMU_IOC_REGS, any CPU's PMU registers as they are. */
int armpmu_regs_read(struct armpmu_regs *regs);

/*
 * admin.c: the list of files, FILE_STATUS, CPU_STATUS, RELEASE and
 * RELEASE_FILE (privilege checked in session.c).
 */
void armpmu_admin_add(struct armpmu_session *s);
void armpmu_admin_remove(struct armpmu_session *s);
int armpmu_admin_file_status(const struct armpmu_session *caller,
			     struct armpmu_file_status *st);
int armpmu_admin_cpu_status(const struct armpmu_session *caller,
			    struct armpmu_cpu_status *st);
int armpmu_admin_release_cpu(u32 cpu);
int armpmu_admin_release_file(u32 id);

/* session.c: the file's operations and every privilege check, in process context. */
void armpmu_session_init(struct armpmu_session *s, struct file *file);
void armpmu_session_release(struct armpmu_session *s);
void armpmu_session_free(struct armpmu_session *s);
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
int armpmu_session_read_slots(struct armpmu_session *s, u32 nr, u64 reserved);
int armpmu_session_threads(struct armpmu_session *s, struct armpmu_threads *hdr,
			   struct armpmu_thread_buf *buf, u32 n, bool fold);
int armpmu_session_attach(struct armpmu_session *s, const struct armpmu_attach *at);
int armpmu_session_release_cpu(struct armpmu_session *s, u32 cpu);
int armpmu_session_release_file(struct armpmu_session *s, u32 id);
int armpmu_session_regs(struct armpmu_session *s, struct armpmu_regs *regs);
int armpmu_session_set_sampling(struct armpmu_session *s, const struct armpmu_sampling *arg);
int armpmu_session_read_samples(struct armpmu_session *s, struct armpmu_samples *hdr,
				struct armpmu_samples __user *arg);
__poll_t armpmu_session_poll(struct armpmu_session *s);

/* cdev.c: the character device. */
int armpmu_cdev_init(void);
void armpmu_cdev_exit(void);

#endif /* ARMPMU_DRIVER_H */
