// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_tc.c - libFuzzer target for the translation cache: whatever the
 * program and the configuration, an engine that translates must do what
 * one that interprets does (tools/testing/host/tc_pair.h compares them;
 * any difference is an abort()).
 *
 * The input: byte 0 picks the microcode (bit 0: RV32IM, else the default
 * vpmu32), the configuration (bits 1..4, test_tc's set-ups in turn) and
 * short pieces (bit 5); bytes 1..4 are the seed of the pieces and of what
 * happens between them; the rest is the program's memory from address 0
 * (at most 4 KiB; the rest of the 8 KiB is zero).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tc_pair.h"
#include "vpmu_asm.h"

#ifndef VPMU_TOP
#define VPMU_TOP "../../.."
#endif

#define MEM	0x2000

static struct vpmu_ucode *ucode[2];

static struct vpmu_ucode *load(const char *path)
{
	struct vpmu_buf src = { 0 }, img = { 0 }, d = { 0 };
	struct vpmu_asm_opts o = { .filename = path };
	struct vpmu_ucode *uc = NULL;
	struct vpmu_verr err;

	if (vpmu_read_file(path, &src) ||
	    vpmu_asm_ucode(src.p, src.len, &o, &img, &d) ||
	    vpmu_ucode_load(&uc, img.p, img.len, VPMU_CS_MAX, &err)) {
		fprintf(stderr, "fuzz_tc: %s: cannot build\n", path);
		abort();
	}
	vpmu_buf_free(&src);
	vpmu_buf_free(&img);
	vpmu_buf_free(&d);
	return uc;
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	static u8 image[MEM];
	struct prog p = { .mem_size = MEM, .image = image, .cycles = 30000 };
	struct vpmu_tc_stats tc;
	char why[256];
	u32 seed;

	if (!ucode[0]) {
		ucode[0] = load(VPMU_TOP "/drivers/perf/vpmu/ucode/default.vus");
		ucode[1] = load(VPMU_TOP "/tools/vpmu/share/ucode/rv32im.vus");
	}
	if (size < 5)
		return 0;
	p.rv32 = data[0] & 1;
	p.uc = ucode[p.rv32];
	snprintf(p.name, sizeof(p.name), "fuzz");
	seed = (u32)data[1] | (u32)data[2] << 8 | (u32)data[3] << 16 |
	       (u32)data[4] << 24;
	/* even seeds run long pieces, odd ones short: bit 5 picks */
	seed = (seed & ~1u) | (data[0] >> 5 & 1);
	memset(image, 0, sizeof(image));
	memcpy(image, data + 5, size - 5 < MEM / 2 ? size - 5 : MEM / 2);
	if (!run_pair(&p, &setups[(data[0] >> 1 & 15) % NSETUPS], seed, &tc,
		      why, sizeof(why))) {
		fprintf(stderr, "fuzz_tc: %s, %s: %s\n", p.rv32 ? "rv32im" :
			"vpmu32", setups[(data[0] >> 1 & 15) % NSETUPS].name,
			why);
		abort();
	}
	return 0;
}
