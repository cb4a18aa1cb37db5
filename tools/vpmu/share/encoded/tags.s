// tags.s - every tag 1..7 of the encoded sample microcode (encoded.vus:
// a 3-bit encoded event field, one tag per microword); assemble and run
// it with that image: vpmu-as -m encoded.vpmu, vpmu-sim -m encoded.vpmu.
//
//   tag  name   microword                        times
//   1    fetch  first of li, ldw, sext8            3 + 1 + 3 = 7
//   2    mem    LW of ldw                          1
//   3           MODE of stop                       1
//   4    pos    sext8 of a value >= 0 (5 and 0)    2
//   5    neg    sext8 of a negative value (0x80)   1
//   6           stop's HALT when Z is set          1 (sext8 r4 set it)
//   7    jump   jmp                                1

	.entry start

start:	li r1, 5
	ldw r2, data
	sext8 r1		// 5: tag 4
	li r3, 0x80
	sext8 r3		// -128: tag 5
	li r4, 0
	jmp next		// tag 7, and a trigger
	stop			// jumped over
next:	sext8 r4		// 0: tag 4, Z set
	stop			// tag 3, then DISP on Z: HALT with tag 6
data:	.word 0x12345678
