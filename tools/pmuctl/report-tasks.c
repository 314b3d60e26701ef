// SPDX-License-Identifier: GPL-2.0
/*
 * pmuctl report's threads and processes (report-tasks.h). Arrays grow by
 * doubling; the indexes map an ID to its position, so that a thread's
 * record costs the same in a file of 200,000 threads as in one of ten.
 */
#include <errno.h>
#include <search.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report-tasks.h"

void report_tasks_init(struct report_tasks *t, size_t max_maps)
{
	*t = (struct report_tasks){ .max_maps = max_maps };
}

/* Mappings compare equal where they overlap: a tree of disjoint ones. */
static int by_range(const void *a, const void *b)
{
	const struct report_map *x = a, *y = b;

	return x->end <= y->start ? -1 : x->start >= y->end ? 1 : 0;
}

static void put_maps(struct report_tasks *t, struct report_maps *m)
{
	if (m && !--m->refs) {
		t->maps -= m->n;
		tdestroy(m->root, free);
		free(m);
	}
}

void report_tasks_free(struct report_tasks *t)
{
	for (size_t i = 0; i < t->nprocs; i++)
		put_maps(t, t->procs[i].maps);
	free(t->procs);
	free(t->threads);
	report_index_free(&t->thread_index);
	report_index_free(&t->proc_index);
}

/* Room for one more of @n elements of @size in *@array, doubled as it fills: 0 or -ENOMEM. */
static int grow(void *array, size_t n, size_t size)
{
	void **p = array, *more;

	if (n & (n - 1) && n >= 16)
		return 0;	/* room left since the last doubling */
	more = realloc(*p, (n < 16 ? 16 : n * 2) * size);
	if (!more)
		return -ENOMEM;
	*p = more;
	return 0;
}

struct report_thread *report_tasks_thread(struct report_tasks *t, uint32_t pid, uint32_t tid)
{
	long at = report_index_find(&t->thread_index, tid);
	struct report_thread *th;

	if (at >= 0)
		return &t->threads[at];
	if (grow(&t->threads, t->nthreads, sizeof(*t->threads)) ||
	    report_index_add(&t->thread_index, tid, t->nthreads))
		return NULL;
	th = &t->threads[t->nthreads++];
	*th = (struct report_thread){ .tid = tid, .pid = pid };
	snprintf(th->comm, sizeof(th->comm), ":%u", tid);
	return th;
}

struct report_process *report_tasks_process(struct report_tasks *t, uint32_t pid)
{
	long at = report_index_find(&t->proc_index, pid);
	struct report_process *p;

	if (at >= 0)
		return &t->procs[at];
	if (grow(&t->procs, t->nprocs, sizeof(*t->procs)) ||
	    report_index_add(&t->proc_index, pid, t->nprocs))
		return NULL;
	p = &t->procs[t->nprocs++];
	*p = (struct report_process){ .pid = pid };
	return p;
}

struct copy {
	struct report_maps *to;
	int err;
};

static void copy_one(const void *node, VISIT v, void *closure)
{
	struct copy *c = closure;
	struct report_map *m;

	if ((v != postorder && v != leaf) || c->err)
		return;
	m = malloc(sizeof(*m));
	if (m)
		*m = **(struct report_map *const *)node;
	if (!m || !tsearch(m, &c->to->root, by_range)) {
		free(m);
		c->err = -ENOMEM;
		return;
	}
	c->to->n++;
}

/*
 * @p's mappings, its own (copied if shared): NULL, with *@err -ENOMEM or
 * -EFBIG past the bound.
 */
static struct report_maps *own_maps(struct report_tasks *t, struct report_process *p, int *err)
{
	struct report_maps *old = p->maps;
	struct copy c = { 0 };

	if (old && old->refs == 1)
		return old;
	if (old && old->n > t->max_maps - t->maps) {
		*err = -EFBIG;
		return NULL;
	}
	c.to = calloc(1, sizeof(*c.to));
	if (!c.to) {
		*err = -ENOMEM;
		return NULL;
	}
	c.to->refs = 1;
	if (old)
		twalk_r(old->root, copy_one, &c);
	t->maps += c.to->n;
	if (c.err) {
		put_maps(t, c.to);
		*err = c.err;
		return NULL;
	}
	put_maps(t, old);
	p->maps = c.to;
	return c.to;
}

int report_tasks_map(struct report_tasks *t, uint32_t pid, const struct report_map *new)
{
	struct report_process *p = report_tasks_process(t, pid);
	struct report_maps *maps;
	struct report_map *m;
	void *found;
	int err = 0;

	if (!p)
		return -ENOMEM;
	if (new->end <= new->start)
		return 0;	/* maps nothing */
	maps = own_maps(t, p, &err);
	if (!maps)
		return err;
	/* What @new overlaps goes. */
	while ((found = tfind(new, &maps->root, by_range))) {
		m = *(struct report_map **)found;
		tdelete(m, &maps->root, by_range);
		free(m);
		maps->n--;
		t->maps--;
	}
	if (t->maps >= t->max_maps)
		return -EFBIG;
	m = malloc(sizeof(*m));
	if (m)
		*m = *new;
	if (!m || !tsearch(m, &maps->root, by_range)) {
		free(m);
		return -ENOMEM;
	}
	maps->n++;
	t->maps++;
	return 0;
}

int report_tasks_fork(struct report_tasks *t, uint32_t pid, uint32_t ppid)
{
	struct report_process *child;
	struct report_maps *maps;

	if (pid == ppid)
		return 0;
	if (!report_tasks_process(t, ppid) || !(child = report_tasks_process(t, pid)))
		return -ENOMEM;
	/* The parent found again: the array may have moved. */
	maps = t->procs[report_index_find(&t->proc_index, ppid)].maps;
	if (maps)
		maps->refs++;
	put_maps(t, child->maps);
	child->maps = maps;
	return 0;
}

void report_tasks_exec(struct report_tasks *t, uint32_t pid)
{
	long at = report_index_find(&t->proc_index, pid);

	if (at < 0)
		return;
	put_maps(t, t->procs[at].maps);
	t->procs[at].maps = NULL;
}

const struct report_map *report_tasks_find_map(const struct report_tasks *t, uint32_t pid,
					       uint64_t ip)
{
	long at = report_index_find(&t->proc_index, pid);
	struct report_map key = { .start = ip, .end = ip + 1 };
	const struct report_maps *m;
	void *found;

	if (at < 0 || !(m = t->procs[at].maps) || ip == UINT64_MAX)
		return NULL;
	found = tfind(&key, &m->root, by_range);
	return found ? *(struct report_map **)found : NULL;
}
