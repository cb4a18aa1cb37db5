/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rv.h - what the RV32 C samples have instead of a C library: the Linux
 * write system call, string output and number formatting.
 */
#ifndef RV_H
#define RV_H

typedef unsigned int u32;
typedef int s32;

static inline long rv_write(int fd, const void *buf, unsigned long n)
{
	register long a0 __asm__("a0") = fd;
	register long a1 __asm__("a1") = (long)buf;
	register long a2 __asm__("a2") = (long)n;
	register long a7 __asm__("a7") = 64;

	__asm__ volatile ("ecall" : "+r"(a0) : "r"(a1), "r"(a2), "r"(a7)
			  : "memory");
	return a0;
}

static inline unsigned long rv_strlen(const char *s)
{
	unsigned long n = 0;

	while (s[n])
		n++;
	return n;
}

static inline void rv_puts(const char *s)
{
	rv_write(1, s, rv_strlen(s));
}

/* Signed decimal, then @end (a string, e.g. "\n"). */
static inline void rv_putd(s32 v, const char *end)
{
	char buf[16];
	int i = sizeof(buf);
	u32 u = v < 0 ? -(u32)v : (u32)v;

	do {
		buf[--i] = '0' + u % 10;
		u /= 10;
	} while (u);
	if (v < 0)
		buf[--i] = '-';
	rv_write(1, buf + i, sizeof(buf) - i);
	rv_puts(end);
}

static inline void rv_putx(u32 v, const char *end)
{
	static const char hex[] = "0123456789abcdef";
	char buf[8];
	int i;

	for (i = 7; i >= 0; i--, v >>= 4)
		buf[i] = hex[v & 15];
	rv_write(1, buf, 8);
	rv_puts(end);
}

#endif /* RV_H */
