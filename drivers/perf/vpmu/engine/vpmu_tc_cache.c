// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu_tc_cache.c - the translation cache: macro instructions' microcode
 * paths translated once (vpmu_tc_translate.c) and replayed, every
 * microword still counted exactly: finding and linking translations,
 * leaving one (their pool and counts: vpmu_tc_pool.c).
 *
 * Exactness.  The ops are grouped in blocks, each charged to the cycle
 * budget as a whole when it is entered and counted once in the block's
 * counter of the current slot; the block's record lists the microwords
 * it stands for (and the branches it took), and vpmu_tc_drain() adds its
 * count to each of them in the slot's uops before every fold.  So the
 * fold sees exactly the executions the interpreter would have counted.
 * A block ends at a branch on data.  When fewer cycles are left than a
 * block has microwords (the chunk's end, a micro-PC histogram sample, a
 * counter's wrap, a histogram-unit window), when a load or store stalls
 * past the cycles left (where the interpreter would not enter its next
 * segment), when an access or a fetch would fault, when the word of an
 * instruction it runs after its first has changed (vpmu_tc_check()),
 * and where the translator stopped (a trigger source, a mode change, a
 * TRAP, a call, a dispatch on data but an ADD's to its first entry,
 * ...), the translation *exits*
 * (vpmu_tc_leave()): the registers it knows but has not written are
 * written (the exit's record), the count of a block cut short is undone
 * but for the microwords that ran, and the interpreter goes on at the
 * microword the translation stopped before.  Nothing the interpreter
 * would do differently is ever replayed.
 *
 * Known registers are written lazily.  A translation writes none of
 * them (pc, ipc and ir included) while it runs; its exits write what
 * they need.  A path's EOI leaves what it knows in its final pairs (fin)
 * and writes only those the next translation reads before it writes
 * them (the link's pairs); an exit from that next translation writes
 * the rest of the previous fin first (tpend in vpmu_interp()).  Outside
 * a translation R[] is always exact.
 *
 * What a translation depends on: the ucode (a new one flushes the cache),
 * which microwords are routed to hooks (a change flushes), pc, ir, the
 * mode and, in a superblock, the words of the instructions after the
 * first: compared again before it runs whenever a store into the words
 * of memory that hold them, or a run on memory the caller may have
 * written, has started a new code generation since it last compared them.
 */
#include "vpmu_engine_priv.h"

/*
 * May translation @tb run: are the words of the instructions it runs after
 * its first still those it was made from?  Asked when a new code
 * generation has started since they last were (vpmu_tc_code()).  If one
 * is not, its table entry is freed, so that the instruction is translated
 * again.
 */
bool vpmu_tc_check(struct vpmu_engine *e, const struct vpmu_tc_trans *tb)
{
	const struct vpmu_tc_checked *w =
		(const void *)(e->mem.tc_pool + tb->chk);
	struct vpmu_tc_trans *t = (struct vpmu_tc_trans *)tb;
	u32 *map = &e->mem.tc_map[vpmu_tc_slot(tb->key)];
	u32 i;

	e->tc.stats.checks++;
	for (i = 0; i < tb->nchk; i++) {
		if (vpmu_get_le32(e->st.mem + w[i].pc) != w[i].word) {
			if (*map == (u32)((const u32 *)tb - e->mem.tc_pool))
				*map = 0;
			e->tc.stats.stale++;
			return false;
		}
	}
	t->gen = e->tc.gen;
	return true;
}

/*
 * The program of context @c (NULL: a new one) arrives on the engine: if
 * its memory may differ from what the engine's translations last saw (a
 * new program, another's, one that ran elsewhere or was saved again since
 * this engine saved it, one whose memory was replaced), a new code
 * generation, so that each translation compares its checked words before
 * it runs again.  A program that goes on as this engine left it, with
 * nothing run here in between, costs no check.  The three compared
 * together cannot be met by a context freed and made again at the same
 * address: the engine's own record of its last save would have to be
 * the new one's.
 */
void vpmu_tc_mem(struct vpmu_engine *e, const struct vpmu_ctx *c)
{
	if (!c || c != e->tc.saved || c->st.saved_by != e ||
	    c->st.save_seq != e->tc.saved_seq || c->st.mem_new)
		e->tc.gen++;
	e->tc.saved = NULL;	/* until the next save */
	e->st.mem_new = false;
}

void vpmu_engine_mem_written(struct vpmu_engine *e)
{
	e->tc.gen++;
}

/* ---- leaving a translation ------------------------------------------------ */

/*
 * Leave a translation at exit @x, in the slot whose uops start at @base
 * and block counters at @cnt; @pend are the pairs the previous
 * translation left to be written.  Undoes the count of a block cut short
 * but for the microwords that ran, and the toggle of one left before its
 * first (x->untoggle), writes what is known, and returns the microword
 * where the interpreter goes on; the caller gives back x->refund cycles
 * and goes back to the slot of the freeze state before the toggle.
 */
u32 vpmu_tc_leave(struct vpmu_engine *e, struct vpmu_uop *base, u32 *cnt,
		  const struct vpmu_tc_exit *x,
		  const struct vpmu_tc_pairs *pend)
{
	u32 i;

	if (x->blk) {
		const struct vpmu_tc_block *b =
			vpmu_tc_block_at(e->mem.tc_pool, x->blk);

		if (x->counted)
			cnt[b->ctr]--;
		/* an armed chunk's BLOCK_EV took all its block's events */
		if (x->counted && e->tc.ev_gap)
			vpmu_tc_ev_refund(e, b, x->kpos);
		vpmu_tc_apply(base, b, x->kpos, 1);
	}
	/* (the caller goes back to the slot of the freeze state before) */
	e->trig.frozen ^= x->untoggle;
	for (i = 0; pend && i < pend->n; i++)
		if (!(x->wrote & VPMU_TC_REG(pend->p[i].idx)))
			e->mem.R[pend->p[i].idx] = pend->p[i].val;
	if (x->pairs)
		vpmu_tc_write(e->mem.R,
			      (const void *)(e->mem.tc_pool + x->pairs));
	vpmu_latch_maps(e);
	e->tc.stats.exits++;
	/* left at a trigger source: what follows it earns heat */
	e->tc.head_next = e->mem.trig_static[x->upc] != 0;
	return x->upc;
}

/* ---- finding the next translation ------------------------------------------- */

/*
 * Translate the instruction at @key (word @ir) and put it in the cache
 * and its map: the translation's offset in the pool, or 0 if there was
 * no room.  Making room may evict any translation.
 */
static u32 tc_translate(struct vpmu_engine *e, u32 key, u32 ir)
{
	u32 off;

	vpmu_tc_build(e, key, ir);
	off = vpmu_tc_place(e);
	if (off)
		e->mem.tc_map[vpmu_tc_slot(key)] = off;
	return off;
}

/*
 * Link @l, an EOI's data, to translation @tb with the pairs at @pairs
 * (0: none), if the log of links, which eviction combs (tc_forget()),
 * has room for it; false if not.
 */
static bool tc_link_set(struct vpmu_engine *e, struct vpmu_tc_link *l,
			const struct vpmu_tc_trans *tb, u32 pairs)
{
	u32 *pool = e->mem.tc_pool;

	if (e->tc.nlinks == e->mem.tc_words / VPMU_TC_LINK_RATIO)
		return false;
	e->mem.tc_links[e->tc.nlinks++] = (u32)((u32 *)l - pool);
	l->tb = (u32)((const u32 *)tb - pool);
	l->pairs = pairs;
	e->tc.stats.links++;
	return true;
}

/*
 * The pairs of @fin that translation @tb does not write before it reads
 * them: written now, and recorded for the link when @l has none yet.
 */
static void tc_link(struct vpmu_engine *e, struct vpmu_tc_link *l,
		    const struct vpmu_tc_pairs *fin,
		    const struct vpmu_tc_trans *tb)
{
	u32 i, n = 0, off = 0;
	struct vpmu_tc_pairs *p = NULL;

	if (!l->tb) {
		for (i = 0; i < fin->n; i++)
			n += !(tb->kill & VPMU_TC_REG(fin->p[i].idx));
		/* pairs only from free room: eviction here could take l */
		off = n ? vpmu_tc_pool_alloc(e, vpmu_tc_pairs_words(n),
					     VPMU_TC_REC_PAIRS, false) : 0;
		p = off ? (struct vpmu_tc_pairs *)(e->mem.tc_pool + off) : NULL;
		if (p)
			p->n = 0;
		if ((n && !p) || !tc_link_set(e, l, tb, off))
			p = NULL;
	}
	for (i = 0; i < fin->n; i++) {
		if (tb->kill & VPMU_TC_REG(fin->p[i].idx))
			continue;
		e->mem.R[fin->p[i].idx] = fin->p[i].val;
		if (p)
			p->p[p->n++] = fin->p[i];
	}
}

/*
 * At an EOI: the translation for the instruction at @npc (word @ir), found
 * or made; @l is the data of the EOI op of the translation that ends
 * there (NULL: the interpreter's EOI, R[] exact).  With @l, *@pend is
 * then the pairs that translation leaves to be written (those the next
 * one reads first are written now), and the link is made if @l has none.
 * NULL: the interpreter runs the instruction, with R[] exact.
 */
const struct vpmu_tc_trans *vpmu_tc_next(struct vpmu_engine *e,
					 struct vpmu_tc_link *l, u32 npc,
					 u32 ir,
					 const struct vpmu_tc_pairs **pend)
{
	const struct vpmu_tc_pairs *fin = l && l->fin ?
		(const struct vpmu_tc_pairs *)(e->mem.tc_pool + l->fin) : NULL;
	u32 key = npc | e->st.mode;
	const struct vpmu_tc_trans *tb = vpmu_tc_probe(e, key, ir);
	u32 off;

	*pend = NULL;
	if (!tb) {
		/* translated once warm (deferred: later, between runs) */
		if (!vpmu_tc_warm(e, key, ir))
			goto interp;
		e->mem.tc_heat[vpmu_tc_slot(key)] = 0;
		/*
		 * Making room may take the translation that ends here: fin
		 * is written whole first (the latches' maps with it: the
		 * instruction may still go to the interpreter, a "none"),
		 * and this EOI links on a later pass.
		 */
		if (fin) {
			vpmu_tc_write(e->mem.R, fin);
			vpmu_latch_maps(e);
		}
		fin = NULL;
		l = NULL;
		off = tc_translate(e, key, ir);
		if (!off)
			goto interp;
		tb = (const struct vpmu_tc_trans *)(e->mem.tc_pool + off);
	}
	if (tb->none) {
		e->tc.head_next = true;
		goto interp;
	}
	if (l && fin && l->tb) {
		/* linked to another: fin written whole, nothing left pending */
		vpmu_tc_write(e->mem.R, fin);
	} else if (l) {
		if (fin)
			tc_link(e, l, fin, tb);
		else if (!l->tb)
			tc_link_set(e, l, tb, 0);
		*pend = fin;
	}
	return tb;

interp:
	if (fin) {
		vpmu_tc_write(e->mem.R, fin);
		vpmu_latch_maps(e);
	}
	e->mem.R[VPMU_RF_PC] = npc;
	e->mem.R[VPMU_RF_IPC] = npc;
	e->mem.R[VPMU_RF_IR] = ir;
	return NULL;
}

/* ---- the engine's interface ------------------------------------------------- */

/*
 * Deferred translation: up to @max of the instructions the runs found warm,
 * translated and put in the cache, the oldest first; returns how many.
 * Between runs, with interrupts off as a run (it reads the ucode, the
 * routes and the program's memory, and makes room as a run would).
 */
unsigned int vpmu_engine_tc_work(struct vpmu_engine *e, unsigned int max)
{
	struct vpmu_tc *tc = &e->tc;
	unsigned int done = 0;
	u32 key, ir;

	if (!e->uc || !e->mem.tc_pool || tc->off)
		tc->nwant = 0;
	while (tc->nwant && done < max) {
		key = tc->want[0].key;
		ir = tc->want[0].ir;
		tc->nwant--;
		memmove(&tc->want[0], &tc->want[1],
			sizeof(tc->want[0]) * tc->nwant);
		/* warm again if it does not get in */
		e->mem.tc_heat[vpmu_tc_slot(key)] = 0;
		if (vpmu_tc_probe(e, key, ir))
			continue;
		tc_translate(e, key, ir);
		done++;
	}
	return done;
}

void vpmu_engine_tc_defer(struct vpmu_engine *e, bool on)
{
	e->tc.defer = on;
}

void vpmu_engine_tc_yield(struct vpmu_engine *e, bool on)
{
	e->tc.yield = on;
	e->tc.resume.tb = 0;
}

/*
 * A run left before block op @t (too few cycles were left for it, or a
 * checked word changed) at exit @x, the interpreter to go on at @upc, the
 * cycle now @now: it yields there (vpmu_engine_tc_yield()), to enter t
 * next, if it has used cycles and leaving counted nothing of the block
 * (the taken side of a branch counts the branch as it leaves, and its
 * block again when entered).  True if it does.  (After a changed word,
 * entering t compares the words again, and leaves at once.)
 */
bool vpmu_tc_yield(struct vpmu_engine *e, const struct vpmu_tc_op *t,
		   const struct vpmu_tc_exit *x, u32 upc, u64 now)
{
	/* t is the (a | b << 8)th op of its translation, which they follow */
	u32 op = t->a | (u32)t->b << 8;
	const struct vpmu_tc_trans *tb =
		(const struct vpmu_tc_trans *)(t - op) - 1;

	if (x->blk || now <= e->tc.yield_from)
		return false;
	e->tc.resume.tb = (u32)((const u32 *)tb - e->mem.tc_pool);
	e->tc.resume.op = op;
	e->tc.resume.upc = upc;
	e->tc.resume.gen = e->tc.gen;
	e->tc.resume.mode = e->st.mode;
	e->tc.stats.yields++;
	return true;
}

/*
 * The translation the last run yielded at (vpmu_tc_exec()), if this run
 * may enter it there, at its op *@at: the engine is where and as that run
 * left it (the same microword, mode and code generation, the translation
 * still in the pool: evicting it forgets the block to enter).  Asked once
 * either way.
 */
const struct vpmu_tc_trans *vpmu_tc_resume(struct vpmu_engine *e, u32 *at)
{
	const struct vpmu_tc_trans *tb;
	u32 off = e->tc.resume.tb;

	e->tc.resume.tb = 0;
	if (e->tc.resume.upc != e->st.upc || e->tc.resume.gen != e->tc.gen ||
	    e->tc.resume.mode != e->st.mode)
		return NULL;
	tb = (const struct vpmu_tc_trans *)(e->mem.tc_pool + off);
	*at = e->tc.resume.op;
	e->tc.stats.resumed++;
	return tb;
}

void vpmu_engine_tc_enable(struct vpmu_engine *e, bool on)
{
	e->tc.off = !on;
}

void vpmu_engine_tc_stats(const struct vpmu_engine *e,
			  struct vpmu_tc_stats *s)
{
	*s = e->tc.stats;
	s->pool_used = 0;
	if (e->mem.tc_pool)
		s->pool_used = e->tc.wrapped ?
			       e->mem.tc_words - e->tc.tail + e->tc.head :
			       e->tc.head - e->tc.tail;
	s->blocks_used = e->tc.nblocks;
}
