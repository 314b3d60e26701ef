/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A small TAP producer for the guest test programs: numbered `ok N - name`
 * and `not ok N - name` lines, each failure followed by `# ` diagnostics,
 * skips as `ok N - name # SKIP reason`, and the plan `1..N` at the end, so a
 * reader can tell a finished run from one that died half way.
 *
 * Output is flushed line by line: the programs fork, and a child must never
 * inherit (and print again) half a buffer.
 */
#ifndef ARMPMU_TESTS_TAP_H
#define ARMPMU_TESTS_TAP_H

#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/klog.h>
#include <unistd.h>

struct tap_state {
	unsigned int run;
	unsigned int failed;
	unsigned int skipped;
};

/*
 * One tally for the whole program, also for one built from several files
 * (armpmu-test): each file's definition is weak, and the linker keeps one.
 */
__attribute__((weak)) struct tap_state tap;

/* The options of a program that goes on from another's tally (tap_then below). */
#define TAP_THEN_OPTIONS						\
	{ "tap-run", required_argument, NULL, 'r' },			\
	{ "tap-failed", required_argument, NULL, 'f' },			\
	{ "tap-skipped", required_argument, NULL, 's' }

/* True if getopt_long's @opt was one of TAP_THEN_OPTIONS: its value taken. */
static inline bool tap_then_option(int opt, const char *arg)
{
	unsigned int *field = opt == 'r' ? &tap.run : opt == 'f' ? &tap.failed :
			      opt == 's' ? &tap.skipped : NULL;

	if (field)
		*field = (unsigned int)strtoul(arg, NULL, 10);
	return field != NULL;
}

static inline void tap_init(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
}

/* A `# ` line that is no test: context for whoever reads the log. */
__attribute__((format(printf, 1, 2)))
static inline void tap_note(const char *fmt, ...)
{
	va_list ap;

	fputs("# ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
}

/*
 * One test. The diagnostic (a printf format) is printed only on failure;
 * it should say what was expected and what came instead. Returns @ok.
 */
__attribute__((format(printf, 3, 4)))
static inline bool tap_check(bool ok, const char *name, const char *fmt, ...)
{
	va_list ap;

	tap.run++;
	printf("%sok %u - %s\n", ok ? "" : "not ", tap.run, name);
	if (!ok) {
		tap.failed++;
		if (fmt && *fmt) {
			fputs("# ", stdout);
			va_start(ap, fmt);
			vprintf(fmt, ap);
			va_end(ap);
			putchar('\n');
		}
	}
	fflush(stdout);
	return ok;
}

/* A test that cannot run here, and why. */
__attribute__((format(printf, 2, 3)))
static inline void tap_skip(const char *name, const char *fmt, ...)
{
	va_list ap;

	tap.run++;
	tap.skipped++;
	printf("ok %u - %s # SKIP ", tap.run, name);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
}

/* The plan and a summary; returns the program's exit status. */
static inline int tap_done(void)
{
	printf("1..%u\n", tap.run);
	printf("# %u tests, %u failed, %u skipped\n", tap.run, tap.failed,
	       tap.skipped);
	fflush(stdout);
	return tap.failed ? 1 : 0;
}

/*
 * Instead of tap_done(): the run goes on in @prog (the one next to this
 * program if @self names its folder, else found on PATH), which takes the
 * tally with --tap-run, --tap-failed and --tap-skipped, numbers on and
 * prints the plan; @opts (NULL-ended, at most 4) are its other options.
 * Returns only if @prog cannot be executed.
 */
static inline int tap_then(const char *prog, const char *self, const char *const opts[])
{
	char path[256], run[16], failed[16], skipped[16];
	const char *argv[12];
	const char *slash = strrchr(self, '/');
	unsigned int i = 0;

	snprintf(path, sizeof(path), "%.*s/%s", slash ? (int)(slash - self) : 0, self, prog);
	snprintf(run, sizeof(run), "%u", tap.run);
	snprintf(failed, sizeof(failed), "%u", tap.failed);
	snprintf(skipped, sizeof(skipped), "%u", tap.skipped);
	/* Its path as its name: a program it goes on in is looked for beside it too. */
	argv[i++] = slash ? path : prog;
	argv[i++] = "--tap-run";
	argv[i++] = run;
	argv[i++] = "--tap-failed";
	argv[i++] = failed;
	argv[i++] = "--tap-skipped";
	argv[i++] = skipped;
	while (*opts && i < 11)
		argv[i++] = *opts++;
	argv[i] = NULL;
	fflush(stdout);
	if (slash)
		execv(path, (char *const *)argv);
	execvp(prog, (char *const *)argv);
	tap_check(false, prog, "cannot execute it: %s", strerror(errno));
	return tap_done();
}

/* errno values by name, for diagnostics ("expected EFAULT, got EINVAL"). */
static inline const char *tap_errname(int err)
{
	static char other[32];

	switch (err) {
	case 0: return "success";
	case EPERM: return "EPERM";
	case ENOENT: return "ENOENT";
	case ESRCH: return "ESRCH";
	case EINTR: return "EINTR";
	case EIO: return "EIO";
	case ENXIO: return "ENXIO";
	case E2BIG: return "E2BIG";
	case EBADF: return "EBADF";
	case ECHILD: return "ECHILD";
	case EAGAIN: return "EAGAIN";
	case ENOMEM: return "ENOMEM";
	case EACCES: return "EACCES";
	case EFAULT: return "EFAULT";
	case EBUSY: return "EBUSY";
	case EEXIST: return "EEXIST";
	case ENODEV: return "ENODEV";
	case ENOTDIR: return "ENOTDIR";
	case EISDIR: return "EISDIR";
	case EINVAL: return "EINVAL";
	case ENOTTY: return "ENOTTY";
	case ESPIPE: return "ESPIPE";
	case EROFS: return "EROFS";
	case ERANGE: return "ERANGE";
	case ENOSYS: return "ENOSYS";
	case EOPNOTSUPP: return "EOPNOTSUPP";
	case EALREADY: return "EALREADY";
	case ECANCELED: return "ECANCELED";
	case EOVERFLOW: return "EOVERFLOW";
	case ETIMEDOUT: return "ETIMEDOUT";
	default:
		snprintf(other, sizeof(other), "errno %d", err);
		return other;
	}
}

/*
 * A call that should fail with @want (0: succeed). @got is the call's
 * outcome as an errno value, 0 for success.
 */
static inline bool tap_errno(int got, int want, const char *name)
{
	return tap_check(got == want, name, "expected %s, got %s",
			 tap_errname(want), tap_errname(got));
}

/*
 * The kernel log must be free of warnings, bugs and oopses: one test, with
 * the offending lines (the first 40) as diagnostics.
 */
static inline void test_kernel_log(void)
{
	static const char *const bad[] = {
		"WARNING:", "BUG:", "Oops", "Internal error", "Call trace",
		"scheduling while atomic",
	};
	char *log, *line, *next;
	unsigned int i, found = 0;
	int size, len;

	size = klogctl(10 /* SYSLOG_ACTION_SIZE_BUFFER */, NULL, 0);
	if (size <= 0)
		size = 1 << 20;
	log = calloc(1, (size_t)size + 1);
	len = log ? klogctl(3 /* SYSLOG_ACTION_READ_ALL */, log, size) : -1;
	if (!tap_check(len >= 0, "the kernel log can be read", "klogctl: %s",
		       tap_errname(errno))) {
		free(log);
		return;
	}
	log[len] = '\0';
	for (line = log; *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		else
			next = line + strlen(line);
		for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
			if (strstr(line, bad[i])) {
				if (found++ < 40)
					tap_note("dmesg: %s", line);
				break;
			}
		}
	}
	tap_check(found == 0,
		  "dmesg has no WARNING:, BUG:, Oops, Internal error, Call trace, "
		  "scheduling while atomic",
		  "%u offending lines (shown above)", found);
	free(log);
}

#endif /* ARMPMU_TESTS_TAP_H */
