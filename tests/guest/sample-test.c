// SPDX-License-Identifier: GPL-2.0
/*
 * sample-test: task mode's sampling (ARMPMU_IOC_SET_SAMPLING, READ_SAMPLES,
 * poll), recorded as lab from programs this test runs (itself, with
 * --work). Runs as root in the guest, prints TAP.
 *
 *   sample-test [--icount] [--compat] [--hostile] [--then PROGRAM]
 *               [--tap-run N --tap-failed N --tap-skipped N]
 *
 * --icount: QEMU's exact mode, one CPU; time is instructions, so the
 * shares of samples and the weights are checked exactly (within 2 points,
 * within one period). --hostile: ring memory charged to its owner, a sampled
 * fork storm, and a sampled forking, threading program while CPU 1 goes
 * off and on (hostile-test.sh). The --tap-* options
 * continue another program's TAP numbering (task-test --then); --then
 * PROGRAM goes on in PROGRAM (callchain-test) as task-test does.
 *
 *   sample-test --work ratio|spin|threads|suid|storm N
 *
 * is the recorded program: two functions of known size in sections of
 * their own, one doing three times the work of the other.
 */
#include <getopt.h>
#include <pthread.h>
#include <stddef.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/utsname.h>

#include "sample/sample.h"

static bool icount, compat;
/*
 * spec.until_sampled's pipe: the worker's threads read its end, the
 * recorder closes its own when they were sampled (an end of file that
 * every reader sees), and the worker closes its copy of that end.
 */
static int sampled_fd = -1, sampled_by_recorder = -1;

/* ---- the recorded program ---- */

/* The work: a loop of its own in a section of its own, so its IPs are known. */
#if defined(__aarch64__)
#define WORK_LOOP(n) __asm__ volatile("1:	subs	%0, %0, #1\n	b.ne	1b\n" : "+r"(n) : : "cc")
#else
#define WORK_LOOP(n) __asm__ volatile("1:	subs	%0, %0, #1\n	bne	1b\n" : "+r"(n) : : "cc")
#endif

__attribute__((noinline, section("sample_work_a"))) void work_a(unsigned long n)
{
	if (n)
		WORK_LOOP(n);
}

__attribute__((noinline, section("sample_work_b"))) void work_b(unsigned long n)
{
	if (n)
		WORK_LOOP(n);
}

extern const char __start_sample_work_a[], __stop_sample_work_a[];
extern const char __start_sample_work_b[], __stop_sample_work_b[];

/* Whether the recorder has said the worker was sampled (always, if it will not, or after 30 s). */
static bool sampled(uint64_t deadline)
{
	char c;

	return sampled_fd < 0 || read(sampled_fd, &c, 1) >= 0 || now_ns() > deadline;
}

/* @n rounds of @fn, again until the recorder says it was sampled. */
static void work_until_sampled(void (*fn)(unsigned long), unsigned long n)
{
	uint64_t deadline = now_ns() + 30000000000ULL;

	do
		fn(n);
	while (!sampled(deadline));
}

static void *thread_work(void *arg)
{
	work_until_sampled(work_a, (unsigned long)arg);
	return NULL;
}

static int work(const char *what, unsigned long n)
{
	pthread_t t[THREADS];
	char arg[32];
	pid_t pid;
	int i;

	if (!strcmp(what, "ratio")) {
		work_a(n);
		work_b(3 * n);
	} else if (!strcmp(what, "spin")) {
		work_a(n);
	} else if (!strcmp(what, "threads")) {
		for (i = 0; i < THREADS; i++)
			if (pthread_create(&t[i], NULL, thread_work, (void *)n))
				return 1;
		pid = fork();
		if (pid == 0) {
			work_until_sampled(work_b, n);
			_exit(0);
		}
		/* Before the joins: the threads wait for a sample of this one too. */
		work_until_sampled(work_a, n);
		for (i = 0; i < THREADS; i++)
			pthread_join(t[i], NULL);
		if (pid > 0)
			waitpid(pid, NULL, 0);
	} else if (!strcmp(what, "storm")) {
		return storm(n);
	} else if (!strcmp(what, "suid")) {
		/*
		 * Sampled here, then let go at the exec of a set-user-ID
		 * program; with spec.until_sampled, not before a sample of it
		 * was read.
		 */
		work_until_sampled(work_a, n);
		snprintf(arg, sizeof(arg), "%lu", n);
		execl(SUID_PROG, "sample-suid", "--work", "spin", arg, (char *)NULL);
		return 127;
	} else {
		return 2;
	}
	return 0;
}

/* ---- recording, as lab, in a child ---- */

struct shared *sh;

static __u32 work_event(void)
{
	return icount ? ARMPMU_EV_INST_RETIRED : ARMPMU_EV_CPU_CYCLES;
}

static pid_t start_worker(const struct spec *sp, int go)
{
	char n[32], c;
	pid_t pid = fork();

	if (pid)
		return pid;
	if (sampled_by_recorder >= 0)
		close(sampled_by_recorder);
	if (read(go, &c, 1) != 1)
		_exit(3);
	if (sp->exec) {
		snprintf(n, sizeof(n), "%lu", sp->n);
		execl("/proc/self/exe", "sample-test", "--work", sp->work, n, (char *)NULL);
		_exit(127);
	}
	_exit(work(sp->work, sp->n));
}

/* Has every thread of @r's FORK records, and the worker *@arg, a sample? */
static bool all_sampled(const struct records *r, const void *arg)
{
	__u32 worker = *(const __u32 *)arg;
	const struct armpmu_record *h, *s;
	size_t off = 0, at;
	unsigned int forks = 0, sampled = 0;
	bool worker_sampled = false;

	while ((h = next_record(r, &off))) {
		if (h->type == ARMPMU_RECORD_SAMPLE && h->tid == worker)
			worker_sampled = true;
		if (h->type != ARMPMU_RECORD_FORK)
			continue;
		forks++;
		at = 0;
		while ((s = next_record(r, &at)))
			if (s->type == ARMPMU_RECORD_SAMPLE && s->tid == h->tid) {
				sampled++;
				break;
			}
	}
	return worker_sampled && forks == THREADS + 1 && sampled == forks;
}

void record_child(const struct spec *sp)
{
	struct armpmu_attach at = { 0 };
	struct records r = { 0 };
	__u32 kflags = sp->flags & ARMPMU_SAMPLING_KERNEL ? 0 : EXCL_K;
	int go[2], until[2] = { -1, -1 }, fd = -1, err, status;
	pid_t pid;

	/* Dumpable again after the change of IDs, as a login's processes are. */
	if (!become_user(sp->who) || prctl(PR_SET_DUMPABLE, 1)) {
		FAIL(EPERM, "become_user");
		return;
	}
	if (pipe(go)) {
		FAIL(errno, "pipe");
		return;
	}
	if (sp->until_sampled && pipe2(until, O_CLOEXEC | O_NONBLOCK)) {
		FAIL(errno, "pipe");
		return;
	}
	sampled_fd = until[0];
	sampled_by_recorder = until[1];
	pid = start_worker(sp, go[0]);
	sampled_fd = sampled_by_recorder = -1;
	if (until[0] >= 0)
		close(until[0]);
	sh->worker = pid;
	sh->recorder = getpid();
	at.tid = (__u32)pid;
	at.flags = sp->attach;
	err = dev_open(&fd);
	err = err ? err : ioc(fd, ARMPMU_IOC_ATTACH, &at);
	err = err ? err : program(fd, 0, work_event(), kflags);
	err = err ? err : ioc_u32(fd, ARMPMU_IOC_SET_CYCLE_FILTER, kflags);
	err = err ? err : set_sampling(fd, PERIOD_NS, sp->ring, sp->flags);
	err = err ? err : ioc0(fd, ARMPMU_IOC_START);
	if (err) {
		FAIL(err, "open, attach, program, sample, start");
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		dev_close(&fd);
		return;
	}
	if (write(go[1], "g", 1) != 1)
		FAIL(errno, "go");
	if (sp->until_sampled) {
		__u32 worker = (__u32)pid;

		err = collect_until(fd, &r, 20000,
				    strcmp(sp->work, "threads") ? has_sample : all_sampled, &worker);
		if (err)
			FAIL(err, "a first sample of each thread");
		/* The end of file that every thread of the worker sees. */
		close(until[1]);
		until[1] = -1;
	}
	if (sp->read_after) {
		waitpid(pid, &status, 0);
		err = collect_until_ended(fd, &r, 20000);
	} else {
		err = collect_until_ended(fd, &r, 60000);
		waitpid(pid, &status, 0);
	}
	if (err)
		FAIL(err, "collect");
	else if (!WIFEXITED(status) || WEXITSTATUS(status))
		FAIL(ECHILD, "worker's status");
	memset(&sh->threads, 0, sizeof(sh->threads));
	sh->threads.nr = 32;
	sh->threads.slots = 1;
	err = ioc(fd, ARMPMU_IOC_READ_THREADS, &sh->threads);
	if (err && !sh->err)
		FAIL(err, "READ_THREADS");
	sh->last = r.last;
	sh->reads = r.reads;
	sh->len = r.len < DATA_MAX ? r.len : DATA_MAX;
	memcpy(sh->data, r.data, sh->len);
	free_records(&r);
	dev_close(&fd);
	if (until[1] >= 0)
		close(until[1]);
}

/* Records @sp as its user; false (a failed test) if that did not work. */
bool record(const struct spec *sp, const char *name)
{
	pid_t pid;
	int status;

	memset(sh, 0, offsetof(struct shared, data));
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		record_child(sp);
		_exit(0);
	}
	waitpid(pid, &status, 0);
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		FAIL(ECHILD, "recorder's status");
	return tap_check(!sh->err, name, "%s: %s", sh->where, tap_errname(sh->err));
}

struct records shared_records(void)
{
	struct records r = { .data = sh->data, .len = sh->len, .last = sh->last };

	return r;
}

static struct armpmu_thread *thread_at(unsigned int i)
{
	return (struct armpmu_thread *)(void *)(sh->thread_room + i * ARMPMU_THREAD_SIZE(1));
}

static bool in(uint64_t ip, const char *start, const char *stop)
{
	return ip >= (uintptr_t)start && ip < (uintptr_t)stop;
}

void count(struct tally *t)
{
	struct records r = shared_records();
	const struct armpmu_record *h;
	const struct armpmu_sample *s;
	const struct armpmu_task_record *tr;
	uint64_t top = user_top();
	size_t off = 0;

	memset(t, 0, sizeof(*t));
	while ((h = next_record(&r, &off))) {
		switch (h->type) {
		case ARMPMU_RECORD_SAMPLE:
			s = (const void *)h;
			t->samples++;
			t->kernel += !!(s->flags & ARMPMU_SAMPLE_KERNEL);
			t->incomplete += !!(s->flags & ARMPMU_SAMPLE_INCOMPLETE);
			t->above_top += s->ip >= top;
			t->in_a += in(s->ip, __start_sample_work_a, __stop_sample_work_a);
			t->in_b += in(s->ip, __start_sample_work_b, __stop_sample_work_b);
			if (t->let_go && h->tid == t->let_go_tid)
				t->after_let_go++;
			break;
		case ARMPMU_RECORD_LOST:
			t->lost_records++;
			t->lost += ((const struct armpmu_lost *)h)->lost;
			break;
		case ARMPMU_RECORD_FORK:
			t->forks++;
			break;
		case ARMPMU_RECORD_EXEC:
			tr = (const void *)h;
			t->execs++;
			memcpy(t->exec_comm, tr->comm, 16);
			t->exec_comm[15] = 0;
			break;
		case ARMPMU_RECORD_EXIT:
			tr = (const void *)h;
			t->exits++;
			t->exit_ppid = tr->ppid;
			t->exit_ptid = tr->ptid;
			break;
		case ARMPMU_RECORD_LET_GO:
			tr = (const void *)h;
			t->let_go++;
			t->let_go_tid = h->tid;
			t->let_go_time = h->time;
			memcpy(t->let_go_comm, tr->comm, 16);
			t->let_go_comm[15] = 0;
			break;
		default:
			t->bad++;
		}
	}
	t->bad += off != r.len;
}

/* The sum of @tid's sample weights: slot 0 and cycles. */
static void weights(__u32 tid, uint64_t *slot0, uint64_t *cycles, unsigned int *n)
{
	struct records r = shared_records();
	const struct armpmu_record *h;
	const struct armpmu_sample *s;
	size_t off = 0;

	*slot0 = *cycles = 0;
	*n = 0;
	while ((h = next_record(&r, &off))) {
		if (h->type != ARMPMU_RECORD_SAMPLE || h->tid != tid)
			continue;
		s = (const void *)h;
		*cycles += s->cycles;
		*slot0 += s->nr ? s->value[0] : 0;
		(*n)++;
	}
}

/* Does @tid appear in a record of @type? */
bool has_record(__u32 tid, unsigned int type)
{
	struct records r = shared_records();
	const struct armpmu_record *h;
	size_t off = 0;

	while ((h = next_record(&r, &off)))
		if (h->type == type && h->tid == tid)
			return true;
	return false;
}

/* ---- the tests ---- */

/*
 * A program of two functions, one doing three times the other's work,
 * executed under an armed file as lab: 25% and 75% of the samples in the
 * functions' IP ranges, the weights adding up to the thread's totals, no
 * IP above the user address space, an EXEC record that names it.
 */
static void test_attribution(void)
{
	struct spec sp = {
		.work = "ratio", .n = icount ? 5000000 : 20000000,
		.attach = ARMPMU_ATTACH_ENABLE_ON_EXEC, .exec = true, .ring = 1 << 18,
		.who = AS_LAB,
	};
	struct armpmu_thread *th;
	uint64_t slot0, cycles, d0, dc;
	unsigned int n, share_x10;
	struct tally t;

	if (!record(&sp, "attribution: lab records a program of two functions"))
		return;
	count(&t);
	share_x10 = t.in_a + t.in_b ? 1000U * t.in_a / (t.in_a + t.in_b) : 0;
	tap_note("attribution: %u samples, %u in the 1x function, %u in the 3x one: %u.%u%% / %u.%u%%",
		 t.samples, t.in_a, t.in_b, share_x10 / 10, share_x10 % 10,
		 (1000 - share_x10) / 10, (1000 - share_x10) % 10);
	/*
	 * Without icount, time is the host's: a stall of QEMU anywhere weighs
	 * as much as the guest's work, so no share holds there, only that the
	 * two functions (a few hundred ticks of work) were both sampled.
	 */
	if (icount) {
		tap_check(t.in_a + t.in_b > 100 && share_x10 + 20 >= 250 && share_x10 <= 250 + 20,
			  "attribution: 25% and 75% of the samples, within 2 points (icount)",
			  "%u and %u samples: %u.%u%% in the 1x function", t.in_a, t.in_b,
			  share_x10 / 10, share_x10 % 10);
		tap_check(t.in_a + t.in_b >= t.samples * 9 / 10,
			  "attribution: 90% of the samples in the two functions (icount)",
			  "%u of %u", t.in_a + t.in_b, t.samples);
	} else {
		tap_check(t.in_a > 0 && t.in_b > 0,
			  "attribution: both functions sampled (shares hold only under icount)",
			  "%u and %u samples", t.in_a, t.in_b);
	}
	tap_check(t.samples && !t.above_top && !t.kernel,
		  "no sample IP at or above the user address space's top (lab)",
		  "%u of %u above %#llx, %u flagged kernel", t.above_top, t.samples,
		  (ull)user_top(), t.kernel);
	tap_check(t.execs == 1 && !strcmp(t.exec_comm, "exe") && t.exits == 1 &&
		  !t.forks && !t.let_go && !t.bad && !t.lost && (sh->last.flags & ARMPMU_SAMPLES_ENDED),
		  "attribution: one EXEC record (comm exe, from /proc/self/exe), one EXIT, ENDED",
		  "EXEC %u (%s), EXIT %u, FORK %u, LET_GO %u, bad %u, lost %llu, flags %#x",
		  t.execs, t.exec_comm, t.exits, t.forks, t.let_go, t.bad, t.lost, sh->last.flags);
	tap_check(t.exits == 1 && t.exit_ppid == (__u32)sh->recorder &&
		  t.exit_ptid == (__u32)sh->recorder,
		  "attribution: the EXIT record carries its parent's IDs, as perf's does",
		  "EXIT ppid %u, ptid %u; the parent %d", t.exit_ppid, t.exit_ptid, (int)sh->recorder);
	tap_check(sh->last.recorded == t.samples && !sh->last.lost && !sh->last.pending,
		  "attribution: READ_SAMPLES' tallies: recorded = samples read, none lost",
		  "recorded %llu, %u read, lost %llu, pending %u", (ull)sh->last.recorded,
		  t.samples, (ull)sh->last.lost, sh->last.pending);
	th = thread_at(0);
	weights((__u32)sh->worker, &slot0, &cycles, &n);
	d0 = th->value[0] - slot0;
	dc = th->cycles - cycles;
	tap_note("weights: %u samples, slot 0 %llu of %llu, cycles %llu of %llu", n,
		 (ull)slot0, (ull)th->value[0], (ull)cycles, (ull)th->cycles);
	if (icount)
		tap_check(sh->threads.nr == 1 && slot0 <= th->value[0] && d0 <= PERIOD_NS &&
			  cycles <= th->cycles && dc <= PERIOD_NS,
			  "weights: the samples' instructions and cycles add up to READ_THREADS' within one period",
			  "slot 0 %llu of %llu, cycles %llu of %llu, period %llu",
			  (ull)slot0, (ull)th->value[0], (ull)cycles, (ull)th->cycles, PERIOD_NS);
	else
		tap_check(sh->threads.nr == 1 && slot0 > 0 && slot0 <= th->value[0] &&
			  cycles <= th->cycles,
			  "weights: the samples' cycles add up to at most READ_THREADS'",
			  "slot 0 %llu of %llu, cycles %llu of %llu",
			  (ull)slot0, (ull)th->value[0], (ull)cycles, (ull)th->cycles);
}

/*
 * FOLLOW of a program of 4 threads and a forked child: a FORK record and
 * samples of every thread and of the child, EXIT records for all.
 */
static void test_follow(void)
{
	struct spec sp = {
		.work = "threads", .n = icount ? 1000000 : 5000000,
		.attach = ARMPMU_ATTACH_FOLLOW, .ring = 1 << 18, .until_sampled = true,
		.who = AS_LAB,
	};
	struct records r;
	const struct armpmu_record *h;
	unsigned int forks = 0, sampled = 0, exited = 0;
	size_t off = 0;
	struct tally t;

	if (!record(&sp, "follow: lab records 4 threads and a forked child"))
		return;
	count(&t);
	r = shared_records();
	while ((h = next_record(&r, &off))) {
		if (h->type != ARMPMU_RECORD_FORK)
			continue;
		forks++;
		sampled += has_record(h->tid, ARMPMU_RECORD_SAMPLE);
		exited += has_record(h->tid, ARMPMU_RECORD_EXIT);
	}
	tap_check(forks == THREADS + 1 && sampled == forks && exited == forks,
		  "follow: FORK records of the 4 threads and the child, samples and an EXIT of each",
		  "%u FORK, %u of them sampled, %u exited", forks, sampled, exited);
	tap_check(has_record((__u32)sh->worker, ARMPMU_RECORD_SAMPLE) &&
		  t.exits == THREADS + 2 && !t.above_top && !t.lost &&
		  (sh->last.flags & ARMPMU_SAMPLES_ENDED),
		  "follow: the first thread's samples, 6 EXIT records, ENDED",
		  "exits %u, above top %u, lost %llu, flags %#x", t.exits, t.above_top, t.lost,
		  sh->last.flags);
}

/* A set-user-ID exec lets the thread go: LET_GO, and no sample after it. */
static void test_let_go(void)
{
	struct spec sp = {
		.work = "suid", .n = icount ? 2000000 : 1000000,
		.attach = 0, .ring = 1 << 18, .until_sampled = true, .who = AS_LAB,
	};
	struct tally t;
	int err;

	err = mkdir(SUID_DIR, 0755) && errno != EEXIST ? errno : 0;
	if (!err) {
		char cmd[160];

		snprintf(cmd, sizeof(cmd), "cp /proc/%d/exe %s && chmod 4755 %s", getpid(),
			 SUID_PROG, SUID_PROG);
		err = system(cmd) ? EIO : 0;
	}
	if (!tap_errno(err, 0, "let go: a set-user-ID-root copy of this program"))
		return;
	if (!record(&sp, "let go: lab records a program that executes a set-user-ID one"))
		return;
	count(&t);
	tap_check(t.let_go == 1 && t.let_go_tid == (__u32)sh->worker && t.samples > 0 &&
		  !t.after_let_go && !t.exits && !strcmp(t.let_go_comm, "sample-test") &&
		  (sh->last.flags & ARMPMU_SAMPLES_ENDED),
		  "let go: samples before, a LET_GO record (its old name), none after, ENDED",
		  "LET_GO %u (tid %u, %s), samples %u, after %u, EXIT %u, flags %#x", t.let_go,
		  t.let_go_tid, t.let_go_comm, t.samples, t.after_let_go, t.exits, sh->last.flags);
	unlink(SUID_PROG);
}

/* A ring of one page, read only at the end: dropped samples counted, told. */
static void test_tiny_ring(void)
{
	struct spec sp = {
		/*
		 * A page holds 64 samples: the work must outlast 64 periods.
		 * Without icount its time is the host's, and an idle host ran
		 * 5,000,000 rounds in 60 periods: 20 times as many leave a
		 * wide margin however fast the host is.
		 */
		.work = "spin", .n = icount ? 20000000 : 100000000,
		.ring = 4096, .read_after = true, .who = AS_LAB,
	};
	struct tally t;

	if (!record(&sp, "tiny ring: lab records into one page, read at the end"))
		return;
	count(&t);
	tap_note("tiny ring: %u samples read, %llu lost in %u LOST records; recorded %llu, lost %llu",
		 t.samples, t.lost, t.lost_records, (ull)sh->last.recorded, (ull)sh->last.lost);
	tap_check(t.lost > 0 && t.lost_records > 0 && t.lost == sh->last.lost &&
		  sh->last.recorded == t.samples,
		  "tiny ring: LOST records add up to READ_SAMPLES' lost, recorded = samples read",
		  "LOST %llu in %u records, lost %llu, recorded %llu, read %u", t.lost,
		  t.lost_records, (ull)sh->last.lost, (ull)sh->last.recorded, t.samples);
}

/* Root with ARMPMU_SAMPLING_KERNEL gets kernel IPs: the top check can fail. */
static void test_kernel_samples(void)
{
	struct spec sp = {
		.work = "threads", .n = 200000, .attach = ARMPMU_ATTACH_FOLLOW,
		.ring = 1 << 18, .flags = ARMPMU_SAMPLING_KERNEL, .who = AS_ROOT,
	};
	struct tally t;

	if (!record(&sp, "kernel: root records with ARMPMU_SAMPLING_KERNEL"))
		return;
	count(&t);
	tap_check(t.kernel > 0 && t.above_top == t.kernel,
		  "kernel: root's kernel-mode samples are flagged, their IPs above the user top",
		  "%u kernel-mode samples, %u above %#llx, of %u", t.kernel, t.above_top,
		  (ull)user_top(), t.samples);
}

/* A file as lab: counting the caller, cycles at least. */
static int lab_file(int *fd)
{
	int err = dev_open(fd);

	err = err ? err : program(*fd, 0, ARMPMU_EV_CPU_CYCLES, EXCL_K);
	err = err ? err : ioc_u32(*fd, ARMPMU_IOC_SET_CYCLE_FILTER, EXCL_K);
	return err;
}

struct errno_case {
	const char *name;
	int want;
	int got;
};

/* Each errno of SET_SAMPLING and READ_SAMPLES, as lab (and BIND as root). */
static void errno_child(struct errno_case *c, unsigned int *n)
{
	struct armpmu_sampling sm;
	struct samples_buf *b = calloc(1, sizeof(*b));
	struct armpmu_samples hdr;
	struct armpmu_attach at = { .tid = 0, .flags = ARMPMU_ATTACH_ENABLE_ON_EXEC };
	int fd = -1, fd2 = -1, err;
	unsigned int i = 0;
	void *bad;

#define CASE(nm, w, expr) do { c[i].name = (nm); c[i].want = (w); c[i].got = (expr); i++; } while (0)
	/* As root first: CPU mode. */
	err = open_bound(0, &fd);
	CASE("EOPNOTSUPP: a CPU-mode file", EOPNOTSUPP,
	     err ? -err : set_sampling(fd, PERIOD_NS, 4096, 0));
	dev_close(&fd);
	if (!become_user(AS_LAB)) {
		*n = i;
		return;
	}
	lab_file(&fd);
	memset(&sm, 0, sizeof(sm));
	sm.period_ns = PERIOD_NS;
	sm.ring_bytes = 4096;
	sm.flags = 1U << 5;
	CASE("EINVAL: an undefined flag", EINVAL, ioc(fd, ARMPMU_IOC_SET_SAMPLING, &sm));
	sm.flags = 0;
	sm.reserved[2] = 1;
	CASE("EINVAL: a non-zero reserved field", EINVAL, ioc(fd, ARMPMU_IOC_SET_SAMPLING, &sm));
	CASE("EINVAL: a ring smaller than a page", EINVAL, set_sampling(fd, PERIOD_NS, 4095, 0));
	CASE("ERANGE: a period shorter than sample_rate_max allows", ERANGE,
	     set_sampling(fd, PERIOD_NS - 1, 4096, 0));
	CASE("ERANGE: a period of 2^63 ns, which the kernel's signed time never reaches", ERANGE,
	     set_sampling(fd, ARMPMU_SAMPLING_PERIOD_MAX + 1, 4096, 0));
	CASE("ERANGE: a period of 2^64 - 1 ns", ERANGE, set_sampling(fd, ~0ULL, 4096, 0));
	CASE("E2BIG: a ring above sample_ring_kb_max", E2BIG,
	     set_sampling(fd, PERIOD_NS, (1024U << 10) + 1, 0));
	CASE("EACCES: ARMPMU_SAMPLING_KERNEL as lab", EACCES,
	     set_sampling(fd, PERIOD_NS, 4096, ARMPMU_SAMPLING_KERNEL));
	CASE("READ_SAMPLES: EOPNOTSUPP before sampling", EOPNOTSUPP,
	     (memset(&b->hdr, 0, sizeof(b->hdr)), b->hdr.size = SAMPLES_ROOM,
	      ioc(fd, ARMPMU_IOC_READ_SAMPLES, b)));
	CASE("SET_SAMPLING: 0 with sampling off is fine", 0, set_sampling(fd, 0, 0, 0));
	CASE("SET_SAMPLING: a file counting the caller", 0, set_sampling(fd, PERIOD_NS, 8192, 0));
	CASE("SET_EVENT: EOPNOTSUPP for a slot at num_counters in a sampled file", EOPNOTSUPP,
	     (ioc_u32(fd, ARMPMU_IOC_SELECT, ARMPMU_MAX_COUNTERS - 1),
	      set_event(fd, ARMPMU_EV_CPU_CYCLES, EXCL_K)));
	ioc_u32(fd, ARMPMU_IOC_SELECT, 0);
	memset(&b->hdr, 0, sizeof(b->hdr));
	b->hdr.size = ARMPMU_SAMPLE_SIZE(ARMPMU_MAX_COUNTERS) - 8;
	CASE("READ_SAMPLES: EINVAL for room below one whole sample", EINVAL,
	     ioc(fd, ARMPMU_IOC_READ_SAMPLES, b));
	b->hdr.size = SAMPLES_ROOM;
	b->hdr.reserved[1] = 1;
	CASE("READ_SAMPLES: EINVAL for a non-zero reserved field", EINVAL,
	     ioc(fd, ARMPMU_IOC_READ_SAMPLES, b));
	/* Counting: EBUSY, and the ring keeps what it has. */
	ioc0(fd, ARMPMU_IOC_START);
	work_a(icount ? 3000000 : 2000000);
	CASE("EBUSY: SET_SAMPLING while counting", EBUSY, set_sampling(fd, PERIOD_NS, 4096, 0));
	CASE("EBUSY: turning sampling off while counting", EBUSY, set_sampling(fd, 0, 0, 0));
	ioc0(fd, ARMPMU_IOC_STOP);
	/* A header that reads well but cannot be written. */
	bad = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	memset(&hdr, 0, sizeof(hdr));
	hdr.size = 4096 - sizeof(hdr);
	memcpy(bad, &hdr, sizeof(hdr));
	mprotect(bad, 4096, PROT_READ);
	CASE("READ_SAMPLES: EFAULT for a header that cannot be written", EFAULT,
	     ioctl(fd, ARMPMU_IOC_READ_SAMPLES, bad) < 0 ? errno : 0);
	/* Room that ends in a read-only page. */
	{
		unsigned char *two = mmap(NULL, 8192, PROT_READ | PROT_WRITE,
					  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		struct armpmu_samples *h = (void *)(two + 4096 - sizeof(*h) - 8);

		mprotect(two + 4096, 4096, PROT_READ);
		memset(h, 0, sizeof(*h));
		h->size = 4096;
		CASE("READ_SAMPLES: EFAULT for room that is not writable", EFAULT,
		     ioc(fd, ARMPMU_IOC_READ_SAMPLES, h));
	}
	memset(&b->hdr, 0, sizeof(b->hdr));
	b->hdr.size = SAMPLES_ROOM;
	err = ioc(fd, ARMPMU_IOC_READ_SAMPLES, b);
	CASE("after the refusals the ring still holds the samples taken while counting", 0,
	     err ? err : b->hdr.size && b->hdr.recorded ? 0 : ENODATA);
	CASE("SET_SAMPLING again while stopped", 0, set_sampling(fd, PERIOD_NS, 4096, 0));
	memset(&b->hdr, 0, sizeof(b->hdr));
	b->hdr.size = SAMPLES_ROOM;
	err = ioc(fd, ARMPMU_IOC_READ_SAMPLES, b);
	CASE("...which drops the records and zeroes the tallies", 0,
	     err ? err : !b->hdr.size && !b->hdr.recorded && !b->hdr.lost ? 0 : EEXIST);
	CASE("0 turns sampling off", 0, set_sampling(fd, 0, 0, 0));
	CASE("READ_SAMPLES: EOPNOTSUPP once it is off", EOPNOTSUPP,
	     (memset(&b->hdr, 0, sizeof(b->hdr)), b->hdr.size = SAMPLES_ROOM,
	      ioc(fd, ARMPMU_IOC_READ_SAMPLES, b)));
	dev_close(&fd);
	/* Armed: EBUSY. */
	err = dev_open(&fd2);
	err = err ? err : ioc(fd2, ARMPMU_IOC_ATTACH, &at);
	err = err ? err : program(fd2, 0, ARMPMU_EV_CPU_CYCLES, EXCL_K);
	err = err ? err : ioc_u32(fd2, ARMPMU_IOC_SET_CYCLE_FILTER, EXCL_K);
	err = err ? err : ioc0(fd2, ARMPMU_IOC_START);
	CASE("EBUSY: SET_SAMPLING while armed", EBUSY,
	     err ? -err : set_sampling(fd2, PERIOD_NS, 4096, 0));
	dev_close(&fd2);
	/* Multiplexed: EOPNOTSUPP. */
	err = lab_file(&fd2);
	err = err ? err : ioc_u32(fd2, ARMPMU_IOC_SELECT, ARMPMU_MAX_COUNTERS - 1);
	err = err ? err : set_event(fd2, ARMPMU_EV_CPU_CYCLES, EXCL_K);
	CASE("EOPNOTSUPP: a multiplexed file", EOPNOTSUPP,
	     err ? -err : set_sampling(fd2, PERIOD_NS, 4096, 0));
	dev_close(&fd2);
	*n = i;
#undef CASE
}

static void test_errnos(void)
{
	struct errno_case *c = mmap(NULL, 64 * sizeof(*c), PROT_READ | PROT_WRITE,
				    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	unsigned int *n = (unsigned int *)(c + 63), i;
	char name[120];
	pid_t pid;

	*n = 0;
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		errno_child(c, n);
		_exit(0);
	}
	waitpid(pid, NULL, 0);
	tap_check(*n == 26, "errnos: every case ran", "%u cases", *n);
	for (i = 0; i < *n && i < 63; i++) {
		snprintf(name, sizeof(name), "sampling: %s", c[i].name);
		tap_check(c[i].got == c[i].want, name, "got %s (%d), want %s",
			  c[i].got < 0 ? "a failure before the call" : tap_errname(c[i].got),
			  c[i].got, tap_errname(c[i].want));
	}
	munmap(c, 64 * sizeof(*c));
}

/* poll(2): nothing to say on an empty ring, POLLIN once a quarter is full. */
static void test_poll(void)
{
	struct pollfd pfd = { .events = POLLIN };
	int fd = -1, err, empty = -1, full = -1;

	err = lab_file(&fd);
	err = err ? err : set_sampling(fd, PERIOD_NS, 4096, 0);
	pfd.fd = fd;
	if (!err)
		empty = poll(&pfd, 1, 0);
	err = err ? err : ioc0(fd, ARMPMU_IOC_START);
	/* 4096 / 4 bytes: about 16 samples of 64 bytes: 40 periods of work. */
	if (!err)
		work_a(icount ? 40 * PERIOD_NS / 2 : 10000000);
	err = err ? err : ioc0(fd, ARMPMU_IOC_STOP);
	if (!err)
		full = poll(&pfd, 1, 1000);
	tap_check(!err && empty == 0 && full == 1 && (pfd.revents & POLLIN),
		  "poll: 0 on an empty ring, POLLIN once it holds a quarter",
		  "%s, empty %d, full %d, revents %#x", tap_errname(err), empty, full,
		  pfd.revents);
	dev_close(&fd);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "icount", no_argument, NULL, 'i' },
		{ "compat", no_argument, NULL, 'C' },
		{ "hostile", no_argument, NULL, 'H' },
		{ "then", required_argument, NULL, 't' },
		TAP_THEN_OPTIONS,
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *then = NULL, *then_opts[3] = { NULL };
	bool hostile = false;
	int opt;

	if (argc == 4 && !strcmp(argv[1], "--work"))
		return work(argv[2], strtoul(argv[3], NULL, 0));
	while ((opt = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (opt) {
		case 'i': icount = true; break;
		case 'C': compat = true; break;
		case 'H': hostile = true; break;
		case 't': then = optarg; break;
		default:
			if (tap_then_option(opt, optarg))
				break;
			fprintf(stderr, "usage: sample-test [--icount] [--compat] [--hostile] "
					"[--then PROGRAM] [--tap-run N --tap-failed N --tap-skipped N]\n");
			return opt == 'h' ? 0 : 2;
		}
	}
	tap_init();
	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED) {
		tap_check(false, "sample-test: shared memory", "%s", strerror(errno));
		return tap_done();
	}
	if (hostile) {
		test_ring_charge();
		test_fork_storm();
		test_hostile();
		test_kernel_log();
		return tap_done();
	}
	pin(0);
	test_errnos();
	test_poll();
	test_attribution();
	test_follow();
	test_let_go();
	test_tiny_ring();
	test_kernel_samples();
	test_kernel_log();
	if (then) {
		then_opts[0] = icount ? "--icount" : NULL;
		then_opts[icount] = compat ? "--compat" : NULL;
		return tap_then(then, argv[0], then_opts);
	}
	return tap_done();
}
