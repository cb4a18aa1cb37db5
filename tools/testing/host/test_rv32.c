// SPDX-License-Identifier: GPL-2.0
/*
 * test_rv32.c - the RV32IM microcode (tools/vpmu/share/ucode/rv32im.vus),
 * with RV32A and RV32C, instruction by instruction, on the engine core: no cross
 * compiler, no qemu.  Each case is a few instruction words encoded here from the ISA's
 * formats, registers set before the run, and the registers, stop and
 * counts expected after it; the values are the ISA's corner cases
 * (overflow, x0, shift amounts, sign and zero extension, the extremes of
 * every immediate, division by zero and INT_MIN / -1).  Every case ends
 * with ecall (trap 2) unless it tests another stop.  test_rv32.sh
 * compares whole programs with qemu-riscv32.
 */
#include <stdio.h>
#include <stdlib.h>

#include "tap.h"
#include "vpmu_asm.h"
#include "vpmu_engine.h"

/* The encodings. */
#define OPC_LOAD	0x03
#define OPC_IMM		0x13
#define OPC_AUIPC	0x17
#define OPC_STORE	0x23
#define OPC_OP		0x33
#define OPC_LUI		0x37
#define OPC_BRANCH	0x63
#define OPC_JALR	0x67
#define OPC_JAL		0x6f

#define RT(f7, f3, rd, a, b)	((u32)(f7) << 25 | (u32)(b) << 20 |	\
				 (u32)(a) << 15 | (f3) << 12 | (rd) << 7 | OPC_OP)
#define IT(op, f3, rd, a, imm)	((u32)((imm) & 0xfff) << 20 |		\
				 (u32)(a) << 15 | (f3) << 12 | (rd) << 7 | (op))
#define ST(f3, a, b, imm)	((u32)(((imm) >> 5) & 0x7f) << 25 |	\
				 (u32)(b) << 20 | (u32)(a) << 15 | (f3) << 12 | \
				 ((imm) & 0x1f) << 7 | OPC_STORE)
#define BT(f3, a, b, off)	((u32)(((off) >> 12) & 1) << 31 |	\
				 (u32)(((off) >> 5) & 0x3f) << 25 |	\
				 (u32)(b) << 20 | (u32)(a) << 15 | (f3) << 12 | \
				 (((off) >> 1) & 0xf) << 8 |		\
				 (((off) >> 11) & 1) << 7 | OPC_BRANCH)
#define UT(op, rd, imm20)	((u32)(imm20) << 12 | (rd) << 7 | (op))
#define JT(rd, off)		((u32)(((off) >> 20) & 1) << 31 |	\
				 (u32)(((off) >> 1) & 0x3ff) << 21 |	\
				 (u32)(((off) >> 11) & 1) << 20 |	\
				 (u32)(((off) >> 12) & 0xff) << 12 |	\
				 (rd) << 7 | OPC_JAL)

#define ADD(d, a, b)	RT(0, 0, d, a, b)
#define SUB(d, a, b)	RT(0x20, 0, d, a, b)
#define SLL(d, a, b)	RT(0, 1, d, a, b)
#define SLT(d, a, b)	RT(0, 2, d, a, b)
#define SLTU(d, a, b)	RT(0, 3, d, a, b)
#define XOR(d, a, b)	RT(0, 4, d, a, b)
#define SRL(d, a, b)	RT(0, 5, d, a, b)
#define SRA(d, a, b)	RT(0x20, 5, d, a, b)
#define OR(d, a, b)	RT(0, 6, d, a, b)
#define AND(d, a, b)	RT(0, 7, d, a, b)
#define MUL(d, a, b)	RT(1, 0, d, a, b)
#define MULH(d, a, b)	RT(1, 1, d, a, b)
#define MULHSU(d, a, b)	RT(1, 2, d, a, b)
#define MULHU(d, a, b)	RT(1, 3, d, a, b)
#define DIV(d, a, b)	RT(1, 4, d, a, b)
#define DIVU(d, a, b)	RT(1, 5, d, a, b)
#define REM(d, a, b)	RT(1, 6, d, a, b)
#define REMU(d, a, b)	RT(1, 7, d, a, b)
#define ADDI(d, a, i)	IT(OPC_IMM, 0, d, a, i)
#define SLTI(d, a, i)	IT(OPC_IMM, 2, d, a, i)
#define SLTIU(d, a, i)	IT(OPC_IMM, 3, d, a, i)
#define XORI(d, a, i)	IT(OPC_IMM, 4, d, a, i)
#define ORI(d, a, i)	IT(OPC_IMM, 6, d, a, i)
#define ANDI(d, a, i)	IT(OPC_IMM, 7, d, a, i)
#define SLLI(d, a, s)	IT(OPC_IMM, 1, d, a, s)
#define SRLI(d, a, s)	IT(OPC_IMM, 5, d, a, s)
#define SRAI(d, a, s)	IT(OPC_IMM, 5, d, a, 0x400 | (s))
#define LB(d, a, i)	IT(OPC_LOAD, 0, d, a, i)
#define LH(d, a, i)	IT(OPC_LOAD, 1, d, a, i)
#define LW(d, a, i)	IT(OPC_LOAD, 2, d, a, i)
#define LBU(d, a, i)	IT(OPC_LOAD, 4, d, a, i)
#define LHU(d, a, i)	IT(OPC_LOAD, 5, d, a, i)
#define SB(a, b, i)	ST(0, a, b, i)
#define SH(a, b, i)	ST(1, a, b, i)
#define SW(a, b, i)	ST(2, a, b, i)
#define BEQ(a, b, o)	BT(0, a, b, o)
#define BNE(a, b, o)	BT(1, a, b, o)
#define BLT(a, b, o)	BT(4, a, b, o)
#define BGE(a, b, o)	BT(5, a, b, o)
#define BLTU(a, b, o)	BT(6, a, b, o)
#define BGEU(a, b, o)	BT(7, a, b, o)
#define LUI(d, i)	UT(OPC_LUI, d, i)
#define AUIPC(d, i)	UT(OPC_AUIPC, d, i)
#define JAL(d, o)	JT(d, o)
#define JALR(d, a, i)	IT(OPC_JALR, 0, d, a, i)
#define FENCE		0x0ff0000fu
#define ECALL		0x00000073u
/* Zicsr: funct3 1..3 with rs1, 5..7 with uimm, on CSR @c */
#define CSR_(f3, d, a, c)	IT(0x73, f3, d, a, c)
#define CSRR(d, c)	CSR_(2, d, 0, c)	/* csrrs d, c, x0 */
#define EBREAK		0x00100073u
#define MARK		0x0000000bu

/* A: funct5, then rd, rs1 (the address), rs2; aq and rl clear. */
#define AMO(f5, d, a, b)	((u32)(f5) << 27 | (u32)(b) << 20 |	\
				 (u32)(a) << 15 | 2 << 12 | (d) << 7 | 0x2f)
#define LR(d, a)	AMO(0x02, d, a, 0)
#define SC(d, a, b)	AMO(0x03, d, a, b)
#define AMOSWAP(d, a, b)	AMO(0x01, d, a, b)
#define AMOADD(d, a, b)	AMO(0x00, d, a, b)
#define AMOXOR(d, a, b)	AMO(0x04, d, a, b)
#define AMOAND(d, a, b)	AMO(0x0c, d, a, b)
#define AMOOR(d, a, b)	AMO(0x08, d, a, b)
#define AMOMIN(d, a, b)	AMO(0x10, d, a, b)
#define AMOMAX(d, a, b)	AMO(0x14, d, a, b)
#define AMOMINU(d, a, b)	AMO(0x18, d, a, b)
#define AMOMAXU(d, a, b)	AMO(0x1c, d, a, b)
#define AQRL		(3u << 25)

/*
 * RV32C (Zca), from the formats CR, CI, CSS, CIW, CL, CS, CA, CB, CJ; P is
 * a 3-bit register field (x8..x15).  C2(a, b): two of them in one word, a
 * first.
 */
#define C2(a, b)	((u32)(a) | (u32)(b) << 16)
#define P(r)		((u32)(r) - 8)
#define CI_(f3, rd, i, op)	((f3) << 13 | (((i) >> 5) & 1) << 12 |	\
				 (rd) << 7 | ((i) & 0x1f) << 2 | (op))
#define CNOP		0x0001u
#define CADDI(d, i)	CI_(0, d, i, 1)
#define CLI(d, i)	CI_(2, d, i, 1)
#define CLUI(d, i6)	CI_(3, d, i6, 1)	/* nzimm[17:12] */
#define CSLLI(d, s)	CI_(0, d, s, 2)
#define CADDI16SP(i)	(3 << 13 | (((i) >> 9) & 1) << 12 | 2 << 7 |	\
			 (((i) >> 4) & 1) << 6 | (((i) >> 6) & 1) << 5 |	\
			 (((i) >> 7) & 3) << 3 | (((i) >> 5) & 1) << 2 | 1)
#define CADDI4SPN(d, i)	((((i) >> 4) & 3) << 11 | (((i) >> 6) & 0xf) << 7 | \
			 (((i) >> 2) & 1) << 6 | (((i) >> 3) & 1) << 5 |	\
			 P(d) << 2)
#define CLS_(f3, a, b, i)	((f3) << 13 | (((i) >> 3) & 7) << 10 |	\
				 P(a) << 7 | (((i) >> 2) & 1) << 6 |	\
				 (((i) >> 6) & 1) << 5 | P(b) << 2)
#define CLW(d, a, i)	CLS_(2, a, d, i)
#define CSW(a, b, i)	CLS_(6, a, b, i)
#define CSH_(f2, d, s)	(4 << 13 | (((s) >> 5) & 1) << 12 | (f2) << 10 |	\
			 P(d) << 7 | ((s) & 0x1f) << 2 | 1)
#define CSRLI(d, s)	CSH_(0, d, s)
#define CSRAI(d, s)	CSH_(1, d, s)
#define CANDI(d, i)	CSH_(2, d, i)
#define CA_(f2, d, b)	(4 << 13 | 3 << 10 | P(d) << 7 | (f2) << 5 | P(b) << 2 | 1)
#define CSUB(d, b)	CA_(0, d, b)
#define CXOR(d, b)	CA_(1, d, b)
#define COR(d, b)	CA_(2, d, b)
#define CAND(d, b)	CA_(3, d, b)
#define CJ_(f3, o)	((f3) << 13 | (((o) >> 11) & 1) << 12 |		\
			 (((o) >> 4) & 1) << 11 | (((o) >> 8) & 3) << 9 |	\
			 (((o) >> 10) & 1) << 8 | (((o) >> 6) & 1) << 7 |	\
			 (((o) >> 7) & 1) << 6 | (((o) >> 1) & 7) << 3 |	\
			 (((o) >> 5) & 1) << 2 | 1)
#define CJAL(o)		CJ_(1, o)
#define CJ(o)		CJ_(5, o)
#define CB_(f3, a, o)	((f3) << 13 | (((o) >> 8) & 1) << 12 |		\
			 (((o) >> 3) & 3) << 10 | P(a) << 7 |		\
			 (((o) >> 6) & 3) << 5 | (((o) >> 1) & 3) << 3 |	\
			 (((o) >> 5) & 1) << 2 | 1)
#define CBEQZ(a, o)	CB_(6, a, o)
#define CBNEZ(a, o)	CB_(7, a, o)
#define CLWSP(d, i)	(2 << 13 | (((i) >> 5) & 1) << 12 | (d) << 7 |	\
			 (((i) >> 2) & 7) << 4 | (((i) >> 6) & 3) << 2 | 2)
#define CSWSP(b, i)	(6 << 13 | (((i) >> 2) & 0xf) << 9 |		\
			 (((i) >> 6) & 3) << 7 | (b) << 2 | 2)
#define CR_(f4, a, b)	((f4) << 12 | (a) << 7 | (b) << 2 | 2)
#define CJR(a)		CR_(8, a, 0)
#define CMV(d, b)	CR_(8, d, b)
#define CEBREAK		CR_(9, 0, 0)
#define CJALR(a)	CR_(9, a, 0)
#define CADD(d, b)	CR_(9, d, b)

#define MIN	0x80000000u
#define MAX	0x7fffffffu
#define M1	0xffffffffu

/* Data words at DATA (x10 points there), the code at 0. */
#define DATA	0x100
#define MEMSZ	0x2000

struct rv_reg { unsigned int r; u32 v; };

struct rv_case {
	const char *name;
	u32 code[24];
	struct rv_reg init[6];		/* r = 0 ends the list */
	u32 data[4];
	struct rv_reg want[8];		/* r = 0 ends; x0 is checked always */
	u32 trap;			/* expected trap code: 0 means 2 */
	u32 mem[2][2];			/* { address, word } checked, 0 ends */
	u32 far[4][2];			/* { address, word } code beyond code[] */
	int insns;			/* retired; -1: do not check */
};

#define X(r, v)	{ r, v }

static const struct rv_case cases[] = {
{ "add, sub wrap; x0 reads 0 and ignores writes",
  { ADD(3, 1, 2), SUB(4, 0, 2), SUB(5, 6, 2), ADDI(0, 1, 5), ADD(7, 0, 0),
    ECALL },
  { X(1, MAX), X(2, 1), X(6, MIN) },
  .want = { X(3, MIN), X(4, M1), X(5, MAX), X(7, 0) }, .insns = 5 },
{ "sll, srl, sra use the low 5 bits of rs2",
  { SLL(3, 1, 2), SRL(4, 1, 2), SRA(5, 1, 2), SLL(6, 1, 7), SRA(8, 1, 9),
    ECALL },
  { X(1, MIN | 6), X(2, 31), X(7, 33), X(9, 32) },
  .want = { X(3, 0), X(4, 1), X(5, M1), X(6, 0xc), X(8, MIN | 6) } },
{ "slli, srli, srai by 0 and 31",
  { SLLI(3, 1, 31), SRLI(4, 1, 31), SRAI(5, 1, 31), SRAI(6, 1, 0),
    SRLI(7, 2, 1), ECALL },
  { X(1, MIN | 3), X(2, M1) },
  .want = { X(3, MIN), X(4, 1), X(5, M1), X(6, MIN | 3), X(7, MAX) } },
{ "slt, sltu, slti, sltiu: signed against unsigned",
  { SLT(3, 1, 2), SLTU(4, 1, 2), SLTI(5, 1, 0), SLTIU(6, 2, -1),
    SLTIU(7, 1, -1), SLTIU(8, 0, 1), SLT(9, 2, 2), ECALL },
  { X(1, M1), X(2, 1) },
  .want = { X(3, 1), X(4, 0), X(5, 1), X(6, 1), X(7, 0), X(8, 1),
	    X(9, 0) } },
{ "addi, xori, ori, andi: 12-bit immediates sign-extended",
  { ADDI(3, 1, -2048), ADDI(4, 1, 2047), XORI(5, 1, -1), ORI(6, 0, -2048),
    ANDI(7, 2, -2048), ANDI(8, 2, 2047), ECALL },
  { X(1, 0), X(2, M1) },
  .want = { X(3, 0xfffff800u), X(4, 2047), X(5, M1), X(6, 0xfffff800u),
	    X(7, 0xfffff800u), X(8, 0x7ff) } },
{ "and, or, xor",
  { AND(3, 1, 2), OR(4, 1, 2), XOR(5, 1, 2), ECALL },
  { X(1, 0xff00ff00u), X(2, 0x0ff00ff0u) },
  .want = { X(3, 0x0f000f00u), X(4, 0xfff0fff0u), X(5, 0xf0f0f0f0u) } },
{ "lui, auipc: the 20-bit immediate and the pc",
  { LUI(3, 0xfffff), LUI(4, 0x80000), ADDI(0, 0, 0), AUIPC(5, 0x1),
    AUIPC(6, 0xfffff), ECALL },
  .want = { X(3, 0xfffff000u), X(4, MIN), X(5, 0x100c),
	    X(6, 0xfffff010u) } },
{ "lb, lbu, lh, lhu, lw: sign and zero extension",
  { LB(3, 10, 0), LBU(4, 10, 0), LH(5, 10, 2), LHU(6, 10, 2), LW(7, 10, 4),
    LB(8, 11, -4), LH(9, 11, -2), ECALL },
  { X(10, DATA), X(11, DATA + 8) },
  { 0x8000ff80u, 0x7fffffffu, 0x00000000u },
  .want = { X(3, 0xffffff80u), X(4, 0x80), X(5, 0xffff8000u), X(6, 0x8000),
	    X(7, MAX), X(8, M1), X(9, 0x7fff) } },
{ "sb, sh, sw: partial writes, negative offsets",
  { SW(10, 1, 0), SB(10, 2, 1), SH(10, 2, 6), SB(11, 0, -1), LW(3, 10, 0),
    LW(4, 10, 4), ECALL },
  { X(1, 0x11223344u), X(2, 0xaabbccddu), X(10, DATA), X(11, DATA + 8) },
  { 0, 0x55667788u },
  .want = { X(3, 0x1122dd44u), X(4, 0x00dd7788u) },
  .mem = { { DATA + 4, 0x00dd7788u } } },
{ "store immediates: -2048 and 2047",
  { SW(10, 1, -2048), SW(10, 1, 2044), LW(3, 11, 0), LW(4, 12, 0), ECALL },
  { X(1, 0xdeadbeefu), X(10, 0x1000), X(11, 0x800), X(12, 0x17fc) },
  .want = { X(3, 0xdeadbeefu), X(4, 0xdeadbeefu) } },
{ "beq, bne: taken skips, not taken falls through",
  { BEQ(1, 2, 8), ADDI(3, 0, 1), BNE(1, 2, 8), ADDI(4, 0, 1),
    BEQ(1, 1, 8), ADDI(5, 0, 1), ECALL },
  { X(1, 5), X(2, 6) },
  .want = { X(3, 1), X(4, 0), X(5, 0) }, .insns = 4 },
{ "blt, bge signed; bltu, bgeu unsigned (-1 against 1)",
  { BLT(1, 2, 8), ADDI(3, 0, 1), BGE(1, 2, 8), ADDI(4, 0, 1),
    BLTU(1, 2, 8), ADDI(5, 0, 1), BGEU(1, 2, 8), ADDI(6, 0, 1),
    BGE(2, 2, 8), ADDI(7, 0, 1), ECALL },
  { X(1, M1), X(2, 1) },
  .want = { X(3, 0), X(4, 1), X(5, 1), X(6, 0), X(7, 0) } },
{ "blt, bge when rs1 - rs2 overflows (INT_MIN, 1; INT_MAX, -1)",
  { BLT(1, 2, 8), ADDI(5, 0, 1), BGE(3, 4, 8), ADDI(6, 0, 1),
    BGE(1, 2, 8), ADDI(7, 0, 1), BLT(3, 4, 8), ADDI(8, 0, 1), ECALL },
  { X(1, MIN), X(2, 1), X(3, MAX), X(4, M1) },
  .want = { X(5, 0), X(6, 0), X(7, 1), X(8, 1) }, .insns = 6 },
{ "backward branch: a counted loop",
  { ADDI(1, 0, 10), ADDI(2, 2, 3), ADDI(1, 1, -1), BNE(1, 0, -8), ECALL },
  .want = { X(1, 0), X(2, 30) }, .insns = 1 + 3 * 10 },
{ "branch offsets: +4092 and -4096 (every immediate bit)",
  { BEQ(0, 0, 0xffc), ECALL },
  .far = { { 0xffc, ADDI(3, 0, 7) }, { 0x1000, ADDI(4, 0, 9) },
	   { 0x1004, BEQ(0, 0, -4096) } },
  .want = { X(3, 7), X(4, 9) }, .insns = 4 },
{ "jal: link and offsets forward and back",
  { JAL(1, 12), ADDI(3, 0, 1), ECALL, JAL(5, -8), ECALL },
  .want = { X(1, 4), X(5, 16), X(3, 1) }, .insns = 3 },
{ "jalr: bit 0 of the target cleared, rd = rs1",
  { JALR(1, 2, 9), ADDI(3, 0, 1), ECALL, JALR(2, 2, 1), ECALL },
  { X(2, 4) },
  .want = { X(1, 4), X(2, 16), X(3, 1) }, .insns = 3 },
{ "jal: offsets with bits 11 and 12 set, forward and back",
  { JAL(1, 0x1804), ECALL },
  .far = { { 0x1804, JAL(4, -0x1800) } },
  .want = { X(1, 4), X(4, 0x1808) }, .insns = 2 },
{ "mul, mulh, mulhsu, mulhu",
  { MUL(3, 1, 1), MULH(4, 1, 1), MULHSU(5, 2, 1), MULHU(6, 2, 2),
    MULH(7, 2, 1), MULHSU(8, 1, 2), ECALL },
  { X(1, MIN), X(2, M1) },
  .want = { X(3, 0), X(4, 0x40000000u), X(5, M1), X(6, 0xfffffffeu),
	    X(7, 0), X(8, 0x80000000u) } },
{ "div, rem: INT_MIN / -1 and division by zero",
  { DIV(3, 1, 2), REM(4, 1, 2), DIV(5, 6, 0), REM(7, 6, 0), DIVU(8, 6, 0),
    REMU(9, 6, 0), ECALL },
  { X(1, MIN), X(2, M1), X(6, (u32)-7) },
  .want = { X(3, MIN), X(4, 0), X(5, M1), X(7, (u32)-7), X(8, M1),
	    X(9, (u32)-7) } },
{ "div, rem round towards zero; divu, remu",
  { DIV(3, 1, 2), REM(4, 1, 2), DIV(5, 2, 1), REM(6, 2, 1), DIVU(7, 1, 2),
    REMU(8, 1, 2), ECALL },
  { X(1, (u32)-7), X(2, 2) },
  .want = { X(3, (u32)-3), X(4, M1), X(5, 0), X(6, 2), X(7, 0x7ffffffcu),
	    X(8, 1) } },
{ "fence and mark are no-ops",
  { FENCE, MARK, ADDI(3, 0, 1), ECALL },
  .want = { X(3, 1) }, .insns = 3 },
{ "ebreak stops with trap 3", { EBREAK }, .trap = 3, .insns = 0 },
{ "the all-zero halfword (c.addi4spn with 0) is illegal", { 0 }, .trap = 1,
  .insns = 0 },
{ "undefined funct7 of OP is illegal",
  { RT(0x10, 0, 3, 1, 2) }, .trap = 1, .insns = 0 },
{ "undefined funct3 of LOAD, STORE, BRANCH is illegal",
  { IT(OPC_LOAD, 3, 3, 0, 0), }, .trap = 1, .insns = 0 },
{ "srai with funct7 other than 0x20 is illegal",
  { IT(OPC_IMM, 5, 3, 1, 0x200 | 3) }, .trap = 1, .insns = 0 },
{ "csrrw (SYSTEM, funct3 1) is illegal",
  { 0x34011073u }, .trap = 1, .insns = 0 },
{ "jalr with funct3 1 is illegal",
  { IT(OPC_JALR, 1, 1, 2, 0) }, .trap = 1, .insns = 0 },
{ "c.li, c.addi: 6-bit immediates; c.nop, c.addi to x0",
  { C2(CLI(8, -32), CLI(9, 31)), C2(CADDI(9, -32), CADDI(10, 31)),
    C2(CNOP, CADDI(0, 5)), C2(CLI(11, 0), CNOP), ECALL },
  { X(10, MAX), X(11, 7) },
  .want = { X(8, 0xffffffe0u), X(9, M1), X(10, 0x8000001eu), X(11, 0) },
  .insns = 8 },
{ "c.lui: bit 17 signs; c.addi16sp: -512 .. 496",
  { C2(CLUI(8, 0x20), CLUI(9, 0x1f)), C2(CADDI16SP(-512), CADDI16SP(496)),
    C2(CADDI16SP(32), CNOP), ECALL },
  { X(2, 0x1000) },
  .want = { X(8, 0xfffe0000u), X(9, 0x1f000), X(2, 0x1010) }, .insns = 6 },
{ "c.lui with a zero immediate is reserved", { CLUI(8, 0) }, .trap = 1,
  .insns = 0 },
{ "c.addi16sp with a zero immediate is reserved", { CADDI16SP(0) },
  .trap = 1, .insns = 0 },
{ "c.addi4spn: sp + 4 .. 1020 into x8 .. x15",
  { C2(CADDI4SPN(8, 1020), CADDI4SPN(15, 4)), ECALL },
  { X(2, 0x100) }, .want = { X(8, 0x4fc), X(15, 0x104) }, .insns = 2 },
{ "c.lw, c.sw: x8 .. x15, offsets 0 .. 124",
  { C2(CLW(9, 8, 0), CLW(15, 8, 4)), C2(CSW(8, 15, 124), CSW(12, 9, 8)),
    C2(CLW(10, 8, 124), CNOP), ECALL },
  { X(8, DATA), X(12, DATA) }, { 0x11223344u, 0x80000001u },
  .want = { X(9, 0x11223344u), X(15, 0x80000001u), X(10, 0x80000001u) },
  .mem = { { DATA + 124, 0x80000001u }, { DATA + 8, 0x11223344u } },
  .insns = 6 },
{ "c.lwsp, c.swsp: offsets 0 .. 252 from sp",
  { C2(CSWSP(5, 252), CLWSP(6, 252)), C2(CLWSP(7, 0), CNOP), ECALL },
  { X(2, DATA), X(5, 0xdeadbeefu) }, { 0x55 },
  .want = { X(6, 0xdeadbeefu), X(7, 0x55) },
  .mem = { { DATA + 252, 0xdeadbeefu } }, .insns = 4 },
{ "c.lwsp to x0 is reserved", { CLWSP(0, 0) }, .trap = 1, .insns = 0 },
{ "c.slli, c.srli, c.srai, c.andi: shifts 1 .. 31, immediates -32 .. 31",
  { C2(CSLLI(5, 31), CSRLI(8, 31)), C2(CSRAI(9, 31), CSRAI(10, 1)),
    C2(CANDI(11, -32), CANDI(12, 31)), ECALL },
  { X(5, 3), X(8, M1), X(9, MIN), X(10, MIN | 2), X(11, M1), X(12, M1) },
  .want = { X(5, MIN), X(8, 1), X(9, M1), X(10, 0xc0000001u),
	    X(11, 0xffffffe0u), X(12, 31) }, .insns = 6 },
{ "c.slli by 32 (shamt[5], RV64's) is illegal", { CSLLI(5, 32) },
  .trap = 1, .insns = 0 },
{ "c.srai by 32 (shamt[5], RV64's) is illegal", { CSRAI(8, 32) },
  .trap = 1, .insns = 0 },
{ "c.sub, c.xor, c.or, c.and; c.mv, c.add; to x0",
  { C2(CSUB(8, 9), CXOR(10, 11)), C2(COR(12, 13), CAND(14, 15)),
    C2(CMV(5, 8), CADD(6, 10)), C2(CMV(0, 5), CADD(0, 6)), ECALL },
  { X(8, 1), X(9, 2), X(10, 0xff00), X(11, 0x0ff0), X(12, 0xf0),
    X(13, 0x0f) },
  .want = { X(8, M1), X(10, 0xf0f0), X(12, 0xff), X(14, 0), X(5, M1),
	    X(6, 0xf0f0) }, .insns = 8 },
{ "c.j, c.jal: forward and back; c.jal links pc + 2",
  { C2(CJAL(12), CLI(8, 1)), ECALL, C2(CNOP, CNOP), C2(CJ(-8), CNOP) },
  .want = { X(1, 2), X(8, 0) }, .insns = 2 },
{ "c.j, c.jal: offsets 2046 and -2040",
  { C2(CJ(2046), CNOP), C2(CNOP, CLI(9, 7)), ECALL },
  .far = { { 2044, C2(CNOP, CJAL(-2040)) } },
  .want = { X(1, 2048), X(9, 7) }, .insns = 3 },
{ "c.beqz, c.bnez: taken and not, offsets 254 and -250",
  { C2(CBEQZ(8, 254), CNOP), C2(CBNEZ(8, 100), CLI(10, 3)), ECALL },
  { X(9, 5) }, .far = { { 252, C2(CNOP, CBNEZ(9, -250)) } },
  .want = { X(10, 3) }, .insns = 4 },
{ "c.jalr, c.jr: to rs1 & ~1; c.jalr x1 reads x1 before it links",
  { C2(CJALR(1), CLI(8, 1)), ECALL, C2(CJR(5), CNOP), C2(CLI(9, 4), CNOP),
    ECALL },
  { X(1, 9), X(5, 13) }, .want = { X(1, 2), X(8, 0), X(9, 4) },
  .insns = 4 },
{ "c.jr x0 is reserved", { CJR(0) }, .trap = 1, .insns = 0 },
{ "c.ebreak stops with trap 3", { CEBREAK }, .trap = 3, .insns = 0 },
{ "a 32-bit instruction on a 2-byte boundary after a compressed one",
  { C2(CLI(8, 5), ADDI(9, 8, 100) & 0xffff),
    ADDI(9, 8, 100) >> 16 | (ECALL & 0xffff) << 16, ECALL >> 16 },
  .want = { X(8, 5), X(9, 105) }, .insns = 2 },
{ "amoadd, amoxor, amoor, amoand, amoswap: rd the old word, memory the new",
  { AMOADD(3, 10, 5), AMOXOR(4, 11, 6), AMOOR(7, 12, 6), AMOAND(8, 10, 6),
    AMOSWAP(9, 10, 6), ECALL },
  { X(10, DATA), X(11, DATA + 4), X(12, DATA + 8), X(5, 3), X(6, 0x0f0f) },
  { 5, 0xff00, 0x0ff0 },
  .want = { X(3, 5), X(4, 0xff00), X(7, 0x0ff0), X(8, 8), X(9, 8) },
  .mem = { { DATA, 0x0f0f }, { DATA + 4, 0xf00f } }, .insns = 5 },
{ "amomin, amomax signed; amominu, amomaxu unsigned",
  { AMOMIN(3, 10, 5), AMOMINU(4, 11, 5), AMOMAX(6, 12, 7),
    AMOMAXU(8, 13, 7), AMOMIN(9, 10, 5), ECALL },
  { X(10, DATA), X(11, DATA + 4), X(12, DATA + 8), X(13, DATA + 12),
    X(5, 1), X(7, MIN) },
  { M1, M1, 1, 1 },
  .want = { X(3, M1), X(4, M1), X(6, 1), X(8, 1), X(9, M1) },
  .mem = { { DATA + 4, 1 }, { DATA + 12, MIN } }, .insns = 5 },
{ "an AMO reads rs1 and rs2 before it writes rd; to x0; aq and rl ignored",
  { AMOADD(10, 10, 5), AMOSWAP(5, 11, 5), AMOADD(0, 11, 6) | AQRL,
    ECALL },
  { X(10, DATA), X(11, DATA + 4), X(5, 7), X(6, 1) }, { 100, 200 },
  .want = { X(10, 100), X(5, 200) },
  .mem = { { DATA, 107 }, { DATA + 4, 8 } }, .insns = 3 },
{ "lr.w, then sc.w stores and writes 0; a second sc.w fails",
  { LR(3, 10), SC(4, 10, 5) | AQRL, SC(7, 10, 6), ECALL },
  { X(10, DATA), X(5, 0x22), X(6, 0x33) }, { 0x11 },
  .want = { X(3, 0x11), X(4, 0), X(7, 1) },
  .mem = { { DATA, 0x22 } }, .insns = 3 },
{ "sc.w with no reservation, or at another address, fails and ends it",
  { SC(3, 10, 5), LR(4, 10), SC(6, 11, 5), SC(7, 10, 5), ECALL },
  { X(10, DATA), X(11, DATA + 4), X(5, 9) }, { 1, 2 },
  .want = { X(3, 1), X(4, 1), X(6, 1), X(7, 1) },
  .mem = { { DATA, 1 }, { DATA + 4, 2 } }, .insns = 4 },
{ "sc.w fails after a store of another value, not after the same value",
  { LR(3, 10), SW(10, 5, 0), SC(4, 10, 7), LR(8, 10), SW(10, 5, 0),
    SC(9, 10, 7), ECALL },
  { X(10, DATA), X(5, 6), X(7, 9) }, { 5 },
  .want = { X(3, 5), X(4, 1), X(8, 6), X(9, 0) },
  .mem = { { DATA, 9 } }, .insns = 6 },
{ "sc.w with rd = rs2 and rd = rs1: stored, then 0",
  { LR(3, 10), SC(5, 10, 5), LR(3, 11), SC(11, 11, 10), ECALL },
  { X(10, DATA), X(11, DATA + 4), X(5, 0x55) },
  .want = { X(5, 0), X(11, 0) },
  .mem = { { DATA, 0x55 }, { DATA + 4, DATA } }, .insns = 4 },
{ "lw, lh, lhu at misaligned addresses: the bytes there, little-endian",
  { LW(3, 10, 1), LW(4, 10, 2), LW(5, 10, 3), LH(7, 10, 7), LHU(8, 10, 7),
    LH(9, 10, 1), ECALL },
  { X(10, DATA) }, { 0x44332211, 0x88776655, 0xccbbaa99 },
  .want = { X(3, 0x55443322), X(4, 0x66554433), X(5, 0x77665544),
	    X(7, 0xffff9988), X(8, 0x9988), X(9, 0x3322) }, .insns = 6 },
{ "sw at offsets 1 and 3, sh at 7: the bytes there; lw reads them back",
  { SW(10, 5, 1), SH(10, 6, 7), SW(11, 5, 3), LW(7, 11, 3), ECALL },
  { X(10, DATA), X(11, DATA + 4), X(5, 0xa1b2c3d4), X(6, 0x1234) },
  .want = { X(7, 0xa1b2c3d4) },
  .mem = { { DATA, 0xb2c3d400 }, { DATA + 4, 0xd40000a1 } }, .insns = 4 },
{ "c.lw, c.sw, c.lwsp, c.swsp at misaligned addresses",
  { C2(CLW(9, 8, 0), CSW(8, 13, 4)), C2(CLWSP(11, 0), CSWSP(14, 8)),
    ECALL },
  { X(8, DATA + 1), X(2, DATA + 2), X(13, 0xdeadbeefu), X(14, 0x01020304) },
  { 0x44332211, 0x88776655, 0xccbbaa99 },
  .want = { X(9, 0x55443322), X(11, 0xef554433) },
  .mem = { { DATA + 4, 0xadbeef55 }, { DATA + 8, 0x0304aade } },
  .insns = 4 },
{ "rdcycle, rdinstret, rdtime and their h halves: cycles to the end of the read, instructions before it",
  { CSRR(1, 0xc00), CSRR(2, 0xc02), CSRR(3, 0xc80), CSRR(4, 0xc82),
    CSRR(5, 0xc01), CSRR(6, 0xc81), CSRR(7, 0xc02), ECALL },
  { X(3, 5), X(4, 5), X(6, 5) },
  .want = { X(1, 8), X(2, 1), X(3, 0), X(4, 0), X(5, 4 * 9 + 8), X(6, 0),
	    X(7, 6) }, .insns = 7 },
{ "csrrc x0, csrrsi 0, csrrci 0 read; csrr x0 writes nothing",
  { CSR_(3, 1, 0, 0xc00), CSR_(6, 2, 0, 0xc02), CSR_(7, 3, 0, 0xc00),
    CSRR(0, 0xc00), ECALL },
  .want = { X(1, 8), X(2, 1), X(3, 2 * 9 + 8) }, .insns = 4 },
{ "hpmcounter3 and hpmcounter31 with no counter counting read 0",
  { CSRR(1, 0xc03), CSRR(2, 0xc1f), CSRR(3, 0xc9f), ECALL },
  { X(1, 5), X(2, 5), X(3, 5) },
  .want = { X(1, 0), X(2, 0), X(3, 0) }, .insns = 3 },
{ "csrrw on cycle is illegal", { CSR_(1, 1, 0, 0xc00) }, .trap = 1 },
{ "csrrwi on cycle is illegal", { CSR_(5, 1, 0, 0xc00) }, .trap = 1 },
{ "csrrs on cycle with rs1 not x0 is illegal, even rs1 = 0",
  { CSR_(2, 1, 5, 0xc00) }, .trap = 1 },
{ "csrrc on instret with rs1 not x0 is illegal", { CSR_(3, 1, 5, 0xc02) },
  .trap = 1 },
{ "csrrsi on cycle with uimm 1 is illegal", { CSR_(6, 1, 1, 0xc00) },
  .trap = 1 },
{ "funct3 4 in SYSTEM is illegal", { CSR_(4, 1, 0, 0xc00) }, .trap = 1 },
{ "CSR 0xc20 (past hpmcounter31) is illegal", { CSRR(1, 0xc20) },
  .trap = 1 },
{ "CSR 0xc40 (bit 6) is illegal", { CSRR(1, 0xc40) }, .trap = 1 },
{ "CSR 0xca0 (past hpmcounter31h) is illegal", { CSRR(1, 0xca0) },
  .trap = 1 },
{ "CSR 0xd00 is illegal", { CSRR(1, 0xd00) }, .trap = 1 },
{ "fflags (no F) is illegal", { CSRR(1, 0x001) }, .trap = 1 },
{ "mcycle (machine level) is illegal", { CSRR(1, 0xb00) }, .trap = 1 },
{ "ecall with rd not 0 is illegal", { ECALL | 1 << 7 }, .trap = 1 },
{ "lr.w with rs2 not 0 is illegal", { LR(3, 10) | 1 << 20 },
  { X(10, DATA) }, .trap = 1, .insns = 0 },
{ "an AMO with funct3 not 2 (amoadd.d) is illegal",
  { AMOADD(3, 10, 5) | 1 << 12 }, { X(10, DATA) }, .trap = 1, .insns = 0 },
{ "an undefined funct5 is illegal", { AMO(0x05, 3, 10, 5) },
  { X(10, DATA) }, .trap = 1, .insns = 0 },
};

#define NCASES	(sizeof(cases) / sizeof(cases[0]))

static struct vpmu_ucode *load_rv32im(void)
{
	const char *path = VPMU_TOP "/tools/vpmu/share/ucode/rv32im.vus";
	struct vpmu_buf src = { 0 }, img = { 0 }, diag = { 0 };
	struct vpmu_asm_opts o = { .filename = path };
	struct vpmu_ucode *uc = NULL;
	struct vpmu_verr err;

	if (vpmu_read_file(path, &src) ||
	    vpmu_asm_ucode(src.p, src.len, &o, &img, &diag) ||
	    vpmu_ucode_load(&uc, img.p, img.len, VPMU_CS_MAX, &err)) {
		tap_diag("%s: cannot build: %.*s", path, (int)diag.len,
			 diag.p ? diag.p : "");
		uc = NULL;
	}
	vpmu_buf_free(&src);
	vpmu_buf_free(&img);
	vpmu_buf_free(&diag);
	return uc;
}

static void put32(u8 *p, u32 v)
{
	p[0] = v;
	p[1] = v >> 8;
	p[2] = v >> 16;
	p[3] = v >> 24;
}

static u32 get32(const u8 *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (u32)p[3] << 24;
}

/* Memory of MEMSZ zeros with the @n words of @code at 0. */
static void put_code(u8 *mem, const u32 *code, unsigned int n)
{
	unsigned int i;

	memset(mem, 0, MEMSZ);
	for (i = 0; i < n; i++)
		put32(mem + 4 * i, code[i]);
}

static bool run_case(struct vpmu_engine *e, const struct rv_case *c)
{
	static u8 mem[MEMSZ];
	u32 want_trap = c->trap ? c->trap : 2, v;
	struct vpmu_stop st;
	unsigned int i;
	bool ok = true;

	put_code(mem, c->code, 24);
	for (i = 0; i < 4 && c->far[i][0]; i++)
		put32(mem + c->far[i][0], c->far[i][1]);
	for (i = 0; i < 4; i++)
		put32(mem + DATA + 4 * i, c->data[i]);
	vpmu_engine_start(e, mem, MEMSZ, 0, VPMU_MODE_USER);
	for (i = 0; i < 6 && c->init[i].r; i++)
		vpmu_engine_set_reg(e, VPMU_OPND_R0 + c->init[i].r, c->init[i].v);
	vpmu_engine_run(e, 100000, &st);
	if (st.reason != VPMU_STOP_TRAP || st.code != want_trap) {
		tap_diag("stop %u code %u at 0x%x, want trap %u", st.reason,
			 st.code, st.ipc, want_trap);
		ok = false;
	}
	for (i = 0; i < 8 && c->want[i].r; i++) {
		v = vpmu_engine_reg(e, VPMU_OPND_R0 + c->want[i].r);
		if (v != c->want[i].v) {
			tap_diag("x%u = 0x%08x, want 0x%08x", c->want[i].r, v,
				 c->want[i].v);
			ok = false;
		}
	}
	if (vpmu_engine_reg(e, VPMU_OPND_R0)) {
		tap_diag("x0 is not 0");
		ok = false;
	}
	for (i = 0; i < 2 && c->mem[i][0]; i++)
		if (get32(mem + c->mem[i][0]) != c->mem[i][1]) {
			tap_diag("mem 0x%x = 0x%08x, want 0x%08x", c->mem[i][0],
				 get32(mem + c->mem[i][0]), c->mem[i][1]);
			ok = false;
		}
	v = vpmu_engine_event_total(e, VPMU_EV_INSNS);
	if (c->insns >= 0 && (c->insns || c->trap) && v != (u32)c->insns) {
		tap_diag("%u instructions retired, want %d", v, c->insns);
		ok = false;
	}
	/* every instruction begun has one decode microword (tag 1) */
	if (vpmu_engine_event_total(e, VPMU_EV_TAG(1)) != v + 1) {
		tap_diag("decode %llu, retired %u", (unsigned long long)
			 vpmu_engine_event_total(e, VPMU_EV_TAG(1)), v);
		ok = false;
	}
	return ok;
}

/*
 * The tags of one program with one instruction of each kind: alu, load,
 * store, a taken and a not-taken branch, jal and jalr, a multiply and a
 * divide, mark (the trigger) and the ecall.
 */
static bool tags_case(struct vpmu_engine *e)
{
	static const u32 code[] = {
		ADDI(1, 0, 8), LW(2, 10, 0), SW(10, 2, 4), BEQ(0, 0, 8), 0,
		BNE(0, 0, 8), JAL(5, 8), 0, JALR(6, 5, 12), 0, MUL(3, 1, 1),
		DIV(4, 1, 1), MARK, ECALL,
	};
	static const u64 want[10] = { 0, 11, 1, 1, 1, 2, 1, 2, 2, 1 };
	static u8 mem[MEMSZ];
	struct vpmu_stop st;
	unsigned int i;
	bool ok;

	put_code(mem, code, sizeof(code) / 4);
	vpmu_engine_start(e, mem, MEMSZ, 0, VPMU_MODE_USER);
	vpmu_engine_set_reg(e, VPMU_OPND_R0 + 10, DATA);
	vpmu_engine_run(e, 100000, &st);
	ok = st.reason == VPMU_STOP_TRAP && st.code == 2 &&
	     vpmu_engine_event_total(e, VPMU_EV_TRIGGER) == 1;
	for (i = 1; i < 10; i++)
		if (vpmu_engine_event_total(e, VPMU_EV_TAG(i)) != want[i]) {
			tap_diag("tag %u: %llu, want %llu", i,
				 (unsigned long long)
				 vpmu_engine_event_total(e, VPMU_EV_TAG(i)),
				 (unsigned long long)want[i]);
			ok = false;
		}
	return ok;
}

/*
 * A mark on a 2-byte boundary in a loop of three passes, toggling an
 * fgroup's freeze bit: once the toggle is resolved, the trigger's fused
 * dispatch (TRIG_PC_ADDI_EOI) fetches the next instruction, on a 2-byte boundary too.
 * Three toggles a run: frozen after the first run, thawed after the second.
 */
static bool mark_ia16_case(struct vpmu_engine *e)
{
	static const u32 code[] = {
		C2(CLI(8, 3), MARK & 0xffff), C2(MARK >> 16, CADDI(8, -1)),
		C2(CBNEZ(8, -6), CNOP), ECALL,
	};
	static u8 mem[MEMSZ];
	struct vpmu_stop st;
	unsigned int run;
	bool ok = true;

	if (vpmu_engine_fgroup_trigger(e, 0, VPMU_TRIG_MARK))
		return false;
	for (run = 0; run < 2; run++) {
		put_code(mem, code, sizeof(code) / 4);
		vpmu_engine_start(e, mem, MEMSZ, 0, VPMU_MODE_USER);
		vpmu_engine_run(e, 100000, &st);
		if (st.reason != VPMU_STOP_TRAP || st.code != 2 ||
		    vpmu_engine_event_total(e, VPMU_EV_INSNS) != 11 ||
		    vpmu_engine_frozen(e, 0) != !run) {
			tap_diag("run %u: stop %u code %u at 0x%x, %llu retired, frozen %d",
				 run, st.reason, st.code, st.ipc,
				 (unsigned long long)
				 vpmu_engine_event_total(e, VPMU_EV_INSNS),
				 vpmu_engine_frozen(e, 0));
			ok = false;
		}
	}
	vpmu_engine_fgroup_trigger(e, 0, VPMU_TRIG_NONE);
	return ok;
}

/*
 * A trap ends the reservation: lr.w, ecall (the owner returns), sc.w
 * fails.  An AMO at a misaligned address faults; so does lr.w.  The
 * atomic tag counts each A instruction once.
 */
static bool amo_trap_case(struct vpmu_engine *e)
{
	static const u32 code[] = {
		LR(3, 10), ECALL, SC(4, 10, 5), AMOADD(6, 10, 5), ECALL,
		AMOSWAP(7, 11, 5), LR(8, 11),
	};
	static u8 mem[MEMSZ];
	struct vpmu_stop st[4];
	unsigned int i;
	bool ok;

	put_code(mem, code, sizeof(code) / 4);
	put32(mem + DATA, 40);
	vpmu_engine_start(e, mem, MEMSZ, 0, VPMU_MODE_USER);
	vpmu_engine_set_reg(e, VPMU_OPND_R0 + 10, DATA);
	vpmu_engine_set_reg(e, VPMU_OPND_R0 + 11, DATA + 2);
	vpmu_engine_set_reg(e, VPMU_OPND_R0 + 5, 2);
	for (i = 0; i < 3; i++) {
		vpmu_engine_run(e, 100000, &st[i]);
		if (st[i].reason == VPMU_STOP_TRAP)
			vpmu_engine_trap_return(e);
	}
	ok = vpmu_engine_reg(e, VPMU_OPND_R0 + 3) == 40 &&
	     vpmu_engine_reg(e, VPMU_OPND_R0 + 4) == 1 &&
	     vpmu_engine_reg(e, VPMU_OPND_R0 + 6) == 40 &&
	     get32(mem + DATA) == 42 &&
	     vpmu_engine_event_total(e, VPMU_EV_TAG(10)) == 3;
	/* lr.w alone, at the same address */
	vpmu_engine_start(e, mem, MEMSZ, 24, VPMU_MODE_USER);
	vpmu_engine_set_reg(e, VPMU_OPND_R0 + 11, DATA + 2);
	vpmu_engine_run(e, 100000, &st[3]);
	ok = ok && st[0].reason == VPMU_STOP_TRAP && st[0].code == 2 &&
	     st[1].reason == VPMU_STOP_TRAP && st[1].code == 2 &&
	     st[2].reason == VPMU_STOP_FAULT &&
	     st[2].code == VPMU_FAULT_ALIGN && st[2].addr == DATA + 2 &&
	     st[3].reason == VPMU_STOP_FAULT &&
	     st[3].code == VPMU_FAULT_ALIGN && st[3].addr == DATA + 2;
	if (!ok)
		tap_diag("stops %u/%u %u/%u %u/%u/0x%x %u/%u/0x%x; x3 %u x4 %u x6 %u; word %u; atomic %llu",
			 st[0].reason, st[0].code, st[1].reason, st[1].code,
			 st[2].reason, st[2].code, st[2].addr, st[3].reason,
			 st[3].code, st[3].addr,
			 vpmu_engine_reg(e, VPMU_OPND_R0 + 3),
			 vpmu_engine_reg(e, VPMU_OPND_R0 + 4),
			 vpmu_engine_reg(e, VPMU_OPND_R0 + 6), get32(mem + DATA),
			 (unsigned long long)
			 vpmu_engine_event_total(e, VPMU_EV_TAG(10)));
	return ok;
}

/*
 * hpmcounterN read the PMU's counter N - 3 as the engine has it: a wide
 * one's both halves, a narrow one's value below 2^width, a frozen one's
 * value, a disabled one 0, and each read's own csr tag (12) counted.
 */
static bool hpm_case(struct vpmu_engine *e)
{
	static const u32 code[] = {
		ADDI(1, 0, 1), ADDI(1, 1, 1), CSRR(5, 0xc03), CSRR(6, 0xc83),
		CSRR(8, 0xc00), CSRR(7, 0xc04), CSRR(9, 0xc05),
		CSRR(11, 0xc06), CSRR(12, 0xc07), CSRR(13, 0xc13),
		CSRR(14, 0xc87), ECALL,
	};
	static const struct vpmu_ctr_cfg cfg[5] = {
		{ VPMU_EV_INSNS, 64, VPMU_CTR_USER, 0 },
		{ VPMU_EV_CYCLES, 8, VPMU_CTR_USER, 0 },
		{ VPMU_EV_UOPS, 64, VPMU_CTR_USER, 1 },
		{ VPMU_EV_UOPS, 64, 0, 0 },
		{ VPMU_EV_TAG(12), 16, VPMU_CTR_USER, 0 },
	};
	static const u64 preset[5] = { 0x100000005ull, 250, 99, 55, 0 };
	static u8 mem[MEMSZ];
	struct vpmu_stop st;
	unsigned int i;
	u32 x[15];
	bool ok;

	put_code(mem, code, sizeof(code) / 4);
	vpmu_engine_start(e, mem, MEMSZ, 0, VPMU_MODE_USER);
	for (i = 0; i < 5; i++) {
		vpmu_engine_ctr_config(e, i, &cfg[i]);
		vpmu_engine_ctr_write(e, i, preset[i]);
	}
	vpmu_engine_freeze(e, 1, true);
	vpmu_engine_run(e, 100000, &st);
	for (i = 0; i < 15; i++)
		x[i] = vpmu_engine_reg(e, VPMU_OPND_R0 + i);
	ok = st.reason == VPMU_STOP_TRAP && st.code == 2 && x[5] == 7 &&
	     x[6] == 1 && x[7] == ((250 + x[8] + 9) & 0xff) &&
	     x[8] == 2 * 6 + 2 * 9 + 8 &&
	     x[9] == 99 && x[11] == 0 && x[12] == 7 && x[13] == 0 &&
	     x[14] == 0 && vpmu_engine_ctr_read(e, 0) == 0x100000010ull &&
	     vpmu_engine_ctr_read(e, 4) == 9;
	if (!ok)
		tap_diag("stop %u/%u; x5 %u x6 %u x7 %u x8 %u x9 %u x11 %u x12 %u x13 %u x14 %u; ctr0 0x%llx ctr4 %llu",
			 st.reason, st.code, x[5], x[6], x[7], x[8], x[9],
			 x[11], x[12], x[13], x[14], (unsigned long long)
			 vpmu_engine_ctr_read(e, 0), (unsigned long long)
			 vpmu_engine_ctr_read(e, 4));
	for (i = 0; i < 5; i++)
		vpmu_engine_ctr_config(e, i, &(struct vpmu_ctr_cfg){ 0 });
	vpmu_engine_freeze(e, 1, false);
	return ok;
}

/*
 * instret is the program's own: one stopped by its budget, saved, another
 * run to its end on the engine, the first restored and finished; its
 * read counts only its own instructions.
 */
static bool instret_ctx_case(struct vpmu_engine *e)
{
	static const u32 code[] = {
		ADDI(1, 0, 50), ADDI(1, 1, -1), BNE(1, 0, -4), CSRR(5, 0xc02),
		ECALL,
	};
	static u8 mem[MEMSZ], mem2[MEMSZ];
	struct vpmu_ctx *c = vpmu_ctx_create();
	struct vpmu_stop st[3];
	bool ok;

	put_code(mem, code, sizeof(code) / 4);
	put_code(mem2, code, sizeof(code) / 4);
	vpmu_engine_start(e, mem, MEMSZ, 0, VPMU_MODE_USER);
	vpmu_engine_run(e, 300, &st[0]);
	vpmu_engine_ctx_save(e, c);
	vpmu_engine_start(e, mem2, MEMSZ, 0, VPMU_MODE_USER);
	vpmu_engine_run(e, 100000, &st[1]);
	ok = vpmu_engine_reg(e, VPMU_OPND_R0 + 5) == 101;
	vpmu_engine_ctx_restore(e, c);
	vpmu_engine_run(e, 100000, &st[2]);
	ok = ok && st[0].reason == VPMU_STOP_BUDGET &&
	     st[1].reason == VPMU_STOP_TRAP && st[2].reason == VPMU_STOP_TRAP &&
	     vpmu_engine_reg(e, VPMU_OPND_R0 + 5) == 101;
	if (!ok)
		tap_diag("stops %u %u %u; x5 %u", st[0].reason, st[1].reason,
			 st[2].reason, vpmu_engine_reg(e, VPMU_OPND_R0 + 5));
	vpmu_ctx_destroy(c);
	return ok;
}

/*
 * A misaligned access counts the misalign tag (11) and its load or store
 * tag once, and the data cache or the write queue once a byte; a word
 * that runs past the end of memory faults at the first byte outside.
 */
static bool misalign_case(struct vpmu_engine *e)
{
	static const u32 code[] = {
		LW(3, 10, 1), SW(10, 3, 6), LH(4, 10, 0), LW(5, 11, -2),
	};
	static u8 mem[MEMSZ];
	struct vpmu_stop st;
	u64 mis, ld, stt, dc, stores;

	put_code(mem, code, sizeof(code) / 4);
	vpmu_engine_start(e, mem, MEMSZ, 0, VPMU_MODE_USER);
	vpmu_engine_set_reg(e, VPMU_OPND_R0 + 10, DATA);
	vpmu_engine_set_reg(e, VPMU_OPND_R0 + 11, MEMSZ);
	vpmu_engine_run(e, 100000, &st);
	mis = vpmu_engine_event_total(e, VPMU_EV_TAG(11));
	ld = vpmu_engine_event_total(e, VPMU_EV_TAG(3));
	stt = vpmu_engine_event_total(e, VPMU_EV_TAG(4));
	dc = vpmu_engine_event_total(e, VPMU_EV_DC_HIT) +
	     vpmu_engine_event_total(e, VPMU_EV_DC_MISS);
	stores = vpmu_engine_event_total(e, VPMU_EV_STORES);
	if (st.reason == VPMU_STOP_FAULT && st.code == VPMU_FAULT_LOAD &&
	    st.addr == MEMSZ && mis == 3 && ld == 3 && stt == 1 &&
	    dc == 4 + 1 + 2 && stores == 4)
		return true;
	tap_diag("stop %u code %u addr 0x%x; misalign %llu load %llu store %llu dc %llu stores %llu",
		 st.reason, st.code, st.addr, (unsigned long long)mis,
		 (unsigned long long)ld, (unsigned long long)stt,
		 (unsigned long long)dc, (unsigned long long)stores);
	return false;
}

int main(void)
{
	struct vpmu_ucode *uc = load_rv32im();
	struct vpmu_engine *e = vpmu_engine_create(VPMU_CS_MAX);
	unsigned int i;

	tap_plan(NCASES + 6);
	if (!uc || vpmu_engine_attach(e, uc)) {
		for (i = 0; i < NCASES + 6; i++)
			tap_ok(false, "rv32im.vus loads");
		return tap_done();
	}
	for (i = 0; i < NCASES; i++)
		tap_ok(run_case(e, &cases[i]), "%s", cases[i].name);
	tap_ok(tags_case(e), "tags: decode alu load store branch taken jump "
	       "muldiv ecall, and the mark trigger");
	tap_ok(mark_ia16_case(e), "a mark on a 2-byte boundary toggles a freeze bit and goes on");
	tap_ok(amo_trap_case(e), "an ecall ends the reservation; a misaligned AMO or lr.w faults");
	tap_ok(misalign_case(e), "a misaligned access: its tags, each byte in the cache or queue, a fault at the end of memory");
	tap_ok(hpm_case(e), "hpmcounterN: wide, narrow, frozen, disabled and past the counters");
	tap_ok(instret_ctx_case(e), "instret is the program's own across a context switch");
	vpmu_engine_destroy(e);
	vpmu_ucode_free(uc);
	return tap_done();
}
