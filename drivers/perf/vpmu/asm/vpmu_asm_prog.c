// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu_asm_prog.c - the assembler's programs: the instructions of the
 * instruction set the image declares (instruction()) and their operands,
 * and the directives for data and layout (.word, .ascii, .space, .align,
 * .org, .entry, .memsize, .mode: vpmu_asm.c's table names them).
 *
 * The bytes go into a->mem at the location counter; vpmu_asm.c's
 * vpmu_asm_prog() writes the program file.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "vpmu_asm_priv.h"

/* ---- programs ------------------------------------------------------------ */

static void emit_bytes(struct as *a, const char *at, const void *data,
		       uint32_t n)
{
	if (VPMU_PROG_MEM_MAX - a->lc < n) {
		asm_error(a, at, "program larger than %u bytes",
			  (unsigned int)VPMU_PROG_MEM_MAX);
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
		asm_error(a, at, "program larger than %u bytes",
			  (unsigned int)VPMU_PROG_MEM_MAX);
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

		asm_skip_ws(a);
		at = a->p;
		if (!asm_expr_range(a, &v, lo, hi, "value"))
			v = 0;
		vpmu_put32(b, (uint32_t)v);
		emit_bytes(a, at, b, size);
		if (a->line_err)
			return;
	} while (asm_accept(a, ','));
}

void asm_dir_word(struct as *a, const char *at) { dir_data(a, at, 4); }
void asm_dir_half(struct as *a, const char *at) { dir_data(a, at, 2); }
void asm_dir_byte(struct as *a, const char *at) { dir_data(a, at, 1); }

static void dir_ascii_common(struct as *a, const char *at, bool nul)
{
	struct vpmu_buf s = { 0 };

	if (asm_string(a, &s)) {
		if (nul)
			vpmu_buf_put(&s, "", 1);
		emit_bytes(a, at, s.p, (uint32_t)s.len);
	}
	vpmu_buf_free(&s);
}

void asm_dir_ascii(struct as *a, const char *at)
{
	dir_ascii_common(a, at, false);
}

void asm_dir_asciz(struct as *a, const char *at)
{
	dir_ascii_common(a, at, true);
}

void asm_dir_space(struct as *a, const char *at)
{
	int64_t n, fill = 0;

	if (!asm_layout_expr(a, &n, 0, VPMU_PROG_MEM_MAX, "size"))
		return;
	if (asm_accept(a, ',') && !asm_expr_range(a, &fill, -128, 255, "fill byte"))
		return;
	advance(a, at, (uint32_t)n, (uint8_t)fill);
}

void asm_dir_align(struct as *a, const char *at)
{
	int64_t n;

	asm_skip_ws(a);
	at = a->p;
	if (!asm_layout_expr(a, &n, 1, 1 << 16, "alignment"))
		return;
	if (n & (n - 1)) {
		asm_error(a, at, "alignment %lld is not a power of 2",
			  (long long)n);
		return;
	}
	advance(a, at, (uint32_t)(-a->lc & (n - 1)), 0);
}

void asm_dir_org(struct as *a, const char *at)
{
	int64_t n;

	asm_skip_ws(a);
	at = a->p;
	if (!asm_layout_expr(a, &n, 0, VPMU_PROG_MEM_MAX, "address"))
		return;
	if (n < a->lc) {
		asm_error(a, at, ".org 0x%llx moves backwards (now at 0x%x)",
			  (long long)n, a->lc);
		return;
	}
	advance(a, at, (uint32_t)(n - a->lc), 0);
}

void asm_dir_entry(struct as *a, const char *at)
{
	a->have_entry = asm_expr_range(a, &a->entry, 0, VPMU_PROG_MEM_MAX - 4,
				       "entry point");
	if (a->have_entry && a->entry % 4)
		asm_error(a, at, "entry point 0x%llx is not word-aligned",
			  (long long)a->entry);
}

void asm_dir_memsize(struct as *a, const char *at)
{
	a->have_memsize = asm_expr_range(a, &a->memsize, 4, VPMU_PROG_MEM_MAX,
					 "memory size");
	if (a->have_memsize && a->memsize % 4)
		asm_error(a, at, "memory size %lld is not a multiple of 4",
			  (long long)a->memsize);
}

void asm_dir_mode(struct as *a, const char *at)
{
	char kw[IDENT_MAX];

	asm_skip_ws(a);
	at = a->p;
	if (!asm_need_ident(a, kw, "'user' or 'super'"))
		return;
	if (!strcasecmp(kw, "user"))
		a->super = false;
	else if (!strcasecmp(kw, "super"))
		a->super = true;
	else
		asm_error(a, at, "expected 'user' or 'super' but found '%s'", kw);
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
			asm_error(a, at, "%s target offset %lld is not a multiple of %d",
				  kind, (long long)v, 1 << op->shift);
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
			asm_error(a, at,
				  "branch target out of range (%lld words away, field holds %lld..%lld)",
				  (long long)v, (long long)lo, (long long)hi);
		else
			asm_error(a, at,
				  "%s value %lld out of range %lld..%lld for a %u-bit field",
				  kind, (long long)v, (long long)lo, (long long)hi,
				  op->width);
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

	asm_skip_ws(a);
	at = a->p;
	if (!asm_ident(a, name) || (name[0] != 'r' && name[0] != 'R') ||
	    !isdigit((unsigned char)name[1])) {
		a->p = at;
		asm_error(a, at, "expected a register (r0..r31) but found %s",
			  asm_what(a));
		return false;
	}
	n = strtol(name + 1, &end, 10);
	if (*end || n > 31) {
		asm_error(a, at, "no register '%s'", name);
		return false;
	}
	return encode_operand(a, at, op, n, word);
}

void asm_instruction(struct as *a, const char *at, const char *name)
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
		asm_error(a, at, "unknown mnemonic '%s'", name);
		advance(a, at, 4, 0);
		return;
	}
	if (a->lc % 4)
		asm_error(a, at, "instruction at unaligned address 0x%x", a->lc);
	word = in.match;
	for (i = 0; a->pass == 2 && i < in.nops && i < VPMU_INSN_MAX_OPS; i++) {
		const struct vpmu_image_operand *op = &in.ops[i];
		const char *oat;
		int64_t v;

		if (op->flags & VPMU_MOPF_PAREN) {
			if (!asm_expect(a, '('))
				break;
		} else if (i && !asm_expect(a, ',')) {
			break;
		}
		asm_skip_ws(a);
		oat = a->p;
		if (asm_at_end(a)) {
			asm_error(a, oat, "'%s' needs %u operands", name, in.nops);
			break;
		}
		if (op->kind == VPMU_MOP_REG) {
			if (!reg_operand(a, op, &word))
				break;
		} else if (!asm_expr(a, &v) || !encode_operand(a, oat, op, v, &word)) {
			break;
		}
		if ((op->flags & VPMU_MOPF_PAREN) && !asm_expect(a, ')'))
			break;
	}
	if (a->pass == 2 && !a->line_err && !asm_at_end(a))
		asm_error(a, a->p, "too many operands for '%s' (found %s)", name,
			  asm_what(a));
	vpmu_put32(b, word);
	emit_bytes(a, at, b, 4);
}
