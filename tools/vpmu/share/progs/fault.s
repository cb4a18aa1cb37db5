// fault.s - a load outside memory: the run stops with a load fault at
// address 0x10000 (memory is 4 KiB).
	.entry start
start:	lui r3, 1		// r3 = 0x10000
	lw r4, 0(r3)
	halt
