// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Every event libpmudev knows by name, as data: the architecture's events
 * (the common ones 0x00-0x3f and the ARMv8 recommended ones from 0x40 on,
 * which the Cortex-A15 already numbered the same way), and one table per
 * core, keyed by the MIDR part number (implementer Arm): which
 * architectural events the core implements, as ranges, and its own
 * IMPLEMENTATION DEFINED events.
 *
 * Numbers and names are facts from the cores' Technical Reference Manuals;
 * the names are those Linux perf gives the arm64 cores (its pmu-events
 * tables), and for the ARMv7 cores names in the same style. The
 * descriptions are ours. The logic that reads these tables is in events.c;
 * tests/host/libpmudev-unit.c checks them (no number or name twice in a
 * core, numbers within the core's event width, every core present, every
 * event in a group).
 *
 * To add a core: its ranges of architectural events, its own events in
 * ascending order, and a line in core_tables[] below.
 */
#include "internal.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

#define CYC	PMUDEV_GROUP_CYCLES
#define CACHE	PMUDEV_GROUP_CACHE
#define TLB	PMUDEV_GROUP_TLB
#define BRANCH	PMUDEV_GROUP_BRANCH
#define MEM	PMUDEV_GROUP_MEMORY
#define STALL	PMUDEV_GROUP_STALL
#define OTHER	PMUDEV_GROUP_OTHER

/* An architectural event, and a core's own one. */
#define ARCH(nr, grp, nm, desc)	{ nr, grp, 0, nm, desc }
/* An event linux/armpmu_arch.h names: its number from there. */
#define ARCH_NAMED(nm, grp, desc)	ARCH(ARMPMU_EV_##nm, grp, #nm, desc)
#define OWN(nr, grp, nm, desc)	{ nr, grp, PMUDEV_EVENT_IMPDEF, nm, desc }

/* Indexed by number: pmudev_event_name() relies on it. */
const struct pmudev_event_info pmudev_common_events[] = {
	ARCH_NAMED(SW_INCR, OTHER, "software increment (writes to PMSWINC)"),
	ARCH(0x01, CACHE, "L1I_CACHE_REFILL", "level 1 instruction cache refills"),
	ARCH(0x02, TLB, "L1I_TLB_REFILL", "level 1 instruction TLB refills"),
	ARCH_NAMED(L1D_CACHE_REFILL, CACHE, "level 1 data cache refills"),
	ARCH_NAMED(L1D_CACHE, CACHE, "level 1 data cache accesses"),
	ARCH(0x05, TLB, "L1D_TLB_REFILL", "level 1 data TLB refills"),
	ARCH(0x06, MEM, "LD_RETIRED", "loads architecturally executed"),
	ARCH(0x07, MEM, "ST_RETIRED", "stores architecturally executed"),
	ARCH_NAMED(INST_RETIRED, CYC, "instructions architecturally executed"),
	ARCH(0x09, OTHER, "EXC_TAKEN", "exceptions taken"),
	ARCH(0x0a, OTHER, "EXC_RETURN", "exception returns executed"),
	ARCH(0x0b, OTHER, "CID_WRITE_RETIRED", "writes to the context ID register"),
	ARCH_NAMED(PC_WRITE_RETIRED, BRANCH, "software changes of the PC (branches taken)"),
	ARCH(0x0d, BRANCH, "BR_IMMED_RETIRED", "immediate branches executed"),
	ARCH(0x0e, BRANCH, "BR_RETURN_RETIRED", "procedure returns executed"),
	ARCH(0x0f, MEM, "UNALIGNED_LDST_RETIRED", "unaligned loads and stores executed"),
	ARCH_NAMED(BR_MIS_PRED, BRANCH, "branches mispredicted or not predicted"),
	ARCH_NAMED(CPU_CYCLES, CYC, "processor cycles"),
	ARCH_NAMED(BR_PRED, BRANCH, "branches that could be predicted"),
	ARCH(0x13, MEM, "MEM_ACCESS", "data memory accesses"),
	ARCH(0x14, CACHE, "L1I_CACHE", "level 1 instruction cache accesses"),
	ARCH(0x15, CACHE, "L1D_CACHE_WB", "level 1 data cache write-backs"),
	ARCH_NAMED(L2D_CACHE, CACHE, "level 2 data cache accesses"),
	ARCH_NAMED(L2D_CACHE_REFILL, CACHE, "level 2 data cache refills"),
	ARCH(0x18, CACHE, "L2D_CACHE_WB", "level 2 data cache write-backs"),
	ARCH(0x19, MEM, "BUS_ACCESS", "bus accesses"),
	ARCH(0x1a, OTHER, "MEMORY_ERROR", "local memory errors"),
	ARCH_NAMED(INST_SPEC, CYC, "instructions speculatively executed"),
	ARCH(0x1c, OTHER, "TTBR_WRITE_RETIRED", "writes to a translation table base register"),
	ARCH(0x1d, MEM, "BUS_CYCLES", "bus cycles"),
	ARCH(0x1e, OTHER, "CHAIN", "odd counter counts overflows of the even one"),
	ARCH(0x1f, CACHE, "L1D_CACHE_ALLOCATE", "level 1 data cache allocations without refill"),
	ARCH(0x20, CACHE, "L2D_CACHE_ALLOCATE", "level 2 data cache allocations without refill"),
	ARCH_NAMED(BR_RETIRED, BRANCH, "branches architecturally executed"),
	ARCH_NAMED(BR_MIS_PRED_RETIRED, BRANCH, "branches executed and mispredicted"),
	ARCH_NAMED(STALL_FRONTEND, STALL, "cycles with no instruction to dispatch"),
	ARCH_NAMED(STALL_BACKEND, STALL, "cycles unable to accept a dispatched instruction"),
	ARCH(0x25, TLB, "L1D_TLB", "level 1 data TLB accesses"),
	ARCH(0x26, TLB, "L1I_TLB", "level 1 instruction TLB accesses"),
	ARCH(0x27, CACHE, "L2I_CACHE", "level 2 instruction cache accesses"),
	ARCH(0x28, CACHE, "L2I_CACHE_REFILL", "level 2 instruction cache refills"),
	ARCH(0x29, CACHE, "L3D_CACHE_ALLOCATE", "level 3 data cache allocations without refill"),
	ARCH(0x2a, CACHE, "L3D_CACHE_REFILL", "level 3 data cache refills"),
	ARCH(0x2b, CACHE, "L3D_CACHE", "level 3 data cache accesses"),
	ARCH(0x2c, CACHE, "L3D_CACHE_WB", "level 3 data cache write-backs"),
	ARCH(0x2d, TLB, "L2D_TLB_REFILL", "level 2 data TLB refills"),
	ARCH(0x2e, TLB, "L2I_TLB_REFILL", "level 2 instruction TLB refills"),
	ARCH(0x2f, TLB, "L2D_TLB", "level 2 data TLB accesses"),
	ARCH(0x30, TLB, "L2I_TLB", "level 2 instruction TLB accesses"),
	ARCH(0x31, MEM, "REMOTE_ACCESS", "accesses to another socket's memory"),
	ARCH(0x32, CACHE, "LL_CACHE", "last level cache accesses"),
	ARCH(0x33, CACHE, "LL_CACHE_MISS", "last level cache misses"),
	ARCH(0x34, TLB, "DTLB_WALK", "data TLB walks"),
	ARCH(0x35, TLB, "ITLB_WALK", "instruction TLB walks"),
	ARCH(0x36, CACHE, "LL_CACHE_RD", "last level cache read accesses"),
	ARCH(0x37, CACHE, "LL_CACHE_MISS_RD", "last level cache read misses"),
	ARCH(0x38, MEM, "REMOTE_ACCESS_RD", "reads of another socket's memory"),
	ARCH(0x39, CACHE, "L1D_CACHE_LMISS_RD", "level 1 data cache long-latency read misses"),
	ARCH(0x3a, CYC, "OP_RETIRED", "micro-operations architecturally executed"),
	ARCH(0x3b, CYC, "OP_SPEC", "micro-operations speculatively executed"),
	ARCH(0x3c, STALL, "STALL", "cycles in which no operation was sent for execution"),
	ARCH(0x3d, STALL, "STALL_SLOT_BACKEND", "dispatch slots left empty by the back end"),
	ARCH(0x3e, STALL, "STALL_SLOT_FRONTEND", "dispatch slots left empty by the front end"),
	ARCH(0x3f, STALL, "STALL_SLOT", "dispatch slots left empty"),
};

const size_t pmudev_nr_common_events = ARRAY_SIZE(pmudev_common_events);

/* ARMv8's recommended events (the Cortex-A15 has many of them): ascending. */
const struct pmudev_event_info pmudev_recommended_events[] = {
	ARCH(0x40, CACHE, "L1D_CACHE_RD", "level 1 data cache accesses by reads"),
	ARCH(0x41, CACHE, "L1D_CACHE_WR", "level 1 data cache accesses by writes"),
	ARCH(0x42, CACHE, "L1D_CACHE_REFILL_RD", "level 1 data cache refills for a read"),
	ARCH(0x43, CACHE, "L1D_CACHE_REFILL_WR", "level 1 data cache refills for a write"),
	ARCH(0x44, CACHE, "L1D_CACHE_REFILL_INNER", "level 1 data refills served within the cluster"),
	ARCH(0x45, CACHE, "L1D_CACHE_REFILL_OUTER", "level 1 data refills served from outside the cluster"),
	ARCH(0x46, CACHE, "L1D_CACHE_WB_VICTIM", "level 1 data lines written back when evicted"),
	ARCH(0x47, CACHE, "L1D_CACHE_WB_CLEAN", "level 1 data write-backs for cleaning or coherency"),
	ARCH(0x48, CACHE, "L1D_CACHE_INVAL", "level 1 data cache lines invalidated"),
	ARCH(0x4c, TLB, "L1D_TLB_REFILL_RD", "level 1 data TLB refills for a read"),
	ARCH(0x4d, TLB, "L1D_TLB_REFILL_WR", "level 1 data TLB refills for a write"),
	ARCH(0x4e, TLB, "L1D_TLB_RD", "level 1 data TLB accesses by reads"),
	ARCH(0x4f, TLB, "L1D_TLB_WR", "level 1 data TLB accesses by writes"),
	ARCH(0x50, CACHE, "L2D_CACHE_RD", "level 2 data cache accesses by reads"),
	ARCH(0x51, CACHE, "L2D_CACHE_WR", "level 2 data cache accesses by writes"),
	ARCH(0x52, CACHE, "L2D_CACHE_REFILL_RD", "level 2 data cache refills for a read"),
	ARCH(0x53, CACHE, "L2D_CACHE_REFILL_WR", "level 2 data cache refills for a write"),
	ARCH(0x56, CACHE, "L2D_CACHE_WB_VICTIM", "level 2 data lines written back when evicted"),
	ARCH(0x57, CACHE, "L2D_CACHE_WB_CLEAN", "level 2 data write-backs for cleaning or coherency"),
	ARCH(0x58, CACHE, "L2D_CACHE_INVAL", "level 2 data cache lines invalidated"),
	ARCH(0x5c, TLB, "L2D_TLB_REFILL_RD", "level 2 data TLB refills for a read"),
	ARCH(0x5d, TLB, "L2D_TLB_REFILL_WR", "level 2 data TLB refills for a write"),
	ARCH(0x5e, TLB, "L2D_TLB_RD", "level 2 data TLB accesses by reads"),
	ARCH(0x5f, TLB, "L2D_TLB_WR", "level 2 data TLB accesses by writes"),
	ARCH(0x60, MEM, "BUS_ACCESS_RD", "bus accesses that read"),
	ARCH(0x61, MEM, "BUS_ACCESS_WR", "bus accesses that write"),
	ARCH(0x62, MEM, "BUS_ACCESS_SHARED", "bus accesses to shareable memory"),
	ARCH(0x63, MEM, "BUS_ACCESS_NOT_SHARED", "bus accesses to non-shareable memory"),
	ARCH(0x64, MEM, "BUS_ACCESS_NORMAL", "bus accesses to normal memory"),
	ARCH(0x65, MEM, "BUS_ACCESS_PERIPH", "bus accesses to device memory"),
	ARCH(0x66, MEM, "MEM_ACCESS_RD", "data memory accesses that read"),
	ARCH(0x67, MEM, "MEM_ACCESS_WR", "data memory accesses that write"),
	ARCH(0x68, MEM, "UNALIGNED_LD_SPEC", "unaligned loads, speculative"),
	ARCH(0x69, MEM, "UNALIGNED_ST_SPEC", "unaligned stores, speculative"),
	ARCH(0x6a, MEM, "UNALIGNED_LDST_SPEC", "unaligned loads and stores, speculative"),
	ARCH(0x6c, MEM, "LDREX_SPEC", "load-exclusive instructions, speculative"),
	ARCH(0x6d, MEM, "STREX_PASS_SPEC", "store-exclusives that succeeded, speculative"),
	ARCH(0x6e, MEM, "STREX_FAIL_SPEC", "store-exclusives that failed, speculative"),
	ARCH(0x6f, MEM, "STREX_SPEC", "store-exclusive instructions, speculative"),
	ARCH(0x70, MEM, "LD_SPEC", "load instructions, speculative"),
	ARCH(0x71, MEM, "ST_SPEC", "store instructions, speculative"),
	ARCH(0x72, MEM, "LDST_SPEC", "load and store instructions, speculative"),
	ARCH(0x73, CYC, "DP_SPEC", "integer data-processing instructions, speculative"),
	ARCH(0x74, CYC, "ASE_SPEC", "Advanced SIMD (NEON) instructions, speculative"),
	ARCH(0x75, CYC, "VFP_SPEC", "floating-point instructions, speculative"),
	ARCH(0x76, BRANCH, "PC_WRITE_SPEC", "software changes of the PC, speculative"),
	ARCH(0x77, CYC, "CRYPTO_SPEC", "cryptographic instructions, speculative"),
	ARCH(0x78, BRANCH, "BR_IMMED_SPEC", "immediate branches, speculative"),
	ARCH(0x79, BRANCH, "BR_RETURN_SPEC", "procedure returns, speculative"),
	ARCH(0x7a, BRANCH, "BR_INDIRECT_SPEC", "indirect branches, speculative"),
	ARCH(0x7c, MEM, "ISB_SPEC", "ISB barriers, speculative"),
	ARCH(0x7d, MEM, "DSB_SPEC", "DSB barriers, speculative"),
	ARCH(0x7e, MEM, "DMB_SPEC", "DMB barriers, speculative"),
	ARCH(0x81, OTHER, "EXC_UNDEF", "undefined-instruction exceptions taken"),
	ARCH(0x82, OTHER, "EXC_SVC", "supervisor calls taken"),
	ARCH(0x83, OTHER, "EXC_PABORT", "instruction aborts taken"),
	ARCH(0x84, OTHER, "EXC_DABORT", "data aborts taken"),
	ARCH(0x86, OTHER, "EXC_IRQ", "interrupts (IRQ) taken"),
	ARCH(0x87, OTHER, "EXC_FIQ", "fast interrupts (FIQ) taken"),
	ARCH(0x88, OTHER, "EXC_SMC", "secure monitor calls taken"),
	ARCH(0x8a, OTHER, "EXC_HVC", "hypervisor calls taken"),
	ARCH(0x8b, OTHER, "EXC_TRAP_PABORT", "instruction aborts not taken locally"),
	ARCH(0x8c, OTHER, "EXC_TRAP_DABORT", "data aborts not taken locally"),
	ARCH(0x8d, OTHER, "EXC_TRAP_OTHER", "other traps not taken locally"),
	ARCH(0x8e, OTHER, "EXC_TRAP_IRQ", "interrupts (IRQ) not taken locally"),
	ARCH(0x8f, OTHER, "EXC_TRAP_FIQ", "fast interrupts (FIQ) not taken locally"),
	ARCH(0x90, MEM, "RC_LD_SPEC", "load-acquire instructions, speculative"),
	ARCH(0x91, MEM, "RC_ST_SPEC", "store-release instructions, speculative"),
	ARCH(0xa0, CACHE, "L3D_CACHE_RD", "level 3 cache accesses by reads"),
	ARCH(0xa2, CACHE, "L3D_CACHE_REFILL_RD", "level 3 cache refills for a read"),
};

const size_t pmudev_nr_recommended_events = ARRAY_SIZE(pmudev_recommended_events);

/* ---- ARMv7: PMUv2 (Cortex-A7, A15) and PMUv1 (Cortex-A8, A9), 8-bit numbers ---- */

static const struct event_range a7_arch[] = {
	{ 0x00, 0x19 }, { 0x1d, 0x1d }, { 0x60, 0x61 }, { 0x86, 0x87 },
};

static const struct pmudev_event_info a7_own[] = {
	OWN(0xc0, MEM, "EXT_MEM_REQ", "requests to external memory"),
	OWN(0xc1, MEM, "EXT_MEM_REQ_NC", "non-cacheable requests to external memory"),
	OWN(0xc2, CACHE, "PREFETCH_LINEFILL", "linefills started by the prefetcher"),
	OWN(0xc3, CACHE, "PREFETCH_LINEFILL_DROP", "prefetch linefills dropped"),
	OWN(0xc4, CACHE, "READ_ALLOC_ENTER", "entries into read-allocate (store streaming) mode"),
	OWN(0xc5, CACHE, "READ_ALLOC", "read-allocate mode: stores that do not allocate"),
	OWN(0xc7, OTHER, "ETM_EXT_OUT0", "trace unit external output 0"),
	OWN(0xc8, OTHER, "ETM_EXT_OUT1", "trace unit external output 1"),
	OWN(0xc9, STALL, "STALL_SB_FULL", "stores that stall the pipeline: store buffer full"),
	OWN(0xca, CACHE, "EXT_SNOOP", "data supplied by a snoop of another core"),
};

static const struct event_range a8_arch[] = {
	{ 0x00, 0x12 },
};

static const struct pmudev_event_info a8_own[] = {
	OWN(0x40, STALL, "WRITE_BUFFER_FULL", "cycles the write buffer is full"),
	OWN(0x41, CACHE, "L2_STORE_MERGED", "stores merged in the level 2 cache"),
	OWN(0x42, CACHE, "L2_STORE_BUFFERABLE", "bufferable stores sent to the level 2 cache"),
	OWN(0x43, CACHE, "L2_CACHE_ACCESS", "level 2 cache accesses"),
	OWN(0x44, CACHE, "L2_CACHE_REFILL", "level 2 cache misses"),
	OWN(0x45, MEM, "AXI_READ_CYCLES", "cycles with an AXI read in progress"),
	OWN(0x46, MEM, "AXI_WRITE_CYCLES", "cycles with an AXI write in progress"),
	OWN(0x47, STALL, "MEMORY_REPLAY", "memory operations replayed"),
	OWN(0x48, MEM, "UNALIGNED_REPLAY", "unaligned accesses that were replayed"),
	OWN(0x49, CACHE, "L1D_HASH_MISS", "level 1 data misses found by the hashed lookup"),
	OWN(0x4a, CACHE, "L1I_HASH_MISS", "level 1 instruction misses found by the hashed lookup"),
	OWN(0x4b, CACHE, "L1D_PAGE_COLOR", "level 1 data accesses with a page colour alias"),
	OWN(0x4c, CACHE, "NEON_L1D_HIT", "NEON accesses that hit the level 1 data cache"),
	OWN(0x4d, CACHE, "NEON_L1D_ACCESS", "NEON accesses to cacheable data, level 1"),
	OWN(0x4e, CACHE, "NEON_L2_ACCESS", "level 2 cache accesses by NEON"),
	OWN(0x4f, CACHE, "NEON_L2_HIT", "level 2 cache hits by NEON"),
	OWN(0x50, CACHE, "L1I_CACHE_ACCESS", "level 1 instruction cache accesses"),
	OWN(0x51, BRANCH, "BR_RETURN_MIS_PRED", "returns the return stack mispredicted"),
	OWN(0x52, BRANCH, "BR_COND_MIS_PRED", "branches whose direction was mispredicted"),
	OWN(0x53, BRANCH, "BR_TAKEN_PRED", "branches predicted taken"),
	OWN(0x54, BRANCH, "BR_TAKEN_RETIRED", "taken branches executed"),
	OWN(0x55, CYC, "OP_EXECUTED", "operations executed, each step of a multi-cycle one"),
	OWN(0x56, STALL, "STALL_NO_INST", "cycles with no instruction ready to issue"),
	OWN(0x57, CYC, "INST_ISSUED", "instructions issued (0, 1 or 2 a cycle)"),
	OWN(0x58, STALL, "STALL_NEON_MRC", "cycles waiting for data from NEON (MRC)"),
	OWN(0x59, STALL, "STALL_NEON_QUEUE", "cycles stalled: NEON queues full"),
	OWN(0x5a, CYC, "NEON_BUSY_CYCLES", "cycles NEON and the integer core both work"),
};

static const struct event_range a9_arch[] = {
	{ 0x00, 0x07 }, { 0x09, 0x0d }, { 0x0f, 0x12 },
};

static const struct pmudev_event_info a9_own[] = {
	OWN(0x40, OTHER, "JAVA_BYTECODE", "Java bytecodes decoded, speculative"),
	OWN(0x41, OTHER, "JAVA_SW_BYTECODE", "Java bytecodes handled by software, speculative"),
	OWN(0x42, BRANCH, "JAZELLE_BACK_BRANCH", "Jazelle backward branches executed"),
	OWN(0x50, CACHE, "COHERENT_LINEFILL_MISS", "coherent linefills that missed every other core"),
	OWN(0x51, CACHE, "COHERENT_LINEFILL_HIT", "coherent linefills served by another core"),
	OWN(0x60, STALL, "STALL_ICACHE", "cycles waiting for the instruction cache"),
	OWN(0x61, STALL, "STALL_DCACHE", "cycles waiting for the data cache"),
	OWN(0x62, STALL, "STALL_TLB", "cycles waiting for a TLB walk"),
	OWN(0x63, MEM, "STREX_PASS", "store-exclusives that succeeded"),
	OWN(0x64, MEM, "STREX_FAIL", "store-exclusives that failed"),
	OWN(0x65, CACHE, "DATA_EVICTION", "data cache evictions for a linefill"),
	OWN(0x66, STALL, "STALL_DISPATCH", "cycles the issue stage dispatches nothing"),
	OWN(0x67, STALL, "ISSUE_EMPTY", "cycles the issue stage is empty"),
	OWN(0x68, CYC, "INST_RENAME", "instructions through register renaming, speculative"),
	OWN(0x6e, BRANCH, "BR_RETURN_PRED", "predictable returns whose condition passed"),
	OWN(0x70, CYC, "INST_MAIN_UNIT", "instructions run by the main execution unit"),
	OWN(0x71, CYC, "INST_SECOND_UNIT", "instructions run by the second execution unit"),
	OWN(0x72, CYC, "INST_LDST_UNIT", "instructions run by the load/store unit"),
	OWN(0x73, CYC, "FP_INST", "floating-point instructions through renaming"),
	OWN(0x74, CYC, "NEON_INST", "NEON instructions through renaming"),
	OWN(0x80, STALL, "STALL_PLD", "cycles stalled: every preload slot busy"),
	OWN(0x81, STALL, "STALL_WRITE", "cycles stalled writing to external memory"),
	OWN(0x82, STALL, "STALL_ITLB", "cycles stalled: main instruction TLB miss"),
	OWN(0x83, STALL, "STALL_DTLB", "cycles stalled: main data TLB miss"),
	OWN(0x84, STALL, "STALL_MICRO_ITLB", "cycles stalled: instruction micro-TLB miss"),
	OWN(0x85, STALL, "STALL_MICRO_DTLB", "cycles stalled: data micro-TLB miss"),
	OWN(0x86, STALL, "STALL_DMB", "cycles stalled by a DMB barrier"),
	OWN(0x8a, CYC, "INT_CLOCK_CYCLES", "cycles the integer core's clock runs"),
	OWN(0x8b, CYC, "DE_CLOCK_CYCLES", "cycles the data engine's (NEON, VFP) clock runs"),
	OWN(0x90, MEM, "ISB_RETIRED", "ISB barriers executed"),
	OWN(0x91, MEM, "DSB_RETIRED", "DSB barriers executed"),
	OWN(0x92, MEM, "DMB_RETIRED", "DMB barriers executed"),
	OWN(0x93, OTHER, "EXT_INTERRUPT", "external interrupts"),
	OWN(0xa0, CACHE, "PLE_LINE_DONE", "preload engine: line requests completed"),
	OWN(0xa1, CACHE, "PLE_LINE_SKIPPED", "preload engine: line requests skipped"),
	OWN(0xa2, CACHE, "PLE_FIFO_FLUSH", "preload engine: FIFO flushes"),
	OWN(0xa3, CACHE, "PLE_REQ_DONE", "preload engine: requests completed"),
	OWN(0xa4, CACHE, "PLE_FIFO_OVERFLOW", "preload engine: FIFO overflows"),
	OWN(0xa5, CACHE, "PLE_REQ_PROGRAMMED", "preload engine: requests programmed"),
};

/* The A9 has no INST_RETIRED: Linux counts instructions with 0x68 too. */
static const struct core_alias a9_aliases[] = {
	{ "instructions", 0x68, "INST_RENAME: speculative; no INST_RETIRED here" },
};

static const struct event_range a15_arch[] = {
	{ 0x00, 0x05 }, { 0x08, 0x0b }, { 0x10, 0x1d },
	{ 0x40, 0x43 }, { 0x46, 0x48 }, { 0x4c, 0x4d }, { 0x50, 0x53 }, { 0x56, 0x58 },
	{ 0x60, 0x6a }, { 0x6c, 0x6e }, { 0x70, 0x76 }, { 0x78, 0x7a }, { 0x7c, 0x7e },
};

static const struct core_alias a15_aliases[] = {
	{ "branches", 0x76, "PC_WRITE_SPEC: taken branches, speculative; "
			    "no BR_RETIRED or PC_WRITE_RETIRED here" },
};

/* ---- ARMv8.0: PMUv3, 10-bit numbers ---- */

static const struct event_range a53_arch[] = {
	{ 0x00, 0x0d }, { 0x0f, 0x1a }, { 0x1d, 0x1e },
	{ 0x60, 0x61 }, { 0x7a, 0x7a }, { 0x86, 0x87 },
};

static const struct pmudev_event_info a53_own[] = {
	OWN(0xc0, MEM, "EXT_MEM_REQ", "requests to external memory"),
	OWN(0xc1, MEM, "EXT_MEM_REQ_NC", "non-cacheable requests to external memory"),
	OWN(0xc2, CACHE, "PREFETCH_LINEFILL", "linefills started by the prefetcher"),
	OWN(0xc3, CACHE, "PREFETCH_LINEFILL_DROP", "instruction prefetches dropped (throttling)"),
	OWN(0xc4, CACHE, "READ_ALLOC_ENTER", "entries into read-allocate (store streaming) mode"),
	OWN(0xc5, CACHE, "READ_ALLOC", "read-allocate mode: stores that do not allocate"),
	OWN(0xc6, OTHER, "PRE_DECODE_ERR", "instruction pre-decode errors"),
	OWN(0xc7, STALL, "STALL_SB_FULL", "stores that stall the pipeline: store buffer full"),
	OWN(0xc8, CACHE, "EXT_SNOOP", "data supplied by a snoop of another core"),
	OWN(0xc9, BRANCH, "BR_COND", "conditional branches executed"),
	OWN(0xca, BRANCH, "BR_INDIRECT_MISPRED", "indirect branches mispredicted"),
	OWN(0xcb, BRANCH, "BR_INDIRECT_MISPRED_ADDR", "indirect branches to a mispredicted target"),
	OWN(0xcc, BRANCH, "BR_COND_MISPRED", "conditional branches mispredicted"),
	OWN(0xd0, OTHER, "L1I_CACHE_ERR", "level 1 instruction cache memory errors"),
	OWN(0xd1, OTHER, "L1D_CACHE_ERR", "level 1 data cache memory errors"),
	OWN(0xd2, OTHER, "TLB_ERR", "TLB memory errors"),
	OWN(0xe0, STALL, "OTHER_IQ_DEP_STALL", "cycles the issue queue is empty, other causes"),
	OWN(0xe1, STALL, "IC_DEP_STALL", "cycles the issue queue is empty: instruction cache miss"),
	OWN(0xe2, STALL, "IUTLB_DEP_STALL", "cycles the issue queue is empty: instruction micro-TLB miss"),
	OWN(0xe3, STALL, "DECODE_DEP_STALL", "cycles the issue queue is empty: pre-decode error"),
	OWN(0xe4, STALL, "OTHER_INTERLOCK_STALL", "cycles held by another interlock"),
	OWN(0xe5, STALL, "AGU_DEP_STALL", "cycles a load or store waits for its address inputs"),
	OWN(0xe6, STALL, "SIMD_DEP_STALL", "cycles held by a SIMD or floating-point interlock"),
	OWN(0xe7, STALL, "LD_DEP_STALL", "cycles the write-back stage waits for a load miss"),
	OWN(0xe8, STALL, "ST_DEP_STALL", "cycles the write-back stage waits for a store"),
};

/* The Cortex-A57 and A72 share their event list (as perf's tables do). */
static const struct event_range a57_a72_arch[] = {
	{ 0x00, 0x05 }, { 0x08, 0x0b }, { 0x10, 0x1e },
	{ 0x40, 0x43 }, { 0x46, 0x48 }, { 0x4c, 0x4d }, { 0x50, 0x53 }, { 0x56, 0x58 },
	{ 0x60, 0x6a }, { 0x6c, 0x6e }, { 0x70, 0x7a }, { 0x7c, 0x7e }, { 0x81, 0x91 },
};

static const struct core_alias a57_a72_aliases[] = {
	{ "branches", 0x12, "BR_PRED: speculative; no BR_RETIRED or PC_WRITE_RETIRED here" },
};

static const struct event_range a73_arch[] = {
	{ 0x00, 0x05 }, { 0x08, 0x0e }, { 0x10, 0x19 }, { 0x1b, 0x1e },
	{ 0x40, 0x41 }, { 0x50, 0x51 }, { 0x56, 0x58 }, { 0x62, 0x67 }, { 0x6a, 0x6a },
	{ 0x6c, 0x6c }, { 0x6e, 0x6e }, { 0x70, 0x75 }, { 0x77, 0x77 }, { 0x7c, 0x7e },
	{ 0x8a, 0x8a },
};

static const struct pmudev_event_info a73_own[] = {
	OWN(0xc0, STALL, "LF_STALL", "instruction-side stalls for a linefill"),
	OWN(0xc1, STALL, "PTW_STALL", "instruction-side stalls for a table walk"),
	OWN(0xc2, CACHE, "I_TAG_RAM_RD", "instruction cache tag RAM ways read"),
	OWN(0xc3, CACHE, "I_DATA_RAM_RD", "instruction cache data RAM ways read"),
	OWN(0xc4, BRANCH, "I_BTAC_RAM_RD", "branch target cache (BTAC) ways read"),
	OWN(0xd3, STALL, "D_LSU_SLOT_FULL", "cycles every load/store unit slot is busy"),
	OWN(0xd8, STALL, "LS_IQ_FULL", "cycles the load/store issue queue is full"),
	OWN(0xd9, STALL, "DP_IQ_FULL", "cycles the data-processing issue queue is full"),
	OWN(0xda, STALL, "DE_IQ_FULL", "cycles the data engine issue queue is full"),
	OWN(0xdc, OTHER, "EXC_TRAP_HYP", "traps to the hypervisor"),
	OWN(0xde, OTHER, "ETM_EXT_OUT0", "trace unit external output 0"),
	OWN(0xdf, OTHER, "ETM_EXT_OUT1", "trace unit external output 1"),
	OWN(0xe0, TLB, "MMU_PTW", "cycles of table walks by the MMU"),
	OWN(0xe1, TLB, "MMU_PTW_ST1", "cycles of stage 1 table walks"),
	OWN(0xe2, TLB, "MMU_PTW_ST2", "cycles of stage 2 table walks"),
	OWN(0xe3, TLB, "MMU_PTW_LSU", "cycles of table walks for the load/store unit"),
	OWN(0xe4, TLB, "MMU_PTW_ISIDE", "cycles of table walks for instruction fetch"),
	OWN(0xe5, TLB, "MMU_PTW_PLD", "cycles of table walks for preloads and prefetches"),
	OWN(0xe6, TLB, "MMU_PTW_CP15", "cycles of table walks for CP15 operations"),
	OWN(0xe7, TLB, "PLD_UTLB_REFILL", "level 1 TLB refills for preloads"),
	OWN(0xe8, TLB, "CP15_UTLB_REFILL", "level 1 TLB refills for CP15 operations"),
	OWN(0xe9, TLB, "UTLB_FLUSH", "level 1 TLB flushes"),
	OWN(0xea, TLB, "TLB_ACCESS", "level 2 TLB accesses"),
	OWN(0xeb, TLB, "TLB_MISS", "level 2 TLB misses"),
	OWN(0xec, CACHE, "DCACHE_SELF_HIT_VIPT", "data cache hits on its own VIPT alias"),
};

/* ---- ARMv8.1 and later: 16-bit numbers ---- */

static const struct event_range a55_arch[] = {
	{ 0x00, 0x1e }, { 0x20, 0x26 }, { 0x29, 0x2b }, { 0x2d, 0x2d }, { 0x2f, 0x2f },
	{ 0x34, 0x38 }, { 0x40, 0x45 }, { 0x50, 0x53 }, { 0x60, 0x61 }, { 0x66, 0x67 },
	{ 0x70, 0x7a }, { 0x86, 0x87 }, { 0xa0, 0xa0 }, { 0xa2, 0xa2 },
};

static const struct pmudev_event_info a55_own[] = {
	OWN(0xc0, CACHE, "L3D_CACHE_REFILL_PREFETCH", "level 3 refills by the prefetcher"),
	OWN(0xc1, CACHE, "L2D_CACHE_REFILL_PREFETCH", "level 2 refills by the prefetcher"),
	OWN(0xc2, CACHE, "L1D_CACHE_REFILL_PREFETCH", "level 1 data refills by the prefetcher"),
	OWN(0xc3, CACHE, "L2D_WS_MODE", "cycles level 2 is in write-streaming mode"),
	OWN(0xc4, CACHE, "L1D_WS_MODE_ENTRY", "entries into level 1 write-streaming mode"),
	OWN(0xc5, CACHE, "L1D_WS_MODE", "cycles level 1 data is in write-streaming mode"),
	OWN(0xc6, OTHER, "PREDECODE_ERROR", "instruction pre-decode errors"),
	OWN(0xc7, CACHE, "L3D_WS_MODE", "cycles level 3 is in write-streaming mode"),
	OWN(0xc9, BRANCH, "BR_COND_PRED", "conditional branches predicted and executed"),
	OWN(0xca, BRANCH, "BR_INDIRECT_MIS_PRED", "indirect branches mispredicted"),
	OWN(0xcb, BRANCH, "BR_INDIRECT_ADDR_MIS_PRED", "indirect branches to a mispredicted target"),
	OWN(0xcc, BRANCH, "BR_COND_MIS_PRED", "conditional branches mispredicted"),
	OWN(0xcd, BRANCH, "BR_INDIRECT_ADDR_PRED", "indirect branches with a predicted target"),
	OWN(0xce, BRANCH, "BR_RETURN_ADDR_PRED", "returns with a predicted target"),
	OWN(0xcf, BRANCH, "BR_RETURN_ADDR_MIS_PRED", "returns to a mispredicted target"),
	OWN(0xd0, TLB, "L2D_LLWALK_TLB", "last-level walk cache accesses"),
	OWN(0xd1, TLB, "L2D_LLWALK_TLB_REFILL", "last-level walk cache refills"),
	OWN(0xd2, TLB, "L2D_L2WALK_TLB", "level 2 walk cache accesses"),
	OWN(0xd3, TLB, "L2D_L2WALK_TLB_REFILL", "level 2 walk cache refills"),
	OWN(0xd4, TLB, "L2D_S2_TLB", "stage 2 (IPA) cache accesses"),
	OWN(0xd5, TLB, "L2D_S2_TLB_REFILL", "stage 2 (IPA) cache refills"),
	OWN(0xd6, CACHE, "L2D_CACHE_STASH_DROPPED", "stash requests to level 2 dropped"),
	OWN(0xe1, STALL, "STALL_FRONTEND_CACHE", "front-end stall cycles: instruction cache miss"),
	OWN(0xe2, STALL, "STALL_FRONTEND_TLB", "front-end stall cycles: instruction TLB miss"),
	OWN(0xe3, STALL, "STALL_FRONTEND_PDERR", "front-end stall cycles: pre-decode error"),
	OWN(0xe4, STALL, "STALL_BACKEND_ILOCK", "back-end stall cycles: an interlock"),
	OWN(0xe5, STALL, "STALL_BACKEND_ILOCK_AGU", "back-end stall cycles: address inputs"),
	OWN(0xe6, STALL, "STALL_BACKEND_ILOCK_FPU", "back-end stall cycles: SIMD or FP interlock"),
	OWN(0xe7, STALL, "STALL_BACKEND_LD", "back-end stall cycles: a load"),
	OWN(0xe8, STALL, "STALL_BACKEND_ST", "back-end stall cycles: a store"),
	OWN(0xe9, STALL, "STALL_BACKEND_LD_CACHE", "back-end stall cycles: a load cache miss"),
	OWN(0xea, STALL, "STALL_BACKEND_LD_TLB", "back-end stall cycles: a load TLB miss"),
	OWN(0xeb, STALL, "STALL_BACKEND_ST_STB", "back-end stall cycles: store buffer full"),
	OWN(0xec, STALL, "STALL_BACKEND_ST_TLB", "back-end stall cycles: a store TLB miss"),
};

static const struct event_range a76_arch[] = {
	{ 0x00, 0x05 }, { 0x08, 0x0b }, { 0x10, 0x1e }, { 0x20, 0x26 }, { 0x29, 0x2b },
	{ 0x2d, 0x2d }, { 0x2f, 0x2f }, { 0x31, 0x31 }, { 0x34, 0x37 },
	{ 0x40, 0x48 }, { 0x4c, 0x53 }, { 0x56, 0x58 }, { 0x5c, 0x61 }, { 0x66, 0x6a },
	{ 0x6c, 0x7a }, { 0x7c, 0x7e }, { 0x81, 0x91 }, { 0xa0, 0xa0 },
};

#define LIST(a)	a, ARRAY_SIZE(a)
#define NONE	NULL, 0

/* By part number. */
const struct core_events pmudev_core_tables[] = {
	{ 0xc07, 8, LIST(a7_arch), LIST(a7_own), NONE },
	{ 0xc08, 8, LIST(a8_arch), LIST(a8_own), NONE },
	{ 0xc09, 8, LIST(a9_arch), LIST(a9_own), LIST(a9_aliases) },
	{ 0xc0f, 8, LIST(a15_arch), NONE, LIST(a15_aliases) },
	{ 0xd03, 10, LIST(a53_arch), LIST(a53_own), NONE },
	{ 0xd05, 16, LIST(a55_arch), LIST(a55_own), NONE },
	{ 0xd07, 10, LIST(a57_a72_arch), NONE, LIST(a57_a72_aliases) },
	{ 0xd08, 10, LIST(a57_a72_arch), NONE, LIST(a57_a72_aliases) },
	{ 0xd09, 10, LIST(a73_arch), LIST(a73_own), NONE },
	{ 0xd0b, 16, LIST(a76_arch), NONE, NONE },
};

const size_t pmudev_nr_core_tables = ARRAY_SIZE(pmudev_core_tables);
