// sort.s - insertion sort of eight signed words in place, then a call to
// a subroutine that checks the order (r10 = 1 if sorted).
//
//	for (i = 1; i < n; i++) {
//		x = a[i];
//		for (j = i; j > 0 && a[j - 1] > x; j--)
//			a[j] = a[j - 1];
//		a[j] = x;
//	}

	.equ N, 8
	.entry start
	.memsize 0x200

start:	addi r2, r0, 0x1f0	// stack pointer (unused, by convention)
	addi r8, r0, array	// r8 = a
	addi r9, r0, N		// r9 = n
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
	halt

// r10 = 1 if a[0..n) is non-decreasing, else 0.  Clobbers r11..r13.
sorted:	addi r10, r0, 1
	addi r11, r8, 0
	slli r12, r9, 2
	add r12, r8, r12
	addi r12, r12, -4	// r12 = &a[n - 1]
chk:	beq r11, r12, out
	lw r13, 0(r11)
	lw r14, 4(r11)
	bge r14, r13, ok
	addi r10, r0, 0
ok:	addi r11, r11, 4
	j chk
out:	ret

	.align 16
array:	.word 5, -3, 42, 0, 7, -100, 7, 1
