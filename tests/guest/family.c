// SPDX-License-Identifier: GPL-2.0
/*
 * family N [named]: user-mode work of known size spread over 4 threads and
 * a child process: each thread runs loop_n(N) at once, then a forked child
 * does. With "named", thread i (1 to 4) first names itself loop-i and runs
 * loop_n(i * N): two runs with N of the same number of digits then differ
 * by exactly LOOP_INSNS_PER_ITER * i * their difference in thread i's
 * user-mode instructions, and not at all in the main thread's (pmuctl
 * stat --per-thread's test).
 * Two runs with N of the same number of digits differ by exactly
 * 5 * LOOP_INSNS_PER_ITER * their difference in user-mode instructions,
 * whatever the scheduler does, so that pmuctl stat's test can check that
 * every thread and the child are counted, each once.
 *
 * Nothing here may take more or fewer instructions depending on timing:
 * the threads are clone()d (no pthread_join, whose loop trips depend on
 * whether the thread has exited yet) and each is waited for with exactly
 * one futex system call made with a bare svc, which sleeps until the
 * kernel clears the thread's ID at its exit, or fails at once if it has:
 * the same instructions either way. The child is waited for with one
 * waitpid(), which always sleeps until it exits.
 */
#include <linux/futex.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "pmu-asm.h"

#define THREADS		4
#define STACK_SIZE	(64 * 1024)

static unsigned long trips;
static int named;
static char stacks[THREADS][STACK_SIZE] __attribute__((aligned(16)));
/* Set by the kernel at clone, cleared (with a futex wake) at the thread's exit. */
static volatile pid_t thread_ids[THREADS];

static int thread_main(void *arg)
{
	unsigned long i = (unsigned long)arg;
	char name[16];

	if (named) {
		snprintf(name, sizeof(name), "loop-%lu", i);
		prctl(PR_SET_NAME, name);
	}
	loop_n(named ? i * trips : trips);
	return 0;	/* glibc's clone() then makes the exit system call */
}

/* FUTEX_WAIT on @word while it holds @value: one svc, its result ignored. */
static void futex_wait_once(volatile pid_t *word, pid_t value)
{
#if defined(__aarch64__)
	register long x0 __asm__("x0") = (long)word;
	register long x1 __asm__("x1") = FUTEX_WAIT;
	register long x2 __asm__("x2") = value;
	register long x3 __asm__("x3") = 0;	/* no timeout */
	register long nr __asm__("x8") = SYS_futex;

	__asm__ volatile("svc #0" : "+r"(x0) : "r"(x1), "r"(x2), "r"(x3), "r"(nr) : "memory");
#elif defined(__arm__)
	register long r0 __asm__("r0") = (long)word;
	register long r1 __asm__("r1") = FUTEX_WAIT;
	register long r2 __asm__("r2") = value;
	register long r3 __asm__("r3") = 0;	/* no timeout */
	register long nr __asm__("r7") = SYS_futex;

	__asm__ volatile("svc #0" : "+r"(r0) : "r"(r1), "r"(r2), "r"(r3), "r"(nr) : "memory");
#endif
}

int main(int argc, char **argv)
{
	const int flags = CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND | CLONE_THREAD |
			  CLONE_SYSVSEM | CLONE_PARENT_SETTID | CLONE_CHILD_CLEARTID;
	pid_t tids[THREADS], child;

	if (argc != 2 && (argc != 3 || strcmp(argv[2], "named")))
		return 2;
	trips = strtoul(argv[1], NULL, 10);
	named = argc == 3;
	for (int i = 0; i < THREADS; i++) {
		tids[i] = clone(thread_main, stacks[i] + STACK_SIZE, flags, (void *)(i + 1L),
				&thread_ids[i], NULL, &thread_ids[i]);
		if (tids[i] < 0)
			return 1;
	}
	for (int i = 0; i < THREADS; i++)
		futex_wait_once(&thread_ids[i], tids[i]);
	child = fork();
	if (child == 0) {
		loop_n(trips);
		_exit(0);
	}
	if (child < 0 || waitpid(child, NULL, 0) != child)
		return 1;
	return 0;
}
