// SPDX-License-Identifier: GPL-2.0
/*
 * libpmudev-test: events by name (parse, error messages, suggestions, the
 * core's implemented events) and pmudev_add_event() filling the counters.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "common.h"

static bool implemented(const struct armpmu_info *info, uint32_t number)
{
	return !(info->flags & ARMPMU_INFO_EVENTS_KNOWN) ||
	       (info->common_events >> number & 1);
}

static void test_event_names(struct pmudev *pmu)
{
	const struct armpmu_info *info = pmudev_info(pmu);
	struct pmudev_event ev, ev2;
	char msg[160], near[80];
	int ret;

	ret = pmudev_event_parse("CPU_CYCLES", info, &ev);
	tap_check(!ret && ev.number == 0x11 && ev.flags == 0,
		  "parse: CPU_CYCLES is 0x11, both modes for root", "%s: %#x flags %#x",
		  tap_errname(err_of(ret)), ev.number, ev.flags);
	ret = pmudev_event_parse("cpu_cycles:u", info, &ev2);
	tap_check(!ret && ev2.number == 0x11 && ev2.flags == ARMPMU_EXCLUDE_KERNEL,
		  "parse: lowercase with :u", "%s: %#x flags %#x", tap_errname(err_of(ret)),
		  ev2.number, ev2.flags);
	ret = pmudev_event_parse("r11:k", info, &ev);
	tap_check(!ret && ev.number == 0x11 && ev.flags == ARMPMU_EXCLUDE_USER,
		  "parse: raw r11 with :k", "%s: %#x flags %#x", tap_errname(err_of(ret)),
		  ev.number, ev.flags);
	ret = pmudev_event_parse("0x11:uk", info, &ev);
	tap_check(!ret && ev.number == 0x11 && ev.flags == 0, "parse: raw 0x11 with :uk",
		  "%s: %#x flags %#x", tap_errname(err_of(ret)), ev.number, ev.flags);
	ret = pmudev_event_parse("cycles", info, &ev);
	tap_check(!ret && ev.number == 0x11, "parse: the alias cycles is CPU_CYCLES",
		  "%s: %#x", tap_errname(err_of(ret)), ev.number);
	ret = pmudev_event_parse("INSTRUCTIONS", info, &ev);
	tap_errno(err_of(ret), implemented(info, 0x08) ? 0 : ENOENT,
		  "parse: INSTRUCTIONS as the core reports INST_RETIRED");
	tap_errno(err_of(pmudev_event_parse("cycles:x", info, &ev)), EINVAL,
		  "parse: -EINVAL for modifier :x");
	tap_errno(err_of(pmudev_event_parse("cycles:uu", info, &ev)), EINVAL,
		  "parse: -EINVAL for modifier :uu");
	tap_errno(err_of(pmudev_event_parse("cycles:", info, &ev)), EINVAL,
		  "parse: -EINVAL for an empty modifier");
	tap_errno(err_of(pmudev_event_parse("0x1g", info, &ev)), EINVAL,
		  "parse: -EINVAL for a bad number");
	snprintf(msg, sizeof(msg), "0x%x", 1U << info->event_bits);
	tap_errno(err_of(pmudev_event_parse(msg, info, &ev)), ERANGE,
		  "parse: -ERANGE for a number wider than the core's event_bits");

	ret = pmudev_event_error("INST_RETIRD", info, msg, sizeof(msg));
	tap_check(ret == -EINVAL && strstr(msg, "INST_RETIRED"),
		  "event_error: an unknown name suggests the closest", "%d: %s", ret, msg);
	ret = pmudev_event_suggest("cpu-cycle", near, sizeof(near), 2);
	tap_check(ret >= 1 && !strncmp(near, "CPU_CYCLES", 10),
		  "event_suggest: the closest name first", "%d: %s", ret, near);
	ret = pmudev_event_error("cycles:x", info, msg, sizeof(msg));
	tap_check(ret == -EINVAL && strstr(msg, "modifier"), "event_error: a bad modifier",
		  "%d: %s", ret, msg);
	tap_check(pmudev_event_error("r11", info, msg, sizeof(msg)) == 0 && !*msg,
		  "event_error: nothing for a valid spec", "%s", msg);
	tap_check(!strcmp(pmudev_event_name(0x08), "INST_RETIRED") &&
		  pmudev_event_description(0x08) && !pmudev_event_name(0x40) &&
		  !pmudev_event_description(0x40),
		  "event_name, event_description: common events only", "%s", "");

	if (info->flags & ARMPMU_INFO_EVENTS_KNOWN) {
		/* QEMU leaves most events out; find one the core says it lacks. */
		uint32_t missing = 0x01;

		while (missing < 0x40 && implemented(info, missing))
			missing++;
		snprintf(near, sizeof(near), "%s", pmudev_event_name(missing));
		ret = pmudev_event_parse(near, info, &ev);
		tap_errno(err_of(ret), ENOENT,
			  "parse: -ENOENT for an event the core reports unimplemented");
		ret = pmudev_event_error(near, info, msg, sizeof(msg));
		tap_check(ret == -ENOENT && strstr(msg, "not implemented"),
			  "event_error: says the event is not implemented", "%s", msg);
		tap_note("unimplemented event tried: %s; common_events %#llx", near,
			 (ull)info->common_events);
		tap_errno(err_of(pmudev_add_event(pmu, near)), ENOENT,
			  "add_event: -ENOENT for it, before the driver sees it");
		pmudev_select(pmu, 0);
		tap_errno(err_of(pmudev_set_event(pmu, missing, 0)), ENOENT,
			  "set_event: the driver's -ENOENT for it passes through");
	} else {
		tap_errno(err_of(pmudev_event_parse("L1D_CACHE_REFILL", info, &ev)), 0,
			  "parse: any ARMv7 event where the core lists none");
		tap_errno(err_of(pmudev_event_parse("BR_RETIRED", info, &ev)), ENOENT,
			  "parse: -ENOENT for an ARMv8 name on an ARMv7 core");
		tap_errno(err_of(pmudev_event_parse("0x21", info, &ev)), 0,
			  "parse: raw numbers past ARMv7's common events are accepted");
	}
}

void test_add_event(void)
{
	const struct armpmu_info *info;
	struct pmudev *pmu;
	unsigned int n, i;
	bool ok = true;
	int ret;

	ret = pmudev_open(&pmu, PMUDEV_CPU_ANY, 0);
	if (!tap_errno(err_of(ret), 0, "events: open"))
		return;
	info = pmudev_info(pmu);
	n = info->num_counters;
	test_event_names(pmu);

	ret = pmudev_add_event(pmu, "cycles:u");
	tap_check(ret == ARMPMU_CYCLE_COUNTER &&
		  !strcmp(pmudev_counter_name(pmu, ret), "cycles:u"),
		  "add_event: cycles:u is the cycle counter, named so", "got %d", ret);
	ret = pmudev_add_event(pmu, "CPU_CYCLES");
	tap_check(ret == (int)n - 1 && !strcmp(pmudev_counter_name(pmu, n - 1), "CPU_CYCLES"),
		  "add_event: CPU_CYCLES takes the highest counter", "got %d", ret);
	for (i = 1; i < n && ok; i++) {
		ret = pmudev_add_event(pmu, i % 2 ? "r11" : "sw_incr:u");
		ok = ret == (int)(n - 1 - i);
	}
	tap_check(ok, "add_event: the next counters, highest first", "counter %u got %d",
		  i, ret);
	tap_check(pmudev_counter_name(pmu, n - 2) && !strcmp(pmudev_counter_name(pmu, n - 2), "r11"),
		  "counter_name: the spec as given", "got %s", pmudev_counter_name(pmu, n - 2));
	tap_errno(err_of(pmudev_add_event(pmu, "CPU_CYCLES")), ENOSPC,
		  "add_event: -ENOSPC when every counter is taken");
	ret = pmudev_add_event(pmu, "cycles");
	tap_check(ret == ARMPMU_CYCLE_COUNTER &&
		  !strcmp(pmudev_counter_name(pmu, ret), "cycles"),
		  "add_event: cycles still works, needing no event counter", "got %d", ret);
	tap_errno(err_of(pmudev_add_event(pmu, "NO_SUCH_EVENT")), EINVAL,
		  "add_event: -EINVAL for an unknown name");
	tap_check(!pmudev_counter_name(pmu, 40), "counter_name: NULL past the counters",
		  "%s", "");
	pmudev_close(pmu);
}
