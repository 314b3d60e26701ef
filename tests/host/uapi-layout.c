// SPDX-License-Identifier: GPL-2.0
/*
 * The uAPI's layout, checked at compile time. tests/run compiles this with
 * the host's gcc and both ARM cross compilers: if it compiles everywhere,
 * a 32-bit program and a 64-bit kernel (compat_ptr_ioctl, no translation)
 * agree on every byte and every ioctl number.
 */
#include <stddef.h>
#include <linux/armpmu.h>
#include <linux/armpmu_arch.h>

#define SIZE(type, n)		_Static_assert(sizeof(type) == (n), #type " is " #n " bytes")
#define FIELD(type, f, off, n)						\
	_Static_assert(offsetof(type, f) == (off), #type "." #f " at " #off); \
	_Static_assert(sizeof(((type *)0)->f) == (n), #type "." #f " is " #n " bytes")

/* struct armpmu_info: 72 bytes, no hole, no tail padding. */
SIZE(struct armpmu_info, 72);
FIELD(struct armpmu_info, cpu, 0, 4);
FIELD(struct armpmu_info, midr, 4, 4);
FIELD(struct armpmu_info, pmu_version, 8, 4);
FIELD(struct armpmu_info, num_counters, 12, 4);
FIELD(struct armpmu_info, flags, 16, 4);
FIELD(struct armpmu_info, event_bits, 20, 4);
FIELD(struct armpmu_info, common_events, 24, 8);
FIELD(struct armpmu_info, common_events_hi, 32, 8);
FIELD(struct armpmu_info, reserved, 40, 32);

/* struct armpmu_event: 16 bytes. */
SIZE(struct armpmu_event, 16);
FIELD(struct armpmu_event, event, 0, 4);
FIELD(struct armpmu_event, flags, 4, 4);
FIELD(struct armpmu_event, group, 8, 4);
FIELD(struct armpmu_event, reserved, 12, 4);

/* struct armpmu_counts: 280 bytes, 31 event counts, then the two times. */
SIZE(struct armpmu_counts, 280);
FIELD(struct armpmu_counts, nr, 0, 4);
FIELD(struct armpmu_counts, flags, 4, 4);
FIELD(struct armpmu_counts, cycles, 8, 8);
FIELD(struct armpmu_counts, events, 16, 8 * ARMPMU_MAX_COUNTERS);
FIELD(struct armpmu_counts, time_enabled, 264, 8);
FIELD(struct armpmu_counts, time_running, 272, 8);

/* struct armpmu_file_status: 48 bytes. */
SIZE(struct armpmu_file_status, 48);
FIELD(struct armpmu_file_status, id, 0, 4);
FIELD(struct armpmu_file_status, flags, 4, 4);
FIELD(struct armpmu_file_status, owner_pid, 8, 4);
FIELD(struct armpmu_file_status, owner_uid, 12, 4);
FIELD(struct armpmu_file_status, target_tid, 16, 4);
FIELD(struct armpmu_file_status, threads, 20, 4);
FIELD(struct armpmu_file_status, cpu, 24, 4);
FIELD(struct armpmu_file_status, counters, 28, 4);
FIELD(struct armpmu_file_status, hidden, 32, 4);
FIELD(struct armpmu_file_status, reserved, 36, 12);

/* struct armpmu_attach: 16 bytes. */
SIZE(struct armpmu_attach, 16);
FIELD(struct armpmu_attach, tid, 0, 4);
FIELD(struct armpmu_attach, flags, 4, 4);
FIELD(struct armpmu_attach, reserved, 8, 8);
_Static_assert(ARMPMU_MAX_COUNTERS == 31, "31 event counters at most (PMCR.N)");

/* struct armpmu_cpu_status: 104 bytes, info 8-aligned on every ABI. */
SIZE(struct armpmu_cpu_status, 104);
FIELD(struct armpmu_cpu_status, cpu, 0, 4);
FIELD(struct armpmu_cpu_status, flags, 4, 4);
FIELD(struct armpmu_cpu_status, owner_pid, 8, 4);
FIELD(struct armpmu_cpu_status, owner_uid, 12, 4);
FIELD(struct armpmu_cpu_status, foreign_counters, 16, 4);
FIELD(struct armpmu_cpu_status, reserved, 20, 12);
FIELD(struct armpmu_cpu_status, info, 32, 72);

/* struct armpmu_value: 16 bytes, value 8-aligned on every ABI. */
SIZE(struct armpmu_value, 16);
FIELD(struct armpmu_value, counter, 0, 4);
FIELD(struct armpmu_value, reserved, 4, 4);
FIELD(struct armpmu_value, value, 8, 8);

/* struct armpmu_regs: 440 bytes, counter[] 8-aligned on every ABI. */
SIZE(struct armpmu_regs, 440);
FIELD(struct armpmu_regs, cpu, 0, 4);
FIELD(struct armpmu_regs, flags, 4, 4);
FIELD(struct armpmu_regs, midr, 8, 4);
FIELD(struct armpmu_regs, pmu_version, 12, 4);
FIELD(struct armpmu_regs, pmcr, 16, 4);
FIELD(struct armpmu_regs, pmcntenset, 20, 4);
FIELD(struct armpmu_regs, pmovsr, 24, 4);
FIELD(struct armpmu_regs, pmuserenr, 28, 4);
FIELD(struct armpmu_regs, pmintenset, 32, 4);
FIELD(struct armpmu_regs, num_counters, 36, 4);
FIELD(struct armpmu_regs, evtype, 40, 4 * 32);
FIELD(struct armpmu_regs, counter, 168, 8 * 32);
FIELD(struct armpmu_regs, reserved, 424, 16);

/* struct armpmu_slot: 24 bytes, three u64. */
SIZE(struct armpmu_slot, 24);
FIELD(struct armpmu_slot, value, 0, 8);
FIELD(struct armpmu_slot, time_enabled, 8, 8);
FIELD(struct armpmu_slot, time_running, 16, 8);

/* struct armpmu_read: a 48-byte header, then slot[] at 48 on every ABI. */
SIZE(struct armpmu_read, 48);
FIELD(struct armpmu_read, nr, 0, 4);
FIELD(struct armpmu_read, flags, 4, 4);
FIELD(struct armpmu_read, slots, 8, 4);
FIELD(struct armpmu_read, programmed, 12, 4);
FIELD(struct armpmu_read, reserved, 16, 8);
FIELD(struct armpmu_read, cycles, 24, 8);
FIELD(struct armpmu_read, time_enabled, 32, 8);
FIELD(struct armpmu_read, time_running, 40, 8);
_Static_assert(offsetof(struct armpmu_read, slot) == 48, "armpmu_read.slot at 48");

/* struct armpmu_thread: a 48-byte entry, then value[] at 48 on every ABI. */
SIZE(struct armpmu_thread, 48);
FIELD(struct armpmu_thread, tid, 0, 4);
FIELD(struct armpmu_thread, flags, 4, 4);
FIELD(struct armpmu_thread, switches, 8, 8);
FIELD(struct armpmu_thread, migrations, 16, 8);
FIELD(struct armpmu_thread, time_enabled, 24, 8);
FIELD(struct armpmu_thread, time_running, 32, 8);
FIELD(struct armpmu_thread, cycles, 40, 8);
_Static_assert(offsetof(struct armpmu_thread, value) == 48, "armpmu_thread.value at 48");
_Static_assert(ARMPMU_THREAD_SIZE(3) == 72, "an entry with 3 slots is 72 bytes");

/* struct armpmu_threads: a 56-byte header, the entries after it. */
SIZE(struct armpmu_threads, 56);
FIELD(struct armpmu_threads, index, 0, 4);
FIELD(struct armpmu_threads, nr, 4, 4);
FIELD(struct armpmu_threads, slots, 8, 4);
FIELD(struct armpmu_threads, flags, 12, 4);
FIELD(struct armpmu_threads, threads, 16, 4);
FIELD(struct armpmu_threads, lost, 20, 4);
FIELD(struct armpmu_threads, reserved, 24, 8);
FIELD(struct armpmu_threads, switches, 32, 8);
FIELD(struct armpmu_threads, migrations, 40, 8);
FIELD(struct armpmu_threads, task_clock, 48, 8);

/* Sampling: struct armpmu_sampling, 32 bytes. */
SIZE(struct armpmu_sampling, 32);
FIELD(struct armpmu_sampling, period_ns, 0, 8);
FIELD(struct armpmu_sampling, ring_bytes, 8, 4);
FIELD(struct armpmu_sampling, flags, 12, 4);
FIELD(struct armpmu_sampling, max_stack, 16, 4);
FIELD(struct armpmu_sampling, reserved, 20, 12);

/* The records' head: 24 bytes, so the 64-bit fields after it are aligned. */
SIZE(struct armpmu_record, 24);
FIELD(struct armpmu_record, type, 0, 2);
FIELD(struct armpmu_record, size, 2, 2);
FIELD(struct armpmu_record, cpu, 4, 4);
FIELD(struct armpmu_record, pid, 8, 4);
FIELD(struct armpmu_record, tid, 12, 4);
FIELD(struct armpmu_record, time, 16, 8);

/* struct armpmu_sample: 56 bytes, then nr values. */
SIZE(struct armpmu_sample, 56);
FIELD(struct armpmu_sample, head, 0, 24);
FIELD(struct armpmu_sample, ip, 24, 8);
FIELD(struct armpmu_sample, flags, 32, 4);
FIELD(struct armpmu_sample, nr, 36, 4);
FIELD(struct armpmu_sample, period, 40, 8);
FIELD(struct armpmu_sample, cycles, 48, 8);
_Static_assert(offsetof(struct armpmu_sample, value) == 56, "armpmu_sample.value at 56");
_Static_assert(ARMPMU_SAMPLE_SIZE(2) == 72, "ARMPMU_SAMPLE_SIZE(2) is 72");

/* A sample's call chain after its values: 16 bytes, then nr return addresses. */
SIZE(struct armpmu_callchain, 16);
FIELD(struct armpmu_callchain, nr, 0, 4);
FIELD(struct armpmu_callchain, flags, 4, 4);
FIELD(struct armpmu_callchain, lr, 8, 8);
_Static_assert(offsetof(struct armpmu_callchain, ret) == 16, "armpmu_callchain.ret at 16");
_Static_assert(ARMPMU_CALLCHAIN_SIZE(3) == 40, "ARMPMU_CALLCHAIN_SIZE(3) is 40");
_Static_assert(ARMPMU_SAMPLE_SIZE(32) + ARMPMU_CALLCHAIN_SIZE(ARMPMU_MAX_STACK_LIMIT) <= 0xffff,
	       "the deepest chain's sample fits a record's 16-bit size");

SIZE(struct armpmu_lost, 32);
FIELD(struct armpmu_lost, lost, 24, 8);

SIZE(struct armpmu_task_record, 48);
FIELD(struct armpmu_task_record, ppid, 24, 4);
FIELD(struct armpmu_task_record, ptid, 28, 4);
FIELD(struct armpmu_task_record, comm, 32, 16);

/* struct armpmu_samples: 40 bytes, the records after it. */
SIZE(struct armpmu_samples, 40);
FIELD(struct armpmu_samples, size, 0, 4);
FIELD(struct armpmu_samples, flags, 4, 4);
FIELD(struct armpmu_samples, recorded, 8, 8);
FIELD(struct armpmu_samples, lost, 16, 8);
FIELD(struct armpmu_samples, pending, 24, 4);
FIELD(struct armpmu_samples, reserved, 28, 12);

/*
 * The ioctl numbers, spelt out: direction, size, magic 0xD5, number. The
 * same values on every architecture mean the same sizes everywhere.
 */
#define NUMBER(cmd, value)	_Static_assert((cmd) == (value), #cmd " is " #value)
NUMBER(ARMPMU_IOC_INFO, 0x8048D501U);
NUMBER(ARMPMU_IOC_BIND, 0x4004D502U);
NUMBER(ARMPMU_IOC_SELECT, 0x4004D503U);
NUMBER(ARMPMU_IOC_SET_EVENT, 0x4010D504U);
NUMBER(ARMPMU_IOC_SET_DIVIDER, 0x4004D505U);
NUMBER(ARMPMU_IOC_RESET, 0x0000D506U);
NUMBER(ARMPMU_IOC_START, 0x0000D507U);
NUMBER(ARMPMU_IOC_STOP, 0x0000D508U);
NUMBER(ARMPMU_IOC_READ, 0x8118D509U);
NUMBER(ARMPMU_IOC_CPU_STATUS, 0xC068D50AU);
NUMBER(ARMPMU_IOC_RELEASE, 0x4004D50BU);
NUMBER(ARMPMU_IOC_SET_VALUE, 0x4010D50CU);
NUMBER(ARMPMU_IOC_SET_CYCLE_FILTER, 0x4004D50DU);
NUMBER(ARMPMU_IOC_ATTACH, 0x4010D50EU);
NUMBER(ARMPMU_IOC_FILE_STATUS, 0xC030D50FU);
NUMBER(ARMPMU_IOC_RELEASE_FILE, 0x4004D510U);
NUMBER(ARMPMU_IOC_REGS, 0xC1B8D511U);
NUMBER(ARMPMU_IOC_READ_SLOTS, 0xC030D512U);
NUMBER(ARMPMU_IOC_READ_THREADS, 0xC038D513U);
NUMBER(ARMPMU_IOC_SET_SAMPLING, 0x4020D514U);
NUMBER(ARMPMU_IOC_READ_SAMPLES, 0xC028D515U);

/* The flag bits are distinct. */
_Static_assert((ARMPMU_EXCLUDE_USER & ARMPMU_EXCLUDE_KERNEL) == 0, "event flags overlap");
_Static_assert(ARMPMU_EVENT_FLAGS == 3, "two event flags");
_Static_assert(ARMPMU_CPU_CURRENT == 0xffffffffU, "ARMPMU_CPU_CURRENT");
