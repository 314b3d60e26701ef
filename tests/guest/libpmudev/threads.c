// SPDX-License-Identifier: GPL-2.0
/*
 * libpmudev-test: two threads, each with its own task-mode handle at once.
 */
#include <pthread.h>

#include "common.h"

struct worker {
	pthread_barrier_t *barrier;
	int open_err, cpu, region_err;
	struct pmudev_region_counts counts;
};

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct pmudev_regions *regions;
	struct pmudev *pmu = NULL;
	int id;

	w->open_err = pmudev_open(&pmu, PMUDEV_CPU_ANY, 0);
	/* Both hold their handle here at once: each counts its own thread. */
	pthread_barrier_wait(w->barrier);
	if (w->open_err)
		return NULL;
	w->cpu = pmudev_cpu(pmu);
	pmudev_add_event(pmu, "CPU_CYCLES");
	w->region_err = pmudev_regions_new(pmu, &regions);
	if (!w->region_err) {
		id = pmudev_region(regions, "work");
		w->region_err = measure(regions, id, SPIN);
		pmudev_region_read(regions, id, &w->counts);
		pmudev_regions_free(regions);
	}
	pmudev_close(pmu);
	return NULL;
}

void test_threads(void)
{
	pthread_barrier_t barrier;
	struct worker w[2] = { { .barrier = &barrier }, { .barrier = &barrier } };
	pthread_t t[2];
	int started = 0;

	pthread_barrier_init(&barrier, NULL, 2);
	for (int i = 0; i < 2; i++)
		started += !pthread_create(&t[i], NULL, worker_main, &w[i]);
	if (!tap_check(started == 2, "threads: two threads start", "%d started", started))
		return;
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	pthread_barrier_destroy(&barrier);
	tap_check(!w[0].open_err && !w[1].open_err && w[0].cpu == -1 && w[1].cpu == -1,
		  "threads: two task-mode handles at once, on any CPUs", "errors %d %d, CPUs %d %d",
		  w[0].open_err, w[1].open_err, w[0].cpu, w[1].cpu);
	tap_check(!w[0].region_err && !w[1].region_err && w[0].counts.cycles > 0 &&
		  w[1].counts.cycles > 0, "threads: each counts its own region",
		  "%d %d, cycles %llu %llu", w[0].region_err, w[1].region_err,
		  (ull)w[0].counts.cycles, (ull)w[1].counts.cycles);
	tap_check(affinity_is(&start_affinity), "threads: the main thread was never pinned",
		  "%s", "");
}
