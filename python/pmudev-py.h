/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The pmudev Python module (python/): what its files share. module.c holds
 * the module, its exceptions and the table functions (events, explain,
 * info); count.c the Count type; region.c the Region type and the measure
 * decorator. Everything goes through libpmudev: event specs are parsed by
 * libpmudev only, and its messages are the exceptions' messages.
 */
#ifndef PMUDEV_PY_H
#define PMUDEV_PY_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <pmudev.h>

/* pmudev.Error and its subclasses (module.c). */
extern PyObject *pmudev_py_error;	/* Error(OSError): every failure */
extern PyObject *pmudev_py_event_error;	/* EventError(Error, ValueError) */
extern PyObject *pmudev_py_device_error;	/* DeviceError(Error) */
extern PyObject *pmudev_py_disturbed_error;	/* DisturbedError(Error) */
extern PyObject *pmudev_py_incomplete_error;	/* IncompleteError(Error) */

/*
 * Raises @type (NULL: pmudev.Error) with errno -@err and @msg (NULL:
 * pmudev_strerror(@err)). Returns NULL, for `return pmudev_py_raise(...)`.
 */
PyObject *pmudev_py_raise(PyObject *type, int err, const char *msg);

/*
 * pmudev_open() in task mode with @flags; on failure raises DeviceError
 * saying why (no module: pmuctl load; no access: the device's group) and
 * returns -1.
 */
int pmudev_py_open(struct pmudev **pmu, unsigned int flags);

/*
 * The events a Count or a Region is given: each positional argument a str
 * as one `pmuctl stat -e` argument takes it ("cycles:u,{instructions,r08}",
 * taken apart by libpmudev's event lists: the same syntax and messages),
 * or a group as a tuple or list of specs (("a", "b") is "{a,b}"). Checked
 * for type, emptiness, software events and duplicates; @items gets a new
 * tuple of items (a spec, or a tuple of a group's specs) and @names one of
 * every event's key (its spec; PMU syntax as typed), in order; @list (if
 * not NULL) the list, for pmudev_py_check_list(), to be freed with
 * pmudev_event_list_free(). Returns 0, or -1 with an exception set.
 */
int pmudev_py_parse_events(PyObject *args, PyObject **items, PyObject **names,
			   struct pmudev_event_list **list);

/*
 * Whether @list's events suit @pmu's core (pmudev_event_list_check(): a
 * PMU name of another core, a group larger than the counters): 0, or -1
 * with EventError raised, its message libpmudev's.
 */
int pmudev_py_check_list(const struct pmudev_event_list *list, struct pmudev *pmu);

/*
 * Adds item @item (a spec or a group, as parsed above) to @pmu; each
 * spec's counter goes to @slots (its index in the flattened order from
 * @first). Returns 0, or the negative errno with nothing raised yet
 * (so that -ENOSPC can start another pass); pmudev_py_event_failed() then
 * raises.
 */
int pmudev_py_add_item(struct pmudev *pmu, PyObject *item, int *slots, Py_ssize_t first);

/* Raises EventError (or Error) for @err from adding @item to @pmu. */
void pmudev_py_event_failed(struct pmudev *pmu, PyObject *item, int err);

/* How many specs @item holds (1 for a str). */
Py_ssize_t pmudev_py_item_size(PyObject *item);

/*
 * What a Region and a measured call count (region.c): the events, the
 * handle and its region set.
 */
struct counted {
	PyObject *names;	/* every spec: the keys */
	int *slots;		/* per name: its counter */
	struct pmudev *pmu;
	struct pmudev_regions *regions;
};

/*
 * Opens the device (task mode, FOLLOW if @follow), programs @args (as
 * pmudev_py_parse_events() takes them; no more than the counters) and
 * starts the regions: libpmudev calibrates its C pairs. 0, or -1 raised;
 * pmudev_py_counted_free() in either case.
 */
int pmudev_py_counted_setup(struct counted *c, PyObject *args, int follow);
void pmudev_py_counted_free(struct counted *c);
/* @counts' value for name @i: the cycle counter's or its event counter's. */
uint64_t pmudev_py_counted_value(const struct counted *c,
				 const struct pmudev_region_counts *counts, Py_ssize_t i);
/* name -> value of @counts, a new dict. */
PyObject *pmudev_py_counted_dict(const struct counted *c,
				 const struct pmudev_region_counts *counts);

extern PyTypeObject pmudev_py_count_type;
extern PyTypeObject pmudev_py_region_type;
extern PyTypeObject pmudev_py_measure_type;

/* The table functions (tables.c). */
PyObject *pmudev_py_events(PyObject *self, PyObject *args, PyObject *kwargs);
PyObject *pmudev_py_explain(PyObject *self, PyObject *args, PyObject *kwargs);
PyObject *pmudev_py_info(PyObject *self, PyObject *args);
PyObject *pmudev_py_cores(PyObject *self, PyObject *args);

/* pmudev.measure(*events): a Measure object, a decorator (region.c). */
PyObject *pmudev_py_measure(PyObject *self, PyObject *args, PyObject *kwargs);

#endif /* PMUDEV_PY_H */
