// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * pmudev.measure: a decorator that counts each call of a function with a
 * libpmudev region opened for the call: begin, the call, end, from C, so
 * libpmudev's own calibration (its empty C pairs) is the measurement's
 * cost, taken out as in C programs. The device is open during the call
 * only.
 */
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>

#include "pmudev-py.h"

typedef struct {
	PyObject_HEAD
	PyObject *func;		/* NULL: measure(...) itself, waiting for the function */
	PyObject *items;	/* the events, as given */
	PyObject *totals;	/* name -> total over the calls */
	PyObject *last;		/* name -> the last call's, or None */
	PyObject *dict;		/* the function's __name__, __doc__, ... (functools.wraps') */
	int follow;
	bool complete;
	unsigned long long calls;
} Measure;

/*
 * The decorated functions whose call this thread is counting: a recursive
 * call within one is part of it (a second file could not count the thread
 * the first one counts), so only a thread's outermost call is counted.
 */
#define NESTED_MAX	32
static _Thread_local Measure *counting[NESTED_MAX];
static _Thread_local unsigned int ncounting;

static bool counting_now(const Measure *m)
{
	for (unsigned int i = 0; i < ncounting; i++)
		if (counting[i] == m)
			return true;
	return false;
}

/* As functools.wraps: the function's names and docstring, and __wrapped__. */
static int wraps(PyObject *dict, PyObject *func)
{
	static const char *const names[] = { "__module__", "__name__", "__qualname__", "__doc__" };

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		PyObject *v = PyObject_GetAttrString(func, names[i]);

		if (!v) {
			if (!PyErr_ExceptionMatches(PyExc_AttributeError))
				return -1;
			PyErr_Clear();
			continue;
		}
		if (PyDict_SetItemString(dict, names[i], v)) {
			Py_DECREF(v);
			return -1;
		}
		Py_DECREF(v);
	}
	return PyDict_SetItemString(dict, "__wrapped__", func);
}

static Measure *measure_alloc(PyObject *items, int follow, PyObject *func)
{
	Measure *m = PyObject_GC_New(Measure, &pmudev_py_measure_type);

	if (!m)
		return NULL;
	m->func = Py_XNewRef(func);
	m->items = Py_NewRef(items);
	m->totals = PyDict_New();
	m->last = Py_NewRef(Py_None);
	m->dict = PyDict_New();
	m->follow = follow;
	m->complete = true;
	m->calls = 0;
	PyObject_GC_Track(m);
	if (!m->totals || !m->dict || (func && wraps(m->dict, func))) {
		Py_DECREF(m);
		return NULL;
	}
	return m;
}

/* Names no core has are refused at the decoration, without a device. */
static int check_spec(PyObject *spec_str)
{
	const char *spec = PyUnicode_AsUTF8(spec_str);
	struct pmudev_event ev;
	char msg[256];
	int err;

	if (!spec)
		return -1;
	err = pmudev_event_parse(spec, NULL, &ev);
	if (err == -EINVAL || err == -ERANGE) {
		pmudev_event_error(spec, NULL, msg, sizeof(msg));
		pmudev_py_raise(pmudev_py_event_error, err, msg);
		return -1;
	}
	return 0;
}

/* check_spec() of every spec of @items (as pmudev_py_parse_events() gives them). */
static int check_specs(PyObject *items)
{
	for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(items); i++) {
		PyObject *item = PyTuple_GET_ITEM(items, i);

		if (PyUnicode_Check(item)) {
			if (check_spec(item))
				return -1;
			continue;
		}
		for (Py_ssize_t j = 0; j < PyTuple_GET_SIZE(item); j++)
			if (check_spec(PyTuple_GET_ITEM(item, j)))
				return -1;
	}
	return 0;
}

PyObject *pmudev_py_measure(PyObject *self, PyObject *args, PyObject *kwargs)
{
	static char *keywords[] = { "follow", NULL };
	PyObject *empty = PyTuple_New(0), *items, *names;
	int follow = 0, ok;

	(void)self;
	if (!empty)
		return NULL;
	ok = PyArg_ParseTupleAndKeywords(empty, kwargs, "|$p:measure", keywords, &follow);
	Py_DECREF(empty);
	if (!ok)
		return NULL;
	if (PyTuple_GET_SIZE(args) == 1 && PyCallable_Check(PyTuple_GET_ITEM(args, 0)))
		return PyErr_Format(PyExc_TypeError, "measure takes the events to count: "
				    "@pmudev.measure(\"instructions:u\"), not @pmudev.measure");
	if (pmudev_py_parse_events(args, &items, &names, NULL))
		return NULL;
	ok = !check_specs(items);
	Py_DECREF(items);
	Py_DECREF(names);
	return ok ? (PyObject *)measure_alloc(args, follow, NULL) : NULL;
}

/* Adds @last into the totals. */
static int accumulate(Measure *self, PyObject *last)
{
	PyObject *key, *value;
	Py_ssize_t pos = 0;

	while (PyDict_Next(last, &pos, &key, &value)) {
		PyObject *total = PyDict_GetItemWithError(self->totals, key), *sum;

		if (!total && PyErr_Occurred())
			return -1;
		sum = total ? PyNumber_Add(total, value) : Py_NewRef(value);
		if (!sum || PyDict_SetItem(self->totals, key, sum)) {
			Py_XDECREF(sum);
			return -1;
		}
		Py_DECREF(sum);
	}
	return 0;
}

/* One counted call of the function. */
static PyObject *counted_call(Measure *self, PyObject *args, PyObject *kwargs)
{
	struct counted c = { 0 };
	struct pmudev_region_counts counts;
	PyObject *result = NULL, *last;
	int id, err;

	if (pmudev_py_counted_setup(&c, self->items, self->follow))
		goto out;
	id = pmudev_region(c.regions, "call");
	if (id < 0) {
		pmudev_py_raise(NULL, id, NULL);
		goto out;
	}
	err = pmudev_region_begin(c.regions, id);
	if (err) {
		pmudev_py_raise(NULL, err, NULL);
		goto out;
	}
	/* Another thread's call, during this one, is counted on its own. */
	if (ncounting < NESTED_MAX)
		counting[ncounting++] = self;
	result = PyObject_Call(self->func, args, kwargs);
	if (ncounting && counting[ncounting - 1] == self)
		ncounting--;
	err = pmudev_region_end(c.regions, id);
	if (!result)
		goto out;
	if (!err)
		err = pmudev_region_read(c.regions, id, &counts);
	if (err) {
		Py_CLEAR(result);
		pmudev_py_raise(err == -EIO ? pmudev_py_disturbed_error : NULL, err, NULL);
		goto out;
	}
	if (pmudev_region_clamped(c.regions, id) || pmudev_region_incomplete(c.regions, id))
		self->complete = false;
	last = pmudev_py_counted_dict(&c, &counts);
	if (!last || accumulate(self, last)) {
		Py_XDECREF(last);
		Py_CLEAR(result);
		goto out;
	}
	Py_SETREF(self->last, last);
	self->calls++;
out:
	pmudev_py_counted_free(&c);
	return result;
}

static PyObject *measure_call(Measure *self, PyObject *args, PyObject *kwargs)
{
	/* A call inside the outermost one of its thread: counted as part of it. */
	if (self->func && counting_now(self))
		return PyObject_Call(self->func, args, kwargs);
	if (self->func)
		return counted_call(self, args, kwargs);
	if (PyTuple_GET_SIZE(args) != 1 || (kwargs && PyDict_GET_SIZE(kwargs)) ||
	    !PyCallable_Check(PyTuple_GET_ITEM(args, 0)))
		return PyErr_Format(PyExc_TypeError, "measure(...) decorates one function: "
				    "@pmudev.measure(\"instructions:u\") before its def");
	return (PyObject *)measure_alloc(self->items, self->follow, PyTuple_GET_ITEM(args, 0));
}

/* As a method: bound to the instance, as a function would be. */
static PyObject *measure_get(PyObject *self, PyObject *obj, PyObject *type)
{
	(void)type;
	if (!obj || obj == Py_None || !((Measure *)self)->func)
		return Py_NewRef(self);
	return PyMethod_New(self, obj);
}

static int measure_traverse(Measure *self, visitproc visit, void *arg)
{
	Py_VISIT(self->func);
	Py_VISIT(self->items);
	Py_VISIT(self->totals);
	Py_VISIT(self->last);
	Py_VISIT(self->dict);
	return 0;
}

static int measure_clear(Measure *self)
{
	Py_CLEAR(self->func);
	Py_CLEAR(self->items);
	Py_CLEAR(self->totals);
	Py_CLEAR(self->last);
	Py_CLEAR(self->dict);
	return 0;
}

static void measure_dealloc(Measure *self)
{
	PyObject_GC_UnTrack(self);
	measure_clear(self);
	PyObject_GC_Del(self);
}

static PyObject *measure_counts(Measure *self, void *unused)
{
	(void)unused;
	return PyDict_Copy(self->totals);
}

static PyObject *measure_last(Measure *self, void *unused)
{
	(void)unused;
	return PyDict_Check(self->last) ? PyDict_Copy(self->last) : Py_NewRef(self->last);
}

static PyObject *measure_calls(Measure *self, void *unused)
{
	(void)unused;
	return PyLong_FromUnsignedLongLong(self->calls);
}

static PyObject *measure_complete(Measure *self, void *unused)
{
	(void)unused;
	return PyBool_FromLong(self->complete);
}

static PyObject *measure_reset(Measure *self, PyObject *unused)
{
	(void)unused;
	PyDict_Clear(self->totals);
	Py_SETREF(self->last, Py_NewRef(Py_None));
	self->calls = 0;
	self->complete = true;
	Py_RETURN_NONE;
}

static PyMethodDef measure_methods[] = {
	{ "reset", (PyCFunction)measure_reset, METH_NOARGS,
	  "reset()\n\nForget the calls counted so far." },
	{ NULL, NULL, 0, NULL },
};

static PyGetSetDef measure_getset[] = {
	{ "counts", (getter)measure_counts, NULL,
	  "name -> total over the calls so far, the measurement's cost taken out.", NULL },
	{ "last", (getter)measure_last, NULL, "The last call's counts (None before one).", NULL },
	{ "calls", (getter)measure_calls, NULL, "The calls counted.", NULL },
	{ "complete", (getter)measure_complete, NULL,
	  "False once a call was counted for part of its time, or came out below the\n"
	  "calibrated overhead (clamped at 0).", NULL },
	{ NULL, NULL, NULL, NULL, NULL },
};

PyTypeObject pmudev_py_measure_type = {
	PyVarObject_HEAD_INIT(NULL, 0)
	.tp_name = "pmudev.Measure",
	.tp_basicsize = sizeof(Measure),
	.tp_dealloc = (destructor)measure_dealloc,
	.tp_call = (ternaryfunc)measure_call,
	.tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
	.tp_doc = "A function decorated by pmudev.measure(*events): calling it counts the\n"
		  "call (see pmudev.measure). Attributes: counts, last, calls, complete.",
	.tp_traverse = (traverseproc)measure_traverse,
	.tp_clear = (inquiry)measure_clear,
	.tp_methods = measure_methods,
	.tp_getset = measure_getset,
	.tp_descr_get = measure_get,
	.tp_dictoffset = offsetof(Measure, dict),
};
