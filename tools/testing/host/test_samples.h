/* SPDX-License-Identifier: GPL-2.0 */
/*
 * test_samples.h - the sample programs on the default microcode, for the
 * host tests that run them (test_ctx.c, test_hu.c): default.vus and each
 * tools/vpmu/share/samples/NAME.s assembled with the toolchain library,
 * plus "stores", a program with more cache and write-queue traffic than
 * the samples.  Header-only, like vpmu_test_image.h.
 */
#ifndef _VPMU_TEST_SAMPLES_H
#define _VPMU_TEST_SAMPLES_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vpmu_asm.h"
#include "vpmu_engine.h"
#include "vpmu_tool.h"

#ifndef VPMU_TOP
#define VPMU_TOP "../../.."
#endif
#define TS_UCODE_SRC	VPMU_TOP "/drivers/perf/vpmu/ucode/default.vus"
#define TS_SAMPLE_DIR	VPMU_TOP "/tools/vpmu/share/samples"

/*
 * More cache traffic than the samples: stores in bursts and loads that
 * evict each other (64 lines of 16 bytes).  The default microcode spends
 * more cycles per store than the write queue needs to drain one, so no
 * program on it stalls; test_engine.c covers stalls across contexts.
 */
static const char ts_stores_src[] =
	"\t.entry start\n"
	"\t.memsize 0x1000\n"
	"start:\taddi r1, r0, buf\n"
	"\taddi r3, r0, 40\n"
	"loop:\tsw r3, 0(r1)\n"
	"\tsw r3, 4(r1)\n"
	"\tsw r3, 8(r1)\n"
	"\tsw r3, 12(r1)\n"
	"\tsw r3, 16(r1)\n"
	"\tlw r4, 0(r1)\n"
	"\tlw r5, 1024(r1)\n"
	"\tadd r6, r6, r5\n"
	"\taddi r1, r1, 20\n"
	"\taddi r3, r3, -1\n"
	"\tbne r3, r0, loop\n"
	"\thalt\n"
	"\t.align 16\n"
	"buf:\t.space 2048\n";

static const char *const ts_samples[] = {
	"sum", "memcpy", "sort", "syscall", "stores",
};
#define TS_NSAMPLES	(sizeof(ts_samples) / sizeof(ts_samples[0]))

/* A sample, assembled. */
struct ts_prog {
	const char *name;
	u8 *image;		/* load image, mem_size bytes */
	u32 mem_size, entry;
	unsigned int mode;
};

static inline void ts_die(const char *tool, const char *what,
			  const struct vpmu_buf *d)
{
	fprintf(stderr, "%s: %s\n%s", tool, what, d && d->p ? d->p : "");
	exit(2);
}

/*
 * Assemble default.vus into @img and load it into @uc, and every sample
 * into @out[0..TS_NSAMPLES-1]; on any failure say why as @tool and exit 2.
 */
static inline void ts_load(const char *tool, struct vpmu_buf *img,
			   struct vpmu_ucode **uc, struct ts_prog *out)
{
	struct vpmu_buf src = { 0 }, d = { 0 };
	struct vpmu_verr verr;
	unsigned int i;

	if (vpmu_read_file(TS_UCODE_SRC, &src) ||
	    vpmu_asm_ucode(src.p, src.len, NULL, img, &d))
		ts_die(tool, "default.vus does not assemble", &d);
	if (vpmu_ucode_load(uc, img->p, img->len, VPMU_CS_MAX, &verr))
		ts_die(tool, verr.msg, NULL);
	vpmu_buf_free(&src);
	for (i = 0; i < TS_NSAMPLES; i++) {
		struct vpmu_buf prog = { 0 };
		struct vpmu_prog_view v;
		char path[512];
		struct vpmu_asm_opts o = { .filename = path };

		snprintf(path, sizeof(path), TS_SAMPLE_DIR "/%s.s",
			 ts_samples[i]);
		if (!strcmp(ts_samples[i], "stores")) {
			snprintf(path, sizeof(path), "stores.s");
			src.p = strdup(ts_stores_src);
			src.len = strlen(ts_stores_src);
		} else if (vpmu_read_file(path, &src)) {
			ts_die(tool, path, NULL);
		}
		if (vpmu_asm_prog(src.p, src.len, img->p, img->len, &o, &prog,
				  &d) ||
		    vpmu_prog_view(&v, prog.p, prog.len, &d))
			ts_die(tool, path, &d);
		out[i].name = ts_samples[i];
		out[i].mem_size = v.h.mem_size;
		out[i].entry = v.h.entry;
		out[i].mode = v.h.flags & VPMU_PROG_F_SUPER ?
			      VPMU_MODE_SUPER : VPMU_MODE_USER;
		out[i].image = calloc(1, v.h.mem_size);
		memcpy(out[i].image, v.data, v.h.load_size);
		vpmu_buf_free(&src);
		vpmu_buf_free(&prog);
	}
	vpmu_buf_free(&d);
}

#endif /* _VPMU_TEST_SAMPLES_H */
