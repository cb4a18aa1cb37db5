/* SPDX-License-Identifier: GPL-2.0 */
/*
 * start.S - the entry point of the RV32 C samples: no C library, the
 * Linux system calls by ecall.  The same binary runs under qemu-riscv32
 * and on the engine (vpmu-sim -m rv32im.vpmu): the stack and gp are the program's
 * own, so every register starts the same on both.  Built by tools/vpmu
 * "make rv32" with the samples beside it.
 */
	.section .text.start, "ax"
	/* programs start on a word (VPMU_IOC_RUN), compressed code too */
	.balign 4
	.globl _start
_start:
	.option push
	.option norelax
	la	gp, __global_pointer$
	.option pop
	la	sp, rv_stack_top
	call	main
	/* exit(main()); the tests read the registers at this ecall */
	li	a7, 93
	.globl	rv_exit_ecall
rv_exit_ecall:
	ecall

	.bss
	.balign 16
	.space	16384
rv_stack_top:
