// SPDX-License-Identifier: GPL-2.0
/*
 * armpmu-bench: what one operation costs, in instructions, kernel and user,
 * timed with a clock that owes nothing to the driver measured.
 *
 *   armpmu-bench armpmu    null_syscall and the operations of /dev/armpmu
 *   armpmu-bench direct    user-mode reads of the counters (PMUSERENR must
 *                          be open: the bench module does it)
 *   armpmu-bench perf      perf_event_open's group and single reads
 *   armpmu-bench switch [--perf]
 *                          context switches: plain, with armpmu's probe
 *                          hooked, and with one of the two tasks counted;
 *                          with --perf, that task counted by perf instead
 *
 * Under QEMU's -icount shift=0 the guest's CLOCK_MONOTONIC advances exactly
 * one nanosecond per instruction retired, in steps of 16 ns (the 62.5 MHz
 * generic timer). So a batch of N calls of an operation is timed, the
 * least of several batches taken (a timer interrupt can only add to a
 * batch), and the least of the same batches of an empty operation
 * subtracted: what is left, over N, is the operation's own instructions,
 * its call from C included, with an error of at most 32 / N from the
 * clock's steps (an eighth of an instruction): where those steps fall
 * differs from boot to boot, so the figure is rounded to whole
 * instructions per call (per round trip, for context switches), and a
 * boot that runs the same instructions prints the same figures. Without
 * -icount the figures are nanoseconds and not repeatable.
 *
 * Output: one line per operation,
 *   @bench OPERATION INSNS_PER_OP n=N batches=B
 * and the reason on stderr, exit status 1, when something fails.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/armpmu.h>
#include <linux/armpmu_arch.h>
#include "pmudev.h"

/* Calls per batch and batches per operation. */
#define BATCH_CALLS	256
#define BATCHES		24

/* An ioctl number /dev/armpmu does not know, for the ENOTTY floor. */
#define ARMPMU_IOC_UNKNOWN	_IO(ARMPMU_IOC_MAGIC, 0x7f)

/* The most counters a perf group gets: one per armpmu counter. */
#define PERF_MAX_EVENTS		(ARMPMU_MAX_COUNTERS + 1)

struct bench {
	/* armpmu */
	struct pmudev *pmu;
	struct pmudev_regions *regions;
	int fd;
	int region;
	unsigned int num_counters;
	struct armpmu_counts counts;
	struct {
		struct armpmu_read hdr;
		struct armpmu_slot slot[ARMPMU_MAX_COUNTERS];
	} rd;				/* READ_SLOTS' buffer */
	/* perf */
	int perf_group[PERF_MAX_EVENTS];
	int nr_perf;
	int perf_single;
	uint64_t perf_buf[1 + PERF_MAX_EVENTS];
	/* direct user reads */
	uint64_t direct[ARMPMU_MAX_COUNTERS + 1];
	/* context switches */
	pid_t partner;			/* the other side of the ping-pong */
	volatile unsigned long *partner_yields;	/* its yields, shared */
	pid_t sleeper;			/* holds a task-mode file, asleep */
	int task_fd;			/* this process's own task-mode file */
	int perf_task[PERF_MAX_EVENTS];	/* this process counted by perf */
};

typedef int (*op_fn)(struct bench *b);

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/*
 * One batch: @n calls of @op, timed. Any failed call makes the batch fail
 * (UINT64_MAX); the loop itself is the same for every operation.
 */
static __attribute__((noinline)) uint64_t time_batch(op_fn op, struct bench *b,
						     unsigned int n)
{
	uint64_t start, end;
	int bad = 0;

	start = now_ns();
	for (unsigned int i = 0; i < n; i++)
		bad |= op(b);
	end = now_ns();
	return bad ? UINT64_MAX : end - start;
}

/* The least of BATCHES batches, after one to warm up (page faults). */
static uint64_t least_batch(op_fn op, struct bench *b)
{
	uint64_t least = UINT64_MAX;

	if (time_batch(op, b, BATCH_CALLS) == UINT64_MAX)
		return UINT64_MAX;
	for (int i = 0; i < BATCHES; i++) {
		uint64_t t = time_batch(op, b, BATCH_CALLS);

		if (t == UINT64_MAX)
			return t;
		if (t < least)
			least = t;
	}
	return least;
}

static __attribute__((noinline)) int op_empty(struct bench *b)
{
	(void)b;
	__asm__ volatile("" ::: "memory");
	return 0;
}

static uint64_t empty_batch;

/*
 * Whole instructions per call in @t ns over the empty loop's, for @calls
 * calls: the clock's steps are worth less than half an instruction here.
 */
static uint64_t per_call(uint64_t t, unsigned int calls)
{
	return (t - empty_batch + calls / 2) / calls;
}

static int report(const char *name, op_fn op, struct bench *b)
{
	uint64_t t = least_batch(op, b);

	if (t == UINT64_MAX) {
		fprintf(stderr, "armpmu-bench: %s failed: %s\n", name, strerror(errno));
		return 1;
	}
	if (t < empty_batch) {
		fprintf(stderr, "armpmu-bench: %s: a batch (%llu ns) took less than an empty one (%llu ns)\n",
			name, (unsigned long long)t, (unsigned long long)empty_batch);
		return 1;
	}
	printf("@bench %s %llu.0 n=%d batches=%d\n", name,
	       (unsigned long long)per_call(t, BATCH_CALLS), BATCH_CALLS, BATCHES);
	fflush(stdout);
	return 0;
}

static int measure_empty(struct bench *b)
{
	empty_batch = least_batch(op_empty, b);
	return empty_batch == UINT64_MAX;
}

/* Pins the process to the CPU it runs on (the boards have one under icount). */
static int pin_here(void)
{
	cpu_set_t one;

	CPU_ZERO(&one);
	CPU_SET(sched_getcpu(), &one);
	if (sched_setaffinity(0, sizeof(one), &one)) {
		perror("armpmu-bench: sched_setaffinity");
		return 1;
	}
	return 0;
}

/* ---- armpmu ---- */

static __attribute__((noinline)) int op_null_syscall(struct bench *b)
{
	(void)b;
	return getppid() < 0;
}

static __attribute__((noinline)) int op_enotty(struct bench *b)
{
	return !(ioctl(b->fd, ARMPMU_IOC_UNKNOWN) < 0 && errno == ENOTTY);
}

static __attribute__((noinline)) int op_read_ioctl(struct bench *b)
{
	return ioctl(b->fd, ARMPMU_IOC_READ, &b->counts) != 0;
}

/* The header and the rd.hdr.nr slots asked for. */
static __attribute__((noinline)) int op_read_slots(struct bench *b)
{
	return ioctl(b->fd, ARMPMU_IOC_READ_SLOTS, &b->rd) != 0;
}

static __attribute__((noinline)) int op_read(struct bench *b)
{
	return read(b->fd, &b->counts, sizeof(b->counts)) != sizeof(b->counts);
}

/* From counting to counting: one STOP and one START. */
static __attribute__((noinline)) int op_start_stop(struct bench *b)
{
	return ioctl(b->fd, ARMPMU_IOC_STOP) != 0 || ioctl(b->fd, ARMPMU_IOC_START) != 0;
}

static __attribute__((noinline)) int op_reset(struct bench *b)
{
	return ioctl(b->fd, ARMPMU_IOC_RESET) != 0;
}

static __attribute__((noinline)) int op_region(struct bench *b)
{
	return pmudev_region_begin(b->regions, b->region) != 0 ||
	       pmudev_region_end(b->regions, b->region) != 0;
}

/*
 * Every counter programmed and counting: the cycle counter and each event
 * counter (INST_RETIRED, in the mode the caller may count), as a user of
 * the library sets them up. Leaves them counting, regions ready.
 */
static int armpmu_setup(struct bench *b)
{
	const struct armpmu_info *info;
	int err;

	err = pmudev_open(&b->pmu, PMUDEV_CPU_ANY, 0);
	if (err) {
		fprintf(stderr, "armpmu-bench: pmudev_open: %s\n", pmudev_strerror(err));
		return 1;
	}
	info = pmudev_info(b->pmu);
	b->fd = pmudev_fd(b->pmu);
	b->num_counters = info->num_counters;
	err = pmudev_add_event(b->pmu, "cycles");
	for (unsigned int i = 0; !(err < 0) && i < b->num_counters; i++)
		err = pmudev_add_event(b->pmu, "instructions");
	if (!(err < 0))
		err = pmudev_regions_new(b->pmu, &b->regions);
	if (!(err < 0))
		err = b->region = pmudev_region(b->regions, "bench");
	if (err < 0) {
		fprintf(stderr, "armpmu-bench: setting up %u counters: %s\n",
			b->num_counters + 1, pmudev_strerror(err));
		return 1;
	}
	return 0;
}

/*
 * A multiplexed file, counting: the cycle counter and twice as many
 * INST_RETIRED events as the core has counters, so two sets take turns.
 * Its READ_SLOTS asks for every slot. Replaces b->pmu and b->fd.
 */
static int multiplexed_setup(struct bench *b)
{
	unsigned int slots = 2 * b->num_counters;
	int err = pmudev_open(&b->pmu, PMUDEV_CPU_ANY, PMUDEV_OPEN_MULTIPLEX);

	b->fd = err ? -1 : pmudev_fd(b->pmu);
	err = err ? err : pmudev_add_event(b->pmu, "cycles");
	for (unsigned int i = 0; !(err < 0) && i < slots; i++)
		err = pmudev_add_event(b->pmu, "instructions");
	if (!(err < 0))
		err = pmudev_start(b->pmu);
	b->rd.hdr.nr = slots;
	if (!(err < 0))
		err = pmudev_read_slots(b->pmu, &b->rd.hdr);
	if (!(err < 0) && !(b->rd.hdr.flags & ARMPMU_COUNTS_MULTIPLEXED))
		err = -EPROTO;
	if (err < 0) {
		fprintf(stderr, "armpmu-bench: a multiplexed file of %u slots: %s\n", slots,
			pmudev_strerror(err));
		return 1;
	}
	return 0;
}

static int run_armpmu(struct bench *b)
{
	int bad;

	if (armpmu_setup(b) || measure_empty(b))
		return 1;
	printf("@bench-info counters=%u\n", b->num_counters + 1);
	bad = report("null_syscall", op_null_syscall, b);
	bad |= report("armpmu_enotty_ioctl", op_enotty, b);
	bad |= report("armpmu_read_ioctl", op_read_ioctl, b);
	bad |= report("armpmu_read", op_read, b);
	b->rd.hdr.nr = b->num_counters;
	bad |= report("armpmu_read_slots", op_read_slots, b);
	bad |= report("armpmu_start_stop", op_start_stop, b);
	bad |= report("armpmu_reset", op_reset, b);
	bad |= report("armpmu_region", op_region, b);
	pmudev_regions_free(b->regions);
	pmudev_close(b->pmu);
	/* A thread is counted by one file at a time: the first one is closed. */
	bad |= multiplexed_setup(b) || report("armpmu_read_multiplexed", op_read_slots, b);
	pmudev_close(b->pmu);
	return bad;
}

/* ---- direct user-mode reads ---- */

#if defined(__aarch64__)
#define READ_EVCNTR(n)							\
	case n + 1:							\
		__asm__ volatile("mrs %0, pmevcntr" #n "_el0" : "=r"(v));	\
		out[n] = v;						\
		__attribute__((fallthrough));

/*
 * ARMv8: the cycle counter and event counters 0 to @n - 1, each through
 * its own register, the cheapest way there is.
 */
static void user_read_counters(uint64_t *out, unsigned int n)
{
	uint64_t v;

	__asm__ volatile("mrs %0, pmccntr_el0" : "=r"(v));
	out[ARMPMU_CYCLE_COUNTER] = v;
	switch (n) {
	READ_EVCNTR(30) READ_EVCNTR(29) READ_EVCNTR(28) READ_EVCNTR(27)
	READ_EVCNTR(26) READ_EVCNTR(25) READ_EVCNTR(24) READ_EVCNTR(23)
	READ_EVCNTR(22) READ_EVCNTR(21) READ_EVCNTR(20) READ_EVCNTR(19)
	READ_EVCNTR(18) READ_EVCNTR(17) READ_EVCNTR(16) READ_EVCNTR(15)
	READ_EVCNTR(14) READ_EVCNTR(13) READ_EVCNTR(12) READ_EVCNTR(11)
	READ_EVCNTR(10) READ_EVCNTR(9) READ_EVCNTR(8) READ_EVCNTR(7)
	READ_EVCNTR(6) READ_EVCNTR(5) READ_EVCNTR(4) READ_EVCNTR(3)
	READ_EVCNTR(2) READ_EVCNTR(1) READ_EVCNTR(0)
	default:
		break;
	}
}
#elif defined(__arm__)
/*
 * ARMv7 has no register per event counter: PMSELR selects, PMXEVCNTR
 * reads, with an ISB between them as Linux's own driver does.
 */
static void user_read_counters(uint64_t *out, unsigned int n)
{
	uint32_t v;

	__asm__ volatile("mrc p15, 0, %0, c9, c13, 0" : "=r"(v));
	out[ARMPMU_CYCLE_COUNTER] = v;
	for (unsigned int i = 0; i < n; i++) {
		__asm__ volatile("mcr p15, 0, %0, c9, c12, 5\n\tisb" : : "r"(i) : "memory");
		__asm__ volatile("mrc p15, 0, %0, c9, c13, 2" : "=r"(v));
		out[i] = v;
	}
}
#else
#error "armpmu-bench runs on 32-bit ARM or AArch64"
#endif

static __attribute__((noinline)) int op_direct(struct bench *b)
{
	user_read_counters(b->direct, b->num_counters);
	return 0;
}

static void no_pmu_access(int sig)
{
	static const char msg[] =
		"armpmu-bench: a user-mode PMU read trapped: PMUSERENR is not open (load the bench module)\n";

	(void)sig;
	if (write(2, msg, sizeof(msg) - 1) < 0)
		_exit(1);
	_exit(1);
}

/* The same counters as armpmu's run, counting, read from user mode. */
static int run_direct(struct bench *b)
{
	uint64_t before;
	int bad;

	if (armpmu_setup(b) || measure_empty(b))
		return 1;
	signal(SIGILL, no_pmu_access);
	bad = report("direct_user_read", op_direct, b);
	/* What was read must be armpmu's counters, counting this program. */
	before = b->direct[ARMPMU_CYCLE_COUNTER];

	op_direct(b);
	signal(SIGILL, SIG_DFL);
	if (b->direct[ARMPMU_CYCLE_COUNTER] == before) {
		fprintf(stderr, "armpmu-bench: the cycle counter read from user mode is not counting\n");
		bad = 1;
	}
	pmudev_regions_free(b->regions);
	pmudev_close(b->pmu);
	return bad;
}

/* ---- perf ---- */

static int perf_open(uint64_t config, int group_fd, uint64_t read_format)
{
	struct perf_event_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_HARDWARE;
	attr.config = config;
	attr.read_format = read_format;
	attr.exclude_kernel = 1;
	attr.exclude_hv = 1;
	return syscall(SYS_perf_event_open, &attr, 0, -1, group_fd, 0);
}

static __attribute__((noinline)) int op_perf_group_read(struct bench *b)
{
	size_t len = (1 + b->nr_perf) * sizeof(uint64_t);

	return read(b->perf_group[0], b->perf_buf, len) != (ssize_t)len;
}

static __attribute__((noinline)) int op_perf_single_read(struct bench *b)
{
	return read(b->perf_single, b->perf_buf, sizeof(uint64_t)) != sizeof(uint64_t);
}

/*
 * As many events as armpmu counts on this CPU (its cycle counter and every
 * event counter), asked of armpmu without binding, and its file closed
 * before perf takes the PMU. A group: cycles leads, INST_RETIRED for the
 * rest; then one event alone, after the group is gone (both at once would
 * need more counters than there are, and perf would multiplex them).
 */
static int run_perf(struct bench *b)
{
	struct armpmu_info info;
	int fd, bad;

	fd = open(ARMPMU_DEVICE_PATH, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || ioctl(fd, ARMPMU_IOC_INFO, &info)) {
		perror("armpmu-bench: ARMPMU_IOC_INFO");
		return 1;
	}
	close(fd);
	b->nr_perf = info.num_counters + 1;
	if (b->nr_perf > PERF_MAX_EVENTS)
		return 1;
	if (measure_empty(b))
		return 1;
	printf("@bench-info perf_events=%d\n", b->nr_perf);
	for (int i = 0; i < b->nr_perf; i++) {
		b->perf_group[i] = perf_open(i ? PERF_COUNT_HW_INSTRUCTIONS : PERF_COUNT_HW_CPU_CYCLES,
					     i ? b->perf_group[0] : -1, PERF_FORMAT_GROUP);
		if (b->perf_group[i] < 0) {
			fprintf(stderr, "armpmu-bench: perf_event_open (event %d of the group): %s\n",
				i, strerror(errno));
			return 1;
		}
	}
	bad = report("perf_group_read", op_perf_group_read, b);
	if (b->perf_buf[0] != (uint64_t)b->nr_perf) {
		fprintf(stderr, "armpmu-bench: perf's group read gave %llu events, not %d\n",
			(unsigned long long)b->perf_buf[0], b->nr_perf);
		bad = 1;
	}
	for (int i = b->nr_perf - 1; i >= 0; i--)
		close(b->perf_group[i]);

	b->perf_single = perf_open(PERF_COUNT_HW_INSTRUCTIONS, -1, 0);
	if (b->perf_single < 0) {
		perror("armpmu-bench: perf_event_open (one event)");
		return 1;
	}
	bad |= report("perf_single_read", op_perf_single_read, b);
	close(b->perf_single);
	return bad;
}

/* ---- context switches ---- */

/*
 * The driver lets go of its sched_switch probe a second after the last
 * task-mode file closes: waiting longer than that leaves nothing hooked.
 */
#define UNHOOK_WAIT_MS		1500
/* Batches tried, at most, to find BATCHES in which every yield switched. */
#define SWITCH_TRIES		(4 * BATCHES)

static void sleep_ms(unsigned int ms)
{
	struct timespec ts = { .tv_sec = ms / 1000, .tv_nsec = (long)(ms % 1000) * 1000000 };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

static void stop_child(pid_t *pid)
{
	if (*pid > 0) {
		kill(*pid, SIGKILL);
		waitpid(*pid, NULL, 0);
	}
	*pid = 0;
}

/*
 * The open files in task mode, whoever owns them (FILE_STATUS lists every
 * file that has chosen a mode; the one asking here has none), or -1. With
 * @mine, the status of the caller's own file @fd too.
 */
static int count_task_files(int fd, struct armpmu_file_status *mine)
{
	struct armpmu_file_status st;
	int own_fd = -1, n = 0;
	__u32 id = 0;

	if (fd < 0) {
		fd = own_fd = open(ARMPMU_DEVICE_PATH, O_RDWR | O_CLOEXEC);
		if (fd < 0) {
			perror("armpmu-bench: " ARMPMU_DEVICE_PATH);
			return -1;
		}
	}
	for (;;) {
		memset(&st, 0, sizeof(st));
		st.id = id;
		if (ioctl(fd, ARMPMU_IOC_FILE_STATUS, &st))
			break;
		if (st.flags & ARMPMU_FILE_TASK)
			n++;
		if (mine && (st.flags & ARMPMU_FILE_CALLER))
			*mine = st;
		id = st.id + 1;
	}
	if (errno != ENOENT) {
		perror("armpmu-bench: ARMPMU_IOC_FILE_STATUS");
		n = -1;
	}
	if (own_fd >= 0)
		close(own_fd);
	return n;
}

/* No task-mode file anywhere, and none for longer than the driver waits. */
static int wait_unhooked(void)
{
	int n = count_task_files(-1, NULL);

	if (n) {
		if (n > 0)
			fprintf(stderr, "armpmu-bench: %d task-mode file(s) open elsewhere: the probe is hooked\n", n);
		return 1;
	}
	sleep_ms(UNHOOK_WAIT_MS);
	return 0;
}

/*
 * Both sides of the ping-pong run SCHED_FIFO at one priority: a yield then
 * always puts the caller behind the other, whatever each has run so far.
 * Under SCHED_OTHER a yield switches only while the two are about even,
 * and a counted side, whose switches take longer, gets ahead: the other
 * then yields to itself. The partner inherits the policy at fork.
 * Unprivileged, this needs RLIMIT_RTPRIO of at least 1 (guest.sh sets it).
 */
static int go_fifo(void)
{
	struct sched_param sp = { .sched_priority = 1 };

	if (sched_setscheduler(0, SCHED_FIFO, &sp)) {
		perror("armpmu-bench: SCHED_FIFO (RLIMIT_RTPRIO must be 1 or more)");
		return 1;
	}
	return 0;
}

/* The partner: yields back at once, forever, counting its yields. */
static int start_partner(struct bench *b)
{
	b->partner = fork();
	if (b->partner < 0) {
		perror("armpmu-bench: fork");
		return 1;
	}
	if (b->partner == 0) {
		for (;;) {
			sched_yield();
			(*b->partner_yields)++;
		}
	}
	return 0;
}

/*
 * A third process that opens /dev/armpmu, makes the first call that needs a
 * PMU (SELECT: task mode, counting itself) and sleeps: the probe runs on
 * every switch, and neither side of the ping-pong is counted.
 */
static int start_sleeper(struct bench *b)
{
	int pipefd[2];
	char c = 'E';

	if (pipe(pipefd)) {
		perror("armpmu-bench: pipe");
		return 1;
	}
	b->sleeper = fork();
	if (b->sleeper < 0) {
		perror("armpmu-bench: fork");
		return 1;
	}
	if (b->sleeper == 0) {
		__u32 idx = 0;
		int fd = open(ARMPMU_DEVICE_PATH, O_RDWR | O_CLOEXEC);

		close(pipefd[0]);
		if (fd >= 0 && !ioctl(fd, ARMPMU_IOC_SELECT, &idx))
			c = 'S';
		else
			perror("armpmu-bench: the sleeper's task-mode file");
		if (write(pipefd[1], &c, 1) != 1)
			_exit(1);
		for (;;)
			pause();
	}
	close(pipefd[1]);
	if (read(pipefd[0], &c, 1) != 1 || c != 'S') {
		fprintf(stderr, "armpmu-bench: the sleeper could not open a task-mode file\n");
		c = 'E';
	}
	close(pipefd[0]);
	if (c == 'S' && count_task_files(-1, NULL) != 1) {
		fprintf(stderr, "armpmu-bench: not exactly one task-mode file with the sleeper's open\n");
		c = 'E';
	}
	if (c != 'S')
		stop_child(&b->sleeper);
	return c != 'S';
}

/*
 * This process counted, in task mode through the raw ioctls: @sets times
 * as many event slots as counters counting INST_RETIRED (1: every event
 * counter; 2: a multiplexed file, two sets in turn) and the cycle
 * counter, user mode (all an unprivileged file may count), started.
 */
static int open_counted(struct bench *b, unsigned int sets)
{
	struct armpmu_event ev = { .event = ARMPMU_EV_INST_RETIRED, .flags = ARMPMU_EXCLUDE_KERNEL };
	__u32 filter = ARMPMU_EXCLUDE_KERNEL;
	struct armpmu_info info;
	const char *what = "open";

	b->task_fd = open(ARMPMU_DEVICE_PATH, O_RDWR | O_CLOEXEC);
	if (b->task_fd < 0)
		goto fail;
	what = "ARMPMU_IOC_INFO";
	if (ioctl(b->task_fd, ARMPMU_IOC_INFO, &info))
		goto fail;
	b->num_counters = info.num_counters;
	for (__u32 i = 0; i < sets * b->num_counters; i++) {
		what = "ARMPMU_IOC_SELECT";
		if (ioctl(b->task_fd, ARMPMU_IOC_SELECT, &i))
			goto fail;
		what = "ARMPMU_IOC_SET_EVENT";
		if (ioctl(b->task_fd, ARMPMU_IOC_SET_EVENT, &ev))
			goto fail;
	}
	what = "ARMPMU_IOC_SET_CYCLE_FILTER";
	if (ioctl(b->task_fd, ARMPMU_IOC_SET_CYCLE_FILTER, &filter))
		goto fail;
	what = "ARMPMU_IOC_START";
	if (ioctl(b->task_fd, ARMPMU_IOC_START))
		goto fail;
	return 0;
fail:
	fprintf(stderr, "armpmu-bench: the counted file: %s: %s\n", what, strerror(errno));
	return 1;
}

/*
 * The counted file counted this process alone, all the time it ran, with
 * every counter: so its switches did load and save them.
 */
static int check_counted(struct bench *b)
{
	struct armpmu_file_status st;
	__u32 all = (1U << ARMPMU_CYCLE_COUNTER) | ((1U << b->num_counters) - 1);

	memset(&b->counts, 0, sizeof(b->counts));
	if (ioctl(b->task_fd, ARMPMU_IOC_READ, &b->counts)) {
		perror("armpmu-bench: ARMPMU_IOC_READ of the counted file");
		return 1;
	}
	if (!(b->counts.flags & ARMPMU_COUNTS_RUNNING) ||
	    (b->counts.flags & (ARMPMU_COUNTS_DISTURBED | ARMPMU_COUNTS_INCOMPLETE)) ||
	    !b->counts.cycles || !b->counts.events[0] ||
	    !b->counts.time_enabled || b->counts.time_running != b->counts.time_enabled) {
		fprintf(stderr, "armpmu-bench: the counted file: flags %#x, cycles %llu, events[0] %llu, running %llu of %llu ns\n",
			b->counts.flags, (unsigned long long)b->counts.cycles,
			(unsigned long long)b->counts.events[0],
			(unsigned long long)b->counts.time_running,
			(unsigned long long)b->counts.time_enabled);
		return 1;
	}
	memset(&st, 0, sizeof(st));
	if (count_task_files(b->task_fd, &st) != 1 || !(st.flags & ARMPMU_FILE_TASK) ||
	    st.threads != 1 || st.target_tid != (__u32)getpid() || st.counters != all) {
		fprintf(stderr, "armpmu-bench: the counted file: flags %#x, %u thread(s), target %u, counters %#x\n",
			st.flags, st.threads, st.target_tid, st.counters);
		return 1;
	}
	return 0;
}

/*
 * The multiplexed file counted this process all the time it ran, both sets
 * in turn: each slot ran for part of it, none for all of it.
 */
static int check_multiplexed(struct bench *b)
{
	__u32 slots = 2 * b->num_counters, bad = 0;

	memset(&b->rd, 0, sizeof(b->rd));
	b->rd.hdr.nr = slots;
	if (ioctl(b->task_fd, ARMPMU_IOC_READ_SLOTS, &b->rd)) {
		perror("armpmu-bench: ARMPMU_IOC_READ_SLOTS of the multiplexed file");
		return 1;
	}
	for (__u32 i = 0; i < slots; i++)
		bad += !b->rd.slot[i].time_running ||
		       b->rd.slot[i].time_running >= b->rd.slot[i].time_enabled;
	if ((b->rd.hdr.flags & (ARMPMU_COUNTS_RUNNING | ARMPMU_COUNTS_MULTIPLEXED |
				ARMPMU_COUNTS_DISTURBED | ARMPMU_COUNTS_INCOMPLETE)) !=
	    (ARMPMU_COUNTS_RUNNING | ARMPMU_COUNTS_MULTIPLEXED) || bad ||
	    b->rd.hdr.programmed != (1U << slots) - 1) {
		fprintf(stderr, "armpmu-bench: the multiplexed file: flags %#x, programmed %#x, %u slots not counted part of the time\n",
			b->rd.hdr.flags, b->rd.hdr.programmed, bad);
		return 1;
	}
	return 0;
}

static __attribute__((noinline)) int op_yield(struct bench *b)
{
	(void)b;
	return sched_yield() != 0;
}

/*
 * One batch of @n round trips: @n yields of this process, each switching
 * to the partner, whose yield switches back. It counts (*@valid) only if
 * every yield switched: as many switches out of this process as yields (a
 * yield that switches is an involuntary switch to getrusage()), none
 * voluntary, and exactly as many yields of the partner.
 */
static uint64_t time_round_trips(struct bench *b, unsigned int n, int *valid)
{
	struct rusage before, after;
	unsigned long yields;
	uint64_t t;

	if (getrusage(RUSAGE_SELF, &before))
		return UINT64_MAX;
	yields = *b->partner_yields;
	t = time_batch(op_yield, b, n);
	yields = *b->partner_yields - yields;
	if (getrusage(RUSAGE_SELF, &after))
		return UINT64_MAX;
	*valid = yields == n && (unsigned long)(after.ru_nivcsw - before.ru_nivcsw) == n &&
		 after.ru_nvcsw == before.ru_nvcsw;
	return t;
}

/*
 * Instructions per switch: a ping-pong of sched_yield() with the partner,
 * timed by batches of BATCH_CALLS round trips (two switches each), the
 * least of BATCHES valid ones, less the empty loop's. The clock counts
 * both processes and the kernel: a switch includes a sched_yield() system
 * call, and the partner's loop (a few instructions). With @name NULL it is
 * measured, not reported.
 */
static int measure_switch(const char *name, struct bench *b, double *per_switch)
{
	uint64_t least = UINT64_MAX, t;
	int valid, good = 0, tries;

	if (start_partner(b))
		return 1;
	t = time_round_trips(b, BATCH_CALLS, &valid);	/* warming up */
	for (tries = 0; t != UINT64_MAX && good < BATCHES && tries < SWITCH_TRIES; tries++) {
		t = time_round_trips(b, BATCH_CALLS, &valid);
		if (t != UINT64_MAX && valid) {
			good++;
			if (t < least)
				least = t;
		}
	}
	stop_child(&b->partner);
	name = name ? name : "context_switch (again)";
	if (t == UINT64_MAX) {
		fprintf(stderr, "armpmu-bench: %s failed: %s\n", name, strerror(errno));
		return 1;
	}
	if (good < BATCHES) {
		fprintf(stderr, "armpmu-bench: %s: in only %d of %d batches did every yield switch\n",
			name, good, tries);
		return 1;
	}
	if (least < empty_batch) {
		fprintf(stderr, "armpmu-bench: %s: a batch (%llu ns) took less than an empty one (%llu ns)\n",
			name, (unsigned long long)least, (unsigned long long)empty_batch);
		return 1;
	}
	/* Whole instructions per round trip, so halves per switch. */
	*per_switch = (double)per_call(least, BATCH_CALLS) / 2;
	return 0;
}

static int report_switch(const char *name, struct bench *b, double *per_switch)
{
	if (measure_switch(name, b, per_switch))
		return 1;
	printf("@bench %s %.1f n=%d batches=%d\n", name, *per_switch, 2 * BATCH_CALLS, BATCHES);
	fflush(stdout);
	return 0;
}

/*
 * The counted switch again, with perf doing the counting: this process
 * alone (perf events are not inherited by the partner forked afterwards),
 * a group of the same events as the counted file's (the cycle counter and
 * INST_RETIRED on every event counter, user mode), enabled at once. No
 * armpmu file is open and the probe is let go by now, so perf has every
 * counter and nothing of armpmu's runs on a switch.
 */
static int open_perf_task(struct bench *b)
{
	int nr = b->num_counters + 1;

	if (nr > PERF_MAX_EVENTS)
		return 1;
	for (int i = 0; i < nr; i++) {
		b->perf_task[i] = perf_open(i ? PERF_COUNT_HW_INSTRUCTIONS : PERF_COUNT_HW_CPU_CYCLES,
					    i ? b->perf_task[0] : -1,
					    PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED |
					    PERF_FORMAT_TOTAL_TIME_RUNNING);
		if (b->perf_task[i] < 0) {
			fprintf(stderr, "armpmu-bench: perf_event_open (event %d of the counted group): %s\n",
				i, strerror(errno));
			while (i--)
				close(b->perf_task[i]);
			return 1;
		}
	}
	return 0;
}

/*
 * Perf counted every event all the time the process ran (no multiplexing,
 * no counter lost to anyone): so its switches did save and load them.
 */
static int check_perf_task(struct bench *b)
{
	int nr = b->num_counters + 1;
	/* nr, time_enabled, time_running, then one value per event */
	uint64_t buf[3 + PERF_MAX_EVENTS];
	size_t len = (3 + nr) * sizeof(uint64_t);
	int bad;

	if (read(b->perf_task[0], buf, len) != (ssize_t)len) {
		perror("armpmu-bench: read of perf's counted group");
		return 1;
	}
	bad = buf[0] != (uint64_t)nr || !buf[1] || buf[2] != buf[1];
	for (int i = 0; i < nr; i++)
		bad |= !buf[3 + i];
	if (bad)
		fprintf(stderr, "armpmu-bench: perf's counted group: %llu events, running %llu of %llu ns, cycles %llu\n",
			(unsigned long long)buf[0], (unsigned long long)buf[2],
			(unsigned long long)buf[1], (unsigned long long)buf[3]);
	return bad;
}

static int run_perf_switch(struct bench *b)
{
	double counted;
	int bad;

	if (open_perf_task(b))
		return 1;
	bad = report_switch("perf_context_switch_counted", b, &counted) || check_perf_task(b);
	for (int i = b->num_counters; i >= 0; i--)
		close(b->perf_task[i]);
	return bad;
}

/*
 * Context switches on this CPU (the only one, under icount), between two
 * SCHED_FIFO processes of the same priority: plain, with
 * nothing hooked; hooked, while a sleeping third process holds a task-mode
 * file; counted, this process counting itself. Then, everything closed
 * and the probe let go, plain again: the figure must come back, or
 * something stayed hooked. With @with_perf, last, this process counted by
 * perf with the same events.
 */
static int run_switch(struct bench *b, bool with_perf)
{
	double plain, hooked, counted, multiplexed, again;
	int bad;

	b->partner_yields = mmap(NULL, sizeof(*b->partner_yields), PROT_READ | PROT_WRITE,
				 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (b->partner_yields == MAP_FAILED) {
		perror("armpmu-bench: mmap");
		return 1;
	}
	b->task_fd = -1;
	if (go_fifo() || measure_empty(b) || wait_unhooked() ||
	    report_switch("context_switch", b, &plain))
		return 1;
	if (start_sleeper(b))
		return 1;
	bad = report_switch("context_switch_hooked", b, &hooked);
	stop_child(&b->sleeper);
	if (bad)
		return 1;
	bad = open_counted(b, 1) || report_switch("context_switch_counted", b, &counted) ||
	      check_counted(b);
	if (b->task_fd >= 0)
		close(b->task_fd);
	b->task_fd = -1;
	bad = bad || open_counted(b, 2) ||
	      report_switch("context_switch_multiplexed", b, &multiplexed) ||
	      check_multiplexed(b);
	if (b->task_fd >= 0)
		close(b->task_fd);
	if (bad || wait_unhooked() || measure_switch(NULL, b, &again))
		return 1;
	printf("@bench-info context_switch_again=%.1f\n", again);
	if (hooked > plain && again - plain >= (hooked - plain) / 2) {
		fprintf(stderr, "armpmu-bench: with everything closed, a switch costs %.1f, not %.1f as at first: still hooked?\n",
			again, plain);
		return 1;
	}
	return with_perf ? run_perf_switch(b) : 0;
}

int main(int argc, char **argv)
{
	static struct bench b;

	bool with_perf = argc == 3 && !strcmp(argv[1], "switch") && !strcmp(argv[2], "--perf");

	if (argc != 2 && !with_perf) {
		fprintf(stderr, "usage: armpmu-bench armpmu|direct|perf|switch [--perf]\n");
		return 2;
	}
	if (pin_here())
		return 1;
	if (!strcmp(argv[1], "armpmu"))
		return run_armpmu(&b);
	if (!strcmp(argv[1], "direct"))
		return run_direct(&b);
	if (!strcmp(argv[1], "perf"))
		return run_perf(&b);
	if (!strcmp(argv[1], "switch"))
		return run_switch(&b, with_perf);
	fprintf(stderr, "armpmu-bench: unknown part %s (armpmu, direct, perf or switch)\n", argv[1]);
	return 2;
}
