// sum.s - r2 = 1 + 2 + ... + N, counting down; the loop sample.
//
// Cycle count on the default microcode (vpmu32), from the microword
// table in Documentation/vpmu/toolchain.rst (no loads or stores, so no
// stall cycles: cycles == microwords):
//
//   addi x2                    2 x 5                 =  10
//   loop body, N times:        add 6 + addi 5        = 11 N
//   bne taken N-1 times        6 (N-1)
//   bne not taken once         4
//   halt                       1
//   total                      11 N + 6 (N-1) + 15   = 17 N + 9
//
// N = 10: 179 cycles, 179 microwords; 2 + 3 N = 32 instructions retired
// (halt stops the engine and does not retire).

	.equ N, 10
	.entry start

start:	addi r1, r0, N		// r1 = n
	addi r2, r0, 0		// r2 = sum
loop:	add r2, r2, r1
	addi r1, r1, -1
	bne r1, r0, loop
	halt
