// SPDX-License-Identifier: GPL-2.0
/*
 * timed.c - a program that times itself: clock() (the runtime's: the
 * cycle counter, one rdcycle) before and after a qsort, and the
 * difference printed.  perf stat counts the same figure between the
 * same two reads, with a group thawed and frozen by the reads' csr tag
 * (Documentation/vpmu/rv32.rst, "The counters"):
 *
 *   perf stat -e vpmu/vpmu_cycles,trig_tag=12,frozen=1/ vpmu-run timed.elf
 *
 * Under qemu-riscv32 clock() is the host's ticks.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define N	1000

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

int main(void)
{
	static int v[N];
	unsigned int s = 1;
	clock_t t0, t1;
	int i;

	for (i = 0; i < N; i++) {
		s = s * 1103515245u + 12345u;
		v[i] = (int)(s >> 8);
	}
	t0 = clock();
	qsort(v, N, sizeof(v[0]), cmp_int);
	t1 = clock();
	for (i = 1; i < N; i++)
		if (v[i - 1] > v[i])
			return 1;
	printf("qsort of %d ints: %lu cycles\n", N, (unsigned long)(t1 - t0));
	return 0;
}
