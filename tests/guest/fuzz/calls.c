// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz: a call as recorded for its message, the errno checks every call
 * ends with, failures (counted, the first few printed), and picking an fd.
 */
#include "common.h"

static const char *const pkind_name[] = {
	"buffer", "misaligned buffer", "NULL", "PROT_NONE page", "read-only page",
	"buffer running into a PROT_NONE page", "kernel address", "small integer",
	"random address",
};

static bool documented(int err)
{
	switch (err) {
	case EACCES: case EALREADY: case EBUSY: case ECANCELED: case EFAULT:
	case EINVAL: case EIO: case ENODEV: case ENOENT: case ENOSPC: case ENOTTY: case ENXIO:
	case EOPNOTSUPP: case EPERM: case ESPIPE: case ESRCH:
	/* SET_SAMPLING's period, ring size and ring. */
	case ERANGE: case E2BIG: case ENOMEM:
	/* A shared fd closed by another thread; EINTR if a signal came. */
	case EBADF: case EINTR:
		return true;
	}
	return false;
}

void call_init(struct call *c, const char *op, int fd, const char *fdkind)
{
	memset(c, 0, sizeof(*c));
	c->op = op;
	c->fd = fd;
	c->fdkind = fdkind;
}

void call_ptr(struct call *c, const struct ptr *p)
{
	c->has_ptr = true;
	c->pkind = p->kind;
	c->ptr = p->addr;
}

void call_arg(struct call *c, uint64_t v)
{
	if (c->nargs < ARRAY_SIZE(c->arg))
		c->arg[c->nargs++] = v;
}

static int describe(const struct call *c, char *buf, size_t len)
{
	int n = snprintf(buf, len, "%s(fd %d%s%s", c->op, c->fd,
			 c->fdkind ? " " : "", c->fdkind ? c->fdkind : "");
	unsigned int i;

	if (c->req && n < (int)len)
		n += snprintf(buf + n, len - n, ", req %#lx", c->req);
	if (c->has_ptr && n < (int)len)
		n += snprintf(buf + n, len - n, ", %s %#llx", pkind_name[c->pkind],
			      (ull)c->ptr);
	if (c->has_len && n < (int)len)
		n += snprintf(buf + n, len - n, ", len %#llx", (ull)c->len);
	for (i = 0; i < c->nargs && n < (int)len; i++)
		n += snprintf(buf + n, len - n, "%s%#llx", i ? " " : ", args ",
			      (ull)c->arg[i]);
	if (n < (int)len)
		n += snprintf(buf + n, len - n, ")");
	return n;
}

/*
 * A failure: counted, and the first few printed as `# ` lines, each in one
 * write() so that lines of different processes do not mix.
 */
__attribute__((format(printf, 4, 5)))
void fail(struct worker *w, enum fail_kind kind, const struct call *c,
	  const char *fmt, ...)
{
	char line[640];
	va_list ap;
	int n;

	w->st->fails[kind]++;
	if (w->printed++ >= MAX_PRINTED)
		return;
	n = snprintf(line, sizeof(line),
		     "# FAIL seed %llu proc %u (%s) thread %u (thread seed %#llx) call #%llu: ",
		     (ull)opt_seed, w->proc, user_name(w->role), w->thread,
		     (ull)w->seed, (ull)w->ncall);
	if (c && n < (int)sizeof(line)) {
		n += describe(c, line + n, sizeof(line) - n);
		if (n < (int)sizeof(line))
			n += snprintf(line + n, sizeof(line) - n, ": ");
	}
	if (n < (int)sizeof(line)) {
		va_start(ap, fmt);
		n += vsnprintf(line + n, sizeof(line) - n, fmt, ap);
		va_end(ap);
	}
	if (n >= (int)sizeof(line) - 1)
		n = sizeof(line) - 2;
	line[n++] = '\n';
	if (write(STDOUT_FILENO, line, n) < 0)
		return;	/* nowhere else to say it: the count stays */
}

/*
 * Counts a finished call and checks its errno: documented, and if @only is
 * given, one of those (0-terminated; EBADF and EINTR always pass).
 */
void done(struct worker *w, struct call *c, enum op_kind kind, int err,
	  const int *only)
{
	const int *o;

	w->st->calls++;
	w->st->ops[kind]++;
	w->st->errs[err >= 0 && err < NERR - 1 ? err : NERR - 1]++;
	if (err && !documented(err)) {
		fail(w, F_UNDOC, c, "%s (%d), which armpmu(4) does not document",
		     tap_errname(err), err);
	} else if (err && only && err != EBADF && err != EINTR) {
		for (o = only; *o && *o != err; o++)
			;
		if (!*o)
			fail(w, F_WRONG, c, "%s (%d), which this call cannot return",
			     tap_errname(err), err);
	}
	w->ncall++;
}

/* An fd to call on: a private one (if open) or a shared one. */
int pick_fd(struct worker *w, const char **kind, int *slot)
{
	unsigned int i;

	*slot = -1;
	if (chance(w, 600)) {
		i = 1 + below(w, PRIV_FDS - 1);
		if (w->priv[i] >= 0) {
			*kind = "(private)";
			*slot = (int)i;
			return w->priv[i];
		}
	}
	*kind = "(shared)";
	return shared_fd[below(w, SHARED_FDS)];
}
