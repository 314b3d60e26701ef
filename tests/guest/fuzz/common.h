/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the parts of fuzz share: the limits, the kinds of calls and failures,
 * a worker thread and the call it makes, the state the parent sets up before
 * the workers start (its definitions are in tests/guest/fuzz.c) and each
 * part's functions. tests/guest/fuzz.c reads the options and runs it all;
 * each theme is one file of this folder.
 */
#ifndef ARMPMU_FUZZ_COMMON_H
#define ARMPMU_FUZZ_COMMON_H

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <grp.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <linux/armpmu.h>

#include "../devio.h"
#include "../tap.h"
#include "../users.h"

#define EXCL_K			ARMPMU_EXCLUDE_KERNEL
#define EXCL_U			ARMPMU_EXCLUDE_USER

#define MAX_PROCS		16
#define MAX_THREADS		64
#define MAX_CPUS		64
/* Per thread: slot 0 is never bound (a watcher), the others may be. */
#define PRIV_FDS		4
/* Per process: fds every thread of it uses, so calls race on one file. */
#define SHARED_FDS		4
/* errno histogram: 0 is success, the last slot takes any errno above. */
#define NERR			256
/* Failure lines printed per thread: the first ones say enough. */
#define MAX_PRINTED		8
/* Trips of loop_n() (two instructions each) inside a counting sequence. */
#define SPIN_SEQ		2000UL

#define ARRAY_SIZE(a)		(sizeof(a) / sizeof((a)[0]))

/* Kinds of failure, each its own TAP test at the end. */
enum fail_kind {
	F_UNDOC,	/* an errno armpmu(4) does not document */
	F_WRONG,	/* a documented errno that this call cannot return */
	F_OUTPUT,	/* a successful call whose output is wrong */
	F_GUEST,	/* the guest's open() did not fail with EACCES */
	F_KINDS
};

/* The calls, for the per-kind summary. */
enum op_kind {
	OP_OPEN, OP_CLOSE, OP_DUP, OP_DUP2, OP_IOCTL, OP_MAGIC, OP_RANDOM,
	OP_READ, OP_WRITE, OP_LSEEK, OP_MMAP, OP_SEQ, OP_RELEASE, OP_KINDS
};

/* SET_SAMPLING's limits a call met (limits.c): counted, so a run shows it tried them. */
enum limit_kind { LIMIT_PERIOD, LIMIT_LAB_RING, LIMIT_ROOT_RING, LIMIT_KINDS };

/* What one thread did, in memory shared with the parent (one writer each). */
struct thread_stats {
	uint64_t seed;
	uint64_t calls;
	uint64_t errs[NERR];
	uint64_t ops[OP_KINDS];
	uint64_t fails[F_KINDS];
	uint64_t limits[LIMIT_KINDS];
	uint32_t done;
};

struct shared {
	volatile int stop_hotplug;
	uint64_t hotplug_flips, hotplug_errors;
	int hotplug_last_err;
	struct thread_stats t[];	/* [proc * threads + thread] */
};

enum pkind {
	PK_VALID, PK_MISALIGNED, PK_NULL, PK_NOACCESS, PK_READONLY, PK_STRADDLE,
	PK_KERNEL, PK_SMALL, PK_RANDOM,
};

/* A pointer argument: where it points, and where to put the input. */
struct ptr {
	enum pkind kind;
	uintptr_t addr;
	unsigned char *fill;	/* writable start, or NULL */
	size_t fill_len;	/* bytes that can be written there */
};

/* One call, kept to describe it if it fails. */
struct call {
	const char *op;
	int fd;
	const char *fdkind;
	unsigned long req;
	bool has_ptr, has_len;
	enum pkind pkind;
	uintptr_t ptr;
	size_t len;
	unsigned int nargs;
	uint64_t arg[5];
};

struct worker {
	unsigned int proc, thread;
	enum guest_user role;
	uint64_t seed, rng;
	uint64_t ncall;			/* index of the current call */
	struct thread_stats *st;
	int priv[PRIV_FDS];
	bool excl[PRIV_FDS];		/* opened here, never a dup of a shared fd */
	unsigned char *pages;		/* buffer, straddle, PROT_NONE, read-only */
	unsigned int printed;
	pthread_t tid;
};

enum argkind {
	A_NONE, A_CPU, A_INDEX, A_EVENT, A_DIVIDER, A_FLAGS, A_VALUE, A_STATUS,
	A_OUT, A_ATTACH, A_FILE, A_FILE_ID, A_REGS, A_SLOTS, A_THREADS, A_SAMPLING,
	A_SAMPLES,
};

/*
 * READ_SAMPLES' room after its header. A call's size is at most this, or
 * one the driver refuses (below the largest sample): the driver writes
 * whole records up to the size it is given.
 */
#define SAMPLES_ROOM	2048

/*
 * READ_THREADS' room: entries of every slot after the header. A call asks
 * for at most this many, or more only with a field that makes it EINVAL:
 * a file may count more threads than that (FOLLOW), and the driver writes
 * every entry it fills.
 */
#define THREADS_ROOM	4
#define THREAD_BYTES	ARMPMU_THREAD_SIZE(ARMPMU_MAX_COUNTERS)

/* Mostly the interesting values of @vals, sometimes anything (pick.c). */
#define PICK(w, vals) pick(w, vals, ARRAY_SIZE(vals))

/* ncall is the index of the call about to be made, for the messages. */
#define FAIL_AFTER(w, kind, c, ...) do {	\
	(w)->ncall--;				\
	fail(w, kind, c, __VA_ARGS__);		\
	(w)->ncall++;				\
} while (0)

/* Errnos a call may return, besides the ones every call may (calls.c). */
static const int only_efault[] = { EFAULT, 0 };
static const int only_not_enotty[] = {
	EACCES, EALREADY, EBUSY, ECANCELED, EFAULT, EINVAL, EIO, ENODEV, ENOENT,
	ENOSPC, ENXIO, EOPNOTSUPP, EPERM, ESRCH, 0
};
/* SET_SAMPLING's own: a period, a ring, memory. */
static const int only_sampling[] = {
	E2BIG, EACCES, EBUSY, ECANCELED, EFAULT, EINVAL, ENODEV, ENOMEM, EOPNOTSUPP,
	EPERM, ERANGE, ESRCH, 0
};
/* Calls that never bind: no EBUSY, ENXIO from binding. */
static const int only_watcher[] = { EFAULT, EINVAL, ENODEV, ENOENT, EPERM, 0 };

/* Memory the workers and the parent share. */
extern struct shared *sh;

/* Options. */
extern uint64_t opt_seed;
extern uint64_t opt_calls;
extern unsigned int opt_threads, opt_procs, opt_timeout;
extern bool opt_hotplug;

/* What the board is, found by the parent before the workers start. */
extern long page_size;
extern unsigned int ncpus;		/* possible CPUs: 0 .. ncpus - 1 */
extern unsigned int cpu_nc[MAX_CPUS];	/* num_counters per CPU, 0: unknown */
extern unsigned int cpu_eb[MAX_CPUS];	/* event_bits per CPU */
extern unsigned int num_counters, event_bits;	/* CPU 0's */
/*
 * Calls per thread. The guest can only be refused at open(): a tenth as
 * many calls, and --calls counts those of the users who get further.
 */
extern uint64_t quota, guest_quota;

/* Interesting values, filled in once num_counters and event_bits are known. */
extern uint32_t cpu_vals[12], idx_vals[12], ev_vals[16], counter_vals[12];
extern uint32_t nr_vals[8];

/* Per process, never changed once the threads run: see replace_shared(). */
extern int shared_fd[SHARED_FDS];
extern pthread_barrier_t start_barrier;

/* hotplug.c: the sysfs files and the CPUs --cpu-hotplug takes offline. */
extern char online_path[MAX_CPUS][64];
extern unsigned int hotplug_cpus[MAX_CPUS], n_hotplug;

/* pick.c: the PRNG and what it picks */
uint64_t splitmix64(uint64_t *state);
uint64_t thread_seed(uint64_t seed, unsigned int proc, unsigned int thread);
uint32_t rnd(struct worker *w);
uint64_t rnd64(struct worker *w);
uint32_t below(struct worker *w, uint32_t n);
bool chance(struct worker *w, unsigned int per_mille);
uint32_t pick(struct worker *w, const uint32_t *vals, size_t n);
uint64_t pick64(struct worker *w);
uint32_t reserved(struct worker *w);
uint32_t some_cpu(struct worker *w);
void find_stack_zone(void);
struct ptr pick_ptr(struct worker *w, size_t size);
bool readable(const struct ptr *p);
bool writable(const struct ptr *p);
void fill_ptr(const struct ptr *p, const void *data, size_t size);

/* calls.c: recording and checking a call */
void call_init(struct call *c, const char *op, int fd, const char *fdkind);
void call_ptr(struct call *c, const struct ptr *p);
void call_arg(struct call *c, uint64_t v);
void fail(struct worker *w, enum fail_kind kind, const struct call *c,
	  const char *fmt, ...);
void done(struct worker *w, struct call *c, enum op_kind kind, int err,
	  const int *only);
int pick_fd(struct worker *w, const char **kind, int *slot);

/* outputs.c: the outputs of successful ioctls */
void check_info(struct worker *w, const struct call *c,
		const struct armpmu_info *info, bool watcher);
void check_counts(struct worker *w, const struct call *c,
		  const struct armpmu_counts *counts, int err);
void check_slots(struct worker *w, const struct call *c, const struct armpmu_read *rd,
		 const struct armpmu_slot *slot, uint32_t nr, int err);
void check_read_slots(struct worker *w, struct call *c, const struct ptr *p,
		      uint32_t nr, int err);
void check_read_samples(struct worker *w, struct call *c, const struct ptr *p,
			const struct armpmu_samples *in, int err);
void check_read_threads(struct worker *w, struct call *c, const struct ptr *p,
			const struct armpmu_threads *in, int err);
void check_status(struct worker *w, const struct call *c,
		  const struct armpmu_cpu_status *st, uint32_t cpu);
void check_regs(struct worker *w, const struct call *c,
		const struct armpmu_regs *r, uint32_t cpu);

/* limits.c: the sampling limits, read (and the user's bound lowered) before the run */
struct limits {
	uint64_t min_period_ns;		/* 1e9 / sample_rate_max */
	uint64_t ring_max;		/* sample_ring_kb_max, in bytes */
	uint64_t max_stack;		/* sample_max_stack */
	uint64_t user_bound;		/* sample_ring_user_kb for the run, bytes; 0: unchecked */
	uint64_t user_kb_was;		/* restored at the end */
};
extern struct limits limits;
void limits_lower(void);
void check_sampling(struct worker *w, struct call *c, const struct armpmu_sampling *sm, int err);
void limits_check_and_restore(const uint64_t met[LIMIT_KINDS]);

/* ioctl.c: ioctls */
void op_real_ioctl(struct worker *w, bool watcher);
void op_magic_ioctl(struct worker *w);
void op_random_ioctl(struct worker *w);
void op_release(struct worker *w);

/* io.c: read, write, lseek, mmap */
void op_read(struct worker *w);
void op_write(struct worker *w);
void op_lseek(struct worker *w);
void op_mmap(struct worker *w);

/* fds.c: fds */
void reopen_private(struct worker *w, unsigned int slot);
void op_fds(struct worker *w);
void op_pin(struct worker *w);

/* counting.c: a legal counting sequence */
void op_counting(struct worker *w);

/* worker.c: the workers */
int worker_process(unsigned int proc);

/* hotplug.c: CPU hotplug */
bool cpu_online(unsigned int cpu);
int hotplug_process(void);

#endif
