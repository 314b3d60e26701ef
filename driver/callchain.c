// SPDX-License-Identifier: GPL-2.0
/*
 * Call chains of user-mode samples (ARMPMU_SAMPLING_CALLCHAIN; uapi/
 * linux/armpmu.h says what a chain holds): the sampled thread's frame
 * records, walked from its frame pointer up the stack.
 *
 * Locking: none of its own. The walk runs in the sampling tick, in hard
 * interrupt context on the sampled thread's CPU, under its file's
 * count_lock (sampling.c), into the file's scratch: it reads user memory
 * only with copy_from_user_nofault (a page not present ends the walk; no
 * fault, no sleep), at most @max frames, each above the one before, so it
 * ends in bounded time whatever the thread wrote into its stack.
 */
#include <linux/minmax.h>
#include <linux/moduleparam.h>
#include <linux/uaccess.h>
#include "armpmu.h"
#include "user_regs.h"

/* perf's own default for kernel.perf_event_max_stack. */
static unsigned int sample_max_stack = 127;
module_param(sample_max_stack, uint, 0644);
MODULE_PARM_DESC(sample_max_stack,
		 "most return addresses a sample's call chain may hold: SET_SAMPLING refuses a larger max_stack with E2BIG (default 127, at most 4096)");

/* The deepest chain a file may ask for now. */
u32 armpmu_callchain_max(void)
{
	return min_t(u32, READ_ONCE(sample_max_stack), ARMPMU_MAX_STACK_LIMIT);
}

/* A code address of the user's, or 0: nothing else enters a chain. */
static u64 user_code(u64 addr)
{
	addr = user_code_address(addr);
	return addr && access_ok((const void __user *)(uintptr_t)addr, 4) ? addr : 0;
}

/*
 * Walks @regs' frame records into @ret, at most @max return addresses,
 * innermost first; sets @chain's nr, flags and lr. On a 64-bit kernel
 * only: a 32-bit one has no frames it could walk (user_regs.h).
 */
void armpmu_callchain_walk(struct pt_regs *regs, u64 *ret, u32 max,
			   struct armpmu_callchain *chain)
{
	u64 fp = user_frame_pointer(regs), lowest = user_stack_pointer(regs), record[2];
	u32 n = 0;

	chain->lr = user_code(user_link_register(regs));
	chain->flags = 0;
	if (!user_frames_walkable(regs)) {
		chain->nr = 0;
		chain->flags = ARMPMU_CHAIN_NO_FRAMES;
		return;
	}
	while (fp) {
		u64 addr;

		if (n == max || fp % 8 || fp < lowest || fp > U64_MAX - sizeof(record) ||
		    copy_from_user_nofault(record, (const void __user *)(uintptr_t)fp,
					   sizeof(record))) {
			chain->flags = ARMPMU_CHAIN_CUT;
			break;
		}
		/* The outermost record (glibc's _start) is {0, 0}. */
		if (!record[0] && !record[1])
			break;
		addr = user_code(record[1]);
		if (!addr) {
			chain->flags = ARMPMU_CHAIN_CUT;
			break;
		}
		ret[n++] = addr;
		lowest = fp + sizeof(record);
		fp = record[0];
	}
	chain->nr = n;
}
