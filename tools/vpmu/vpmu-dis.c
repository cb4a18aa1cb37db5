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
#include "vpmu_buf.h"
#include "vpmu_cli.h"
#include "vpmu_dis.h"
#include "vpmu_elf.h"
#include "vpmu_tool.h"

static const char usage_text[] =
"Usage: vpmu-dis [OPTION]... IMAGE\n"
"       vpmu-dis -m IMAGE [OPTION]... PROGRAM\n"
"\n"
"Disassemble a vpmu microcode IMAGE into source for vpmu-as, or, with -m,\n"
"a PROGRAM file into a listing of the instructions IMAGE declares.  The\n"
"output re-assembles to the identical bytes; vpmu-dis re-assembles it and\n"
"warns if it would not (for images the assembler cannot express).  IMAGE\n"
"and PROGRAM may be the ELF files of vpmu-as -f elf.\n"
"\n"
"Options:\n"
"  -o, --output=FILE     write FILE instead of stdout\n"
"  -m, --image=IMAGE     PROGRAM is a program file for IMAGE\n"
"  -h, --help            show this help and exit\n"
"      --version         show the version and exit\n"
"\n"
"Exit status: 0 success; 125 bad usage, an unreadable or malformed input\n"
"file or output that cannot be written.\n";

/* Re-assemble @text and compare with @orig. */
static void verify(const char *what, const struct vpmu_buf *text,
		   const struct vpmu_buf *orig, const struct vpmu_buf *img)
{
	struct vpmu_buf bin = { 0 }, diag = { 0 };
	struct vpmu_asm_opts opts = { .filename = "<vpmu-dis output>" };
	int nerr;

	if (img)
		nerr = vpmu_asm_prog(text->p, text->len, img->p, img->len,
				     &opts, &bin, &diag);
	else
		nerr = vpmu_asm_ucode(text->p, text->len, &opts, &bin, &diag);
	if (nerr || bin.len != orig->len || memcmp(bin.p, orig->p, bin.len)) {
		vpmu_warn(what, "the listing does not re-assemble to the same "
			  "bytes");
		vpmu_err_diag(opts.filename, NULL, &diag);
	}
	vpmu_buf_free(&bin);
	vpmu_buf_free(&diag);
}

/*
 * Read @path, from the ELF file's section @section if it is one, and
 * check that it is an image or a program; exit (VPMU_EXIT_TOOL) naming
 * @path if not.
 */
static void read_input(const char *path, const char *section,
		       struct vpmu_buf *b)
{
	struct vpmu_buf diag = { 0 };
	struct vpmu_prog_view pv;
	struct vpmu_img_view iv;
	int bad;

	if (vpmu_read_file(path, b)) {
		vpmu_err_errno(path);
		exit(VPMU_EXIT_TOOL);
	}
	bad = vpmu_elf_unwrap(b, section, &diag) < 0;
	if (!bad && !strcmp(section, VPMU_ELF_IMAGE))
		bad = vpmu_img_view(&iv, b->p, b->len, &diag);
	else if (!bad)
		bad = vpmu_prog_view(&pv, b->p, b->len, &diag);
	if (bad) {
		vpmu_err_diag(path, NULL, &diag);
		exit(VPMU_EXIT_TOOL);
	}
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "image", required_argument, NULL, 'm' },
		{ "help", no_argument, NULL, 'h' },
		VPMU_VERSION_LONGOPT,
		{ NULL, 0, NULL, 0 },
	};
	struct vpmu_buf in = { 0 }, img = { 0 }, out = { 0 }, diag = { 0 };
	const char *output = "-", *image = NULL;
	int ch, ret;

	vpmu_cli_init(argv[0], "vpmu-dis");
	while ((ch = getopt_long(argc, argv, ":o:m:h", longopts, NULL)) != -1) {
		switch (ch) {
		case 'o':
			output = optarg;
			break;
		case 'm':
			image = optarg;
			break;
		case 'h':
			fputs(usage_text, stdout);
			return VPMU_EXIT_OK;
		case VPMU_OPT_VERSION:
			vpmu_version();
			break;
		default:
			vpmu_bad_option(argv, ch);
		}
	}
	if (optind == argc)
		vpmu_usage_error("no %s given", image ? "program" : "image");
	if (optind + 1 != argc)
		vpmu_usage_error("one %s at a time", image ? "program" : "image");
	/* The image first: a bad one is the image's fault, not the program's. */
	if (image)
		read_input(image, VPMU_ELF_IMAGE, &img);
	read_input(argv[optind], image ? VPMU_ELF_PROG : VPMU_ELF_IMAGE, &in);
	if (image)
		ret = vpmu_dis_prog(in.p, in.len, img.p, img.len, &out, &diag);
	else
		ret = vpmu_dis_ucode(in.p, in.len, &out, &diag);
	vpmu_err_diag(argv[optind], NULL, &diag);
	if (ret)
		return VPMU_EXIT_TOOL;
	verify(argv[optind], &out, &in, image ? &img : NULL);
	if (vpmu_write_file(output, out.p, out.len)) {
		vpmu_err_errno(output);
		return VPMU_EXIT_TOOL;
	}
	vpmu_buf_free(&in);
	vpmu_buf_free(&img);
	vpmu_buf_free(&out);
	vpmu_buf_free(&diag);
	return VPMU_EXIT_OK;
}
