// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The pmudev module: its manual (the module's docstring), its exceptions,
 * opening the device with messages a student can act on, and the events
 * Count and Region share. The types are in count.c and region.c, the
 * tables in tables.c.
 */
#include <errno.h>
#include <grp.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "pmudev-py.h"

#define DEVICE_PATH "/dev/armpmu"

PyObject *pmudev_py_error;
PyObject *pmudev_py_event_error;
PyObject *pmudev_py_device_error;
PyObject *pmudev_py_disturbed_error;
PyObject *pmudev_py_incomplete_error;

PyObject *pmudev_py_raise(PyObject *type, int err, const char *msg)
{
	PyObject *args = Py_BuildValue("(is)", -err, msg ? msg : pmudev_strerror(err));

	if (args) {
		PyErr_SetObject(type ? type : pmudev_py_error, args);
		Py_DECREF(args);
	}
	return NULL;
}

/* The group /dev/armpmu belongs to, or the one the project's rule gives it. */
static void device_group(char *buf, size_t len)
{
	struct stat st;
	struct group *gr;

	if (!stat(DEVICE_PATH, &st) && (gr = getgrgid(st.st_gid)))
		snprintf(buf, len, "%s", gr->gr_name);
	else
		snprintf(buf, len, "armpmu");
}

int pmudev_py_open(struct pmudev **pmu, unsigned int flags)
{
	char msg[320], group[64];
	int err = pmudev_open(pmu, PMUDEV_CPU_ANY, flags);

	if (!err)
		return 0;
	switch (err) {
	case -ENOENT:
		snprintf(msg, sizeof(msg), DEVICE_PATH " does not exist: the armpmu module is not "
			 "loaded (pmuctl load, as root; members of group 'armpmu' may then count)");
		break;
	case -EACCES:
	case -EPERM:
		device_group(group, sizeof(group));
		snprintf(msg, sizeof(msg), "permission denied on " DEVICE_PATH ": counting is for "
			 "members of group '%s' (as root: usermod -aG %s USER, then log in again)",
			 group, group);
		break;
	case -EBUSY:
		snprintf(msg, sizeof(msg), "this thread is already counted by another armpmu file "
			 "(another pmudev count or Region of this thread still open?)");
		break;
	default:
		snprintf(msg, sizeof(msg), "cannot open " DEVICE_PATH ": %s", pmudev_strerror(err));
		break;
	}
	pmudev_py_raise(pmudev_py_device_error, err, msg);
	return -1;
}

Py_ssize_t pmudev_py_item_size(PyObject *item)
{
	return PyUnicode_Check(item) ? 1 : PySequence_Fast_GET_SIZE(item);
}

static int check_spec(PyObject *spec, PyObject *seen)
{
	if (!PyUnicode_Check(spec)) {
		PyErr_Format(PyExc_TypeError, "an event is a str (as pmuctl stat -e takes it) or "
			     "a tuple of them (a group), not %.80s", Py_TYPE(spec)->tp_name);
		return -1;
	}
	if (!PyUnicode_GET_LENGTH(spec)) {
		pmudev_py_raise(pmudev_py_event_error, -EINVAL, "an event name is empty");
		return -1;
	}
	switch (PySet_Contains(seen, spec)) {
	case 1: {
		char msg[160];

		snprintf(msg, sizeof(msg), "event '%.60s' is given twice: each event is a key of "
			 "the counts", PyUnicode_AsUTF8(spec));
		pmudev_py_raise(pmudev_py_event_error, -EINVAL, msg);
		return -1;
	}
	case -1:
		return -1;
	}
	return PySet_Add(seen, spec);
}

int pmudev_py_check_events(PyObject *args, PyObject **names)
{
	PyObject *list = PyList_New(0), *seen = PySet_New(NULL);
	Py_ssize_t n = PyTuple_GET_SIZE(args);

	if (!list || !seen)
		goto fail;
	if (!n) {
		pmudev_py_raise(pmudev_py_event_error, -EINVAL,
				"no events: name at least one, as pmuctl stat -e does "
				"(\"instructions\", \"cycles:u\", \"0x11\")");
		goto fail;
	}
	for (Py_ssize_t i = 0; i < n; i++) {
		PyObject *item = PyTuple_GET_ITEM(args, i);

		if (PyTuple_Check(item) || PyList_Check(item)) {
			Py_ssize_t m = PySequence_Fast_GET_SIZE(item);

			if (!m) {
				pmudev_py_raise(pmudev_py_event_error, -EINVAL, "an empty group");
				goto fail;
			}
			for (Py_ssize_t j = 0; j < m; j++) {
				PyObject *spec = PySequence_Fast_GET_ITEM(item, j);

				if (check_spec(spec, seen) || PyList_Append(list, spec))
					goto fail;
			}
		} else if (check_spec(item, seen) || PyList_Append(list, item)) {
			goto fail;
		}
	}
	*names = PyList_AsTuple(list);
	Py_DECREF(list);
	Py_DECREF(seen);
	return *names ? 0 : -1;
fail:
	Py_XDECREF(list);
	Py_XDECREF(seen);
	return -1;
}

int pmudev_py_add_item(struct pmudev *pmu, PyObject *item, int *slots, Py_ssize_t first)
{
	const char *specs[ARMPMU_MAX_COUNTERS];
	Py_ssize_t m;
	int slot;

	if (PyUnicode_Check(item)) {
		const char *spec = PyUnicode_AsUTF8(item);

		if (!spec)
			return -EINVAL;
		slot = pmudev_add_event(pmu, spec);
		if (slot < 0)
			return slot;
		slots[first] = slot;
		return 0;
	}
	m = PySequence_Fast_GET_SIZE(item);
	if (m > ARMPMU_MAX_COUNTERS)
		return -ENOSPC;
	for (Py_ssize_t j = 0; j < m; j++) {
		specs[j] = PyUnicode_AsUTF8(PySequence_Fast_GET_ITEM(item, j));
		if (!specs[j])
			return -EINVAL;
	}
	return pmudev_add_group(pmu, specs, (unsigned int)m, slots + first);
}

/* The first spec of @item that libpmudev refuses, or NULL. */
static const char *refused_spec(struct pmudev *pmu, PyObject *item, char *msg, size_t len)
{
	Py_ssize_t m = PyUnicode_Check(item) ? 1 : PySequence_Fast_GET_SIZE(item);

	for (Py_ssize_t j = 0; j < m; j++) {
		PyObject *s = PyUnicode_Check(item) ? item : PySequence_Fast_GET_ITEM(item, j);
		const char *spec = PyUnicode_AsUTF8(s);

		if (spec && pmudev_event_error(spec, pmudev_info(pmu), msg, len))
			return spec;
	}
	return NULL;
}

void pmudev_py_event_failed(struct pmudev *pmu, PyObject *item, int err)
{
	char msg[256], text[400];

	if (PyErr_Occurred())
		return;
	if (refused_spec(pmu, item, msg, sizeof(msg))) {
		pmudev_py_raise(pmudev_py_event_error, err, msg);
		return;
	}
	if (err == -ENOSPC) {
		snprintf(text, sizeof(text), "%s: a group larger than this core's %u counters, "
			 "or more events than the %d slots", pmudev_strerror(err),
			 pmudev_info(pmu)->num_counters, ARMPMU_MAX_COUNTERS);
		pmudev_py_raise(pmudev_py_event_error, err, text);
		return;
	}
	if (err == -EINVAL && !PyUnicode_Check(item)) {
		pmudev_py_raise(pmudev_py_event_error, err, "\"cycles\" cannot be in a group: the "
				"cycle counter always counts, beside every group");
		return;
	}
	pmudev_py_raise(pmudev_py_event_error, err, NULL);
}

static PyMethodDef methods[] = {
	{ "events", (PyCFunction)(void (*)(void))pmudev_py_events, METH_VARARGS | METH_KEYWORDS,
	  "events(core=None) -> list of dict\n\n"
	  "The events of a core, in number order: each a dict with 'number', 'name',\n"
	  "'description', 'group' (\"caches\", \"branches\", ...), 'own' (True for the\n"
	  "core's IMPLEMENTATION DEFINED events) and 'implemented' (whether the core\n"
	  "counts it, by its own report where it gives one).\n\n"
	  "core: None for the core this program runs on (needs /dev/armpmu), or a\n"
	  "core's name as cores() lists them (\"cortex-a72\", \"Cortex-A7\"),\n"
	  "which needs no device. pmudev.Error if libpmudev has no table for it." },
	{ "cores", pmudev_py_cores, METH_NOARGS,
	  "cores() -> list of str\n\n"
	  "The cores libpmudev has an event table for (\"Cortex-A7\", ...): the names\n"
	  "events() and explain() take as core=, without a device." },
	{ "explain", (PyCFunction)(void (*)(void))pmudev_py_explain, METH_VARARGS | METH_KEYWORDS,
	  "explain(name, core=None) -> dict\n\n"
	  "What event NAME (a name, perf alias or raw number, as count() takes it)\n"
	  "counts, as data: 'name', 'number', 'description', 'group', 'alias' (perf's\n"
	  "alias it was asked by, or None), 'note' (when the alias only stands in for\n"
	  "what perf means), 'cores' (dict: each core libpmudev knows -> the name it\n"
	  "has there, for the cores that have it), and for the core explained for\n"
	  "(None: the running one if /dev/armpmu is there) 'core' and 'implemented'.\n"
	  "pmuctl explain NAME prints the same and adds the pitfalls of the event's\n"
	  "kind, which only pmuctl has. EventError for a name no table has, with\n"
	  "libpmudev's \"did you mean\"." },
	{ "info", pmudev_py_info, METH_NOARGS,
	  "info() -> dict\n\n"
	  "The PMU this thread is counted on, from /dev/armpmu: 'core' (its name, or\n"
	  "None), 'midr', 'pmu_version', 'counters' (event counters; the cycle\n"
	  "counter comes on top), 'event_bits', 'can_filter' (user/kernel modifiers\n"
	  "work), 'kernel_allowed' (this user may count kernel mode: without a\n"
	  "modifier events count user and kernel mode, else user mode only), and\n"
	  "'cpus': a list of dicts per CPU ('cpu', 'online', 'usable', 'owned',\n"
	  "'core', 'midr', 'counters'). DeviceError without the device." },
	{ "measure", (PyCFunction)(void (*)(void))pmudev_py_measure, METH_VARARGS | METH_KEYWORDS,
	  "measure(*events, follow=False) -> decorator\n\n"
	  "@pmudev.measure(\"instructions:u\") before a def counts every call of the\n"
	  "function: the decorated function keeps .counts (totals over its calls, a\n"
	  "dict), .last (the last call's), .calls, and .complete. Each call opens the\n"
	  "device, runs the calibrated libpmudev region around the call (the cost of\n"
	  "the measurement taken out, as the C regions do) and closes it, so other\n"
	  "counts may be used between calls. What is counted is the call: the\n"
	  "interpreter's work for each line of the function is in it (a Python\n"
	  "'x += 1' is hundreds of instructions), the decorator's own is not." },
	{ NULL, NULL, 0, NULL },
};

PyDoc_STRVAR(module_doc,
"Counting with the ARM PMU from Python, through /dev/armpmu (libpmudev).\n"
"\n"
"armpmu is a Linux driver that lets members of its group (usually 'armpmu')\n"
"count events of their own programs with the processor's performance\n"
"monitoring unit: instructions, cycles, cache refills, branch mispredictions.\n"
"This module is libpmudev's Python face: the same event names, the same\n"
"checks and the same messages as the C library and `pmuctl stat -e`.\n"
"\n"
"Counting a piece of Python:\n"
"\n"
"    import pmudev\n"
"    with pmudev.count(\"instructions:u\", \"cycles\") as c:\n"
"        total = sum(range(1000))\n"
"    print(c[\"instructions:u\"], c.values(), c.complete)\n"
"\n"
"Events are strings exactly as libpmudev parses one `pmuctl stat -e` event:\n"
"names of the architecture (INST_RETIRED, L1D_CACHE_REFILL) or the core's\n"
"own, perf's aliases (cycles, instructions, cache-misses, branches, ...),\n"
"raw numbers (0x11, r11), with :u (user mode), :k (kernel mode) or :uk.\n"
"A tuple of events is a group, always counted together (pmuctl's {a,b}).\n"
"\n"
"What is counted is the interpreter at work: every line of Python is the\n"
"C code of CPython that runs it, hundreds of instructions for `x += 1`.\n"
"A count of a function says what running that function costs in Python,\n"
"not what the same function would cost in C; compare counts, do not read\n"
"them as the function's own instructions. Under QEMU's -icount, in user\n"
"mode (:u), one iteration of `for _ in repeat(None, n): pass` is exactly\n"
"96 instructions on a Cortex-A7 and 83 on a Cortex-A72. Code that makes\n"
"objects (every int above 256 from range() is one) moves by some hundreds\n"
"of instructions from run to run, with the allocator's state; the first\n"
"runs of a function cost more (the interpreter specialises its bytecode as\n"
"it runs); and the garbage collector's passes are counted wherever they\n"
"happen (gc.disable() around a measurement keeps them out).\n"
"\n"
"Counts are honest: a count that was not taken for the whole time (another\n"
"program held the counters, or events were multiplexed) has\n"
"c.complete False and says why in c.flags; one that someone disturbed\n"
"raises DisturbedError. c.check() raises IncompleteError unless complete.\n"
"\n"
"More events than counters: count() multiplexes them and scales each\n"
"count to the whole time (c.shares gives the share each was counted), or,\n"
"with passes=True, counts them exactly in several runs of the block.\n"
"\n"
"Only one count or Region per thread at a time: the driver counts a thread\n"
"for one open file. follow=True also counts the threads and processes\n"
"started inside, as libpmudev's PMUDEV_OPEN_FOLLOW.\n"
"\n"
"Errors are pmudev.Error (an OSError, with errno and the C library's\n"
"message): EventError (also a ValueError) for events libpmudev refuses,\n"
"DeviceError when /dev/armpmu is missing or not yours, DisturbedError and\n"
"IncompleteError for counts that cannot pass as exact.\n"
"\n"
"See also: pmuctl(1), libpmudev(3), armpmu(4).");

static struct PyModuleDef module_def = {
	PyModuleDef_HEAD_INIT,
	.m_name = "pmudev",
	.m_doc = module_doc,
	.m_size = -1,
	.m_methods = methods,
};

static PyObject *new_error(PyObject *module, const char *name, const char *doc, PyObject *bases)
{
	char full[64];
	PyObject *type;

	snprintf(full, sizeof(full), "pmudev.%s", name);
	type = PyErr_NewExceptionWithDoc(full, doc, bases, NULL);
	if (type && PyModule_AddObjectRef(module, name, type) < 0)
		Py_CLEAR(type);
	return type;
}

static int add_errors(PyObject *m)
{
	PyObject *bases;

	pmudev_py_error = new_error(m, "Error",
		"Every failure of pmudev: an OSError whose errno is libpmudev's (a\n"
		"positive errno value, as errno.ENOENT) and whose strerror is the C\n"
		"library's message.", PyExc_OSError);
	if (!pmudev_py_error)
		return -1;
	bases = PyTuple_Pack(2, pmudev_py_error, PyExc_ValueError);
	if (!bases)
		return -1;
	pmudev_py_event_error = new_error(m, "EventError",
		"An event libpmudev refuses: unknown name (with \"did you mean\"), bad\n"
		"modifier or number, an event this core lacks, a group too large.", bases);
	Py_DECREF(bases);
	pmudev_py_device_error = new_error(m, "DeviceError",
		"/dev/armpmu cannot be opened: not there (the module is not loaded:\n"
		"pmuctl load, as root), not yours (join its group), or this thread is\n"
		"already counted by another open count or Region.", pmudev_py_error);
	pmudev_py_disturbed_error = new_error(m, "DisturbedError",
		"Someone else (perf, an administrator's pmuctl reset) stopped or\n"
		"reprogrammed the counters during the count: there is no count.",
		pmudev_py_error);
	pmudev_py_incomplete_error = new_error(m, "IncompleteError",
		"Raised by check(): the counts cover only part of the time (multiplexed,\n"
		"or the counters were elsewhere for a while, or passes not all run).",
		pmudev_py_error);
	return pmudev_py_event_error && pmudev_py_device_error && pmudev_py_disturbed_error &&
	       pmudev_py_incomplete_error ? 0 : -1;
}

PyMODINIT_FUNC PyInit_pmudev(void)
{
	PyObject *m;

	if (PyType_Ready(&pmudev_py_count_type) < 0 || PyType_Ready(&pmudev_py_region_type) < 0 ||
	    PyType_Ready(&pmudev_py_measure_type) < 0)
		return NULL;
	m = PyModule_Create(&module_def);
	if (!m)
		return NULL;
	if (add_errors(m) < 0 ||
	    PyModule_AddObjectRef(m, "count", (PyObject *)&pmudev_py_count_type) < 0 ||
	    PyModule_AddObjectRef(m, "Region", (PyObject *)&pmudev_py_region_type) < 0 ||
	    PyModule_AddObjectRef(m, "Measure", (PyObject *)&pmudev_py_measure_type) < 0 ||
	    PyModule_AddIntConstant(m, "ABI_VERSION", PMUDEV_ABI_VERSION) < 0) {
		Py_DECREF(m);
		return NULL;
	}
	return m;
}
