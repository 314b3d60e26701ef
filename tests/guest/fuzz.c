// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz: a seeded, repeatable fuzzer of /dev/armpmu. Runs as root inside the
 * guest (tools/pmu-vm), prints TAP and exits non-zero if anything failed.
 *
 *   fuzz [--seed N] [--calls N] [--threads N] [--procs N] [--timeout S]
 *        [--cpu-hotplug] [--no-counting]
 *
 * --no-counting: QEMU's model of the board's PMU never counts (Cortex-A8,
 * A9): the checks at the end ask for everything but counts.
 *
 * Several worker processes (root; lab, in the armpmu group; guest, who is
 * not) each run several threads. Every thread has its own PRNG, seeded from
 * (seed, process, thread): the calls a thread makes are the same on every
 * run with the same options, only their interleaving with the other threads
 * differs. A failure names the seed, the process, the thread, its seed and
 * the index of the call, and the call with its arguments.
 *
 * What is checked: every errno is one armpmu(4) documents (and one that call
 * can return: ENOTTY only for unknown numbers, ESPIPE only from lseek, ...),
 * outputs are sane, SET_SAMPLING keeps the sampling limits (limits.c), the
 * guest user only ever gets EACCES from open, no worker dies or hangs, and
 * afterwards every CPU's PMU is free, can be claimed again and counts, lab's
 * ring charge is back at zero, and the kernel log is clean.
 *
 * Each theme is a file of tests/guest/fuzz/ (common.h lists them); this file
 * reads the options, probes the board, runs the workers and sums up.
 */
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

#include "checks.h"
#include "fuzz/common.h"

static const char *const op_name[] = {
	"open", "close", "dup", "dup2", "ioctl", "ioctl(armpmu magic, random nr/dir/size)",
	"ioctl(random number)", "read", "write", "lseek", "mmap",
	"ioctl(counting sequence)", "ioctl(RELEASE by root)",
};

/* The state common.h declares, set here before the workers start. */
struct shared *sh;
uint64_t opt_seed = 1;
uint64_t opt_calls = 100000;
unsigned int opt_threads = 4, opt_procs = 3, opt_timeout = 300;
bool opt_hotplug;
long page_size;
unsigned int ncpus;
unsigned int cpu_nc[MAX_CPUS];
unsigned int cpu_eb[MAX_CPUS];
unsigned int num_counters, event_bits;
uint64_t quota, guest_quota;
uint32_t cpu_vals[12], idx_vals[12], ev_vals[16], counter_vals[12];
uint32_t nr_vals[8];
int shared_fd[SHARED_FDS];
pthread_barrier_t start_barrier;

/* ---- the parent ---- */

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static int cpu_status(int fd, __u32 cpu, struct armpmu_cpu_status *st)
{
	memset(st, 0, sizeof(*st));
	st->cpu = cpu;
	return ioc(fd, ARMPMU_IOC_CPU_STATUS, st);
}

/* What the board has: CPUs, and each one's counters and event width. */
static bool probe_board(void)
{
	struct armpmu_cpu_status st;
	unsigned int i, n = 0;
	int fd, err, last = last_possible_cpu();

	ncpus = last >= 0 ? (unsigned int)last + 1 : (unsigned int)sysconf(_SC_NPROCESSORS_CONF);
	if (ncpus > MAX_CPUS)
		ncpus = MAX_CPUS;
	err = dev_open(&fd);
	if (!tap_errno(err, 0, "root opens " DEV))
		return false;
	for (i = 0; i < ncpus; i++) {
		err = cpu_status(fd, i, &st);
		if (!err && (st.flags & ARMPMU_CPU_USABLE)) {
			cpu_nc[i] = st.info.num_counters;
			cpu_eb[i] = st.info.event_bits;
			n++;
		}
	}
	dev_close(&fd);
	num_counters = cpu_nc[0];
	event_bits = cpu_eb[0];
	tap_note("%u possible CPUs, %u with a usable PMU; CPU 0: %u counters, %u-bit events",
		 ncpus, n, num_counters, event_bits);
	return tap_check(n > 0 && num_counters > 0 && num_counters <= ARMPMU_MAX_COUNTERS &&
			 event_bits >= 8 && event_bits <= 16,
			 "CPU_STATUS describes the board's PMUs",
			 "%u usable CPUs, CPU 0 num_counters %u event_bits %u", n,
			 num_counters, event_bits);
}

static void fill_values(void)
{
	uint32_t nc = num_counters, eb = event_bits;
	const uint32_t cpus[] = {
		0, 0, 1, 1, ncpus - 1, ncpus, ncpus + 1, 31, 32, ARMPMU_CPU_CURRENT,
		0xfffffffeU, 0x80000000U,
	};
	const uint32_t idx[] = { 0, 0, 1, nc - 1, nc - 1, nc, nc + 1, 30, 31, 32, 0xffffffffU, 2 };
	const uint32_t ev[] = {
		ARMPMU_EV_CPU_CYCLES, ARMPMU_EV_CPU_CYCLES, ARMPMU_EV_CPU_CYCLES, 0x08, 0x00, 0x03, 0x3f, 0x40,
		(1U << eb) - 1, 1U << eb, 0x4000, 0xffff, 0x10000, 0xffffffffU, 0x1f, 0x23,
	};
	const uint32_t counters[] = {
		0, 1, nc - 1, nc, 30, ARMPMU_CYCLE_COUNTER, ARMPMU_CYCLE_COUNTER, 32,
		0xffffffffU, 2, 0x8000001fU, 0x3f,
	};
	const uint32_t nrs[] = { 0, 1, nc, nc, nc + 4, 31, 32, 0xffffffffU };

	memcpy(cpu_vals, cpus, sizeof(cpu_vals));
	memcpy(idx_vals, idx, sizeof(idx_vals));
	memcpy(ev_vals, ev, sizeof(ev_vals));
	memcpy(counter_vals, counters, sizeof(counter_vals));
	memcpy(nr_vals, nrs, sizeof(nr_vals));
}

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: fuzz [--seed N] [--calls N] [--threads N] [--procs N] [--timeout S]\n"
		"            [--cpu-hotplug] [--no-counting]\n"
		"Fuzzes /dev/armpmu as root and the lab's users; prints TAP.\n"
		"  --seed N       PRNG seed (default 1): the same seed, the same calls per thread\n"
		"  --calls N      calls by root and lab (default 100000); the guest makes a tenth more\n"
		"  --threads N    threads per process (default 4, at most %d)\n"
		"  --procs N      processes: root, lab, guest, root, ... (default 3, at most %d)\n"
		"  --timeout S    give the workers S seconds (default 300)\n"
		"  --cpu-hotplug  a worker offlines and onlines CPUs meanwhile\n"
		"  --no-counting  the board's PMU never counts (QEMU's Cortex-A8, A9)\n"
		"Exit status: 0 all good, 1 failures, 2 usage.\n", MAX_THREADS, MAX_PROCS);
}

static bool parse_u64(const char *s, uint64_t *v, uint64_t min, uint64_t max)
{
	char *end;
	unsigned long long x;

	errno = 0;
	x = strtoull(s, &end, 0);
	if (errno || end == s || *end || *s == '-' || x < min || x > max)
		return false;
	*v = x;
	return true;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "seed", required_argument, NULL, 's' },
		{ "calls", required_argument, NULL, 'c' },
		{ "threads", required_argument, NULL, 't' },
		{ "procs", required_argument, NULL, 'p' },
		{ "timeout", required_argument, NULL, 'T' },
		{ "cpu-hotplug", no_argument, NULL, 'H' },
		{ "no-counting", no_argument, NULL, 'N' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	pid_t pids[MAX_PROCS], hotplug_pid = -1;
	int status[MAX_PROCS];
	bool exited[MAX_PROCS], timed_out = false;
	uint64_t v, total = 0, errs[NERR] = { 0 }, ops[OP_KINDS] = { 0 };
	uint64_t fails[F_KINDS] = { 0 }, role_calls[3] = { 0 }, met[LIMIT_KINDS] = { 0 };
	unsigned int p, t, i, alive, nthreads;
	double start, elapsed, deadline;
	bool have_guest = false;
	struct utsname u;
	char hist[1024];
	size_t shsize;
	int opt, n, longindex = 0;

	while ((opt = getopt_long(argc, argv, "h", opts, &longindex)) != -1) {
		switch (opt) {
		case 's':
			if (!parse_u64(optarg, &opt_seed, 0, UINT64_MAX))
				goto bad;
			break;
		case 'c':
			if (!parse_u64(optarg, &opt_calls, 1, 1000000000ULL))
				goto bad;
			break;
		case 't':
			if (!parse_u64(optarg, &v, 1, MAX_THREADS))
				goto bad;
			opt_threads = (unsigned int)v;
			break;
		case 'p':
			if (!parse_u64(optarg, &v, 1, MAX_PROCS))
				goto bad;
			opt_procs = (unsigned int)v;
			break;
		case 'T':
			if (!parse_u64(optarg, &v, 1, 86400))
				goto bad;
			opt_timeout = (unsigned int)v;
			break;
		case 'H':
			opt_hotplug = true;
			break;
		case 'N':
			board_counts = false;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind != argc) {
		fprintf(stderr, "fuzz: unexpected argument %s\n", argv[optind]);
		usage(stderr);
		return 2;
	}

	tap_init();
	page_size = sysconf(_SC_PAGESIZE);
	uname(&u);
	nthreads = opt_procs * opt_threads;
	/* Processes go root, lab, guest, root...: those not guest's. */
	n = (int)((opt_procs - opt_procs / 3) * opt_threads);
	quota = (opt_calls + n - 1) / n;
	guest_quota = quota / 10 ? quota / 10 : 1;
	tap_note("fuzz on %s %s, built as %s: seed %llu, %llu calls, %u procs x %u threads "
		 "(%llu calls each, the guest's %llu), timeout %u s%s", u.release, u.machine,
		 TEST_BUILD_ARCH, (ull)opt_seed, (ull)opt_calls, opt_procs, opt_threads,
		 (ull)quota, (ull)guest_quota, opt_timeout, opt_hotplug ? ", CPU hotplug" : "");
	tap_note("replay: fuzz --seed %llu --calls %llu --procs %u --threads %u%s",
		 (ull)opt_seed, (ull)opt_calls, opt_procs, opt_threads,
		 opt_hotplug ? " --cpu-hotplug" : "");
	if (geteuid() != 0) {
		tap_check(false, "runs as root", "euid %u", (unsigned int)geteuid());
		return tap_done();
	}
	if (!probe_board())
		return tap_done();
	fill_values();
	find_stack_zone();

	shsize = sizeof(*sh) + sizeof(sh->t[0]) * nthreads;
	sh = mmap(NULL, shsize, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED) {
		perror("fuzz: mmap");
		return 1;
	}
	limits_lower();
	for (p = 0; p < opt_procs; p++) {
		for (t = 0; t < opt_threads; t++)
			tap_note("proc %u (%s) thread %u: thread seed %#llx", p,
				 user_name(p % 3), t, (ull)thread_seed(opt_seed, p, t));
		have_guest |= p % 3 == AS_GUEST;
	}

	if (opt_hotplug) {
		for (i = 1; i < ncpus; i++) {
			snprintf(online_path[i], sizeof(online_path[i]),
				 "/sys/devices/system/cpu/cpu%u/online", i);
			if (!access(online_path[i], W_OK))
				hotplug_cpus[n_hotplug++] = i;
		}
		if (access("/sys/devices/system/cpu/cpu1/online", W_OK) || !n_hotplug) {
			tap_skip("CPU hotplug during the fuzzing",
				 "no /sys/devices/system/cpu/cpu1/online");
			opt_hotplug = false;
		}
	}

	start = now();
	fflush(stdout);
	for (p = 0; p < opt_procs; p++) {
		pids[p] = fork();
		if (pids[p] < 0) {
			tap_check(false, "fork the workers", "fork: %s", tap_errname(errno));
			opt_procs = p;
			break;
		}
		if (pids[p] == 0)
			_exit(worker_process(p));
		exited[p] = false;
	}
	if (opt_hotplug) {
		hotplug_pid = fork();
		if (hotplug_pid == 0)
			_exit(hotplug_process());
	}

	/* Wait, with a deadline: a worker stuck in the driver is a hang. */
	deadline = start + opt_timeout;
	for (alive = opt_procs; alive;) {
		pid_t pid = waitpid(-1, &n, WNOHANG);

		if (pid > 0) {
			for (p = 0; p < opt_procs; p++) {
				if (pids[p] == pid && !exited[p]) {
					exited[p] = true;
					status[p] = n;
					alive--;
				}
			}
			continue;
		}
		if (now() > deadline) {
			if (timed_out)
				break;	/* killed, and still not gone: stuck in the kernel */
			timed_out = true;
			for (p = 0; p < opt_procs; p++)
				if (!exited[p])
					kill(pids[p], SIGKILL);
			deadline = now() + 10;
		}
		usleep(20000);
	}
	elapsed = now() - start;
	if (hotplug_pid > 0) {
		sh->stop_hotplug = 1;
		waitpid(hotplug_pid, &n, 0);
	}

	/* The figures. */
	for (p = 0; p < opt_procs; p++) {
		for (t = 0; t < opt_threads; t++) {
			struct thread_stats *st = &sh->t[p * opt_threads + t];

			total += st->calls;
			role_calls[p % 3] += st->calls;
			for (i = 0; i < NERR; i++)
				errs[i] += st->errs[i];
			for (i = 0; i < OP_KINDS; i++)
				ops[i] += st->ops[i];
			for (i = 0; i < F_KINDS; i++)
				fails[i] += st->fails[i];
			for (i = 0; i < LIMIT_KINDS; i++)
				met[i] += st->limits[i];
		}
	}
	tap_note("%llu calls in %.1f s: %.0f calls/s (root %llu, lab %llu, guest %llu)",
		 (ull)total, elapsed, elapsed > 0 ? total / elapsed : 0.0,
		 (ull)role_calls[AS_ROOT], (ull)role_calls[AS_LAB], (ull)role_calls[AS_GUEST]);
	n = 0;
	hist[0] = '\0';
	for (i = 0; i < NERR && n < (int)sizeof(hist); i++)
		if (errs[i])
			n += snprintf(hist + n, sizeof(hist) - n, " %s %llu",
				      i == NERR - 1 ? "errno>=255" : i ? tap_errname((int)i) : "ok",
				      (ull)errs[i]);
	tap_note("errno histogram:%s", hist);
	n = 0;
	hist[0] = '\0';
	for (i = 0; i < OP_KINDS && n < (int)sizeof(hist); i++)
		if (ops[i])
			n += snprintf(hist + n, sizeof(hist) - n, "%s %s %llu", i ? "," : "",
				      op_name[i], (ull)ops[i]);
	tap_note("calls by kind:%s", hist);

	for (p = 0; p < opt_procs; p++) {
		char name[64];

		snprintf(name, sizeof(name), "worker %u (%s) ran to the end", p, user_name(p % 3));
		if (!exited[p])
			tap_check(false, name, "still running after SIGKILL: stuck in the kernel?");
		else if (WIFSIGNALED(status[p]))
			tap_check(false, name, "killed by signal %d (%s)%s", WTERMSIG(status[p]),
				  strsignal(WTERMSIG(status[p])),
				  timed_out && WTERMSIG(status[p]) == SIGKILL ? ": timed out" : "");
		else
			tap_check(WEXITSTATUS(status[p]) == 0, name, "exit status %d%s",
				  WEXITSTATUS(status[p]),
				  WEXITSTATUS(status[p]) >= 100 ? " (could not change identity)" : "");
	}
	tap_check(!timed_out, "the workers finished within the timeout",
		  "not done after %u s", opt_timeout);
	tap_check(role_calls[AS_ROOT] + role_calls[AS_LAB] >= opt_calls,
		  "calls made by root and lab >= --calls", "%llu calls, %llu asked",
		  (ull)(role_calls[AS_ROOT] + role_calls[AS_LAB]), (ull)opt_calls);
	tap_check(fails[F_UNDOC] == 0, "every errno is one armpmu(4) documents",
		  "%llu calls got another (shown above)", (ull)fails[F_UNDOC]);
	tap_check(fails[F_WRONG] == 0,
		  "every errno is one that call can return (EFAULT for unreadable input, "
		  "ENOTTY only for unknown numbers, ...)",
		  "%llu calls did not (shown above)", (ull)fails[F_WRONG]);
	tap_check(fails[F_OUTPUT] == 0,
		  "outputs make sense (INFO, READ, read(2), CPU_STATUS, counting sequences)",
		  "%llu calls did not (shown above)", (ull)fails[F_OUTPUT]);
	if (have_guest)
		tap_check(fails[F_GUEST] == 0, "the guest user only ever gets EACCES from open",
			  "%llu opens did not (shown above)", (ull)fails[F_GUEST]);
	else
		tap_skip("the guest user only ever gets EACCES from open",
			 "no guest worker (--procs 3 or more)");
	if (opt_hotplug) {
		tap_note("CPU hotplug: %llu offline/online cycles, %llu failed writes (last %s)",
			 (ull)sh->hotplug_flips, (ull)sh->hotplug_errors,
			 tap_errname(sh->hotplug_last_err));
		tap_check(sh->hotplug_flips > 0, "CPU hotplug ran during the fuzzing",
			  "no CPU went offline and back");
		for (i = 0; i < n_hotplug; i++)
			if (!cpu_online(hotplug_cpus[i]))
				write_file(online_path[hotplug_cpus[i]], "1");
	}

	/* Afterwards: every CPU is back online, free, and counts again. */
	tap_check(online_cpus() == ncpus, "every CPU is online at the end", "%u of %u online",
		  online_cpus(), ncpus);
	check_every_cpu_claimable();
	limits_check_and_restore(met);
	test_kernel_log();
	return tap_done();

bad:
	fprintf(stderr, "fuzz: bad value for --%s: %s\n", opts[longindex].name, optarg);
	usage(stderr);
	return 2;
}
