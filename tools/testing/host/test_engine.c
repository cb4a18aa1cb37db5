// SPDX-License-Identifier: GPL-2.0
/*
 * test_engine.c - engine tests.
 *
 * The table (like lib/test_bpf.c) gives {microcode, memory, expected stop,
 * registers, cycles, event totals, memory words}.  Every table entry is
 * also re-run with counters on its events (which must match the totals),
 * split at every budget from 1 up (which must not change anything), and
 * with narrow interrupting counters (whose overflow stops must add up).
 * Programmatic tests follow for conditions, dispatch, counters, triggers,
 * modes, overflow, freezing and the histogram.
 */
#include <stdio.h>

#include "tap.h"
#include "vpmu_test_image.h"

#define MEMSZ	128
#define MAXEV	8
#define MAXREG	8
#define LOOPMEM	2048

struct reg_x { int set; u8 op; u32 v; };
struct ev_x { int set; u16 ev; u64 n; };
struct mw_x { int set; u32 off, v; };

#define RG(o, val)	{ 1, o, val }
#define EV(e, val)	{ 1, e, val }
#define MW(o, val)	{ 1, o, val }
#define TAG(k)		VPMU_EV_TAG(k)

struct etest {
	const char *name;
	int n;
	u64 uw[24];
	u32 flags, ev_mode, ev_bits;
	int penalty;			/* 0: default 5, -1: none */
	u32 wq_depth, wq_drain;		/* 0: defaults 2, 3 */
	u32 op_bits, op_shift, id[4];
	u8 mem[MEMSZ];
	u32 msz;			/* 0: 64 */
	u32 entry;
	unsigned int mode;
	int reason;
	u32 code, addr, upc;
	u64 cycles;
	struct reg_x regs[MAXREG];
	struct ev_x evs[MAXEV];
	struct mw_x mw[3];
};

#define OP_MOVI(d, v)	(UW(MOV, d, 0, IM, v) | Q(NEXT, 0, 0))
#define HALTW		(NOPW | Q(HALT, 0, 0))
#define ALUI(op, d, a, v)	(UW(op, d, a, IM, v) | Q(NEXT, 0, 0))
#define ALUR(op, d, a, b)	(UW(op, d, a, b, 0) | Q(NEXT, 0, 0))

#define STOP_HALT	.reason = VPMU_STOP_HALT
#define FL		VPMU_OPND_FLAGS

static const struct etest tests[] = {
{ "ADD sets C", 4, { OP_MOVI(T(0), 5), OP_MOVI(T(1), -3),
  UW(ADD, T(2), T(0), T(1), 0) | US | Q(NEXT, 0, 0), HALTW },
  STOP_HALT, .upc = 3, .cycles = 4,
  .regs = { RG(T(2), 2), RG(FL, VPMU_FLAG_C) },
  .evs = { EV(VPMU_EV_UOPS, 4), EV(VPMU_EV_CYCLES, 4) } },
{ "ADD signed overflow", 4, { OP_MOVI(T(0), -1), ALUI(SHR, T(0), T(0), 1),
  UW(ADD, T(1), T(0), IM, 1) | US | Q(NEXT, 0, 0), HALTW },
  STOP_HALT, .upc = 3, .cycles = 4,
  .regs = { RG(T(1), 0x80000000u), RG(FL, VPMU_FLAG_N | VPMU_FLAG_V) } },
{ "ADD zero with carry", 3, { OP_MOVI(T(0), -1),
  UW(ADD, T(1), T(0), IM, 1) | US | Q(NEXT, 0, 0), HALTW },
  STOP_HALT, .upc = 2, .cycles = 3,
  .regs = { RG(T(1), 0), RG(FL, VPMU_FLAG_Z | VPMU_FLAG_C) } },
{ "SUB borrow", 3, { OP_MOVI(T(0), 3),
  UW(SUB, T(1), T(0), IM, 5) | US | Q(NEXT, 0, 0), HALTW },
  STOP_HALT, .upc = 2, .cycles = 3,
  .regs = { RG(T(1), 0xfffffffeu), RG(FL, VPMU_FLAG_N | VPMU_FLAG_C) } },
{ "SUB signed overflow", 4, { OP_MOVI(T(0), 1), ALUI(SHL, T(0), T(0), 31),
  UW(SUB, T(1), T(0), IM, 1) | US | Q(NEXT, 0, 0), HALTW },
  STOP_HALT, .upc = 3, .cycles = 4,
  .regs = { RG(T(1), 0x7fffffffu), RG(FL, VPMU_FLAG_V) } },
{ "SUB equal", 3, { OP_MOVI(T(0), 7),
  UW(SUB, T(1), T(0), IM, 7) | US | Q(NEXT, 0, 0), HALTW },
  STOP_HALT, .upc = 2, .cycles = 3,
  .regs = { RG(T(1), 0), RG(FL, VPMU_FLAG_Z) } },
{ "AND.S clears C and V", 4, { OP_MOVI(T(0), -1),
  UW(ADD, T(1), T(0), IM, 1) | US | Q(NEXT, 0, 0),
  UW(AND, T(2), T(0), IM, -16) | US | Q(NEXT, 0, 0), HALTW },
  STOP_HALT, .upc = 3, .cycles = 4,
  .regs = { RG(T(2), 0xfffffff0u), RG(FL, VPMU_FLAG_N) } },
{ "OR, XOR.S zero", 4, { OP_MOVI(T(0), 0xf0), ALUI(OR, T(1), T(0), 0x0f),
  UW(XOR, T(2), T(1), IM, 0xff) | US | Q(NEXT, 0, 0), HALTW },
  STOP_HALT, .upc = 3, .cycles = 4,
  .regs = { RG(T(1), 0xff), RG(T(2), 0), RG(FL, VPMU_FLAG_Z) } },
{ "SHL by 31, 32, 33", 6, { OP_MOVI(T(0), 1), ALUI(SHL, T(1), T(0), 31),
  OP_MOVI(T(5), 32), ALUR(SHL, T(2), T(0), T(5)),
  ALUI(SHL, T(3), T(0), 33), HALTW },
  STOP_HALT, .upc = 5, .cycles = 6,
  .regs = { RG(T(1), 0x80000000u), RG(T(2), 1), RG(T(3), 2) } },
{ "SHR and SAR", 8, { OP_MOVI(T(0), -8), ALUI(SHR, T(1), T(0), 1),
  ALUI(SAR, T(2), T(0), 1), ALUI(SAR, T(3), T(0), 31),
  ALUI(SHR, T(4), T(0), 31), OP_MOVI(T(5), 32),
  ALUR(SAR, T(6), T(0), T(5)), HALTW },
  STOP_HALT, .upc = 7, .cycles = 8,
  .regs = { RG(T(1), 0x7ffffffcu), RG(T(2), 0xfffffffcu),
	    RG(T(3), 0xffffffffu), RG(T(4), 1), RG(T(6), 0xfffffff8u) } },
{ "SLT and SLTU", 7, { OP_MOVI(T(0), -1), OP_MOVI(T(1), 1),
  ALUR(SLT, T(2), T(0), T(1)), ALUR(SLTU, T(3), T(0), T(1)),
  ALUR(SLT, T(4), T(1), T(0)), ALUR(SLTU, T(5), T(1), T(0)), HALTW },
  STOP_HALT, .upc = 6, .cycles = 7,
  .regs = { RG(T(2), 1), RG(T(3), 0), RG(T(4), 0), RG(T(5), 1) } },
{ "MUL low bits", 7, { OP_MOVI(T(0), 1), ALUI(SHL, T(0), T(0), 16),
  ALUI(OR, T(0), T(0), 1), ALUR(MUL, T(1), T(0), T(0)),
  OP_MOVI(T(2), -3), ALUI(MUL, T(3), T(2), 5), HALTW },
  STOP_HALT, .upc = 6, .cycles = 7,
  .regs = { RG(T(1), 0x00020001u), RG(T(3), 0xfffffff1u) } },
{ "MULH, MULHSU, MULHU", 10, { OP_MOVI(T(0), -1), OP_MOVI(T(1), 1),
  ALUI(SHL, T(1), T(1), 31), OP_MOVI(T(2), 3),
  ALUR(MULH, T(3), T(0), T(1)), ALUR(MULH, T(4), T(1), T(1)),
  ALUR(MULHSU, T(5), T(0), T(1)), ALUR(MULHU, T(6), T(0), T(0)),
  ALUR(MULHSU, T(7), T(2), T(0)), HALTW },
  STOP_HALT, .upc = 9, .cycles = 10,
  .regs = { RG(T(3), 0), RG(T(4), 0x40000000u), RG(T(5), 0xffffffffu),
	    RG(T(6), 0xfffffffeu), RG(T(7), 2) } },
{ "DIV and REM: overflow and zero", 10, { OP_MOVI(T(0), -1),
  OP_MOVI(T(1), 1), ALUI(SHL, T(1), T(1), 31), OP_MOVI(T(2), 0),
  OP_MOVI(T(3), -7), ALUR(DIV, T(4), T(1), T(0)),
  ALUR(REM, T(5), T(1), T(0)), ALUR(DIV, T(6), T(3), T(2)),
  ALUR(REM, T(7), T(3), T(2)), HALTW },
  STOP_HALT, .upc = 9, .cycles = 10,
  .regs = { RG(T(4), 0x80000000u), RG(T(5), 0), RG(T(6), 0xffffffffu),
	    RG(T(7), 0xfffffff9u) } },
{ "DIV rounds to zero, DIVU and REMU", 10, { OP_MOVI(T(0), -7),
  OP_MOVI(T(1), 2), OP_MOVI(T(2), 0), ALUR(DIV, T(3), T(0), T(1)),
  ALUR(REM, T(4), T(0), T(1)), ALUR(DIVU, T(5), T(0), T(1)),
  ALUR(REMU, T(6), T(0), T(1)), ALUR(DIVU, T(7), T(0), T(2)),
  ALUR(REMU, T(1), T(0), T(2)), HALTW },
  STOP_HALT, .upc = 9, .cycles = 10,
  .regs = { RG(T(3), 0xfffffffdu), RG(T(4), 0xffffffffu),
	    RG(T(5), 0x7ffffffcu), RG(T(6), 1), RG(T(7), 0xffffffffu),
	    RG(T(1), 0xfffffff9u) } },
{ "MOV immediate range", 3, { OP_MOVI(T(0), -512), OP_MOVI(T(1), 511),
  HALTW }, STOP_HALT, .upc = 2, .cycles = 3,
  .regs = { RG(T(0), 0xfffffe00u), RG(T(1), 0x1ff) } },
{ "EXT fields", 7, { OP_MOVI(T(0), 0x1cd), ALUI(SHL, T(0), T(0), 8),
  ALUI(OR, T(0), T(0), 0xef),
  UW(EXT, T(1), T(0), 0, VPMU_EXT_IMM(4, 8)) | Q(NEXT, 0, 0),
  UW(EXT, T(2), T(0), 0, VPMU_EXT_IMM(0, 32)) | Q(NEXT, 0, 0),
  UW(EXT, T(3), T(0), 0, VPMU_EXT_IMM(16, 1)) | Q(NEXT, 0, 0), HALTW },
  STOP_HALT, .upc = 6, .cycles = 7,
  .regs = { RG(T(1), 0xde), RG(T(2), 0x1cdef), RG(T(3), 1) } },
{ "SEXT widths", 7, { OP_MOVI(T(0), 0x80),
  UW(SEXT, T(1), T(0), 0, 7) | Q(NEXT, 0, 0),
  UW(SEXT, T(2), T(0), 0, 8) | Q(NEXT, 0, 0),
  UW(SEXT, T(3), T(0), 0, 31) | Q(NEXT, 0, 0), OP_MOVI(T(4), -1),
  UW(SEXT, T(5), T(4), 0, 0) | Q(NEXT, 0, 0), HALTW },
  STOP_HALT, .upc = 6, .cycles = 7,
  .regs = { RG(T(1), 0xffffff80u), RG(T(2), 0x80), RG(T(3), 0x80),
	    RG(T(5), 0xffffffffu) } },
{ "EXT.S and SEXT.S set N", 3, {
  UW(EXT, T(1), ZERO, 0, VPMU_EXT_IMM(0, 4)) | US | Q(NEXT, 0, 0),
  UW(SEXT, T(2), ZERO, 0, 0) | US | Q(JUMP, 0, 2), HALTW },
  STOP_HALT, .upc = 2, .cycles = 3, .regs = { RG(FL, VPMU_FLAG_Z) } },
{ "MOV.S sets Z", 2, { UW(MOV, T(0), 0, IM, 0) | US | Q(NEXT, 0, 0), HALTW },
  STOP_HALT, .upc = 1, .cycles = 2, .regs = { RG(FL, VPMU_FLAG_Z) } },
{ "sources read before the write", 3, { OP_MOVI(T(0), 3),
  ALUR(ADD, T(0), T(0), T(0)), HALTW }, STOP_HALT, .upc = 2, .cycles = 3,
  .regs = { RG(T(0), 6) } },
{ "general path (JUMP) gives the same results", 4, {
  UW(MOV, T(0), 0, IM, 5) | Q(JUMP, 0, 1),
  UW(ADD, T(1), T(0), IM, 7) | Q(JUMP, 0, 2),
  UW(SHL, T(2), T(1), IM, 2) | Q(JUMP, 0, 3), HALTW },
  STOP_HALT, .upc = 3, .cycles = 4,
  .regs = { RG(T(1), 12), RG(T(2), 48) },
  .evs = { EV(VPMU_EV_UOPS, 4), EV(VPMU_EV_UBR_TAKEN, 0) } },
{ "latch and flags writes keep low bits", 5, { OP_MOVI(DS, -1),
  OP_MOVI(S1, 33), OP_MOVI(FL, -1), ALUI(ADD, T(0), DS, 0), HALTW },
  STOP_HALT, .upc = 4, .cycles = 5,
  .regs = { RG(DS, 31), RG(S1, 1), RG(FL, 15), RG(T(0), 31) } },
{ "@ds @s1 @s2 name registers", 7, { OP_MOVI(DS, 5), OP_MOVI(S1, 6),
  OP_MOVI(S2, 7), OP_MOVI(ATS1, 10), OP_MOVI(ATS2, 20),
  ALUR(ADD, ATDS, ATS1, ATS2), HALTW },
  STOP_HALT, .upc = 6, .cycles = 7,
  .regs = { RG(R(5), 30), RG(R(6), 10), RG(R(7), 20), RG(ATDS, 30) } },
{ "@ operands with JUMP", 5, { OP_MOVI(DS, 9),
  UW(MOV, S1, 0, DS, 0) | Q(JUMP, 0, 2),
  UW(MOV, ATS1, 0, IM, 44) | Q(JUMP, 0, 3),
  UW(ADD, ATDS, ATDS, ATS1, 0) | Q(JUMP, 0, 4), HALTW },
  STOP_HALT, .upc = 4, .cycles = 5, .regs = { RG(R(9), 88) } },
{ "R0_ZERO: r0 reads 0, writes discarded", 6, { OP_MOVI(R(0), 5),
  OP_MOVI(DS, 0), OP_MOVI(ATDS, 3), ALUI(ADD, T(0), R(0), 1),
  UW(MOV, T(1), 0, ATDS, 0) | Q(NEXT, 0, 0), HALTW },
  .flags = VPMU_IMG_F_R0_ZERO, STOP_HALT, .upc = 5, .cycles = 6,
  .regs = { RG(R(0), 0), RG(T(0), 1), RG(T(1), 0) } },
{ "r0 writable without R0_ZERO", 3, { OP_MOVI(R(0), 5),
  ALUI(ADD, T(0), R(0), 1), HALTW }, STOP_HALT, .upc = 2, .cycles = 3,
  .regs = { RG(R(0), 5), RG(T(0), 6) } },
{ "zero discards writes", 3, { OP_MOVI(ZERO, 5), ALUI(ADD, T(0), ZERO, 1),
  HALTW }, STOP_HALT, .upc = 2, .cycles = 3, .regs = { RG(T(0), 1) } },
{ "EOI fetches, sets ipc and ir, dispatches", 5, {
  UW(ADD, PC, PC, IM, 4) | Q(EOI, 0, 0), HALTW,
  UW(MOV, T(0), 0, IPC, 0) | Q(NEXT, 0, 0),
  UW(MOV, T(1), 0, IR, 0) | Q(NEXT, 0, 0), HALTW },
  .id = { 0, 2 }, .entry = 8, .mem = { [12] = 0x11 },
  STOP_HALT, .upc = 4, .cycles = 4,
  .regs = { RG(T(0), 12), RG(T(1), 0x11), RG(PC, 12), RG(IPC, 12) },
  .evs = { EV(VPMU_EV_INSNS, 1), EV(VPMU_EV_UOPS, 4) } },
{ "EOI opcode field (op_shift, op_bits)", 7, { HALTW, HALTW, HALTW,
  UW(ADD, PC, PC, IM, 4) | Q(EOI, 0, 0), HALTW,
  UW(MOV, T(0), 0, IR, 0) | Q(NEXT, 0, 0), HALTW },
  .op_bits = 2, .op_shift = 4, .id = { 0, 5, 3, 0 },
  .mem = { [0] = 0x20, [4] = 0x10 }, STOP_HALT, .upc = 6, .cycles = 3,
  .regs = { RG(T(0), 0x10), RG(IPC, 4) }, .evs = { EV(VPMU_EV_INSNS, 1) } },
{ "loads are little-endian and extend", 8, {
  UW(LW, T(0), ZERO, 0, 16) | Q(NEXT, 0, 0),
  UW(LB, T(1), ZERO, 0, 16) | Q(NEXT, 0, 0),
  UW(LBU, T(2), ZERO, 0, 16) | Q(NEXT, 0, 0),
  UW(LH, T(3), ZERO, 0, 16) | Q(NEXT, 0, 0),
  UW(LHU, T(4), ZERO, 0, 16) | Q(NEXT, 0, 0),
  UW(LH, T(5), ZERO, 0, 18) | Q(NEXT, 0, 0),
  UW(LB, T(6), ZERO, 0, 18) | Q(NEXT, 0, 0), HALTW },
  .mem = { [16] = 0x81, 0xff, 0x7f, 0x01 }, STOP_HALT, .upc = 7,
  .cycles = 13,
  .regs = { RG(T(0), 0x017fff81u), RG(T(1), 0xffffff81u), RG(T(2), 0x81),
	    RG(T(3), 0xffffff81u), RG(T(4), 0xff81), RG(T(5), 0x017f),
	    RG(T(6), 0x7f) },
  .evs = { EV(VPMU_EV_DC_MISS, 1), EV(VPMU_EV_DC_HIT, 6),
	   EV(VPMU_EV_CYCLES, 13), EV(VPMU_EV_UOPS, 8) } },
{ "stores write little-endian", 6, { OP_MOVI(T(0), -2),
  UW(SW, 0, ZERO, T(0), 32) | Q(NEXT, 0, 0), OP_MOVI(T(1), 0x155),
  UW(SB, 0, ZERO, T(1), 40) | Q(NEXT, 0, 0),
  UW(SH, 0, ZERO, T(1), 46) | Q(NEXT, 0, 0), HALTW },
  STOP_HALT, .upc = 5, .cycles = 6,
  .mw = { MW(32, 0xfffffffeu), MW(40, 0x55), MW(44, 0x01550000u) },
  .evs = { EV(VPMU_EV_STORES, 3), EV(VPMU_EV_WQ_STALL, 0) } },
{ "write queue stalls (depth 2, drain 3)", 5, {
  UW(SW, 0, ZERO, ZERO, 0) | Q(NEXT, 0, 0),
  UW(SW, 0, ZERO, ZERO, 0) | Q(NEXT, 0, 0),
  UW(SW, 0, ZERO, ZERO, 0) | Q(NEXT, 0, 0),
  UW(SW, 0, ZERO, ZERO, 0) | Q(NEXT, 0, 0), HALTW },
  STOP_HALT, .upc = 4, .cycles = 8,
  .evs = { EV(VPMU_EV_WQ_STALL, 3), EV(VPMU_EV_STORES, 4),
	   EV(VPMU_EV_UOPS, 5), EV(VPMU_EV_CYCLES, 8) } },
{ "write queue drains (depth 1, drain 4)", 5, {
  UW(SW, 0, ZERO, ZERO, 0) | Q(NEXT, 0, 0), NOPW | Q(NEXT, 0, 0),
  UW(SW, 0, ZERO, ZERO, 0) | Q(NEXT, 0, 0),
  UW(SW, 0, ZERO, ZERO, 0) | Q(NEXT, 0, 0), HALTW },
  .wq_depth = 1, .wq_drain = 4, STOP_HALT, .upc = 4, .cycles = 10,
  .evs = { EV(VPMU_EV_WQ_STALL, 5), EV(VPMU_EV_STORES, 3) } },
{ "BR WQF after a store fills the queue", 4, {
  UW(SW, 0, ZERO, ZERO, 0) | QC(WQF, 2), HALTW, OP_MOVI(T(0), 1), HALTW },
  .wq_depth = 1, STOP_HALT, .upc = 3, .cycles = 3,
  .regs = { RG(T(0), 1) }, .evs = { EV(VPMU_EV_UBR_TAKEN, 1) } },
{ "BR MISS after a miss, not after a hit", 5, {
  UW(LW, T(0), ZERO, 0, 0) | QC(MISS, 2), HALTW,
  UW(LW, T(1), ZERO, 0, 0) | QC(MISS, 4), OP_MOVI(T(2), 1), HALTW },
  STOP_HALT, .upc = 4, .cycles = 9, .regs = { RG(T(2), 1) },
  .evs = { EV(VPMU_EV_UBR_TAKEN, 1), EV(VPMU_EV_DC_MISS, 1),
	   EV(VPMU_EV_DC_HIT, 1) } },
{ "cache conflict misses", 5, {
  UW(LW, T(0), ZERO, 0, 0) | Q(NEXT, 0, 0),
  UW(LW, T(0), ZERO, 0, 64) | Q(NEXT, 0, 0),
  UW(LW, T(0), ZERO, 0, 0) | Q(NEXT, 0, 0),
  UW(LW, T(0), ZERO, 0, 4) | Q(NEXT, 0, 0), HALTW },
  .msz = 128, STOP_HALT, .upc = 4, .cycles = 20,
  .evs = { EV(VPMU_EV_DC_MISS, 3), EV(VPMU_EV_DC_HIT, 1),
	   EV(VPMU_EV_CYCLES, 20) } },
{ "no miss penalty", 3, { UW(LW, T(0), ZERO, 0, 0) | Q(NEXT, 0, 0),
  UW(LW, T(0), ZERO, 0, 32) | Q(NEXT, 0, 0), HALTW },
  .penalty = -1, STOP_HALT, .upc = 2, .cycles = 3,
  .evs = { EV(VPMU_EV_DC_MISS, 2) } },
{ "LW misaligned faults", 3, { OP_MOVI(T(0), 1),
  UW(LW, T(1), ZERO, 0, 2) | Q(NEXT, 0, 0), HALTW },
  .reason = VPMU_STOP_FAULT, .code = VPMU_FAULT_ALIGN, .addr = 2, .upc = 1,
  .cycles = 1, .regs = { RG(T(0), 1), RG(T(1), 0) },
  .evs = { EV(VPMU_EV_UOPS, 1), EV(VPMU_EV_DC_MISS, 0) } },
{ "LH misaligned faults", 2, { UW(LH, T(1), ZERO, 0, 1) | Q(NEXT, 0, 0),
  HALTW }, .reason = VPMU_STOP_FAULT, .code = VPMU_FAULT_ALIGN, .addr = 1,
  .upc = 0, .cycles = 0 },
{ "LW past the end faults", 2, { UW(LW, T(1), ZERO, 0, 64) | Q(NEXT, 0, 0),
  HALTW }, .reason = VPMU_STOP_FAULT, .code = VPMU_FAULT_LOAD, .addr = 64,
  .upc = 0, .cycles = 0 },
{ "LW of the last word", 2, { UW(LW, T(1), ZERO, 0, 60) | Q(NEXT, 0, 0),
  HALTW }, .mem = { [60] = 9 }, STOP_HALT, .upc = 1, .cycles = 7,
  .regs = { RG(T(1), 9) } },
{ "negative address wraps and faults", 2, {
  UW(LW, T(1), ZERO, 0, -4) | Q(NEXT, 0, 0), HALTW },
  .reason = VPMU_STOP_FAULT, .code = VPMU_FAULT_LOAD, .addr = 0xfffffffcu },
{ "SB past the end faults", 2, { UW(SB, 0, ZERO, ZERO, 64) | Q(NEXT, 0, 0),
  HALTW }, .reason = VPMU_STOP_FAULT, .code = VPMU_FAULT_STORE, .addr = 64,
  .evs = { EV(VPMU_EV_STORES, 0) } },
{ "SW misaligned faults", 2, { UW(SW, 0, ZERO, ZERO, 2) | Q(NEXT, 0, 0),
  HALTW }, .reason = VPMU_STOP_FAULT, .code = VPMU_FAULT_ALIGN, .addr = 2 },
{ "faulting microword has no effect", 3, { OP_MOVI(T(0), 1),
  UW(ADD, T(0), T(0), IM, 1) | US | Q(RET, 0, 0), HALTW },
  .reason = VPMU_STOP_FAULT, .code = VPMU_FAULT_USTACK, .upc = 1,
  .cycles = 1, .regs = { RG(T(0), 1), RG(FL, 0) } },
{ "JUMP", 3, { NOPW | Q(JUMP, 0, 2), OP_MOVI(T(0), 1), HALTW },
  STOP_HALT, .upc = 2, .cycles = 2, .regs = { RG(T(0), 0) } },
{ "CALL and RET nest", 6, { NOPW | Q(CALL, 0, 3), OP_MOVI(T(1), 1), HALTW,
  UW(MOV, T(0), 0, IM, 5) | Q(CALL, 0, 5), NOPW | Q(RET, 0, 0),
  UW(ADD, T(0), T(0), IM, 1) | Q(RET, 0, 0) },
  STOP_HALT, .upc = 2, .cycles = 6, .regs = { RG(T(0), 6), RG(T(1), 1) } },
{ "ninth CALL overflows the micro-stack", 2, {
  UW(ADD, T(0), T(0), IM, 1) | Q(CALL, 0, 0), HALTW },
  .reason = VPMU_STOP_FAULT, .code = VPMU_FAULT_USTACK, .upc = 0,
  .cycles = 8, .regs = { RG(T(0), 8) } },
{ "RET on an empty micro-stack", 2, { NOPW | Q(RET, 0, 0), HALTW },
  .reason = VPMU_STOP_FAULT, .code = VPMU_FAULT_USTACK, .upc = 0 },
{ "EOI fetch misaligned faults, pc unchanged", 2, {
  UW(ADD, PC, PC, IM, 2) | Q(EOI, 0, 0), HALTW },
  .reason = VPMU_STOP_FAULT, .code = VPMU_FAULT_FETCH, .addr = 2,
  .regs = { RG(PC, 0) }, .evs = { EV(VPMU_EV_INSNS, 0) } },
{ "EOI fetch outside memory faults", 2, {
  UW(MOV, PC, 0, IM, 64) | Q(EOI, 0, 0), HALTW },
  .reason = VPMU_STOP_FAULT, .code = VPMU_FAULT_FETCH, .addr = 64,
  .regs = { RG(PC, 0) } },
{ "EOI after a store fetches the stored word", 3, { OP_MOVI(T(0), 1),
  UW(SW, 0, ZERO, T(0), 0) | Q(EOI, 0, 0), HALTW },
  .id = { 0, 2 }, STOP_HALT, .upc = 2, .cycles = 3,
  .regs = { RG(IR, 1) } },
{ "first fetch faults", 1, { HALTW }, .entry = 2,
  .reason = VPMU_STOP_FAULT, .code = VPMU_FAULT_FETCH, .addr = 2 },
{ "IALIGN16: EOI fetches at a 2-byte boundary", 5, {
  UW(ADD, PC, PC, IM, 2) | Q(EOI, 0, 0), HALTW,
  UW(MOV, T(0), 0, IPC, 0) | Q(NEXT, 0, 0),
  UW(MOV, T(1), 0, IR, 0) | Q(NEXT, 0, 0), HALTW },
  .flags = VPMU_IMG_F_IALIGN16, .id = { 0, 2 }, .entry = 8,
  .mem = { [8] = 0x10, [10] = 0x11, [12] = 0x22, [13] = 0x33 },
  STOP_HALT, .upc = 4, .cycles = 4,
  .regs = { RG(T(0), 10), RG(T(1), 0x33220011), RG(PC, 10), RG(IPC, 10) },
  .evs = { EV(VPMU_EV_INSNS, 1), EV(VPMU_EV_UOPS, 4) } },
{ "IALIGN16: EOI fetch at an odd pc faults", 2, {
  UW(ADD, PC, PC, IM, 1) | Q(EOI, 0, 0), HALTW },
  .flags = VPMU_IMG_F_IALIGN16,
  .reason = VPMU_STOP_FAULT, .code = VPMU_FAULT_FETCH, .addr = 1,
  .regs = { RG(PC, 0) }, .evs = { EV(VPMU_EV_INSNS, 0) } },
{ "IALIGN16: a fetch needs its 4 bytes in memory", 2, {
  UW(MOV, PC, 0, IM, 62) | Q(EOI, 0, 0), HALTW },
  .flags = VPMU_IMG_F_IALIGN16,
  .reason = VPMU_STOP_FAULT, .code = VPMU_FAULT_FETCH, .addr = 62,
  .regs = { RG(PC, 0) } },
{ "IALIGN16: the last 4 bytes of memory fetch", 2, {
  UW(MOV, PC, 0, IM, 60) | Q(EOI, 0, 0), HALTW },
  .flags = VPMU_IMG_F_IALIGN16, .mem = { [60] = 1 }, .id = { 0, 1 },
  STOP_HALT, .upc = 1, .cycles = 2, .regs = { RG(PC, 60), RG(IR, 1) } },
{ "IALIGN16: first fetch at a 2-byte boundary", 2, {
  UW(MOV, T(0), 0, IR, 0) | Q(NEXT, 0, 0), HALTW },
  .flags = VPMU_IMG_F_IALIGN16, .entry = 6, .mem = { [6] = 0x40, [9] = 0x80 },
  STOP_HALT, .upc = 1, .cycles = 2, .regs = { RG(T(0), 0x80000040) } },
{ "IALIGN16: first fetch at an odd pc faults", 1, { HALTW }, .entry = 3,
  .flags = VPMU_IMG_F_IALIGN16,
  .reason = VPMU_STOP_FAULT, .code = VPMU_FAULT_FETCH, .addr = 3 },
{ "TRAP stops with its code", 2, { OP_MOVI(T(0), 1),
  NOPW | Q(TRAP, 0, 77) }, .reason = VPMU_STOP_TRAP, .code = 77,
  .upc = 1, .cycles = 2, .regs = { RG(T(0), 1) } },
{ "DISP counts, jumps to target + field", 6, { OP_MOVI(T(0), 6),
  UW(MOV, T(1), 0, T(0), 0) | Q(DISP, 2, 2), HALTW, HALTW,
  OP_MOVI(T(2), 1), HALTW },
  STOP_HALT, .upc = 5, .cycles = 4, .regs = { RG(T(2), 1) },
  .evs = { EV(VPMU_EV_DISPATCH, 1) } },
{ "one-hot: several tags per microword", 3, { NOPW | Q(NEXT, 0, 0) | UEV(5),
  NOPW | Q(NEXT, 0, 0) | UEV(3), HALTW | UEV(0x80) },
  STOP_HALT, .upc = 2, .cycles = 3,
  .evs = { EV(TAG(1), 2), EV(TAG(2), 1), EV(TAG(3), 1), EV(TAG(4), 0),
	   EV(TAG(8), 1), EV(TAG(5), 0) } },
{ "encoded: field selects one tag", 4, { NOPW | Q(NEXT, 0, 0) | UEV(5),
  NOPW | Q(NEXT, 0, 0) | UEV(5), NOPW | Q(NEXT, 0, 0) | UEV(7), HALTW },
  .ev_mode = VPMU_EVMODE_ENCODED, .ev_bits = 3, STOP_HALT, .upc = 3,
  .cycles = 4,
  .evs = { EV(TAG(5), 2), EV(TAG(7), 1), EV(TAG(1), 0), EV(TAG(4), 0),
	   EV(TAG(2), 0) } },
{ "T bits count TRIGGER", 3, { NOPW | Q(NEXT, 0, 0) | UT,
  NOPW | Q(NEXT, 0, 0), HALTW | UT }, STOP_HALT, .upc = 2, .cycles = 3,
  .evs = { EV(VPMU_EV_TRIGGER, 2) } },
{ "BR MISS in a later microword", 5, {
  UW(LW, T(1), ZERO, 0, 0) | Q(NEXT, 0, 0), NOPW | QC(MISS, 3), HALTW,
  OP_MOVI(T(0), 1), HALTW },
  STOP_HALT, .upc = 4, .cycles = 9,
  .regs = { RG(T(0), 1) }, .evs = { EV(VPMU_EV_DC_MISS, 1),
	    EV(VPMU_EV_UBR_TAKEN, 1), EV(VPMU_EV_CYCLES, 9) } },
{ "SUB.s into zero, BR Z: the flags read later", 7, { OP_MOVI(T(0), 5),
  OP_MOVI(T(1), 5), UW(SUB, ZERO, T(0), T(1), 0) | US | QC(Z, 4), HALTW,
  UW(MOV, T(2), 0, FL, 0) | Q(NEXT, 0, 0),
  UW(EXT, DS, FL, 0, 3 << 5) | Q(NEXT, 0, 0), HALTW },
  STOP_HALT, .upc = 6, .cycles = 6,
  .regs = { RG(T(2), VPMU_FLAG_Z), RG(DS, VPMU_FLAG_Z),
	    RG(FL, VPMU_FLAG_Z) },
  .evs = { EV(VPMU_EV_UBR_TAKEN, 1), EV(VPMU_EV_UOPS, 6) } },
{ "SUB.s into zero, BR GE: lazy flags for BR C, a load address", 8, {
  OP_MOVI(T(0), 3), OP_MOVI(T(1), 7),
  UW(SUB, ZERO, T(0), T(1), 0) | US | QC(GE, 6),
  NOPW | QC(C, 5), HALTW,
  UW(SUB, ZERO, T(1), T(0), 0) | US | QC(LT, 4),
  UW(LW, T(3), FL, 0, 4) | Q(NEXT, 0, 0), HALTW },
  .mem = { [4] = 0x2a }, STOP_HALT, .upc = 7, .cycles = 12,
  .regs = { RG(T(3), 0x2a), RG(FL, 0) },
  .evs = { EV(VPMU_EV_UBR_TAKEN, 1), EV(VPMU_EV_UOPS, 7) } },
{ "EXT pairs from ir, entered in the middle", 7, {
  UW(EXT, DS, IR, 0, 0 | 4 << 5) | Q(NEXT, 0, 0),
  UW(EXT, S1, IR, 0, 5 | 4 << 5) | Q(NEXT, 0, 0),
  UW(EXT, S2, IR, 0, 10 | 4 << 5) | Q(NEXT, 0, 0),
  ALUI(ADD, T(0), T(0), 1),
  UW(SUB, ZERO, T(0), IM, 2) | US | QC(NZ, 1),
  UW(ADD, ATDS, ATS1, IM, 9) | Q(NEXT, 0, 0), HALTW },
  .mem = { [0] = 0x83, [1] = 0x14 }, STOP_HALT, .upc = 6, .cycles = 11,
  .regs = { RG(R(3), 9), RG(DS, 3), RG(S1, 4), RG(S2, 5), RG(T(0), 2) },
  .evs = { EV(VPMU_EV_UBR_TAKEN, 1), EV(VPMU_EV_UOPS, 11) } },
{ "MODE changes the mode", 3, { UW(MODE, 0, 0, 0, 0) | Q(NEXT, 0, 0),
  NOPW | QC(USER, 2), HALTW }, .mode = 1, STOP_HALT, .upc = 2, .cycles = 3,
  .evs = { EV(VPMU_EV_UBR_TAKEN, 1) } },
{ "loop with tags, branches, loads, stores", 7, { OP_MOVI(T(0), 40),
  UW(LW, T(1), T(0), 0, 0) | Q(NEXT, 0, 0) | UEV(1),
  UW(ADD, T(1), T(1), T(0), 0) | Q(NEXT, 0, 0) | UEV(3),
  UW(SW, 0, T(0), T(1), 8) | Q(NEXT, 0, 0) | UEV(2),
  UW(SUB, T(0), T(0), IM, 4) | US | Q(NEXT, 0, 0) | UEV(1) | UT,
  NOPW | QC(NZ, 1) | UEV(4), HALTW },
  .msz = 64, STOP_HALT, .upc = 6, .cycles = 67,
  .evs = { EV(VPMU_EV_CYCLES, 67), EV(VPMU_EV_UOPS, 52),
	   EV(VPMU_EV_DC_MISS, 3), EV(VPMU_EV_WQ_STALL, 0),
	   EV(VPMU_EV_UBR_TAKEN, 9), EV(TAG(1), 30), EV(TAG(2), 20),
	   EV(VPMU_EV_TRIGGER, 10) } },
};

#define NTESTS	(sizeof(tests) / sizeof(tests[0]))

/* ---- helpers ------------------------------------------------------------ */

static struct vpmu_ucode *build(const struct etest *t)
{
	struct tb_image *b = tb_new();
	struct vpmu_ucode *uc;
	struct vpmu_verr err;
	int i;

	b->ncs = t->n;
	for (i = 0; i < t->n; i++)
		b->cs[i] = t->uw[i];
	b->flags = t->flags;
	if (t->ev_bits) {
		b->ev_mode = t->ev_mode;
		b->ev_bits = t->ev_bits;
	}
	if (t->penalty)
		b->dc_miss_penalty = t->penalty < 0 ? 0 : t->penalty;
	if (t->wq_depth)
		b->wq_depth = t->wq_depth;
	if (t->wq_drain)
		b->wq_drain = t->wq_drain;
	if (t->op_bits) {
		b->op_bits = t->op_bits;
		b->op_shift = t->op_shift;
	}
	memcpy(b->id, t->id, sizeof(t->id));
	uc = tb_load(b, &err);
	if (!uc)
		tap_diag("%s: image rejected: %s", t->name, err.msg);
	return uc;
}

struct run {
	struct vpmu_stop stop;
	u64 cycles;
	u32 regs[64];
	u64 ev[MAXEV];
	u64 ctr[VPMU_NR_COUNTERS_MAX];
	u8 mem[MEMSZ];
	u32 ovf_stops[MAXEV];
	u64 ovf_cnt[MAXEV];
	u32 ovf;
};

static u32 msz_of(const struct etest *t)
{
	return t->msz ? t->msz : 64;
}

/*
 * Run @t on a fresh start with counters on its events (width @w, flags
 * @cf), @budget cycles per call until it stops for a reason other than
 * BUDGET/OVERFLOW.
 */
static void run_one(struct vpmu_engine *e, const struct etest *t,
		    unsigned int w, unsigned int cf, u64 budget,
		    struct run *r)
{
	struct vpmu_ctr_cfg c;
	unsigned int i;

	memset(r, 0, sizeof(*r));
	memcpy(r->mem, t->mem, MEMSZ);
	for (i = 0; i < MAXEV; i++) {
		memset(&c, 0, sizeof(c));
		if (t->evs[i].set) {
			c.event = t->evs[i].ev;
			c.width = w;
			c.flags = VPMU_CTR_USER | VPMU_CTR_SUPER | cf;
		}
		vpmu_engine_ctr_config(e, i, t->evs[i].set ? &c : NULL);
		vpmu_engine_ctr_write(e, i, 0);
	}
	vpmu_engine_ovf_clear(e, ~0u);
	vpmu_engine_start(e, r->mem, msz_of(t), t->entry, t->mode);
	for (;;) {
		vpmu_engine_run(e, budget, &r->stop);
		r->cycles += r->stop.cycles;
		if (r->stop.reason == VPMU_STOP_OVERFLOW) {
			for (i = 0; i < MAXEV; i++)
				if (r->stop.ovf >> i & 1)
					r->ovf_stops[i]++;
			vpmu_engine_ovf_clear(e, r->stop.ovf);
			continue;
		}
		if (r->stop.reason != VPMU_STOP_BUDGET)
			break;
	}
	for (i = 0; i < 64; i++)
		r->regs[i] = vpmu_engine_reg(e, i);
	for (i = 0; i < MAXEV; i++)
		if (t->evs[i].set)
			r->ev[i] = vpmu_engine_event_total(e, t->evs[i].ev);
	vpmu_engine_ctr_snapshot(e, r->ctr, VPMU_NR_COUNTERS_MAX);
	r->ovf = vpmu_engine_ovf_status(e);
	for (i = 0; i < MAXEV; i++)
		r->ovf_cnt[i] = vpmu_engine_ovf_count(e, i);
}

static bool check_table(struct vpmu_engine *e, const struct etest *t)
{
	struct run r;
	bool ok = true;
	unsigned int i;

	run_one(e, t, 64, 0, 100000, &r);
	if ((int)r.stop.reason != t->reason || r.stop.code != t->code ||
	    r.stop.addr != t->addr || r.stop.upc != t->upc) {
		tap_diag("stop %d code %u addr 0x%x upc %u, expected %d %u 0x%x %u",
			 r.stop.reason, r.stop.code, r.stop.addr, r.stop.upc,
			 t->reason, t->code, t->addr, t->upc);
		ok = false;
	}
	if (r.cycles != t->cycles) {
		tap_diag("cycles %llu, expected %llu",
			 (unsigned long long)r.cycles,
			 (unsigned long long)t->cycles);
		ok = false;
	}
	if (vpmu_engine_event_total(e, VPMU_EV_CYCLES) != r.cycles) {
		tap_diag("CYCLES total %llu != cycles run %llu",
			 (unsigned long long)vpmu_engine_event_total(e, 0),
			 (unsigned long long)r.cycles);
		ok = false;
	}
	for (i = 0; i < MAXREG; i++) {
		if (!t->regs[i].set)
			continue;
		if (r.regs[t->regs[i].op] != t->regs[i].v) {
			tap_diag("operand %u = 0x%x, expected 0x%x",
				 t->regs[i].op, r.regs[t->regs[i].op],
				 t->regs[i].v);
			ok = false;
		}
	}
	for (i = 0; i < MAXEV; i++) {
		if (!t->evs[i].set)
			continue;
		if (r.ev[i] != t->evs[i].n) {
			tap_diag("event 0x%x total %llu, expected %llu",
				 t->evs[i].ev, (unsigned long long)r.ev[i],
				 (unsigned long long)t->evs[i].n);
			ok = false;
		}
		if (r.ctr[i] != r.ev[i]) {
			tap_diag("counter %u = %llu, event total %llu", i,
				 (unsigned long long)r.ctr[i],
				 (unsigned long long)r.ev[i]);
			ok = false;
		}
	}
	for (i = 0; i < 3; i++) {
		const u8 *p = r.mem + t->mw[i].off;
		u32 v = p[0] | p[1] << 8 | p[2] << 16 | (u32)p[3] << 24;

		if (t->mw[i].set && v != t->mw[i].v) {
			tap_diag("mem[%u] = 0x%x, expected 0x%x",
				 t->mw[i].off, v, t->mw[i].v);
			ok = false;
		}
	}
	return ok;
}

static bool same_run(const struct run *a, const struct run *b)
{
	return a->stop.reason == b->stop.reason &&
	       a->stop.code == b->stop.code && a->stop.addr == b->stop.addr &&
	       a->stop.upc == b->stop.upc && a->cycles == b->cycles &&
	       !memcmp(a->regs, b->regs, sizeof(a->regs)) &&
	       !memcmp(a->ev, b->ev, sizeof(a->ev)) &&
	       !memcmp(a->mem, b->mem, sizeof(a->mem));
}

/* Splitting the run at any budget changes nothing. */
static bool check_splits(struct vpmu_engine *e, const struct etest *t)
{
	struct run whole, part;
	u64 b;

	run_one(e, t, 64, 0, 100000, &whole);
	for (b = 1; b <= whole.cycles + 1; b++) {
		run_one(e, t, 64, 0, b, &part);
		if (!same_run(&whole, &part) ||
		    memcmp(whole.ctr, part.ctr, sizeof(whole.ctr))) {
			tap_diag("budget %llu changes the result",
				 (unsigned long long)b);
			return false;
		}
	}
	return true;
}

static struct vpmu_engine *eng_for_ctx(const struct vpmu_ucode *uc)
{
	struct vpmu_engine *e = vpmu_engine_create(VPMU_CS_MAX);

	if (e && vpmu_engine_attach(e, uc)) {
		vpmu_engine_destroy(e);
		return NULL;
	}
	return e;
}

/* Set up counters on @t's events, 64-bit, both modes, zeroed. */
static void ctx_ctrs(struct vpmu_engine *e, const struct etest *t)
{
	struct vpmu_ctr_cfg c = { 0, 64, VPMU_CTR_USER | VPMU_CTR_SUPER, 0 };
	unsigned int i;

	for (i = 0; i < MAXEV; i++) {
		c.event = t->evs[i].ev;
		vpmu_engine_ctr_config(e, i, t->evs[i].set ? &c : NULL);
		vpmu_engine_ctr_write(e, i, 0);
	}
}

/* One instance of @t run in pieces through a context. */
struct piece_run {
	struct vpmu_ctx *ctx;
	struct run r;
	bool done;
};

static void piece(struct piece_run *p, struct vpmu_engine *e, u64 budget)
{
	unsigned int i;

	if (p->done)
		return;
	if (vpmu_engine_ctx_restore(e, p->ctx)) {
		p->r.cycles = ~0ull;	/* cannot match */
		p->done = true;
		return;
	}
	vpmu_engine_run(e, budget, &p->r.stop);
	p->r.cycles += p->r.stop.cycles;
	if (p->r.stop.reason != VPMU_STOP_BUDGET) {
		for (i = 0; i < 64; i++)
			p->r.regs[i] = vpmu_engine_reg(e, i);
		p->done = true;
	}
	vpmu_engine_ctx_save(e, p->ctx);
}

/*
 * Two instances of @t, run in pieces of every budget through contexts,
 * alternating between @e and a second engine on the same image and
 * between each other: each ends exactly as a whole run does, and the
 * counters and event totals of both engines add up to two whole runs.
 */
static bool check_ctx(struct vpmu_engine *e, const struct vpmu_ucode *uc,
		      const struct etest *t)
{
	struct vpmu_engine *f = eng_for_ctx(uc);
	struct piece_run a = { vpmu_ctx_create() }, b = { vpmu_ctx_create() };
	struct run whole;
	bool ok = f && a.ctx && b.ctx;
	unsigned int i, k;
	u64 bud;

	run_one(e, t, 64, 0, 100000, &whole);
	for (bud = 1; ok && bud <= whole.cycles + 1; bud++) {
		ctx_ctrs(e, t);
		ctx_ctrs(f, t);
		memset(&a.r, 0, sizeof(a.r));
		memset(&b.r, 0, sizeof(b.r));
		a.done = b.done = false;
		memcpy(a.r.mem, t->mem, MEMSZ);
		memcpy(b.r.mem, t->mem, MEMSZ);
		vpmu_engine_start(f, b.r.mem, msz_of(t), t->entry, t->mode);
		vpmu_engine_ctx_save(f, b.ctx);
		vpmu_engine_start(e, a.r.mem, msz_of(t), t->entry, t->mode);
		vpmu_engine_ctx_save(e, a.ctx);
		for (k = 0; !a.done || !b.done; k++) {
			if (k > 100000) {
				tap_diag("budget %llu: no end in pieces",
					 (unsigned long long)bud);
				ok = false;
				break;
			}
			piece(&a, k & 1 ? f : e, bud);
			piece(&b, k & 1 ? e : f, 1 + (bud + k) % 5);
			piece(&b, k & 1 ? f : e, bud);
		}
		for (i = 0; i < MAXEV; i++) {
			u16 ev = t->evs[i].ev;

			if (!t->evs[i].set)
				continue;
			a.r.ctr[i] = vpmu_engine_ctr_read(e, i) +
				     vpmu_engine_ctr_read(f, i);
			a.r.ev[i] = vpmu_engine_event_total(e, ev) +
				    vpmu_engine_event_total(f, ev);
			b.r.ev[i] = a.r.ev[i] / 2;
			a.r.ev[i] -= b.r.ev[i];
			if (a.r.ctr[i] != 2 * whole.ctr[i])
				ok = false;
		}
		if (!ok || !same_run(&whole, &a.r) || !same_run(&whole, &b.r)) {
			tap_diag("budget %llu through contexts changes the result",
				 (unsigned long long)bud);
			ok = false;
		}
	}
	vpmu_ctx_destroy(a.ctx);
	vpmu_ctx_destroy(b.ctx);
	vpmu_engine_destroy(f);
	return ok;
}

/*
 * 2-bit interrupting counters: same final state, counters = totals mod 4,
 * and (for events that grow by at most one per microword) one overflow
 * stop per wrap.
 */
static bool check_narrow(struct vpmu_engine *e, const struct etest *t)
{
	struct run whole, part;
	unsigned int i;
	u64 b;

	run_one(e, t, 64, 0, 100000, &whole);
	for (b = 1; b <= 3 && b <= whole.cycles + 1; b++) {
		run_one(e, t, 2, VPMU_CTR_INT, b == 3 ? 100000 : b, &part);
		if (!same_run(&whole, &part)) {
			tap_diag("narrow counters change the run (budget %llu)",
				 (unsigned long long)b);
			return false;
		}
		for (i = 0; i < MAXEV; i++) {
			u16 ev = t->evs[i].ev;

			if (!t->evs[i].set)
				continue;
			if (part.ctr[i] != (whole.ev[i] & 3)) {
				tap_diag("narrow counter %u = %llu, total %llu",
					 i, (unsigned long long)part.ctr[i],
					 (unsigned long long)whole.ev[i]);
				return false;
			}
			if (ev != VPMU_EV_CYCLES && ev != VPMU_EV_WQ_STALL &&
			    part.ovf_stops[i] != whole.ev[i] >> 2) {
				tap_diag("counter %u: %u overflow stops for total %llu",
					 i, part.ovf_stops[i],
					 (unsigned long long)whole.ev[i]);
				return false;
			}
		}
		/* Without INT: no stops, every wrap in the overflow count. */
		run_one(e, t, 2, 0, b == 3 ? 100000 : b, &part);
		if (!same_run(&whole, &part))
			return false;
		for (i = 0; i < MAXEV; i++) {
			if (!t->evs[i].set)
				continue;
			if (part.ctr[i] != (whole.ev[i] & 3) ||
			    part.ovf_stops[i] ||
			    part.ovf_cnt[i] != whole.ev[i] >> 2 ||
			    !(part.ovf >> i & 1) != !(whole.ev[i] >> 2)) {
				tap_diag("counter %u = %llu, %llu wraps counted, total %llu",
					 i, (unsigned long long)part.ctr[i],
					 (unsigned long long)part.ovf_cnt[i],
					 (unsigned long long)whole.ev[i]);
				return false;
			}
		}
	}
	return true;
}

/* ---- programmatic tests ------------------------------------------------- */

static struct vpmu_engine *eng_for(struct vpmu_ucode *uc)
{
	struct vpmu_engine *e = vpmu_engine_create(VPMU_CS_MAX);

	vpmu_engine_attach(e, uc);
	return e;
}

static bool flag_cond(unsigned int c, unsigned int f)
{
	bool z = f & 1, n = f & 2, cy = f & 4, v = f & 8;

	switch (c) {
	case VPMU_COND_AL: return true;
	case VPMU_COND_Z: return z;
	case VPMU_COND_NZ: return !z;
	case VPMU_COND_N: return n;
	case VPMU_COND_NN: return !n;
	case VPMU_COND_C: return cy;
	case VPMU_COND_NC: return !cy;
	case VPMU_COND_V: return v;
	case VPMU_COND_NV: return !v;
	case VPMU_COND_LT: return n != v;
	default: return n == v;
	}
}

/* BR on condition @c over all 16 flag values: taken iff it holds. */
static bool test_br_cond(unsigned int c)
{
	struct etest t = { .n = 5 };
	unsigned int f;
	bool ok = true;

	for (f = 0; f < 16; f++) {
		struct vpmu_ucode *uc;
		struct vpmu_engine *e;
		struct vpmu_stop s;
		u8 mem[64] = { 0 };
		bool taken;

		t.uw[0] = OP_MOVI(FL, f);
		t.uw[1] = NOPW | Q(BR, c, 3);
		t.uw[2] = HALTW;
		t.uw[3] = OP_MOVI(T(0), 1);
		t.uw[4] = HALTW;
		uc = build(&t);
		e = eng_for(uc);
		vpmu_engine_start(e, mem, 64, 0, 0);
		vpmu_engine_run(e, 100, &s);
		taken = vpmu_engine_reg(e, T(0)) == 1;
		if (taken != flag_cond(c, f) || s.reason != VPMU_STOP_HALT ||
		    vpmu_engine_event_total(e, VPMU_EV_UBR_TAKEN) != taken ||
		    s.cycles != 3u + taken) {
			tap_diag("cond %u flags %u: taken %d", c, f, taken);
			ok = false;
		}
		vpmu_engine_destroy(e);
		vpmu_ucode_free(uc);
	}
	return ok;
}

/* SUB's flags as the architecture defines them. */
static unsigned int sub_flags(u32 a, u32 b)
{
	u32 r = a - b;

	return (r ? 0 : VPMU_FLAG_Z) | (r >> 31 ? VPMU_FLAG_N : 0) |
	       (a < b ? VPMU_FLAG_C : 0) |
	       (((a ^ b) & (a ^ r)) >> 31 ? VPMU_FLAG_V : 0);
}

/*
 * SUB.s zero, t0, t1 ; BR c (the fused compare) over operand pairs, then
 * the flags read: taken iff c holds on SUB's flags, which read back
 * exactly.  @trig makes the compare a trigger source (general handler).
 */
static bool test_cmp_br(unsigned int c, bool trig)
{
	static const u32 v[] = { 0, 1, 5, 0x7fffffff, 0x80000000,
				 0xfffffffb, 0xffffffff };
	struct etest t = { .n = 8 };
	unsigned int i, j, w;
	bool ok = true;

	t.uw[0] = UW(LW, T(0), ZERO, 0, 0) | Q(NEXT, 0, 0);
	t.uw[1] = UW(LW, T(1), ZERO, 0, 4) | Q(NEXT, 0, 0);
	t.uw[2] = UW(SUB, ZERO, T(0), T(1), 0) | US | Q(BR, c, 5) |
		  (trig ? UT : 0);
	t.uw[3] = UW(MOV, T(4), 0, FL, 0) | Q(NEXT, 0, 0);
	t.uw[4] = HALTW;
	t.uw[5] = OP_MOVI(T(3), 1);
	t.uw[6] = UW(MOV, T(4), 0, FL, 0) | Q(NEXT, 0, 0);
	t.uw[7] = HALTW;
	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		for (j = 0; j < sizeof(v) / sizeof(v[0]); j++) {
			struct vpmu_ucode *uc = build(&t);
			struct vpmu_engine *e = eng_for(uc);
			unsigned int f = sub_flags(v[i], v[j]);
			u8 mem[64] = { 0 };
			struct vpmu_stop s;
			bool taken;

			for (w = 0; w < 4; w++) {
				mem[w] = v[i] >> 8 * w;
				mem[4 + w] = v[j] >> 8 * w;
			}
			if (trig)
				vpmu_engine_fgroup_trigger(e, 1, VPMU_TRIG_MARK);
			vpmu_engine_start(e, mem, 64, 0, 0);
			vpmu_engine_run(e, 100, &s);
			taken = vpmu_engine_reg(e, T(3)) == 1;
			if (s.reason != VPMU_STOP_HALT ||
			    taken != flag_cond(c, f) ||
			    vpmu_engine_reg(e, T(4)) != f ||
			    vpmu_engine_reg(e, FL) != f) {
				tap_diag("cond %u: %#x - %#x: taken %d flags %#x",
					 c, v[i], v[j], taken,
					 vpmu_engine_reg(e, T(4)));
				ok = false;
			}
			vpmu_engine_destroy(e);
			vpmu_ucode_free(uc);
		}
	}
	return ok;
}

/* BR on a signal condition after set-up microword @setup. */
static bool br_signal(unsigned int c, u64 setup, unsigned int mode,
		      bool ext, bool want)
{
	struct etest t = { .n = 5, .wq_depth = 1 };
	struct vpmu_ucode *uc;
	struct vpmu_engine *e;
	struct vpmu_stop s;
	u8 mem[64] = { 0 };
	bool taken;

	t.uw[0] = setup;
	t.uw[1] = NOPW | Q(BR, c, 3);
	t.uw[2] = HALTW;
	t.uw[3] = OP_MOVI(T(0), 1);
	t.uw[4] = HALTW;
	uc = build(&t);
	e = eng_for(uc);
	vpmu_engine_start(e, mem, 64, 0, mode);
	vpmu_engine_set_ext(e, ext);
	vpmu_engine_run(e, 100, &s);
	taken = vpmu_engine_reg(e, T(0)) == 1;
	vpmu_engine_destroy(e);
	vpmu_ucode_free(uc);
	return taken == want && s.reason == VPMU_STOP_HALT;
}

static bool test_br_signals(void)
{
	u64 ld = UW(LW, T(5), ZERO, 0, 0) | Q(NEXT, 0, 0);
	u64 st = UW(SW, 0, ZERO, ZERO, 0) | Q(NEXT, 0, 0);
	u64 nop = NOPW | Q(NEXT, 0, 0);

	return br_signal(VPMU_COND_MISS, ld, 0, false, true) &&
	       br_signal(VPMU_COND_MISS, nop, 0, false, false) &&
	       br_signal(VPMU_COND_WQF, st, 0, false, true) &&
	       br_signal(VPMU_COND_WQF, nop, 0, false, false) &&
	       br_signal(VPMU_COND_USER, nop, 0, false, true) &&
	       br_signal(VPMU_COND_USER, nop, 1, false, false) &&
	       br_signal(VPMU_COND_SUPER, nop, 1, false, true) &&
	       br_signal(VPMU_COND_SUPER, nop, 0, false, false) &&
	       br_signal(VPMU_COND_EXT, nop, 0, true, true) &&
	       br_signal(VPMU_COND_EXT, nop, 0, false, false);
}

/* DISP of width @w on 0x1ff lands on table entry 0x1ff & (2^w - 1). */
static bool test_disp(unsigned int w)
{
	struct tb_image *b = tb_new();
	struct vpmu_ucode *uc;
	struct vpmu_engine *e;
	struct vpmu_stop s;
	u8 mem[64] = { 0 };
	unsigned int i, n = 1u << w;
	bool ok;

	b->cs[0] = OP_MOVI(T(0), 0x1ff);
	b->cs[1] = UW(MOV, T(1), 0, T(0), 0) | Q(DISP, w, 3);
	b->cs[2] = HALTW;
	for (i = 0; i < n; i++)
		b->cs[3 + i] = UW(MOV, T(2), 0, IM, i) | Q(JUMP, 0, 2);
	b->ncs = 3 + n;
	uc = tb_load(b, NULL);
	e = eng_for(uc);
	vpmu_engine_start(e, mem, 64, 0, 0);
	vpmu_engine_run(e, 100, &s);
	ok = s.reason == VPMU_STOP_HALT &&
	     vpmu_engine_reg(e, T(2)) == (0x1ffu & (n - 1)) && s.cycles == 4 &&
	     vpmu_engine_event_total(e, VPMU_EV_DISPATCH) == 1;
	vpmu_engine_destroy(e);
	vpmu_ucode_free(uc);
	return ok;
}

/* A straight program of @n microwords, HALT last. */
static struct vpmu_ucode *straight(const u64 *uw, unsigned int n)
{
	struct etest t = { .n = (int)n };

	memcpy(t.uw, uw, n * sizeof(*uw));
	return build(&t);
}

/*
 * CTR at the engine level: each kind of destination (a temporary, a macro
 * register, zero), each selector (cycles, time, instructions, a PMU
 * counter, its high half, one past the 16, bits beyond the selector
 * ignored), and a narrow counter with an interrupt read on the microword
 * that wraps it: the value (0) is written, the run stops with OVERFLOW
 * there and goes on after it.
 */
static bool test_ctr(void)
{
	static const struct vpmu_ctr_cfg wide = {
		VPMU_EV_UOPS, 64, VPMU_CTR_USER, 0
	}, narrow = {
		VPMU_EV_UOPS, 8, VPMU_CTR_USER | VPMU_CTR_INT, 0
	};
	static const u64 uw[] = {
		UW(MOV, T(0), 0, IM, 0) | Q(CTR, 0, 0),		/* cycles */
		UW(MOV, VPMU_OPND_R0 + 5, 0, IM, 4) | Q(CTR, 0, 0),
		UW(MOV, VPMU_OPND_ZERO, 0, IM, 3) | Q(CTR, 0, 0),
		UW(MOV, T(1), 0, IM, 0x83) | Q(CTR, 0, 0),	/* ctr 0 high */
		UW(MOV, T(2), 0, IM, 19) | Q(CTR, 0, 0),	/* past 16 */
		UW(MOV, T(3), 0, IM, 2) | Q(CTR, 0, 0),		/* insns */
		UW(MOV, T(4), 0, IM, 0x61) | Q(CTR, 0, 0),	/* time */
		UW(MOV, T(5), 0, IM, 3) | Q(CTR, 0, 0),		/* ctr 0 */
		HALTW,
	};
	struct vpmu_ucode *uc = straight(uw, 9);
	struct vpmu_engine *e;
	struct vpmu_stop s[2];
	u8 mem[64] = { 0 };
	u32 x[6];
	bool ok;

	e = eng_for(uc);
	vpmu_engine_start(e, mem, 64, 0, 0);
	vpmu_engine_ctr_config(e, 0, &wide);
	vpmu_engine_ctr_write(e, 0, 0x500000000ull);
	vpmu_engine_ctr_config(e, 1, &narrow);
	vpmu_engine_ctr_write(e, 1, 254);
	vpmu_engine_run(e, 100, &s[0]);
	vpmu_engine_ovf_clear(e, 2);
	vpmu_engine_run(e, 100, &s[1]);
	x[0] = vpmu_engine_reg(e, T(0));
	x[1] = vpmu_engine_reg(e, VPMU_OPND_R0 + 5);
	x[2] = vpmu_engine_reg(e, T(1));
	x[3] = vpmu_engine_reg(e, T(2)) | vpmu_engine_reg(e, T(3));
	x[4] = vpmu_engine_reg(e, T(4));
	x[5] = vpmu_engine_reg(e, T(5));
	ok = s[0].reason == VPMU_STOP_OVERFLOW && s[0].upc == 1 &&
	     s[0].ovf == 2 && s[1].reason == VPMU_STOP_HALT && x[0] == 1 &&
	     x[1] == 0 && x[2] == 5 && x[3] == 0 && x[4] == 7 && x[5] == 8;
	if (!ok)
		tap_diag("stops %u/%u/0x%x %u; t0 %u r5 %u t1 %u t2|t3 %u t4 %u t5 %u",
			 s[0].reason, s[0].upc, s[0].ovf, s[1].reason, x[0],
			 x[1], x[2], x[3], x[4], x[5]);
	vpmu_engine_destroy(e);
	vpmu_ucode_free(uc);
	return ok;
}

static void ctr(struct vpmu_engine *e, unsigned int i, u16 ev, u8 w,
		u8 flags, u8 fgroup)
{
	struct vpmu_ctr_cfg c = { ev, w, flags, fgroup };

	vpmu_engine_ctr_config(e, i, &c);
	vpmu_engine_ctr_write(e, i, 0);
}

#define BOTH	(VPMU_CTR_USER | VPMU_CTR_SUPER)

static bool test_mode_filter(void)
{
	static const u64 uw[] = {
		NOPW | Q(NEXT, 0, 0), UW(MODE, 0, 0, 0, 0) | Q(NEXT, 0, 0),
		NOPW | Q(NEXT, 0, 0), NOPW | Q(NEXT, 0, 0),
		UW(MODE, 0, 0, 0, 1) | Q(NEXT, 0, 0), NOPW | Q(NEXT, 0, 0),
		HALTW,
	};
	struct vpmu_ucode *uc = straight(uw, 7);
	struct vpmu_engine *e = eng_for(uc);
	struct vpmu_stop s;
	u8 mem[64] = { 0 };
	bool ok;

	ctr(e, 0, VPMU_EV_UOPS, 64, VPMU_CTR_USER, 0);
	ctr(e, 1, VPMU_EV_UOPS, 64, VPMU_CTR_SUPER, 0);
	ctr(e, 2, VPMU_EV_UOPS, 64, BOTH, 0);
	ctr(e, 3, VPMU_EV_CYCLES, 64, VPMU_CTR_USER, 1);
	vpmu_engine_start(e, mem, 64, 0, 1);
	vpmu_engine_run(e, 1000, &s);
	ok = vpmu_engine_ctr_read(e, 0) == 3 &&
	     vpmu_engine_ctr_read(e, 1) == 4 &&
	     vpmu_engine_ctr_read(e, 2) == 7 &&
	     vpmu_engine_ctr_read(e, 3) == 3 &&
	     vpmu_engine_mode(e) == VPMU_MODE_SUPER;
	if (!ok)
		tap_diag("user %llu super %llu both %llu",
			 (unsigned long long)vpmu_engine_ctr_read(e, 0),
			 (unsigned long long)vpmu_engine_ctr_read(e, 1),
			 (unsigned long long)vpmu_engine_ctr_read(e, 2));
	vpmu_engine_destroy(e);
	vpmu_ucode_free(uc);
	return ok;
}

/* 8 microwords, T on 2 and 5, tag 1 on 1 and 4. */
static const u64 trig_prog[] = {
	NOPW | Q(NEXT, 0, 0), NOPW | Q(NEXT, 0, 0) | UEV(1),
	NOPW | Q(NEXT, 0, 0) | UT, NOPW | Q(NEXT, 0, 0),
	NOPW | Q(NEXT, 0, 0) | UEV(1), NOPW | Q(NEXT, 0, 0) | UT,
	NOPW | Q(NEXT, 0, 0), HALTW,
};

static bool trig_run(u16 trigger, bool start_frozen, u64 budget,
		     u64 *uops, u64 *tag1, u64 *other, bool *frozen)
{
	struct vpmu_ucode *uc = straight(trig_prog, 8);
	struct vpmu_engine *e = eng_for(uc);
	struct vpmu_stop s;
	u8 mem[64] = { 0 };

	ctr(e, 0, VPMU_EV_UOPS, 64, BOTH, 1);
	ctr(e, 1, TAG(1), 64, BOTH, 1);
	ctr(e, 2, VPMU_EV_UOPS, 64, BOTH, 0);
	ctr(e, 3, VPMU_EV_CYCLES, 64, BOTH, 1);
	vpmu_engine_fgroup_trigger(e, 1, trigger);
	vpmu_engine_freeze(e, 1, start_frozen);
	vpmu_engine_start(e, mem, 64, 0, 0);
	do
		vpmu_engine_run(e, budget, &s);
	while (s.reason == VPMU_STOP_BUDGET);
	*uops = vpmu_engine_ctr_read(e, 0);
	*tag1 = vpmu_engine_ctr_read(e, 1);
	*other = vpmu_engine_ctr_read(e, 2);
	*frozen = vpmu_engine_frozen(e, 1);
	if (vpmu_engine_ctr_read(e, 3) != *uops)
		*other = ~0ull;
	vpmu_engine_destroy(e);
	vpmu_ucode_free(uc);
	return s.reason == VPMU_STOP_HALT;
}

static bool test_mark(bool start_frozen)
{
	u64 uops, tag1, other, b;
	bool frozen;

	for (b = 1; b <= 9; b++) {
		if (!trig_run(VPMU_TRIG_MARK, start_frozen, b, &uops, &tag1,
			      &other, &frozen))
			return false;
		/* frozen start: [2, 5) = 2,3,4; running: 0,1 and 5,6,7 */
		if (uops != (start_frozen ? 3u : 5u) ||
		    tag1 != (start_frozen ? 1u : 1u) || other != 8 ||
		    frozen != start_frozen) {
			tap_diag("budget %llu: uops %llu tag1 %llu other %llu",
				 (unsigned long long)b,
				 (unsigned long long)uops,
				 (unsigned long long)tag1,
				 (unsigned long long)other);
			return false;
		}
	}
	return true;
}

/*
 * A trigger source that faults has no effect: it does not toggle.  The
 * mark-like microword runs at pc 0 (thaws) and pc 4, whose EOI fetch at 8
 * is outside memory: the second toggle, taken as the microword begins
 * once the slot it toggles into is in use, must be undone.
 */
static bool test_trigger_fault(void)
{
	static const u64 uw[] = { UW(ADD, PC, PC, IM, 4) | Q(EOI, 0, 0) | UT };
	struct vpmu_ucode *uc = straight(uw, 1);
	struct vpmu_engine *e = eng_for(uc);
	struct vpmu_stop s;
	u8 mem[8] = { 0 };
	bool ok;

	ctr(e, 0, VPMU_EV_UOPS, 64, BOTH, 1);
	ctr(e, 1, VPMU_EV_UOPS, 64, BOTH, 0);
	vpmu_engine_fgroup_trigger(e, 1, VPMU_TRIG_MARK);
	vpmu_engine_freeze(e, 1, true);
	vpmu_engine_start(e, mem, sizeof(mem), 0, 0);
	vpmu_engine_run(e, 100, &s);
	ok = s.reason == VPMU_STOP_FAULT && s.code == VPMU_FAULT_FETCH &&
	     vpmu_engine_ctr_read(e, 0) == 1 &&
	     vpmu_engine_ctr_read(e, 1) == 1 && !vpmu_engine_frozen(e, 1);
	/* and again, from thawed: the first toggle freezes, the fault none */
	vpmu_engine_start(e, mem, sizeof(mem), 0, 0);
	vpmu_engine_run(e, 100, &s);
	ok = ok && s.reason == VPMU_STOP_FAULT &&
	     vpmu_engine_ctr_read(e, 0) == 1 &&
	     vpmu_engine_ctr_read(e, 1) == 2 && vpmu_engine_frozen(e, 1);
	vpmu_engine_destroy(e);
	vpmu_ucode_free(uc);
	return ok;
}

/* Trigger on tag 1: toggles on 1 (thaw, counted) and 4 (freeze, not). */
static bool test_event_trigger(void)
{
	u64 uops, tag1, other, b;
	bool frozen;

	for (b = 1; b <= 9; b++) {
		if (!trig_run(TAG(1), true, b, &uops, &tag1, &other, &frozen))
			return false;
		if (uops != 3 || tag1 != 1 || other != 8 || !frozen) {
			tap_diag("budget %llu: uops %llu tag1 %llu",
				 (unsigned long long)b,
				 (unsigned long long)uops,
				 (unsigned long long)tag1);
			return false;
		}
	}
	return true;
}

/* Trigger on a dynamic event: taken branches. */
static bool test_dynamic_trigger(void)
{
	static const u64 uw[] = {
		OP_MOVI(T(0), 3),
		UW(SUB, T(0), T(0), IM, 1) | US | QC(NZ, 1),
		HALTW,
	};
	struct vpmu_ucode *uc = straight(uw, 3);
	struct vpmu_engine *e = eng_for(uc);
	struct vpmu_stop s;
	u8 mem[64] = { 0 };
	bool ok;

	ctr(e, 0, VPMU_EV_UOPS, 64, BOTH, 2);
	ctr(e, 1, VPMU_EV_UBR_TAKEN, 64, BOTH, 2);
	vpmu_engine_fgroup_trigger(e, 2, VPMU_EV_UBR_TAKEN);
	vpmu_engine_freeze(e, 2, true);
	vpmu_engine_start(e, mem, 64, 0, 0);
	vpmu_engine_run(e, 100, &s);
	/* 0; 1 taken (thaw: counted); 1 taken (freeze); 1; 2 */
	ok = vpmu_engine_ctr_read(e, 0) == 1 &&
	     vpmu_engine_ctr_read(e, 1) == 1 && vpmu_engine_frozen(e, 2) &&
	     vpmu_engine_event_total(e, VPMU_EV_UBR_TAKEN) == 2;
	vpmu_engine_destroy(e);
	vpmu_ucode_free(uc);
	return ok;
}

/* Groups freeze together; software freeze of one group only. */
static bool test_groups(void)
{
	static const u64 uw[] = {
		NOPW | Q(NEXT, 0, 0), NOPW | Q(NEXT, 0, 0) | UT,
		NOPW | Q(NEXT, 0, 0), NOPW | Q(NEXT, 0, 0) | UT, HALTW,
	};
	struct vpmu_ucode *uc = straight(uw, 5);
	struct vpmu_engine *e = eng_for(uc);
	struct vpmu_stop s;
	u8 mem[64] = { 0 };
	bool ok;

	ctr(e, 0, VPMU_EV_UOPS, 64, BOTH, 2);
	ctr(e, 1, VPMU_EV_CYCLES, 64, BOTH, 2);
	ctr(e, 2, VPMU_EV_UOPS, 64, BOTH, 3);
	ctr(e, 3, VPMU_EV_UOPS, 64, BOTH, 0);
	vpmu_engine_fgroup_trigger(e, 2, VPMU_TRIG_MARK);
	vpmu_engine_freeze(e, 2, true);
	vpmu_engine_freeze(e, 3, true);
	vpmu_engine_start(e, mem, 64, 0, 0);
	vpmu_engine_run(e, 100, &s);
	ok = vpmu_engine_ctr_read(e, 0) == 2 &&
	     vpmu_engine_ctr_read(e, 1) == 2 &&
	     vpmu_engine_ctr_read(e, 2) == 0 &&
	     vpmu_engine_ctr_read(e, 3) == 5;
	vpmu_engine_destroy(e);
	vpmu_ucode_free(uc);
	return ok;
}

/*
 * A loop: 0 MOV t0,#n; 1 SHL t1,t0,#4 (tag 1); 2 LW t2,0(t1) (tag 1, always
 * misses); 3 SUB.S t0,t0,#1 + BR NZ 1; 4 HALT.  Needs LOOPMEM bytes.
 */
static struct vpmu_ucode *loop_uc(int n)
{
	struct etest t = { .n = 5 };

	t.uw[0] = OP_MOVI(T(0), n);
	t.uw[1] = ALUI(SHL, T(1), T(0), 4) | UEV(1);
	t.uw[2] = UW(LW, T(2), T(1), 0, 0) | Q(NEXT, 0, 0) | UEV(1);
	t.uw[3] = UW(SUB, T(0), T(0), IM, 1) | US | QC(NZ, 1);
	t.uw[4] = HALTW;
	return build(&t);
}

/* INT: stops right after the wrapping microword, with its upc. */
static bool test_overflow_stop(void)
{
	struct vpmu_ucode *uc = loop_uc(20);
	struct vpmu_engine *e = eng_for(uc);
	struct vpmu_stop s;
	static u8 mem[LOOPMEM];
	unsigned int stops = 0;
	bool ok = true;
	u64 seen = 0;

	memset(mem, 0, sizeof(mem));
	/* UOPS width 3: wraps on microwords 8, 16, ... */
	ctr(e, 0, VPMU_EV_UOPS, 3, BOTH | VPMU_CTR_INT, 0);
	vpmu_engine_start(e, mem, LOOPMEM, 0, 0);
	for (;;) {
		vpmu_engine_run(e, 1000, &s);
		if (s.reason != VPMU_STOP_OVERFLOW)
			break;
		stops++;
		seen += 8;
		/* microword #k (1-based) of 0,(1,2,3)*20,4 */
		if (s.upc != 1 + (seen - 2) % 3 || s.ovf != 1 ||
		    vpmu_engine_ctr_read(e, 0) != 0 ||
		    vpmu_engine_uword_count(e, s.upc) == 0 ||
		    vpmu_engine_event_total(e, VPMU_EV_UOPS) != seen) {
			tap_diag("stop %u: upc %u ovf %u uops %llu", stops,
				 s.upc, s.ovf,
				 (unsigned long long)vpmu_engine_event_total(e, 1));
			ok = false;
		}
		if (!(vpmu_engine_ovf_status(e) & 1))
			ok = false;
		vpmu_engine_ovf_clear(e, 1);
	}
	ok = ok && s.reason == VPMU_STOP_HALT && stops == 62 / 8 &&
	     vpmu_engine_ctr_read(e, 0) == 62 % 8;
	vpmu_engine_destroy(e);
	vpmu_ucode_free(uc);
	return ok;
}

/* CYCLES wraps on a stalling load: the stop names the load. */
static bool test_overflow_stall(void)
{
	struct vpmu_ucode *uc = loop_uc(3);
	struct vpmu_engine *e = eng_for(uc);
	struct vpmu_stop s;
	static u8 mem[LOOPMEM];
	bool ok;

	/* cycles: uw0 (1), uw1 (1), uw2 miss (6) -> wraps 8 on uw2 */
	ctr(e, 0, VPMU_EV_CYCLES, 3, BOTH | VPMU_CTR_INT, 0);
	vpmu_engine_start(e, mem, LOOPMEM, 0, 0);
	vpmu_engine_run(e, 1000, &s);
	ok = s.reason == VPMU_STOP_OVERFLOW && s.upc == 2 && s.cycles == 8 &&
	     vpmu_engine_ctr_read(e, 0) == 0;
	if (!ok)
		tap_diag("reason %d upc %u cycles %llu", s.reason, s.upc,
			 (unsigned long long)s.cycles);
	vpmu_engine_destroy(e);
	vpmu_ucode_free(uc);
	return ok;
}

/* Many wraps in one run without INT: value and status exact. */
static bool test_many_wraps(void)
{
	struct vpmu_ucode *uc = loop_uc(100);
	struct vpmu_engine *e = eng_for(uc);
	struct vpmu_stop s;
	static u8 mem[LOOPMEM];
	u64 total;
	bool ok;

	ctr(e, 0, VPMU_EV_UOPS, 1, BOTH, 0);
	ctr(e, 1, TAG(1), 5, BOTH, 0);
	ctr(e, 2, VPMU_EV_CYCLES, 4, BOTH, 0);
	ctr(e, 3, VPMU_EV_UOPS, 64, BOTH, 0);
	vpmu_engine_ctr_write(e, 3, ~0ull - 10);
	vpmu_engine_start(e, mem, LOOPMEM, 0, 0);
	vpmu_engine_run(e, 100000, &s);
	total = vpmu_engine_event_total(e, VPMU_EV_UOPS);
	ok = s.reason == VPMU_STOP_HALT && total == 302 &&
	     vpmu_engine_ctr_read(e, 0) == (total & 1) &&
	     vpmu_engine_ctr_read(e, 1) == (200 & 31) &&
	     vpmu_engine_ctr_read(e, 2) == (s.cycles & 15) &&
	     vpmu_engine_ctr_read(e, 3) == total - 11 &&
	     vpmu_engine_ovf_status(e) == 0xf &&
	     vpmu_engine_ovf_count(e, 0) == total >> 1 &&
	     vpmu_engine_ovf_count(e, 1) == 200 >> 5 &&
	     vpmu_engine_ovf_count(e, 2) == s.cycles >> 4 &&
	     vpmu_engine_ovf_count(e, 3) == 1;
	vpmu_engine_ovf_clear(e, 0x5);
	ok = ok && vpmu_engine_ovf_status(e) == 0xa &&
	     !vpmu_engine_ovf_count(e, 0) && !vpmu_engine_ovf_count(e, 2) &&
	     vpmu_engine_ovf_count(e, 1) == 200 >> 5;
	vpmu_engine_destroy(e);
	vpmu_ucode_free(uc);
	return ok;
}

/* Freeze on overflow freezes the group right after the wrapping microword. */
static bool test_freeze_on_ovf(void)
{
	struct vpmu_ucode *uc = loop_uc(20);
	struct vpmu_engine *e = eng_for(uc);
	struct vpmu_stop s;
	static u8 mem[LOOPMEM];
	bool ok;

	ctr(e, 0, TAG(1), 3, BOTH | VPMU_CTR_FREEZE_ON_OVF, 1);
	ctr(e, 1, VPMU_EV_UOPS, 64, BOTH, 1);
	ctr(e, 2, VPMU_EV_UOPS, 64, BOTH, 0);
	vpmu_engine_start(e, mem, LOOPMEM, 0, 0);
	vpmu_engine_run(e, 100000, &s);
	/* tag 1 on uw1, uw2: 8th tag on the 4th iteration's uw2, which is
	 * microword 1 + 3*3 + 2 = 12 */
	ok = s.reason == VPMU_STOP_HALT && vpmu_engine_frozen(e, 1) &&
	     vpmu_engine_ctr_read(e, 0) == 0 &&
	     vpmu_engine_ctr_read(e, 1) == 12 &&
	     vpmu_engine_ctr_read(e, 2) == 62 &&
	     (vpmu_engine_ovf_status(e) & 1);
	if (!ok)
		tap_diag("ctr1 %llu", (unsigned long long)vpmu_engine_ctr_read(e, 1));
	vpmu_engine_destroy(e);
	vpmu_ucode_free(uc);
	return ok;
}

/* K = 1: buckets = executions + stall cycles. */
static bool test_uhist1(void)
{
	struct vpmu_ucode *uc = loop_uc(10);
	struct vpmu_engine *e = eng_for(uc);
	struct vpmu_stop s;
	static u8 mem[LOOPMEM];
	const u64 *h;
	u32 n, i;
	bool ok = true;
	u64 sum = 0;

	vpmu_engine_uhist_set(e, 1);
	vpmu_engine_start(e, mem, LOOPMEM, 0, 0);
	vpmu_engine_run(e, 7, &s);
	vpmu_engine_run(e, 100000, &s);
	h = vpmu_engine_uhist(e, &n);
	for (i = 0; i < n; i++) {
		u64 want = vpmu_engine_uword_count(e, i);

		if (i == 2)
			want += 5 * vpmu_engine_event_total(e, VPMU_EV_DC_MISS);
		if (h[i] != want)
			ok = false;
		sum += h[i];
	}
	ok = ok && n == 5 && sum == vpmu_engine_event_total(e, 0);
	vpmu_engine_destroy(e);
	vpmu_ucode_free(uc);
	return ok;
}

/* K > 1: compare with a reference built by stepping microword by microword. */
static bool test_uhistk(u32 k)
{
	struct vpmu_ucode *uc = loop_uc(15);
	struct vpmu_engine *e = eng_for(uc), *r = eng_for(uc);
	struct vpmu_stop s;
	static u8 mem[LOOPMEM], mem2[LOOPMEM];
	u64 ref[5] = { 0 };
	const u64 *h;
	u64 c = 0, next = k - 1;
	u32 n;
	bool ok;

	/* reference: budget 1 runs exactly one microword */
	vpmu_engine_start(r, mem2, LOOPMEM, 0, 0);
	for (;;) {
		u32 upc = vpmu_engine_upc(r);

		vpmu_engine_run(r, 1, &s);
		if (!s.cycles)
			break;
		c += s.cycles;
		while (next < c) {
			ref[upc]++;
			next += k;
		}
		if (s.reason != VPMU_STOP_BUDGET)
			break;
	}
	vpmu_engine_uhist_set(e, k);
	ctr(e, 0, VPMU_EV_UOPS, 3, BOTH, 0);	/* forces stepping too */
	vpmu_engine_start(e, mem, LOOPMEM, 0, 0);
	vpmu_engine_run(e, 100000, &s);
	h = vpmu_engine_uhist(e, &n);
	ok = !memcmp(h, ref, sizeof(ref));
	if (!ok)
		tap_diag("K=%u: %llu %llu %llu %llu %llu vs %llu %llu %llu %llu %llu",
			 k, (unsigned long long)h[0], (unsigned long long)h[1],
			 (unsigned long long)h[2], (unsigned long long)h[3],
			 (unsigned long long)h[4], (unsigned long long)ref[0],
			 (unsigned long long)ref[1], (unsigned long long)ref[2],
			 (unsigned long long)ref[3], (unsigned long long)ref[4]);
	vpmu_engine_destroy(e);
	vpmu_engine_destroy(r);
	vpmu_ucode_free(uc);
	return ok;
}

/*
 * A sample due in the cycle of a microword that faults is not taken: the
 * microword never ran.  K = 4 on NOP, NOP, NOP, then an EOI whose fetch
 * is outside memory: cycle 3 would be the EOI's.  The countdown is the
 * engine's clock, so a new program's first cycle gets that sample, and
 * its fifth (upc 0 again, after the EOI) the next.  Run whole and in
 * runs of one cycle.
 */
static bool test_uhist_fault(u64 budget)
{
	static const u64 uw[] = {
		NOPW | Q(NEXT, 0, 0), NOPW | Q(NEXT, 0, 0),
		NOPW | Q(NEXT, 0, 0), UW(ADD, PC, PC, IM, 8) | Q(EOI, 0, 0),
	};
	struct vpmu_ucode *uc = straight(uw, 4);
	struct vpmu_engine *e = eng_for(uc);
	struct vpmu_stop s;
	u8 mem[64] = { 0 };
	const u64 *h;
	u64 cycles = 0;
	bool ok;

	vpmu_engine_uhist_set(e, 4);
	vpmu_engine_start(e, mem, 8, 0, 0);	/* pc 8 is outside */
	do {
		vpmu_engine_run(e, budget, &s);
		cycles += s.cycles;
	} while (s.reason == VPMU_STOP_BUDGET);
	h = vpmu_engine_uhist(e, NULL);
	ok = s.reason == VPMU_STOP_FAULT && cycles == 3 &&
	     !h[0] && !h[1] && !h[2] && !h[3];
	vpmu_engine_run(e, budget, &s);		/* faults again at once */
	ok = ok && s.reason == VPMU_STOP_FAULT && !s.cycles && !h[3];
	vpmu_engine_start(e, mem, sizeof(mem), 0, 0);
	for (cycles = 0; cycles < 5; cycles += s.cycles)
		vpmu_engine_run(e, budget < 5 ? budget : 5, &s);
	ok = ok && h[0] == 2 && !h[1] && !h[2] && !h[3];
	if (!ok)
		tap_diag("budget %llu: %llu %llu %llu %llu",
			 (unsigned long long)budget, (unsigned long long)h[0],
			 (unsigned long long)h[1], (unsigned long long)h[2],
			 (unsigned long long)h[3]);
	vpmu_engine_destroy(e);
	vpmu_ucode_free(uc);
	return ok;
}

/* The halted engine stays halted: another run costs nothing. */
static bool test_sticky_halt(void)
{
	static const u64 uw[] = { NOPW | Q(NEXT, 0, 0), HALTW };
	struct vpmu_ucode *uc = straight(uw, 2);
	struct vpmu_engine *e = eng_for(uc);
	struct vpmu_stop s;
	u8 mem[64] = { 0 };
	bool ok;

	vpmu_engine_start(e, mem, 64, 0, 0);
	vpmu_engine_run(e, 100, &s);
	ok = s.reason == VPMU_STOP_HALT && s.cycles == 2;
	vpmu_engine_run(e, 100, &s);
	ok = ok && s.reason == VPMU_STOP_HALT && s.cycles == 0 &&
	     vpmu_engine_event_total(e, VPMU_EV_UOPS) == 2;
	vpmu_engine_destroy(e);
	vpmu_ucode_free(uc);
	return ok;
}

/*
 * The owner's services: a TRAP goes on at the next microword after
 * vpmu_engine_trap_return(), with the registers vpmu_engine_set_reg()
 * wrote; nothing else may resume, and a TRAP in the last word cannot.
 */
static bool test_trap_return(void)
{
	static const u64 uw[] = { OP_MOVI(T(0), 5), NOPW | Q(TRAP, 0, 9),
				  ALUR(ADD, T(0), T(0), R(3)),
				  NOPW | Q(TRAP, 0, 10) };
	struct vpmu_ucode *uc = straight(uw, 4);
	struct vpmu_engine *e = eng_for(uc);
	struct vpmu_stop s;
	u8 mem[64] = { 0 };
	bool ok;

	vpmu_engine_start(e, mem, 64, 0, 0);
	ok = vpmu_engine_trap_return(e) == -EINVAL &&
	     vpmu_engine_set_reg(e, PC, 1) == -EINVAL &&
	     vpmu_engine_set_reg(e, T(8), 1) == -EINVAL;
	vpmu_engine_run(e, 100, &s);
	ok = ok && s.reason == VPMU_STOP_TRAP && s.code == 9 && s.cycles == 2 &&
	     !vpmu_engine_set_reg(e, R(3), 37) && !vpmu_engine_trap_return(e);
	vpmu_engine_run(e, 100, &s);
	ok = ok && s.reason == VPMU_STOP_TRAP && s.code == 10 &&
	     s.cycles == 2 && s.upc == 3 &&
	     vpmu_engine_reg(e, T(0)) == 42 &&
	     vpmu_engine_event_total(e, VPMU_EV_UOPS) == 4 &&
	     vpmu_engine_trap_return(e) == -EINVAL;
	vpmu_engine_run(e, 100, &s);
	ok = ok && s.reason == VPMU_STOP_TRAP && s.code == 10 && !s.cycles;
	vpmu_engine_destroy(e);
	vpmu_ucode_free(uc);
	return ok;
}

static bool test_config_errors(void)
{
	struct vpmu_engine *e = vpmu_engine_create(VPMU_CS_MAX);
	struct vpmu_ctr_cfg c = { VPMU_EV_HU(0), 16, BOTH, 0 };
	bool ok = vpmu_engine_ctr_config(e, 0, &c) == -EOPNOTSUPP;

	c.event = VPMU_EV_UOPS;
	c.width = 0;
	ok = ok && vpmu_engine_ctr_config(e, 0, &c) == -EINVAL;
	c.width = 65;
	ok = ok && vpmu_engine_ctr_config(e, 0, &c) == -EINVAL;
	c.width = 8;
	c.fgroup = 4;
	ok = ok && vpmu_engine_ctr_config(e, 0, &c) == -EINVAL;
	c.fgroup = 0;
	ok = ok && vpmu_engine_ctr_config(e, 16, &c) == -EINVAL;
	c.event = 0x50;
	ok = ok && vpmu_engine_ctr_config(e, 0, &c) == -EINVAL;
	c.event = TAG(0);
	ok = ok && vpmu_engine_ctr_config(e, 0, &c) == -EINVAL;
	c.event = TAG(255);
	ok = ok && vpmu_engine_ctr_config(e, 0, &c) == 0;
	ok = ok && vpmu_engine_fgroup_trigger(e, 0, VPMU_EV_HU(1)) ==
		   -EOPNOTSUPP;
	ok = ok && vpmu_engine_fgroup_trigger(e, 4, VPMU_TRIG_MARK) == -EINVAL;
	vpmu_engine_ctr_write(e, 0, 0x1ff);
	ok = ok && vpmu_engine_ctr_read(e, 0) == 0xff;
	vpmu_engine_destroy(e);
	return ok;
}

/* ---- interrupting counters against a one-microword-at-a-time run ------- */

#define MAXSTOPS	4096

/* Every stop of a run, in order, and the state at its end. */
struct stops {
	unsigned int n;
	struct { u32 reason, upc, ipc, ovf; u64 at; } s[MAXSTOPS];
	u64 ctr[VPMU_NR_COUNTERS_MAX];
	u32 frozen, ovf;
	u64 cycles;
};

/*
 * Run from a fresh start @budget cycles at a time, clearing each overflow
 * like the driver, until a stop other than BUDGET/OVERFLOW: budget 1 runs
 * exactly one microword a time, the reference.
 */
static void run_stops(struct vpmu_engine *e, u8 *mem, u32 msz, u32 entry,
		      unsigned int mode, u64 budget, struct stops *r)
{
	struct vpmu_stop st;
	unsigned int g;

	memset(r, 0, sizeof(*r));
	vpmu_engine_start(e, mem, msz, entry, mode);
	for (;;) {
		vpmu_engine_run(e, budget, &st);
		r->cycles += st.cycles;
		if (st.reason == VPMU_STOP_BUDGET)
			continue;
		if (r->n < MAXSTOPS) {
			r->s[r->n].reason = st.reason;
			r->s[r->n].upc = st.upc;
			r->s[r->n].ipc = st.ipc;
			r->s[r->n].ovf = st.ovf;
			r->s[r->n].at = r->cycles;
		}
		r->n++;
		if (st.reason != VPMU_STOP_OVERFLOW || r->n > 100000)
			break;
		vpmu_engine_ovf_clear(e, st.ovf);
	}
	vpmu_engine_ctr_snapshot(e, r->ctr, VPMU_NR_COUNTERS_MAX);
	r->ovf = vpmu_engine_ovf_status(e);
	for (g = 0; g < VPMU_NR_FGROUPS_MAX; g++)
		r->frozen |= vpmu_engine_frozen(e, g) << g;
}

static bool same_stops(const struct stops *a, const struct stops *b)
{
	unsigned int k;

	if (a->n != b->n || a->cycles != b->cycles || a->ovf != b->ovf ||
	    a->frozen != b->frozen || memcmp(a->ctr, b->ctr, sizeof(a->ctr))) {
		tap_diag("%u stops, %llu cycles; reference %u, %llu",
			 a->n, (unsigned long long)a->cycles, b->n,
			 (unsigned long long)b->cycles);
		return false;
	}
	for (k = 0; k < a->n && k < MAXSTOPS; k++)
		if (memcmp(&a->s[k], &b->s[k], sizeof(a->s[k]))) {
			tap_diag("stop %u: reason %u upc %u ipc 0x%x ovf 0x%x at %llu; "
				 "reference %u %u 0x%x 0x%x at %llu", k,
				 a->s[k].reason, a->s[k].upc, a->s[k].ipc,
				 a->s[k].ovf, (unsigned long long)a->s[k].at,
				 b->s[k].reason, b->s[k].upc, b->s[k].ipc,
				 b->s[k].ovf, (unsigned long long)b->s[k].at);
			return false;
		}
	return true;
}

/*
 * @t's events on 3-bit interrupting counters, started at @phase: every
 * overflow stop (upc, ipc, ovf, cycle) and the end state at several
 * budgets are those of the one-microword-at-a-time run.
 */
static bool check_int_ref(struct vpmu_engine *e, const struct etest *t)
{
	static const u64 budgets[] = { 2, 3, 5, 8, 13, 100000 };
	static struct stops ref, got;
	struct vpmu_ctr_cfg c;
	unsigned int i, k, phase;
	u8 mem[MEMSZ];

	for (phase = 0; phase < 8; phase += 3) {
		for (i = 0; i < MAXEV; i++) {
			memset(&c, 0, sizeof(c));
			c.event = t->evs[i].ev;
			c.width = 3;
			c.flags = BOTH | VPMU_CTR_INT;
			vpmu_engine_ctr_config(e, i, t->evs[i].set ? &c : NULL);
		}
		for (k = 0; k <= sizeof(budgets) / sizeof(budgets[0]); k++) {
			for (i = 0; i < MAXEV; i++)
				vpmu_engine_ctr_write(e, i, phase + i);
			vpmu_engine_ovf_clear(e, ~0u);
			memcpy(mem, t->mem, MEMSZ);
			run_stops(e, mem, msz_of(t), t->entry, t->mode,
				  k ? budgets[k - 1] : 1, k ? &got : &ref);
			if (k && !same_stops(&got, &ref)) {
				tap_diag("phase %u budget %llu", phase,
					 (unsigned long long)budgets[k - 1]);
				return false;
			}
		}
	}
	return true;
}

/*
 * A loop of 8 microwords with a rare tag (1: once, on a load that misses
 * or hits), a common one (2: three times) and another rare one (3, on the
 * branch).  Many narrow interrupting counters on rare, common and dynamic
 * events, one freezing its group on overflow (and the cycles counted in
 * that group with it), at many starting values: every stop and the end
 * state at every budget are the reference's.
 */
static bool test_int_rare(void)
{
	static const u64 budgets[] = { 2, 3, 4, 7, 8, 9, 31, 64, 100000 };
	static struct stops ref, got;
	static u8 mem[LOOPMEM];
	struct etest t = { .n = 10 };
	struct vpmu_ucode *uc;
	struct vpmu_engine *e;
	unsigned int k, ph;
	bool ok = true;

	t.uw[0] = OP_MOVI(T(0), 300);
	t.uw[1] = ALUI(ADD, T(1), T(1), 1) | UEV(2);
	t.uw[2] = ALUI(SHL, T(2), T(1), 4) | UEV(2);
	t.uw[3] = ALUI(AND, T(2), T(2), 0x10);
	t.uw[4] = UW(LW, T(3), T(2), 0, 0) | Q(NEXT, 0, 0) | UEV(1);
	t.uw[5] = ALUI(ADD, T(3), T(3), 1) | UEV(2);
	t.uw[6] = NOPW | Q(NEXT, 0, 0);
	t.uw[7] = ALUR(XOR, T(4), T(4), T(3));
	t.uw[8] = UW(SUB, T(0), T(0), IM, 1) | US | QC(NZ, 1) | UEV(4);
	t.uw[9] = HALTW;
	uc = build(&t);
	e = uc ? eng_for(uc) : NULL;
	if (!e)
		return false;
	for (ph = 0; ok && ph < 12; ph++) {
		u8 cint = ph < 6 ? VPMU_CTR_INT : 0;

		ctr(e, 0, TAG(1), 3 + ph % 4, BOTH | VPMU_CTR_INT, 0);
		/* from phase 6 on, only the rare events interrupt */
		ctr(e, 1, TAG(2), 4, BOTH | cint, 0);
		ctr(e, 2, VPMU_EV_UOPS, 5, BOTH | cint, 0);
		ctr(e, 3, VPMU_EV_CYCLES, 6, BOTH | cint, 0);
		ctr(e, 4, TAG(3), (cint ? 2 : 5) + ph % 2, BOTH | VPMU_CTR_INT, 0);
		ctr(e, 5, VPMU_EV_DC_MISS, 2, BOTH | cint, 0);
		ctr(e, 6, TAG(1), 64, BOTH, 0);
		ctr(e, 7, TAG(1), 6, BOTH | VPMU_CTR_FREEZE_ON_OVF, 1);
		ctr(e, 8, VPMU_EV_UOPS, 64, BOTH, 1);
		ctr(e, 9, VPMU_EV_INSNS, 2, BOTH | VPMU_CTR_INT, 0);
		ctr(e, 10, VPMU_EV_UBR_TAKEN, 3 + ph % 3, BOTH | VPMU_CTR_INT, 0);
		ctr(e, 11, VPMU_EV_DC_HIT, 4 + ph % 2, BOTH | VPMU_CTR_INT, 0);
		/* cycles in the group that freezes: counted by some slots only */
		ctr(e, 12, VPMU_EV_CYCLES, 5 + ph % 3, BOTH | cint, 1);
		/* ...in one the branch's tag toggles, so also inside a run */
		ctr(e, 13, VPMU_EV_CYCLES, 4 + ph % 3, BOTH | VPMU_CTR_INT, 3);
		/* cycles freezing a group on overflow, microwords counted in it */
		ctr(e, 14, VPMU_EV_CYCLES, 7 + ph % 2,
		    BOTH | VPMU_CTR_FREEZE_ON_OVF, 2);
		ctr(e, 15, VPMU_EV_UOPS, 64, BOTH, 2);
		vpmu_engine_fgroup_trigger(e, 3, TAG(3));
		for (k = 0; ok && k <= sizeof(budgets) / sizeof(budgets[0]); k++) {
			vpmu_engine_ctr_write(e, 0, ph);
			vpmu_engine_ctr_write(e, 1, ph * 5);
			vpmu_engine_ctr_write(e, 2, ph * 7);
			vpmu_engine_ctr_write(e, 3, 0);
			vpmu_engine_ctr_write(e, 4, ph);
			vpmu_engine_ctr_write(e, 5, 0);
			vpmu_engine_ctr_write(e, 6, 0);
			vpmu_engine_ctr_write(e, 7, ph * 3);
			vpmu_engine_ctr_write(e, 8, 0);
			vpmu_engine_ctr_write(e, 10, ph);
			vpmu_engine_ctr_write(e, 11, ph * 2);
			vpmu_engine_ctr_write(e, 12, ph * 4);
			vpmu_engine_ctr_write(e, 13, ph);
			vpmu_engine_ctr_write(e, 14, ph * 9);
			vpmu_engine_ctr_write(e, 15, 0);
			vpmu_engine_ovf_clear(e, ~0u);
			vpmu_engine_freeze(e, 1, false);
			vpmu_engine_freeze(e, 2, false);
			vpmu_engine_freeze(e, 3, false);
			memset(mem, 0, sizeof(mem));
			run_stops(e, mem, LOOPMEM, 0, 0,
				  k ? budgets[k - 1] : 1, k ? &got : &ref);
			if (!k) {
				/* sanity: many stops, all counters right */
				ok = ref.n > 5 && ref.ctr[6] == 300 &&
				     vpmu_engine_frozen(e, 1) &&
				     ref.s[ref.n - 1].reason == VPMU_STOP_HALT;
				if (!ok)
					tap_diag("reference: %u stops ctr6 %llu frozen %u last %u", ref.n, (unsigned long long)ref.ctr[6], ref.frozen, ref.s[ref.n - 1].reason);
			} else if (!same_stops(&got, &ref)) {
				tap_diag("phase %u budget %llu", ph,
					 (unsigned long long)budgets[k - 1]);
				ok = false;
			}
		}
	}
	vpmu_engine_destroy(e);
	vpmu_ucode_free(uc);
	return ok;
}

/*
 * Runs leave their counts in the slots while no counter that interrupts
 * can wrap in them (vpmu_plan_chunk()); a load that misses at a run's
 * end stalls past it, and must not carry an interrupting CYCLES counter
 * past its wrap unseen.  Every start value, runs of 2 to 40 cycles: the
 * stops and the end state of the one-cycle-a-time reference.
 */
static bool test_int_defer_stall(void)
{
	struct vpmu_ucode *uc = loop_uc(20);
	struct vpmu_engine *e = uc ? eng_for(uc) : NULL;
	static struct stops ref, got;
	static u8 mem[LOOPMEM];
	unsigned int v, b;
	bool ok = e;

	for (v = 0; ok && v < 64; v++) {
		for (b = 1; ok && b <= 40; b++) {
			ctr(e, 0, VPMU_EV_CYCLES, 6, BOTH | VPMU_CTR_INT, 0);
			ctr(e, 1, VPMU_EV_UOPS, 16, BOTH, 0);
			vpmu_engine_ctr_write(e, 0, v);
			vpmu_engine_ctr_write(e, 1, 0);
			vpmu_engine_ovf_clear(e, ~0u);
			memset(mem, 0, sizeof(mem));
			run_stops(e, mem, LOOPMEM, 0, 0, b, b > 1 ? &got : &ref);
			if (b > 1 && !same_stops(&got, &ref)) {
				tap_diag("start %u budget %u", v, b);
				ok = false;
			}
		}
	}
	vpmu_engine_destroy(e);
	vpmu_ucode_free(uc);
	return ok;
}

/* Every budget split and every counter set-up gives the same totals. */
static bool test_determinism(void)
{
	struct vpmu_ucode *uc = loop_uc(30);
	struct vpmu_engine *e = eng_for(uc);
	struct vpmu_stop s;
	static u8 mem[LOOPMEM];
	u64 ref[12], got[12], b;
	unsigned int i, rep;
	bool ok = true;

	for (rep = 0; rep < 40; rep++) {
		b = rep < 2 ? 100000 : rep - 1;
		memset(mem, 0, sizeof(mem));
		for (i = 0; i < 4; i++)
			ctr(e, i, i == 0 ? VPMU_EV_CYCLES : TAG(1),
			    rep & 1 ? 2 + i : 64,
			    BOTH | (rep & 2 ? VPMU_CTR_INT : 0), i & 1);
		vpmu_engine_fgroup_trigger(e, 1, rep & 4 ? VPMU_TRIG_MARK :
					   VPMU_TRIG_NONE);
		vpmu_engine_uhist_set(e, rep % 5);
		vpmu_engine_start(e, mem, LOOPMEM, 0, 0);
		do
			vpmu_engine_run(e, b, &s);
		while (s.reason == VPMU_STOP_BUDGET ||
		       s.reason == VPMU_STOP_OVERFLOW);
		for (i = 0; i < VPMU_EV_NR_BASIC; i++)
			got[i] = vpmu_engine_event_total(e, i);
		got[10] = vpmu_engine_event_total(e, TAG(1));
		got[11] = vpmu_engine_reg(e, T(1));
		if (!rep)
			memcpy(ref, got, sizeof(ref));
		else if (memcmp(ref, got, sizeof(ref)))
			ok = false;
	}
	vpmu_engine_destroy(e);
	vpmu_ucode_free(uc);
	return ok;
}

int main(void)
{
	struct vpmu_engine *e = vpmu_engine_create(VPMU_CS_MAX);
	unsigned int i, c, w;

	tap_plan(5 * NTESTS + 11 + 2 + 1 + 8 + 25);
	for (i = 0; i < NTESTS; i++) {
		struct vpmu_ucode *uc = build(&tests[i]);
		bool ok = uc && !vpmu_engine_attach(e, uc);

		tap_ok(ok && check_table(e, &tests[i]), "%s", tests[i].name);
		tap_ok(ok && check_splits(e, &tests[i]),
		       "%s: same at every budget split", tests[i].name);
		tap_ok(ok && check_narrow(e, &tests[i]),
		       "%s: narrow counters, interrupting or counting wraps", tests[i].name);
		tap_ok(ok && check_ctx(e, uc, &tests[i]),
		       "%s: in pieces through contexts, two engines",
		       tests[i].name);
		tap_ok(ok && check_int_ref(e, &tests[i]),
		       "%s: interrupting counters stop where stepping does",
		       tests[i].name);
		vpmu_engine_destroy(e);
		e = vpmu_engine_create(VPMU_CS_MAX);
		vpmu_ucode_free(uc);
	}
	vpmu_engine_destroy(e);
	for (c = 0; c <= VPMU_COND_GE; c++)
		tap_ok(test_br_cond(c), "BR %s over all flag values",
		       vpmu_cond_info[c].name);
	for (c = 0, w = 0; c <= VPMU_COND_GE; c++)
		w += test_cmp_br(c, false);
	tap_ok(w == VPMU_COND_GE + 1, "SUB.s zero, a, b ; BR: every condition, "
	       "flags read back");
	for (c = 0, w = 0; c <= VPMU_COND_GE; c++)
		w += test_cmp_br(c, true);
	tap_ok(w == VPMU_COND_GE + 1, "the same as a trigger source");
	tap_ok(test_br_signals(), "BR MISS WQF USER SUPER EXT");
	for (w = 1; w <= 8; w++)
		tap_ok(test_disp(w), "DISP width %u", w);
	tap_ok(test_ctr(), "CTR: every destination and selector, and a read of the counter it wraps");
	tap_ok(test_mode_filter(), "counters filter by mode; MODE takes effect next microword");
	tap_ok(test_mark(true), "MARK trigger, started frozen: [first, second)");
	tap_ok(test_mark(false), "MARK trigger, started running");
	tap_ok(test_event_trigger(), "event (tag) trigger, toggle before count");
	tap_ok(test_dynamic_trigger(), "dynamic event (taken branch) trigger");
	tap_ok(test_trigger_fault(), "a faulting trigger source does not toggle");
	tap_ok(test_groups(), "groups freeze together, software freeze");
	tap_ok(test_overflow_stop(), "INT: exact overflow stops (upc, ovf)");
	tap_ok(test_overflow_stall(), "INT: CYCLES wraps on a stalling load");
	tap_ok(test_many_wraps(), "many wraps in one run, 1- to 64-bit");
	tap_ok(test_freeze_on_ovf(), "freeze on overflow at the exact microword");
	tap_ok(test_int_rare(), "narrow INT counters on rare, common and dynamic events: "
	       "stops where stepping does, every budget");
	tap_ok(test_int_defer_stall(),
	       "INT on CYCLES: deferring runs stop where stepping does");
	tap_ok(test_uhist1(), "micro-PC histogram K=1 = executions + stalls");
	tap_ok(test_uhistk(2), "micro-PC histogram K=2");
	tap_ok(test_uhistk(3), "micro-PC histogram K=3");
	tap_ok(test_uhistk(7), "micro-PC histogram K=7");
	tap_ok(test_uhist_fault(100),
	       "micro-PC histogram: no sample in a faulting microword");
	tap_ok(test_uhist_fault(1),
	       "micro-PC histogram: no sample in a faulting microword, 1-cycle runs");
	tap_ok(test_sticky_halt(), "halted engine stays halted");
	tap_ok(test_trap_return(), "TRAP, set a register, trap return: goes on after it");
	tap_ok(test_config_errors(), "counter and trigger configuration errors");
	tap_ok(test_determinism(), "determinism across budgets and set-ups");
	e = vpmu_engine_create(VPMU_CS_MAX);
	tap_ok(vpmu_engine_event_total(e, 0) == 0 && !vpmu_engine_uhist(e, &w),
	       "engine without image");
	vpmu_engine_destroy(e);
	return tap_done();
}
