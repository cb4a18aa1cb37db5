// SPDX-License-Identifier: GPL-2.0
/* fib.c - recursion: the naive Fibonacci numbers, calls and returns. */
#include "rv.h"

static int fib(int n)
{
	return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

int main(void)
{
	int i;

	for (i = 0; i <= 20; i += 5) {
		rv_puts("fib(");
		rv_putd(i, ") = ");
		rv_putd(fib(i), "\n");
	}
	return 0;
}
