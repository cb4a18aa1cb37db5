/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vpmu_elf.h - static RV32 ELF programs for the runners: the loader
 * (PT_LOAD segments into engine memory) and the Linux system calls their
 * ecalls make (write and exit), so that the same binary runs under
 * qemu-riscv32 and on the engine.  Nothing here knows the engine: the
 * caller hands over the memory and the registers of the stopped program.
 */
#ifndef _VPMU_ELF_H
#define _VPMU_ELF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "vpmu_asm.h"

/* Memory an ELF program runs in, unless --mem says otherwise. */
#define VPMU_ELF_MEM_DEFAULT	(1u << 20)

/* True if @len bytes at @p start like an ELF file. */
bool vpmu_is_elf(const void *p, size_t len);

/*
 * Load a static little-endian 32-bit RISC-V executable: every PT_LOAD
 * segment is copied to its p_vaddr in @mem (zero-filled up to p_memsz;
 * the rest of @mem is zeroed).  Returns 0 and sets *@entry, or -1 with
 * the reason in @diag (not an ELF32 RISC-V executable, a segment or the
 * entry point outside @mem_size bytes, a truncated file).
 */
int vpmu_elf_load(const void *file, size_t len, uint8_t *mem,
		  uint32_t mem_size, uint32_t *entry, struct vpmu_buf *diag);

/* The Linux RISC-V system call numbers the runners serve. */
#define VPMU_SYS_WRITE		64
#define VPMU_SYS_EXIT		93
#define VPMU_SYS_EXIT_GROUP	94

struct vpmu_sys_res {
	uint32_t a0;		/* the call's result, for a0 */
	bool exited;		/* exit or exit_group: the program is done */
	int status;		/* its exit status (a0 & 0xff) */
};

/*
 * Serve the ecall of a program stopped with registers @x (x0..x31): a7
 * is the call, a0..a2 its arguments.  write(fd 1 or 2) writes to the
 * runner's stdout or stderr; any other fd gives -EBADF, a buffer outside
 * @mem -EFAULT; an unknown call -ENOSYS (the results as Linux returns
 * them, negative errno in a0).
 */
void vpmu_sys_call(const uint32_t x[32], const uint8_t *mem, uint32_t mem_size,
		   struct vpmu_sys_res *res);

#endif /* _VPMU_ELF_H */
