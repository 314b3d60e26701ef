/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The one rule of which event spec takes the cycle counter, for libpmudev
 * (pmudev_add_event()) and pmuctl (its groups and passes, planned before
 * a file exists). Inline, as json.h, so that the library exports nothing
 * more (libpmudev.map) and pmuctl, linked against the shared library,
 * still has it; not installed.
 */
#ifndef PMUDEV_SPEC_H
#define PMUDEV_SPEC_H

#include <stdbool.h>
#include <string.h>
#include <strings.h>

/* Whether @spec names the cycle counter: "cycles", any case and modifier. */
static inline bool pmudev_spec_is_cycles(const char *spec)
{
	size_t n = strcspn(spec, ":");

	return n == 6 && !strncasecmp(spec, "cycles", 6);
}

#endif /* PMUDEV_SPEC_H */
