// SPDX-License-Identifier: GPL-2.0
/* What the subcommands share: messages, opening the device, CPU numbers. */
#include <errno.h>
#include <getopt.h>
#include <grp.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include <sys/stat.h>

#include "pmuctl.h"

const char *subcommand = "";

static void vsay(const char *fmt, va_list ap)
{
	fprintf(stderr, "pmuctl %s: ", subcommand);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void say(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsay(fmt, ap);
	va_end(ap);
}

int fail(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsay(fmt, ap);
	va_end(ap);
	return EXIT_FAILURE;
}

int usage_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsay(fmt, ap);
	va_end(ap);
	fprintf(stderr, "Try 'pmuctl %s --help'.\n", subcommand);
	return EXIT_USAGE;
}

int option_error(int opt, char **argv)
{
	/* The argument getopt was at (a missing argument is always the last of it). */
	const char *arg = argv[optind - 1];
	bool is_long = !strncmp(arg, "--", 2);
	int len = (int)strcspn(arg, "=");

	if (opt == ':')
		return is_long ? usage_error("option '%.*s' needs an argument", len, arg) :
				 usage_error("option -%c needs an argument", optopt);
	if (optopt && is_long && arg[len])
		return usage_error("option '%.*s' takes no argument", len, arg);
	if (optopt)
		return usage_error("unknown option -%c", optopt);
	return usage_error("unknown option '%s'", arg);
}

bool wants_help(int argc, char **argv)
{
	for (int i = 1; i < argc && strcmp(argv[i], "--"); i++)
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
			return true;
	return false;
}

bool core_choice_option(struct core_choice *c, int opt, const char *arg, int *status)
{
	*status = 0;
	if (opt == 'c') {
		c->core = arg;
		return true;
	}
	if (opt != 'C')
		return false;
	if (parse_cpu(arg, &c->cpu))
		c->cpu_given = true;
	else
		*status = usage_error("no CPU '%s'", arg);
	return true;
}

int parse_cpu_option(int argc, char **argv, int *cpu, const char *help)
{
	static const struct option opts[] = {
		{ "cpu", required_argument, NULL, 'C' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int opt;

	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":C:h", opts, NULL)) != -1) {
		switch (opt) {
		case 'C':
			if (!parse_cpu(optarg, cpu))
				return usage_error("no CPU '%s'", optarg);
			break;
		case 'h':
			fputs(help, stdout);
			exit(EXIT_SUCCESS);
		default:
			return option_error(opt, argv);
		}
	}
	if (optind != argc)
		return usage_error("unexpected argument '%s'", argv[optind]);
	return 0;
}

int possible_cpus(void)
{
	long n = sysconf(_SC_NPROCESSORS_CONF);

	return n > 0 ? (int)n : 1;
}

bool parse_cpu(const char *arg, int *cpu)
{
	char *end;
	long n;

	errno = 0;
	n = strtol(arg, &end, 10);
	if (errno || end == arg || *end || n < 0 || n >= possible_cpus())
		return false;
	*cpu = (int)n;
	return true;
}

const char *group_digits(unsigned long long value, char *buf, size_t len)
{
	char plain[32];
	size_t n = (size_t)snprintf(plain, sizeof(plain), "%llu", value), o = 0;

	for (size_t i = 0; i < n && o + 1 < len; i++) {
		if (i && (n - i) % 3 == 0 && o + 2 < len)
			buf[o++] = ',';
		buf[o++] = plain[i];
	}
	buf[o] = '\0';
	return buf;
}

static void explain_access(void)
{
	struct group *gr;
	struct stat st;

	if (stat(DEVICE_PATH, &st)) {
		fail("cannot open " DEVICE_PATH ": %s", strerror(errno));
		return;
	}
	gr = getgrgid(st.st_gid);
	if (!gr || st.st_gid == 0 || !(st.st_mode & S_IRGRP)) {
		fail("permission denied: " DEVICE_PATH " is mode %04o for its owner only; an administrator can give it to a group (udev rule 60-armpmu.rules)",
		     (unsigned int)(st.st_mode & 07777));
		return;
	}
	fail("permission denied: " DEVICE_PATH " (mode %04o) is for group '%s'; ask an administrator to add you to it (usermod -aG %s USER), then log in again",
	     (unsigned int)(st.st_mode & 07777), gr->gr_name, gr->gr_name);
}

void explain_open_error(int err, int cpu)
{
	switch (err) {
	case 0:
		break;
	case -ENOENT:
		fail(DEVICE_PATH " does not exist: the armpmu module is not loaded (pmuctl load, as root)");
		break;
	case -EPERM:
		/* The driver's rule for BIND: a whole CPU shows other users' work. */
		if (cpu != PMUDEV_CPU_ANY) {
			fail("whole-CPU counting needs CAP_PERFMON or CAP_SYS_ADMIN, or armpmu's cpu_mode_for_all=1");
			break;
		}
		/* fall through */
	case -EACCES:
		explain_access();
		break;
	case -EBUSY:
		if (cpu == PMUDEV_CPU_ANY)
			fail("this thread is already counted by another armpmu file");
		else
			fail("CPU %d's PMU is owned by another program (see pmuctl status)", cpu);
		break;
	case -ENXIO:
		fail("CPU %d is offline", cpu);
		break;
	case -ENODEV:
		fail("CPU %d has no PMU armpmu can use", cpu);
		break;
	default:
		fail("cannot open " DEVICE_PATH ": %s", pmudev_strerror(err));
		break;
	}
}

int open_pmu(struct pmudev **pmu, int cpu, unsigned int flags)
{
	int err = pmudev_open(pmu, cpu, flags);

	explain_open_error(err, cpu);
	return err ? EXIT_FAILURE : 0;
}

const char *core_event_name(uint32_t midr, uint32_t number)
{
	const struct pmudev_event_info *ev;

	for (unsigned int i = 0; (ev = pmudev_core_event(midr, i)); i++)
		if (ev->number == number)
			return ev->name;
	return pmudev_event_name(number);
}

/* The errors of opening the device, as opposed to asking it about a CPU. */
static bool open_error(int err)
{
	return err == -ENOENT || err == -EACCES || err == -EPERM || err == -EBUSY;
}

int cpu_pmu_info(int *cpu, struct armpmu_info *info)
{
	struct armpmu_cpu_status st;
	struct pmudev *pmu;
	int err;

	if (*cpu < 0)
		*cpu = sched_getcpu();
	err = pmudev_open(&pmu, PMUDEV_CPU_ANY, PMUDEV_OPEN_UNBOUND);
	if (err)
		return err;
	err = pmudev_cpu_status(pmu, *cpu, &st);
	pmudev_close(pmu);
	if (!err && !(st.flags & ARMPMU_CPU_USABLE))
		err = -ENODEV;
	if (!err)
		*info = st.info;
	return err;
}

int explain_cpu_pmu_error(int err, int cpu)
{
	if (open_error(err))
		explain_open_error(err, PMUDEV_CPU_ANY);
	else if (err == -ENODEV)
		fail("CPU %d has no PMU armpmu can use", cpu);
	else
		fail("CPU %d: %s", cpu, pmudev_strerror(err));
	return EXIT_FAILURE;
}

const char *core_name(const struct armpmu_info *info)
{
	const char *core = pmudev_core_name(info->midr);

	return core ? core : "unknown core";
}
