// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_elf.c - libFuzzer target for the tools' ELF readers and writer
 * (tools/vpmu/vpmu_elf.c): every reader on arbitrary bytes (the RV32
 * loader, the section finder, the unwrapping of a vpmu-as ELF file, the
 * executable segments a runner maps), each staying inside the input; and
 * a file written from the input (its bytes as the segment and as the
 * section, labels made from it) must read back: the section is the bytes
 * given, the one executable segment is at 0, page-aligned in the file.
 */
#include <assert.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vpmu_elf.h"

#define MEMSZ	4096

static void read_all(const uint8_t *data, size_t size)
{
	static uint8_t mem[MEMSZ];
	struct vpmu_buf diag = { 0 }, b = { 0 };
	struct vpmu_elf_seg seg[8];
	const void *sec;
	size_t sec_size;
	uint32_t entry;
	int i, n;

	vpmu_elf_load(data, size, mem, MEMSZ, &entry, &diag);
	if (vpmu_elf_section(data, size, VPMU_ELF_PROG, &sec, &sec_size,
			     &diag) > 0)
		assert((const uint8_t *)sec >= data &&
		       (const uint8_t *)sec + sec_size <= data + size);
	n = vpmu_elf_exec_segs(data, size, seg, 8, &diag);
	for (i = 0; i < n; i++)
		assert(seg[i].offset <= size &&
		       seg[i].filesz <= size - seg[i].offset);
	vpmu_buf_put(&b, data, size);
	vpmu_elf_unwrap(&b, VPMU_ELF_IMAGE, &diag);
	vpmu_buf_free(&b);
	vpmu_buf_free(&diag);
}

static void round_trip(const uint8_t *data, size_t size)
{
	struct vpmu_elf_sym syms[16];
	char names[16][8];
	struct vpmu_buf out = { 0 }, diag = { 0 };
	struct vpmu_elf_seg seg[2];
	struct vpmu_elf_spec s = {
		.load = data, .load_size = size, .mem_size = size,
		.section = VPMU_ELF_IMAGE, .data = data, .data_size = size,
		.syms = syms,
	};
	const void *sec;
	size_t sec_size;
	unsigned int i;

	for (i = 0; i < 16 && i < size; i++) {
		snprintf(names[i], sizeof(names[i]), "l%u", i);
		syms[i] = (struct vpmu_elf_sym){ names[i], data[i] % (size + 1) };
	}
	s.nsyms = i;
	vpmu_elf_write(&out, &s);
	assert(vpmu_elf_section(out.p, out.len, VPMU_ELF_IMAGE, &sec, &sec_size,
				&diag) == 1);
	assert(sec_size == size && !memcmp(sec, data, size));
	if (size) {
		assert(vpmu_elf_exec_segs(out.p, out.len, seg, 2, &diag) == 1);
		assert(seg[0].vaddr == 0 && seg[0].offset % 4096 == 0 &&
		       seg[0].filesz == size &&
		       !memcmp(out.p + seg[0].offset, data, size));
	}
	assert(vpmu_elf_unwrap(&out, VPMU_ELF_IMAGE, &diag) == 1);
	assert(out.len == size && (!size || !memcmp(out.p, data, size)));
	vpmu_buf_free(&out);
	vpmu_buf_free(&diag);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	read_all(data, size);
	round_trip(data, size < 65536 ? size : 65536);
	return 0;
}
