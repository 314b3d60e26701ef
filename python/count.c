// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * pmudev.count: a context manager over one task-mode handle of libpmudev.
 * Made, it checks its events against the device (and plans the passes);
 * entered, it opens the device, programs the events, resets and starts;
 * left, it stops, reads every slot with its own times and closes. The
 * counts are libpmudev's, scaled only where the file was multiplexed, as
 * pmuctl stat scales them, and flagged.
 */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <unistd.h>

#include "pmudev-py.h"

typedef struct {
	PyObject_HEAD
	PyObject *items;	/* tuple: each a spec or a tuple of specs (a group) */
	struct pmudev_event_list *list;	/* the events, parsed */
	PyObject *names;	/* tuple: every spec, in order: the keys */
	PyObject *values;	/* dict: name -> int, or None (never counted) */
	PyObject *shares;	/* dict: name -> share of the time counted */
	int *slots;		/* per name: its counter in its pass */
	int *pass_of;		/* per item: the pass that counts it */
	int npasses, next_pass;
	int follow, multiplex;
	bool counting;
	/*
	 * The process that entered the block: a child forked inside it shares
	 * the file, and its leaving the block must not stop the parent's count.
	 */
	pid_t owner;
	bool forked;		/* this process left a block its parent entered */
	unsigned int flags;	/* ARMPMU_COUNTS_* of every pass read */
	struct pmudev *pmu;
} Count;

/* Adds the items of pass @pass to @pmu; 0, or -1 with an exception raised. */
static int program(Count *self, struct pmudev *pmu, int pass)
{
	Py_ssize_t first = 0;

	for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(self->items); i++) {
		PyObject *item = PyTuple_GET_ITEM(self->items, i);
		int err = 0;

		if (self->pass_of[i] == pass)
			err = pmudev_py_add_item(pmu, item, self->slots, first);
		if (err) {
			pmudev_py_event_failed(pmu, item, err);
			return -1;
		}
		first += pmudev_py_item_size(item);
	}
	return 0;
}

static unsigned int open_flags(const Count *self)
{
	return (self->follow ? PMUDEV_OPEN_FOLLOW : 0) |
	       (self->multiplex ? PMUDEV_OPEN_MULTIPLEX : 0);
}

/*
 * Which pass counts each item: all in one with multiplexing; else as many
 * as fit the counters in each, in order (a group whole). Opens and closes
 * the device: every event refused is refused here, when count() is made.
 */
static int plan(Count *self, int passes)
{
	struct pmudev *pmu;
	Py_ssize_t first = 0, in_pass = 0;
	int pass = 0, err = 0;

	if (pmudev_py_open(&pmu, open_flags(self)))
		return -1;
	if (pmudev_py_check_list(self->list, pmu)) {
		pmudev_close(pmu);
		return -1;
	}
	for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(self->items); i++) {
		PyObject *item = PyTuple_GET_ITEM(self->items, i);

		err = pmudev_py_add_item(pmu, item, self->slots, first);
		if (err == -ENOSPC && passes && in_pass) {
			pmudev_close(pmu);
			if (pmudev_py_open(&pmu, open_flags(self)))
				return -1;
			pass++;
			in_pass = 0;
			err = pmudev_py_add_item(pmu, item, self->slots, first);
		}
		if (err) {
			pmudev_py_event_failed(pmu, item, err);
			pmudev_close(pmu);
			return -1;
		}
		self->pass_of[i] = pass;
		in_pass++;
		first += pmudev_py_item_size(item);
	}
	pmudev_close(pmu);
	self->npasses = pass + 1;
	return 0;
}

static PyObject *count_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
	static char *keywords[] = { "follow", "passes", NULL };
	PyObject *empty, *passes = Py_None;
	Count *self;
	int follow = 0, ok;

	empty = PyTuple_New(0);
	if (!empty)
		return NULL;
	ok = PyArg_ParseTupleAndKeywords(empty, kwargs, "|$pO:count", keywords, &follow, &passes);
	Py_DECREF(empty);
	if (!ok)
		return NULL;
	if (passes != Py_None && !PyBool_Check(passes))
		return PyErr_Format(PyExc_TypeError, "passes is None (multiplex when the events "
				    "outnumber the counters) or True (count them in passes), not %.80s",
				    Py_TYPE(passes)->tp_name);
	self = (Count *)type->tp_alloc(type, 0);
	if (!self)
		return NULL;
	self->follow = follow;
	self->multiplex = passes == Py_None;
	if (pmudev_py_parse_events(args, &self->items, &self->names, &self->list))
		goto fail;
	self->slots = PyMem_Calloc(PyTuple_GET_SIZE(self->names), sizeof(*self->slots));
	self->pass_of = PyMem_Calloc(PyTuple_GET_SIZE(self->items), sizeof(*self->pass_of));
	self->values = PyDict_New();
	self->shares = PyDict_New();
	if (!self->slots || !self->pass_of || !self->values || !self->shares) {
		PyErr_NoMemory();
		goto fail;
	}
	if (plan(self, passes == Py_True))
		goto fail;
	return (PyObject *)self;
fail:
	Py_DECREF(self);
	return NULL;
}

static void count_dealloc(Count *self)
{
	pmudev_close(self->pmu);
	pmudev_event_list_free(self->list);
	Py_XDECREF(self->items);
	Py_XDECREF(self->names);
	Py_XDECREF(self->values);
	Py_XDECREF(self->shares);
	PyMem_Free(self->slots);
	PyMem_Free(self->pass_of);
	Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *count_enter(Count *self, PyObject *unused)
{
	struct pmudev *pmu;
	int err;

	(void)unused;
	if (self->counting)
		return pmudev_py_raise(NULL, -EALREADY, "this count is counting already: "
				       "a count is entered once at a time");
	if (self->next_pass >= self->npasses)
		return pmudev_py_raise(NULL, -EALREADY, "this count is done (every pass was "
				       "counted): make a new pmudev.count() to count again");
	if (pmudev_py_open(&pmu, open_flags(self)))
		return NULL;
	if (program(self, pmu, self->next_pass)) {
		pmudev_close(pmu);
		return NULL;
	}
	self->pmu = pmu;
	self->counting = true;
	self->owner = getpid();
	/* The last thing before the block: start. */
	err = pmudev_reset(pmu);
	if (!err)
		err = pmudev_start(pmu);
	if (err) {
		self->pmu = NULL;
		self->counting = false;
		pmudev_close(pmu);
		return pmudev_py_raise(NULL, err, NULL);
	}
	return Py_NewRef(self);
}

static double share(uint64_t running, uint64_t enabled)
{
	return enabled ? (double)running / (double)enabled : 1.0;
}

static int store(Count *self, PyObject *name, PyObject *value, double part)
{
	PyObject *s = PyFloat_FromDouble(part);
	int err;

	if (!value || !s) {
		Py_XDECREF(value);
		Py_XDECREF(s);
		return -1;
	}
	err = PyDict_SetItem(self->values, name, value) || PyDict_SetItem(self->shares, name, s);
	Py_DECREF(value);
	Py_DECREF(s);
	return err ? -1 : 0;
}

/* This pass's counts into values and shares. */
static int collect(Count *self, const struct armpmu_read *rd)
{
	Py_ssize_t first = 0;

	for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(self->items); i++) {
		PyObject *item = PyTuple_GET_ITEM(self->items, i);
		Py_ssize_t m = pmudev_py_item_size(item);

		for (Py_ssize_t j = 0; self->pass_of[i] == self->next_pass && j < m; j++) {
			PyObject *name = PyTuple_GET_ITEM(self->names, first + j), *v;
			int slot = self->slots[first + j];
			const struct armpmu_slot *s = &rd->slot[slot];
			double part;

			if (slot == ARMPMU_CYCLE_COUNTER) {
				v = PyLong_FromUnsignedLongLong(rd->cycles);
				part = share(rd->time_running, rd->time_enabled);
			} else if (!s->time_running && s->time_enabled) {
				v = Py_NewRef(Py_None);
				part = 0.0;
			} else if (s->time_running == s->time_enabled) {
				v = PyLong_FromUnsignedLongLong(s->value);
				part = 1.0;
			} else {
				v = PyLong_FromDouble(round(pmudev_scaled(s)));
				part = share(s->time_running, s->time_enabled);
			}
			if (store(self, name, v, part))
				return -1;
		}
		first += m;
	}
	return 0;
}

static PyObject *count_exit(Count *self, PyObject *args)
{
	struct {
		struct armpmu_read hdr;
		struct armpmu_slot slot[ARMPMU_MAX_COUNTERS];
	} buf = { .hdr.nr = ARMPMU_MAX_COUNTERS };
	PyObject *type = Py_None, *value, *tb;
	int err;

	if (!PyArg_UnpackTuple(args, "__exit__", 0, 3, &type, &value, &tb))
		return NULL;
	if (!self->counting)
		return pmudev_py_raise(NULL, -EINVAL, "__exit__ of a count not entered");
	if (getpid() != self->owner) {
		/*
		 * A child forked in the block: the count is the parent's. Only
		 * this process's descriptor goes; its counts stay None, flagged.
		 */
		pmudev_close(self->pmu);
		self->pmu = NULL;
		self->counting = false;
		self->forked = true;
		self->next_pass = self->npasses;
		for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(self->names); i++)
			if (PyDict_SetItem(self->values, PyTuple_GET_ITEM(self->names, i), Py_None))
				return NULL;
		Py_RETURN_FALSE;
	}
	err = pmudev_stop(self->pmu);
	if (!err)
		err = pmudev_read_slots(self->pmu, &buf.hdr);
	pmudev_close(self->pmu);
	self->pmu = NULL;
	self->counting = false;
	if (err) {
		/* The pass is lost: the count cannot be complete. */
		self->next_pass = self->npasses;
		self->flags |= ARMPMU_COUNTS_DISTURBED;
		if (type != Py_None)
			Py_RETURN_FALSE;
		return pmudev_py_raise(err == -EIO || err == -ECANCELED ?
				       pmudev_py_disturbed_error : NULL, err, NULL);
	}
	self->flags |= buf.hdr.flags & ~ARMPMU_COUNTS_RUNNING;
	if (collect(self, &buf.hdr))
		return NULL;
	self->next_pass++;
	Py_RETURN_FALSE;
}

static PyObject *not_counted(void)
{
	return pmudev_py_raise(NULL, -EINVAL, "nothing counted yet: the counts are there "
			       "after the with block");
}

static PyObject *count_getitem(Count *self, PyObject *key)
{
	PyObject *v;

	if (!self->next_pass)
		return not_counted();
	v = PyDict_GetItemWithError(self->values, key);
	if (v)
		return Py_NewRef(v);
	if (!PyErr_Occurred()) {
		if (PySequence_Contains(self->names, key) == 1)
			return pmudev_py_raise(pmudev_py_incomplete_error, -EAGAIN,
					       "that event's pass has not been counted yet");
		PyErr_Format(PyExc_KeyError, "%R: not an event of this count (its events: %R)",
			     key, self->names);
	}
	return NULL;
}

static Py_ssize_t count_length(Count *self)
{
	return PyTuple_GET_SIZE(self->names);
}

static PyObject *count_values(Count *self, PyObject *unused)
{
	(void)unused;
	if (!self->next_pass)
		return not_counted();
	return PyDict_Copy(self->values);
}

static bool is_complete(const Count *self)
{
	return self->next_pass == self->npasses && !self->counting && !self->forked &&
	       !(self->flags & (ARMPMU_COUNTS_INCOMPLETE | ARMPMU_COUNTS_MULTIPLEXED |
				ARMPMU_COUNTS_DISTURBED | ARMPMU_COUNTS_EXEC_LEFT));
}

static PyObject *count_flags(Count *self, void *unused)
{
	static const struct {
		unsigned int bit;
		const char *word;
	} words[] = {
		{ ARMPMU_COUNTS_DISTURBED, "disturbed" },
		{ ARMPMU_COUNTS_INCOMPLETE, "incomplete" },
		{ ARMPMU_COUNTS_EXEC_LEFT, "exec_left" },
		{ ARMPMU_COUNTS_MULTIPLEXED, "multiplexed" },
	};
	PyObject *set = PySet_New(NULL), *w, *frozen;

	(void)unused;
	for (size_t i = 0; set && i < sizeof(words) / sizeof(words[0]); i++) {
		if (!(self->flags & words[i].bit))
			continue;
		w = PyUnicode_FromString(words[i].word);
		if (!w || PySet_Add(set, w))
			Py_CLEAR(set);
		Py_XDECREF(w);
	}
	if (set && self->forked) {
		w = PyUnicode_FromString("forked");
		if (!w || PySet_Add(set, w))
			Py_CLEAR(set);
		Py_XDECREF(w);
	}
	if (set && (self->next_pass < self->npasses || self->counting)) {
		w = PyUnicode_FromString(self->next_pass ? "passes_pending" : "not_counted");
		if (!w || PySet_Add(set, w))
			Py_CLEAR(set);
		Py_XDECREF(w);
	}
	if (!set)
		return NULL;
	frozen = PyFrozenSet_New(set);
	Py_DECREF(set);
	return frozen;
}

static PyObject *count_complete(Count *self, void *unused)
{
	(void)unused;
	return PyBool_FromLong(is_complete(self));
}

static PyObject *count_check(Count *self, PyObject *unused)
{
	PyObject *flags, *msg, *args;

	(void)unused;
	if (is_complete(self))
		Py_RETURN_NONE;
	flags = count_flags(self, NULL);
	if (!flags)
		return NULL;
	msg = PyUnicode_FromFormat("the counts are not exact: %R%s", flags,
				   self->flags & ARMPMU_COUNTS_MULTIPLEXED ?
				   " (multiplexed: scaled from the share of the time each was "
				   "counted; passes=True counts exactly)" : "");
	Py_DECREF(flags);
	if (!msg)
		return NULL;
	args = Py_BuildValue("(iN)", EAGAIN, msg);
	if (args) {
		PyErr_SetObject(pmudev_py_incomplete_error, args);
		Py_DECREF(args);
	}
	return NULL;
}

static PyObject *count_shares(Count *self, void *unused)
{
	(void)unused;
	return PyDict_Copy(self->shares);
}

static PyObject *count_passes(Count *self, void *unused)
{
	(void)unused;
	return PyLong_FromLong(self->npasses);
}

static PyObject *count_events(Count *self, void *unused)
{
	(void)unused;
	return Py_NewRef(self->names);
}

static PyObject *count_repr(Count *self)
{
	if (!self->next_pass)
		return PyUnicode_FromFormat("<pmudev.count %R: not counted yet>", self->names);
	return PyUnicode_FromFormat("<pmudev.count %R%s>", self->values,
				    is_complete(self) ? "" : " (not exact: see .flags)");
}

static PyMethodDef count_methods[] = {
	{ "__enter__", (PyCFunction)count_enter, METH_NOARGS,
	  "Open the device, program the events (the next pass's, with passes=True),\n"
	  "reset and start counting." },
	{ "__exit__", (PyCFunction)count_exit, METH_VARARGS,
	  "Stop counting, read the counts and close the device. DisturbedError if\n"
	  "someone else reprogrammed the counters meanwhile (unless the block\n"
	  "raised: its exception goes on)." },
	{ "values", (PyCFunction)count_values, METH_NOARGS,
	  "values() -> dict\n\nEvery event's count: name -> int, or None for an event that was\n"
	  "never in the PMU while multiplexed. Scaled where multiplexed (see shares)." },
	{ "check", (PyCFunction)count_check, METH_NOARGS,
	  "check()\n\nRaise IncompleteError unless every count is exact and whole (complete)." },
	{ NULL, NULL, 0, NULL },
};

static PyGetSetDef count_getset[] = {
	{ "flags", (getter)count_flags, NULL,
	  "Why the counts are not exact, as a frozenset of words (empty: exact):\n"
	  "'multiplexed' (more events than counters: scaled estimates),\n"
	  "'incomplete' (counted for part of the time only: another program held\n"
	  "the counters, or a followed thread could not be counted), 'exec_left'\n"
	  "(a counted thread ran a set-user-ID program, not counted), 'disturbed'\n"
	  "(someone reprogrammed the counters), 'forked' (a child forked in the\n"
	  "block left it: the count is its parent's, whose counting goes on; the\n"
	  "child's values are None), 'passes_pending' / 'not_counted'.", NULL },
	{ "complete", (getter)count_complete, NULL,
	  "True when every count is exact and whole: flags is empty.", NULL },
	{ "shares", (getter)count_shares, NULL,
	  "name -> the share of its time each event was counted (1.0: all of it;\n"
	  "below 1 its value is scaled up from that share, as pmuctl stat does).", NULL },
	{ "passes", (getter)count_passes, NULL,
	  "How many times the block must be entered: 1, or with passes=True as many\n"
	  "as the counters need (then: for _ in range(c.passes): with c: work()).", NULL },
	{ "events", (getter)count_events, NULL, "The events, one by one, in the order given: the keys\n"
	  "(a group's modifier on each member, PMU syntax as typed).", NULL },
	{ NULL, NULL, NULL, NULL, NULL },
};

static PyMappingMethods count_mapping = {
	.mp_length = (lenfunc)count_length,
	.mp_subscript = (binaryfunc)count_getitem,
};

PyDoc_STRVAR(count_doc,
"count(*events, follow=False, passes=None)\n"
"\n"
"Count EVENTS over a with block, in this thread:\n"
"\n"
"    with pmudev.count(\"instructions:u\", \"cycles\") as c:\n"
"        work()\n"
"    c[\"instructions:u\"]   # an int\n"
"    c.values()             # {'instructions:u': ..., 'cycles': ...}\n"
"    c.complete             # True: every count exact and whole\n"
"\n"
"Each argument is a str exactly as `pmuctl stat -e` takes it, and\n"
"libpmudev's event lists parse it for both: one event (INST_RETIRED,\n"
"instructions, 0x08, r8, cycles:u, L1D_CACHE_REFILL:k, cpu/event=0x8/u)\n"
"or several, comma-separated, with groups in braces, counted together:\n"
"\n"
"    pmudev.count(\"cycles:u,{instructions,r08}\")\n"
"    pmudev.count(\"cycles:u\", (\"instructions\", \"r08\"))    # the same\n"
"    pmudev.count(\"{instructions,BR_MIS_PRED}:u\")  # :u for each member\n"
"\n"
"A tuple of events is a group too. The keys are the events one by one\n"
"(c.events): 'instructions:u' and 'BR_MIS_PRED:u' for the last one, PMU\n"
"syntax as typed. \"cycles\" in a group counts beside it (the cycle\n"
"counter always counts). What pmuctl refuses raises EventError with\n"
"pmuctl's message (\"cycles:p: ':p' asks for precise sampling ...\"), an\n"
"unknown name libpmudev's \"did you mean\"; perf's software events\n"
"(task-clock, page-faults) are pmuctl's, from the command's resource\n"
"usage, and raise EventError here. The events are checked against the\n"
"device when count() is called.\n"
"\n"
"follow=True also counts the threads and child processes created inside\n"
"the block (libpmudev's PMUDEV_OPEN_FOLLOW); by default only this thread.\n"
"\n"
"passes=None: more events than counters are multiplexed: each is counted\n"
"for a share of the time and scaled to the whole (c.shares), and the count\n"
"is not complete. passes=True counts them exactly instead, as many as fit\n"
"at a time, in c.passes runs of the block:\n"
"\n"
"    c = pmudev.count(*many_events, passes=True)\n"
"    for _ in range(c.passes):\n"
"        with c:\n"
"            work()\n"
"\n"
"What is counted: from the start at the end of __enter__ to the stop at\n"
"the start of __exit__, the block and the interpreter's work to run it\n"
"(a constant few thousand instructions of the with statement itself\n"
"included). A count is entered once (once per pass); one count or Region\n"
"per thread at a time.");

PyTypeObject pmudev_py_count_type = {
	PyVarObject_HEAD_INIT(NULL, 0)
	.tp_name = "pmudev.count",
	.tp_basicsize = sizeof(Count),
	.tp_dealloc = (destructor)count_dealloc,
	.tp_repr = (reprfunc)count_repr,
	.tp_as_mapping = &count_mapping,
	.tp_flags = Py_TPFLAGS_DEFAULT,
	.tp_doc = count_doc,
	.tp_methods = count_methods,
	.tp_getset = count_getset,
	.tp_new = count_new,
};
