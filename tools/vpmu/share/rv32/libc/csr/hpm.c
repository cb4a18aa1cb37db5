// SPDX-License-Identifier: GPL-2.0
/*
 * hpm.c - a program that reads instret, then the PMU's counter 0
 * (hpmcounter3), after some work, and prints both.  perf stat pinning an
 * instructions event to that counter (ctr=1), stopped by the first
 * read's csr tag, prints the same figure, which is instret's too: the
 * instructions retired before the first read.  A CPU-wide event: a
 * task's restarts its counter each time the task is switched in.
 *
 *   perf stat -C 0 -e vpmu/vpmu_insns,ctr=1,stop_tag=12/ \
 *	taskset -c 0 vpmu-run hpm.elf
 *
 * Under qemu-riscv32, which has no hpmcounters, the read traps.
 */
#include <stdio.h>
#include <string.h>

#include <vpmu_counters.h>

int main(void)
{
	static char buf[512];
	unsigned long r, n;
	unsigned int i;

	for (i = 0; i < sizeof(buf); i++)
		buf[i] = (char)('a' + i % 26);
	buf[sizeof(buf) - 1] = 0;
	r = rv_csr_read(RV_CSR_INSTRET);
	n = rv_csr_read(RV_CSR_HPMCOUNTER(3));
	printf("strlen %zu; instret %lu; hpmcounter3 %lu\n", strlen(buf), r, n);
	return 0;
}
