// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu_elf.c - static RV32 ELF programs for the runners (vpmu_elf.h).
 */
#include <elf.h>
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "vpmu_elf.h"

#ifndef EM_RISCV
#define EM_RISCV	243
#endif

bool vpmu_is_elf(const void *p, size_t len)
{
	return len >= SELFMAG && !memcmp(p, ELFMAG, SELFMAG);
}

static int elf_err(struct vpmu_buf *diag, const char *msg, unsigned int i)
{
	if ((int)i < 0)
		vpmu_buf_printf(diag, "%s", msg);
	else
		vpmu_buf_printf(diag, "segment %u: %s", i, msg);
	return -1;
}

static int elf_check_header(const Elf32_Ehdr *h, size_t len,
			    struct vpmu_buf *diag)
{
	if (len < sizeof(*h) || !vpmu_is_elf(h, len))
		return elf_err(diag, "not an ELF file", -1);
	if (h->e_ident[EI_CLASS] != ELFCLASS32 ||
	    h->e_ident[EI_DATA] != ELFDATA2LSB)
		return elf_err(diag, "not a 32-bit little-endian ELF file", -1);
	if (h->e_machine != EM_RISCV)
		return elf_err(diag, "not a RISC-V ELF file", -1);
	if (h->e_type != ET_EXEC)
		return elf_err(diag, "not a static executable (ET_EXEC)", -1);
	if (h->e_phentsize != sizeof(Elf32_Phdr) || !h->e_phnum ||
	    h->e_phoff > len ||
	    (size_t)h->e_phnum * sizeof(Elf32_Phdr) > len - h->e_phoff)
		return elf_err(diag, "program headers missing or truncated", -1);
	return 0;
}

int vpmu_elf_load(const void *file, size_t len, uint8_t *mem,
		  uint32_t mem_size, uint32_t *entry, struct vpmu_buf *diag)
{
	const Elf32_Ehdr *h = file;
	const uint8_t *f = file;
	Elf32_Phdr ph;
	unsigned int i;

	if (elf_check_header(h, len, diag))
		return -1;
	if ((h->e_entry & 3) || h->e_entry >= mem_size)
		return elf_err(diag, "entry point misaligned or outside memory",
			       -1);
	memset(mem, 0, mem_size);
	for (i = 0; i < h->e_phnum; i++) {
		memcpy(&ph, f + h->e_phoff + i * sizeof(ph), sizeof(ph));
		if (ph.p_type != PT_LOAD || !ph.p_memsz)
			continue;
		if (ph.p_filesz > ph.p_memsz)
			return elf_err(diag, "file size above memory size", i);
		if (ph.p_offset > len || ph.p_filesz > len - ph.p_offset)
			return elf_err(diag, "data beyond the end of the file", i);
		if (ph.p_vaddr > mem_size || ph.p_memsz > mem_size - ph.p_vaddr)
			return elf_err(diag, "outside the program's memory (--mem)",
				       i);
		memcpy(mem + ph.p_vaddr, f + ph.p_offset, ph.p_filesz);
	}
	*entry = h->e_entry;
	return 0;
}

/* a0..a7 are x10..x17. */
#define A(n)	(10 + (n))

static uint32_t sys_write(const uint32_t x[32], const uint8_t *mem,
			  uint32_t mem_size)
{
	uint32_t fd = x[A(0)], buf = x[A(1)], n = x[A(2)], done = 0;
	ssize_t w;

	if (fd != 1 && fd != 2)
		return (uint32_t)-EBADF;
	if (buf > mem_size || n > mem_size - buf)
		return (uint32_t)-EFAULT;
	while (done < n) {
		w = write(fd, mem + buf + done, n - done);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return done ? done : (uint32_t)-EIO;
		done += w;
	}
	return done;
}

void vpmu_sys_call(const uint32_t x[32], const uint8_t *mem, uint32_t mem_size,
		   struct vpmu_sys_res *res)
{
	memset(res, 0, sizeof(*res));
	switch (x[A(7)]) {
	case VPMU_SYS_WRITE:
		res->a0 = sys_write(x, mem, mem_size);
		break;
	case VPMU_SYS_EXIT:
	case VPMU_SYS_EXIT_GROUP:
		res->exited = true;
		res->status = x[A(0)] & 0xff;
		res->a0 = x[A(0)];
		break;
	default:
		res->a0 = (uint32_t)-ENOSYS;
		break;
	}
}
