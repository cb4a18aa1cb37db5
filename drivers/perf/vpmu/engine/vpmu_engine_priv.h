/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vpmu_engine_priv.h - private to the engine's files: the executable
 * form of microwords (struct vpmu_uop), the loop's handler lists, struct
 * vpmu_engine, and what the files call of one another.  Top to bottom,
 * each file calls only those below it:
 *
 *   vpmu_engine_run.c        runs and chunks, lifetime, contexts, state
 *   vpmu_engine_build.c      the uops: building, routing, fusing, segments
 *   vpmu_engine_interp.c     the interpreter loop and its hot helpers
 *   vpmu_engine_count.c      counting: fold, slots, toggles, triggers,
 *                            gates, and the PMU hardware's registers
 *   vpmu_engine_tc.c         the translation cache: finding, linking,
 *                            leaving and draining translations
 *   vpmu_engine_translate.c  ...and making them
 *   vpmu_engine_hu.c         the histogram unit
 *   vpmu_engine_event.c      what each event counts on a microword
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
#ifndef _VPMU_ENGINE_PRIV_H
#define _VPMU_ENGINE_PRIV_H

#include "vpmu_engine_int.h"

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
#define TRIG_FGROUPS	0x0f

/*
 * The toggle table: before each slot's ID table, an s32 per microword,
 * TGL(base, upc), read by a static trigger source (see TRIG in
 * vpmu_interp()).  Nonzero: toggling from this slot goes to the slot
 * TGL_SLOT bytes away (slots are TGL_ALIGN-aligned in one block; 0 when
 * the toggle stays in this slot), flips the freeze groups TGL_FGROUPS and
 * runs the fast handler (TRIG_FAST).  0: the general path decides
 * (vpmu_tgl_update()).
 */
#define TGL_ALIGN	64
#define TGL_ROUND(x)	(((x) + TGL_ALIGN - 1) & ~(size_t)(TGL_ALIGN - 1))
#define TGL_FGROUPS	TRIG_FGROUPS
#define TGL_SLOT	(~(s32)(TGL_ALIGN - 1))
#define TGL(base, upc)							\
	(((const s32 *)(base) - (VPMU_IDT + 1))[-(long)(upc)])

/* vpmu_interp() results. */
enum { X_CHUNK, X_HALT, X_TRAP, X_FAULT, X_CTR };

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
		u8 toggle_fgroups;	/* H_TPI*: the fgroups it toggles */
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
 * image validator (vpmu_op_info[], vpmu_ucode.c), the assembler and the
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
	VPMU_H(PI0H, HP_ENDS) VPMU_H(PR0H, HP_ENDS)			\
	VPMU_H(XDISP, HP_ENDS) VPMU_H(XBR, HP_ENDS) VPMU_H(JMP, HP_ENDS)	\
	VPMU_H(ADISP, HP_ENDS)						\
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
	/* instructions it retired before vpmu_engine.insn_mark (CTR) */
	u64 insn_acc;
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

/*
 * The translation cache (vpmu_engine_tc.c).  A macro instruction at (pc,
 * ir) in one privilege mode is translated once into a *translation*: the
 * microcode path from its ID-table entry with every microword whose
 * inputs are only ir, pc and constants evaluated away, the branches those
 * decide resolved, and the rest left as ops (struct vpmu_top) in *blocks*
 * that each count their executions in one counter per slot; a translation
 * goes on into the instructions that follow while their pc is known (a
 * superblock).  A block's record lists the microwords it stands for, so
 * the fold gives each its executions and taken branches
 * (vpmu_tc_drain()).  Translations, their records and ops live in one
 * pool of 32-bit words, addressed by word offsets (0: none), and are
 * found through a direct-mapped table by pc.
 */
#define VPMU_TC_POOL	(32 * 1024)	/* pool words */
#define VPMU_TC_MAP	8192		/* table entries, a power of two */
#ifndef VPMU_TC_WARM
#define VPMU_TC_WARM	8		/* runs of an instruction before it is */
#endif					/* translated (by its table entry) */
#define VPMU_TC_BLOCKS	2048		/* block counters per slot */
#define VPMU_TC_MIN_K	256		/* micro-PC histogram sampling more */
					/* often: interpreted */
#define VPMU_TC_PATH	192		/* microwords a translation covers */
#define VPMU_TC_INSNS	16		/* instructions on one of its paths */
#define VPMU_TC_FORKS	8		/* branches on data in one */
#define VPMU_TC_ROOM	40		/* microwords an instruction may need */
#define VPMU_TC_PAIRS	28		/* known registers a record writes */
/* tc_code's bits: a 4-byte word of memory each, 256 KiB (then they wrap) */
#define VPMU_TC_CODE_BITS	(0x40000u / 4)

/*
 * A translation op: 16 bytes, dispatched by handler index (enum vpmu_th)
 * through the loop's jump table in the kernel, as the uops are; on the
 * host by the handler's address in the op, which saves two instructions
 * an op.
 */
struct vpmu_top {
#ifndef __KERNEL__
	const void *hl;	/* the handler's label */
#endif
	u8 h;		/* enum vpmu_th */
	u8 d, a, b;	/* register-file indices; BRF/BRX: b = condition */
	u32 imm;	/* immediate operand; EXT: mask; BLK: cycles */
	u32 x;		/* an exit record; a branch: ops to its taken side */
	u32 y;		/* BLK: counter; loads, stores: the microword; DGADD*: mask */
};

/*
 * The data of an EOI op (b: npc is R[a], else npc), in the op slot after
 * it: the path ends; fin is what it leaves known, tb the translation that
 * followed it first and pairs the record of what of fin that one reads
 * before it writes.  (An EOI where the path goes on into the next
 * instruction has no op: that instruction's word is one of the
 * translation's checked words, struct vpmu_tword.)
 */
struct vpmu_tlink {
	u32 fin;
	u32 tb;
	u32 pairs;
	u32 npc;
};

/* A translation's head; its ops follow (VPMU_TB_OPS()). */
struct vpmu_tb {
	u32 key;	/* pc | mode */
	u32 ir;
	/* registers every path writes before it reads them, to its EOI */
	u64 kill;
	/*
	 * The vpmu_tc_drain() epoch it last counted in, and the tc_gen its
	 * checked words were last found in: both compared at once on entry.
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
	u32 chk;	/* its instructions after the first: nchk words at chk */
	u32 nchk;
};

/* An instruction a translation runs after its first: where, and its word. */
struct vpmu_tword {
	u32 pc;
	u32 word;
};

#define VPMU_TB_OPS(tb)	((const struct vpmu_top *)((tb) + 1))

/* Known registers to write: a path's fin, an exit's state, link pairs. */
struct vpmu_tpairs {
	u32 n;
	u32 pad;
	struct vpmu_tpair {
		u32 idx, val;
	} p[];
};

/* Write the registers @p lists. */
static inline void vpmu_tc_write(u32 *R, const struct vpmu_tpairs *p)
{
	u32 i;

	for (i = 0; i < p->n; i++)
		R[p->p[i].idx] = p->p[i].val;
}

/*
 * An exit: the registers the translation knows and R[] lacks there
 * (pairs) and those it wrote (wrote); the microword where the
 * interpreter goes on; and, for an exit inside a block, what of the
 * block's count stands (its first kpos entries) and the cycles charged
 * for the rest (refund).
 */
struct vpmu_trec {
	u64 wrote;
	u16 upc;
	u16 refund;
	u16 kpos;
	u8 counted;	/* the block's count was taken: undo it */
	u8 pad;
	u32 blk;	/* the block's record, or 0 */
	u32 pairs;	/* a struct vpmu_tpairs, or 0 */
};

/* A block's record: its counter and the microwords it stands for. */
#define VPMU_TBLK_TKN	0x8000	/* entry: a branch it took */
struct vpmu_tblk {
	u16 n;
	u16 ctr;
	u16 ent[];	/* upc, or upc | VPMU_TBLK_TKN */
};

/* A register's bit in a translation's sets of registers. */
#define TC_BIT(r)	(1ull << (r))

/* The block record at word @off of @w, and the words one of @n takes. */
static inline const struct vpmu_tblk *tc_blk(const u32 *w, u32 off)
{
	return (const struct vpmu_tblk *)(w + off);
}

static inline u32 tc_blk_words(u32 n)
{
	return 1 + (n + 1) / 2;
}

/* The words a struct vpmu_tpairs of @n pairs takes. */
static inline u32 tc_pairs_words(u32 n)
{
	return 2 + 2 * n;
}

/*
 * The ops' handlers: an ALU operation's with register operands (RR), a
 * register and an immediate (RI) or an immediate and a register (IR),
 * EXT and SEXT (RF), loads and stores, compare and branch (CMP_cond with
 * b a register, CMPI_cond with an immediate), a block's entry (BLK), a
 * branch on the flags (BRF) or an external condition (BRX), EOI (EOIK:
 * its next pc known and in memory), an exit (EXIT).
 */
#define VPMU_TC_NAMES(name, code, sig, doc)	VPMU_TC_NAMES_##sig(name)
#define VPMU_TC_NAMES_NONE(n)
#define VPMU_TC_NAMES_DAB(n)	VPMU_T(RR_##n) VPMU_T(RI_##n) VPMU_T(IR_##n)
#define VPMU_TC_NAMES_DB(n)	VPMU_T(RR_##n)
#define VPMU_TC_NAMES_DAF(n)	VPMU_T(RF_##n)
#define VPMU_TC_NAMES_LD(n)	VPMU_T(LD_##n)
#define VPMU_TC_NAMES_ST(n)	VPMU_T(ST_##n)
#define VPMU_TC_NAMES_I(n)
#define VPMU_TC_CMP_NAME(name, holds)	VPMU_T(CMP_##name) VPMU_T(CMPI_##name)
#define VPMU_TC_HANDLER_LIST						\
	VPMU_OP_LIST(VPMU_TC_NAMES)					\
	VPMU_CMP_LIST(VPMU_TC_CMP_NAME)					\
	VPMU_T(BLK) VPMU_T(BRF) VPMU_T(BRX) VPMU_T(EOI) VPMU_T(EOIK)	\
	VPMU_T(DGADD) VPMU_T(DGADDI) VPMU_T(EXIT)

enum vpmu_th {
#define VPMU_T(label)	TH_##label,
	VPMU_TC_HANDLER_LIST
#undef VPMU_T
	TH_NR
};

/*
 * The arrays an engine needs for a ucode of up to @words microwords
 * (vpmu_engine_mem_alloc()); the engine keeps copies of the pointers.
 */
struct vpmu_engine_mem {
	u32 words;
	u32 slot_stride;
	void *slot_mem;
	struct vpmu_uop *slot[VPMU_NSLOT];
	u32 *R;
	u16 *xr;
	u64 *tot_cnt, *tot_dyn, *tot_tkn;
	u16 *ctr_hit;
	u8 *trig_static;
	u16 *tsrc;
	u16 *hu_hit;
	u64 *uhist;
	u32 *dc_tag;
	u32 *gap_dist, *gap_q;
	/* the translation cache */
	u32 *tc_pool;			/* VPMU_TC_POOL words */
	u32 *tc_map;			/* VPMU_TC_MAP translations */
	u32 *tc_cnt;			/* VPMU_NSLOT x VPMU_TC_BLOCKS */
	u32 *tc_touch;			/* translations counted since drain */
	void *tc_scratch;		/* a translation in the making */
	u8 *tc_heat;			/* VPMU_TC_MAP: runs not translated */
	u32 *tc_code;			/* VPMU_TC_CODE_BITS bits */
};

struct vpmu_engine {
	struct vpmu_engine_mem *mem;	/* NULL: no ucode can attach */
	const struct vpmu_ucode *uc;
	u32 ncs;
	u32 cs_limit;			/* mem->words, or 0 */
	bool r0zero;
	/*
	 * The image reads counters (CTR): the program's instructions are
	 * the engine's since insn_mark plus st.insn_acc (vpmu_insn_mark()).
	 */
	bool has_ctr;
	u64 insn_mark;
	u8 fsh;				/* vpmu_fetch_ok(): 2, or 1 (IALIGN16) */
	u32 flim;			/* ...its limit, for a chunk (vpmu_chunk()) */

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
	const void *const *tlab;	/* ...and the translations' */
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
	u16 tsrc_fgroups;		/* bit g: a fast one toggles fgroups g */
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
	u16 trig[VPMU_NR_FGROUPS_MAX];
	/* start and stop triggers; counters whose wrap is one (plan_mask) */
	u16 trig_on[VPMU_NR_FGROUPS_MAX], trig_off[VPMU_NR_FGROUPS_MAX];
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
	/* where samples at K > 1 go: uhist, or uhist_sink while gated shut */
	u64 *uhist_to, *uhist_sink;

	/*
	 * Gating (vpmu_engine_fgroup_gate()): per unit (VPMU_GATE_*), the
	 * freeze groups gating it; units gated with no group (closed); units
	 * gated at all (req); units counting under the freeze bits now
	 * (open: all while none is gated).  Slots count under one state of
	 * each unit (VPMU_SLOT_UH, _HU in slot_mask).
	 */
	u8 gate_fgroups[2];
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

	/*
	 * The translation cache: its pool, table, block counters (a row
	 * per slot) and the translations with counts since the last drain.
	 */
	u32 *tc_pool, *tc_map, *tc_cnt, *tc_touch;
	void *tc_scratch;
	u8 *tc_heat;
	/*
	 * The words of memory that hold a translation's checked words (a bit
	 * each), and the code generation, which a store into one of them,
	 * or a run whose memory may have changed, starts anew
	 * (vpmu_tc_check()).
	 */
	u32 *tc_code;
	union {
		struct {
			u32 tc_epoch;
			u32 tc_gen;
		};
		u64 tc_stamp;		/* as a translation's stamp */
	};
	u32 tc_used;			/* pool words in use */
	u32 tc_nctr;			/* block counters in use */
	u32 tc_ntouch;
	u32 tc_budget;			/* microwords this chunk may translate */
	u32 tc_msz;			/* memory its fetches are inside of */
	bool tc_off;			/* vpmu_engine_tc_enable(e, false) */
	struct vpmu_tc_stats tc_stats;
};

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

/*
 * The fold's share: a microword's executions @c, stall cycles @stall,
 * memory count @dy and taken branches @tk to the entries @m it feeds.
 */
static inline void vpmu_hu_fold(struct vpmu_engine *e, u16 m, u64 c, u64 stall,
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

/* The slot whose uops start at @base (a run's exit: toggles move base). */
static inline unsigned int vpmu_slot_of(const struct vpmu_engine *e,
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
 * May a run leave the counts in the uops, between its chunks and after it
 * ends, until vpmu_settle()?  Only if nothing plans chunks by the
 * counters' values (an interrupt or a freeze on overflow) or needs each
 * chunk's counts apart (the histogram unit's windows).  Then a run's end
 * costs no fold: the driver's runs are short chunks of a program, and
 * counts are read far less often than that.
 */
static inline bool vpmu_defer_ok(const struct vpmu_engine *e)
{
	return !e->hu.n && !e->plan_mask;
}

static inline bool vpmu_event_valid(unsigned int ev)
{
	return ev < VPMU_EV_NR_BASIC ||
	       (ev > VPMU_EV_TAG_BASE && ev <= VPMU_EV_TAG(VPMU_TAG_MAX));
}

/* Is @ev a histogram unit's bucket (VPMU_EV_HU(b), uapi)? */
static inline bool vpmu_event_hu_bucket(unsigned int ev)
{
	return ev >= VPMU_EV_HU_BASE &&
	       ev < VPMU_EV_HU(VPMU_HU_BUCKETS);
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
static inline u32 vpmu_flags_now(const struct vpmu_engine *e)
{
	u32 f = e->R[R_FLAGS];

	if (f & FLAGS_LAZY)
		f = vpmu_flags(3, e->lz_a, e->lz_b, e->lz_a - e->lz_b);
	return f;
}

static inline u32 vpmu_flags_sync(struct vpmu_engine *e)
{
	e->R[R_FLAGS] = vpmu_flags_now(e);
	return e->R[R_FLAGS];
}

static inline bool vpmu_is_at(unsigned int code)
{
	return code >= VPMU_OPND_AT_DS && code <= VPMU_OPND_AT_S2;
}

/*
 * Point @ds @s1 @s2 at the registers the latches name.  With R0_ZERO, r0
 * is read from R[0], which only @ writes can reach and which they zero
 * again at once (zr); direct writes of r0 go to the sink.
 */
static inline void vpmu_latch_maps(struct vpmu_engine *e)
{
	unsigned int k;

	for (k = 0; k < 3; k++)
		e->xr[VPMU_OPND_AT_DS + k] = e->R[R_DS + k] & 31;
}

/* vpmu_engine_event.c: what each event counts on a microword */
u8 vpmu_ev_cls(unsigned int ev);
u64 vpmu_ev_count(const struct vpmu_engine *e, unsigned int ev,
		  u32 upc, u64 c, u64 dy, u64 tk);
bool vpmu_ev_possible(const struct vpmu_engine *e, unsigned int ev, u32 upc);

/* vpmu_engine_count.c: counting, slots, toggles, triggers, gates */
bool vpmu_ctr_enabled(const struct vpmu_engine *e, unsigned int i);
u32 vpmu_fold(struct vpmu_engine *e, u32 lo, u32 hi);
void vpmu_slot_reset(struct vpmu_engine *e);
unsigned int vpmu_slot_get(struct vpmu_engine *e, unsigned int key);
void vpmu_defer_add(struct vpmu_engine *e, u64 n);
bool vpmu_trig_dynamic(u16 trigger);
bool vpmu_trig_any(struct vpmu_engine *e);
void vpmu_gate_sync(struct vpmu_engine *e);
void vpmu_gate_resync(struct vpmu_engine *e);
void vpmu_settle(struct vpmu_engine *e);
u64 vpmu_insn_count(struct vpmu_engine *e);
void vpmu_insn_mark(struct vpmu_engine *e, bool leaving);
void vpmu_hook_post(struct vpmu_engine *e, unsigned int hook);

/* vpmu_engine_hu.c: the histogram unit */
void vpmu_hu_restart(struct vpmu_engine *e);
u16 vpmu_hu_hit(const struct vpmu_engine *e, u32 upc);
void vpmu_hu_wq_add(struct vpmu_engine *e, u16 m, u64 w, u64 a, u64 b);
void vpmu_hu_hook(struct vpmu_engine *e, u32 upc, u32 miss);
void vpmu_hu_chunk_begin(struct vpmu_engine *e, u64 c1);
void vpmu_hu_chunk_end(struct vpmu_engine *e, u64 c1);

/* vpmu_engine_interp.c: the interpreter loop */
int vpmu_interp(struct vpmu_engine *e, s64 L);

/* Where a run of translations leaves the interpreter to go on. */
struct vpmu_tc_ret {
	u32 upc;
	s32 left;
};

/* vpmu_engine_tc.c: the translation cache */
const struct vpmu_tb *vpmu_tc_next(struct vpmu_engine *e,
				   struct vpmu_tlink *l, u32 npc, u32 ir,
				   const struct vpmu_tpairs **pend);
u32 vpmu_tc_leave(struct vpmu_engine *e, struct vpmu_uop *base, u32 *cnt,
		  const struct vpmu_trec *x, const struct vpmu_tpairs *pend);
void vpmu_tc_touch(struct vpmu_engine *e, const struct vpmu_tb *tb);
bool vpmu_tc_check(struct vpmu_engine *e, const struct vpmu_tb *tb);
void vpmu_tc_drain(struct vpmu_engine *e);
void vpmu_tc_flush(struct vpmu_engine *e);

/* vpmu_engine_translate.c: making translations */
u32 vpmu_tc_pool_alloc(struct vpmu_engine *e, u32 words);
u32 vpmu_tc_translate(struct vpmu_engine *e, u32 key, u32 ir);
size_t vpmu_tc_scratch_size(void);

/* vpmu_engine_build.c: the uops, their routes and segments */
void vpmu_prepare(struct vpmu_engine *e);

/*
 * The fetch check.  An instruction word is fetched at a pc on the image's
 * instruction boundary (4 bytes, or 2 with VPMU_IMG_F_IALIGN16) with all
 * its 4 bytes in memory: ror(pc, fsh) < vpmu_fetch_limit().  With fsh 2
 * that is pc / 4 < msz / 4; with fsh 1, pc / 2 < msz / 2 - 1, so pc + 4
 * <= msz.  A pc off the boundary has a high bit set once rotated.
 */
static inline u32 vpmu_fetch_limit(u32 fsh, u32 msz)
{
	if (fsh == 2)
		return msz >> 2;
	return msz >= 4 ? (msz >> 1) - 1 : 0;
}

static inline bool vpmu_fetch_ok(const struct vpmu_engine *e, u32 pc, u32 msz)
{
	return (pc >> e->fsh | pc << (32 - e->fsh)) <
	       vpmu_fetch_limit(e->fsh, msz);
}

/*
 * The table entry of @key (pc | mode): by pc / 2, so that instructions on
 * 2-byte boundaries (IALIGN16) have entries of their own; those on 4-byte
 * boundaries use every other one.
 */
static inline u32 vpmu_tc_slot(u32 key)
{
	return (key >> 1) & (VPMU_TC_MAP - 1);
}

/* The bit of tc_code for the word of memory at @addr. */
static inline u32 vpmu_tc_code_bit(u32 addr)
{
	return (addr / 4) & (VPMU_TC_CODE_BITS - 1);
}

/*
 * Is @maddr in a word of memory that holds (part of) a word a translation
 * checks, or one a multiple of 256 KiB apart?  A store there starts a new
 * code generation: every translation compares its words again before it
 * runs (vpmu_tc_check()).  Stores are aligned: one word holds each.
 */
static inline bool vpmu_tc_code(const struct vpmu_engine *e, u32 maddr)
{
	u32 w = vpmu_tc_code_bit(maddr);

	return e->tc_code[w / 32] >> (w % 32) & 1;
}

/*
 * The interpreter stored to @maddr: a new code generation if into such a
 * word, whether this chunk uses the cache or not (its translations stay).
 */
static inline void vpmu_tc_stored(struct vpmu_engine *e, u32 maddr)
{
	if (e->tc_pool && unlikely(vpmu_tc_code(e, maddr)))
		e->tc_gen++;
}

/* The translation of (@key = pc | mode, @ir), or NULL; maybe a "none". */
static inline const struct vpmu_tb *vpmu_tc_probe(const struct vpmu_engine *e,
						  u32 key, u32 ir)
{
	u32 off = e->tc_map[vpmu_tc_slot(key)];
	const struct vpmu_tb *tb = (const struct vpmu_tb *)(e->tc_pool + off);

	return off && tb->key == key && tb->ir == ir ? tb : NULL;
}

/*
 * Is the instruction at @npc, not translated, worth translating now?  It
 * has run VPMU_TC_WARM times (counted by its table entry), and this chunk
 * may translate.
 */
static inline bool vpmu_tc_warm(struct vpmu_engine *e, u32 npc)
{
	u8 *heat = &e->tc_heat[vpmu_tc_slot(npc)];

	if (*heat < VPMU_TC_WARM) {
		++*heat;
		return false;
	}
	return e->tc_budget >= VPMU_TC_ROOM;
}

#endif /* _VPMU_ENGINE_PRIV_H */
