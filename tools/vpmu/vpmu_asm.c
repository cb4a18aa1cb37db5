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
 */
#include <ctype.h>
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
	struct sym *s = sym_find(&a->syms, name);

	if (!s) {
		s = sym_add(&a->syms, name);
		s->line = a->line;
		return s;
	}
	if (s->line != a->line) {
		error(a, at, "duplicate symbol '%s' (first defined on line %d)",
		      name, s->line);
		return NULL;
	}
	return s;
}

static void define_label(struct as *a, const char *at, const char *name)
{
	struct sym *s;
	uint32_t addr = (uint32_t)location(a);

	if (!vpmu_label_valid(name)) {
		error(a, at, "'%s' is not a valid label name", name);
		return;
	}
	s = define(a, at, name);
	if (!s)
		return;
	if (!s->label && s->known) {
		error(a, at, "'%s' is already a constant", name);
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
		error(a, at, "label '%s' follows the last microword", name);
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

	skip_ws(a);
	at = a->p;
	if (!need_ident(a, name, "a symbol name"))
		return;
	accept(a, ',');
	a->undef = false;
	if (!expr(a, &v))
		return;
	s = define(a, at, name);
	if (!s)
		return;
	if (s->label) {
		error(a, at, "'%s' is a label", name);
		return;
	}
	s->val = v;
	s->known = !a->undef;
}

/* ---- programs ------------------------------------------------------------ */

static void emit_bytes(struct as *a, const char *at, const void *data,
		       uint32_t n)
{
	if (VPMU_PROG_MEM_MAX - a->lc < n) {
		error(a, at, "program larger than %u bytes", (unsigned int)VPMU_PROG_MEM_MAX);
		return;
	}
	if (a->pass == 2)	/* every byte up to lc has been emitted */
		vpmu_buf_put(&a->mem, data, n);
	a->lc += n;
	if (a->lc > a->hi)
		a->hi = a->lc;
}

static void advance(struct as *a, const char *at, uint32_t n, uint8_t fill)
{
	uint8_t buf[256];

	memset(buf, fill, sizeof(buf));
	if (VPMU_PROG_MEM_MAX - a->lc < n) {
		error(a, at, "program larger than %u bytes", (unsigned int)VPMU_PROG_MEM_MAX);
		return;
	}
	while (n) {
		uint32_t k = n < sizeof(buf) ? n : sizeof(buf);

		emit_bytes(a, at, buf, k);
		n -= k;
	}
}

/* .word/.half/.byte EXPR {, EXPR} */
static void dir_data(struct as *a, const char *at, unsigned int size)
{
	int64_t lo = -(1ll << (8 * size - 1)), hi = (1ll << (8 * size)) - 1;

	do {
		uint8_t b[4];
		int64_t v = 0;

		skip_ws(a);
		at = a->p;
		if (!expr_range(a, &v, lo, hi, "value"))
			v = 0;
		vpmu_put32(b, (uint32_t)v);
		emit_bytes(a, at, b, size);
		if (a->line_err)
			return;
	} while (accept(a, ','));
}

static void dir_word(struct as *a, const char *at) { dir_data(a, at, 4); }
static void dir_half(struct as *a, const char *at) { dir_data(a, at, 2); }
static void dir_byte(struct as *a, const char *at) { dir_data(a, at, 1); }

static void dir_ascii_common(struct as *a, const char *at, bool nul)
{
	struct vpmu_buf s = { 0 };

	if (string(a, &s)) {
		if (nul)
			vpmu_buf_put(&s, "", 1);
		emit_bytes(a, at, s.p, (uint32_t)s.len);
	}
	vpmu_buf_free(&s);
}

static void dir_ascii(struct as *a, const char *at) { dir_ascii_common(a, at, false); }
static void dir_asciz(struct as *a, const char *at) { dir_ascii_common(a, at, true); }

static void dir_space(struct as *a, const char *at)
{
	int64_t n, fill = 0;

	if (!layout_expr(a, &n, 0, VPMU_PROG_MEM_MAX, "size"))
		return;
	if (accept(a, ',') && !expr_range(a, &fill, -128, 255, "fill byte"))
		return;
	advance(a, at, (uint32_t)n, (uint8_t)fill);
}

static void dir_align(struct as *a, const char *at)
{
	int64_t n;

	skip_ws(a);
	at = a->p;
	if (!layout_expr(a, &n, 1, 1 << 16, "alignment"))
		return;
	if (n & (n - 1)) {
		error(a, at, "alignment %lld is not a power of 2",
		      (long long)n);
		return;
	}
	advance(a, at, (uint32_t)(-a->lc & (n - 1)), 0);
}

static void dir_org(struct as *a, const char *at)
{
	int64_t n;

	skip_ws(a);
	at = a->p;
	if (!layout_expr(a, &n, 0, VPMU_PROG_MEM_MAX, "address"))
		return;
	if (n < a->lc) {
		error(a, at, ".org 0x%llx moves backwards (now at 0x%x)",
		      (long long)n, a->lc);
		return;
	}
	advance(a, at, (uint32_t)(n - a->lc), 0);
}

static void dir_entry(struct as *a, const char *at)
{
	a->have_entry = expr_range(a, &a->entry, 0, VPMU_PROG_MEM_MAX - 4,
				   "entry point");
	if (a->have_entry && a->entry % 4)
		error(a, at, "entry point 0x%llx is not word-aligned",
		      (long long)a->entry);
}

static void dir_memsize(struct as *a, const char *at)
{
	a->have_memsize = expr_range(a, &a->memsize, 4, VPMU_PROG_MEM_MAX,
				     "memory size");
	if (a->have_memsize && a->memsize % 4)
		error(a, at, "memory size %lld is not a multiple of 4",
		      (long long)a->memsize);
}

static void dir_mode(struct as *a, const char *at)
{
	char kw[IDENT_MAX];

	skip_ws(a);
	at = a->p;
	if (!need_ident(a, kw, "'user' or 'super'"))
		return;
	if (!strcasecmp(kw, "user"))
		a->super = false;
	else if (!strcasecmp(kw, "super"))
		a->super = true;
	else
		error(a, at, "expected 'user' or 'super' but found '%s'", kw);
}

/* Encode one operand value into its field, range-checked. */
static bool encode_operand(struct as *a, const char *at,
			   const struct vpmu_image_operand *op, int64_t v,
			   uint32_t *word)
{
	int64_t span = op->width >= 32 ? 1ll << 32 : 1ll << op->width;
	int64_t lo = 0, hi = span - 1;
	const char *kind = vpmu_mop_name(op->kind);

	if (op->kind == VPMU_MOP_PCREL)
		v -= a->lc;
	if (op->kind == VPMU_MOP_PCREL || op->kind == VPMU_MOP_ABS) {
		if (v & ((1ll << op->shift) - 1)) {
			error(a, at, "%s target offset %lld is not a multiple "
			      "of %d", kind, (long long)v, 1 << op->shift);
			return false;
		}
		v >>= op->shift;	/* arithmetic on int64_t */
	}
	if (op->kind == VPMU_MOP_SIMM || op->kind == VPMU_MOP_PCREL) {
		lo = -(span / 2);
		hi = span / 2 - 1;
	}
	if (v < lo || v > hi) {
		if (op->kind == VPMU_MOP_PCREL)
			error(a, at, "branch target out of range (%lld words "
			      "away, field holds %lld..%lld)", (long long)v,
			      (long long)lo, (long long)hi);
		else
			error(a, at, "%s value %lld out of range %lld..%lld "
			      "for a %u-bit field", kind, (long long)v,
			      (long long)lo, (long long)hi, op->width);
		return false;
	}
	*word |= ((uint32_t)v << op->pos) & vpmu_mop_mask(op);
	return true;
}

static bool reg_operand(struct as *a, const struct vpmu_image_operand *op,
			uint32_t *word)
{
	char name[IDENT_MAX];
	const char *at;
	char *end;
	long n;

	skip_ws(a);
	at = a->p;
	if (!ident(a, name) || (name[0] != 'r' && name[0] != 'R') ||
	    !isdigit((unsigned char)name[1])) {
		a->p = at;
		error(a, at, "expected a register (r0..r31) but found %s",
		      what(a));
		return false;
	}
	n = strtol(name + 1, &end, 10);
	if (*end || n > 31) {
		error(a, at, "no register '%s'", name);
		return false;
	}
	return encode_operand(a, at, op, n, word);
}

static void instruction(struct as *a, const char *at, const char *name)
{
	struct vpmu_image_insn in;
	uint32_t i, word;
	uint8_t b[4];

	for (i = 0; i < a->img.h.insn_count; i++) {
		const char *s;

		vpmu_img_insn(&a->img, i, &in);
		s = vpmu_img_str(&a->img, in.name);
		if (s && !strcasecmp(s, name) && vpmu_insn_usable(&in))
			break;
	}
	if (i == a->img.h.insn_count) {
		error(a, at, "unknown mnemonic '%s'", name);
		advance(a, at, 4, 0);
		return;
	}
	if (a->lc % 4)
		error(a, at, "instruction at unaligned address 0x%x", a->lc);
	word = in.match;
	for (i = 0; a->pass == 2 && i < in.nops && i < VPMU_INSN_MAX_OPS; i++) {
		const struct vpmu_image_operand *op = &in.ops[i];
		const char *oat;
		int64_t v;

		if (op->flags & VPMU_MOPF_PAREN) {
			if (!expect(a, '('))
				break;
		} else if (i && !expect(a, ',')) {
			break;
		}
		skip_ws(a);
		oat = a->p;
		if (at_end(a)) {
			error(a, oat, "'%s' needs %u operands", name, in.nops);
			break;
		}
		if (op->kind == VPMU_MOP_REG) {
			if (!reg_operand(a, op, &word))
				break;
		} else if (!expr(a, &v) || !encode_operand(a, oat, op, v, &word)) {
			break;
		}
		if ((op->flags & VPMU_MOPF_PAREN) && !expect(a, ')'))
			break;
	}
	if (a->pass == 2 && !a->line_err && !at_end(a))
		error(a, a->p, "too many operands for '%s' (found %s)", name,
		      what(a));
	vpmu_put32(b, word);
	emit_bytes(a, at, b, 4);
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
	{ ".name",	dir_name,	SEEN_NAME,	false },
	{ ".version",	dir_version,	SEEN_VERSION,	false },
	{ ".evmode",	dir_evmode,	SEEN_EVMODE,	false },
	{ ".flags",	dir_flags,	SEEN_FLAGS,	false },
	{ ".cache",	dir_cache,	SEEN_CACHE,	false },
	{ ".wqueue",	dir_wqueue,	SEEN_WQUEUE,	false },
	{ ".opcode",	dir_opcode,	SEEN_OPCODE,	false },
	{ ".tag",	dir_tag,	0,		false },
	{ ".insn",	dir_insn,	0,		false },
	{ ".idtab",	dir_idtab,	0,		false },
	{ ".default",	dir_default,	SEEN_DEFAULT,	false },
	{ ".symbols",	dir_symbols,	0,		false },
	{ ".uword",	dir_uword,	0,		false },
	{ ".equ",	dir_equ_at,	0,		true },
	{ ".word",	dir_word,	0,		true },
	{ ".half",	dir_half,	0,		true },
	{ ".byte",	dir_byte,	0,		true },
	{ ".ascii",	dir_ascii,	0,		true },
	{ ".asciz",	dir_asciz,	0,		true },
	{ ".space",	dir_space,	0,		true },
	{ ".align",	dir_align,	0,		true },
	{ ".org",	dir_org,	0,		true },
	{ ".entry",	dir_entry,	0,		true },
	{ ".memsize",	dir_memsize,	0,		true },
	{ ".mode",	dir_mode,	0,		true },
};

static bool once(struct as *a, const char *at, unsigned int bit)
{
	if (a->seen & bit) {
		error(a, at, "directive given twice");
		return false;
	}
	a->seen |= bit;
	return true;
}

static void directive(struct as *a, const char *at, const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(directives) / sizeof(directives[0]); i++) {
		const struct directive *d = &directives[i];

		if (d->prog != a->prog || strcasecmp(d->name, name))
			continue;
		if (d->once && !once(a, at, d->once))
			return;
		d->fn(a, at);
		if (!a->line_err && !at_end(a))
			error(a, a->p, "unexpected %s after %s", what(a),
			      d->name);
		return;
	}
	error(a, at, "unknown directive '%s'", name);
	if (a->prog)
		return;
	/* keep addresses the same in both passes: nothing to count */
}

static void line(struct as *a)
{
	char name[IDENT_MAX];
	const char *at;

	for (;;) {
		skip_ws(a);
		at = a->p;
		if (!ident(a, name))
			break;
		if (!accept(a, ':')) {
			a->p = at;
			break;
		}
		define_label(a, at, name);
	}
	if (at_end(a))
		return;
	at = a->p;
	if (*at == '.' && ident(a, name) && strcmp(name, ".")) {
		directive(a, at, name);
		return;
	}
	a->p = at;
	if (!a->prog) {
		uword(a);
		return;
	}
	if (!ident(a, name)) {
		error(a, at, "expected a mnemonic, directive or label but "
		      "found %s", what(a));
		return;
	}
	instruction(a, at, name);
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
	symtab_free(&a->syms);
	symtab_free(&a->tags);
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
	for (i = 0; i < a->nlabels; i++)
		h.str_size += strlen(a->labels[i].name) + 1;
	for (i = 0; i < a->ninsns; i++)
		h.str_size += strlen(a->insns[i].name) + 1;
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
		error_lc(&a, a.line, 1, "no microwords");
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
			error_lc(&a, a.line, 1, "memory size %u is smaller "
				 "than the program (%u bytes)", h.mem_size, a.hi);
		if (a.have_entry && a.entry >= h.mem_size)
			error_lc(&a, a.line, 1, "entry point 0x%llx outside "
				 "memory", (long long)a.entry);
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
