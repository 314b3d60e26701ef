// SPDX-License-Identifier: GPL-2.0
/*
 * libpmudev-unit: the library's pure logic on the host, no device needed:
 * event names with fake struct armpmu_info values for an ARMv7 core, an
 * ARMv8.0 core that lists its events and an ARMv8.1 one, suggestions and
 * error messages, core names, messages for errors, the event tables of
 * every known core and names resolved against each, and the region
 * reports' exact text. Built from the library's sources; prints TAP, exits 1 if any
 * test failed.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "internal.h"
#include "tap.h"

#define MIDR_A7		0x410fc075
#define MIDR_A72	0x410fd083
/* A core without an event table: names resolve as the architecture has them. */
#define MIDR_N1		0x414fd0c1

static const struct armpmu_info v7 = {
	.midr = MIDR_A7,
	.pmu_version = ARMPMU_PMUV2,
	.num_counters = 4,
	.flags = ARMPMU_INFO_CAN_FILTER | ARMPMU_INFO_KERNEL_ALLOWED,
	.event_bits = 8,
};

/* Lists its events: all of 0x00-0x3f but BR_RETIRED (0x21) and 0x3f. */
static const struct armpmu_info v8 = {
	.midr = MIDR_N1,
	.pmu_version = ARMPMU_PMUV3,
	.num_counters = 6,
	.flags = ARMPMU_INFO_CAN_FILTER | ARMPMU_INFO_EVENTS_KNOWN |
		 ARMPMU_INFO_KERNEL_ALLOWED,
	.event_bits = 10,
	.common_events = ~((1ULL << 0x21) | (1ULL << 0x3f)),
};

/* ARMv8.1, unprivileged caller, 0x4000 listed but not 0x4001. */
static const struct armpmu_info v81_user = {
	.midr = 0x410fd0b0,
	.pmu_version = 4,
	.num_counters = 6,
	.flags = ARMPMU_INFO_CAN_FILTER | ARMPMU_INFO_EVENTS_KNOWN,
	.event_bits = 16,
	.common_events = ~0ULL,
	.common_events_hi = 1,
};

#define SENTINEL 0xdeadbeefU

/* Parses @spec; the event is left alone on failure. */
static int parse(const char *spec, const struct armpmu_info *info,
		 struct pmudev_event *ev)
{
	ev->number = SENTINEL;
	ev->flags = SENTINEL;
	return pmudev_event_parse(spec, info, ev);
}

/* @err 0: @spec must give @number and @flags; else @err, the event untouched. */
static void expect(const char *spec, const struct armpmu_info *info, const char *info_name,
		   int err, uint32_t number, uint32_t flags)
{
	struct pmudev_event ev;
	char name[128];
	int ret = parse(spec, info, &ev);

	if (err)
		snprintf(name, sizeof(name), "parse %s (%s): %s", spec, info_name,
			 tap_errname(-err));
	else
		snprintf(name, sizeof(name), "parse %s (%s): %#x flags %u", spec, info_name,
			 number, flags);
	tap_check(ret == err && ev.number == number && ev.flags == flags, name,
		  "got %d (%s), %#x flags %u", ret, tap_errname(-ret), ev.number, ev.flags);
}

static void expect_event(const char *spec, const struct armpmu_info *info,
			 const char *info_name, uint32_t number, uint32_t flags)
{
	expect(spec, info, info_name, 0, number, flags);
}

static void expect_error(const char *spec, const struct armpmu_info *info,
			 const char *info_name, int err)
{
	expect(spec, info, info_name, err, SENTINEL, SENTINEL);
}

static void test_common_names(void)
{
	struct pmudev_event ev;
	char lower[64];
	bool ok = true;
	uint32_t n;

	for (n = 0; n < 0x40 && ok; n++) {
		const char *name = pmudev_event_name(n);
		size_t i;

		ok = name && pmudev_event_description(n) && !parse(name, NULL, &ev) &&
		     ev.number == n;
		for (i = 0; ok && name[i] && i < sizeof(lower) - 1; i++)
			lower[i] = (char)(name[i] >= 'A' && name[i] <= 'Z' ?
					  name[i] - 'A' + 'a' : name[i]);
		lower[i] = '\0';
		ok = ok && !parse(lower, NULL, &ev) && ev.number == n;
	}
	tap_check(ok, "every common event 0x00-0x3f parses by its name, in either case",
		  "event %#x", n - 1);
	tap_check(!pmudev_event_name(0x40) && !pmudev_event_description(0x40) &&
		  !pmudev_event_name(0x4000), "no name past the common events", "%s", "");
}

static void test_aliases(void)
{
	expect_event("instructions", &v8, "v8", 0x08, 0);
	expect_event("cycles", &v8, "v8", 0x11, 0);
	expect_event("cache-references", &v8, "v8", 0x04, 0);
	expect_event("cache-misses", &v8, "v8", 0x03, 0);
	expect_event("branch-misses", &v8, "v8", 0x10, 0);
	expect_event("Branch-Misses", &v8, "v8", 0x10, 0);
	expect_event("branches", NULL, "no info", 0x21, 0);
	/* v8 lists PC_WRITE_RETIRED but not BR_RETIRED. */
	expect_event("branches", &v8, "v8 without BR_RETIRED", 0x0c, 0);
	expect_event("branches", &v7, "v7", 0x0c, 0);
	expect_event("BRANCHES:u", &v81_user, "v8.1", 0x21, ARMPMU_EXCLUDE_KERNEL);
}

/* The exported list: perf's six generic names, each one parse takes, then NULL. */
static void test_alias_list(void)
{
	static const char *const perf_names[] = {
		"cycles", "instructions", "cache-references",
		"cache-misses", "branches", "branch-misses",
	};
	unsigned int i, n = 0, parsed = 0;
	struct pmudev_event ev;
	const char *name;

	while ((name = pmudev_perf_alias(n)) != NULL) {
		parsed += pmudev_event_parse(name, NULL, &ev) == 0;
		n++;
	}
	tap_check(n == 6 && parsed == n, "pmudev_perf_alias(): 6 aliases, each parses",
		  "%u aliases, %u parse", n, parsed);
	for (i = 0; i < 6 && i < n; i++)
		if (strcmp(pmudev_perf_alias(i), perf_names[i]))
			break;
	tap_check(i == 6 && !pmudev_perf_alias(UINT32_MAX),
		  "pmudev_perf_alias(): perf's names in order, NULL past the end",
		  "first difference at %u", i);
}

static void test_raw(void)
{
	expect_event("0x11", NULL, "no info", 0x11, 0);
	expect_event("0X3F", NULL, "no info", 0x3f, 0);
	expect_event("r11", NULL, "no info", 0x11, 0);
	expect_event("R1b", NULL, "no info", 0x1b, 0);
	expect_event("r4000", &v81_user, "v8.1", 0x4000, ARMPMU_EXCLUDE_KERNEL);
	expect_event("0xff", &v7, "v7", 0xff, 0);
	/* Names that begin with R are names, not bad numbers. */
	expect_event("REMOTE_ACCESS", NULL, "no info", 0x31, 0);
	expect_event("remote_access_rd", NULL, "no info", 0x38, 0);
	expect_error("0x", NULL, "no info", -EINVAL);
	expect_error("0x1g", NULL, "no info", -EINVAL);
	expect_error("0x100000000", NULL, "no info", -EINVAL);
	expect_error("r", NULL, "no info", -EINVAL);
	expect_error("rxyz", NULL, "no info", -EINVAL);
}

static void test_modifiers(void)
{
	/* perf's other letters (p, h, ...) mean nothing here. */
	static const char *const bad[] = { "", "x", "uu", "U", "u:k", "p" };
	char spec[32];

	expect_event("INST_RETIRED:u", &v8, "v8", 0x08, ARMPMU_EXCLUDE_KERNEL);
	expect_event("INST_RETIRED:k", &v8, "v8", 0x08, ARMPMU_EXCLUDE_USER);
	expect_event("INST_RETIRED:uk", &v8, "v8", 0x08, 0);
	expect_event("INST_RETIRED:ku", &v8, "v8", 0x08, 0);
	expect_event("INST_RETIRED", &v8, "v8, root", 0x08, 0);
	expect_event("INST_RETIRED", &v81_user, "v8.1, user", 0x08, ARMPMU_EXCLUDE_KERNEL);
	expect_event("INST_RETIRED", NULL, "no info", 0x08, 0);
	/* A modifier is the caller's word; the driver judges the privilege. */
	expect_event("INST_RETIRED:k", &v81_user, "v8.1, user", 0x08, ARMPMU_EXCLUDE_USER);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(spec, sizeof(spec), "INST_RETIRED:%s", bad[i]);
		expect_error(spec, &v8, "v8", -EINVAL);
	}
}

static void test_core_limits(void)
{
	char longname[80];

	expect_error("", NULL, "no info", -EINVAL);
	expect_error(":u", NULL, "no info", -EINVAL);
	memset(longname, 'A', sizeof(longname) - 1);
	longname[sizeof(longname) - 1] = '\0';
	expect_error(longname, NULL, "no info", -EINVAL);
	expect_error("INST_RETIRED_", NULL, "no info", -EINVAL);
	expect_error("0x100", &v7, "v7", -ERANGE);
	expect_error("0x400", &v8, "v8", -ERANGE);
	expect_error("0x10000", &v81_user, "v8.1", -ERANGE);
	expect_error("BR_RETIRED", &v8, "v8 without BR_RETIRED", -ENOENT);
	expect_error("0x21", &v8, "v8 without BR_RETIRED", -ENOENT);
	expect_error("r4001", &v81_user, "v8.1 without 0x4001", -ENOENT);
	expect_event("0x3ff", &v8, "v8", 0x3ff, 0);
	/* ARMv7 has common events 0x00-0x1d only; its raw numbers are free. */
	expect_event("BUS_CYCLES", &v7, "v7", 0x1d, 0);
	expect_error("CHAIN", &v7, "v7", -ENOENT);
	expect_error("BR_RETIRED", &v7, "v7", -ENOENT);
	expect_event("0x21", &v7, "v7", 0x21, 0);
	expect_event("BR_RETIRED", NULL, "no info", 0x21, 0);
}

static void expect_suggest(const char *spec, int max, size_t len, const char *want)
{
	char buf[128], name[128];
	int n = pmudev_event_suggest(spec, buf, len, max);
	int commas = 0;

	for (const char *p = buf; *p; p++)
		commas += *p == ',';
	snprintf(name, sizeof(name), "suggest %s (max %d, %zu bytes): %s", spec, max, len,
		 *want ? want : "nothing");
	tap_check(!strcmp(buf, want) && n == (*buf ? commas + 1 : 0), name,
		  "got %d: '%s'", n, buf);
}

static void test_suggest(void)
{
	expect_suggest("INST_RETIRD", 1, 128, "INST_RETIRED");
	expect_suggest("inst_retird", 1, 128, "INST_RETIRED");
	expect_suggest("instructon", 1, 128, "instructions");
	expect_suggest("cache_misses", 1, 128, "cache-misses");
	expect_suggest("cycle", 2, 128, "cycles");
	expect_suggest("L1D_CACHE_REFIL:u", 3, 128,
		       "L1D_CACHE_REFILL, L1I_CACHE_REFILL, L2D_CACHE_REFILL");
	/* ST_RETIRED is within reach, but much further than INST_RETIRED. */
	expect_suggest("INST_RETIRD", 3, 128, "INST_RETIRED");
	expect_suggest("xyzzy_plugh", 3, 128, "");
	/* Only whole names: INST_RETIRED needs 13 bytes. */
	expect_suggest("INST_RETIRD", 1, 12, "");
	expect_suggest("INST_RETIRD", 0, 128, "");
}

static void expect_message(const char *spec, const struct armpmu_info *info,
			   int err, const char *part)
{
	char buf[200], name[160];
	int ret = pmudev_event_error(spec, info, buf, sizeof(buf));

	snprintf(name, sizeof(name), "event_error %s: %s, says '%s'", spec,
		 tap_errname(-err), part);
	tap_check(ret == err && (*part ? strstr(buf, part) != NULL : !*buf), name,
		  "got %d: '%s'", ret, buf);
}

static void test_messages(void)
{
	char small[8];

	expect_message("INST_RETIRED", &v8, 0, "");
	expect_message("INST_RETIRD", &v8, -EINVAL,
		       "unknown event 'INST_RETIRD'; did you mean INST_RETIRED?");
	expect_message("xyzzy_plugh", &v8, -EINVAL, "unknown event 'xyzzy_plugh'");
	expect_message("cycles:x", &v8, -EINVAL, "bad modifier ':x' in 'cycles:x'");
	expect_message("0x1g", &v8, -EINVAL, "bad event number in '0x1g'");
	expect_message("", &v8, -EINVAL, "no event name");
	expect_message("0x400", &v8, -ERANGE, "event 0x400 does not fit this core's 10-bit");
	expect_message("BR_RETIRED", &v8, -ENOENT,
		       "BR_RETIRED (0x21) is not implemented by this core (Neoverse-N1)");
	expect_message("CHAIN", &v7, -ENOENT, "CHAIN (0x1e) is an ARMv8 event");
	tap_check(pmudev_event_error("xyzzy_plugh", NULL, small, sizeof(small)) == -EINVAL &&
		  strlen(small) == sizeof(small) - 1,
		  "event_error: a short buffer gets a truncated message", "'%s'", small);
}

static void test_core_names(void)
{
	tap_check(!strcmp(pmudev_core_name(MIDR_A7), "Cortex-A7") &&
		  !strcmp(pmudev_core_name(MIDR_A72), "Cortex-A72") &&
		  !strcmp(pmudev_core_name(0x410fd034), "Cortex-A53"),
		  "core_name: Cortex-A7, A53, A72 from their MIDR", "%s", "");
	tap_check(!pmudev_core_name(0x410f0000) && !pmudev_core_name(0x510fd080),
		  "core_name: NULL for an unknown part or another implementer", "%s", "");
}

static void test_strerror(void)
{
	static const int ours[] = { ENOENT, EACCES, EBUSY, ENOSPC, EOPNOTSUPP, ERANGE,
				    EALREADY, EBADFD, ECANCELED, ESRCH, EIO };
	bool distinct = true;

	for (size_t i = 0; i < sizeof(ours) / sizeof(ours[0]); i++)
		distinct &= strcmp(pmudev_strerror(-ours[i]), strerror(ours[i])) != 0;
	tap_check(distinct, "strerror: the library's own errors get its own words", "%s", "");
	tap_check(!strcmp(pmudev_strerror(-EINVAL), strerror(EINVAL)),
		  "strerror: other errors get the C library's", "%s", pmudev_strerror(-EINVAL));
}

/* ---- event tables per core ---- */

/* The cores issue 15 asks for, with the width of their event numbers. */
static const struct {
	const char *name;
	uint32_t part, bits;
	uint32_t instructions, branches;	/* what the aliases count there */
} cores[] = {
	{ "Cortex-A7", 0xc07, 8, 0x08, 0x0c },
	{ "Cortex-A8", 0xc08, 8, 0x08, 0x0c },
	{ "Cortex-A9", 0xc09, 8, 0x68, 0x0c },
	{ "Cortex-A15", 0xc0f, 8, 0x08, 0x76 },
	{ "Cortex-A53", 0xd03, 10, 0x08, 0x0c },
	{ "Cortex-A55", 0xd05, 16, 0x08, 0x21 },
	{ "Cortex-A57", 0xd07, 10, 0x08, 0x12 },
	{ "Cortex-A72", 0xd08, 10, 0x08, 0x12 },
	{ "Cortex-A73", 0xd09, 10, 0x08, 0x0c },
	{ "Cortex-A76", 0xd0b, 16, 0x08, 0x21 },
};

#define NR_CORES (sizeof(cores) / sizeof(cores[0]))

/* What the driver would report for the core: no event list (as on ARMv7). */
static struct armpmu_info core_info(uint32_t part, uint32_t bits)
{
	return (struct armpmu_info){
		.midr = 0x410f0000 | part << 4,
		.pmu_version = bits == 8 ? ARMPMU_PMUV2 : bits == 10 ? ARMPMU_PMUV3 : 4,
		.flags = ARMPMU_INFO_CAN_FILTER | ARMPMU_INFO_KERNEL_ALLOWED,
		.event_bits = bits,
	};
}

static bool name_ok(const char *name)
{
	if (!name || !*name || strlen(name) > 26)
		return false;
	for (; *name; name++)
		if (!((*name >= 'A' && *name <= 'Z') || (*name >= '0' && *name <= '9') ||
		      *name == '_'))
			return false;
	return true;
}

static void test_table(const char *core, uint32_t part, uint32_t bits)
{
	uint32_t midr = 0x410f0000 | part << 4;
	const struct pmudev_event_info *ev, *prev = NULL;
	const struct core_events *table = pmudev_core_events(midr);
	unsigned int n = 0, own = 0;
	char name[96], why[160] = "";

	snprintf(name, sizeof(name), "%s (part %#x) has a table of %u-bit events", core, part,
		 bits);
	tap_check(table && table->event_bits == bits && pmudev_core_event(midr, 0), name,
		  "%s", table ? "another width" : "no table");
	if (!table)
		return;
	for (; (ev = pmudev_core_event(midr, n)); prev = ev, n++) {
		if (prev && ev->number <= prev->number)
			snprintf(why, sizeof(why), "0x%x after 0x%x: twice or out of order",
				 ev->number, prev->number);
		if (ev->number >> bits)
			snprintf(why, sizeof(why), "0x%x is wider than %u bits", ev->number, bits);
		if (!name_ok(ev->name) || !ev->description || !*ev->description ||
		    strlen(ev->description) > 60)
			snprintf(why, sizeof(why), "0x%x: bad name or description", ev->number);
		if (!pmudev_event_group_name(ev->group))
			snprintf(why, sizeof(why), "0x%x %s: in no group", ev->number, ev->name);
		for (unsigned int i = 0; i < n; i++)
			if (!strcasecmp(pmudev_core_event(midr, i)->name, ev->name))
				snprintf(why, sizeof(why), "%s twice", ev->name);
		own += !!(ev->flags & PMUDEV_EVENT_IMPDEF);
	}
	snprintf(name, sizeof(name), "%s: numbers ascending and unique, within %u bits, "
		 "names unique, every event in a group", core, bits);
	tap_check(!*why, name, "%s", why);
	/* A range that begins or ends in a gap of the architecture is a typo. */
	*why = '\0';
	for (size_t r = 0; r < table->nr_arch; r++) {
		uint32_t first = table->arch[r].first, last = table->arch[r].last;
		bool has_first = false, has_last = false;

		for (unsigned int i = 0; (ev = pmudev_core_event(midr, i)); i++) {
			has_first |= ev->number == first && !(ev->flags & PMUDEV_EVENT_IMPDEF);
			has_last |= ev->number == last && !(ev->flags & PMUDEV_EVENT_IMPDEF);
		}
		if (first > last || !has_first || !has_last)
			snprintf(why, sizeof(why), "range 0x%x-0x%x", first, last);
	}
	snprintf(name, sizeof(name), "%s: its ranges begin and end at architectural events",
		 core);
	tap_check(!*why, name, "%s", why);
	tap_note("%s: %u events, %u of them its own", core, n, own);
}

static void test_tables(void)
{
	const char *name;
	struct armpmu_info info;
	unsigned int known = 0;
	bool listed[NR_CORES] = { false };
	bool all = true;

	for (; (name = pmudev_known_core(known, &info)); known++) {
		bool found = false;
		uint32_t part = (info.midr >> 4) & 0xfff;

		for (size_t i = 0; i < NR_CORES; i++) {
			if (!strcmp(name, cores[i].name) && part == cores[i].part &&
			    info.event_bits == cores[i].bits &&
			    info.midr == core_info(part, cores[i].bits).midr &&
			    info.pmu_version == core_info(part, cores[i].bits).pmu_version) {
				listed[i] = true;
				found = true;
			}
		}
		if (!found)
			test_table(name, part, info.event_bits);
	}
	for (size_t i = 0; i < NR_CORES; i++)
		all &= listed[i];
	tap_check(all, "every core of the list has a table, its MIDR, version and width "
		  "(pmudev_known_core)", "%u known", known);
	for (size_t i = 0; i < NR_CORES; i++)
		test_table(cores[i].name, cores[i].part, cores[i].bits);
	tap_check(!pmudev_core_event(MIDR_N1, 0) && !pmudev_core_event(0x510fd080, 0) &&
		  !pmudev_known_core(known, NULL),
		  "no table for an unknown core; nothing past the last", "%s", "");
	tap_check(!pmudev_event_group_name(PMUDEV_NR_GROUPS) &&
		  !strcmp(pmudev_event_group_name(PMUDEV_GROUP_MEMORY), "memory and bus"),
		  "group names", "%s", "");
	/* Common events are indexed by number; recommended ones ascend. */
	all = true;
	for (size_t i = 0; i < pmudev_nr_common_events; i++)
		all &= pmudev_common_events[i].number == i;
	for (size_t i = 1; i < pmudev_nr_recommended_events; i++)
		all &= pmudev_recommended_events[i].number > pmudev_recommended_events[i - 1].number;
	tap_check(all, "the architecture's tables: common by index, recommended ascending",
		  "%s", "");
}

/* @spec on the core @core gives @number. */
static void expect_on(const char *core, const struct armpmu_info *info, const char *spec,
		      uint32_t number)
{
	expect_event(spec, info, core, number, 0);
}

/* Every event of every table parses by its name on its core, and only there. */
static void test_core_names_resolve(void)
{
	for (size_t c = 0; c < NR_CORES; c++) {
		struct armpmu_info info = core_info(cores[c].part, cores[c].bits);
		const struct pmudev_event_info *ev;
		struct pmudev_event pe;
		char name[96], lower[64];
		bool ok = true;
		unsigned int i;

		for (i = 0; ok && (ev = pmudev_core_event(info.midr, i)); i++) {
			size_t k;

			for (k = 0; ev->name[k] && k < sizeof(lower) - 1; k++)
				lower[k] = tolower((unsigned char)ev->name[k]);
			lower[k] = '\0';
			ok = !pmudev_event_parse(ev->name, &info, &pe) && pe.number == ev->number &&
			     !pmudev_event_parse(lower, &info, &pe) && pe.number == ev->number;
		}
		snprintf(name, sizeof(name), "%s: every event of its table parses by name",
			 cores[c].name);
		tap_check(ok, name, "%s", ok ? "" : ev->name);
		expect_on(cores[c].name, &info, "cycles", 0x11);
		expect_on(cores[c].name, &info, "instructions", cores[c].instructions);
		expect_on(cores[c].name, &info, "branches", cores[c].branches);
		expect_on(cores[c].name, &info, "cache-misses", 0x03);
		expect_on(cores[c].name, &info, "branch-misses", 0x10);
	}
}

/* Refusals, typos and stand-ins, per core. */
static void test_core_messages(void)
{
	struct armpmu_info a7 = core_info(0xc07, 8), a9 = core_info(0xc09, 8);
	struct armpmu_info a15 = core_info(0xc0f, 8), a53 = core_info(0xd03, 10);
	struct armpmu_info a72 = core_info(0xd08, 10), a76 = core_info(0xd0b, 16);
	struct armpmu_info a72_qemu = a72;
	struct armpmu_info a5;
	static const char *const lacked[] = {
		"instructions", "INST_RETIRED", "instructions:u", "branch-misses", "cache-misses",
	};
	const char *note;

	expect_event("BR_INDIRECT_SPEC", &a72, "Cortex-A72", 0x7a, 0);
	expect_event("l2d_cache_refill_rd:u", &a72, "Cortex-A72", 0x52, ARMPMU_EXCLUDE_KERNEL);
	expect_event("PREFETCH_LINEFILL", &a53, "Cortex-A53", 0xc2, 0);
	expect_event("PREFETCH_LINEFILL", &a7, "Cortex-A7", 0xc2, 0);
	expect_event("STALL_BACKEND", &a76, "Cortex-A76", 0x24, 0);
	expect_event("L1D_CACHE_RD", &a15, "Cortex-A15: ARMv7 with ARMv8's numbers", 0x40, 0);
	expect_event("INST_RENAME", &a9, "Cortex-A9", 0x68, 0);
	/* Raw numbers stay free: the tables do not list everything. */
	expect_event("0xc2", &a72, "Cortex-A72", 0xc2, 0);
	expect_event("L1D_CACHE_RD", NULL, "no info: the architecture's", 0x40, 0);

	expect_message("LD_RETIRED", &a72, -ENOENT,
		       "LD_RETIRED (0x06) is not implemented by this core (Cortex-A72)");
	expect_message("BR_RETIRED", &a72, -ENOENT, "closest it has: BR_PRED");
	expect_message("STALL_FRONTEND", &a53, -ENOENT, "not implemented by this core (Cortex-A53)");
	expect_message("INST_RETIRED", &a9, -ENOENT, "not implemented by this core (Cortex-A9)");
	expect_message("L1D_CACHE_RD", &a7, -ENOENT, "not implemented by this core (Cortex-A7)");
	expect_message("PREFETCH_LINEFILL", &a72, -ENOENT,
		       "PREFETCH_LINEFILL is an event of the Cortex-A7, Cortex-A53, not of this "
		       "core (Cortex-A72)");
	expect_message("STALL_BACKEND_LD", &a76, -ENOENT,
		       "STALL_BACKEND_LD is an event of the Cortex-A55, not of this core "
		       "(Cortex-A76); closest it has: STALL_BACKEND");
	expect_message("IC_DEP_STALL", NULL, -ENOENT,
		       "IC_DEP_STALL is an event of the Cortex-A53 only");
	expect_message("PREFETCH_LINFILL", &a53, -EINVAL,
		       "unknown event 'PREFETCH_LINFILL'; did you mean PREFETCH_LINEFILL?");
	expect_message("L1D_CACHE_REFIL", &a72, -EINVAL, "did you mean L1D_CACHE_REFILL");

	/* The core's own report (QEMU lists few) narrows the table further. */
	a72_qemu.flags |= ARMPMU_INFO_EVENTS_KNOWN;
	a72_qemu.common_events = ~(1ULL << 0x03);
	expect_message("L1D_CACHE_REFILL", &a72_qemu, -ENOENT,
		       "L1D_CACHE_REFILL (0x03) is not implemented by this core (Cortex-A72)");
	expect_event("L1D_CACHE_REFILL_RD", &a72_qemu, "Cortex-A72 under QEMU", 0x42, 0);
	/* A typo gets the name meant, which then says it is not counted here. */
	expect_message("L1D_CACHE_REFIL", &a72_qemu, -EINVAL, "did you mean L1D_CACHE_REFILL,");
	expect_message("BR_RETIRED", &a72_qemu, -ENOENT, "closest it has: BR_PRED");
	/* QEMU without -icount: no INST_RETIRED, so no "instructions" either. */
	a72_qemu.common_events = (1ULL << 0x00) | (1ULL << 0x11);
	for (size_t i = 0; i < sizeof(lacked) / sizeof(lacked[0]); i++) {
		char buf[200], name[160];
		int ret = pmudev_event_error(lacked[i], &a72_qemu, buf, sizeof(buf));

		snprintf(name, sizeof(name),
			 "event_error %s where the core lacks it: no suggestion of the same event",
			 lacked[i]);
		tap_check(ret == -ENOENT && !strstr(buf, "closest it has"), name, "got %d: '%s'",
			  ret, buf);
	}

	tap_check(!pmudev_event_implemented(&a72, 0x06) && pmudev_event_implemented(&a72, 0x40) &&
		  !pmudev_event_implemented(&a72_qemu, 0x03) &&
		  pmudev_event_implemented(&a72_qemu, 0x42) &&
		  pmudev_event_implemented(&v8, 0x06) && !pmudev_event_implemented(&v8, 0x21) &&
		  pmudev_event_implemented(NULL, 0x21) && pmudev_event_implemented(&a53, 0xe1) &&
		  !pmudev_event_implemented(&a53, 0x23),
		  "event_implemented: the table and the core's own report, together", "%s", "");
	/* An ARMv7 core without a table (Cortex-A5): none of ARMv8's common events. */
	a5 = v7;
	a5.midr = 0x410fc051;
	tap_check(pmudev_event_implemented(&a5, 0x1d) && !pmudev_event_implemented(&a5, 0x21) &&
		  pmudev_event_implemented(&a5, 0xc0),
		  "event_implemented: ARMv7 without a table has 0x00-0x1d, not 0x1e-0x3f", "%s", "");

	note = pmudev_event_note("branches", &a72);
	tap_check(note && strstr(note, "BR_PRED") && strstr(note, "speculative"),
		  "note: branches on the Cortex-A72 is BR_PRED, a speculative stand-in", "%s",
		  note ? note : "none");
	note = pmudev_event_note("branches:u", &a53);
	tap_check(note && strstr(note, "PC_WRITE_RETIRED"),
		  "note: branches on the Cortex-A53 is PC_WRITE_RETIRED, taken only", "%s",
		  note ? note : "none");
	note = pmudev_event_note("instructions", &a9);
	tap_check(note && strstr(note, "INST_RENAME"),
		  "note: instructions on the Cortex-A9 is INST_RENAME", "%s", note ? note : "none");
	tap_check(!pmudev_event_note("branches", &a76) && !pmudev_event_note("cycles", &a72) &&
		  !pmudev_event_note("INST_RETIRED", &a72) && !pmudev_event_note("branches", NULL),
		  "note: none where the alias counts what perf means", "%s", "");
}

/* ---- reports ---- */

static char *names[ARMPMU_MAX_COUNTERS] = {
	[1] = "INST_RETIRED:u",
	[3] = "r11",
};

static struct region regions[] = {
	{ .name = "loop", .total = { .calls = 3, .cycles = 1234567,
				     .events = { [1] = 600123, [3] = 42 } } },
	{ .name = "a \"quoted\\\" name", .total = { .calls = 1, .cycles = UINT64_MAX,
						     .events = { [1] = 0, [3] = 7 } } },
};

static struct region control = {
	.name = "tab\tnl\n", .total = { .calls = 2, .cycles = 5 },
};

static const struct region_report report = {
	.cpu = 1,
	.core = "Cortex-A72",
	.cycles_name = "cycles:u",
	.used = (1U << 1) | (1U << 3),
	.counter_name = names,
	.region = regions,
	.nr = 1,
};

static char *format(const struct region_report *rep, enum pmudev_format fmt, int *ret)
{
	char *text = NULL;
	size_t size;
	FILE *f = open_memstream(&text, &size);

	if (!f)
		return NULL;
	*ret = pmudev_format_regions(rep, f, fmt);
	fclose(f);
	return text;
}

static void expect_text(const struct region_report *rep, enum pmudev_format fmt,
			const char *want, const char *name)
{
	int ret = -1;
	char *text = format(rep, fmt, &ret);

	tap_check(!ret && text && !strcmp(text, want), name, "got %d:\n%s\nwanted:\n%s", ret,
		  text ? text : "(null)", want);
	free(text);
}

static void test_reports(void)
{
	struct region_report two = report, none = report;
	int ret;
	FILE *ro;

	expect_text(&report, PMUDEV_FORMAT_TABLE,
		    "region  calls  cycles:u  INST_RETIRED:u  r11\n"
		    "loop        3   1234567          600123   42\n",
		    "table: columns as wide as their names or numbers");
	two.nr = 2;
	expect_text(&two, PMUDEV_FORMAT_TABLE,
		    "region            calls              cycles:u  INST_RETIRED:u  r11\n"
		    "loop                  3               1234567          600123   42\n"
		    "a \"quoted\\\" name      1  18446744073709551615               0    7\n",
		    "table: a long name and a 20-digit count widen their columns");
	none.nr = 0;
	none.used = 0;
	expect_text(&none, PMUDEV_FORMAT_TABLE, "region  calls  cycles:u\n",
		    "table: no regions, no event counters: the header only");
	expect_text(&two, PMUDEV_FORMAT_JSON,
		    "{\"cpu\": 1, \"core\": \"Cortex-A72\", "
		    "\"counters\": [\"cycles:u\", \"INST_RETIRED:u\", \"r11\"], \"regions\": [\n"
		    "  {\"name\": \"loop\", \"calls\": 3, \"counts\": {\"cycles:u\": 1234567, "
		    "\"INST_RETIRED:u\": 600123, \"r11\": 42}},\n"
		    "  {\"name\": \"a \\\"quoted\\\\\\\" name\", \"calls\": 1, "
		    "\"counts\": {\"cycles:u\": 18446744073709551615, "
		    "\"INST_RETIRED:u\": 0, \"r11\": 7}}\n]}\n",
		    "json: counters, regions, escaped names");
	none.core = NULL;
	none.region = &control;
	none.nr = 1;
	expect_text(&none, PMUDEV_FORMAT_JSON,
		    "{\"cpu\": 1, \"core\": null, \"counters\": [\"cycles:u\"], \"regions\": [\n"
		    "  {\"name\": \"tab\\u0009nl\\u000a\", \"calls\": 2, "
		    "\"counts\": {\"cycles:u\": 5}}\n]}\n",
		    "json: control characters escaped, unknown core");
	none.nr = 0;
	expect_text(&none, PMUDEV_FORMAT_JSON,
		    "{\"cpu\": 1, \"core\": null, \"counters\": [\"cycles:u\"], "
		    "\"regions\": []}\n",
		    "json: no regions");
	free(format(&report, (enum pmudev_format)9, &ret));
	tap_errno(-ret, EINVAL, "format: -EINVAL for an unknown format");
	ro = fopen("/dev/null", "r");
	ret = ro ? pmudev_format_regions(&report, ro, PMUDEV_FORMAT_TABLE) : 0;
	tap_errno(-ret, EIO, "format: -EIO when the stream fails");
	if (ro)
		fclose(ro);
}

static const struct calibration calibration = {
	.on = true,
	.overhead = { .calls = 64, .cycles = 100, .events = { [1] = 200000, [3] = 0 } },
};

/* Overhead subtracted per call, clamped at 0 and flagged rather than wrapped. */
static void test_calibrated_reports(void)
{
	struct region_report two = report;
	struct calibration off = calibration;
	struct region huge = { .name = "huge", .total = { .calls = UINT64_MAX, .cycles = 5 } };
	struct pmudev_region_counts c;
	bool clamped;

	two.nr = 2;
	two.calibration = &calibration;
	expect_text(&two, PMUDEV_FORMAT_TABLE,
		    "region             calls              cycles:u  INST_RETIRED:u  r11\n"
		    "loop                   3               1234267             123   42\n"
		    "a \"quoted\\\" name*      1  18446744073709551515               0    7\n"
		    "overhead subtracted per call: cycles:u 100 INST_RETIRED:u 200000 r11 0\n"
		    "* counted less than the overhead somewhere: clamped at 0\n",
		    "table: overhead subtracted per call, a clamped region starred, a footer");
	expect_text(&two, PMUDEV_FORMAT_JSON,
		    "{\"cpu\": 1, \"core\": \"Cortex-A72\", "
		    "\"counters\": [\"cycles:u\", \"INST_RETIRED:u\", \"r11\"], "
		    "\"calibration\": {\"overhead_per_call\": {\"cycles:u\": 100, "
		    "\"INST_RETIRED:u\": 200000, \"r11\": 0}}, \"regions\": [\n"
		    "  {\"name\": \"loop\", \"calls\": 3, \"counts\": {\"cycles:u\": 1234267, "
		    "\"INST_RETIRED:u\": 123, \"r11\": 42}, \"clamped\": false},\n"
		    "  {\"name\": \"a \\\"quoted\\\\\\\" name\", \"calls\": 1, "
		    "\"counts\": {\"cycles:u\": 18446744073709551515, "
		    "\"INST_RETIRED:u\": 0, \"r11\": 7}, \"clamped\": true}\n]}\n",
		    "json: a calibration object, counts less the overhead, clamped flags");
	two.nr = 1;
	expect_text(&two, PMUDEV_FORMAT_TABLE,
		    "region  calls  cycles:u  INST_RETIRED:u  r11\n"
		    "loop        3   1234267             123   42\n"
		    "overhead subtracted per call: cycles:u 100 INST_RETIRED:u 200000 r11 0\n",
		    "table: no clamped region, no star and no note");
	off.on = false;
	two.calibration = &off;
	clamped = pmudev_region_calibrated(&regions[1], &off, report.used, &c);
	tap_check(!clamped && c.cycles == UINT64_MAX && c.events[1] == 0,
		  "calibrated: off, the raw totals", "%d %" PRIu64, clamped, c.cycles);
	expect_text(&two, PMUDEV_FORMAT_TABLE,
		    "region  calls  cycles:u  INST_RETIRED:u  r11\n"
		    "loop        3   1234567          600123   42\n",
		    "table: calibration off, raw counts and no footer");
	clamped = pmudev_region_calibrated(&huge, &calibration, report.used, &c);
	tap_check(clamped && c.cycles == 0 && c.events[3] == 0 && c.calls == UINT64_MAX,
		  "calibrated: calls times overhead past 2^64 clamps, does not wrap",
		  "%d %" PRIu64, clamped, c.cycles);
}

static void test_mode_suffix(void)
{
	tap_check(!strcmp(pmudev_mode_suffix(0), "") &&
		  !strcmp(pmudev_mode_suffix(ARMPMU_EXCLUDE_KERNEL), ":u") &&
		  !strcmp(pmudev_mode_suffix(ARMPMU_EXCLUDE_USER), ":k"),
		  "mode suffix: '', :u, :k", "%s", "");
	tap_check(pmudev_spec_is_cycles("cycles") && pmudev_spec_is_cycles("CYCLES:u") &&
		  !pmudev_spec_is_cycles("CPU_CYCLES") && !pmudev_spec_is_cycles("cycles2") &&
		  !pmudev_spec_is_cycles(""),
		  "only the alias cycles names the cycle counter", "%s", "");
}

/* A slot's scaled count: never counted is -1, never a 0 that looks counted. */
static void test_scaled(void)
{
	struct armpmu_slot half = { .value = 500, .time_enabled = 2000, .time_running = 1000 };
	struct armpmu_slot whole = { .value = 7, .time_enabled = 1000, .time_running = 1000 };
	struct armpmu_slot never = { .value = 0, .time_enabled = 1000, .time_running = 0 };

	tap_check(pmudev_scaled(&half) == 1000.0, "scaled: half the time doubles the count",
		  "got %f", pmudev_scaled(&half));
	tap_check(pmudev_scaled(&whole) == 7.0, "scaled: all the time is the count itself",
		  "got %f", pmudev_scaled(&whole));
	tap_check(pmudev_scaled(&never) == -1.0, "scaled: never counted is -1",
		  "got %f", pmudev_scaled(&never));
}

int main(void)
{
	tap_init();
	test_common_names();
	test_aliases();
	test_alias_list();
	test_raw();
	test_modifiers();
	test_core_limits();
	test_suggest();
	test_messages();
	test_core_names();
	test_tables();
	test_core_names_resolve();
	test_core_messages();
	test_strerror();
	test_reports();
	test_calibrated_reports();
	test_mode_suffix();
	test_scaled();
	return tap_done();
}
