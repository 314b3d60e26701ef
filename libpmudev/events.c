// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Event names: the architecture's common events (ARMv7 PMUv1/v2 numbered
 * them 0x00-0x1d; ARMv8 PMUv3 kept those and went on to 0x3f), perf's
 * generic aliases, raw numbers, and :u / :k modifiers.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "internal.h"

struct event_name {
	uint32_t number;
	const char *name;
	const char *description;
};

static const struct event_name common_events[] = {
	{ 0x00, "SW_INCR", "software increment (writes to PMSWINC)" },
	{ 0x01, "L1I_CACHE_REFILL", "level 1 instruction cache refills" },
	{ 0x02, "L1I_TLB_REFILL", "level 1 instruction TLB refills" },
	{ 0x03, "L1D_CACHE_REFILL", "level 1 data cache refills" },
	{ 0x04, "L1D_CACHE", "level 1 data cache accesses" },
	{ 0x05, "L1D_TLB_REFILL", "level 1 data TLB refills" },
	{ 0x06, "LD_RETIRED", "loads architecturally executed" },
	{ 0x07, "ST_RETIRED", "stores architecturally executed" },
	{ 0x08, "INST_RETIRED", "instructions architecturally executed" },
	{ 0x09, "EXC_TAKEN", "exceptions taken" },
	{ 0x0a, "EXC_RETURN", "exception returns executed" },
	{ 0x0b, "CID_WRITE_RETIRED", "writes to the context ID register" },
	{ 0x0c, "PC_WRITE_RETIRED", "software changes of the PC (branches taken)" },
	{ 0x0d, "BR_IMMED_RETIRED", "immediate branches executed" },
	{ 0x0e, "BR_RETURN_RETIRED", "procedure returns executed" },
	{ 0x0f, "UNALIGNED_LDST_RETIRED", "unaligned loads and stores executed" },
	{ 0x10, "BR_MIS_PRED", "branches mispredicted or not predicted" },
	{ 0x11, "CPU_CYCLES", "processor cycles" },
	{ 0x12, "BR_PRED", "branches that could be predicted" },
	{ 0x13, "MEM_ACCESS", "data memory accesses" },
	{ 0x14, "L1I_CACHE", "level 1 instruction cache accesses" },
	{ 0x15, "L1D_CACHE_WB", "level 1 data cache write-backs" },
	{ 0x16, "L2D_CACHE", "level 2 data cache accesses" },
	{ 0x17, "L2D_CACHE_REFILL", "level 2 data cache refills" },
	{ 0x18, "L2D_CACHE_WB", "level 2 data cache write-backs" },
	{ 0x19, "BUS_ACCESS", "bus accesses" },
	{ 0x1a, "MEMORY_ERROR", "local memory errors" },
	{ 0x1b, "INST_SPEC", "instructions speculatively executed" },
	{ 0x1c, "TTBR_WRITE_RETIRED", "writes to a translation table base register" },
	{ 0x1d, "BUS_CYCLES", "bus cycles" },
	{ 0x1e, "CHAIN", "odd counter counts overflows of the even one" },
	{ 0x1f, "L1D_CACHE_ALLOCATE", "level 1 data cache allocations without refill" },
	{ 0x20, "L2D_CACHE_ALLOCATE", "level 2 data cache allocations without refill" },
	{ 0x21, "BR_RETIRED", "branches architecturally executed" },
	{ 0x22, "BR_MIS_PRED_RETIRED", "branches executed and mispredicted" },
	{ 0x23, "STALL_FRONTEND", "cycles with no instruction to dispatch" },
	{ 0x24, "STALL_BACKEND", "cycles unable to accept a dispatched instruction" },
	{ 0x25, "L1D_TLB", "level 1 data TLB accesses" },
	{ 0x26, "L1I_TLB", "level 1 instruction TLB accesses" },
	{ 0x27, "L2I_CACHE", "level 2 instruction cache accesses" },
	{ 0x28, "L2I_CACHE_REFILL", "level 2 instruction cache refills" },
	{ 0x29, "L3D_CACHE_ALLOCATE", "level 3 data cache allocations without refill" },
	{ 0x2a, "L3D_CACHE_REFILL", "level 3 data cache refills" },
	{ 0x2b, "L3D_CACHE", "level 3 data cache accesses" },
	{ 0x2c, "L3D_CACHE_WB", "level 3 data cache write-backs" },
	{ 0x2d, "L2D_TLB_REFILL", "level 2 data TLB refills" },
	{ 0x2e, "L2I_TLB_REFILL", "level 2 instruction TLB refills" },
	{ 0x2f, "L2D_TLB", "level 2 data TLB accesses" },
	{ 0x30, "L2I_TLB", "level 2 instruction TLB accesses" },
	{ 0x31, "REMOTE_ACCESS", "accesses to another socket's memory" },
	{ 0x32, "LL_CACHE", "last level cache accesses" },
	{ 0x33, "LL_CACHE_MISS", "last level cache misses" },
	{ 0x34, "DTLB_WALK", "data TLB walks" },
	{ 0x35, "ITLB_WALK", "instruction TLB walks" },
	{ 0x36, "LL_CACHE_RD", "last level cache read accesses" },
	{ 0x37, "LL_CACHE_MISS_RD", "last level cache read misses" },
	{ 0x38, "REMOTE_ACCESS_RD", "reads of another socket's memory" },
	{ 0x39, "L1D_CACHE_LMISS_RD", "level 1 data cache long-latency read misses" },
	{ 0x3a, "OP_RETIRED", "micro-operations architecturally executed" },
	{ 0x3b, "OP_SPEC", "micro-operations speculatively executed" },
	{ 0x3c, "STALL", "cycles in which no operation was sent for execution" },
	{ 0x3d, "STALL_SLOT_BACKEND", "dispatch slots left empty by the back end" },
	{ 0x3e, "STALL_SLOT_FRONTEND", "dispatch slots left empty by the front end" },
	{ 0x3f, "STALL_SLOT", "dispatch slots left empty" },
};

#define NR_COMMON_EVENTS (sizeof(common_events) / sizeof(common_events[0]))

/* The last common event ARMv7 defines; ARMv8 added 0x1e-0x3f. */
#define ARMV7_LAST_COMMON	0x1d

#define NO_EVENT		UINT32_MAX

/*
 * perf's generic names. "branches" is BR_RETIRED on ARMv8, PC_WRITE_RETIRED
 * where a core reports BR_RETIRED missing but has that, and on ARMv7.
 */
struct event_alias {
	const char *alias;
	uint32_t v8, v8_fallback, v7;
};

static const struct event_alias aliases[] = {
	{ "cycles", 0x11, NO_EVENT, 0x11 },
	{ "instructions", 0x08, NO_EVENT, 0x08 },
	{ "cache-references", 0x04, NO_EVENT, 0x04 },
	{ "cache-misses", 0x03, NO_EVENT, 0x03 },
	{ "branches", 0x21, 0x0c, 0x0c },
	{ "branch-misses", 0x10, NO_EVENT, 0x10 },
};

#define NR_ALIASES (sizeof(aliases) / sizeof(aliases[0]))

/* Room for any name: the longest is 22 characters. */
#define MAX_SPEC 64

/* Why a spec is rejected, for pmudev_event_error(). */
enum verdict {
	EV_OK,
	EV_EMPTY,
	EV_TOO_LONG,
	EV_BAD_MODIFIER,
	EV_BAD_NUMBER,
	EV_UNKNOWN,
	EV_TOO_WIDE,
	EV_NOT_ARMV7,
	EV_NOT_IMPLEMENTED,
};

static int verdict_errno(enum verdict v)
{
	switch (v) {
	case EV_OK:
		return 0;
	case EV_TOO_WIDE:
		return -ERANGE;
	case EV_NOT_ARMV7:
	case EV_NOT_IMPLEMENTED:
		return -ENOENT;
	default:
		return -EINVAL;
	}
}

const char *pmudev_event_name(uint32_t number)
{
	return number < NR_COMMON_EVENTS ? common_events[number].name : NULL;
}

const char *pmudev_event_description(uint32_t number)
{
	return number < NR_COMMON_EVENTS ? common_events[number].description : NULL;
}

const char *pmudev_mode_suffix(uint32_t flags)
{
	switch (flags & ARMPMU_EVENT_FLAGS) {
	case 0:
		return "";
	case ARMPMU_EXCLUDE_KERNEL:
		return ":u";
	case ARMPMU_EXCLUDE_USER:
		return ":k";
	default:
		return ":none";
	}
}

/* perf's letters: each at most once, at least one. */
static bool parse_modifier(const char *mod, uint32_t *flags)
{
	bool user = false, kernel = false;

	if (!*mod)
		return false;
	for (; *mod; mod++) {
		if (*mod == 'u' && !user)
			user = true;
		else if (*mod == 'k' && !kernel)
			kernel = true;
		else
			return false;
	}
	*flags = (user ? 0 : ARMPMU_EXCLUDE_USER) | (kernel ? 0 : ARMPMU_EXCLUDE_KERNEL);
	return true;
}

static bool all_hex(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!isxdigit((unsigned char)*s))
			return false;
	return true;
}

/*
 * "0x11" or "r11", hexadecimal. Names may begin with R (REMOTE_ACCESS), so
 * r is raw only when hex digits alone follow; 0x always is.
 */
static enum verdict parse_raw(const char *name, bool *raw, uint32_t *number)
{
	const char *digits;
	unsigned long long val;
	char *end;

	*raw = true;
	if (name[0] == '0' && (name[1] == 'x' || name[1] == 'X'))
		digits = name + 2;
	else if ((name[0] == 'r' || name[0] == 'R') && all_hex(name + 1))
		digits = name + 1;
	else
		*raw = false;
	if (!*raw)
		return EV_OK;
	if (!all_hex(digits))
		return EV_BAD_NUMBER;
	errno = 0;
	val = strtoull(digits, &end, 16);
	if (errno || val > UINT32_MAX)
		return EV_BAD_NUMBER;
	*number = val;
	return EV_OK;
}

static bool implemented(const struct armpmu_info *info, uint32_t number)
{
	if (!info || !(info->flags & ARMPMU_INFO_EVENTS_KNOWN))
		return true;
	if (number < 64)
		return info->common_events & (1ULL << number);
	if (number >= 0x4000 && number < 0x4040)
		return info->common_events_hi & (1ULL << (number - 0x4000));
	return true;
}

static bool is_v7(const struct armpmu_info *info)
{
	return info && info->pmu_version < ARMPMU_PMUV3;
}

static uint32_t resolve_alias(const struct event_alias *a,
			      const struct armpmu_info *info)
{
	if (is_v7(info))
		return a->v7;
	if (a->v8_fallback != NO_EVENT && !implemented(info, a->v8) &&
	    implemented(info, a->v8_fallback))
		return a->v8_fallback;
	return a->v8;
}

static bool lookup_name(const char *name, const struct armpmu_info *info,
			uint32_t *number)
{
	for (size_t i = 0; i < NR_ALIASES; i++) {
		if (!strcasecmp(name, aliases[i].alias)) {
			*number = resolve_alias(&aliases[i], info);
			return true;
		}
	}
	for (size_t i = 0; i < NR_COMMON_EVENTS; i++) {
		if (!strcasecmp(name, common_events[i].name)) {
			*number = common_events[i].number;
			return true;
		}
	}
	return false;
}

/* Copy the name part of @spec (before any ':') into @name. */
static enum verdict split_spec(const char *spec, char *name, const char **mod)
{
	const char *colon = strchr(spec, ':');
	size_t len = colon ? (size_t)(colon - spec) : strlen(spec);

	if (!len)
		return EV_EMPTY;
	if (len >= MAX_SPEC)
		return EV_TOO_LONG;
	memcpy(name, spec, len);
	name[len] = '\0';
	*mod = colon ? colon + 1 : NULL;
	return EV_OK;
}

bool pmudev_spec_is_cycles(const char *spec)
{
	char name[MAX_SPEC];
	const char *mod;

	return split_spec(spec, name, &mod) == EV_OK && !strcasecmp(name, "cycles");
}

static enum verdict parse(const char *spec, const struct armpmu_info *info,
			  struct pmudev_event *ev)
{
	char name[MAX_SPEC];
	const char *mod;
	enum verdict v;
	bool raw;

	v = split_spec(spec, name, &mod);
	if (v)
		return v;
	/* Like perf: without a modifier, count what the caller may count. */
	ev->flags = 0;
	if (mod) {
		if (!parse_modifier(mod, &ev->flags))
			return EV_BAD_MODIFIER;
	} else if (info && !(info->flags & ARMPMU_INFO_KERNEL_ALLOWED)) {
		ev->flags = ARMPMU_EXCLUDE_KERNEL;
	}
	v = parse_raw(name, &raw, &ev->number);
	if (v)
		return v;
	if (!raw && !lookup_name(name, info, &ev->number))
		return EV_UNKNOWN;
	/* The hardware ignores wider bits: it would count another event. */
	if (info && info->event_bits < 32 && ev->number >> info->event_bits)
		return EV_TOO_WIDE;
	if (!raw && is_v7(info) && ev->number > ARMV7_LAST_COMMON)
		return EV_NOT_ARMV7;
	return implemented(info, ev->number) ? EV_OK : EV_NOT_IMPLEMENTED;
}

int pmudev_event_parse(const char *spec, const struct armpmu_info *info,
		       struct pmudev_event *ev)
{
	struct pmudev_event tmp;
	enum verdict v = parse(spec, info, &tmp);

	if (v == EV_OK)
		*ev = tmp;
	return verdict_errno(v);
}

/* Edit distance, case-insensitive, '-' and '_' equal. */
static int distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	int row[MAX_SPEC + 1];

	if (la > MAX_SPEC || lb > MAX_SPEC)
		return MAX_SPEC;
	for (size_t j = 0; j <= lb; j++)
		row[j] = j;
	for (size_t i = 1; i <= la; i++) {
		int diag = row[0];

		row[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			int ca = tolower((unsigned char)a[i - 1]);
			int cb = tolower((unsigned char)b[j - 1]);
			bool same = ca == cb || ((ca == '-' || ca == '_') &&
						 (cb == '-' || cb == '_'));
			int best = diag + !same;
			int up = row[j] + 1, left = row[j - 1] + 1;

			if (up < best)
				best = up;
			if (left < best)
				best = left;
			diag = row[j];
			row[j] = best;
		}
	}
	return row[lb];
}

struct candidate {
	const char *name;
	int distance;
};

/* Ties in name order, so that the same typo always gets the same answer. */
static int by_distance(const void *a, const void *b)
{
	const struct candidate *ca = a, *cb = b;

	if (ca->distance != cb->distance)
		return ca->distance - cb->distance;
	return strcmp(ca->name, cb->name);
}

int pmudev_event_suggest(const char *spec, char *buf, size_t len, int max)
{
	struct candidate all[NR_ALIASES + NR_COMMON_EVENTS];
	char name[MAX_SPEC];
	const char *mod;
	size_t n = 0, used = 0;
	int written = 0, limit;

	if (len)
		buf[0] = '\0';
	if (split_spec(spec, name, &mod))
		return 0;
	for (size_t i = 0; i < NR_ALIASES; i++)
		all[n++] = (struct candidate){ aliases[i].alias,
					       distance(name, aliases[i].alias) };
	for (size_t i = 0; i < NR_COMMON_EVENTS; i++)
		all[n++] = (struct candidate){ common_events[i].name,
					       distance(name, common_events[i].name) };
	qsort(all, n, sizeof(all[0]), by_distance);

	/*
	 * Close means: at most a third of the letters differ (or two), and
	 * not much further than the closest, which is likely the one meant.
	 */
	limit = strlen(name) / 3 > 2 ? (int)strlen(name) / 3 : 2;
	if (all[0].distance + 1 < limit)
		limit = all[0].distance + 1;
	for (size_t i = 0; i < n && written < max; i++) {
		size_t need = strlen(all[i].name) + (written ? 2 : 0);

		if (all[i].distance > limit || used + need + 1 > len)
			break;
		used += snprintf(buf + used, len - used, "%s%s", written ? ", " : "",
				 all[i].name);
		written++;
	}
	return written;
}

static void describe_number(char *buf, size_t len, uint32_t number)
{
	const char *name = pmudev_event_name(number);

	if (name)
		snprintf(buf, len, "%s (0x%02x)", name, number);
	else
		snprintf(buf, len, "event 0x%x", number);
}

int pmudev_event_error(const char *spec, const struct armpmu_info *info,
		       char *buf, size_t len)
{
	struct pmudev_event ev = { 0 };
	enum verdict v = parse(spec, info, &ev);
	const char *colon = strchr(spec, ':');
	const char *core = info ? pmudev_core_name(info->midr) : NULL;
	char what[48], near[96];

	describe_number(what, sizeof(what), ev.number);
	switch (v) {
	case EV_OK:
		if (len)
			buf[0] = '\0';
		break;
	case EV_EMPTY:
		snprintf(buf, len, "no event name in '%s'", spec);
		break;
	case EV_TOO_LONG:
		snprintf(buf, len, "event name longer than %d characters", MAX_SPEC - 1);
		break;
	case EV_BAD_MODIFIER:
		snprintf(buf, len, "bad modifier '%s' in '%s' (use :u, :k or :uk)",
			 colon, spec);
		break;
	case EV_BAD_NUMBER:
		snprintf(buf, len, "bad event number in '%s' (hexadecimal: 0x11 or r11)",
			 spec);
		break;
	case EV_UNKNOWN:
		if (pmudev_event_suggest(spec, near, sizeof(near), 3))
			snprintf(buf, len, "unknown event '%s'; did you mean %s?", spec,
				 near);
		else
			snprintf(buf, len, "unknown event '%s'", spec);
		break;
	case EV_TOO_WIDE:
		snprintf(buf, len, "%s does not fit this core's %u-bit event numbers",
			 what, info->event_bits);
		break;
	case EV_NOT_ARMV7:
		snprintf(buf, len, "%s is an ARMv8 event: ARMv7 cores have no such event",
			 what);
		break;
	case EV_NOT_IMPLEMENTED:
		snprintf(buf, len, "%s is not implemented by this core%s%s%s", what,
			 core ? " (" : "", core ? core : "", core ? ")" : "");
		break;
	}
	return verdict_errno(v);
}
