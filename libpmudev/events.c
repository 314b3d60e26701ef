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

#define NR_COMMON_EVENTS pmudev_nr_common_events

/* The last common event ARMv7 defines; ARMv8 added 0x1e-0x3f. */
#define ARMV7_LAST_COMMON	0x1d
#define COMMON_HI_BASE		ARMPMU_EV_COMMON_HI_BASE

#define NO_EVENT		UINT32_MAX

/* The longest table of a core, its architectural and own events together. */
#define MAX_CORE_EVENTS		256

/*
 * perf's generic names. "branches" is BR_RETIRED on ARMv8, PC_WRITE_RETIRED
 * where a core lacks BR_RETIRED but has that, and on ARMv7; a core's table
 * may name its own stand-in (struct core_alias).
 */
struct event_alias {
	const char *alias;
	uint32_t v8, v8_fallback, v7;
};

static const struct event_alias aliases[] = {
	{ "cycles", ARMPMU_EV_CPU_CYCLES, NO_EVENT, ARMPMU_EV_CPU_CYCLES },
	{ "instructions", ARMPMU_EV_INST_RETIRED, NO_EVENT, ARMPMU_EV_INST_RETIRED },
	{ "cache-references", ARMPMU_EV_L1D_CACHE, NO_EVENT, ARMPMU_EV_L1D_CACHE },
	{ "cache-misses", ARMPMU_EV_L1D_CACHE_REFILL, NO_EVENT, ARMPMU_EV_L1D_CACHE_REFILL },
	{ "branches", ARMPMU_EV_BR_RETIRED, ARMPMU_EV_PC_WRITE_RETIRED,
	  ARMPMU_EV_PC_WRITE_RETIRED },
	{ "branch-misses", ARMPMU_EV_BR_MIS_PRED, NO_EVENT, ARMPMU_EV_BR_MIS_PRED },
};

#define NR_ALIASES (sizeof(aliases) / sizeof(aliases[0]))

const char *pmudev_perf_alias(unsigned int index)
{
	return index < NR_ALIASES ? aliases[index].alias : NULL;
}

static const char *const group_names[PMUDEV_NR_GROUPS] = {
	[PMUDEV_GROUP_CYCLES] = "cycles and instructions",
	[PMUDEV_GROUP_CACHE] = "caches",
	[PMUDEV_GROUP_TLB] = "TLBs",
	[PMUDEV_GROUP_BRANCH] = "branches",
	[PMUDEV_GROUP_MEMORY] = "memory and bus",
	[PMUDEV_GROUP_STALL] = "stalls",
	[PMUDEV_GROUP_OTHER] = "other",
};

/* Room for any name: the longest is 25 characters. */
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
	EV_OTHER_CORE,
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
	case EV_OTHER_CORE:
		return -ENOENT;
	default:
		return -EINVAL;
	}
}

const char *pmudev_event_name(uint32_t number)
{
	return number < NR_COMMON_EVENTS ? pmudev_common_events[number].name : NULL;
}

const char *pmudev_event_description(uint32_t number)
{
	return number < NR_COMMON_EVENTS ? pmudev_common_events[number].description : NULL;
}

const char *pmudev_event_group_name(unsigned int group)
{
	return group < PMUDEV_NR_GROUPS ? group_names[group] : NULL;
}

/* ---- the tables ---- */

/* The architecture's event @number (common or recommended), or NULL. */
static const struct pmudev_event_info *arch_event(uint32_t number)
{
	if (number < NR_COMMON_EVENTS)
		return &pmudev_common_events[number];
	for (size_t i = 0; i < pmudev_nr_recommended_events; i++)
		if (pmudev_recommended_events[i].number == number)
			return &pmudev_recommended_events[i];
	return NULL;
}

static const struct pmudev_event_info *arch_event_named(const char *name)
{
	for (size_t i = 0; i < NR_COMMON_EVENTS; i++)
		if (!strcasecmp(name, pmudev_common_events[i].name))
			return &pmudev_common_events[i];
	for (size_t i = 0; i < pmudev_nr_recommended_events; i++)
		if (!strcasecmp(name, pmudev_recommended_events[i].name))
			return &pmudev_recommended_events[i];
	return NULL;
}

/* @core's events in number order, into @out (MAX_CORE_EVENTS); how many. */
static size_t core_event_list(const struct core_events *core,
			      const struct pmudev_event_info **out)
{
	const struct pmudev_event_info *arch[MAX_CORE_EVENTS];
	size_t na = 0, n = 0, i = 0, j = 0;

	for (size_t r = 0; r < core->nr_arch; r++) {
		for (uint32_t nr = core->arch[r].first; nr <= core->arch[r].last; nr++) {
			const struct pmudev_event_info *ev = arch_event(nr);

			if (ev && na < MAX_CORE_EVENTS)
				arch[na++] = ev;
		}
	}
	while ((i < na || j < core->nr_own) && n < MAX_CORE_EVENTS) {
		if (j == core->nr_own || (i < na && arch[i]->number <= core->own[j].number))
			out[n++] = arch[i++];
		else
			out[n++] = &core->own[j++];
	}
	return n;
}

const struct pmudev_event_info *pmudev_core_event(uint32_t midr, unsigned int index)
{
	const struct core_events *core = pmudev_core_events(midr);
	const struct pmudev_event_info *list[MAX_CORE_EVENTS];

	if (!core || index >= core_event_list(core, list))
		return NULL;
	return list[index];
}

static const struct pmudev_event_info *core_event_by_number(const struct core_events *core,
							    uint32_t number)
{
	for (size_t r = 0; r < core->nr_arch; r++)
		if (number >= core->arch[r].first && number <= core->arch[r].last)
			return arch_event(number);
	for (size_t i = 0; i < core->nr_own; i++)
		if (core->own[i].number == number)
			return &core->own[i];
	return NULL;
}

static const struct pmudev_event_info *core_event_named(const struct core_events *core,
							const char *name)
{
	const struct pmudev_event_info *ev = arch_event_named(name);

	if (ev)
		return core_event_by_number(core, ev->number) == ev ? ev : NULL;
	for (size_t i = 0; i < core->nr_own; i++)
		if (!strcasecmp(name, core->own[i].name))
			return &core->own[i];
	return NULL;
}

/* The first core other than @except whose own events include @name. */
static const struct core_events *owner_of(const char *name, const struct core_events *except,
					  size_t from)
{
	for (size_t c = from; c < pmudev_nr_core_tables; c++) {
		const struct core_events *core = &pmudev_core_tables[c];

		if (core == except)
			continue;
		for (size_t i = 0; i < core->nr_own; i++)
			if (!strcasecmp(name, core->own[i].name))
				return core;
	}
	return NULL;
}

static const struct core_events *table_of(const struct armpmu_info *info)
{
	return info ? pmudev_core_events(info->midr) : NULL;
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

static bool is_v7(const struct armpmu_info *info)
{
	return info && info->pmu_version < ARMPMU_PMUV3;
}

/* What the core itself reports (PMCEID), where it reports it. */
static bool reported(const struct armpmu_info *info, uint32_t number)
{
	if (!info || !(info->flags & ARMPMU_INFO_EVENTS_KNOWN))
		return true;
	if (number < 64)
		return info->common_events & (1ULL << number);
	if (number >= COMMON_HI_BASE && number < COMMON_HI_BASE + 64)
		return info->common_events_hi & (1ULL << (number - COMMON_HI_BASE));
	return true;
}

/*
 * What the core's manual has: its table's events; without a table, any
 * number, but on ARMv7 only the first 30 common events (ARMv8 added the
 * rest).
 */
static bool listed(const struct armpmu_info *info, const struct core_events *core,
		   uint32_t number)
{
	if (core)
		return core_event_by_number(core, number) != NULL;
	return !is_v7(info) || number <= ARMV7_LAST_COMMON || number >= NR_COMMON_EVENTS;
}

/*
 * ARMv8's names (common events from 0x1e, recommended ones) mean nothing to
 * an ARMv7 core without a table.
 */
static bool armv8_name_on_v7(const struct armpmu_info *info, const struct core_events *core,
			     uint32_t number)
{
	return !core && is_v7(info) && number > ARMV7_LAST_COMMON;
}

/*
 * The one answer to "does this core count event @number": its manual has
 * it and the core does not report it missing. Listing, suggesting and
 * parsing names all ask here (a raw number asks reported() alone).
 */
static bool core_has(const struct armpmu_info *info, const struct core_events *core,
		     uint32_t number)
{
	return listed(info, core, number) && reported(info, number);
}

bool pmudev_event_implemented(const struct armpmu_info *info, uint32_t number)
{
	return core_has(info, table_of(info), number);
}

static const struct core_alias *core_alias(const struct core_events *core, const char *name)
{
	for (size_t i = 0; core && i < core->nr_aliases; i++)
		if (!strcasecmp(name, core->aliases[i].alias))
			return &core->aliases[i];
	return NULL;
}

static uint32_t resolve_alias(const struct event_alias *a, const struct armpmu_info *info,
			      const struct core_events *core)
{
	const struct core_alias *own = core_alias(core, a->alias);

	if (own)
		return own->number;
	if (is_v7(info))
		return a->v7;
	if (a->v8_fallback != NO_EVENT && !core_has(info, core, a->v8) &&
	    core_has(info, core, a->v8_fallback))
		return a->v8_fallback;
	return a->v8;
}

static const struct event_alias *alias_named(const char *name)
{
	for (size_t i = 0; i < NR_ALIASES; i++)
		if (!strcasecmp(name, aliases[i].alias))
			return &aliases[i];
	return NULL;
}

/*
 * @name against the core's table, then the architecture's events, then
 * perf's aliases. *@checked: the table vouches for the number (no ARMv7
 * range check then).
 */
static enum verdict lookup_name(const char *name, const struct armpmu_info *info,
				uint32_t *number, bool *checked)
{
	const struct core_events *core = table_of(info);
	const struct pmudev_event_info *ev;
	const struct event_alias *alias;

	*checked = core != NULL;
	if (core && (ev = core_event_named(core, name))) {
		*number = ev->number;
		return EV_OK;
	}
	if ((ev = arch_event_named(name))) {
		*number = ev->number;
		if (core && is_v7(info) && ev->number > ARMV7_LAST_COMMON &&
		    ev->number < NR_COMMON_EVENTS)
			return EV_NOT_ARMV7;
		return core ? EV_NOT_IMPLEMENTED : EV_OK;
	}
	if ((alias = alias_named(name))) {
		*number = resolve_alias(alias, info, core);
		if (core && !core_event_by_number(core, *number))
			return EV_NOT_IMPLEMENTED;
		return EV_OK;
	}
	return owner_of(name, core, 0) ? EV_OTHER_CORE : EV_UNKNOWN;
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

static enum verdict parse(const char *spec, const struct armpmu_info *info,
			  struct pmudev_event *ev)
{
	char name[MAX_SPEC];
	const char *mod;
	enum verdict v;
	bool raw, checked = false;

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
	if (!raw && (v = lookup_name(name, info, &ev->number, &checked)))
		return v;
	/* The hardware ignores wider bits: it would count another event. */
	if (info && info->event_bits < 32 && ev->number >> info->event_bits)
		return EV_TOO_WIDE;
	if (!raw && !checked && armv8_name_on_v7(info, NULL, ev->number))
		return EV_NOT_ARMV7;
	/* A raw number is taken on the core's word: a table may lag a revision. */
	if (raw)
		return reported(info, ev->number) ? EV_OK : EV_NOT_IMPLEMENTED;
	return core_has(info, table_of(info), ev->number) ? EV_OK : EV_NOT_IMPLEMENTED;
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

/*
 * The names the core @info describes has (all the architecture's without a
 * table; on ARMv7 without one, the first 30), and the aliases; with
 * @reported_only, less those the core reports it lacks, aliases of such
 * events included.
 */
static size_t candidates(const char *name, const struct armpmu_info *info,
			 bool reported_only, struct candidate *all)
{
	const struct core_events *core = table_of(info);
	const struct pmudev_event_info *list[MAX_CORE_EVENTS];
	size_t n = 0, nr;

	for (size_t i = 0; i < NR_ALIASES; i++) {
		/* An alias of what the core lacks would name the same lack again. */
		if (reported_only && !core_has(info, core, resolve_alias(&aliases[i], info, core)))
			continue;
		all[n++] = (struct candidate){ aliases[i].alias, distance(name, aliases[i].alias) };
	}
	if (core) {
		nr = core_event_list(core, list);
	} else {
		nr = 0;
		for (size_t i = 0; i < NR_COMMON_EVENTS; i++)
			list[nr++] = &pmudev_common_events[i];
		for (size_t i = 0; i < pmudev_nr_recommended_events; i++)
			list[nr++] = &pmudev_recommended_events[i];
	}
	for (size_t i = 0; i < nr; i++) {
		if (armv8_name_on_v7(info, core, list[i]->number) ||
		    !(reported_only ? core_has : listed)(info, core, list[i]->number))
			continue;
		all[n++] = (struct candidate){ list[i]->name, distance(name, list[i]->name) };
	}
	return n;
}

/*
 * Up to @max names near @spec. Close means, for a typo (@loose false): at
 * most a third of the letters differ (or two), and not much further than
 * the closest, likely the one meant, spelt right even if the core reports
 * it lacks it (the next message says so); for a name the core lacks
 * (@loose), the closest it has, within half the letters.
 */
static int suggest(const char *spec, const struct armpmu_info *info, char *buf, size_t len,
		   int max, bool loose)
{
	struct candidate all[NR_ALIASES + MAX_CORE_EVENTS];
	char name[MAX_SPEC];
	const char *mod;
	size_t n, used = 0, nlen;
	int written = 0, limit;

	if (len)
		buf[0] = '\0';
	if (split_spec(spec, name, &mod))
		return 0;
	n = candidates(name, info, loose, all);
	qsort(all, n, sizeof(all[0]), by_distance);
	nlen = strlen(name);
	if (loose) {
		limit = nlen / 2 > 3 ? (int)nlen / 2 : 3;
	} else {
		limit = nlen / 3 > 2 ? (int)nlen / 3 : 2;
		if (all[0].distance + 1 < limit)
			limit = all[0].distance + 1;
	}
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

int pmudev_event_suggest(const char *spec, char *buf, size_t len, int max)
{
	return suggest(spec, NULL, buf, len, max, false);
}

int pmudev_event_suggest_for(const char *spec, const struct armpmu_info *info,
			     char *buf, size_t len, int max)
{
	return suggest(spec, info, buf, len, max, false);
}

const char *pmudev_event_note(const char *spec, const struct armpmu_info *info)
{
	const struct core_events *core = table_of(info);
	const struct core_alias *own;
	const struct event_alias *alias;
	char name[MAX_SPEC];
	const char *mod;

	if (split_spec(spec, name, &mod) || !(alias = alias_named(name)))
		return NULL;
	if ((own = core_alias(core, name)))
		return own->note;
	if (alias->v8_fallback != NO_EVENT && info &&
	    resolve_alias(alias, info, core) == alias->v8_fallback)
		return "PC_WRITE_RETIRED: taken branches only; no BR_RETIRED here";
	return NULL;
}

/* "NAME (0x..)" for @number as the core @info describes names it. */
static void describe_number(char *buf, size_t len, const struct armpmu_info *info,
			    uint32_t number)
{
	const struct core_events *core = table_of(info);
	const struct pmudev_event_info *ev = core ? core_event_by_number(core, number) : NULL;
	const char *name = ev ? ev->name : NULL;

	if (!name && arch_event(number))
		name = arch_event(number)->name;
	if (name)
		snprintf(buf, len, "%s (0x%02x)", name, number);
	else
		snprintf(buf, len, "event 0x%x", number);
}

/* "the Cortex-A7 and the Cortex-A53": the cores whose own event is @name. */
static void owners(char *buf, size_t len, const char *name, const struct core_events *except)
{
	const struct core_events *core;
	size_t used = 0;
	int n = 0;

	buf[0] = '\0';
	for (size_t from = 0; (core = owner_of(name, except, from)); from = core - pmudev_core_tables + 1) {
		uint32_t midr = ARMPMU_IMPLEMENTER_ARM << ARMPMU_MIDR_IMPLEMENTER_SHIFT |
				(uint32_t)core->part << ARMPMU_MIDR_PART_SHIFT;

		if (used < len)
			used += snprintf(buf + used, len - used, "%s%s", n++ ? ", " : "",
					 pmudev_core_name(midr));
	}
}

int pmudev_event_error(const char *spec, const struct armpmu_info *info,
		       char *buf, size_t len)
{
	struct pmudev_event ev = { 0 };
	enum verdict v = parse(spec, info, &ev);
	const char *colon = strchr(spec, ':');
	const char *core = info ? pmudev_core_name(info->midr) : NULL;
	char what[48], near[128], cores[96], name[MAX_SPEC];
	const char *mod;

	describe_number(what, sizeof(what), info, ev.number);
	near[0] = '\0';
	if (v == EV_NOT_IMPLEMENTED || v == EV_OTHER_CORE)
		suggest(spec, info, near, sizeof(near), 3, true);
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
		if (suggest(spec, info, near, sizeof(near), 3, false))
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
		snprintf(buf, len, "%s is not implemented by this core%s%s%s%s%s", what,
			 core ? " (" : "", core ? core : "", core ? ")" : "",
			 *near ? "; closest it has: " : "", near);
		break;
	case EV_OTHER_CORE:
		split_spec(spec, name, &mod);
		owners(cores, sizeof(cores), name, table_of(info));
		if (table_of(info))
			snprintf(buf, len, "%s is an event of the %s, not of this core (%s)%s%s",
				 name, cores, core, *near ? "; closest it has: " : "", near);
		else
			snprintf(buf, len, "%s is an event of the %s only: on another core, "
				 "give its number", name, cores);
		break;
	}
	return verdict_errno(v);
}
