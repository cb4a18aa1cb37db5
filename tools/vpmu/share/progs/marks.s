// marks.s - a loop of N passes, each with a region between two mark
// instructions: what trigger-controlled counting is tested on.  mark is
// one microword with the trigger bit (T); a freeze group triggered by
// it toggles on each, before that microword's events are counted, so a
// group started frozen counts [first mark, second mark) of every pass.
//
// Microwords on the default microcode (Documentation/vpmu/toolchain.rst):
//
//   addi                        5
//   each pass:  mark 1, add 6, add 6, addi 5   (the region: 18, 4 insns)
//               mark 1, addi 5, addi 5          (outside: 11, 3 insns)
//               bne 6 taken, 4 the last time    (outside, 1 insn)
//   halt                        1
//   total       5 + 35 N - 2 + 1 = 35 N + 4 microwords = cycles
//               (no memory access: no stalls); 8 N + 1 instructions
//
// N = 1000: 35004 microwords, 8001 instructions; the regions hold
// 18000 microwords, 4000 instructions and 1000 trigger microwords.

	.equ N, 1000
	.entry start

start:	addi r1, r0, N
loop:	mark
	add r2, r2, r1
	add r3, r3, r2
	addi r4, r4, 1
	mark
	addi r5, r5, 3
	addi r1, r1, -1
	bne r1, r0, loop
	halt
