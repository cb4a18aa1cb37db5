// SPDX-License-Identifier: GPL-2.0
/*
 * sort.c - sorting: 200 pseudo-random numbers (a linear congruential
 * generator) by quicksort and by insertion sort, checked against each
 * other; prints a checksum and the extremes.
 */
#include "rv.h"

#define N	200

static s32 a[N], b[N];

static u32 seed = 12345;

static s32 next_rand(void)
{
	seed = seed * 1103515245u + 12345u;
	return (s32)(seed >> 1) - 0x20000000;
}

static void quicksort(s32 *v, int lo, int hi)
{
	while (lo < hi) {
		s32 p = v[(lo + hi) / 2], t;
		int i = lo, j = hi;

		while (i <= j) {
			while (v[i] < p)
				i++;
			while (v[j] > p)
				j--;
			if (i <= j) {
				t = v[i];
				v[i++] = v[j];
				v[j--] = t;
			}
		}
		/* recurse into the smaller part, loop on the larger */
		if (j - lo < hi - i) {
			quicksort(v, lo, j);
			lo = i;
		} else {
			quicksort(v, i, hi);
			hi = j;
		}
	}
}

static void insertion_sort(s32 *v, int n)
{
	int i, j;

	for (i = 1; i < n; i++) {
		s32 x = v[i];

		for (j = i - 1; j >= 0 && v[j] > x; j--)
			v[j + 1] = v[j];
		v[j + 1] = x;
	}
}

int main(void)
{
	u32 sum = 0;
	int i;

	for (i = 0; i < N; i++)
		a[i] = b[i] = next_rand();
	quicksort(a, 0, N - 1);
	insertion_sort(b, N);
	for (i = 0; i < N; i++) {
		if (a[i] != b[i]) {
			rv_puts("mismatch at ");
			rv_putd(i, "\n");
			return 1;
		}
		sum = sum * 31 + (u32)a[i];
	}
	rv_puts("sorted ");
	rv_putd(N, " numbers, min ");
	rv_putd(a[0], ", max ");
	rv_putd(a[N - 1], ", checksum ");
	rv_putx(sum, "\n");
	return 0;
}
