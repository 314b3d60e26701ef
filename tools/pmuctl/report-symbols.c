// SPDX-License-Identifier: GPL-2.0
/*
 * pmuctl report's symbols, with elfutils: each file a Dwfl module of its
 * own reported at its link-time addresses (base 0), so that one module
 * serves every process that maps the file, wherever ASLR put it. An
 * address in a mapping becomes a file offset (the mapping's start is the
 * file's @pgoff), the file offset an address of the loadable segment
 * that holds it, and that address a function: of the file's .symtab, its
 * .dynsym, or its debug file's (libdwfl's standard search: .gnu_debuglink,
 * the build ID under /usr/lib/debug).
 *
 * The functions are chosen as perf chooses them, not as libdwfl's nearest
 * symbol: a function symbol, or a label in code, but never one of ARM's
 * mapping symbols ($a, $t, $d and AArch64's $x, which mark where Thumb,
 * ARM code or data begin, and would otherwise name every sample after
 * one); a Thumb function's address without its bit 0; of symbols at one
 * address, a sized one, then a global, then a weak one, then the one of
 * fewer leading underscores; a symbol of no size reaches to the next.
 * C++ names are demangled as perf shows them (report-demangle.h).
 *
 * The file may be a stranger's, naming any path: a file is read only if
 * it is the one recorded, its GNU build ID the one the recording lists
 * for its path (HEADER_BUILD_ID), which its author could only know by
 * having had it. A file the recording lists no build ID for is read only
 * from a recording of the reader's own. Under --symfs the paths resolve
 * inside the folder, its symlinks and ".." too (openat2's
 * RESOLVE_IN_ROOT), as if it were the root.
 */
#include <errno.h>
#include <fcntl.h>
#include <search.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <linux/openat2.h>
#include <elfutils/libdwfl.h>
#include <gelf.h>

#include "elf-file.h"
#include "perf-format.h"
#include "report-demangle.h"
#include "report-symbols.h"

struct func {
	uint64_t start, end;	/* in the module's addresses */
	const char *name;	/* libdwfl's, as long as the module lives */
	char *shown;		/* demangled, or NULL */
	bool looked;		/* demangling tried */
	unsigned int rank;	/* lower wins at one address */
};

struct file {
	char *path;
	Dwfl *dwfl;		/* NULL: the file could not be read, or was refused */
	Dwfl_Module *mod;
	struct func *funcs;	/* by start, one per address */
	size_t nfuncs;
	bool read;		/* funcs made */
	bool opened;		/* tried */
	bool listed;		/* the recording gives its build ID: */
	bool exact_size;	/* of want_size bytes (else 20, zero-padded) */
	uint8_t want[BUILD_ID_BYTES];
	size_t want_size;
	const char *refused;	/* why it was not used, or NULL */
};

struct report_symbols {
	bool demangle;
	bool own_recording;	/* files the recording lists no build ID for are read */
	char *symfs;
	int symfs_fd;		/* the folder's, or -1 */
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

	for (size_t i = 0; i < f->nfuncs; i++)
		free(f->funcs[i].shown);
	free(f->funcs);
	if (f->dwfl)
		dwfl_end(f->dwfl);
	free(f->path);
	free(f);
}

int report_symbols_new(struct report_symbols **sp, const char *symfs, bool demangle,
		       bool own_recording)
{
	struct report_symbols *s = calloc(1, sizeof(*s));

	if (!s)
		return -ENOMEM;
	s->demangle = demangle;
	s->own_recording = own_recording;
	s->symfs_fd = -1;
	s->symfs = strdup(symfs ? symfs : "");
	if (!s->symfs) {
		free(s);
		return -ENOMEM;
	}
	if (*s->symfs)
		s->symfs_fd = open(s->symfs, O_PATH | O_DIRECTORY | O_CLOEXEC);
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
	if (s->symfs_fd >= 0)
		close(s->symfs_fd);
	free(s->debuginfo_path);
	free(s->symfs);
	free(s);
}

/* The entry for @path, made if there is none; NULL if out of memory. */
static struct file *file_of(struct report_symbols *s, const char *path)
{
	struct file want = { .path = (char *)path }, *f;
	void *found = tfind(&want, &s->files, by_path);

	if (found)
		return *(struct file **)found;
	f = calloc(1, sizeof(*f));
	if (!f || !(f->path = strdup(path)) || !tsearch(f, &s->files, by_path)) {
		if (f)
			free(f->path);
		free(f);
		return NULL;
	}
	return f;
}

int report_symbols_expect(struct report_symbols *s, const char *path, const uint8_t *id,
			  size_t size, bool exact_size)
{
	struct file *f;

	if (size > BUILD_ID_BYTES)
		return -EINVAL;
	f = file_of(s, path);
	if (!f)
		return -ENOMEM;
	/* A path listed twice keeps its first build ID. */
	if (f->listed)
		return 0;
	f->listed = true;
	f->exact_size = exact_size;
	memcpy(f->want, id, size);
	f->want_size = size;
	return 0;
}

/*
 * @path opened for libdwfl if it is a regular file (a path a stranger's
 * file names may be a FIFO or a device, which must neither block the
 * report nor be read), under --symfs as if the folder were the root.
 * The descriptor, or -1.
 */
static int open_regular(const struct report_symbols *s, const char *path)
{
	struct open_how how = {
		.flags = O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY,
		.resolve = RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS,
	};
	int fd;

	if (!*s->symfs)
		fd = open(path, (int)how.flags);
	else if (s->symfs_fd < 0)
		return -1;
	else
		fd = (int)syscall(SYS_openat2, s->symfs_fd, path, &how, sizeof(how));
	return elf_file_regular(fd);
}

/*
 * Why a file of build ID @have (@len bytes; none if 0) is not the one
 * recorded as @f, or NULL if it is. Recordings of old perfs give 20 bytes
 * with no size: a shorter ID padded with zeros.
 */
static const char *not_recorded(const struct report_symbols *s, const struct file *f,
				const uint8_t *have, size_t len)
{
	static const uint8_t zeros[BUILD_ID_BYTES];

	if (!f->listed)
		return s->own_recording ? NULL :
		       "a recording not yours lists no build ID for it";
	if (!len)
		return "it has no build ID, the recording lists one";
	if ((f->exact_size ? len == f->want_size : len <= f->want_size) &&
	    !memcmp(f->want, have, len) && !memcmp(f->want + len, zeros, f->want_size - len))
		return NULL;
	return "its build ID is not the one recorded";
}

static struct file *open_file(struct report_symbols *s, const char *path)
{
	struct file *f = file_of(s, path);
	const unsigned char *id;
	GElf_Addr vaddr;
	char *full;
	int fd, len;

	if (!f || f->opened)
		return f;
	f->opened = true;
	/* "[vdso]" and the like are no files. */
	if (*path != '/' || asprintf(&full, "%s%s", s->symfs, path) < 0)
		return f;
	fd = open_regular(s, path);
	f->dwfl = fd >= 0 ? dwfl_begin(&s->callbacks) : NULL;
	if (f->dwfl) {
		dwfl_report_begin(f->dwfl);
		/* On success libdwfl owns @fd, and closes it; else it is ours. */
		f->mod = dwfl_report_elf(f->dwfl, path, full, fd, 0, false);
		dwfl_report_end(f->dwfl, NULL, NULL);
		if (!f->mod) {
			close(fd);
		} else {
			len = dwfl_module_build_id(f->mod, &id, &vaddr);
			f->refused = not_recorded(s, f, len > 0 ? id : NULL, len > 0 ? (size_t)len : 0);
		}
		if (!f->mod || f->refused) {
			dwfl_end(f->dwfl);
			f->dwfl = NULL;
			f->mod = NULL;
		}
	} else if (fd >= 0) {
		close(fd);
	}
	free(full);
	return f;
}

/* ARM's and AArch64's mapping symbols: $a, $t, $d, $x, and their "$t.N" forms. */
static bool is_mapping_symbol(const char *name)
{
	return name[0] == '$' && name[1] && strchr("atdx", name[1]) && (!name[2] || name[2] == '.');
}

static unsigned int underscores(const char *name)
{
	unsigned int n = 0;

	while (name[n] == '_')
		n++;
	return n;
}

static int by_start(const void *a, const void *b)
{
	const struct func *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	return (int)underscores(x->name) - (int)underscores(y->name);
}

/* Whether symbol @sym of @elf names code perf would name a sample with. */
static bool names_code(Elf *elf, const GElf_Sym *sym, GElf_Word shndx, const char *name)
{
	Elf_Scn *scn;
	GElf_Shdr sh;

	if (!*name || shndx == SHN_UNDEF || shndx == SHN_ABS || is_mapping_symbol(name))
		return false;
	switch (GELF_ST_TYPE(sym->st_info)) {
	case STT_FUNC:
	case STT_GNU_IFUNC:
		return true;
	case STT_NOTYPE:	/* an assembler's label: only in code */
		scn = elf_getscn(elf, shndx);
		return scn && gelf_getshdr(scn, &sh) && (sh.sh_flags & SHF_EXECINSTR);
	default:
		return false;
	}
}

/* @f's functions, by start; on failure, none. */
static void read_funcs(struct file *f)
{
	int n = dwfl_module_getsymtab(f->mod);
	GElf_Addr bias;
	Elf *main_elf = dwfl_module_getelf(f->mod, &bias);
	GElf_Ehdr eh;
	bool arm = main_elf && gelf_getehdr(main_elf, &eh) && eh.e_machine == EM_ARM;
	size_t kept = 0;

	f->read = true;
	if (n <= 0 || !(f->funcs = calloc((size_t)n, sizeof(*f->funcs))))
		return;
	for (int i = 0; i < n; i++) {
		GElf_Sym sym;
		GElf_Addr addr, b;
		GElf_Word shndx;
		Elf *elf;
		const char *name = dwfl_module_getsym_info(f->mod, i, &sym, &addr, &shndx, &elf, &b);
		unsigned int bind;

		if (!name || !names_code(elf, &sym, shndx, name))
			continue;
		if (arm)
			addr &= ~(GElf_Addr)1;	/* a Thumb function's mark */
		bind = GELF_ST_BIND(sym.st_info);
		f->funcs[f->nfuncs++] = (struct func){
			.start = addr, .end = sym.st_size ? addr + sym.st_size : 0, .name = name,
			.rank = (sym.st_size ? 0 : 4) + (bind == STB_GLOBAL ? 0 : bind == STB_WEAK ? 1 : 2),
		};
	}
	qsort(f->funcs, f->nfuncs, sizeof(*f->funcs), by_start);
	for (size_t i = 0; i < f->nfuncs; i++)
		if (!kept || f->funcs[i].start != f->funcs[kept - 1].start)
			f->funcs[kept++] = f->funcs[i];
	f->nfuncs = kept;
	/* A symbol of no size reaches to the next one (the last, to the next page but one). */
	for (size_t i = 0; i < f->nfuncs; i++)
		if (!f->funcs[i].end)
			f->funcs[i].end = i + 1 < f->nfuncs ? f->funcs[i + 1].start :
					  (f->funcs[i].start | 4095) + 4097;
}

/* The function at @addr in @f, or NULL. */
static struct func *func_at(struct file *f, uint64_t addr)
{
	size_t lo = 0, hi;

	if (!f->read)
		read_funcs(f);
	hi = f->nfuncs;
	/* The last function that starts at or before @addr. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (f->funcs[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo && addr < f->funcs[lo - 1].end ? &f->funcs[lo - 1] : NULL;
}

const char *report_symbols_find(struct report_symbols *s, const char *path, uint64_t start,
				uint64_t pgoff, uint64_t ip, uint64_t *addr)
{
	struct file *f = open_file(s, path);
	uint64_t off = ip - start + pgoff;
	struct func *fn;
	GElf_Addr bias;
	Elf *elf;

	*addr = off;
	if (!f || !f->dwfl)
		return NULL;
	elf = dwfl_module_getelf(f->mod, &bias);
	if (!elf || !elf_file_address(elf, off, addr))
		return NULL;
	fn = func_at(f, *addr + bias);
	if (!fn)
		return NULL;
	if (s->demangle && !fn->looked) {
		fn->looked = true;
		fn->shown = report_demangle(fn->name);
	}
	return fn->shown ? fn->shown : fn->name;
}

struct refused_walk {
	void (*fn)(const char *path, const char *why, void *arg);
	void *arg;
};

static void visit_refused(const void *node, VISIT which, void *closure)
{
	const struct file *f = *(struct file *const *)node;
	struct refused_walk *w = closure;

	if ((which == postorder || which == leaf) && f->refused)
		w->fn(f->path, f->refused, w->arg);
}

void report_symbols_refused(const struct report_symbols *s,
			    void (*fn)(const char *path, const char *why, void *arg), void *arg)
{
	struct refused_walk w = { fn, arg };

	twalk_r(s->files, visit_refused, &w);
}
