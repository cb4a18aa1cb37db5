// SPDX-License-Identifier: GPL-2.0
/*
 * hpm.c - a program that reads the PMU's counter 0 (hpmcounter3) once,
 * after some work, and prints it.  perf stat pinning an event to that
 * counter (ctr=1), stopped by the read's csr tag, prints the same:
 *
 *   perf stat -e vpmu/vpmu_insns,ctr=1,stop_tag=12/ vpmu-run hpm.elf
 *
 * Under qemu-riscv32, which has no hpmcounters, the read traps.
 */
#include <stdio.h>
#include <string.h>

#include <vpmu_counters.h>

int main(void)
{
	static char buf[512];
	unsigned long n;
	unsigned int i;

	for (i = 0; i < sizeof(buf); i++)
		buf[i] = (char)('a' + i % 26);
	buf[sizeof(buf) - 1] = 0;
	n = rv_csr_read(RV_CSR_HPMCOUNTER(3));
	printf("strlen %zu; hpmcounter3: %lu\n", strlen(buf), n);
	return 0;
}
