/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the parts of isolation-test share: the programs lab executes, the
 * options (set in tests/guest/isolation-test.c) and each part's functions.
 * tests/guest/isolation-test.c runs the attacks in order; each is one file
 * of this folder.
 */
#ifndef ARMPMU_ISOLATION_TEST_COMMON_H
#define ARMPMU_ISOLATION_TEST_COMMON_H

#include <fcntl.h>
#include <getopt.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <time.h>
#include <linux/capability.h>
#include <linux/kcmp.h>

#include "../checks.h"
#include "../users.h"

#define EXCL_K			ARMPMU_EXCLUDE_KERNEL
#define DIR			"/tmp/isolation"
#define LOOP_PROG		"/usr/local/bin/exact-loop"
/* exact-loop retires 200000 user instructions per argument. */
#define LOOP_ARGS		300
#define LOOP_INSNS		(2ULL * 100000 * LOOP_ARGS)

#define CPU1_ONLINE		"/sys/devices/system/cpu/cpu1/online"

enum variant { PLAIN, SETUID, SETGID, UNREADABLE, FILE_CAPS, NR_VARIANTS };

static const struct {
	const char *name, *path;
	mode_t mode;
} variants[NR_VARIANTS] = {
	[PLAIN] = { "a plain program", DIR "/plain", 0755 },
	[SETUID] = { "a set-user-ID-root program", DIR "/setuid", 04755 },
	[SETGID] = { "a set-group-ID-root program", DIR "/setgid", 02755 },
	[UNREADABLE] = { "a program lab may execute but not read", DIR "/unreadable", 0711 },
	[FILE_CAPS] = { "a program with file capabilities", DIR "/filecaps", 0755 },
};

/* The options: --icount, not --no-counting. */
extern bool icount, counting;

/* Why the file-capability program is missing, if it is. */
extern int fcaps_err;

/* --soak's seconds, 0: no soak. */
extern unsigned int soak_secs;

/* programs.c */
__u32 work_event(void);
int make_programs(void);
void remove_programs(void);
void exec_loop(const char *path);
bool become_lab(void);
int as_lab(void (*fn)(void *res), void *res, size_t size);
int program_work(int fd);
int start_work(int fd);

/* exec.c */
void exec_by_attach(void *arg);
void exec_by_follow(void *arg);
void test_exec(const char *how, void (*fn)(void *res));
void test_exec_as_root(void);
int handed_main(void);
void test_handed(void);

/* ptrace.c */
void test_ptrace_rule(void);

/* remains.c */
void test_registers_after_close(void);
void test_exit_race(unsigned int cold);

/* wrap.c */
void test_wrap_across_hotplug(void);

/* soak.c */
void test_soak(void);

#endif
