// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu-dis - disassemble a vpmu microcode image into source, or a program
 * file (-m IMAGE) into a listing.  Both re-assemble to the same bytes;
 * vpmu-dis checks that by re-assembling its own output.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vpmu_asm.h"

static const char usage_text[] =
"Usage: vpmu-dis [OPTION]... IMAGE\n"
"       vpmu-dis -m IMAGE [OPTION]... PROGRAM\n"
"\n"
"Disassemble a vpmu microcode IMAGE into source for vpmu-as, or, with -m,\n"
"a PROGRAM file into a listing of the instructions IMAGE declares.  The\n"
"output re-assembles to the identical bytes; vpmu-dis re-assembles it and\n"
"warns if it would not (for images the assembler cannot express).\n"
"\n"
"Options:\n"
"  -o, --output=FILE     write FILE instead of stdout\n"
"  -m, --image=IMAGE     PROGRAM is a program file for IMAGE\n"
"  -h, --help            show this help and exit\n"
"\n"
"Exit status: 0 success, 1 unreadable or malformed input, 2 bad usage.\n";

static void usage(FILE *f, int status)
{
	fputs(usage_text, f);
	exit(status);
}

/* Re-assemble @text and compare with @orig. */
static void verify(const struct vpmu_buf *text, const struct vpmu_buf *orig,
		   const struct vpmu_buf *img)
{
	struct vpmu_buf bin = { 0 }, diag = { 0 };
	struct vpmu_asm_opts opts = { .filename = "<vpmu-dis output>" };
	int nerr;

	if (img)
		nerr = vpmu_asm_prog(text->p, text->len, img->p, img->len,
				     &opts, &bin, &diag);
	else
		nerr = vpmu_asm_ucode(text->p, text->len, &opts, &bin, &diag);
	if (nerr || bin.len != orig->len || memcmp(bin.p, orig->p, bin.len))
		fprintf(stderr, "vpmu-dis: warning: the listing does not "
			"re-assemble to the same bytes\n%s",
			diag.p ? diag.p : "");
	vpmu_buf_free(&bin);
	vpmu_buf_free(&diag);
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "image", required_argument, NULL, 'm' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct vpmu_buf in = { 0 }, img = { 0 }, out = { 0 }, diag = { 0 };
	const char *output = "-", *image = NULL;
	int ch, ret;

	while ((ch = getopt_long(argc, argv, "o:m:h", longopts, NULL)) != -1) {
		switch (ch) {
		case 'o':
			output = optarg;
			break;
		case 'm':
			image = optarg;
			break;
		case 'h':
			usage(stdout, 0);
			break;
		default:
			usage(stderr, 2);
		}
	}
	if (optind + 1 != argc)
		usage(stderr, 2);
	if (vpmu_read_file(argv[optind], &in)) {
		perror(argv[optind]);
		return 1;
	}
	if (image && vpmu_read_file(image, &img)) {
		perror(image);
		return 1;
	}
	if (image)
		ret = vpmu_dis_prog(in.p, in.len, img.p, img.len, &out, &diag);
	else
		ret = vpmu_dis_ucode(in.p, in.len, &out, &diag);
	if (diag.len)
		fprintf(stderr, "%s: %s", argv[optind], diag.p);
	if (ret)
		return 1;
	verify(&out, &in, image ? &img : NULL);
	if (vpmu_write_file(output, out.p, out.len)) {
		perror(output);
		return 1;
	}
	vpmu_buf_free(&in);
	vpmu_buf_free(&img);
	vpmu_buf_free(&out);
	vpmu_buf_free(&diag);
	return 0;
}
