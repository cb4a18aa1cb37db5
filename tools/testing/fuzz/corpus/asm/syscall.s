// syscall.s - user -> supervisor -> user.  The program starts in user
// mode, asks the supervisor (sys 1) to store a value into a "protected"
// word, gets control back after sys, and then tries sret itself, which
// is privileged: the engine stops with TRAP 2.
//
// sys n enters supervisor mode at 16 * n with the return address saved;
// sret returns to it in user mode.

	.entry start

	.org 0x10		// sys 1 vector
handler:
	addi r3, r0, 42		// supervisor work
	sw r3, 0(r4)		// store where user code asked
	sret

	.org 0x40
start:	addi r4, r0, slot	// argument: the address
	sys 1
	lw r5, 0(r4)		// back in user mode: r5 = 42
	sret			// privileged: TRAP 2
	halt			// not reached

	.align 16
slot:	.word 0
