// SPDX-License-Identifier: GPL-2.0
/*
 * stress-test: many threads and processes, as root and as lab, issuing
 * every ioctl at once on shared and private files while an owner measures
 * undisturbed; open/close storms; owners killed with SIGKILL mid-count;
 * rmmod while files are open; unload and load the module many times. Then
 * every CPU must be claimable, user mode must still get SIGILL and the
 * kernel log must be clean. Prints TAP; runs as root in the guest, last in
 * its boot (it unloads the module; the node it leaves is root's, mode 0600).
 *
 *   stress-test [--seconds N] [--reloads N] [--seed N] [--no-counting]
 *
 * --no-counting: QEMU's model of this board's PMU never counts (Cortex-A8,
 * A9): the witness must then see its counts stand still, not grow. Where
 * the CPU cannot filter (PMUv1), root counts everything and lab's calls
 * that need a filter get EOPNOTSUPP, which the storm expects.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <linux/armpmu.h>

#include "checks.h"
#include "devio.h"
#include "tap.h"
#include "users.h"

#define EXCL_K			ARMPMU_EXCLUDE_KERNEL
#define THREADS_PER_PROC	4
#define MAX_ERRNO		200

/* What the storm's workers saw, in memory every process shares. */
struct storm_stats {
	unsigned long calls;
	unsigned long by_errno[MAX_ERRNO];
	unsigned long unexpected;
	char first_unexpected[128];
	unsigned long witness_reads;
	unsigned long witness_bad;
	char witness_why[128];
};

static struct storm_stats *stats;
static pthread_mutex_t *stats_lock;	/* process-shared */
static unsigned int ncpus, num_counters, storm_seconds = 10, reloads = 100;
static uint64_t seed = 1;
static bool can_filter;		/* CPU 0's INFO: CAN_FILTER */
static __u32 root_excl_k;	/* EXCLUDE_KERNEL, or 0 where nothing filters */
static volatile int storm_over;

static uint64_t next_random(uint64_t *state)
{
	/* xorshift64*: small, fast, and the same sequence on every run. */
	uint64_t x = *state;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*state = x;
	return x * 0x2545f4914f6cdd1dULL;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* ---- the storm ---- */

/*
 * The errors a valid call may meet while others race it: the CPU is owned
 * or the thread counted by another file (EBUSY), the file already has a
 * mode (EALREADY), counting prevents it (EBUSY), another thread closed the
 * descriptor (EBADF), root released the CPU (ECANCELED), another thread
 * filled the group this event joins (ENOSPC).
 */
static bool expected(int err)
{
	return !err || err == EBUSY || err == EALREADY || err == EBADF || err == ECANCELED ||
	       err == ENOSPC || (err == EOPNOTSUPP && !can_filter);
}

static void account(int err, const char *what, enum guest_user who)
{
	pthread_mutex_lock(stats_lock);
	stats->calls++;
	stats->by_errno[err < MAX_ERRNO ? err : 0]++;
	if (!expected(err) && !stats->unexpected++)
		snprintf(stats->first_unexpected, sizeof(stats->first_unexpected),
			 "%s: %s got %s", user_name(who), what, tap_errname(err));
	pthread_mutex_unlock(stats_lock);
}

struct worker {
	pthread_t thread;
	uint64_t rng;
	enum guest_user who;
	int *shared_fd;		/* the process's file, used by all its threads */
};

/* One call, chosen at random, every argument valid. */
static void storm_call(struct worker *w, int fd)
{
	struct armpmu_event ev = { .event = ARMPMU_EV_CPU_CYCLES, .flags = EXCL_K };
	struct {
		struct armpmu_read hdr;
		struct armpmu_slot slot[ARMPMU_MAX_COUNTERS];
	} rd;
	struct armpmu_value val = { .value = 12345 };
	struct armpmu_cpu_status st = { 0 };
	struct armpmu_counts c;
	struct armpmu_info info;
	uint64_t r = next_random(&w->rng);
	__u32 cpu = (__u32)(r >> 8) % ncpus;
	const char *what;
	int err;

	/* Slots past the counters (multiplexed files) and a group, now and then. */
	ev.group = r >> 44 & 1;
	switch (r % 15) {
	case 0:
		what = "BIND";
		err = ioc_u32(fd, ARMPMU_IOC_BIND, cpu);
		/* Whole-CPU mode is root's: lab gets EPERM, and a success is a hole. */
		if (w->who == AS_LAB)
			err = err == EPERM ? 0 : err ? err : ENOTRECOVERABLE;
		break;
	case 1:
		what = "SELECT";
		err = ioc_u32(fd, ARMPMU_IOC_SELECT, (r >> 40) % (num_counters + 3));
		break;
	case 2: what = "SET_EVENT"; err = ioc(fd, ARMPMU_IOC_SET_EVENT, &ev); break;
	case 3: what = "SET_DIVIDER"; err = ioc_u32(fd, ARMPMU_IOC_SET_DIVIDER, r >> 20 & 1); break;
	case 4: what = "RESET"; err = ioc0(fd, ARMPMU_IOC_RESET); break;
	case 5: case 6: what = "START"; err = ioc0(fd, ARMPMU_IOC_START); break;
	case 7: what = "STOP"; err = ioc0(fd, ARMPMU_IOC_STOP); break;
	case 8: what = "READ"; err = ioc(fd, ARMPMU_IOC_READ, &c); break;
	case 9: what = "read()"; err = read(fd, &c, sizeof(c)) < 0 ? errno : 0; break;
	case 10: what = "INFO"; err = ioc(fd, ARMPMU_IOC_INFO, &info); break;
	case 14: what = "READ_SLOTS"; err = read_slots(fd, &rd.hdr, (r >> 48) % 32); break;
	case 11:
		what = "CPU_STATUS";
		st.cpu = cpu;
		err = ioc(fd, ARMPMU_IOC_CPU_STATUS, &st);
		break;
	case 12:
		what = "SET_VALUE";
		val.counter = r >> 32 & 1 ? ARMPMU_CYCLE_COUNTER : 0;
		err = ioc(fd, ARMPMU_IOC_SET_VALUE, &val);
		break;
	default:
		what = "SET_CYCLE_FILTER";
		err = ioc_u32(fd, ARMPMU_IOC_SET_CYCLE_FILTER, EXCL_K);
		break;
	}
	account(err, what, w->who);
}

/*
 * A whole measurement on a file of its own: open, count, close. Root binds
 * a CPU half the time; otherwise the file counts its thread (task mode).
 * Half the files are multiplexed: two more events than counters.
 */
static void storm_measure(struct worker *w)
{
	struct armpmu_counts c;
	uint64_t r = next_random(&w->rng);
	unsigned int events = r & 8 ? num_counters + 2 : 1;
	int fd, err;

	err = dev_open(&fd);
	if (!err && w->who == AS_ROOT && r & 4)
		err = ioc_u32(fd, ARMPMU_IOC_BIND, r & 1 ? ARMPMU_CPU_CURRENT : (__u32)(r >> 1) % ncpus);
	for (unsigned int i = 0; i < events && !err; i++)
		err = program(fd, i, ARMPMU_EV_CPU_CYCLES, EXCL_K);
	if (!err)
		err = measure_loop(fd, events > 1 ? 100000 : 1000, &c);
	account(err, "a measurement on its own file", w->who);
	dev_close(&fd);
}

static void *storm_thread(void *arg)
{
	struct worker *w = arg;

	while (!storm_over) {
		uint64_t r = next_random(&w->rng) % 100;
		int fd = __atomic_load_n(w->shared_fd, __ATOMIC_RELAXED);

		if (r < 60) {
			storm_call(w, fd);
		} else if (r < 85) {
			storm_measure(w);
		} else if (r < 95) {
			/* Close the shared file under the other threads' feet. */
			int fresh = open(DEV, O_RDWR | O_CLOEXEC);

			fd = __atomic_exchange_n(w->shared_fd, fresh, __ATOMIC_RELAXED);
			if (fd >= 0)
				close(fd);
			account(fresh < 0 ? errno : 0, "open", w->who);
		} else if (w->who == AS_ROOT && r == 99 && ncpus > 1) {
			/* An administrator takes a CPU back now and then (not the witness's). */
			int err = ioc_u32(fd, ARMPMU_IOC_RELEASE,
					  (__u32)next_random(&w->rng) % (ncpus - 1));

			account(err == ESRCH ? 0 : err, "RELEASE", w->who);
		} else {
			struct armpmu_cpu_status st = { .cpu = (__u32)r % ncpus };

			account(ioc(fd, ARMPMU_IOC_CPU_STATUS, &st), "CPU_STATUS", w->who);
		}
	}
	return NULL;
}

static void stop_storm(int sig)
{
	(void)sig;
	storm_over = 1;
}

/* A storm process: THREADS_PER_PROC threads as @who until SIGTERM. */
static void storm_process(enum guest_user who, unsigned int index)
{
	struct worker workers[THREADS_PER_PROC];
	int shared_fd;
	unsigned int i;

	signal(SIGTERM, stop_storm);
	/* Each CPU gets its share of processes: first uses bind where they run. */
	if (pin(index % ncpus) || !become_user(who))
		_exit(100);
	/*
	 * Opened as @who: a file's rights are its opener's, and lab's BIND
	 * of a file root opened would rightly succeed (it did, once a seed
	 * reached it, and was taken for a hole).
	 */
	shared_fd = open(DEV, O_RDWR | O_CLOEXEC);
	for (i = 0; i < THREADS_PER_PROC; i++) {
		workers[i].rng = seed * 1000003 + index * 101 + i + 1;
		workers[i].who = who;
		workers[i].shared_fd = &shared_fd;
		if (pthread_create(&workers[i].thread, NULL, storm_thread, &workers[i]))
			_exit(101);
	}
	for (i = 0; i < THREADS_PER_PROC; i++)
		pthread_join(workers[i].thread, NULL);
	_exit(0);
}

/*
 * The witness owns the last CPU and measures the same loop over and over
 * while the storm rages: its counts must never be disturbed, reset or
 * stopped by anyone else. Its cycles grow; its event counter counts
 * SW_INCR, which nobody increments, so it must stay exactly 0.
 *
 * Why not CPU_CYCLES there: QEMU arms a timer for the overflow of any
 * counter that will wrap, and its callback (the main loop's thread) can
 * meet a vCPU between an exception level change and the PMU's update for
 * it; the counter then restarts from a few cycles. A 32-bit CPU_CYCLES
 * counter wraps every 4.3 s; SW_INCR and a 64-bit cycle counter never arm
 * the timer.
 */
static void witness_process(int ready_fd)
{
	unsigned int cpu = ncpus - 1;
	struct armpmu_counts c, prev = { 0 };
	int fd, err;

	signal(SIGTERM, stop_storm);
	err = pin(cpu);
	err = err ? err : open_bound(cpu, &fd);
	err = err ? err : program(fd, 0, ARMPMU_EV_SW_INCR, root_excl_k);
	err = err ? err : ioc0(fd, ARMPMU_IOC_START);
	/* The storm starts once the CPU is ours: its BINDs must not win it first. */
	close(ready_fd);
	while (!err && !storm_over) {
		loop_n(20000);
		err = read_counts(fd, &c);
		pthread_mutex_lock(stats_lock);
		stats->witness_reads++;
		if (!err && (!(c.flags & ARMPMU_COUNTS_RUNNING) ||
			     (c.flags & ARMPMU_COUNTS_DISTURBED) || c.events[0] ||
			     (board_counts ? c.cycles <= prev.cycles : c.cycles != 0)) &&
		    !stats->witness_bad++)
			snprintf(stats->witness_why, sizeof(stats->witness_why),
				 "flags %#x, SW_INCR count %llu, cycles %llu after %llu",
				 c.flags, (ull)c.events[0], (ull)c.cycles, (ull)prev.cycles);
		pthread_mutex_unlock(stats_lock);
		prev = c;
	}
	if (err) {
		pthread_mutex_lock(stats_lock);
		if (!stats->witness_bad++)
			snprintf(stats->witness_why, sizeof(stats->witness_why), "%s",
				 tap_errname(err));
		pthread_mutex_unlock(stats_lock);
	}
	_exit(0);
}

static void test_storm(void)
{
	unsigned int nprocs = 2 * ncpus, i, dead = 0;
	pid_t pids[2 * 64 + 1];
	unsigned long total_errs = 0;
	int status, ready[2];
	char byte;
	double t0;

	if (nprocs > 2 * 64)
		nprocs = 2 * 64;
	if (pipe(ready)) {
		tap_check(false, "storm: a pipe for the witness", "%s", tap_errname(errno));
		return;
	}
	fflush(stdout);
	t0 = now();
	pids[0] = fork();
	if (pids[0] == 0) {
		close(ready[0]);
		witness_process(ready[1]);
	}
	close(ready[1]);
	/* EOF when the witness counts (or gave up, which it reports). */
	while (read(ready[0], &byte, 1) > 0)
		;
	close(ready[0]);
	for (i = 0; i < nprocs; i++) {
		pids[i + 1] = fork();
		if (pids[i + 1] == 0)
			storm_process(i % 2 ? AS_LAB : AS_ROOT, i);
	}
	sleep(storm_seconds);
	for (i = 0; i <= nprocs; i++)
		if (pids[i] > 0)
			kill(pids[i], SIGTERM);
	for (i = 0; i <= nprocs; i++) {
		if (pids[i] <= 0 || waitpid(pids[i], &status, 0) != pids[i] ||
		    !WIFEXITED(status) || WEXITSTATUS(status))
			dead++;
	}
	tap_check(!dead, "storm: every process and thread finished cleanly",
		  "%u of %u did not (fork, signal or exit status)", dead, nprocs + 1);
	for (i = 1; i < MAX_ERRNO; i++)
		total_errs += stats->by_errno[i];
	tap_note("storm: %u processes x %d threads (root and lab) and a witness, %u s: "
		 "%lu calls (%.0f/s), %lu succeeded, EBUSY %lu, EALREADY %lu, EBADF %lu, "
		 "ECANCELED %lu", nprocs, THREADS_PER_PROC, storm_seconds, stats->calls,
		 (double)stats->calls / (now() - t0), stats->by_errno[0], stats->by_errno[EBUSY],
		 stats->by_errno[EALREADY], stats->by_errno[EBADF], stats->by_errno[ECANCELED]);
	tap_check(stats->calls > 1000 && stats->by_errno[0] > 100,
		  "storm: the workers made calls, and many succeeded",
		  "%lu calls, %lu succeeded", stats->calls, stats->by_errno[0]);
	tap_check(!stats->unexpected, "storm: only the errors a race explains",
		  "%lu unexpected, the first: %s", stats->unexpected, stats->first_unexpected);
	tap_check(stats->witness_reads > 10 && !stats->witness_bad,
		  board_counts ?
		  "storm: the witness kept counting, undisturbed: cycles grew, SW_INCR stayed 0" :
		  "storm: the witness kept running, undisturbed, its counts still 0",
		  "%lu reads, %lu bad; the first: %s", stats->witness_reads,
		  stats->witness_bad, stats->witness_why);
}

/* ---- SIGKILL mid-measurement ---- */

static void test_killed_owners(void)
{
	unsigned int cpu, round, failures = 0, rounds = 20;
	char why[128] = "";

	for (cpu = 0; cpu < ncpus; cpu++) {
		for (round = 0; round < rounds; round++) {
			int ready[2], fd, err, status;
			char byte;
			pid_t pid;

			if (pipe(ready))
				break;
			fflush(stdout);
			pid = fork();
			if (pid == 0) {
				struct armpmu_counts c;
				int own;

				close(ready[0]);
				if (pin(cpu) || open_bound(cpu, &own) ||
				    program(own, 0, ARMPMU_EV_CPU_CYCLES, root_excl_k) ||
				    ioc0(own, ARMPMU_IOC_START))
					_exit(2);
				if (write(ready[1], "r", 1) != 1)
					_exit(3);
				/* Killed mid-loop or mid-ioctl, whichever comes. */
				for (;;) {
					loop_n(round * 100);
					read_counts(own, &c);
				}
			}
			close(ready[1]);
			err = read(ready[0], &byte, 1) == 1 ? 0 : EIO;
			close(ready[0]);
			usleep(round * 500);
			kill(pid, SIGKILL);
			waitpid(pid, &status, 0);
			err = err ? err : open_bound(cpu, &fd);
			if (err && !failures++)
				snprintf(why, sizeof(why), "CPU %u, round %u: %s", cpu, round,
					 tap_errname(err));
			if (!err)
				dev_close(&fd);
		}
	}
	tap_check(!failures, "SIGKILL mid-measurement: the CPU can be bound at once, every time",
		  "%u of %u failed; the first: %s", failures, ncpus * rounds, why);
}

/* ---- the module's lifecycle ---- */

static int run(const char *prog, const char *arg1, const char *arg2)
{
	int status;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);

		dup2(null, 1);
		dup2(null, 2);
		execlp(prog, prog, arg1, arg2, (char *)NULL);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static bool module_loaded(void)
{
	struct stat st;

	return stat("/sys/module/armpmu", &st) == 0;
}

static void test_rmmod_while_open(void)
{
	int fd, err, status;
	long ret;

	err = open_bound(0, &fd);
	err = err ? err : program(fd, 0, ARMPMU_EV_CPU_CYCLES, root_excl_k);
	err = err ? err : ioc0(fd, ARMPMU_IOC_START);
	if (!tap_errno(err, 0, "rmmod while open: a file counting on CPU 0"))
		return;
	ret = syscall(SYS_delete_module, "armpmu", O_NONBLOCK);
	tap_check(ret < 0 && (errno == EWOULDBLOCK || errno == EBUSY),
		  "rmmod while open: delete_module is refused (EWOULDBLOCK)", "%ld, %s", ret,
		  tap_errname(errno));
	status = run("rmmod", "armpmu", NULL);
	tap_check(status != 0 && module_loaded(), "rmmod while open: rmmod fails, module stays",
		  "rmmod exit %d, loaded: %d", status, module_loaded());
	tap_errno(read_counts(fd, &(struct armpmu_counts){ 0 }), 0,
		  "rmmod while open: the file still counts");
	dev_close(&fd);
	tap_check(run("rmmod", "armpmu", NULL) == 0 && !module_loaded(),
		  "rmmod once it is closed: the module goes", "still loaded: %d", module_loaded());
	tap_check(run("modprobe", "armpmu", NULL) == 0 && module_loaded(),
		  "modprobe armpmu: back", "loaded: %d", module_loaded());
}

static void test_reloads(void)
{
	unsigned int i, failures = 0;
	const char *path = armpmu_module_path();
	char why[128] = "";
	double t0 = now();

	if (!tap_check(path != NULL, "reloads: modinfo finds armpmu.ko", "modinfo -n failed"))
		return;
	for (i = 0; i < reloads; i++) {
		int fd, err = reload_armpmu(path, "");

		if (!err)
			err = open_bound(i % ncpus, &fd);
		if (!err) {
			err = ioc0(fd, ARMPMU_IOC_START);
			dev_close(&fd);
		}
		if (err && !failures++)
			snprintf(why, sizeof(why), "round %u: %s", i, tap_errname(err));
	}
	tap_note("%u unloads and loads in %.1f s", reloads, now() - t0);
	tap_check(!failures, "unload and load the module, bind and count each time",
		  "%u of %u rounds failed; the first: %s", failures, reloads, why);
	tap_check(module_loaded(), "the module is loaded at the end", NULL);
}

static void usage(FILE *f)
{
	fprintf(f, "usage: stress-test [--seconds N] [--reloads N] [--seed N] [--no-counting]\n");
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "seconds", required_argument, NULL, 's' },
		{ "reloads", required_argument, NULL, 'r' },
		{ "seed", required_argument, NULL, 'S' },
		{ "no-counting", no_argument, NULL, 'n' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	pthread_mutexattr_t attr;
	struct armpmu_info info;
	int opt, fd, err;

	while ((opt = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (opt) {
		case 's': storm_seconds = (unsigned int)strtoul(optarg, NULL, 0); break;
		case 'r': reloads = (unsigned int)strtoul(optarg, NULL, 0); break;
		case 'S': seed = strtoull(optarg, NULL, 0); break;
		case 'n': board_counts = false; break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (optind != argc) {
		usage(stderr);
		return 2;
	}
	tap_init();
	ncpus = online_cpus();
	stats = mmap(NULL, sizeof(*stats) + sizeof(*stats_lock), PROT_READ | PROT_WRITE,
		     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (stats == MAP_FAILED) {
		perror("stress-test: mmap");
		return 2;
	}
	stats_lock = (pthread_mutex_t *)(stats + 1);
	pthread_mutexattr_init(&attr);
	pthread_mutexattr_setpshared(&attr, PTHREAD_PROCESS_SHARED);
	pthread_mutex_init(stats_lock, &attr);

	err = open_bound(0, &fd);
	err = err ? err : ioc(fd, ARMPMU_IOC_INFO, &info);
	dev_close(&fd);
	if (!tap_errno(err, 0, "setup: INFO of CPU 0"))
		return tap_done();
	num_counters = info.num_counters;
	can_filter = info.flags & ARMPMU_INFO_CAN_FILTER;
	root_excl_k = can_filter ? EXCL_K : 0;
	tap_note("%u CPUs, %u counters, seed %llu%s%s", ncpus, num_counters, (ull)seed,
		 can_filter ? "" : ", no filtering", board_counts ? "" : ", QEMU never counts");

	test_storm();
	test_killed_owners();
	check_every_cpu_claimable();
	test_rmmod_while_open();
	test_reloads();
	check_every_cpu_claimable();
	check_user_read_sigill();
	test_kernel_log();
	return tap_done();
}
