// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu_interp.c - the interpreter: the loop of handlers that runs
 * the uops (vpmu_interp()) and the bookkeeping around it.
 */
#include "vpmu_exec.h"

#ifndef __annotate_jump_table
#define __annotate_jump_table
#endif

/*
 * make feature-bench builds the module again with -DVPMU_BENCH_PAD=n to
 * move the loop's code by n bytes: under TCG, where code sits changes
 * what it costs, and one placement alone can mislead.  The padding runs
 * once per chunk.
 */
#if defined(__KERNEL__) && defined(VPMU_BENCH_PAD)
#define VPMU_BENCH_SHIFT()						\
	asm volatile(".skip " __stringify(VPMU_BENCH_PAD) ", 0x90")
#else
#define VPMU_BENCH_SHIFT()	do { } while (0)
#endif

/* Write @v to register-file index @w, which is a latch or flags. */
static void vpmu_write_special(struct vpmu_engine *e, unsigned int w, u32 v)
{
	unsigned int k;

	if (w == VPMU_RF_FLAGS) {
		e->mem.R[w] = v & 15;
		return;
	}
	if (w < VPMU_RF_DS || w > VPMU_RF_DS + 2)
		return;
	k = w - VPMU_RF_DS;
	v &= 31;
	e->mem.R[w] = v;
	e->mem.reg_of[VPMU_OPND_AT_DS + k] = v;
}

/*
 * The slow part of committing a microword: memory side effects, special
 * destinations, flags.  Returns the stall cycles it costs.
 */
static u32 vpmu_commit_slow(struct vpmu_engine *e, struct vpmu_uop *u,
			    u32 res, u32 nfl, unsigned int pend, u32 maddr,
			    u64 now)
{
	u32 stall = 0;

	if (pend & VPMU_COMMIT_LOAD) {
		e->st.last_miss = vpmu_dc_access(e, maddr);
		if (e->st.last_miss) {
			u->dyn++;
			stall = e->dp.penalty;
		}
	}
	if (pend & VPMU_COMMIT_STORE) {
		vpmu_mem_store(e->st.mem + maddr, res, u->st_size);
		vpmu_tc_stored(e, maddr);
		stall = vpmu_wq_store(e, now);
		u->dyn += stall;
	} else if (pend & VPMU_COMMIT_SPECIAL) {
		vpmu_write_special(e, u->d, res);
	} else {
		e->mem.R[e->mem.reg_of[u->d]] = res;
		e->mem.R[e->dp.zero_idx] = 0;
	}
	if (pend & VPMU_COMMIT_FLAGS)
		e->mem.R[VPMU_RF_FLAGS] = nfl;
	if (stall)
		e->ctr.last_stall_upc = u->upc;
	return stall;
}

/* ---- the interpreter ---------------------------------------------------- */

/*
 * The interpreter is one function, vpmu_interp(): a loop of handlers, one
 * per microword shape, that holds only what microwords do.  The
 * bookkeeping sits around it in the always-inline functions below: the
 * cycle budget, the micro-PC histogram's samples, trigger and mode hooks,
 * undoing a microword that faults, leaving.  They take and return values:
 * the loop's clock (left, cend, hook, saved_left) and its position (u,
 * base) stay plain locals whose address is never taken, which keeps them
 * in registers and keeps sparse from tracking them through memory.
 *
 * The loop trusts its input: the validator checked every field of every
 * microword (vpmu_validate.c) and vpmu_build_uop() made the uops from them,
 * so no handler checks an operand, a target or a table index; handlers
 * check only what depends on the program (memory accesses, the
 * micro-stack).
 *
 * The clock: left is what remains of the cycles before the next check,
 * the chunk's end or the next sample, and the cycle now is cend - left.
 * A segment entry (ENTER) charges the whole segment; when fewer cycles
 * remain than the segment has microwords, the segment runs one microword
 * at a time through the general handlers, whose sequencers enter the next
 * one with a check.  Stalls happen only on segment ends, so the next entry
 * sees them.  A hook (trigger source, mode change) saves left and sets it
 * very negative, so that the next entry fails and posts the hook first.
 */

/*
 * A chunk of @L cycles: returns left, the cycles to its end or to the
 * first sample.  e->uh.left is relative to the chunk's start:
 * vpmu_uhist_advance() takes what is due after the last stall.
 */
static __always_inline s32 vpmu_clock_start(struct vpmu_engine *e, s64 L)
{
	struct vpmu_uhist_sampler *us = &e->uh.sampler;

	us->k = e->uh.interval > 1 ? e->uh.interval : 0;
	us->due = us->k && e->uh.left < (u64)L;
	us->rest = us->due ? L - (s64)e->uh.left : 0;
	us->next = e->st.cyc + e->uh.left;
	us->last = NULL;
	return us->due ? (s32)e->uh.left : (s32)L;
}

/* Leaving at cycle @cend + 1 - @left: the cycles used, the next sample. */
static __always_inline void vpmu_clock_stop(struct vpmu_engine *e,
					    u64 cend, s32 left)
{
	if (e->uh.sampler.k)
		e->uh.left = e->uh.sampler.next - e->st.cyc;
	e->st.cyc = cend + 1 - left;
}

/*
 * The entry of @u failed for the hook @hook of the microword before it,
 * whose last cycle was @now: post it, and return @u in the slot it leaves
 * current.
 */
static __always_inline struct vpmu_uop *
vpmu_hook_resume(struct vpmu_engine *e, unsigned int hook,
		 const struct vpmu_uop *base, struct vpmu_uop *u, u64 now)
{
	u32 off = (u32)((char *)u - (char *)base);

	e->trig.hook.now = now;
	vpmu_hook_post(e, hook);
	return (struct vpmu_uop *)((char *)e->mem.slot[e->ctr.cur] + off);
}

/*
 * The entry of @u failed for a sample, due at cycle cend + 1: in microword
 * u + @left, or, if a stall ran past it, in the one that stalled.  Take it
 * now, and any more due before the segment ends.  Returns the cycles to
 * add to left and cend: to the next sample or the chunk's end.  Should
 * u + left be a segment end that faults, vpmu_fault_undo() takes the
 * sample back.
 */
static __always_inline s32 vpmu_uhist_sample(struct vpmu_engine *e,
					     const struct vpmu_uop *u, s32 left)
{
	struct vpmu_uhist_sampler *us = &e->uh.sampler;
	s32 l = left;

	do {
		us->last = &e->uh.to[l < 0 ? e->ctr.last_stall_upc :
				     u->upc + (u32)l];
		(*us->last)++;
		us->next += us->k;
		if (us->rest > us->k) {
			us->rest -= us->k;
			l += (s32)us->k;
		} else {
			l += (s32)us->rest;
			us->rest = 0;
			us->due = false;
		}
	} while (us->due && l < u->seg);
	return l - left;
}

/*
 * Fewer cycles left than microwords in the segment (so @u does not end
 * it): @u runs alone, by its general handler, as a segment of one cycle.
 */
static __always_inline void vpmu_step_alone(struct vpmu_engine *e,
					    struct vpmu_uop *u)
{
	u->cnt++;
	u[1].cnt--;
	vpmu_flags_sync(e);
}

/*
 * Trigger source @u, its toggle not resolved in the toggle table.  One
 * that toggles on every execution, with the slot it toggles into in use,
 * toggles now: returns the way to that slot as the toggle table would
 * (VPMU_TGL()).  Otherwise it runs with the trigger hook set, for
 * vpmu_hook_post() at the next entry: returns 0.  No hook is pending here
 * (@hook): a hook fails the next entry, and no microword that sets one
 * goes on unchecked.
 */
static __always_inline s32 vpmu_trig_way(struct vpmu_engine *e,
					 const struct vpmu_uop *u,
					 const struct vpmu_uop *base,
					 unsigned int hook)
{
	u32 tm = e->mem.trig_static[u->upc];
	u8 s = tm & VPMU_TSRC_DYN ? 0xff :
	       e->ctr.key_slot[vpmu_key(e->st.mode,
				    e->trig.frozen ^ (tm & VPMU_TSRC_FGROUPS))];

	if (likely(s != 0xff && !hook))
		return (s32)((char *)e->mem.slot[s] - (char *)base) |
		       (tm & VPMU_TSRC_FGROUPS);
	return 0;
}

/* What vpmu_hook_post() needs to know of trigger source @u. */
static __always_inline void vpmu_trig_hook(struct vpmu_engine *e,
					   struct vpmu_uop *u)
{
	e->trig.hook.u = u;
	e->trig.hook.dyn = u->dyn;
	e->trig.hook.tkn = u->tkn;
	e->trig.hook.mode = e->st.mode;
	e->trig.hook.wq = e->st.wq_last;
	if (unlikely(e->hu.route))
		e->trig.hook.maddr = e->mem.R[e->mem.reg_of[u->a]] + u->imm;
}

/*
 * Microword @u faulted, @left cycles left (hook or not): it has no effect
 * at all.  Undo its entry (only segment ends fault; microwords run alone
 * never do), a sample taken in its cycle, and the toggle of a static
 * trigger source, which toggles as it begins (the others set the hook).
 */
static __always_inline int vpmu_fault_undo(struct vpmu_engine *e,
					   const struct vpmu_uop *base,
					   struct vpmu_uop *u,
					   unsigned int hook, u64 cend,
					   s32 left)
{
	struct vpmu_uhist_sampler *us = &e->uh.sampler;

	left += u->seg;
	u->cnt--;
	if (us->last && us->next - us->k == cend + 1 - left) {
		(*us->last)--;
		us->next -= us->k;
	}
	if (u->h_dispatch == H_TRIG && !hook &&
	    !(e->mem.trig_static[u->upc] & VPMU_TSRC_DYN)) {
		e->trig.frozen ^= e->mem.trig_static[u->upc] & VPMU_TSRC_FGROUPS;
		e->ctr.cur = e->ctr.key_slot[vpmu_key(e->st.mode, e->trig.frozen)];
	} else {
		e->ctr.cur = vpmu_slot_of(e, base);
	}
	vpmu_clock_stop(e, cend, left);
	e->st.upc = u->upc;
	return VPMU_INTERP_FAULT;
}

/*
 * Leaving at @u with @ret (HALT, TRAP, the chunk's end), @left cycles
 * left (hook or not): post a pending hook.
 */
static __always_inline int vpmu_loop_exit(struct vpmu_engine *e,
					  const struct vpmu_uop *base,
					  const struct vpmu_uop *u,
					  unsigned int hook, u64 cend,
					  s32 left, int ret)
{
	e->st.upc = u->upc;
	e->ctr.cur = vpmu_slot_of(e, base);
	if (hook) {
		e->trig.hook.now = cend - left;
		vpmu_hook_post(e, hook);
	}
	vpmu_clock_stop(e, cend, left);
	return ret;
}

/*
 * What the handlers of vpmu_interp() are made of: they name its locals
 * and jump to its labels, and are #undef'd after it.
 *
 * In the kernel the dispatch goes through the annotated jump table, which
 * objtool can follow; on the host through the pointer in the uop, which
 * saves an instruction per microword.
 */
#ifdef __KERNEL__
#define DISPATCH()	goto *lab[u->h_dispatch]
#else
#define DISPATCH()	goto *u->h_label
#endif
/* Enter a segment at u: charge it, count the entry, run. */
#define ENTER()								\
	do {								\
		left -= u->seg;						\
		if (unlikely(left < 0))					\
			goto slow_enter;				\
		u->cnt++;						\
		DISPATCH();						\
	} while (0)
/* What is left, a hook set or not; the cycle now (stalls included). */
#define LEFT()		(hook ? saved_left + left + VPMU_HOOK_BIAS : left)
#define NOW()		(cend - LEFT())
/* Run @h after this microword: the next entry fails. */
#define SET_HOOK(h)							\
	do {								\
		if (!hook) {						\
			saved_left = left;				\
			left = -VPMU_HOOK_BIAS;				\
		}							\
		hook |= (h);						\
	} while (0)
/* On to the next microword of the segment, unchecked. */
#define FALL()		do { NEXT_UOP(); DISPATCH(); } while (0)
#define NEXT_UOP()	(u = (struct vpmu_uop *)((char *)u + sizeof(*u)))
#define GOTO_TGT(off)	(u = (struct vpmu_uop *)((char *)base + (off)))
/* The ID table, as byte offsets, sits right before each slot. */
#define IDT(op)		(((const u32 *)base)[(s32)(op) - (s32)VPMU_IDT])
#define SEQ()		goto *seqlab[u->seq]
/*
 * An instruction fetch at @npc: vpmu_fetch_ok(), with the limit for this
 * run's memory in e->dp.fetch_lim (set before vpmu_interp() runs, by vpmu_chunk():
 * kept out of its registers, as most fetches are FETCH_OK4's).
 */
#define FETCH_OK(npc)							\
	(((npc) >> e->dp.fetch_shift | (npc) << (32 - e->dp.fetch_shift)) < \
	 e->dp.fetch_lim)
/*
 * ...on 4-byte boundaries (fetch_shift 2): the handlers that end in 0, which
 * images with IALIGN16 do not get (vpmu_build_fused() gives them the 0H
 * ones), and word accesses (MEM_OK)
 */
#define FETCH_OK4(npc)	(((npc) >> 2 | (npc) << 30) < fwords)
/* An access of @size bytes at @x: aligned and inside memory. */
#define MEM_OK(x, size)							\
	((size) == 4 ? FETCH_OK4(x) :					\
	 (size) == 2 ? ((x) >> 1 | (x) << 31) < hwords : (x) < msz)
#define AT(code)	R[reg_of[code]]
#define FLAGS()							\
	(likely(R[VPMU_RF_FLAGS] < VPMU_FLAGS_LAZY) ? R[VPMU_RF_FLAGS] :	\
	 vpmu_flags_sync(e))
/* Latch @d (VPMU_RF_DS...) takes @v, and its @ operand the register it names. */
#define WRITE_LATCH(d, v)						\
	do {								\
		u32 v_ = (v);						\
		R[d] = v_;						\
		reg_of[VPMU_RF_AT_OFF + (d)] = v_;					\
	} while (0)
#define COMMIT()							\
	do {								\
		if (likely(!pend)) {					\
			AT(u->d) = res;					\
			*zp = 0;					\
		} else {						\
			left -= vpmu_commit_slow(e, u, res, nfl, pend,	\
						 maddr, NOW());		\
			if (pend & VPMU_COMMIT_MODE) {				\
				e->st.mode_next = u->imm;		\
				SET_HOOK(VPMU_HOOK_MODE);			\
			}						\
		}							\
	} while (0)
/* A load's data-cache lookup at maddr: a miss counts in u and stalls. */
#define DC_LOAD()	DC_LOAD_AT(u, u->upc)
/* ...counted in uop @x of microword @upc. */
#define DC_LOAD_AT(x, upc)						\
	do {								\
		u32 line_ = maddr >> e->dp.dc_shift;			\
		u32 *t_ = &e->mem.dc_tag[line_ & e->dp.dc_mask];		\
		bool miss_ = *t_ != line_ + 1;				\
		e->st.last_miss = miss_;				\
		if (unlikely(miss_)) {					\
			*t_ = line_ + 1;				\
			(x)->dyn++;					\
			if (e->dp.penalty) {				\
				left -= e->dp.penalty;			\
				e->ctr.last_stall_upc = (upc);		\
			}						\
		}							\
	} while (0)
/* A store's memory write and its write-queue entry at cycle @now. */
#define ST_NOW(size, now)	ST_NOW_AT(u, u->upc, size, now)
/* ...counted in uop @x of microword @upc. */
#define ST_NOW_AT(x, upc, size, now)					\
	do {								\
		u32 st_;						\
		vpmu_mem_store(mem + maddr, res, size);			\
		vpmu_tc_stored(e, maddr);				\
		st_ = vpmu_wq_store(e, now);				\
		if (unlikely(st_)) {					\
			(x)->dyn += st_;				\
			left -= st_;					\
			e->ctr.last_stall_upc = (upc);			\
		}							\
	} while (0)
/* Branch to the target if @cond holds, else go on; enter either. */
#define BRANCH(cond)							\
	do {								\
		if (cond) {						\
			u->tkn++;					\
			GOTO_TGT(u->tgt);				\
		} else {						\
			NEXT_UOP();					\
		}							\
		ENTER();						\
	} while (0)
/*
 * On to the instruction at @npc (checked): ir, and the ID table entry of
 * its opcode, (ir >> @shift) & @mask.
 */
#define EOI_TAIL_OP(npc, shift, mask)					\
	do {								\
		u32 ir_ = vpmu_get_le32(mem + (npc));			\
		R[VPMU_RF_IPC] = (npc);					\
		R[VPMU_RF_IR] = ir_;						\
		if (tc && !hook) {					\
			tb = vpmu_tc_probe(e, (npc) | e->st.mode, ir_);	\
			if (!tb && vpmu_tc_warm(e, (npc)))		\
				tb = vpmu_tc_next(e, NULL, (npc), ir_,	\
						  &tpend);		\
			if (tb && !tb->none) {				\
				tr = vpmu_tc_exec(e, base, tb, left,	\
						  cend);		\
				left = tr.left;				\
				u = base + tr.upc;			\
				ENTER();				\
			}						\
		}							\
		GOTO_TGT(IDT((ir_ >> (shift)) & (mask)));		\
		ENTER();						\
	} while (0)
#define EOI_TAIL(npc)	EOI_TAIL_OP(npc, op_shift, op_mask)
/* NEXT or JUMP (mem_fast 1 or 2) after a load or store, all committed. */
#define MEM_SEQ()							\
	do {								\
		if (u->mem_fast == 2)					\
			GOTO_TGT(u->tgt);				\
		else							\
			NEXT_UOP();					\
		ENTER();						\
	} while (0)
#define FAULT(kind, addr)						\
	do {								\
		e->st.fault_kind = (kind);				\
		e->st.fault_addr = (addr);				\
		goto fault;						\
	} while (0)
/*
 * A resolved toggle (VPMU_TGL()): flip the freeze @fgroups and go to the slot
 * @dist bytes away, u's execution counted there (u stays in the old one).
 */
#define TOGGLE(dist, fgroups)						\
	do {								\
		s32 d_ = (dist);					\
		u->cnt--;						\
		((struct vpmu_uop *)((char *)u + d_))->cnt++;		\
		e->trig.frozen ^= (fgroups);					\
		base = (struct vpmu_uop *)((char *)base + d_);		\
	} while (0)
/* An ALU shape at @label: operands @A, @B, the result to @W, then @then. */
#define ALU_SHAPE(label, expr, A, B, W, then)				\
label : {								\
		u32 a = (A), b = (B);					\
		(void)a; (void)b;					\
		W = (expr);						\
		then;							\
	}

/*
 * The handlers of vpmu_interp() by operation, expanded in it (VPMU_BODIES
 * and the shapes of ADD pc ; EOI); #undef'd after it.
 */
/*
 * ALU: the fused shapes (see V_*), then the general form.  A pasted
 * label has a space before its colon and each expansion ends in
 * ';', so that checkpatch does not read them as halves of a ?:
 * operator.
 */
#define VPMU_ALU_BODY(name, expr)					\
	ALU_SHAPE(H_F_##name, expr, R[u->a], R[u->b], R[u->d], FALL())	\
	ALU_SHAPE(H_I_##name, expr, R[u->a], u->imm, R[u->d], FALL())	\
	ALU_SHAPE(H_D_##name, expr, AT(u->a), AT(u->b), R[u->d], FALL()) \
	ALU_SHAPE(H_N_##name, expr, AT(u->a), AT(u->b), AT(u->d),	\
		  *zp = 0; FALL())					\
H_L_##name : {								\
		u32 a = R[u->a], b = R[u->b];				\
		(void)a; (void)b;					\
		WRITE_LATCH(u->d, (expr) & 31);				\
		FALL();							\
	}								\
	ALU_SHAPE(H_J_##name, expr, AT(u->a), AT(u->b), AT(u->d),	\
		  *zp = 0; GOTO_TGT(u->tgt); ENTER())			\
H_E_##name : {								\
		u32 a = AT(u->a), b = AT(u->b), w = reg_of[u->d];		\
		u32 r, npc;						\
		(void)a; (void)b;					\
		r = (expr);						\
		npc = w == VPMU_RF_PC ? r : R[VPMU_RF_PC];				\
		if (unlikely(!FETCH_OK(npc)))				\
			FAULT(VPMU_FAULT_FETCH, npc);			\
		R[w] = r;						\
		*zp = 0;						\
		EOI_TAIL(npc);						\
	}								\
H_P_##name: {								\
		u32 a = R[u->a], b = R[u->b], npc;			\
		(void)a; (void)b;					\
		npc = (expr);						\
		if (unlikely(!FETCH_OK(npc)))				\
			FAULT(VPMU_FAULT_FETCH, npc);			\
		R[VPMU_RF_PC] = npc;						\
		EOI_TAIL(npc);						\
	}								\
H_B_##name: {								\
		u32 a = AT(u->a), b = AT(u->b), r;			\
		(void)a; (void)b;					\
		r = (expr);						\
		AT(u->d) = r;						\
		*zp = 0;						\
		if (u->flag_kind)					\
			R[VPMU_RF_FLAGS] = vpmu_flags(u->flag_kind, a, b, r);	\
		BRANCH((condtab[u->cond] >> FLAGS()) & 1);		\
	}								\
H_G_##name: {								\
		u32 a = AT(u->a), b = AT(u->b);				\
		res = (expr);						\
		pend = u->pend;						\
		if (unlikely(u->flag_kind))				\
			nfl = vpmu_flags(u->flag_kind, a, b, res);	\
		SEQ();							\
	}

/* Loads: the access is checked here, committed by the sequencer. */
#define VPMU_LD_BODY(name, size, expr)					\
H_M_##name : {								\
		const u8 *p;						\
		maddr = AT(u->a) + u->imm;				\
		if (unlikely(!MEM_OK(maddr, size)))			\
			FAULT(maddr & (size - 1) ? VPMU_FAULT_ALIGN :	\
			      VPMU_FAULT_LOAD, maddr);			\
		p = mem + maddr;					\
		res = (expr);						\
		if (likely(u->mem_fast)) {				\
			DC_LOAD();					\
			AT(u->d) = res;					\
			*zp = 0;					\
			MEM_SEQ();					\
		}							\
		pend = u->pend;						\
		if (!(pend & VPMU_COMMIT_LOAD))					\
			DC_LOAD();					\
		SEQ();							\
	}

/* Stores: the same; the write queue sees them at once. */
#define VPMU_ST_BODY(name, size)					\
H_M_##name : {								\
		maddr = AT(u->a) + u->imm;				\
		if (unlikely(!MEM_OK(maddr, size)))			\
			FAULT(maddr & (size - 1) ? VPMU_FAULT_ALIGN :	\
			      VPMU_FAULT_STORE, maddr);			\
		res = AT(u->b);						\
		if (likely(u->mem_fast)) {				\
			ST_NOW(size, cend - left);			\
			MEM_SEQ();					\
		}							\
		pend = u->pend;						\
		if (!pend)						\
			ST_NOW(size, NOW());				\
		SEQ();							\
	}

/*
 * ADD pc, pc, #imm ; EOI: PI, and PI0 with the opcode in ir's low
 * byte and 4-byte instruction boundaries (@fetch_ok, the fetch check on
 * npc); TPI and TPI0, the same for a mark whose toggle is resolved
 * (vpmu_tgl_update(): the way in the uop), TRIG's fast path fused
 * in.  A mark toggles only once its fetch is known good, so a fault
 * has nothing to undo.
 */
#define VPMU_PI(name, toggle, shift, mask, fetch_ok)			\
name : {								\
		u32 npc = R[VPMU_RF_PC] + u->imm;				\
		if (unlikely(!(fetch_ok)))				\
			FAULT(VPMU_FAULT_FETCH, npc);			\
		toggle;							\
		R[VPMU_RF_PC] = npc;						\
		EOI_TAIL_OP(npc, shift, mask);				\
	}

/*
 * Run microwords while the cycles used in this call are below @L (at most
 * VPMU_CHUNK_MAX).  With @L < 0 only publish the handler table.  Returns
 * X_*; e->st.cyc and e->st.upc are up to date on return.
 */
int vpmu_interp(struct vpmu_engine *e, s64 L)
{
	static const void *const lab[H_NR] __annotate_jump_table = {
#define VPMU_H(label, props)						\
		[H_##label] = &&H_##label,
		VPMU_HANDLER_LIST
#undef VPMU_H
	};
	static const void *const seqlab[Q_NR] __annotate_jump_table = {
#define VPMU_X(name, code, sig, doc)					\
		[Q_##name] = &&Q_##name,
		VPMU_SEQ_LIST(VPMU_X)
#undef VPMU_X
		[Q_BRX] = &&Q_BRX,
	};
	struct vpmu_uop *base, *u;
	s32 left, saved_left = 0;
	u64 cend;		/* the cycle now is cend - left */
	unsigned int hook = 0;	/* HOOK_*: after the current microword */
	u32 *const R = e->mem.R;
	u8 *const mem = e->st.mem;
	const u32 msz = e->st.msz;
	/* a word access at x is fine iff ror(x, 2) < fwords (MEM_OK) */
	const u32 fwords = msz >> 2, hwords = msz >> 1;
	const u16 *const condtab = e->dp.condtab;
	const u32 op_shift = e->dp.op_shift, op_mask = e->dp.op_mask;
	u16 *const reg_of = e->mem.reg_of;
	u32 *const zp = &R[e->dp.zero_idx];	/* re-zeroed after @ writes */
	unsigned int pend = 0;
	u32 res = 0, nfl = 0, maddr = 0;
	int ret;
	/*
	 * Translations: not for a step, whose fold takes one microword, nor
	 * while the micro-PC histogram samples so often that most blocks
	 * would leave for its samples (the interpreter takes those cheaper)
	 */
	const bool tc = e->mem.tc_pool && !e->tc.off && L >= VPMU_STEP_BELOW &&
			(e->uh.interval <= 1 || e->uh.interval >= VPMU_TC_MIN_K);
	const struct vpmu_tc_trans *tb;
	const struct vpmu_tc_pairs *tpend;
	struct vpmu_tc_ret tr;

	VPMU_BENCH_SHIFT();
	if (L < 0) {
		e->lab = lab;
		vpmu_tc_exec(e, NULL, NULL, 0, 0);	/* e->tlab */
		return VPMU_INTERP_CHUNK;
	}
	left = vpmu_clock_start(e, L);
	cend = e->st.cyc + left - 1;
	/*
	 * What translating may cost a chunk, in microwords: bounded by its
	 * length, so that a chunk run with interrupts off stays short
	 */
	e->tc.budget = 16 + (u32)(L >> 7);
	if (tc && unlikely(msz < e->tc.msz))
		vpmu_tc_flush(e);	/* translated fetches may be outside */
	base = e->mem.slot[e->ctr.cur];
	u = base + e->st.upc;
	ENTER();

	VPMU_OP_LIST(VPMU_BODIES);

H_NOP_N:
	FALL();
H_JMP:
	/* NOP ; JUMP */
	GOTO_TGT(u->tgt);
	ENTER();
H_XDISP: {
		/* EXT into a register ; DISP on it: decoding a field */
		u32 r = (R[u->a] >> u->b) & u->imm;

		R[u->d] = r;
		GOTO_TGT(u->tgt + (r & ((1u << u->cond) - 1)) * sizeof(*u));
		ENTER();
	}
H_ADISP: {
		/* ADD into a register ; DISP on it: an address's low bits */
		u32 r = AT(u->a) + AT(u->b);

		R[u->d] = r;
		GOTO_TGT(u->tgt + (r & ((1u << u->cond) - 1)) * sizeof(*u));
		ENTER();
	}
H_XBR: {
		/* EXT.s into a register ; BR on its flags: checking a field */
		u32 r = (R[u->a] >> u->b) & u->imm;
		u32 f = (r ? 0 : VPMU_FLAG_Z) | (r >> 31 ? VPMU_FLAG_N : 0);

		R[u->d] = r;
		R[VPMU_RF_FLAGS] = f;
		BRANCH((condtab[u->cond] >> f) & 1);
	}
H_NOP:
H_MODE:
	pend = u->pend;
	SEQ();

	/* EXT into a latch; the mask is already cut to 5 bits */
H_LEXT:
	WRITE_LATCH(u->d, (R[u->a] >> u->b) & u->imm);
	FALL();
H_LEXTI:
	WRITE_LATCH(u->d, (R[VPMU_RF_IR] >> u->b) & u->imm);
	FALL();
H_LEXTI2: {
		/* two of them: nothing between them can change ir */
		u32 ir = R[VPMU_RF_IR];

		WRITE_LATCH(u->d, (ir >> u->b) & u->imm);
		WRITE_LATCH(u[1].d, (ir >> u[1].b) & u[1].imm);
		u = (struct vpmu_uop *)((char *)u + 2 * sizeof(*u));
		DISPATCH();
	}
H_LX2S: {
		/* and then SAR of ir by an immediate (an instruction's imm) */
		u32 ir = R[VPMU_RF_IR];

		WRITE_LATCH(u->d, (ir >> u->b) & u->imm);
		WRITE_LATCH(u[1].d, (ir >> u[1].b) & u[1].imm);
		R[u[2].d] = (u32)((s32)ir >> (u[2].imm & 31));
		u = (struct vpmu_uop *)((char *)u + 3 * sizeof(*u));
		DISPATCH();
	}

	VPMU_PI(H_PI, (void)0, op_shift, op_mask, FETCH_OK(npc));
	VPMU_PI(H_PI0, (void)0, 0, 0xff, FETCH_OK4(npc));
	VPMU_PI(H_TPI, TOGGLE(u->toggle_dist, u->toggle_fgroups), op_shift,
		op_mask, FETCH_OK(npc));
	VPMU_PI(H_TPI0, TOGGLE(u->toggle_dist, u->toggle_fgroups), 0, 0xff,
		FETCH_OK4(npc));

	/* ADD pc, pc, register ; EOI, the opcode in ir's low byte */
H_PR0: {
		u32 npc = R[VPMU_RF_PC] + R[u->b];

		if (unlikely(!FETCH_OK4(npc)))
			FAULT(VPMU_FAULT_FETCH, npc);
		R[VPMU_RF_PC] = npc;
		EOI_TAIL_OP(npc, 0, 0xff);
	}
	/* PI0 and PR0 on 2-byte boundaries (IALIGN16) */
	VPMU_PI(H_PI0H, (void)0, 0, 0xff, FETCH_OK(npc));
H_PR0H: {
		u32 npc = R[VPMU_RF_PC] + R[u->b];

		if (unlikely(!FETCH_OK(npc)))
			FAULT(VPMU_FAULT_FETCH, npc);
		R[VPMU_RF_PC] = npc;
		EOI_TAIL_OP(npc, 0, 0xff);
	}

	/* SUB.s zero, a, b ; BR cond, target: see VPMU_CMP_LIST */
#define VPMU_X(name, holds)						\
H_CMP_##name : {								\
		u32 a = AT(u->a), b = AT(u->b);				\
		e->dp.lazy_a = a;						\
		e->dp.lazy_b = b;						\
		R[VPMU_RF_FLAGS] = VPMU_FLAGS_LAZY;				\
		BRANCH(holds);						\
	}
	VPMU_CMP_LIST(VPMU_X);
#undef VPMU_X

H_SYNC:
	/* reads the flags: compute them first if they are lazy */
	vpmu_flags_sync(e);
	goto *lab[u->h_fast];

H_TRIG: {
		/*
		 * A trigger source that toggles as it begins, its toggle
		 * resolved in the toggle table: toggle, and run the microword
		 * in the slot it toggles into.  Else vpmu_trig_way() works
		 * the way out, or the hook decides after the microword.
		 */
		s32 d = VPMU_TGL(base, u->upc);

		if (likely(d)) {
			TOGGLE(d & VPMU_TGL_SLOT, d & VPMU_TGL_FGROUPS);
			u = (struct vpmu_uop *)((char *)u + (d & VPMU_TGL_SLOT));
			goto *lab[u->h_fast];
		}
		d = vpmu_trig_way(e, u, base, hook);
		if (likely(d)) {
			TOGGLE(d & VPMU_TGL_SLOT, d & VPMU_TGL_FGROUPS);
			u = (struct vpmu_uop *)((char *)u + (d & VPMU_TGL_SLOT));
			if (e->mem.trig_static[u->upc] & VPMU_TSRC_FAST)
				goto *lab[u->h_fast];
		} else {
			vpmu_trig_hook(e, u);
			SET_HOOK(VPMU_HOOK_TRIG);
		}
		vpmu_flags_sync(e);
		goto *lab[u->h_general];
	}

	/* Sequencer: check what can fault, commit, continue. */
Q_NEXT:
	COMMIT();
	NEXT_UOP();
	ENTER();
Q_JUMP:
	COMMIT();
	GOTO_TGT(u->tgt);
	ENTER();
Q_BR:
	COMMIT();
	BRANCH((condtab[u->cond] >> FLAGS()) & 1);
Q_BRX:
	COMMIT();
	BRANCH(vpmu_cond_ext(e, u->cond, NOW()));
Q_CALL:
	if (unlikely(e->st.sp == VPMU_USTACK_DEPTH))
		FAULT(VPMU_FAULT_USTACK, 0);
	COMMIT();
	e->st.ustack[e->st.sp++] = (u32)((char *)u - (char *)base) + sizeof(*u);
	GOTO_TGT(u->tgt);
	ENTER();
Q_RET:
	if (unlikely(!e->st.sp))
		FAULT(VPMU_FAULT_USTACK, 0);
	COMMIT();
	GOTO_TGT(e->st.ustack[--e->st.sp]);
	ENTER();
Q_DISP:
	COMMIT();
	GOTO_TGT(u->tgt + (res & ((1u << u->cond) - 1)) * sizeof(*u));
	ENTER();
Q_EOI: {
		u32 npc = reg_of[u->d] == VPMU_RF_PC ? res : R[VPMU_RF_PC];

		if (unlikely(!FETCH_OK(npc)))
			FAULT(VPMU_FAULT_FETCH, npc);
		COMMIT();
		EOI_TAIL(npc);
	}
Q_HALT:
	COMMIT();
	ret = VPMU_INTERP_HALT;
	goto stop;
Q_TRAP:
	COMMIT();
	ret = VPMU_INTERP_TRAP;
	goto stop;
Q_CTR:
	/* the counter is read after the chunk (vpmu_ctr_serve()) */
	COMMIT();
	ret = VPMU_INTERP_CTR;
	goto stop;

slow_enter:
	/*
	 * Not entered after all: a hook, a sample or the chunk's end is
	 * due, or fewer cycles are left than the segment has microwords.
	 * The barrier makes this a fresh load of seg, which lets every
	 * ENTER subtract seg straight from memory.
	 */
	barrier();
	left += u->seg;
	if (unlikely(hook)) {
		left = LEFT();
		u = vpmu_hook_resume(e, hook, base, u, cend - left);
		base = e->mem.slot[e->ctr.cur];
		hook = 0;
		ENTER();
	}
	if (e->uh.sampler.due) {
		s32 d = vpmu_uhist_sample(e, u, left);

		left += d;
		cend += d;
		ENTER();
	}
	if (left <= 0) {
		ret = VPMU_INTERP_CHUNK;
		goto stop;
	}
	vpmu_step_alone(e, u);
	left--;
	goto *lab[u->h_general];

fault:
	return vpmu_fault_undo(e, base, u, hook, cend, LEFT());
stop:
	return vpmu_loop_exit(e, base, u, hook, cend, LEFT(), ret);
}

#undef DISPATCH
#undef ENTER
#undef LEFT
#undef NOW
#undef SET_HOOK
#undef FALL
#undef NEXT_UOP
#undef GOTO_TGT
#undef IDT
#undef SEQ
#undef FETCH_OK
#undef FETCH_OK4
#undef MEM_OK
#undef AT
#undef FLAGS
#undef WRITE_LATCH
#undef COMMIT
#undef BRANCH
#undef EOI_TAIL_OP
#undef EOI_TAIL
#undef DC_LOAD
#undef ST_NOW
#undef MEM_SEQ
#undef FAULT
#undef TOGGLE
#undef ALU_SHAPE
#undef VPMU_ALU_BODY
#undef VPMU_LD_BODY
#undef VPMU_ST_BODY
#undef VPMU_PI
#undef DC_LOAD_AT
#undef ST_NOW_AT
