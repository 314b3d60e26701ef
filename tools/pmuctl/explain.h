/* SPDX-License-Identifier: GPL-2.0 */
/* pmuctl explain's pitfalls, as data by class of event (pitfalls.c). */
#ifndef PMUCTL_EXPLAIN_H
#define PMUCTL_EXPLAIN_H

#include <stdbool.h>
#include <stdio.h>
#include <pmudev.h>

/* The pitfalls of @ev's classes, one folded "  - " item each. */
void explain_pitfalls(FILE *out, const struct pmudev_event_info *ev);

/* Whether QEMU's emulated PMU counts @ev at all (with -icount at most). */
bool explain_qemu_counts(const struct pmudev_event_info *ev);

#endif /* PMUCTL_EXPLAIN_H */
