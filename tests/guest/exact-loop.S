/* SPDX-License-Identifier: GPL-2.0 */
/*
 * exact-loop [ARG...]: a whole program of known size, for pmuctl stat's
 * exactness test. No C library: from its first instruction to its exit
 * system call it retires exactly 2 * 100000 * argc + 7 user instructions
 * on AArch64 and 2 * 100000 * argc + 6 on 32-bit ARM (the SVC included).
 */
	.text
	.globl	_start
#if defined(__aarch64__)
_start:
	ldr	x0, [sp]		/* argc */
	movz	x1, #0x86a0		/* 100000 */
	movk	x1, #0x1, lsl #16
	mul	x0, x0, x1
1:	subs	x0, x0, #1
	b.ne	1b
	mov	x0, #0
	mov	x8, #94			/* exit_group */
	svc	#0
#elif defined(__arm__)
	.arm
_start:
	ldr	r0, [sp]		/* argc */
	ldr	r1, =100000
	mul	r0, r0, r1
1:	subs	r0, r0, #1
	bne	1b
	mov	r0, #0
	mov	r7, #248		/* exit_group */
	svc	#0
	.ltorg
#else
#error "exact-loop is ARM code"
#endif
	.section .note.GNU-stack, "", %progbits
