/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vpmu_uop.h - the executable form of microwords: struct vpmu_uop, the
 * register file it indexes, the semantics of the operations and the
 * interpreter's handler lists.  Private to the engine (engine/vpmu_*.c);
 * architecture.rst, "Inside the engine", says how the loop runs them.
 */
#ifndef _VPMU_UOP_H
#define _VPMU_UOP_H

#include "vpmu_ucode.h"

#define VPMU_NSLOT	4		/* copies of the uop array */
#define VPMU_IDT	BIT(VPMU_OP_BITS_MAX)	/* ID-table entries */

/* Register file: operand codes index it directly. */
#define VPMU_RF_PC		VPMU_OPND_PC
#define VPMU_RF_IR		VPMU_OPND_IR
#define VPMU_RF_IPC		VPMU_OPND_IPC
#define VPMU_RF_DS		VPMU_OPND_DS
#define VPMU_RF_FLAGS		VPMU_OPND_FLAGS
#define VPMU_RF_SINK		47		/* unused code: discarded writes */
#define VPMU_RF_ZERO		VPMU_OPND_ZERO	/* never written: reads 0 */
#define VPMU_RF_NREGS		64		/* operand codes: what a context saves */
/* R[VPMU_RF_IMM0 + upc]: the B immediate of microword upc */
#define VPMU_RF_IMM0		64
#define VPMU_RF_AT_OFF		(VPMU_OPND_AT_DS - VPMU_OPND_DS)	/* latch -> @ */

/* Commit work beyond "R[reg_of[d]] = res" (vpmu_uop.pend). */
#define VPMU_COMMIT_SPECIAL	BIT(0)	/* DST is a latch or flags */
#define VPMU_COMMIT_FLAGS		BIT(1)	/* S: write the new flags */
#define VPMU_COMMIT_LOAD		BIT(2)	/* data-cache lookup */
#define VPMU_COMMIT_STORE		BIT(3)	/* memory write + write queue */
#define VPMU_COMMIT_MODE		BIT(4)	/* privilege-mode change */

/*
 * trig_static[]: this microword needs vpmu_hook_post() (a dynamic trigger,
 * the histogram unit's write-queue accounting).
 */
#define VPMU_TSRC_DYN	0x80
/* ...its fast handler ends its segment and needs nothing routed (h_fast). */
#define VPMU_TSRC_FAST	0x40
#define VPMU_TSRC_FGROUPS	0x0f

/*
 * The toggle table: before each slot's ID table, an s32 per microword,
 * VPMU_TGL(base, upc), read by a static trigger source (see TRIG in
 * vpmu_interp()).  Nonzero: toggling from this slot goes to the slot
 * VPMU_TGL_SLOT bytes away (slots are VPMU_TGL_ALIGN-aligned in one block; 0 when
 * the toggle stays in this slot), flips the freeze groups VPMU_TGL_FGROUPS and
 * runs the fast handler (VPMU_TSRC_FAST).  0: the general path decides
 * (vpmu_tgl_update()).
 */
#define VPMU_TGL_ALIGN	64
#define VPMU_TGL_ROUND(x)	(((x) + VPMU_TGL_ALIGN - 1) & ~(size_t)(VPMU_TGL_ALIGN - 1))
#define VPMU_TGL_FGROUPS	VPMU_TSRC_FGROUPS
#define VPMU_TGL_SLOT	(~(s32)(VPMU_TGL_ALIGN - 1))
#define VPMU_TGL(base, upc)							\
	(((const s32 *)(base) - (VPMU_IDT + 1))[-(long)(upc)])

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
		s32 toggle_dist;	/* H_TPI*: its VPMU_TGL() slot distance */
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
 * image validator (vpmu_op_info[], vpmu_validate.c), the assembler and the
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
 * the operands, the flags left for later (lazy: R[VPMU_RF_FLAGS] holds
 * VPMU_FLAGS_LAZY and the operands are kept).  X(cond, holds), named as in
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

#define VPMU_FLAGS_LAZY	16		/* R[VPMU_RF_FLAGS]: SUB of dp.lazy_a, _b */

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

static inline bool vpmu_is_at(unsigned int code)
{
	return code >= VPMU_OPND_AT_DS && code <= VPMU_OPND_AT_S2;
}

#endif /* _VPMU_UOP_H */
