/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * armpmu: the ARM Performance Monitoring Unit through /dev/armpmu.
 *
 * This header is the whole contract between the driver, libpmudev and the
 * tests. Every structure has fixed-width fields, explicit padding and no
 * pointers, so 32-bit programs on a 64-bit kernel pass the same bytes
 * (compat_ioctl needs no translation). Reserved fields must be zero on input
 * (EINVAL otherwise) and are zero on output.
 *
 * Modes: a file counts a task or a whole CPU, chosen once.
 *
 * Task mode, the default: a file that is not bound counts one thread, the
 * one that makes the first call needing a PMU (or the one ARMPMU_IOC_ATTACH
 * names), wherever it runs and only while it runs. Its counters are loaded
 * into the PMU of the CPU the thread is switched in on and saved when it is
 * switched out, so every thread of every user can count itself at once,
 * each with all the counters the core has. With ARMPMU_ATTACH_FOLLOW the
 * threads and child processes the counted thread creates afterwards are
 * counted too, into the same totals. A thread is counted by at most one
 * file (EBUSY for the next). Where the counters cannot be loaded while the
 * thread runs (a CPU-mode file owns that CPU, or perf holds the counters)
 * the thread is counted as not running: time_running falls behind
 * time_enabled and the counts carry ARMPMU_COUNTS_INCOMPLETE.
 *
 * CPU mode: ARMPMU_IOC_BIND binds the file to one CPU's PMU, and it counts
 * everything that runs there: other users' processes too. So it needs
 * CAP_PERFMON or CAP_SYS_ADMIN at open(), unless an administrator loaded
 * the module with cpu_mode_for_all=1 (EPERM otherwise). At most one file
 * owns a CPU's PMU (EBUSY for the next). Every operation runs on the bound
 * CPU, whichever CPU the caller is on, so a file never reports another
 * CPU's counts. Task-mode threads on that CPU are not counted meanwhile.
 *
 * Closing the file (or its owner dying) stops the counters, zeroes them
 * and frees the CPU or the counted threads.
 *
 * Slots and multiplexing: a file has ARMPMU_MAX_COUNTERS event slots
 * (SELECT's index), whatever the core's num_counters. While every
 * programmed slot is below num_counters, slot n is event counter n: all
 * are in the PMU whenever the file counts, exactly, as on a core with
 * that many counters. Programming a slot at or above num_counters makes
 * the file multiplexed, until it is closed: at START its programmed slots
 * are packed into sets of at most num_counters (each group whole, or a
 * slot of its own, in order of lowest slot, into the first set with
 * room), and the i-th lowest slot of a set goes on event counter i. The sets take turns in the PMU: the next set is loaded
 * at every poll period (the module's poll_ms) while counting, and in task
 * mode at every switch-in of a counted thread. The cycle counter is
 * always loaded, never rotated. Each slot keeps its own count, counted
 * only while its set was in the PMU, and its own times (see
 * ARMPMU_IOC_READ_SLOTS): value * time_enabled / time_running estimates
 * the whole count. A slot whose time_running is 0 was never counted.
 *
 * Groups: struct armpmu_event's group (0: a slot of its own) keeps slots
 * together: slots with the same non-zero group are always in the PMU
 * together, so their time_running is equal and their ratios are exact.
 * A group with more slots than num_counters is refused (ENOSPC).
 *
 * Privilege: a file opened without CAP_PERFMON or CAP_SYS_ADMIN counts user
 * mode only: its events must carry ARMPMU_EXCLUDE_KERNEL (EACCES otherwise)
 * and its cycle counter is filtered to user mode. Capabilities are those of
 * the opener, taken at open(), for every right a file has (RELEASE's and
 * FILE_STATUS's too), whoever holds the descriptor afterwards.
 *
 * Sharing: Linux's perf driver and others may use the same PMU. A file
 * never touches counters someone else has enabled (EBUSY from SET_EVENT,
 * SET_CYCLE_FILTER, SET_VALUE and START), and finds out when someone
 * touches its own (ARMPMU_COUNTS_DISTURBED, EIO), even when perf programs
 * them exactly as this file did: armpmu never enables a counter's overflow
 * interrupt and perf always does. Counters someone else took are never
 * touched again, by STOP, RESET or close. Counts survive CPU hotplug and
 * idle power-down of the bound CPU. Closing a file (or RELEASE) zeroes the
 * hardware counters it used, so the next reader finds none of its counts.
 *
 * Errors common to every ioctl:
 *   ENOTTY  unknown ioctl number
 *   EFAULT  the argument pointer is not a valid user address
 *   EINVAL  a reserved field or undefined flag bit is set
 *   EBUSY   (binding) another file owns the CPU's PMU
 *   ENXIO   the bound CPU is offline
 *   ENODEV  the CPU has no PMU this driver can use
 *   EIO     (READ, START) someone else disturbed this file's counters; RESET
 *   ECANCELED  an administrator took the CPU's PMU from this file
 *              (ARMPMU_IOC_RELEASE): every later call but CPU_STATUS fails
 *              so; open the device again to count again
 */
#ifndef _UAPI_LINUX_ARMPMU_H
#define _UAPI_LINUX_ARMPMU_H

#include <linux/ioctl.h>
#include <linux/types.h>

/* The device node the driver creates (udev names it after the driver). */
#define ARMPMU_DEVICE_PATH	"/dev/armpmu"

/* Free in Documentation/userspace-api/ioctl/ioctl-number.rst. */
#define ARMPMU_IOC_MAGIC	0xD5

/* PMCR.N can be at most 31: the cycle counter takes bit 31 of the masks. */
#define ARMPMU_MAX_COUNTERS	31

/* ARMPMU_IOC_SET_VALUE counter index of the cycle counter. */
#define ARMPMU_CYCLE_COUNTER	31

/* ARMPMU_IOC_BIND argument: the CPU the caller runs on. */
#define ARMPMU_CPU_CURRENT	0xffffffffU

/* struct armpmu_info.flags */
/*
 * The core can exclude user or kernel mode: PMUv2 and later, where the
 * driver found the filter bits of an event type register to stick.
 */
#define ARMPMU_INFO_CAN_FILTER		(1U << 0)
/* common_events is valid: the core lists its implemented events (PMCEID). */
#define ARMPMU_INFO_EVENTS_KNOWN	(1U << 1)
/* PMUSERENR was found non-zero: someone else opened the PMU to user mode. */
#define ARMPMU_INFO_USERENR_SET		(1U << 2)
/* This file owns info.cpu; otherwise info describes the caller's CPU. */
#define ARMPMU_INFO_BOUND		(1U << 3)
/* The opener may count kernel mode. */
#define ARMPMU_INFO_KERNEL_ALLOWED	(1U << 4)
/*
 * PMCR.D divides the cycle counter by 64 (ARMPMU_IOC_SET_DIVIDER 1 works).
 * Probed: on ARMv8 cores the divider is ignored while PMCR.LC is set, and
 * cores without AArch32 have none.
 */
#define ARMPMU_INFO_CAN_DIVIDE		(1U << 5)
/* This file counts a task (task mode); info describes the caller's CPU. */
#define ARMPMU_INFO_TASK		(1U << 6)

/*
 * pmu_version uses the AArch32 ID_DFR0.PerfMon scale on both architectures:
 * 1 PMUv1 (Cortex-A8/A9), 2 PMUv2 (Cortex-A7/A15), 3 PMUv3 (ARMv8.0),
 * 4 PMUv3 for ARMv8.1, 5 for ARMv8.4, 6 for ARMv8.5, 7 for ARMv8.7, ...
 */
/*
 * event_bits: 8 on PMUv1/PMUv2 (ARMv7), 10 on PMUv3 for ARMv8.0 (such as
 * Cortex-A53, A57, A72), 16 from PMUv3 for ARMv8.1 on: the hardware ignores
 * wider bits, so a wider event number would silently count something else.
 */
#define ARMPMU_PMUV1	1
#define ARMPMU_PMUV2	2
#define ARMPMU_PMUV3	3

struct armpmu_info {
	__u32 cpu;		/* the CPU described */
	__u32 midr;		/* its Main ID Register */
	__u32 pmu_version;	/* ARMPMU_PMUV* scale, see above */
	__u32 num_counters;	/* event counters (PMCR.N), cycle counter not included */
	__u32 flags;		/* ARMPMU_INFO_* */
	__u32 event_bits;	/* width of an event number, see below */
	__u64 common_events;	/* bit n: event n (0x00-0x3f) is implemented */
	__u64 common_events_hi;	/* bit n: event 0x4000 + n is implemented */
	__u32 reserved[8];
};

/* struct armpmu_event.flags */
#define ARMPMU_EXCLUDE_USER	(1U << 0)
#define ARMPMU_EXCLUDE_KERNEL	(1U << 1)
#define ARMPMU_EVENT_FLAGS	(ARMPMU_EXCLUDE_USER | ARMPMU_EXCLUDE_KERNEL)

struct armpmu_event {
	__u32 event;		/* architectural or IMPLEMENTATION DEFINED number */
	__u32 flags;		/* ARMPMU_EXCLUDE_* */
	__u32 group;		/* 0: a slot of its own; else always in the PMU
				 * with the slots of the same group */
	__u32 reserved;
};

/* ARMPMU_IOC_SET_VALUE argument. */
struct armpmu_value {
	__u32 counter;		/* event counter index, or ARMPMU_CYCLE_COUNTER */
	__u32 reserved;
	__u64 value;		/* the 64-bit count to go on from */
};

/* struct armpmu_counts.flags */
/* The counters were running when the snapshot was taken. */
#define ARMPMU_COUNTS_RUNNING	(1U << 0)
/*
 * Someone else (perf, another module) stopped, reprogrammed or reset this
 * file's counters since its last RESET: the counts are not to be trusted,
 * and READ fails with EIO. In CPU mode counting stopped when it was found;
 * in task mode it goes on at the next switch-in.
 */
#define ARMPMU_COUNTS_DISTURBED	(1U << 1)
/*
 * Task mode: for part of the time a counted thread ran, its counters could
 * not be in the PMU (a CPU-mode file owned that CPU, perf held a counter, a
 * new thread could not be followed): the counts cover time_running of
 * time_enabled, and are not the whole program's.
 */
#define ARMPMU_COUNTS_INCOMPLETE	(1U << 2)
/*
 * Task mode: a counted thread executed a program that this file's opener
 * may not count (set-user-ID, set-group-ID or file capabilities, or a file
 * the thread may execute but not read, which leaves it non-dumpable, as
 * perf's rule has it): the thread was let go at that exec, before the new
 * program ran, and what it does from then on is not in the counts.
 * ARMPMU_COUNTS_INCOMPLETE is set too.
 */
#define ARMPMU_COUNTS_EXEC_LEFT	(1U << 3)
/*
 * The file is multiplexed (a slot at or above num_counters is programmed):
 * each slot was counted only while its set was in the PMU. READ_SLOTS
 * gives each slot's own times. In READ's and read(2)'s struct
 * armpmu_counts, events[n] is slot n's count as counted (not scaled), nr
 * covers the highest programmed slot, and ARMPMU_COUNTS_INCOMPLETE is
 * set too: no entry there is the whole count.
 */
#define ARMPMU_COUNTS_MULTIPLEXED	(1U << 4)

struct armpmu_counts {
	__u32 nr;		/* valid entries of events[]: num_counters (a
				 * multiplexed file: at least, up to its
				 * highest programmed slot + 1) */
	__u32 flags;		/* ARMPMU_COUNTS_* */
	__u64 cycles;		/* cycle counter (every 64 cycles with the divider) */
	__u64 events[ARMPMU_MAX_COUNTERS]; /* index = event counter (slot) index */
	/*
	 * Nanoseconds since RESET that the file was counting: in task mode,
	 * that its threads ran while started (summed over threads); in CPU
	 * mode, that it was started. time_running: of those, with the
	 * counters in the PMU. Equal when the counts are complete.
	 */
	__u64 time_enabled;
	__u64 time_running;
};

/* One slot in struct armpmu_read. All zero for a slot with no event. */
struct armpmu_slot {
	__u64 value;		/* counted while in the PMU, not scaled */
	__u64 time_enabled;	/* ns the file counted since the slot's
				 * SET_EVENT or the last RESET */
	__u64 time_running;	/* of those, ns with the slot in the PMU:
				 * 0 means never counted */
};

/*
 * ARMPMU_IOC_READ_SLOTS argument: this header, followed in the caller's
 * memory by @nr entries of slot[]. Only the header and those entries are
 * copied out, so a caller asks for the slots it uses and no more.
 */
struct armpmu_read {
	__u32 nr;		/* in: entries of slot[] to fill, slots 0 to
				 * nr - 1, at most ARMPMU_MAX_COUNTERS */
	__u32 flags;		/* out: ARMPMU_COUNTS_* */
	__u32 slots;		/* out: highest programmed slot + 1 */
	__u32 programmed;	/* out: bit n: slot n has an event */
	__u32 reserved[2];	/* in: zero */
	__u64 cycles;		/* the cycle counter (never multiplexed) */
	__u64 time_enabled;	/* the file's, as in struct armpmu_counts */
	__u64 time_running;
	struct armpmu_slot slot[];
};

/*
 * Task mode: the threads a file counts, each with its own totals, kept
 * until RESET or close (an exited thread's too), at most
 * ARMPMU_THREADS_KEPT of them a file, in the order they came to be
 * counted. Threads beyond are counted in the file's totals all the same,
 * and ARMPMU_THREADS_LOST says how many have no totals of their own. A
 * file without ARMPMU_ATTACH_FOLLOW counts one thread: its entry holds the
 * file's totals (from SET_VALUE's starting counts, if any).
 */
#define ARMPMU_THREADS_KEPT	256

/* struct armpmu_threads.flags */
/* More threads were counted than kept: @lost of them have no entry. */
#define ARMPMU_THREADS_LOST		(1U << 0)

/* struct armpmu_thread.flags */
/* The thread has exited (or was let go at an exec): its totals are final. */
#define ARMPMU_THREAD_EXITED		(1U << 0)
/*
 * The file is multiplexed: a thread's event slots are not kept (value[] is
 * zero and means nothing); its cycles, switches, migrations and times are.
 */
#define ARMPMU_THREAD_NO_SLOTS		(1U << 1)
/*
 * The thread was let go at an exec its file's opener may not count
 * (ARMPMU_COUNTS_EXEC_LEFT, for this thread alone): ARMPMU_THREAD_EXITED
 * is set too, and what it ran from that exec on is not in its totals.
 */
#define ARMPMU_THREAD_EXEC_LEFT		(1U << 2)

/*
 * One thread in ARMPMU_IOC_READ_THREADS' answer: this, followed by the
 * @slots values asked for (the counts of slots 0 to slots - 1, as counted
 * while this thread ran). Entries follow each other every
 * ARMPMU_THREAD_SIZE(slots) bytes.
 */
struct armpmu_thread {
	__u32 tid;		/* in the caller's PID namespace (0: not there) */
	__u32 flags;		/* ARMPMU_THREAD_* */
	__u64 switches;		/* times it was switched out while counted */
	__u64 migrations;	/* switch-ins on another CPU than its last
				 * one (counted switch-ins only) */
	__u64 time_enabled;	/* ns it ran while counted: its task-clock */
	__u64 time_running;	/* of those, ns with the counters in the PMU */
	__u64 cycles;		/* its cycle counter */
	__u64 value[];		/* slots 0 to @slots - 1 */
};

#define ARMPMU_THREAD_SIZE(slots) \
	(sizeof(struct armpmu_thread) + (slots) * sizeof(__u64))

/*
 * ARMPMU_IOC_READ_THREADS argument: this header, followed in the caller's
 * memory by @nr entries of ARMPMU_THREAD_SIZE(@slots) bytes each. Only the
 * header and the entries filled are copied out.
 */
struct armpmu_threads {
	__u32 index;		/* in: the first thread to describe, from 0 */
	__u32 nr;		/* in: room for entries; out: entries filled */
	__u32 slots;		/* in: values per entry, at most
				 * ARMPMU_MAX_COUNTERS */
	__u32 flags;		/* out: ARMPMU_THREADS_* */
	__u32 threads;		/* out: threads kept (entries there are) */
	__u32 lost;		/* out: threads counted but not kept */
	__u32 reserved[2];	/* in: zero */
	/* The file's totals, over every thread it counted, kept or not. */
	__u64 switches;
	__u64 migrations;
	__u64 task_clock;	/* ns: READ's time_enabled */
};

/*
 * Sampling (task mode): where a counted thread spends its time. A file given
 * ARMPMU_IOC_SET_SAMPLING takes a sample of each counted thread every
 * @period_ns of that thread's own running time, from a per-CPU timer that
 * runs only while a sampled thread is current (as perf's cpu-clock does:
 * the PMU's overflow interrupt belongs to Linux's perf driver). A tick that
 * finds the thread in user mode records its pid and tid, the time, the
 * user-mode PC and, for the cycle counter and every slot, what the thread
 * counted since its previous sample (so the weights of a thread's samples
 * add up to its counts). A tick in kernel mode records nothing unless the
 * file asked for ARMPMU_SAMPLING_KERNEL (which needs the opener's
 * CAP_PERFMON or CAP_SYS_ADMIN): what it counted goes to the thread's next
 * sample. No record ever holds a kernel address for a file without that
 * privilege.
 *
 * Samples come only from the threads the file counts, while it counts
 * them: sampling ends where counting ends (a let-go at an exec, exit,
 * STOP, close). Records wait in the file's ring, of the size the caller
 * chose (at most the module's sample_ring_kb_max); when it is full, new
 * samples are dropped and counted, and the next record written after room
 * is made again is an ARMPMU_RECORD_LOST saying how many. The ring is read
 * with ARMPMU_IOC_READ_SAMPLES by whoever holds the file. poll(2) on the
 * file says POLLIN while the ring holds at least a quarter of its size, or
 * any record once no counted thread is left.
 *
 * A multiplexed file cannot be sampled (its slots are not all in the PMU
 * at each tick): EOPNOTSUPP from SET_SAMPLING, and SET_EVENT refuses a
 * slot at or above num_counters in a sampled file with the same errno.
 *
 * Call chains (ARMPMU_SAMPLING_CALLCHAIN): each user-mode sample also
 * carries the thread's frame-record chain, walked in the tick as perf's
 * --call-graph fp walks it: from the frame pointer (x29) up through the
 * stack's records {next frame, return address}, each read with the
 * kernel's no-fault user copy (a page not present ends the walk, it is
 * never faulted in), at most @max_stack return addresses (0: the module's
 * sample_max_stack; above it, E2BIG), a frame that does not lie above the
 * last, is misaligned or is not user memory ending it. A walk that ended
 * anywhere but at a zero frame pointer is marked ARMPMU_CHAIN_CUT. The
 * link register is given beside the chain: in a leaf function that keeps
 * no frame record it is the only trace of the caller (the frame record at
 * x29 is then the caller's, whose return address leads to the caller's
 * caller); a reader that knows the function at @ip decides whether it
 * belongs to the chain. AArch32 threads (32-bit kernels, 32-bit programs
 * under arm64) keep no frame records that can be walked (Thumb-2 code
 * keeps none): their chains are empty, ARMPMU_CHAIN_NO_FRAMES, with the
 * link register. No address in a chain is a kernel one: a return address
 * that is not a user one ends the walk.
 */

/* struct armpmu_sampling.flags */
/* Also record ticks that find the thread in kernel mode, with the kernel PC. */
#define ARMPMU_SAMPLING_KERNEL		(1U << 0)
/* Each user-mode sample carries its call chain (struct armpmu_callchain). */
#define ARMPMU_SAMPLING_CALLCHAIN	(1U << 1)
#define ARMPMU_SAMPLING_FLAGS		(ARMPMU_SAMPLING_KERNEL | ARMPMU_SAMPLING_CALLCHAIN)

/* The longest period: the kernel's time is signed, and 2^63 ns would never come. */
#define ARMPMU_SAMPLING_PERIOD_MAX	0x7fffffffffffffffULL

/* ARMPMU_IOC_SET_SAMPLING argument. */
struct armpmu_sampling {
	__u64 period_ns;	/* running time of a thread between its samples;
				 * 0 turns sampling off */
	__u32 ring_bytes;	/* the ring's size, rounded up to a page */
	__u32 flags;		/* ARMPMU_SAMPLING_* */
	__u32 max_stack;	/* ARMPMU_SAMPLING_CALLCHAIN: return addresses
				 * per chain at most, 0 for the module's
				 * sample_max_stack; else zero */
	__u32 reserved[3];	/* in: zero */
};

/* struct armpmu_record.type */
#define ARMPMU_RECORD_SAMPLE	1	/* struct armpmu_sample */
#define ARMPMU_RECORD_LOST	2	/* struct armpmu_lost */
/*
 * struct armpmu_task_record: a thread came to be counted by following
 * (ARMPMU_ATTACH_FOLLOW): a new thread of a counted process (ppid == pid)
 * or the first thread of a new child process.
 */
#define ARMPMU_RECORD_FORK	3
/* struct armpmu_task_record: a counted thread executed a program; comm is its new name. */
#define ARMPMU_RECORD_EXEC	4
/* struct armpmu_task_record: a counted thread exited; none of its samples follow. */
#define ARMPMU_RECORD_EXIT	5
/*
 * struct armpmu_task_record: a counted thread was let go at an exec of a
 * program the opener may not count (ARMPMU_THREAD_EXEC_LEFT); none of its
 * samples follow, and comm is the name it had before.
 */
#define ARMPMU_RECORD_LET_GO	6

/*
 * The head of every record in READ_SAMPLES' answer. Records follow each
 * other every @size bytes (a multiple of 8), in the order they were made
 * on each CPU; across CPUs, sort by @time.
 */
struct armpmu_record {
	__u16 type;		/* ARMPMU_RECORD_* */
	__u16 size;		/* bytes of the whole record, this head included */
	__u32 cpu;		/* where it happened */
	__u32 pid;		/* the thread's process, in the opener's PID
				 * namespace (0: not there) */
	__u32 tid;		/* the thread, likewise */
	__u64 time;		/* CLOCK_MONOTONIC, ns */
};

/* struct armpmu_sample.flags */
/* The tick found the thread in kernel mode (ARMPMU_SAMPLING_KERNEL only). */
#define ARMPMU_SAMPLE_KERNEL		(1U << 0)
/*
 * For part of the time since the thread's previous sample its counters
 * were not in the PMU (ARMPMU_COUNTS_INCOMPLETE's causes): the values
 * fall short of what it did. Also for a thread the file keeps no totals
 * of its own for (beyond ARMPMU_THREADS_KEPT): its values are 0.
 */
#define ARMPMU_SAMPLE_INCOMPLETE	(1U << 1)
/* A struct armpmu_callchain follows value[] (ARMPMU_SAMPLING_CALLCHAIN, user mode). */
#define ARMPMU_SAMPLE_CALLCHAIN		(1U << 2)

struct armpmu_sample {
	struct armpmu_record head;
	__u64 ip;		/* the interrupted PC */
	__u32 flags;		/* ARMPMU_SAMPLE_* */
	__u32 nr;		/* entries of value[]: the file's highest
				 * programmed slot + 1 at START */
	__u64 period;		/* ns the thread ran since its previous sample
				 * (or since it came to be counted) */
	__u64 cycles;		/* cycle counter, since the previous sample */
	__u64 value[];		/* slots 0 to nr - 1, since the previous sample */
};

#define ARMPMU_SAMPLE_SIZE(nr)	(sizeof(struct armpmu_sample) + (nr) * sizeof(__u64))

/* struct armpmu_callchain.flags */
/* The walk ended before a zero frame pointer: frames beyond are missing. */
#define ARMPMU_CHAIN_CUT		(1U << 0)
/* The thread runs AArch32 code: no frame records were walked. */
#define ARMPMU_CHAIN_NO_FRAMES		(1U << 1)

/*
 * A sample's call chain, after its value[] (ARMPMU_SAMPLE_CALLCHAIN): the
 * sample's record is ARMPMU_CALLCHAIN_SIZE(nr) bytes longer.
 */
struct armpmu_callchain {
	__u32 nr;		/* entries of ret[] */
	__u32 flags;		/* ARMPMU_CHAIN_* */
	__u64 lr;		/* the link register at the sample (x30; r14) */
	__u64 ret[];		/* return addresses, innermost first: the one in
				 * the frame record at x29, then each next one */
};

#define ARMPMU_CALLCHAIN_SIZE(nr)	(sizeof(struct armpmu_callchain) + (nr) * sizeof(__u64))
/* The most a chain may hold, whatever sample_max_stack says: a record is at most 64 KiB. */
#define ARMPMU_MAX_STACK_LIMIT		4096

struct armpmu_lost {
	struct armpmu_record head;	/* pid and tid 0; time: when room was made */
	__u64 lost;		/* samples dropped since the previous LOST record */
};

struct armpmu_task_record {
	struct armpmu_record head;	/* the thread that came, executed, left */
	__u32 ppid;		/* FORK: the process that created it; EXIT and
				 * LET_GO: its parent process; EXEC: 0 */
	__u32 ptid;		/* FORK: the thread that created it; EXIT and
				 * LET_GO: its parent's thread; EXEC: 0 */
	char comm[16];		/* the thread's name (TASK_COMM_LEN), NUL-padded */
};

/* struct armpmu_samples.flags */
/*
 * No counted thread is left and sampling has ended: after the records of
 * this answer (and @pending bytes more), none will come.
 */
#define ARMPMU_SAMPLES_ENDED	(1U << 0)

/*
 * ARMPMU_IOC_READ_SAMPLES argument: this header, followed in the caller's
 * memory by @size bytes of room for records. Whole records are copied out
 * and taken from the ring, as many as fit.
 */
struct armpmu_samples {
	__u32 size;		/* in: bytes of room after the header;
				 * out: bytes of records copied there */
	__u32 flags;		/* out: ARMPMU_SAMPLES_* */
	__u64 recorded;		/* out: samples recorded since SET_SAMPLING */
	__u64 lost;		/* out: samples dropped, full ring, since then
				 * (a FORK, EXEC, EXIT or LET_GO record
				 * dropped counts too, here and in LOST) */
	__u32 pending;		/* out: bytes of records left in the ring */
	__u32 reserved[3];	/* in: zero */
};

/* struct armpmu_regs.flags */
/* evtype[ARMPMU_CYCLE_COUNTER] holds the cycle counter's filter (PMUv2 on). */
#define ARMPMU_REGS_CYCLE_FILTER	(1U << 0)

/*
 * ARMPMU_IOC_REGS argument: a CPU's PMU registers as they are, read on that
 * CPU in one go (interrupts off there), for a look at what programs it.
 * Only counters below num_counters are read; the rest of evtype[] and
 * counter[] below 31 is zero.
 */
struct armpmu_regs {
	__u32 cpu;		/* in: the CPU to look at */
	__u32 flags;		/* ARMPMU_REGS_* */
	__u32 midr;		/* its Main ID Register */
	__u32 pmu_version;	/* ARMPMU_PMUV* scale */
	__u32 pmcr;
	__u32 pmcntenset;	/* enabled counters; bit 31 the cycle counter */
	__u32 pmovsr;		/* overflowed counters; bit 31 likewise */
	__u32 pmuserenr;
	__u32 pmintenset;	/* overflow interrupts enabled; bit 31 likewise */
	__u32 num_counters;	/* event counters (PMCR.N as probed) */
	/* PMXEVTYPER of counter n; [31] the cycle filter (PMCCFILTR) */
	__u32 evtype[ARMPMU_MAX_COUNTERS + 1];
	/* PMXEVCNTR of counter n; [31] the cycle counter (PMCCNTR) */
	__u64 counter[ARMPMU_MAX_COUNTERS + 1];
	__u32 reserved[4];
};

/*
 * ARMPMU_IOC_INFO: describe the bound CPU (or, in task mode or on a file
 * with no mode yet, the CPU the caller runs on, choosing no mode).
 */
#define ARMPMU_IOC_INFO		_IOR(ARMPMU_IOC_MAGIC, 0x01, struct armpmu_info)

/*
 * ARMPMU_IOC_BIND: CPU mode: take ownership of a CPU's PMU (a CPU number,
 * or ARMPMU_CPU_CURRENT). EPERM without CAP_PERFMON or CAP_SYS_ADMIN at
 * open() (unless the module's cpu_mode_for_all is set); EBUSY if another
 * file owns it; EALREADY if this file already has a mode (bound, or
 * counting a task); EINVAL for a CPU number that does not exist; ENXIO if
 * the CPU is offline; ENODEV if it has no usable PMU.
 */
#define ARMPMU_IOC_BIND		_IOW(ARMPMU_IOC_MAGIC, 0x02, __u32)

/*
 * ARMPMU_IOC_SELECT: choose the slot the next SET_EVENT programs: below
 * num_counters, the event counter of that index; up to
 * ARMPMU_MAX_COUNTERS - 1, a slot that makes the file multiplexed (see
 * above). EINVAL for ARMPMU_MAX_COUNTERS and above.
 */
#define ARMPMU_IOC_SELECT	_IOW(ARMPMU_IOC_MAGIC, 0x03, __u32)

/*
 * ARMPMU_IOC_SET_EVENT: program the selected slot with an event and its
 * group, zero its count and times, and include it in START. EINVAL for an
 * event number wider than event_bits, an undefined flag or a non-zero
 * reserved field; EOPNOTSUPP for a filter on a core without
 * ARMPMU_INFO_CAN_FILTER; EACCES for kernel-mode counting without the
 * privilege; ENOENT for a common event (0x00-0x3f) that the core reports as
 * not implemented (ARMPMU_INFO_EVENTS_KNOWN); ENOSPC if the slot's group
 * would have more slots than num_counters; EBUSY while counting or armed
 * (ARMPMU_ATTACH_ENABLE_ON_EXEC: started, waiting for an exec), or if
 * someone else (perf) has the counter enabled (a multiplexed file finds
 * that at START). A refused call changes nothing: no counter programmed,
 * no count zeroed, no multiplexing switched on (this holds for SET_DIVIDER,
 * SET_VALUE and SET_CYCLE_FILTER too).
 */
#define ARMPMU_IOC_SET_EVENT	_IOW(ARMPMU_IOC_MAGIC, 0x04, struct armpmu_event)

/*
 * ARMPMU_IOC_SET_DIVIDER: 1 makes the cycle counter count once every 64
 * cycles (PMCR.D), 0 every cycle. EINVAL for other values; EOPNOTSUPP for 1
 * on a core without ARMPMU_INFO_CAN_DIVIDE; EBUSY while counting or armed;
 * ENXIO while a bound CPU is offline.
 */
#define ARMPMU_IOC_SET_DIVIDER	_IOW(ARMPMU_IOC_MAGIC, 0x05, __u32)

/*
 * ARMPMU_IOC_RESET: zero every counter, keeping the configuration, and
 * clear ARMPMU_COUNTS_DISTURBED. A file that was started (START, no STOP
 * since) counts on from zero; if its counters were disturbed, it starts
 * them again, and while someone else holds one of them RESET fails with
 * EBUSY and changes nothing (the counts stay DISTURBED).
 */
#define ARMPMU_IOC_RESET	_IO(ARMPMU_IOC_MAGIC, 0x06)

/*
 * ARMPMU_IOC_START / ARMPMU_IOC_STOP: start or stop the cycle counter and
 * every programmed event counter. Counts accumulate across START/STOP pairs
 * until RESET. EOPNOTSUPP from START for a user-mode-only file on a core
 * that cannot filter (its cycle counter would count the kernel); EBUSY if
 * someone else (perf) has enabled one of its counters or the cycle counter;
 * EIO if its counters were disturbed (see READ) and not RESET since.
 */
#define ARMPMU_IOC_START	_IO(ARMPMU_IOC_MAGIC, 0x07)
#define ARMPMU_IOC_STOP		_IO(ARMPMU_IOC_MAGIC, 0x08)

/*
 * ARMPMU_IOC_READ: snapshot the counters. read(2) with a buffer of at least
 * sizeof(struct armpmu_counts) returns the same snapshot (EINVAL for a
 * shorter one). Both fail with EIO when the counters were disturbed
 * (ARMPMU_COUNTS_DISTURBED), after filling the buffer all the same; START
 * fails so too, until RESET. The device cannot be written (EINVAL), mapped (ENODEV) or
 * seeked (ESPIPE).
 */
#define ARMPMU_IOC_READ		_IOR(ARMPMU_IOC_MAGIC, 0x09, struct armpmu_counts)

/* struct armpmu_cpu_status.flags */
#define ARMPMU_CPU_ONLINE	(1U << 0)
/* The CPU has a PMU this driver can use: info is valid. */
#define ARMPMU_CPU_USABLE	(1U << 1)
/* A file owns the CPU's PMU: owner_pid and owner_uid are valid. */
#define ARMPMU_CPU_OWNED	(1U << 2)
/* PMUSERENR is non-zero (looked at only while the CPU is online). */
#define ARMPMU_CPU_USERENR_SET	(1U << 3)
/*
 * Counters are enabled that no armpmu file is counting with (perf, or
 * another module): foreign_counters says which.
 */
#define ARMPMU_CPU_FOREIGN	(1U << 4)
/* The calling file is the owner. */
#define ARMPMU_CPU_CALLER	(1U << 5)

struct armpmu_cpu_status {
	__u32 cpu;		/* in: the CPU asked about */
	__u32 flags;		/* ARMPMU_CPU_* */
	__u32 owner_pid;	/* process that bound the owning file (0: not in
				 * the caller's PID namespace) */
	__u32 owner_uid;	/* its real uid, in the caller's user namespace */
	__u32 foreign_counters;	/* PMCNTENSET bits of others; 31 = cycle counter */
	__u32 reserved[3];
	struct armpmu_info info; /* valid with ARMPMU_CPU_USABLE; info.flags
				  * has only CAN_FILTER, EVENTS_KNOWN and
				  * CAN_DIVIDE */
};

/*
 * ARMPMU_IOC_CPU_STATUS: describe any CPU, without binding: whether it is
 * online, its PMU, who owns it and whether others use it. Any file may ask,
 * bound or not. EINVAL for a CPU number that does not exist or a non-zero
 * reserved field.
 */
#define ARMPMU_IOC_CPU_STATUS	_IOWR(ARMPMU_IOC_MAGIC, 0x0a, struct armpmu_cpu_status)

/*
 * ARMPMU_IOC_RELEASE: an administrator's reset of a CPU's PMU (a CPU
 * number): stop and zero its counters and take it from its owner, whose
 * file then gets ECANCELED. Needs CAP_SYS_ADMIN at open() (EPERM); ESRCH
 * if no file owns the CPU; EINVAL for a CPU number that does not exist.
 */
#define ARMPMU_IOC_RELEASE	_IOW(ARMPMU_IOC_MAGIC, 0x0b, __u32)

/*
 * ARMPMU_IOC_SET_VALUE: set a counter's 64-bit count; the hardware counter
 * gets its low bits (32 for event counters and the ARMv7 cycle counter), so
 * a test can reach a hardware wrap at once. In a multiplexed file, an
 * event slot's count goes on from @value in software. EINVAL for a counter
 * that is neither a slot (below num_counters, or below ARMPMU_MAX_COUNTERS
 * in a multiplexed file) nor ARMPMU_CYCLE_COUNTER; EBUSY while counting or
 * armed.
 */
#define ARMPMU_IOC_SET_VALUE	_IOW(ARMPMU_IOC_MAGIC, 0x0c, struct armpmu_value)

/*
 * ARMPMU_IOC_SET_CYCLE_FILTER: ARMPMU_EXCLUDE_* for the cycle counter, which
 * is zeroed. The default is 0 for a privileged file and ARMPMU_EXCLUDE_KERNEL
 * for the others, and the same rules as SET_EVENT's apply: EACCES for
 * kernel-mode counting without the privilege, EOPNOTSUPP without
 * ARMPMU_INFO_CAN_FILTER, EINVAL for an undefined flag, EBUSY while
 * counting or armed.
 */
#define ARMPMU_IOC_SET_CYCLE_FILTER _IOW(ARMPMU_IOC_MAGIC, 0x0d, __u32)

/* struct armpmu_attach.flags */
/* Also count the threads and processes the target creates from now on. */
#define ARMPMU_ATTACH_FOLLOW	(1U << 0)
/*
 * START arms the file instead of starting it: counting starts when a
 * counted thread next calls execve(2), where perf's enable_on_exec takes
 * effect (the new program's image is in place; the rest of the exec's
 * kernel work is counted, none of the old program's user-mode work).
 * Until then READ shows the file not running, with no time enabled.
 */
#define ARMPMU_ATTACH_ENABLE_ON_EXEC	(1U << 1)
#define ARMPMU_ATTACH_FLAGS	(ARMPMU_ATTACH_FOLLOW | ARMPMU_ATTACH_ENABLE_ON_EXEC)

struct armpmu_attach {
	__u32 tid;		/* a thread ID in the caller's PID namespace
				 * (a process ID names its main thread);
				 * 0: the calling thread */
	__u32 flags;		/* ARMPMU_ATTACH_* */
	__u32 reserved[2];
};

/*
 * ARMPMU_IOC_ATTACH: task mode for another thread, or for the caller with
 * flags. The file's opener (its credentials at open(), wherever the
 * descriptor went since) must be allowed to read the thread as ptrace's
 * read check with real credentials would, which is perf_event_open's
 * rule: a thread of the opener's own process, if that process executed no
 * program since the open; or a thread whose real, effective and saved user
 * and group IDs are the opener's real ones, whose capabilities are a
 * subset of the opener's in the same user namespace, and which is
 * dumpable; or an opener with CAP_SYS_PTRACE over the thread's namespaces.
 * EACCES otherwise. The same check guards the implicit attach of the first
 * thread to use the file, and every exec of a counted thread
 * (ARMPMU_COUNTS_EXEC_LEFT). ESRCH if there is no such thread or it is
 * exiting; EBUSY if another file counts it; EALREADY if this file already
 * has a mode. When the counted thread exits, its counts stay in the file.
 */
#define ARMPMU_IOC_ATTACH	_IOW(ARMPMU_IOC_MAGIC, 0x0e, struct armpmu_attach)

/* struct armpmu_file_status.flags */
#define ARMPMU_FILE_TASK	(1U << 0)	/* task mode: target_tid, threads */
#define ARMPMU_FILE_CPU		(1U << 1)	/* CPU mode: cpu */
#define ARMPMU_FILE_RUNNING	(1U << 2)	/* started and not stopped */
#define ARMPMU_FILE_FOLLOW	(1U << 3)	/* counts new threads and children */
#define ARMPMU_FILE_CALLER	(1U << 4)	/* the file asking */
#define ARMPMU_FILE_ARMED	(1U << 5)	/* started, waiting for an exec */

struct armpmu_file_status {
	__u32 id;		/* in: the smallest id to describe; out: the file's */
	__u32 flags;		/* ARMPMU_FILE_* */
	__u32 owner_pid;	/* process that chose the mode (0: not in the
				 * caller's PID namespace) */
	__u32 owner_uid;	/* its real uid, in the caller's user namespace */
	__u32 target_tid;	/* the thread attached first (0: not in the
				 * caller's PID namespace) */
	__u32 threads;		/* threads counted now */
	__u32 cpu;		/* the bound CPU */
	__u32 counters;		/* configured: bit n event counter n, bit 31 the
				 * cycle counter */
	/*
	 * Out (its input is ignored): the files with ids at least @id as
	 * asked that the caller may not see, other users' files being
	 * hidden from a file opened without CAP_PERFMON or CAP_SYS_ADMIN.
	 * Set on ENOENT too (the rest zero), so that a caller past the last
	 * file it sees learns how many it does not. Drivers before it: 0.
	 */
	__u32 hidden;
	__u32 reserved[3];
};

/*
 * ARMPMU_IOC_FILE_STATUS: describe the open file with the smallest id at
 * least @id that has chosen a mode (ids grow from 1 while the module is
 * loaded): who owns it, what it counts, with which counters. Any file may
 * ask, and sees its own opener's files (owner_uid its real uid); a file
 * opened with CAP_PERFMON or CAP_SYS_ADMIN sees every user's, as perf
 * shows no user another's events. @hidden counts the others. ENOENT when
 * no such file is left (@hidden still filled); EINVAL for a non-zero
 * reserved field.
 */
#define ARMPMU_IOC_FILE_STATUS	_IOWR(ARMPMU_IOC_MAGIC, 0x0f, struct armpmu_file_status)

/*
 * ARMPMU_IOC_RELEASE_FILE: an administrator's end of one file, whatever its
 * mode (its id, from FILE_STATUS): its counters stop and are zeroed, its CPU
 * or threads are let go, and its owner's later calls get ECANCELED. Needs
 * CAP_SYS_ADMIN at open() (EPERM); ESRCH if no open file has that id.
 */
#define ARMPMU_IOC_RELEASE_FILE	_IOW(ARMPMU_IOC_MAGIC, 0x10, __u32)

/*
 * ARMPMU_IOC_REGS: the PMU registers of any online CPU, whoever uses them
 * (armpmu files, perf, hand-written modules): PMCR, the enable, overflow,
 * user-enable and interrupt-enable registers, and each counter's event type
 * and value. They show every user's counts, so the call needs CAP_PERFMON
 * or CAP_SYS_ADMIN at open() (EPERM, cpu_mode_for_all or not). It changes
 * nothing: PMSELR, which it must use, is put back. EINVAL for a CPU number
 * that does not exist or a non-zero reserved field; ENXIO if the CPU is
 * offline; ENODEV if it has no usable PMU.
 */
#define ARMPMU_IOC_REGS		_IOWR(ARMPMU_IOC_MAGIC, 0x11, struct armpmu_regs)

/*
 * ARMPMU_IOC_READ_SLOTS: READ with each slot's own times, copying out only
 * the header and the @nr slots asked for (fewer bytes than READ for a file
 * that uses few counters). Fails as READ does (EIO when disturbed, after
 * filling all the same); EINVAL for @nr above ARMPMU_MAX_COUNTERS or a
 * non-zero reserved field; EFAULT if the header or the slots asked for are
 * not all writable memory. Without multiplexing, a slot's value is READ's
 * events[n] and its time_running its time_enabled unless the counts are
 * ARMPMU_COUNTS_INCOMPLETE.
 */
#define ARMPMU_IOC_READ_SLOTS	_IOWR(ARMPMU_IOC_MAGIC, 0x12, struct armpmu_read)

/*
 * ARMPMU_IOC_READ_THREADS: task mode: the file's totals of context
 * switches, CPU migrations and task-clock (as perf's software events of
 * those names count them), and the kept threads from @index on, each with
 * its own. A running file's counts are folded in first, as READ does.
 * Reading the threads of a running file, an entry's values were taken a
 * moment apart from the others'. Past the last thread, @nr is 0. EINVAL for
 * @slots above ARMPMU_MAX_COUNTERS or a non-zero reserved field;
 * EOPNOTSUPP for a CPU-mode file; EFAULT if the header or the entries are
 * not writable memory.
 */
#define ARMPMU_IOC_READ_THREADS	_IOWR(ARMPMU_IOC_MAGIC, 0x13, struct armpmu_threads)

/*
 * ARMPMU_IOC_SET_SAMPLING: sample the threads this file counts (see
 * Sampling above), or with @period_ns 0 stop sampling and free the ring.
 * On a file with no mode yet, or in task mode; EOPNOTSUPP in CPU mode and
 * for a multiplexed file; EBUSY while counting or armed (started, waiting
 * for an exec); EINVAL for an undefined flag, a non-zero reserved field, or
 * @ring_bytes smaller than a page; ERANGE for a period shorter than the
 * module's sample_rate_max allows (1e9 / sample_rate_max ns) or longer
 * than ARMPMU_SAMPLING_PERIOD_MAX; E2BIG for
 * @ring_bytes above sample_ring_kb_max KiB or @max_stack above
 * sample_max_stack; EINVAL for @max_stack without
 * ARMPMU_SAMPLING_CALLCHAIN; EACCES for
 * ARMPMU_SAMPLING_KERNEL without CAP_PERFMON or CAP_SYS_ADMIN at open();
 * EPERM when the rings of the opener's user (all its files') would hold
 * more than the module's sample_ring_user_kb KiB, unless the opener had
 * CAP_IPC_LOCK (a replaced ring counts until the new one is in);
 * ENOMEM. A refused call changes nothing. Setting it again replaces the
 * ring (its records are dropped) and zeroes @recorded and @lost.
 */
#define ARMPMU_IOC_SET_SAMPLING	_IOW(ARMPMU_IOC_MAGIC, 0x14, struct armpmu_sampling)

/*
 * ARMPMU_IOC_READ_SAMPLES: take records from the ring, as many whole ones
 * as fit in @size bytes (0 bytes when it is empty: never blocks; poll(2)
 * waits). EOPNOTSUPP if the file is not sampled; EINVAL for @size below
 * ARMPMU_SAMPLE_SIZE(ARMPMU_MAX_COUNTERS) or a non-zero reserved field;
 * ENOSPC, nothing taken, if the next record is larger than @size (a
 * sample with a call chain: up to ARMPMU_SAMPLE_SIZE(ARMPMU_MAX_COUNTERS)
 * + ARMPMU_CALLCHAIN_SIZE(max_stack) bytes);
 * EFAULT if the header or the room are not writable memory (the records
 * stay in the ring).
 */
#define ARMPMU_IOC_READ_SAMPLES	_IOWR(ARMPMU_IOC_MAGIC, 0x15, struct armpmu_samples)

#endif /* _UAPI_LINUX_ARMPMU_H */
