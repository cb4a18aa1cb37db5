// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu_mkimage - assemble the built-in microcode image at build time.
 *
 *   vpmu_mkimage SOURCE OUTPUT
 *
 * assembles SOURCE (ucode/default.vus), checks the image with the
 * engine's own validator and writes OUTPUT, a header defining
 * "const u8 vpmu_default_image[]" and "const size_t vpmu_default_image_len"
 * for vpmu_default_image.c.  Kbuild builds and runs it on the host
 * (Makefile), so the image's bytes are never kept as a file of their own.
 * The assembler (vpmu_asm.h) is built into the user-space tools too; this
 * is its one job the module's build needs.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vpmu_asm.h"
#include "vpmu_buf.h"
#include "vpmu_tool.h"

int main(int argc, char **argv)
{
	struct vpmu_buf src = { 0 }, img = { 0 }, out = { 0 }, diag = { 0 };
	struct vpmu_asm_opts opts = { 0 };
	const char *base;
	int ret = EXIT_FAILURE;

	if (argc != 3) {
		fprintf(stderr, "usage: vpmu_mkimage SOURCE OUTPUT\n");
		return EXIT_FAILURE;
	}
	if (vpmu_read_file(argv[1], &src)) {
		perror(argv[1]);
		return EXIT_FAILURE;
	}
	opts.filename = argv[1];
	if (vpmu_asm_ucode(src.p, src.len, &opts, &img, &diag) ||
	    vpmu_img_check(img.p, img.len, &diag)) {
		fprintf(stderr, "%.*s", (int)diag.len, diag.p);
		goto out;
	}
	base = strrchr(argv[1], '/');
	vpmu_emit_c(&out, img.p, img.len, "vpmu_default_image",
		    base ? base + 1 : argv[1], true);
	if (vpmu_write_file(argv[2], out.p, out.len)) {
		perror(argv[2]);
		goto out;
	}
	ret = EXIT_SUCCESS;
out:
	vpmu_buf_free(&src);
	vpmu_buf_free(&img);
	vpmu_buf_free(&out);
	vpmu_buf_free(&diag);
	return ret;
}
