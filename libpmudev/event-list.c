// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Event lists as `pmuctl stat -e` takes them, for pmuctl and the Python
 * module alike: commas, groups "{a,b}" (with a modifier for all of them
 * after the brace), perf's PMU syntax "PMU/event=0xNN/" for the PMU names
 * Linux's perf gives these cores and "cpu", modifiers that cannot apply
 * refused naming why, and perf's software events (task-clock,
 * context-switches, page-faults), listed apart: the device has no
 * counter for them. Each event's own name is pmudev_event_parse()'s to
 * check, when it is added to a handle (with its "did you mean").
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "internal.h"

/* perf's names of its software events, with their short forms. */
static const struct {
	const char *name, *alias;
} software[PMUDEV_SW_COUNT] = {
	[PMUDEV_SW_CPU_CLOCK] = { "cpu-clock", NULL },
	[PMUDEV_SW_TASK_CLOCK] = { "task-clock", NULL },
	[PMUDEV_SW_CONTEXT_SWITCHES] = { "context-switches", "cs" },
	[PMUDEV_SW_CPU_MIGRATIONS] = { "cpu-migrations", "migrations" },
	[PMUDEV_SW_PAGE_FAULTS] = { "page-faults", "faults" },
	[PMUDEV_SW_MINOR_FAULTS] = { "minor-faults", NULL },
	[PMUDEV_SW_MAJOR_FAULTS] = { "major-faults", NULL },
};

const char *pmudev_software_name(unsigned int sw)
{
	return sw < PMUDEV_SW_COUNT ? software[sw].name : NULL;
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

/* One event of a list, and the text it owns. */
struct list_entry {
	struct pmudev_list_event pub;
	char *spec;		/* for pmudev_add_event() */
	char *name;		/* PMU syntax as typed, or NULL */
};

struct pmudev_event_list {
	unsigned int max, nr, groups, software;
	struct list_entry *entry;
};

/* A parse's state: the list, and where its message goes. */
struct parse {
	struct pmudev_event_list *list;
	char *msg;
	size_t len;
};

__attribute__((format(printf, 2, 3)))
static int refuse(struct parse *p, const char *fmt, ...)
{
	va_list ap;

	if (p->len) {
		va_start(ap, fmt);
		vsnprintf(p->msg, p->len, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

struct pmudev_event_list *pmudev_event_list_new(unsigned int max)
{
	struct pmudev_event_list *list = calloc(1, sizeof(*list));

	if (!list)
		return NULL;
	list->max = max;
	list->entry = calloc(max ? max : 1, sizeof(*list->entry));
	if (!list->entry) {
		free(list);
		return NULL;
	}
	return list;
}

void pmudev_event_list_free(struct pmudev_event_list *list)
{
	if (!list)
		return;
	for (unsigned int i = 0; i < list->nr; i++) {
		free(list->entry[i].spec);
		free(list->entry[i].name);
	}
	free(list->entry);
	free(list);
}

unsigned int pmudev_event_list_size(const struct pmudev_event_list *list)
{
	return list->nr;
}

unsigned int pmudev_event_list_groups(const struct pmudev_event_list *list)
{
	return list->groups;
}

unsigned int pmudev_event_list_software(const struct pmudev_event_list *list)
{
	return list->software;
}

const struct pmudev_list_event *pmudev_event_list_get(const struct pmudev_event_list *list,
						      unsigned int index)
{
	return index < list->nr ? &list->entry[index].pub : NULL;
}

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
 * rest (u, k) are pmudev_event_parse()'s to check.
 */
static int check_modifier(struct parse *p, const char *tok, const char *mod)
{
	if (!mod)
		return 0;
	if (strpbrk(mod, "pP"))
		return refuse(p, "%s: ':p' asks for precise sampling (a sample's exact instruction); pmuctl stat counts, and armpmu samples by time only (pmuctl record), with nothing to make precise: leave it out",
			      tok);
	if (strpbrk(mod, "GH"))
		return refuse(p, "%s: ':G' and ':H' count in a KVM guest or host only; armpmu counts this system's own EL0 and EL1 (:u, :k), and no guest apart from them",
			      tok);
	return 0;
}

/* Software event @name, or PMUDEV_SW_COUNT. */
static unsigned int find_software(const char *name)
{
	for (unsigned int k = 0; k < PMUDEV_SW_COUNT; k++)
		if (!strcmp(name, software[k].name) ||
		    (software[k].alias && !strcmp(name, software[k].alias)))
			return k;
	return PMUDEV_SW_COUNT;
}

/*
 * PMU syntax, "PMU/TERMS/[MOD]" or "PMU/TERMS/:MOD", into entry @e:
 * "0xNN[:MOD]" for pmudev_add_event(), the text as typed for the name.
 * TERMS is event=N or config=N (hexadecimal 0x.. or decimal).
 */
static int parse_pmu_syntax(struct parse *p, struct list_entry *e, const char *tok)
{
	const char *slash = strchr(tok, '/'), *end = strrchr(tok, '/'), *mod, *eq;
	char terms[64], spec[48], *num_end;
	unsigned long number;
	int pmu = find_pmu(tok, (size_t)(slash - tok)), ret;

	if (pmu < 0)
		return refuse(p, "%s: no PMU '%.*s' here (perf's names for these cores: cpu, armv8_pmuv3, armv7_cortex_a7, armv8_cortex_a72 and the like)",
			      tok, (int)(slash - tok), tok);
	if (end == slash)
		return refuse(p, "%s: PMU syntax ends with '/' (PMU/event=0xNN/)", tok);
	mod = end[1] == ':' ? end + 2 : end[1] ? end + 1 : NULL;
	if ((ret = check_modifier(p, tok, mod)))
		return ret;
	snprintf(terms, sizeof(terms), "%.*s", (int)(end - slash - 1), slash + 1);
	if (strncmp(terms, "event=", 6) && strncmp(terms, "config=", 7))
		return refuse(p, "%s: the PMU's only term is event=N (or config=N): an ARM PMU event is a number, with no umask or other fields",
			      tok);
	eq = strchr(terms, '=') + 1;
	errno = 0;
	number = strtoul(eq, &num_end, 0);
	if (errno || num_end == eq || *num_end)
		return refuse(p, "%s: '%s' is not one event number (event=0xNN)", tok, terms);
	if (number > 0xffff)
		return refuse(p, "%s: event numbers are 16 bits at most", tok);
	snprintf(spec, sizeof(spec), "0x%lx%s%.8s", number, mod ? ":" : "", mod ? mod : "");
	e->name = strdup(tok);
	e->spec = strdup(spec);
	if (!e->name || !e->spec) {
		free(e->name);
		free(e->spec);
		return refuse(p, "%s", strerror(ENOMEM)), -ENOMEM;
	}
	e->pub.name = e->name;
	e->pub.pmu_core = pmus[pmu].core;
	return 0;
}

/* One event @tok of group @group (0: none), with the group's modifier @gmod. */
static int add_one(struct parse *p, char *tok, unsigned int group, const char *gmod)
{
	struct pmudev_event_list *list = p->list;
	struct list_entry *e = &list->entry[list->nr];
	char *colon;
	unsigned int sw;
	int ret;

	if (!*tok)
		return refuse(p, "-e: an event name is empty");
	if (strchr(tok, '{') || strchr(tok, '}'))
		return refuse(p, "-e '%s': groups do not nest", tok);
	if (strchr(tok, '/')) {
		if (gmod)
			return refuse(p, "%s: give the modifier once, on the group or on the event", tok);
		if (list->nr >= list->max)
			return refuse(p, "too many events"), -E2BIG;
		*e = (struct list_entry){ 0 };
		if ((ret = parse_pmu_syntax(p, e, tok)))
			return ret;
	} else {
		colon = strchr(tok, ':');
		if ((ret = check_modifier(p, tok, colon ? colon + 1 : gmod)))
			return ret;
		if (colon && gmod)
			return refuse(p, "%s: give the modifier once, on the group or on the event", tok);
		sw = find_software(tok);
		if (sw == PMUDEV_SW_COUNT && colon) {
			*colon = '\0';
			sw = find_software(tok);
			*colon = ':';
			if (sw != PMUDEV_SW_COUNT)
				return refuse(p, "%s: pmuctl measures %s from the command's resource usage, user and kernel mode together: no modifier",
					      tok, software[sw].name);
		}
		if (sw != PMUDEV_SW_COUNT) {
			if (group)
				return refuse(p, "%s: a software event in a group; pmuctl measures it apart, from the command's resource usage",
					      tok);
			list->software |= 1U << sw;
			return 0;
		}
		if (list->nr >= list->max)
			return refuse(p, "too many events"), -E2BIG;
		*e = (struct list_entry){ 0 };
		if (gmod) {
			char spec[48];

			snprintf(spec, sizeof(spec), "%.38s:%.8s", tok, gmod);
			e->spec = strdup(spec);
		} else {
			e->spec = strdup(tok);
		}
		if (!e->spec)
			return refuse(p, "%s", strerror(ENOMEM)), -ENOMEM;
	}
	e->pub.spec = e->spec;
	e->pub.group = group;
	list->nr++;
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

/* pmudev_event_list_add() on @arg, a copy it takes apart in place. */
static int add_list(struct parse *p, char *arg)
{
	struct pmudev_event_list *list = p->list;
	size_t len = strlen(arg);
	char *item, *end, *next, *close, *gmod, *member, *member_end;
	bool open;
	int ret;

	if (!len || arg[0] == ',' || arg[len - 1] == ',' || strstr(arg, ",,"))
		return refuse(p, "-e '%s': an event name is empty", arg);
	for (item = arg; *item; item = next) {
		end = item_end(item, &open);
		if (open)
			return refuse(p, "-e: '%s' opens a group and does not close it", item);
		next = *end ? end + 1 : end;
		*end = '\0';
		if (*item != '{') {
			if ((ret = add_one(p, item, 0, NULL)))
				return ret;
			continue;
		}
		/* {a,b}[:MOD] */
		close = strchr(item, '}');
		gmod = NULL;
		if (close[1] == ':')
			gmod = close + 2;
		else if (close[1])
			return refuse(p, "-e '%s': after a group's '}' only a modifier (:u, :k)", item);
		*close = '\0';
		if (!item[1])
			return refuse(p, "-e: an empty group '{}'");
		list->groups++;
		for (member = item + 1; *member; member = member_end) {
			bool unused;

			member_end = item_end(member, &unused);
			if (*member_end)
				*member_end++ = '\0';
			if ((ret = add_one(p, member, list->groups, gmod)))
				return ret;
		}
	}
	return 0;
}

int pmudev_event_list_add(struct pmudev_event_list *list, const char *text,
			  char *msg, size_t len)
{
	struct parse p = { .list = list, .msg = msg, .len = len };
	char *copy = strdup(text);
	int ret;

	if (len)
		msg[0] = '\0';
	if (!copy)
		return refuse(&p, "%s", strerror(ENOMEM)), -ENOMEM;
	ret = add_list(&p, copy);
	free(copy);
	return ret;
}

/* Whether core @name ("Cortex-A72") is the one @want names ("cortex-a72", "a72"). */
bool pmudev_core_matches(const char *name, const char *want)
{
	return !strcasecmp(name, want) ||
	       (!strncasecmp(name, "Cortex-", 7) && !strcasecmp(name + 7, want));
}

int pmudev_event_list_check(const struct pmudev_list_event *events, unsigned int nr,
			    const struct armpmu_info *info, char *msg, size_t len)
{
	const char *core = pmudev_core_name(info->midr) ? pmudev_core_name(info->midr) :
			   "unknown core";
	struct parse p = { .msg = msg, .len = len };
	unsigned int groups = 0;

	if (len)
		msg[0] = '\0';
	for (unsigned int i = 0; i < nr; i++) {
		const struct pmudev_list_event *e = &events[i];

		if (e->pmu_core && !pmudev_core_matches(core, e->pmu_core))
			return refuse(&p, "%s: that PMU is a %s's; this is a %s (perf's names for it: cpu, armv8_pmuv3 on arm64, or its own)",
				      e->name, e->pmu_core, core), -ENODEV;
		if (e->group > groups)
			groups = e->group;
	}
	for (unsigned int g = 1; g <= groups; g++) {
		unsigned int need = 0, members = 0;
		bool cycles = false;

		for (unsigned int i = 0; i < nr; i++) {
			if (events[i].group != g)
				continue;
			members++;
			if (pmudev_spec_is_cycles(events[i].spec) && !cycles)
				cycles = true;
			else
				need++;
		}
		if (need > info->num_counters)
			return refuse(&p, "group %u: %u events, %u of them for event counters, but a %s has %u: a group is counted together or not at all; make it smaller",
				      g, members, need, core, info->num_counters), -ENOSPC;
	}
	return 0;
}
