// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu_rt.c - the runtime under Debian's picolibc for RV32 programs on
 * vpmu (vpmu-sim -m rv32im.vpmu, vpmu-run) and qemu-riscv32 alike: the
 * start (gp, sp, thread-local storage, constructors, exit(main())), the
 * system calls by ecall as Linux numbers them (write 64, read 63, exit
 * 93), stdin, stdout and stderr for picolibc's stdio, buffered by line,
 * and clock() from the cycle counter.  vpmu.specs links it first;
 * vpmu.ld places the heap (malloc's sbrk) and the stack.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "vpmu_counters.h"

extern int main(int argc, char **argv);
extern void __libc_init_array(void);
extern void _set_tls(void *tls);
extern char __tls_base[];

/* The entry: gp before anything can use it, the stack vpmu.ld made. */
asm(".section .text.init.enter, \"ax\"\n"
    ".globl _start\n"
    "_start:\n"
    ".option push\n"
    ".option norelax\n"
    "\tla gp, __global_pointer$\n"
    ".option pop\n"
    "\tla sp, __stack\n"
    "\tj vpmu_rt_start\n"
    ".previous\n");

static long vpmu_rt_sys(long n, long a, long b, long c)
{
	register long a0 asm("a0") = a;
	register long a1 asm("a1") = b;
	register long a2 asm("a2") = c;
	register long a7 asm("a7") = n;

	asm volatile("ecall" : "+r"(a0) : "r"(a1), "r"(a2), "r"(a7)
		     : "memory");
	return a0;
}

void __attribute__((noreturn, used)) vpmu_rt_start(void)
{
	_set_tls(__tls_base);
	__libc_init_array();
	exit(main(0, NULL));
}

/* Output, a line (or the buffer) at a time: one write each. */
static char vpmu_rt_obuf[256];
static int vpmu_rt_on;

static void vpmu_rt_oflush(void)
{
	if (vpmu_rt_on)
		vpmu_rt_sys(64, 1, (long)vpmu_rt_obuf, vpmu_rt_on);
	vpmu_rt_on = 0;
}

static int vpmu_rt_putc(char c, FILE *f)
{
	(void)f;
	vpmu_rt_obuf[vpmu_rt_on++] = c;
	if (c == '\n' || vpmu_rt_on == (int)sizeof(vpmu_rt_obuf))
		vpmu_rt_oflush();
	return (unsigned char)c;
}

/* Input, a byte a read, after what is pending is out. */
static int vpmu_rt_getc(FILE *f)
{
	unsigned char c;

	(void)f;
	vpmu_rt_oflush();
	return vpmu_rt_sys(63, 0, (long)&c, 1) == 1 ? c : EOF;
}

static int vpmu_rt_flush(FILE *f)
{
	(void)f;
	vpmu_rt_oflush();
	return 0;
}

static FILE vpmu_rt_stdio = FDEV_SETUP_STREAM(vpmu_rt_putc, vpmu_rt_getc,
					      vpmu_rt_flush, _FDEV_SETUP_RW);
FILE *const stdin = &vpmu_rt_stdio;
FILE *const stdout = &vpmu_rt_stdio;
FILE *const stderr = &vpmu_rt_stdio;

/*
 * clock(): the program's cycles, one rdcycle: CLOCKS_PER_SEC of them are
 * a second of a machine of that many hertz.  Under qemu-riscv32, the
 * host's ticks.
 */
clock_t clock(void)
{
	return (clock_t)rv_csr_read(RV_CSR_CYCLE);
}

/*
 * exit() ends here.  The ecall is rv_exit_ecall, where the tests compare
 * the registers with qemu-riscv32's (tools/testing/host/rv32_qemu.sh).
 */
void _exit(int status)
{
	register long a0 asm("a0");
	register long a7 asm("a7") = 93;

	vpmu_rt_oflush();
	a0 = status;
	for (;;)
		asm volatile(".globl rv_exit_ecall\n"
			     "rv_exit_ecall:\n"
			     "\tecall" : : "r"(a0), "r"(a7) : "memory");
}
