// SPDX-License-Identifier: GPL-2.0
/*
 * soak-test: the long run of issue 27, for `make soak` (tests/soak), never
 * for CI. For SECS seconds, as root in the guest:
 * - PROGRAMS lab programs count themselves, run after run: each run opens
 *   a file, ATTACHes to itself with FOLLOW, programs every event counter
 *   (a run in two also two slots more: multiplexed), STARTs, forks a child
 *   (which starts a thread, or, a run in four, executes exact-loop), starts
 *   3 threads of work and one that READs the running file over and over,
 *   works, waits for them all, STOPs, READs, READ_THREADS and closes;
 * - READERS lab `pmuctl stat -I 100 -x,` of `family` (4 threads and a
 *   child), one in two multiplexed, run after run;
 * - CPU 1 goes offline and comes back every second.
 * A line of figures every REPORT seconds; at the end the totals as `#`
 * lines and TAP: every program and reader finished, no call failed, no
 * count wrong, every close succeeded, every pmuctl run exited 0 with its
 * intervals, CPU 1 came back every time, no file is left, the module's
 * reference count is 0, every CPU is claimable, the kernel log is clean.
 *
 *   soak-test [--seconds SECS] [--programs N] [--readers N] [--report SECS]
 *
 * Without -icount no count is exact: a run's counts are right when every
 * counter advanced (each slot of a multiplexed file that was in the PMU
 * for half the time or more), the flags say what the file was (RUNNING
 * clear after STOP; MULTIPLEXED, with INCOMPLETE, exactly when it is), no
 * time_running exceeds its time_enabled, READ_THREADS lists every thread
 * the run made, and the threads' cycles, times (and, not multiplexed,
 * counts) add up to the file's exactly. INCOMPLETE on a file that is not
 * multiplexed (a thread ran on CPU 1 before armpmu could load there) is a
 * partial count: a figure, as are DISTURBED and EIO (flagged), not a
 * failure.
 */
#include <getopt.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/prctl.h>

#include "checks.h"
#include "users.h"

#define EXCL_K			ARMPMU_EXCLUDE_KERNEL
#define CPU1_ONLINE		"/sys/devices/system/cpu/cpu1/online"
#define EXEC_PROG		"/usr/local/bin/exact-loop"
#define MAX_PROGRAMS		256
#define MAX_READERS		32
#define WORK_THREADS		3
/* A run's threads: its own, the child's two, the workers and the reader. */
#define THREAD_ROOM		(3 + WORK_THREADS + 1)
/* How long past the end a program or reader may take before it is hung. */
#define GRACE_SECS		120

/* The totals, in memory every process shares. */
struct soak_stats {
	atomic_ulong runs, runs_mux, partial, flagged, wrong, errors, close_failed;
	atomic_ulong reads, threads;
	atomic_ulong pmuctl_runs, pmuctl_mux, pmuctl_intervals, pmuctl_not_counted, pmuctl_failed;
	atomic_ulong program_runs[MAX_PROGRAMS];
	atomic_bool wrong_said, error_said, pmuctl_said;
	char first_wrong[320], first_error[160], first_pmuctl[320];
};

static struct soak_stats *st;
static unsigned int seconds = 600, programs = 32, readers = 4, report = 30;
static unsigned int num_counters;
static uint64_t deadline;

__attribute__((format(printf, 4, 5)))
static void say_first(atomic_bool *said, char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;

	if (atomic_exchange(said, true))
		return;
	va_start(ap, fmt);
	vsnprintf(buf, len, fmt, ap);
	va_end(ap);
}

/* A call failed: the first one's words are kept. */
static void failed_call(unsigned int prog, unsigned long run, const char *what, int err)
{
	atomic_fetch_add(&st->errors, 1);
	say_first(&st->error_said, st->first_error, sizeof(st->first_error),
		  "program %u, run %lu: %s: %s", prog, run, what, tap_errname(err));
}

/* lab as a login session has it: dumpable, so that its children may be counted. */
static bool become_lab(void)
{
	return become_user(AS_LAB) && !prctl(PR_SET_DUMPABLE, 1, 0, 0, 0);
}

/* ---- a lab program counting itself ---- */

struct slots_read {
	struct armpmu_read hdr;
	struct armpmu_slot slot[ARMPMU_MAX_COUNTERS];
};

struct threads_read {
	struct armpmu_threads hdr;
	unsigned char room[THREAD_ROOM * ARMPMU_THREAD_SIZE(ARMPMU_MAX_COUNTERS)];
};

struct run {
	int fd;
	unsigned int prog, slots;
	unsigned long nr, loops;
	bool mux;
	atomic_bool done;
};

static struct armpmu_thread *thread_at(struct threads_read *t, unsigned int slots, unsigned int i)
{
	return (struct armpmu_thread *)(void *)(t->room + i * ARMPMU_THREAD_SIZE(slots));
}

static int read_threads(int fd, unsigned int slots, struct threads_read *t)
{
	memset(&t->hdr, 0, sizeof(t->hdr));
	t->hdr.nr = THREAD_ROOM;
	t->hdr.slots = slots;
	return ioc(fd, ARMPMU_IOC_READ_THREADS, &t->hdr);
}

static void *work_thread(void *arg)
{
	loop_n(((struct run *)arg)->loops);
	return NULL;
}

/* READ, READ_SLOTS and READ_THREADS of the running file, in turn, until the run is done. */
static void *read_thread(void *arg)
{
	struct run *r = arg;
	struct slots_read sr;
	struct threads_read tr;
	struct armpmu_counts c;
	unsigned long i;
	int err;

	for (i = 0; !atomic_load(&r->done); i++) {
		switch (i % 3) {
		case 0: err = read_counts(r->fd, &c); break;
		case 1: err = read_slots(r->fd, &sr.hdr, r->slots); break;
		default: err = read_threads(r->fd, r->slots, &tr); break;
		}
		atomic_fetch_add(&st->reads, 1);
		/* EIO: the counts were disturbed, which the final READ tallies. */
		if (err && err != EIO) {
			failed_call(r->prog, r->nr, "a READ while running", err);
			break;
		}
		usleep(2000);
	}
	return NULL;
}

/* The child: a thread of its own beside its loop, or an exec of exact-loop. */
static void child_work(const struct run *r)
{
	pthread_t t;
	bool started;

	if (r->nr % 4 == 0) {
		execl(EXEC_PROG, "exact-loop", "1", "2", "3", "4", "5", "6", "7", "8", "9", (char *)NULL);
		_exit(127);
	}
	started = !pthread_create(&t, NULL, work_thread, (void *)r);
	loop_n(r->loops);
	if (started)
		pthread_join(t, NULL);
	_exit(started ? 0 : 3);
}

/*
 * What is wrong with a run's final counts (@c, @sr, @tr), in @why; false
 * if nothing is.
 */
static bool run_wrong(const struct run *r, const struct armpmu_counts *c,
		      const struct slots_read *sr, struct threads_read *tr,
		      unsigned int want_threads, char *why, size_t len)
{
	__u64 cycles = 0, enabled = 0, running = 0, value = 0, sum = 0;
	bool mux = c->flags & ARMPMU_COUNTS_MULTIPLEXED, no_slots = true;
	unsigned int i;

	if (mux != r->mux || (mux && !(c->flags & ARMPMU_COUNTS_INCOMPLETE)))
		return snprintf(why, len, "flags %#x on a file of %u slots", c->flags, r->slots), true;
	if (c->flags & ARMPMU_COUNTS_RUNNING)
		return snprintf(why, len, "RUNNING after STOP (flags %#x)", c->flags), true;
	if (!c->time_enabled || c->time_running > c->time_enabled)
		return snprintf(why, len, "time running %llu of %llu ns enabled",
				(ull)c->time_running, (ull)c->time_enabled), true;
	if (c->time_running && !c->cycles)
		return snprintf(why, len, "no cycles in %llu ns running", (ull)c->time_running), true;
	for (i = 0; i < r->slots; i++) {
		const struct armpmu_slot *s = &sr->slot[i];

		sum += s->value;
		if (s->value != c->events[i] || s->time_running > s->time_enabled ||
		    (s->time_running * 2 >= c->time_running && c->time_running && !s->value))
			return snprintf(why, len, "slot %u: %llu (READ %llu), running %llu of %llu ns "
					"enabled, the file's %llu ns", i, (ull)s->value,
					(ull)c->events[i], (ull)s->time_running,
					(ull)s->time_enabled, (ull)c->time_running), true;
	}
	if (c->time_running && !sum)
		return snprintf(why, len, "no slot advanced in %llu ns", (ull)c->time_running), true;
	if (tr->hdr.threads != want_threads || tr->hdr.nr != want_threads || tr->hdr.lost ||
	    tr->hdr.flags)
		return snprintf(why, len, "READ_THREADS: %u entries of %u kept, %u lost, flags %#x; "
				"%u threads made", tr->hdr.nr, tr->hdr.threads, tr->hdr.lost,
				tr->hdr.flags, want_threads), true;
	for (i = 0; i < tr->hdr.nr; i++) {
		struct armpmu_thread *t = thread_at(tr, r->slots, i);

		cycles += t->cycles;
		enabled += t->time_enabled;
		running += t->time_running;
		value += t->value[0];
		no_slots &= !!(t->flags & ARMPMU_THREAD_NO_SLOTS);
	}
	if (cycles != c->cycles || enabled != c->time_enabled || running != c->time_running ||
	    tr->hdr.task_clock != c->time_enabled || (mux ? !no_slots : value != c->events[0]))
		return snprintf(why, len, "the threads add up to %llu cycles (file %llu), %llu of "
				"%llu ns, slot 0 %llu (file %llu), task-clock %llu, slots %s",
				(ull)cycles, (ull)c->cycles, (ull)running, (ull)enabled, (ull)value,
				(ull)c->events[0], (ull)tr->hdr.task_clock,
				no_slots ? "not kept" : "kept"), true;
	return false;
}

/* After STOP: the final counts, judged and added to the totals. */
static void tally_run(struct run *r, unsigned int want_threads)
{
	struct slots_read sr;
	struct threads_read tr;
	struct armpmu_counts c;
	char why[240];
	int err = read_counts(r->fd, &c);

	err = err ? err : read_slots(r->fd, &sr.hdr, r->slots);
	err = err ? err : read_threads(r->fd, r->slots, &tr);
	atomic_fetch_add(&st->runs, 1);
	atomic_fetch_add(&st->program_runs[r->prog], 1);
	atomic_fetch_add(&st->runs_mux, r->mux);
	atomic_fetch_add(&st->threads, want_threads);
	if (err == EIO || (!err && c.flags & (ARMPMU_COUNTS_DISTURBED | ARMPMU_COUNTS_EXEC_LEFT))) {
		atomic_fetch_add(&st->flagged, 1);
		return;
	}
	if (err) {
		failed_call(r->prog, r->nr, "the final READ, READ_SLOTS or READ_THREADS", err);
		return;
	}
	if (!r->mux && c.flags & ARMPMU_COUNTS_INCOMPLETE)
		atomic_fetch_add(&st->partial, 1);
	if (run_wrong(r, &c, &sr, &tr, want_threads, why, sizeof(why))) {
		atomic_fetch_add(&st->wrong, 1);
		say_first(&st->wrong_said, st->first_wrong, sizeof(st->first_wrong),
			  "program %u, run %lu (%s): %s", r->prog, r->nr,
			  r->mux ? "multiplexed" : "not multiplexed", why);
	}
}

/* One run; false if a call failed (the program then stops). */
static bool one_run(unsigned int prog, unsigned long nr)
{
	struct armpmu_attach at = { .flags = ARMPMU_ATTACH_FOLLOW };
	struct run r = { .prog = prog, .nr = nr, .mux = (prog + nr) % 2 };
	pthread_t work[WORK_THREADS], reader;
	unsigned int i, workers = 0;
	const char *what = "open";
	bool reading = false;
	int err, status = 0;
	pid_t child = -1;

	r.slots = num_counters + (r.mux ? 2 : 0);
	r.loops = 200000 + (nr * 7 + prog * 13) % 16 * 25000;
	err = dev_open(&r.fd);
	if (!err) {
		what = "ATTACH";
		err = ioc(r.fd, ARMPMU_IOC_ATTACH, &at);
	}
	for (i = 0; !err && i < r.slots; i++) {
		what = "SET_EVENT";
		err = program(r.fd, i, ARMPMU_EV_CPU_CYCLES, EXCL_K);
	}
	if (!err) {
		what = "SET_CYCLE_FILTER";
		err = ioc_u32(r.fd, ARMPMU_IOC_SET_CYCLE_FILTER, EXCL_K);
	}
	if (!err) {
		what = "START";
		err = ioc0(r.fd, ARMPMU_IOC_START);
	}
	/* The child first, while this process has one thread. */
	if (!err) {
		what = "fork";
		child = fork();
		err = child < 0 ? errno : 0;
		if (child == 0)
			child_work(&r);
	}
	if (!err) {
		what = "pthread_create";
		err = pthread_create(&reader, NULL, read_thread, &r);
		reading = !err;
	}
	for (; !err && workers < WORK_THREADS; workers++)
		err = pthread_create(&work[workers], NULL, work_thread, &r);
	loop_n(r.loops);
	for (i = 0; i < workers; i++)
		pthread_join(work[i], NULL);
	if (child > 0 && (waitpid(child, &status, 0) != child || !WIFEXITED(status) ||
			  WEXITSTATUS(status)) && !err) {
		what = "the child";
		err = ECHILD;
	}
	atomic_store(&r.done, true);
	if (reading)
		pthread_join(reader, NULL);
	if (!err) {
		what = "STOP";
		err = ioc0(r.fd, ARMPMU_IOC_STOP);
	}
	/* This thread, the reader, the workers, the child and its thread unless it executed. */
	if (!err)
		tally_run(&r, 1 + reading + workers + 1 + (nr % 4 ? 1 : 0));
	else
		failed_call(prog, nr, what, err);
	if (r.fd >= 0 && close(r.fd)) {
		atomic_fetch_add(&st->close_failed, 1);
		failed_call(prog, nr, "close", errno);
	}
	return !err;
}

static void program_main(unsigned int prog)
{
	unsigned long nr;

	for (nr = 0; now_ns() < deadline; nr++)
		if (!one_run(prog, nr))
			_exit(1);
	_exit(0);
}

/* ---- pmuctl stat -I readers ---- */

/* One pmuctl run of family; its lines tallied; false if it failed. */
static bool pmuctl_run(unsigned int reader, unsigned long nr)
{
	/* The cycle counter and 1 or num_counters + 2 event slots. */
	char events[256] = "cycles", line[512], last[32] = "";
	bool mux = (reader + nr) % 2, ok = true;
	unsigned long intervals = 0;
	unsigned int i, n = mux ? num_counters + 2 : 1;
	int p[2], status;
	FILE *out;
	pid_t pid;

	for (i = 0; i < n; i++)
		strcat(events, ",CPU_CYCLES:u");
	if (pipe(p))
		return false;
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		dup2(p[1], 1);
		dup2(p[1], 2);
		close(p[0]);
		close(p[1]);
		execlp("pmuctl", "pmuctl", "stat", "-I", "100", "-x,", "-e", events, "--",
		       "family", "3000000", (char *)NULL);
		_exit(127);
	}
	close(p[1]);
	out = fdopen(p[0], "r");
	while (out && fgets(line, sizeof(line), out)) {
		char *time = line + strspn(line, " "), *count = strchr(line, ',');

		/* "TIME,COUNT,UNIT,EVENT,RUN,PCT,,": a number or <not counted>. */
		if (*time >= '0' && *time <= '9' && count && count[1] >= '0' && count[1] <= '9') {
			/* An interval's lines share its time. */
			if (strncmp(last, time, (size_t)(count - time)) || last[count - time]) {
				intervals++;
				snprintf(last, sizeof(last), "%.*s", (int)(count - time), time);
			}
		} else if (count && !strncmp(count + 1, "<not counted>", 13)) {
			atomic_fetch_add(&st->pmuctl_not_counted, 1);
		} else {
			line[strcspn(line, "\n")] = '\0';
			say_first(&st->pmuctl_said, st->first_pmuctl, sizeof(st->first_pmuctl),
				  "reader %u, run %lu: an unexpected line: %s", reader, nr, line);
			ok = false;
		}
	}
	if (out)
		fclose(out);
	else
		close(p[0]);
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status) || !intervals) {
		say_first(&st->pmuctl_said, st->first_pmuctl, sizeof(st->first_pmuctl),
			  "reader %u, run %lu: exit status %d, %lu intervals", reader, nr,
			  pid > 0 && WIFEXITED(status) ? WEXITSTATUS(status) : -1, intervals);
		ok = false;
	}
	atomic_fetch_add(&st->pmuctl_runs, 1);
	atomic_fetch_add(&st->pmuctl_mux, mux);
	atomic_fetch_add(&st->pmuctl_intervals, intervals);
	atomic_fetch_add(&st->pmuctl_failed, !ok);
	return ok;
}

static void reader_main(unsigned int reader)
{
	unsigned long nr;
	bool ok = true;

	for (nr = 0; now_ns() < deadline; nr++)
		ok &= pmuctl_run(reader, nr);
	_exit(ok ? 0 : 1);
}

/* ---- root: start them, toggle CPU 1, report, wait, check ---- */

static pid_t start_lab(void (*fn)(unsigned int), unsigned int i)
{
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		/* Not root's CPU 0 alone: every CPU the board has. */
		unpin();
		if (!become_lab()) {
			failed_call(i, 0, "becoming lab", EPERM);
			_exit(1);
		}
		fn(i);
	}
	return pid;
}

static void sleep_until(uint64_t t)
{
	uint64_t now = now_ns();

	if (now < t)
		usleep((useconds_t)((t - now) / 1000));
}

/* CPU 1's cycles off and on, and what its writes took. */
struct hotplug {
	atomic_ulong cycles, off_failed, on_failed;	/* read by progress() meanwhile */
	uint64_t off_max, on_max, off_sum, on_sum;
};

/* Writes @what to CPU 1's online file, timed; returns when the write did. */
static uint64_t hotplug_write(const char *what, atomic_ulong *failed, uint64_t *max,
			      uint64_t *sum)
{
	uint64_t t = now_ns(), took;

	if (write_file(CPU1_ONLINE, what))
		atomic_fetch_add(failed, 1);
	took = now_ns() - t;
	*sum += took;
	if (took > *max)
		*max = took;
	return t + took;
}

/*
 * One cycle from @t0: offline, online half a second after @t0, and back
 * a second after @t0; when the writes take longer, online at least a
 * quarter of a second before the next cycle.
 */
static void hotplug_cycle(struct hotplug *h, uint64_t t0)
{
	uint64_t on;

	hotplug_write("0", &h->off_failed, &h->off_max, &h->off_sum);
	sleep_until(t0 + 500000000ULL);
	on = hotplug_write("1", &h->on_failed, &h->on_max, &h->on_sum);
	atomic_fetch_add(&h->cycles, 1);
	sleep_until(on + 250000000ULL > t0 + 1000000000ULL ? on + 250000000ULL :
		    t0 + 1000000000ULL);
}

static void progress(uint64_t start, const struct hotplug *h)
{
	tap_note("soak %llu/%u s: %lu runs (%lu multiplexed), %lu partial, %lu flagged, "
		 "%lu wrong, %lu errors; pmuctl: %lu runs, %lu intervals, %lu failed; "
		 "CPU 1 off and on %lu times (%lu failed)",
		 (ull)((now_ns() - start) / 1000000000ULL), seconds, atomic_load(&st->runs),
		 atomic_load(&st->runs_mux), atomic_load(&st->partial),
		 atomic_load(&st->flagged), atomic_load(&st->wrong), atomic_load(&st->errors),
		 atomic_load(&st->pmuctl_runs), atomic_load(&st->pmuctl_intervals),
		 atomic_load(&st->pmuctl_failed), atomic_load(&h->cycles),
		 atomic_load(&h->off_failed) + atomic_load(&h->on_failed));
}

/* Cycle after cycle until the end. */
static void *hotplug_thread(void *arg)
{
	while (now_ns() < deadline)
		hotplug_cycle(arg, now_ns());
	return NULL;
}

/* Waits for every child until @until; kills those still there. Returns how many were. */
static unsigned int reap(pid_t *pids, unsigned int n, uint64_t until, unsigned int *failed)
{
	unsigned int i, left = n, hung = 0;
	int status;
	pid_t pid;

	while (left && now_ns() < until) {
		pid = waitpid(-1, &status, WNOHANG);
		if (pid <= 0) {
			usleep(100000);
			continue;
		}
		for (i = 0; i < n; i++) {
			if (pids[i] == pid) {
				pids[i] = 0;
				left--;
				*failed += !WIFEXITED(status) || WEXITSTATUS(status);
			}
		}
	}
	for (i = 0; i < n; i++) {
		if (pids[i] > 0) {
			stop_child(pids[i]);
			hung++;
		}
	}
	return hung;
}

/* Files with a mode that are still open, as root sees them (-1: cannot ask). */
static int files_left(void)
{
	struct armpmu_file_status fs = { .id = 1 };
	int fd, n = 0;

	if (dev_open(&fd))
		return -1;
	while (!ioc(fd, ARMPMU_IOC_FILE_STATUS, &fs)) {
		tap_note("file %u left: owner pid %u uid %u, target %u, flags %#x", fs.id,
			 fs.owner_pid, fs.owner_uid, fs.target_tid, fs.flags);
		n++;
		fs = (struct armpmu_file_status){ .id = fs.id + 1 };
	}
	dev_close(&fd);
	return n;
}

static long module_refcnt(void)
{
	FILE *f = fopen("/sys/module/armpmu/refcnt", "re");
	long n = -1;

	if (f) {
		if (fscanf(f, "%ld", &n) != 1)
			n = -1;
		fclose(f);
	}
	return n;
}

static void soak(void)
{
	pid_t pids[MAX_PROGRAMS + MAX_READERS];
	struct hotplug h = { 0 }, idle = { 0 };
	unsigned int i, n = programs + readers, failed = 0, hung;
	const char *no_hotplug = cpu1_hotplug_missing();
	bool toggling = false;
	pthread_t toggler;
	uint64_t start, next_report;
	int left;

	/*
	 * Root on CPU 0: its timers never wait for CPU 1 to finish going
	 * offline (under this load on the debug kernel, a minute).
	 */
	pin(0);
	/* What a cycle takes on the idle board, for comparison. */
	if (!no_hotplug)
		hotplug_cycle(&idle, now_ns());
	start = now_ns();
	deadline = start + seconds * 1000000000ULL;
	next_report = start + report * 1000000000ULL;
	tap_note("soak: %u s, %u lab programs counting themselves, %u pmuctl stat -I readers, "
		 "%u event counters; CPU 1 %s", seconds, programs, readers, num_counters,
		 no_hotplug ? no_hotplug : "off and on every second");
	for (i = 0; i < n; i++)
		pids[i] = i < programs ? start_lab(program_main, i) :
			  start_lab(reader_main, i - programs);
	toggling = !no_hotplug && !pthread_create(&toggler, NULL, hotplug_thread, &h);
	for (; next_report < deadline; next_report += report * 1000000000ULL) {
		sleep_until(next_report);
		progress(start, &h);
	}
	sleep_until(deadline);
	if (toggling)
		pthread_join(toggler, NULL);
	write_file(CPU1_ONLINE, "1");
	hung = reap(pids, n, deadline + GRACE_SECS * 1000000000ULL, &failed);
	progress(start, &h);
	tap_note("soak figures: %lu runs by %u programs (%lu multiplexed), %lu threads counted, "
		 "%lu READs while running; %lu partial (INCOMPLETE, not multiplexed), %lu flagged "
		 "(DISTURBED, EXEC_LEFT or EIO), %lu wrong, %lu failed calls, %lu failed closes",
		 atomic_load(&st->runs), programs, atomic_load(&st->runs_mux),
		 atomic_load(&st->threads), atomic_load(&st->reads), atomic_load(&st->partial),
		 atomic_load(&st->flagged), atomic_load(&st->wrong), atomic_load(&st->errors),
		 atomic_load(&st->close_failed));
	tap_note("soak figures: pmuctl stat -I: %lu runs (%lu multiplexed), %lu intervals, %lu "
		 "<not counted>, %lu failed",
		 atomic_load(&st->pmuctl_runs), atomic_load(&st->pmuctl_mux),
		 atomic_load(&st->pmuctl_intervals), atomic_load(&st->pmuctl_not_counted),
		 atomic_load(&st->pmuctl_failed));
	if (h.cycles)
		tap_note("soak figures: CPU 1 off and on %lu times in %u s, %lu writes failed; "
			 "offline took %llu ms on average, at most %llu, online %llu, at most "
			 "%llu (on the idle board before: %llu and %llu ms)", h.cycles, seconds,
			 h.off_failed + h.on_failed, (ull)(h.off_sum / h.cycles / 1000000),
			 (ull)(h.off_max / 1000000), (ull)(h.on_sum / h.cycles / 1000000),
			 (ull)(h.on_max / 1000000), (ull)(idle.off_max / 1000000),
			 (ull)(idle.on_max / 1000000));

	tap_check(!hung && !failed, "every lab program and pmuctl reader finished by itself",
		  "%u killed %u s after the end, %u failed", hung, GRACE_SECS, failed);
	for (i = 0; i < programs && atomic_load(&st->program_runs[i]); i++)
		;
	tap_check(i == programs, "every program counted itself, run after run",
		  "program %u finished no run", i);
	tap_check(!atomic_load(&st->errors), "no call failed",
		  "%lu failed; the first: %s", atomic_load(&st->errors), st->first_error);
	tap_check(!atomic_load(&st->wrong), "no count wrong", "%lu of %lu runs; the first: %s",
		  atomic_load(&st->wrong), atomic_load(&st->runs), st->first_wrong);
	tap_check(!atomic_load(&st->close_failed), "every file closed",
		  "%lu closes failed", atomic_load(&st->close_failed));
	tap_check(!readers || (atomic_load(&st->pmuctl_runs) && !atomic_load(&st->pmuctl_failed)),
		  "every pmuctl stat -I run exited 0, with its intervals",
		  "%lu of %lu failed; the first: %s", atomic_load(&st->pmuctl_failed),
		  atomic_load(&st->pmuctl_runs), st->first_pmuctl);
	/* A cycle a second where the writes allow; a debug kernel under load is slower. */
	if (no_hotplug)
		tap_skip("CPU 1 went off and came back, cycle after cycle", "%s", no_hotplug);
	else
		tap_check(toggling && h.cycles && !h.on_failed && !idle.on_failed &&
			  h.off_failed * 10 <= h.cycles,
			  "CPU 1 went off and came back, cycle after cycle",
			  "%lu cycles in %u s; %lu offline and %lu online writes failed", h.cycles,
			  seconds, h.off_failed, h.on_failed);
	left = files_left();
	tap_check(!left, "no file left open: FILE_STATUS as root finds none",
		  left < 0 ? "cannot open the device" : "%d left", left);
	tap_check(module_refcnt() == 0, "armpmu's reference count is back to 0",
		  "refcnt %ld", module_refcnt());
	check_every_cpu_claimable();
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "seconds", required_argument, NULL, 's' },
		{ "programs", required_argument, NULL, 'p' },
		{ "readers", required_argument, NULL, 'r' },
		{ "report", required_argument, NULL, 'R' },
		{ 0 }
	};
	struct armpmu_info info;
	int opt, fd, err;

	while ((opt = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (opt) {
		case 's': seconds = (unsigned int)strtoul(optarg, NULL, 10); break;
		case 'p': programs = (unsigned int)strtoul(optarg, NULL, 10); break;
		case 'r': readers = (unsigned int)strtoul(optarg, NULL, 10); break;
		case 'R': report = (unsigned int)strtoul(optarg, NULL, 10); break;
		default: opt = '?'; break;
		}
		if (opt == '?')
			break;
	}
	if (opt == '?' || optind < argc || !seconds || !report || !programs ||
	    programs > MAX_PROGRAMS || readers > MAX_READERS) {
		fprintf(stderr, "usage: soak-test [--seconds SECS] [--programs 1-%d] "
			"[--readers 0-%d] [--report SECS]\n", MAX_PROGRAMS, MAX_READERS);
		return 2;
	}
	tap_init();
	st = mmap(NULL, sizeof(*st), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (!tap_check(st != MAP_FAILED, "shared memory for the totals", "mmap: %s",
		       tap_errname(errno)))
		return tap_done();
	err = dev_open(&fd);
	err = err ? err : ioc(fd, ARMPMU_IOC_INFO, &info);
	dev_close(&fd);
	if (!tap_errno(err, 0, "INFO: the event counters to program"))
		return tap_done();
	num_counters = info.num_counters;
	soak();
	test_kernel_log();
	return tap_done();
}
