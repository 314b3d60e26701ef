// SPDX-License-Identifier: GPL-2.0
/*
 * libpmudev-test: an unbound handle refuses the counter calls until
 * pmudev_attach() gives it a thread; PMUDEV_OPEN_FOLLOW counts threads
 * created later, with complete coverage.
 */
#include <pthread.h>

#include "common.h"

void test_unbound(void)
{
	struct armpmu_counts counts;
	struct armpmu_cpu_status st;
	struct pmudev_regions *regions;
	struct pmudev *pmu;
	int ret;

	ret = pmudev_open(&pmu, PMUDEV_CPU_ANY, PMUDEV_OPEN_UNBOUND);
	if (!tap_errno(err_of(ret), 0, "unbound: open"))
		return;
	tap_check(pmudev_cpu(pmu) == -1 && pmudev_info(pmu) &&
		  pmudev_info(pmu)->num_counters == board->num_counters &&
		  affinity_is(&start_affinity),
		  "unbound: no CPU, the caller's CPU's info, no pinning", "cpu %d",
		  pmudev_cpu(pmu));
	tap_errno(err_of(pmudev_select(pmu, 0)), EBADFD, "unbound: select gives -EBADFD");
	tap_errno(err_of(pmudev_set_event(pmu, 0x11, 0)), EBADFD,
		  "unbound: set_event gives -EBADFD");
	tap_errno(err_of(pmudev_set_divider(pmu, true)), EBADFD,
		  "unbound: set_divider gives -EBADFD");
	tap_errno(err_of(pmudev_set_value(pmu, 0, 1)), EBADFD,
		  "unbound: set_value gives -EBADFD");
	tap_errno(err_of(pmudev_set_cycle_filter(pmu, 0)), EBADFD,
		  "unbound: set_cycle_filter gives -EBADFD");
	tap_errno(err_of(pmudev_reset(pmu)), EBADFD, "unbound: reset gives -EBADFD");
	tap_errno(err_of(pmudev_start(pmu)), EBADFD, "unbound: start gives -EBADFD");
	tap_errno(err_of(pmudev_stop(pmu)), EBADFD, "unbound: stop gives -EBADFD");
	tap_errno(err_of(pmudev_read(pmu, &counts)), EBADFD, "unbound: read gives -EBADFD");
	tap_errno(err_of(pmudev_add_event(pmu, "cycles")), EBADFD,
		  "unbound: add_event gives -EBADFD");
	tap_errno(err_of(pmudev_regions_new(pmu, &regions)), EBADFD,
		  "unbound: regions_new gives -EBADFD");
	tap_check(!pmudev_counter_name(pmu, ARMPMU_CYCLE_COUNTER),
		  "unbound: no counter names", "%s", "");
	/* Nothing above may have bound the file: CPU 0 is still free. */
	ret = pmudev_cpu_status(pmu, 0, &st);
	tap_check(!ret && !(st.flags & ARMPMU_CPU_OWNED),
		  "unbound: the refused calls bound nothing", "%s, flags %#x",
		  tap_errname(err_of(ret)), st.flags);
	tap_errno(err_of(pmudev_attach(pmu, -1, 0)), EINVAL, "attach: -EINVAL for tid -1");
	tap_errno(err_of(pmudev_attach(pmu, 0, 1U << 7)), EINVAL,
		  "attach: -EINVAL for an undefined flag");
	tap_errno(err_of(pmudev_attach(pmu, 0x3fffffff, 0)), ESRCH,
		  "attach: -ESRCH for no such thread");
	tap_errno(err_of(pmudev_attach(pmu, 0, PMUDEV_ATTACH_FOLLOW)), 0,
		  "attach: the calling thread, with FOLLOW");
	tap_errno(err_of(pmudev_attach(pmu, 0, 0)), EALREADY, "attach: -EALREADY a second time");
	tap_errno(err_of(pmudev_select(pmu, 0)), 0, "attach: counter calls work after it");
	pmudev_close(pmu);
	ret = pmudev_open(&pmu, PMUDEV_CPU_ANY, 0);
	if (tap_errno(err_of(ret), 0, "attach: open task mode")) {
		tap_errno(err_of(pmudev_attach(pmu, 0, 0)), EALREADY,
			  "attach: -EALREADY on a handle already in task mode");
		pmudev_close(pmu);
	}
}

static void *follow_worker(void *arg)
{
	loop_n(*(unsigned long *)arg);
	return NULL;
}

/*
 * PMUDEV_OPEN_FOLLOW: a thread created after the open is counted into the
 * same counts; complete counts have coverage 1.
 */
void test_follow(void)
{
	unsigned long trips = 4 * SPIN;
	struct armpmu_counts c;
	struct pmudev *pmu;
	pthread_t t;
	int ev, ret;

	ret = pmudev_open(&pmu, PMUDEV_CPU_ANY, PMUDEV_OPEN_FOLLOW);
	if (!tap_errno(err_of(ret), 0, "follow: open with PMUDEV_OPEN_FOLLOW"))
		return;
	ev = pmudev_add_event(pmu, icount ? "instructions:u" : "CPU_CYCLES:u");
	ret = ev < 0 ? ev : pmudev_start(pmu);
	if (!ret && !pthread_create(&t, NULL, follow_worker, &trips))
		pthread_join(t, NULL);
	ret = ret ? ret : pmudev_stop(pmu);
	ret = ret ? ret : pmudev_read(pmu, &c);
	tap_note("follow: %llu with a thread of %lu trips, enabled %llu ns, running %llu ns",
		 ret ? 0ULL : (ull)c.events[ev], trips,
		 ret ? 0ULL : (ull)c.time_enabled,
		 ret ? 0ULL : (ull)c.time_running);
	tap_check(!ret && c.events[ev] >= (icount ? LOOP_INSNS_PER_ITER * trips : 1),
		  "follow: the new thread's loop is counted",
		  "%s: %llu", tap_errname(err_of(ret)), ret ? 0ULL : (ull)c.events[ev]);
	tap_check(!ret && c.time_enabled > 0 && pmudev_coverage(&c) == 1.0 &&
		  !(c.flags & ARMPMU_COUNTS_INCOMPLETE),
		  "coverage: complete counts, time_enabled > 0, pmudev_coverage() 1", "%s",
		  tap_errname(err_of(ret)));
	pmudev_close(pmu);
}
