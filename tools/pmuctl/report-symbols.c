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
#include <fcntl.h>
#include <search.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
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
	void *files;		/* struct file, by path: a tsearch(3) tree */
};

static int by_path(const void *a, const void *b)
{
	return strcmp(((const struct file *)a)->path, ((const struct file *)b)->path);
}

static void free_file(void *p)
{
	struct file *f = p;

	if (f->dwfl)
		dwfl_end(f->dwfl);
	free(f->path);
	free(f);
}

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
	tdestroy(s->files, free_file);
	free(s->debuginfo_path);
	free(s->symfs);
	free(s);
}

/*
 * @full, opened for libdwfl if it is a regular file: a path a stranger's
 * file names may be a FIFO or a device, which must neither block the
 * report nor be read. The descriptor, or -1.
 */
static int open_regular(const char *full)
{
	struct stat st;
	int fd = open(full, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);

	if (fd < 0)
		return -1;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		return -1;
	}
	return fd;
}

static struct file *open_file(struct report_symbols *s, const char *path)
{
	struct file want = { .path = (char *)path }, *f;
	void *found = tfind(&want, &s->files, by_path);
	char *full;
	int fd;

	if (found)
		return *(struct file **)found;
	f = calloc(1, sizeof(*f));
	if (!f || !(f->path = strdup(path)) || !tsearch(f, &s->files, by_path)) {
		if (f)
			free(f->path);
		free(f);
		return NULL;
	}
	/* "[vdso]" and the like are no files. */
	if (*path != '/' || asprintf(&full, "%s%s", s->symfs, path) < 0)
		return f;
	fd = open_regular(full);
	f->dwfl = fd >= 0 ? dwfl_begin(&s->callbacks) : NULL;
	if (f->dwfl) {
		dwfl_report_begin(f->dwfl);
		/* On success libdwfl owns @fd, and closes it; else it is ours. */
		f->mod = dwfl_report_elf(f->dwfl, path, full, fd, 0, false);
		dwfl_report_end(f->dwfl, NULL, NULL);
		if (!f->mod) {
			close(fd);
			dwfl_end(f->dwfl);
			f->dwfl = NULL;
		}
	} else if (fd >= 0) {
		close(fd);
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
