// calls.s - N calls of a one-instruction function: a tag trigger test.
// Tag 8 (call) is on the microword of jal and jalr that writes the link
// register, the second of jal's 5 and the fifth of jalr's 6.  A freeze
// group triggered by tag 8 and started frozen therefore counts, per call,
// jal's microwords 2-5 (4, with jal's EOI), the function's add (6, one
// EOI) and jalr's microwords 1-4 (4, not its EOI): 14 microwords and 2
// instructions a call.
//
//   addi                              5
//   each pass: jal 5, add 6, jalr 6, addi 5, bne 6 (4 the last time)
//   halt                              1
//   total      5 + 28 N - 2 + 1 = 28 N + 4 microwords = cycles;
//              5 N + 1 instructions
//
// N = 500: 14004 microwords, 2501 instructions; the calls hold 7000
// microwords and 1000 instructions.

	.equ N, 500
	.entry start

start:	addi r1, r0, N
loop:	jal r31, func
	addi r1, r1, -1
	bne r1, r0, loop
	halt

func:	add r2, r2, r1
	jalr r0, 0(r31)
