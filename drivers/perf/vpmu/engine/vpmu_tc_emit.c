// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu_tc_emit.c - what a translation is made of, as the translator
 * (vpmu_tc_translate.c) walks its microcode: exit records and the pairs
 * of known registers they write, blocks and their records, and at the
 * end its layout in the pool, where the offsets it holds are made
 * absolute.
 */
#include "vpmu_tc_builder.h"

/* ---- making a translation ----------------------------------------------- */

/*
 * The pairs of what @st knows and R[] lacks, less the registers in @skip:
 * their offset in recw + 1, shared with the last pairs if the same (0:
 * none, or no room).
 */
u32 vpmu_tc_emit_pairs(struct vpmu_tc_builder *tr, struct vpmu_tc_state *st,
		       u64 skip)
{
	u64 m = st->known & st->wrote & ~skip & ~VPMU_TC_REG(VPMU_RF_SINK);
	u32 off = tr->nrecw, n = 0;
	struct vpmu_tc_pairs *p;

	if (!m)
		return 0;
	/* unchanged since they were last written: the same pairs */
	if (st->pairs && st->pairs_skip == skip)
		return st->pairs;
	if (off + vpmu_tc_pairs_words(VPMU_TC_PAIRS) > VPMU_TC_RECW) {
		tr->fail = true;
		return 0;
	}
	p = (struct vpmu_tc_pairs *)&tr->recw[off];
	while (m) {
		u32 r = __builtin_ctzll(m);

		m &= m - 1;
		if (n == VPMU_TC_PAIRS) {
			tr->fail = true;
			return 0;
		}
		p->p[n].idx = r;
		p->p[n].val = st->val[r];
		n++;
	}
	p->n = n;
	p->pad = 0;
	tr->nrecw += vpmu_tc_pairs_words(n);
	st->pairs = off + 1;
	st->pairs_skip = skip;
	return off + 1;
}

/*
 * An exit before microword @upc, @st known there, into the word @slot of
 * the ops (made relative to recw + 1).  Inside the current block (@cut),
 * after @kpos of its entries, @execs of them microwords: the block's count
 * stands for those only, and what it charged for the rest is refunded
 * (set when the block closes).
 */
void vpmu_tc_emit_exit(struct vpmu_tc_builder *tr, struct vpmu_tc_state *st,
		       u32 *slot, u32 upc, bool cut, u32 kpos, u32 execs)
{
	u32 pairs = vpmu_tc_emit_pairs(tr, st, 0), off;
	struct vpmu_tc_exit *x;

	off = (tr->nrecw + 1) & ~1u;
	if (tr->fail || off + sizeof(*x) / 4 > VPMU_TC_RECW ||
	    (cut && tr->ncuts == VPMU_TC_CUTS)) {
		tr->fail = true;
		return;
	}
	x = (struct vpmu_tc_exit *)&tr->recw[off];
	memset(x, 0, sizeof(*x));
	x->upc = upc;
	/* before a toggling block's first microword: undo its toggle */
	if (tr->blk_tgl && !(cut ? kpos : vpmu_tc_cur_block(tr)->n))
		x->untoggle = tr->blk_tgl;
	x->wrote = st->wrote;
	x->pairs = pairs;
	if (pairs)
		vpmu_tc_rel(tr, VPMU_TC_REL_REC |
			    (off + offsetof(struct vpmu_tc_exit, pairs) / 4));
	if (cut) {
		x->blk = tr->blk_rec + 1;
		vpmu_tc_rel(tr, VPMU_TC_REL_REC | VPMU_TC_REL_BLK |
			    (off + offsetof(struct vpmu_tc_exit, blk) / 4));
		x->kpos = kpos;
		x->counted = 1;
		tr->cut[tr->ncuts] = off;
		tr->cut_execs[tr->ncuts++] = execs;
	}
	tr->nrecw = off + sizeof(*x) / 4;
	*slot = off + 1;
	vpmu_tc_rel(tr, vpmu_tc_op_word(tr, slot));
}

/*
 * A new block at microword @upc, @st known; the taken side of a branch on
 * data (@tkn >= 0) counts the branch taken first.
 */
void vpmu_tc_emit_block(struct vpmu_tc_builder *tr, struct vpmu_tc_state *st,
			u32 upc, int tkn)
{
	struct vpmu_tc_op *t = vpmu_tc_new_op(tr, VPMU_TC_OP_BLOCK);
	struct vpmu_tc_exit *x;

	if (tr->nblkw + vpmu_tc_block_words(0) > VPMU_TC_BLKW ||
	    tr->nblk >= VPMU_TC_NBLK) {
		tr->fail = true;
		return;
	}
	tr->blk_op = (u32)(t - tr->ops);
	tr->blk_tgl = 0;
	/* its index, where a run yields (vpmu_tc_exec()) */
	t->a = (u8)tr->blk_op;
	t->b = (u8)(tr->blk_op >> 8);
	tr->blk_rec = tr->nblkw;
	/* a record of blk_room entries ends at blkw's end */
	tr->blk_room = 2 * (VPMU_TC_BLKW - tr->blk_rec - vpmu_tc_block_words(0));
	vpmu_tc_block_w(tr->blkw, tr->blk_rec)->n = 0;
	vpmu_tc_block_w(tr->blkw, tr->blk_rec)->nd = 0;
	vpmu_tc_block_w(tr->blkw, tr->blk_rec)->ctr = tr->nblk;
	tr->nblkw += vpmu_tc_block_words(0);
	t->y = tr->nblk++;
	tr->ncuts = 0;
	tr->nst = 0;
	/* an exit before it is entered; uncounted, but for a branch taken */
	vpmu_tc_emit_exit(tr, st, &t->x, upc, false, 0, 0);
	if (tkn >= 0 && !tr->fail) {
		x = (struct vpmu_tc_exit *)&tr->recw[t->x - 1];
		vpmu_tc_count(tr, (u32)tkn | VPMU_TC_BLOCK_TAKEN);
		x->blk = tr->blk_rec + 1;
		vpmu_tc_rel(tr, VPMU_TC_REL_REC | VPMU_TC_REL_BLK |
			    (t->x - 1 + offsetof(struct vpmu_tc_exit, blk) / 4));
		x->kpos = 1;
	}
}

/*
 * A new block at microword @upc, a trigger source that toggles the freeze
 * groups @fgroups as it begins (vpmu_interp()'s TRIG handler): its
 * BLOCK_TGL toggles them, into the slot of the new state if it is in use,
 * and counts the block there (vpmu_tc_exec()).
 */
void vpmu_tc_emit_toggle(struct vpmu_tc_builder *tr, struct vpmu_tc_state *st,
			 u32 upc, u32 fgroups)
{
	vpmu_tc_emit_block(tr, st, upc, -1);
	if (tr->fail)
		return;
	tr->ops[tr->blk_op].h = VPMU_TC_OP_BLOCK_TGL;
	tr->ops[tr->blk_op].d = (u8)fgroups;
	tr->blk_tgl = fgroups;
	tr->blk_tgl_upc = upc;
}

/*
 * The counts of block @b netted for a drain, after its entries (struct
 * vpmu_tc_block): an entry's execution counts its microword up and,
 * inside a segment, the next one down, which the next entry of the same
 * segment counts up again.  Left out where the record has no room, and
 * unless a counter that interrupts or freezes on overflow cannot be
 * credited (vpmu_ctr_credit(): of an event other than CYCLES and UOPS):
 * only near such a counter's wraps do drains come by the hundred, and
 * elsewhere netting would cost more in translating than it saves (a
 * program too short to pay back its translations, such as rv32's
 * strings.elf, by 5%).
 */
static void tc_block_net(struct vpmu_tc_builder *tr, struct vpmu_tc_block *b)
{
	const struct vpmu_uop *U = tr->e->mem.slot[0];
	u16 *d = b->ent + b->n;
	u32 i, nd = 0, room = tr->blk_room - b->n;

	b->nd = 0;
	if (!(tr->e->ctr.plan_mask &
	      ~(tr->e->ctr.cyc_mask | tr->e->ctr.uops_mask)))
		return;
	for (i = 0; i < b->n; i++) {
		u32 ent = b->ent[i];

		if (nd + 2 > room) {
			nd = 0;
			break;
		}
		if (ent & VPMU_TC_BLOCK_TAKEN) {
			d[nd++] = ent;
			continue;
		}
		if (nd && d[nd - 1] == (ent | VPMU_TC_BLOCK_DOWN))
			nd--;
		else
			d[nd++] = ent;
		if (U[ent].seg > 1)
			d[nd++] = (ent + 1) | VPMU_TC_BLOCK_DOWN;
	}
	b->nd = nd;
}

/*
 * The current block is complete: its exits' refunds, its counts netted.
 */
void vpmu_tc_close_block(struct vpmu_tc_builder *tr)
{
	struct vpmu_tc_block *b = vpmu_tc_cur_block(tr);
	u32 ncyc = tr->ops[tr->blk_op].imm, i;

	for (i = 0; i < tr->ncuts; i++)
		((struct vpmu_tc_exit *)&tr->recw[tr->cut[i]])->refund =
			ncyc - tr->cut_execs[i];
	/* a store's cycle: the block's charge less the cycles after it */
	for (i = 0; i < tr->nst; i++)
		tr->ops[tr->st_ops[i]].d = ncyc - tr->st_execs[i];
	tr->ncuts = 0;
	tr->nst = 0;
	tc_block_net(tr, b);
	tr->nblkw = tr->blk_rec + vpmu_tc_block_size(b);
}

/* The bytes load or store op @h (LB..SW) accesses: its uop's. */
static u32 tc_access_size(u8 h)
{
	/* the uops of VPMU_TC_OP_LB..VPMU_TC_OP_SW, in their order */
	static const u8 uop[] = {
		VPMU_OP_LB, VPMU_OP_LBU, VPMU_OP_LH, VPMU_OP_LHU, VPMU_OP_LW,
		VPMU_OP_SB, VPMU_OP_SH, VPMU_OP_SW,
	};

	return vpmu_mem_size(uop[h - VPMU_TC_OP_LB]);
}

/*
 * Fuse each DISP_ADDI whose next op is a load or store of its sum (base
 * the sum's register, offset 0: RV32's aligned accesses) into one op,
 * GUARD_<access>, that runs both without computing the address twice or
 * dispatching between them (vpmu_tc_exec()), where the dispatch's index
 * bits (y) are among those the access needs clear for its alignment: its
 * one check of the address then covers both.  The access's op stays
 * where it was, for its fields and exits and for any branch to it.
 */
static void tc_fuse(struct vpmu_tc_op *ops, u32 nops)
{
	u32 i;

	for (i = 0; i + 1 < nops; i++) {
		struct vpmu_tc_op *g = &ops[i], *m = &ops[i + 1];

		if (vpmu_tc_op_eoi(g->h)) {
			i++;	/* past the data slot */
			continue;
		}
		if (g->h != VPMU_TC_OP_DISP_ADDI || m->imm ||
		    m->a != g->d || m->h < VPMU_TC_OP_LB ||
		    m->h > VPMU_TC_OP_SW ||
		    (g->y & ~(tc_access_size(m->h) - 1)))
			continue;
		/* GUARD_LB..GUARD_SW are in the order of LB..SW */
		g->h = VPMU_TC_OP_GUARD_LB + (m->h - VPMU_TC_OP_LB);
	}
}

/* Lay the translation out in the pool; its head's offset, or 0: no room. */
u32 vpmu_tc_layout(struct vpmu_tc_builder *tr)
{
	struct vpmu_engine *e = tr->e;
	u32 hw = sizeof(struct vpmu_tc_trans) / 4, ow = tr->nops * VPMU_TC_OPW;
	u32 bw = (tr->nblkw + 1) & ~1u;	/* records start 8-byte aligned */
	u32 cw = tr->nchk * sizeof(struct vpmu_tc_checked) / 4;
	u32 nw = tr->nblk * VPMU_NSLOT;	/* its blocks' counters */
	u32 off = vpmu_tc_pool_alloc(e, hw + ow + bw + tr->nrecw + cw + nw,
				     VPMU_TC_REC_TRANS, true);
	u32 blk, rec, ctr, i, *w;
	struct vpmu_tc_trans *tb;
	struct vpmu_tc_op *ops;

	if (!off)
		return 0;
	blk = off + hw + ow;
	rec = blk + bw;
	ctr = rec + tr->nrecw + cw;
	memset(e->mem.tc_pool + ctr, 0, 4 * nw);
	tb = (struct vpmu_tc_trans *)(e->mem.tc_pool + off);
	memset(tb, 0, sizeof(*tb));
	tb->key = tr->pc | tr->mode;
	tb->ir = tr->ir;
	tb->kill = tr->kill & ~tr->rbw;
	tb->blk = blk;
	tb->nblk = tr->nblk;
	tb->gen = e->tc.gen;
	tb->chk = rec + tr->nrecw;
	tb->nchk = tr->nchk;
	memcpy(e->mem.tc_pool + tb->chk, tr->chk, 4 * cw);
	for (i = 0; i < tr->nchk; i++)
		vpmu_tc_code_mark(e, tr->chk[i].pc);
	ops = (struct vpmu_tc_op *)(tb + 1);
	memcpy(ops, tr->ops, sizeof(*ops) * tr->nops);
	tc_fuse(ops, tr->nops);
	memcpy(e->mem.tc_pool + blk, tr->blkw, 4 * tr->nblkw);
	memcpy(e->mem.tc_pool + rec, tr->recw, 4 * tr->nrecw);
	/* block counters (a u32 per slot) and the offsets held, absolute */
	for (i = blk; i < blk + tr->nblkw;
	     i += vpmu_tc_block_size(vpmu_tc_block_at(e->mem.tc_pool, i)))
		vpmu_tc_block_w(e->mem.tc_pool, i)->ctr =
			ctr + vpmu_tc_block_at(e->mem.tc_pool, i)->ctr *
			VPMU_NSLOT;
	for (i = 0; i < tr->nops; i++) {
#ifndef __KERNEL__
		ops[i].hl = e->tlab[ops[i].h];
#endif
		if (ops[i].h == VPMU_TC_OP_BLOCK ||
		    ops[i].h == VPMU_TC_OP_BLOCK_TGL)
			ops[i].y = ctr + ops[i].y * VPMU_NSLOT;
		/* not chained (vpmu_tc_exec()); it has no exit (x) */
		if (ops[i].h == VPMU_TC_OP_EOI_KNOWN)
			ops[i].chain = VPMU_TC_UNCHAINED;
		if (vpmu_tc_op_eoi(ops[i].h))
			i++;	/* past the data slot */
	}
	for (i = 0; i < tr->nrels; i++) {
		u32 r = tr->rels[i];

		w = r & VPMU_TC_REL_REC ? e->mem.tc_pool + rec : (u32 *)ops;
		w += r & ~(VPMU_TC_REL_REC | VPMU_TC_REL_BLK);
		*w += (r & VPMU_TC_REL_BLK ? blk : rec) - 1;
	}
	/* (no BLOCK_TGL to count: toggles stop arming, vpmu_tc_ev()) */
	if (e->tc.ev_mask)
		vpmu_tc_ev_trans(e, tb);
	e->tc.nblocks += tr->nblk;
	e->tc.stats.translated++;
	e->tc.stats.words += tr->words;
	e->tc.stats.ops += tr->nops;
	return off;
}

/* A head that sends (key, ir) to the interpreter. */
u32 vpmu_tc_emit_none(struct vpmu_engine *e, u32 key, u32 ir)
{
	u32 off = vpmu_tc_pool_alloc(e, sizeof(struct vpmu_tc_trans) / 4,
				     VPMU_TC_REC_TRANS, true);
	struct vpmu_tc_trans *tb;

	if (!off)
		return 0;
	tb = (struct vpmu_tc_trans *)(e->mem.tc_pool + off);
	memset(tb, 0, sizeof(*tb));
	tb->key = key;
	tb->ir = ir;
	tb->none = 1;
	e->tc.stats.none++;
	return off;
}
