// SPDX-License-Identifier: GPL-2.0
/*
 * event-list-unit: libpmudev's event lists (pmudev_event_list_add(),
 * pmudev_event_list_check()), which pmuctl stat -e and the Python module
 * share, on a table of -e arguments: what each becomes, or the message
 * it is refused with. TAP.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"
#include "unit-tap.h"

/* TEXT: its events as "spec[=name][@group]" joined by spaces, or its error and message. */
static const struct {
	const char *text, *want;
	int err;
} cases[] = {
	{ "cycles", "cycles", 0 },
	{ "cycles:u,{instructions,r08}", "cycles:u instructions@1 r08@1", 0 },
	{ "{instructions,r08}:u,0x11", "instructions:u@1 r08:u@1 0x11", 0 },
	{ "cpu/event=0x11/u", "0x11:u=cpu/event=0x11/u", 0 },
	{ "{armv8_pmuv3_0/event=8/,cycles}", "0x8=armv8_pmuv3_0/event=8/@1 cycles@1", 0 },
	{ "task-clock,cs,instructions", "instructions", 0 },
	{ "", "-e '': an event name is empty", -EINVAL },
	{ "a,,b", "-e 'a,,b': an event name is empty", -EINVAL },
	{ "{a,b", "-e: '{a,b' opens a group and does not close it", -EINVAL },
	{ "{}", "-e: an empty group '{}'", -EINVAL },
	{ "{a,{b}}", "-e '{a,{b}}': after a group's '}' only a modifier (:u, :k)", -EINVAL },
	{ "{a:u,b}:k", "a:u: give the modifier once, on the group or on the event", -EINVAL },
	{ "cycles:p", "cycles:p: ':p' asks for precise sampling (a sample's exact instruction); pmuctl stat counts, and armpmu samples by time only (pmuctl record), with nothing to make precise: leave it out", -EINVAL },
	{ "nopmu/event=1/", "nopmu/event=1/: no PMU 'nopmu' here (perf's names for these cores: cpu, armv8_pmuv3, armv7_cortex_a7, armv8_cortex_a72 and the like)", -EINVAL },
	{ "cpu/event=0x10000/", "cpu/event=0x10000/: event numbers are 16 bits at most", -EINVAL },
	{ "{task-clock}", "task-clock: a software event in a group; pmuctl measures it apart, from the command's resource usage", -EINVAL },
	{ "faults:u", "faults:u: pmuctl measures page-faults from the command's resource usage, user and kernel mode together: no modifier", -EINVAL },
	{ "a,b,c,d,e,f,g,h", "too many events", -E2BIG },
};

static void describe(const struct pmudev_event_list *list, char *buf, size_t len)
{
	const struct pmudev_list_event *e;

	buf[0] = '\0';
	for (unsigned int i = 0; (e = pmudev_event_list_get(list, i)); i++) {
		size_t at = strlen(buf);

		snprintf(buf + at, len - at, "%s%s", i ? " " : "", e->spec);
		at = strlen(buf);
		if (e->name)
			snprintf(buf + at, len - at, "=%s", e->name);
		at = strlen(buf);
		if (e->group)
			snprintf(buf + at, len - at, "@%u", e->group);
	}
}

int main(void)
{
	char msg[400], got[400], name[160], detail[900];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct pmudev_event_list *list = pmudev_event_list_new(7);
		int err = pmudev_event_list_add(list, cases[i].text, msg, sizeof(msg));

		describe(list, got, sizeof(got));
		snprintf(name, sizeof(name), "-e '%.60s': %.80s", cases[i].text, cases[i].want);
		snprintf(detail, sizeof(detail), "error %d, message '%s', events '%s'", err, msg, got);
		check(err == cases[i].err && !strcmp(err ? msg : got, cases[i].want), name, detail);
		pmudev_event_list_free(list);
	}

	/* Software events listed apart; groups numbered on across adds. */
	struct pmudev_event_list *list = pmudev_event_list_new(16);

	pmudev_event_list_add(list, "task-clock,{a,b},migrations", msg, sizeof(msg));
	pmudev_event_list_add(list, "{c,d}", msg, sizeof(msg));
	describe(list, got, sizeof(got));
	check(pmudev_event_list_software(list) ==
	      (1U << PMUDEV_SW_TASK_CLOCK | 1U << PMUDEV_SW_CPU_MIGRATIONS) &&
	      pmudev_event_list_groups(list) == 2 && !strcmp(got, "a@1 b@1 c@2 d@2"),
	      "software events as bits; a second add's group is group 2", got);
	check(!strcmp(pmudev_software_name(PMUDEV_SW_CONTEXT_SWITCHES), "context-switches") &&
	      !pmudev_software_name(PMUDEV_SW_COUNT), "software events by perf's names", "");

	/* Checked against a core: another core's PMU name, a group too large. */
	struct armpmu_info a7 = { .midr = 0x410fc070, .num_counters = 4 };
	struct pmudev_event_list *l2 = pmudev_event_list_new(16);
	int err;

	pmudev_event_list_add(l2, "armv8_cortex_a72/event=8/", msg, sizeof(msg));
	err = pmudev_event_list_check(pmudev_event_list_get(l2, 0), 1, &a7, msg, sizeof(msg));
	check(err == -ENODEV && !strcmp(msg, "armv8_cortex_a72/event=8/: that PMU is a cortex-a72's; this is a Cortex-A7 (perf's names for it: cpu, armv8_pmuv3 on arm64, or its own)"),
	      "another core's PMU name: -ENODEV, said", msg);
	pmudev_event_list_free(l2);
	l2 = pmudev_event_list_new(16);
	pmudev_event_list_add(l2, "{cycles,a,b,c,d,cycles:u}", msg, sizeof(msg));
	{
		struct pmudev_list_event ev[8];
		unsigned int n = pmudev_event_list_size(l2);

		for (unsigned int i = 0; i < n; i++)
			ev[i] = *pmudev_event_list_get(l2, i);
		err = pmudev_event_list_check(ev, n - 1, &a7, msg, sizeof(msg));
		check(!err, "a group of 4 and cycles fits 4 counters", msg);
		err = pmudev_event_list_check(ev, n, &a7, msg, sizeof(msg));
		check(err == -ENOSPC && !strcmp(msg, "group 1: 6 events, 5 of them for event counters, but a Cortex-A7 has 4: a group is counted together or not at all; make it smaller"),
		      "a second cycles takes a counter: too large, said", msg);
	}
	pmudev_event_list_free(l2);
	check(pmudev_core_matches("Cortex-A72", "a72") && pmudev_core_matches("Cortex-A72", "CORTEX-A72") &&
	      !pmudev_core_matches("Cortex-A72", "a7"), "core names as users write them", "");
	pmudev_event_list_free(list);
	return done();
}
