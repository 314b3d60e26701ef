// SPDX-License-Identifier: GPL-2.0
/*
 * armpmu-test: the device node, and what INFO says of the board, bound and
 * unbound; with --compat, that this is a 32-bit program on a 64-bit kernel.
 */
#include <errno.h>
#include <stdbool.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>

#include "common.h"

void test_compat(void)
{
	struct utsname u;

	uname(&u);
	tap_check(sizeof(void *) == 4 && strcmp(u.machine, "aarch64") == 0,
		  "compat: a 32-bit program on a 64-bit kernel",
		  "expected 4-byte pointers on aarch64, got %zu-byte pointers on %s",
		  sizeof(void *), u.machine);
}

void test_device(void)
{
	struct stat st;
	int err, fd;

	err = stat(DEV, &st) ? errno : 0;
	tap_errno(err, 0, DEV " exists");
	tap_check(!err && S_ISCHR(st.st_mode), DEV " is a character device",
		  "mode %#o", err ? 0 : (unsigned int)st.st_mode);
	/* The group grant the unprivileged tests rely on: udev's rule. */
	tap_check(!err && st.st_uid == 0 && st.st_gid == armpmu_gid() &&
		  (st.st_mode & 07777) == 0660,
		  "udev made " DEV " root:armpmu mode 0660 (60-armpmu.rules)",
		  "owner %u, group %u, mode %04o", (unsigned int)st.st_uid,
		  (unsigned int)st.st_gid, (unsigned int)(st.st_mode & 07777));
	err = dev_open(&fd);
	tap_errno(err, 0, "root opens " DEV " read-write");
	dev_close(&fd);
}

static void check_info_board(const struct armpmu_info *info)
{
	unsigned int part = (info->midr >> 4) & 0xfff;
	unsigned int implementer = info->midr >> 24;
	unsigned int want_bits, i;
	bool known = info->flags & ARMPMU_INFO_EVENTS_KNOWN;
	bool reserved_zero = true;

	tap_check(info->num_counters == board->num_counters,
		  "INFO num_counters matches the board",
		  "expected %u on %s, got %u", board->num_counters, board->name,
		  info->num_counters);
	tap_check(implementer == 0x41, "INFO midr: implementer Arm (0x41)",
		  "midr %#x: implementer %#x", info->midr, implementer);
	if (board->part)
		tap_check(part == board->part, "INFO midr: part number matches the board",
			  "expected %#x on %s, got %#x (midr %#x)", board->part,
			  board->name, part, info->midr);
	else
		tap_skip("INFO midr: part number matches the board",
			 "%s has no fixed part number (midr %#x)", board->name, info->midr);
	if (board->min_version == board->max_version)
		tap_check(info->pmu_version == board->min_version,
			  "INFO pmu_version matches the board", "expected %u on %s, got %u",
			  board->min_version, board->name, info->pmu_version);
	else
		tap_check(info->pmu_version >= board->min_version &&
			  info->pmu_version <= board->max_version,
			  "INFO pmu_version matches the board",
			  "expected %u..%u on %s, got %u", board->min_version,
			  board->max_version, board->name, info->pmu_version);
	tap_check(!!(info->flags & ARMPMU_INFO_CAN_FILTER) == board->filters,
		  board->filters ? "INFO flags: CAN_FILTER set (the filter bits stuck)" :
				   "INFO flags: CAN_FILTER clear (PMUv1 has no filtering)",
		  "flags %#x", info->flags);
	/* QEMU emulates PMCR.D on every model; arm64 clears LC for it. */
	tap_check(info->flags & ARMPMU_INFO_CAN_DIVIDE,
		  "INFO flags: CAN_DIVIDE set (PMCR.D sticks, LC clears)", "flags %#x",
		  info->flags);
	tap_check(known == board->events_known,
		  board->events_known ? "INFO flags: EVENTS_KNOWN set (PMCEID)" :
					"INFO flags: EVENTS_KNOWN clear (ARMv7: no PMCEID to trust)",
		  "flags %#x", info->flags);
	if (board->events_known) {
		tap_check(known && (info->common_events >> ARMPMU_EV_CPU_CYCLES & 1),
			  "INFO common_events: CPU_CYCLES (0x11) implemented",
			  "common_events %#llx", (ull)info->common_events);
		tap_check(known && (bool)(info->common_events >> ARMPMU_EV_INST_RETIRED & 1) == icount,
			  icount ? "INFO common_events: INST_RETIRED (0x08) implemented with icount" :
				   "INFO common_events: INST_RETIRED (0x08) not implemented without icount",
			  "common_events %#llx", (ull)info->common_events);
		/*
		 * PMCEID1's low half lands in bits 32-63, the registers'
		 * upper halves (0x4000-0x403f) in common_events_hi: QEMU
		 * implements none of those, and STALL_FRONTEND (0x23) and
		 * STALL_BACKEND (0x24) only from PMUv3 for ARMv8.1 on.
		 */
		tap_check(known && info->common_events_hi == 0,
			  "INFO common_events_hi: none of 0x4000-0x403f (QEMU implements none)",
			  "common_events_hi %#llx", (ull)info->common_events_hi);
		if (board->min_version >= 4 && board->part)
			tap_check(known && (info->common_events >> 0x23 & 3) == 3,
				  "INFO common_events: STALL_FRONTEND and STALL_BACKEND (PMCEID1) "
				  "implemented on PMUv3 for ARMv8.1",
				  "common_events %#llx", (ull)info->common_events);
	}
	/* The architecture's rule: 8 bits on ARMv7, 10 on PMUv3 for ARMv8.0, 16 from v8.1. */
	want_bits = armpmu_event_bits(info->pmu_version);
	tap_check(info->event_bits == want_bits, "INFO event_bits matches pmu_version",
		  "expected %u for pmu_version %u, got %u", want_bits,
		  info->pmu_version, info->event_bits);
	for (i = 0; i < sizeof(info->reserved) / sizeof(info->reserved[0]); i++)
		reserved_zero &= info->reserved[i] == 0;
	tap_check(reserved_zero, "INFO reserved fields are zero",
		  "reserved %#x %#x %#x %#x %#x %#x %#x %#x", info->reserved[0],
		  info->reserved[1], info->reserved[2], info->reserved[3],
		  info->reserved[4], info->reserved[5], info->reserved[6],
		  info->reserved[7]);
	tap_check(!(info->flags & ~0x3fU), "INFO flags: no undefined bit set",
		  "flags %#x", info->flags);
	tap_check(!(info->flags & ARMPMU_INFO_USERENR_SET),
		  "INFO flags: USERENR_SET clear (nobody opened the PMU to user mode)",
		  "flags %#x", info->flags);
}

void test_info(void)
{
	struct armpmu_info info, other;
	int fd, fd2, err;
	__u32 target;

	pin(0);
	err = dev_open(&fd);
	if (!tap_errno(err, 0, "INFO: open"))
		return;
	memset(&info, 0xff, sizeof(info));
	err = ioc(fd, ARMPMU_IOC_INFO, &info);
	if (tap_errno(err, 0, "INFO on an unbound file succeeds")) {
		tap_note("INFO: cpu %u midr %#x pmu_version %u num_counters %u flags %#x "
			 "event_bits %u common_events %#llx common_events_hi %#llx",
			 info.cpu, info.midr, info.pmu_version, info.num_counters,
			 info.flags, info.event_bits, (ull)info.common_events,
			 (ull)info.common_events_hi);
		check_info_board(&info);
		if (info.num_counters && info.num_counters <= ARMPMU_MAX_COUNTERS)
			num_counters = info.num_counters;
		event_bits = info.event_bits;
		tap_check(!(info.flags & ARMPMU_INFO_BOUND) && info.cpu == 0,
			  "INFO unbound, pinned to CPU 0: BOUND clear, cpu 0",
			  "flags %#x cpu %u", info.flags, info.cpu);
		tap_check(info.flags & ARMPMU_INFO_KERNEL_ALLOWED,
			  "INFO as root: KERNEL_ALLOWED set", "flags %#x", info.flags);
	}
	if (ncpus >= 2) {
		pin(1);
		memset(&other, 0xff, sizeof(other));
		err = ioc(fd, ARMPMU_IOC_INFO, &other);
		tap_check(!err && !(other.flags & ARMPMU_INFO_BOUND) && other.cpu == 1,
			  "INFO unbound, pinned to CPU 1: BOUND clear, cpu 1",
			  "%s, flags %#x cpu %u", tap_errname(err), other.flags, other.cpu);
		pin(0);
	} else {
		tap_skip("INFO unbound, pinned to CPU 1: BOUND clear, cpu 1", "one CPU");
	}

	/* INFO must not have bound the file: another one can take CPU 0. */
	err = open_bound(0, &fd2);
	tap_errno(err, 0, "INFO does not bind: another file binds the CPU");
	dev_close(&fd2);

	/* Bound: INFO describes the bound CPU, wherever the caller is. */
	target = ncpus >= 2 ? 1 : 0;
	err = ioc_u32(fd, ARMPMU_IOC_BIND, target);
	tap_errno(err, 0, "BIND to a free CPU succeeds");
	memset(&other, 0xff, sizeof(other));
	err = ioc(fd, ARMPMU_IOC_INFO, &other);
	tap_check(!err && (other.flags & ARMPMU_INFO_BOUND) && other.cpu == target,
		  ncpus >= 2 ? "INFO bound to CPU 1 from CPU 0: BOUND set, cpu 1" :
			       "INFO bound: BOUND set, cpu 0",
		  "%s, flags %#x cpu %u", tap_errname(err), other.flags, other.cpu);
	dev_close(&fd);
}
