// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu_asm.c - the assembler: microcode source to a sealed image, and
 * machine-code source to a program file for the instruction set an image
 * declares.
 *
 * Both modes run the same line parser twice over the text.  Pass 1 learns
 * where the labels are and what the .equ constants are worth and reports
 * nothing; pass 2 knows every symbol, encodes, and reports each error at
 * its line and column (the first error of a line only, up to a cap).
 *
 * Mnemonics, conditions and operand names are looked up in the tables
 * vpmu_isa.c generates from vpmu_isa.h; the signature of an operation says
 * which operands it takes, so nothing here lists the operations again.
 *
 * Here are the two passes, the line parser with labels, .equ and the
 * table of directives, and the image and the program file they make.
 * vpmu_asm_ucode.c parses microcode's lines, vpmu_asm_prog.c programs',
 * both with vpmu_asm_lex.c's lexer and expressions (vpmu_asm_priv.h says
 * which file holds what).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "vpmu_asm.h"
#include "vpmu_asm_priv.h"
#include "vpmu_engine.h"
#include "vpmu_tool.h"

/* ---- symbols ------------------------------------------------------------ */

static struct sym *define(struct as *a, const char *at, const char *name)
{
	struct sym *s = asm_sym_find(&a->syms, name);

	if (!s) {
		s = asm_sym_add(&a->syms, name);
		s->line = a->line;
		return s;
	}
	if (s->line != a->line) {
		asm_error(a, at, "duplicate symbol '%s' (first defined on line %d)",
			  name, s->line);
		return NULL;
	}
	return s;
}

static void define_label(struct as *a, const char *at, const char *name)
{
	struct sym *s;
	uint32_t addr = (uint32_t)asm_location(a);

	if (!vpmu_label_valid(name)) {
		asm_error(a, at, "'%s' is not a valid label name", name);
		return;
	}
	s = define(a, at, name);
	if (!s)
		return;
	if (!s->label && s->known) {
		asm_error(a, at, "'%s' is already a constant", name);
		return;
	}
	s->label = true;
	s->known = true;
	s->val = addr;
	if (a->pass != 2 || !strncmp(name, ".L", 2))
		return;
	if (a->prog) {
		struct vpmu_asm_label l = { .addr = addr };

		if (!a->labels_out)
			return;
		snprintf(l.name, sizeof(l.name), "%s", name);
		vpmu_buf_put(a->labels_out, &l, sizeof(l));
		return;
	}
	if (a->symbols_off || a->symbols_opt_off)
		return;
	if (addr >= a->ncs_final) {
		asm_error(a, at, "label '%s' follows the last microword", name);
		return;
	}
	a->labels = realloc(a->labels, (a->nlabels + 1) * sizeof(*a->labels));
	if (!a->labels)
		abort();
	a->labels[a->nlabels].name = s->name;
	a->labels[a->nlabels++].addr = addr;
}

/* .equ NAME, EXPR */
static void dir_equ(struct as *a)
{
	char name[IDENT_MAX];
	const char *at;
	struct sym *s;
	int64_t v;

	asm_skip_ws(a);
	at = a->p;
	if (!asm_need_ident(a, name, "a symbol name"))
		return;
	asm_accept(a, ',');
	a->undef = false;
	if (!asm_expr(a, &v))
		return;
	s = define(a, at, name);
	if (!s)
		return;
	if (s->label) {
		asm_error(a, at, "'%s' is a label", name);
		return;
	}
	s->val = v;
	s->known = !a->undef;
}

/* ---- lines --------------------------------------------------------------- */

struct directive {
	const char *name;
	void (*fn)(struct as *a, const char *at);
	unsigned int once;	/* SEEN_* bit, or 0 */
	bool prog;		/* program mode (else microcode) */
};

static void dir_equ_at(struct as *a, const char *at) { dir_equ(a); }

static const struct directive directives[] = {
	{ ".equ",	dir_equ_at,	0,		false },
	{ ".name",	asm_dir_name,	SEEN_NAME,	false },
	{ ".version",	asm_dir_version,	SEEN_VERSION,	false },
	{ ".evmode",	asm_dir_evmode,	SEEN_EVMODE,	false },
	{ ".flags",	asm_dir_flags,	SEEN_FLAGS,	false },
	{ ".cache",	asm_dir_cache,	SEEN_CACHE,	false },
	{ ".wqueue",	asm_dir_wqueue,	SEEN_WQUEUE,	false },
	{ ".opcode",	asm_dir_opcode,	SEEN_OPCODE,	false },
	{ ".tag",	asm_dir_tag,	0,		false },
	{ ".insn",	asm_dir_insn,	0,		false },
	{ ".idtab",	asm_dir_idtab,	0,		false },
	{ ".default",	asm_dir_default,	SEEN_DEFAULT,	false },
	{ ".symbols",	asm_dir_symbols,	0,		false },
	{ ".uword",	asm_dir_uword,	0,		false },
	{ ".equ",	dir_equ_at,	0,		true },
	{ ".word",	asm_dir_word,	0,		true },
	{ ".half",	asm_dir_half,	0,		true },
	{ ".byte",	asm_dir_byte,	0,		true },
	{ ".ascii",	asm_dir_ascii,	0,		true },
	{ ".asciz",	asm_dir_asciz,	0,		true },
	{ ".space",	asm_dir_space,	0,		true },
	{ ".align",	asm_dir_align,	0,		true },
	{ ".org",	asm_dir_org,	0,		true },
	{ ".entry",	asm_dir_entry,	0,		true },
	{ ".memsize",	asm_dir_memsize,	0,		true },
	{ ".mode",	asm_dir_mode,	0,		true },
};

static bool once(struct as *a, const char *at, unsigned int bit)
{
	if (a->seen & bit) {
		asm_error(a, at, "directive given twice");
		return false;
	}
	a->seen |= bit;
	return true;
}

static void run_directive(struct as *a, const char *at, const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(directives); i++) {
		const struct directive *d = &directives[i];

		if (d->prog != a->prog || strcasecmp(d->name, name))
			continue;
		if (d->once && !once(a, at, d->once))
			return;
		d->fn(a, at);
		if (!a->line_err && !asm_at_end(a))
			asm_error(a, a->p, "unexpected %s after %s", asm_what(a),
				  d->name);
		return;
	}
	asm_error(a, at, "unknown directive '%s'", name);
	if (a->prog)
		return;
	/* keep addresses the same in both passes: nothing to count */
}

static void line(struct as *a)
{
	char name[IDENT_MAX];
	const char *at;

	for (;;) {
		asm_skip_ws(a);
		at = a->p;
		if (!asm_ident(a, name))
			break;
		if (!asm_accept(a, ':')) {
			a->p = at;
			break;
		}
		define_label(a, at, name);
	}
	if (asm_at_end(a))
		return;
	at = a->p;
	if (*at == '.' && asm_ident(a, name) && strcmp(name, ".")) {
		run_directive(a, at, name);
		return;
	}
	a->p = at;
	if (!a->prog) {
		asm_uword(a);
		return;
	}
	if (!asm_ident(a, name)) {
		asm_error(a, at, "expected a mnemonic, directive or label but found %s",
			  asm_what(a));
		return;
	}
	asm_instruction(a, at, name);
}

static void reset_pass(struct as *a, int pass)
{
	a->pass = pass;
	a->ncs = 0;
	a->seen = 0;
	a->symbols_off = false;
	a->deflt = 0;
	memset(&a->h, 0, sizeof(a->h));
	a->h.ev_mode = VPMU_EVMODE_ONEHOT;
	a->h.ev_bits = 8;
	a->h.op_shift = 0;
	a->h.op_bits = 6;
	a->h.dc_lines = 64;
	a->h.dc_line_size = 16;
	a->h.dc_miss_penalty = 8;
	a->h.wq_depth = 4;
	a->h.wq_drain = 4;
	memset(a->idline, 0, sizeof(a->idline));
	a->ninsns = 0;
	a->nlabels = 0;
	a->lc = 0;
	a->hi = 0;
	a->have_entry = false;
	a->have_memsize = false;
	a->super = false;
	a->mem.len = 0;
}

static void run_pass(struct as *a, int pass)
{
	const char *s = a->src;

	reset_pass(a, pass);
	a->line = 0;
	while (s < a->end && !a->stop) {
		const char *nl = memchr(s, '\n', a->end - s);

		a->ls = s;
		a->le = nl ? nl : a->end;
		a->p = s;
		a->line++;
		a->line_err = false;
		line(a);
		s = nl ? nl + 1 : a->end;
	}
}

static int count_lines(const char *s, size_t len)
{
	int n = 1;
	size_t i;

	for (i = 0; i < len; i++)
		n += s[i] == '\n';
	return n;
}

static void init(struct as *a, const char *src, size_t len,
		 const struct vpmu_asm_opts *o, struct vpmu_buf *diag)
{
	memset(a, 0, sizeof(*a));
	a->src = src;
	a->end = src + len;
	a->file = o && o->filename ? o->filename : "<input>";
	a->max_errors = o && o->max_errors ? o->max_errors :
			VPMU_ASM_MAX_ERRORS;
	a->symbols_opt_off = o && o->no_symbols;
	a->labels_out = o ? o->labels : NULL;
	a->diag = diag;
	a->nlines = count_lines(src, len);
	a->layout_undef = calloc(a->nlines + 1, 1);
	if (!a->layout_undef)
		abort();
}

static void fini(struct as *a)
{
	asm_symtab_free(&a->syms);
	asm_symtab_free(&a->tags);
	free(a->layout_undef);
	free(a->cs);
	free(a->insns);
	free(a->labels);
	vpmu_buf_free(&a->mem);
}

/* ---- microcode: the image ------------------------------------------------ */

static uint32_t align8(uint32_t v)
{
	return (v + 7) & ~7u;
}

static void put_image(struct as *a, struct vpmu_buf *out)
{
	struct vpmu_image_header h = a->h;
	uint32_t nid = 1u << h.op_bits, i, str = 0;
	uint8_t *img;

	h.magic = VPMU_IMAGE_MAGIC;
	h.version = VPMU_IMAGE_VERSION;
	h.header_size = sizeof(h);
	h.cs_words = a->ncs;
	h.cs_offset = align8(sizeof(h));
	h.id_offset = h.cs_offset + 8 * a->ncs;
	h.sym_count = a->nlabels;
	h.sym_offset = align8(h.id_offset + 4 * nid);
	h.insn_count = a->ninsns;
	h.insn_offset = align8(h.sym_offset +
			       a->nlabels * sizeof(struct vpmu_image_sym));
	h.str_offset = align8(h.insn_offset +
			      a->ninsns * sizeof(struct vpmu_image_insn));
	/* no .tag: no tag table, the image as it was before there was one */
	h.tag_count = a->tags.n;
	h.tag_offset = a->tags.n ? h.str_offset : 0;
	h.str_offset = align8(h.str_offset +
			      a->tags.n * sizeof(struct vpmu_image_tag));
	for (i = 0; i < a->nlabels; i++)
		h.str_size += strlen(a->labels[i].name) + 1;
	for (i = 0; i < a->ninsns; i++)
		h.str_size += strlen(a->insns[i].name) + 1;
	for (i = 0; i < a->tags.n; i++)
		h.str_size += strlen(a->tags.v[i].name) + 1;
	h.total_size = h.str_offset + h.str_size;

	img = calloc(1, h.total_size);
	if (!img)
		abort();
	memcpy(img, &h, sizeof(h));
	for (i = 0; i < a->ncs; i++) {
		vpmu_put32(img + h.cs_offset + 8 * i, (uint32_t)a->cs[i]);
		vpmu_put32(img + h.cs_offset + 8 * i + 4, a->cs[i] >> 32);
	}
	for (i = 0; i < nid; i++)
		vpmu_put32(img + h.id_offset + 4 * i,
			   a->idline[i] ? a->idtab[i] : a->deflt);
	for (i = 0; i < a->nlabels; i++) {
		struct vpmu_image_sym s = { str, a->labels[i].addr };
		size_t n = strlen(a->labels[i].name) + 1;

		memcpy(img + h.sym_offset + i * sizeof(s), &s, sizeof(s));
		memcpy(img + h.str_offset + str, a->labels[i].name, n);
		str += n;
	}
	for (i = 0; i < a->ninsns; i++) {
		struct vpmu_image_insn in = a->insns[i].in;
		size_t n = strlen(a->insns[i].name) + 1;

		in.name = str;
		memcpy(img + h.insn_offset + i * sizeof(in), &in, sizeof(in));
		memcpy(img + h.str_offset + str, a->insns[i].name, n);
		str += n;
	}
	/* in the order of the .tag lines */
	for (i = 0; i < a->tags.n; i++) {
		struct vpmu_image_tag t = { str, (uint32_t)a->tags.v[i].val };
		size_t n = strlen(a->tags.v[i].name) + 1;

		memcpy(img + h.tag_offset + i * sizeof(t), &t, sizeof(t));
		memcpy(img + h.str_offset + str, a->tags.v[i].name, n);
		str += n;
	}
	vpmu_image_seal(img, h.total_size);
	vpmu_buf_put(out, img, h.total_size);
	free(img);
}

int vpmu_asm_ucode(const char *src, size_t len,
		   const struct vpmu_asm_opts *opts,
		   struct vpmu_buf *out, struct vpmu_buf *diag)
{
	struct as a;
	int nerr;

	init(&a, src, len, opts, diag);
	run_pass(&a, 1);
	a.ncs_final = a.ncs;
	run_pass(&a, 2);
	if (!a.ncs && !a.nerr)
		asm_error_lc(&a, a.line, 1, "no microwords");
	if (!a.nerr)
		put_image(&a, out);
	nerr = a.nerr;
	fini(&a);
	return nerr;
}

int vpmu_asm_prog(const char *src, size_t len, const void *img,
		  size_t img_len, const struct vpmu_asm_opts *opts,
		  struct vpmu_buf *out, struct vpmu_buf *diag)
{
	struct vpmu_program_header h = { 0 };
	struct as a;
	int nerr;

	init(&a, src, len, opts, diag);
	a.prog = true;
	if (vpmu_img_view(&a.img, img, img_len, diag)) {
		fini(&a);
		return 1;
	}
	run_pass(&a, 1);
	run_pass(&a, 2);
	if (!a.nerr) {
		h.mem_size = a.have_memsize ? (uint32_t)a.memsize :
			     (a.hi + 4095) & ~4095u;
		if (!h.mem_size)
			h.mem_size = 4096;
		if (h.mem_size < a.hi)
			asm_error_lc(&a, a.line, 1,
				     "memory size %u is smaller than the program (%u bytes)",
				     h.mem_size, a.hi);
		if (a.have_entry && a.entry >= h.mem_size)
			asm_error_lc(&a, a.line, 1, "entry point 0x%llx outside memory",
				     (long long)a.entry);
	}
	if (!a.nerr) {
		h.magic = VPMU_PROG_MAGIC;
		h.version = VPMU_PROG_VERSION;
		h.header_size = sizeof(h);
		h.total_size = sizeof(h) + a.hi;
		h.flags = a.super ? VPMU_PROG_F_SUPER : 0;
		h.entry = a.have_entry ? (uint32_t)a.entry : 0;
		h.load_size = a.hi;
		h.image_checksum = a.img.h.checksum;
		{
			size_t base = out->len;

			vpmu_buf_put(out, &h, sizeof(h));
			vpmu_buf_put(out, a.mem.p, a.hi);
			vpmu_put32(out->p + base +
				   offsetof(struct vpmu_program_header, checksum),
				   vpmu_prog_crc(out->p + base, h.total_size));
		}
	}
	nerr = a.nerr;
	fini(&a);
	return nerr;
}
