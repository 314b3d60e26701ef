// SPDX-License-Identifier: GPL-2.0
/*
 * pmuctl stat's events: -e's list taken apart as perf takes it apart,
 * into the specs libpmudev takes (see stat-events.h).
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "pmuctl.h"
#include "stat-events.h"

/* perf's names of its software events, with their short forms. */
static const struct {
	const char *name, *alias;
} software[SW_COUNT] = {
	[SW_CPU_CLOCK] = { "cpu-clock", NULL },
	[SW_TASK_CLOCK] = { "task-clock", NULL },
	[SW_CONTEXT_SWITCHES] = { "context-switches", "cs" },
	[SW_CPU_MIGRATIONS] = { "cpu-migrations", "migrations" },
	[SW_PAGE_FAULTS] = { "page-faults", "faults" },
	[SW_MINOR_FAULTS] = { "minor-faults", NULL },
	[SW_MAJOR_FAULTS] = { "major-faults", NULL },
};

const char *stat_events_software_name(enum stat_software sw)
{
	return software[sw].name;
}

/*
 * The PMU names Linux's perf gives these cores (sysfs's
 * /sys/bus/event_source/devices): by the device tree's compatible
 * ("armv7_cortex_a7", "armv8_cortex_a72"), the generic one QEMU's boards
 * and ACPI systems get ("armv8_pmuv3", "armv8_pmuv3_0"), and perf's "cpu".
 */
static const struct {
	const char *pmu, *core;	/* core: NULL for any */
} pmus[] = {
	{ "cpu", NULL }, { "armv8_pmuv3", NULL },
	{ "armv7_cortex_a7", "cortex-a7" }, { "armv7_cortex_a8", "cortex-a8" },
	{ "armv7_cortex_a9", "cortex-a9" }, { "armv7_cortex_a15", "cortex-a15" },
	{ "armv8_cortex_a35", "cortex-a35" }, { "armv8_cortex_a53", "cortex-a53" },
	{ "armv8_cortex_a57", "cortex-a57" }, { "armv8_cortex_a72", "cortex-a72" },
	{ "armv8_cortex_a76", "cortex-a76" },
};

/* Whether @name is @pmu, or @pmu "_" N (armv8_pmuv3_0): the entry, or -1. */
static int find_pmu(const char *name, size_t len)
{
	for (size_t i = 0; i < sizeof(pmus) / sizeof(pmus[0]); i++) {
		size_t n = strlen(pmus[i].pmu);

		if (len == n && !strncmp(name, pmus[i].pmu, n))
			return (int)i;
		if (!pmus[i].core && i && len > n + 1 && !strncmp(name, pmus[i].pmu, n) &&
		    name[n] == '_' && strspn(name + n + 1, "0123456789") == len - n - 1)
			return (int)i;
	}
	return -1;
}

/*
 * Refuses the modifiers that cannot apply to a count, naming why; the
 * rest (u, k) are libpmudev's to check. Returns 0, or the exit status.
 */
static int check_modifier(const char *tok, const char *mod)
{
	if (!mod)
		return 0;
	if (strpbrk(mod, "pP"))
		return usage_error("%s: ':p' asks for precise sampling (a sample's exact instruction); pmuctl stat counts, and armpmu samples by time only (pmuctl record), with nothing to make precise: leave it out",
				   tok);
	if (strpbrk(mod, "GH"))
		return usage_error("%s: ':G' and ':H' count in a KVM guest or host only; armpmu counts this system's own EL0 and EL1 (:u, :k), and no guest apart from them",
				   tok);
	return 0;
}

/* Software event @name, or SW_COUNT. */
static enum stat_software find_software(const char *name)
{
	for (int k = 0; k < SW_COUNT; k++)
		if (!strcmp(name, software[k].name) ||
		    (software[k].alias && !strcmp(name, software[k].alias)))
			return (enum stat_software)k;
	return SW_COUNT;
}

/*
 * PMU syntax, "PMU/TERMS/[MOD]" or "PMU/TERMS/:MOD", into @ev's spec
 * @i: "0xNN[:MOD]" for libpmudev, the text as typed for the name.
 * TERMS is event=N or config=N (hexadecimal 0x.. or decimal).
 */
static int parse_pmu_syntax(struct stat_events *ev, int i, char *tok)
{
	char *slash = strchr(tok, '/'), *end = strrchr(tok, '/'), *mod, *num_end;
	char terms[64];
	unsigned long number;
	int pmu = find_pmu(tok, (size_t)(slash - tok)), ret;

	if (pmu < 0)
		return usage_error("%s: no PMU '%.*s' here (perf's names for these cores: cpu, armv8_pmuv3, armv7_cortex_a7, armv8_cortex_a72 and the like)",
				   tok, (int)(slash - tok), tok);
	if (end == slash)
		return usage_error("%s: PMU syntax ends with '/' (PMU/event=0xNN/)", tok);
	mod = end[1] == ':' ? end + 2 : end[1] ? end + 1 : NULL;
	if ((ret = check_modifier(tok, mod)))
		return ret;
	snprintf(terms, sizeof(terms), "%.*s", (int)(end - slash - 1), slash + 1);
	if (strncmp(terms, "event=", 6) && strncmp(terms, "config=", 7))
		return usage_error("%s: the PMU's only term is event=N (or config=N): an ARM PMU event is a number, with no umask or other fields",
				   tok);
	errno = 0;
	number = strtoul(strchr(terms, '=') + 1, &num_end, 0);
	if (errno || num_end == strchr(terms, '=') + 1 || *num_end)
		return usage_error("%s: '%s' is not one event number (event=0xNN)", tok, terms);
	if (number > 0xffff)
		return usage_error("%s: event numbers are 16 bits at most", tok);
	snprintf(ev->rewritten[i], sizeof(ev->rewritten[i]), "0x%lx%s%.8s", number,
		 mod ? ":" : "", mod ? mod : "");
	ev->specs[i] = ev->rewritten[i];
	ev->names[i] = tok;
	ev->pmu_core[i] = pmus[pmu].core;
	return 0;
}

/* One event @tok of group @group (0: none), with the group's modifier @gmod. */
static int add_one(struct stat_events *ev, char *tok, int group, const char *gmod)
{
	char *colon;
	enum stat_software sw;
	int i = ev->nspecs, ret;

	if (!*tok)
		return usage_error("-e: an event name is empty");
	if (strchr(tok, '{') || strchr(tok, '}'))
		return usage_error("-e '%s': groups do not nest", tok);
	if (strchr(tok, '/')) {
		if (gmod)
			return usage_error("%s: give the modifier once, on the group or on the event", tok);
		if (i >= MAX_EVENTS)
			return usage_error("too many events");
		if ((ret = parse_pmu_syntax(ev, i, tok)))
			return ret;
	} else {
		colon = strchr(tok, ':');
		if ((ret = check_modifier(tok, colon ? colon + 1 : gmod)))
			return ret;
		if (colon && gmod)
			return usage_error("%s: give the modifier once, on the group or on the event", tok);
		sw = find_software(tok);
		if (sw == SW_COUNT && colon) {
			*colon = '\0';
			sw = find_software(tok);
			*colon = ':';
			if (sw != SW_COUNT)
				return usage_error("%s: pmuctl measures %s from the command's resource usage, user and kernel mode together: no modifier",
						   tok, software[sw].name);
		}
		if (sw != SW_COUNT) {
			if (group)
				return usage_error("%s: a software event in a group; pmuctl measures it apart, from the command's resource usage",
						   tok);
			ev->software |= 1U << sw;
			return 0;
		}
		if (i >= MAX_EVENTS)
			return usage_error("too many events");
		if (gmod) {
			snprintf(ev->rewritten[i], sizeof(ev->rewritten[i]), "%.38s:%.8s", tok, gmod);
			ev->specs[i] = ev->rewritten[i];
		} else {
			ev->specs[i] = tok;
		}
	}
	ev->group_of[i] = group;
	ev->nspecs++;
	return 0;
}

/*
 * The end of the item at @s: the comma after it (or its end), where
 * commas inside braces and inside PMU syntax's slashes are the item's.
 */
static char *item_end(char *s, bool *group)
{
	int slashes = 0;

	*group = *s == '{';
	for (; *s; s++) {
		if (*s == '/')
			slashes ^= 1;
		else if (*s == '}')
			*group = false;
		else if (*s == ',' && !slashes && !*group)
			return s;
	}
	return s;
}

int stat_events_add(struct stat_events *ev, char *arg)
{
	size_t len = strlen(arg);
	char *item, *end, *next, *close, *gmod, *member, *member_end;
	bool open;
	int ret;

	if (!len || arg[0] == ',' || arg[len - 1] == ',' || strstr(arg, ",,"))
		return usage_error("-e '%s': an event name is empty", arg);
	for (item = arg; *item; item = next) {
		end = item_end(item, &open);
		if (open)
			return usage_error("-e: '%s' opens a group and does not close it", item);
		next = *end ? end + 1 : end;
		*end = '\0';
		if (*item != '{') {
			if ((ret = add_one(ev, item, 0, NULL)))
				return ret;
			continue;
		}
		/* {a,b}[:MOD] */
		close = strchr(item, '}');
		gmod = NULL;
		if (close[1] == ':')
			gmod = close + 2;
		else if (close[1])
			return usage_error("-e '%s': after a group's '}' only a modifier (:u, :k)", item);
		*close = '\0';
		if (!item[1])
			return usage_error("-e: an empty group '{}'");
		ev->ngroups++;
		for (member = item + 1; *member; member = member_end) {
			bool unused;

			member_end = item_end(member, &unused);
			if (*member_end)
				*member_end++ = '\0';
			if ((ret = add_one(ev, member, ev->ngroups, gmod)))
				return ret;
		}
	}
	return 0;
}

int stat_events_all_modes(struct stat_events *ev, char mode)
{
	for (int i = 0; i < ev->nspecs; i++) {
		const char *spec = ev->specs[i];
		size_t len = strlen(spec);

		if (strchr(spec, ':'))
			continue;	/* its own modifier stands, as perf's */
		if (len + 3 > sizeof(ev->rewritten[i]))
			return usage_error("%s: too long a name", spec);
		memmove(ev->rewritten[i], spec, len);
		snprintf(ev->rewritten[i] + len, 3, ":%c", mode);
		ev->specs[i] = ev->rewritten[i];
		if (ev->names[i]) {
			/* PMU syntax: the modifier after the last slash. */
			snprintf(ev->moded_names[i], sizeof(ev->moded_names[i]), "%s%c",
				 ev->names[i], mode);
			ev->names[i] = ev->moded_names[i];
		}
	}
	return 0;
}

int stat_events_check(const struct stat_events *ev, const struct armpmu_info *info)
{
	const char *core = core_name(info);

	for (int i = 0; i < ev->nspecs; i++)
		if (ev->pmu_core[i] && !core_name_matches(core, ev->pmu_core[i]))
			return fail("%s: that PMU is a %s's; this is a %s (perf's names for it: cpu, armv8_pmuv3 on arm64, or its own)",
				    ev->names[i], ev->pmu_core[i], core);
	for (int g = 1; g <= ev->ngroups; g++) {
		unsigned int need = 0, members = 0;
		bool cycles = false;

		for (int i = 0; i < ev->nspecs; i++) {
			if (ev->group_of[i] != g)
				continue;
			members++;
			if (pmudev_spec_is_cycles(ev->specs[i]) && !cycles)
				cycles = true;
			else
				need++;
		}
		if (need > info->num_counters)
			return fail("group %d: %u events, %u of them for event counters, but a %s has %u: a group is counted together or not at all; make it smaller",
				    g, members, need, core, info->num_counters);
	}
	return 0;
}
