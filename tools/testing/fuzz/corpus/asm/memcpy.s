// memcpy.s - copy 16 words from src to dst with a word loop, then check
// the copy with a byte loop (lbu), leaving the number of mismatches in r5.
//
// Loads go through the data cache (16-byte lines, 8-cycle miss penalty):
// the copy loop misses once per line of src (4 misses), the check loop
// once per line of src and dst it has not touched since (dst: 4 misses;
// src lines are still cached).  Stores go through the write queue, which
// the loop's spacing never fills.

	.equ WORDS, 16
	.entry start
	.memsize 0x400

start:	addi r1, r0, src	// r1 = source
	addi r2, r0, dst	// r2 = destination
	addi r3, r0, WORDS	// r3 = words left
copy:	lw r4, 0(r1)
	sw r4, 0(r2)
	addi r1, r1, 4
	addi r2, r2, 4
	addi r3, r3, -1
	bne r3, r0, copy

	addi r1, r0, src	// compare byte by byte
	addi r2, r0, dst
	addi r3, r0, WORDS * 4
	addi r5, r0, 0		// r5 = mismatches
check:	lbu r6, 0(r1)
	lbu r7, 0(r2)
	beq r6, r7, same
	addi r5, r5, 1
same:	addi r1, r1, 1
	addi r2, r2, 1
	addi r3, r3, -1
	bne r3, r0, check
	halt

	.align 16
src:	.word 0x03020100, 0x07060504, 0x0b0a0908, 0x0f0e0d0c
	.word 0x13121110, 0x17161514, 0x1b1a1918, 0x1f1e1d1c
	.word 0xdeadbeef, 0xcafef00d, -1, 0x80000000
	.word 1, 2, 3, 4
dst:	.space WORDS * 4
