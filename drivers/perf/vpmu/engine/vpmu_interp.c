// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu_interp.c - the interpreter: the loop of handlers that runs
 * the uops (vpmu_interp()) and the bookkeeping around it.
 */
#include "vpmu_exec.h"

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
		vpmu_stalled(e, u->upc, stall);
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
	if (u->h_dispatch == VPMU_HANDLER_TRIG && !hook &&
	    !(e->mem.trig_static[u->upc] & VPMU_TSRC_DYN)) {
		e->trig.frozen ^= e->mem.trig_static[u->upc] &
				  VPMU_TSRC_FGROUPS;
		e->ctr.cur =
			e->ctr.key_slot[vpmu_key(e->st.mode, e->trig.frozen)];
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

/* ---- what the handlers call ---------------------------------------------- */

/* The uop after @u, and the one at byte offset @off of the slot at @base. */
static __always_inline struct vpmu_uop *vpmu_uop_next(struct vpmu_uop *u)
{
	return (struct vpmu_uop *)((char *)u + sizeof(*u));
}

static __always_inline struct vpmu_uop *vpmu_uop_at(struct vpmu_uop *base,
						    u32 off)
{
	return (struct vpmu_uop *)((char *)base + off);
}

/* The ID-table entry of opcode @op: byte offsets, right before the slot. */
static __always_inline u32 vpmu_idt(const struct vpmu_uop *base, u32 op)
{
	return ((const u32 *)base)[(s32)op - (s32)VPMU_IDT];
}

/* BR: to the target of @u if @taken (counted), else to the next uop. */
static __always_inline struct vpmu_uop *
vpmu_take(struct vpmu_uop *base, struct vpmu_uop *u, bool taken)
{
	if (taken) {
		u->tkn++;
		return vpmu_uop_at(base, u->tgt);
	}
	return vpmu_uop_next(u);
}

/* NEXT or JUMP (mem_fast 1 or 2) after a load or store, all committed. */
static __always_inline struct vpmu_uop *
vpmu_mem_next(struct vpmu_uop *base, struct vpmu_uop *u)
{
	if (u->mem_fast == 2)
		return vpmu_uop_at(base, u->tgt);
	return vpmu_uop_next(u);
}

/* Latch @d (VPMU_RF_DS...) takes @v, and its @ operand the register named. */
static __always_inline void vpmu_write_latch(u32 *R, u16 *reg_of,
					     unsigned int d, u32 v)
{
	R[d] = v;
	reg_of[VPMU_RF_AT_OFF + d] = v;
}

/*
 * A load's data-cache lookup at @maddr, counted in uop @x of microword
 * @upc: a miss counts there.  Returns the cycles it stalls.
 */
static __always_inline u32 vpmu_dc_load(struct vpmu_engine *e,
					struct vpmu_uop *x, u32 upc,
					u32 maddr)
{
	u32 line = maddr >> e->dp.dc_shift;
	u32 *t = &e->mem.dc_tag[line & e->dp.dc_mask];
	bool miss = *t != line + 1;

	e->st.last_miss = miss;
	if (likely(!miss))
		return 0;
	*t = line + 1;
	x->dyn++;
	if (!e->dp.penalty)
		return 0;
	vpmu_stalled(e, upc, e->dp.penalty);
	return e->dp.penalty;
}

/*
 * A store of @size bytes of @v at @maddr, its write-queue entry at cycle
 * @now, counted in uop @x of microword @upc.  Returns the cycles it
 * stalls.
 */
static __always_inline u32 vpmu_store_now(struct vpmu_engine *e,
					  struct vpmu_uop *x, u32 upc,
					  u8 *mem, u32 maddr, u32 v,
					  unsigned int size, u64 now)
{
	u32 stall;

	vpmu_mem_store(mem + maddr, v, size);
	vpmu_tc_stored(e, maddr);
	stall = vpmu_wq_store(e, now);
	if (unlikely(stall)) {
		x->dyn += stall;
		vpmu_stalled(e, upc, stall);
	}
	return stall;
}

/*
 * A resolved toggle (VPMU_TGL()): flip the freeze @fgroups and go to the
 * slot @dist bytes away, @u's execution counted there (u stays in the
 * old one).  Returns that slot's base.
 */
static __always_inline struct vpmu_uop *
vpmu_toggle(struct vpmu_engine *e, struct vpmu_uop *base, struct vpmu_uop *u,
	    s32 dist, unsigned int fgroups)
{
	u->cnt--;
	((struct vpmu_uop *)((char *)u + dist))->cnt++;
	e->trig.frozen ^= fgroups;
	return (struct vpmu_uop *)((char *)base + dist);
}

/* The microword about to fault: what and where, for vpmu_fault_undo(). */
static __always_inline void vpmu_fault_note(struct vpmu_engine *e,
					    u32 kind, u32 addr)
{
	e->st.fault_kind = kind;
	e->st.fault_addr = addr;
}

/*
 * Where the loop goes on: the uop to enter and the cycles left, or that
 * the run yields before it (vpmu_engine_tc_yield()).
 */
struct vpmu_loop_next {
	struct vpmu_uop *u;
	s32 left;
	u8 slot;	/* VPMU_NEXT_SLOT: the slot u is in */
	u8 after;	/* VPMU_NEXT_*: what the loop sees to first */
};

#define VPMU_NEXT_YIELD	1	/* the run yields before u */
#define VPMU_NEXT_SLOT	2	/* translations toggled: u is in another slot */
#define VPMU_NEXT_CLOCK	4	/* armed: left is to tc.ev_icend */

/*
 * An armed chunk's interpreter ran an EOI, an event of each counter of
 * INSNS the chunk counts (tc.ev_eoi): true if that left one of them none,
 * so that it stops before the next instruction, whose EOI would wrap it:
 * its clock ends @now (tc.ev_icend).
 */
static VPMU_NOINLINE VPMU_COLD bool
vpmu_eoi_armed(struct vpmu_tc *tc, u64 now)
{
	bool none = false;
	unsigned int k;

	for (k = 0; k < tc->ev_n; k++) {
		if (!(tc->ev_eoi >> k & 1))
			continue;
		if (tc->ev_left[k])
			tc->ev_left[k]--;
		none |= !tc->ev_left[k];
	}
	/* left 0 on this clock: it ends now */
	if (none)
		tc->ev_icend = now;
	return none;
}

/* The uop that runs instruction @ir first: its opcode's ID-table entry. */
static __always_inline struct vpmu_uop *
vpmu_ir_first(struct vpmu_uop *base, u32 ir, u32 shift, u32 mask)
{
	return vpmu_uop_at(base, vpmu_idt(base, (ir >> shift) & mask));
}

/*
 * On to the instruction at @npc (its fetch checked): its word into ir, and
 * the uop that runs it, with @left cycles left.  With the cache (@tc), its
 * translation runs first (vpmu_tc_exec()), found or made once the
 * instruction is warm, and the interpreter goes on where it leaves;
 * otherwise at the ID-table entry of its opcode, (ir >> @shift) & @mask.
 * In an armed chunk (@tc: the interpreter's clock is VPMU_STEP_BELOW
 * cycles or more, and no hook runs after the EOI, tc.eoi_hook), the clock
 * ends there if the EOI left a counter of INSNS none of its events
 * (vpmu_eoi_armed()).  A run that defers yields where it found an
 * instruction warm (tc.wanted), if it may (vpmu_engine_tc_yield()), for
 * the caller to translate it.
 */
static __always_inline struct vpmu_loop_next
vpmu_eoi(struct vpmu_engine *e, struct vpmu_uop *base, u8 *mem, u32 *R,
	 u32 npc, u32 shift, u32 mask, bool tc, s32 left, u64 cend)
{
	u32 ir = vpmu_get_le32(mem + npc), last = R[VPMU_RF_IPC];
	const struct vpmu_tc_trans *tb;
	const struct vpmu_tc_pairs *pend;
	struct vpmu_tc_ret r;

	R[VPMU_RF_IPC] = npc;
	R[VPMU_RF_IR] = ir;
	if (tc) {
		/*
		 * Heat is earned where control goes, not by falling through
		 * (npc up to 4 bytes past the last instruction): a run that
		 * resumes mid-way, or interprets on while the translation it
		 * found warm waits, does not make each instruction on its
		 * way the head of one more translation.  But the one after
		 * an instruction left to the interpreter for good (its
		 * translation a "none") or at a trigger source (an exit
		 * there) earns it too, or straight-line code after a mark
		 * would never be translated.
		 */
		bool head = e->tc.head_next;

		/* (an armed chunk counts EOIs only where tc is: no hook) */
		if (unlikely(e->tc.ev_eoi) &&
		    vpmu_eoi_armed(&e->tc, cend - left))
			return (struct vpmu_loop_next){
				.u = vpmu_ir_first(base, ir, shift, mask),
				.after = VPMU_NEXT_CLOCK };
		e->tc.head_next = false;
		tb = vpmu_tc_probe(e, npc | e->st.mode, ir);
		if (!tb && (npc - last - 1 >= 4 || head) &&
		    vpmu_tc_warm(e, npc | e->st.mode, ir))
			tb = vpmu_tc_next(e, NULL, npc, ir, &pend);
		if (unlikely(e->tc.wanted) && !tb) {
			e->tc.wanted = false;
			if (cend + 1 - left > e->tc.yield_from) {
				e->tc.stats.yields_warm++;
				return (struct vpmu_loop_next){
					.u = vpmu_ir_first(base, ir, shift,
							   mask),
					.left = left,
					.after = VPMU_NEXT_YIELD };
			}
		}
		if (tb && tb->none) {
			e->tc.head_next = true;
		} else if (tb) {
			struct vpmu_uop *to;

			r = vpmu_tc_run(e, base, tb, 0, left, cend);
			to = e->mem.slot[r.slot];
			return (struct vpmu_loop_next){
				to + r.upc, r.left, r.slot,
				(r.yield ? VPMU_NEXT_YIELD : 0) |
				(to != base ? VPMU_NEXT_SLOT : 0) |
				(r.clock ? VPMU_NEXT_CLOCK : 0) };
		}
	}
	return (struct vpmu_loop_next){
		.u = vpmu_ir_first(base, ir, shift, mask), .left = left };
}

/* ---- the loop ----------------------------------------------------------- */

/*
 * How a handler ends, the only jumps between handlers (vpmu_dispatch.h):
 *
 *   GOTO_HANDLER()  to u's handler
 *   GOTO_FALL()     to the next uop's handler, unchecked (segments)
 *   GOTO_ENTER()    to u's handler, its segment charged to the cycles
 *                   left and its entry counted; when fewer are left than
 *                   the segment has microwords, to slow_enter
 *   GOTO_SEQ()      to u's sequencer handler, which commits the result
 *                   and goes on
 *
 * and what handlers read: AT(), the register an operand names (@ds,
 * @s1, @s2 through their latches); LEFT(), the cycles left, a hook set
 * or not; NOW(), the cycle now (stalls included).  SET_HOOK() runs a
 * hook after this microword: the next entry fails.  COMMIT() commits a
 * result the general handlers left (res, nfl, pend, maddr).  All are
 * #undef'd after vpmu_interp().
 */
#define GOTO_HANDLER()	VPMU_GOTO_HANDLER(lab, u->h_dispatch, u->h_label)
#define GOTO_FALL()							\
	do {								\
		u = vpmu_uop_next(u);					\
		GOTO_HANDLER();						\
	} while (0)
#define GOTO_ENTER()							\
	do {								\
		left -= u->seg;						\
		if (unlikely(left < 0))					\
			goto slow_enter;				\
		u->cnt++;						\
		GOTO_HANDLER();						\
	} while (0)
#define GOTO_SEQ()	VPMU_GOTO_AT(lab, VPMU_HANDLER_NR, u->seq)
#define AT(code)	R[reg_of[code]]
#define LEFT()		(hook ? saved_left + left + VPMU_HOOK_BIAS : left)
#define NOW()		(cend - LEFT())
#define SET_HOOK(h)							\
	do {								\
		if (!hook) {						\
			saved_left = left;				\
			left = -VPMU_HOOK_BIAS;				\
		}							\
		hook |= (h);						\
	} while (0)
#define COMMIT()							\
	do {								\
		if (likely(!pend)) {					\
			AT(u->d) = res;					\
			*zp = 0;					\
		} else {						\
			left -= vpmu_commit_slow(e, u, res, nfl, pend,	\
						 maddr, NOW());		\
			if (pend & VPMU_COMMIT_MODE) {			\
				e->st.mode_next = u->imm;		\
				SET_HOOK(VPMU_HOOK_MODE);		\
			}						\
		}							\
	} while (0)

/*
 * The handlers made by operation, each defined right before its uses and
 * #undef'd after them.  ALU(op): an ALU operation's fused shapes (enum
 * vpmu_shape), then the general one, which leaves its result to the
 * sequencer handler.  The first label a macro pastes has a space before
 * its colon, and the last invocation before a label ends in ';', so
 * that checkpatch does not read them as halves of a ?: operator.
 */
#define ALU(op)								\
VPMU_HANDLER_##op##_NEXT : {						\
		R[u->d] = vpmu_alu(VPMU_OP_##op, R[u->a], R[u->b], u->b, \
				   u->imm);				\
		GOTO_FALL();						\
	}								\
VPMU_HANDLER_##op##_IMM: {						\
		R[u->d] = vpmu_alu(VPMU_OP_##op, R[u->a], u->imm, u->b,	\
				   u->imm);				\
		GOTO_FALL();						\
	}								\
VPMU_HANDLER_##op##_ATSRC: {						\
		R[u->d] = vpmu_alu(VPMU_OP_##op, AT(u->a), AT(u->b), u->b, \
				   u->imm);				\
		GOTO_FALL();						\
	}								\
VPMU_HANDLER_##op##_AT: {						\
		AT(u->d) = vpmu_alu(VPMU_OP_##op, AT(u->a), AT(u->b), u->b, \
				    u->imm);				\
		*zp = 0;						\
		GOTO_FALL();						\
	}								\
VPMU_HANDLER_##op##_LATCH: {						\
		u32 r = vpmu_alu(VPMU_OP_##op, R[u->a], R[u->b], u->b,	\
				 u->imm);				\
		vpmu_write_latch(R, reg_of, u->d, r & 31);		\
		GOTO_FALL();						\
	}								\
VPMU_HANDLER_##op##_JUMP: {						\
		AT(u->d) = vpmu_alu(VPMU_OP_##op, AT(u->a), AT(u->b), u->b, \
				    u->imm);				\
		*zp = 0;						\
		u = vpmu_uop_at(base, u->tgt);				\
		GOTO_ENTER();						\
	}								\
VPMU_HANDLER_##op##_EOI: {						\
		u32 w = reg_of[u->d], npc;				\
		u32 r = vpmu_alu(VPMU_OP_##op, AT(u->a), AT(u->b), u->b, \
				 u->imm);				\
		npc = w == VPMU_RF_PC ? r : R[VPMU_RF_PC];		\
		if (unlikely(!vpmu_fetch_in(e, npc))) {			\
			vpmu_fault_note(e, VPMU_FAULT_FETCH, npc);	\
			goto fault;					\
		}							\
		R[w] = r;						\
		*zp = 0;						\
		nx = vpmu_eoi(e, base, mem, R, npc, op_shift, op_mask,	\
			      tc && !hook, left, cend);			\
		u = nx.u;						\
		left = nx.left;						\
		if (unlikely(nx.after))					\
			goto eoi_after;					\
		GOTO_ENTER();						\
	}								\
VPMU_HANDLER_##op##_PCEOI: {						\
		u32 npc = vpmu_alu(VPMU_OP_##op, R[u->a], R[u->b], u->b, \
				   u->imm);				\
		if (unlikely(!vpmu_fetch_in(e, npc))) {			\
			vpmu_fault_note(e, VPMU_FAULT_FETCH, npc);	\
			goto fault;					\
		}							\
		R[VPMU_RF_PC] = npc;					\
		nx = vpmu_eoi(e, base, mem, R, npc, op_shift, op_mask,	\
			      tc && !hook, left, cend);			\
		u = nx.u;						\
		left = nx.left;						\
		if (unlikely(nx.after))					\
			goto eoi_after;					\
		GOTO_ENTER();						\
	}								\
VPMU_HANDLER_##op##_BR: {						\
		u32 a = AT(u->a), b = AT(u->b);				\
		u32 r = vpmu_alu(VPMU_OP_##op, a, b, u->b, u->imm);	\
		AT(u->d) = r;						\
		*zp = 0;						\
		if (u->flag_kind)					\
			R[VPMU_RF_FLAGS] = vpmu_flags(u->flag_kind, a, b, r); \
		u = vpmu_take(base, u, (condtab[u->cond] >>		\
					vpmu_flags_read(e, R)) & 1);	\
		GOTO_ENTER();						\
	}								\
VPMU_HANDLER_##op##_GENERAL: {						\
		u32 a = AT(u->a), b = AT(u->b);				\
		res = vpmu_alu(VPMU_OP_##op, a, b, u->b, u->imm);	\
		pend = u->pend;						\
		if (unlikely(u->flag_kind))				\
			nfl = vpmu_flags(u->flag_kind, a, b, res);	\
		GOTO_SEQ();						\
	}

/*
 * LOAD(op): the access checked here; committed at once (mem_fast) or by
 * the sequencer handler.
 */
#define LOAD(op)							\
VPMU_HANDLER_##op : {							\
		unsigned int size_ = vpmu_mem_size(VPMU_OP_##op);	\
		maddr = AT(u->a) + u->imm;				\
		if (unlikely(!vpmu_access_ok(maddr, size_, fwords, hwords, \
					     msz))) {			\
			vpmu_fault_note(e, maddr & (size_ - 1) ?	\
					VPMU_FAULT_ALIGN :		\
					VPMU_FAULT_LOAD, maddr);	\
			goto fault;					\
		}							\
		res = vpmu_load(VPMU_OP_##op, mem + maddr);		\
		if (likely(u->mem_fast)) {				\
			left -= vpmu_dc_load(e, u, u->upc, maddr);	\
			AT(u->d) = res;					\
			*zp = 0;					\
			u = vpmu_mem_next(base, u);			\
			GOTO_ENTER();					\
		}							\
		pend = u->pend;						\
		if (!(pend & VPMU_COMMIT_LOAD))				\
			left -= vpmu_dc_load(e, u, u->upc, maddr);	\
		GOTO_SEQ();						\
	}

/* STORE(op): the same; the write queue sees it at once. */
#define STORE(op)							\
VPMU_HANDLER_##op : {							\
		unsigned int size_ = vpmu_mem_size(VPMU_OP_##op);	\
		maddr = AT(u->a) + u->imm;				\
		if (unlikely(!vpmu_access_ok(maddr, size_, fwords, hwords, \
					     msz))) {			\
			vpmu_fault_note(e, maddr & (size_ - 1) ?	\
					VPMU_FAULT_ALIGN :		\
					VPMU_FAULT_STORE, maddr);	\
			goto fault;					\
		}							\
		res = AT(u->b);						\
		if (likely(u->mem_fast)) {				\
			left -= vpmu_store_now(e, u, u->upc, mem, maddr, res, \
					       size_, cend - left);	\
			u = vpmu_mem_next(base, u);			\
			GOTO_ENTER();					\
		}							\
		pend = u->pend;						\
		if (!pend)						\
			left -= vpmu_store_now(e, u, u->upc, mem, maddr, res, \
					       size_, NOW());		\
		GOTO_SEQ();						\
	}

/*
 * PC_ADDI(name, toggles, shift, mask, fetch_ok): ADD pc, pc, #imm ; EOI,
 * its fetch checked by @fetch_ok, its opcode (ir >> @shift) & @mask; a
 * mark whose toggle is resolved in the uop first toggles (@toggles,
 * vpmu_tgl_update()), once its fetch is known good, so that a fault has
 * nothing to undo.
 */
#define PC_ADDI(name, toggles, shift, mask, fetch_ok)			\
VPMU_HANDLER_##name : {							\
		u32 npc = R[VPMU_RF_PC] + u->imm;			\
		if (unlikely(!(fetch_ok))) {				\
			vpmu_fault_note(e, VPMU_FAULT_FETCH, npc);	\
			goto fault;					\
		}							\
		if (toggles)						\
			base = vpmu_toggle(e, base, u, u->toggle_dist,	\
					   u->toggle_fgroups);		\
		R[VPMU_RF_PC] = npc;					\
		nx = vpmu_eoi(e, base, mem, R, npc, shift, mask,	\
			      tc && !hook, left, cend);			\
		u = nx.u;						\
		left = nx.left;						\
		if (unlikely(nx.after))					\
			goto eoi_after;					\
		GOTO_ENTER();						\
	}

/*
 * PC_ADD(name, fetch_ok): ADD pc, pc, register ; EOI, the opcode in ir's
 * low byte, the fetch checked by @fetch_ok.
 */
#define PC_ADD(name, fetch_ok)						\
VPMU_HANDLER_##name : {							\
		u32 npc = R[VPMU_RF_PC] + R[u->b];			\
		if (unlikely(!(fetch_ok))) {				\
			vpmu_fault_note(e, VPMU_FAULT_FETCH, npc);	\
			goto fault;					\
		}							\
		R[VPMU_RF_PC] = npc;					\
		nx = vpmu_eoi(e, base, mem, R, npc, 0, 0xff, tc && !hook, \
			      left, cend);				\
		u = nx.u;						\
		left = nx.left;						\
		if (unlikely(nx.after))					\
			goto eoi_after;					\
		GOTO_ENTER();						\
	}

/* CMP(cond): SUB.s into the sink ; BR cond, the flags left lazy. */
#define CMP(cond)							\
VPMU_HANDLER_CMP_##cond : {						\
		u32 a = AT(u->a), b = AT(u->b);				\
		e->dp.lazy_a = a;					\
		e->dp.lazy_b = b;					\
		R[VPMU_RF_FLAGS] = VPMU_FLAGS_LAZY;			\
		u = vpmu_take(base, u,					\
			      vpmu_cmp_holds(VPMU_COND_##cond, a, b));	\
		GOTO_ENTER();						\
	}

/*
 * Run microwords while the cycles used in this call are below @cycles (at
 * most VPMU_CHUNK_MAX).  With @cycles < 0 only publish the handler table.
 * Returns enum vpmu_interp_exit; e->st.cyc and e->st.upc are up to date
 * on return.
 */
int vpmu_interp(struct vpmu_engine *e, s64 cycles)
{
	static const void *const lab[VPMU_DISPATCH_NR] __annotate_jump_table = {
#define X(name, ...)	VPMU_JUMP_ENTRY(VPMU_HANDLER_, name)
		VPMU_HANDLER_LIST(X)
#undef X
#define X(name, ...)	VPMU_JUMP_ENTRY_AT(VPMU_HANDLER_NR, VPMU_SEQ_HANDLER_, name)
		VPMU_SEQ_LIST(X)
#undef X
		VPMU_JUMP_ENTRY_AT(VPMU_HANDLER_NR, VPMU_SEQ_HANDLER_, BRX)
	};
	struct vpmu_uop *base, *u;
	s32 left, saved_left = 0;
	u64 cend;		/* the cycle now is cend - left */
	unsigned int hook = 0;	/* VPMU_HOOK_*: after this microword */
	u32 *const R = e->mem.R;
	u8 *const mem = e->st.mem;
	const u32 msz = e->st.msz;
	/* a word access at x is fine iff ror(x, 2) < fwords (vpmu_word_ok()) */
	const u32 fwords = msz >> 2, hwords = msz >> 1;
	const u16 *const condtab = e->dp.condtab;
	const u32 op_shift = e->dp.op_shift, op_mask = e->dp.op_mask;
	u16 *const reg_of = e->mem.reg_of;
	u32 *const zp = &R[e->dp.zero_idx];	/* zeroed after @ writes */
	unsigned int pend = 0;
	u32 res = 0, nfl = 0, maddr = 0;
	struct vpmu_loop_next nx;
	/*
	 * Translations: not for a step, whose fold takes one microword, nor
	 * while the micro-PC histogram samples so often that most blocks
	 * would leave for its samples (the interpreter takes those cheaper)
	 */
	const bool tc =
		e->mem.tc_pool && !e->tc.off && cycles >= VPMU_STEP_BELOW &&
		(e->uh.interval <= 1 || e->uh.interval >= VPMU_TC_MIN_K);

	if (cycles < 0) {
		e->lab = lab;
		vpmu_tc_exec(e, NULL, NULL, 0, 0, 0);	/* e->tlab */
		return VPMU_INTERP_CHUNK;
	}
	left = vpmu_clock_start(e, cycles);
	cend = e->st.cyc + left - 1;
	if (tc && unlikely(msz < e->tc.msz))
		vpmu_tc_flush(e);	/* translated fetches may be outside */
	base = e->mem.slot[e->ctr.cur];
	u = base + e->st.upc;
	if (unlikely(e->tc.resume.tb)) {
		/* the last run yielded: into the block it stopped before */
		const struct vpmu_tc_trans *tb = NULL;
		struct vpmu_tc_ret r;
		u32 at;

		if (tc)
			tb = vpmu_tc_resume(e, &at);
		e->tc.resume.tb = 0;
		if (tb) {
			r = vpmu_tc_run(e, base, tb, at, left, cend);
			base = e->mem.slot[r.slot];
			u = base + r.upc;
			left = r.left;
			if (r.clock)
				cend = e->tc.ev_icend;
			if (r.yield)
				goto yield;
		}
	}
	GOTO_ENTER();

	ALU(ADD) ALU(SUB) ALU(AND) ALU(OR) ALU(XOR) ALU(SHL) ALU(SHR)
	ALU(SAR) ALU(SLT) ALU(SLTU) ALU(MUL) ALU(MOV) ALU(EXT) ALU(SEXT)
	ALU(MULH) ALU(MULHSU) ALU(MULHU) ALU(DIV) ALU(DIVU) ALU(REM) ALU(REMU)
	LOAD(LB) LOAD(LBU) LOAD(LH) LOAD(LHU) LOAD(LW)
	STORE(SB) STORE(SH) STORE(SW)
	CMP(AL) CMP(Z) CMP(NZ) CMP(N) CMP(NN) CMP(C) CMP(NC) CMP(V) CMP(NV)
	CMP(LT) CMP(GE)
	PC_ADDI(PC_ADDI_EOI, false, op_shift, op_mask, vpmu_fetch_in(e, npc))
	PC_ADDI(PC_ADDI_EOI8, false, 0, 0xff, vpmu_word_ok(npc, fwords))
	PC_ADDI(PC_ADDI_EOI8H, false, 0, 0xff, vpmu_fetch_in(e, npc))
	PC_ADDI(TRIG_PC_ADDI_EOI, true, op_shift, op_mask,
		vpmu_fetch_in(e, npc))
	PC_ADDI(TRIG_PC_ADDI_EOI8, true, 0, 0xff, vpmu_word_ok(npc, fwords));

VPMU_HANDLER_NOP_FALL:
	GOTO_FALL();
VPMU_HANDLER_NOP_THEN_JUMP:
	u = vpmu_uop_at(base, u->tgt);
	GOTO_ENTER();
VPMU_HANDLER_EXT_THEN_DISP: {
		/* EXT into a register ; DISP on it: decoding a field */
		u32 r = (R[u->a] >> u->b) & u->imm;

		R[u->d] = r;
		u = vpmu_uop_at(base, u->tgt +
				(r & ((1u << u->cond) - 1)) * sizeof(*u));
		GOTO_ENTER();
	}
VPMU_HANDLER_ADD_THEN_DISP: {
		/* ADD into a register ; DISP on it: an address's low bits */
		u32 r = AT(u->a) + AT(u->b);

		R[u->d] = r;
		u = vpmu_uop_at(base, u->tgt +
				(r & ((1u << u->cond) - 1)) * sizeof(*u));
		GOTO_ENTER();
	}
VPMU_HANDLER_EXT_THEN_BR: {
		/* EXT.s into a register ; BR on its flags: checking a field */
		u32 r = (R[u->a] >> u->b) & u->imm;
		u32 f = (r ? 0 : VPMU_FLAG_Z) | (r >> 31 ? VPMU_FLAG_N : 0);

		R[u->d] = r;
		R[VPMU_RF_FLAGS] = f;
		u = vpmu_take(base, u, (condtab[u->cond] >> f) & 1);
		GOTO_ENTER();
	}
VPMU_HANDLER_NOP:
VPMU_HANDLER_MODE:
	pend = u->pend;
	GOTO_SEQ();

	/* EXT into a latch; the mask is already cut to 5 bits */
VPMU_HANDLER_LATCH_EXT:
	vpmu_write_latch(R, reg_of, u->d, (R[u->a] >> u->b) & u->imm);
	GOTO_FALL();
VPMU_HANDLER_LATCH_EXT_IR:
	vpmu_write_latch(R, reg_of, u->d, (R[VPMU_RF_IR] >> u->b) & u->imm);
	GOTO_FALL();
VPMU_HANDLER_LATCH_EXT_IR_X2: {
		/* two of them: nothing between them can change ir */
		u32 ir = R[VPMU_RF_IR];

		vpmu_write_latch(R, reg_of, u->d, (ir >> u->b) & u->imm);
		vpmu_write_latch(R, reg_of, u[1].d, (ir >> u[1].b) & u[1].imm);
		u += 2;
		GOTO_HANDLER();
	}
VPMU_HANDLER_LATCH_EXT_IR_X2_SAR: {
		/* and then SAR of ir by an immediate (an instruction's imm) */
		u32 ir = R[VPMU_RF_IR];

		vpmu_write_latch(R, reg_of, u->d, (ir >> u->b) & u->imm);
		vpmu_write_latch(R, reg_of, u[1].d, (ir >> u[1].b) & u[1].imm);
		R[u[2].d] = (u32)((s32)ir >> (u[2].imm & 31));
		u += 3;
		GOTO_HANDLER();
	}

	PC_ADD(PC_ADD_EOI8, vpmu_word_ok(npc, fwords))
	PC_ADD(PC_ADD_EOI8H, vpmu_fetch_in(e, npc));

VPMU_HANDLER_SYNC_FLAGS:
	/* reads the flags: compute them first if they are lazy */
	vpmu_flags_sync(e);
	goto *lab[u->h_fast];

VPMU_HANDLER_TRIG: {
		/*
		 * A trigger source that toggles as it begins, its toggle
		 * resolved in the toggle table: toggle, and run the microword
		 * in the slot it toggles into.  Else vpmu_trig_way() works
		 * the way out, or the hook decides after the microword.
		 */
		s32 d = VPMU_TGL(base, u->upc);

		if (likely(d)) {
			base = vpmu_toggle(e, base, u, d & VPMU_TGL_SLOT,
					   d & VPMU_TGL_FGROUPS);
			u = (struct vpmu_uop *)((char *)u +
						(d & VPMU_TGL_SLOT));
			goto *lab[u->h_fast];
		}
		d = vpmu_trig_way(e, u, base, hook);
		if (likely(d)) {
			base = vpmu_toggle(e, base, u, d & VPMU_TGL_SLOT,
					   d & VPMU_TGL_FGROUPS);
			u = (struct vpmu_uop *)((char *)u +
						(d & VPMU_TGL_SLOT));
			if (e->mem.trig_static[u->upc] & VPMU_TSRC_FAST)
				goto *lab[u->h_fast];
		} else {
			vpmu_trig_hook(e, u);
			SET_HOOK(VPMU_HOOK_TRIG);
		}
		vpmu_flags_sync(e);
		goto *lab[u->h_general];
	}

	/* The sequencer handlers: check what can fault, commit, go on. */
VPMU_SEQ_HANDLER_NEXT:
	COMMIT();
	u = vpmu_uop_next(u);
	GOTO_ENTER();
VPMU_SEQ_HANDLER_JUMP:
	COMMIT();
	u = vpmu_uop_at(base, u->tgt);
	GOTO_ENTER();
VPMU_SEQ_HANDLER_BR:
	COMMIT();
	u = vpmu_take(base, u, (condtab[u->cond] >> vpmu_flags_read(e, R)) & 1);
	GOTO_ENTER();
VPMU_SEQ_HANDLER_BRX:
	COMMIT();
	u = vpmu_take(base, u, vpmu_cond_ext(e, u->cond, NOW()));
	GOTO_ENTER();
VPMU_SEQ_HANDLER_CALL:
	if (unlikely(e->st.sp == VPMU_USTACK_DEPTH)) {
		vpmu_fault_note(e, VPMU_FAULT_USTACK, 0);
		goto fault;
	}
	COMMIT();
	e->st.ustack[e->st.sp++] = (u32)((char *)u - (char *)base) + sizeof(*u);
	u = vpmu_uop_at(base, u->tgt);
	GOTO_ENTER();
VPMU_SEQ_HANDLER_RET:
	if (unlikely(!e->st.sp)) {
		vpmu_fault_note(e, VPMU_FAULT_USTACK, 0);
		goto fault;
	}
	COMMIT();
	u = vpmu_uop_at(base, e->st.ustack[--e->st.sp]);
	GOTO_ENTER();
VPMU_SEQ_HANDLER_DISP:
	COMMIT();
	u = vpmu_uop_at(base,
			u->tgt + (res & ((1u << u->cond) - 1)) * sizeof(*u));
	GOTO_ENTER();
VPMU_SEQ_HANDLER_EOI: {
		u32 npc = reg_of[u->d] == VPMU_RF_PC ? res : R[VPMU_RF_PC];

		if (unlikely(!vpmu_fetch_in(e, npc))) {
			vpmu_fault_note(e, VPMU_FAULT_FETCH, npc);
			goto fault;
		}
		COMMIT();
		nx = vpmu_eoi(e, base, mem, R, npc, op_shift, op_mask,
			      tc && !hook, left, cend);
		u = nx.u;
		left = nx.left;
		if (unlikely(nx.after))
			goto eoi_after;
		GOTO_ENTER();
	}
VPMU_SEQ_HANDLER_HALT:
	COMMIT();
	return vpmu_loop_exit(e, base, u, hook, cend, LEFT(), VPMU_INTERP_HALT);
VPMU_SEQ_HANDLER_TRAP:
	COMMIT();
	return vpmu_loop_exit(e, base, u, hook, cend, LEFT(), VPMU_INTERP_TRAP);
VPMU_SEQ_HANDLER_CTR:
	/* the counter is read after the chunk (vpmu_ctr_serve()) */
	COMMIT();
	return vpmu_loop_exit(e, base, u, hook, cend, LEFT(), VPMU_INTERP_CTR);

slow_enter:
	/*
	 * Not entered after all: a hook, a sample or the chunk's end is
	 * due, or fewer cycles are left than the segment has microwords.
	 * The barrier makes this a fresh load of seg, which lets every
	 * GOTO_ENTER() subtract seg straight from memory.
	 */
	barrier();
	left += u->seg;
	if (unlikely(hook)) {
		left = LEFT();
		u = vpmu_hook_resume(e, hook, base, u, cend - left);
		base = e->mem.slot[e->ctr.cur];
		hook = 0;
		GOTO_ENTER();
	}
	if (e->uh.sampler.due) {
		s32 d = vpmu_uhist_sample(e, u, left);

		left += d;
		cend += d;
		GOTO_ENTER();
	}
	if (left <= 0)
		return vpmu_loop_exit(e, base, u, hook, cend, LEFT(),
				      VPMU_INTERP_CHUNK);
	vpmu_step_alone(e, u);
	left--;
	goto *lab[u->h_general];

eoi_after:
	/*
	 * translations left u in the slot they toggled into, on an armed
	 * chunk's clock (vpmu_tc_exec_armed()), or it yields
	 */
	if (nx.after & VPMU_NEXT_SLOT)
		base = e->mem.slot[nx.slot];
	if (nx.after & VPMU_NEXT_CLOCK)
		cend = e->tc.ev_icend;
	if (nx.after & VPMU_NEXT_YIELD)
		goto yield;
	GOTO_ENTER();
fault:
	return vpmu_fault_undo(e, base, u, hook, cend, LEFT());
yield:
	return vpmu_loop_exit(e, base, u, hook, cend, LEFT(), VPMU_INTERP_YIELD);
}

#undef GOTO_HANDLER
#undef GOTO_FALL
#undef GOTO_ENTER
#undef GOTO_SEQ
#undef AT
#undef LEFT
#undef NOW
#undef SET_HOOK
#undef COMMIT
#undef ALU
#undef LOAD
#undef STORE
#undef PC_ADDI
#undef PC_ADD
#undef CMP
