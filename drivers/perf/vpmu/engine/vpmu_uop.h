/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vpmu_uop.h - the executable form of microwords: struct vpmu_uop, the
 * register file it indexes, the semantics of the operations and the
 * interpreter's handler lists.  Private to the engine (engine/vpmu_*.c);
 * vpmu_interp.c's loop runs them.
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
#define VPMU_RF_SINK		47	/* unused code: discarded writes */
#define VPMU_RF_ZERO		VPMU_OPND_ZERO	/* never written: reads 0 */
#define VPMU_RF_NREGS		64	/* operand codes: a context's */
/* R[VPMU_RF_IMM0 + upc]: the B immediate of microword upc */
#define VPMU_RF_IMM0		64
/* a latch's index + VPMU_RF_AT_OFF: the @ operand it selects */
#define VPMU_RF_AT_OFF		(VPMU_OPND_AT_DS - VPMU_OPND_DS)

/* Commit work beyond "R[reg_of[d]] = res" (vpmu_uop.pend). */
#define VPMU_COMMIT_SPECIAL	BIT(0)	/* DST is a latch or flags */
#define VPMU_COMMIT_FLAGS	BIT(1)	/* S: write the new flags */
#define VPMU_COMMIT_LOAD	BIT(2)	/* data-cache lookup */
#define VPMU_COMMIT_STORE	BIT(3)	/* memory write + write queue */
#define VPMU_COMMIT_MODE	BIT(4)	/* privilege-mode change */

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
 * VPMU_TGL(base, upc), read by a static trigger source (see
 * VPMU_HANDLER_TRIG in vpmu_interp()).  Nonzero: toggling from this slot
 * goes to the slot VPMU_TGL_SLOT bytes away (slots are
 * VPMU_TGL_ALIGN-aligned in one block; 0 when the toggle stays in this
 * slot), flips the freeze groups VPMU_TGL_FGROUPS and runs the fast
 * handler (VPMU_TSRC_FAST).  0: the general path decides
 * (vpmu_tgl_update()).
 */
#define VPMU_TGL_ALIGN		64
#define VPMU_TGL_ROUND(x)						\
	(((x) + VPMU_TGL_ALIGN - 1) & ~(size_t)(VPMU_TGL_ALIGN - 1))
#define VPMU_TGL_FGROUPS	VPMU_TSRC_FGROUPS
#define VPMU_TGL_SLOT		(~(s32)(VPMU_TGL_ALIGN - 1))
#define VPMU_TGL(base, upc)						\
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
		s32 toggle_dist;	/* TRIG_PC_ADDI_EOI*: VPMU_TGL() */
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
		u8 toggle_fgroups;	/* TRIG_PC_ADDI_EOI*: its fgroups */
	};
	u8 pend;		/* P_* */
	union {
		u8 flag_kind;	/* S: 0 none, 1 logic, 2 add, 3 sub */
		u8 st_size;	/* ST: bytes */
	};
};

/* RV32M's multiply-high, divide and remainder. */
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

/*
 * The semantics of the ALU operations, in one place for all that compute
 * them: the interpreter's handlers and the translated-code executor's
 * ops, which call it with a constant @op (the switch folds away), and
 * the translator, which evaluates what it knows.  EXT's field is at bit
 * @fpos, @fmask its mask; SEXT shifts by @fpos.
 */
static __always_inline u32 vpmu_alu(unsigned int op, u32 a, u32 b, u32 fpos,
				    u32 fmask)
{
	switch (op) {
	case VPMU_OP_ADD:
		return a + b;
	case VPMU_OP_SUB:
		return a - b;
	case VPMU_OP_AND:
		return a & b;
	case VPMU_OP_OR:
		return a | b;
	case VPMU_OP_XOR:
		return a ^ b;
	case VPMU_OP_SHL:
		return a << (b & 31);
	case VPMU_OP_SHR:
		return a >> (b & 31);
	case VPMU_OP_SAR:
		return (u32)((s32)a >> (b & 31));
	case VPMU_OP_SLT:
		return (u32)((s32)a < (s32)b);
	case VPMU_OP_SLTU:
		return (u32)(a < b);
	case VPMU_OP_MUL:
		return a * b;
	case VPMU_OP_MOV:
		return b;
	case VPMU_OP_EXT:
		return (a >> fpos) & fmask;
	case VPMU_OP_SEXT:
		return (u32)((s32)(a << fpos) >> fpos);
	case VPMU_OP_MULH:
		return vpmu_mulh((s32)a, (s32)b);
	case VPMU_OP_MULHSU:
		return vpmu_mulh((s32)a, b);
	case VPMU_OP_MULHU:
		return (u32)(((u64)a * b) >> 32);
	case VPMU_OP_DIV:
		return vpmu_div(a, b);
	case VPMU_OP_DIVU:
		return b ? a / b : ~0u;
	case VPMU_OP_REM:
		return vpmu_rem(a, b);
	case VPMU_OP_REMU:
		return b ? a % b : a;
	}
	return 0;
}

/* The bytes a load or store moves. */
static __always_inline unsigned int vpmu_mem_size(unsigned int op)
{
	switch (op) {
	case VPMU_OP_LB:
	case VPMU_OP_LBU:
	case VPMU_OP_SB:
		return 1;
	case VPMU_OP_LH:
	case VPMU_OP_LHU:
	case VPMU_OP_SH:
		return 2;
	}
	return 4;
}

/* What load @op reads from the little-endian bytes at @p. */
static __always_inline u32 vpmu_load(unsigned int op, const u8 *p)
{
	switch (op) {
	case VPMU_OP_LB:
		return (u32)(s32)(s8)p[0];
	case VPMU_OP_LBU:
		return p[0];
	case VPMU_OP_LH:
		return (u32)(s32)(s16)(p[0] | p[1] << 8);
	case VPMU_OP_LHU:
		return (u32)(p[0] | p[1] << 8);
	}
	return vpmu_get_le32(p);
}

/*
 * SUB.s into the sink, then BR on flag condition @cond (AL..GE): whether
 * it holds, decided from the operands @a and @b, as the flags of a - b
 * would say.  The fused compare leaves those flags lazy: R[VPMU_RF_FLAGS]
 * holds VPMU_FLAGS_LAZY and the operands are kept.
 */
static __always_inline bool vpmu_cmp_holds(unsigned int cond, u32 a, u32 b)
{
	switch (cond) {
	case VPMU_COND_Z:
		return a == b;
	case VPMU_COND_NZ:
		return a != b;
	case VPMU_COND_N:
		return (s32)(a - b) < 0;
	case VPMU_COND_NN:
		return (s32)(a - b) >= 0;
	case VPMU_COND_C:
		return a < b;
	case VPMU_COND_NC:
		return a >= b;
	case VPMU_COND_V:
		return ((a ^ b) & (a ^ (a - b))) >> 31;
	case VPMU_COND_NV:
		return !(((a ^ b) & (a ^ (a - b))) >> 31);
	case VPMU_COND_LT:
		return (s32)a < (s32)b;
	case VPMU_COND_GE:
		return (s32)a >= (s32)b;
	}
	return true;	/* AL */
}

/* R[VPMU_RF_FLAGS]: the flags of the SUB of dp.lazy_a and dp.lazy_b */
#define VPMU_FLAGS_LAZY	16

/*
 * The shapes of an ALU microword (vpmu_alu_shape()): the common ones get
 * a fused handler each, everything else the general one, which leaves
 * the result to its sequencer handler.
 *
 *   NEXT     direct operands, NEXT
 *   IMM      a direct register and the immediate, NEXT
 *   ATSRC    any sources (@ds, @s1, @s2 too), a direct destination, NEXT
 *   AT       any operands, NEXT
 *   LATCH    a latch destination, direct sources, NEXT (EXT has its own)
 *   JUMP     any operands, JUMP
 *   EOI      any operands, EOI
 *   PCEOI    direct operands, pc the destination, EOI
 *   BR       any operands, BR on flags (S or not)
 *   GENERAL  anything else
 *
 * None of the fused forms has a special destination (latch or flags) but
 * LATCH, or S but BR.
 */
enum vpmu_shape {
	VPMU_SHAPE_NEXT,
	VPMU_SHAPE_IMM,
	VPMU_SHAPE_ATSRC,
	VPMU_SHAPE_AT,
	VPMU_SHAPE_LATCH,
	VPMU_SHAPE_JUMP,
	VPMU_SHAPE_EOI,
	VPMU_SHAPE_PCEOI,
	VPMU_SHAPE_BR,
	VPMU_SHAPE_GENERAL,
	VPMU_SHAPE_NR
};

/* An ALU operation's handlers, one per shape in that order. */
#define VPMU_ALU_HANDLERS(X, op)					\
	X(op##_NEXT, FALLS) X(op##_IMM, FALLS) X(op##_ATSRC, FALLS)	\
	X(op##_AT, FALLS) X(op##_LATCH, FALLS) X(op##_JUMP, ENDS)	\
	X(op##_EOI, ENDS) X(op##_PCEOI, ENDS) X(op##_BR, ENDS)		\
	X(op##_GENERAL, NONE)

/*
 * Every handler of the interpreter, X(name, props): the ALU operations'
 * by shape, the loads' and stores', NOP's (falling through or not) and
 * MODE's; fused whole microwords (compare and branch, EXTs into latches,
 * ADD pc ; EOI with the opcode in ir's low byte, EOI8, on 4-byte or
 * 2-byte (EOI8H) boundaries, ...); and the pre-handlers (trigger sources,
 * readers of lazy flags).  vpmu_interp() has a label for each,
 * VPMU_HANDLER_<name>, and its jump table an entry; an operation of
 * VPMU_OP_LIST without one here does not build (vpmu_op_handler[]).
 */
#define VPMU_HANDLER_LIST(X)						\
	VPMU_ALU_HANDLERS(X, ADD) VPMU_ALU_HANDLERS(X, SUB)		\
	VPMU_ALU_HANDLERS(X, AND) VPMU_ALU_HANDLERS(X, OR)		\
	VPMU_ALU_HANDLERS(X, XOR) VPMU_ALU_HANDLERS(X, SHL)		\
	VPMU_ALU_HANDLERS(X, SHR) VPMU_ALU_HANDLERS(X, SAR)		\
	VPMU_ALU_HANDLERS(X, SLT) VPMU_ALU_HANDLERS(X, SLTU)		\
	VPMU_ALU_HANDLERS(X, MUL) VPMU_ALU_HANDLERS(X, MOV)		\
	VPMU_ALU_HANDLERS(X, EXT) VPMU_ALU_HANDLERS(X, SEXT)		\
	VPMU_ALU_HANDLERS(X, MULH) VPMU_ALU_HANDLERS(X, MULHSU)	\
	VPMU_ALU_HANDLERS(X, MULHU) VPMU_ALU_HANDLERS(X, DIV)		\
	VPMU_ALU_HANDLERS(X, DIVU) VPMU_ALU_HANDLERS(X, REM)		\
	VPMU_ALU_HANDLERS(X, REMU)					\
	X(LB, NONE) X(LBU, NONE) X(LH, NONE) X(LHU, NONE) X(LW, NONE)	\
	X(SB, NONE) X(SH, NONE) X(SW, NONE)				\
	X(NOP_FALL, FALLS) X(NOP, ENDS) X(MODE, NONE)			\
	X(CMP_AL, NONE) X(CMP_Z, NONE) X(CMP_NZ, NONE) X(CMP_N, NONE)	\
	X(CMP_NN, NONE) X(CMP_C, NONE) X(CMP_NC, NONE) X(CMP_V, NONE)	\
	X(CMP_NV, NONE) X(CMP_LT, NONE) X(CMP_GE, NONE)		\
	X(LATCH_EXT, FALLS) X(LATCH_EXT_IR, FALLS)			\
	X(LATCH_EXT_IR_X2, FALLS) X(LATCH_EXT_IR_X2_SAR, FALLS)	\
	X(PC_ADDI_EOI, ENDS) X(PC_ADDI_EOI8, ENDS)			\
	X(PC_ADDI_EOI8H, ENDS) X(PC_ADD_EOI8, ENDS)			\
	X(PC_ADD_EOI8H, ENDS)						\
	X(EXT_THEN_DISP, ENDS) X(ADD_THEN_DISP, ENDS)			\
	X(EXT_THEN_BR, ENDS) X(NOP_THEN_JUMP, ENDS)			\
	X(TRIG, NONE) X(TRIG_PC_ADDI_EOI, NONE)			\
	X(TRIG_PC_ADDI_EOI8, NONE) X(SYNC_FLAGS, NONE)

/* Handler indices (vpmu_uop.h_dispatch, h_fast, h_general). */
enum vpmu_handler {
#define X(name, ...)	VPMU_HANDLER_##name,
	VPMU_HANDLER_LIST(X)
#undef X
	VPMU_HANDLER_NR
};

/*
 * Handler properties.  FALLS: goes on to the next microword unchecked
 * (vpmu_segments()).  ENDS: ends its segment through its own sequencer
 * and needs no pre-handler or memory fast path, so that a trigger source
 * toggled on entry may run it (vpmu_trig_fast()).
 */
#define VPMU_HPROP_NONE		0
#define VPMU_HPROP_FALLS	BIT(0)
#define VPMU_HPROP_ENDS		BIT(1)

/*
 * Sequencer handler indices (vpmu_uop.seq): one per VPMU_SEQ_LIST entry,
 * named alike (VPMU_SEQ_HANDLER_BR: BR on a flag condition), and BRX,
 * BR on an external one.
 */
enum vpmu_seq_handler {
#define X(name, ...)	VPMU_SEQ_HANDLER_##name,
	VPMU_SEQ_LIST(X)
#undef X
	VPMU_SEQ_HANDLER_BRX,
	VPMU_SEQ_HANDLER_NR
};

/*
 * The interpreter has one jump table, of VPMU_DISPATCH_NR labels: the
 * microword handlers', then the sequencer handlers' from VPMU_HANDLER_NR
 * on.  One table a function, because objtool follows one table from an
 * indirect jump, and a kernel built for size (-Os) makes one indirect
 * jump of all the function's computed gotos.
 */
#define VPMU_DISPATCH_NR	(VPMU_HANDLER_NR + VPMU_SEQ_HANDLER_NR)

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
