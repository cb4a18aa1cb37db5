x:	.word x, . + 4, (1 << 31) / -1, 7 % 0
	.asciz "a\x41\n"
	.align 8
