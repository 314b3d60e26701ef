/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The one JSON string writer of libpmudev's reports and of pmuctl. Inline,
 * so that the library exports nothing more (libpmudev.map) and pmuctl,
 * linked against the shared library, still has it; not installed.
 */
#ifndef PMUDEV_JSON_H
#define PMUDEV_JSON_H

#include <stdio.h>

/* @s as a JSON string: quoted, '"' and '\' escaped, control bytes as \uXXXX. */
static inline void json_string(FILE *out, const char *s)
{
	fputc('"', out);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(out, "\\%c", c);
		else if (c < 0x20)
			fprintf(out, "\\u%04x", c);
		else
			fputc(c, out);
	}
	fputc('"', out);
}

#endif /* PMUDEV_JSON_H */
