/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vpmu_counters.h - an RV32 program's own counters (Zicntr, Zihpm), for
 * C programs on vpmu (vpmu.specs puts this directory on the include
 * path).  Each read is one csrrs instruction, encoded with .insn so that
 * no -march=..._zicsr is needed:
 *
 *   rv_csr_read(RV_CSR_CYCLE)        cycles the program has run, to the
 *                                    end of the read
 *   rv_csr_read(RV_CSR_INSTRET)      instructions it retired before it
 *   rv_csr_read(RV_CSR_HPMCOUNTER(n)) the PMU's counter n - 3, as perf
 *                                    programs it (Documentation/vpmu/rv32.rst)
 *
 * RV_CSR_...H are the high 32 bits; rv_counter64() reads both halves of a
 * 64-bit counter consistently.  qemu-riscv32 gives host clock ticks for
 * cycle, time and instret, and traps on the hpmcounters.
 */
#ifndef VPMU_COUNTERS_H
#define VPMU_COUNTERS_H

#define RV_CSR_CYCLE		0xc00
#define RV_CSR_TIME		0xc01
#define RV_CSR_INSTRET		0xc02
#define RV_CSR_HPMCOUNTER(n)	(0xc00 + (n))	/* n = 3..31 */
#define RV_CSR_H		0x80		/* + : the high half */

/* csrrs rd, csr, x0; .insn takes the CSR number as a signed 12 bits */
#define rv_csr_read(csr) ({						\
	unsigned long v_;						\
									\
	asm volatile(".insn i 0x73, 2, %0, x0, %1"			\
		     : "=r"(v_) : "i"((csr) - 0x1000));			\
	v_;								\
})

/* A 64-bit counter, its high half read again until it holds still. */
#define rv_counter64(csr) ({						\
	unsigned long h_, l_;						\
									\
	do {								\
		h_ = rv_csr_read((csr) + RV_CSR_H);			\
		l_ = rv_csr_read(csr);					\
	} while (h_ != rv_csr_read((csr) + RV_CSR_H));			\
	(unsigned long long)h_ << 32 | l_;				\
})

#endif /* VPMU_COUNTERS_H */
