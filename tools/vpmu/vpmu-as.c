// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu-as - assemble vpmu microcode into an image, or a machine-code
 * program (-m IMAGE) into a program file.  See usage() and
 * Documentation/vpmu/toolchain.rst.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vpmu_asm.h"
#include "vpmu_buf.h"
#include "vpmu_cli.h"
#include "vpmu_elf.h"
#include "vpmu_engine.h"
#include "vpmu_tool.h"

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
"                        its extension replaced by .vpmu, .vprg, .c or .elf\n"
"  -m, --image=IMAGE     assemble a program for IMAGE's instruction set\n"
"                        (a .vpmu image or a microcode ELF file)\n"
"  -f, --format=FORMAT   bin (default); c: C source defining\n"
"                        'const u8 SYMBOL[]' and 'const size_t SYMBOL_len';\n"
"                        elf: an ELF file holding the image or program,\n"
"                        whose symbols are the labels, for perf (vpmu-run\n"
"                        maps it where samples point)\n"
"  -s, --symbol=SYMBOL   the C array's name (default: vpmu_ucode)\n"
"      --no-symbols      leave the image's symbol table empty\n"
"      --max-errors=N    stop after N errors (default: 20)\n"
"  -h, --help            show this help and exit\n"
"      --version         show the version and exit\n"
"\n"
"Errors are reported as FILE:LINE:COL: error: MESSAGE, then the source\n"
"line and a caret under the column, every error in the file up to the\n"
"cap; no output file is written then.\n"
"\n"
"Exit status: 0 success; 125 bad usage, an unreadable or invalid input\n"
"file (errors in SOURCE) or output that cannot be written.\n";

static void usage(void)
{
	fputs(usage_text, stdout);
	exit(VPMU_EXIT_OK);
}

enum format { FMT_BIN, FMT_C, FMT_ELF };

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
static int validate(const char *src, const struct vpmu_buf *img)
{
	struct vpmu_ucode *uc;
	struct vpmu_verr err;

	if (vpmu_ucode_load(&uc, img->p, img->len, VPMU_CS_MAX, &err)) {
		vpmu_warn(src, "the engine will reject this image: %s",
			  err.msg);
		return -1;
	}
	vpmu_ucode_free(uc);
	return 0;
}

/* The microcode image @img as an ELF file: its labels, one byte a microword. */
static void ucode_elf(const struct vpmu_buf *img, struct vpmu_buf *out)
{
	struct vpmu_elf_spec spec = {
		.section = VPMU_ELF_IMAGE, .data = img->p, .data_size = img->len,
	};
	struct vpmu_elf_sym *syms;
	struct vpmu_img_view v;
	struct vpmu_buf diag = { 0 };
	uint32_t i, n = 0;
	uint8_t *text;

	if (vpmu_img_view(&v, img->p, img->len, &diag))
		abort();	/* the assembler's own output */
	text = calloc(v.h.cs_words, 1);
	syms = calloc(v.h.sym_count + 1, sizeof(*syms));
	if (!text || !syms)
		abort();
	for (i = 0; i < v.h.sym_count; i++) {
		struct vpmu_image_sym s;
		const char *name;

		vpmu_img_sym(&v, i, &s);
		name = vpmu_img_str(&v, s.name);
		if (name && *name)
			syms[n++] = (struct vpmu_elf_sym){ name, s.addr };
	}
	spec.load = text;
	spec.load_size = spec.mem_size = v.h.cs_words;
	spec.syms = syms;
	spec.nsyms = n;
	vpmu_elf_write(out, &spec);
	free(text);
	free(syms);
}

/* The program file @prog as an ELF file: its load bytes and its labels. */
static void prog_elf(const struct vpmu_buf *prog,
		     const struct vpmu_buf *labels, struct vpmu_buf *out)
{
	const struct vpmu_asm_label *l = (const void *)labels->p;
	unsigned int i, n = labels->len / sizeof(*l);
	struct vpmu_program_header h;
	struct vpmu_elf_sym *syms;
	struct vpmu_elf_spec spec = {
		.section = VPMU_ELF_PROG, .data = prog->p,
		.data_size = prog->len,
	};

	memcpy(&h, prog->p, sizeof(h));
	syms = calloc(n + 1, sizeof(*syms));
	if (!syms)
		abort();
	for (i = 0; i < n; i++)
		syms[i] = (struct vpmu_elf_sym){ l[i].name, l[i].addr };
	spec.load = prog->p + h.header_size;
	spec.load_size = h.load_size;
	spec.mem_size = h.mem_size;
	spec.entry = h.entry;
	spec.syms = syms;
	spec.nsyms = n;
	vpmu_elf_write(out, &spec);
	free(syms);
}

/* -m IMAGE: its bytes (from an ELF file too), or exit saying why. */
static void read_image(const char *path, struct vpmu_buf *img)
{
	struct vpmu_buf diag = { 0 };
	struct vpmu_img_view v;

	if (vpmu_read_file(path, img)) {
		vpmu_err_errno(path);
		exit(VPMU_EXIT_TOOL);
	}
	if (vpmu_elf_unwrap(img, VPMU_ELF_IMAGE, &diag) < 0 ||
	    vpmu_img_view(&v, img->p, img->len, &diag)) {
		vpmu_err_diag(path, NULL, &diag);
		exit(VPMU_EXIT_TOOL);
	}
}

/* The command line: its options, then one operand, the source. */
struct args {
	const char *output, *image, *symbol, *source;
	enum format fmt;
	struct vpmu_asm_opts opts;
};

static enum format parse_format(const char *arg)
{
	if (!strcmp(arg, "c"))
		return FMT_C;
	if (!strcmp(arg, "elf"))
		return FMT_ELF;
	if (strcmp(arg, "bin"))
		vpmu_usage_error("bad format '%s' (bin, c or elf)", arg);
	return FMT_BIN;
}

static void parse_args(int argc, char **argv, struct args *a)
{
	enum { OPT_NO_SYMBOLS = 256, OPT_MAX_ERRORS };
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "image", required_argument, NULL, 'm' },
		{ "format", required_argument, NULL, 'f' },
		{ "symbol", required_argument, NULL, 's' },
		{ "no-symbols", no_argument, NULL, OPT_NO_SYMBOLS },
		{ "max-errors", required_argument, NULL, OPT_MAX_ERRORS },
		{ "help", no_argument, NULL, 'h' },
		VPMU_VERSION_LONGOPT,
		{ NULL, 0, NULL, 0 },
	};
	char *end;
	int ch;

	while ((ch = getopt_long(argc, argv, ":o:m:f:s:h", longopts,
				 NULL)) != -1) {
		switch (ch) {
		case 'o':
			a->output = optarg;
			break;
		case 'm':
			a->image = optarg;
			break;
		case 'f':
			a->fmt = parse_format(optarg);
			break;
		case 's':
			a->symbol = optarg;
			break;
		case OPT_NO_SYMBOLS:
			a->opts.no_symbols = true;
			break;
		case OPT_MAX_ERRORS:
			errno = 0;
			a->opts.max_errors = strtoul(optarg, &end, 10);
			if (errno || *end || !*optarg || !a->opts.max_errors)
				vpmu_usage_error("bad error count '%s'", optarg);
			break;
		case 'h':
			usage();
			break;
		case VPMU_OPT_VERSION:
			vpmu_version();
			break;
		default:
			vpmu_bad_option(argv, ch);
		}
	}
	if (optind == argc)
		vpmu_usage_error("no source file given");
	if (optind + 1 != argc)
		vpmu_usage_error("one source file at a time");
	a->source = argv[optind];
}

/*
 * @bin, the image or program file assembled, in the format asked for:
 * C source, or an ELF file (a program's with its @labels).
 */
static void convert(const struct args *a, const struct vpmu_buf *labels,
		    struct vpmu_buf *bin)
{
	struct vpmu_buf out = { 0 };
	const char *base = strrchr(a->source, '/');

	if (a->fmt == FMT_BIN)
		return;
	if (a->fmt == FMT_C)
		vpmu_emit_c(&out, bin->p, bin->len, a->symbol,
			    base ? base + 1 : a->source, false);
	else if (a->image)
		prog_elf(bin, labels, &out);
	else
		ucode_elf(bin, &out);
	vpmu_buf_free(bin);
	*bin = out;
}

int main(int argc, char **argv)
{
	static const char *const ext[] = { ".vpmu", ".c", ".elf" };
	struct args a = { .symbol = "vpmu_ucode", .fmt = FMT_BIN };
	struct vpmu_buf src = { 0 }, img = { 0 }, bin = { 0 }, diag = { 0 };
	struct vpmu_buf labels = { 0 };
	const char *output;
	char *def = NULL;
	int nerr;

	vpmu_cli_init(argv[0], "vpmu-as");
	parse_args(argc, argv, &a);
	a.opts.filename = a.source;
	if (vpmu_read_file(a.source, &src)) {
		vpmu_err_errno(a.source);
		return VPMU_EXIT_TOOL;
	}
	if (a.image)
		read_image(a.image, &img);
	if (a.image && a.fmt == FMT_ELF)
		a.opts.labels = &labels;
	if (a.image)
		nerr = vpmu_asm_prog(src.p, src.len, img.p, img.len, &a.opts,
				     &bin, &diag);
	else
		nerr = vpmu_asm_ucode(src.p, src.len, &a.opts, &bin, &diag);
	vpmu_err_diag(a.source, NULL, &diag);
	if (nerr)
		return VPMU_EXIT_TOOL;
	if (!a.image)
		validate(a.source, &bin);	/* only .uword makes a bad image */
	output = a.output;
	if (!output)
		output = def = default_output(a.source, a.fmt == FMT_BIN &&
					      a.image ? ".vprg" : ext[a.fmt]);
	convert(&a, &labels, &bin);
	if (vpmu_write_file(output, bin.p, bin.len)) {
		vpmu_err_errno(output);
		return VPMU_EXIT_TOOL;
	}
	free(def);
	vpmu_buf_free(&src);
	vpmu_buf_free(&img);
	vpmu_buf_free(&bin);
	vpmu_buf_free(&labels);
	return VPMU_EXIT_OK;
}
