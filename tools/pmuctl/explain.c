// SPDX-License-Identifier: GPL-2.0
/*
 * pmuctl explain EVENT: what an event counts, its number, on which of the
 * cores libpmudev knows it exists (and under which number or name), whether
 * the running core counts it, perf's alias for it, and the pitfalls of its
 * kind (libpmudev's pmudev_event_pitfall()). Works from the tables without
 * a device.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "pmuctl.h"
#include "stat-metrics.h"

/* The core explained for: the running one, one given by --core, or none. */
struct here {
	bool known;
	bool device;		/* a CPU's, through the device */
	int cpu;
	struct armpmu_info info;
	const char *core;
	const char *why;	/* no core: why not */
};

/* The event explained. */
struct subject {
	struct pmudev_event_info ev;
	const char *alias;	/* the perf alias asked for, or NULL */
	bool raw;		/* asked for by number */
};

#define SUGGESTIONS	4

static const struct pmudev_event_info *find_event(uint32_t midr, const char *name,
						  uint32_t number)
{
	const struct pmudev_event_info *ev;

	for (unsigned int i = 0; (ev = pmudev_core_event(midr, i)); i++)
		if (name ? !strcasecmp(ev->name, name) : ev->number == number)
			return ev;
	return NULL;
}

/* The event called @name in any table, @here's first; NULL if none. */
static const struct pmudev_event_info *any_named(const struct here *here, const char *name)
{
	const struct pmudev_event_info *ev = here->known ? find_event(here->info.midr, name, 0) : NULL;
	struct armpmu_info info;

	for (unsigned int i = 0; !ev && pmudev_known_core(i, &info); i++)
		ev = find_event(info.midr, name, 0);
	return ev;
}

/* An architectural event no table lists: what the library knows of it. */
static void arch_only(struct subject *s, const char *name, uint32_t number)
{
	s->ev = (struct pmudev_event_info){
		.number = number,
		.group = PMUDEV_GROUP_OTHER,
		.name = pmudev_event_name(number) ? pmudev_event_name(number) : name,
		.description = pmudev_event_description(number) ?
			       pmudev_event_description(number) : "(no known core lists it)",
	};
}

static bool is_raw(const char *name)
{
	return (name[0] == '0' && (name[1] == 'x' || name[1] == 'X')) ||
	       ((name[0] == 'r' || name[0] == 'R') && name[1] &&
		strspn(name + 1, "0123456789abcdefABCDEF") == strlen(name + 1));
}

/* Refuses @name, with the closest names of @here's table, or of every table. */
static int unknown(const char *name, const struct here *here)
{
	char near[SUGGESTIONS][48], buf[256];
	struct armpmu_info info;
	int n = 0;

	for (unsigned int i = 0; n < SUGGESTIONS; i++) {
		char *p;

		if (here->known && i)
			break;
		if (!here->known && !pmudev_known_core(i, &info))
			break;
		pmudev_event_suggest_for(name, here->known ? &here->info : &info, buf, sizeof(buf), 3);
		for (p = strtok(buf, ", "); p && n < SUGGESTIONS; p = strtok(NULL, ", ")) {
			int j = 0;

			while (j < n && strcmp(near[j], p))
				j++;
			if (j == n)
				snprintf(near[n++], sizeof(near[0]), "%s", p);
		}
	}
	if (!n)
		return fail("unknown event '%s' (pmuctl list --all shows every name)", name);
	buf[0] = '\0';
	for (int j = 0; j < n; j++)
		snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), "%s%s", j ? ", " : "", near[j]);
	return fail("unknown event '%s'; did you mean %s?", name, buf);
}

/*
 * A number without a core to read it for: the architecture's event, if a
 * table has it as such; else a number each core means in its own way.
 */
static int by_number(struct subject *s, uint32_t number)
{
	const struct pmudev_event_info *ev;
	struct armpmu_info info;
	bool own = false;

	for (unsigned int i = 0; pmudev_known_core(i, &info); i++) {
		if (!(ev = find_event(info.midr, NULL, number)))
			continue;
		if (!(ev->flags & PMUDEV_EVENT_IMPDEF)) {
			s->ev = *ev;
			return 0;
		}
		own = true;
	}
	arch_only(s, "", number);
	if (own) {
		s->ev.flags = PMUDEV_EVENT_IMPDEF;
		s->ev.description = "a core's own number: what it counts depends on the core";
	}
	if (!*s->ev.name)
		s->ev.name = "event";
	return 0;
}

static bool is_alias(const char *name)
{
	const char *alias;

	for (unsigned int i = 0; (alias = pmudev_perf_alias(i)); i++)
		if (!strcasecmp(name, alias))
			return true;
	return false;
}

/*
 * @spec (a name, a perf alias or a number; a modifier is ignored) as the
 * event to explain. An alias is explained as the event it counts on @here's
 * core, or as ARMv8 maps it without one (or where the core has nothing).
 */
static int resolve(const char *spec, const struct here *here, struct subject *s)
{
	const struct pmudev_event_info *ev = NULL;
	struct pmudev_event pe;
	char name[64];

	snprintf(name, sizeof(name), "%.*s", (int)strcspn(spec, ":"), spec);
	*s = (struct subject){ .raw = is_raw(name) };
	if (!s->raw && (ev = any_named(here, name))) {
		s->ev = *ev;
		return 0;
	}
	if (pmudev_event_parse(name, NULL, &pe))
		return unknown(name, here);
	if (is_alias(name)) {
		s->alias = spec;
		if (here->known && !pmudev_event_parse(name, &here->info, &pe))
			ev = find_event(here->info.midr, NULL, pe.number);
		else if (pmudev_event_name(pe.number))
			ev = any_named(here, pmudev_event_name(pe.number));
	} else if (here->known) {
		ev = find_event(here->info.midr, NULL, pe.number);
	}
	if (!ev && s->raw)
		return by_number(s, pe.number);
	if (ev)
		s->ev = *ev;
	else
		arch_only(s, name, pe.number);
	return 0;
}

/* This core's event for the subject: by name, or by number when asked by number. */
static const struct pmudev_event_info *core_event(const struct armpmu_info *info,
						  const struct subject *s)
{
	const struct pmudev_event_info *ev = s->raw ? find_event(info->midr, NULL, s->ev.number) :
						      find_event(info->midr, s->ev.name, 0);

	return ev && pmudev_event_implemented(info, ev->number) ? ev : NULL;
}

static void print_header(const struct subject *s)
{
	const char *group = pmudev_event_group_name(s->ev.group);

	printf("%s (0x%04x): %s\n", s->ev.name, s->ev.number, s->ev.description);
	printf("  %s; group: %s\n", s->ev.flags & PMUDEV_EVENT_IMPDEF ?
	       "a core's own event (IMPLEMENTATION DEFINED)" : "an architectural event", group);
}

static void print_cores(const struct subject *s)
{
	const struct pmudev_event_info *ev, *other;
	struct armpmu_info info;
	const char *core;

	printf("\nKnown cores:\n");
	for (unsigned int i = 0; (core = pmudev_known_core(i, &info)); i++) {
		ev = core_event(&info, s);
		if (ev && !s->raw && (ev->number != s->ev.number || strcmp(ev->name, s->ev.name)))
			printf("  %-12s 0x%04x %s (here under this %s)\n", core, ev->number,
			       ev->name, ev->number != s->ev.number ? "number" : "name");
		else if (ev)
			printf("  %-12s 0x%04x %s\n", core, ev->number, ev->name);
		else if (!s->raw && (other = find_event(info.midr, NULL, s->ev.number)))
			printf("  %-12s -      (0x%04x is %s there)\n", core, other->number,
			       other->name);
		else
			printf("  %-12s -\n", core);
	}
}

/* Whether this machine is one of QEMU's boards (its device tree or firmware says). */
static bool on_qemu(void)
{
	static const char *const files[] = {
		"/proc/device-tree/compatible", "/sys/class/dmi/id/sys_vendor",
	};
	char buf[256];

	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		FILE *f = fopen(files[i], "r");
		size_t n;

		if (!f)
			continue;
		n = fread(buf, 1, sizeof(buf) - 1, f);
		fclose(f);
		/* The device tree's list is NUL-separated. */
		for (size_t j = 0; j < n; j++)
			if (!buf[j])
				buf[j] = ' ';
		buf[n] = '\0';
		if (strstr(buf, "linux,dummy-virt") || strstr(buf, "QEMU") || strstr(buf, "qemu"))
			return true;
	}
	return false;
}

static void print_here(const struct subject *s, const struct here *here)
{
	const struct pmudev_event_info *ev;
	char who[64];

	printf("\nHere: ");
	if (!here->known) {
		printf("%s; --core CORE answers for a core of the tables.\n", here->why);
		return;
	}
	if (here->device)
		snprintf(who, sizeof(who), "CPU %d (%s)", here->cpu, here->core);
	else
		snprintf(who, sizeof(who), "%s (--core)", here->core);
	if ((ev = core_event(&here->info, s)))
		printf("%s counts it, as %s (0x%04x).\n", who, ev->name, ev->number);
	else if ((ev = s->raw ? find_event(here->info.midr, NULL, s->ev.number) :
				find_event(here->info.midr, s->ev.name, 0)))
		printf("%s does not count it: the core reports it does not implement it.\n", who);
	else
		printf("%s does not count it: not in its manual's events.\n", who);
	if (here->device && on_qemu())
		printf("This board is emulated (QEMU): %s\n", pmudev_event_qemu_counts(&s->ev) ?
		       "it counts this event (see below)." :
		       "this event programs fine and reads 0 here.");
}

/* What perf's generic aliases count, where it is this event. */
static void print_aliases(const struct subject *s, const struct here *here)
{
	bool heading = false;

	const char *alias;

	for (unsigned int a = 0; (alias = pmudev_perf_alias(a)); a++) {
		const char *note = NULL, *core;
		struct armpmu_info info;
		struct pmudev_event pe;
		int n = 0;

		for (unsigned int i = 0; (core = pmudev_known_core(i, &info)); i++) {
			const struct pmudev_event_info *ev = core_event(&info, s);

			if (!ev || pmudev_event_parse(alias, &info, &pe) ||
			    pe.number != ev->number)
				continue;
			if (!heading)
				printf("\nperf's generic aliases:\n");
			heading = true;
			if (!n++)
				printf("  %s counts it on the %s", alias, core);
			else
				printf(", %s", core);
			if (!note)
				note = pmudev_event_note(alias, &info);
		}
		if (n)
			printf("\n%s%s%s", note ? "    (" : "", note ? note : "", note ? ")\n" : "");
	}
	if (s->alias && here->known && !core_event(&here->info, s))
		printf("\n%s: %s has nothing perf's alias could stand for.\n", s->alias, here->core);
}

static void print_alias_intro(const struct subject *s, const struct here *here)
{
	const char *note = here->known ? pmudev_event_note(s->alias, &here->info) : NULL;

	printf("%s is perf's generic alias; %s%s it counts:\n", s->alias,
	       here->known ? "on the " : "without a core, as ARMv8 maps it,",
	       here->known ? here->core : "");
	if (note)
		printf("  (%s)\n", note);
	putchar('\n');
}

/* The running CPU's core, through the device; none (and why) without one. */
static void find_here(struct here *here)
{
	int err = cpu_pmu_info(&here->cpu, &here->info);

	if (err == -ENOENT)
		here->why = "no " DEVICE_PATH " (armpmu is not loaded), so no running core";
	else if (err == -ENODEV)
		here->why = "this CPU has no PMU armpmu can use";
	else if (err)
		here->why = "cannot open " DEVICE_PATH ", so no running core";
	if (err)
		return;
	here->known = here->device = true;
	here->core = pmudev_core_name(here->info.midr);
	if (!here->core)
		here->core = "an unknown core";
}

static int known_core(struct here *here, const char *want)
{
	const char *name;

	for (unsigned int i = 0; (name = pmudev_known_core(i, &here->info)); i++) {
		if (pmudev_core_matches(name, want)) {
			here->known = true;
			here->core = name;
			return 0;
		}
	}
	return usage_error("no table for a core '%s' (pmuctl list --all names them)", want);
}

/* "  - " and @text folded at 76 columns, continuation lines indented. */
static void print_folded(FILE *out, const char *text)
{
	const char *p = text;
	int col = 4;

	fputs("  - ", out);
	while (*p) {
		size_t word = strcspn(p, " ");

		if (col > 4 && col + 1 + (int)word > 76) {
			fputs("\n    ", out);
			col = 4;
		} else if (col > 4) {
			fputc(' ', out);
			col++;
		}
		fwrite(p, 1, word, out);
		col += (int)word;
		p += word;
		while (*p == ' ')
			p++;
	}
	fputc('\n', out);
}

static const char explain_help[] =
	"Usage: pmuctl explain [-C CPU | --core CORE] EVENT\n\n"
	"What EVENT counts and its number; on which of the known cores it exists\n"
	"(and under which number or name); whether the running core counts it\n"
	"(through the device, if armpmu is loaded; QEMU's boards are recognised);\n"
	"which of perf's generic aliases stands for it; and the pitfalls of its\n"
	"kind: speculative or retired, what QEMU counts, kernel and user mode,\n"
	"32-bit counters. EVENT is a name of any known core, a perf alias\n"
	"(cycles, instructions, cache-references, cache-misses, branches,\n"
	"branch-misses) or a number (0x11, r11). An unknown name is refused with\n"
	"the closest names.\n"
	"pmuctl explain topdown: stat --topdown's formulas, and their source.\n\n"
	"  -C, --cpu CPU     answer for the core of CPU (default: this one)\n"
	"      --core CORE   answer for a core of the tables (cortex-a72, A72),\n"
	"                    without a device\n"
	"  -h, --help        this help\n";

int cmd_explain(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "cpu", required_argument, NULL, 'C' },
		{ "core", required_argument, NULL, 'c' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct core_choice choice = { .cpu = -1 };
	struct here here = { 0 };
	struct subject s;
	const char *text;
	int opt, status;

	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":C:h", opts, NULL)) != -1) {
		if (core_choice_option(&choice, opt, optarg, &status)) {
			if (status)
				return status;
			continue;
		}
		switch (opt) {
		case 'h':
			fputs(explain_help, stdout);
			return EXIT_SUCCESS;
		default:
			return option_error(opt, argv);
		}
	}
	if (optind + 1 != argc)
		return usage_error(optind == argc ? "which event?" : "one event at a time");
	if (!strcasecmp(argv[optind], "topdown")) {
		for (int i = 0; stat_metric_topdown_text[i]; i++)
			puts(stat_metric_topdown_text[i]);
		return EXIT_SUCCESS;
	}
	if (choice.cpu_given && choice.core)
		return usage_error("-C and --core: one at a time");
	here.cpu = choice.cpu;
	if (choice.core && known_core(&here, choice.core))
		return EXIT_USAGE;
	if (!choice.core)
		find_here(&here);
	if (resolve(argv[optind], &here, &s))
		return EXIT_FAILURE;
	if (s.alias)
		print_alias_intro(&s, &here);
	print_header(&s);
	print_cores(&s);
	print_here(&s, &here);
	print_aliases(&s, &here);
	printf("\nPitfalls:\n");
	for (unsigned int i = 0; (text = pmudev_event_pitfall(&s.ev, i)); i++)
		print_folded(stdout, text);
	return EXIT_SUCCESS;
}
