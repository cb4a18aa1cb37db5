// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu_tc_pool.c - the translation cache's pool: where translations live
 * and what they count.  Its words hold records (a translation with its
 * blocks' counters, the pairs a link writes) in a ring; a full ring gives
 * up its oldest records, an eighth of the pool at a time, after their
 * counts are drained into the uops; the links into them are undone (the
 * log of links, mem.tc_links) and the table forgets them.  The cache
 * (vpmu_tc_cache.c) finds, links and leaves translations; the translator
 * (vpmu_tc_translate.c, vpmu_tc_emit.c) fills records.
 */
#include "vpmu_engine_priv.h"

/* ---- counting ------------------------------------------------------------ */

/*
 * @n executions of the first @k entries of block record @b, into the uops
 * @U of one slot: an execution of a microword alone (vpmu_fold() sums a
 * segment's counts from its start: what goes in here comes out right
 * after), a taken branch into its tkn.
 */
void vpmu_tc_apply(struct vpmu_uop *U, const struct vpmu_tc_block *b, u32 k,
		   u32 n)
{
	u32 i;

	for (i = 0; i < k; i++) {
		u32 upc = b->ent[i] & ~VPMU_TC_BLOCK_TAKEN;

		if (b->ent[i] & VPMU_TC_BLOCK_TAKEN) {
			U[upc].tkn += n;
			continue;
		}
		U[upc].cnt += n;
		if (U[upc].seg > 1)
			U[upc + 1].cnt -= n;
	}
}

void vpmu_tc_touch(struct vpmu_engine *e, const struct vpmu_tc_trans *tb)
{
	struct vpmu_tc_trans *t = (struct vpmu_tc_trans *)tb;

	t->epoch = e->tc.epoch | (t->epoch & VPMU_TC_EV_FIRST);
	e->mem.tc_touch[e->tc.ntouch++] =
		(u32)((const u32 *)tb - e->mem.tc_pool);
}

/*
 * Move the block counts of every translation entered since the last drain
 * into the slots' uops, where vpmu_fold() finds them.
 */
/*
 * @n executions of block record @b into the uops @U of one slot, by its
 * netted counts (or its entries, where it has none).
 */
static void vpmu_tc_apply_net(struct vpmu_uop *U,
			      const struct vpmu_tc_block *b, u32 n)
{
	const u16 *d = b->ent + b->n;
	u32 i;

	if (!b->nd) {
		vpmu_tc_apply(U, b, b->n, n);
		return;
	}
	for (i = 0; i < b->nd; i++) {
		u32 upc = d[i] & ~(VPMU_TC_BLOCK_TAKEN | VPMU_TC_BLOCK_DOWN);

		if (d[i] & VPMU_TC_BLOCK_TAKEN)
			U[upc].tkn += n;
		else if (d[i] & VPMU_TC_BLOCK_DOWN)
			U[upc].cnt -= n;
		else
			U[upc].cnt += n;
	}
}

void vpmu_tc_drain(struct vpmu_engine *e)
{
	/* (slots not in use have counted nothing since) */
	u32 i, b, s, nused = e->ctr.nused, ntouch = e->tc.ntouch;
	u32 *pool = e->mem.tc_pool;

	for (i = 0; i < ntouch; i++) {
		const struct vpmu_tc_trans *tb = (const void *)(pool +
							  e->mem.tc_touch[i]);
		u32 off = tb->blk;

		for (b = 0; b < tb->nblk; b++) {
			const struct vpmu_tc_block *r =
				vpmu_tc_block_at(pool, off);

			for (s = 0; s < nused; s++) {
				u32 *c = &pool[r->ctr + s];

				if (*c) {
					vpmu_tc_apply_net(e->mem.slot[s], r,
							  *c);
					*c = 0;
				}
			}
			off += vpmu_tc_block_size(r);
		}
	}
	e->tc.ntouch = 0;
	/* a new epoch: every translation is untouched again */
	if (++e->tc.epoch == VPMU_TC_EV_FIRST)
		vpmu_tc_flush(e);
}

/* Forget every translation (their counts drained first). */
void vpmu_tc_flush(struct vpmu_engine *e)
{
	if (!e->mem.tc_pool)
		return;
	if (e->tc.ntouch)
		vpmu_tc_drain(e);
	memset(e->mem.tc_map, 0, sizeof(u32) * VPMU_TC_MAP);
	memset(e->mem.tc_heat, 0, VPMU_TC_MAP);
	memset(e->mem.tc_code, 0, VPMU_TC_CODE_BITS / 8);
	e->tc.code_lo = 0;
	e->tc.code_span = 0;
	/* offset 0 means none */
	e->tc.head = VPMU_TC_HDR;
	e->tc.tail = VPMU_TC_HDR;
	e->tc.wrapped = false;
	e->tc.nlinks = 0;
	e->tc.nblocks = 0;
	e->tc.msz = 0;
	e->tc.nwant = 0;	/* their heat is gone */
	e->tc.epoch = 1;
	e->tc.resume.tb = 0;
	e->tc.stats.flushes++;
}

/* ---- the pool's ring ------------------------------------------------------ */

static struct vpmu_tc_rec *tc_rec(struct vpmu_engine *e, u32 off)
{
	return (struct vpmu_tc_rec *)(e->mem.tc_pool + off);
}

/*
 * The records of the pool's words [@lo, @hi) go: the table forgets their
 * translations, and the links into them or into their pairs are undone
 * (the next pass through such an EOI finds its translation again, if it
 * is still there).  Their counts were drained.
 */
static void tc_forget(struct vpmu_engine *e, u32 lo, u32 hi)
{
	u32 *pool = e->mem.tc_pool, i, n = 0, off;

	for (i = 0; i < VPMU_TC_MAP; i++)
		if (e->mem.tc_map[i] >= lo && e->mem.tc_map[i] < hi)
			e->mem.tc_map[i] = 0;
	if (e->tc.resume.tb >= lo && e->tc.resume.tb < hi)
		e->tc.resume.tb = 0;
	for (off = lo; off < hi; off += tc_rec(e, off)->words) {
		const struct vpmu_tc_trans *tb =
			(const void *)(pool + off + VPMU_TC_HDR);

		if (tc_rec(e, off)->kind != VPMU_TC_REC_TRANS)
			continue;
		e->tc.nblocks -= tb->nblk;
		e->tc.stats.evicted++;
	}
	for (i = 0; i < e->tc.nlinks; i++) {
		u32 s = e->mem.tc_links[i];
		struct vpmu_tc_link *l = (struct vpmu_tc_link *)(pool + s);

		if (s >= lo && s < hi)
			continue;	/* its translation goes */
		if ((l->tb >= lo && l->tb < hi) ||
		    (l->pairs >= lo && l->pairs < hi)) {
			l->tb = 0;
			l->pairs = 0;
			continue;
		}
		e->mem.tc_links[n++] = s;
	}
	e->tc.nlinks = n;
}

/*
 * Make room for a record of @size words at the head of a wrapped ring:
 * the oldest records go, at least an eighth of the pool at a time, so
 * that the table and the links are combed through seldom.
 */
static void tc_evict(struct vpmu_engine *e, u32 size)
{
	struct vpmu_tc *tc = &e->tc;
	u32 pool = e->mem.tc_words, want = size + pool / 8, hi = tc->tail;
	u64 flushes = tc->stats.flushes;

	if (tc->ntouch)
		vpmu_tc_drain(e);	/* counts first: they may go */
	if (tc->stats.flushes != flushes)
		return;		/* the drain's epochs wrapped: all went */
	while (hi < pool && hi - tc->head < want)
		hi += tc_rec(e, hi)->words;
	tc_forget(e, tc->tail, hi);
	/*
	 * What is warm starts over, as after a flush: an instruction earns
	 * its translation by the runs since, not over the program's life
	 */
	memset(e->mem.tc_heat, 0, VPMU_TC_MAP);
	tc->tail = hi;
	if (hi == pool) {
		/* nothing left above: the ring starts over */
		tc->tail = VPMU_TC_HDR;
		tc->wrapped = false;
	}
}

/*
 * A record of @kind and @words words (after its header): the offset of
 * its words, 8-byte aligned, or 0.  With @evict, the oldest records go to
 * make room (their counts drained first); without, 0 when the pool is
 * full.  Live records lie from tail to head, or, wrapped, from tail to
 * the pool's end and from its start to head.
 */
u32 vpmu_tc_pool_alloc(struct vpmu_engine *e, u32 words, u32 kind,
		       bool evict)
{
	struct vpmu_tc *tc = &e->tc;
	u32 pool = e->mem.tc_words, size, off;

	size = (words + VPMU_TC_HDR + 1) & ~1u;	/* records hold a u64 */
	if (size > pool - VPMU_TC_HDR)
		return 0;
	for (;;) {
		if (!tc->wrapped) {
			if (tc->head + size <= pool)
				break;
			/* to the start: what is left at the end is padding */
			if (tc->head < pool) {
				tc_rec(e, tc->head)->words = pool - tc->head;
				tc_rec(e, tc->head)->kind = VPMU_TC_REC_PAD;
			}
			tc->head = VPMU_TC_HDR;
			tc->wrapped = true;
			continue;
		}
		if (tc->head + size <= tc->tail)
			break;
		if (!evict)
			return 0;
		tc_evict(e, size);
	}
	off = tc->head;
	tc_rec(e, off)->words = size;
	tc_rec(e, off)->kind = kind;
	tc->head += size;
	return off + VPMU_TC_HDR;
}

/* ---- counting up to a wrap ------------------------------------------------ */

/*
 * The index in tc.ev_vec of the counts @v, added if new; 0, the most any
 * block may add of each, if the table is full.
 */
static u8 tc_ev_vec(struct vpmu_tc *tc, const u8 *v)
{
	u32 i;

	for (i = 1; i < tc->ev_nvec; i++)
		if (!memcmp(tc->ev_vec[i], v, VPMU_TC_EV_MAX))
			return (u8)i;
	if (tc->ev_nvec == VPMU_TC_EV_VECS)
		return 0;
	memcpy(tc->ev_vec[tc->ev_nvec], v, VPMU_TC_EV_MAX);
	return tc->ev_nvec++;
}

/*
 * The events of the counter of bit @c (of ctr_hit) that block @r adds
 * by running its entries from @from on: its microwords that feed it.
 */
static u32 tc_block_events(const struct vpmu_engine *e,
			   const struct vpmu_tc_block *r, u32 from, u16 c)
{
	u32 i, v = 0;

	for (i = from; i < r->n; i++)
		if (!(r->ent[i] & VPMU_TC_BLOCK_TAKEN) &&
		    e->mem.ctr_hit[r->ent[i]] & c)
			v++;
	return v;
}

/*
 * Make translation @tb's blocks count the events of the counters of
 * tc.ev_mask (none: 0): a block whose microwords may add some becomes a
 * BLOCK_EV, in d the index of its counts in tc.ev_vec, which
 * vpmu_tc_exec() takes off what an armed chunk may still count; every
 * other block a BLOCK.  An event of a counter in ctr.arm_mask occurs at
 * most once an execution of a microword that feeds it (ctr_hit:
 * vpmu_ev_possible()), so a block adds at most its microwords that do,
 * in whatever slot it counts.  False if a toggling block (BLOCK_TGL)
 * would have to count: such a chunk may not arm.
 */
bool vpmu_tc_ev_trans(struct vpmu_engine *e, struct vpmu_tc_trans *tb)
{
	u32 *pool = e->mem.tc_pool, off = tb->blk, base = 0, b, k, n;
	struct vpmu_tc_op *t = (struct vpmu_tc_op *)(tb + 1);
	const struct vpmu_tc_op *end = (const void *)(pool + tb->blk);
	u8 vec[VPMU_TC_NBLK];	/* 0: a BLOCK; else ev_vec's index + 1 */
	u8 v[VPMU_TC_EV_MAX];
	bool ok = true;
	u16 c;

	/* a block's microwords, a translation's at most, fit a u8 */
	BUILD_BUG_ON(VPMU_TC_PATH > 255);
	if (tb->none)
		return true;
	for (b = 0; b < tb->nblk; b++) {
		const struct vpmu_tc_block *r = vpmu_tc_block_at(pool, off);

		if (!b)
			base = r->ctr;
		memset(v, 0, sizeof(v));
		for (c = e->tc.ev_mask, k = 0, n = 0; c; c &= c - 1, k++) {
			v[k] = (u8)tc_block_events(e, r, 0, c & -c);
			n |= v[k];
		}
		vec[b] = n ? tc_ev_vec(&e->tc, v) + 1 : 0;
		/* the most any block may add: its counts are not exact */
		if (vec[b] == 1)
			e->tc.ev_over = true;
		off += vpmu_tc_block_size(r);
	}
	for (; t < end; t++) {
		if (vpmu_tc_op_eoi(t->h)) {
			t++;	/* past the data slot */
			continue;
		}
		if (t->h != VPMU_TC_OP_BLOCK && t->h != VPMU_TC_OP_BLOCK_EV &&
		    t->h != VPMU_TC_OP_BLOCK_TGL)
			continue;
		/* its counters, a u32 per slot, are its record's */
		k = (t->y - base) / VPMU_NSLOT;
		if (t->h == VPMU_TC_OP_BLOCK_TGL) {
			ok &= !vec[k];
			continue;
		}
		t->h = vec[k] ? VPMU_TC_OP_BLOCK_EV : VPMU_TC_OP_BLOCK;
		t->d = vec[k] ? vec[k] - 1 : 0;
#ifndef __KERNEL__
		t->hl = e->tlab[t->h];
#endif
	}
	/* entered at its first, a BLOCK_EV, the loop looks at its op */
	tb->epoch &= ~VPMU_TC_EV_FIRST;
	if (VPMU_TC_OPS(tb)->h == VPMU_TC_OP_BLOCK_EV)
		tb->epoch |= VPMU_TC_EV_FIRST;
	return ok;
}

/*
 * Make every translation's blocks count the events of the counters of
 * @mask (0: none; at most VPMU_TC_EV_MAX), vpmu_tc_ev_trans(); the ones
 * made later count them too (vpmu_tc_layout()).  False if some cannot.
 */
bool vpmu_tc_ev(struct vpmu_engine *e, u16 mask)
{
	struct vpmu_tc *tc = &e->tc;
	u32 lo = tc->tail, hi = tc->wrapped ? e->mem.tc_words : tc->head, off;
	bool ok = true;

	tc->ev_mask = mask;
	tc->ev_n = (u8)hweight16(mask);
	tc->ev_over = false;
	tc->stats.turned++;
	/* the first counts: the most a block may add of each (u8 above) */
	memset(tc->ev_vec[0], 0xff, VPMU_TC_EV_MAX);
	tc->ev_nvec = 1;
	for (;;) {
		for (off = lo; off < hi; off += tc_rec(e, off)->words)
			if (tc_rec(e, off)->kind == VPMU_TC_REC_TRANS)
				ok &= vpmu_tc_ev_trans(e, (void *)(e->mem.tc_pool +
							off + VPMU_TC_HDR));
		if (hi == tc->head)
			return ok;
		lo = VPMU_TC_HDR;
		hi = tc->head;
	}
}

/*
 * An armed chunk left BLOCK_EV's block @r after @from of its entries
 * (vpmu_tc_leave()): what it took of the rest's events is given back,
 * so that what its counters took is what ran.
 */
void vpmu_tc_ev_refund(struct vpmu_engine *e, const struct vpmu_tc_block *r,
		       u32 from)
{
	u32 k;
	u16 c;

	for (c = e->tc.ev_mask, k = 0; c; c &= c - 1, k++)
		e->tc.ev_left[k] += tc_block_events(e, r, from, c & -c);
}
