/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vpmu_tc.h - the translation cache's structures: translations, their
 * ops, blocks, exits and links, in one pool of 32-bit words.  Private to
 * the engine; vpmu_tc_cache.c says why a translation is exact.
 */
#ifndef _VPMU_TC_H
#define _VPMU_TC_H

#include "vpmu_uop.h"

struct vpmu_engine;
struct vpmu_ctx;
struct vpmu_tc;

/*
 * The translation cache (vpmu_tc_cache.c).  A macro instruction at (pc,
 * ir) in one privilege mode is translated once into a *translation*: the
 * microcode path from its ID-table entry with every microword whose
 * inputs are only ir, pc and constants evaluated away, the branches those
 * decide resolved, and the rest left as ops (struct vpmu_tc_op) in *blocks*
 * that each count their executions in one counter per slot; a translation
 * goes on into the instructions that follow while their pc is known (a
 * superblock).  A block's record lists the microwords it stands for, so
 * the fold gives each its executions and taken branches
 * (vpmu_tc_drain()).  Translations, their records and ops live in one
 * pool of 32-bit words, addressed by word offsets (0: none), and are
 * found through a direct-mapped table by pc.
 *
 * The pool is a ring of records, each behind a header of two words (its
 * size and kind): a translation (with its blocks' counters, a u32 per
 * slot each), or the pairs a link writes.  A record that does not fit
 * before the ring's end goes at its start; when the ring is full the
 * oldest records go, a batch at a time (vpmu_tc_evict()), never the
 * whole pool but for a new ucode, new routes or less memory.
 */
#define VPMU_TC_MAP	8192		/* table entries, a power of two */
#ifndef VPMU_TC_WARM
#define VPMU_TC_WARM	4	/* runs of an instruction before it is */
#endif					/* translated (by its table entry) */
#define VPMU_TC_NBLK	256		/* blocks in one translation */
#define VPMU_TC_LINK_RATIO	16	/* pool words a link's log slot */
#define VPMU_TC_WANT	16		/* instructions waiting, deferred */
#define VPMU_TC_MIN_K	256		/* micro-PC histogram sampling more */
					/* often: interpreted */
#define VPMU_TC_PATH	192		/* microwords a translation covers */
#define VPMU_TC_INSNS	16		/* instructions on one of its paths */
#define VPMU_TC_FORKS	8		/* branches on data in one */
#define VPMU_TC_ROOM	40		/* microwords an instruction may need */
#define VPMU_TC_PAIRS	28		/* known registers a record writes */
#define VPMU_TC_EV_MAX	4		/* counters a chunk arms (BLOCK_EV) */
#define VPMU_TC_EV_VECS	64		/* their blocks' counts, distinct */
/* tc_code's bits: a 4-byte word of memory each, 256 KiB (then they wrap) */
#define VPMU_TC_CODE_BITS	(0x40000u / 4)

/*
 * A translation op: 16 bytes, dispatched by handler index (enum vpmu_th)
 * through the loop's jump table in the kernel, as the uops are; on the
 * host by the handler's address in the op, which saves two instructions
 * an op.
 */
struct vpmu_tc_op {
#ifndef __KERNEL__
	const void *hl;	/* the handler's label */
#endif
	u8 h;		/* enum vpmu_th */
	u8 d, a, b;	/* register-file indices; BRF/BRX: b = condition; */
			/* BLOCK: a | b << 8, its index among the ops; */
			/* BLOCK_TGL: the same, d the fgroups it toggles; */
			/* BLOCK_EV: the same, d its counts of the armed */
			/* counters' events, tc.ev_vec[d] (vpmu_tc_ev()) */
	u32 imm;	/* immediate operand; EXT: mask; BLK: cycles */
	union {
		struct {
			/* an exit record; a branch: ops to its taken side */
			u32 x;
			/* BLOCK: counter; loads, stores: the microword; */
			/* DISP_ADD*: mask */
			u32 y;
		};
		/* EOI_KNOWN[_NP] (no exit): the stamp it was chained in */
		struct {
			u32 chain_epoch;
			u32 chain_gen;
		};
		u64 chain;	/* both, as struct vpmu_tc's stamp */
	};
};

/* An EOI_KNOWN's chain when not chained: no engine's stamp */
#define VPMU_TC_UNCHAINED	(~0ull)

/*
 * The data of an EOI op (b: npc is R[a], else npc), in the op slot after
 * it: the path ends; fin is what it leaves known, tb the translation that
 * followed it first and pairs the record of what of fin that one reads
 * before it writes.  (An EOI where the path goes on into the next
 * instruction has no op: that instruction's word is one of the
 * translation's checked words, struct vpmu_tc_checked.)
 */
struct vpmu_tc_link {
	u32 fin;
	u32 tb;
	u32 pairs;
	u32 npc;
};

/* A translation's head; its ops follow (VPMU_TC_OPS()). */
struct vpmu_tc_trans {
	u32 key;	/* pc | mode */
	u32 ir;
	/* registers every path writes before it reads them, to its EOI */
	u64 kill;
	/*
	 * The vpmu_tc_drain() epoch it last counted in, and the code
	 * generation its checked words were last found in: both compared
	 * at once on entry.  VPMU_TC_EV_FIRST in epoch, which the engine's
	 * never has, makes that compare fail while its first block is a
	 * BLOCK_EV (vpmu_tc_ev_trans()), for the slow way looks at the op.
	 */
	union {
		struct {
			u32 epoch;
			u32 gen;
		};
		u64 stamp;
	};
	u16 none;	/* not translatable: run on the interpreter */
	u16 nblk;	/* block records, from blk on */
	u32 blk;
	u32 chk; /* its instructions after the first: nchk words at chk */
	u32 nchk;
};

/* An instruction a translation runs after its first: where, and its word. */
struct vpmu_tc_checked {
	u32 pc;
	u32 word;
};

#define VPMU_TC_OPS(tb)	((const struct vpmu_tc_op *)((tb) + 1))
#define VPMU_TC_EV_FIRST	0x80000000u	/* in its epoch: above */

/* Known registers to write: a path's fin, an exit's state, link pairs. */
struct vpmu_tc_pairs {
	u32 n;
	u32 pad;
	struct vpmu_tc_pair {
		u32 idx, val;
	} p[];
};

/* Write the registers @p lists. */
static inline void vpmu_tc_write(u32 *R, const struct vpmu_tc_pairs *p)
{
	u32 i;

	for (i = 0; i < p->n; i++)
		R[p->p[i].idx] = p->p[i].val;
}

/*
 * An exit: the registers the translation knows and R[] lacks there
 * (pairs) and those it wrote (wrote); the microword where the
 * interpreter goes on; for an exit inside a block, what of the block's
 * count stands (its first kpos entries) and the cycles charged for the
 * rest (refund); and, for one before the first microword of a block that
 * toggled as it began (BLOCK_TGL), the freeze groups to toggle back, so
 * that the interpreter toggles them again as it runs that microword.
 */
struct vpmu_tc_exit {
	u64 wrote;
	u16 upc;
	u16 refund;
	u16 kpos;
	u8 counted;	/* the block's count was taken: undo it */
	u8 untoggle;
	u32 blk;	/* the block's record, or 0 */
	u32 pairs;	/* a struct vpmu_tc_pairs, or 0 */
};

/*
 * A block's record: its counters (the pool offset of the first, a u32
 * per slot); the microwords it stands for, ent[0, n), in the order they
 * run (an exit inside it counts the first few); after them, ent[n, n +
 * nd), the same counts netted for a drain (vpmu_tc_drain()): a run of
 * microwords inside one segment is its head's count up and the count of
 * the microword after it down (vpmu_fold()'s running sums), not two
 * counts a microword.  nd is 0 where the record had no room for them or
 * no drain would use them much (tc_block_net()).
 */
#define VPMU_TC_BLOCK_TAKEN	0x8000	/* entry: a branch it took */
#define VPMU_TC_BLOCK_DOWN	0x4000	/* netted: a count down */
struct vpmu_tc_block {
	u16 n;
	u16 nd;
	u32 ctr;
	u16 ent[];	/* upc, or upc | VPMU_TC_BLOCK_TAKEN or _DOWN */
};

/*
 * A record's header in the pool, the two words before its payload: its
 * words, header included, and its kind.
 */
#define VPMU_TC_HDR		2
#define VPMU_TC_REC_TRANS	1	/* a struct vpmu_tc_trans and all */
#define VPMU_TC_REC_PAIRS	2	/* a link's struct vpmu_tc_pairs */
#define VPMU_TC_REC_PAD		3	/* the ring's end, unused */

struct vpmu_tc_rec {
	u32 words;
	u32 kind;
};

/* A register's bit in a translation's sets of registers. */
#define VPMU_TC_REG(r)	(1ull << (r))

/* The block record at word @off of @w, and the words one of @n takes. */
static inline const struct vpmu_tc_block *vpmu_tc_block_at(const u32 *w,
							   u32 off)
{
	return (const struct vpmu_tc_block *)(w + off);
}

static inline u32 vpmu_tc_block_words(u32 n)
{
	return 2 + (n + 1) / 2;
}

/* The words block record @b takes. */
static inline u32 vpmu_tc_block_size(const struct vpmu_tc_block *b)
{
	return vpmu_tc_block_words(b->n + b->nd);
}

/* The words a struct vpmu_tc_pairs of @n pairs takes. */
static inline u32 vpmu_tc_pairs_words(u32 n)
{
	return 2 + 2 * n;
}

/*
 * The ALU operations with two register operands, each with three ops:
 * both operands registers (RR), a register and an immediate (RI), an
 * immediate and a register (IR).  MOV has one (MOV_RR), EXT and SEXT one
 * each (their field in the op).
 */
#define VPMU_TC_ALU3_LIST(X)						\
	X(ADD) X(SUB) X(AND) X(OR) X(XOR) X(SHL) X(SHR) X(SAR) X(SLT)	\
	X(SLTU) X(MUL) X(MULH) X(MULHSU) X(MULHU) X(DIV) X(DIVU) X(REM)	\
	X(REMU)

/*
 * Every op of a translation, X(name): the ALU operations' (above), the
 * loads and stores, compare and branch (CMP_cond with b a register,
 * CMPI_cond with an immediate), a block's entry (BLOCK; BLOCK_EV where it
 * also counts the events of a counter near its wrap, vpmu_tc_ev()), a branch on the
 * flags (BR_FLAGS) or an external condition (BR_EXT), EOI (EOI_KNOWN:
 * its next pc known and in memory; EOI_KNOWN_NP the same, chained to a
 * translation whose link has no pairs), an ADD's dispatch on data, guarded
 * (DISP_ADD, DISP_ADDI), an exit (EXIT); a DISP_ADDI fused with the load
 * or store of its sum in the op after it (GUARD_<access>, the access's
 * op left as it was: vpmu_tc_place()).  vpmu_tc_exec() has a label for
 * each, VPMU_TC_OP_<name>, and its jump table an entry.
 */
#define VPMU_TC_OP_LIST(X)						\
	X(ADD_RR) X(ADD_RI) X(ADD_IR) X(SUB_RR) X(SUB_RI) X(SUB_IR)	\
	X(AND_RR) X(AND_RI) X(AND_IR) X(OR_RR) X(OR_RI) X(OR_IR)	\
	X(XOR_RR) X(XOR_RI) X(XOR_IR) X(SHL_RR) X(SHL_RI) X(SHL_IR)	\
	X(SHR_RR) X(SHR_RI) X(SHR_IR) X(SAR_RR) X(SAR_RI) X(SAR_IR)	\
	X(SLT_RR) X(SLT_RI) X(SLT_IR) X(SLTU_RR) X(SLTU_RI) X(SLTU_IR)	\
	X(MUL_RR) X(MUL_RI) X(MUL_IR) X(MULH_RR) X(MULH_RI) X(MULH_IR)	\
	X(MULHSU_RR) X(MULHSU_RI) X(MULHSU_IR)				\
	X(MULHU_RR) X(MULHU_RI) X(MULHU_IR)				\
	X(DIV_RR) X(DIV_RI) X(DIV_IR) X(DIVU_RR) X(DIVU_RI) X(DIVU_IR)	\
	X(REM_RR) X(REM_RI) X(REM_IR) X(REMU_RR) X(REMU_RI) X(REMU_IR)	\
	X(MOV_RR) X(EXT) X(SEXT)					\
	X(LB) X(LBU) X(LH) X(LHU) X(LW) X(SB) X(SH) X(SW)		\
	X(CMP_AL) X(CMP_Z) X(CMP_NZ) X(CMP_N) X(CMP_NN) X(CMP_C)	\
	X(CMP_NC) X(CMP_V) X(CMP_NV) X(CMP_LT) X(CMP_GE)		\
	X(CMPI_AL) X(CMPI_Z) X(CMPI_NZ) X(CMPI_N) X(CMPI_NN) X(CMPI_C)	\
	X(CMPI_NC) X(CMPI_V) X(CMPI_NV) X(CMPI_LT) X(CMPI_GE)		\
	X(BLOCK) X(BLOCK_TGL) X(BLOCK_EV)				\
	X(BR_FLAGS) X(BR_EXT) X(EOI) X(EOI_KNOWN) X(EOI_KNOWN_NP)	\
	X(DISP_ADD) X(DISP_ADDI) X(EXIT)				\
	X(GUARD_LB) X(GUARD_LBU) X(GUARD_LH) X(GUARD_LHU) X(GUARD_LW)	\
	X(GUARD_SB) X(GUARD_SH) X(GUARD_SW)

enum vpmu_tc_handler {
#define X(name)	VPMU_TC_OP_##name,
	VPMU_TC_OP_LIST(X)
#undef X
	VPMU_TC_OP_NR
};

/* Is @h an EOI's op, its link in the op slot after it? */
static inline bool vpmu_tc_op_eoi(unsigned int h)
{
	return h == VPMU_TC_OP_EOI || h == VPMU_TC_OP_EOI_KNOWN ||
	       h == VPMU_TC_OP_EOI_KNOWN_NP;
}

/*
 * Where a run of translations leaves the interpreter to go on, and in
 * which slot (the freeze groups its trigger sources toggled).
 */
struct vpmu_tc_ret {
	u32 upc;
	s32 left;
	u8 slot;
	bool yield;	/* the run ends here (vpmu_engine_tc_yield()) */
	bool clock;	/* left is on a new clock: cend is tc.ev_icend */
};

/*
 * vpmu_tc_exec.c: run translations from @tb on, with the interpreter's
 * clock (@left, @cend) and slot (@base), until one leaves, entering @tb
 * at its op @at (0, or a block a run yielded at: vpmu_tc_resume()); with
 * @base NULL, only publish the handlers (e->tlab).
 */
struct vpmu_tc_ret vpmu_tc_exec(struct vpmu_engine *e, struct vpmu_uop *base,
				const struct vpmu_tc_trans *tb, u32 at,
				s32 left, u64 cend);
struct vpmu_tc_ret vpmu_tc_exec_armed(struct vpmu_engine *e,
				      struct vpmu_uop *base,
				      const struct vpmu_tc_trans *tb, u32 at,
				      s32 left, u64 cend);
void vpmu_tc_ev_ran(struct vpmu_tc *tc, u64 t);
bool vpmu_tc_yield(struct vpmu_engine *e, const struct vpmu_tc_op *t,
		   const struct vpmu_tc_exit *x, u32 upc, u64 now);
const struct vpmu_tc_trans *vpmu_tc_resume(struct vpmu_engine *e, u32 *at);

/* vpmu_tc_pool.c: the pool, its records and their counts */
void vpmu_tc_apply(struct vpmu_uop *U, const struct vpmu_tc_block *b, u32 k,
		   u32 n);
void vpmu_tc_touch(struct vpmu_engine *e, const struct vpmu_tc_trans *tb);
void vpmu_tc_drain(struct vpmu_engine *e);
void vpmu_tc_flush(struct vpmu_engine *e);
bool vpmu_tc_ev(struct vpmu_engine *e, u16 mask);
bool vpmu_tc_ev_trans(struct vpmu_engine *e, struct vpmu_tc_trans *tb);
void vpmu_tc_ev_refund(struct vpmu_engine *e, const struct vpmu_tc_block *r,
		       u32 from);
u32 vpmu_tc_pool_alloc(struct vpmu_engine *e, u32 words, u32 kind,
		       bool evict);

/* vpmu_tc_cache.c: the translation cache */
const struct vpmu_tc_trans *vpmu_tc_next(struct vpmu_engine *e,
					 struct vpmu_tc_link *l, u32 npc,
					 u32 ir,
					 const struct vpmu_tc_pairs **pend);
u32 vpmu_tc_leave(struct vpmu_engine *e, struct vpmu_uop *base, u32 *cnt,
		  const struct vpmu_tc_exit *x,
		  const struct vpmu_tc_pairs *pend);
bool vpmu_tc_check(struct vpmu_engine *e, const struct vpmu_tc_trans *tb);
void vpmu_tc_mem(struct vpmu_engine *e, const struct vpmu_ctx *c);

/* vpmu_tc_translate.c, vpmu_tc_emit.c: making translations */
void vpmu_tc_build(struct vpmu_engine *e, u32 key, u32 ir);
u32 vpmu_tc_place(struct vpmu_engine *e);
size_t vpmu_tc_scratch_size(void);

#endif /* _VPMU_TC_H */
