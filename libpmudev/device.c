// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Opening /dev/armpmu, choosing and pinning a CPU, and one thin function per
 * driver operation.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "internal.h"

#define DEVICE_PATH "/dev/armpmu"

static int ioctl_errno(int fd, unsigned long req, void *arg)
{
	return ioctl(fd, req, arg) < 0 ? -errno : 0;
}

static int bind_cpu(int fd, int cpu)
{
	__u32 arg = cpu;

	return ioctl_errno(fd, ARMPMU_IOC_BIND, &arg);
}

/* These say "try another CPU"; anything else is the caller's problem. */
static bool cpu_unavailable(int err)
{
	return err == -EBUSY || err == -ENXIO || err == -ENODEV;
}

static int bind_any(int fd, const cpu_set_t *allowed)
{
	int here = sched_getcpu();
	int err = bind_cpu(fd, here);

	for (int cpu = 0; cpu < CPU_SETSIZE && cpu_unavailable(err); cpu++) {
		if (cpu == here || !CPU_ISSET(cpu, allowed))
			continue;
		err = bind_cpu(fd, cpu);
	}
	return err;
}

static int pin(pid_t tid, int cpu)
{
	cpu_set_t one;

	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	return sched_setaffinity(tid, sizeof(one), &one) ? -errno : 0;
}

/* The cycle counter's column name follows its mode and divider. */
static void name_cycles(struct pmudev *pmu)
{
	snprintf(pmu->cycles_name, sizeof(pmu->cycles_name), "cycles%s%s",
		 pmu->divided ? "/64" : "", pmudev_mode_suffix(pmu->cycle_flags));
}

int pmudev_open(struct pmudev **out, int cpu, unsigned int flags)
{
	struct pmudev *pmu;
	int err;

	if (cpu < PMUDEV_CPU_ANY || (flags & ~(PMUDEV_OPEN_NO_PIN | PMUDEV_OPEN_UNBOUND)))
		return -EINVAL;
	if ((flags & PMUDEV_OPEN_UNBOUND) && cpu != PMUDEV_CPU_ANY)
		return -EINVAL;
	pmu = calloc(1, sizeof(*pmu));
	if (!pmu)
		return -ENOMEM;
	pmu->tid = gettid();
	pmu->fd = open(DEVICE_PATH, O_RDWR | O_CLOEXEC);
	if (pmu->fd < 0) {
		err = -errno;
		goto free;
	}
	if (flags & PMUDEV_OPEN_UNBOUND) {
		pmu->unbound = true;
		*out = pmu;
		return 0;
	}
	if (sched_getaffinity(pmu->tid, sizeof(pmu->affinity), &pmu->affinity)) {
		err = -errno;
		goto close;
	}
	err = cpu == PMUDEV_CPU_ANY ? bind_any(pmu->fd, &pmu->affinity) :
				      bind_cpu(pmu->fd, cpu);
	if (err)
		goto close;
	err = ioctl_errno(pmu->fd, ARMPMU_IOC_INFO, &pmu->info);
	if (err)
		goto close;
	pmu->cycle_flags = pmu->info.flags & ARMPMU_INFO_KERNEL_ALLOWED ?
			   0 : ARMPMU_EXCLUDE_KERNEL;
	name_cycles(pmu);
	if (!(flags & PMUDEV_OPEN_NO_PIN)) {
		err = pin(pmu->tid, pmu->info.cpu);
		if (err)
			goto close;
		pmu->pinned = true;
	}
	*out = pmu;
	return 0;

close:
	close(pmu->fd);
free:
	free(pmu);
	return err;
}

void pmudev_close(struct pmudev *pmu)
{
	if (!pmu)
		return;
	if (pmu->pinned)
		sched_setaffinity(pmu->tid, sizeof(pmu->affinity), &pmu->affinity);
	close(pmu->fd);
	for (unsigned int i = 0; i < ARMPMU_MAX_COUNTERS; i++)
		free(pmu->counter_name[i]);
	free(pmu);
}

int pmudev_cpu(const struct pmudev *pmu)
{
	return pmu->unbound ? -1 : (int)pmu->info.cpu;
}

int pmudev_fd(const struct pmudev *pmu)
{
	return pmu->fd;
}

const struct armpmu_info *pmudev_info(const struct pmudev *pmu)
{
	return pmu->unbound ? NULL : &pmu->info;
}

int pmudev_cpu_status(struct pmudev *pmu, unsigned int cpu,
		      struct armpmu_cpu_status *status)
{
	memset(status, 0, sizeof(*status));
	status->cpu = cpu;
	return ioctl_errno(pmu->fd, ARMPMU_IOC_CPU_STATUS, status);
}

int pmudev_release_cpu(struct pmudev *pmu, unsigned int cpu)
{
	__u32 arg = cpu;

	return ioctl_errno(pmu->fd, ARMPMU_IOC_RELEASE, &arg);
}

/*
 * The driver binds an unbound file on its first counter operation: an
 * UNBOUND handle must never get that far.
 */
static int bound_ioctl(struct pmudev *pmu, unsigned long req, void *arg)
{
	return pmu->unbound ? -EBADFD : ioctl_errno(pmu->fd, req, arg);
}

static int bound_ioctl_u32(struct pmudev *pmu, unsigned long req, uint32_t val)
{
	__u32 arg = val;

	return bound_ioctl(pmu, req, &arg);
}

int pmudev_select(struct pmudev *pmu, unsigned int counter)
{
	return bound_ioctl_u32(pmu, ARMPMU_IOC_SELECT, counter);
}

int pmudev_set_event(struct pmudev *pmu, uint32_t event, uint32_t flags)
{
	struct armpmu_event ev = { .event = event, .flags = flags };

	return bound_ioctl(pmu, ARMPMU_IOC_SET_EVENT, &ev);
}

/* The divider and the filter are kept for the cycle counter's name. */
static int set_cycle_mode(struct pmudev *pmu, unsigned long req, uint32_t arg,
			  bool divided, uint32_t flags)
{
	int err = bound_ioctl_u32(pmu, req, arg);

	if (!err) {
		pmu->divided = divided;
		pmu->cycle_flags = flags;
		name_cycles(pmu);
	}
	return err;
}

int pmudev_set_divider(struct pmudev *pmu, bool every_64_cycles)
{
	return set_cycle_mode(pmu, ARMPMU_IOC_SET_DIVIDER, every_64_cycles, every_64_cycles,
			      pmu->cycle_flags);
}

int pmudev_set_value(struct pmudev *pmu, unsigned int counter, uint64_t value)
{
	struct armpmu_value val = { .counter = counter, .value = value };

	return bound_ioctl(pmu, ARMPMU_IOC_SET_VALUE, &val);
}

int pmudev_set_cycle_filter(struct pmudev *pmu, uint32_t flags)
{
	return set_cycle_mode(pmu, ARMPMU_IOC_SET_CYCLE_FILTER, flags, pmu->divided, flags);
}

int pmudev_reset(struct pmudev *pmu)
{
	return bound_ioctl(pmu, ARMPMU_IOC_RESET, NULL);
}

int pmudev_start(struct pmudev *pmu)
{
	return bound_ioctl(pmu, ARMPMU_IOC_START, NULL);
}

int pmudev_stop(struct pmudev *pmu)
{
	return bound_ioctl(pmu, ARMPMU_IOC_STOP, NULL);
}

/* read(2), not the READ ioctl: same snapshot, fewer instructions. */
int pmudev_read(struct pmudev *pmu, struct armpmu_counts *counts)
{
	ssize_t n;

	if (pmu->unbound)
		return -EBADFD;
	n = read(pmu->fd, counts, sizeof(*counts));
	if (n < 0)
		return -errno;
	return n == sizeof(*counts) ? 0 : -EIO;
}

static int add_cycles(struct pmudev *pmu, const struct pmudev_event *ev)
{
	int err = pmudev_set_cycle_filter(pmu, ev->flags);

	return err ? err : ARMPMU_CYCLE_COUNTER;
}

static int free_counter(const struct pmudev *pmu)
{
	for (int counter = pmu->info.num_counters - 1; counter >= 0; counter--)
		if (!(pmu->used & (1U << counter)))
			return counter;
	return -ENOSPC;
}

int pmudev_add_event(struct pmudev *pmu, const char *spec)
{
	struct pmudev_event ev;
	int counter, err;
	char *name;

	if (pmu->unbound)
		return -EBADFD;
	err = pmudev_event_parse(spec, &pmu->info, &ev);
	if (err)
		return err;
	if (pmudev_spec_is_cycles(spec))
		return add_cycles(pmu, &ev);
	counter = free_counter(pmu);
	if (counter < 0)
		return counter;
	/* Show an implied modifier, as perf does. */
	if (asprintf(&name, "%s%s", spec, strchr(spec, ':') ? "" :
		     pmudev_mode_suffix(ev.flags)) < 0)
		return -ENOMEM;
	err = pmudev_select(pmu, counter);
	if (!err)
		err = pmudev_set_event(pmu, ev.number, ev.flags);
	if (err) {
		free(name);
		return err;
	}
	pmu->counter_name[counter] = name;
	pmu->used |= 1U << counter;
	return counter;
}

const char *pmudev_counter_name(const struct pmudev *pmu, unsigned int counter)
{
	if (pmu->unbound)
		return NULL;
	if (counter == ARMPMU_CYCLE_COUNTER)
		return pmu->cycles_name;
	return counter < ARMPMU_MAX_COUNTERS ? pmu->counter_name[counter] : NULL;
}

const char *pmudev_strerror(int err)
{
	switch (err) {
	case -ENOENT:
		return "no such device or event (is the armpmu module loaded? "
		       "does this core implement the event?)";
	case -EACCES:
		return "permission denied (not in the device's group, or kernel-mode "
		       "counting without CAP_PERFMON)";
	case -EBUSY:
		return "the PMU is in use (owned by another file, or counting)";
	case -ENOSPC:
		return "no free counter";
	case -EOPNOTSUPP:
		return "not supported by this core";
	case -ERANGE:
		return "event number too wide for this core";
	case -EALREADY:
		return "already done (region open, or file bound)";
	case -EBADFD:
		return "the handle is not bound to a CPU (PMUDEV_OPEN_UNBOUND)";
	case -EIO:
		return "someone else (perf?) disturbed the counters: reset them";
	case -ECANCELED:
		return "an administrator released this CPU's PMU (pmuctl reset)";
	case -ESRCH:
		return "no one owns this CPU's PMU";
	default:
		return strerror(-err);
	}
}
