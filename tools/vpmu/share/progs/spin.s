// spin.s - never halts: a tight two-instruction loop, for runs that must
// be stopped by their budget or by a signal.  Each pass is addi (5
// cycles) + jal (5 cycles): 10 cycles, so r3 counts passes and a run of
// B cycles that starts here ends with r3 = B / 10 (rounded down or up by
// the partial last pass).

	.entry start

start:	addi r3, r3, 1
	j start
