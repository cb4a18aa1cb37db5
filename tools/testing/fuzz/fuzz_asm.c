// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_asm.c - libFuzzer target for the vpmu assembler and disassembler.
 *
 * The first byte picks the mode, the rest is source text:
 *   even  microcode (vpmu_asm_ucode)
 *   odd   a program for the default microcode (vpmu_asm_prog)
 *
 * Beyond not crashing, whatever assembles must round-trip: the
 * disassembly re-assembles to the same bytes (abort() otherwise), and a
 * microcode image the assembler emits must pass vpmu_ucode_load() unless
 * the source used .uword, which exists to build invalid images.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "vpmu_asm.h"
#include "vpmu_dis.h"
#include "vpmu_engine.h"

#ifndef VPMU_TOP
#define VPMU_TOP "../../.."
#endif

static struct vpmu_buf default_image;

static void load_default(void)
{
	struct vpmu_buf src = { 0 }, d = { 0 };

	if (default_image.len)
		return;
	if (vpmu_read_file(VPMU_TOP "/drivers/perf/vpmu/ucode/default.vus",
			   &src) ||
	    vpmu_asm_ucode(src.p, src.len, NULL, &default_image, &d)) {
		fprintf(stderr, "fuzz_asm: cannot assemble default.vus\n%s",
			d.p ? d.p : "");
		abort();
	}
	vpmu_buf_free(&src);
	vpmu_buf_free(&d);
}

static void check_ucode(const struct vpmu_buf *img, bool raw)
{
	struct vpmu_buf text = { 0 }, again = { 0 }, d = { 0 };
	struct vpmu_ucode *uc;
	struct vpmu_verr err;

	if (!raw) {
		if (vpmu_ucode_load(&uc, img->p, img->len, VPMU_CS_MAX, &err)) {
			fprintf(stderr, "validator rejects: %s\n", err.msg);
			abort();
		}
		vpmu_ucode_free(uc);
	}
	if (vpmu_dis_ucode(img->p, img->len, &text, &d) ||
	    vpmu_asm_ucode(text.p, text.len, NULL, &again, &d) ||
	    again.len != img->len || memcmp(again.p, img->p, img->len)) {
		fprintf(stderr, "microcode round trip failed\n%s\n%s",
			text.p ? text.p : "", d.p ? d.p : "");
		abort();
	}
	vpmu_buf_free(&text);
	vpmu_buf_free(&again);
	vpmu_buf_free(&d);
}

/*
 * Program files up to this size get the round trip.  A few bytes of
 * source (.space 0x100000) make a file of megabytes whose disassembly, a
 * line a word, takes minutes in this instrumented build: past the
 * fuzzer's per-input timeout, for no new coverage.
 */
#define ROUND_TRIP_MAX	(64 * 1024)

static void check_prog(const struct vpmu_buf *prog)
{
	struct vpmu_buf text = { 0 }, again = { 0 }, d = { 0 };

	if (prog->len > ROUND_TRIP_MAX)
		return;
	if (vpmu_dis_prog(prog->p, prog->len, default_image.p,
			  default_image.len, &text, &d) ||
	    vpmu_asm_prog(text.p, text.len, default_image.p, default_image.len,
			  NULL, &again, &d) ||
	    again.len != prog->len || memcmp(again.p, prog->p, prog->len)) {
		fprintf(stderr, "program round trip failed\n%s\n%s",
			text.p ? text.p : "", d.p ? d.p : "");
		abort();
	}
	vpmu_buf_free(&text);
	vpmu_buf_free(&again);
	vpmu_buf_free(&d);
}

/* Does the source mention .uword (in any case)? */
static bool has_uword(const char *s, size_t len)
{
	size_t i;

	for (i = 0; i + 6 <= len; i++)
		if (!strncasecmp(s + i, ".uword", 6))
			return true;
	return false;
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t len)
{
	struct vpmu_buf out = { 0 }, d = { 0 };
	struct vpmu_asm_opts o = { .filename = "fuzz" };
	const char *src = (const char *)data + 1;

	if (!len)
		return 0;
	load_default();
	if (data[0] & 1) {
		if (!vpmu_asm_prog(src, len - 1, default_image.p,
				   default_image.len, &o, &out, &d))
			check_prog(&out);
	} else if (!vpmu_asm_ucode(src, len - 1, &o, &out, &d)) {
		check_ucode(&out, has_uword(src, len - 1));
	}
	vpmu_buf_free(&out);
	vpmu_buf_free(&d);
	return 0;
}
