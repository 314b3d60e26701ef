// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz: the workers: a thread's loop of calls, and a process of threads
 * under one identity (root, lab or guest) with its shared fds.
 */
#include "common.h"

/* The guest user is not in the armpmu group: open must say EACCES, always. */
static void op_guest_open(struct worker *w)
{
	static const int modes[] = { O_RDONLY, O_WRONLY, O_RDWR };
	int flags = modes[below(w, 3)] | O_CLOEXEC;
	struct call c;
	int fd, err;

	if (chance(w, 300))
		flags |= O_NONBLOCK;
	if (chance(w, 100))
		flags |= O_NOCTTY | O_SYNC;
	call_init(&c, "open", -1, "(guest)");
	call_arg(&c, (uint64_t)flags);
	fd = open(DEV, flags);
	err = fd < 0 ? errno : 0;
	done(w, &c, OP_OPEN, err, NULL);
	if (err != EACCES)
		FAIL_AFTER(w, F_GUEST, &c, "%s, expected EACCES", tap_errname(err));
	if (fd >= 0)
		close(fd);
}

static void one_op(struct worker *w)
{
	uint32_t r = below(w, 1000);

	if (r < 560)
		op_real_ioctl(w, false);
	else if (r < 600)
		op_real_ioctl(w, true);
	else if (r < 650)
		op_magic_ioctl(w);
	else if (r < 680)
		op_random_ioctl(w);
	else if (r < 760)
		op_read(w);
	else if (r < 775)
		op_write(w);
	else if (r < 790)
		op_lseek(w);
	else if (r < 800)
		op_mmap(w);
	else if (r < 850)
		op_fds(w);
	else if (r < 900)
		op_counting(w);
	else if (r < 910)
		op_pin(w);
	else if (w->role == AS_ROOT && r == 999 && chance(w, 250))
		op_release(w);
	else
		op_real_ioctl(w, false);
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	unsigned int i;

	pthread_barrier_wait(&start_barrier);
	if (w->role == AS_GUEST) {
		while (w->st->calls < guest_quota)
			op_guest_open(w);
	} else {
		for (i = 0; i < PRIV_FDS; i++)
			reopen_private(w, i);
		while (w->st->calls < quota)
			one_op(w);
		for (i = 0; i < PRIV_FDS; i++)
			if (w->priv[i] >= 0)
				close(w->priv[i]);
	}
	w->st->done = 1;
	return NULL;
}

/* A worker process: its identity, its shared fds, its threads. */
int worker_process(unsigned int proc)
{
	static struct worker workers[MAX_THREADS];
	enum guest_user role = (enum guest_user)(proc % 3);
	unsigned char *pages;
	unsigned int t, i;

	if (!become_user(role))
		return 100;

	for (i = 0; i < SHARED_FDS; i++) {
		shared_fd[i] = -1;
		if (role == AS_GUEST)
			continue;
		shared_fd[i] = open(DEV, O_RDWR | O_CLOEXEC);
		if (shared_fd[i] < 0) {
			printf("# FAIL seed %llu proc %u (%s): open " DEV ": %s\n",
			       (ull)opt_seed, proc, user_name(role), tap_errname(errno));
			return 3;
		}
	}
	/*
	 * Everything is mapped before the threads start (see any_mapped()):
	 * per thread a buffer page, a page that runs into a PROT_NONE page,
	 * and a read-only page.
	 */
	pages = mmap(NULL, (size_t)page_size * 4 * opt_threads, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (pages == MAP_FAILED)
		return 4;
	if (pthread_barrier_init(&start_barrier, NULL, opt_threads + 1))
		return 4;
	for (t = 0; t < opt_threads; t++) {
		struct worker *w = &workers[t];
		struct armpmu_event *ro;

		w->proc = proc;
		w->thread = t;
		w->role = role;
		w->seed = thread_seed(opt_seed, proc, t);
		w->rng = w->seed;
		w->st = &sh->t[proc * opt_threads + t];
		w->st->seed = w->seed;
		w->pages = pages + (size_t)page_size * 4 * t;
		for (i = 0; i < PRIV_FDS; i++)
			w->priv[i] = -1;
		/* Input from the read-only page: a plausible event. */
		ro = (struct armpmu_event *)(w->pages + 3 * page_size);
		ro->event = ARMPMU_EV_CPU_CYCLES;
		ro->flags = EXCL_K;
		if (mprotect(w->pages + 2 * page_size, (size_t)page_size, PROT_NONE) ||
		    mprotect(w->pages + 3 * page_size, (size_t)page_size, PROT_READ))
			return 4;
	}
	for (t = 0; t < opt_threads; t++)
		if (pthread_create(&workers[t].tid, NULL, worker_main, &workers[t]))
			return 5;
	pthread_barrier_wait(&start_barrier);
	for (t = 0; t < opt_threads; t++)
		pthread_join(workers[t].tid, NULL);
	return 0;
}
