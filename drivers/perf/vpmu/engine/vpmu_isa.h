/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vpmu_isa.h - the one table that describes every microword operation.
 *
 * The engine's decoder, handlers and jump table, the image validator, the
 * assembler and the disassembler are all generated from the lists below;
 * adding an operation here is the whole of the work for the toolchain and
 * most of it for the engine, which must supply its semantics (vpmu_alu()
 * and the handlers in vpmu_uop.h) and does not build until it does.
 *
 * This header is portable: it depends only on <linux/types.h> through the
 * uapi header, and compiles in the kernel and on the host.
 */
#ifndef _VPMU_ISA_H
#define _VPMU_ISA_H

#include <linux/vpmu.h>

/* Extract / insert one microword field, e.g. VPMU_UW_GET(uw, OP). */
#define VPMU_UW_MASK(f)		((1ull << VPMU_UW_##f##_BITS) - 1)
#define VPMU_UW_GET(uw, f)	\
	((unsigned int)(((uw) >> VPMU_UW_##f##_SHIFT) & VPMU_UW_MASK(f)))
#define VPMU_UW_PUT(f, v)	\
	(((__u64)(v) & VPMU_UW_MASK(f)) << VPMU_UW_##f##_SHIFT)

/* IMM is a 10-bit two's complement field. */
static inline __s32 vpmu_uw_simm(__u64 uw)
{
	__s32 v = (__s32)VPMU_UW_GET(uw, IMM);

	return v >= (1 << (VPMU_UW_IMM_BITS - 1)) ? v - (1 << VPMU_UW_IMM_BITS) : v;
}

/*
 * Operand signatures: which of DST, A, B, IMM an operation reads.  Every
 * field an operation does not use must be zero (the validator enforces it,
 * the disassembler relies on it for a faithful round trip).
 *
 *   sig    uses                  assembler syntax
 *   NONE   -                     NOP
 *   DAB    DST A B|IMM           ADD dst, a, b        ADD dst, a, #imm
 *   DB     DST B|IMM             MOV dst, b           MOV dst, #imm
 *   DAF    DST A IMM(field)      EXT dst, a, pos, len    SEXT dst, a, width
 *   LD     DST A IMM(offset)     LW dst, imm(a)
 *   ST     A B IMM(offset)       SW b, imm(a)
 *   I      IMM                   MODE #imm
 *
 * vpmu_sig_info[] (below) says this once for the validator, the assembler
 * and the disassembler.
 */
enum vpmu_sig {
	VPMU_SIG_NONE,
	VPMU_SIG_DAB,
	VPMU_SIG_DB,
	VPMU_SIG_DAF,
	VPMU_SIG_LD,
	VPMU_SIG_ST,
	VPMU_SIG_I,
};

#define VPMU_SIG_NR	(VPMU_SIG_I + 1)	/* the last one's + 1 */

/*
 * ALU and memory operations: X(name, code, signature, meaning).
 * Flags (S bit, DAB/DB/DAF only): Z and N from the result; ADD sets C to
 * the carry out and V to signed overflow; SUB sets C to the borrow
 * (a < b unsigned) and V to signed overflow; every other operation clears
 * C and V.  Memory addresses are a + sign-extended IMM and must be
 * naturally aligned and inside program memory, or the microword faults.
 */
#define VPMU_OP_LIST(X)							\
	X(NOP,	0x00, NONE, "do nothing")				\
	X(ADD,	0x01, DAB,  "dst = a + b")				\
	X(SUB,	0x02, DAB,  "dst = a - b")				\
	X(AND,	0x03, DAB,  "dst = a & b")				\
	X(OR,	0x04, DAB,  "dst = a | b")				\
	X(XOR,	0x05, DAB,  "dst = a ^ b")				\
	X(SHL,	0x06, DAB,  "dst = a << (b & 31)")			\
	X(SHR,	0x07, DAB,  "dst = a >> (b & 31), zero-filling")	\
	X(SAR,	0x08, DAB,  "dst = a >> (b & 31), sign-filling")	\
	X(SLT,	0x09, DAB,  "dst = (s32)a < (s32)b ? 1 : 0")		\
	X(SLTU,	0x0a, DAB,  "dst = a < b ? 1 : 0")			\
	X(MUL,	0x0b, DAB,  "dst = low 32 bits of a * b")		\
	X(MOV,	0x0c, DB,   "dst = b")					\
	X(EXT,	0x0d, DAF,  "dst = bits pos..pos+len-1 of a, zero-extended") \
	X(SEXT,	0x0e, DAF,  "dst = low width bits of a, sign-extended")	\
	X(LB,	0x10, LD,   "dst = sign-extended byte at a + imm")	\
	X(LBU,	0x11, LD,   "dst = zero-extended byte at a + imm")	\
	X(LH,	0x12, LD,   "dst = sign-extended halfword at a + imm")	\
	X(LHU,	0x13, LD,   "dst = zero-extended halfword at a + imm")	\
	X(LW,	0x14, LD,   "dst = word at a + imm")			\
	X(SB,	0x15, ST,   "byte at a + imm = b (via the write queue)") \
	X(SH,	0x16, ST,   "halfword at a + imm = b (via the write queue)") \
	X(SW,	0x17, ST,   "word at a + imm = b (via the write queue)") \
	X(MODE,	0x18, I,    "privilege mode = imm (0 user, 1 supervisor)") \
	VPMU_OP_LIST_MULDIV(X)

/*
 * Multiply high, divide and remainder, as RV32M defines them: the high
 * words of the 64-bit products (signed x signed, signed x unsigned,
 * unsigned x unsigned), and quotients and remainders that never trap:
 * x / 0 = -1 (all ones), x % 0 = x, INT_MIN / -1 = INT_MIN and
 * INT_MIN % -1 = 0.  Quotients round towards zero; a remainder has the
 * sign of the dividend.
 */
#define VPMU_OP_LIST_MULDIV(X)						\
	X(MULH,	  0x30, DAB, "dst = high 32 bits of (s32)a * (s32)b")	\
	X(MULHSU, 0x31, DAB, "dst = high 32 bits of (s32)a * (u32)b")	\
	X(MULHU,  0x32, DAB, "dst = high 32 bits of (u32)a * (u32)b")	\
	X(DIV,	  0x33, DAB, "dst = (s32)a / (s32)b; b = 0: ~0; INT_MIN / -1: INT_MIN") \
	X(DIVU,	  0x34, DAB, "dst = a / b; b = 0: ~0")			\
	X(REM,	  0x35, DAB, "dst = (s32)a % (s32)b; b = 0: a; INT_MIN % -1: 0") \
	X(REMU,	  0x36, DAB, "dst = a % b; b = 0: a")

/*
 * EXT packs its field as IMM = pos | (len - 1) << 5; SEXT packs
 * IMM = width - 1.  The assembler and disassembler use these helpers.
 */
#define VPMU_EXT_IMM(pos, len)	(((pos) & 31) | (((len) - 1) & 31) << 5)
#define VPMU_EXT_POS(imm)	((imm) & 31)
#define VPMU_EXT_LEN(imm)	((((imm) >> 5) & 31) + 1)

enum vpmu_op {
#define VPMU_X_ENUM(name, code, ...) VPMU_OP_##name = code,
	VPMU_OP_LIST(VPMU_X_ENUM)
#undef VPMU_X_ENUM
	VPMU_OP_NR = 1 << VPMU_UW_OP_BITS,
};

/*
 * Sequencer signatures: which of TARGET and COND a sequencer op reads
 * (vpmu_seqsig_info[] below).
 */
enum vpmu_seqsig {
	VPMU_SEQSIG_NONE,	/* TARGET and COND zero */
	VPMU_SEQSIG_TARGET,	/* TARGET: micro-address, COND zero */
	VPMU_SEQSIG_COND,	/* TARGET: micro-address, COND: condition */
	VPMU_SEQSIG_DISP,	/* TARGET: table base, COND: width 1..8 */
	VPMU_SEQSIG_CODE,	/* TARGET: trap code, COND zero */
};

#define VPMU_SEQSIG_NR	(VPMU_SEQSIG_CODE + 1)	/* the last one's + 1 */

/*
 * Sequencer operations: X(name, code, signature, meaning).  They run after
 * the ALU/memory part, so BR sees flags the same microword set and DISP
 * uses the same microword's ALU result (DISP needs a DAB/DB/DAF op).
 */
#define VPMU_SEQ_LIST(X)						\
	X(NEXT,	0x0, NONE,   "continue at upc + 1")			\
	X(JUMP,	0x1, TARGET, "continue at target")			\
	X(BR,	0x2, COND,   "if cond, continue at target; else upc + 1") \
	X(CALL,	0x3, TARGET, "push upc + 1 on the micro-stack, continue at target") \
	X(RET,	0x4, NONE,   "pop the micro-stack and continue there")	\
	X(DISP,	0x5, DISP,   "continue at target + (result & (2^width - 1))") \
	X(EOI,	0x6, NONE,   "retire; ipc = pc, ir = word at pc, continue at idtab[opcode(ir)]") \
	X(HALT,	0x7, NONE,   "stop the engine: halted")			\
	X(TRAP,	0x8, CODE,   "stop the engine: trap with code = target") \
	X(CTR,	0x9, NONE,   "dst = the counter the result selects; continue at upc + 1")

/*
 * CTR reads a counter into the destination of its microword's ALU
 * operation, whose result selects it: bits 0..4 the counter, bit 7 its
 * high 32 bits instead of the low ones, every other bit ignored.  The
 * layout is RISC-V's counter CSRs' (cycle, time, instret, hpmcounter3..
 * and their h halves at + 0x80), so that microcode passes the CSR number
 * through.  Values are as of the end of the CTR microword: its cycle and
 * its events are counted, the instruction it belongs to is not yet
 * retired.  A counter no event is counting on (neither mode enabled)
 * reads 0; a frozen one its frozen value; a narrow one its value below
 * 2^width.  The engine stops its chunk there to read them exactly, so a
 * CTR costs a fold, not a microword's time.
 */
#define VPMU_CTR_SEL_CYCLES	0	/* cycles of the program */
#define VPMU_CTR_SEL_TIME	1	/* the same clock */
#define VPMU_CTR_SEL_INSNS	2	/* instructions it retired */
#define VPMU_CTR_SEL_PMU	3	/* + i: PMU counter i; past them: 0 */
#define VPMU_CTR_SEL_MASK	0x1f
#define VPMU_CTR_SEL_HIGH	0x80

/* May CTR write operand @code: a register, one through a latch, or zero? */
static inline int vpmu_ctr_dst_ok(unsigned int code)
{
	return code < VPMU_OPND_T0 + 8 || code == VPMU_OPND_ZERO ||
	       (code >= VPMU_OPND_AT_DS && code <= VPMU_OPND_AT_S2);
}

enum vpmu_seq {
#define VPMU_X_ENUM(name, code, ...) VPMU_SEQ_##name = code,
	VPMU_SEQ_LIST(VPMU_X_ENUM)
#undef VPMU_X_ENUM
	VPMU_SEQ_NR = 1 << VPMU_UW_SEQ_BITS,
};

/*
 * Branch conditions: X(name, code, meaning).  Flag conditions read the
 * flags as they are after this microword's ALU part; MISS and WQF read
 * the external signals as they are after its memory part.
 */
#define VPMU_COND_LIST(X)						\
	X(AL,	0x0, "always")						\
	X(Z,	0x1, "Z: result zero")					\
	X(NZ,	0x2, "not Z")						\
	X(N,	0x3, "N: result negative")				\
	X(NN,	0x4, "not N")						\
	X(C,	0x5, "C: carry out of ADD, borrow of SUB")		\
	X(NC,	0x6, "not C")						\
	X(V,	0x7, "V: signed overflow")				\
	X(NV,	0x8, "not V")						\
	X(LT,	0x9, "N != V: signed less than after SUB")		\
	X(GE,	0xa, "N == V: signed greater or equal after SUB")	\
	X(MISS,	0xb, "the last load missed the data cache")		\
	X(WQF,	0xc, "the write queue is full")				\
	X(USER,	0xd, "privilege mode is user")				\
	X(SUPER, 0xe, "privilege mode is supervisor")			\
	X(EXT,	0xf, "the external signal line is asserted")

enum vpmu_cond {
#define VPMU_X_ENUM(name, code, ...) VPMU_COND_##name = code,
	VPMU_COND_LIST(VPMU_X_ENUM)
#undef VPMU_X_ENUM
	VPMU_COND_NR = 1 << VPMU_UW_COND_BITS,
};

/*
 * Named operands other than r0..r31 and t0..t7: X("name", code, access).
 * "#" is the immediate: the assembler writes it as a bare number.
 * Access: RW readable and writable; RO read-only (a write is invalid);
 * BONLY valid only as B; SINK reads zero and discards writes.
 */
#define VPMU_OPND_LIST(X)						\
	X("pc",	   VPMU_OPND_PC,    RW)					\
	X("ir",	   VPMU_OPND_IR,    RW)					\
	X("ipc",   VPMU_OPND_IPC,   RO)					\
	X("ds",	   VPMU_OPND_DS,    RW)					\
	X("s1",	   VPMU_OPND_S1,    RW)					\
	X("s2",	   VPMU_OPND_S2,    RW)					\
	X("flags", VPMU_OPND_FLAGS, RW)					\
	X("@ds",   VPMU_OPND_AT_DS, RW)					\
	X("@s1",   VPMU_OPND_AT_S1, RW)					\
	X("@s2",   VPMU_OPND_AT_S2, RW)					\
	X("#",	   VPMU_OPND_IMM,   BONLY)				\
	X("zero",  VPMU_OPND_ZERO,  SINK)

/*
 * Image header flags (VPMU_IMG_F_*) by their assembler names, for .flags:
 * X("name", bit, doc).
 */
#define VPMU_IMG_FLAG_LIST(X)						\
	X("r0zero",   VPMU_IMG_F_R0_ZERO,  "r0 reads 0 and ignores writes") \
	X("ialign16", VPMU_IMG_F_IALIGN16,				\
	  "instructions on 2-byte boundaries: EOI fetches at any even pc")

enum vpmu_opnd_access {
	VPMU_ACC_NONE,		/* reserved code */
	VPMU_ACC_RW,
	VPMU_ACC_RO,
	VPMU_ACC_BONLY,
	VPMU_ACC_SINK,
};

/*
 * The signature table: what each signature means to the validator, the
 * assembler and the disassembler, which consult it rather than each
 * deciding again per signature.  A signature is the microword fields it
 * uses (VPMU_UWF_*; every other field of its part must be zero) and its
 * operands in source order (their roles).  A role is one operand's
 * syntax, fields and checks, written once in each of the three; adding a
 * signature is a row here and in vpmu_isa.c, and code only for a role no
 * signature had.
 */
enum {
	VPMU_UWF_DST	= 1 << 0,	/* DST: the destination */
	VPMU_UWF_A	= 1 << 1,	/* A: a source operand */
	VPMU_UWF_B	= 1 << 2,	/* B: a source operand */
	VPMU_UWF_BIMM	= 1 << 3,	/* B may be # (VPMU_OPND_IMM): IMM then */
	VPMU_UWF_IMM	= 1 << 4,	/* IMM, whatever B is */
	VPMU_UWF_S	= 1 << 5,	/* S: an ALU result, for DISP, CTR too */
	VPMU_UWF_TARGET	= 1 << 6,	/* TARGET (sequencer) */
	VPMU_UWF_COND	= 1 << 7,	/* COND (sequencer) */
};

/* The fields of the ALU/memory part and of the sequencer part. */
#define VPMU_UWF_ALU	\
	(VPMU_UWF_DST | VPMU_UWF_A | VPMU_UWF_B | VPMU_UWF_IMM)
#define VPMU_UWF_SEQ	(VPMU_UWF_TARGET | VPMU_UWF_COND)

/* ALU/memory operands, by role: the syntax, then the fields it fills. */
enum vpmu_role {
	VPMU_ROLE_NONE,		/* no (further) operand */
	VPMU_ROLE_DST,		/* "dst": a writable operand; DST */
	VPMU_ROLE_A,		/* "a": an operand; A */
	VPMU_ROLE_B,		/* "b" or "#imm": an operand; B, IMM */
	VPMU_ROLE_BREG,		/* "b", not "#imm": an operand; B */
	VPMU_ROLE_FIELD,	/* a bit field: vpmu_field_poslen(); IMM */
	VPMU_ROLE_MEM,		/* "imm(a)", imm optional; IMM, A */
	VPMU_ROLE_MODE,		/* "#0" (user) or "#1" (supervisor); IMM */
};

/* Sequencer operands, by role. */
enum vpmu_seqrole {
	VPMU_SEQROLE_NONE,	/* no (further) operand */
	VPMU_SEQROLE_TARGET,	/* a micro-address, with WIDTH a table's; TARGET */
	VPMU_SEQROLE_COND,	/* a condition by its name; COND */
	VPMU_SEQROLE_WIDTH,	/* a dispatch width, 1..8; COND */
	VPMU_SEQROLE_CODE,	/* a trap code, 0..4095; TARGET */
};

#define VPMU_SIG_OPNDS		3
#define VPMU_SEQSIG_OPNDS	2

struct vpmu_sig_info {
	const char *name;
	__u8 fields;			/* VPMU_UWF_*, of VPMU_UWF_ALU and S */
	__u8 opnd[VPMU_SIG_OPNDS];	/* enum vpmu_role, in source order */
};

struct vpmu_seqsig_info {
	const char *name;
	__u8 fields;			/* VPMU_UWF_*, of VPMU_UWF_SEQ */
	__u8 result;			/* reads the ALU part's result */
	__u8 opnd[VPMU_SEQSIG_OPNDS];	/* enum vpmu_seqrole, in source order */
};

extern const struct vpmu_sig_info vpmu_sig_info[VPMU_SIG_NR];
extern const struct vpmu_seqsig_info vpmu_seqsig_info[VPMU_SEQSIG_NR];

/* The bits of a microword that fields @f (VPMU_UWF_*) hold. */
static inline __u64 vpmu_uwf_bits(unsigned int f)
{
	__u64 m = 0;

	if (f & VPMU_UWF_DST)
		m |= VPMU_UW_PUT(DST, ~0ull);
	if (f & VPMU_UWF_A)
		m |= VPMU_UW_PUT(A, ~0ull);
	if (f & VPMU_UWF_B)
		m |= VPMU_UW_PUT(B, ~0ull);
	if (f & VPMU_UWF_IMM)
		m |= VPMU_UW_PUT(IMM, ~0ull);
	if (f & VPMU_UWF_S)
		m |= VPMU_UW_PUT(S, ~0ull);
	if (f & VPMU_UWF_TARGET)
		m |= VPMU_UW_PUT(TARGET, ~0ull);
	if (f & VPMU_UWF_COND)
		m |= VPMU_UW_PUT(COND, ~0ull);
	return m;
}

/*
 * The fields an operation of signature @sig uses in a microword whose B
 * is @b: its signature's, and IMM if B is the immediate and may be.
 */
static inline unsigned int vpmu_sig_fields(enum vpmu_sig sig, unsigned int b)
{
	unsigned int f = vpmu_sig_info[sig].fields;

	if ((f & VPMU_UWF_BIMM) && b == VPMU_OPND_IMM)
		f |= VPMU_UWF_IMM;
	return f;
}

/* Has an operation of signature @sig an ALU result (S, DISP, CTR)? */
static inline int vpmu_sig_result(enum vpmu_sig sig)
{
	return !!(vpmu_sig_info[sig].fields & VPMU_UWF_S);
}

/* Does sequencer signature @sig take an operand of role @role? */
static inline int vpmu_seqsig_takes(enum vpmu_seqsig sig,
				    enum vpmu_seqrole role)
{
	const struct vpmu_seqsig_info *si = &vpmu_seqsig_info[sig];
	unsigned int k;

	for (k = 0; k < VPMU_SEQSIG_OPNDS; k++)
		if (si->opnd[k] == role)
			return 1;
	return 0;
}

/*
 * The words a sequencer operation of signature @sig with COND @cond can
 * go to from its TARGET: a dispatch table's 2^width, else one.
 */
static inline unsigned int vpmu_seqsig_span(enum vpmu_seqsig sig,
					    unsigned int cond)
{
	return vpmu_seqsig_takes(sig, VPMU_SEQROLE_WIDTH) ? 1u << cond : 1;
}

/*
 * The field operand (VPMU_ROLE_FIELD) of a DAF operation, the one place
 * where operations of a signature differ in their operands: EXT's is
 * "pos, len", packed by VPMU_EXT_IMM(); SEXT's "width", packed as
 * width - 1.
 */
static inline int vpmu_field_poslen(unsigned int op)
{
	return op == VPMU_OP_EXT;
}

/* Is IMM @imm a field that DAF operation @op can take? */
static inline int vpmu_field_ok(unsigned int op, unsigned int imm)
{
	if (vpmu_field_poslen(op))
		return VPMU_EXT_POS(imm) + VPMU_EXT_LEN(imm) <= 32;
	return imm < 32;
}

/*
 * Is IMM @imm in range for an operand of role @role of operation @op?
 * Only a field and a mode are taken as they are (shift counts, the
 * privilege mode); every other role's IMM is any value.
 */
static inline int vpmu_role_imm_ok(enum vpmu_role role, unsigned int op,
				   unsigned int imm)
{
	switch (role) {
	case VPMU_ROLE_FIELD:
		return vpmu_field_ok(op, imm);
	case VPMU_ROLE_MODE:
		return imm <= 1;
	case VPMU_ROLE_NONE:
	case VPMU_ROLE_DST:
	case VPMU_ROLE_A:
	case VPMU_ROLE_B:
	case VPMU_ROLE_BREG:
	case VPMU_ROLE_MEM:
		break;
	}
	return 1;
}

/* Table entries, defined once in vpmu_isa.c. */
struct vpmu_op_info {
	const char *name;	/* NULL: reserved code */
	const char *doc;
	enum vpmu_sig sig;
};

struct vpmu_seq_info {
	const char *name;
	const char *doc;
	enum vpmu_seqsig sig;
};

struct vpmu_cond_info {
	const char *name;
	const char *doc;
};

struct vpmu_opnd_info {
	const char *name; /* "r7", "t3", "pc", "@ds", ...; NULL reserved */
	enum vpmu_opnd_access access;
};

extern const struct vpmu_op_info vpmu_op_info[VPMU_OP_NR];
extern const struct vpmu_seq_info vpmu_seq_info[VPMU_SEQ_NR];
extern const struct vpmu_cond_info vpmu_cond_info[VPMU_COND_NR];
extern const struct vpmu_opnd_info vpmu_opnd_info[1 << VPMU_UW_DST_BITS];

/*
 * Basic engine events: X(name, perf alias, meaning), each numbered
 * VPMU_EV_##name (uapi).
 */
#define VPMU_EVENT_LIST(X)						\
	X(CYCLES,    "vpmu_cycles",    "cycles, stall cycles included") \
	X(UOPS,      "vpmu_uops",      "microwords executed") \
	X(INSNS,     "vpmu_insns",     "macro instructions retired") \
	X(UBR_TAKEN, "vpmu_ubr_taken", "conditional micro-branches taken") \
	X(DISPATCH,  "vpmu_dispatch",  "multiway dispatches") \
	X(DC_HIT,    "vpmu_dc_hit",    "data-cache load hits") \
	X(DC_MISS,   "vpmu_dc_miss",   "data-cache load misses") \
	X(WQ_STALL,  "vpmu_wq_stall",  "cycles stalled on a full write queue") \
	X(TRIGGER,   "vpmu_trigger",   "trigger microwords executed") \
	X(STORES,    "vpmu_stores",    "stores entering the write queue")

struct vpmu_event_info {
	const char *name;	/* perf alias */
	const char *doc;
};

extern const struct vpmu_event_info vpmu_event_info[VPMU_EV_NR_BASIC];

#endif /* _VPMU_ISA_H */
