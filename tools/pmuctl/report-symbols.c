// SPDX-License-Identifier: GPL-2.0
/*
 * pmuctl report's symbols, with elfutils: each file a Dwfl module of its
 * own reported at its link-time addresses (base 0), so that one module
 * serves every process that maps the file, wherever ASLR put it. An
 * address in a mapping becomes a file offset (the mapping's start is the
 * file's @pgoff), the file offset an address of the loadable segment
 * that holds it, and that address a symbol: the file's .symtab, its
 * .dynsym, or its debug file's (libdwfl's standard search: .gnu_debuglink,
 * the build ID under /usr/lib/debug).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <elfutils/libdwfl.h>
#include <gelf.h>

#include "report-symbols.h"

struct file {
	char *path;
	Dwfl *dwfl;		/* NULL: the file could not be read */
	Dwfl_Module *mod;
};

struct report_symbols {
	char *symfs;
	char *debuginfo_path;
	Dwfl_Callbacks callbacks;
	struct file *files;
	size_t nfiles;
};

int report_symbols_new(struct report_symbols **sp, const char *symfs)
{
	struct report_symbols *s = calloc(1, sizeof(*s));

	if (!s)
		return -ENOMEM;
	s->symfs = strdup(symfs ? symfs : "");
	if (!s->symfs) {
		free(s);
		return -ENOMEM;
	}
	s->callbacks.find_elf = dwfl_build_id_find_elf;
	s->callbacks.find_debuginfo = dwfl_standard_find_debuginfo;
	s->callbacks.section_address = dwfl_offline_section_address;
	if (*s->symfs && asprintf(&s->debuginfo_path, "-:.debug:%s/usr/lib/debug", s->symfs) > 0)
		s->callbacks.debuginfo_path = &s->debuginfo_path;
	*sp = s;
	return 0;
}

void report_symbols_free(struct report_symbols *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->nfiles; i++) {
		if (s->files[i].dwfl)
			dwfl_end(s->files[i].dwfl);
		free(s->files[i].path);
	}
	free(s->files);
	free(s->debuginfo_path);
	free(s->symfs);
	free(s);
}

static struct file *open_file(struct report_symbols *s, const char *path)
{
	struct file *f;
	char *full;

	for (size_t i = 0; i < s->nfiles; i++)
		if (!strcmp(s->files[i].path, path))
			return &s->files[i];
	f = realloc(s->files, (s->nfiles + 1) * sizeof(*f));
	if (!f)
		return NULL;
	s->files = f;
	f += s->nfiles;
	memset(f, 0, sizeof(*f));
	f->path = strdup(path);
	if (!f->path)
		return NULL;
	s->nfiles++;
	/* "[vdso]" and the like are no files. */
	if (*path != '/' || asprintf(&full, "%s%s", s->symfs, path) < 0)
		return f;
	f->dwfl = dwfl_begin(&s->callbacks);
	if (f->dwfl) {
		dwfl_report_begin(f->dwfl);
		f->mod = dwfl_report_elf(f->dwfl, path, full, -1, 0, false);
		dwfl_report_end(f->dwfl, NULL, NULL);
		if (!f->mod) {
			dwfl_end(f->dwfl);
			f->dwfl = NULL;
		}
	}
	free(full);
	return f;
}

/* The address of file offset @off in @elf's loadable segments; false if none holds it. */
static bool offset_address(Elf *elf, uint64_t off, uint64_t *addr)
{
	size_t n;

	if (elf_getphdrnum(elf, &n))
		return false;
	for (size_t i = 0; i < n; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		if (off >= ph.p_offset && off < ph.p_offset + ph.p_filesz) {
			*addr = off - ph.p_offset + ph.p_vaddr;
			return true;
		}
	}
	return false;
}

const char *report_symbols_find(struct report_symbols *s, const char *path, uint64_t start,
				uint64_t pgoff, uint64_t ip, uint64_t *addr)
{
	struct file *f = open_file(s, path);
	uint64_t off = ip - start + pgoff;
	GElf_Addr bias;
	Elf *elf;

	*addr = off;
	if (!f || !f->dwfl)
		return NULL;
	elf = dwfl_module_getelf(f->mod, &bias);
	if (!elf || !offset_address(elf, off, addr))
		return NULL;
	return dwfl_module_addrname(f->mod, *addr + bias);
}
