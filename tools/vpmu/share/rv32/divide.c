// SPDX-License-Identifier: GPL-2.0
/*
 * divide.c - division: gcd by remainders, integer square roots by
 * Newton's method, decimal digits, and the signed and unsigned corner
 * cases (rounding towards zero, remainders' signs, INT_MIN / -1 and
 * division by zero, whose RISC-V results the M extension defines).
 * volatile keeps GCC from folding the operations at compile time.
 */
#include "rv.h"

static u32 gcd(u32 a, u32 b)
{
	while (b) {
		u32 t = a % b;

		a = b;
		b = t;
	}
	return a;
}

static u32 isqrt(u32 n)
{
	u32 x = n, y;

	if (n < 2)
		return n;
	y = x / 2 + (x & 1);
	while (y < x) {
		x = y;
		y = (x + n / x) / 2;
	}
	return x;
}

static int digit_sum(u32 v)
{
	int s = 0;

	while (v) {
		s += v % 10;
		v /= 10;
	}
	return s;
}

int main(void)
{
	static volatile s32 sv[] = { 7, -7, 2, -2, 0, -2147483647 - 1, -1 };
	s32 x = sv[5], m1 = sv[6], z = sv[4];
	u32 i, acc = 0;

	rv_putd(gcd(1071, 462), " ");
	rv_putd(gcd(2147483646u, 1836311903u), "\n");
	for (i = 0; i < 2000; i += 7)
		acc += isqrt(i * i * 13u + i);
	rv_putd(acc, " ");
	rv_putd(isqrt(0xffffffffu), "\n");
	rv_putd(digit_sum(4294967295u), "\n");
	rv_putd(sv[0] / sv[3], " ");
	rv_putd(sv[1] / sv[2], " ");
	rv_putd(sv[1] % sv[2], " ");
	rv_putd(sv[0] % sv[3], "\n");
	rv_putd(x / m1, " ");
	rv_putd(x % m1, " ");
	rv_putd(sv[1] / z, " ");
	rv_putd(sv[1] % z, " ");
	rv_putx((u32)sv[1] / (u32)z, " ");
	rv_putx((u32)sv[1] % (u32)z, "\n");
	return 0;
}
