/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vpmu_tc_builder.h - a translation in the making, struct vpmu_tc_builder:
 * what the translator (vpmu_tc_translate.c), which walks the microcode,
 * and the emitter (vpmu_tc_emit.c), which makes its ops, blocks, exits
 * and pairs and lays it out in the pool, share.
 */
#ifndef _VPMU_TC_BUILDER_H
#define _VPMU_TC_BUILDER_H

#include "vpmu_engine_priv.h"

#define VPMU_TC_MAXOPS	512	/* ops in one translation (< 2^16) */
#define VPMU_TC_BLKW		1024	/* words of its block records */
#define VPMU_TC_RECW		4096	/* words of its exits and pairs */
#define VPMU_TC_RELS		1024	/* offsets it holds, to relocate */
#define VPMU_TC_CUTS		64	/* exits inside the current block */

/* the words of an op */
#define VPMU_TC_OPW		(sizeof(struct vpmu_tc_op) / 4)
/* registers a translation knows from its key, and never leaves pending */
#define VPMU_TC_KEYREGS	(VPMU_TC_REG(VPMU_RF_PC) | VPMU_TC_REG(VPMU_RF_IPC) | \
			 VPMU_TC_REG(VPMU_RF_IR))

/* What the translator knows on one path. */
struct vpmu_tc_state {
	u64 known;		/* registers whose value is val[] */
	u64 wrote;		/* registers this path has written */
	u32 insns;		/* instructions on this path so far */
	u32 pairs;		/* its pairs (tc_pairs()), while they hold */
	u64 pairs_skip;		/* ...written without these registers */
	u32 val[VPMU_RF_NREGS];
};

/* A branch on data whose taken side is still to be translated. */
struct vpmu_tc_fork {
	struct vpmu_tc_state st;
	u32 upc;		/* the taken side's first microword */
	u32 op;			/* the branch op */
	u16 br;			/* the branch's microword */
};

/* Where a word holding a recw (or, VPMU_TC_REL_BLK, blkw) offset + 1 is. */
#define VPMU_TC_REL_REC	BIT(31)	/* in recw; else in the ops */
#define VPMU_TC_REL_BLK	BIT(30)	/* a block record's offset */

/* A translation in the making. */
struct vpmu_tc_builder {
	struct vpmu_engine *e;
	const u8 *trig;		/* e->mem.trig_static */
	const struct vpmu_dec *dec;	/* e->uc->dec */
	u64 sink;		/* results to these are discarded: zero, r0 */
	u32 pc, ir, mode;
	u32 words;		/* microwords translated, all paths */
	u32 limit;		/* ...at most */
	u32 msz;		/* its fetches are inside this memory */
	u64 kill, rbw;		/* written on every EOI path; read first */
	bool eoi;		/* a path reached an EOI */
	bool fail;		/* too big: not translatable */
	bool forked;		/* a branch on data: no more instructions */
	u32 nops, nblkw, nrecw, nblk, nrels;
	u32 blk_op;		/* the current block's BLK op... */
	u32 blk_rec;		/* ...and its record (in blkw) */
	u32 blk_room;		/* the entries its record has room for */
	/*
	 * The freeze groups its BLOCK_TGL toggles as its first microword,
	 * blk_tgl_upc, begins (0: a BLOCK)
	 */
	u32 blk_tgl, blk_tgl_upc;
	u32 ncuts;		/* exits in it: refunds set when it closes */
	u32 nst;		/* stores in it: their cycles too */
	u32 nforks;
	u32 nchk;		/* the words it checks */
	/* not cleared for each translation: */
	struct vpmu_tc_checked chk[VPMU_TC_INSNS];
	u32 st_ops[VPMU_TC_CUTS], st_execs[VPMU_TC_CUTS];
	u32 cut[VPMU_TC_CUTS], cut_execs[VPMU_TC_CUTS];
	struct vpmu_tc_op ops[VPMU_TC_MAXOPS];
	u32 blkw[VPMU_TC_BLKW];
	union {			/* records hold a u64 */
		u32 recw[VPMU_TC_RECW];
		u64 recw_align;
	};
	u32 rels[VPMU_TC_RELS];
	struct vpmu_tc_fork fork[VPMU_TC_FORKS];
};

static inline struct vpmu_tc_block *vpmu_tc_block_w(u32 *w, u32 off)
{
	return (struct vpmu_tc_block *)(w + off);
}

static inline struct vpmu_tc_op *vpmu_tc_new_op(struct vpmu_tc_builder *tr,
						unsigned int h)
{
	struct vpmu_tc_op *t;

	if (tr->nops >= VPMU_TC_MAXOPS) {
		tr->fail = true;
		tr->nops = 0;
	}
	t = &tr->ops[tr->nops++];
	memset(t, 0, sizeof(*t));
	t->h = h;
	return t;
}

/* Word @w (of the ops, or with VPMU_TC_REL_REC of recw) holds an offset + 1. */
static inline void vpmu_tc_rel(struct vpmu_tc_builder *tr, u32 w)
{
	if (tr->nrels == VPMU_TC_RELS) {
		tr->fail = true;
		return;
	}
	tr->rels[tr->nrels++] = w;
}

static inline u32 vpmu_tc_op_word(struct vpmu_tc_builder *tr, const void *field)
{
	return (u32)((const u32 *)field - (const u32 *)tr->ops);
}

static inline struct vpmu_tc_block *
vpmu_tc_cur_block(struct vpmu_tc_builder *tr)
{
	return vpmu_tc_block_w(tr->blkw, tr->blk_rec);
}

/* Another entry of the current block. */
static __always_inline void vpmu_tc_count(struct vpmu_tc_builder *tr, u32 ent)
{
	struct vpmu_tc_block *b = vpmu_tc_cur_block(tr);

	if (b->n >= tr->blk_room) {
		tr->fail = true;
		return;
	}
	b->ent[b->n++] = ent;
	tr->ops[tr->blk_op].imm += !(ent & VPMU_TC_BLOCK_TAKEN);
}

/* vpmu_tc_emit.c: the records of a translation, and its layout */
u32 vpmu_tc_emit_pairs(struct vpmu_tc_builder *tr, struct vpmu_tc_state *st,
		       u64 skip);
void vpmu_tc_emit_exit(struct vpmu_tc_builder *tr, struct vpmu_tc_state *st,
		       u32 *slot, u32 upc, bool cut, u32 kpos, u32 execs);
void vpmu_tc_emit_block(struct vpmu_tc_builder *tr, struct vpmu_tc_state *st,
			u32 upc, int tkn);
void vpmu_tc_emit_toggle(struct vpmu_tc_builder *tr, struct vpmu_tc_state *st,
			 u32 upc, u32 fgroups);
void vpmu_tc_close_block(struct vpmu_tc_builder *tr);
u32 vpmu_tc_layout(struct vpmu_tc_builder *tr);
u32 vpmu_tc_emit_none(struct vpmu_engine *e, u32 key, u32 ir);

#endif /* _VPMU_TC_BUILDER_H */
