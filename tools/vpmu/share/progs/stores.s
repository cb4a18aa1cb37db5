// stores.s - a burst of 16 word stores back to back, for the write queue
// and the histogram unit's occupancy entries (selftests/vpmu/vpmu_hu.c).
//
// Each sw is 6 microwords; the default microcode's queue (4 entries, one
// drained every 4 cycles) keeps up with that, so there are no stalls: 5
// (addi) + 16 x 6 (sw) + 1 (halt) = 102 cycles and microwords, 17
// instructions retired, 16 stores.  With a slower queue (the selftest
// raises wq_drain) the queue fills and the stores stall.

	.entry start
	.memsize 0x100

start:	addi r1, r0, buf	// r1 = buffer
	sw r1, 0(r1)
	sw r1, 4(r1)
	sw r1, 8(r1)
	sw r1, 12(r1)
	sw r1, 16(r1)
	sw r1, 20(r1)
	sw r1, 24(r1)
	sw r1, 28(r1)
	sw r1, 32(r1)
	sw r1, 36(r1)
	sw r1, 40(r1)
	sw r1, 44(r1)
	sw r1, 48(r1)
	sw r1, 52(r1)
	sw r1, 56(r1)
	sw r1, 60(r1)
	halt

	.align 16
buf:	.space 64
