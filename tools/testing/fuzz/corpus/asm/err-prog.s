	add r1, r2, r32
	beq r1, r2, 6
	.space later
	.equ later, 4
	lw r1, 4, r2
