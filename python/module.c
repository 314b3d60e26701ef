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
#include "spec.h"

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

/* Raises EventError for what pmudev_event_list_add() refused with @err and @msg. */
static int list_refused(int err, const char *msg)
{
	if (err == -ENOMEM)
		PyErr_NoMemory();
	else
		pmudev_py_raise(pmudev_py_event_error, err, msg);
	return -1;
}

/* Adds argument @arg (a str, or a tuple or list of them: a group) to @list. */
static int add_argument(struct pmudev_event_list *list, PyObject *arg)
{
	PyObject *text = NULL, *comma, *bad = arg;
	Py_ssize_t len = 0;
	char msg[400];
	int err;

	if (PyTuple_Check(arg) || PyList_Check(arg)) {
		Py_ssize_t m = PySequence_Fast_GET_SIZE(arg);

		for (Py_ssize_t j = 0; j < m; j++) {
			bad = PySequence_Fast_GET_ITEM(arg, j);
			if (!PyUnicode_Check(bad))
				goto type_error;
		}
		/* The group as -e writes it: ("a", "b") is "{a,b}". */
		comma = PyUnicode_FromString(",");
		text = comma ? PyUnicode_Join(comma, arg) : NULL;
		Py_XDECREF(comma);
		if (text)
			Py_SETREF(text, PyUnicode_FromFormat("{%U}", text));
	} else if (PyUnicode_Check(arg)) {
		text = Py_NewRef(arg);
	} else {
		goto type_error;
	}
	const char *utf8 = text ? PyUnicode_AsUTF8AndSize(text, &len) : NULL;

	if (!utf8) {
		Py_XDECREF(text);
		return -1;
	}
	/* C stops at a NUL: "cycles\0instructions" would count only cycles. */
	if (strlen(utf8) != (size_t)len) {
		Py_DECREF(text);
		PyErr_SetString(PyExc_ValueError, "embedded null character in an event");
		return -1;
	}
	err = pmudev_event_list_add(list, utf8, msg, sizeof(msg));
	Py_DECREF(text);
	return err ? list_refused(err, msg) : 0;
type_error:
	PyErr_Format(PyExc_TypeError, "an event is a str (as pmuctl stat -e takes it: "
		     "\"cycles:u,{instructions,r08}\") or a tuple of them (a group), not %.80s",
		     Py_TYPE(bad)->tp_name);
	return -1;
}

/* The list's events as items (a spec, or a tuple of a group's specs) and keys. */
static int list_items(const struct pmudev_event_list *list, PyObject *items, PyObject *names)
{
	unsigned int n = pmudev_event_list_size(list);
	PyObject *seen = PySet_New(NULL);

	for (unsigned int i = 0, last; seen && i < n; i = last + 1) {
		const struct pmudev_list_event *e = pmudev_event_list_get(list, i);
		PyObject *item;

		for (last = i; e->group && last + 1 < n &&
			       pmudev_event_list_get(list, last + 1)->group == e->group; last++)
			;
		item = e->group ? PyTuple_New(last - i + 1) : NULL;
		for (unsigned int k = i; k <= last; k++) {
			const struct pmudev_list_event *m = pmudev_event_list_get(list, k);
			PyObject *spec = PyUnicode_FromString(m->spec);
			PyObject *key = m->name ? PyUnicode_FromString(m->name) : Py_XNewRef(spec);
			int dup = key ? PySet_Contains(seen, key) : -1;

			if (dup == 1) {
				char msg[160];

				snprintf(msg, sizeof(msg), "event '%.60s' is given twice: each event "
					 "is a key of the counts", PyUnicode_AsUTF8(key));
				pmudev_py_raise(pmudev_py_event_error, -EINVAL, msg);
			}
			if (dup || PySet_Add(seen, key) || PyList_Append(names, key) ||
			    (!item && e->group) || !spec) {
				Py_XDECREF(spec);
				Py_XDECREF(key);
				Py_XDECREF(item);
				goto fail;
			}
			Py_DECREF(key);
			if (item)
				PyTuple_SET_ITEM(item, k - i, spec);
			else
				item = spec;
		}
		if (PyList_Append(items, item)) {
			Py_DECREF(item);
			goto fail;
		}
		Py_DECREF(item);
	}
	Py_XDECREF(seen);
	return seen ? 0 : -1;
fail:
	Py_DECREF(seen);
	return -1;
}

int pmudev_py_parse_events(PyObject *args, PyObject **items, PyObject **names,
			   struct pmudev_event_list **listp)
{
	struct pmudev_event_list *list = pmudev_event_list_new(2 * ARMPMU_MAX_COUNTERS + 32);
	PyObject *item_list = PyList_New(0), *name_list = PyList_New(0);
	Py_ssize_t n = PyTuple_GET_SIZE(args);
	unsigned int sw;

	*items = *names = NULL;
	if (!list || !item_list || !name_list) {
		PyErr_NoMemory();
		goto fail;
	}
	if (!n) {
		pmudev_py_raise(pmudev_py_event_error, -EINVAL,
				"no events: name at least one, as pmuctl stat -e does "
				"(\"instructions\", \"cycles:u\", \"0x11\", \"{r08,r11}\")");
		goto fail;
	}
	for (Py_ssize_t i = 0; i < n; i++)
		if (add_argument(list, PyTuple_GET_ITEM(args, i)))
			goto fail;
	sw = pmudev_event_list_software(list);
	if (sw) {
		char msg[320];

		snprintf(msg, sizeof(msg), "%s: one of perf's software events, which pmuctl stat "
			 "measures from the command's resource usage; pmudev counts the PMU's "
			 "events only (Python's time.process_time() and resource.getrusage() "
			 "give these)", pmudev_software_name((unsigned int)__builtin_ctz(sw)));
		pmudev_py_raise(pmudev_py_event_error, -EINVAL, msg);
		goto fail;
	}
	if (list_items(list, item_list, name_list))
		goto fail;
	*items = PyList_AsTuple(item_list);
	*names = *items ? PyList_AsTuple(name_list) : NULL;
	if (!*names)
		goto fail;
	Py_DECREF(item_list);
	Py_DECREF(name_list);
	if (listp)
		*listp = list;
	else
		pmudev_event_list_free(list);
	return 0;
fail:
	Py_CLEAR(*items);
	Py_XDECREF(item_list);
	Py_XDECREF(name_list);
	pmudev_event_list_free(list);
	return -1;
}

int pmudev_py_check_list(const struct pmudev_event_list *list, struct pmudev *pmu)
{
	unsigned int n = pmudev_event_list_size(list);
	struct pmudev_list_event *events = PyMem_Calloc(n ? n : 1, sizeof(*events));
	char msg[400];
	int err;

	if (!events) {
		PyErr_NoMemory();
		return -1;
	}
	for (unsigned int i = 0; i < n; i++)
		events[i] = *pmudev_event_list_get(list, i);
	err = pmudev_event_list_check(events, n, pmudev_info(pmu), msg, sizeof(msg));
	PyMem_Free(events);
	if (err)
		pmudev_py_raise(pmudev_py_event_error, err, msg);
	return err ? -1 : 0;
}

int pmudev_py_add_item(struct pmudev *pmu, PyObject *item, int *slots, Py_ssize_t first)
{
	const char *specs[ARMPMU_MAX_COUNTERS];
	Py_ssize_t m, at[ARMPMU_MAX_COUNTERS];
	int slot, got[ARMPMU_MAX_COUNTERS], err;
	unsigned int k = 0;

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
	/* A group: "cycles", which always counts, beside it, as pmuctl stat does. */
	m = PySequence_Fast_GET_SIZE(item);
	for (Py_ssize_t j = 0; j < m; j++) {
		const char *spec = PyUnicode_AsUTF8(PySequence_Fast_GET_ITEM(item, j));

		if (!spec)
			return -EINVAL;
		if (!pmudev_spec_is_cycles(spec)) {
			if (k == ARMPMU_MAX_COUNTERS)
				return -ENOSPC;
			at[k] = j;
			specs[k++] = spec;
			continue;
		}
		slot = pmudev_add_event(pmu, spec);
		if (slot < 0)
			return slot;
		slots[first + j] = slot;
	}
	if (!k)
		return 0;
	err = pmudev_add_group(pmu, specs, k, got);
	for (unsigned int i = 0; !err && i < k; i++)
		slots[first + at[i]] = got[i];
	return err;
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
	  "'pitfalls' is a list of paragraphs: what a student trips over counting\n"
	  "an event of its kind (speculative or retired, caches, what QEMU counts,\n"
	  "kernel and user mode, 32-bit counters), the same libpmudev texts that\n"
	  "pmuctl explain NAME prints; 'qemu_counts' whether QEMU's emulated PMU\n"
	  "counts it at all. EventError for a name no table has, with libpmudev's\n"
	  "\"did you mean\"." },
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
	  "'x += 1' is hundreds of instructions), the decorator's own is not.\n"
	  "A recursive function: a thread's outermost call is counted, its inner\n"
	  "calls as part of it (each counts as one of .calls only when outermost)." },
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
"Events are strings exactly as `pmuctl stat -e` takes them, parsed by the\n"
"same code in libpmudev: names of the architecture (INST_RETIRED,\n"
"L1D_CACHE_REFILL) or the core's own, perf's aliases (cycles,\n"
"instructions, cache-misses, branches, ...), raw numbers (0x11, r11),\n"
"perf's PMU syntax (cpu/event=0x11/), with :u (user mode), :k (kernel\n"
"mode) or :uk; several in one string, comma-separated, and groups in\n"
"braces, always counted together, a modifier after the brace for each:\n"
"\n"
"    pmudev.count(\"cycles:u,{instructions,r08}:u\")\n"
"\n"
"A tuple of events is a group too: (\"instructions\", \"r08\") is\n"
"\"{instructions,r08}\". What pmuctl stat -e refuses raises EventError\n"
"with pmuctl's message.\n"
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
		"modifier or number, an event this core lacks, a group too large, or\n"
		"what pmuctl stat -e refuses in a list, with pmuctl's message (errno\n"
		"EINVAL; ENODEV for another core's PMU name, ENOSPC for a group larger\n"
		"than the counters).", bases);
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
