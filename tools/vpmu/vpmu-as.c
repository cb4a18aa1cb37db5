// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu-as - assemble vpmu microcode into an image, or a machine-code
 * program (-m IMAGE) into a program file.  See usage() and
 * Documentation/vpmu/toolchain.rst.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vpmu_asm.h"
#include "vpmu_engine.h"

static const char usage_text[] =
"Usage: vpmu-as [OPTION]... SOURCE\n"
"       vpmu-as -m IMAGE [OPTION]... SOURCE\n"
"\n"
"Assemble vpmu microcode SOURCE (.vus) into a sealed microcode image, or,\n"
"with -m, a machine-code program for the instruction set IMAGE declares\n"
"into a program file (\"VPRG\": header, load bytes).\n"
"\n"
"Options:\n"
"  -o, --output=FILE     write FILE ('-' for stdout); default: SOURCE with\n"
"                        its extension replaced by .vpmu, .vprg or .c\n"
"  -m, --image=IMAGE     assemble a program for IMAGE's instruction set\n"
"  -f, --format=FORMAT   bin (default) or c: C source defining\n"
"                        'const u8 SYMBOL[]' and 'const size_t SYMBOL_len'\n"
"  -s, --symbol=SYMBOL   the C array's name (default: vpmu_ucode)\n"
"      --no-symbols      leave the image's symbol table empty\n"
"      --max-errors=N    stop after N errors (default: 20)\n"
"  -h, --help            show this help and exit\n"
"\n"
"Errors are reported as FILE:LINE:COL: error: MESSAGE, every error in the\n"
"file up to the cap.  On any error the exit status is 1 and no output file\n"
"is written.  Exit status 2: bad usage or unreadable input.\n";

static void usage(FILE *f, int status)
{
	fputs(usage_text, f);
	exit(status);
}

/* SOURCE with its extension replaced by @ext. */
static char *default_output(const char *src, const char *ext)
{
	const char *slash = strrchr(src, '/'), *dot = strrchr(src, '.');
	size_t n = dot && (!slash || dot > slash) ? (size_t)(dot - src) :
		   strlen(src);
	char *out = malloc(n + strlen(ext) + 1);

	if (!out)
		abort();
	memcpy(out, src, n);
	strcpy(out + n, ext);
	return out;
}

/*
 * The engine's own validator must accept what we produce (unless the
 * source used .uword to build a deliberately bad image: then say so).
 */
static int validate(const struct vpmu_buf *img)
{
	struct vpmu_ucode *uc;
	struct vpmu_verr err;

	if (vpmu_ucode_load(&uc, img->p, img->len, VPMU_CS_MAX, &err)) {
		fprintf(stderr, "vpmu-as: warning: the engine will reject "
			"this image: %s\n", err.msg);
		return -1;
	}
	vpmu_ucode_free(uc);
	return 0;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "image", required_argument, NULL, 'm' },
		{ "format", required_argument, NULL, 'f' },
		{ "symbol", required_argument, NULL, 's' },
		{ "no-symbols", no_argument, NULL, 'N' },
		{ "max-errors", required_argument, NULL, 'E' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *output = NULL, *image = NULL, *symbol = "vpmu_ucode";
	struct vpmu_buf src = { 0 }, img = { 0 }, bin = { 0 }, diag = { 0 };
	struct vpmu_asm_opts opts = { 0 };
	bool c_format = false;
	char *def = NULL;
	int ch, nerr;

	while ((ch = getopt_long(argc, argv, "o:m:f:s:h", longopts,
				 NULL)) != -1) {
		switch (ch) {
		case 'o':
			output = optarg;
			break;
		case 'm':
			image = optarg;
			break;
		case 'f':
			if (!strcmp(optarg, "c"))
				c_format = true;
			else if (strcmp(optarg, "bin"))
				usage(stderr, 2);
			break;
		case 's':
			symbol = optarg;
			break;
		case 'N':
			opts.no_symbols = true;
			break;
		case 'E':
			opts.max_errors = atoi(optarg);
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
	opts.filename = argv[optind];
	if (vpmu_read_file(argv[optind], &src)) {
		perror(argv[optind]);
		return 2;
	}
	if (image && vpmu_read_file(image, &img)) {
		perror(image);
		return 2;
	}
	if (image)
		nerr = vpmu_asm_prog(src.p, src.len, img.p, img.len, &opts,
				     &bin, &diag);
	else
		nerr = vpmu_asm_ucode(src.p, src.len, &opts, &bin, &diag);
	fputs(diag.p ? diag.p : "", stderr);
	if (nerr)
		return 1;
	if (!image)
		validate(&bin);	/* only .uword can make a bad image */
	if (!output)
		output = def = default_output(argv[optind], c_format ? ".c" :
					      image ? ".vprg" : ".vpmu");
	if (c_format) {
		struct vpmu_buf c = { 0 };
		const char *base = strrchr(argv[optind], '/');

		vpmu_emit_c(&c, bin.p, bin.len, symbol,
			    base ? base + 1 : argv[optind]);
		vpmu_buf_free(&bin);
		bin = c;
	}
	if (vpmu_write_file(output, bin.p, bin.len)) {
		perror(output);
		return 2;
	}
	free(def);
	vpmu_buf_free(&src);
	vpmu_buf_free(&img);
	vpmu_buf_free(&bin);
	vpmu_buf_free(&diag);
	return 0;
}
