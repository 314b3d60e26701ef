// SPDX-License-Identifier: GPL-2.0
/*
 * pmuctl report's demangling (report-demangle.h). The demangler is the C++
 * runtime's own, __cxa_demangle(), taken from libstdc++.so.6 when first
 * needed rather than linked: pmuctl stays a C program with no C++
 * dependency, and a C++ program's samples come from a machine that has
 * the runtime. Its full signature is then cut to what perf report shows.
 */
#include <dlfcn.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "report-demangle.h"

typedef char *(*cxa_demangle_fn)(const char *mangled, char *out, size_t *len, int *status);

static cxa_demangle_fn demangler(void)
{
	static cxa_demangle_fn fn;
	static bool looked;

	if (!looked) {
		void *lib = dlopen("libstdc++.so.6", RTLD_LAZY | RTLD_LOCAL);

		looked = true;
		if (lib)
			fn = (cxa_demangle_fn)(void (*)(void))dlsym(lib, "__cxa_demangle");
	}
	return fn;
}

/* Cuts @s's trailing " [clone .isra.0]" and the like. */
static void cut_clones(char *s)
{
	size_t len = strlen(s);

	while (len && s[len - 1] == ']') {
		char *open = NULL;

		for (char *p = s; (p = strstr(p, " [clone ")); p++)
			open = p;
		if (!open)
			return;
		*open = 0;
		len = (size_t)(open - s);
	}
}

/*
 * Cuts the parameter list (and any " const" or "&&" after it) of a
 * function's signature in @s, and a return type before its name: what is
 * left is the qualified name.
 */
static void cut_signature(char *s)
{
	size_t len = strlen(s);
	int depth = 0;
	char *close, *open = NULL, *name = s;

	close = strrchr(s, ')');
	if (!close)
		return;
	for (char *p = close; p >= s; p--) {
		depth += *p == ')' ? 1 : *p == '(' ? -1 : 0;
		if (!depth) {
			open = p;
			break;
		}
	}
	if (!open || open == s)
		return;
	*open = 0;
	len = (size_t)(open - s);
	/*
	 * A return type ends at a space outside <> and (); from an operator
	 * on ("operator new", "operator int (*)()") the spaces are its name's.
	 */
	depth = 0;
	for (char *p = s; p < s + len; p++) {
		if (!depth && !strncmp(p, "operator", 8))
			break;
		if (*p == '<' || *p == '(')
			depth++;
		else if ((*p == '>' || *p == ')') && depth)
			depth--;
		else if (*p == ' ' && !depth)
			name = p + 1;
	}
	if (name != s)
		memmove(s, name, strlen(name) + 1);
}

char *report_demangle(const char *name)
{
	cxa_demangle_fn fn;
	char *out;
	int status = -1;

	if (strncmp(name, "_Z", 2) || !(fn = demangler()))
		return NULL;
	out = fn(name, NULL, NULL, &status);
	if (status || !out) {
		free(out);
		return NULL;
	}
	cut_clones(out);
	cut_signature(out);
	return out;
}
