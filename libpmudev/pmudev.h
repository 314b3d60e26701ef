/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libpmudev: a thin C library over /dev/armpmu.
 *
 * ABI version 1: the shared library is libpmudev.so.1. Its first functions
 * carry the symbol version PMUDEV_1; those added since, and pmudev_read()
 * for the grown struct armpmu_counts, carry PMUDEV_2 (a program built
 * against the first header keeps the PMUDEV_1 pmudev_read(), which fills
 * only the fields that header knew). Structures given to the library are
 * only ever grown under a new symbol version.
 *
 * Every function returning int returns 0 (or a non-negative value where
 * documented) on success and a negative errno value on failure; see
 * pmudev_strerror(). The library keeps no global state: distinct handles may
 * be used from distinct threads at once; one handle (and its regions) is not
 * to be used by two threads at once. Counter snapshots use the driver's own
 * structures from <linux/armpmu.h>, the contract shared by driver, library
 * and tests: every count is 64 bits wide.
 */
#ifndef PMUDEV_H
#define PMUDEV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>
#include <linux/armpmu.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PMUDEV_ABI_VERSION	1

/*
 * An open /dev/armpmu, in one of two modes (see armpmu(4)):
 *
 * task mode (pmudev_open() with PMUDEV_CPU_ANY): the handle counts one
 * thread, the caller's, wherever it runs and only while it runs: not
 * other processes on the same CPU. No pinning: the caller's affinity is
 * left alone. Any member of the device's group may count its own threads.
 *
 * CPU mode (pmudev_open() with a CPU number): the handle owns that CPU's
 * PMU and counts everything that runs there, other users' processes too,
 * so the driver allows it only to CAP_PERFMON or CAP_SYS_ADMIN (unless
 * the module was loaded with cpu_mode_for_all=1): -EPERM otherwise.
 */
struct pmudev;

/* pmudev_open() cpu argument: task mode, no CPU (see above). */
#define PMUDEV_CPU_ANY		(-1)

/* pmudev_open() flags */
/*
 * CPU mode: do not pin the calling thread to the CPU (to watch a CPU the
 * caller does not run on). Task mode pins nothing: the flag changes
 * nothing there.
 */
#define PMUDEV_OPEN_NO_PIN	(1U << 0)
/*
 * Choose no mode yet (cpu must be PMUDEV_CPU_ANY): pmudev_attach() then
 * chooses the thread to count. Until it does, the handle serves
 * pmudev_info(), pmudev_cpu_status() and pmudev_release_cpu(), and every
 * counter operation gives -EBADFD.
 */
#define PMUDEV_OPEN_UNBOUND	(1U << 1)
/*
 * Task mode: also count the threads and child processes the caller
 * creates from now on, into the same counts (PMUDEV_ATTACH_FOLLOW).
 */
#define PMUDEV_OPEN_FOLLOW	(1U << 2)
/*
 * pmudev_add_event() and pmudev_add_group() go on past the event counters,
 * onto the slots that multiplex the file (armpmu(4)); without it they give
 * -ENOSPC there, as they always did, so that a program reading with
 * pmudev_read() never gets counts of part of the time unasked.
 */
#define PMUDEV_OPEN_MULTIPLEX	(1U << 3)

/*
 * Open the device. With PMUDEV_CPU_ANY, task mode: the calling thread is
 * counted from now on (another handle already counting it: -EBUSY). With
 * a CPU number, CPU mode: bind that CPU and, unless PMUDEV_OPEN_NO_PIN,
 * pin the calling thread to it, so the code it runs is the code counted;
 * pmudev_close() restores that thread's previous affinity.
 * Errors: -EINVAL (bad cpu or flags), -ENOENT (no /dev/armpmu: module not
 * loaded), -EACCES (not in the device's group), -EPERM (CPU mode without
 * the privilege), -EBUSY (the CPU's PMU is owned, or the thread counted by
 * another handle), and the driver's BIND and ATTACH errors.
 */
int pmudev_open(struct pmudev **pmu, int cpu, unsigned int flags);
/* Stops and releases the PMU (the driver zeroes it). NULL is ignored. */
void pmudev_close(struct pmudev *pmu);

/* pmudev_attach() flags */
/* Also count the threads and child processes @tid creates from now on. */
#define PMUDEV_ATTACH_FOLLOW	ARMPMU_ATTACH_FOLLOW
/*
 * pmudev_start() arms the handle: counting starts when a counted thread
 * next calls execve(2), as perf's enable_on_exec (the new program only).
 */
#define PMUDEV_ATTACH_ENABLE_ON_EXEC	ARMPMU_ATTACH_ENABLE_ON_EXEC

/*
 * Task mode for a handle opened PMUDEV_OPEN_UNBOUND: count thread @tid (a
 * process ID names its main thread; 0: the calling thread) from now on,
 * with PMUDEV_ATTACH_FOLLOW also what it creates afterwards. Its other
 * threads that exist already are not counted: each needs a handle of its
 * own. The handle's opener must be allowed to read @tid as ptrace's read
 * check with real credentials would (see armpmu(4)): -EACCES otherwise;
 * -ESRCH if there is no such thread; -EBUSY if another handle counts it;
 * -EALREADY if this handle already has a mode (any handle not opened
 * UNBOUND). When the thread exits, its counts stay readable.
 */
int pmudev_attach(struct pmudev *pmu, pid_t tid, unsigned int flags);

/* The bound CPU in CPU mode; -1 in task mode and for an UNBOUND handle. */
int pmudev_cpu(const struct pmudev *pmu);
int pmudev_fd(const struct pmudev *pmu);
/*
 * In CPU mode the bound CPU's description; otherwise that of the CPU the
 * caller ran on at open (what events it has), as read at open.
 */
const struct armpmu_info *pmudev_info(const struct pmudev *pmu);

/* Any CPU's state: online, PMU, owner, other users (ARMPMU_IOC_CPU_STATUS). */
int pmudev_cpu_status(struct pmudev *pmu, unsigned int cpu,
		      struct armpmu_cpu_status *status);
/*
 * Administrator: stop a CPU's PMU and take it from its owner, whose handle
 * then gets -ECANCELED (needs CAP_SYS_ADMIN: -EPERM; -ESRCH if unowned).
 */
int pmudev_release_cpu(struct pmudev *pmu, unsigned int cpu);

/*
 * The open file with the smallest id at least @id that has a mode: owner,
 * mode, counted thread, counters (ARMPMU_IOC_FILE_STATUS); -ENOENT past
 * the last. Never its counts.
 */
int pmudev_file_status(struct pmudev *pmu, unsigned int id,
		       struct armpmu_file_status *status);
/*
 * Administrator: end the file @id whatever its mode; its owner's handle then
 * gets -ECANCELED (needs CAP_SYS_ADMIN: -EPERM; -ESRCH for no such file).
 */
int pmudev_release_file(struct pmudev *pmu, unsigned int id);

/*
 * CPU @cpu's PMU registers as they are, whoever programs them (perf, other
 * handles, a hand-written module): PMCR, the enable, overflow, user-enable
 * and interrupt-enable masks, and each counter's event type and value
 * (ARMPMU_IOC_REGS). They show every user's counts: the handle's opener
 * needs CAP_PERFMON or CAP_SYS_ADMIN (-EPERM); -EINVAL for no such CPU,
 * -ENXIO if it is offline, -ENODEV if it has no PMU the driver can use.
 */
int pmudev_regs(struct pmudev *pmu, int cpu, struct armpmu_regs *regs);

/* The core's name from a MIDR value ("Cortex-A7"), or NULL if unknown. */
const char *pmudev_core_name(uint32_t midr);

/*
 * One function per driver operation: the driver's errors pass through
 * unchanged (see armpmu(4)). Programming (select, set_event, set_divider,
 * set_value, set_cycle_filter) fails with -EBUSY while counting.
 */
int pmudev_select(struct pmudev *pmu, unsigned int counter);
int pmudev_set_event(struct pmudev *pmu, uint32_t event, uint32_t flags);
/*
 * pmudev_set_event() in @group (0: a slot of its own): slots sharing a
 * non-zero group are always in the PMU together. -ENOSPC if the group
 * would have more slots than the core has counters.
 */
int pmudev_set_event_group(struct pmudev *pmu, uint32_t event, uint32_t flags,
			   uint32_t group);
int pmudev_set_divider(struct pmudev *pmu, bool every_64_cycles);
/* @counter: an event counter index or ARMPMU_CYCLE_COUNTER. */
int pmudev_set_value(struct pmudev *pmu, unsigned int counter, uint64_t value);
/* ARMPMU_EXCLUDE_* for the cycle counter. */
int pmudev_set_cycle_filter(struct pmudev *pmu, uint32_t flags);
int pmudev_reset(struct pmudev *pmu);
int pmudev_start(struct pmudev *pmu);
int pmudev_stop(struct pmudev *pmu);
/*
 * One read(2): the cycle counter and every event counter, 64 bits each,
 * and the coverage: time_enabled and time_running (ns). In task mode a
 * thread that ran where its counters could not be loaded (a CPU-mode
 * owner, perf holding the counters) was not counted meanwhile:
 * time_running is then less than time_enabled and flags has
 * ARMPMU_COUNTS_INCOMPLETE. pmudev_coverage() gives the ratio.
 */
int pmudev_read(struct pmudev *pmu, struct armpmu_counts *counts);

/*
 * ARMPMU_IOC_READ_SLOTS: set @rd->nr to the slots wanted (0 to nr - 1);
 * @rd must have room for them after the header, for instance
 *
 *	struct { struct armpmu_read hdr; struct armpmu_slot slot[8]; } buf =
 *		{ .hdr.nr = 8 };
 *	err = pmudev_read_slots(pmu, &buf.hdr);
 *
 * Each slot has its own value, time_enabled and time_running: without
 * multiplexing (every slot below num_counters) they are the file's; with
 * it (ARMPMU_COUNTS_MULTIPLEXED) each slot was counted only while its set
 * was in the PMU. Only the header and the slots asked for are copied.
 */
int pmudev_read_slots(struct pmudev *pmu, struct armpmu_read *rd);

/*
 * ARMPMU_IOC_READ_THREADS (task mode): the file's totals of context
 * switches, CPU migrations and task-clock in @th, and @th->nr threads from
 * @th->index on, each ARMPMU_THREAD_SIZE(@th->slots) bytes after the
 * header (@th must have room for them); on return @th->nr is the number
 * filled and @th->threads the number kept. For instance
 *
 *	struct { struct armpmu_threads hdr; char room[8 * ARMPMU_THREAD_SIZE(2)]; }
 *		buf = { .hdr.nr = 8, .hdr.slots = 2 };
 *	err = pmudev_read_threads(pmu, &buf.hdr);
 *
 * -EOPNOTSUPP for a CPU-mode handle.
 */
int pmudev_read_threads(struct pmudev *pmu, struct armpmu_threads *th);

/*
 * Sampling (task mode; see armpmu(4)): while the handle counts, a sample
 * of each thread it counts every @period_ns of that thread's own running
 * time (user mode only, unless @flags has ARMPMU_SAMPLING_KERNEL, which
 * needs CAP_PERFMON; ARMPMU_SAMPLING_CALLCHAIN: each user-mode sample with
 * its call chain, a struct armpmu_callchain after its values), into a
 * ring of @ring_bytes (at least a page, at most the module's
 * sample_ring_kb_max KiB). Set it before pmudev_start();
 * @period_ns 0 turns sampling off. -ERANGE for a period shorter than the
 * module's sample_rate_max allows, -E2BIG for a ring too large, -EBUSY
 * while counting, -EOPNOTSUPP in CPU mode or for a multiplexed handle.
 */
int pmudev_set_sampling(struct pmudev *pmu, uint64_t period_ns, uint32_t ring_bytes,
			uint32_t flags);

/*
 * ARMPMU_IOC_READ_SAMPLES: takes whole records from the ring into the room
 * after @s. Set @s->size to the room's bytes, at least
 * ARMPMU_SAMPLE_SIZE(ARMPMU_MAX_COUNTERS); on return it is the bytes of
 * records there (0: none now; it never blocks, poll(2) on pmudev_fd()
 * waits), @s->lost the samples the full ring dropped since
 * pmudev_set_sampling(), and @s->flags has ARMPMU_SAMPLES_ENDED once no
 * counted thread is left. For instance
 *
 *	struct { struct armpmu_samples hdr; char room[16384]; } buf =
 *		{ .hdr.size = 16384 };
 *	const struct armpmu_record *rec = NULL;
 *
 *	err = pmudev_read_samples(pmu, &buf.hdr);
 *	while (!err && (rec = pmudev_next_record(&buf.hdr, rec)))
 *		...;
 *
 * -EOPNOTSUPP if the handle is not sampled; -ENOSPC, nothing taken, if
 * the next record is larger than the room (a sample with a deep chain).
 */
int pmudev_read_samples(struct pmudev *pmu, struct armpmu_samples *s);

/*
 * The first record pmudev_read_samples() put after @s (@rec NULL), or the
 * one after @rec; NULL after the last, and where a record's size is not a
 * whole record within @s->size (then the rest is not to be trusted).
 */
const struct armpmu_record *pmudev_next_record(const struct armpmu_samples *s,
					       const struct armpmu_record *rec);

/*
 * A slot's count scaled to the whole time it was enabled: value *
 * time_enabled / time_running, the value itself when it ran all the time,
 * and -1.0 when it never ran (never counted: not a count of 0).
 */
double pmudev_scaled(const struct armpmu_slot *slot);

/*
 * The share of the time counted in @counts: time_running / time_enabled,
 * from 0 to 1; 1 when nothing was enabled yet. Below 1 the counts are
 * those of that share only: the library never scales them.
 */
double pmudev_coverage(const struct armpmu_counts *counts);

/* A message for a negative errno value returned by this library. */
const char *pmudev_strerror(int err);

/*
 * Events by name.
 *
 * A spec is an event name (the architecture's, INST_RETIRED,
 * L1D_CACHE_REFILL, L1D_CACHE_RD, ..., or the core's own, see
 * pmudev_core_event()), a perf alias (cycles, instructions,
 * cache-references, cache-misses, branches, branch-misses), in any case, or
 * a raw hexadecimal number (0x11, r11), optionally followed by :u (user
 * mode only), :k (kernel mode only) or :uk (both). Without a modifier, both
 * modes are counted if the caller may count the kernel
 * (ARMPMU_INFO_KERNEL_ALLOWED in the info given), else user mode only.
 */
struct pmudev_event {
	uint32_t number;
	uint32_t flags;		/* ARMPMU_EXCLUDE_* from the modifier */
};

/*
 * Parse @spec. @info (may be NULL) is the core's: with it, aliases resolve
 * for that core, and a number too wide for its event_bits gives -ERANGE;
 * an event the core reports as not implemented (ARMPMU_INFO_EVENTS_KNOWN),
 * a name its table lacks (another core's own event, say), or an
 * ARMv8-only name on an ARMv7 core without a table, gives -ENOENT. An unknown name,
 * a bad modifier or a bad number gives -EINVAL. pmudev_event_error() says
 * which, in words.
 */
int pmudev_event_parse(const char *spec, const struct armpmu_info *info,
		       struct pmudev_event *ev);

/*
 * Why pmudev_event_parse() rejects @spec, as one line for a user ("unknown
 * event 'inst_retird'; did you mean INST_RETIRED?") in @buf, truncated to
 * @len. Returns pmudev_event_parse()'s result (0: @spec is valid, @buf
 * empty).
 */
int pmudev_event_error(const char *spec, const struct armpmu_info *info,
		       char *buf, size_t len);

/*
 * Write up to @max names close to the unknown event in @spec into @buf,
 * comma-separated, closest first. Returns how many were written.
 */
int pmudev_event_suggest(const char *spec, char *buf, size_t len, int max);

/* The architectural name of common event @number, or NULL. */
const char *pmudev_event_name(uint32_t number);

/* One line describing common event @number, or NULL. */
const char *pmudev_event_description(uint32_t number);

/*
 * Events per core. libpmudev has a table for each of a list of cores
 * (pmudev_known_core()): the architecture's events the core implements
 * and its own IMPLEMENTATION DEFINED ones, by the names Linux perf uses for
 * arm64 cores. Given a struct armpmu_info of such a core,
 * pmudev_event_parse() resolves a name against that core's table first,
 * then the architecture's events, then perf's aliases (mapped to what the
 * core has: pmudev_event_note()), and refuses a name the core lacks.
 */
enum pmudev_event_group {
	PMUDEV_GROUP_CYCLES,	/* cycles and instructions */
	PMUDEV_GROUP_CACHE,
	PMUDEV_GROUP_TLB,
	PMUDEV_GROUP_BRANCH,
	PMUDEV_GROUP_MEMORY,	/* memory and bus */
	PMUDEV_GROUP_STALL,
	PMUDEV_GROUP_OTHER,
	PMUDEV_NR_GROUPS,
};

/* struct pmudev_event_info.flags: the core's own, IMPLEMENTATION DEFINED. */
#define PMUDEV_EVENT_IMPDEF	(1U << 0)

/* Owned by the library, never freed; fields are only ever added at the end. */
struct pmudev_event_info {
	uint32_t number;
	uint32_t group;		/* enum pmudev_event_group */
	uint32_t flags;		/* PMUDEV_EVENT_* */
	const char *name;
	const char *description;
};

/*
 * The @index-th of perf's generic event names (from 0: "cycles",
 * "instructions", "cache-references", ...), which pmudev_event_parse()
 * maps per core; NULL past the last.
 */
const char *pmudev_perf_alias(unsigned int index);

/*
 * The name of the @index-th core with an event table (from 0); NULL past
 * the last. @info (may be NULL) gets what such a core would report about
 * itself, as far as the table knows: midr (variant and revision 0),
 * pmu_version and event_bits; the rest 0. It serves pmudev_event_parse()
 * and pmudev_core_event() without a device.
 */
const char *pmudev_known_core(unsigned int index, struct armpmu_info *info);

/*
 * The @index-th event (from 0, in number order) of the table of the core
 * with MIDR @midr; NULL past the last, or if libpmudev has no table for
 * that core.
 */
const struct pmudev_event_info *pmudev_core_event(uint32_t midr, unsigned int index);

/*
 * Whether the core @info describes (NULL: any core) counts event @number:
 * its table lists it (cores with a table) and the core does not report it
 * missing (ARMPMU_INFO_EVENTS_KNOWN: 0x00-0x3f, and 0x4000-0x403f from
 * ARMv8.1). Numbers a core neither lists nor reports are assumed counted
 * where the core has no table, but for ARMv8's common events 0x1e-0x3f on
 * an ARMv7 core. pmuctl, listing, suggesting and parsing names all use
 * this answer; a raw number given to pmudev_event_parse() is checked
 * against the core's own report only.
 */
bool pmudev_event_implemented(const struct armpmu_info *info, uint32_t number);

/* "cycles and instructions", "caches", ...; NULL for no such group. */
const char *pmudev_event_group_name(unsigned int group);

/*
 * pmudev_event_suggest() for the core @info describes (may be NULL): the
 * names closest to @spec among the events that core has, and perf's
 * aliases. Returns how many were written.
 */
int pmudev_event_suggest_for(const char *spec, const struct armpmu_info *info,
			     char *buf, size_t len, int max);

/*
 * When a perf alias in @spec resolves on the core @info describes to an
 * event that only stands in for what perf means ("branches" on a core
 * without BR_RETIRED), one short line saying so, the event's name first
 * ("BR_PRED: speculative; no BR_RETIRED or PC_WRITE_RETIRED here"); else
 * NULL.
 */
const char *pmudev_event_note(const char *spec, const struct armpmu_info *info);

/*
 * Event lists, as `pmuctl stat -e` takes them (PMUDEV_7): comma-separated
 * specs, groups "{a,b}" always counted together (a modifier after the
 * brace, "{a,b}:u", is every member's), perf's PMU syntax
 * "cpu/event=0x11/" and "armv8_cortex_a72/event=0x8/u" (rewritten to a
 * raw number), and perf's software events, which no PMU counter counts
 * and which are listed apart (pmuctl stat measures them from the
 * command's resource usage). A list refuses what cannot apply to a
 * count, naming why (":p", ":G"), and leaves each event's name to
 * pmudev_event_parse(), checked when the event is added to a handle:
 * pmudev_event_error() then says "did you mean".
 */
struct pmudev_event_list;

/* One event of a list; its strings are the list's. */
struct pmudev_list_event {
	const char *spec;	/* for pmudev_add_event() */
	const char *name;	/* PMU syntax as typed (its modifier too); else NULL */
	const char *pmu_core;	/* the core a PMU name is of ("cortex-a72"), or NULL */
	unsigned int group;	/* the {...} it is in, 1 and up; 0: alone */
};

/* perf's software events: bits of pmudev_event_list_software(). */
enum pmudev_software {
	PMUDEV_SW_CPU_CLOCK,
	PMUDEV_SW_TASK_CLOCK,
	PMUDEV_SW_CONTEXT_SWITCHES,
	PMUDEV_SW_CPU_MIGRATIONS,
	PMUDEV_SW_PAGE_FAULTS,
	PMUDEV_SW_MINOR_FAULTS,
	PMUDEV_SW_MAJOR_FAULTS,
	PMUDEV_SW_COUNT
};

/* perf's name of software event @sw ("task-clock"), or NULL. */
const char *pmudev_software_name(unsigned int sw);

/* An empty list of at most @max events; NULL without memory. */
struct pmudev_event_list *pmudev_event_list_new(unsigned int max);
void pmudev_event_list_free(struct pmudev_event_list *list);

/*
 * Adds the events of @text, as one `pmuctl stat -e` argument, to @list;
 * groups are numbered on from the list's last. Returns 0, or -EINVAL
 * (-E2BIG past the list's @max) with one line for a user in @msg
 * (truncated to @len): "cycles:p: ':p' asks for precise sampling ...".
 * On an error, the events before it stay added.
 */
int pmudev_event_list_add(struct pmudev_event_list *list, const char *text,
			  char *msg, size_t len);
/* The events added, the groups made, the software events asked for (1 << sw). */
unsigned int pmudev_event_list_size(const struct pmudev_event_list *list);
unsigned int pmudev_event_list_groups(const struct pmudev_event_list *list);
unsigned int pmudev_event_list_software(const struct pmudev_event_list *list);
/* The @index-th event (from 0), or NULL past the last. */
const struct pmudev_list_event *pmudev_event_list_get(const struct pmudev_event_list *list,
						      unsigned int index);
/*
 * Whether the @nr events at @events (a list's, or any) suit the core
 * @info describes: each PMU name is its core's (-ENODEV otherwise), and
 * each group fits its counters, the cycle counter apart (-ENOSPC: a
 * group is counted together or not at all). 0, or the error with its
 * line in @msg.
 */
int pmudev_event_list_check(const struct pmudev_list_event *events, unsigned int nr,
			    const struct armpmu_info *info, char *msg, size_t len);

/* Whether core @name ("Cortex-A72") is the one @want names ("cortex-a72", "a72"). */
bool pmudev_core_matches(const char *name, const char *want);

/*
 * What a student trips over counting event @ev (from pmudev_core_event(),
 * or filled in for a raw number): the @index-th pitfall of its kind
 * (speculative, retired, cache, what QEMU counts, ...), one paragraph
 * from 0 on; NULL past the last. pmuctl explain prints them.
 */
const char *pmudev_event_pitfall(const struct pmudev_event_info *ev, unsigned int index);
/* Whether QEMU's emulated PMU counts @ev at all (with -icount at most). */
bool pmudev_event_qemu_counts(const struct pmudev_event_info *ev);

/*
 * Count @spec. The alias "cycles" (any case, any modifier) is the cycle
 * counter, which always counts: it sets the cycle counter's mode filter and
 * returns ARMPMU_CYCLE_COUNTER, using no event counter (CPU_CYCLES or 0x11
 * take an event counter). Anything else programs a free event counter,
 * allocated from the highest down (perf allocates from the lowest up), and
 * returns its index; -ENOSPC when every counter is programmed. With
 * PMUDEV_OPEN_MULTIPLEX the next events go on slots from num_counters up,
 * which multiplexes the file (armpmu(4)): read those with
 * pmudev_read_slots(); -ENOSPC then when all 31 slots are programmed.
 * Fails with -EBUSY while counting (after pmudev_start() or
 * pmudev_regions_new()).
 */
int pmudev_add_event(struct pmudev *pmu, const char *spec);

/*
 * pmudev_add_event() of @n specs as one new group, always counted
 * together; each one's slot goes to @slots[i] (if not NULL). -ENOSPC if
 * @n is more than the core's counters; -EINVAL for "cycles" (the cycle
 * counter always counts). On an error, the specs before it stay added.
 */
int pmudev_add_group(struct pmudev *pmu, const char *const *specs, unsigned int n,
		     int *slots);

/*
 * The name a counter shows in reports: the spec given to
 * pmudev_add_event() ("cycles" for ARMPMU_CYCLE_COUNTER), with the implied
 * modifier added (":u" for a user-only count) and "/64" for a divided cycle
 * counter. NULL for an event counter not added by name.
 */
const char *pmudev_counter_name(const struct pmudev *pmu, unsigned int counter);

/*
 * Regions: named pieces of a program, measured by begin/end pairs and
 * accumulated per region. Add events first: pmudev_regions_new() resets the
 * counters and starts them, and they run until pmudev_regions_free(). One
 * region set per handle (-EBUSY for a second). In task mode (the usual
 * handle) the regions count the handle's thread only, wherever the
 * scheduler runs it: nothing needs pinning, and begin and end must be
 * called from that thread.
 *
 * Begin and end are one read(2) each, with no allocation. Regions are
 * independent: any number may be open at once, nested or overlapping in any
 * order; an outer region's counts include its inner regions' reads. A
 * region cannot be entered again while open: begin gives -EALREADY, and end
 * of a region not open gives -EINVAL.
 *
 * Calibration: pmudev_regions_new() times a number of empty begin/end
 * pairs and takes, per counter, the least any pair counted as the
 * overhead of one pair (an interrupt can only add to a pair, so the
 * minimum is the estimate least inflated; under QEMU's -icount every pair
 * counts the same and it is exact). Region reads and reports subtract it
 * once per completed pair, on by default. A count less than its overhead
 * is reported as 0, never wrapped, and the region is flagged clamped
 * (pmudev_region_clamped(), a "*" in the table, "clamped" in JSON).
 * Overhead is per pair, not per nesting: an outer region still counts
 * its inner regions' begins and ends.
 */
struct pmudev_regions;

int pmudev_regions_new(struct pmudev *pmu, struct pmudev_regions **regions);
void pmudev_regions_free(struct pmudev_regions *regions);

/*
 * The id of the region called @name, created on first use (this call
 * allocates: look ids up outside the code measured).
 */
int pmudev_region(struct pmudev_regions *regions, const char *name);
int pmudev_region_begin(struct pmudev_regions *regions, int id);
int pmudev_region_end(struct pmudev_regions *regions, int id);

/*
 * A region's totals over its completed begin/end pairs, less the
 * calibrated overhead of each pair (see above).
 */
struct pmudev_region_counts {
	uint64_t calls;
	uint64_t cycles;
	uint64_t events[ARMPMU_MAX_COUNTERS];	/* index = event counter index */
};

int pmudev_region_read(const struct pmudev_regions *regions, int id,
		       struct pmudev_region_counts *counts);

/* 1 if a count of region @id was clamped at 0 by calibration, else 0. */
int pmudev_region_clamped(const struct pmudev_regions *regions, int id);

/*
 * 1 if region @id was not counted for the whole of its time (task mode: it
 * ran where its thread's counters could not be loaded, see pmudev_read()),
 * so its counts are short; else 0. Marked "!" in the table, "incomplete"
 * in JSON.
 */
int pmudev_region_incomplete(const struct pmudev_regions *regions, int id);

/*
 * Calibration on (the default) or off: reads and reports then give the
 * raw counts, overhead included. Applies to what is read from then on,
 * counts taken before included.
 */
void pmudev_regions_set_calibration(struct pmudev_regions *regions, bool on);

/*
 * What one empty begin/end pair counts, per counter (calls: the pairs
 * measured), whether calibration is on or off.
 */
void pmudev_regions_overhead(const struct pmudev_regions *regions,
			     struct pmudev_region_counts *overhead);

enum pmudev_format {
	PMUDEV_FORMAT_TABLE,
	PMUDEV_FORMAT_JSON,
};

/*
 * Every region's totals, in the order the regions were created: a table
 * (one row a region; columns calls, the cycle counter and each event added
 * by name) or one JSON object. Both give the overhead subtracted per call
 * when calibration is on.
 */
int pmudev_regions_print(const struct pmudev_regions *regions, FILE *out,
			 enum pmudev_format format);

#ifdef __cplusplus
}
#endif

#endif /* PMUDEV_H */
