// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu_uop_build.c - the uops: each microword's executable form, built
 * on attach; routed to pre-handlers, fused and cut into segments when the
 * configuration changes (vpmu_prepare()).
 */
#include "vpmu_engine_priv.h"

static const u8 vpmu_handler_props[VPMU_HANDLER_NR] = {
#define X(name, props)						\
	[VPMU_HANDLER_##name] = VPMU_HPROP_##props,
	VPMU_HANDLER_LIST(X)
#undef X
};

/* ---- preparing a run ---------------------------------------------------- */

/* Does handler @hi go on to the next microword unchecked? */
static bool vpmu_uop_unchecked(unsigned int hi)
{
	return vpmu_handler_props[hi] & VPMU_HPROP_FALLS;
}

static u8 vpmu_mfast(const struct vpmu_dec *d, const struct vpmu_uop *x);

/*
 * May trigger source @upc, once toggled, run its fast handler?  Only if
 * that handler ends the segment (the microword ends one as a trigger
 * source: the next is entered and counted) and needs no pre-handler or
 * memory fast path: the fused ALU forms that end with their sequencer.
 */
static bool vpmu_trig_fast(const struct vpmu_engine *e, u32 upc)
{
	const struct vpmu_dec *d = &e->uc->dec[upc];

	if (d->a == VPMU_OPND_FLAGS || d->b == VPMU_OPND_FLAGS)
		return false;
	return vpmu_handler_props[e->mem.slot[0][upc].h_fast] & VPMU_HPROP_ENDS;
}

/*
 * A routed microword (a trigger source) runs the trigger hook and then its
 * general handler, which ends its segment; others run their fast handler.
 */
static void vpmu_route(struct vpmu_engine *e, u32 upc, bool route)
{
	const struct vpmu_dec *d = &e->uc->dec[upc];
	bool rdfl = d->a == VPMU_OPND_FLAGS || d->b == VPMU_OPND_FLAGS;
	unsigned int s;

	for (s = 0; s < VPMU_NSLOT; s++) {
		struct vpmu_uop *x = &e->mem.slot[s][upc];

		if (route)
			x->h_dispatch = VPMU_HANDLER_TRIG;
		else if (rdfl)
			x->h_dispatch = VPMU_HANDLER_SYNC_FLAGS;
		else
			x->h_dispatch = x->h_fast;
		x->mem_fast = route ? 0 : vpmu_mfast(d, x);
		x->h_label = e->lab[x->h_dispatch];
	}
}

/*
 * Pairs of EXTs from ir into latches run as one (LATCH_EXT_IR_X2), and
 * with a SAR of ir by an immediate after them as one
 * (LATCH_EXT_IR_X2_SAR).  Only fast, unrouted handlers are fused, and a
 * fused one never runs alone: a segment run one microword at a time uses
 * the general handlers.
 */
static void vpmu_fuse(struct vpmu_engine *e)
{
	unsigned int s;
	u32 upc;

	for (upc = 0; upc + 1 < e->ncs; upc++) {
		for (s = 0; s < VPMU_NSLOT; s++) {
			struct vpmu_uop *x = &e->mem.slot[s][upc];
			unsigned int h = VPMU_HANDLER_LATCH_EXT_IR_X2;

			if (x->h_dispatch != VPMU_HANDLER_LATCH_EXT_IR ||
			    x[1].h_dispatch != VPMU_HANDLER_LATCH_EXT_IR)
				continue;
			if (upc + 2 < e->ncs &&
			    x[2].h_dispatch == VPMU_HANDLER_SAR_IMM &&
			    x[2].a == VPMU_RF_IR)
				h = VPMU_HANDLER_LATCH_EXT_IR_X2_SAR;
			x->h_dispatch = h;
			x->h_label = e->lab[h];
		}
	}
}

/* Segment lengths (vpmu_uop.seg), the same in every slot. */
static void vpmu_segments(struct vpmu_engine *e)
{
	struct vpmu_uop *x = e->mem.slot[0];
	unsigned int s;
	u32 upc;

	for (upc = e->ncs; upc-- > 0;) {
		/* the validator lets no microword run off the last word */
		unsigned int h = x[upc].h_dispatch;

		if (h == VPMU_HANDLER_SYNC_FLAGS)
			h = x[upc].h_fast;

		if (vpmu_uop_unchecked(h) && upc + 1 < e->ncs)
			x[upc].seg = x[upc + 1].seg + 1;
		else
			x[upc].seg = 1;
		for (s = 1; s < VPMU_NSLOT; s++)
			e->mem.slot[s][upc].seg = x[upc].seg;
	}
}

/*
 * Forget the resolved toggles of @upc, a static source until now (in
 * tsrc[]): it may no longer be one (a toggle turned into a start, say),
 * and only static sources have their entries rewritten
 * (vpmu_tgl_update(), as slots are taken).
 */
static void vpmu_tgl_clear(struct vpmu_engine *e, u32 upc)
{
	unsigned int s;

	for (s = 0; s < VPMU_NSLOT; s++)
		((s32 *)e->mem.slot[s] - VPMU_IDT - 1)[-(s32)upc] = 0;
}

/* Can trigger @t occur on microword @upc? */
static bool vpmu_trig_can(const struct vpmu_engine *e, u16 t, u32 upc)
{
	if (t == VPMU_TRIG_MARK)
		return e->uc->dec[upc].kind & VPMU_K_TRIG;
	if (t >= VPMU_TRIG_OVF(0))
		return false;
	return vpmu_ev_possible(e, t, upc);
}

/*
 * What trigger source microword @upc is (trig_static[]): the fgroups
 * whose toggle occurs on every execution of it, and VPMU_TSRC_DYN if a
 * toggle depends on what it does or a start or stop trigger can occur
 * on it (vpmu_hook_post() decides those); 0 if none.
 */
static u8 vpmu_trig_src(const struct vpmu_engine *e, u32 upc)
{
	unsigned int g;
	u8 tm = 0;

	for (g = 0; g < VPMU_NR_FGROUPS_MAX; g++) {
		u16 t = e->trig.toggle[g];

		/* a gating fgroup's toggles all go through the hook */
		if (vpmu_trig_can(e, t, upc))
			tm |= vpmu_trig_dynamic(t) ||
					      (e->trig.gate_fgroups[0] |
					       e->trig.gate_fgroups[1]) >>
							      g &
						      1 ?
				      VPMU_TSRC_DYN :
				      1u << g;
		if (vpmu_trig_can(e, e->trig.start[g], upc) ||
		    vpmu_trig_can(e, e->trig.stop[g], upc))
			tm |= VPMU_TSRC_DYN;
	}
	return tm;
}

void vpmu_prepare(struct vpmu_engine *e)
{
	bool reroute = false;
	unsigned int i;
	u32 upc;
	/* triggers change only with dirty set: so does ovf_src */
	bool any_trig = e->dirty && vpmu_trig_any(e);

	if (!e->lab)
		vpmu_interp(e, -1);
	if (e->dirty) {	/* the counters' configuration changes only then */
		e->ctr.int_mask = 0;
		e->ctr.fovf_mask = 0;
		for (i = 0; i < VPMU_NR_COUNTERS_MAX; i++) {
			if (!vpmu_ctr_enabled(e, i))
				continue;
			if (e->ctr.cfg[i].flags & VPMU_CTR_INT)
				e->ctr.int_mask |= 1u << i;
			if (e->ctr.cfg[i].flags & VPMU_CTR_FREEZE_ON_OVF)
				e->ctr.fovf_mask |= 1u << i;
		}
	}
	e->ctr.plan_mask = e->ctr.int_mask | e->ctr.fovf_mask;
	for (i = 0; unlikely(e->trig.ovf_src) && i < VPMU_NR_COUNTERS_MAX; i++)
		if (vpmu_ctr_enabled(e, i) && e->trig.ovf_src >> i & 1)
			e->ctr.plan_mask |= 1u << i;
	/*
	 * Counts a deferred run left stay in the slots (which keep their
	 * meaning) while this run defers too.  Everything that changes the
	 * configuration settles first, so dirty finds nothing left.
	 */
	if (e->dirty || !vpmu_defer_ok(e))
		vpmu_settle(e);
	if (e->dirty) {
		for (i = 0; i < e->trig.ntsrc; i++)
			vpmu_tgl_clear(e, e->mem.tsrc[i]);
		e->trig.ntsrc = 0;
		e->trig.tsrc_fgroups = 0;
		e->tc.eoi_hook = false;
		for (upc = 0; upc < e->ncs; upc++) {
			u16 hit = 0;
			bool route = false;
			u8 tm = 0;

			for (i = 0; i < VPMU_NR_COUNTERS_MAX; i++)
				if (vpmu_ctr_enabled(e, i) &&
				    vpmu_ev_possible(e, e->ctr.cfg[i].event,
						     upc))
					hit |= 1u << i;
			e->mem.ctr_hit[upc] = hit;
			e->mem.hu_hit[upc] = vpmu_hu_hit(e, upc);
			/*
			 * The histogram unit's WQ entries see every store, its
			 * address entries the loads or stores they look at,
			 * in vpmu_hook_post().
			 */
			if (unlikely(e->hu.route) &&
			    e->uc->dec[upc].kind & e->hu.route) {
				route = true;
				tm = VPMU_TSRC_DYN;
			}
			if (any_trig && vpmu_trig_src(e, upc)) {
				route = true;
				tm |= vpmu_trig_src(e, upc);
			}
			if (route && vpmu_trig_fast(e, upc))
				tm |= VPMU_TSRC_FAST;
			/* translations run no routed microword: see them go */
			if (!tm != !e->mem.trig_static[upc])
				reroute = true;
			e->mem.trig_static[upc] = tm;
			if (!(tm & VPMU_TSRC_DYN) && tm & VPMU_TSRC_FGROUPS)
				e->mem.tsrc[e->trig.ntsrc++] = upc;
			if (!(tm & VPMU_TSRC_DYN) && tm & VPMU_TSRC_FAST)
				e->trig.tsrc_fgroups |=
					1u << (tm & VPMU_TSRC_FGROUPS);
			vpmu_route(e, upc, route);
			/* an EOI with a hook after it (tc.eoi_hook) */
			if (e->uc->dec[upc].kind & VPMU_K_EOI &&
			    (route ||
			     e->mem.slot[0][upc].pend & VPMU_COMMIT_MODE))
				e->tc.eoi_hook = true;
		}
		vpmu_fuse(e);
		vpmu_segments(e);
		if (reroute)
			vpmu_tc_flush(e);
		e->dirty = false;
	}
	if (!e->ctr.unfolded)
		vpmu_slot_reset(e);
	e->ctr.cur = vpmu_slot_get(e, vpmu_key(e->st.mode, e->trig.frozen));
}

/* ---- building the uops -------------------------------------------------- */

/*
 * Each operation's first handler, by its signature: an ALU operation's
 * NEXT shape, the others' only one (NOP's that ends its segment).
 * Made from the one list of operations, so that an operation without a
 * handler in VPMU_HANDLER_LIST does not build.
 */
static const u8 vpmu_op_handler[VPMU_OP_NR] = {
#define FIRST_NONE(op)	VPMU_HANDLER_##op
#define FIRST_DAB(op)	VPMU_HANDLER_##op##_NEXT
#define FIRST_DB(op)	VPMU_HANDLER_##op##_NEXT
#define FIRST_DAF(op)	VPMU_HANDLER_##op##_NEXT
#define FIRST_LD(op)	VPMU_HANDLER_##op
#define FIRST_ST(op)	VPMU_HANDLER_##op
#define FIRST_I(op)	VPMU_HANDLER_##op
#define X(name, code, sig, ...)					\
	[code] = FIRST_##sig(name),
	VPMU_OP_LIST(X)
#undef X
#undef FIRST_NONE
#undef FIRST_DAB
#undef FIRST_DB
#undef FIRST_DAF
#undef FIRST_LD
#undef FIRST_ST
#undef FIRST_I
};

/* The fused compare and branch of each flag condition. */
static const u8 vpmu_cmp_handler[VPMU_COND_NR] = {
	[VPMU_COND_AL] = VPMU_HANDLER_CMP_AL,
	[VPMU_COND_Z] = VPMU_HANDLER_CMP_Z,
	[VPMU_COND_NZ] = VPMU_HANDLER_CMP_NZ,
	[VPMU_COND_N] = VPMU_HANDLER_CMP_N,
	[VPMU_COND_NN] = VPMU_HANDLER_CMP_NN,
	[VPMU_COND_C] = VPMU_HANDLER_CMP_C,
	[VPMU_COND_NC] = VPMU_HANDLER_CMP_NC,
	[VPMU_COND_V] = VPMU_HANDLER_CMP_V,
	[VPMU_COND_NV] = VPMU_HANDLER_CMP_NV,
	[VPMU_COND_LT] = VPMU_HANDLER_CMP_LT,
	[VPMU_COND_GE] = VPMU_HANDLER_CMP_GE,
};

/* Which ALU handler variant (V_*) fits microword @d (built into @x). */
static unsigned int vpmu_alu_variant(const struct vpmu_engine *e,
				     const struct vpmu_dec *d,
				     const struct vpmu_uop *x)
{
	bool at_src = vpmu_is_at(d->a) ||
		      (d->sig != VPMU_SIG_DAF && vpmu_is_at(d->b));
	bool at = at_src || vpmu_is_at(x->d);
	bool latch = x->d >= VPMU_RF_DS && x->d <= VPMU_RF_DS + 2;
	bool special = x->pend & VPMU_COMMIT_SPECIAL;

	(void)e;
	if (d->seq == VPMU_SEQ_NEXT && !d->s && latch && !at_src)
		return VPMU_SHAPE_LATCH;
	if (special)
		return VPMU_SHAPE_GENERAL;
	if (d->seq == VPMU_SEQ_BR && d->cond <= VPMU_COND_GE)
		return VPMU_SHAPE_BR;
	if (d->s)
		return VPMU_SHAPE_GENERAL;
	switch (d->seq) {
	case VPMU_SEQ_NEXT:
		if (!at && d->b == VPMU_OPND_IMM && d->sig != VPMU_SIG_DAF)
			return VPMU_SHAPE_IMM;
		if (at)
			return vpmu_is_at(x->d) ? VPMU_SHAPE_AT :
						  VPMU_SHAPE_ATSRC;
		return VPMU_SHAPE_NEXT;
	case VPMU_SEQ_JUMP:
		return VPMU_SHAPE_JUMP;
	case VPMU_SEQ_EOI:
		return !at && x->d == VPMU_RF_PC ? VPMU_SHAPE_PCEOI :
						   VPMU_SHAPE_EOI;
	}
	return VPMU_SHAPE_GENERAL;
}

/* Each sequencer operation's handler. */
static const u8 vpmu_seq_handler[VPMU_SEQ_NR] = {
#define X(name, code, ...)					\
	[code] = VPMU_SEQ_HANDLER_##name,
	VPMU_SEQ_LIST(X)
#undef X
};

/*
 * A load or store that commits at once and goes on by NEXT (1) or JUMP
 * (2); 0 otherwise, and for trigger sources (vpmu_route()), so that the
 * fast path never runs with a hook pending.
 */
static u8 vpmu_mfast(const struct vpmu_dec *d, const struct vpmu_uop *x)
{
	if ((d->sig != VPMU_SIG_LD && d->sig != VPMU_SIG_ST) || x->pend)
		return 0;
	if (d->seq == VPMU_SEQ_NEXT)
		return 1;
	return d->seq == VPMU_SEQ_JUMP ? 2 : 0;
}

/*
 * May an EOI use a handler that takes the opcode from ir's low byte: one
 * ending in EOI8, which fetches on 4-byte boundaries, or in EOI8H, on the
 * 2-byte ones of IALIGN16?
 */
static bool vpmu_low_byte_op(const struct vpmu_engine *e)
{
	return !e->dp.op_shift && e->dp.op_mask <= 0xff;
}

/* The fused handlers for the commonest whole microwords. */
static void vpmu_build_fused(const struct vpmu_engine *e,
			     const struct vpmu_dec *d, struct vpmu_uop *x)
{
	if (d->op == VPMU_OP_SUB && d->s && d->seq == VPMU_SEQ_BR &&
	    d->cond <= VPMU_COND_GE && x->d == VPMU_RF_SINK)
		x->h_fast = vpmu_cmp_handler[d->cond];
	if (d->op == VPMU_OP_ADD && !d->s && d->seq == VPMU_SEQ_EOI &&
	    d->dst == VPMU_OPND_PC && d->a == VPMU_OPND_PC &&
	    d->b == VPMU_OPND_IMM) {
		if (!vpmu_low_byte_op(e))
			x->h_fast = VPMU_HANDLER_PC_ADDI_EOI;
		else if (e->dp.fetch_shift == 2)
			x->h_fast = VPMU_HANDLER_PC_ADDI_EOI8;
		else
			x->h_fast = VPMU_HANDLER_PC_ADDI_EOI8H;
		x->imm = (u32)d->imm;
	}
	if (x->h_fast == VPMU_HANDLER_ADD_PCEOI && d->a == VPMU_OPND_PC &&
	    d->b != VPMU_OPND_IMM && vpmu_low_byte_op(e))
		x->h_fast = e->dp.fetch_shift == 2 ? VPMU_HANDLER_PC_ADD_EOI8 :
						     VPMU_HANDLER_PC_ADD_EOI8H;
	/* an address's low bits: ADD into a plain register ; DISP on it */
	if (d->op == VPMU_OP_ADD && !d->s && d->seq == VPMU_SEQ_DISP &&
	    !x->pend && d->b != VPMU_OPND_IMM && !vpmu_is_at(x->d))
		x->h_fast = VPMU_HANDLER_ADD_THEN_DISP;
	/* a field decoded: EXT of a plain register into one, DISP or BR */
	if (d->op == VPMU_OP_EXT && !vpmu_is_at(d->a) && !vpmu_is_at(x->d) &&
	    d->a != VPMU_OPND_FLAGS) {
		if (d->seq == VPMU_SEQ_DISP && !x->pend)
			x->h_fast = VPMU_HANDLER_EXT_THEN_DISP;
		if (d->seq == VPMU_SEQ_BR && d->cond <= VPMU_COND_GE &&
		    x->pend == VPMU_COMMIT_FLAGS)
			x->h_fast = VPMU_HANDLER_EXT_THEN_BR;
	}
}

/* Build the executable form of microword @upc. */
static void vpmu_build_uop(struct vpmu_engine *e, u32 upc,
			   struct vpmu_uop *x)
{
	const struct vpmu_dec *d = &e->uc->dec[upc];
	bool has_dst = d->sig == VPMU_SIG_DAB || d->sig == VPMU_SIG_DB ||
		       d->sig == VPMU_SIG_DAF || d->sig == VPMU_SIG_LD;
	/* sequencers that cannot fault: memory effects may happen at once */
	bool seq_safe = d->seq != VPMU_SEQ_EOI && d->seq != VPMU_SEQ_CALL &&
			d->seq != VPMU_SEQ_RET;
	unsigned int len;

	x->upc = upc;
	x->tgt = d->target * sizeof(*x);
	x->cond = d->cond;
	x->seq = vpmu_seq_handler[d->seq];
	if (d->seq == VPMU_SEQ_BR && d->cond > VPMU_COND_GE)
		x->seq = VPMU_SEQ_HANDLER_BRX;
	x->a = d->a;
	x->b = d->b;
	if (d->b == VPMU_OPND_IMM) {
		x->b = VPMU_RF_IMM0 + upc;
		e->mem.R[VPMU_RF_IMM0 + upc] = (u32)d->imm;
	}
	x->d = VPMU_RF_SINK;
	if (has_dst && d->dst != VPMU_OPND_ZERO &&
	    !(d->dst == VPMU_OPND_R0 && e->dp.r0zero))
		x->d = d->dst;
	if (has_dst && d->dst >= VPMU_RF_DS && d->dst <= VPMU_RF_FLAGS)
		x->pend |= VPMU_COMMIT_SPECIAL;
	if (d->s) {
		x->pend |= VPMU_COMMIT_FLAGS;
		x->flag_kind = d->op == VPMU_OP_ADD ? 2 : d->op == VPMU_OP_SUB ? 3 : 1;
	}
	switch (d->sig) {
	case VPMU_SIG_NONE:
		/* a NOP: its _N twin, just before it, goes on unchecked */
		x->h_general = vpmu_op_handler[d->op];
		x->h_fast = x->h_general - (d->seq == VPMU_SEQ_NEXT);
		if (d->seq == VPMU_SEQ_JUMP)
			x->h_fast = VPMU_HANDLER_NOP_THEN_JUMP;
		break;
	case VPMU_SIG_DAB:
	case VPMU_SIG_DB:
	case VPMU_SIG_DAF:
		x->h_general = vpmu_op_handler[d->op] + VPMU_SHAPE_GENERAL;
		x->h_fast = vpmu_op_handler[d->op] + vpmu_alu_variant(e, d, x);
		if (x->h_fast == vpmu_op_handler[d->op] + VPMU_SHAPE_IMM)
			x->imm = (u32)d->imm;
		if (d->op == VPMU_OP_EXT) {
			len = VPMU_EXT_LEN(d->uimm);
			x->b = VPMU_EXT_POS(d->uimm);
			x->imm = len == 32 ? ~0u : (1u << len) - 1;
			if (x->h_fast ==
			    vpmu_op_handler[d->op] + VPMU_SHAPE_LATCH) {
				x->h_fast = d->a == VPMU_OPND_IR ?
					    VPMU_HANDLER_LATCH_EXT_IR :
					    VPMU_HANDLER_LATCH_EXT;
				x->imm &= 31;
			}
		} else if (d->op == VPMU_OP_SEXT) {
			x->b = 31 - d->uimm;
		}
		vpmu_build_fused(e, d, x);
		break;
	case VPMU_SIG_LD:
		x->h_fast = vpmu_op_handler[d->op];
		x->imm = (u32)d->imm;
		if (!seq_safe)
			x->pend |= VPMU_COMMIT_LOAD;
		break;
	case VPMU_SIG_ST:
		x->h_fast = vpmu_op_handler[d->op];
		x->imm = (u32)d->imm;
		if (!seq_safe)
			x->pend |= VPMU_COMMIT_STORE;
		x->st_size = d->op == VPMU_OP_SB ? 1 : d->op == VPMU_OP_SH ? 2 : 4;
		break;
	case VPMU_SIG_I:
		x->h_fast = vpmu_op_handler[d->op];
		x->imm = d->uimm;
		x->pend |= VPMU_COMMIT_MODE;
		break;
	}
	if (d->sig == VPMU_SIG_LD || d->sig == VPMU_SIG_ST ||
	    d->sig == VPMU_SIG_I)
		x->h_general = x->h_fast;
	x->h_dispatch = x->h_fast;
	x->mem_fast = vpmu_mfast(d, x);
}

int vpmu_engine_attach(struct vpmu_engine *e, const struct vpmu_ucode *uc)
{
	u32 n = uc->cs_words, nid = uc->op_mask + 1, i;
	unsigned int s;

	if (n > e->mem.words)
		return -EFBIG;
	if (uc->hdr.dc_lines > VPMU_DC_LINES_MAX ||
	    nid > 1u << VPMU_OP_BITS_MAX)
		return -EINVAL;

	vpmu_settle(e);		/* into the counters, before the totals go */
	vpmu_tc_flush(e);	/* translations of the old ucode */
	e->uc = uc;
	e->ncs = n;
	e->st.started = false;
	e->dp.r0zero = uc->hdr.flags & VPMU_IMG_F_R0_ZERO;
	e->dp.fetch_shift = uc->hdr.flags & VPMU_IMG_F_IALIGN16 ? 1 : 2;
	e->dp.dc_shift = __builtin_ctz(uc->hdr.dc_line_size);
	e->dp.dc_mask = uc->hdr.dc_lines - 1;
	e->dp.penalty = uc->hdr.dc_miss_penalty;
	e->dp.wq_full = (uc->hdr.wq_depth - 1) * uc->hdr.wq_drain;
	e->dp.wq_drain = uc->hdr.wq_drain;
	/* a stall is at most the miss penalty or a drain */
	e->dp.stall_max = e->dp.penalty + e->dp.wq_full + e->dp.wq_drain;
	for (i = 0; i < VPMU_RF_IMM0 + n; i++)
		e->mem.reg_of[i] = i;
	e->dp.zero_idx = e->dp.r0zero ? VPMU_OPND_R0 : VPMU_RF_ZERO;
	e->mem.R[e->dp.zero_idx] = 0;
	vpmu_latch_maps(e);
	e->dp.op_shift = uc->op_shift;
	e->dp.op_mask = uc->op_mask;
	memset(e->mem.slot[0], 0, sizeof(struct vpmu_uop) * n);
	e->ctr.image_reads = false;
	for (i = 0; i < n; i++) {
		vpmu_build_uop(e, i, &e->mem.slot[0][i]);
		e->ctr.image_reads |= uc->dec[i].seq == VPMU_SEQ_CTR;
	}
	for (s = 1; s < VPMU_NSLOT; s++)
		memcpy(e->mem.slot[s], e->mem.slot[0],
		       sizeof(struct vpmu_uop) * n);
	/*
	 * Every slot's ID table, repeated over all VPMU_IDT entries so that
	 * any index (ir & 0xff in PI0) is the opcode's entry.
	 */
	for (s = 0; s < VPMU_NSLOT; s++) {
		u32 *idt = (u32 *)e->mem.slot[s] - VPMU_IDT;

		for (i = 0; i < VPMU_IDT; i++)
			idt[i] = uc->idtab[i & uc->op_mask] *
				 sizeof(struct vpmu_uop);
	}
	/* per-ucode counts restart; the PMU's configuration stays */
	memset(e->mem.tot_cnt, 0, sizeof(u64) * n);
	memset(e->mem.tot_dyn, 0, sizeof(u64) * n);
	memset(e->mem.tot_tkn, 0, sizeof(u64) * n);
	memset(e->mem.uhist, 0, sizeof(u64) * n);
	memset(e->ctr.gap, 0, sizeof(e->ctr.gap));
	e->uh.left = e->uh.interval ? e->uh.interval - 1 : 0;
	vpmu_hu_restart(e);
	e->dirty = true;
	return 0;
}
