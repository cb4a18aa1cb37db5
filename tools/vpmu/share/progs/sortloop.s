// sortloop.s - the benchmark workload (make bench, vm-bench, perf-bench):
// insertion sort of sixteen words in descending order, checked by a
// subroutine, refilled and sorted again forever.  It never halts, so a
// run lasts exactly its budget; loads, stores, branches, calls and
// R-type dispatch all take part.

	.equ N, 16
	.entry start
	.memsize 0x400

start:	addi r8, r0, array	// r8 = a
	addi r9, r0, N		// r9 = n
	addi r3, r0, 0
	addi r4, r8, 0
fill:	sub r5, r9, r3		// a[i] = n - i
	sw r5, 0(r4)
	addi r4, r4, 4
	addi r3, r3, 1
	blt r3, r9, fill
	addi r3, r0, 1		// r3 = i
outer:	bge r3, r9, done
	slli r4, r3, 2
	add r4, r8, r4		// r4 = &a[i]
	lw r5, 0(r4)		// r5 = x
inner:	beq r4, r8, place	// j == 0
	lw r6, -4(r4)		// a[j - 1]
	bge r5, r6, place	// a[j - 1] <= x
	sw r6, 0(r4)
	addi r4, r4, -4
	j inner
place:	sw r5, 0(r4)
	addi r3, r3, 1
	j outer
done:	call sorted
	addi r20, r20, 1	// passes completed
	j start

// r10 = 1 if a[0..n) is non-decreasing, else 0.
sorted:	addi r10, r0, 1
	addi r11, r8, 0
	slli r12, r9, 2
	add r12, r8, r12
	addi r12, r12, -4
chk:	beq r11, r12, out
	lw r13, 0(r11)
	lw r14, 4(r11)
	bge r14, r13, ok
	addi r10, r0, 0
ok:	addi r11, r11, 4
	j chk
out:	ret

	.align 16
array:	.word 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
