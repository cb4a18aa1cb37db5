// mark1.s - one mark, then halt: toggles a MARK-triggered freeze group
// once (2 microwords, 1 instruction retired).  vpmu_freeze uses it to
// open and close a region across separate runs.

	.entry start

start:	mark
	halt
