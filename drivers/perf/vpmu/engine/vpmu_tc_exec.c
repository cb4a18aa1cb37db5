// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu_tc_exec.c - the translated-code executor: runs translations
 * (vpmu_tc_translate.c makes them, vpmu_tc_cache.c finds, links and
 * leaves them) with the interpreter's clock, registers and slot, until
 * one leaves for the interpreter.
 */
#include "vpmu_exec.h"

/*
 * The uops of the slot whose block counters are at @tcnt in the pool
 * @tpool: found again from the counters where they are needed (stalls,
 * exits), so that the loop keeps one pointer to the slot, not two.
 */
static __always_inline struct vpmu_uop *tc_slot_uops(struct vpmu_engine *e,
						     const u32 *tpool,
						     const u32 *tcnt)
{
	return e->mem.slot[tcnt - tpool];
}

/*
 * A translated load missed or a store stalled: count @dyn (a miss, the
 * store's stall cycles) in the microword's uop, as the interpreter does,
 * in the slot whose counters are @tcnt.  Returns @stall, the cycles it
 * stalled.
 */
static __always_inline u32 vpmu_tc_stall(struct vpmu_engine *e,
					 const u32 *tcnt, const u32 *tpool,
					 const struct vpmu_tc_op *t, u32 dyn,
					 u32 stall)
{
	u32 upc = ((const struct vpmu_tc_exit *)(tpool + t->x))->upc;

	tc_slot_uops(e, tpool, tcnt)[upc].dyn += dyn;
	if (stall)
		vpmu_stalled(e, upc, stall);
	return stall;
}

/*
 * How an op ends, the only jumps between ops (vpmu_dispatch.h):
 * GOTO_OP() to t's handler, GOTO_NEXT_OP() to the next op's, GOTO_TAKE(c)
 * to the taken side of a branch op if @c, else to the next op.  #undef'd
 * after vpmu_tc_exec().
 */
#define GOTO_OP()	VPMU_GOTO_HANDLER(tlab, t->h, t->hl)
#define GOTO_NEXT_OP()							\
	do {								\
		t++;							\
		GOTO_OP();						\
	} while (0)
#define GOTO_TAKE(c)							\
	do {								\
		t += (c) ? t->x : 1;					\
		GOTO_OP();						\
	} while (0)

/*
 * The ops made by operation, each defined right before its uses and
 * #undef'd after them.  ALU3(op): an ALU operation on two registers, a
 * register and an immediate, an immediate and a register.
 */
#define ALU3(op)							\
VPMU_TC_OP_##op##_RR : {						\
		R[t->d] = vpmu_alu(VPMU_OP_##op, R[t->a], R[t->b], 0, 0); \
		GOTO_NEXT_OP();						\
	}								\
VPMU_TC_OP_##op##_RI: {							\
		R[t->d] = vpmu_alu(VPMU_OP_##op, R[t->a], t->imm, 0, 0); \
		GOTO_NEXT_OP();						\
	}								\
VPMU_TC_OP_##op##_IR: {							\
		R[t->d] = vpmu_alu(VPMU_OP_##op, t->imm, R[t->b], 0, 0); \
		GOTO_NEXT_OP();						\
	}

/*
 * GUARD(op): a DISP_ADDI and the load or store @op of its sum after it
 * (the pair tc_fuse() fuses where the access's own check of its address
 * covers the dispatch's index bits, y: any index but 0 fails it).  The
 * access's check, once: where it fails, the exit before the dispatch if
 * its index is not 0, else, its sum to d, the exit before the access.
 * Then on into the access with the sum as its address, which it neither
 * computes nor checks again.
 */
#define GUARD(op)							\
VPMU_TC_OP_GUARD_##op : {						\
		u32 r = R[t->a] + t->imm;				\
		if (unlikely(!vpmu_access_ok(r,				\
					     vpmu_mem_size(VPMU_OP_##op), \
					     fwords, hwords, msz))) {	\
			if (r & t->y)					\
				goto tc_exit;				\
			R[t->d] = r;					\
			t++;	/* the access's exit */			\
			goto tc_exit;					\
		}							\
		R[t->d] = r;						\
		maddr = r;						\
		t++;	/* the access, whose base is d and offset 0 */	\
		goto tc_access_##op;					\
	}

/*
 * LOAD(op), STORE(op): x is the exit before (a fault; its upc the
 * microword's), y the exit after if a stall leaves fewer cycles than the
 * block charged for what follows (0: the block ends here); a store's
 * cycle is the block's charge less d cycles.  A store into a word a
 * translation checks starts a new code generation and leaves.
 * tc_access_<op> is the access at maddr, checked.
 */
#define LOAD(op)							\
GUARD(op)								\
VPMU_TC_OP_##op : {							\
		maddr = R[t->a] + t->imm;				\
		if (unlikely(!vpmu_access_ok(maddr,			\
					     vpmu_mem_size(VPMU_OP_##op), \
					     fwords, hwords, msz)))	\
			goto tc_exit;					\
	}								\
tc_access_##op: {							\
		u32 line, *tag;						\
		R[t->d] = vpmu_load(VPMU_OP_##op, mem + maddr);		\
		line = maddr >> e->dp.dc_shift;				\
		tag = &e->mem.dc_tag[line & e->dp.dc_mask];		\
		e->st.last_miss = *tag != line + 1;			\
		if (likely(!e->st.last_miss))				\
			GOTO_NEXT_OP();					\
		*tag = line + 1;					\
		left -= vpmu_tc_stall(e, tcnt, tpool, t, 1, e->dp.penalty); \
		if (unlikely(t->y && left < 0))				\
			goto tc_stall_exit;				\
		GOTO_NEXT_OP();						\
	}
#define STORE(op)							\
GUARD(op)								\
VPMU_TC_OP_##op : {							\
		maddr = R[t->a] + t->imm;				\
		if (unlikely(!vpmu_access_ok(maddr,			\
					     vpmu_mem_size(VPMU_OP_##op), \
					     fwords, hwords, msz)))	\
			goto tc_exit;					\
	}								\
tc_access_##op: {							\
		unsigned int size_ = vpmu_mem_size(VPMU_OP_##op);	\
		u32 st;							\
		bool code;						\
		vpmu_mem_store(mem + maddr, R[t->b], size_);		\
		st = vpmu_wq_enter(&wq_last, cend - left - t->d,	\
				   e->dp.wq_full, e->dp.wq_drain);	\
		code = vpmu_tc_code(e, maddr);				\
		if (likely(!st && !code))				\
			GOTO_NEXT_OP();					\
		if (st)							\
			left -= vpmu_tc_stall(e, tcnt, tpool, t, st, st); \
		if (code) {						\
			e->tc.gen++;	/* the others check */		\
			goto tc_code_exit;				\
		}							\
		if (unlikely(t->y && left < 0))				\
			goto tc_stall_exit;				\
		GOTO_NEXT_OP();						\
	}

/*
 * CMP(cond): compare and branch, the flags left lazy as the interpreter's
 * CMP leaves them, with a register (CMP_cond) or a constant (CMPI_cond)
 * as the second operand.
 */
#define CMP(cond)							\
VPMU_TC_OP_CMP_##cond : {						\
		u32 a = R[t->a], b = R[t->b];				\
		e->dp.lazy_a = a;					\
		e->dp.lazy_b = b;					\
		R[VPMU_RF_FLAGS] = VPMU_FLAGS_LAZY;			\
		GOTO_TAKE(vpmu_cmp_holds(VPMU_COND_##cond, a, b));	\
	}								\
VPMU_TC_OP_CMPI_##cond: {						\
		u32 a = R[t->a], b = t->imm;				\
		e->dp.lazy_a = a;					\
		e->dp.lazy_b = b;					\
		R[VPMU_RF_FLAGS] = VPMU_FLAGS_LAZY;			\
		GOTO_TAKE(vpmu_cmp_holds(VPMU_COND_##cond, a, b));	\
	}

/*
 * DISP(name, sum): an ADD's dispatch on data, guarded: its @sum to d if
 * its index (y the mask) is 0, else the exit x, before the microword.
 */
#define DISP(name, sum)							\
VPMU_TC_OP_##name : {							\
		u32 r = (sum);						\
		if (unlikely(r & t->y))					\
			goto tc_exit;					\
		R[t->d] = r;						\
		GOTO_NEXT_OP();						\
	}

/*
 * EOI(name, npc, fault, keyed, chains, pairs_): the next pc @npc, which
 * may be outside memory if @fault; on into the translation linked to the
 * one that ended, its key compared whole if @keyed (pc on data: so is the
 * mode), else its word only, and the link chained if @chains (below),
 * which then writes its pairs if @pairs_ or has none.  VPMU_TC_OP_EOI is the
 * general form (b: npc is R[a], else the link's; d & 2: @fault, d & 1:
 * @keyed), EOI_KNOWN the common one, npc known and in memory, and
 * EOI_KNOWN_NP the same chained to a translation that needs no pairs.
 */
#define EOI(name, npc_expr, fault, keyed, chains, pairs_)		\
VPMU_TC_OP_##name : {							\
		const bool chain_ = (chains);				\
		struct vpmu_tc_link *l;					\
		u32 npc, ir;						\
		if (chain_ && likely(t->chain == e->tc.stamp)) {	\
			t = tc_follow_chained(R, tpool,			\
					      (const void *)(t + 1),	\
					      &tpend, (pairs_));		\
			GOTO_OP();	/* its first block */		\
		}							\
		l = (struct vpmu_tc_link *)(t + 1);			\
		barrier();	/* (the fast path compares in memory) */ \
		if (chain_ && tc_chained_in_gen(e, t, l))		\
			goto rechain_##name;				\
		npc = (npc_expr);					\
		if (unlikely(fault) && !vpmu_fetch_in(e, npc))		\
			goto tc_exit;					\
		ir = vpmu_get_le32(mem + npc);				\
		tb = (const struct vpmu_tc_trans *)(tpool + l->tb);	\
		if (unlikely(!l->tb || tb->ir != ir ||			\
			     ((keyed) && tb->key != (npc | e->st.mode)))) { \
			/* it may go to the interpreter: exact state */	\
			e->st.wq_last = wq_last;			\
			tb = vpmu_tc_next(e, l, npc, ir, &tpend);	\
			if (tb) {					\
				t = VPMU_TC_OPS(tb);			\
				goto tc_enter;				\
			}						\
			upc = e->uc->idtab[(ir >> e->dp.op_shift) &	\
					   e->dp.op_mask];		\
			goto out;					\
		}							\
		if (chain_) {						\
rechain_##name:								\
			t = tc_follow(R, tpool, l, &tpend);		\
			if (!tc_may_enter(e, t))			\
				goto tc_exit;	/* before its first block */ \
			tc_chained(e, (struct vpmu_tc_op *)l - 1, l->npc, \
				   l->pairs, tlab);			\
			GOTO_OP();					\
		}							\
		t = tc_follow(R, tpool, l, &tpend);			\
		goto tc_enter;						\
	}

/*
 * EOI_KNOWN's link, once its word compared equal (EOI()) and the
 * translation it holds entered, is chained: the op holds the engine's
 * stamp (code generation and drain epoch) it was entered in, and the
 * words of memory that hold the next instruction are marked, so that a
 * store into them starts a new generation.  While the stamp stays, that
 * word is still the linked translation's, whose checked words have not
 * changed and whose counts this epoch's drain will fold: EOI_KNOWN goes
 * on into its first block without fetching and comparing the word or
 * looking at the translation's stamp (VPMU_TC_OP_EOI_KNOWN), nor
 * whether its link has pairs to write: chaining makes it EOI_KNOWN_NP
 * where it has none (a link's pairs stay while it is chained).  A new
 * stamp unchains them all; so does eviction, which drains the counts of
 * the translations entered (tc_evict()), a new epoch: a link whose
 * translation goes (its tb 0, tc_forget()) was chained in an old one.
 * After a drain alone, a link chains again without comparing its word
 * (tc_chained_in_gen()), as the translation it enters is counted anew.
 */
static __always_inline void tc_chained(struct vpmu_engine *e,
				       struct vpmu_tc_op *t, u32 npc,
				       u32 pairs, const void *const *tlab)
{
	/* (a word's mark stays until a flush, which takes the op too) */
	if (t->chain == VPMU_TC_UNCHAINED)
		vpmu_tc_code_mark(e, npc);
	t->chain = e->tc.stamp;
	t->h = pairs ? VPMU_TC_OP_EOI_KNOWN : VPMU_TC_OP_EOI_KNOWN_NP;
#ifndef __KERNEL__
	t->hl = tlab[t->h];
#else
	(void)tlab;
#endif
}

/*
 * EOI_KNOWN @t, its link @l, unchained by a drain only: chained in this
 * code generation, its word is still the linked translation's, so the
 * link need not compare it to be chained again.
 */
static __always_inline bool tc_chained_in_gen(const struct vpmu_engine *e,
					      const struct vpmu_tc_op *t,
					      const struct vpmu_tc_link *l)
{
	return t->chain_gen == e->tc.gen && t->chain != VPMU_TC_UNCHAINED &&
	       l->tb;
}

/*
 * Go on from an EOI into the translation its link @l holds: write the
 * registers the link's pairs list (those of the path's fin that the next
 * translation reads before it writes them), and leave the rest of fin
 * pending (*@tpend) for an exit from that translation to write.  Returns
 * the translation's first op.
 */
static __always_inline const struct vpmu_tc_op *
tc_follow(u32 *R, const u32 *tpool, const struct vpmu_tc_link *l,
	  const struct vpmu_tc_pairs **tpend)
{
	if (unlikely(l->pairs))
		vpmu_tc_write(R, (const void *)(tpool + l->pairs));
	*tpend = (const void *)(tpool + l->fin);
	return VPMU_TC_OPS((const struct vpmu_tc_trans *)(tpool + l->tb));
}

/*
 * tc_follow() from a chained link @l, which has @pairs (EOI_KNOWN) or
 * none (EOI_KNOWN_NP): it need not look.  (Its own copy: tc_follow() as
 * this with unlikely(l->pairs) for @pairs cost workload.elf 37,000 host
 * instructions more in 5000-cycle chunks.)
 */
static __always_inline const struct vpmu_tc_op *
tc_follow_chained(u32 *R, const u32 *tpool, const struct vpmu_tc_link *l,
		  const struct vpmu_tc_pairs **tpend, bool pairs)
{
	if (pairs)
		vpmu_tc_write(R, (const void *)(tpool + l->pairs));
	*tpend = (const void *)(tpool + l->fin);
	return VPMU_TC_OPS((const struct vpmu_tc_trans *)(tpool + l->tb));
}

/*
 * BLOCK_TGL @t: a block whose first microword is a trigger source that
 * toggles as it begins (vpmu_interp()'s TRIG) toggles into the slot of
 * the new freeze state, whose counters (*@tcnt) it then counts in, if
 * that slot is in use and the block's @left cycles suffice; else false,
 * and the interpreter toggles (a hook takes the slot) from the exit
 * before it.
 */
static __always_inline bool tc_toggle(struct vpmu_engine *e,
				      const struct vpmu_tc_op *t, s32 left,
				      u32 **tcnt)
{
	u8 s = e->ctr.key_slot[vpmu_key(e->st.mode, e->trig.frozen ^ t->d)];

	if (left < (s32)t->imm || s == 0xff)
		return false;
	e->trig.frozen ^= t->d;
	*tcnt = e->mem.tc_pool + s;
	return true;
}

/*
 * BLOCK_EV @t, in an armed chunk (vpmu_tc_exec_armed()): may its block,
 * which has the @left cycles it needs, add v[k] events (tc.ev_vec[t->d])
 * to the armed counter k, for each, with none at its wrap?  Then they
 * are taken off what each may still count: what it takes, it runs.
 * (Unarmed, nothing is short.)
 */
static __always_inline bool tc_ev_take(struct vpmu_tc *tc,
				       const struct vpmu_tc_op *t, s32 left)
{
	const u8 *v = tc->ev_vec[t->d];
	u32 k;

	if (left < (s32)t->imm)
		return false;
	for (k = 0; k < tc->ev_n; k++)
		if (tc->ev_left[k] < v[k])
			return false;
	for (k = 0; k < tc->ev_n; k++)
		tc->ev_left[k] -= v[k];
	return true;
}

/* The counters of the slot of the freeze state now. */
static __always_inline u32 *tc_slot_now(struct vpmu_engine *e)
{
	return e->mem.tc_pool +
	       e->ctr.key_slot[vpmu_key(e->st.mode, e->trig.frozen)];
}

/*
 * Left before block op @t, @left cycles left: for want of its cycles (or
 * a word changed, before a BLOCK), where a run may yield.
 */
static __always_inline bool tc_yields_at(const struct vpmu_tc_op *t,
					 s32 left)
{
	return t->h == VPMU_TC_OP_BLOCK ||
	       ((t->h == VPMU_TC_OP_BLOCK_TGL || t->h == VPMU_TC_OP_BLOCK_EV) &&
		left < (s32)t->imm);
}

/* The translation whose first op is @t. */
static __always_inline const struct vpmu_tc_trans *
tc_of_first(const struct vpmu_tc_op *t)
{
	return (const struct vpmu_tc_trans *)t - 1;
}

/*
 * Entering translation @tb, whose stamp is not the engine's: may it run?
 * Not if a word it runs has changed (vpmu_tc_check()).  If it may, it is
 * counted in this epoch (vpmu_tc_touch()).
 */
static VPMU_NOINLINE bool tc_restamp(struct vpmu_engine *e,
				     const struct vpmu_tc_trans *tb)
{
	if (tb->gen != e->tc.gen && !vpmu_tc_check(e, tb))
		return false;
	if ((tb->epoch & ~VPMU_TC_EV_FIRST) != e->tc.epoch)
		vpmu_tc_touch(e, tb);
	return true;
}

/* May the translation whose first op is @t be entered (tc_restamp())? */
static __always_inline bool tc_may_enter(struct vpmu_engine *e,
					 const struct vpmu_tc_op *t)
{
	const struct vpmu_tc_trans *tb = tc_of_first(t);

	return tb->stamp == e->tc.stamp || tc_restamp(e, tb);
}

/* The loop's handlers for the translator (e->tlab): vpmu_tc_exec(NULL). */
static struct vpmu_tc_ret tc_publish(struct vpmu_engine *e,
				     const void *const *tlab)
{
	e->tlab = tlab;
	return (struct vpmu_tc_ret){ .upc = 0 };
}

/*
 * Run translations (vpmu_tc_cache.c) from @tb on, entered at its op @at
 * (0: its start, checked; else the block a run yielded at, which
 * vpmu_tc_resume() checked), with the interpreter's clock (@left, @cend)
 * and slot (@base), until one leaves: returns the microword where the
 * interpreter goes on, in which slot (trigger sources toggle), the
 * cycles left and whether the run yields there.  Its own function, apart
 * from vpmu_interp(), so that neither loop's registers crowd the
 * other's.  With @base NULL, only publishes the handlers.  The write
 * queue's newest drain time, which every store reads and writes, is a
 * local while translations run, written back before anything outside
 * this function can read it (the exits, vpmu_tc_next()).  The first op,
 * a block (every op a run may yield at is one), is entered as the ops
 * enter each other: a direct jump would invite the compiler to sink what
 * is set up before it into that handler, run at every block.
 */
VPMU_NOINLINE struct vpmu_tc_ret
vpmu_tc_exec(struct vpmu_engine *e, struct vpmu_uop *base,
	     const struct vpmu_tc_trans *tb, u32 at, s32 left, u64 cend)
{
	static const void *const tlab[VPMU_TC_OP_NR] __annotate_jump_table = {
#define X(name)	VPMU_JUMP_ENTRY(VPMU_TC_OP_, name)
		VPMU_TC_OP_LIST(X)
#undef X
	};
	u32 *const R = e->mem.R;
	u8 *const mem = e->st.mem;
	const u32 msz = e->st.msz, fwords = msz >> 2, hwords = msz >> 1;
	const u16 *const condtab = e->dp.condtab;
	const u32 *const tpool = e->mem.tc_pool;
	const struct vpmu_tc_pairs *tpend = NULL;
	const struct vpmu_tc_op *t;
	const struct vpmu_tc_exit *x;
	u32 *tcnt, maddr, upc;
	bool yield = false;
	/* the write queue's drain time: the engine's again at every exit */
	u64 wq_last = e->st.wq_last;

	if (!base)
		return tc_publish(e, tlab);
	/* the blocks' counters: a u32 per slot each, in the pool */
	tcnt = e->mem.tc_pool + vpmu_slot_of(e, base);
	t = VPMU_TC_OPS(tb) + at;
	/* a word it runs changed: the exit before block t */
	if (unlikely(tb->stamp != e->tc.stamp) && !tc_restamp(e, tb))
		goto tc_exit;
	GOTO_OP();	/* t, a block (above) */

#define X(op)	ALU3(op)
	VPMU_TC_ALU3_LIST(X);
#undef X
VPMU_TC_OP_MOV_RR:
	R[t->d] = R[t->b];
	GOTO_NEXT_OP();
VPMU_TC_OP_EXT:
	R[t->d] = vpmu_alu(VPMU_OP_EXT, R[t->a], 0, t->b, t->imm);
	GOTO_NEXT_OP();
VPMU_TC_OP_SEXT:
	R[t->d] = vpmu_alu(VPMU_OP_SEXT, R[t->a], 0, t->b, t->imm);
	GOTO_NEXT_OP();
	LOAD(LB) LOAD(LBU) LOAD(LH) LOAD(LHU) LOAD(LW)
	STORE(SB) STORE(SH) STORE(SW)
	CMP(AL) CMP(Z) CMP(NZ) CMP(N) CMP(NN) CMP(C) CMP(NC) CMP(V) CMP(NV)
	CMP(LT) CMP(GE);
VPMU_TC_OP_BLOCK:
	left -= (s32)t->imm;
	if (unlikely(left < 0)) {
		left += (s32)t->imm;
		goto tc_exit;
	}
	tcnt[t->y]++;
	GOTO_NEXT_OP();
VPMU_TC_OP_BLOCK_TGL:
	if (unlikely(!tc_toggle(e, t, left, &tcnt)))
		goto tc_exit;
	goto VPMU_TC_OP_BLOCK;
VPMU_TC_OP_BLOCK_EV:
	if (unlikely(!tc_ev_take(&e->tc, t, left)))
		goto tc_exit;
	goto VPMU_TC_OP_BLOCK;
VPMU_TC_OP_BR_FLAGS:
	GOTO_TAKE((condtab[t->b] >> vpmu_flags_read(e, R)) & 1);
VPMU_TC_OP_BR_EXT:
	GOTO_TAKE(vpmu_cond_at(e, t->b, cend - left, e->st.last_miss, wq_last));
	DISP(DISP_ADD, R[t->a] + R[t->b])
	DISP(DISP_ADDI, R[t->a] + t->imm)
	/* a known pc in memory when translated stays there (tc.msz) */
	EOI(EOI, t->b ? R[t->a] : l->npc, t->d & 2, t->d & 1, false, false);
	EOI(EOI_KNOWN, l->npc, false, false, true, true);
	EOI(EOI_KNOWN_NP, l->npc, false, false, true, false);
tc_stall_exit:
tc_code_exit:
	x = (const struct vpmu_tc_exit *)(tpool + t->y);
	goto tc_leave;
VPMU_TC_OP_EXIT:
tc_exit:
	x = (const struct vpmu_tc_exit *)(tpool + t->x);
tc_leave:
	/* the interpreter goes on where the translation stopped */
	e->st.wq_last = wq_last;
	upc = vpmu_tc_leave(e, tc_slot_uops(e, tpool, tcnt), tcnt, x, tpend);
	if (unlikely(x->untoggle))	/* back in the slot it came from */
		tcnt = tc_slot_now(e);
	left += x->refund;
	yield = unlikely(tc_yields_at(t, left)) &&
		vpmu_tc_yield(e, t, x, upc, cend + 1 - left);
out:
	return (struct vpmu_tc_ret){ upc, left, tcnt - tpool, yield, false };
tc_enter:
	/* t: a translation's first op, a block (a BLOCK_EV: never stamped so) */
	if (likely(tc_of_first(t)->stamp == e->tc.stamp))
		goto VPMU_TC_OP_BLOCK;
	if (tc_restamp(e, tc_of_first(t)))
		GOTO_OP();
	goto tc_exit;	/* before its first block */
}

#undef GOTO_OP
#undef GOTO_NEXT_OP
#undef GOTO_TAKE
#undef ALU3
#undef GUARD
#undef LOAD
#undef STORE
#undef CMP
#undef DISP
#undef EOI

/*
 * vpmu_tc_exec() in an armed chunk (vpmu_plan_chunk()), which runs to
 * tc.ev_cend but counts the events of the counters of tc.ev_mask on its
 * way, tc.ev_left[] of each at most, lest it wrap.  The interpreter does
 * not count them: it runs on a clock (@left to @cend) that ends where
 * they could have used what they have left, at one event every tc.ev_gap
 * cycles at most (their gap), and the cycles it ran since tc.ev_t0 are
 * charged so (vpmu_tc_ev_ran()).  The translations count them: a
 * BLOCK_EV takes its block's events off tc.ev_left[] (tc_ev_take()), and
 * leaves before a block that could add more, so that they may run on to
 * the chunk's end.  Leaving, the interpreter's clock ends where the
 * events left could all have occurred (those of INSNS, which it counts
 * itself: at once if none is left, vpmu_eoi()), or at the chunk's end
 * (tc.ev_icend, struct vpmu_tc_ret's clock).
 */
VPMU_NOINLINE struct vpmu_tc_ret
vpmu_tc_exec_armed(struct vpmu_engine *e, struct vpmu_uop *base,
		   const struct vpmu_tc_trans *tb, u32 at, s32 left, u64 cend)
{
	struct vpmu_tc *tc = &e->tc;
	u32 g = tc->ev_gap, k, least = ~0u;
	struct vpmu_tc_ret r;
	u64 n, now;

	vpmu_tc_ev_ran(tc, cend + 1 - left);
	left += (s32)(tc->ev_cend - cend);
	cend = tc->ev_cend;
	r = vpmu_tc_exec(e, base, tb, at, left, cend);
	now = cend - r.left;
	for (k = 0; k < tc->ev_n; k++) {
		/* of INSNS: counted at each EOI, while one is left */
		if (tc->ev_eoi >> k & 1 && tc->ev_left[k])
			continue;
		if (least > tc->ev_left[k])
			least = tc->ev_left[k];
	}
	n = least == ~0u ? ~0ull : (u64)least * g;
	if (r.left > 0 && n < (u64)r.left)
		r.left = (s32)n;
	tc->ev_t0 = now + 1;
	tc->ev_icend = now + r.left;
	r.clock = true;
	return r;
}

/*
 * The interpreter ran from tc.ev_t0 to cycle @t: each armed counter may
 * have counted an event every gap begun; but those of INSNS, which it
 * counts (tc.ev_eoi).
 */
void vpmu_tc_ev_ran(struct vpmu_tc *tc, u64 t)
{
	u64 n = t > tc->ev_t0 ? (t - tc->ev_t0 + tc->ev_gap - 1) / tc->ev_gap :
		0;
	u32 k;

	for (k = 0; k < tc->ev_n; k++)
		if (!(tc->ev_eoi >> k & 1))
			tc->ev_left[k] = tc->ev_left[k] > n ?
				tc->ev_left[k] - (u32)n : 0;
	tc->ev_t0 = t;
}
