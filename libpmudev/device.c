// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Opening /dev/armpmu in task mode (attach a thread) or CPU mode (bind and
 * pin a CPU), and one thin function per driver operation.
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

static int bind_cpu(int fd, int cpu)
{
	__u32 arg = cpu;

	return ioctl_errno(fd, ARMPMU_IOC_BIND, &arg);
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

static int attach(int fd, pid_t tid, unsigned int flags)
{
	struct armpmu_attach at = { .tid = (__u32)tid, .flags = flags };

	return ioctl_errno(fd, ARMPMU_IOC_ATTACH, &at);
}

/* CPU mode: bind @cpu and, unless told not to, pin the caller there. */
static int open_cpu_mode(struct pmudev *pmu, int cpu, unsigned int flags)
{
	int err;

	if (sched_getaffinity(pmu->tid, sizeof(pmu->affinity), &pmu->affinity))
		return -errno;
	err = bind_cpu(pmu->fd, cpu);
	if (err)
		return err;
	pmu->bound = true;
	if (flags & PMUDEV_OPEN_NO_PIN)
		return 0;
	err = pin(pmu->tid, cpu);
	pmu->pinned = !err;
	return err;
}

#define OPEN_FLAGS (PMUDEV_OPEN_NO_PIN | PMUDEV_OPEN_UNBOUND | PMUDEV_OPEN_FOLLOW | \
		    PMUDEV_OPEN_MULTIPLEX)

int pmudev_open(struct pmudev **out, int cpu, unsigned int flags)
{
	bool task_mode = cpu == PMUDEV_CPU_ANY;
	struct pmudev *pmu;
	int err;

	if (cpu < PMUDEV_CPU_ANY || (flags & ~OPEN_FLAGS))
		return -EINVAL;
	/* UNBOUND and FOLLOW are about task mode, and exclude each other. */
	if ((flags & (PMUDEV_OPEN_UNBOUND | PMUDEV_OPEN_FOLLOW)) && !task_mode)
		return -EINVAL;
	if ((flags & PMUDEV_OPEN_UNBOUND) && (flags & PMUDEV_OPEN_FOLLOW))
		return -EINVAL;
	pmu = calloc(1, sizeof(*pmu));
	if (!pmu)
		return -ENOMEM;
	pmu->tid = gettid();
	pmu->multiplex = flags & PMUDEV_OPEN_MULTIPLEX;
	pmu->fd = open(ARMPMU_DEVICE_PATH, O_RDWR | O_CLOEXEC);
	if (pmu->fd < 0) {
		err = -errno;
		goto free;
	}
	if (!task_mode)
		err = open_cpu_mode(pmu, cpu, flags);
	else if (flags & PMUDEV_OPEN_UNBOUND)
		err = 0, pmu->unbound = true;
	else
		/* Now, not at the first counter call: the opener is the thread counted. */
		err = attach(pmu->fd, 0, flags & PMUDEV_OPEN_FOLLOW ? ARMPMU_ATTACH_FOLLOW : 0);
	/* Unbound, INFO describes the caller's CPU and chooses no mode. */
	if (!err)
		err = ioctl_errno(pmu->fd, ARMPMU_IOC_INFO, &pmu->info);
	if (err)
		goto close;
	pmu->cycle_flags = pmu->info.flags & ARMPMU_INFO_KERNEL_ALLOWED ?
			   0 : ARMPMU_EXCLUDE_KERNEL;
	name_cycles(pmu);
	*out = pmu;
	return 0;

close:
	if (pmu->pinned)
		sched_setaffinity(pmu->tid, sizeof(pmu->affinity), &pmu->affinity);
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

int pmudev_attach(struct pmudev *pmu, pid_t tid, unsigned int flags)
{
	int err;

	if (tid < 0 || (flags & ~(PMUDEV_ATTACH_FOLLOW | PMUDEV_ATTACH_ENABLE_ON_EXEC)))
		return -EINVAL;
	if (!pmu->unbound)
		return -EALREADY;
	err = attach(pmu->fd, tid, flags);
	if (!err)
		pmu->unbound = false;
	return err;
}

int pmudev_cpu(const struct pmudev *pmu)
{
	return pmu->bound ? (int)pmu->info.cpu : -1;
}

int pmudev_fd(const struct pmudev *pmu)
{
	return pmu->fd;
}

const struct armpmu_info *pmudev_info(const struct pmudev *pmu)
{
	return &pmu->info;
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

int pmudev_file_status(struct pmudev *pmu, unsigned int id,
		       struct armpmu_file_status *status)
{
	memset(status, 0, sizeof(*status));
	status->id = id;
	return ioctl_errno(pmu->fd, ARMPMU_IOC_FILE_STATUS, status);
}

int pmudev_regs(struct pmudev *pmu, int cpu, struct armpmu_regs *regs)
{
	if (cpu < 0)
		return -EINVAL;
	memset(regs, 0, sizeof(*regs));
	regs->cpu = (__u32)cpu;
	return ioctl_errno(pmu->fd, ARMPMU_IOC_REGS, regs);
}

int pmudev_release_file(struct pmudev *pmu, unsigned int id)
{
	__u32 arg = id;

	return ioctl_errno(pmu->fd, ARMPMU_IOC_RELEASE_FILE, &arg);
}

/*
 * The driver gives an unbound file task mode for the calling thread on its
 * first counter operation: an UNBOUND handle must be attached first, so
 * that the thread counted is always the one chosen.
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
	return pmudev_set_event_group(pmu, event, flags, 0);
}

int pmudev_set_event_group(struct pmudev *pmu, uint32_t event, uint32_t flags,
			   uint32_t group)
{
	struct armpmu_event ev = { .event = event, .flags = flags, .group = group };

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

/*
 * read(2), not the READ ioctl: same snapshot, fewer instructions. Defined
 * under its own name and given the public one as PMUDEV_2, the default
 * version, so that the PMUDEV_1 one below can exist beside it; references
 * to pmudev_read, the library's own too, link to the default.
 */
__attribute__((symver("pmudev_read@@PMUDEV_2")))
int pmudev_read_v2(struct pmudev *pmu, struct armpmu_counts *counts);
int pmudev_read_v2(struct pmudev *pmu, struct armpmu_counts *counts)
{
	ssize_t n;

	if (pmu->unbound)
		return -EBADFD;
	n = read(pmu->fd, counts, sizeof(*counts));
	if (n < 0)
		return -errno;
	return n == sizeof(*counts) ? 0 : -EIO;
}

/*
 * PMUDEV_1's pmudev_read(), for programs built before struct armpmu_counts
 * grew the coverage fields: their buffer ends where time_enabled begins.
 */
__attribute__((symver("pmudev_read@PMUDEV_1")))
int pmudev_read_v1(struct pmudev *pmu, struct armpmu_counts *counts);
int pmudev_read_v1(struct pmudev *pmu, struct armpmu_counts *counts)
{
	struct armpmu_counts full;
	int err = pmudev_read_v2(pmu, &full);

	if (!err || err == -EIO)
		memcpy(counts, &full, offsetof(struct armpmu_counts, time_enabled));
	return err;
}

int pmudev_read_slots(struct pmudev *pmu, struct armpmu_read *rd)
{
	rd->reserved[0] = 0;
	rd->reserved[1] = 0;
	return bound_ioctl(pmu, ARMPMU_IOC_READ_SLOTS, rd);
}

int pmudev_read_threads(struct pmudev *pmu, struct armpmu_threads *th)
{
	th->reserved[0] = 0;
	th->reserved[1] = 0;
	return bound_ioctl(pmu, ARMPMU_IOC_READ_THREADS, th);
}

double pmudev_scaled(const struct armpmu_slot *slot)
{
	if (!slot->time_running)
		return -1.0;
	if (slot->time_running >= slot->time_enabled)
		return (double)slot->value;
	return (double)slot->value * ((double)slot->time_enabled / (double)slot->time_running);
}

double pmudev_coverage(const struct armpmu_counts *counts)
{
	if (!counts->time_enabled || counts->time_running >= counts->time_enabled)
		return 1.0;
	return (double)counts->time_running / (double)counts->time_enabled;
}

static int add_cycles(struct pmudev *pmu, const struct pmudev_event *ev)
{
	int err = pmudev_set_cycle_filter(pmu, ev->flags);

	return err ? err : ARMPMU_CYCLE_COUNTER;
}

/*
 * The hardware's counters from the top down (perf takes them from 0 up);
 * once they are all used, with PMUDEV_OPEN_MULTIPLEX, the slots beyond,
 * from num_counters up, which make the file multiplexed.
 */
static int free_counter(const struct pmudev *pmu)
{
	for (int counter = pmu->info.num_counters - 1; counter >= 0; counter--)
		if (!(pmu->used & (1U << counter)))
			return counter;
	for (int slot = pmu->info.num_counters; pmu->multiplex && slot < ARMPMU_MAX_COUNTERS;
	     slot++)
		if (!(pmu->used & (1U << slot)))
			return slot;
	return -ENOSPC;
}

/* @spec on a free slot in @group; its slot, or a negative errno. */
static int add_event(struct pmudev *pmu, const char *spec, uint32_t group)
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
		return group ? -EINVAL : add_cycles(pmu, &ev);
	counter = free_counter(pmu);
	if (counter < 0)
		return counter;
	/* Show an implied modifier, as perf does. */
	if (asprintf(&name, "%s%s", spec, strchr(spec, ':') ? "" :
		     pmudev_mode_suffix(ev.flags)) < 0)
		return -ENOMEM;
	err = pmudev_select(pmu, counter);
	if (!err)
		err = pmudev_set_event_group(pmu, ev.number, ev.flags, group);
	if (err) {
		free(name);
		return err;
	}
	pmu->counter_name[counter] = name;
	pmu->used |= 1U << counter;
	return counter;
}

int pmudev_add_event(struct pmudev *pmu, const char *spec)
{
	return add_event(pmu, spec, 0);
}

int pmudev_add_group(struct pmudev *pmu, const char *const *specs, unsigned int n,
		     int *slots)
{
	uint32_t group = ++pmu->groups;

	if (pmu->unbound)
		return -EBADFD;
	if (n > pmu->info.num_counters)
		return -ENOSPC;
	for (unsigned int i = 0; i < n; i++) {
		int slot = add_event(pmu, specs[i], group);

		if (slot < 0)
			return slot;
		if (slots)
			slots[i] = slot;
	}
	return 0;
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
		return "in use (the CPU's PMU owned by another file, the thread counted by "
		       "another file, or counting)";
	case -ENOSPC:
		return "no free counter (31 slots used, or a group larger than the core's counters)";
	case -EOPNOTSUPP:
		return "not supported by this core";
	case -ERANGE:
		return "event number too wide for this core";
	case -EALREADY:
		return "already done (region open, or the handle already counts a thread or CPU)";
	case -EBADFD:
		return "the handle counts nothing yet (PMUDEV_OPEN_UNBOUND without pmudev_attach())";
	case -EPERM:
		return "not permitted (whole-CPU counting needs CAP_PERFMON or CAP_SYS_ADMIN, "
		       "or armpmu's cpu_mode_for_all=1)";
	case -EIO:
		return "someone else (perf?) disturbed the counters: reset them";
	case -ECANCELED:
		return "an administrator released this CPU's PMU (pmuctl reset)";
	case -ESRCH:
		return "no such thread, or no one owns this CPU's PMU";
	default:
		return strerror(-err);
	}
}
