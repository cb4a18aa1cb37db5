// SPDX-License-Identifier: GPL-2.0
/*
 * hello.c - an ordinary C program for vpmu, with Debian's picolibc:
 * printf, malloc, qsort, setjmp/longjmp, 64-bit and soft-float
 * arithmetic.  Built by tools/vpmu's make rv32libc:
 *
 *   riscv64-unknown-elf-gcc --specs=share/build/rv32libc/vpmu.specs \
 *	-march=rv32imac -mabi=ilp32 -O2 -o hello.elf hello.c
 *
 * and run by vpmu-sim -m rv32im.vpmu hello.elf, vpmu-run hello.elf and
 * qemu-riscv32 hello.elf with the same output and exit status (3).
 */
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

static jmp_buf env;

static int deep(int n)
{
	if (n < 0)
		return n;
	if (n == 0)
		longjmp(env, 42);
	return deep(n - 1) + 1;
}

int main(void)
{
	int n = 64, i, *v = malloc(n * sizeof(*v));
	uint64_t x = 0x123456789abcdefULL;
	double sum = 0;
	char *s;
	int r;

	if (!v)
		return 1;
	for (i = 0; i < n; i++)
		v[i] = (i * 7919) % 101 - 50;
	qsort(v, n, sizeof(*v), cmp_int);
	printf("qsort: %d numbers, min %d, median %d, max %d\n", n, v[0],
	       v[n / 2], v[n - 1]);
	for (i = 0; i < 8; i++)
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
	printf("64-bit: %llx, / 1000003 = %llu\n", (unsigned long long)x,
	       (unsigned long long)(x / 1000003));
	for (i = 1; i <= 20; i++)
		sum += 1.0 / ((double)i * i);
	printf("soft-float: sum 1/i^2 for i = 1..20 = %.9f\n", sum);
	s = malloc(32);
	if (!s)
		return 1;
	snprintf(s, 32, "%s-%d", "malloc", 32);
	printf("string: %s (%zu bytes)\n", s, strlen(s));
	r = setjmp(env);
	if (!r)
		r = deep(10);
	printf("setjmp: longjmp from 10 calls deep returned %d\n", r);
	free(s);
	free(v);
	return 3;
}
