/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A sampled thread's user registers on an arm64 kernel, for its call chain
 * (callchain.c): arm/user_regs.h has the same helpers for 32-bit kernels,
 * with the same contract. Accessors only; what to do with them is
 * callchain.c's.
 */
#ifndef ARMPMU_ARM64_USER_REGS_H
#define ARMPMU_ARM64_USER_REGS_H

#include <linux/ptrace.h>
#include <asm/compiler.h>
#include <asm/pointer_auth.h>

/* AArch64 code keeps frame records {next x29, x30}; an AArch32 thread's are not walkable. */
static inline bool user_frames_walkable(const struct pt_regs *regs)
{
	return !compat_user_mode(regs);
}

static inline u64 user_frame_pointer(const struct pt_regs *regs)
{
	return regs->regs[29];
}

static inline u64 user_link_register(const struct pt_regs *regs)
{
	return compat_user_mode(regs) ? regs->compat_lr : regs->regs[30];
}

/* A return address as code holds it, its pointer-authentication code taken off. */
static inline u64 user_code_address(u64 addr)
{
#ifdef ptrauth_strip_user_insn_pac	/* Linux 6.4 on */
	return ptrauth_strip_user_insn_pac(addr);
#else
	return ptrauth_strip_insn_pac(addr);
#endif
}

#endif /* ARMPMU_ARM64_USER_REGS_H */
