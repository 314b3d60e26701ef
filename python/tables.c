// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * pmudev.events, cores, explain and info: libpmudev's event tables and the
 * device's description of the PMU, as Python data. pmuctl list, explain
 * and info print the same tables; the pitfalls pmuctl explain adds are
 * pmuctl's own and are not repeated here.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "pmudev-py.h"

/* Sets a key of @d to @v, which it takes; -1 on failure. */
static int put(PyObject *d, const char *key, PyObject *v)
{
	int err = v ? PyDict_SetItemString(d, key, v) : -1;

	Py_XDECREF(v);
	return err;
}

static PyObject *str_or_none(const char *s)
{
	return s ? PyUnicode_FromString(s) : Py_NewRef(Py_None);
}

/* The running core's description, from the device; -1 raised without it. */
static int running_core(struct armpmu_info *info)
{
	struct pmudev *pmu;

	if (pmudev_py_open(&pmu, PMUDEV_OPEN_UNBOUND))
		return -1;
	*info = *pmudev_info(pmu);
	pmudev_close(pmu);
	return 0;
}

/* Whether @name names the core @known (case aside, "Cortex-" optional). */
static bool core_matches(const char *known, const char *name)
{
	return !strcasecmp(known, name) ||
	       (!strncasecmp(known, "Cortex-", 7) && !strcasecmp(known + 7, name));
}

/* The table's description of core @name; -1 raised if there is none. */
static int named_core(PyObject *name, struct armpmu_info *info)
{
	const char *want = PyUnicode_AsUTF8(name), *core;
	char msg[200];

	if (!want)
		return -1;
	for (unsigned int i = 0; (core = pmudev_known_core(i, info)); i++)
		if (core_matches(core, want))
			return 0;
	snprintf(msg, sizeof(msg), "libpmudev has no event table for core '%.60s' "
		 "(pmudev.cores() lists those it has)", want);
	pmudev_py_raise(pmudev_py_event_error, -ENOENT, msg);
	return -1;
}

static int core_arg(PyObject *core, struct armpmu_info *info)
{
	if (core == Py_None)
		return running_core(info);
	if (!PyUnicode_Check(core)) {
		PyErr_Format(PyExc_TypeError, "core is a str (\"cortex-a72\") or None, not %.80s",
			     Py_TYPE(core)->tp_name);
		return -1;
	}
	return named_core(core, info);
}

static PyObject *event_dict(const struct pmudev_event_info *ev, const struct armpmu_info *info)
{
	PyObject *d = PyDict_New();

	if (d && (put(d, "number", PyLong_FromUnsignedLong(ev->number)) ||
		  put(d, "name", str_or_none(ev->name)) ||
		  put(d, "description", str_or_none(ev->description)) ||
		  put(d, "group", str_or_none(pmudev_event_group_name(ev->group))) ||
		  put(d, "own", PyBool_FromLong(ev->flags & PMUDEV_EVENT_IMPDEF)) ||
		  put(d, "implemented", PyBool_FromLong(pmudev_event_implemented(info, ev->number)))))
		Py_CLEAR(d);
	return d;
}

PyObject *pmudev_py_events(PyObject *self, PyObject *args, PyObject *kwargs)
{
	static char *keywords[] = { "core", NULL };
	const struct pmudev_event_info *ev;
	struct pmudev_event_info arch;
	struct armpmu_info info;
	PyObject *core = Py_None, *list;

	(void)self;
	if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|O:events", keywords, &core) ||
	    core_arg(core, &info))
		return NULL;
	list = PyList_New(0);
	for (unsigned int i = 0; list && (ev = pmudev_core_event(info.midr, i)); i++) {
		PyObject *d = event_dict(ev, &info);

		if (!d || PyList_Append(list, d))
			Py_CLEAR(list);
		Py_XDECREF(d);
	}
	if (!list || PyList_GET_SIZE(list))
		return list;
	/* A core without a table: the architecture's common events. */
	for (uint32_t n = 0; list && n < 0x40; n++) {
		PyObject *d;

		if (!pmudev_event_name(n))
			continue;
		arch = (struct pmudev_event_info){ .number = n, .group = PMUDEV_NR_GROUPS,
			.name = pmudev_event_name(n), .description = pmudev_event_description(n) };
		d = event_dict(&arch, &info);
		if (!d || PyList_Append(list, d))
			Py_CLEAR(list);
		Py_XDECREF(d);
	}
	return list;
}

/* Appends @text to *@list; on failure clears *@list (an exception set). */
static void append_str(PyObject **list, const char *text)
{
	PyObject *s = PyUnicode_FromString(text);

	if (!s || PyList_Append(*list, s))
		Py_CLEAR(*list);
	Py_XDECREF(s);
}

PyObject *pmudev_py_cores(PyObject *self, PyObject *args)
{
	PyObject *list = PyList_New(0);
	const char *core;

	(void)self;
	(void)args;
	for (unsigned int i = 0; list && (core = pmudev_known_core(i, NULL)); i++)
		append_str(&list, core);
	return list;
}

/* The name and description core @midr's table gives event @number, if any. */
static const struct pmudev_event_info *table_event(uint32_t midr, uint32_t number)
{
	const struct pmudev_event_info *ev;

	for (unsigned int i = 0; (ev = pmudev_core_event(midr, i)); i++)
		if (ev->number == number)
			return ev;
	return NULL;
}

/* The perf alias @spec is (its modifier aside), or NULL. */
static const char *alias_of(const char *spec)
{
	size_t n = strcspn(spec, ":");
	const char *a;

	for (unsigned int i = 0; (a = pmudev_perf_alias(i)); i++)
		if (strlen(a) == n && !strncasecmp(a, spec, n))
			return a;
	return NULL;
}

/* core -> {"number", "name"} for every core libpmudev knows that has @spec. */
static PyObject *cores_having(const char *spec)
{
	struct armpmu_info info;
	struct pmudev_event ev;
	PyObject *d = PyDict_New();
	const char *core;

	for (unsigned int i = 0; d && (core = pmudev_known_core(i, &info)); i++) {
		const struct pmudev_event_info *t;
		PyObject *e;

		if (pmudev_event_parse(spec, &info, &ev) || !pmudev_event_implemented(&info, ev.number))
			continue;
		t = table_event(info.midr, ev.number);
		e = PyDict_New();
		if (!e || put(e, "number", PyLong_FromUnsignedLong(ev.number)) ||
		    put(e, "name", str_or_none(t ? t->name : pmudev_event_name(ev.number))) ||
		    PyDict_SetItemString(d, core, e))
			Py_CLEAR(d);
		Py_XDECREF(e);
	}
	return d;
}

/*
 * The event pmuctl explain explains for number @number, for its pitfalls:
 * @t (the core's table's) if given, else the architecture's entry of any
 * core's table, else what the library knows of the number (a core's own,
 * if only cores' own events have it).
 */
static struct pmudev_event_info subject(const struct pmudev_event_info *t, uint32_t number,
					const char *spec)
{
	const struct pmudev_event_info *ev;
	struct armpmu_info info;
	bool own = false;

	if (t)
		return *t;
	for (unsigned int i = 0; pmudev_known_core(i, &info); i++) {
		if (!(ev = table_event(info.midr, number)))
			continue;
		if (!(ev->flags & PMUDEV_EVENT_IMPDEF))
			return *ev;
		own = true;
	}
	return (struct pmudev_event_info){
		.number = number, .group = PMUDEV_GROUP_OTHER,
		.flags = own ? PMUDEV_EVENT_IMPDEF : 0,
		.name = pmudev_event_name(number) ? pmudev_event_name(number) : spec,
		.description = pmudev_event_description(number) ? pmudev_event_description(number) : "",
	};
}

/* pmudev_event_pitfall()'s texts for @ev, a new list. */
static PyObject *pitfalls(const struct pmudev_event_info *ev)
{
	PyObject *list = PyList_New(0);
	const char *text;

	for (unsigned int i = 0; list && (text = pmudev_event_pitfall(ev, i)); i++)
		append_str(&list, text);
	return list;
}

PyObject *pmudev_py_explain(PyObject *self, PyObject *args, PyObject *kwargs)
{
	static char *keywords[] = { "name", "core", NULL };
	const struct pmudev_event_info *t;
	const struct armpmu_info *here = NULL;
	struct pmudev_event_info subj;
	struct armpmu_info info;
	struct pmudev_event ev;
	PyObject *core = Py_None, *d;
	const char *spec, *name, *description, *core_name = NULL;
	char msg[256];
	int err;

	(void)self;
	if (!PyArg_ParseTupleAndKeywords(args, kwargs, "s|O:explain", keywords, &spec, &core))
		return NULL;
	if (core != Py_None) {
		if (core_arg(core, &info))
			return NULL;
		here = &info;
	} else if (!running_core(&info)) {
		here = &info;
	} else {
		PyErr_Clear();	/* no device or no access: explained for no core */
	}
	err = pmudev_event_parse(spec, here, &ev);
	if (err && here)
		err = pmudev_event_parse(spec, NULL, &ev);
	if (err) {
		pmudev_event_error(spec, here, msg, sizeof(msg));
		return pmudev_py_raise(pmudev_py_event_error, err, msg);
	}
	if (here)
		core_name = pmudev_core_name(here->midr);
	t = here ? table_event(here->midr, ev.number) : NULL;
	name = t ? t->name : pmudev_event_name(ev.number);
	description = t ? t->description : pmudev_event_description(ev.number);
	subj = subject(t, ev.number, spec);
	d = PyDict_New();
	if (d && (put(d, "name", str_or_none(name)) ||
		  put(d, "number", PyLong_FromUnsignedLong(ev.number)) ||
		  put(d, "description", str_or_none(description)) ||
		  put(d, "group", str_or_none(t ? pmudev_event_group_name(t->group) : NULL)) ||
		  put(d, "alias", str_or_none(alias_of(spec))) ||
		  put(d, "note", str_or_none(here ? pmudev_event_note(spec, here) : NULL)) ||
		  put(d, "user", PyBool_FromLong(!(ev.flags & ARMPMU_EXCLUDE_USER))) ||
		  put(d, "kernel", PyBool_FromLong(!(ev.flags & ARMPMU_EXCLUDE_KERNEL))) ||
		  put(d, "cores", cores_having(spec)) ||
		  put(d, "core", str_or_none(core_name)) ||
		  put(d, "implemented", here ? PyBool_FromLong(pmudev_event_implemented(here, ev.number)) :
					       Py_NewRef(Py_None)) ||
		  put(d, "qemu_counts", PyBool_FromLong(pmudev_event_qemu_counts(&subj))) ||
		  put(d, "pitfalls", pitfalls(&subj))))
		Py_CLEAR(d);
	return d;
}

static PyObject *cpu_dict(const struct armpmu_cpu_status *st)
{
	PyObject *d = PyDict_New();
	bool usable = st->flags & ARMPMU_CPU_USABLE;

	if (d && (put(d, "cpu", PyLong_FromUnsignedLong(st->cpu)) ||
		  put(d, "online", PyBool_FromLong(st->flags & ARMPMU_CPU_ONLINE)) ||
		  put(d, "usable", PyBool_FromLong(usable)) ||
		  put(d, "owned", PyBool_FromLong(st->flags & ARMPMU_CPU_OWNED)) ||
		  put(d, "core", str_or_none(usable ? pmudev_core_name(st->info.midr) : NULL)) ||
		  put(d, "midr", usable ? PyLong_FromUnsignedLong(st->info.midr) : Py_NewRef(Py_None)) ||
		  put(d, "counters", usable ? PyLong_FromUnsignedLong(st->info.num_counters) :
					      Py_NewRef(Py_None))))
		Py_CLEAR(d);
	return d;
}

PyObject *pmudev_py_info(PyObject *self, PyObject *args)
{
	struct armpmu_cpu_status st;
	const struct armpmu_info *info;
	struct pmudev *pmu;
	PyObject *d, *cpus;

	(void)self;
	(void)args;
	if (pmudev_py_open(&pmu, PMUDEV_OPEN_UNBOUND))
		return NULL;
	info = pmudev_info(pmu);
	cpus = PyList_New(0);
	for (unsigned int cpu = 0; cpus && !pmudev_cpu_status(pmu, cpu, &st); cpu++) {
		PyObject *c = cpu_dict(&st);

		if (!c || PyList_Append(cpus, c))
			Py_CLEAR(cpus);
		Py_XDECREF(c);
	}
	d = cpus ? PyDict_New() : NULL;
	if (d && (put(d, "core", str_or_none(pmudev_core_name(info->midr))) ||
		  put(d, "midr", PyLong_FromUnsignedLong(info->midr)) ||
		  put(d, "pmu_version", PyLong_FromUnsignedLong(info->pmu_version)) ||
		  put(d, "counters", PyLong_FromUnsignedLong(info->num_counters)) ||
		  put(d, "event_bits", PyLong_FromUnsignedLong(info->event_bits)) ||
		  put(d, "can_filter", PyBool_FromLong(info->flags & ARMPMU_INFO_CAN_FILTER)) ||
		  put(d, "kernel_allowed", PyBool_FromLong(info->flags & ARMPMU_INFO_KERNEL_ALLOWED)) ||
		  put(d, "cpus", Py_NewRef(cpus))))
		Py_CLEAR(d);
	Py_XDECREF(cpus);
	pmudev_close(pmu);
	return d;
}
