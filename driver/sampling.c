// SPDX-License-Identifier: GPL-2.0
/*
 * Sampling: a task-mode file's ring of records (ARMPMU_IOC_SET_SAMPLING,
 * READ_SAMPLES and poll(2); uapi/linux/armpmu.h says what they mean).
 *
 * Locking: every write to a ring, and every change of its offsets and
 * tallies, is made under the file's count_lock with interrupts off: by the
 * sampling tick (task_cpu.c's per-CPU timer, in hard interrupt context),
 * by task mode's probes (FORK, EXEC, EXIT, LET_GO) and by the reader when
 * it takes records out. The reader, who holds the file's mutex (as does
 * SET_SAMPLING, which replaces the ring), copies the records it takes to
 * user space without the lock: the bytes between the read offset and the
 * write offset are written before they are counted in @used, and only the
 * reader makes them free again. A ring is replaced or freed only while
 * the file neither counts nor is armed, when no tick or probe writes to it
 * (task mode's STOP and close cancel the ticks on every CPU first).
 * Nothing here sleeps but the process-context calls; wake-ups from a tick
 * go through an irq_work, as perf's do.
 *
 * A sampled thread's own state (struct armpmu_sample_thread) lives in its
 * link and is touched only on its CPU with interrupts off; it refers to
 * its totals as they were at its previous sample (@base), valid while the
 * file's sampling gen is the one it was set up with.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/irq_work.h>
#include <linux/moduleparam.h>
#include <linux/pid_namespace.h>
#include <linux/poll.h>
#include <linux/ptrace.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/timekeeping.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>
#include <asm/irq_regs.h>
#include "armpmu.h"

static unsigned int sample_rate_max = 10000;
module_param(sample_rate_max, uint, 0644);
MODULE_PARM_DESC(sample_rate_max,
		 "highest sampling rate a file may ask for, per CPU, in Hz: SET_SAMPLING refuses a shorter period with ERANGE (default 10000; 0 refuses all sampling)");

static unsigned int sample_ring_kb_max = 1024;
module_param(sample_ring_kb_max, uint, 0644);
MODULE_PARM_DESC(sample_ring_kb_max,
		 "largest ring of samples a file may ask for, in KiB: SET_SAMPLING refuses more with E2BIG (default 1024)");

/* An internal record: the ring's tail end, skipped by the reader. */
#define RECORD_PAD	0

struct armpmu_sampler {
	u64 period_ns;
	u32 flags;
	u32 size;		/* bytes, whole pages */
	u32 quarter;		/* poll(2) says POLLIN from this many bytes */
	u32 wr;			/* where the next record goes */
	u32 rd;			/* where the reader takes the next one */
	u32 used;		/* bytes from @rd to @wr, pads included */
	kuid_t charged_to;	/* the user @charged is charged to */
	u32 charged;		/* bytes: the ring and @chain */
	bool ended;		/* no counted thread is left */
	u64 dropped;		/* since the last LOST record */
	u64 recorded;
	u64 lost;
	u32 max_stack;		/* ARMPMU_SAMPLING_CALLCHAIN: @chain's entries */
	u64 *chain;		/* a tick's walk, before its record's size is known */
	char *ring;
	struct armpmu_session *s;
	struct irq_work wake;	/* wakes the file's readers from a tick */
};

static void wake_readers(struct irq_work *work)
{
	struct armpmu_sampler *r = container_of(work, struct armpmu_sampler, wake);

	wake_up_all(&r->s->sampling.wait);
}

void armpmu_sampling_init(struct armpmu_session *s)
{
	init_waitqueue_head(&s->sampling.wait);
	s->sampling.gen = 1;
}

/* A ring no file holds, or none (process context). */
void armpmu_sampling_free(struct armpmu_sampler *r)
{
	if (r) {
		irq_work_sync(&r->wake);
		kfree(r->chain);
		vfree(r->ring);
		armpmu_ring_uncharge(r->charged_to, r->charged);
		kfree(r);
	}
}

/* The file is closing: no thread is counted, no tick or probe writes. */
void armpmu_sampling_release(struct armpmu_session *s)
{
	if (!s->sampling.sampler)
		return;
	armpmu_sampling_free(s->sampling.sampler);
	s->sampling.sampler = NULL;
}

/* SET_SAMPLING's checks of its argument alone: EINVAL, ERANGE, E2BIG, EACCES. */
int armpmu_sampling_check(const struct armpmu_sampling *arg, bool kernel_allowed)
{
	unsigned int rate = READ_ONCE(sample_rate_max);

	if ((arg->flags & ~ARMPMU_SAMPLING_FLAGS) || arg->reserved[0] || arg->reserved[1] ||
	    arg->reserved[2] || (arg->max_stack && !(arg->flags & ARMPMU_SAMPLING_CALLCHAIN)))
		return -EINVAL;
	if (!arg->period_ns)
		return 0;
	if (arg->ring_bytes < PAGE_SIZE)
		return -EINVAL;
	if (!rate || arg->period_ns < NSEC_PER_SEC / rate ||
	    arg->period_ns > ARMPMU_SAMPLING_PERIOD_MAX)
		return -ERANGE;
	if (arg->ring_bytes > (u64)READ_ONCE(sample_ring_kb_max) * 1024 ||
	    arg->max_stack > armpmu_callchain_max())
		return -E2BIG;
	if ((arg->flags & ARMPMU_SAMPLING_KERNEL) && !kernel_allowed)
		return -EACCES;
	return 0;
}

/*
 * SET_SAMPLING's new ring for @s (checked by armpmu_sampling_check), not
 * yet the file's: NULL for period 0, or an ERR_PTR (EPERM past the user's
 * ring memory, ENOMEM). The mode
 * installs it with armpmu_sampling_swap if the file may change now.
 */
struct armpmu_sampler *armpmu_sampling_new(struct armpmu_session *s,
					   const struct armpmu_sampling *arg)
{
	struct armpmu_sampler *r;
	int ret;

	if (!arg->period_ns)
		return NULL;
	r = kzalloc(sizeof(*r), GFP_KERNEL_ACCOUNT);
	if (!r)
		return ERR_PTR(-ENOMEM);
	r->size = PAGE_ALIGN(arg->ring_bytes);
	r->charged = r->size;
	if (arg->flags & ARMPMU_SAMPLING_CALLCHAIN) {
		/* 0: the module's depth, taken now (it may change later). */
		r->max_stack = arg->max_stack ? arg->max_stack : armpmu_callchain_max();
		r->charged += max(r->max_stack, 1U) * sizeof(*r->chain);
	}
	/* Charged to the opener's user before it is taken (ring_charge.c). */
	ret = armpmu_ring_charge(s, r->charged, &r->charged_to);
	if (ret) {
		kfree(r);
		return ERR_PTR(ret);
	}
	r->ring = __vmalloc(r->size, GFP_KERNEL_ACCOUNT | __GFP_ZERO);
	if (arg->flags & ARMPMU_SAMPLING_CALLCHAIN)
		r->chain = kmalloc_array(max(r->max_stack, 1U), sizeof(*r->chain),
					 GFP_KERNEL_ACCOUNT);
	if (!r->ring || ((arg->flags & ARMPMU_SAMPLING_CALLCHAIN) && !r->chain)) {
		vfree(r->ring);
		kfree(r->chain);
		armpmu_ring_uncharge(r->charged_to, r->charged);
		kfree(r);
		return ERR_PTR(-ENOMEM);
	}
	r->quarter = r->size / 4;
	r->period_ns = arg->period_ns;
	r->flags = arg->flags;
	r->s = s;
	init_irq_work(&r->wake, wake_readers);
	return r;
}

/*
 * The mode's change (under count_lock, the file neither counting nor
 * armed): *@arg, a struct armpmu_sampler * from armpmu_sampling_new,
 * becomes the file's, and *@arg the ring it replaces, for
 * armpmu_sampling_free once the lock is dropped.
 */
int armpmu_sampling_swap(struct armpmu_session *s, void *arg)
{
	struct armpmu_sampler **r = arg, *old = s->sampling.sampler;

	lockdep_assert_held(&s->count_lock);
	s->sampling.sampler = *r;
	*r = old;
	armpmu_sampling_rebase(s);
	return 0;
}

/* The sampling period of a sampled file; under its count_lock. */
u64 armpmu_sampling_period(const struct armpmu_session *s)
{
	return s->sampling.sampler->period_ns;
}

/*
 * @size contiguous bytes at the write offset, or NULL if the ring has no
 * room: the ring's tail end, too short, is padded and skipped.
 */
static void *take_room(struct armpmu_sampler *r, u32 size)
{
	u32 end = r->size - r->wr, need = size;
	struct armpmu_record *pad;
	void *p;

	if (end < size)
		need += end;
	if (r->used + need > r->size)
		return NULL;
	if (end < size) {
		pad = (struct armpmu_record *)(r->ring + r->wr);
		pad->type = RECORD_PAD;
		pad->size = end;
		r->used += end;
		r->wr = 0;
	}
	p = r->ring + r->wr;
	r->wr += size;
	if (r->wr == r->size)
		r->wr = 0;
	return p;
}

/* A record's header; @time from CLOCK_MONOTONIC, as every record's. */
static void fill_head(struct armpmu_record *h, u16 type, u16 size, u32 pid, u32 tid, u64 time)
{
	h->type = type;
	h->size = size;
	h->cpu = raw_smp_processor_id();
	h->pid = pid;
	h->tid = tid;
	h->time = time;
}

/*
 * A record of @size is complete at @p: count it in, and wake the reader
 * when the ring reaches a quarter.
 */
static void put(struct armpmu_session *s, struct armpmu_sampler *r, u32 size)
{
	u32 before = r->used;

	r->used += size;
	if (before < r->quarter && r->used >= r->quarter)
		irq_work_queue(&r->wake);
}

/* A LOST record for the records dropped since the last one, if it fits. */
static bool put_lost(struct armpmu_session *s, struct armpmu_sampler *r)
{
	struct armpmu_lost *l = take_room(r, sizeof(*l));

	if (!l)
		return false;
	fill_head(&l->head, ARMPMU_RECORD_LOST, sizeof(*l), 0, 0, ktime_get_ns());
	l->lost = r->dropped;
	r->dropped = 0;
	put(s, r, sizeof(*l));
	return true;
}

/* Room for a record, the LOST record it owes first; NULL (counted) if none. */
static void *reserve(struct armpmu_session *s, struct armpmu_sampler *r, u32 size)
{
	void *p = NULL;

	if (likely(!r->dropped) || put_lost(s, r))
		p = take_room(r, size);
	if (!p) {
		r->dropped++;
		r->lost++;
	}
	return p;
}

static struct pid_namespace *opener_ns(const struct armpmu_session *s)
{
	return ns_of_pid(s->opener_tgid);
}

/* Who @task is, seen from the opener's PID namespace (0: not there). */
static void name_thread(const struct armpmu_session *s, struct armpmu_sample_thread *st,
			struct task_struct *task)
{
	struct pid_namespace *ns = opener_ns(s);

	st->pid = task_tgid_nr_ns(task, ns);
	st->tid = task_pid_nr_ns(task, ns);
}

/* The thread's totals were zeroed or set since its state was: from 0. */
static void sync_thread(const struct armpmu_session *s, struct armpmu_sample_thread *st)
{
	if (likely(st->gen == s->sampling.gen))
		return;
	st->gen = s->sampling.gen;
	memset(st->base, 0, sizeof(st->base));
	st->ran_ns = 0;
	st->incomplete = false;
	st->left_ns = s->sampling.sampler->period_ns;
}

/*
 * A sampled thread comes in (counters @loaded or not), at task clock @now:
 * its timer is then armed for st->left_ns. Under count_lock.
 */
void armpmu_sampling_start(struct armpmu_session *s, struct armpmu_sample_thread *st,
			   struct task_struct *task, bool loaded, u64 now)
{
	sync_thread(s, st);
	if (unlikely(!st->tid))
		name_thread(s, st, task);
	if (!loaded)
		st->incomplete = true;
	st->in_ns = now;
}

/* The thread goes out at @now, its timer cancelled: the rest of its period is kept. */
void armpmu_sampling_stop(struct armpmu_sample_thread *st, u64 now)
{
	u64 ran = now - st->in_ns;

	st->ran_ns += ran;
	st->left_ns = st->left_ns > ran ? st->left_ns - ran : 0;
}

/*
 * The tick: a sampled thread ran a period. It interrupted the thread in
 * user mode (or, for a file allowed the kernel's, in kernel mode): a
 * sample of what the thread counted since its previous one, from its
 * totals @total (just folded in; NULL if the file keeps none for it),
 * stamped @time (CLOCK_MONOTONIC, which the timer read for itself too). A
 * tick that records nothing leaves the time and counts to the next
 * sample. Under count_lock, in hard interrupt context.
 */
void armpmu_sampling_tick(struct armpmu_session *s, struct armpmu_sample_thread *st,
			  const u64 *total, bool loaded, u64 now, u64 time)
{
	struct armpmu_sampler *r = s->sampling.sampler;
	struct pt_regs *regs = get_irq_regs();
	struct armpmu_callchain chain;
	struct armpmu_sample *smp;
	u32 nr, i, flags = 0;
	u16 size;

	sync_thread(s, st);
	st->ran_ns += now - st->in_ns;
	st->in_ns = now;
	st->left_ns = r->period_ns;
	if (!loaded)
		st->incomplete = true;
	if (!regs)
		return;
	if (!user_mode(regs)) {
		if (!(r->flags & ARMPMU_SAMPLING_KERNEL))
			return;
		flags |= ARMPMU_SAMPLE_KERNEL;
	}
	nr = fls(s->cfg.programmed);
	size = ARMPMU_SAMPLE_SIZE(nr);
	if ((r->flags & ARMPMU_SAMPLING_CALLCHAIN) && !(flags & ARMPMU_SAMPLE_KERNEL)) {
		armpmu_callchain_walk(regs, r->chain, r->max_stack, &chain);
		flags |= ARMPMU_SAMPLE_CALLCHAIN;
		size += ARMPMU_CALLCHAIN_SIZE(chain.nr);
	}
	smp = reserve(s, r, size);
	if (st->incomplete || !total)
		flags |= ARMPMU_SAMPLE_INCOMPLETE;
	st->incomplete = !loaded;
	if (smp) {
		fill_head(&smp->head, ARMPMU_RECORD_SAMPLE, size, st->pid, st->tid, time);
		smp->ip = instruction_pointer(regs);
		smp->flags = flags;
		smp->nr = nr;
		smp->period = st->ran_ns;
		if (flags & ARMPMU_SAMPLE_CALLCHAIN) {
			struct armpmu_callchain *c = (void *)&smp->value[nr];

			*c = chain;
			memcpy(c->ret, r->chain, chain.nr * sizeof(c->ret[0]));
		}
		r->recorded++;
		put(s, r, size);
	}
	st->ran_ns = 0;
	/* Each value once: into the sample, and as the next one's base. */
	if (!total) {
		if (smp) {
			smp->cycles = 0;
			memset(smp->value, 0, nr * sizeof(smp->value[0]));
		}
		return;
	}
	if (smp) {
		smp->cycles = total[ARMPMU_CYCLE_IDX] - st->base[ARMPMU_CYCLE_IDX];
		for (i = 0; i < nr; i++) {
			smp->value[i] = total[i] - st->base[i];
			st->base[i] = total[i];
		}
	} else {
		memcpy(st->base, total, nr * sizeof(st->base[0]));
	}
	st->base[ARMPMU_CYCLE_IDX] = total[ARMPMU_CYCLE_IDX];
}

/*
 * A FORK (@task, made by @parent), EXEC, EXIT or LET_GO record of a
 * thread of a running sampled file; @st is the thread's state, if it has
 * one yet. Any context; takes count_lock.
 */
void armpmu_sampling_task(struct armpmu_session *s, struct armpmu_sample_thread *st,
			  u16 type, struct task_struct *task, struct task_struct *parent)
{
	struct pid_namespace *ns = opener_ns(s);
	struct armpmu_task_record *t;
	struct armpmu_sampler *r;
	unsigned long flags;

	raw_spin_lock_irqsave(&s->count_lock, flags);
	r = s->sampling.sampler;
	if (!r || !s->running)
		goto out;
	/* An exec may have made a thread its process's leader: a new tid. */
	if (st && (type == ARMPMU_RECORD_EXEC || !st->tid))
		name_thread(s, st, task);
	t = reserve(s, r, sizeof(*t));
	if (!t)
		goto out;
	fill_head(&t->head, type, sizeof(*t), task_tgid_nr_ns(task, ns),
		  task_pid_nr_ns(task, ns), ktime_get_ns());
	t->ppid = parent ? task_tgid_nr_ns(parent, ns) : 0;
	t->ptid = parent ? task_pid_nr_ns(parent, ns) : 0;
	if (type == ARMPMU_RECORD_LET_GO && st && st->comm[0])
		memcpy(t->comm, st->comm, sizeof(t->comm));
	else
		strscpy_pad(t->comm, task->comm, sizeof(t->comm));
	put(s, r, sizeof(*t));
out:
	raw_spin_unlock_irqrestore(&s->count_lock, flags);
}

/* The file's last counted thread has gone: no record will come. Takes count_lock. */
void armpmu_sampling_ended(struct armpmu_session *s)
{
	struct armpmu_sampler *r;
	unsigned long flags;

	raw_spin_lock_irqsave(&s->count_lock, flags);
	r = s->sampling.sampler;
	if (r && !r->ended) {
		r->ended = true;
		irq_work_queue(&r->wake);
	}
	raw_spin_unlock_irqrestore(&s->count_lock, flags);
}

/*
 * The run of records gathered from @*start (@*run bytes) to user memory
 * after the @*out bytes already there; the next run starts at the ring's
 * beginning. 0 or -EFAULT.
 */
static int copy_run(const struct armpmu_sampler *r, char __user *to, u32 *out, u32 *start,
		    u32 *run)
{
	if (*run && copy_to_user(to + *out, r->ring + *start, *run))
		return -EFAULT;
	*out += *run;
	*run = 0;
	*start = 0;
	return 0;
}

/*
 * READ_SAMPLES: whole records from the ring into the room after @arg
 * (@hdr as read from it, its size checked), then the header. The header
 * is written back unchanged first, so that a header that cannot be
 * written leaves the records in the ring. Process context, the file's
 * mutex held: the only reader.
 */
int armpmu_sampling_read(struct armpmu_session *s, struct armpmu_samples *hdr,
			 struct armpmu_samples __user *arg)
{
	struct armpmu_sampler *r = s->sampling.sampler;
	char __user *to = (char __user *)(arg + 1);
	u32 off, left, taken = 0, out = 0, run = 0, start;
	int ret;

	if (copy_to_user(arg, hdr, sizeof(*hdr)))
		return -EFAULT;
	raw_spin_lock_irq(&s->count_lock);
	off = r->rd;
	left = r->used;
	raw_spin_unlock_irq(&s->count_lock);
	start = off;
	while (left) {
		const struct armpmu_record *h = (const void *)(r->ring + off);
		u32 size = h->size;

		if (WARN_ON_ONCE(!size || size > left || size > r->size - off))
			break;
		if (h->type == RECORD_PAD) {
			ret = copy_run(r, to, &out, &start, &run);
			if (ret)
				return ret;
			off = 0;
			left -= size;
			taken += size;
			continue;
		}
		if (out + run + size > hdr->size) {
			/* Not even one: the caller's room is too small for it. */
			if (!out && !run)
				return -ENOSPC;
			break;
		}
		run += size;
		off += size;
		left -= size;
		taken += size;
		if (off == r->size) {
			ret = copy_run(r, to, &out, &start, &run);
			if (ret)
				return ret;
			off = 0;
		}
	}
	ret = copy_run(r, to, &out, &start, &run);
	if (ret)
		return ret;

	raw_spin_lock_irq(&s->count_lock);
	r->rd = off;
	r->used -= taken;
	if (r->dropped)
		put_lost(s, r);
	hdr->size = out;
	hdr->flags = r->ended ? ARMPMU_SAMPLES_ENDED : 0;
	hdr->recorded = r->recorded;
	hdr->lost = r->lost;
	hdr->pending = r->used;
	raw_spin_unlock_irq(&s->count_lock);
	return copy_to_user(arg, hdr, sizeof(*hdr)) ? -EFAULT : 0;
}

/* poll(2): the file's mutex held. */
__poll_t armpmu_sampling_poll(struct armpmu_session *s)
{
	struct armpmu_sampler *r = s->sampling.sampler;
	__poll_t mask = 0;

	if (!r)
		return 0;
	raw_spin_lock_irq(&s->count_lock);
	if (r->used >= r->quarter || (r->ended && r->used))
		mask = EPOLLIN | EPOLLRDNORM;
	raw_spin_unlock_irq(&s->count_lock);
	return mask;
}
