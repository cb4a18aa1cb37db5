// wait.s - the external signal line, driven by the run: "wait" spins in
// microcode until the line is asserted (encoded.vus), counting its polls
// in r1.  Run it on the encoded sample microcode with the line asserted
// from the start (vpmu-run -x, VPMU_RUN_F_EXT: r1 = 1, wait.expect) or
// asserted after N cycles (vpmu-run --ext-at=N, run.ext_at: r1 grows by
// one every 2 cycles).  With the line never asserted it spins to the end
// of its budget.

	.entry start

start:	wait r1
	li r2, 7
	stop
