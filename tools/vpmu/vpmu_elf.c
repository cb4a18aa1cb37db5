// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu_elf.c - static RV32 ELF programs for the runners (vpmu_elf.h).
 */
#include <elf.h>
#include <errno.h>
#include <stdlib.h>
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

/* read(fd 0): what one read of stdin gives, as Linux's read returns it. */
static uint32_t sys_read(const uint32_t x[32], uint8_t *mem,
			 uint32_t mem_size)
{
	uint32_t fd = x[A(0)], buf = x[A(1)], n = x[A(2)];
	ssize_t r;

	if (fd != 0)
		return (uint32_t)-EBADF;
	if (buf > mem_size || n > mem_size - buf)
		return (uint32_t)-EFAULT;
	do {
		r = read(0, mem + buf, n);
	} while (r < 0 && errno == EINTR);
	return r < 0 ? (uint32_t)-EIO : (uint32_t)r;
}

void vpmu_sys_call(const uint32_t x[32], uint8_t *mem, uint32_t mem_size,
		   struct vpmu_sys_res *res)
{
	memset(res, 0, sizeof(*res));
	switch (x[A(7)]) {
	case VPMU_SYS_READ:
		res->a0 = sys_read(x, mem, mem_size);
		break;
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

/* ---- ELF files of vpmu-as ------------------------------------------------- */

/* Where the PT_LOAD segment's bytes start: a page, so runners can map it. */
#define VPMU_ELF_LOAD_OFF	0x1000u

enum { SEC_NULL, SEC_TEXT, SEC_DATA, SEC_SYMTAB, SEC_STRTAB, SEC_SHSTRTAB,
       SEC_NR };

static size_t elf_align(struct vpmu_buf *out, size_t base, size_t a)
{
	static const char zero[VPMU_ELF_LOAD_OFF];
	size_t off = out->len - base;

	vpmu_buf_put(out, zero, (a - off % a) % a);
	return out->len - base;
}

/* Sort key: address, then the order given (the first label names it). */
struct elf_sym_ord {
	const struct vpmu_elf_sym *s;
	unsigned int i;
};

static int elf_sym_cmp(const void *a, const void *b)
{
	const struct elf_sym_ord *x = a, *y = b;

	if (x->s->addr != y->s->addr)
		return x->s->addr < y->s->addr ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

/*
 * The symbol table and its strings: every label a function symbol sized
 * up to the next label's address (or the segment's end); of several
 * labels at one address only the first has a size, so that perf, which
 * prefers a sized symbol, names it as vpmu-hist does.
 */
static void elf_put_syms(struct vpmu_buf *sym, struct vpmu_buf *str,
			 const struct vpmu_elf_spec *s)
{
	struct elf_sym_ord *o = calloc(s->nsyms + 1, sizeof(*o));
	Elf32_Sym e = { 0 };
	unsigned int i, j;

	if (!o)
		abort();
	vpmu_buf_put(sym, &e, sizeof(e));
	vpmu_buf_put(str, "", 1);
	for (i = 0; i < s->nsyms; i++)
		o[i] = (struct elf_sym_ord){ &s->syms[i], i };
	qsort(o, s->nsyms, sizeof(*o), elf_sym_cmp);
	for (i = 0; i < s->nsyms; i++) {
		uint32_t a = o[i].s->addr, end = s->load_size;

		for (j = i + 1; j < s->nsyms; j++)
			if (o[j].s->addr != a) {
				end = o[j].s->addr;
				break;
			}
		memset(&e, 0, sizeof(e));
		e.st_name = str->len;
		e.st_value = a;
		e.st_size = (!i || o[i - 1].s->addr != a) && end > a ? end - a : 0;
		e.st_info = ELF32_ST_INFO(STB_GLOBAL, STT_FUNC);
		e.st_shndx = SEC_TEXT;
		vpmu_buf_put(sym, &e, sizeof(e));
		vpmu_buf_put(str, o[i].s->name, strlen(o[i].s->name) + 1);
	}
	free(o);
}

static void elf_shdr(Elf32_Shdr *sh, uint32_t name, uint32_t type,
		     uint32_t flags, uint32_t off, uint32_t size, uint32_t align)
{
	memset(sh, 0, sizeof(*sh));
	sh->sh_name = name;
	sh->sh_type = type;
	sh->sh_flags = flags;
	sh->sh_offset = off;
	sh->sh_size = size;
	sh->sh_addralign = align;
}

void vpmu_elf_write(struct vpmu_buf *out, const struct vpmu_elf_spec *s)
{
	static const char shstr[] = "\0.text\0.symtab\0.strtab\0.shstrtab\0";
	struct vpmu_buf sym = { 0 }, str = { 0 };
	Elf32_Shdr sh[SEC_NR];
	size_t base = out->len, data_off, sym_off, str_off, shstr_off, sh_off;
	uint32_t secname = sizeof(shstr);
	Elf32_Ehdr eh = { 0 };
	Elf32_Phdr ph = { 0 };

	elf_put_syms(&sym, &str, s);
	memcpy(eh.e_ident, ELFMAG, SELFMAG);
	eh.e_ident[EI_CLASS] = ELFCLASS32;
	eh.e_ident[EI_DATA] = ELFDATA2LSB;
	eh.e_ident[EI_VERSION] = EV_CURRENT;
	eh.e_type = ET_EXEC;
	eh.e_machine = EM_NONE;
	eh.e_version = EV_CURRENT;
	eh.e_entry = s->entry;
	eh.e_phoff = sizeof(eh);
	eh.e_ehsize = sizeof(eh);
	eh.e_phentsize = sizeof(ph);
	eh.e_phnum = 1;
	eh.e_shentsize = sizeof(Elf32_Shdr);
	eh.e_shnum = SEC_NR;
	eh.e_shstrndx = SEC_SHSTRTAB;
	ph.p_type = PT_LOAD;
	ph.p_offset = VPMU_ELF_LOAD_OFF;
	ph.p_filesz = s->load_size;
	ph.p_memsz = s->mem_size > s->load_size ? s->mem_size : s->load_size;
	ph.p_flags = PF_R | PF_X;
	ph.p_align = VPMU_ELF_LOAD_OFF;

	vpmu_buf_put(out, &eh, sizeof(eh));
	vpmu_buf_put(out, &ph, sizeof(ph));
	elf_align(out, base, VPMU_ELF_LOAD_OFF);
	vpmu_buf_put(out, s->load, s->load_size);
	data_off = elf_align(out, base, 8);
	vpmu_buf_put(out, s->data, s->data_size);
	sym_off = elf_align(out, base, 4);
	vpmu_buf_put(out, sym.p, sym.len);
	str_off = out->len - base;
	vpmu_buf_put(out, str.p, str.len);
	shstr_off = out->len - base;
	vpmu_buf_put(out, shstr, sizeof(shstr));
	vpmu_buf_put(out, s->section, strlen(s->section) + 1);
	sh_off = elf_align(out, base, 4);

	elf_shdr(&sh[SEC_NULL], 0, SHT_NULL, 0, 0, 0, 0);
	elf_shdr(&sh[SEC_TEXT], 1, SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR,
		 VPMU_ELF_LOAD_OFF, s->load_size, 4);
	elf_shdr(&sh[SEC_DATA], secname, SHT_PROGBITS, 0, data_off,
		 s->data_size, 8);
	elf_shdr(&sh[SEC_SYMTAB], 7, SHT_SYMTAB, 0, sym_off, sym.len, 4);
	sh[SEC_SYMTAB].sh_link = SEC_STRTAB;
	sh[SEC_SYMTAB].sh_info = 1;
	sh[SEC_SYMTAB].sh_entsize = sizeof(Elf32_Sym);
	elf_shdr(&sh[SEC_STRTAB], 15, SHT_STRTAB, 0, str_off, str.len, 1);
	elf_shdr(&sh[SEC_SHSTRTAB], 23, SHT_STRTAB, 0, shstr_off,
		 sizeof(shstr) + strlen(s->section) + 1, 1);
	vpmu_buf_put(out, sh, sizeof(sh));
	eh.e_shoff = sh_off;
	memcpy(out->p + base, &eh, sizeof(eh));
	vpmu_buf_free(&sym);
	vpmu_buf_free(&str);
}

/* The section headers of an ELF32 file, checked to lie inside it. */
static int elf_shdrs(const Elf32_Ehdr *h, size_t len, struct vpmu_buf *diag)
{
	if (h->e_shentsize != sizeof(Elf32_Shdr) || !h->e_shnum ||
	    h->e_shoff > len ||
	    (size_t)h->e_shnum * sizeof(Elf32_Shdr) > len - h->e_shoff ||
	    h->e_shstrndx >= h->e_shnum)
		return elf_err(diag, "section headers missing or truncated", -1);
	return 0;
}

int vpmu_elf_section(const void *file, size_t len, const char *name,
		     const void **data, size_t *size, struct vpmu_buf *diag)
{
	const Elf32_Ehdr *h = file;
	const uint8_t *f = file;
	Elf32_Shdr sh, names;
	size_t n = strlen(name);
	unsigned int i;

	if (len < sizeof(*h) || !vpmu_is_elf(h, len) ||
	    h->e_ident[EI_CLASS] != ELFCLASS32 ||
	    h->e_ident[EI_DATA] != ELFDATA2LSB)
		return 0;
	if (!h->e_shoff && !h->e_shnum)		/* no section table at all */
		return 0;
	if (elf_shdrs(h, len, diag))
		return -1;
	memcpy(&names, f + h->e_shoff + h->e_shstrndx * sizeof(sh),
	       sizeof(names));
	if (names.sh_offset > len || names.sh_size > len - names.sh_offset)
		return elf_err(diag, "section names outside the file", -1);
	for (i = 0; i < h->e_shnum; i++) {
		memcpy(&sh, f + h->e_shoff + i * sizeof(sh), sizeof(sh));
		if (sh.sh_name >= names.sh_size ||
		    names.sh_size - sh.sh_name < n + 1 ||
		    memcmp(f + names.sh_offset + sh.sh_name, name, n + 1))
			continue;
		if (sh.sh_type != SHT_PROGBITS || sh.sh_offset > len ||
		    sh.sh_size > len - sh.sh_offset)
			return elf_err(diag, "a vpmu section outside the file",
				       -1);
		*data = f + sh.sh_offset;
		*size = sh.sh_size;
		return 1;
	}
	return 0;
}

int vpmu_elf_unwrap(struct vpmu_buf *b, const char *name,
		    struct vpmu_buf *diag)
{
	struct vpmu_buf copy = { 0 };
	const void *data;
	size_t size;
	int ret;

	if (!b->p || !vpmu_is_elf(b->p, b->len))
		return 0;
	ret = vpmu_elf_section(b->p, b->len, name, &data, &size, diag);
	if (ret < 0)
		return -1;
	if (!ret)
		return elf_err(diag, !strcmp(name, VPMU_ELF_IMAGE) ?
			       "an ELF file without a microcode image "
			       "(not from vpmu-as -f elf)" :
			       "an ELF file without a vpmu program "
			       "(not from vpmu-as -m IMAGE -f elf)", -1);
	vpmu_buf_put(&copy, data, size);
	vpmu_buf_free(b);
	*b = copy;
	return 1;
}

/* True for a RISC-V mapping symbol: "$x", "$xISA", "$d". */
static bool elf_is_mapping_sym(const Elf32_Sym *s, const char *name,
			       size_t max)
{
	return ELF32_ST_TYPE(s->st_info) == STT_NOTYPE &&
	       ELF32_ST_BIND(s->st_info) == STB_LOCAL && max >= 2 &&
	       name[0] == '$' && (name[1] == 'x' || name[1] == 'd');
}

/* Hide the mapping symbols of the symbol table @sym (its strings @str). */
static int elf_hide_in(uint8_t *f, size_t len, const Elf32_Shdr *sym,
		       const Elf32_Shdr *str, struct vpmu_buf *diag)
{
	size_t i, n = 0;
	Elf32_Sym s;

	if (sym->sh_offset > len || sym->sh_size > len - sym->sh_offset ||
	    str->sh_offset > len || str->sh_size > len - str->sh_offset ||
	    sym->sh_entsize != sizeof(s))
		return elf_err(diag, "a symbol table outside the file", -1);
	for (i = 0; i < sym->sh_size / sizeof(s); i++) {
		uint8_t *at = f + sym->sh_offset + i * sizeof(s);

		memcpy(&s, at, sizeof(s));
		if (s.st_name >= str->sh_size ||
		    !elf_is_mapping_sym(&s, (const char *)f + str->sh_offset +
					s.st_name, str->sh_size - s.st_name) ||
		    ELF32_ST_VISIBILITY(s.st_other) == STV_HIDDEN)
			continue;
		s.st_other = (s.st_other & ~3) | STV_HIDDEN;
		memcpy(at, &s, sizeof(s));
		n++;
	}
	return n;
}

int vpmu_elf_hide_mapping_syms(void *file, size_t len, struct vpmu_buf *diag)
{
	const Elf32_Ehdr *h = file;
	uint8_t *f = file;
	Elf32_Shdr sh, str;
	int i, n, total = 0;

	if (len < sizeof(*h) || !vpmu_is_elf(h, len) ||
	    h->e_ident[EI_CLASS] != ELFCLASS32 ||
	    h->e_ident[EI_DATA] != ELFDATA2LSB || h->e_machine != EM_RISCV ||
	    (!h->e_shoff && !h->e_shnum))
		return 0;
	if (elf_shdrs(h, len, diag))
		return -1;
	for (i = 0; i < h->e_shnum; i++) {
		memcpy(&sh, f + h->e_shoff + i * sizeof(sh), sizeof(sh));
		if (sh.sh_type != SHT_SYMTAB)
			continue;
		if (sh.sh_link >= h->e_shnum)
			return elf_err(diag, "a symbol table without strings",
				       -1);
		memcpy(&str, f + h->e_shoff + sh.sh_link * sizeof(str),
		       sizeof(str));
		n = elf_hide_in(f, len, &sh, &str, diag);
		if (n < 0)
			return -1;
		total += n;
	}
	return total;
}

int vpmu_elf_exec_segs(const void *file, size_t len, struct vpmu_elf_seg *segs,
		       unsigned int max, struct vpmu_buf *diag)
{
	const Elf32_Ehdr *h = file;
	const uint8_t *f = file;
	unsigned int i, n = 0;
	Elf32_Phdr ph;

	if (len < sizeof(*h) || !vpmu_is_elf(h, len) ||
	    h->e_ident[EI_CLASS] != ELFCLASS32 ||
	    h->e_ident[EI_DATA] != ELFDATA2LSB)
		return elf_err(diag, "not a 32-bit little-endian ELF file", -1);
	if (h->e_phentsize != sizeof(Elf32_Phdr) || !h->e_phnum ||
	    h->e_phoff > len ||
	    (size_t)h->e_phnum * sizeof(Elf32_Phdr) > len - h->e_phoff)
		return elf_err(diag, "program headers missing or truncated", -1);
	for (i = 0; i < h->e_phnum; i++) {
		memcpy(&ph, f + h->e_phoff + i * sizeof(ph), sizeof(ph));
		if (ph.p_type != PT_LOAD || !(ph.p_flags & PF_X) ||
		    !ph.p_filesz)
			continue;
		if (ph.p_offset > len || ph.p_filesz > len - ph.p_offset)
			return elf_err(diag, "data beyond the end of the file",
				       i);
		if (n == max)
			return elf_err(diag, "too many executable segments", -1);
		segs[n++] = (struct vpmu_elf_seg){ ph.p_vaddr, ph.p_offset,
						   ph.p_filesz };
	}
	return n;
}
