// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu_asm_ucode.c - the assembler's microcode: a microword's parts and
 * their operands (uword()), and the directives that describe the image
 * (.name, .evmode, .opcode, .tag, .insn, .idtab, ...: vpmu_asm.c's table
 * names them), checked as they come.
 *
 * The parts, operands and conditions are looked up in the vpmu_isa.c
 * tables; vpmu_asm.c writes the image out (put_image()).
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "vpmu_asm_priv.h"

/* ---- microcode: operands ----------------------------------------------- */

static int opnd_lookup(const char *name)
{
	int i;

	for (i = 0; i < 1 << VPMU_UW_DST_BITS; i++)
		if (vpmu_opnd_info[i].name && i != VPMU_OPND_IMM &&
		    !strcasecmp(vpmu_opnd_info[i].name, name))
			return i;
	return -1;
}

/*
 * One operand for @role (DST, A or B): a name from vpmu_opnd_info, or
 * (B only) "#expr".  Returns the operand code, or -1 after an error; *imm
 * gets the value.
 */
static int parse_operand(struct as *a, enum vpmu_role role, int64_t *imm)
{
	static const char *const roles[] = {
		[VPMU_ROLE_DST] = "destination", [VPMU_ROLE_A] = "source A",
		[VPMU_ROLE_B] = "source B",
	};
	char name[IDENT_MAX];
	const char *at;
	int code;

	asm_skip_ws(a);
	at = a->p;
	if (asm_accept(a, '#')) {
		if (role != VPMU_ROLE_B) {
			asm_error(a, at, "an immediate cannot be the %s",
				  roles[role]);
			return -1;
		}
		if (!asm_expr_range(a, imm, -(1 << (VPMU_UW_IMM_BITS - 1)),
				    (1 << (VPMU_UW_IMM_BITS - 1)) - 1, "immediate"))
			return -1;
		return VPMU_OPND_IMM;
	}
	if (!asm_ident(a, name)) {
		asm_error(a, at, "expected an operand but found %s", asm_what(a));
		return -1;
	}
	code = opnd_lookup(name);
	if (code < 0) {
		asm_error(a, at, "unknown operand '%s'", name);
		return -1;
	}
	if (role == VPMU_ROLE_DST &&
	    vpmu_opnd_info[code].access == VPMU_ACC_RO) {
		asm_error(a, at, "'%s' is read-only and cannot be the destination",
			  name);
		return -1;
	}
	return code;
}

/* "off(a)" of a load or store, offset optional. */
static bool mem_operand(struct as *a, int64_t *off, int *base)
{
	int64_t dummy;

	*off = 0;
	asm_skip_ws(a);
	if (a->p < a->le && *a->p != '(' &&
	    !asm_expr_range(a, off, -(1 << (VPMU_UW_IMM_BITS - 1)),
			    (1 << (VPMU_UW_IMM_BITS - 1)) - 1, "offset"))
		return false;
	if (!asm_expect(a, '('))
		return false;
	*base = parse_operand(a, VPMU_ROLE_A, &dummy);
	return *base >= 0 && asm_expect(a, ')');
}

static bool small_arg(struct as *a, int64_t *v, int64_t lo, int64_t hi,
		      const char *what_for)
{
	asm_accept(a, '#');
	return asm_expr_range(a, v, lo, hi, what_for);
}

/* An ALU part's operand values, as its roles fill them. */
struct alu_opnds {
	int dst, a, b;
	int64_t imm;
};

/* EXT's "pos, len" or SEXT's "width" (vpmu_field_poslen()), into IMM. */
static bool field_operand(struct as *a, int op, int64_t *imm)
{
	const char *lat;
	int64_t len;

	if (!vpmu_field_poslen(op)) {
		if (!small_arg(a, imm, 1, 32, "field width"))
			return false;
		*imm -= 1;
		return true;
	}
	if (!small_arg(a, imm, 0, 31, "field position") || !asm_expect(a, ','))
		return false;
	asm_skip_ws(a);
	lat = a->p;
	if (!small_arg(a, &len, 1, 32, "field length"))
		return false;
	if (*imm + len > 32) {
		asm_error(a, lat, "field %lld..%lld runs past bit 31",
			  (long long)*imm, (long long)(*imm + len - 1));
		return false;
	}
	*imm = VPMU_EXT_IMM(*imm, len);
	return true;
}

/* The operand of role @role of operation @op, into @o. */
static bool alu_operand(struct as *a, int op, enum vpmu_role role,
			struct alu_opnds *o)
{
	const char *at;

	switch (role) {
	case VPMU_ROLE_DST:
		o->dst = parse_operand(a, role, &o->imm);
		return o->dst >= 0;
	case VPMU_ROLE_A:
		o->a = parse_operand(a, role, &o->imm);
		return o->a >= 0;
	case VPMU_ROLE_B:
		o->b = parse_operand(a, role, &o->imm);
		return o->b >= 0;
	case VPMU_ROLE_BREG:
		asm_skip_ws(a);
		at = a->p;
		o->b = parse_operand(a, VPMU_ROLE_B, &o->imm);
		if (o->b == VPMU_OPND_IMM) {
			asm_error(a, at, "%s stores a register, not an immediate",
				  vpmu_op_info[op].name);
			return false;
		}
		return o->b >= 0;
	case VPMU_ROLE_FIELD:
		return field_operand(a, op, &o->imm);
	case VPMU_ROLE_MEM:
		return mem_operand(a, &o->imm, &o->a);
	case VPMU_ROLE_MODE:
		return small_arg(a, &o->imm, 0, 1, "mode");
	case VPMU_ROLE_NONE:
		break;
	}
	return true;
}

/*
 * The ALU/memory part: "OP[.s] operands", the operands its signature
 * lists, separated by commas, into the fields it uses.
 */
static bool alu_part(struct as *a, const char *at, int op, bool s,
		     uint64_t *uw)
{
	const struct vpmu_op_info *oi = &vpmu_op_info[op];
	const struct vpmu_sig_info *si = &vpmu_sig_info[oi->sig];
	struct alu_opnds o = { 0 };
	unsigned int k;

	if (s && !vpmu_sig_result(oi->sig)) {
		asm_error(a, at, "'.s' is not allowed on %s (no ALU result)",
			  oi->name);
		return false;
	}
	for (k = 0; k < VPMU_SIG_OPNDS && si->opnd[k]; k++)
		if ((k && !asm_expect(a, ',')) ||
		    !alu_operand(a, op, si->opnd[k], &o))
			return false;
	*uw |= VPMU_UW_PUT(OP, op) |
	       ((VPMU_UW_PUT(S, s) | VPMU_UW_PUT(DST, o.dst) |
		 VPMU_UW_PUT(A, o.a) | VPMU_UW_PUT(B, o.b) |
		 VPMU_UW_PUT(IMM, o.imm)) &
		vpmu_uwf_bits(vpmu_sig_fields(oi->sig, o.b)));
	return true;
}

static bool target(struct as *a, int64_t *v, uint32_t span)
{
	const char *at;

	asm_skip_ws(a);
	at = a->p;
	if (!asm_expr(a, v))
		return false;
	if (a->pass == 2 && (*v < 0 || *v + span > a->ncs_final)) {
		if (span > 1)
			asm_error(a, at,
				  "dispatch table %lld..%lld outside the control store (%u words)",
				  (long long)*v, (long long)(*v + span - 1),
				  a->ncs_final);
		else
			asm_error(a, at,
				  "micro-address %lld outside the control store (%u words)",
				  (long long)*v, a->ncs_final);
		return false;
	}
	return true;
}

static int cond_lookup(const char *name)
{
	int i;

	for (i = 0; i < VPMU_COND_NR; i++)
		if (vpmu_cond_info[i].name &&
		    !strcasecmp(vpmu_cond_info[i].name, name))
			return i;
	return -1;
}

/* The sequencer operand of role @role of a signature @sig, into *t, *c. */
static bool seq_operand(struct as *a, enum vpmu_seqsig sig,
			enum vpmu_seqrole role, int64_t *t, int64_t *c)
{
	char name[IDENT_MAX];
	const char *at;

	switch (role) {
	case VPMU_SEQROLE_TARGET:
		return target(a, t, vpmu_seqsig_span(sig, *c));
	case VPMU_SEQROLE_COND:
		asm_skip_ws(a);
		at = a->p;
		if (!asm_need_ident(a, name, "a condition"))
			return false;
		*c = cond_lookup(name);
		if (*c < 0) {
			asm_error(a, at, "unknown condition '%s'", name);
			return false;
		}
		return true;
	case VPMU_SEQROLE_WIDTH:
		return small_arg(a, c, 1, 8, "dispatch width");
	case VPMU_SEQROLE_CODE:
		return small_arg(a, t, 0, (1 << VPMU_UW_TARGET_BITS) - 1,
				 "trap code");
	case VPMU_SEQROLE_NONE:
		break;
	}
	return true;
}

/*
 * The sequencer part: "SEQ operands", the operands its signature lists,
 * separated by commas, into the fields it uses.
 */
static bool seq_part(struct as *a, int seq, uint64_t *uw)
{
	enum vpmu_seqsig sig = vpmu_seq_info[seq].sig;
	const struct vpmu_seqsig_info *si = &vpmu_seqsig_info[sig];
	int64_t t = 0, c = 0;
	unsigned int k;

	for (k = 0; k < VPMU_SEQSIG_OPNDS && si->opnd[k]; k++)
		if ((k && !asm_expect(a, ',')) ||
		    !seq_operand(a, sig, si->opnd[k], &t, &c))
			return false;
	*uw |= VPMU_UW_PUT(SEQ, seq) |
	       ((VPMU_UW_PUT(TARGET, t) | VPMU_UW_PUT(COND, c)) &
		vpmu_uwf_bits(si->fields));
	return true;
}

/* "{tag, tag, ...}": tag names from .tag, or numbers. */
static bool event_part(struct as *a, uint64_t *uw)
{
	bool onehot = a->h.ev_mode == VPMU_EVMODE_ONEHOT;
	int64_t hi = onehot ? (int64_t)a->h.ev_bits : (1 << a->h.ev_bits) - 1;
	uint32_t field = 0;
	int n = 0;

	if (asm_accept(a, '}'))
		return true;
	do {
		char name[IDENT_MAX];
		const char *at, *save;
		struct sym *t = NULL;
		int64_t k;

		asm_skip_ws(a);
		at = a->p;
		save = a->p;
		if (asm_ident(a, name)) {
			t = asm_sym_find(&a->tags, name);
			if (!t && !asm_sym_find(&a->syms, name)) {
				asm_error(a, at, "unknown tag '%s'", name);
				return false;
			}
		}
		if (t) {
			k = t->val;
		} else {
			a->p = save;
			if (!asm_expr(a, &k))
				return false;
		}
		if (k < 1 || k > hi) {
			asm_error(a, at,
				  "tag %lld out of range 1..%lld for %s %u-bit event fields",
				  (long long)k, (long long)hi,
				  onehot ? "one-hot" : "encoded", a->h.ev_bits);
			return false;
		}
		if (!onehot && n++) {
			asm_error(a, at, "an encoded event field holds one tag");
			return false;
		}
		field |= onehot ? 1u << (k - 1) : (uint32_t)k;
	} while (asm_accept(a, ','));
	if (!asm_expect(a, '}'))
		return false;
	*uw |= VPMU_UW_PUT(EVENT, field);
	return true;
}

static int op_lookup(const char *name)
{
	int i;

	for (i = 0; i < VPMU_OP_NR; i++)
		if (vpmu_op_info[i].name &&
		    !strcasecmp(vpmu_op_info[i].name, name))
			return i;
	return -1;
}

static int seq_lookup(const char *name)
{
	int i;

	for (i = 0; i < VPMU_SEQ_NR; i++)
		if (vpmu_seq_info[i].name &&
		    !strcasecmp(vpmu_seq_info[i].name, name))
			return i;
	return -1;
}

/* Append a microword (pass 1 only counts them). */
static void emit_uword(struct as *a, uint64_t uw)
{
	if (a->pass == 1) {
		a->ncs++;
		return;
	}
	if (a->ncs >= a->cs_cap) {
		a->cs_cap = a->cs_cap ? 2 * a->cs_cap : 256;
		a->cs = realloc(a->cs, a->cs_cap * sizeof(*a->cs));
		if (!a->cs)
			abort();
	}
	a->cs[a->ncs++] = uw;
}

/* The parts a microword has so far. */
struct uword_parts {
	bool alu, seq, ev, trig;
};

/*
 * One part of a microword into *@uw: "{tags}", "trig", an ALU/memory
 * operation or a sequencer operation, none of them twice but "trig".
 * False, with the error reported, if the rest of the line cannot be read.
 */
static bool uword_part(struct as *a, struct uword_parts *have, uint64_t *uw)
{
	char name[IDENT_MAX], *dot;
	const char *at;
	int op, seq;

	asm_skip_ws(a);
	at = a->p;
	if (asm_accept(a, '{')) {
		if (have->ev) {
			asm_error(a, at, "more than one event field");
			return false;
		}
		have->ev = true;
		return event_part(a, uw);
	}
	if (!asm_ident(a, name)) {
		asm_error(a, at, "expected a microword part but found %s",
			  asm_what(a));
		return false;
	}
	if (!strcasecmp(name, "trig")) {
		if (have->trig)
			asm_error(a, at, "'trig' given twice");
		have->trig = true;
		return true;
	}
	dot = strchr(name, '.');
	if (dot)
		*dot = '\0';
	op = op_lookup(name);
	if (op >= 0) {
		if (dot && strcasecmp(dot + 1, "s")) {
			asm_error(a, at, "unknown suffix '.%s'", dot + 1);
			return false;
		}
		if (have->alu) {
			asm_error(a, at, "more than one ALU operation");
			return false;
		}
		have->alu = true;
		return alu_part(a, at, op, dot, uw);
	}
	seq = dot ? -1 : seq_lookup(name);
	if (seq < 0) {
		if (dot)
			*dot = '.';
		asm_error(a, at, "unknown mnemonic '%s'", name);
		return false;
	}
	if (have->seq) {
		asm_error(a, at, "more than one sequencer operation");
		return false;
	}
	have->seq = true;
	return seq_part(a, seq, uw);
}

/*
 * What a microword's parts must agree on: a sequencer operation that
 * reads the ALU result has one to read, CTR a register to write, and the
 * last word does not go on to the next.
 */
static void check_uword(struct as *a, uint64_t uw)
{
	unsigned int seq = VPMU_UW_GET(uw, SEQ);

	if (vpmu_seq_reads_result(seq)) {
		enum vpmu_sig sig = vpmu_op_info[VPMU_UW_GET(uw, OP)].sig;
		unsigned int dst = VPMU_UW_GET(uw, DST);

		if (!vpmu_sig_result(sig))
			asm_error(a, a->ls,
				  "%s needs an ALU result (a DAB, DB or DAF operation)",
				  vpmu_seq_info[seq].name);
		else if (seq == VPMU_SEQ_CTR && !vpmu_ctr_dst_ok(dst))
			asm_error(a, a->ls,
				  "CTR writes its counter to a register (r, t, @ds, @s1, @s2 or zero), not %s",
				  vpmu_opnd_info[dst].name);
	}
	if (a->ncs + 1 == a->ncs_final && vpmu_seq_falls_through(seq))
		asm_error(a, a->ls,
			  "the last microword cannot continue at the next address (%s)",
			  vpmu_seq_info[seq].name);
}

/*
 * A microword: parts separated by ';' in any order, each at most once:
 * an ALU/memory operation, a sequencer operation, "{tags}", "trig".
 */
void asm_uword(struct as *a)
{
	struct uword_parts have = { 0 };
	uint64_t uw = 0;

	if (a->ncs >= VPMU_CS_MAX) {
		asm_error(a, a->p, "control store full (%u words)",
			  (unsigned int)VPMU_CS_MAX);
		return;
	}
	if (a->pass == 1) {
		emit_uword(a, 0);
		return;
	}
	do {
		if (!uword_part(a, &have, &uw))
			goto out;
	} while (asm_accept(a, ';'));
	if (!asm_at_end(a)) {
		asm_error(a, a->p, "expected ';' or end of line but found %s",
			  asm_what(a));
		goto out;
	}
	check_uword(a, uw);
	uw |= VPMU_UW_PUT(T, have.trig);
out:
	emit_uword(a, uw);
}

/* ---- microcode: directives ---------------------------------------------- */

void asm_dir_name(struct as *a, const char *at)
{
	struct vpmu_buf s = { 0 };

	asm_skip_ws(a);
	at = a->p;
	if (asm_string(a, &s)) {
		if (s.len >= VPMU_IMAGE_NAME_LEN || (s.len && memchr(s.p, 0, s.len)))
			asm_error(a, at, "name must be 0..%d characters, no NUL",
				  VPMU_IMAGE_NAME_LEN - 1);
		else if (s.len)
			memcpy(a->h.name, s.p, s.len);
	}
	vpmu_buf_free(&s);
}

void asm_dir_version(struct as *a, const char *at)
{
	int64_t v;

	if (asm_expr_range(a, &v, 0, UINT32_MAX, "version"))
		a->h.image_version = (uint32_t)v;
}

void asm_dir_evmode(struct as *a, const char *at)
{
	char kw[IDENT_MAX];
	int64_t bits;

	if (a->ncs || (a->seen & SEEN_TAG)) {
		asm_error(a, at, ".evmode must come before any microword or .tag");
		return;
	}
	asm_skip_ws(a);
	at = a->p;
	if (!asm_need_ident(a, kw, "'onehot' or 'encoded'"))
		return;
	if (!strcasecmp(kw, "onehot")) {
		a->h.ev_mode = VPMU_EVMODE_ONEHOT;
	} else if (!strcasecmp(kw, "encoded")) {
		a->h.ev_mode = VPMU_EVMODE_ENCODED;
	} else {
		asm_error(a, at, "expected 'onehot' or 'encoded' but found '%s'",
			  kw);
		return;
	}
	asm_accept(a, ',');
	if (asm_expr_range(a, &bits, 1, VPMU_UW_EVENT_BITS, "event-field width"))
		a->h.ev_bits = (uint32_t)bits;
}

/* .flags NAME {, NAME} | none: the names of VPMU_IMG_FLAG_LIST */
void asm_dir_flags(struct as *a, const char *at)
{
#define VPMU_X_FLAG(name, bit, ...) { name, bit },
	static const struct { const char *name; uint32_t bit; } flags[] = {
		VPMU_IMG_FLAG_LIST(VPMU_X_FLAG)
	};
#undef VPMU_X_FLAG
	char kw[IDENT_MAX];
	size_t i;

	a->h.flags = 0;
	do {
		asm_skip_ws(a);
		at = a->p;
		if (!asm_need_ident(a, kw, "a flag name"))
			return;
		for (i = 0; i < ARRAY_SIZE(flags); i++)
			if (!strcasecmp(kw, flags[i].name))
				break;
		if (i < ARRAY_SIZE(flags)) {
			a->h.flags |= flags[i].bit;
		} else if (strcasecmp(kw, "none")) {
			asm_error(a, at, "unknown flag '%s'", kw);
			return;
		}
	} while (asm_accept(a, ','));
}

static bool pow2_arg(struct as *a, uint32_t *out, int64_t lo, int64_t hi,
		     const char *what_for)
{
	const char *at;
	int64_t v;

	asm_skip_ws(a);
	at = a->p;
	if (!asm_expr_range(a, &v, lo, hi, what_for))
		return false;
	if (v & (v - 1)) {
		asm_error(a, at, "%s %lld is not a power of 2", what_for,
			  (long long)v);
		return false;
	}
	*out = (uint32_t)v;
	return true;
}

void asm_dir_cache(struct as *a, const char *at)
{
	int64_t pen;

	if (!pow2_arg(a, &a->h.dc_lines, 1, 1024, "cache lines") ||
	    !asm_expect(a, ',') ||
	    !pow2_arg(a, &a->h.dc_line_size, 4, 256, "cache line size") ||
	    !asm_expect(a, ',') || !asm_expr_range(a, &pen, 0, 64, "miss penalty"))
		return;
	a->h.dc_miss_penalty = (uint32_t)pen;
}

void asm_dir_wqueue(struct as *a, const char *at)
{
	int64_t depth, drain;

	if (!asm_expr_range(a, &depth, 1, 32, "write-queue depth") ||
	    !asm_expect(a, ',') ||
	    !asm_expr_range(a, &drain, 1, 64, "write-queue drain time"))
		return;
	a->h.wq_depth = (uint32_t)depth;
	a->h.wq_drain = (uint32_t)drain;
}

void asm_dir_opcode(struct as *a, const char *at)
{
	int64_t shift, bits;

	if (a->seen & SEEN_INSN) {
		asm_error(a, at, ".opcode must come before any .insn");
		return;
	}
	if (!asm_expr_range(a, &shift, 0, 31, "opcode position") ||
	    !asm_expect(a, ',') ||
	    !asm_expr_range(a, &bits, 1, VPMU_OP_BITS_MAX, "opcode width"))
		return;
	if (shift + bits > 32) {
		asm_error(a, at, "opcode field runs past bit 31");
		return;
	}
	a->h.op_shift = (uint32_t)shift;
	a->h.op_bits = (uint32_t)bits;
}

/*
 * .tag NAME, K: NAME for {...}, and in the image's tag table, so a name
 * the validator takes (vpmu_tag_name_why()), and one per tag.
 */
void asm_dir_tag(struct as *a, const char *at)
{
	bool onehot = a->h.ev_mode == VPMU_EVMODE_ONEHOT;
	char name[IDENT_MAX];
	const char *why;
	struct sym *t;
	uint32_t i;
	int64_t k;

	a->seen |= SEEN_TAG;
	asm_skip_ws(a);
	at = a->p;
	if (!asm_need_ident(a, name, "a tag name"))
		return;
	asm_accept(a, ',');
	if (!asm_expr_range(a, &k, 1, onehot ? (int64_t)a->h.ev_bits :
			    (1 << a->h.ev_bits) - 1, "tag"))
		return;
	why = vpmu_tag_name_why(name);
	if (why) {
		asm_error(a, at, "tag name '%s' %s", name, why);
		return;
	}
	t = asm_sym_find(&a->tags, name);
	if (t && t->line != a->line) {
		asm_error(a, at, "duplicate tag '%s' (first defined on line %d)",
			  name, t->line);
		return;
	}
	for (i = 0; i < a->tags.n; i++) {
		const struct sym *o = &a->tags.v[i];

		if (o != t && o->known && o->val == k && o->line < a->line) {
			asm_error(a, at, "tag %lld already named '%s' (line %d)",
				  (long long)k, o->name, o->line);
			return;
		}
	}
	if (!t) {
		t = asm_sym_add(&a->tags, name);
		t->line = a->line;
	}
	t->val = k;
	t->known = true;
}

/* A label naming a micro-address, for the ID table. */
static bool uaddr(struct as *a, uint32_t *out)
{
	int64_t v;

	if (!target(a, &v, 1))
		return false;
	*out = (uint32_t)v;
	return true;
}

static void set_idtab(struct as *a, const char *at, uint32_t opc,
		      uint32_t addr)
{
	if (a->idline[opc] && a->idtab[opc] != addr) {
		asm_error(a, at, "opcode %u already dispatched to %u (line %d)",
			  opc, a->idtab[opc], a->idline[opc]);
		return;
	}
	a->idtab[opc] = addr;
	a->idline[opc] = a->line;
}

static uint32_t opcode_of(const struct as *a, uint32_t word)
{
	return (word >> a->h.op_shift) & ((1u << a->h.op_bits) - 1);
}

static uint32_t opcode_mask(const struct as *a)
{
	return ((1u << a->h.op_bits) - 1) << a->h.op_shift;
}

/* One operand of .insn: "[(]kind:pos:width[:shift][)]". */
static bool insn_operand(struct as *a, struct vpmu_image_operand *op,
			 bool first)
{
	char kind[IDENT_MAX];
	int64_t pos, width, shift = 0;
	bool paren;
	const char *at;
	unsigned int k;

	asm_skip_ws(a);
	at = a->p;
	paren = asm_accept(a, '(');
	if (!asm_need_ident(a, kind, "an operand kind"))
		return false;
	for (k = 1; vpmu_mop_name(k); k++)
		if (!strcasecmp(kind, vpmu_mop_name(k)))
			break;
	if (!vpmu_mop_name(k)) {
		asm_error(a, at,
			  "unknown operand kind '%s' (reg, uimm, simm, pcrel, abs)",
			  kind);
		return false;
	}
	if (!asm_expect(a, ':') || !asm_expr_range(a, &pos, 0, 31, "field position") ||
	    !asm_expect(a, ':') || !asm_expr_range(a, &width, 1, 32, "field width"))
		return false;
	if (asm_accept(a, ':') && !asm_expr_range(a, &shift, 0, 31, "shift"))
		return false;
	if (paren && !asm_expect(a, ')'))
		return false;
	if (pos + width > 32) {
		asm_error(a, at, "operand field runs past bit 31");
		return false;
	}
	if (shift && k != VPMU_MOP_PCREL && k != VPMU_MOP_ABS) {
		asm_error(a, at, "only pcrel and abs operands take a shift");
		return false;
	}
	if (paren && (k != VPMU_MOP_REG || first)) {
		asm_error(a, at,
			  "only a register after another operand can be parenthesised");
		return false;
	}
	op->kind = k;
	op->pos = pos;
	op->width = width;
	op->shift = shift;
	op->flags = paren ? VPMU_MOPF_PAREN : 0;
	return true;
}

/* .insn NAME, MATCH {, OPERAND | , mask=EXPR} [=> ENTRY] */
void asm_dir_insn(struct as *a, const char *at)
{
	struct insn_decl d = { 0 };
	uint32_t fields = 0, i;
	bool have_mask = false;
	int64_t v;

	a->seen |= SEEN_INSN;
	asm_skip_ws(a);
	d.line = a->line;
	d.col = (int)(a->p - a->ls) + 1;
	if (!asm_need_ident(a, d.name, "a mnemonic") || !asm_expect(a, ',') ||
	    !asm_expr_range(a, &v, 0, UINT32_MAX, "match"))
		return;
	d.in.match = (uint32_t)v;
	while (asm_accept(a, ',')) {
		const char *item;
		char kw[IDENT_MAX];

		asm_skip_ws(a);
		item = a->p;
		if (asm_ident(a, kw) && !strcasecmp(kw, "mask") && asm_accept(a, '=')) {
			if (!asm_expr_range(a, &v, 0, UINT32_MAX, "mask"))
				return;
			d.in.mask = (uint32_t)v;
			have_mask = true;
			continue;
		}
		a->p = item;
		if (d.in.nops == VPMU_INSN_MAX_OPS) {
			asm_error(a, item, "more than %d operands",
				  VPMU_INSN_MAX_OPS);
			return;
		}
		if (!insn_operand(a, &d.in.ops[d.in.nops], !d.in.nops))
			return;
		if (vpmu_mop_mask(&d.in.ops[d.in.nops]) & fields) {
			asm_error(a, item, "operand fields overlap");
			return;
		}
		fields |= vpmu_mop_mask(&d.in.ops[d.in.nops++]);
	}
	if (!have_mask)
		d.in.mask = ~fields;
	if (d.in.match & ~d.in.mask) {
		asm_error(a, at, "match 0x%08x has bits outside mask 0x%08x",
			  d.in.match, d.in.mask);
		return;
	}
	if (d.in.mask & fields) {
		asm_error(a, at, "mask 0x%08x overlaps the operand fields",
			  d.in.mask);
		return;
	}
	if (opcode_mask(a) & ~d.in.mask) {
		asm_error(a, at, "mask 0x%08x does not cover the opcode field",
			  d.in.mask);
		return;
	}
	for (i = 0; i < a->ninsns; i++) {
		if (!strcasecmp(a->insns[i].name, d.name)) {
			asm_error(a, at, "duplicate instruction '%s' (line %d)",
				  d.name, a->insns[i].line);
			return;
		}
	}
	asm_skip_ws(a);
	if (a->le - a->p >= 2 && a->p[0] == '=' && a->p[1] == '>') {
		uint32_t addr;

		a->p += 2;
		asm_skip_ws(a);
		at = a->p;
		if (!uaddr(a, &addr))
			return;
		set_idtab(a, at, opcode_of(a, d.in.match), addr);
	}
	a->insns = realloc(a->insns, (a->ninsns + 1) * sizeof(*a->insns));
	if (!a->insns)
		abort();
	a->insns[a->ninsns++] = d;
}

/*
 * .idtab OPCODE, ENTRY [, mask=EXPR]: the ID-table entry of OPCODE, or,
 * with a mask, of every opcode whose bits in the mask are OPCODE's.
 */
void asm_dir_idtab(struct as *a, const char *at)
{
	uint32_t addr, i, n = 1u << a->h.op_bits, mask = n - 1;
	char kw[IDENT_MAX];
	const char *mat;
	int64_t opc, v;

	if (!asm_expr_range(a, &opc, 0, n - 1, "opcode") || !asm_expect(a, ','))
		return;
	asm_skip_ws(a);
	at = a->p;
	if (!uaddr(a, &addr))
		return;
	if (asm_accept(a, ',')) {
		asm_skip_ws(a);
		mat = a->p;
		if (!asm_ident(a, kw) || strcasecmp(kw, "mask") || !asm_accept(a, '=')) {
			asm_error(a, mat, "expected mask=EXPR");
			return;
		}
		if (!asm_expr_range(a, &v, 0, n - 1, "mask"))
			return;
		mask = (uint32_t)v;
		if (opc & ~(int64_t)mask) {
			asm_error(a, mat, "opcode 0x%x has bits outside mask 0x%x",
				  (uint32_t)opc, mask);
			return;
		}
	}
	for (i = 0; i < n; i++)
		if ((i & mask) == (uint32_t)opc)
			set_idtab(a, at, i, addr);
}

void asm_dir_default(struct as *a, const char *at)
{
	uaddr(a, &a->deflt);
}

void asm_dir_symbols(struct as *a, const char *at)
{
	char kw[IDENT_MAX];

	asm_skip_ws(a);
	at = a->p;
	if (!asm_need_ident(a, kw, "'on' or 'off'"))
		return;
	if (!strcasecmp(kw, "on"))
		a->symbols_off = false;
	else if (!strcasecmp(kw, "off"))
		a->symbols_off = true;
	else
		asm_error(a, at, "expected 'on' or 'off' but found '%s'", kw);
}

/* .uword EXPR: a raw microword, not checked (for tests of the validator). */
void asm_dir_uword(struct as *a, const char *at)
{
	int64_t v;

	if (a->ncs >= VPMU_CS_MAX) {
		asm_error(a, at, "control store full (%u words)",
			  (unsigned int)VPMU_CS_MAX);
		return;
	}
	if (!asm_expr(a, &v))
		v = 0;
	emit_uword(a, (uint64_t)v);
}
