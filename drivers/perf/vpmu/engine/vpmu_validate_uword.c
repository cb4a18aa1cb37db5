// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu_validate_uword.c - the validator's lower half: the verdict (the
 * rejection every check records, vpmu_reject(), or vpmu_accept()), and
 * one microword of an image against the ISA tables: its operation,
 * sequencer and condition codes, its operands and the fields it must
 * leave zero, and its event field; decoded into a struct vpmu_dec as it
 * passes.  vpmu_validate.c checks the image around it (header, layout,
 * tables) and calls vpmu_check_uword() on each microword of the control
 * store, whose offsets it has already put inside the image.
 */
#include "vpmu_validate_uword.h"

/* ---- rejection ---------------------------------------------------------- */

static const struct {
	int err;
	const char *msg;
} vpmu_verr_info[VPMU_VERR_NR] = {
#define VPMU_X(name, e, m)						\
	[VPMU_VERR_##name] = { e, m },
	VPMU_VERR_LIST(VPMU_X)
#undef VPMU_X
};

/*
 * Record why the image is rejected.  Returns the negative errno so callers
 * can "return vpmu_reject(...)".
 */
int vpmu_reject(struct vpmu_vctx *c, enum vpmu_verr_code code, u64 offset,
		const char *fmt, ...)
{
	struct vpmu_verr *e = c->err;
	int n = -vpmu_verr_info[code].err;
	va_list ap;

	if (!e)
		return n;
	e->code = code;
	e->err = n;
	e->offset = offset > 0xffffffffull ? 0xffffffffu : (u32)offset;
	va_start(ap, fmt);
	vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
	va_end(ap);
	return n;
}

/* Record that the image passed. */
void vpmu_accept(struct vpmu_vctx *c)
{
	struct vpmu_verr *e = c->err;

	if (!e)
		return;
	e->code = VPMU_VERR_OK;
	e->err = 0;
	snprintf(e->msg, sizeof(e->msg), "%s",
		 vpmu_verr_info[VPMU_VERR_OK].msg);
}

/* ---- microwords --------------------------------------------------------- */

enum vpmu_opnd_pos { POS_DST, POS_A, POS_B };

static const char *const vpmu_pos_name[] = { "DST", "A", "B" };

/*
 * An operand code in position @pos: one the register file has, writable if
 * a destination, the immediate only as B where the operation takes one.
 * The engine indexes its register file by these codes unchecked.
 */
static int vpmu_check_opnd(struct vpmu_vctx *c, u32 i, u64 off,
			   enum vpmu_opnd_pos pos, unsigned int code,
			   bool imm_ok)
{
	enum vpmu_opnd_access acc = vpmu_opnd_info[code].access;
	const char *why = NULL;

	if (acc == VPMU_ACC_NONE)
		why = "reserved";
	else if (pos == POS_DST && acc == VPMU_ACC_RO)
		why = "read-only";
	else if (acc == VPMU_ACC_BONLY && !(pos == POS_B && imm_ok))
		why = "immediate not allowed here";
	if (!why)
		return 0;
	return vpmu_reject(c, VPMU_VERR_OPERAND, off,
			   "microword %u: operand %s code %u %s",
			   i, vpmu_pos_name[pos], code, why);
}

/* Microword fields that must be zero where unused, in checking order. */
#define ZF(f)	{ #f, VPMU_UWF_##f, VPMU_UW_##f##_SHIFT, VPMU_UW_##f##_BITS }
static const struct {
	const char *name;
	u8 uwf, shift, bits;
} vpmu_zf[] = {
	ZF(DST), ZF(A), ZF(B), ZF(IMM), ZF(TARGET), ZF(COND),
};

#undef ZF

/* The first field of @fields (VPMU_UWF_*) not zero in @uw rejects it. */
static int vpmu_fields_zero(struct vpmu_vctx *c, u32 i, u64 off, u64 uw,
			    unsigned int fields, const char *what)
{
	unsigned int f;

	for (f = 0; f < ARRAY_SIZE(vpmu_zf); f++) {
		u32 v = (uw >> vpmu_zf[f].shift) &
			(BIT_ULL(vpmu_zf[f].bits) - 1);

		if ((fields & vpmu_zf[f].uwf) && v)
			return vpmu_reject(c, VPMU_VERR_RESERVED, off,
				"microword %u: %s field %s is %u, must be 0",
				i, what, vpmu_zf[f].name, v);
	}
	return 0;
}

/*
 * The value of an ALU operand of role @role in range, where the engine
 * takes it as it is: it shifts by EXT's and SEXT's fields, and sets the
 * privilege mode from MODE's.  Register operands are checked by field.
 */
static int vpmu_check_imm(struct vpmu_vctx *c, u32 i, u64 off,
			  const struct vpmu_dec *d, enum vpmu_role role)
{
	const char *opn = vpmu_op_info[d->op].name;

	if (vpmu_role_imm_ok(role, d->op, d->uimm))
		return 0;
	if (role == VPMU_ROLE_MODE)
		return vpmu_reject(c, VPMU_VERR_OPERAND, off,
			"microword %u: %s #%u, must be 0 or 1",
			i, opn, d->uimm);
	if (vpmu_field_poslen(d->op))
		return vpmu_reject(c, VPMU_VERR_OPERAND, off,
			"microword %u: %s field pos %u len %u exceeds 32 bits",
			i, opn, VPMU_EXT_POS(d->uimm),
			VPMU_EXT_LEN(d->uimm));
	return vpmu_reject(c, VPMU_VERR_OPERAND, off,
		"microword %u: %s field 0x%x is not width - 1 (0..31)",
		i, opn, d->uimm);
}

/*
 * The ALU part of microword @i by its operation's signature
 * (vpmu_sig_info[]): the operands of the fields it uses, in field order,
 * the fields it does not use zero (reserved for later formats), then each
 * immediate operand in range.
 */
static int vpmu_check_alu(struct vpmu_vctx *c, u32 i, u64 off, u64 uw,
			  struct vpmu_dec *d)
{
	const struct vpmu_sig_info *si = &vpmu_sig_info[d->sig];
	unsigned int used = vpmu_sig_fields(d->sig, d->b), k;
	int ret = 0;

	if (used & VPMU_UWF_DST)
		ret = vpmu_check_opnd(c, i, off, POS_DST, d->dst, false);
	if (!ret && (used & VPMU_UWF_A))
		ret = vpmu_check_opnd(c, i, off, POS_A, d->a, false);
	if (!ret && (used & VPMU_UWF_B))
		ret = vpmu_check_opnd(c, i, off, POS_B, d->b,
				      used & VPMU_UWF_BIMM);
	if (!ret)
		ret = vpmu_fields_zero(c, i, off, uw, VPMU_UWF_ALU & ~used,
				       vpmu_op_info[d->op].name);
	for (k = 0; !ret && k < VPMU_SIG_OPNDS; k++)
		ret = vpmu_check_imm(c, i, off, d, si->opnd[k]);
	return ret;
}

/*
 * CTR selects its counter by an ALU result and writes the counter into
 * that result's register: a macro register, a temporary, one through a
 * latch, or nothing (zero).
 */
static int vpmu_check_ctr(struct vpmu_vctx *c, u32 i, u64 off,
			  const struct vpmu_dec *d)
{
	if (!vpmu_sig_result(d->sig))
		return vpmu_reject(c, VPMU_VERR_OPCODE, off,
			"microword %u: CTR needs an ALU result, %s has none",
			i, vpmu_op_info[d->op].name);
	if (!vpmu_ctr_dst_ok(d->dst))
		return vpmu_reject(c, VPMU_VERR_OPERAND, off,
			"microword %u: CTR writes %s, not a register",
			i, vpmu_opnd_info[d->dst].name);
	return 0;
}

/*
 * A sequencer operand of role @role: every place control can go is
 * inside the control store (a target, a whole dispatch table), because
 * the engine jumps there without a check.  A TRAP's target is a code,
 * not an address.
 */
static int vpmu_check_seq_opnd(struct vpmu_vctx *c, u32 i, u64 off,
			       const struct vpmu_dec *d, enum vpmu_seqrole role)
{
	enum vpmu_seqsig sig = vpmu_seq_info[d->seq].sig;
	const char *sqn = vpmu_seq_info[d->seq].name;
	u32 n = c->h.cs_words, span;

	switch (role) {
	case VPMU_SEQROLE_TARGET:
		span = vpmu_seqsig_span(sig, d->cond);
		if (!vpmu_seqsig_takes(sig, VPMU_SEQROLE_WIDTH) &&
		    d->target >= n)
			return vpmu_reject(c, VPMU_VERR_ADDRESS, off,
				"microword %u: %s target %u outside control store of %u",
				i, sqn, d->target, n);
		if (d->target + span > n)
			return vpmu_reject(c, VPMU_VERR_ADDRESS, off,
				"microword %u: %s table %u..%u outside control store of %u",
				i, sqn, d->target, d->target + span - 1, n);
		break;
	case VPMU_SEQROLE_WIDTH:
		if (d->cond < 1 || d->cond > 8)
			return vpmu_reject(c, VPMU_VERR_OPCODE, off,
				"microword %u: %s width %u not in 1..8",
				i, sqn, d->cond);
		break;
	case VPMU_SEQROLE_NONE:
	case VPMU_SEQROLE_COND:
	case VPMU_SEQROLE_CODE:
		break;
	}
	return 0;
}

/*
 * The sequencer part by its signature (vpmu_seqsig_info[]): the fields it
 * does not use zero, the ALU result it reads, its operands; then what CTR
 * needs, and the word after one that goes on to the next inside the
 * control store.
 */
static int vpmu_check_seq(struct vpmu_vctx *c, u32 i, u64 off, u64 uw,
			  struct vpmu_dec *d)
{
	const struct vpmu_seqsig_info *si =
		&vpmu_seqsig_info[vpmu_seq_info[d->seq].sig];
	const char *sqn = vpmu_seq_info[d->seq].name;
	u32 n = c->h.cs_words;
	unsigned int k;
	int ret;

	ret = vpmu_fields_zero(c, i, off, uw, VPMU_UWF_SEQ & ~si->fields, sqn);
	if (ret)
		return ret;
	if (si->result && !vpmu_sig_result(d->sig))
		return vpmu_reject(c, VPMU_VERR_OPCODE, off,
			"microword %u: %s needs an ALU result, %s has none",
			i, sqn, vpmu_op_info[d->op].name);
	for (k = 0; k < VPMU_SEQSIG_OPNDS; k++) {
		ret = vpmu_check_seq_opnd(c, i, off, d, si->opnd[k]);
		if (ret)
			return ret;
	}
	if (d->seq == VPMU_SEQ_CTR) {
		ret = vpmu_check_ctr(c, i, off, d);
		if (ret)
			return ret;
	}
	if (i == n - 1 && (d->seq == VPMU_SEQ_NEXT || d->seq == VPMU_SEQ_BR ||
			   d->seq == VPMU_SEQ_CALL || d->seq == VPMU_SEQ_CTR))
		return vpmu_reject(c, VPMU_VERR_ADDRESS, off,
			"microword %u: %s falls through past the last microword",
			i, sqn);
	return 0;
}

/*
 * Decode microword @i into @d and check it whole: codes that name an
 * operation, a sequencer operation and a condition, then the ALU and
 * sequencer parts, then the event field within ev_bits.  Its offset is
 * inside the control store, which vpmu_check_layout() put inside the
 * image.
 */
int vpmu_check_uword(struct vpmu_vctx *c, u32 i, struct vpmu_dec *d)
{
	u64 off = (u64)c->h.cs_offset + 8ull * i;
	u64 uw = vpmu_get_le64(c->img + off);
	int ret;

	d->op = VPMU_UW_GET(uw, OP);
	d->seq = VPMU_UW_GET(uw, SEQ);
	d->cond = VPMU_UW_GET(uw, COND);
	d->s = VPMU_UW_GET(uw, S);
	d->dst = VPMU_UW_GET(uw, DST);
	d->a = VPMU_UW_GET(uw, A);
	d->b = VPMU_UW_GET(uw, B);
	d->ev = VPMU_UW_GET(uw, EVENT);
	d->target = VPMU_UW_GET(uw, TARGET);
	d->uimm = VPMU_UW_GET(uw, IMM);
	d->imm = vpmu_uw_simm(uw);

	if (!vpmu_op_info[d->op].name)
		return vpmu_reject(c, VPMU_VERR_OPCODE, off,
				   "microword %u: ALU operation code 0x%02x reserved",
				   i, d->op);
	if (!vpmu_seq_info[d->seq].name)
		return vpmu_reject(c, VPMU_VERR_OPCODE, off,
				   "microword %u: sequencer code 0x%x reserved",
				   i, d->seq);
	if (!vpmu_cond_info[d->cond].name)
		return vpmu_reject(c, VPMU_VERR_OPCODE, off,
				   "microword %u: condition code 0x%x reserved",
				   i, d->cond);
	d->sig = vpmu_op_info[d->op].sig;
	if (d->s && !vpmu_sig_result(d->sig))
		return vpmu_reject(c, VPMU_VERR_RESERVED, off,
				   "microword %u: S set on %s, which has no ALU result",
				   i, vpmu_op_info[d->op].name);
	ret = vpmu_check_alu(c, i, off, uw, d);
	if (!ret)
		ret = vpmu_check_seq(c, i, off, uw, d);
	if (ret)
		return ret;
	if (d->ev >> c->h.ev_bits)
		return vpmu_reject(c, VPMU_VERR_EVENT, off,
				   "microword %u: event field 0x%02x uses bits beyond ev_bits %u",
				   i, d->ev, c->h.ev_bits);

	d->kind = 0;
	if (d->seq == VPMU_SEQ_EOI)
		d->kind |= VPMU_K_EOI;
	if (d->seq == VPMU_SEQ_BR)
		d->kind |= VPMU_K_BR;
	if (d->seq == VPMU_SEQ_DISP)
		d->kind |= VPMU_K_DISP;
	if (d->sig == VPMU_SIG_LD)
		d->kind |= VPMU_K_LOAD;
	if (d->sig == VPMU_SIG_ST)
		d->kind |= VPMU_K_STORE;
	if (d->op == VPMU_OP_MODE)
		d->kind |= VPMU_K_MODE;
	if (VPMU_UW_GET(uw, T))
		d->kind |= VPMU_K_TRIG;
	return 0;
}
