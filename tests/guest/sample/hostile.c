// SPDX-License-Identifier: GPL-2.0
/*
 * sample-test --hostile: sampling under attack (issue 38): ring memory
 * past a user's bound beside another user's process, a sampled fork
 * storm, and a forking, threading program while CPU 1 goes off and on.
 */
#include <pthread.h>
#include <stddef.h>
#include <sys/mman.h>

#include "sample.h"

/* ---- the fork storm's worker (sample-test --work storm N) ---- */

/*
 * The fork storm: STORM_CHILDREN children at once, each with two threads
 * and a child of its own, all short-lived: STORM_FORKS new threads.
 */
static void *storm_thread(void *arg)
{
	work_a((unsigned long)arg);
	return NULL;
}

int storm(unsigned long n)
{
	pid_t kids[STORM_CHILDREN];
	int i, bad = 0, status;

	for (i = 0; i < STORM_CHILDREN; i++) {
		kids[i] = fork();
		if (kids[i] == 0) {
			pthread_t t[2];
			pid_t pid = fork();
			int j, fail = pid < 0;

			if (pid == 0) {
				work_b(n);
				_exit(0);
			}
			for (j = 0; j < 2; j++)
				fail |= pthread_create(&t[j], NULL, storm_thread, (void *)n);
			for (j = 0; j < 2; j++)
				pthread_join(t[j], NULL);
			fail |= waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
				WEXITSTATUS(status);
			_exit(fail);
		}
		bad |= kids[i] < 0;
	}
	for (i = 0; i < STORM_CHILDREN; i++)
		bad |= kids[i] > 0 && (waitpid(kids[i], &status, 0) != kids[i] ||
				       !WIFEXITED(status) || WEXITSTATUS(status));
	return bad;
}

/* ---- ring memory charged to its owner (issue 38) ---- */

#define RING_USER_KB	"/sys/module/armpmu/parameters/sample_ring_user_kb"
#define HOLDERS		12

/*
 * @n processes of @who, each a file sampling itself with a ring of
 * @ring bytes, held until *@release is closed; errs[i] gets each
 * SET_SAMPLING's errno (0 for a ring). Their PIDs in @pids.
 */
static void hold_rings(enum guest_user who, unsigned int n, __u32 ring, int *errs, pid_t *pids,
		       int release[2])
{
	for (unsigned int i = 0; i < n; i++) {
		errs[i] = -1;
		fflush(stdout);
		pids[i] = fork();
		if (pids[i] == 0) {
			int fd = -1, err;
			char c;

			close(release[1]);
			err = become_user(who) ? dev_open(&fd) : EPERM;
			errs[i] = err ? err : set_sampling(fd, PERIOD_NS, ring, 0);
			while (read(release[0], &c, 1) > 0)
				;
			_exit(0);
		}
		/* One at a time: each refusal is the one past the others' rings. */
		while (errs[i] < 0)
			usleep(1000);
	}
}

static void let_go_of(unsigned int n, pid_t *pids, int release[2])
{
	close(release[1]);
	close(release[0]);
	for (unsigned int i = 0; i < n; i++)
		waitpid(pids[i], NULL, 0);
}

static unsigned int rings_held(const int *errs, unsigned int n, int *refusal)
{
	unsigned int held = 0;

	*refusal = 0;
	for (unsigned int i = 0; i < n; i++) {
		held += !errs[i];
		if (errs[i] && !*refusal)
			*refusal = errs[i];
	}
	return held;
}

/*
 * Issue 38's attack, as lab: sampled files of 1 MiB rings, one per
 * process, until refused. Past sample_ring_user_kb (8192 KiB by default)
 * the refusal is EPERM, another user's 64 MiB process lives on, and root
 * (CAP_IPC_LOCK) still gets a ring. Then at 64 KiB: four rings of 16 KiB
 * fit and a fifth does not, until one of the four is given back.
 */
void test_ring_charge(void)
{
	int *errs = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	int release[2], fd = -1, refusal, err;
	pid_t pids[HOLDERS], victim;
	unsigned int held;
	char was[32] = "8192";
	FILE *f = fopen(RING_USER_KB, "r");

	if (errs == MAP_FAILED || !f || !fgets(was, sizeof(was), f)) {
		tap_skip("ring memory: the user's bound", "no %s", RING_USER_KB);
		if (f)
			fclose(f);
		return;
	}
	fclose(f);
	was[strcspn(was, "\n")] = 0;
	fflush(stdout);
	victim = fork();
	if (victim == 0) {
		char *mem;

		if (!become_user(AS_GUEST))
			_exit(1);
		mem = malloc(64 << 20);
		if (!mem)
			_exit(1);
		memset(mem, 0x5a, 64 << 20);
		for (;;)
			pause();
	}
	write_file(RING_USER_KB, "8192");
	if (pipe(release)) {
		tap_skip("ring memory: the user's bound", "pipe: %s", strerror(errno));
		return;
	}
	hold_rings(AS_LAB, HOLDERS, 1 << 20, errs, pids, release);
	held = rings_held(errs, HOLDERS, &refusal);
	tap_check(held == 8 && refusal == EPERM,
		  "ring memory: lab's 1 MiB rings stop at sample_ring_user_kb (8 MiB), then EPERM",
		  "%u rings held, then %s", held, tap_errname(refusal));
	err = dev_open(&fd);
	err = err ? err : set_sampling(fd, PERIOD_NS, 1 << 20, 0);
	tap_check(!err, "ring memory: root (CAP_IPC_LOCK) still gets a 1 MiB ring beside lab's",
		  "%s", tap_errname(err));
	dev_close(&fd);
	tap_check(!kill(victim, 0) && !waitpid(victim, NULL, WNOHANG),
		  "ring memory: another user's 64 MiB process lives through lab's attempt",
		  "kill: %s", strerror(errno));
	let_go_of(HOLDERS, pids, release);

	write_file(RING_USER_KB, "64");
	if (pipe(release)) {
		tap_skip("ring memory: the user's bound", "pipe: %s", strerror(errno));
		return;
	}
	hold_rings(AS_LAB, 5, 16 << 10, errs, pids, release);
	held = rings_held(errs, 5, &refusal);
	tap_check(held == 4 && errs[4] == EPERM,
		  "ring memory: at 64 KiB, four 16 KiB rings fit and a fifth is EPERM",
		  "%u held, the fifth %s", held, tap_errname(errs[4]));
	kill(pids[0], SIGKILL);
	waitpid(pids[0], NULL, 0);
	hold_rings(AS_LAB, 1, 16 << 10, errs + 5, pids + 5, release);
	tap_check(errs[5] == 0, "ring memory: a ring given back (its file closed) makes room for one",
		  "%s", tap_errname(errs[5]));
	pids[0] = pids[5];
	let_go_of(5, pids, release);
	write_file(RING_USER_KB, was);
	kill(victim, SIGKILL);
	waitpid(victim, NULL, 0);
	munmap(errs, 4096);
}

/*
 * A sampled fork storm (issue 38), as lab: STORM_FORKS threads and
 * processes come and go at once. Read as it runs, into a ring that holds
 * them all: a FORK and an EXIT of each, well-formed records, ENDED. Read
 * only at the end from one page: what did not fit is counted lost, and
 * the LOST records say as much as the header.
 */
void test_fork_storm(void)
{
	struct spec live = {
		.work = "storm", .n = 200000, .attach = ARMPMU_ATTACH_FOLLOW,
		.ring = 1 << 18, .who = AS_LAB,
	}, tiny = live;
	struct records r;
	const struct armpmu_record *h;
	unsigned int forks = 0, exited = 0;
	size_t off = 0;
	struct tally t;

	if (record(&live, "fork storm: lab records 96 threads and processes at once")) {
		count(&t);
		r = shared_records();
		while ((h = next_record(&r, &off)))
			if (h->type == ARMPMU_RECORD_FORK) {
				forks++;
				exited += has_record(h->tid, ARMPMU_RECORD_EXIT);
			}
		tap_note("fork storm: %u samples, %u FORK, %u EXIT, %llu lost", t.samples, t.forks,
			 t.exits, t.lost);
		tap_check(!t.bad && !t.lost && !t.above_top && forks == STORM_FORKS &&
			  exited == forks && t.exits == STORM_FORKS + 1 &&
			  (sh->last.flags & ARMPMU_SAMPLES_ENDED),
			  "fork storm: a FORK and an EXIT of each of the 96, nothing lost, ENDED",
			  "%u FORK (%u exited), %u EXIT, %llu lost, %u bad, flags %#x", forks,
			  exited, t.exits, t.lost, t.bad, sh->last.flags);
	}
	tiny.ring = 4096;
	tiny.read_after = true;
	if (!record(&tiny, "fork storm: lab records it into one page, read at the end"))
		return;
	count(&t);
	tap_note("fork storm, one page: %u samples, %u FORK, %u EXIT read; %llu lost in %u LOST "
		 "records; recorded %llu, lost %llu", t.samples, t.forks, t.exits, t.lost,
		 t.lost_records, (ull)sh->last.recorded, (ull)sh->last.lost);
	tap_check(!t.bad && t.lost == sh->last.lost && sh->last.recorded == t.samples &&
		  t.forks + t.exits + t.lost >= 2 * STORM_FORKS + 1 &&
		  (sh->last.flags & ARMPMU_SAMPLES_ENDED),
		  "fork storm, one page: every FORK and EXIT read or counted lost, LOST records "
		  "add up, ENDED",
		  "%u FORK + %u EXIT + %llu lost (LOST records; header %llu), recorded %llu, "
		  "read %u, bad %u, flags %#x", t.forks, t.exits, t.lost, (ull)sh->last.lost,
		  (ull)sh->last.recorded, t.samples, t.bad, sh->last.flags);
}

/* Sampled forks and threads while CPU 1 goes off and on. */
void test_hostile(void)
{
	const char *online = "/sys/devices/system/cpu/cpu1/online";
	struct spec sp = {
		.work = "threads", .n = 300000, .attach = ARMPMU_ATTACH_FOLLOW,
		.ring = 1 << 14, .who = AS_LAB,
	};
	unsigned int round, ok = 0;
	pid_t toggler;

	if (access(online, W_OK)) {
		tap_skip("hostile: sampling across CPU hotplug", "no %s", online);
		return;
	}
	fflush(stdout);
	toggler = fork();
	if (toggler == 0) {
		for (;;) {
			write_file(online, "0");
			usleep(20000);
			write_file(online, "1");
			usleep(20000);
		}
	}
	for (round = 0; round < 10; round++) {
		memset(sh, 0, offsetof(struct shared, data));
		pid_t pid = fork();
		int status;

		if (pid == 0) {
			record_child(&sp);
			_exit(0);
		}
		waitpid(pid, &status, 0);
		ok += !sh->err && WIFEXITED(status) && !WEXITSTATUS(status) &&
		      (sh->last.flags & ARMPMU_SAMPLES_ENDED);
	}
	kill(toggler, SIGKILL);
	waitpid(toggler, NULL, 0);
	write_file(online, "1");
	tap_check(ok == 10, "hostile: 10 sampled fork-and-thread runs while CPU 1 goes off and on",
		  "%u of 10 ended well; last: %s %s", ok, sh->where, tap_errname(sh->err));
}
