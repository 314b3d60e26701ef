/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pmuctl: what the subcommands share (common.c), and the subcommands.
 *
 * One error convention throughout: a function that can fail returns 0 on
 * success. If it tells the user why it failed (fail(), usage_error()), it
 * returns the exit status pmuctl is to end with, which its caller returns
 * in turn; if it does not, it returns a negative errno, as libpmudev does,
 * and its caller says why. --help prints and exits.
 */
#ifndef PMUCTL_H
#define PMUCTL_H

#include <stdbool.h>
#include <stdio.h>
#include <pmudev.h>

/* Exit statuses, as pmuctl(1) documents them. */
#define EXIT_USAGE	2

#define DEVICE_PATH	ARMPMU_DEVICE_PATH

/* "pmuctl SUBCOMMAND: message" on stderr. */
void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The same; returns EXIT_FAILURE. */
int fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The same, then "Try 'pmuctl SUBCOMMAND --help'."; returns EXIT_USAGE. */
int usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* The subcommand running, for messages. */
extern const char *subcommand;

/*
 * Opens the device (see pmudev_open()). On failure, says why in words a
 * user can act on (load the module, join the group, the privilege CPU
 * mode needs, who holds the PMU) and returns EXIT_FAILURE.
 */
int open_pmu(struct pmudev **pmu, int cpu, unsigned int flags);
/* open_pmu()'s message for pmudev_open()'s error @err (0: none). */
void explain_open_error(int err, int cpu);

/* Parses a CPU number for -C: 0 and up, below the configured CPUs. */
bool parse_cpu(const char *arg, int *cpu);
/* How many CPUs the kernel may bring online. */
int possible_cpus(void);

/* "12,345,678": @value with thousands separators, in @buf. */
const char *group_digits(unsigned long long value, char *buf, size_t len);

/*
 * Parses the options of a subcommand that takes only [-C CPU]: returns 0
 * to go on, or the exit status of a usage error; prints @help and exits
 * for --help.
 */
int parse_cpu_option(int argc, char **argv, int *cpu, const char *help);

/*
 * Which core list and explain answer for: -C CPU (cpu_given) or --core
 * CORE (core), at most one of them.
 */
struct core_choice {
	int cpu;		/* -1: the CPU running */
	bool cpu_given;
	const char *core;	/* NULL: the core of cpu */
};

/*
 * Takes getopt_long()'s @opt if it is -C ('C') or --core ('c'): returns
 * true and sets *@status to 0, or to the exit status of a usage error.
 * False for any other option.
 */
bool core_choice_option(struct core_choice *c, int opt, const char *arg, int *status);

/*
 * The usage error for getopt_long()'s @opt ':' (a missing argument) or '?'
 * (an unknown option), one message naming the option; for option strings
 * that start with ':' and opterr 0, so that getopt says nothing itself.
 */
int option_error(int opt, char **argv);

/* Whether argv (after the subcommand) asks for --help or -h. */
bool wants_help(int argc, char **argv);

/*
 * The PMU of CPU *@cpu (-1: the one running, then stored in *@cpu), through
 * the device: 0, or the open's or the status's negative errno, -ENODEV for
 * a CPU without a PMU armpmu can use.
 */
int cpu_pmu_info(int *cpu, struct armpmu_info *info);
/* Says why cpu_pmu_info() failed with @err for CPU @cpu; returns EXIT_FAILURE. */
int explain_cpu_pmu_error(int err, int cpu);

/* "Cortex-A72", or "unknown core". */
const char *core_name(const struct armpmu_info *info);

/* The name core @midr's table gives event @number, else the architecture's, or NULL. */
const char *core_event_name(uint32_t midr, uint32_t number);


int cmd_load(int argc, char **argv);
int cmd_unload(int argc, char **argv);
int cmd_status(int argc, char **argv);
int cmd_info(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_stat(int argc, char **argv);
int cmd_record(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_explain(int argc, char **argv);
int cmd_regs(int argc, char **argv);
int cmd_reset(int argc, char **argv);

#endif /* PMUCTL_H */
