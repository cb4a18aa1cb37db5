// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu_tc_translate.c - the translation cache's translator: a macro
 * instruction's microcode path made into a translation, which
 * vpmu_tc_cache.c finds, links, replays and leaves (its head comment
 * says why a translation is exact).
 *
 * A translation is made for one (pc, ir, mode) the first time the engine
 * dispatches it (vpmu_tc_next()).  The translator walks the microcode from
 * the instruction's ID-table entry as the interpreter would run it, with
 * what it knows: pc, ipc and ir, the constants, and whatever microwords
 * compute from those alone (field extraction, immediates, the select
 * latches and so the registers @ds, @s1 and @s2 name, the branches and
 * dispatches those decide).  Such microwords cost nothing when the
 * translation runs.  The others become ops: ALU operations on registers,
 * loads and stores, compares and branches on the program's data, and the
 * EOI.  A branch on data forks the path; both sides are translated.  An
 * ADD's dispatch on data goes on at its first entry, guarded (a DGADD
 * op): any other index leaves the translation before the microword
 * (RV32's aligned loads and stores, whose misaligned entries are rare).
 * At
 * an EOI whose next pc is known the path goes on into the next
 * instruction (a superblock).  That instruction's word is one the
 * translation checks (struct vpmu_tc_checked): before it runs, if a store has
 * been made into a word of memory holding one since it last looked, or
 * the run's memory may have changed (vpmu_tc_check()); a store it makes
 * there itself leaves it right after.  So code that
 * rewrites itself is never replayed stale.  The instructions a
 * translation covers were in memory when it was made; a run on less
 * memory flushes the cache (tc.msz), so a translation never checks a
 * fetch it knew to be good.
 *
 * A trigger source is the interpreter's (it is routed), but for one that
 * toggles freeze groups as it begins, on its fast path: its microword
 * begins a block whose BLOCK_TGL toggles into the slot of the new freeze
 * state, or leaves for the interpreter if that slot is not in use, so
 * that a region between marks runs translated.
 */
#include "vpmu_tc_builder.h"

/* ---- trigger sources ------------------------------------------------------ */

/*
 * The freeze groups microword @upc toggles as it begins, on its fast path
 * (vpmu_interp()'s TRIG handler): a static trigger source's, else 0.
 */
static u32 tc_toggles(const struct vpmu_tc_builder *tr, u32 upc)
{
	u8 tm = tr->trig[upc];

	if ((tm & (VPMU_TSRC_DYN | VPMU_TSRC_FAST)) != VPMU_TSRC_FAST)
		return 0;
	return tm & VPMU_TSRC_FGROUPS;
}

/* Is @upc the toggling source the current block begins with, not run yet? */
static bool tc_toggling(struct vpmu_tc_builder *tr, u32 upc)
{
	return tr->blk_tgl && upc == tr->blk_tgl_upc &&
	       !vpmu_tc_cur_block(tr)->n;
}

/* Is @upc a trigger source only the interpreter may run here? */
static bool tc_routed(struct vpmu_tc_builder *tr, u32 upc)
{
	return tr->trig[upc] && !tc_toggling(tr, upc);
}

/* ---- evaluating microwords ---------------------------------------------- */

/*
 * An operand field naming @ds, @s1 or @s2: the register that latch holds,
 * in *@code; false if the latch is not known.
 */
static bool tc_at(const struct vpmu_tc_state *st, unsigned int *code)
{
	unsigned int l;

	if (!vpmu_is_at(*code))
		return true;
	l = VPMU_RF_DS + *code - VPMU_OPND_AT_DS;
	if (!(st->known & VPMU_TC_REG(l)))
		return false;
	*code = st->val[l] & 31;
	return true;
}

/* An operand: known (value), or in a register (index); false: cannot tell. */
struct vpmu_tc_opnd {
	bool known;
	u8 r;
	u32 v;
};

static __always_inline bool tc_src(const struct vpmu_tc_state *st,
				   const struct vpmu_dec *d, unsigned int code,
				   struct vpmu_tc_opnd *o)
{
	o->known = true;
	if (code == VPMU_OPND_IMM) {
		o->v = (u32)d->imm;
		return true;
	}
	if (!tc_at(st, &code))
		return false;
	/* zero, and r0 if it reads 0, are known 0 from the start */
	if (st->known & VPMU_TC_REG(code)) {
		o->v = st->val[code];
		return true;
	}
	/* flags may be lazy in R[]: an operand that reads them stops here */
	if (code >= VPMU_RF_FLAGS)
		return false;
	o->known = false;
	o->r = code;
	return true;
}

/* Note a register read from R[] (not known): it is live on entry. */
static void tc_read(struct vpmu_tc_builder *tr, const struct vpmu_tc_state *st,
		    const struct vpmu_tc_opnd *o)
{
	if (!o->known && !(st->wrote & VPMU_TC_REG(o->r)))
		tr->rbw |= VPMU_TC_REG(o->r);
}

/*
 * The registers a result on the path may be written to: r0..r31, t0..t7,
 * pc, the latches and the flags (not ir, not ipc), tc_dst().
 */
#define VPMU_TC_DSTS	((VPMU_TC_REG(VPMU_RF_PC + 1) - 1) |			\
			 VPMU_TC_REG(VPMU_RF_DS) | VPMU_TC_REG(VPMU_RF_DS + 1) | \
			 VPMU_TC_REG(VPMU_RF_DS + 2) | VPMU_TC_REG(VPMU_RF_FLAGS))

/* The register a destination names (VPMU_RF_SINK: discarded); false: cannot. */
static __always_inline bool tc_dst(struct vpmu_tc_builder *tr,
				   const struct vpmu_tc_state *st,
				   unsigned int code, u8 *r)
{
	if (!tc_at(st, &code))
		return false;
	if (tr->sink & VPMU_TC_REG(code)) {
		*r = VPMU_RF_SINK;
		return true;
	}
	if (!(VPMU_TC_DSTS & VPMU_TC_REG(code)))
		return false;
	*r = code;
	return true;
}

static __always_inline void tc_set(struct vpmu_tc_state *st, u8 r,
				   bool known, u32 v)
{
	if (r == VPMU_RF_SINK)
		return;
	if (known || st->known & VPMU_TC_REG(r))
		st->pairs = 0;	/* what is known changes */
	st->wrote |= VPMU_TC_REG(r);
	/* a latch holds 5 bits, the flags 4 (as R[] keeps them) */
	if ((unsigned int)r - VPMU_RF_DS <= 2)
		v &= 31;
	else if (r == VPMU_RF_FLAGS)
		v &= 15;
	st->val[r] = v;
	if (known)
		st->known |= VPMU_TC_REG(r);
	else
		st->known &= ~VPMU_TC_REG(r);
}

/* An ALU operation's result on known operands (as the loops compute it). */
static __always_inline u32 tc_eval(const struct vpmu_dec *d, u32 a, u32 b)
{
	u32 len = VPMU_EXT_LEN(d->uimm);

	if (d->op == VPMU_OP_EXT)
		return vpmu_alu(VPMU_OP_EXT, a, b, VPMU_EXT_POS(d->uimm),
				len == 32 ? ~0u : (1u << len) - 1);
	if (d->op == VPMU_OP_SEXT)
		return vpmu_alu(VPMU_OP_SEXT, a, b, 31 - d->uimm, 0);
	return vpmu_alu(d->op, a, b, 0, 0);
}

static unsigned int tc_flag_kind(const struct vpmu_dec *d)
{
	return d->op == VPMU_OP_ADD ? 2 : d->op == VPMU_OP_SUB ? 3 : 1;
}

/*
 * The ops of each operation: on two registers (or EXT's and SEXT's on
 * their field, a load's, a store's), on a register and an immediate, on
 * an immediate and a register; and compare and branch, with a register
 * or an immediate.
 */
static const u8 tc_rr[VPMU_OP_NR] = {
#define X(op)								\
	[VPMU_OP_##op] = VPMU_TC_OP_##op##_RR,
	VPMU_TC_ALU3_LIST(X)
#undef X
	[VPMU_OP_MOV] = VPMU_TC_OP_MOV_RR,
	[VPMU_OP_EXT] = VPMU_TC_OP_EXT,
	[VPMU_OP_SEXT] = VPMU_TC_OP_SEXT,
	[VPMU_OP_LB] = VPMU_TC_OP_LB,
	[VPMU_OP_LBU] = VPMU_TC_OP_LBU,
	[VPMU_OP_LH] = VPMU_TC_OP_LH,
	[VPMU_OP_LHU] = VPMU_TC_OP_LHU,
	[VPMU_OP_LW] = VPMU_TC_OP_LW,
	[VPMU_OP_SB] = VPMU_TC_OP_SB,
	[VPMU_OP_SH] = VPMU_TC_OP_SH,
	[VPMU_OP_SW] = VPMU_TC_OP_SW,
};

static const u8 tc_ri[VPMU_OP_NR] = {
#define X(op)								\
	[VPMU_OP_##op] = VPMU_TC_OP_##op##_RI,
	VPMU_TC_ALU3_LIST(X)
#undef X
};

static const u8 tc_ir[VPMU_OP_NR] = {
#define X(op)								\
	[VPMU_OP_##op] = VPMU_TC_OP_##op##_IR,
	VPMU_TC_ALU3_LIST(X)
#undef X
};

static const u8 tc_cmp[VPMU_COND_NR][2] = {
#define X(cond)								\
	[VPMU_COND_##cond] = { VPMU_TC_OP_CMP_##cond, VPMU_TC_OP_CMPI_##cond },
	X(AL) X(Z) X(NZ) X(N) X(NN) X(C) X(NC) X(V) X(NV) X(LT) X(GE)
#undef X
};

/* How tc_word() says the path goes on. */
enum {
	W_NEXT,		/* on to *next in the same block */
	W_SPLIT,	/* on to *next in a new block */
	W_END,		/* the path ended with an EOI */
	W_EXIT,		/* the interpreter runs this microword */
};

/*
 * The op of an ALU microword with operands @a, @b not all known, writing
 * register @r (the sink, for an EOI's pc: the EOI op commits it).
 */
static void tc_alu(struct vpmu_tc_builder *tr, const struct vpmu_dec *d,
		   const struct vpmu_tc_opnd *a, const struct vpmu_tc_opnd *b,
		   u8 r)
{
	struct vpmu_tc_op *t;
	u32 len;

	if (d->sig == VPMU_SIG_DAF) {
		t = vpmu_tc_new_op(tr, tc_rr[d->op]);
		t->a = a->r;
		if (d->op == VPMU_OP_EXT) {
			len = VPMU_EXT_LEN(d->uimm);
			t->b = VPMU_EXT_POS(d->uimm);
			t->imm = len == 32 ? ~0u : (1u << len) - 1;
		} else {
			t->b = 31 - d->uimm;
		}
	} else if (d->sig == VPMU_SIG_DB || (!a->known && !b->known)) {
		t = vpmu_tc_new_op(tr, tc_rr[d->op]);
		t->a = a->known ? VPMU_RF_ZERO : a->r;
		t->b = b->r;
	} else if (b->known) {
		t = vpmu_tc_new_op(tr, b->v ? tc_ri[d->op] : tc_rr[d->op]);
		t->a = a->r;
		t->b = VPMU_RF_ZERO;
		t->imm = b->v;
	} else {
		t = vpmu_tc_new_op(tr, a->v ? tc_ir[d->op] : tc_rr[d->op]);
		t->a = VPMU_RF_ZERO;
		t->b = b->r;
		t->imm = a->v;
	}
	t->d = r;
}

static void tc_fork(struct vpmu_tc_builder *tr, const struct vpmu_tc_state *st,
		    u32 upc, const struct vpmu_dec *d)
{
	struct vpmu_tc_fork *f = &tr->fork[tr->nforks++];

	tr->forked = true;
	f->st = *st;
	f->upc = d->target;
	f->op = tr->nops - 1;
	f->br = upc;
}

/*
 * What the microword of a path in state @st at @upc would make of the
 * ALU: its operands and destination (*r), and whether its result is known
 * (*known, *res).  Returns false where the interpreter must run it.
 */
static bool tc_operands(struct vpmu_tc_builder *tr,
			const struct vpmu_tc_state *st,
			const struct vpmu_dec *d, struct vpmu_tc_opnd *a,
			struct vpmu_tc_opnd *b, u8 *r)
{
	bool alu = d->sig == VPMU_SIG_DAB || d->sig == VPMU_SIG_DB ||
		   d->sig == VPMU_SIG_DAF;

	*r = VPMU_RF_SINK;
	a->known = true;
	b->known = true;
	a->v = 0;
	b->v = 0;
	if ((alu || d->sig == VPMU_SIG_LD || d->sig == VPMU_SIG_ST) &&
	    d->sig != VPMU_SIG_DB && !tc_src(st, d, d->a, a))
		return false;
	if ((d->sig == VPMU_SIG_DAB || d->sig == VPMU_SIG_DB ||
	     d->sig == VPMU_SIG_ST) && !tc_src(st, d, d->b, b))
		return false;
	if ((alu || d->sig == VPMU_SIG_LD) && !tc_dst(tr, st, d->dst, r))
		return false;
	return true;
}

/* The flags after an ALU microword, or 0x100: on data. */
static u32 tc_flags_after(const struct vpmu_tc_state *st,
			  const struct vpmu_dec *d, bool alu, bool known,
			  u32 a, u32 b, u32 res, u8 r)
{
	if (alu && known && d->s)
		return vpmu_flags(tc_flag_kind(d), a, b, res);
	if (alu && known && r == VPMU_RF_FLAGS)
		return res & 15;
	if (st->known & VPMU_TC_REG(VPMU_RF_FLAGS))
		return st->val[VPMU_RF_FLAGS];
	return 0x100;
}

/*
 * Does branch microword @d, the flags after it @fl (0x100: on data), go
 * to its target on this translation's path: 1 yes, 0 no, -1 it depends
 * on data (the flags, or a condition outside: MISS, WQF, EXT)?
 */
static int tc_decide(const struct vpmu_tc_builder *tr, const struct vpmu_dec *d,
		     u32 fl)
{
	if (d->cond == VPMU_COND_USER || d->cond == VPMU_COND_SUPER)
		return (d->cond == VPMU_COND_USER) ==
		       (tr->mode == VPMU_MODE_USER);
	if (d->cond > VPMU_COND_GE || fl == 0x100)
		return -1;
	return (tr->e->dp.condtab[d->cond] >> fl) & 1;
}

/*
 * The microword after @upc (@d), its result @res, a branch decided
 * @taken (and so counted).
 */
static __always_inline u32 tc_after(struct vpmu_tc_builder *tr, u32 upc,
				    const struct vpmu_dec *d, u32 res,
				    bool taken)
{
	switch (d->seq) {
	case VPMU_SEQ_JUMP:
		return d->target;
	case VPMU_SEQ_DISP:
		return d->target + (res & ((1u << d->cond) - 1));
	case VPMU_SEQ_BR:
		if (!taken)
			break;
		vpmu_tc_count(tr, upc | VPMU_TC_BLOCK_TAKEN);
		return d->target;
	}
	return upc + 1;
}

/*
 * Is the instruction at @npc in memory for every run that can use this
 * translation?  The cache holds translations of fetches inside tc.msz
 * bytes; runs on less memory flush it (vpmu_interp()).
 */
static bool tc_fetch_ok(const struct vpmu_tc_builder *tr, u32 npc)
{
	return vpmu_fetch_ok(tr->e, npc, tr->msz);
}

/*
 * May the path in @st go on into the next instruction at @npc (its word
 * *@ir)?  If it is in memory now, the translation has room for it, and
 * has no branch on data yet: a superblock is straight-line code, as a
 * basic block, and ends with the instruction that branches.
 */
static bool tc_can_go_on(struct vpmu_tc_builder *tr,
			 const struct vpmu_tc_state *st, u32 npc, u32 *ir)
{
	const struct vpmu_engine *e = tr->e;

	if (tr->forked || st->insns + 1 >= VPMU_TC_INSNS ||
	    tr->nchk == VPMU_TC_INSNS ||
	    tr->words + VPMU_TC_ROOM > tr->limit ||
	    tr->nops + 2 * VPMU_TC_ROOM > VPMU_TC_MAXOPS ||
	    tr->nforks + 2 > VPMU_TC_FORKS ||
	    tr->nrecw + VPMU_TC_ROOM * 8 > VPMU_TC_RECW || !tc_fetch_ok(tr, npc))
		return false;
	*ir = vpmu_get_le32(e->st.mem + npc);
	return true;
}

/*
 * Will EOI microword @d go to a known pc that is in memory, its result
 * @res (if @known) written to @r?
 */
static bool tc_npc_known(struct vpmu_tc_builder *tr,
			 const struct vpmu_tc_state *st,
			 const struct vpmu_dec *d, bool known, u32 res, u8 r)
{
	bool alu = d->sig == VPMU_SIG_DAB || d->sig == VPMU_SIG_DB ||
		   d->sig == VPMU_SIG_DAF;

	if (alu && r == VPMU_RF_PC)
		return known && tc_fetch_ok(tr, res);
	return st->known & VPMU_TC_REG(VPMU_RF_PC) &&
	       tc_fetch_ok(tr, st->val[VPMU_RF_PC]);
}

/*
 * An EOI ends the instruction with pc @npc (known) or in R[t->a]: the
 * path ends with EOI op @t (EOIK if npc is known and in memory), or goes
 * on into the next instruction (*next), @t dropped (the last op) and the
 * word there one the translation checks.
 */
static int tc_eoi(struct vpmu_tc_builder *tr, struct vpmu_tc_state *st,
		  struct vpmu_tc_op *t, bool npc_known, u32 npc, u32 *next)
{
	const struct vpmu_ucode *uc = tr->e->uc;
	struct vpmu_tc_link *l;
	u32 ir;

	/* (an EOI op with no exit of its own, the last: nothing refers to it) */
	if (npc_known && t == &tr->ops[tr->nops - 1] && !t->x &&
	    tc_can_go_on(tr, st, npc, &ir)) {
		tr->nops--;
		tr->chk[tr->nchk].pc = npc;
		tr->chk[tr->nchk++].word = ir;
		st->insns++;
		tc_set(st, VPMU_RF_PC, true, npc);
		tc_set(st, VPMU_RF_IPC, true, npc);
		tc_set(st, VPMU_RF_IR, true, ir);
		*next = uc->idtab[(ir >> uc->op_shift) & uc->op_mask];
		return W_NEXT;
	}
	l = (struct vpmu_tc_link *)vpmu_tc_new_op(tr, VPMU_TC_OP_NR);
	l->npc = npc;
	if (!npc_known) {
		if (!t->b)
			t->a = VPMU_RF_PC;
		t->b = 1;
		t->d = 3; /* pc on data: the fetch checked, the key compared */
	} else if (!tc_fetch_ok(tr, npc)) {
		t->d = 2;	/* a fetch that faults, maybe */
	}
	if (!t->b && !t->d)
		t->h = VPMU_TC_OP_EOI_KNOWN;
	l->fin = vpmu_tc_emit_pairs(tr, st, VPMU_TC_KEYREGS);
	if (l->fin)
		vpmu_tc_rel(tr, vpmu_tc_op_word(tr, &l->fin));
	tr->kill = tr->eoi ? tr->kill & st->wrote : st->wrote;
	tr->eoi = true;
	return W_END;
}

/* What tc_word() makes of one microword. */
struct vpmu_tc_word {
	const struct vpmu_dec *d;
	struct vpmu_tc_opnd a, b;
	bool alu, mem, eoi;
	bool known;		/* the ALU result known (res) */
	bool cmp, brf, brx;	/* a branch on data: compare, flags, signal */
	bool dispg;		/* a dispatch on data, guarded to index 0 */
	bool taken;		/* a branch decided: taken */
	u8 r;			/* the destination register */
	u32 res;
	u32 kpos, execs;	/* the block's entries, cycles before it */
	u32 mem_op;		/* its load or store op */
	struct vpmu_tc_op *t;	/* its EOI, load or store op */
};

/*
 * Can the microword of @w at @upc be translated on the path in @st?  What
 * its operands and result are, and how it branches.
 */
static bool tc_analyse(struct vpmu_tc_builder *tr,
		       const struct vpmu_tc_state *st, u32 upc,
		       struct vpmu_tc_word *w)
{
	const struct vpmu_dec *d = w->d;
	int k;

	/* what only the interpreter does: hooks, modes, the stack, stops */
	if (tc_routed(tr, upc) || d->sig == VPMU_SIG_I ||
	    d->seq == VPMU_SEQ_CALL || d->seq == VPMU_SEQ_RET ||
	    d->seq == VPMU_SEQ_HALT || d->seq == VPMU_SEQ_TRAP ||
	    d->seq == VPMU_SEQ_CTR ||
	    (w->mem && w->eoi) || tr->words >= tr->limit ||
	    !tc_operands(tr, st, d, &w->a, &w->b, &w->r))
		return false;
	w->known = w->a.known && w->b.known;
	if (w->alu && w->known)
		w->res = tc_eval(d, w->a.v, w->b.v);
	if (w->alu && !w->known) {
		/* a result on data: only into registers, flags only to compare */
		if (w->r == VPMU_RF_FLAGS ||
		    (w->r >= VPMU_RF_DS && w->r <= VPMU_RF_DS + 2))
			return false;
		if (d->s) {
			if (d->op != VPMU_OP_SUB || w->r != VPMU_RF_SINK ||
			    d->seq != VPMU_SEQ_BR || d->cond > VPMU_COND_GE ||
			    tr->nforks == VPMU_TC_FORKS)
				return false;
			w->cmp = true;
		}
		if (w->eoi && w->r != VPMU_RF_PC)
			return false;
		/* an ADD's dispatch: translated for index 0 (res), guarded */
		if (d->seq == VPMU_SEQ_DISP && d->op != VPMU_OP_ADD)
			return false;
		w->dispg = d->seq == VPMU_SEQ_DISP;
	}
	if (d->sig == VPMU_SIG_LD && w->r != VPMU_RF_SINK && w->r >= VPMU_RF_DS)
		return false;	/* a latch or the flags from memory */
	if (d->seq != VPMU_SEQ_BR || w->cmp)
		return true;
	k = tc_decide(tr, d, d->cond > VPMU_COND_GE ? 0 :
		      tc_flags_after(st, d, w->alu, w->known, w->a.v, w->b.v,
				     w->res, w->r));
	w->brf = k < 0 && d->cond <= VPMU_COND_GE;
	w->brx = k < 0 && d->cond > VPMU_COND_GE;
	w->taken = k > 0;
	return !((w->brf || w->brx) && tr->nforks == VPMU_TC_FORKS);
}

/* A known operand of an op that takes registers: into the sink. */
static void tc_to_sink(struct vpmu_tc_builder *tr, struct vpmu_tc_opnd *o)
{
	struct vpmu_tc_op *t = vpmu_tc_new_op(tr, VPMU_TC_OP_OR_RI);

	t->a = VPMU_RF_ZERO;
	t->d = VPMU_RF_SINK;
	t->imm = o->v;
	o->known = false;
	o->r = VPMU_RF_SINK;
}

/* The ops of a load or store (@w), its exit before it at @upc. */
static void tc_emit_mem(struct vpmu_tc_builder *tr, struct vpmu_tc_state *st,
			u32 upc, struct vpmu_tc_word *w)
{
	const struct vpmu_dec *d = w->d;
	struct vpmu_tc_op *t;

	if (d->sig == VPMU_SIG_ST && w->b.known && w->b.v)
		tc_to_sink(tr, &w->b);
	t = vpmu_tc_new_op(tr, tc_rr[d->op]);
	vpmu_tc_emit_exit(tr, st, &t->x, upc, true, w->kpos, w->execs);
	w->t = t;
	w->mem_op = tr->nops - 1;
	t->a = w->a.known ? VPMU_RF_ZERO : w->a.r;
	t->imm = (w->a.known ? w->a.v : 0) + (u32)d->imm;
	tc_read(tr, st, &w->a);
	if (d->sig == VPMU_SIG_ST) {
		t->b = w->b.known ? VPMU_RF_ZERO : w->b.r;
		if (w->b.r != VPMU_RF_SINK)
			tc_read(tr, st, &w->b);
	} else {
		t->d = w->r;
		tc_set(st, w->r, false, 0);
	}
}

/*
 * An ADD's dispatch on data (@w at @upc), guarded: index 0 commits the
 * sum and goes on, any other leaves before the microword, which the
 * interpreter runs again from the registers as they were (one op: two
 * registers, or a register and a constant).
 */
static void tc_dispg(struct vpmu_tc_builder *tr, struct vpmu_tc_state *st,
		     u32 upc, struct vpmu_tc_word *w)
{
	const struct vpmu_dec *d = w->d;
	const struct vpmu_tc_opnd *k = w->a.known ? &w->a :
				       w->b.known ? &w->b : NULL;
	struct vpmu_tc_op *t =
		vpmu_tc_new_op(tr, k ? VPMU_TC_OP_DISP_ADDI :
				       VPMU_TC_OP_DISP_ADD);

	t->a = k == &w->a ? w->b.r : w->a.r;
	t->b = k ? VPMU_RF_ZERO : w->b.r;
	t->imm = k ? k->v : 0;
	vpmu_tc_emit_exit(tr, st, &t->x, upc, true, w->kpos, w->execs);
	t->d = w->r;
	t->y = (1u << d->cond) - 1;
	tc_set(st, w->r, false, 0);
}

/* The ops of an ALU microword (@w) at @upc, and of its EOI. */
static void tc_emit_alu(struct vpmu_tc_builder *tr, struct vpmu_tc_state *st,
			u32 upc, struct vpmu_tc_word *w)
{
	const struct vpmu_dec *d = w->d;
	struct vpmu_tc_op *t;

	if (w->eoi) {
		/* may fault: the exit before it (an EOI to a known pc, never) */
		w->t = vpmu_tc_new_op(tr, VPMU_TC_OP_EOI);
		if (!tc_npc_known(tr, st, d, w->alu && w->known, w->res, w->r))
			vpmu_tc_emit_exit(tr, st, &w->t->x, upc, true,
					  w->kpos, w->execs);
	}
	if (!w->alu)
		return;
	if (w->known) {
		tc_set(st, w->r, true, w->res);
		if (d->s)
			tc_set(st, VPMU_RF_FLAGS, true,
			       vpmu_flags(tc_flag_kind(d), w->a.v, w->b.v,
					  w->res));
		return;
	}
	tc_read(tr, st, &w->a);
	tc_read(tr, st, &w->b);
	if (w->cmp) {
		if (w->a.known && w->a.v)
			tc_to_sink(tr, &w->a);
		t = vpmu_tc_new_op(tr, tc_cmp[d->cond][w->b.known]);
		t->a = w->a.known ? VPMU_RF_ZERO : w->a.r;
		t->b = w->b.known ? VPMU_RF_ZERO : w->b.r;
		t->imm = w->b.known ? w->b.v : 0;
		tc_set(st, VPMU_RF_FLAGS, false, 0);
	} else if (w->eoi) {
		/*
		 * pc into the sink: the EOI op checks the fetch, then commits
		 * it (a fault runs the microword again on the interpreter)
		 */
		struct vpmu_tc_op op = tr->ops[--tr->nops];

		tc_alu(tr, d, &w->a, &w->b, VPMU_RF_SINK);
		op.b = 1;
		op.a = VPMU_RF_SINK;
		/* (the exit's offset moves with the op) */
		tr->rels[tr->nrels - 1] += VPMU_TC_OPW;
		w->t = &tr->ops[tr->nops++];
		*w->t = op;
		tc_set(st, VPMU_RF_PC, false, 0);
	} else if (w->dispg) {
		tc_dispg(tr, st, upc, w);
	} else {
		tc_alu(tr, d, &w->a, &w->b, w->r);
		tc_set(st, w->r, false, 0);
	}
}

/*
 * A store's cycle is before the rest of its block: d, the cycles after it,
 * is set when the block closes.
 */
static bool tc_store_cycle(struct vpmu_tc_builder *tr, u32 op)
{
	if (tr->nst == VPMU_TC_CUTS)
		return false;
	tr->st_execs[tr->nst] = tr->ops[tr->blk_op].imm;
	tr->st_ops[tr->nst++] = op;
	return true;
}

/* Where the path goes after the microword of @w at @upc (W_*, *@next). */
static int tc_sequence(struct vpmu_tc_builder *tr, struct vpmu_tc_state *st,
		       u32 upc, struct vpmu_tc_word *w, u32 *next)
{
	const struct vpmu_dec *d = w->d;
	struct vpmu_tc_op *t;

	if (d->seq == VPMU_SEQ_EOI)
		return tc_eoi(tr, st, w->t, !w->t->b &&
			      (st->known & VPMU_TC_REG(VPMU_RF_PC)),
			      st->val[VPMU_RF_PC], next);
	if (w->cmp || w->brf || w->brx) {
		if (!w->cmp) {
			t = vpmu_tc_new_op(tr, w->brf ? VPMU_TC_OP_BR_FLAGS :
					       VPMU_TC_OP_BR_EXT);
			t->b = d->cond;
		}
		tc_fork(tr, st, upc, d);
		*next = upc + 1;
		return W_SPLIT;
	}
	*next = tc_after(tr, upc, d, w->res, w->taken);
	if (!w->mem)
		return W_NEXT;
	/*
	 * A load or store that stalls past the cycles left leaves right
	 * after it, as the interpreter's next segment would not be entered
	 */
	vpmu_tc_emit_exit(tr, st, &tr->ops[w->mem_op].y, *next, true,
			  vpmu_tc_cur_block(tr)->n, tr->ops[tr->blk_op].imm);
	if (d->sig == VPMU_SIG_ST && !tc_store_cycle(tr, w->mem_op)) {
		tr->fail = true;
		return W_EXIT;
	}
	return W_NEXT;
}

/* ---- the common case, cheaply ------------------------------------------- */

/*
 * A source operand's value, if the path knows it: tc_src() for the common
 * case, an operand on data being no use here.
 */
static __always_inline bool tc_kval(const struct vpmu_tc_state *st,
				    const struct vpmu_dec *d, unsigned int code,
				    u32 *v)
{
	if (code == VPMU_OPND_IMM) {
		*v = (u32)d->imm;
		return true;
	}
	if (!tc_at(st, &code) || !(st->known & VPMU_TC_REG(code)))
		return false;
	*v = st->val[code];
	return true;
}

/* The operations and sequencings tc_word_known() takes. */
#define TC_ALU_SIGS	(BIT(VPMU_SIG_DAB) | BIT(VPMU_SIG_DB) | BIT(VPMU_SIG_DAF))
#define TC_KNOWN_SEQS	(BIT(VPMU_SEQ_NEXT) | BIT(VPMU_SEQ_JUMP) |	\
			 BIT(VPMU_SEQ_BR) | BIT(VPMU_SEQ_DISP))

/*
 * Translate microword @upc (@d) if it is what most of a macro
 * instruction's microcode is: an ALU operation on what the key decides
 * (fields of ir, immediates, pc), going on to a microword it decides.
 * It costs no op, only its count: the same as tc_word() would make of
 * it, in a fraction of the time.  False: nothing done, tc_word() looks.
 */
static bool tc_word_known(struct vpmu_tc_builder *tr, struct vpmu_tc_state *st,
			  u32 upc, const struct vpmu_dec *d, u32 *next)
{
	u32 a = 0, b = 0, res;
	int taken = 0;
	u8 r;

	if (!(TC_ALU_SIGS & BIT(d->sig)) || !(TC_KNOWN_SEQS & BIT(d->seq)) ||
	    tc_routed(tr, upc) || tr->words >= tr->limit)
		return false;
	if ((d->sig != VPMU_SIG_DB && !tc_kval(st, d, d->a, &a)) ||
	    (d->sig != VPMU_SIG_DAF && !tc_kval(st, d, d->b, &b)))
		return false;
	if (!tc_dst(tr, st, d->dst, &r))
		return false;
	res = tc_eval(d, a, b);
	if (d->seq == VPMU_SEQ_BR) {
		taken = tc_decide(tr, d, d->cond > VPMU_COND_GE ? 0 :
				  tc_flags_after(st, d, true, true, a, b, res,
						 r));
		if (taken < 0)
			return false;
	}
	tr->words++;
	tc_set(st, r, true, res);
	if (d->s)
		tc_set(st, VPMU_RF_FLAGS, true,
		       vpmu_flags(tc_flag_kind(d), a, b, res));
	vpmu_tc_count(tr, upc);
	*next = tc_after(tr, upc, d, res, taken);
	return true;
}

/*
 * Translate microword @upc on the path in @st: append its op(s) and
 * count, and say how the path goes on (*next for W_NEXT and W_SPLIT).
 * W_EXIT: the interpreter must run it; nothing was appended.
 */
static int tc_word(struct vpmu_tc_builder *tr, struct vpmu_tc_state *st,
		   u32 upc, u32 *next)
{
	const struct vpmu_dec *d = &tr->dec[upc];
	struct vpmu_tc_word w;

	if (tc_word_known(tr, st, upc, d, next))
		return W_NEXT;
	w = (struct vpmu_tc_word){
		.d = d,
		.alu = d->sig == VPMU_SIG_DAB || d->sig == VPMU_SIG_DB ||
		       d->sig == VPMU_SIG_DAF,
		.mem = d->sig == VPMU_SIG_LD || d->sig == VPMU_SIG_ST,
		.eoi = d->seq == VPMU_SEQ_EOI,
		.kpos = vpmu_tc_cur_block(tr)->n,
		.execs = tr->ops[tr->blk_op].imm,
	};

	if (!tc_analyse(tr, st, upc, &w))
		return W_EXIT;
	tr->words++;
	if (w.mem)
		tc_emit_mem(tr, st, upc, &w);
	else
		tc_emit_alu(tr, st, upc, &w);
	vpmu_tc_count(tr, upc);
	return tc_sequence(tr, st, upc, &w, next);
}

/*
 * Translate the path from @upc on: blocks of microwords until an EOI or an
 * exit.  A block ends at a branch on data.
 */
static void tc_path(struct vpmu_tc_builder *tr, struct vpmu_tc_state *st,
		    u32 upc)
{
	u32 next = 0, fg;
	struct vpmu_tc_op *t;

	while (!tr->fail) {
		switch (tc_word(tr, st, upc, &next)) {
		case W_NEXT:
			upc = next;
			continue;
		case W_SPLIT:
			vpmu_tc_close_block(tr);
			upc = next;
			vpmu_tc_emit_block(tr, st, upc, -1);
			continue;
		case W_END:
			vpmu_tc_close_block(tr);
			return;
		default:
			/*
			 * a trigger source that toggles: again, in a block
			 * of its own that begins with the toggle
			 */
			fg = tc_toggles(tr, upc);
			if (fg && !tc_toggling(tr, upc)) {
				vpmu_tc_close_block(tr);
				vpmu_tc_emit_toggle(tr, st, upc, fg);
				continue;
			}
			vpmu_tc_close_block(tr);
			t = vpmu_tc_new_op(tr, VPMU_TC_OP_EXIT);
			vpmu_tc_emit_exit(tr, st, &t->x, upc, false, 0, 0);
			return;
		}
	}
}

/*
 * Translate (@key = pc | mode, @ir) into the engine's scratch, reading the
 * ucode, the routes and the program's memory, and writing nothing else:
 * vpmu_tc_place() puts it in the pool.  The deferred cache runs the two
 * between runs (vpmu_engine_tc_work()).
 */
void vpmu_tc_build(struct vpmu_engine *e, u32 key, u32 ir)
{
	struct vpmu_tc_builder *tr = e->mem.tc_scratch;
	const struct vpmu_ucode *uc = e->uc;
	u32 upc = uc->idtab[(ir >> uc->op_shift) & uc->op_mask];
	struct vpmu_tc_state st;

	memset(tr, 0, offsetof(struct vpmu_tc_builder, st_ops));
	tr->e = e;
	tr->trig = e->mem.trig_static;
	tr->dec = uc->dec;
	/* results into zero, and r0 if it reads 0, are discarded */
	tr->sink = VPMU_TC_REG(VPMU_RF_ZERO) |
		   (e->dp.r0zero ? VPMU_TC_REG(VPMU_OPND_R0) : 0);
	tr->limit = VPMU_TC_PATH;
	/* the memory the cache's fetches are in, this one's if it is empty */
	tr->msz = e->tc.msz ? e->tc.msz : e->st.msz;
	tr->pc = key & ~1u;
	tr->mode = key & 1;
	tr->ir = ir;
	memset(&st, 0, sizeof(st));
	/* what the key says: written, as far as the exits are concerned */
	st.known = VPMU_TC_KEYREGS | VPMU_TC_REG(VPMU_RF_ZERO);
	/* r0 that reads 0 is known 0 (and never written: tc_dst()) */
	st.known |= tr->sink;
	st.wrote = VPMU_TC_KEYREGS;
	st.val[VPMU_RF_PC] = tr->pc;
	st.val[VPMU_RF_IPC] = tr->pc;
	st.val[VPMU_RF_IR] = ir;
	vpmu_tc_emit_block(tr, &st, upc, -1);
	tc_path(tr, &st, upc);
	while (tr->nforks && !tr->fail) {
		struct vpmu_tc_fork *f = &tr->fork[--tr->nforks];

		st = f->st;
		tr->ops[f->op].x = tr->nops - f->op;
		vpmu_tc_emit_block(tr, &st, f->upc, f->br);
		tc_path(tr, &st, f->upc);
	}
	/* nothing but an exit before the first microword: not worth it */
	if (tr->nops == 2 && tr->ops[1].h == VPMU_TC_OP_EXIT)
		tr->fail = true;
}

/*
 * Put the translation vpmu_tc_build() made into the pool, or a head that
 * sends its instruction to the interpreter if it failed.  Returns the
 * head's offset, or 0 if the pool is full.
 */
u32 vpmu_tc_place(struct vpmu_engine *e)
{
	struct vpmu_tc_builder *tr = e->mem.tc_scratch;

	if (!e->tc.msz)
		e->tc.msz = tr->msz;	/* until the next flush */
	if (tr->fail)
		return vpmu_tc_emit_none(e, tr->pc | tr->mode, tr->ir);
	return vpmu_tc_layout(tr);
}

size_t vpmu_tc_scratch_size(void)
{
	return sizeof(struct vpmu_tc_builder);
}
