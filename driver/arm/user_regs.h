/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A sampled thread's user registers on a 32-bit kernel, for its call chain
 * (callchain.c), with arm64/user_regs.h's contract. Every thread here runs
 * AArch32 code, whose frames (Thumb-2's above all) cannot be walked from a
 * frame pointer: only the link register is given.
 */
#ifndef ARMPMU_ARM_USER_REGS_H
#define ARMPMU_ARM_USER_REGS_H

#include <linux/ptrace.h>

static inline bool user_frames_walkable(const struct pt_regs *regs)
{
	return false;
}

static inline u64 user_frame_pointer(const struct pt_regs *regs)
{
	return 0;
}

static inline u64 user_link_register(const struct pt_regs *regs)
{
	return regs->ARM_lr;
}

static inline u64 user_code_address(u64 addr)
{
	return addr;
}

#endif /* ARMPMU_ARM_USER_REGS_H */
