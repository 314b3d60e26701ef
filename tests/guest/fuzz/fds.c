// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz: the fds: open, close, dup, dup2 and BIND on private and shared
 * slots, and moving the thread between CPUs.
 */
#include "common.h"

static const int only_ok[] = { 0 };	/* no errno at all, but EBADF/EINTR */

static int do_open(struct worker *w, const char *why)
{
	struct call c;
	int fd, err;

	call_init(&c, "open", -1, why);
	fd = open(DEV, O_RDWR | O_CLOEXEC);
	err = fd < 0 ? errno : 0;
	done(w, &c, OP_OPEN, err, only_ok);
	return fd;
}

static void do_close(struct worker *w, int fd, const char *why)
{
	struct call c;
	int err;

	call_init(&c, "close", fd, why);
	err = close(fd) ? errno : 0;
	done(w, &c, OP_CLOSE, err, only_ok);
}

/* BIND @fd to a (mostly valid) CPU; the errno is the driver's to choose. */
static void do_bind(struct worker *w, int fd, const char *why)
{
	uint32_t cpu = some_cpu(w);
	struct call c;

	call_init(&c, "BIND", fd, why);
	c.req = ARMPMU_IOC_BIND;
	call_arg(&c, cpu);
	done(w, &c, OP_IOCTL, ioc_u32(fd, ARMPMU_IOC_BIND, cpu), only_not_enotty);
}

/* A fresh private fd in @slot (slot 0: never bound). */
void reopen_private(struct worker *w, unsigned int slot)
{
	if (w->priv[slot] >= 0)
		do_close(w, w->priv[slot], "(private)");
	w->priv[slot] = do_open(w, "(private)");
	w->excl[slot] = true;
	if (slot && w->priv[slot] >= 0 && chance(w, 500))
		do_bind(w, w->priv[slot], "(private)");
}

/*
 * A new file for a shared slot. dup2() swaps it in atomically: other
 * threads may be inside a call on the old file (its release comes when they
 * leave), but the slot's number never goes free, so it can never be reused
 * by another thread's open() and shared calls never land on a private file.
 */
static void replace_shared(struct worker *w)
{
	unsigned int i = below(w, SHARED_FDS);
	struct call c;
	int fd, err;

	fd = do_open(w, "(new shared)");
	if (fd < 0)
		return;
	if (chance(w, 500))
		do_bind(w, fd, "(new shared)");
	call_init(&c, "dup2", fd, "(new shared)");
	call_arg(&c, (uint64_t)shared_fd[i]);
	err = dup2(fd, shared_fd[i]) < 0 ? errno : 0;
	done(w, &c, OP_DUP2, err, only_ok);
	do_close(w, fd, "(new shared)");
}

void op_fds(struct worker *w)
{
	unsigned int slot = 1 + below(w, PRIV_FDS - 1), from;
	uint32_t r = below(w, 100);
	struct call c;
	int fd, err;

	if (r < 35) {
		reopen_private(w, chance(w, 150) ? 0 : slot);
	} else if (r < 50) {
		if (w->priv[slot] >= 0)
			do_close(w, w->priv[slot], "(private)");
		w->priv[slot] = -1;
	} else if (r < 75) {
		/* A private fd sharing a file with a shared slot or another slot. */
		from = 1 + below(w, PRIV_FDS - 1);
		if (chance(w, 500) || w->priv[from] < 0 || from == slot) {
			fd = shared_fd[below(w, SHARED_FDS)];
			from = 0;
		} else {
			fd = w->priv[from];
		}
		call_init(&c, "dup", fd, from ? "(private)" : "(shared)");
		if (w->priv[slot] >= 0)
			do_close(w, w->priv[slot], "(private)");
		w->priv[slot] = dup(fd);
		err = w->priv[slot] < 0 ? errno : 0;
		done(w, &c, OP_DUP, err, only_ok);
		w->excl[slot] = from && w->excl[from];
	} else {
		replace_shared(w);
	}
}

/* Moves the thread now and then, so that calls run locally and remotely. */
void op_pin(struct worker *w)
{
	cpu_set_t set;
	unsigned int i;

	CPU_ZERO(&set);
	if (chance(w, 300)) {
		for (i = 0; i < ncpus; i++)
			CPU_SET(i, &set);
	} else {
		CPU_SET(below(w, ncpus), &set);
	}
	/* An offline CPU gives EINVAL: the thread then stays where it is. */
	sched_setaffinity(0, sizeof(set), &set);
}
