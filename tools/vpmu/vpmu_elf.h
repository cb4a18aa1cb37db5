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

#include "vpmu_buf.h"

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

/* ---- ELF files of vpmu-as (-f elf) ---------------------------------------- */

/*
 * vpmu-as writes a microcode image or a program as a 32-bit little-endian
 * ELF executable (EM_NONE) whose one PT_LOAD segment, at address 0, is
 * what perf's samples address (VPMU_SAMPLE_UPC_BASE + micro-PC, one byte
 * per microword, or VPMU_SAMPLE_PC_BASE + macro PC: the program's load
 * bytes), whose symbols are the source's labels, and whose section
 * VPMU_ELF_IMAGE or VPMU_ELF_PROG holds the image or program file itself,
 * so that every tool takes the ELF file where it takes the other.
 */
#define VPMU_ELF_IMAGE		".vpmu.image"
#define VPMU_ELF_PROG		".vpmu.prog"

struct vpmu_elf_sym {
	const char *name;
	uint32_t addr;
};

struct vpmu_elf_spec {
	const void *load;		/* the PT_LOAD segment's bytes */
	uint32_t load_size;
	uint32_t mem_size;		/* its p_memsz, at least load_size */
	uint32_t entry;
	const char *section;		/* VPMU_ELF_IMAGE or VPMU_ELF_PROG */
	const void *data;		/* its contents */
	size_t data_size;
	const struct vpmu_elf_sym *syms; /* any order; sized to the next */
	unsigned int nsyms;
};

/* Append the ELF file @s describes to @out. */
void vpmu_elf_write(struct vpmu_buf *out, const struct vpmu_elf_spec *s);

/*
 * The section called @name of an ELF file: 1 and *@data, *@size if there
 * is one, 0 if not, -1 with the reason in @diag if the section table is
 * malformed.
 */
int vpmu_elf_section(const void *file, size_t len, const char *name,
		     const void **data, size_t *size, struct vpmu_buf *diag);

/*
 * If @b holds an ELF file, replace it by its section @name (a vpmu-as
 * ELF file): 1; 0 if @b is not an ELF file; -1 with the reason in @diag
 * if it is one without that section.
 */
int vpmu_elf_unwrap(struct vpmu_buf *b, const char *name,
		    struct vpmu_buf *diag);

/* An executable PT_LOAD segment of an ELF32 file. */
struct vpmu_elf_seg {
	uint32_t vaddr, offset, filesz;
};

/*
 * The executable PT_LOAD segments of a 32-bit little-endian ELF file
 * with file contents (at most @max): their number, or -1 with the reason
 * in @diag.
 */
int vpmu_elf_exec_segs(const void *file, size_t len, struct vpmu_elf_seg *segs,
		       unsigned int max, struct vpmu_buf *diag);

/*
 * Hide the RISC-V mapping symbols of the ELF file at @file, in place: each
 * local STT_NOTYPE symbol of a RISC-V file's .symtab named "$x..." or
 * "$d..." (where GNU as marks instructions, with their ISA, and data)
 * gets the visibility STV_HIDDEN.  perf without "perf symbols: Ignore
 * mapping symbols on riscv" (6.1, 6.12) takes such a symbol for a label
 * and names samples after it; perf never takes a hidden symbol for one,
 * while objdump, which reads mapping symbols by name, still finds them.
 * Nothing else changes, not even the size.  Returns the number of
 * symbols changed (0 for a file of another machine or without a symbol
 * table), or -1 with the reason in @diag if the section table is
 * malformed.
 */
int vpmu_elf_hide_mapping_syms(void *file, size_t len, struct vpmu_buf *diag);

/* The Linux RISC-V system call numbers the runners serve. */
#define VPMU_SYS_READ		63
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
 * runner's stdout or stderr, read(fd 0) reads its stdin into @mem (one
 * read: the bytes there were, 0 at the end); any other fd gives -EBADF,
 * a buffer outside @mem -EFAULT; an unknown call -ENOSYS (the results as
 * Linux returns them, negative errno in a0).
 */
void vpmu_sys_call(const uint32_t x[32], uint8_t *mem, uint32_t mem_size,
		   struct vpmu_sys_res *res);

#endif /* _VPMU_ELF_H */
