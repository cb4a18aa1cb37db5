// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu_tc_exec.c - the translated-code executor: runs translations
 * (vpmu_tc_translate.c makes them, vpmu_tc_cache.c finds, links and
 * leaves them) with the interpreter's clock, registers and slot, until
 * one leaves for the interpreter.
 */
#include "vpmu_exec.h"

#ifndef __annotate_jump_table
#define __annotate_jump_table
#endif

/* An instruction fetch at @npc (vpmu_fetch_ok(), the limit in e->dp.fetch_lim). */
#define FETCH_OK(npc)							\
	(((npc) >> e->dp.fetch_shift | (npc) << (32 - e->dp.fetch_shift)) < \
	 e->dp.fetch_lim)
/* ...on 4-byte boundaries (fetch_shift 2), and word accesses (MEM_OK) */
#define FETCH_OK4(npc)	(((npc) >> 2 | (npc) << 30) < fwords)
/* An access of @size bytes at @x: aligned and inside memory. */
#define MEM_OK(x, size)							\
	((size) == 4 ? FETCH_OK4(x) :					\
	 (size) == 2 ? ((x) >> 1 | (x) << 31) < hwords : (x) < msz)
#define FLAGS()							\
	(likely(R[VPMU_RF_FLAGS] < VPMU_FLAGS_LAZY) ? R[VPMU_RF_FLAGS] :	\
	 vpmu_flags_sync(e))

/*
 * A translated load missed or a store stalled: count @dyn (a miss, the
 * store's stall cycles) in the microword's uop, as the interpreter does.
 * Returns @stall, the cycles it stalled.
 */
static __always_inline u32 vpmu_tc_stall(struct vpmu_engine *e,
					 struct vpmu_uop *base,
					 const u32 *tpool,
					 const struct vpmu_tc_op *t, u32 dyn,
					 u32 stall)
{
	u32 upc = ((const struct vpmu_tc_exit *)(tpool + t->x))->upc;

	base[upc].dyn += dyn;
	if (stall)
		e->ctr.last_stall_upc = upc;
	return stall;
}

/*
 * The translation cache's ops (vpmu_tc_cache.c) run in the same loop, so
 * that they share its clock, registers and slot: t is the op, tcnt the
 * block counters of the slot base is in, tpend the record the previous
 * translation left.  A translation is entered only with no hook pending;
 * it has no hook of its own, so left stays plain.
 */
#ifdef __KERNEL__
#define TDISPATCH()	goto *tlab[t->h]
#else
#define TDISPATCH()	goto *t->hl
#endif
#define TNEXT()		do { t++; TDISPATCH(); } while (0)
/* A branch op: to its taken side if @c, else on. */
#define TTAKE(c)	do { t += (c) ? t->x : 1; TDISPATCH(); } while (0)
#define TC_RR(name, expr)						\
TH_RR_##name : {							\
		u32 a = R[t->a], b = R[t->b];				\
		(void)a; (void)b;					\
		R[t->d] = (expr);					\
		TNEXT();						\
	}
#define TC_RI(name, expr)						\
TH_RI_##name : {							\
		u32 a = R[t->a], b = t->imm;				\
		R[t->d] = (expr);					\
		TNEXT();						\
	}
#define TC_IR(name, expr)						\
TH_IR_##name : {							\
		u32 a = t->imm, b = R[t->b];				\
		R[t->d] = (expr);					\
		TNEXT();						\
	}
/* EXT and SEXT: VPMU_SEM_* find the field in u->b, u->imm, as in t */
#define TC_RF(name, expr)						\
TH_RF_##name : {							\
		const struct vpmu_tc_op *u = t;				\
		u32 a = R[t->a];					\
		R[t->d] = (expr);					\
		TNEXT();						\
	}
/*
 * Loads and stores: x is the exit before (a fault; its upc the
 * microword's), y the exit after if a stall leaves fewer cycles than the
 * block charged for what follows (0: the block ends here); a store's
 * cycle is the block's charge less d cycles.
 */
#define TC_LD(name, size, expr)						\
TH_LD_##name : {							\
		const u8 *p;						\
		u32 line_, *tag_;					\
		maddr = R[t->a] + t->imm;				\
		if (unlikely(!MEM_OK(maddr, size)))			\
			goto tc_exit;					\
		p = mem + maddr;					\
		R[t->d] = (expr);					\
		line_ = maddr >> e->dp.dc_shift;				\
		tag_ = &e->mem.dc_tag[line_ & e->dp.dc_mask];			\
		e->st.last_miss = *tag_ != line_ + 1;			\
		if (likely(!e->st.last_miss))				\
			TNEXT();					\
		*tag_ = line_ + 1;					\
		left -= vpmu_tc_stall(e, base, tpool, t, 1, e->dp.penalty); \
		if (unlikely(t->y && left < 0))				\
			goto tc_stall_exit;				\
		TNEXT();						\
	}
#define TC_ST(name, size)						\
TH_ST_##name : {							\
		u32 st_;						\
		maddr = R[t->a] + t->imm;				\
		if (unlikely(!MEM_OK(maddr, size)))			\
			goto tc_exit;					\
		vpmu_mem_store(mem + maddr, R[t->b], size);		\
		st_ = vpmu_wq_store(e, cend - left - t->d);		\
		if (likely(!st_ && !vpmu_tc_code(e, maddr)))		\
			TNEXT();					\
		if (st_)						\
			left -= vpmu_tc_stall(e, base, tpool, t, st_, st_); \
		/* into a checked word: a new code generation, and out */ \
		if (vpmu_tc_code(e, maddr)) {				\
			e->tc.gen++;	/* the others check */		\
			goto tc_code_exit;				\
		}							\
		if (unlikely(t->y && left < 0))				\
			goto tc_stall_exit;				\
		TNEXT();						\
	}
#define VPMU_TC_BODIES(name, code, sig, doc)				\
	VPMU_TC_BODIES_##sig(name, VPMU_SEM_##name)
#define VPMU_TC_BODIES_NONE(n, sem)
#define VPMU_TC_BODIES_DAB(n, sem)	TC_RR(n, sem) TC_RI(n, sem) TC_IR(n, sem)
#define VPMU_TC_BODIES_DB(n, sem)	TC_RR(n, sem)
#define VPMU_TC_BODIES_DAF(n, sem)	TC_RF(n, sem)
#define VPMU_TC_BODIES_LD(n, sem)	TC_LD(n, sem)
#define VPMU_TC_BODIES_ST(n, sem)	TC_ST(n, sem)
#define VPMU_TC_BODIES_I(n, sem)
/*
 * Compare and branch, the flags left lazy as H_CMP_* leaves them: with a
 * register (TH_CMP_*) or a constant (TH_CMPI_*) as the second operand.
 */
#define TC_CMP_OF(label, bexpr, holds)					\
label : {								\
		u32 a = R[t->a], b = (bexpr);				\
		e->dp.lazy_a = a;						\
		e->dp.lazy_b = b;						\
		R[VPMU_RF_FLAGS] = VPMU_FLAGS_LAZY;				\
		TTAKE(holds);						\
	}
#define VPMU_TC_CMP(name, holds)					\
	TC_CMP_OF(TH_CMP_##name, R[t->b], holds)			\
	TC_CMP_OF(TH_CMPI_##name, t->imm, holds)

/*
 * An ADD's dispatch on data, guarded: its sum @expr to d if its index (y
 * the mask) is 0, else the exit x, before the microword.
 */
#define TC_DISPG(label, expr)						\
label : {								\
		u32 r_ = (expr);					\
		if (unlikely(r_ & t->y))				\
			goto tc_exit;					\
		R[t->d] = r_;						\
		TNEXT();						\
	}

/*
 * An EOI op: the next pc @npc, which may not be in memory if @fault; the
 * link to the translation that followed, whose key is compared whole if
 * @keyed (pc on data: so is the mode), else its word only.  TH_EOI is the
 * general form (b: npc is R[a], else the link's; d & 2: @fault, d & 1:
 * @keyed), TH_EOIK the common one, npc known and in memory.
 */
#define TC_EOI(label, npc_expr, fault, keyed)				\
label : {								\
		struct vpmu_tc_link *l = (struct vpmu_tc_link *)(t + 1);	\
		u32 npc = (npc_expr), ir;				\
		if ((fault) && !FETCH_OK(npc))				\
			goto tc_exit;					\
		ir = vpmu_get_le32(mem + npc);				\
		tb = (const struct vpmu_tc_trans *)(tpool + l->tb);		\
		if (unlikely(!l->tb || tb->ir != ir ||			\
			     ((keyed) && tb->key != (npc | e->st.mode)))) { \
			tb = vpmu_tc_next(e, l, npc, ir, &tpend);	\
			if (tb)						\
				goto tc_enter;				\
			upc = e->uc->idtab[(ir >> e->dp.op_shift) & e->dp.op_mask]; \
			goto out;					\
		}							\
		if (l->pairs)						\
			vpmu_tc_write(R, (const void *)(tpool + l->pairs)); \
		tpend = (const void *)(tpool + l->fin);			\
		goto tc_enter;						\
	}

/*
 * Run translations (vpmu_tc_cache.c) from @tb on, with the interpreter's
 * clock (@left, @cend) and slot (@base), until one leaves: returns the
 * microword where the interpreter goes on and the cycles left.  Its own
 * function, apart from vpmu_interp(), so that neither loop's registers
 * crowd the other's.  With @e's tlab unset, only publishes the handlers.
 */
VPMU_NOINLINE struct vpmu_tc_ret
vpmu_tc_exec(struct vpmu_engine *e, struct vpmu_uop *base,
	     const struct vpmu_tc_trans *tb, s32 left, u64 cend)
{
	static const void *const tlab[TH_NR] __annotate_jump_table = {
#define VPMU_T(label)							\
		[TH_##label] = &&TH_##label,
		VPMU_TC_HANDLER_LIST
#undef VPMU_T
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

	if (!base) {
		e->tlab = tlab;
		return (struct vpmu_tc_ret){ 0, 0 };
	}
	tcnt = e->mem.tc_cnt + vpmu_slot_of(e, base) * VPMU_TC_BLOCKS;
	goto tc_enter;

	VPMU_OP_LIST(VPMU_TC_BODIES);
	VPMU_CMP_LIST(VPMU_TC_CMP);
TH_BLK:
	left -= (s32)t->imm;
	if (unlikely(left < 0)) {
		left += (s32)t->imm;
		goto tc_exit;
	}
	tcnt[t->y]++;
	TNEXT();
TH_BRF:
	TTAKE((condtab[t->b] >> FLAGS()) & 1);
TH_BRX:
	TTAKE(vpmu_cond_ext(e, t->b, cend - left));
	TC_DISPG(TH_DGADD, R[t->a] + R[t->b]);
	TC_DISPG(TH_DGADDI, R[t->a] + t->imm);
	/* a known pc in memory when translated stays there (tc.msz) */
	TC_EOI(TH_EOI, t->b ? R[t->a] : l->npc, unlikely(t->d & 2), t->d & 1);
	TC_EOI(TH_EOIK, l->npc, false, false);
tc_stall_exit:
tc_code_exit:
	x = (const struct vpmu_tc_exit *)(tpool + t->y);
	goto tc_leave;
TH_EXIT:
tc_exit:
	x = (const struct vpmu_tc_exit *)(tpool + t->x);
tc_leave:
	/* the interpreter goes on where the translation stopped */
	upc = vpmu_tc_leave(e, base, tcnt, x, tpend);
	left += x->refund;
out:
	return (struct vpmu_tc_ret){ upc, left };
tc_enter:
	t = VPMU_TC_OPS(tb);
	if (unlikely(tb->stamp != e->tc.stamp)) {
		/* a word it runs changed: the exit before its first block */
		if (tb->gen != e->tc.gen && !vpmu_tc_check(e, tb))
			goto tc_exit;
		if (tb->epoch != e->tc.epoch)
			vpmu_tc_touch(e, tb);
	}
	goto TH_BLK;		/* what every translation begins with */
}

#undef FETCH_OK
#undef FETCH_OK4
#undef MEM_OK
#undef FLAGS
#undef TDISPATCH
#undef TNEXT
#undef TTAKE
#undef TC_RR
#undef TC_RI
#undef TC_IR
#undef TC_RF
#undef TC_DISPG
#undef TC_LD
#undef TC_ST
#undef TC_EOI
#undef VPMU_TC_BODIES
#undef VPMU_TC_BODIES_NONE
#undef VPMU_TC_BODIES_DAB
#undef VPMU_TC_BODIES_DB
#undef VPMU_TC_BODIES_DAF
#undef VPMU_TC_BODIES_LD
#undef VPMU_TC_BODIES_ST
#undef VPMU_TC_BODIES_I
#undef VPMU_TC_CMP
#undef TC_CMP_OF
