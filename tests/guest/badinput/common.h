/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the parts of badinput-test share: CPU 0's INFO and whose turn it
 * is (set in tests/guest/badinput-test.c), where an argument can point, and
 * each part's functions. tests/guest/badinput-test.c runs the walks in order;
 * each theme is one file of this folder.
 */
#ifndef ARMPMU_BADINPUT_TEST_COMMON_H
#define ARMPMU_BADINPUT_TEST_COMMON_H

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <linux/armpmu.h>

#include "../devio.h"
#include "../tap.h"
#include "../users.h"

#define EXCL_K			ARMPMU_EXCLUDE_KERNEL
#define EXCL_U			ARMPMU_EXCLUDE_USER
#define CPU1_ONLINE		"/sys/devices/system/cpu/cpu1/online"
#define ARRAY_SIZE(a)		(sizeof(a) / sizeof((a)[0]))

enum where {
	ARG_ALIGNED,		/* a valid argument, naturally aligned */
	ARG_MISALIGNED,		/* the same, one byte off alignment */
	ARG_READ_ONLY,		/* the same, in a read-only page */
	ARG_NULL,
	ARG_UNMAPPED,		/* a page with nothing mapped */
	ARG_PAST_MAPPING,	/* its last byte in an unmapped page */
	ARG_KERNEL_TOP,		/* the top page of the address space */
	ARG_KERNEL_LOW,		/* the kernel's own mapping */
	ARG_WHERE_COUNT
};

extern long page_size;
extern unsigned int num_counters, event_bits;
extern int last_cpu;			/* highest possible CPU */
extern bool native32;			/* a 32-bit program on a 32-bit kernel */
extern bool can_filter, can_divide;	/* CPU 0's INFO */
extern enum guest_user who;		/* whose turn it is */

/* The TAP count is kept in memory the child shares with us. */
extern struct tap_state *shared_tap;

/* place.c */
void *kernel_address(void);
void *unmapped_address(void);
void *place_arg(enum where w, const void *arg, size_t size, void **map);
void unplace_arg(void *map);

/* pointers.c */
int filtered(int want);
__u32 root_excl_k(void);
int on_fresh_file(unsigned long req, void *arg);
void walk_pointers(void);

/* fields.c */
int u32_on_fresh(unsigned long req, __u32 val);
void row(int got, int want, const char *what, unsigned long long value);
void walk_reserved(void);
void walk_flags(void);
void walk_ranges(void);

/* multiplex.c */
void walk_multiplex(void);

/* files.c */
void walk_enotty(void);
void walk_read(void);
void walk_file_ops(void);

/* users.c */
void walk_matrix(void);
bool in_child(enum guest_user as, void (*fn)(void));
void walk_offline(void);
void walk_owners(void);

#endif
