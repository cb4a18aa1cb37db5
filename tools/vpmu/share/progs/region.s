// region.s - the trigger benchmark's workload (make feature-bench): a
// region of 100 microwords, opened and closed by a mark, repeated REPS
// times.
//
// A mark is one microword with the trigger bit.  A counting group that
// starts frozen and toggles on marks (perf's trig_mark=1,frozen=1)
// counts the half-open region from a mark to the next one
// (architecture.rst, "Trigger"): the opening mark and the body, 1 + 99 =
// 100 microwords, none of the loop control.
//
// Microwords (Documentation/vpmu/toolchain.rst; no loads or stores, so
// no stall cycles: cycles == microwords):
//
//   set-up: lui 4 + ori 5                                 =         9
//   per repetition: the region, mark 1 + body 99          =       100
//                   mark 1 + addi 5 + bne taken 6         =        12
//   the last bne is not taken (4, not 6), then halt 1     =        -1
//   total: 9 + 112 REPS - 1 = 11,200,008 for REPS = 100,000
//
// The region alone: entry at "region" (address 8) with a budget of 100
// cycles runs the opening mark and the body once and stops on the budget
// at the closing mark (feature-bench's single-region runs).

	.equ REPS, 100000
	.entry start

start:	lui r20, REPS >> 16		// r20 = repetitions left
	ori r20, r20, REPS & 0xffff
region:	mark				// the region begins: 1
	addi r1, r1, 3			// body: 6 R-type x 6 = 36,
	addi r2, r2, 5			// 11 I-type x 5 = 55,
	add r3, r1, r2			// lui 4 + bne not taken 4
	xor r4, r3, r1			// = 99
	slli r5, r3, 2
	sub r6, r5, r4
	andi r7, r6, 0xff
	or r8, r7, r3
	srli r9, r8, 1
	lui r10, 0x1234
	ori r10, r10, 0x5678
	add r11, r11, r9
	xori r12, r11, 0x55
	and r13, r12, r10
	slti r14, r13, 100
	sltiu r15, r8, 1000
	addi r16, r16, 1
	bne r16, r16, region		// never taken
	srai r17, r6, 3
	mark				// the region ends
	addi r20, r20, -1
	bne r20, r0, region
	halt
