// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * pmudev.Region and pmudev.measure: libpmudev's regions (one read(2) at
 * each end, accumulated, calibrated) from Python. A Region is started and
 * stopped by Python code, so its calibration times empty Python pairs
 * (r.start(); r.stop() in a function), by the rule libpmudev calibrates
 * its C pairs with: the least any of 64 pairs counted is the overhead of
 * one, subtracted per pair, a count below it reported as 0 and flagged.
 * measure wraps a call in C, so libpmudev's own calibration is the one.
 */
#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "pmudev-py.h"

#define CALIBRATION_PAIRS 64

void pmudev_py_counted_free(struct counted *c)
{
	pmudev_regions_free(c->regions);
	pmudev_close(c->pmu);
	PyMem_Free(c->slots);
	Py_CLEAR(c->names);
	c->regions = NULL;
	c->pmu = NULL;
	c->slots = NULL;
}

int pmudev_py_counted_setup(struct counted *c, PyObject *args, int follow)
{
	struct pmudev_event_list *list;
	PyObject *items;
	Py_ssize_t first = 0;
	int err = 0;

	if (pmudev_py_parse_events(args, &items, &c->names, &list))
		return -1;
	c->slots = PyMem_Calloc(PyTuple_GET_SIZE(c->names), sizeof(*c->slots));
	if (!c->slots)
		PyErr_NoMemory();
	if (!c->slots || pmudev_py_open(&c->pmu, follow ? PMUDEV_OPEN_FOLLOW : 0) ||
	    pmudev_py_check_list(list, c->pmu))
		err = -1;
	pmudev_event_list_free(list);
	for (Py_ssize_t i = 0; !err && i < PyTuple_GET_SIZE(items); i++) {
		PyObject *item = PyTuple_GET_ITEM(items, i);

		err = pmudev_py_add_item(c->pmu, item, c->slots, first);
		if (err == -ENOSPC)
			pmudev_py_raise(pmudev_py_event_error, err, "more events than this core's "
					"counters: a region counts them all at once (pmudev.count() "
					"multiplexes them, or counts them in passes)");
		else if (err)
			pmudev_py_event_failed(c->pmu, item, err);
		first += pmudev_py_item_size(item);
	}
	Py_DECREF(items);
	if (err)
		return -1;
	err = pmudev_regions_new(c->pmu, &c->regions);
	if (err) {
		pmudev_py_raise(NULL, err, NULL);
		return -1;
	}
	return 0;
}

uint64_t pmudev_py_counted_value(const struct counted *c, const struct pmudev_region_counts *counts,
			      Py_ssize_t i)
{
	int slot = c->slots[i];

	return slot == ARMPMU_CYCLE_COUNTER ? counts->cycles : counts->events[slot];
}

PyObject *pmudev_py_counted_dict(const struct counted *c, const struct pmudev_region_counts *counts)
{
	PyObject *d = PyDict_New();

	for (Py_ssize_t i = 0; d && i < PyTuple_GET_SIZE(c->names); i++) {
		PyObject *v = PyLong_FromUnsignedLongLong(pmudev_py_counted_value(c, counts, i));

		if (!v || PyDict_SetItem(d, PyTuple_GET_ITEM(c->names, i), v))
			Py_CLEAR(d);
		Py_XDECREF(v);
	}
	return d;
}

/* ---- Region ---- */

typedef struct {
	PyObject_HEAD
	struct counted c;
	int id, current;	/* the region, and the one start/stop use now */
	struct pmudev_region_counts overhead;	/* one Python pair's */
} Region;

/* def pair(r): r.start(); r.stop() -- an empty pair as Python code makes one. */
static PyObject *empty_pair;

static PyObject *make_empty_pair(void)
{
	PyObject *globals = PyDict_New(), *result, *fn = NULL;

	if (!globals)
		return NULL;
	result = PyRun_String("def pair(r):\n    r.start()\n    r.stop()\n", Py_file_input,
			      globals, globals);
	if (result)
		fn = Py_XNewRef(PyDict_GetItemString(globals, "pair"));
	Py_XDECREF(result);
	Py_DECREF(globals);
	return fn;
}

static int raw_read(const Region *self, int id, struct pmudev_region_counts *counts)
{
	int err = pmudev_region_read(self->c.regions, id, counts);

	if (err)
		pmudev_py_raise(NULL, err, NULL);
	return err;
}

/* The least any of the pairs counted, per counter. */
static int calibrate(Region *self)
{
	struct pmudev_region_counts before = { 0 }, after, *o = &self->overhead;
	uint32_t n = (uint32_t)PyTuple_GET_SIZE(self->c.names);
	int id = pmudev_region(self->c.regions, "python calibration");

	if (id < 0) {
		pmudev_py_raise(NULL, id, NULL);
		return -1;
	}
	if (!empty_pair && !(empty_pair = make_empty_pair()))
		return -1;
	self->current = id;
	for (int k = 0; k < CALIBRATION_PAIRS; k++) {
		PyObject *r = PyObject_CallOneArg(empty_pair, (PyObject *)self);

		if (!r || raw_read(self, id, &after)) {
			Py_XDECREF(r);
			return -1;
		}
		Py_DECREF(r);
		for (uint32_t i = 0; i < n; i++) {
			int slot = self->c.slots[i];
			uint64_t d = pmudev_py_counted_value(&self->c, &after, i) -
				     pmudev_py_counted_value(&self->c, &before, i);
			uint64_t *min = slot == ARMPMU_CYCLE_COUNTER ? &o->cycles : &o->events[slot];

			if (!k || d < *min)
				*min = d;
		}
		before = after;
	}
	o->calls = CALIBRATION_PAIRS;
	self->current = self->id;
	return 0;
}

static PyObject *region_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
	static char *keywords[] = { "follow", NULL };
	PyObject *empty = PyTuple_New(0);
	Region *self;
	int follow = 0, ok;

	if (!empty)
		return NULL;
	ok = PyArg_ParseTupleAndKeywords(empty, kwargs, "|$p:Region", keywords, &follow);
	Py_DECREF(empty);
	if (!ok)
		return NULL;
	self = (Region *)type->tp_alloc(type, 0);
	if (!self)
		return NULL;
	if (pmudev_py_counted_setup(&self->c, args, follow))
		goto fail;
	/* Raw counts: the subtraction is this file's, by the Python pair. */
	pmudev_regions_set_calibration(self->c.regions, false);
	self->id = pmudev_region(self->c.regions, "region");
	if (self->id < 0) {
		pmudev_py_raise(NULL, self->id, NULL);
		goto fail;
	}
	if (calibrate(self))
		goto fail;
	return (PyObject *)self;
fail:
	Py_DECREF(self);
	return NULL;
}

static void region_dealloc(Region *self)
{
	pmudev_py_counted_free(&self->c);
	Py_TYPE(self)->tp_free((PyObject *)self);
}

static int usable(const Region *self)
{
	if (self->c.regions)
		return 0;
	pmudev_py_raise(NULL, -EBADF, "this Region is closed");
	return -1;
}

/* The two methods a pair runs: nothing between the call and the read. */
static PyObject *region_start(Region *self, PyObject *unused)
{
	int err;

	(void)unused;
	if (!self->c.regions)
		return usable(self), NULL;
	err = pmudev_region_begin(self->c.regions, self->current);
	if (err)
		return pmudev_py_raise(NULL, err, err == -EALREADY ?
				       "this Region is started already: stop() it first" : NULL);
	Py_RETURN_NONE;
}

static PyObject *region_stop(Region *self, PyObject *unused)
{
	int err;

	(void)unused;
	if (!self->c.regions)
		return usable(self), NULL;
	err = pmudev_region_end(self->c.regions, self->current);
	if (err)
		return pmudev_py_raise(NULL, err, err == -EINVAL ?
				       "this Region is not started: start() it first" : NULL);
	Py_RETURN_NONE;
}

/* The totals less the overhead of each pair, clamped at 0; *clamped says if any was. */
static int calibrated(const Region *self, struct pmudev_region_counts *counts, bool *clamped)
{
	*clamped = false;
	if (raw_read(self, self->id, counts))
		return -1;
	for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(self->c.names); i++) {
		int slot = self->c.slots[i];
		uint64_t *v = slot == ARMPMU_CYCLE_COUNTER ? &counts->cycles : &counts->events[slot];
		uint64_t cost = counts->calls * (slot == ARMPMU_CYCLE_COUNTER ?
			self->overhead.cycles : self->overhead.events[slot]);

		if (*v < cost)
			*clamped = true;
		*v = *v < cost ? 0 : *v - cost;
	}
	return 0;
}

static PyObject *region_values(Region *self, PyObject *unused)
{
	struct pmudev_region_counts counts;
	bool clamped;

	(void)unused;
	if (usable(self) || calibrated(self, &counts, &clamped))
		return NULL;
	return pmudev_py_counted_dict(&self->c, &counts);
}

static PyObject *region_getitem(Region *self, PyObject *key)
{
	PyObject *d = region_values(self, NULL), *v;

	if (!d)
		return NULL;
	v = Py_XNewRef(PyDict_GetItemWithError(d, key));
	if (!v && !PyErr_Occurred())
		PyErr_Format(PyExc_KeyError, "%R: not an event of this Region (its events: %R)",
			     key, self->c.names);
	Py_DECREF(d);
	return v;
}

static Py_ssize_t region_length(Region *self)
{
	return self->c.names ? PyTuple_GET_SIZE(self->c.names) : 0;
}

static PyObject *region_close(Region *self, PyObject *unused)
{
	(void)unused;
	pmudev_regions_free(self->c.regions);
	pmudev_close(self->c.pmu);
	self->c.regions = NULL;
	self->c.pmu = NULL;
	Py_RETURN_NONE;
}

static PyObject *region_enter(Region *self, PyObject *unused)
{
	PyObject *r = region_start(self, unused);

	if (!r)
		return NULL;
	Py_DECREF(r);
	return Py_NewRef(self);
}

static PyObject *region_exit(Region *self, PyObject *args)
{
	PyObject *r;

	(void)args;
	r = region_stop(self, NULL);
	if (!r)
		return NULL;
	Py_DECREF(r);
	Py_RETURN_FALSE;
}

static PyObject *region_calls(Region *self, void *unused)
{
	struct pmudev_region_counts counts;

	(void)unused;
	if (usable(self) || raw_read(self, self->id, &counts))
		return NULL;
	return PyLong_FromUnsignedLongLong(counts.calls);
}

static PyObject *region_overhead(Region *self, void *unused)
{
	(void)unused;
	return pmudev_py_counted_dict(&self->c, &self->overhead);
}

static int add_word(PyObject *set, const char *word)
{
	PyObject *w = PyUnicode_FromString(word);
	int err = w ? PySet_Add(set, w) : -1;

	Py_XDECREF(w);
	return err;
}

static PyObject *region_flags(Region *self, void *unused)
{
	struct pmudev_region_counts counts;
	PyObject *set, *frozen;
	bool clamped;

	(void)unused;
	if (usable(self) || calibrated(self, &counts, &clamped))
		return NULL;
	set = PySet_New(NULL);
	if (set && clamped && add_word(set, "clamped"))
		Py_CLEAR(set);
	if (set && pmudev_region_incomplete(self->c.regions, self->id) > 0 &&
	    add_word(set, "incomplete"))
		Py_CLEAR(set);
	if (!set)
		return NULL;
	frozen = PyFrozenSet_New(set);
	Py_DECREF(set);
	return frozen;
}

static PyObject *region_complete(Region *self, void *unused)
{
	PyObject *flags = region_flags(self, unused);
	int empty;

	if (!flags)
		return NULL;
	empty = PySet_GET_SIZE(flags) == 0;
	Py_DECREF(flags);
	return PyBool_FromLong(empty);
}

static PyMethodDef region_methods[] = {
	{ "start", (PyCFunction)region_start, METH_NOARGS,
	  "start()\n\nBegin a pair: one read of the counters. Error if started already." },
	{ "stop", (PyCFunction)region_stop, METH_NOARGS,
	  "stop()\n\nEnd the pair: one read, the difference added to the totals." },
	{ "values", (PyCFunction)region_values, METH_NOARGS,
	  "values() -> dict\n\nThe totals over every completed pair, each less the calibrated\n"
	  "overhead of a pair (overhead), at 0 at least (then flags has 'clamped')." },
	{ "close", (PyCFunction)region_close, METH_NOARGS,
	  "close()\n\nStop counting and close the device: the thread may be counted again\n"
	  "by another count or Region. Later calls raise Error." },
	{ "__enter__", (PyCFunction)region_enter, METH_NOARGS, "start(), and the Region." },
	{ "__exit__", (PyCFunction)region_exit, METH_VARARGS, "stop()." },
	{ NULL, NULL, 0, NULL },
};

static PyGetSetDef region_getset[] = {
	{ "calls", (getter)region_calls, NULL, "The completed start/stop pairs.", NULL },
	{ "overhead", (getter)region_overhead, NULL,
	  "What one empty pair (r.start(); r.stop() in a function) counts, per event:\n"
	  "the least of 64 timed when the Region was made, subtracted per pair.", NULL },
	{ "flags", (getter)region_flags, NULL,
	  "frozenset: 'clamped' (a total was below its overhead: reported as 0),\n"
	  "'incomplete' (counted for part of the time only). Empty: exact.", NULL },
	{ "complete", (getter)region_complete, NULL, "True when flags is empty.", NULL },
	{ NULL, NULL, NULL, NULL, NULL },
};

static PyMappingMethods region_mapping = {
	.mp_length = (lenfunc)region_length,
	.mp_subscript = (binaryfunc)region_getitem,
};

PyDoc_STRVAR(region_doc,
"Region(*events, follow=False)\n"
"\n"
"libpmudev's calibrated regions: counting starts when the Region is made,\n"
"and each start()/stop() pair (or with block) adds what it counted:\n"
"\n"
"    r = pmudev.Region(\"instructions:u\")\n"
"    for n in sizes:\n"
"        r.start(); work(n); r.stop()\n"
"    r.values(), r.calls          # totals over the pairs\n"
"    r.close()\n"
"\n"
"Events as count() takes them, at most as many as the core has counters\n"
"(plus cycles). The cost of the measurement is taken out as libpmudev's\n"
"C regions take theirs out: when the Region is made it times 64 empty\n"
"pairs made the way Python code makes them (r.start() then r.stop() in a\n"
"function: the two reads, and the interpreter's return from start() and\n"
"call of stop()), and subtracts the least of them once per pair. What is\n"
"left is the work between the two calls: the interpreter running your\n"
"lines. A pair in code run for the first times costs a little more than\n"
"the calibrated one (the interpreter has not specialised it yet).\n"
"\n"
"One count or Region per thread at a time: close() it (or let it go) first.");

PyTypeObject pmudev_py_region_type = {
	PyVarObject_HEAD_INIT(NULL, 0)
	.tp_name = "pmudev.Region",
	.tp_basicsize = sizeof(Region),
	.tp_dealloc = (destructor)region_dealloc,
	.tp_as_mapping = &region_mapping,
	.tp_flags = Py_TPFLAGS_DEFAULT,
	.tp_doc = region_doc,
	.tp_methods = region_methods,
	.tp_getset = region_getset,
	.tp_new = region_new,
};
