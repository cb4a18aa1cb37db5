// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu_engine.c - the microcoded processor and its PMU hardware.
 *
 * Implements Documentation/vpmu/architecture.rst.  Portable C: built into
 * the module and as host C for tests, benchmarks and fuzzing.
 *
 * How it is fast and still exact
 * -------------------------------
 * Each microword is decoded once into a struct vpmu_uop: a handler address
 * (GCC labels-as-values), pre-resolved register-file indices, the target
 * as a byte offset.  Microwords run in *segments* (see struct vpmu_uop): a
 * run of microwords whose handlers go on to the next one with no check at
 * all, ended by one that continues through a checked entry.  An entry
 * charges the whole segment to the cycle budget and counts one entry in
 * the uop; most microwords therefore cost their operation and an indirect
 * jump.  When fewer cycles remain than a segment has microwords, it runs
 * one microword at a time through the general handlers, so budgets stay
 * exact to the microword.
 *
 * Counters are not touched in the loop.  Every event is linear in three
 * per-microword counts: executions (running sums of segment entries), a
 * memory count (dyn: load misses or store stall cycles) and taken branches
 * (tkn).  The loop runs in chunks; at a chunk's end the counts are folded
 * into the counters (or, when no counter interrupts or freezes on overflow
 * and the histogram unit is off, only when someone reads or changes what
 * they feed, however many runs later: see vpmu_defer_ok() and
 * vpmu_settle()).  Counts must be split by what was counting at the
 * time (privilege mode, freeze bits), so the uop array exists in a few
 * copies ("slots"), one per distinct set of active counters; a mode switch
 * or a trigger toggle moves execution to another copy: a pointer switch,
 * not a fold.
 *
 * A chunk's cycle limit keeps it exact: no event grows by more than one per
 * cycle (CYCLES and WQ_STALL only by a stalling microword's stall), so a
 * chunk of at most (2^width - value - 1) cycles cannot wrap a counter
 * except on its last microword, and only if that microword stalled; the
 * engine remembers the last stalling microword.  When a counter is one
 * event from wrapping, the engine steps one microword at a time, whose
 * identity it then knows (the micro-PC histogram's samples need no steps:
 * the loop takes them, vpmu_uhist_sample()).  Only counters that
 * interrupt or freeze on overflow need this; others just wrap in the
 * fold, which counts their wraps (vpmu_engine_ovf_count()).
 *
 * For every event but CYCLES and WQ_STALL the bound is sharper: it occurs
 * at most once per execution of the microwords it can occur on (tags,
 * UOPS, INSNS, DISPATCH, TRIGGER, STORES on those that have the property;
 * UBR_TAKEN on BRs; DC_HIT and DC_MISS on loads), the control flow puts
 * at least g microwords between two of those (g, the event's gap, is a
 * shortest path over the ucode's flow graph, computed once per ucode and
 * event), and every microword takes a cycle, so a chunk of (r - 1) * g
 * cycles cannot complete the r events left before a wrap.  Without it a
 * counter of a rare event would reach its wrap in many shrinking chunks,
 * each with a fold.
 *
 * The histogram unit (architecture.rst) needs the same exactness per window
 * of its monitoring period: chunks end at window boundaries (vpmu_plan()),
 * so the entries counting are the same for a whole chunk; the fold adds
 * EVENT and UPC entries, which are linear in the per-microword counts
 * like counters; only the last microword of a chunk can stall across the
 * boundary, and its tail cycles are moved to the windows they fall in
 * (vpmu_hu_chunk_end()).  Write-queue occupancy is a step function of
 * time that only changes when a store enters the queue: while a WQ entry
 * is programmed, stores are routed through the trigger hook, which counts
 * the cycles since the last store analytically (vpmu_wq_cycles()).
 *
 * The commonest microword shapes have fused handlers (V_* variants,
 * EXT into latches singly, in pairs and with the following SAR, ADD pc ;
 * EOI, SUB.s zero ; BR).  A fused compare leaves the flags lazy: whoever
 * reads them computes them (FLAGS(), the SYNC pre-handler, vpmu_flags_now()).
 * Microwords that need more than their handler (trigger sources, readers
 * of lazy flags) are routed to a pre-handler when the configuration
 * changes, so the loop pays nothing for them otherwise.  A trigger source
 * whose trigger occurs on every execution (MARK, static events) toggles
 * as it begins, in the loop, moving to the slot of the new freeze state
 * when that slot is in use (through the toggle table, or for a mark, the
 * ADD pc ; EOI shape, in a fused handler that keeps the way in its uop);
 * a dynamic one (taken, hit, miss, stall) runs first and leaves the
 * toggle to vpmu_hook_post().
 */
#include "vpmu_engine_int.h"

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

/* Kept out of the loop's function, whose registers it would cost. */
#ifdef __KERNEL__
#define VPMU_NOINLINE	noinline
#else
#define VPMU_NOINLINE	VPMU_HOST_ATTR(__noinline__)
#endif

#define VPMU_NSLOT	4		/* copies of the uop array */
#define VPMU_IDT	BIT(VPMU_OP_BITS_MAX)	/* ID-table entries */
#define VPMU_NKEYS	32		/* mode (1 bit) x freeze bits (4) */
/* slot_mask: besides the counters, the gated units a slot does not feed */
#define VPMU_SLOT_SHIFT	16		/* VPMU_GATE_* << VPMU_SLOT_SHIFT */
#define VPMU_SLOT_UH	(VPMU_GATE_UHIST << VPMU_SLOT_SHIFT)
#define VPMU_SLOT_HU	(VPMU_GATE_HU << VPMU_SLOT_SHIFT)
#define VPMU_CHUNK_MAX	BIT_ULL(30)	/* keeps uop counts in u32 */
#define VPMU_STEP_BELOW	8		/* chunks shorter than this: step */
/* Event gaps are cached per event: basic events, then tags 1..max. */
#define VPMU_NGAP	(VPMU_EV_NR_BASIC + VPMU_TAG_MAX)
#define VPMU_GAP_NONE	0xffffffffu	/* the event never recurs */

/* Register file: operand codes index it directly. */
#define R_PC		VPMU_OPND_PC
#define R_IR		VPMU_OPND_IR
#define R_IPC		VPMU_OPND_IPC
#define R_DS		VPMU_OPND_DS
#define R_FLAGS		VPMU_OPND_FLAGS
#define R_SINK		47		/* unused code: discarded writes */
#define R_ZERO		VPMU_OPND_ZERO	/* never written: reads 0 */
#define R_NREGS		64		/* operand codes: what a context saves */
#define R_IMM0		64		/* R[R_IMM0 + upc]: B immediate of upc */
#define AT_OFF		(VPMU_OPND_AT_DS - VPMU_OPND_DS)	/* latch -> @ */

/* A trigger or mode hook makes the next segment entry fail (see ENTER). */
#define HOOK_BIAS	0x40000000

/* Commit work beyond "R[xr[d]] = res" (vpmu_uop.pend). */
#define P_SPECIAL	BIT(0)	/* DST is a latch or flags */
#define P_FLAGS		BIT(1)	/* S: write the new flags */
#define P_LOAD		BIT(2)	/* data-cache lookup */
#define P_STORE		BIT(3)	/* memory write + write queue */
#define P_MODE		BIT(4)	/* privilege-mode change */

/* Hooks run after the current microword (vpmu_interp()'s hook). */
#define HOOK_TRIG	BIT(0)
#define HOOK_MODE	BIT(1)

/*
 * trig_static[]: this microword needs vpmu_hook_post() (a dynamic trigger,
 * the histogram unit's write-queue accounting).
 */
#define TRIG_DYN	0x80
/* ...its fast handler ends its segment and needs nothing routed (h_fast). */
#define TRIG_FAST	0x40
#define TRIG_GROUPS	0x0f

/*
 * The toggle table: before each slot's ID table, an s32 per microword,
 * TGL(base, upc), read by a static trigger source (see TRIG in
 * vpmu_interp()).  Nonzero: toggling from this slot goes to the slot
 * TGL_SLOT bytes away (slots are TGL_ALIGN-aligned in one block; 0 when
 * the toggle stays in this slot), flips the freeze groups TGL_GROUPS and
 * runs the fast handler (TRIG_FAST).  0: the general path decides
 * (vpmu_tgl_update()).
 */
#define TGL_ALIGN	64
#define TGL_ROUND(x)	(((x) + TGL_ALIGN - 1) & ~(size_t)(TGL_ALIGN - 1))
#define TGL_GROUPS	TRIG_GROUPS
#define TGL_SLOT	(~(s32)(TGL_ALIGN - 1))
#define TGL(base, upc)							\
	(((const s32 *)(base) - (VPMU_IDT + 1))[-(long)(upc)])

/* vpmu_interp() results. */
enum { X_CHUNK, X_HALT, X_TRAP, X_FAULT };

/*
 * One microword, executable.  Microwords run in *segments*: a segment is
 * a run of microwords whose handlers go on to the next one without
 * any check (vpmu_uop_unchecked()), ended by one that continues through a
 * checked entry (ENTER in vpmu_interp()): a transfer, or anything that
 * can fault, stall, stop or hook.  seg counts the microwords from this one
 * to the end of its segment; an entry charges them all to the cycle
 * budget at once and counts one entry, so falling through costs nothing.
 */
struct vpmu_uop {
	const void *h_label;	/* h_dispatch's label (the host dispatch) */
	u32 cnt;		/* entries here minus early exits (see fold) */
	s32 seg;		/* microwords to the end of the segment */
	u32 dyn;		/* loads: misses; stores: stall cycles */
	u32 tkn;		/* BR: taken */
	u32 imm;		/* EXT: mask; LD/ST: offset; MODE: mode */
	union {
		u32 tgt;	/* TARGET as a byte offset into the slot */
		s32 toggle_dist;	/* H_TPI*: its TGL() slot distance */
	};
	u16 d, a, b;		/* register-file indices; EXT/SEXT: b = shift */
	u16 upc;
	u8 h_dispatch;		/* what runs: h_fast or a pre-handler */
	u8 h_fast;		/* the fast (maybe fused) handler */
	u8 h_general;		/* the general one: routed or run alone */
	u8 mem_fast;		/* load/store: commit at once, 1 NEXT, 2 JUMP */
	u8 seq;			/* sequencer handler index */
	union {
		u8 cond;	/* BR: condition; DISP: width */
		u8 toggle_groups;	/* H_TPI*: the groups it toggles */
	};
	u8 pend;		/* P_* */
	union {
		u8 flag_kind;	/* S: 0 none, 1 logic, 2 add, 3 sub */
		u8 st_size;	/* ST: bytes */
	};
};

/*
 * The semantics of the operations, by their names in VPMU_OP_LIST: an ALU
 * operation's result as an expression of its operands a and b (EXT and
 * SEXT find their field in the uop u), a load's size and its value from
 * the little-endian bytes at p, a store's size.  The operations of
 * signatures NONE (NOP) and I (MODE) have handlers of their own.
 */
#define VPMU_SEM_ADD	a + b
#define VPMU_SEM_SUB	a - b
#define VPMU_SEM_AND	a & b
#define VPMU_SEM_OR	a | b
#define VPMU_SEM_XOR	a ^ b
#define VPMU_SEM_SHL	a << (b & 31)
#define VPMU_SEM_SHR	a >> (b & 31)
#define VPMU_SEM_SAR	(u32)((s32)a >> (b & 31))
#define VPMU_SEM_SLT	(u32)((s32)a < (s32)b)
#define VPMU_SEM_SLTU	(u32)(a < b)
#define VPMU_SEM_MUL	a * b
#define VPMU_SEM_MOV	b
#define VPMU_SEM_EXT	(a >> u->b) & u->imm
#define VPMU_SEM_SEXT	(u32)((s32)(a << u->b) >> u->b)
#define VPMU_SEM_LB	1, (u32)(s32)(s8)p[0]
#define VPMU_SEM_LBU	1, (u32)p[0]
#define VPMU_SEM_LH	2, (u32)(s32)(s16)(p[0] | p[1] << 8)
#define VPMU_SEM_LHU	2, (u32)(p[0] | p[1] << 8)
#define VPMU_SEM_LW	4, vpmu_get_le32(p)
#define VPMU_SEM_SB	1
#define VPMU_SEM_SH	2
#define VPMU_SEM_SW	4

/* RV32M's multiply-high, divide and remainder (VPMU_OP_LIST_MULDIV). */
static inline u32 vpmu_mulh(s64 x, s64 y)
{
	return (u32)((u64)(x * y) >> 32);
}

static inline u32 vpmu_div(u32 a, u32 b)
{
	if (!b)
		return ~0u;
	if (a == 0x80000000u && b == ~0u)
		return a;
	return (u32)((s32)a / (s32)b);
}

static inline u32 vpmu_rem(u32 a, u32 b)
{
	if (!b)
		return a;
	if (a == 0x80000000u && b == ~0u)
		return 0;
	return (u32)((s32)a % (s32)b);
}

#define VPMU_SEM_MULH	vpmu_mulh((s32)a, (s32)b)
#define VPMU_SEM_MULHSU	vpmu_mulh((s32)a, b)
#define VPMU_SEM_MULHU	(u32)(((u64)a * b) >> 32)
#define VPMU_SEM_DIV	vpmu_div(a, b)
#define VPMU_SEM_DIVU	(b ? a / b : ~0u)
#define VPMU_SEM_REM	vpmu_rem(a, b)
#define VPMU_SEM_REMU	(b ? a % b : a)

/*
 * VPMU_OP_LIST (vpmu_isa.h) is the one list of operations.  It feeds the
 * image validator (vpmu_op_info[], vpmu_image.c), the assembler and the
 * disassembler, and here, by signature, three things: the names of the
 * loop's handlers (VPMU_NAMES, for enum vpmu_handler, vpmu_handler_props[]
 * and the loop's jump table), the handlers themselves (VPMU_BODIES, in
 * vpmu_interp()) and each operation's first handler (VPMU_FIRST, for the
 * decoder).  An operation added to the list without semantics above or a
 * handler in the loop does not compile.
 *
 * Handler names: VPMU_H(label, HP_*) each.  An ALU operation has one
 * handler per shape (V_*, in that order), a load or store one, NONE two
 * (going on unchecked or not), I one.
 */
#define VPMU_NAMES(name, code, sig, doc)	VPMU_NAMES_##sig(name)
#define VPMU_NAMES_NONE(n)	VPMU_H(n##_N, HP_FALLS) VPMU_H(n, HP_ENDS)
#define VPMU_NAMES_DAB(n)	VPMU_ALU_NAMES(n)
#define VPMU_NAMES_DB(n)	VPMU_ALU_NAMES(n)
#define VPMU_NAMES_DAF(n)	VPMU_ALU_NAMES(n)
#define VPMU_NAMES_LD(n)	VPMU_H(M_##n, 0)
#define VPMU_NAMES_ST(n)	VPMU_H(M_##n, 0)
#define VPMU_NAMES_I(n)		VPMU_H(n, 0)
#define VPMU_ALU_NAMES(n)						\
	VPMU_H(F_##n, HP_FALLS) VPMU_H(I_##n, HP_FALLS)			\
	VPMU_H(D_##n, HP_FALLS) VPMU_H(N_##n, HP_FALLS)			\
	VPMU_H(L_##n, HP_FALLS) VPMU_H(J_##n, HP_ENDS)			\
	VPMU_H(E_##n, HP_ENDS) VPMU_H(P_##n, HP_ENDS)			\
	VPMU_H(B_##n, HP_ENDS) VPMU_H(G_##n, 0)

/* Handler bodies: VPMU_ALU_BODY(name, expr), _LD(name, size, expr), _ST. */
#define VPMU_BODIES(name, code, sig, doc)				\
	VPMU_BODIES_##sig(name, VPMU_SEM_##name)
#define VPMU_BODIES_NONE(n, sem)
#define VPMU_BODIES_DAB(n, sem)	VPMU_ALU_BODY(n, sem)
#define VPMU_BODIES_DB(n, sem)	VPMU_ALU_BODY(n, sem)
#define VPMU_BODIES_DAF(n, sem)	VPMU_ALU_BODY(n, sem)
#define VPMU_BODIES_LD(n, sem)	VPMU_LD_BODY(n, sem)
#define VPMU_BODIES_ST(n, sem)	VPMU_ST_BODY(n, sem)
#define VPMU_BODIES_I(n, sem)

/* Each operation's first handler: [code] = H_*. */
#define VPMU_FIRST(name, code, sig, doc)				\
	[code] = VPMU_FIRST_##sig(name),
#define VPMU_FIRST_NONE(n)	H_##n
#define VPMU_FIRST_DAB(n)	H_F_##n
#define VPMU_FIRST_DB(n)	H_F_##n
#define VPMU_FIRST_DAF(n)	H_F_##n
#define VPMU_FIRST_LD(n)	H_M_##n
#define VPMU_FIRST_ST(n)	H_M_##n
#define VPMU_FIRST_I(n)		H_##n

/*
 * SUB.s into the sink, then BR on a flag condition: the branch decided from
 * the operands, the flags left for later (lazy: R[R_FLAGS] holds
 * FLAGS_LAZY and the operands are kept).  X(cond, holds), named as in
 * VPMU_COND_LIST.
 */
#define VPMU_CMP_LIST(X)						\
	X(AL,	true)							\
	X(Z,	a == b)							\
	X(NZ,	a != b)							\
	X(N,	(s32)(a - b) < 0)					\
	X(NN,	(s32)(a - b) >= 0)					\
	X(C,	a < b)							\
	X(NC,	a >= b)							\
	X(V,	((a ^ b) & (a ^ (a - b))) >> 31)			\
	X(NV,	!(((a ^ b) & (a ^ (a - b))) >> 31))			\
	X(LT,	(s32)a < (s32)b)					\
	X(GE,	(s32)a >= (s32)b)
#define VPMU_CMP_NAME(name, holds)	VPMU_H(CMP_##name, 0)

#define FLAGS_LAZY	16		/* R[R_FLAGS]: SUB of lz_a, lz_b */

/*
 * Every handler of the loop: those of the operations, the fused shapes
 * of whole microwords (compare and branch, EXTs into latches, ADD pc ;
 * EOI) and the pre-handlers (trigger sources, readers of lazy flags).
 */
#define VPMU_HANDLER_LIST						\
	VPMU_OP_LIST(VPMU_NAMES)					\
	VPMU_CMP_LIST(VPMU_CMP_NAME)					\
	VPMU_H(LEXT, HP_FALLS) VPMU_H(LEXTI, HP_FALLS)			\
	VPMU_H(LEXTI2, HP_FALLS) VPMU_H(LX2S, HP_FALLS)		\
	VPMU_H(PI, HP_ENDS) VPMU_H(PI0, HP_ENDS) VPMU_H(PR0, HP_ENDS)	\
	VPMU_H(TRIG, 0) VPMU_H(TPI, 0) VPMU_H(TPI0, 0) VPMU_H(SYNC, 0)

/* Handler indices (vpmu_uop.h_dispatch, h_fast, h_general). */
enum vpmu_handler {
#define VPMU_H(label, props)	H_##label,
	VPMU_HANDLER_LIST
#undef VPMU_H
	H_NR
};

/*
 * Handler properties.  HP_FALLS: goes on to the next microword unchecked
 * (vpmu_segments()).  HP_ENDS: ends its segment through its own sequencer
 * and needs no pre-handler or memory fast path, so that a trigger source
 * toggled on entry may run it (vpmu_trig_fast()).
 */
#define HP_FALLS	BIT(0)
#define HP_ENDS		BIT(1)

static const u8 vpmu_handler_props[H_NR] = {
#define VPMU_H(label, props)						\
	[H_##label] = props,
	VPMU_HANDLER_LIST
#undef VPMU_H
};

/*
 * ALU handler shapes, in the order of VPMU_ALU_NAMES: the common microword
 * shapes get a fused handler, everything else the general one (G) and a
 * sequencer handler.  F: direct operands, NEXT.  I: direct register and
 * immediate operands, NEXT.  D: any sources, direct destination, NEXT.
 * N: any operands, NEXT.  L: latch destination, direct sources, NEXT (EXT
 * has its own, H_LEXT).  J: any operands, JUMP.  E: any operands, EOI.
 * P: direct operands, pc destination, EOI.  B: any operands, BR on flags
 * (S or not).  None of the fused forms has a special destination (latch
 * or flags) except L, or S except B.
 */
enum { V_F, V_I, V_D, V_N, V_L, V_J, V_E, V_P, V_B, V_G, V_NR };

/*
 * Sequencer handler indices (vpmu_uop.seq): one per VPMU_SEQ_LIST entry,
 * named alike (Q_BR: BR on a flag condition), and BR on an external one.
 */
enum vpmu_seq_handler {
#define VPMU_X(name, code, sig, doc)	Q_##name,
	VPMU_SEQ_LIST(VPMU_X)
#undef VPMU_X
	Q_BRX,
	Q_NR
};

/*
 * The part of a program's architectural state that is not in the register
 * file or the cache tags: what struct vpmu_ctx saves besides those.  The
 * engine runs on its own copy (vpmu_engine.st).
 */
struct vpmu_pstate {
	u32 ustack[VPMU_USTACK_DEPTH];	/* byte offsets */
	u32 sp;
	u8 *mem;
	u32 msz;
	u32 upc;
	unsigned int mode, mode_next;
	bool ext;
	u64 cyc;			/* the program's cycle count */
	bool last_miss;
	u64 wq_last;			/* drain time of the newest entry */
	bool started, sticky;		/* sticky: halted or trapped */
	struct vpmu_stop sticky_stop;
	u32 fault_kind, fault_addr;
};

/* A program's architectural state, off the engine (vpmu_engine_ctx_save()). */
struct vpmu_ctx {
	const struct vpmu_ucode *uc;	/* the ucode it runs under; NULL: none */
	struct vpmu_pstate st;
	u32 R[R_NREGS];			/* registers by operand code */
	u32 dc_tag[VPMU_DC_LINES_MAX];	/* only the ucode's dc_lines used */
};

/*
 * The micro-PC histogram's samples at K > 1, taken in the loop
 * (vpmu_interp()): its left then counts down to the next sample when that
 * comes before the chunk's end, and the entry that fails there takes it
 * (vpmu_uhist_sample()).  Valid during a chunk.
 */
struct vpmu_usample {
	u32 k;			/* K, or 0: none in the loop */
	bool due;		/* left ends at a sample */
	s64 rest;		/* cycles of the chunk after that sample */
	u64 next;		/* the cycle of the next sample */
	u64 *last;		/* the bucket of the last sample taken */
};

struct vpmu_engine {
	const struct vpmu_ucode *uc;
	u32 ncs;
	u32 cs_limit;			/* control store preallocated */
	bool r0zero;

	/* the current program's architectural state */
	struct vpmu_pstate st;
	/* registers by operand code, then immediates: R_IMM0 + cs_limit */
	u32 *R;
	/*
	 * FLAGS_LAZY: the SUB's operands, apart so that the host compiler
	 * does not pair their stores through a vector register.
	 */
	u32 lz_a;
	/* index an operand code names (@: the latch's register) */
	u16 *xr;
	u32 zr;				/* re-zeroed after @ writes: r0 or zero */
	u32 lz_b;

	/* external signals */
	u32 *dc_tag;			/* line + 1; 0 invalid */
	u32 dc_shift, dc_mask, penalty;
	u32 wq_full, wq_drain;		/* (depth - 1) * drain; drain */

	/* executable form: VPMU_NSLOT slots in one block */
	struct vpmu_uop *slot[VPMU_NSLOT];
	void *slot_mem;
	u32 slot_stride;
	u32 op_shift, op_mask;
	const void *const *lab;		/* handler labels */
	u16 condtab[16];		/* flag conditions: bit f holds */

	/* counting */
	u8 key_slot[VPMU_NKEYS];
	u32 slot_mask[VPMU_NSLOT];	/* active counters, VPMU_SLOT_* shut */
	unsigned int nused, cur;
	u64 *tot_cnt, *tot_dyn, *tot_tkn;
	u16 *ctr_hit;			/* counters an upc can feed */
	/*
	 * Freeze groups a trigger source toggles on every execution (MARK,
	 * static events), or TRIG_DYN if one's trigger depends on what the
	 * microword does (vpmu_hook_post() decides).
	 */
	u8 *trig_static;
	u16 *tsrc;			/* microwords with static toggles */
	u32 ntsrc;
	u16 tsrc_groups;		/* bit g: a fast one toggles groups g */
	u8 ctr_cls[VPMU_NR_COUNTERS_MAX];	/* enum vpmu_cls of each */
	u16 plan_mask;			/* enabled: INT or FREEZE_ON_OVF */
	bool dirty;
	struct vpmu_ctr_cfg cfg[VPMU_NR_COUNTERS_MAX];
	u64 ctr[VPMU_NR_COUNTERS_MAX];
	u32 ovf;
	u64 ovf_cnt[VPMU_NR_COUNTERS_MAX];	/* wraps since status clear */
	u32 wrap_pending;
	/*
	 * Cycles run since the counts were last folded out of the slots
	 * (deferred folding, vpmu_defer_ok()); 0: nothing left in them.
	 */
	u64 unfolded;
	unsigned int frozen;
	u16 trig[VPMU_NR_GROUPS_MAX];
	/* start and stop triggers; counters whose wrap is one (plan_mask) */
	u16 trig_on[VPMU_NR_GROUPS_MAX], trig_off[VPMU_NR_GROUPS_MAX];
	u16 ovf_src;
	u32 last_stall_upc;

	/*
	 * Least microwords from one occurrence of a static event to the
	 * next, per event (0: not computed yet); scratch for computing it.
	 */
	u32 gap[VPMU_NGAP];
	u32 *gap_dist, *gap_q;

	/* micro-PC histogram: engine-local clock, not the program's */
	u64 *uhist;
	u32 uhist_k;
	u64 uhist_left;			/* cycles before the next sample */
	struct vpmu_usample us;		/* ...as the loop takes them */
	/* where samples at K > 1 go: uhist, or uh_sink while gated shut */
	u64 *uh_hist, *uh_sink;

	/*
	 * Gating (vpmu_engine_group_gate()): per unit (VPMU_GATE_*), the
	 * freeze groups gating it; units gated with no group (closed); units
	 * gated at all (req); units counting under the freeze bits now
	 * (open: all while none is gated).  Slots count under one state of
	 * each unit (VPMU_SLOT_UH, _HU in slot_mask).
	 */
	u8 gate_grp[2];
	u8 gate_closed, gate_req, gate_open;

	/* the trigger hook */
	struct vpmu_uop *trig_u;
	u32 trig_dyn, trig_tkn;
	unsigned int trig_mode;
	u64 trig_wq;			/* wq_last before a routed microword */
	u32 trig_maddr;			/* its data address, if hu_route */
	u64 hook_now;			/* the hooked microword's last cycle */

	/*
	 * Histogram unit: engine-local clock.  The monitoring period is cut
	 * into windows (runs of cycles with the same entries counting);
	 * chunks end at window ends, so the set is constant in a chunk.
	 */
	struct vpmu_hu_prog hu;		/* hu.n == 0: off */
	u64 hu_c[VPMU_HU_MAX];		/* buckets C1..Cn */
	u32 hu_total;			/* the monitoring period, cycles */
	u64 hu_pos;			/* cycle in it; hu_total: held (once) */
	u32 hu_left;			/* cycles to the window's end */
	u16 *hu_hit;			/* entries an upc can feed (fold) */
	u8 hu_cls[VPMU_HU_MAX];		/* enum vpmu_cls of each */
	u16 hu_fact;			/* counting now, by the fold: EVENT, UPC */
	u16 hu_wact;			/* counting now, by occupancy: WQ */
	u16 hu_mact;			/* counting now, in the hook: addresses */
	bool hu_wq;			/* a WQ entry: stores are routed */
	u8 hu_route;			/* VPMU_K_LOAD, _STORE: routed for it */
	u64 hu_b;			/* program cycle at the window's end */
	u64 hu_acc;			/* occupancy counted up to this cycle */
	u64 hu_w0;			/* wq_last before the last routed store */
};

/* ---- counting ----------------------------------------------------------- */

static inline u64 vpmu_stall_of(const struct vpmu_engine *e,
				const struct vpmu_dec *d, u64 dyn)
{
	if (d->kind & VPMU_K_LOAD)
		return dyn * e->penalty;
	if (d->kind & VPMU_K_STORE)
		return dyn;
	return 0;
}

/*
 * What an event counts on a microword where it can occur at all
 * (vpmu_ev_possible(), which ctr_hit caches per counter): one of these
 * linear forms of the microword's counts, the same on every such microword.
 */
enum vpmu_cls {
	CLS_EXEC,	/* executions: UOPS, INSNS, DISPATCH, TRIGGER, STORES, tags */
	CLS_CYC,	/* executions + stall cycles: CYCLES */
	CLS_TKN,	/* taken: UBR_TAKEN */
	CLS_HIT,	/* executions - misses: DC_HIT */
	CLS_DYN,	/* misses or stall cycles: DC_MISS, WQ_STALL */
	CLS_NR
};

/* Each form's value on a microword: @c executions, @stall, @dy, @tk. */
static inline void vpmu_cls_values(u64 *v, u64 c, u64 stall, u64 dy, u64 tk)
{
	v[CLS_EXEC] = c;
	v[CLS_CYC] = c + stall;
	v[CLS_TKN] = tk;
	v[CLS_HIT] = c - dy;
	v[CLS_DYN] = dy;
}

static u8 vpmu_ev_cls(unsigned int ev)
{
	switch (ev) {
	case VPMU_EV_CYCLES:
		return CLS_CYC;
	case VPMU_EV_UBR_TAKEN:
		return CLS_TKN;
	case VPMU_EV_DC_HIT:
		return CLS_HIT;
	case VPMU_EV_DC_MISS:
	case VPMU_EV_WQ_STALL:
		return CLS_DYN;
	}
	return CLS_EXEC;
}

/*
 * Occurrences of @ev on microword @upc given its executions @c, memory
 * count @dy and taken branches @tk.
 */
static u64 vpmu_ev_count(const struct vpmu_engine *e, unsigned int ev,
			 u32 upc, u64 c, u64 dy, u64 tk)
{
	const struct vpmu_dec *d = &e->uc->dec[upc];

	switch (ev) {
	case VPMU_EV_CYCLES:
		return c + vpmu_stall_of(e, d, dy);
	case VPMU_EV_UOPS:
		return c;
	case VPMU_EV_INSNS:
		return d->kind & VPMU_K_EOI ? c : 0;
	case VPMU_EV_UBR_TAKEN:
		return tk;
	case VPMU_EV_DISPATCH:
		return d->kind & VPMU_K_DISP ? c : 0;
	case VPMU_EV_DC_HIT:
		return d->kind & VPMU_K_LOAD ? c - dy : 0;
	case VPMU_EV_DC_MISS:
		return d->kind & VPMU_K_LOAD ? dy : 0;
	case VPMU_EV_WQ_STALL:
		return d->kind & VPMU_K_STORE ? dy : 0;
	case VPMU_EV_TRIGGER:
		return d->kind & VPMU_K_TRIG ? c : 0;
	case VPMU_EV_STORES:
		return d->kind & VPMU_K_STORE ? c : 0;
	}
	if (ev > VPMU_EV_TAG_BASE && ev <= VPMU_EV_TAG(VPMU_TAG_MAX))
		return vpmu_dec_has_tag(e->uc, d, ev - VPMU_EV_TAG_BASE) ? c : 0;
	return 0;
}

/* Can @ev ever occur on @upc? */
static bool vpmu_ev_possible(const struct vpmu_engine *e, unsigned int ev,
			     u32 upc)
{
	const struct vpmu_dec *d = &e->uc->dec[upc];

	switch (ev) {
	case VPMU_EV_UBR_TAKEN:
		return d->kind & VPMU_K_BR;
	case VPMU_EV_DC_HIT:
	case VPMU_EV_DC_MISS:
		return d->kind & VPMU_K_LOAD;
	case VPMU_EV_WQ_STALL:
		return d->kind & VPMU_K_STORE;
	}
	return vpmu_ev_count(e, ev, upc, 1, 0, 0) != 0;
}

static bool vpmu_ctr_enabled(const struct vpmu_engine *e, unsigned int i)
{
	return e->cfg[i].flags & (VPMU_CTR_USER | VPMU_CTR_SUPER);
}

/* The units (VPMU_GATE_*) counting under the freeze bits @frozen. */
static unsigned int vpmu_gate_open(const struct vpmu_engine *e,
				   unsigned int frozen)
{
	unsigned int u, open = VPMU_GATE_ALL;

	for (u = 0; u < ARRAY_SIZE(e->gate_grp); u++)
		if (e->gate_req >> u & 1 && !(e->gate_grp[u] & ~frozen))
			open &= ~(1u << u);
	return open;
}

/*
 * Counters counting under (mode, frozen), and the gated units shut under
 * it (VPMU_SLOT_*).
 */
static u32 vpmu_active(const struct vpmu_engine *e, unsigned int key)
{
	unsigned int mode = key & 1, frozen = key >> 1, i;
	u32 m = 0;

	for (i = 0; i < VPMU_NR_COUNTERS_MAX; i++) {
		const struct vpmu_ctr_cfg *c = &e->cfg[i];

		if (!(c->flags & (mode ? VPMU_CTR_SUPER : VPMU_CTR_USER)))
			continue;
		if (frozen >> c->group & 1)
			continue;
		m |= 1u << i;
	}
	if (unlikely(e->gate_req))
		m |= (~vpmu_gate_open(e, frozen) & VPMU_GATE_ALL) <<
		     VPMU_SLOT_SHIFT;
	return m;
}

/* ---- histogram unit ---------------------------------------------------- */

/*
 * The window holding cycle hu_pos of the monitoring period: which entries
 * count in it (by the fold, hu_fact, by occupancy, hu_wact, or in the
 * trigger hook, hu_mact) and how many cycles are left of it (hu_left >=
 * 1).  Past the end of a one-shot period (once), none, for ever: the
 * unit holds until it is set or reset.
 */
static void vpmu_hu_window(struct vpmu_engine *e)
{
	const struct vpmu_hu_prog *p = &e->hu;
	u64 pos = e->hu_pos, s = 0, left = 0xffffffffu;
	u16 act = 0, wq = 0, mem = 0;
	unsigned int i;

	if (p->once && pos >= e->hu_total) {
		e->hu_pos = e->hu_total;
		p = NULL;
	}
	for (i = 0; p && i < p->n; i++) {
		const struct vpmu_hu_entry *x = &p->ent[i];

		if (x->kind == VPMU_HU_WQ)
			wq |= 1u << i;
		if (vpmu_hu_is_mem(x->kind))
			mem |= 1u << i;
		if (p->mode == VPMU_HU_SEQ) {
			if (!act && pos < s + x->period) {
				act = 1u << i;
				left = s + x->period - pos;
			}
			s += x->period;
		} else if (pos < x->period) {
			act |= 1u << i;
			if (left > x->period - pos)
				left = x->period - pos;
		}
	}
	e->hu_left = e->hu.n ? (u32)left : 0;
	e->hu_fact = act & ~wq & ~mem;
	e->hu_wact = act & wq;
	e->hu_mact = act & mem;
}

/* @n (<= hu_left) cycles went by: on to the next window at the end. */
static void vpmu_hu_advance(struct vpmu_engine *e, u64 n)
{
	e->hu_left -= n;
	e->hu_pos += n;
	if (e->hu_left)
		return;
	if (e->hu_pos == e->hu_total && !e->hu.once)
		e->hu_pos = 0;
	vpmu_hu_window(e);
}

/* Start the monitoring period over, buckets zeroed. */
static void vpmu_hu_restart(struct vpmu_engine *e)
{
	memset(e->hu_c, 0, sizeof(e->hu_c));
	e->hu_pos = 0;
	vpmu_hu_window(e);
}

/* What an EVENT or UPC entry adds up where it can count (hu_hit). */
static u8 vpmu_hu_cls(const struct vpmu_hu_entry *x)
{
	return x->kind == VPMU_HU_UPC ? CLS_CYC : vpmu_ev_cls(x->event);
}

/* Entries (EVENT, UPC) that can count on microword @upc. */
static u16 vpmu_hu_hit(const struct vpmu_engine *e, u32 upc)
{
	u16 m = 0;
	unsigned int i;

	for (i = 0; i < e->hu.n; i++) {
		const struct vpmu_hu_entry *x = &e->hu.ent[i];

		if (x->kind == VPMU_HU_EVENT ?
		    vpmu_ev_possible(e, x->event, upc) :
		    x->kind == VPMU_HU_UPC && upc >= x->lo && upc <= x->hi)
			m |= 1u << i;
	}
	return m;
}

/*
 * The fold's share: a microword's executions @c, stall cycles @stall,
 * memory count @dy and taken branches @tk to the entries @m it feeds.
 */
static void vpmu_hu_fold(struct vpmu_engine *e, u16 m, u64 c, u64 stall,
			 u64 dy, u64 tk)
{
	u64 v[CLS_NR];

	if (!m)
		return;
	vpmu_cls_values(v, c, stall, dy, tk);
	while (m) {
		unsigned int i = __builtin_ctz(m);

		m &= m - 1;
		e->hu_c[i] += v[e->hu_cls[i]];
	}
}

/*
 * Cycles t in [@a, @b) whose write-queue occupancy is in [@lo, @hi], for a
 * queue whose newest entry drains at @w and with no entry entering in
 * between.  The entries are those whose drain times w - k * drain are
 * > t (see vpmu_wq_is_full()): occupancy(t) = ceil((w - t) / drain) for
 * t < w, else 0.  It is <= hi iff t >= w - hi * drain, and >= lo >= 1 iff
 * t < w - (lo - 1) * drain.
 */
static u64 vpmu_wq_cycles(const struct vpmu_engine *e, u64 w, u64 a, u64 b,
			  u32 lo, u32 hi)
{
	u64 d = e->wq_drain, from, to = ~0ull;

	from = (u64)hi * d >= w ? 0 : w - (u64)hi * d;
	if (lo)
		to = (u64)(lo - 1) * d >= w ? 0 : w - (u64)(lo - 1) * d;
	if (from < a)
		from = a;
	if (to > b)
		to = b;
	return to > from ? to - from : 0;
}

/*
 * Add the cycles in [@a, @b) to the WQ entries in @m (newest drain @w),
 * unless the unit is gated shut for them.
 */
static void vpmu_hu_wq_add(struct vpmu_engine *e, u16 m, u64 w, u64 a, u64 b)
{
	if (!(e->gate_open & VPMU_GATE_HU))
		return;
	while (m) {
		unsigned int i = __builtin_ctz(m);
		const struct vpmu_hu_entry *x = &e->hu.ent[i];

		m &= m - 1;
		e->hu_c[i] += vpmu_wq_cycles(e, w, a, b, x->lo, x->hi);
	}
}

/*
 * A routed store entered the queue in its last cycle, hook_now; the
 * queue's newest drain time was trig_wq before it.  Count the occupancy
 * of the cycles up to it (within the window), on from it at the next.
 */
static void vpmu_hu_store(struct vpmu_engine *e)
{
	u64 enq = e->hook_now;

	e->hu_w0 = e->trig_wq;
	if (e->hu_wact)
		vpmu_hu_wq_add(e, e->hu_wact, e->trig_wq, e->hu_acc,
			       enq < e->hu_b ? enq : e->hu_b);
	e->hu_acc = enq;
}

/*
 * A routed load or store of microword @upc ran (a load with @miss misses),
 * at data address trig_maddr, in the window of its first cycle: add one to
 * the address entries counting now that it satisfies.
 */
static VPMU_NOINLINE void vpmu_hu_mem(struct vpmu_engine *e, unsigned int kind, u32 miss)
{
	u32 a = e->trig_maddr;
	u16 m = e->hu_mact;

	while (m) {
		unsigned int i = __builtin_ctz(m);
		const struct vpmu_hu_entry *x = &e->hu.ent[i];
		bool ld = kind & VPMU_K_LOAD;

		m &= m - 1;
		if (a < x->lo || a > x->hi)
			continue;
		switch (x->kind) {
		case VPMU_HU_LOAD:
			e->hu_c[i] += ld;
			break;
		case VPMU_HU_HIT:
			e->hu_c[i] += ld && !miss;
			break;
		case VPMU_HU_MISS:
			e->hu_c[i] += ld && miss;
			break;
		case VPMU_HU_STORE:
			e->hu_c[i] += !ld;
			break;
		default:
			e->hu_c[i]++;
			break;
		}
	}
}

/* The histogram unit's share of routed microword @upc's hook. */
static void vpmu_hu_hook(struct vpmu_engine *e, u32 upc, u32 miss)
{
	unsigned int kind = e->uc->dec[upc].kind;

	if (e->hu_wq && kind & VPMU_K_STORE)
		vpmu_hu_store(e);
	/* counted under the freeze state its microword runs in */
	if (e->hu_mact && kind & e->hu_route && e->gate_open & VPMU_GATE_HU)
		vpmu_hu_mem(e, kind, miss);
}

/*
 * The cycles [@t, @end) of microword @upc, which fall past the window the
 * chunk ran in (the stall of its last microword), window by window from
 * the next one: per-cycle predicates only, since every other event
 * counted in the window holding the microword's first cycle.  A store's
 * stall cycles come before the cycle in which it enters the queue, its
 * last one (end - 1), so they see the queue before it (hu_w0).
 */
static void vpmu_hu_tail(struct vpmu_engine *e, u32 upc, u64 t, u64 end)
{
	bool store = e->uc->dec[upc].kind & VPMU_K_STORE;
	u64 enq = store ? end - 1 : 0;

	while (t < end) {
		u64 n = end - t < e->hu_left ? end - t : e->hu_left;
		u64 stall = store && enq > t ? (enq - t < n ? enq - t : n) : 0;
		u16 m = e->gate_open & VPMU_GATE_HU ?
			e->hu_fact | e->hu_wact : 0;

		while (m) {
			unsigned int i = __builtin_ctz(m);
			const struct vpmu_hu_entry *x = &e->hu.ent[i];

			m &= m - 1;
			if (x->kind == VPMU_HU_WQ)
				e->hu_c[i] += vpmu_wq_cycles(e, e->hu_w0, t,
							     t + stall, x->lo,
							     x->hi) +
					vpmu_wq_cycles(e, e->st.wq_last,
						       t + stall, t + n,
						       x->lo, x->hi);
			else if (x->kind == VPMU_HU_UPC)
				e->hu_c[i] += upc >= x->lo && upc <= x->hi ?
					      n : 0;
			else if (x->event == VPMU_EV_CYCLES)
				e->hu_c[i] += n;
			else if (x->event == VPMU_EV_WQ_STALL)
				e->hu_c[i] += stall;
		}
		vpmu_hu_advance(e, n);
		t += n;
	}
}

/* Before a chunk starting at program cycle @c1. */
static void vpmu_hu_chunk_begin(struct vpmu_engine *e, u64 c1)
{
	e->hu_b = c1 + e->hu_left;
	e->hu_acc = c1;
}

/*
 * After a chunk that ran from program cycle @c1 and was folded.  The chunk
 * stopped at the window's end unless its last microword stalled across
 * it: then the fold gave that microword's tail cycles to this window, and
 * they are taken back out and given to the windows they fall in.
 */
static void vpmu_hu_chunk_end(struct vpmu_engine *e, u64 c1)
{
	u64 end = e->st.cyc, b = e->hu_b, x;
	u32 upc = e->last_stall_upc;
	bool store;
	u16 m;

	if (e->hu_wact)
		vpmu_hu_wq_add(e, e->hu_wact, e->st.wq_last, e->hu_acc,
			       end < b ? end : b);
	if (end <= b) {
		vpmu_hu_advance(e, end - c1);
		return;
	}
	x = end - b;
	store = e->uc->dec[upc].kind & VPMU_K_STORE;
	/* the fold gave a gated-shut microword nothing to take back */
	m = e->gate_open & VPMU_GATE_HU ? e->hu_fact : 0;
	while (m) {
		unsigned int i = __builtin_ctz(m);
		const struct vpmu_hu_entry *y = &e->hu.ent[i];

		m &= m - 1;
		if (y->kind == VPMU_HU_UPC)
			e->hu_c[i] -= upc >= y->lo && upc <= y->hi ? x : 0;
		else if (y->event == VPMU_EV_CYCLES)
			e->hu_c[i] -= x;
		else if (y->event == VPMU_EV_WQ_STALL && store)
			e->hu_c[i] -= x - 1;
	}
	vpmu_hu_advance(e, b - c1);
	vpmu_hu_tail(e, upc, b, end);
}

/*
 * Add @n to counter @i; returns how many times it wrapped (a narrow
 * counter can wrap many times in one fold), also added to its overflow
 * count.
 */
static u64 vpmu_ctr_add(struct vpmu_engine *e, unsigned int i, u64 n)
{
	unsigned int w = e->cfg[i].width;
	u64 v = e->ctr[i], nv = v + n, wraps;

	if (w >= 64) {
		e->ctr[i] = nv;
		wraps = nv < v;
	} else {
		/* v < 2^w and n < 2^62 (a chunk's worth): nv cannot overflow */
		e->ctr[i] = nv & ((1ull << w) - 1);
		wraps = nv >> w;
	}
	e->ovf_cnt[i] += wraps;
	return wraps;
}

/*
 * Fold the counts of microwords [lo, hi) of every slot in use.  cnt holds
 * segment entries (minus early exits), so a microword's executions are the
 * running sum of cnt from its segment's start; @lo must start a segment or
 * have nothing counted before it in its segment.
 */
static u32 vpmu_fold(struct vpmu_engine *e, u32 lo, u32 hi)
{
	u64 add[VPMU_NR_COUNTERS_MAX], v[CLS_NR];
	u32 wrapped = e->wrap_pending, end;
	/* micro-PC histogram at K = 1, histogram unit: one test for both */
	bool extra = e->uhist_k == 1 || e->hu_fact;
	u16 any = 0;
	unsigned int s, i;
	u32 upc;

	memset(add, 0, sizeof(add));
	for (s = 0; s < e->nused; s++) {
		struct vpmu_uop *U = e->slot[s];
		u16 m = (u16)e->slot_mask[s];
		u32 c = 0;

		for (upc = lo, end = lo; upc < hi; upc++) {
			struct vpmu_uop *x = &U[upc];
			u32 dy, tk;
			u64 stall;
			u16 hm;

			/* c: executions, summed over each segment from its start */
			if (upc == end) {
				end = upc + x->seg;
				c = 0;
			}
			c += x->cnt;
			x->cnt = 0;
			if (!c)
				continue;
			dy = x->dyn;
			tk = x->tkn;
			x->dyn = 0;
			x->tkn = 0;
			e->tot_cnt[upc] += c;
			e->tot_dyn[upc] += dy;
			e->tot_tkn[upc] += tk;
			stall = dy ? vpmu_stall_of(e, &e->uc->dec[upc], dy) : 0;
			/* ...for the units the slot feeds (vpmu_gate_open()) */
			if (unlikely(extra)) {
				u32 sm = e->slot_mask[s];

				if (e->uhist_k == 1 && !(sm & VPMU_SLOT_UH))
					e->uhist[upc] += c + stall;
				if (!(sm & VPMU_SLOT_HU))
					vpmu_hu_fold(e, e->hu_fact &
						     e->hu_hit[upc], c, stall,
						     dy, tk);
			}
			hm = m & e->ctr_hit[upc];
			if (!hm)
				continue;
			any |= hm;
			vpmu_cls_values(v, c, stall, dy, tk);
			while (hm) {
				i = __builtin_ctz(hm);
				hm &= hm - 1;
				add[i] += v[e->ctr_cls[i]];
			}
		}
	}
	while (any) {
		i = __builtin_ctz(any);
		any &= any - 1;
		if (add[i] && vpmu_ctr_add(e, i, add[i]))
			wrapped |= 1u << i;
	}
	e->wrap_pending = 0;
	return wrapped;
}

static void vpmu_slot_reset(struct vpmu_engine *e)
{
	memset(e->key_slot, 0xff, sizeof(e->key_slot));
	e->nused = 0;
}

/*
 * Where a static toggle by groups @g leaves each key of slot @s, or -1 if
 * not known (a key it would reach has no slot yet) or not the same for
 * all of them.
 */
static int vpmu_tgl_dest(const struct vpmu_engine *e, unsigned int s,
			 unsigned int g)
{
	int dest = -1;
	unsigned int k;

	for (k = 0; k < VPMU_NKEYS; k++) {
		u8 t;

		if (e->key_slot[k] != s)
			continue;
		t = e->key_slot[k ^ g << 1];
		if (t == 0xff || (dest >= 0 && dest != t))
			return -1;
		dest = t;
	}
	return dest;
}

/*
 * Rewrite the toggle tables of the slots in use (after a key got a slot):
 * each static trigger source's entry, where its toggle is resolved, and a
 * mark's dispatch (H_TPI*, the entry in the uop, or H_TRIG).
 */
static void vpmu_tgl_update(struct vpmu_engine *e)
{
	unsigned int s, g, i;

	for (s = 0; s < e->nused; s++) {
		s32 *tab = (s32 *)e->slot[s] - VPMU_IDT - 1;
		s32 ent[TRIG_GROUPS + 1];

		for (g = 1; g <= TRIG_GROUPS; g++) {
			int d;

			if (!(e->tsrc_groups >> g & 1))
				continue;	/* no fast source reads it */
			d = vpmu_tgl_dest(e, s, g);

			ent[g] = d < 0 ? 0 :
				 (d - (s32)s) * (s32)e->slot_stride | g;
		}
		for (i = 0; i < e->ntsrc; i++) {
			u32 upc = e->tsrc[i];
			u8 tm = e->trig_static[upc];
			struct vpmu_uop *x = &e->slot[s][upc];
			s32 t = tm & TRIG_FAST ? ent[tm & TRIG_GROUPS] : 0;

			tab[-(s32)upc] = t;
			if (x->h_fast != H_PI && x->h_fast != H_PI0)
				continue;
			/* a mark's shape: resolved, its fused handler runs */
			x->toggle_dist = t & TGL_SLOT;
			x->toggle_groups = t & TGL_GROUPS;
			x->h_dispatch = !t ? H_TRIG : x->h_fast == H_PI ? H_TPI : H_TPI0;
			x->h_label = e->lab[x->h_dispatch];
		}
	}
}

/*
 * The slot that counts under @key.  Slots are shared by keys with the same
 * active counters.  When all are taken, everything is folded first (never
 * while a microword's counts are in flight: callers take them out).
 */
static unsigned int vpmu_slot_get(struct vpmu_engine *e, unsigned int key)
{
	unsigned int s;
	u32 m;

	if (e->key_slot[key] != 0xff)
		return e->key_slot[key];
	m = vpmu_active(e, key);
	for (s = 0; s < e->nused; s++)
		if (e->slot_mask[s] == m)
			goto found;
	if (e->nused == VPMU_NSLOT) {
		e->wrap_pending = vpmu_fold(e, 0, e->ncs);
		vpmu_slot_reset(e);
	}
	s = e->nused++;
	e->slot_mask[s] = m;
found:
	e->key_slot[key] = s;
	if (e->ntsrc)
		vpmu_tgl_update(e);
	return s;
}

/*
 * Fold what deferred runs left in the slots (vpmu_defer_ok()).  Everything
 * that reads the counts (counters, overflow status, totals, the micro-PC
 * histogram at K = 1) or changes what they would feed calls this first,
 * so the deferral is never visible.
 */
static void vpmu_settle(struct vpmu_engine *e)
{
	if (!e->unfolded)
		return;
	e->ovf |= vpmu_fold(e, 0, e->ncs);
	e->unfolded = 0;
}

/*
 * A deferring chunk of @n cycles left its counts in the slots: a uop counts
 * at most one entry a cycle, so u32 holds them while fewer than
 * VPMU_CHUNK_MAX cycles are left unfolded before a chunk (of at most as
 * many) runs.
 */
static void vpmu_defer_add(struct vpmu_engine *e, u64 n)
{
	e->unfolded += n;
	if (e->unfolded >= VPMU_CHUNK_MAX)
		vpmu_settle(e);
}

/* The slot whose uops start at @base (a run's exit: toggles move base). */
static unsigned int vpmu_slot_of(const struct vpmu_engine *e,
				 const struct vpmu_uop *base)
{
	return (unsigned int)(((const char *)base - (const char *)e->slot[0]) /
			      e->slot_stride);
}

static inline unsigned int vpmu_key(unsigned int mode, unsigned int frozen)
{
	return mode | frozen << 1;
}

/*
 * Does @trigger depend on what a microword on which it can occur does
 * (taken or not, hit or miss, stalled or not)?  The others occur on every
 * execution of those microwords.
 */
static bool vpmu_trig_dynamic(u16 trigger)
{
	switch (trigger) {
	case VPMU_EV_CYCLES:
	case VPMU_EV_UBR_TAKEN:
	case VPMU_EV_DC_HIT:
	case VPMU_EV_DC_MISS:
	case VPMU_EV_WQ_STALL:
		return true;
	}
	return false;
}

/* Does @trigger occur on the microword just executed? */
static bool vpmu_trig_occurs(const struct vpmu_engine *e, u16 trigger,
			     u32 upc, u32 ddyn, u32 dtkn)
{
	if (trigger == VPMU_TRIG_MARK)
		return e->uc->dec[upc].kind & VPMU_K_TRIG;
	/* none, or a counter's wrap (vpmu_ovf_trig()) */
	if (trigger >= VPMU_TRIG_OVF(0))
		return false;
	return vpmu_ev_count(e, trigger, upc, 1, ddyn, dtkn) != 0;
}

/*
 * The freeze groups that change on microword @upc: those whose toggle
 * occurs, frozen ones whose start occurs and running ones whose stop
 * does.
 */
static unsigned int vpmu_trig_changes(const struct vpmu_engine *e, u32 upc,
				      u32 ddyn, u32 dtkn)
{
	unsigned int g, ch = 0;

	for (g = 0; g < VPMU_NR_GROUPS_MAX; g++) {
		u16 se = e->frozen >> g & 1 ? e->trig_on[g] : e->trig_off[g];

		if (vpmu_trig_occurs(e, e->trig[g], upc, ddyn, dtkn) ||
		    vpmu_trig_occurs(e, se, upc, ddyn, dtkn))
			ch |= 1u << g;
	}
	return ch;
}

/*
 * The gated units as of the freeze bits now.  Every change of the bits
 * outside a chunk calls this (vpmu_gate_resync()); in a chunk, the
 * toggles of gating groups go through vpmu_gate_post().
 */
static void vpmu_gate_sync(struct vpmu_engine *e)
{
	e->gate_open = vpmu_gate_open(e, e->frozen);
	e->uh_hist = e->gate_open & VPMU_GATE_UHIST ? e->uhist : e->uh_sink;
}

static inline void vpmu_gate_resync(struct vpmu_engine *e)
{
	if (unlikely(e->gate_req))
		vpmu_gate_sync(e);
}

/*
 * Microword @upc (memory count @ddyn) toggled freeze groups to @nf, maybe
 * opening or shutting gated units from its own cycles on (its first: the
 * hooked microword's last, hook_now, less its stall).  The fold splits
 * its counts by slot; here go what is counted by time: samples at K > 1
 * (one taken in its first cycle, before it ran, moves to where that cycle
 * now belongs) and write-queue occupancy up to its first cycle, under the
 * state before it.
 */
static void vpmu_gate_post(struct vpmu_engine *e, u32 upc, u32 ddyn,
			   unsigned int nf)
{
	struct vpmu_usample *us = &e->us;
	unsigned int open = vpmu_gate_open(e, nf);
	u64 first = e->hook_now - vpmu_stall_of(e, &e->uc->dec[upc], ddyn);

	if ((open ^ e->gate_open) & VPMU_GATE_UHIST) {
		u64 *to = open & VPMU_GATE_UHIST ? e->uhist : e->uh_sink;

		if (us->k && us->last && us->next - us->k == first) {
			(*us->last)--;
			us->last = &to[upc];
			(*us->last)++;
		}
		e->uh_hist = to;
	}
	if ((open ^ e->gate_open) & VPMU_GATE_HU && e->hu_wact) {
		vpmu_hu_wq_add(e, e->hu_wact, e->trig_wq, e->hu_acc, first);
		e->hu_acc = first;
	}
	e->gate_open = open;
}

/*
 * After a microword with hooks: toggle freeze groups whose trigger occurred
 * (moving the microword's counts to where they now belong: the toggle takes
 * effect before its events are counted), then apply a mode change.
 */
static void vpmu_hook_post(struct vpmu_engine *e, unsigned int hook)
{
	unsigned int toggles;

	if (hook & HOOK_TRIG) {
		struct vpmu_uop *x = e->trig_u;
		u32 upc = x->upc, ddyn = x->dyn - e->trig_dyn;
		u32 dtkn = x->tkn - e->trig_tkn;

		toggles = vpmu_trig_changes(e, upc, ddyn, dtkn);
		if (unlikely(toggles && e->gate_req))
			vpmu_gate_post(e, upc, ddyn, e->frozen ^ toggles);
		if (unlikely(e->hu_route))
			vpmu_hu_hook(e, upc, ddyn);
		if (toggles) {
			unsigned int s;
			struct vpmu_uop *y;

			x->cnt -= 1;
			x->dyn -= ddyn;
			x->tkn -= dtkn;
			e->frozen ^= toggles;
			s = vpmu_slot_get(e, vpmu_key(e->trig_mode, e->frozen));
			y = &e->slot[s][upc];
			y->cnt += 1;
			y->dyn += ddyn;
			y->tkn += dtkn;
		}
	}
	if (hook & HOOK_MODE)
		e->st.mode = e->st.mode_next;
	e->cur = vpmu_slot_get(e, vpmu_key(e->st.mode, e->frozen));
}

/* ---- external signals --------------------------------------------------- */

/* Look up @addr in the data cache; returns true on a miss (and fills). */
static inline bool vpmu_dc_access(struct vpmu_engine *e, u32 addr)
{
	u32 line = addr >> e->dc_shift;
	u32 *t = &e->dc_tag[line & e->dc_mask];

	if (*t == line + 1)
		return false;
	*t = line + 1;
	return true;
}

/*
 * The write queue needs one number.  Entries drain wq_drain cycles apart
 * from the newest one's drain time back, all those in the queue belonging
 * to one busy period (an entry entering an empty queue drains wq_drain
 * after it enters, the others wq_drain after the one ahead), so at cycle
 * @now the queue holds the entries whose drain times wq_last - k * drain
 * are > @now: it is full iff wq_last > now + (depth - 1) * drain.
 */
static inline bool vpmu_wq_is_full(const struct vpmu_engine *e, u64 now)
{
	return e->st.wq_last > now + e->wq_full;
}

/* A store enters the queue at @now; returns the stall cycles. */
static inline u32 vpmu_wq_store(struct vpmu_engine *e, u64 now)
{
	u64 last = e->st.wq_last;
	u32 stall = 0;

	if (unlikely(last > now + e->wq_full))
		stall = (u32)(last - now - e->wq_full);	/* the oldest drains */
	e->st.wq_last = (last > now ? last : now) + e->wq_drain;
	return stall;
}

static inline void vpmu_mem_store(u8 *p, u32 v, unsigned int size)
{
	p[0] = v;
	if (size >= 2)
		p[1] = v >> 8;
	if (size == 4) {
		p[2] = v >> 16;
		p[3] = v >> 24;
	}
}

static bool vpmu_cond_ext(struct vpmu_engine *e, unsigned int cond, u64 now)
{
	switch (cond) {
	case VPMU_COND_MISS:
		return e->st.last_miss;
	case VPMU_COND_WQF:
		return vpmu_wq_is_full(e, now);
	case VPMU_COND_USER:
		return e->st.mode == VPMU_MODE_USER;
	case VPMU_COND_SUPER:
		return e->st.mode == VPMU_MODE_SUPER;
	default:
		return e->st.ext;
	}
}

/* Write @v to register-file index @w, which is a latch or flags. */
static void vpmu_write_special(struct vpmu_engine *e, unsigned int w, u32 v)
{
	unsigned int k;

	if (w == R_FLAGS) {
		e->R[w] = v & 15;
		return;
	}
	if (w < R_DS || w > R_DS + 2)
		return;
	k = w - R_DS;
	v &= 31;
	e->R[w] = v;
	e->xr[VPMU_OPND_AT_DS + k] = v;
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

	if (pend & P_LOAD) {
		e->st.last_miss = vpmu_dc_access(e, maddr);
		if (e->st.last_miss) {
			u->dyn++;
			stall = e->penalty;
		}
	}
	if (pend & P_STORE) {
		vpmu_mem_store(e->st.mem + maddr, res, u->st_size);
		stall = vpmu_wq_store(e, now);
		u->dyn += stall;
	} else if (pend & P_SPECIAL) {
		vpmu_write_special(e, u->d, res);
	} else {
		e->R[e->xr[u->d]] = res;
		e->R[e->zr] = 0;
	}
	if (pend & P_FLAGS)
		e->R[R_FLAGS] = nfl;
	if (stall)
		e->last_stall_upc = u->upc;
	return stall;
}

static inline u32 vpmu_flags(unsigned int kind, u32 a, u32 b, u32 r)
{
	u32 f = (r ? 0 : VPMU_FLAG_Z) | (r >> 31 ? VPMU_FLAG_N : 0);

	if (kind == 2)
		f |= (r < a ? VPMU_FLAG_C : 0) |
		     (((a ^ r) & (b ^ r)) >> 31 ? VPMU_FLAG_V : 0);
	else if (kind == 3)
		f |= (a < b ? VPMU_FLAG_C : 0) |
		     (((a ^ b) & (a ^ r)) >> 31 ? VPMU_FLAG_V : 0);
	return f;
}

/* The flags, computed if a fused compare left them lazy. */
static u32 vpmu_flags_now(const struct vpmu_engine *e)
{
	u32 f = e->R[R_FLAGS];

	if (f & FLAGS_LAZY)
		f = vpmu_flags(3, e->lz_a, e->lz_b, e->lz_a - e->lz_b);
	return f;
}

static u32 vpmu_flags_sync(struct vpmu_engine *e)
{
	e->R[R_FLAGS] = vpmu_flags_now(e);
	return e->R[R_FLAGS];
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
 * microword (vpmu_image.c) and vpmu_build_uop() made the uops from them,
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
 * first sample.  e->uhist_left is relative to the chunk's start:
 * vpmu_uhist_advance() takes what is due after the last stall.
 */
static __always_inline s32 vpmu_clock_start(struct vpmu_engine *e, s64 L)
{
	struct vpmu_usample *us = &e->us;

	us->k = e->uhist_k > 1 ? e->uhist_k : 0;
	us->due = us->k && e->uhist_left < (u64)L;
	us->rest = us->due ? L - (s64)e->uhist_left : 0;
	us->next = e->st.cyc + e->uhist_left;
	us->last = NULL;
	return us->due ? (s32)e->uhist_left : (s32)L;
}

/* Leaving at cycle @cend + 1 - @left: the cycles used, the next sample. */
static __always_inline void vpmu_clock_stop(struct vpmu_engine *e,
					    u64 cend, s32 left)
{
	if (e->us.k)
		e->uhist_left = e->us.next - e->st.cyc;
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

	e->hook_now = now;
	vpmu_hook_post(e, hook);
	return (struct vpmu_uop *)((char *)e->slot[e->cur] + off);
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
	struct vpmu_usample *us = &e->us;
	s32 l = left;

	do {
		us->last = &e->uh_hist[l < 0 ? e->last_stall_upc :
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
 * (TGL()).  Otherwise it runs with the trigger hook set, for
 * vpmu_hook_post() at the next entry: returns 0.  No hook is pending here
 * (@hook): a hook fails the next entry, and no microword that sets one
 * goes on unchecked.
 */
static __always_inline s32 vpmu_trig_way(struct vpmu_engine *e,
					 const struct vpmu_uop *u,
					 const struct vpmu_uop *base,
					 unsigned int hook)
{
	u32 tm = e->trig_static[u->upc];
	u8 s = tm & TRIG_DYN ? 0xff :
	       e->key_slot[vpmu_key(e->st.mode,
				    e->frozen ^ (tm & TRIG_GROUPS))];

	if (likely(s != 0xff && !hook))
		return (s32)((char *)e->slot[s] - (char *)base) |
		       (tm & TRIG_GROUPS);
	return 0;
}

/* What vpmu_hook_post() needs to know of trigger source @u. */
static __always_inline void vpmu_trig_hook(struct vpmu_engine *e,
					   struct vpmu_uop *u)
{
	e->trig_u = u;
	e->trig_dyn = u->dyn;
	e->trig_tkn = u->tkn;
	e->trig_mode = e->st.mode;
	e->trig_wq = e->st.wq_last;
	if (unlikely(e->hu_route))
		e->trig_maddr = e->R[e->xr[u->a]] + u->imm;
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
	struct vpmu_usample *us = &e->us;

	left += u->seg;
	u->cnt--;
	if (us->last && us->next - us->k == cend + 1 - left) {
		(*us->last)--;
		us->next -= us->k;
	}
	if (u->h_dispatch == H_TRIG && !hook &&
	    !(e->trig_static[u->upc] & TRIG_DYN)) {
		e->frozen ^= e->trig_static[u->upc] & TRIG_GROUPS;
		e->cur = e->key_slot[vpmu_key(e->st.mode, e->frozen)];
	} else {
		e->cur = vpmu_slot_of(e, base);
	}
	vpmu_clock_stop(e, cend, left);
	e->st.upc = u->upc;
	return X_FAULT;
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
	e->cur = vpmu_slot_of(e, base);
	if (hook) {
		e->hook_now = cend - left;
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
#define LEFT()		(hook ? saved_left + left + HOOK_BIAS : left)
#define NOW()		(cend - LEFT())
/* Run @h after this microword: the next entry fails. */
#define SET_HOOK(h)							\
	do {								\
		if (!hook) {						\
			saved_left = left;				\
			left = -HOOK_BIAS;				\
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
#define FETCH_OK(npc)	(((npc) >> 2 | (npc) << 30) < fwords)
/* An access of @size bytes at @x: aligned and inside memory. */
#define MEM_OK(x, size)							\
	((size) == 4 ? FETCH_OK(x) :					\
	 (size) == 2 ? ((x) >> 1 | (x) << 31) < hwords : (x) < msz)
#define AT(code)	R[xr[code]]
#define FLAGS()		(likely(R[R_FLAGS] < FLAGS_LAZY) ? R[R_FLAGS] :	\
			 vpmu_flags_sync(e))
/* Latch @d (R_DS...) takes @v, and its @ operand the register it names. */
#define WRITE_LATCH(d, v)						\
	do {								\
		u32 v_ = (v);						\
		R[d] = v_;						\
		xr[AT_OFF + (d)] = v_;					\
	} while (0)
#define COMMIT()							\
	do {								\
		if (likely(!pend)) {					\
			AT(u->d) = res;					\
			*zp = 0;					\
		} else {						\
			left -= vpmu_commit_slow(e, u, res, nfl, pend,	\
						 maddr, NOW());		\
			if (pend & P_MODE) {				\
				e->st.mode_next = u->imm;		\
				SET_HOOK(HOOK_MODE);			\
			}						\
		}							\
	} while (0)
/* A load's data-cache lookup at maddr: a miss counts in u and stalls. */
#define DC_LOAD()							\
	do {								\
		u32 line_ = maddr >> e->dc_shift;			\
		u32 *t_ = &e->dc_tag[line_ & e->dc_mask];		\
		bool miss_ = *t_ != line_ + 1;				\
		e->st.last_miss = miss_;				\
		if (unlikely(miss_)) {					\
			*t_ = line_ + 1;				\
			u->dyn++;					\
			if (e->penalty) {				\
				left -= e->penalty;			\
				e->last_stall_upc = u->upc;		\
			}						\
		}							\
	} while (0)
/* A store's memory write and its write-queue entry at cycle @now. */
#define ST_NOW(size, now)						\
	do {								\
		u32 st_;						\
		vpmu_mem_store(mem + maddr, res, size);			\
		st_ = vpmu_wq_store(e, now);				\
		if (unlikely(st_)) {					\
			u->dyn += st_;					\
			left -= st_;					\
			e->last_stall_upc = u->upc;			\
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
		R[R_IPC] = (npc);					\
		R[R_IR] = ir_;						\
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
 * A resolved toggle (TGL()): flip the freeze @groups and go to the slot
 * @dist bytes away, u's execution counted there (u stays in the old one).
 */
#define TOGGLE(dist, groups)						\
	do {								\
		s32 d_ = (dist);					\
		u->cnt--;						\
		((struct vpmu_uop *)((char *)u + d_))->cnt++;		\
		e->frozen ^= (groups);					\
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
 * Run microwords while the cycles used in this call are below @L (at most
 * VPMU_CHUNK_MAX).  With @L < 0 only publish the handler table.  Returns
 * X_*; e->st.cyc and e->st.upc are up to date on return.
 */
static int vpmu_interp(struct vpmu_engine *e, s64 L)
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
	u32 *const R = e->R;
	u8 *const mem = e->st.mem;
	const u32 msz = e->st.msz;
	/* fetch at npc is fine iff ror(npc, 2) < fwords */
	const u32 fwords = msz >> 2, hwords = msz >> 1;
	const u16 *const condtab = e->condtab;
	const u32 op_shift = e->op_shift, op_mask = e->op_mask;
	u16 *const xr = e->xr;
	u32 *const zp = &R[e->zr];	/* re-zeroed after @ writes */
	unsigned int pend = 0;
	u32 res = 0, nfl = 0, maddr = 0;
	int ret;

	VPMU_BENCH_SHIFT();
	if (L < 0) {
		e->lab = lab;
		return X_CHUNK;
	}
	left = vpmu_clock_start(e, L);
	cend = e->st.cyc + left - 1;
	base = e->slot[e->cur];
	u = base + e->st.upc;
	ENTER();

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
		u32 a = AT(u->a), b = AT(u->b), w = xr[u->d];		\
		u32 r, npc;						\
		(void)a; (void)b;					\
		r = (expr);						\
		npc = w == R_PC ? r : R[R_PC];				\
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
		R[R_PC] = npc;						\
		EOI_TAIL(npc);						\
	}								\
H_B_##name: {								\
		u32 a = AT(u->a), b = AT(u->b), r;			\
		(void)a; (void)b;					\
		r = (expr);						\
		AT(u->d) = r;						\
		*zp = 0;						\
		if (u->flag_kind)					\
			R[R_FLAGS] = vpmu_flags(u->flag_kind, a, b, r);	\
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
		if (!(pend & P_LOAD))					\
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

	VPMU_OP_LIST(VPMU_BODIES);
#undef VPMU_ALU_BODY
#undef VPMU_LD_BODY
#undef VPMU_ST_BODY

H_NOP_N:
	FALL();
H_NOP:
H_MODE:
	pend = u->pend;
	SEQ();

	/* EXT into a latch; the mask is already cut to 5 bits */
H_LEXT:
	WRITE_LATCH(u->d, (R[u->a] >> u->b) & u->imm);
	FALL();
H_LEXTI:
	WRITE_LATCH(u->d, (R[R_IR] >> u->b) & u->imm);
	FALL();
H_LEXTI2: {
		/* two of them: nothing between them can change ir */
		u32 ir = R[R_IR];

		WRITE_LATCH(u->d, (ir >> u->b) & u->imm);
		WRITE_LATCH(u[1].d, (ir >> u[1].b) & u[1].imm);
		u = (struct vpmu_uop *)((char *)u + 2 * sizeof(*u));
		DISPATCH();
	}
H_LX2S: {
		/* and then SAR of ir by an immediate (an instruction's imm) */
		u32 ir = R[R_IR];

		WRITE_LATCH(u->d, (ir >> u->b) & u->imm);
		WRITE_LATCH(u[1].d, (ir >> u[1].b) & u[1].imm);
		R[u[2].d] = (u32)((s32)ir >> (u[2].imm & 31));
		u = (struct vpmu_uop *)((char *)u + 3 * sizeof(*u));
		DISPATCH();
	}

	/*
	 * ADD pc, pc, #imm ; EOI: PI, and PI0 with the opcode in ir's low
	 * byte; TPI and TPI0, the same for a mark whose toggle is resolved
	 * (vpmu_tgl_update(): the way in the uop), TRIG's fast path fused
	 * in.  A mark toggles only once its fetch is known good, so a fault
	 * has nothing to undo.
	 */
#define VPMU_PI(name, toggle, shift, mask)				\
name : {								\
		u32 npc = R[R_PC] + u->imm;				\
		if (unlikely(!FETCH_OK(npc)))				\
			FAULT(VPMU_FAULT_FETCH, npc);			\
		toggle;							\
		R[R_PC] = npc;						\
		EOI_TAIL_OP(npc, shift, mask);				\
	}
	VPMU_PI(H_PI, (void)0, op_shift, op_mask);
	VPMU_PI(H_PI0, (void)0, 0, 0xff);
	VPMU_PI(H_TPI, TOGGLE(u->toggle_dist, u->toggle_groups), op_shift,
		op_mask);
	VPMU_PI(H_TPI0, TOGGLE(u->toggle_dist, u->toggle_groups), 0, 0xff);
#undef VPMU_PI

	/* ADD pc, pc, register ; EOI, the opcode in ir's low byte */
H_PR0: {
		u32 npc = R[R_PC] + R[u->b];

		if (unlikely(!FETCH_OK(npc)))
			FAULT(VPMU_FAULT_FETCH, npc);
		R[R_PC] = npc;
		EOI_TAIL_OP(npc, 0, 0xff);
	}

	/* SUB.s zero, a, b ; BR cond, target: see VPMU_CMP_LIST */
#define VPMU_X(name, holds)						\
H_CMP_##name : {								\
		u32 a = AT(u->a), b = AT(u->b);				\
		e->lz_a = a;						\
		e->lz_b = b;						\
		R[R_FLAGS] = FLAGS_LAZY;				\
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
		s32 d = TGL(base, u->upc);

		if (likely(d)) {
			TOGGLE(d & TGL_SLOT, d & TGL_GROUPS);
			u = (struct vpmu_uop *)((char *)u + (d & TGL_SLOT));
			goto *lab[u->h_fast];
		}
		d = vpmu_trig_way(e, u, base, hook);
		if (likely(d)) {
			TOGGLE(d & TGL_SLOT, d & TGL_GROUPS);
			u = (struct vpmu_uop *)((char *)u + (d & TGL_SLOT));
			if (e->trig_static[u->upc] & TRIG_FAST)
				goto *lab[u->h_fast];
		} else {
			vpmu_trig_hook(e, u);
			SET_HOOK(HOOK_TRIG);
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
		u32 npc = xr[u->d] == R_PC ? res : R[R_PC];

		if (unlikely(!FETCH_OK(npc)))
			FAULT(VPMU_FAULT_FETCH, npc);
		COMMIT();
		EOI_TAIL(npc);
	}
Q_HALT:
	COMMIT();
	ret = X_HALT;
	goto stop;
Q_TRAP:
	COMMIT();
	ret = X_TRAP;
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
		base = e->slot[e->cur];
		hook = 0;
		ENTER();
	}
	if (e->us.due) {
		s32 d = vpmu_uhist_sample(e, u, left);

		left += d;
		cend += d;
		ENTER();
	}
	if (left <= 0) {
		ret = X_CHUNK;
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

/* ---- preparing a run ---------------------------------------------------- */

/* Does handler @hi go on to the next microword unchecked? */
static bool vpmu_uop_unchecked(unsigned int hi)
{
	return vpmu_handler_props[hi] & HP_FALLS;
}

static u8 vpmu_mfast(const struct vpmu_dec *d, const struct vpmu_uop *x);

/*
 * May trigger source @upc, once toggled, run its fast handler?  Only if
 * that handler ends the segment (the microword ends one as a trigger
 * source: the next is entered and counted) and needs no pre-handler or
 * memory fast path: the fused ALU forms that end with their sequencer.
 */
static bool vpmu_trig_fast(const struct vpmu_engine *e, u32 upc)
{
	const struct vpmu_dec *d = &e->uc->dec[upc];

	if (d->a == VPMU_OPND_FLAGS || d->b == VPMU_OPND_FLAGS)
		return false;
	return vpmu_handler_props[e->slot[0][upc].h_fast] & HP_ENDS;
}

/*
 * A routed microword (a trigger source) runs the trigger hook and then its
 * general handler, which ends its segment; others run their fast handler.
 */
static void vpmu_route(struct vpmu_engine *e, u32 upc, bool route)
{
	const struct vpmu_dec *d = &e->uc->dec[upc];
	bool rdfl = d->a == VPMU_OPND_FLAGS || d->b == VPMU_OPND_FLAGS;
	unsigned int s;

	for (s = 0; s < VPMU_NSLOT; s++) {
		struct vpmu_uop *x = &e->slot[s][upc];

		x->h_dispatch = route ? H_TRIG : rdfl ? H_SYNC : x->h_fast;
		x->mem_fast = route ? 0 : vpmu_mfast(d, x);
		x->h_label = e->lab[x->h_dispatch];
	}
}

/*
 * Pairs of EXTs from ir into latches run as one (H_LEXTI2), and with a
 * SAR of ir by an immediate after them as one (H_LX2S).  Only fast,
 * unrouted handlers are fused, and a fused one never runs alone: a
 * segment run one microword at a time uses the general handlers.
 */
static void vpmu_fuse(struct vpmu_engine *e)
{
	unsigned int s;
	u32 upc;

	for (upc = 0; upc + 1 < e->ncs; upc++) {
		for (s = 0; s < VPMU_NSLOT; s++) {
			struct vpmu_uop *x = &e->slot[s][upc];
			unsigned int h = H_LEXTI2;

			if (x->h_dispatch != H_LEXTI || x[1].h_dispatch != H_LEXTI)
				continue;
			if (upc + 2 < e->ncs && x[2].h_dispatch == H_I_SAR &&
			    x[2].a == R_IR)
				h = H_LX2S;
			x->h_dispatch = h;
			x->h_label = e->lab[h];
		}
	}
}

/* Segment lengths (vpmu_uop.seg), the same in every slot. */
static void vpmu_segments(struct vpmu_engine *e)
{
	struct vpmu_uop *x = e->slot[0];
	unsigned int s;
	u32 upc;

	for (upc = e->ncs; upc-- > 0;) {
		/* the validator lets no microword run off the last word */
		unsigned int h = x[upc].h_dispatch == H_SYNC ? x[upc].h_fast : x[upc].h_dispatch;

		if (vpmu_uop_unchecked(h) && upc + 1 < e->ncs)
			x[upc].seg = x[upc + 1].seg + 1;
		else
			x[upc].seg = 1;
		for (s = 1; s < VPMU_NSLOT; s++)
			e->slot[s][upc].seg = x[upc].seg;
	}
}

/*
 * May a run leave the counts in the uops, between its chunks and after it
 * ends, until vpmu_settle()?  Only if nothing plans chunks by the
 * counters' values (an interrupt or a freeze on overflow) or needs each
 * chunk's counts apart (the histogram unit's windows).  Then a run's end
 * costs no fold: the driver's runs are short chunks of a program, and
 * counts are read far less often than that.
 */
static bool vpmu_defer_ok(const struct vpmu_engine *e)
{
	return !e->hu.n && !e->plan_mask;
}

/*
 * Forget the resolved toggles of @upc, a static source until now (in
 * tsrc[]): it may no longer be one (a toggle turned into a start, say),
 * and only static sources have their entries rewritten
 * (vpmu_tgl_update(), as slots are taken).
 */
static void vpmu_tgl_clear(struct vpmu_engine *e, u32 upc)
{
	unsigned int s;

	for (s = 0; s < VPMU_NSLOT; s++)
		((s32 *)e->slot[s] - VPMU_IDT - 1)[-(s32)upc] = 0;
}

/* Can trigger @t occur on microword @upc? */
static bool vpmu_trig_can(const struct vpmu_engine *e, u16 t, u32 upc)
{
	if (t == VPMU_TRIG_MARK)
		return e->uc->dec[upc].kind & VPMU_K_TRIG;
	if (t >= VPMU_TRIG_OVF(0))
		return false;
	return vpmu_ev_possible(e, t, upc);
}

/*
 * What trigger source microword @upc is (trig_static[]): the groups
 * whose toggle occurs on every execution of it, and TRIG_DYN if a
 * toggle depends on what it does or a start or stop trigger can occur
 * on it (vpmu_hook_post() decides those); 0 if none.
 */
static u8 vpmu_trig_src(const struct vpmu_engine *e, u32 upc)
{
	unsigned int g;
	u8 tm = 0;

	for (g = 0; g < VPMU_NR_GROUPS_MAX; g++) {
		u16 t = e->trig[g];

		/* a gating group's toggles all go through the hook */
		if (vpmu_trig_can(e, t, upc))
			tm |= vpmu_trig_dynamic(t) ||
			      (e->gate_grp[0] | e->gate_grp[1]) >> g & 1 ?
			      TRIG_DYN : 1u << g;
		if (vpmu_trig_can(e, e->trig_on[g], upc) ||
		    vpmu_trig_can(e, e->trig_off[g], upc))
			tm |= TRIG_DYN;
	}
	return tm;
}

/*
 * Any trigger set?  And into ovf_src, the counters whose wrap is one.
 * Inlined: vpmu_prepare() runs at every run's start.
 */
static __always_inline bool vpmu_trig_any(struct vpmu_engine *e)
{
	unsigned int g, k;
	bool any = false;

	e->ovf_src = 0;
	for (g = 0; g < VPMU_NR_GROUPS_MAX; g++) {
		const u16 t[3] = { e->trig[g], e->trig_on[g], e->trig_off[g] };

		for (k = 0; k < 3; k++) {
			if (t[k] != VPMU_TRIG_NONE)
				any = true;
			if (VPMU_TRIG_IS_OVF(t[k]))
				e->ovf_src |= 1u << (t[k] - VPMU_TRIG_OVF(0));
		}
	}
	return any;
}

static void vpmu_prepare(struct vpmu_engine *e)
{
	unsigned int i;
	u32 upc;
	/* triggers change only with dirty set: so does ovf_src */
	bool any_trig = e->dirty && vpmu_trig_any(e);

	if (!e->lab)
		vpmu_interp(e, -1);
	e->plan_mask = 0;
	for (i = 0; i < VPMU_NR_COUNTERS_MAX; i++)
		if (vpmu_ctr_enabled(e, i) &&
		    e->cfg[i].flags & (VPMU_CTR_INT | VPMU_CTR_FREEZE_ON_OVF))
			e->plan_mask |= 1u << i;
	for (i = 0; unlikely(e->ovf_src) && i < VPMU_NR_COUNTERS_MAX; i++)
		if (vpmu_ctr_enabled(e, i) && e->ovf_src >> i & 1)
			e->plan_mask |= 1u << i;
	/*
	 * Counts a deferred run left stay in the slots (which keep their
	 * meaning) while this run defers too.  Everything that changes the
	 * configuration settles first, so dirty finds nothing left.
	 */
	if (e->dirty || !vpmu_defer_ok(e))
		vpmu_settle(e);
	if (e->dirty) {
		for (i = 0; i < e->ntsrc; i++)
			vpmu_tgl_clear(e, e->tsrc[i]);
		e->ntsrc = 0;
		e->tsrc_groups = 0;
		for (upc = 0; upc < e->ncs; upc++) {
			u16 hit = 0;
			bool route = false;
			u8 tm = 0;

			for (i = 0; i < VPMU_NR_COUNTERS_MAX; i++)
				if (vpmu_ctr_enabled(e, i) &&
				    vpmu_ev_possible(e, e->cfg[i].event, upc))
					hit |= 1u << i;
			e->ctr_hit[upc] = hit;
			e->hu_hit[upc] = vpmu_hu_hit(e, upc);
			/*
			 * The histogram unit's WQ entries see every store, its
			 * address entries the loads or stores they look at,
			 * in vpmu_hook_post().
			 */
			if (unlikely(e->hu_route) &&
			    e->uc->dec[upc].kind & e->hu_route) {
				route = true;
				tm = TRIG_DYN;
			}
			if (any_trig && vpmu_trig_src(e, upc)) {
				route = true;
				tm |= vpmu_trig_src(e, upc);
			}
			if (route && vpmu_trig_fast(e, upc))
				tm |= TRIG_FAST;
			e->trig_static[upc] = tm;
			if (!(tm & TRIG_DYN) && tm & TRIG_GROUPS)
				e->tsrc[e->ntsrc++] = upc;
			if (!(tm & TRIG_DYN) && tm & TRIG_FAST)
				e->tsrc_groups |= 1u << (tm & TRIG_GROUPS);
			vpmu_route(e, upc, route);
		}
		vpmu_fuse(e);
		vpmu_segments(e);
		e->dirty = false;
	}
	if (!e->unfolded)
		vpmu_slot_reset(e);
	e->cur = vpmu_slot_get(e, vpmu_key(e->st.mode, e->frozen));
}

/*
 * Does @ev occur at most once per execution of the microwords on which
 * it can occur (vpmu_ev_possible())?  All do but the two that grow by
 * stall cycles.
 */
static bool vpmu_ev_unit(unsigned int ev)
{
	return ev != VPMU_EV_CYCLES && ev != VPMU_EV_WQ_STALL;
}

/* Reach @v at distance @d (breadth-first: the first reach is the least). */
static inline void vpmu_gap_reach(struct vpmu_engine *e, u32 *qt, u32 v,
				  u32 d)
{
	if (e->gap_dist[v] != VPMU_GAP_NONE)
		return;
	e->gap_dist[v] = d;
	e->gap_q[(*qt)++] = v;
}

/*
 * Add the successors of microword @u, at distance @d, to the search.  EOI
 * goes to every ID-table entry and RET to the word after every CALL: all
 * that may follow them, whatever the state.
 */
static void vpmu_gap_succ(struct vpmu_engine *e, u32 *qt, u32 u, u32 d,
			  bool *eoi_done, bool *ret_done)
{
	const struct vpmu_dec *x = &e->uc->dec[u];
	u32 k, n;

	switch (x->seq) {
	case VPMU_SEQ_NEXT:
		vpmu_gap_reach(e, qt, u + 1, d);
		break;
	case VPMU_SEQ_BR:
		vpmu_gap_reach(e, qt, u + 1, d);
		fallthrough;
	case VPMU_SEQ_JUMP:
	case VPMU_SEQ_CALL:
		vpmu_gap_reach(e, qt, x->target, d);
		break;
	case VPMU_SEQ_DISP:
		n = 1u << x->cond;
		for (k = 0; k < n && x->target + k < e->ncs; k++)
			vpmu_gap_reach(e, qt, x->target + k, d);
		break;
	case VPMU_SEQ_EOI:
		if (*eoi_done)
			break;
		*eoi_done = true;
		for (k = 0; k <= e->uc->op_mask; k++)
			vpmu_gap_reach(e, qt, e->uc->idtab[k], d);
		break;
	case VPMU_SEQ_RET:
		if (*ret_done)
			break;
		*ret_done = true;
		for (k = 0; k + 1 < e->ncs; k++)
			if (e->uc->dec[k].seq == VPMU_SEQ_CALL)
				vpmu_gap_reach(e, qt, k + 1, d);
		break;
	}
}

/*
 * The least number of microwords from a microword on which @ev can occur
 * to the next one (a path of the flow graph of the ucode, any length
 * >= 1): 1 for CYCLES and WQ_STALL, VPMU_GAP_NONE if it cannot recur.
 * Searched breadth-first from all its microwords at once.
 */
static u32 vpmu_ev_gap(struct vpmu_engine *e, unsigned int ev)
{
	unsigned int idx = ev < VPMU_EV_NR_BASIC ? ev :
			   VPMU_EV_NR_BASIC + ev - VPMU_EV_TAG_BASE - 1;
	bool eoi_done = false, ret_done = false;
	u32 qh = 0, qt = 0, u, g = VPMU_GAP_NONE;

	if (!vpmu_ev_unit(ev))
		return 1;
	if (e->gap[idx])
		return e->gap[idx];
	for (u = 0; u < e->ncs; u++)
		e->gap_dist[u] = VPMU_GAP_NONE;
	for (u = 0; u < e->ncs; u++)
		if (vpmu_ev_possible(e, ev, u))
			vpmu_gap_succ(e, &qt, u, 1, &eoi_done, &ret_done);
	while (qh < qt) {
		u = e->gap_q[qh++];
		if (vpmu_ev_possible(e, ev, u)) {
			g = e->gap_dist[u];
			break;
		}
		vpmu_gap_succ(e, &qt, u, e->gap_dist[u] + 1, &eoi_done,
			      &ret_done);
	}
	e->gap[idx] = g;
	return g;
}

/*
 * How far the next chunk may go (*L), or whether to step one microword.
 */
static bool vpmu_plan(struct vpmu_engine *e, u64 *L)
{
	unsigned int i, m;
	u32 g;

	if (*L > VPMU_CHUNK_MAX)
		*L = VPMU_CHUNK_MAX;
	/*
	 * Only an interrupt or a freeze needs to know the microword a counter
	 * wraps on; otherwise the fold wraps it (any number of times), sets
	 * its overflow bit and counts the wraps.
	 */
	for (m = e->plan_mask; m; m &= m - 1) {
		const struct vpmu_ctr_cfg *c;
		u64 r;

		i = __builtin_ctz(m);
		c = &e->cfg[i];
		if ((e->frozen >> c->group & 1) &&
		    e->trig[c->group] == VPMU_TRIG_NONE &&
		    e->trig_on[c->group] == VPMU_TRIG_NONE)
			continue;
		if (c->width >= 64)
			r = e->ctr[i] ? -e->ctr[i] : ~0ull;
		else
			r = (1ull << c->width) - e->ctr[i];
		if (r <= 1)
			return true;
		g = vpmu_ev_gap(e, c->event);
		if (g == VPMU_GAP_NONE || r - 1 > *L / g)
			continue;
		if (*L > (r - 1) * g)
			*L = (r - 1) * g;
	}
	/* the histogram unit's window: its entries stay the same in a chunk */
	if (e->hu.n && *L > e->hu_left)
		*L = e->hu_left;
	return *L < VPMU_STEP_BELOW;
}

/*
 * @n cycles went by, the sampled ones (if any) in microword @upc: take the
 * samples due.  The countdown is the engine's, not the program's clock.
 */
static void vpmu_uhist_advance(struct vpmu_engine *e, u64 n, u32 upc)
{
	while (e->uhist_left < n) {
		e->uh_hist[upc]++;
		e->uhist_left += e->uhist_k;
	}
	e->uhist_left -= n;
}

static void vpmu_fill_stop(struct vpmu_engine *e, struct vpmu_stop *stop,
			   int x)
{
	switch (x) {
	case X_HALT:
		stop->reason = VPMU_STOP_HALT;
		break;
	case X_TRAP:
		stop->reason = VPMU_STOP_TRAP;
		stop->code = e->uc->dec[e->st.upc].target;
		break;
	default:
		stop->reason = VPMU_STOP_FAULT;
		stop->code = e->st.fault_kind;
		stop->addr = e->st.fault_addr;
		break;
	}
	stop->upc = e->st.upc;
	stop->ipc = e->R[R_IPC];
}

/*
 * Counters @wr, trigger sources, wrapped (after freeze on overflow took
 * effect): in counter order, the groups whose trigger each is change.
 */
static void vpmu_ovf_trig(struct vpmu_engine *e, u32 wr)
{
	unsigned int g;
	u16 t;

	for (; wr; wr &= wr - 1) {
		t = VPMU_TRIG_OVF(__builtin_ctz(wr));
		for (g = 0; g < VPMU_NR_GROUPS_MAX; g++)
			if (e->trig[g] == t ||
			    (e->frozen >> g & 1 ? e->trig_on[g] :
			     e->trig_off[g]) == t)
				e->frozen ^= 1u << g;
	}
	vpmu_gate_resync(e);
}

/*
 * Counters @wr wrapped in the chunk that ended with @x: those that freeze
 * on overflow freeze their groups; if any interrupts, the run stops with
 * OVERFLOW on the microword @upc (@ipc) they wrapped on, and a HALT or
 * TRAP the chunk also reached waits, sticky, for the next run.  Returns
 * true if the run stops.
 */
static bool vpmu_overflow(struct vpmu_engine *e, u32 wr, int x,
			  struct vpmu_stop *stop, u32 upc, u32 ipc)
{
	unsigned int i;
	u32 irq = 0;

	e->ovf |= wr;
	for (i = 0; i < VPMU_NR_COUNTERS_MAX; i++) {
		if (!(wr >> i & 1))
			continue;
		if (e->cfg[i].flags & VPMU_CTR_FREEZE_ON_OVF) {
			e->frozen |= 1u << e->cfg[i].group;
			vpmu_gate_resync(e);
		}
		if (e->cfg[i].flags & VPMU_CTR_INT)
			irq |= 1u << i;
	}
	if (unlikely(wr & e->ovf_src))
		vpmu_ovf_trig(e, wr & e->ovf_src);
	if (!irq)
		return false;
	if (x == X_HALT || x == X_TRAP) {
		e->st.sticky = true;
		e->st.sticky_stop = *stop;
	}
	memset(stop, 0, sizeof(*stop));
	stop->reason = VPMU_STOP_OVERFLOW;
	stop->upc = upc;
	stop->ipc = ipc;
	stop->ovf = wr;
	return true;
}

/*
 * One chunk of at most @L cycles, as vpmu_plan() cuts it (maybe a single
 * step), folded unless @defer, its cycles given to the micro-PC histogram
 * and the histogram unit.  Returns X_*; *@wr: the counters that wrapped,
 * *@upc and *@ipc: the microword they wrapped on.
 */
static int vpmu_chunk(struct vpmu_engine *e, u64 L, bool defer, u32 *wr,
		      u32 *upc, u32 *ipc)
{
	/* deferring, nothing needs a step */
	bool step = vpmu_plan(e, &L) && !defer;
	u64 c1 = e->st.cyc;
	int x;

	*wr = 0;
	*upc = e->st.upc;
	*ipc = e->R[R_IPC];
	if (e->hu.n)
		vpmu_hu_chunk_begin(e, c1);
	if (step) {
		x = vpmu_interp(e, 1);
		/* one microword; an early exit may sit after it */
		if (!defer)
			*wr = vpmu_fold(e, *upc, *upc + e->slot[0][*upc].seg);
	} else {
		x = vpmu_interp(e, (long)L);
		if (!defer)
			*wr = vpmu_fold(e, 0, e->ncs);
		if (*wr || e->st.cyc - c1 > e->uhist_left) {
			/* only a last, stalling microword can */
			*upc = e->last_stall_upc;
			*ipc = e->R[R_IPC];
		}
	}
	if (defer)
		vpmu_defer_add(e, e->st.cyc - c1);
	if (e->uhist_k > 1)
		vpmu_uhist_advance(e, e->st.cyc - c1, *upc);
	if (e->hu.n)
		vpmu_hu_chunk_end(e, c1);
	return x;
}

enum vpmu_stop_reason vpmu_engine_run(struct vpmu_engine *e, u64 budget,
				      struct vpmu_stop *stop)
{
	u64 c0;
	bool defer;

	memset(stop, 0, sizeof(*stop));
	if (!e->uc || !e->st.started) {
		stop->reason = VPMU_STOP_FAULT;
		stop->code = VPMU_FAULT_NOUCODE;
		return stop->reason;
	}
	if (e->st.sticky) {
		*stop = e->st.sticky_stop;
		stop->cycles = 0;
		return stop->reason;
	}
	vpmu_prepare(e);
	defer = vpmu_defer_ok(e);
	c0 = e->st.cyc;
	for (;;) {
		u64 used = e->st.cyc - c0;
		u32 wr, x_upc, x_ipc;
		int x;

		if (used >= budget) {
			stop->reason = VPMU_STOP_BUDGET;
			stop->upc = e->st.upc;
			stop->ipc = e->R[R_IPC];
			break;
		}
		x = vpmu_chunk(e, budget - used, defer, &wr, &x_upc, &x_ipc);
		if (x == X_HALT || x == X_TRAP || x == X_FAULT)
			vpmu_fill_stop(e, stop, x);
		if (wr && vpmu_overflow(e, wr, x, stop, x_upc, x_ipc))
			break;
		if (x == X_HALT || x == X_TRAP) {
			e->st.sticky = true;
			e->st.sticky_stop = *stop;
			break;
		}
		if (x == X_FAULT)
			break;
		if (defer)
			continue;	/* the slots keep their counts */
		vpmu_slot_reset(e);
		e->cur = vpmu_slot_get(e, vpmu_key(e->st.mode, e->frozen));
	}
	stop->cycles = e->st.cyc - c0;
	return stop->reason;
}

/* ---- lifetime ----------------------------------------------------------- */

static void vpmu_engine_free_arrays(struct vpmu_engine *e)
{
	vpmu_free(e->slot_mem);
	vpmu_free(e->R);
	vpmu_free(e->xr);
	vpmu_free(e->tot_cnt);
	vpmu_free(e->tot_dyn);
	vpmu_free(e->tot_tkn);
	vpmu_free(e->ctr_hit);
	vpmu_free(e->trig_static);
	vpmu_free(e->tsrc);
	vpmu_free(e->hu_hit);
	vpmu_free(e->uhist);
	vpmu_free(e->dc_tag);
	vpmu_free(e->gap_dist);
	vpmu_free(e->gap_q);
}

/*
 * Everything a ucode of up to @cs_limit words needs is allocated here, so
 * that attach, start, save, restore and run never allocate.
 */
struct vpmu_engine *vpmu_engine_create(u32 cs_limit)
{
	struct vpmu_engine *e;
	unsigned int f, g;
	size_t n = cs_limit, tgl_size = TGL_ROUND(sizeof(s32) * n);

	if (!cs_limit || cs_limit > VPMU_CS_MAX)
		return NULL;
	e = vpmu_zalloc(sizeof(*e));
	if (!e)
		return NULL;
	e->cs_limit = cs_limit;
	/*
	 * Each slot: its toggle table, ID table and uops, TGL_ALIGN-aligned,
	 * so that slots are a multiple of TGL_ALIGN bytes apart.
	 */
	e->slot_stride = TGL_ROUND(tgl_size + sizeof(u32) * VPMU_IDT +
				  sizeof(struct vpmu_uop) * n);
	e->slot_mem = vpmu_zalloc((size_t)e->slot_stride * VPMU_NSLOT);
	if (!e->slot_mem)
		goto out_free;
	for (g = 0; g < VPMU_NSLOT; g++)
		e->slot[g] = (struct vpmu_uop *)((char *)e->slot_mem +
						 (size_t)e->slot_stride * g +
						 tgl_size + sizeof(u32) * VPMU_IDT);
	e->R = vpmu_zalloc(sizeof(u32) * (R_IMM0 + n));
	e->xr = vpmu_zalloc(sizeof(u16) * (R_IMM0 + n));
	e->tot_cnt = vpmu_zalloc(sizeof(u64) * n);
	e->tot_dyn = vpmu_zalloc(sizeof(u64) * n);
	e->tot_tkn = vpmu_zalloc(sizeof(u64) * n);
	e->ctr_hit = vpmu_zalloc(sizeof(u16) * n);
	e->trig_static = vpmu_zalloc(n);
	e->tsrc = vpmu_zalloc(sizeof(u16) * n);
	e->hu_hit = vpmu_zalloc(sizeof(u16) * n);
	/* the buckets, then the sink of samples gated shut */
	e->uhist = vpmu_zalloc(sizeof(u64) * 2 * n);
	e->uh_sink = e->uhist ? e->uhist + n : NULL;
	e->uh_hist = e->uhist;
	e->gate_open = VPMU_GATE_ALL;
	e->dc_tag = vpmu_zalloc(sizeof(u32) * VPMU_DC_LINES_MAX);
	e->gap_dist = vpmu_zalloc(sizeof(u32) * n);
	e->gap_q = vpmu_zalloc(sizeof(u32) * n);
	if (!e->R || !e->xr || !e->tot_cnt || !e->tot_dyn ||
	    !e->tot_tkn || !e->ctr_hit || !e->trig_static || !e->tsrc ||
	    !e->hu_hit ||
	    !e->uhist || !e->dc_tag || !e->gap_dist || !e->gap_q)
		goto out_free;

	for (f = 0; f < 16; f++) {
		bool z = f & VPMU_FLAG_Z, n = f & VPMU_FLAG_N;
		bool c = f & VPMU_FLAG_C, v = f & VPMU_FLAG_V;
		bool holds[11] = { true, z, !z, n, !n, c, !c, v, !v,
				   n != v, n == v };

		for (g = 0; g < ARRAY_SIZE(holds); g++)
			if (holds[g])
				e->condtab[g] |= 1u << f;
	}
	for (g = 0; g < VPMU_NR_GROUPS_MAX; g++) {
		e->trig[g] = VPMU_TRIG_NONE;
		e->trig_on[g] = VPMU_TRIG_NONE;
		e->trig_off[g] = VPMU_TRIG_NONE;
	}
	return e;

out_free:
	vpmu_engine_free_arrays(e);
	vpmu_free(e);
	return NULL;
}

void vpmu_engine_destroy(struct vpmu_engine *e)
{
	if (!e)
		return;
	vpmu_engine_free_arrays(e);
	vpmu_free(e);
}

/* Each operation's first handler (an ALU operation's: its F shape). */
static const u8 vpmu_op_handler[VPMU_OP_NR] = {
	VPMU_OP_LIST(VPMU_FIRST)
};

/* The fused compare and branch of each flag condition. */
static const u8 vpmu_cmp_handler[VPMU_COND_NR] = {
#define VPMU_X(name, holds)						\
	[VPMU_COND_##name] = H_CMP_##name,
	VPMU_CMP_LIST(VPMU_X)
#undef VPMU_X
};

static bool vpmu_is_at(unsigned int code);

/* Which ALU handler variant (V_*) fits microword @d (built into @x). */
static unsigned int vpmu_alu_variant(const struct vpmu_engine *e,
				     const struct vpmu_dec *d,
				     const struct vpmu_uop *x)
{
	bool at_src = vpmu_is_at(d->a) ||
		      (d->sig != VPMU_SIG_DAF && vpmu_is_at(d->b));
	bool at = at_src || vpmu_is_at(x->d);
	bool latch = x->d >= R_DS && x->d <= R_DS + 2;
	bool special = x->pend & P_SPECIAL;

	(void)e;
	if (d->seq == VPMU_SEQ_NEXT && !d->s && latch && !at_src)
		return V_L;
	if (special)
		return V_G;
	if (d->seq == VPMU_SEQ_BR && d->cond <= VPMU_COND_GE)
		return V_B;
	if (d->s)
		return V_G;
	switch (d->seq) {
	case VPMU_SEQ_NEXT:
		if (!at && d->b == VPMU_OPND_IMM && d->sig != VPMU_SIG_DAF)
			return V_I;
		if (at)
			return vpmu_is_at(x->d) ? V_N : V_D;
		return V_F;
	case VPMU_SEQ_JUMP:
		return V_J;
	case VPMU_SEQ_EOI:
		return !at && x->d == R_PC ? V_P : V_E;
	}
	return V_G;
}

static const u8 vpmu_seq_handler[VPMU_SEQ_NR] = {
#define VPMU_X(name, code, sig, doc)					\
	[code] = Q_##name,
	VPMU_SEQ_LIST(VPMU_X)
#undef VPMU_X
};

static bool vpmu_is_at(unsigned int code)
{
	return code >= VPMU_OPND_AT_DS && code <= VPMU_OPND_AT_S2;
}

/*
 * A load or store that commits at once and goes on by NEXT (1) or JUMP
 * (2); 0 otherwise, and for trigger sources (vpmu_route()), so that the
 * fast path never runs with a hook pending.
 */
static u8 vpmu_mfast(const struct vpmu_dec *d, const struct vpmu_uop *x)
{
	if ((d->sig != VPMU_SIG_LD && d->sig != VPMU_SIG_ST) || x->pend)
		return 0;
	if (d->seq == VPMU_SEQ_NEXT)
		return 1;
	return d->seq == VPMU_SEQ_JUMP ? 2 : 0;
}

/* The fused handlers for the commonest whole microwords. */
static void vpmu_build_fused(const struct vpmu_engine *e,
			     const struct vpmu_dec *d, struct vpmu_uop *x)
{
	if (d->op == VPMU_OP_SUB && d->s && d->seq == VPMU_SEQ_BR &&
	    d->cond <= VPMU_COND_GE && x->d == R_SINK)
		x->h_fast = vpmu_cmp_handler[d->cond];
	if (d->op == VPMU_OP_ADD && !d->s && d->seq == VPMU_SEQ_EOI &&
	    d->dst == VPMU_OPND_PC && d->a == VPMU_OPND_PC &&
	    d->b == VPMU_OPND_IMM) {
		x->h_fast = !e->op_shift && e->op_mask <= 0xff ? H_PI0 : H_PI;
		x->imm = (u32)d->imm;
	}
	if (x->h_fast == H_P_ADD && d->a == VPMU_OPND_PC &&
	    d->b != VPMU_OPND_IMM && !e->op_shift && e->op_mask <= 0xff)
		x->h_fast = H_PR0;
}

/* Build the executable form of microword @upc. */
static void vpmu_build_uop(struct vpmu_engine *e, u32 upc,
			   struct vpmu_uop *x)
{
	const struct vpmu_dec *d = &e->uc->dec[upc];
	bool has_dst = d->sig == VPMU_SIG_DAB || d->sig == VPMU_SIG_DB ||
		       d->sig == VPMU_SIG_DAF || d->sig == VPMU_SIG_LD;
	/* sequencers that cannot fault: memory effects may happen at once */
	bool seq_safe = d->seq != VPMU_SEQ_EOI && d->seq != VPMU_SEQ_CALL &&
			d->seq != VPMU_SEQ_RET;
	unsigned int len;

	x->upc = upc;
	x->tgt = d->target * sizeof(*x);
	x->cond = d->cond;
	x->seq = vpmu_seq_handler[d->seq];
	if (d->seq == VPMU_SEQ_BR && d->cond > VPMU_COND_GE)
		x->seq = Q_BRX;
	x->a = d->a;
	x->b = d->b;
	if (d->b == VPMU_OPND_IMM) {
		x->b = R_IMM0 + upc;
		e->R[R_IMM0 + upc] = (u32)d->imm;
	}
	x->d = R_SINK;
	if (has_dst && d->dst != VPMU_OPND_ZERO &&
	    !(d->dst == VPMU_OPND_R0 && e->r0zero))
		x->d = d->dst;
	if (has_dst && d->dst >= R_DS && d->dst <= R_FLAGS)
		x->pend |= P_SPECIAL;
	if (d->s) {
		x->pend |= P_FLAGS;
		x->flag_kind = d->op == VPMU_OP_ADD ? 2 : d->op == VPMU_OP_SUB ? 3 : 1;
	}
	switch (d->sig) {
	case VPMU_SIG_NONE:
		/* a NOP: its _N twin, just before it, goes on unchecked */
		x->h_general = vpmu_op_handler[d->op];
		x->h_fast = x->h_general - (d->seq == VPMU_SEQ_NEXT);
		break;
	case VPMU_SIG_DAB:
	case VPMU_SIG_DB:
	case VPMU_SIG_DAF:
		x->h_general = vpmu_op_handler[d->op] + V_G;
		x->h_fast = vpmu_op_handler[d->op] + vpmu_alu_variant(e, d, x);
		if (x->h_fast == vpmu_op_handler[d->op] + V_I)
			x->imm = (u32)d->imm;
		if (d->op == VPMU_OP_EXT) {
			len = VPMU_EXT_LEN(d->uimm);
			x->b = VPMU_EXT_POS(d->uimm);
			x->imm = len == 32 ? ~0u : (1u << len) - 1;
			if (x->h_fast == vpmu_op_handler[d->op] + V_L) {
				x->h_fast = d->a == VPMU_OPND_IR ? H_LEXTI : H_LEXT;
				x->imm &= 31;
			}
		} else if (d->op == VPMU_OP_SEXT) {
			x->b = 31 - d->uimm;
		}
		vpmu_build_fused(e, d, x);
		break;
	case VPMU_SIG_LD:
		x->h_fast = vpmu_op_handler[d->op];
		x->imm = (u32)d->imm;
		if (!seq_safe)
			x->pend |= P_LOAD;
		break;
	case VPMU_SIG_ST:
		x->h_fast = vpmu_op_handler[d->op];
		x->imm = (u32)d->imm;
		if (!seq_safe)
			x->pend |= P_STORE;
		x->st_size = d->op == VPMU_OP_SB ? 1 : d->op == VPMU_OP_SH ? 2 : 4;
		break;
	case VPMU_SIG_I:
		x->h_fast = vpmu_op_handler[d->op];
		x->imm = d->uimm;
		x->pend |= P_MODE;
		break;
	}
	if (d->sig == VPMU_SIG_LD || d->sig == VPMU_SIG_ST ||
	    d->sig == VPMU_SIG_I)
		x->h_general = x->h_fast;
	x->h_dispatch = x->h_fast;
	x->mem_fast = vpmu_mfast(d, x);
}

/*
 * Point @ds @s1 @s2 at the registers the latches name.  With R0_ZERO, r0
 * is read from R[0], which only @ writes can reach and which they zero
 * again at once (zr); direct writes of r0 go to the sink.
 */
static void vpmu_latch_maps(struct vpmu_engine *e)
{
	unsigned int k;

	for (k = 0; k < 3; k++)
		e->xr[VPMU_OPND_AT_DS + k] = e->R[R_DS + k] & 31;
}

int vpmu_engine_attach(struct vpmu_engine *e, const struct vpmu_ucode *uc)
{
	u32 n = uc->cs_words, nid = uc->op_mask + 1, i;
	unsigned int s;

	if (n > e->cs_limit)
		return -EFBIG;
	if (uc->hdr.dc_lines > VPMU_DC_LINES_MAX ||
	    nid > 1u << VPMU_OP_BITS_MAX)
		return -EINVAL;

	vpmu_settle(e);		/* into the counters, before the totals go */
	e->uc = uc;
	e->ncs = n;
	e->st.started = false;
	e->r0zero = uc->hdr.flags & VPMU_IMG_F_R0_ZERO;
	e->dc_shift = __builtin_ctz(uc->hdr.dc_line_size);
	e->dc_mask = uc->hdr.dc_lines - 1;
	e->penalty = uc->hdr.dc_miss_penalty;
	e->wq_full = (uc->hdr.wq_depth - 1) * uc->hdr.wq_drain;
	e->wq_drain = uc->hdr.wq_drain;
	for (i = 0; i < R_IMM0 + n; i++)
		e->xr[i] = i;
	e->zr = e->r0zero ? VPMU_OPND_R0 : R_ZERO;
	e->R[e->zr] = 0;
	vpmu_latch_maps(e);
	e->op_shift = uc->op_shift;
	e->op_mask = uc->op_mask;
	memset(e->slot[0], 0, sizeof(struct vpmu_uop) * n);
	for (i = 0; i < n; i++)
		vpmu_build_uop(e, i, &e->slot[0][i]);
	for (s = 1; s < VPMU_NSLOT; s++)
		memcpy(e->slot[s], e->slot[0], sizeof(struct vpmu_uop) * n);
	/*
	 * Every slot's ID table, repeated over all VPMU_IDT entries so that
	 * any index (ir & 0xff in PI0) is the opcode's entry.
	 */
	for (s = 0; s < VPMU_NSLOT; s++) {
		u32 *idt = (u32 *)e->slot[s] - VPMU_IDT;

		for (i = 0; i < VPMU_IDT; i++)
			idt[i] = uc->idtab[i & uc->op_mask] *
				 sizeof(struct vpmu_uop);
	}
	/* per-ucode counts restart; the PMU's configuration stays */
	memset(e->tot_cnt, 0, sizeof(u64) * n);
	memset(e->tot_dyn, 0, sizeof(u64) * n);
	memset(e->tot_tkn, 0, sizeof(u64) * n);
	memset(e->uhist, 0, sizeof(u64) * n);
	memset(e->gap, 0, sizeof(e->gap));
	e->uhist_left = e->uhist_k ? e->uhist_k - 1 : 0;
	vpmu_hu_restart(e);
	e->dirty = true;
	return 0;
}

void vpmu_engine_start(struct vpmu_engine *e, u8 *mem, u32 mem_size,
		       u32 entry, unsigned int mode)
{
	bool ext;
	u32 ir;

	if (!e->uc)
		return;
	vpmu_settle(e);
	memset(e->R, 0, sizeof(u32) * R_NREGS);
	memset(e->tot_cnt, 0, sizeof(u64) * e->ncs);
	memset(e->tot_dyn, 0, sizeof(u64) * e->ncs);
	memset(e->tot_tkn, 0, sizeof(u64) * e->ncs);
	memset(e->dc_tag, 0, sizeof(u32) * (e->dc_mask + 1));
	ext = e->st.ext;
	memset(&e->st, 0, sizeof(e->st));
	e->st.ext = ext;
	vpmu_latch_maps(e);
	e->st.mem = mem;
	e->st.msz = mem_size;
	e->st.mode = mode ? VPMU_MODE_SUPER : VPMU_MODE_USER;
	e->st.mode_next = e->st.mode;
	e->st.started = true;
	e->R[R_PC] = entry;
	e->R[R_IPC] = entry;
	if ((entry & 3) || mem_size < 4 || entry > mem_size - 4) {
		e->st.sticky = true;
		e->st.sticky_stop.reason = VPMU_STOP_FAULT;
		e->st.sticky_stop.code = VPMU_FAULT_FETCH;
		e->st.sticky_stop.addr = entry;
		e->st.sticky_stop.ipc = entry;
		return;
	}
	ir = vpmu_get_le32(mem + entry);
	e->R[R_IR] = ir;
	e->st.upc = e->uc->idtab[(ir >> e->uc->op_shift) & e->uc->op_mask];
}

/* ---- program contexts ---------------------------------------------------- */

struct vpmu_ctx *vpmu_ctx_create(void)
{
	return vpmu_zalloc(sizeof(struct vpmu_ctx));
}

void vpmu_ctx_destroy(struct vpmu_ctx *c)
{
	vpmu_free(c);
}

void vpmu_engine_ctx_save(struct vpmu_engine *e, struct vpmu_ctx *c)
{
	vpmu_flags_sync(e);
	c->uc = e->st.started ? e->uc : NULL;
	c->st = e->st;
	memcpy(c->R, e->R, sizeof(c->R));
	if (e->uc)
		memcpy(c->dc_tag, e->dc_tag, sizeof(u32) * (e->dc_mask + 1));
}

int vpmu_engine_ctx_restore(struct vpmu_engine *e, const struct vpmu_ctx *c)
{
	if (!c->uc || c->uc != e->uc)
		return -ESTALE;
	e->st = c->st;
	memcpy(e->R, c->R, sizeof(c->R));
	memcpy(e->dc_tag, c->dc_tag, sizeof(u32) * (e->dc_mask + 1));
	vpmu_latch_maps(e);
	return 0;
}

int vpmu_ctx_set_mem(struct vpmu_ctx *c, u8 *mem, u32 mem_size)
{
	if (!c->uc || mem_size != c->st.msz)
		return -EINVAL;
	c->st.mem = mem;
	return 0;
}

/* ---- state -------------------------------------------------------------- */

u32 vpmu_engine_reg(const struct vpmu_engine *e, unsigned int opnd)
{
	if (!e->R || opnd >= 64 || vpmu_opnd_info[opnd].access == VPMU_ACC_NONE ||
	    opnd == VPMU_OPND_IMM || opnd == R_ZERO)
		return 0;
	if (vpmu_is_at(opnd))
		return e->R[e->xr[opnd]];
	if (opnd == R_FLAGS)
		return vpmu_flags_now(e);
	return e->R[opnd];
}

unsigned int vpmu_engine_mode(const struct vpmu_engine *e)
{
	return e->st.mode;
}

u32 vpmu_engine_upc(const struct vpmu_engine *e)
{
	return e->st.upc;
}

void vpmu_engine_set_ext(struct vpmu_engine *e, bool asserted)
{
	e->st.ext = asserted;
}

/* ---- the owner's services: a stopped program's registers, TRAP return ---- */

int vpmu_engine_set_reg(struct vpmu_engine *e, unsigned int opnd, u32 val)
{
	if (!e->R || opnd > VPMU_OPND_T0 + 7)
		return -EINVAL;
	if (opnd != VPMU_OPND_R0 || !e->r0zero)
		e->R[opnd] = val;
	return 0;
}

int vpmu_engine_trap_return(struct vpmu_engine *e)
{
	if (!e->uc || !e->st.started || !e->st.sticky ||
	    e->st.sticky_stop.reason != VPMU_STOP_TRAP ||
	    e->st.upc + 1 >= e->ncs)
		return -EINVAL;
	e->st.sticky = false;
	e->st.upc++;
	return 0;
}

u64 vpmu_engine_event_total(struct vpmu_engine *e, unsigned int event)
{
	u64 t = 0;
	u32 upc;

	if (!e->uc)
		return 0;
	vpmu_settle(e);
	for (upc = 0; upc < e->ncs; upc++)
		t += vpmu_ev_count(e, event, upc, e->tot_cnt[upc],
				   e->tot_dyn[upc], e->tot_tkn[upc]);
	return t;
}

u64 vpmu_engine_uword_count(struct vpmu_engine *e, u32 upc)
{
	if (!e->uc || upc >= e->ncs)
		return 0;
	vpmu_settle(e);
	return e->tot_cnt[upc];
}

/* ---- PMU hardware ------------------------------------------------------- */

static bool vpmu_event_valid(unsigned int ev)
{
	return ev < VPMU_EV_NR_BASIC ||
	       (ev > VPMU_EV_TAG_BASE && ev <= VPMU_EV_TAG(VPMU_TAG_MAX));
}

/* Is @ev a histogram unit's bucket (VPMU_EV_HIST(b), uapi)? */
static bool vpmu_event_hu_bucket(unsigned int ev)
{
	return ev >= VPMU_EV_HIST_BASE &&
	       ev < VPMU_EV_HIST(VPMU_HIST_BUCKETS);
}

static int vpmu_ctr_cfg_check(const struct vpmu_ctr_cfg *cfg)
{
	if (vpmu_event_hu_bucket(cfg->event))
		return -EOPNOTSUPP;
	if (!vpmu_event_valid(cfg->event) || cfg->width < 1 ||
	    cfg->width > 64 || cfg->group >= VPMU_NR_GROUPS_MAX ||
	    cfg->flags & ~(VPMU_CTR_USER | VPMU_CTR_SUPER | VPMU_CTR_INT |
			   VPMU_CTR_FREEZE_ON_OVF))
		return -EINVAL;
	return 0;
}

int vpmu_engine_ctr_config(struct vpmu_engine *e, unsigned int idx,
			   const struct vpmu_ctr_cfg *cfg)
{
	int err;

	if (idx >= VPMU_NR_COUNTERS_MAX)
		return -EINVAL;
	err = cfg ? vpmu_ctr_cfg_check(cfg) : 0;
	if (err)
		return err;
	vpmu_settle(e);
	e->dirty = true;
	if (!cfg) {
		memset(&e->cfg[idx], 0, sizeof(e->cfg[idx]));
		return 0;
	}
	e->cfg[idx] = *cfg;
	e->ctr_cls[idx] = vpmu_ev_cls(cfg->event);
	if (cfg->width < 64)
		e->ctr[idx] &= (1ull << cfg->width) - 1;
	return 0;
}

u64 vpmu_engine_ctr_read(struct vpmu_engine *e, unsigned int idx)
{
	vpmu_settle(e);
	return idx < VPMU_NR_COUNTERS_MAX ? e->ctr[idx] : 0;
}

void vpmu_engine_ctr_write(struct vpmu_engine *e, unsigned int idx, u64 val)
{
	unsigned int w;

	if (idx >= VPMU_NR_COUNTERS_MAX)
		return;
	vpmu_settle(e);
	w = e->cfg[idx].width;
	e->ctr[idx] = (w && w < 64) ? val & ((1ull << w) - 1) : val;
}

void vpmu_engine_ctr_snapshot(struct vpmu_engine *e, u64 *vals,
			      unsigned int n)
{
	unsigned int i;

	vpmu_settle(e);
	for (i = 0; i < n && i < VPMU_NR_COUNTERS_MAX; i++)
		vals[i] = e->ctr[i];
}

u32 vpmu_engine_ovf_status(struct vpmu_engine *e)
{
	vpmu_settle(e);
	return e->ovf;
}

u64 vpmu_engine_ovf_count(struct vpmu_engine *e, unsigned int idx)
{
	vpmu_settle(e);
	return idx < VPMU_NR_COUNTERS_MAX ? e->ovf_cnt[idx] : 0;
}

void vpmu_engine_ovf_clear(struct vpmu_engine *e, u32 mask)
{
	unsigned int i;

	vpmu_settle(e);
	e->ovf &= ~mask;
	for (i = 0; i < VPMU_NR_COUNTERS_MAX; i++)
		if (mask >> i & 1)
			e->ovf_cnt[i] = 0;
}

void vpmu_engine_ctr_clear(struct vpmu_engine *e, u32 mask)
{
	unsigned int i;

	vpmu_settle(e);
	mask &= (1u << VPMU_NR_COUNTERS_MAX) - 1;
	e->ovf &= ~mask;
	for (i = 0; i < VPMU_NR_COUNTERS_MAX; i++) {
		if (mask >> i & 1) {
			e->ctr[i] = 0;
			e->ovf_cnt[i] = 0;
		}
	}
}

void vpmu_engine_snapshot(struct vpmu_engine *e, struct vpmu_engine_snap *s,
			  u32 clear)
{
	vpmu_settle(e);
	memset(s, 0, sizeof(*s));
	s->cycles = e->st.cyc;
	s->ovf = e->ovf;
	s->frozen = e->frozen;
	/*
	 * ovf_src from the triggers as they are: what the next run's
	 * vpmu_prepare() computes if they changed (dirty), the same if not.
	 */
	vpmu_trig_any(e);
	s->trig_ovf = e->ovf_src;
	memcpy(s->cfg, e->cfg, sizeof(s->cfg));
	memcpy(s->ctr, e->ctr, sizeof(s->ctr));
	memcpy(s->ovf_cnt, e->ovf_cnt, sizeof(s->ovf_cnt));
	if (clear)
		vpmu_engine_ctr_clear(e, clear);
}

void vpmu_engine_freeze(struct vpmu_engine *e, unsigned int group,
			bool frozen)
{
	if (group >= VPMU_NR_GROUPS_MAX)
		return;
	vpmu_settle(e);
	if (frozen)
		e->frozen |= 1u << group;
	else
		e->frozen &= ~(1u << group);
	vpmu_gate_resync(e);
}

/* 0 if @trigger may be a group's trigger, or the errno it is refused with. */
static int vpmu_trig_check(u16 trigger)
{
	if (vpmu_event_hu_bucket(trigger))
		return -EOPNOTSUPP;
	if (trigger != VPMU_TRIG_NONE && trigger != VPMU_TRIG_MARK &&
	    !VPMU_TRIG_IS_OVF(trigger) && !vpmu_event_valid(trigger))
		return -EINVAL;
	return 0;
}

int vpmu_engine_group_trigger(struct vpmu_engine *e, unsigned int group,
			      u16 trigger)
{
	int ret = vpmu_trig_check(trigger);

	if (group >= VPMU_NR_GROUPS_MAX)
		return -EINVAL;
	if (ret)
		return ret;
	vpmu_settle(e);
	e->trig[group] = trigger;
	e->dirty = true;
	return 0;
}

int vpmu_engine_group_start_stop(struct vpmu_engine *e, unsigned int group,
				 u16 start, u16 stop)
{
	int ret = vpmu_trig_check(start);

	if (group >= VPMU_NR_GROUPS_MAX)
		return -EINVAL;
	if (!ret)
		ret = vpmu_trig_check(stop);
	if (ret)
		return ret;
	vpmu_settle(e);
	e->trig_on[group] = start;
	e->trig_off[group] = stop;
	e->dirty = true;
	return 0;
}

bool vpmu_engine_frozen(const struct vpmu_engine *e, unsigned int group)
{
	return group < VPMU_NR_GROUPS_MAX && (e->frozen >> group & 1);
}

/* New gating: slots count under other states, sources route anew. */
static void vpmu_gate_update(struct vpmu_engine *e)
{
	unsigned int u;

	e->gate_req = e->gate_closed;
	for (u = 0; u < ARRAY_SIZE(e->gate_grp); u++)
		if (e->gate_grp[u])
			e->gate_req |= 1u << u;
	e->dirty = true;
	vpmu_gate_sync(e);
}

int vpmu_engine_group_gate(struct vpmu_engine *e, unsigned int group,
			   unsigned int units)
{
	u8 grp[ARRAY_SIZE(e->gate_grp)];
	unsigned int u;

	if (!group || group >= VPMU_NR_GROUPS_MAX || units & ~VPMU_GATE_ALL)
		return -EINVAL;
	for (u = 0; u < ARRAY_SIZE(grp); u++) {
		grp[u] = e->gate_grp[u] & ~(1u << group);
		if (units >> u & 1)
			grp[u] |= 1u << group;
	}
	if (!memcmp(grp, e->gate_grp, sizeof(grp)))
		return 0;	/* as it was: nothing to settle or rebuild */
	vpmu_settle(e);
	memcpy(e->gate_grp, grp, sizeof(grp));
	vpmu_gate_update(e);
	return 0;
}

int vpmu_engine_gate_closed(struct vpmu_engine *e, unsigned int units)
{
	if (units & ~VPMU_GATE_ALL)
		return -EINVAL;
	if (units == e->gate_closed)
		return 0;
	vpmu_settle(e);
	e->gate_closed = units;
	vpmu_gate_update(e);
	return 0;
}

void vpmu_engine_uhist_set(struct vpmu_engine *e, u32 interval)
{
	vpmu_settle(e);
	e->uhist_k = interval;
	e->uhist_left = interval ? interval - 1 : 0;
}

const u64 *vpmu_engine_uhist(struct vpmu_engine *e, u32 *nbuckets)
{
	vpmu_settle(e);
	if (nbuckets)
		*nbuckets = e->uc ? e->ncs : 0;
	return e->uc ? e->uhist : NULL;
}

void vpmu_engine_uhist_reset(struct vpmu_engine *e)
{
	vpmu_settle(e);
	if (e->uhist)
		memset(e->uhist, 0, sizeof(u64) * e->ncs);
	e->uhist_left = e->uhist_k ? e->uhist_k - 1 : 0;
}

/* ---- histogram unit ----------------------------------------------------- */

static int vpmu_hu_check(const struct vpmu_hu_prog *p, u32 *total)
{
	u64 t = 0;
	unsigned int i;

	if (p->mode != VPMU_HU_SEQ && p->mode != VPMU_HU_PAR)
		return -EINVAL;
	if (p->once > 1)
		return -EINVAL;
	if (p->n < 1 || p->n > VPMU_HU_MAX)
		return -EINVAL;
	for (i = 0; i < p->n; i++) {
		const struct vpmu_hu_entry *x = &p->ent[i];

		switch (x->kind) {
		case VPMU_HU_EVENT:
			if (!vpmu_event_valid(x->event))
				return -EINVAL;
			break;
		default:
			if (x->kind >= VPMU_HU_NKINDS || x->lo > x->hi)
				return -EINVAL;
			break;
		}
		if (!x->period)
			return -EINVAL;
		if (p->mode == VPMU_HU_SEQ)
			t += x->period;
		else if (t < x->period)
			t = x->period;
	}
	if (t > 0xffffffffu)
		return -EINVAL;
	*total = (u32)t;
	return 0;
}

int vpmu_engine_hu_set(struct vpmu_engine *e, const struct vpmu_hu_prog *p)
{
	/* what each kind routes through the trigger hook */
	static const u8 route[VPMU_HU_NKINDS] = {
		[VPMU_HU_WQ] = VPMU_K_STORE,
		[VPMU_HU_LOAD] = VPMU_K_LOAD,
		[VPMU_HU_HIT] = VPMU_K_LOAD,
		[VPMU_HU_MISS] = VPMU_K_LOAD,
		[VPMU_HU_STORE] = VPMU_K_STORE,
		[VPMU_HU_ACCESS] = VPMU_K_LOAD | VPMU_K_STORE,
	};
	u32 total = 0;
	bool wq = false;
	u8 rt = 0;
	unsigned int i;
	int err;

	err = p ? vpmu_hu_check(p, &total) : 0;
	if (err)
		return err;
	vpmu_settle(e);
	if (p) {
		e->hu = *p;
		for (i = 0; i < p->n; i++) {
			wq |= p->ent[i].kind == VPMU_HU_WQ;
			rt |= route[p->ent[i].kind];
			e->hu_cls[i] = vpmu_hu_cls(&p->ent[i]);
		}
	} else {
		memset(&e->hu, 0, sizeof(e->hu));
	}
	e->hu_total = total;
	e->hu_wq = wq;		/* stores are routed, or no longer */
	e->hu_route = rt;	/* ...and loads */
	e->dirty = true;	/* hu_hit and the routes are rebuilt */
	vpmu_hu_restart(e);
	return 0;
}

void vpmu_engine_hu_read(struct vpmu_engine *e, u64 *c, unsigned int n)
{
	unsigned int i;

	vpmu_settle(e);
	for (i = 0; i < n && i < VPMU_HU_MAX; i++)
		c[i] = e->hu_c[i];
}

void vpmu_engine_hu_reset(struct vpmu_engine *e)
{
	vpmu_settle(e);
	vpmu_hu_restart(e);
}
