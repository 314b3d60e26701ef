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
		  "add_event: -ENOSPC when every counter is taken (no PMUDEV_OPEN_MULTIPLEX)");
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

/*
 * Groups and READ_SLOTS: more events than counters, a group too large
 * refused, each slot's times sane (exact counts are the icount lanes').
 */
void test_multiplex(void)
{
	struct {
		struct armpmu_read hdr;
		struct armpmu_slot slot[ARMPMU_MAX_COUNTERS];
	} rd = { 0 };
	const char *specs[ARMPMU_MAX_COUNTERS + 1];
	struct pmudev *pmu;
	unsigned int n, i, bad = 0;
	int slots[2], ret;

	ret = pmudev_open(&pmu, PMUDEV_CPU_ANY, PMUDEV_OPEN_MULTIPLEX);
	if (!tap_errno(err_of(ret), 0, "multiplex: open with PMUDEV_OPEN_MULTIPLEX"))
		return;
	n = pmudev_info(pmu)->num_counters;
	for (i = 0; i <= n; i++)
		specs[i] = "CPU_CYCLES:u";
	tap_errno(err_of(pmudev_add_group(pmu, specs, n + 1, NULL)), ENOSPC,
		  "add_group: -ENOSPC for a group larger than the counters");
	ret = pmudev_add_group(pmu, specs, 2, slots);
	tap_check(!ret && slots[0] == (int)n - 1 && slots[1] == (int)n - 2,
		  "add_group: two events, on the highest counters", "%s: slots %d %d",
		  tap_errname(err_of(ret)), slots[0], slots[1]);
	for (i = 2; i < n + 2 && ret >= 0; i++)
		ret = pmudev_add_event(pmu, "CPU_CYCLES:u");
	tap_check(ret == (int)n + 1, "add_event: past the counters, on slots up to n + 1",
		  "got %d", ret);
	for (i = n + 2; i < ARMPMU_MAX_COUNTERS && ret >= 0; i++)
		ret = pmudev_add_event(pmu, "r11");
	tap_check(ret == ARMPMU_MAX_COUNTERS - 1, "add_event: every slot up to 30",
		  "slot %u got %d", i, ret);
	tap_errno(err_of(pmudev_add_event(pmu, "CPU_CYCLES")), ENOSPC,
		  "add_event: -ENOSPC when all 31 slots are taken");
	ret = pmudev_start(pmu);
	for (i = 0; !ret && i < 40; i++)
		loop_n(1000000);
	ret = ret ? ret : pmudev_stop(pmu);
	rd.hdr.nr = ARMPMU_MAX_COUNTERS;
	ret = ret ? ret : pmudev_read_slots(pmu, &rd.hdr);
	for (i = 0; !ret && i < ARMPMU_MAX_COUNTERS; i++)
		bad += rd.slot[i].time_running > rd.slot[i].time_enabled ||
		       rd.slot[i].time_enabled > rd.hdr.time_enabled ||
		       (rd.slot[i].time_running && pmudev_scaled(&rd.slot[i]) <
			(double)rd.slot[i].value) ||
		       (!rd.slot[i].time_running && pmudev_scaled(&rd.slot[i]) != -1.0);
	tap_check(!ret && (rd.hdr.flags & ARMPMU_COUNTS_MULTIPLEXED) &&
		  rd.hdr.slots == ARMPMU_MAX_COUNTERS &&
		  !bad, "read_slots: multiplexed, each slot's times within the file's",
		  "%s: flags %#x, slots %u, %u slots off", tap_errname(err_of(ret)), rd.hdr.flags,
		  rd.hdr.slots, bad);
	tap_check(!ret && rd.slot[n - 1].time_running == rd.slot[n - 2].time_running,
		  "read_slots: the group's two ran the same time", "%llu and %llu",
		  (ull)rd.slot[n - 1].time_running, (ull)rd.slot[n - 2].time_running);
	pmudev_close(pmu);
}
