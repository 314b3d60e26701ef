// SPDX-License-Identifier: GPL-2.0
/*
 * pmuctl list: a core's events, by group, from libpmudev's tables: the
 * running CPU's (narrowed to what the core reports it implements), one
 * core's by name, or every known core's; as text, -x SEP or JSON.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/armpmu_arch.h>

#include "json.h"
#include "pmuctl.h"

/* The common events have numbers 0x00-0x3f and, from ARMv8.1, 0x4000 up. */
#define COMMON_LAST	ARMPMU_EV_COMMON_LAST
#define COMMON_HI_BASE	ARMPMU_EV_COMMON_HI_BASE

enum list_format { LIST_TEXT, LIST_SEP, LIST_JSON };

struct listing {
	const char *core;		/* the core's name, or NULL if unknown */
	struct armpmu_info info;
	int cpu;			/* -1: a table, no CPU */
	enum list_format format;
	const char *sep;
	bool first_json;		/* no event printed yet (JSON's commas) */
};

static void print_event(struct listing *l, uint32_t number, const char *name,
			const char *group, bool own, const char *description)
{
	switch (l->format) {
	case LIST_TEXT:
		printf("  %-26s 0x%04x%c %s\n", name, number, own ? '*' : ' ', description);
		break;
	case LIST_SEP:
		printf("%s%s0x%04x%s%s%s%s%s%s%s%s\n", l->core ? l->core : "unknown", l->sep,
		       number, l->sep, name, l->sep, group, l->sep, own ? "own" : "architectural",
		       l->sep, description);
		break;
	case LIST_JSON:
		printf("%s\n  {\"core\": ", l->first_json ? "" : ",");
		json_string(stdout, l->core ? l->core : "unknown");
		printf(", \"number\": %u, \"name\": ", number);
		json_string(stdout, name);
		printf(", \"group\": ");
		json_string(stdout, group);
		printf(", \"own\": %s, \"description\": ", own ? "true" : "false");
		json_string(stdout, description);
		putchar('}');
		l->first_json = false;
		break;
	}
}

/* What perf's aliases count on this core, and where that is only a stand-in. */
static void print_aliases(const struct listing *l)
{
	struct pmudev_event ev;
	const char *note, *name, *alias;

	printf("perf's aliases:\n");
	for (unsigned int i = 0; (alias = pmudev_perf_alias(i)); i++) {
		if (pmudev_event_parse(alias, &l->info, &ev)) {
			printf("  %-26s none here\n", alias);
			continue;
		}
		/* A note names the stand-in first, and says what it is. */
		name = core_event_name(l->info.midr, ev.number);
		note = pmudev_event_note(alias, &l->info);
		printf("  %-26s %s\n", alias, note ? note : name ? name : "?");
	}
}

/* A core with a table: its events, group by group. */
static void list_table(struct listing *l)
{
	const struct pmudev_event_info *ev;
	bool own = false;

	for (unsigned int group = 0; group < PMUDEV_NR_GROUPS; group++) {
		bool heading = false;

		for (unsigned int i = 0; (ev = pmudev_core_event(l->info.midr, i)); i++) {
			if (ev->group != group || !pmudev_event_implemented(&l->info, ev->number))
				continue;
			if (l->format == LIST_TEXT && !heading)
				printf("%s:\n", pmudev_event_group_name(group));
			heading = true;
			own |= ev->flags & PMUDEV_EVENT_IMPDEF;
			print_event(l, ev->number, ev->name, pmudev_event_group_name(group),
				    ev->flags & PMUDEV_EVENT_IMPDEF, ev->description);
		}
	}
	if (l->format != LIST_TEXT)
		return;
	if (own)
		printf("* the core's own event (IMPLEMENTATION DEFINED)\n");
	print_aliases(l);
}

/* A core without a table: the common events, as the architecture has them. */
static void list_common(struct listing *l, unsigned int first, unsigned int last)
{
	for (unsigned int ev = first; ev <= last; ev++) {
		const char *name = pmudev_event_name(ev);

		/* libpmudev's answer: an ARMv7 core has the first 30 only. */
		if (!name || !pmudev_event_implemented(&l->info, ev))
			continue;
		print_event(l, ev, name, "common", false, pmudev_event_description(ev));
	}
}

static void list_core(struct listing *l)
{
	bool known = l->info.flags & ARMPMU_INFO_EVENTS_KNOWN;
	bool table = pmudev_core_event(l->info.midr, 0) != NULL;
	const char *core = l->core ? l->core : "unknown core";

	if (l->format == LIST_TEXT) {
		if (l->cpu < 0)
			printf("%s (part 0x%03x, %u-bit event numbers): the events of its manual\n",
			       core, ARMPMU_MIDR_PART(l->info.midr), l->info.event_bits);
		else if (table)
			printf("CPU %d (%s): %s\n", l->cpu, core,
			       known ? "its own events and the common events it implements" :
				       "the events of its manual (it does not say which of the "
				       "architecture's common events it implements)");
		else
			printf("CPU %d (%s): %s\n", l->cpu, core,
			       known ? "the common events it implements" :
				       "the architecture's common events (this core does not say which it implements)");
	}
	if (table) {
		list_table(l);
		return;
	}
	list_common(l, 0, COMMON_LAST);
	if (l->info.event_bits >= 16)
		list_common(l, COMMON_HI_BASE, COMMON_HI_BASE + 63);
	if (l->format == LIST_TEXT) {
		const char *alias;

		printf("  aliases:");
		for (unsigned int i = 0; (alias = pmudev_perf_alias(i)); i++)
			printf("%s %s", i ? "," : "", alias);
		putchar('\n');
	}
}

static int list_known(struct listing *l, const char *want)
{
	const char *name;
	struct armpmu_info info;
	int shown = 0;

	for (unsigned int i = 0; (name = pmudev_known_core(i, &info)); i++) {
		if (want && !pmudev_core_matches(name, want))
			continue;
		if (shown++ && l->format == LIST_TEXT)
			putchar('\n');
		l->core = name;
		l->info = info;
		list_core(l);
	}
	if (shown)
		return EXIT_SUCCESS;
	fprintf(stderr, "pmuctl list: no table for a core '%s'; known:", want);
	for (unsigned int i = 0; (name = pmudev_known_core(i, NULL)); i++)
		fprintf(stderr, " %s", name);
	fputc('\n', stderr);
	return EXIT_USAGE;
}

static int list_cpu(struct listing *l)
{
	int err = cpu_pmu_info(&l->cpu, &l->info);

	if (err)
		return explain_cpu_pmu_error(err, l->cpu);
	l->core = pmudev_core_name(l->info.midr);
	list_core(l);
	return EXIT_SUCCESS;
}

static const char list_help[] =
	"Usage: pmuctl list [-C CPU | --core CORE | --all] [-x SEP | --json]\n\n"
	"A core's events by group (cycles and instructions, caches, TLBs,\n"
	"branches, memory and bus, stalls, other), each with its name, number\n"
	"and meaning; * marks the core's own (IMPLEMENTATION DEFINED) events.\n"
	"Then what perf's aliases count there, and where that is a stand-in.\n"
	"For the running CPU, common events the core reports it lacks (QEMU's\n"
	"models lack many) are left out.\n\n"
	"  -C, --cpu CPU     the core of CPU (default: this one)\n"
	"      --core CORE   a core by name (cortex-a72, A72); no device needed\n"
	"      --all         every core libpmudev has a table for\n"
	"  -x, --field-separator SEP\n"
	"                    one event a line: core, number, name, group,\n"
	"                    architectural or own, description (last: it may\n"
	"                    hold SEP)\n"
	"      --json        a JSON array of events, one object each\n"
	"  -h, --help        this help\n\n"
	"Names, aliases (cycles, instructions, cache-references, cache-misses,\n"
	"branches, branch-misses) and raw numbers (0x11, r11) work in stat -e.\n";

int cmd_list(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "cpu", required_argument, NULL, 'C' },
		{ "core", required_argument, NULL, 'c' },
		{ "all", no_argument, NULL, 'a' },
		{ "field-separator", required_argument, NULL, 'x' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct listing l = { .format = LIST_TEXT, .first_json = true };
	struct core_choice choice = { .cpu = -1 };
	bool all = false;
	int opt, ret;

	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":C:x:h", opts, NULL)) != -1) {
		if (core_choice_option(&choice, opt, optarg, &ret)) {
			if (ret)
				return ret;
			continue;
		}
		switch (opt) {
		case 'a':
			all = true;
			break;
		case 'x':
			if (l.format == LIST_JSON)
				return usage_error("-x and --json: one format at a time");
			l.format = LIST_SEP;
			l.sep = optarg;
			break;
		case 'j':
			if (l.format == LIST_SEP)
				return usage_error("-x and --json: one format at a time");
			l.format = LIST_JSON;
			break;
		case 'h':
			fputs(list_help, stdout);
			return EXIT_SUCCESS;
		default:
			return option_error(opt, argv);
		}
	}
	if (optind != argc)
		return usage_error("unexpected argument '%s'", argv[optind]);
	if (choice.cpu_given + (choice.core != NULL) + all > 1)
		return usage_error("-C, --core and --all: one at a time");
	l.cpu = choice.cpu;
	if (l.format == LIST_JSON)
		putchar('[');
	if (choice.core || all)
		ret = list_known(&l, choice.core);
	else
		ret = list_cpu(&l);
	if (l.format == LIST_JSON)
		printf("%s]\n", l.first_json ? "" : "\n");
	return ret;
}
