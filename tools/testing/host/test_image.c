// SPDX-License-Identifier: GPL-2.0
/*
 * test_image.c - validator tests: one or more per VPMU_VERR_* code, each
 * asserting the code, the errno and (where it names an item) the message.
 */
#include <stdio.h>

#include "tap.h"
#include "vpmu_test_image.h"

#define IMG_MAX	65536

static uint8_t img[IMG_MAX];
static size_t img_len;

/* A valid image with a bit of everything. */
static struct tb_image *base(void)
{
	struct tb_image *t = tb_new();
	struct vpmu_image_insn *in;

	t->ncs = 6;
	t->cs[0] = UW(ADD, T(0), T(0), IM, 1) | Q(NEXT, 0, 0) | UEV(1);
	t->cs[1] = UW(SUB, T(1), T(0), IM, 3) | US | QC(NZ, 0) | UT;
	t->cs[2] = UW(EXT, T(2), IR, 0, VPMU_EXT_IMM(4, 8)) | Q(DISP, 1, 4);
	t->cs[3] = UW(LW, T(3), T(0), 0, 8) | Q(EOI, 0, 0);
	t->cs[4] = NOPW | Q(HALT, 0, 0);
	t->cs[5] = UW(SW, 0, T(0), T(1), -4) | Q(TRAP, 0, 77);
	t->id[0] = 0;
	t->id[1] = 3;
	t->sym[t->nsym].name = tb_str(t, "start");
	t->sym[t->nsym++].addr = 0;
	in = &t->insn[t->ninsn++];
	in->name = tb_str(t, "add");
	in->match = 1;
	in->mask = 1;
	in->nops = 2;
	in->ops[0].kind = VPMU_MOP_REG;
	in->ops[0].pos = 1;
	in->ops[0].width = 5;
	in->ops[1].kind = VPMU_MOP_SIMM;
	in->ops[1].pos = 6;
	in->ops[1].width = 12;
	return t;
}

/* base() with tags 1 and 3 named: the one-hot field has 8. */
static struct tb_image *named(void)
{
	struct tb_image *t = base();

	t->tag[0].name = tb_str(t, "decode");
	t->tag[0].tag = 1;
	t->tag[1].name = tb_str(t, "mem_op2");
	t->tag[1].tag = 3;
	t->ntag = 2;
	return t;
}

/* named() with entry 1's name @s instead. */
static void rename1(struct tb_image *t, const char *s)
{
	t->tag[1].name = tb_str(t, s);
}

static void put32(size_t off, uint32_t v)
{
	tb_put32(img + off, v);
}

static uint32_t get32(size_t off)
{
	return img[off] | img[off + 1] << 8 | img[off + 2] << 16 |
	       (uint32_t)img[off + 3] << 24;
}

static void reseal(void)
{
	vpmu_image_seal(img, img_len);
}

struct vcase {
	const char *name;
	enum vpmu_verr_code code;
	void (*tmut)(struct tb_image *t);	/* mutate the builder */
	void (*bmut)(void);			/* or the bytes */
	const char *msg;			/* expected message, if set */
	size_t len_delta;
	u32 cs_limit;
	bool named;				/* named(), not base() */
};

#define TM(fn, body) static void fn(struct tb_image *t) { body; }
#define BM(fn, body) static void fn(void) { body; }

BM(b_trunc, img_len = 100)
BM(b_magic, put32(TB_HOFF(magic), 0x12345678); reseal())
BM(b_version, put32(TB_HOFF(version), 2); reseal())
BM(b_size, put32(TB_HOFF(total_size), img_len - 8); reseal())
BM(b_csum, img[TB_HOFF(name) + 40] ^= 1)
BM(b_hsize, put32(TB_HOFF(header_size), 128); reseal())
BM(b_resv, put32(TB_HOFF(reserved) + 12, 1); reseal())
BM(b_flags, put32(TB_HOFF(flags), VPMU_IMG_F_ALL + 1); reseal())
BM(b_name_nul, memset(img + TB_HOFF(name), 'x', 32); reseal())
BM(b_name_pad, img[TB_HOFF(name) + 20] = 'y'; reseal())
BM(b_cs_align, put32(TB_HOFF(cs_offset), get32(TB_HOFF(cs_offset)) + 4);
   reseal())
BM(b_sym_out, put32(TB_HOFF(sym_offset), img_len); reseal())
BM(b_overlap, put32(TB_HOFF(id_offset), get32(TB_HOFF(cs_offset)) + 8);
   reseal())
BM(b_wrap, put32(TB_HOFF(str_offset), 0xfffffff8u); reseal())
BM(b_sym_huge, put32(TB_HOFF(sym_count), 0xffffffffu); reseal())
BM(b_below_hdr, put32(TB_HOFF(str_offset), 8); reseal())
TM(t_cs0, t->ncs = 0)
TM(t_evmode, t->ev_mode = 2)
TM(t_evbits0, t->ev_bits = 0)
TM(t_evbits9, t->ev_bits = 9)
TM(t_dclines, t->dc_lines = 3)
TM(t_dclines_big, t->dc_lines = 2048)
TM(t_dcsize, t->dc_line_size = 2)
TM(t_penalty, t->dc_miss_penalty = 65)
TM(t_wq0, t->wq_depth = 0)
TM(t_wq33, t->wq_depth = 33)
TM(t_drain, t->wq_drain = 65)
TM(t_opbits0, t->op_bits = 0)
TM(t_opbits11, t->op_bits = 11)
TM(t_opshift, t->op_bits = 2; t->op_shift = 31)
TM(t_op_resv, t->cs[2] = UW(NOP, 0, 0, 0, 0) | VPMU_UW_PUT(OP, 0x0f) |
   Q(NEXT, 0, 0))
TM(t_seq_resv, t->cs[2] = NOPW | VPMU_UW_PUT(SEQ, 10))
TM(t_ctr_nop, t->cs[2] = NOPW | Q(CTR, 0, 0))
TM(t_ctr_ld, t->cs[2] = UW(LW, T(0), T(1), 0, 0) | Q(CTR, 0, 0))
TM(t_ctr_pc, t->cs[2] = UW(MOV, VPMU_OPND_PC, 0, T(1), 0) | Q(CTR, 0, 0))
TM(t_ctr_tgt, t->cs[2] = UW(MOV, T(0), 0, T(1), 0) | Q(CTR, 0, 3))
TM(t_addr_ctr, t->cs[5] = UW(MOV, T(0), 0, T(1), 0) | Q(CTR, 0, 0))
TM(t_disp_w0, t->cs[2] = UW(MOV, T(0), 0, T(1), 0) | Q(DISP, 0, 0))
TM(t_disp_w9, t->cs[2] = UW(MOV, T(0), 0, T(1), 0) | Q(DISP, 9, 0))
TM(t_disp_ld, t->cs[2] = UW(LW, T(0), T(1), 0, 0) | Q(DISP, 1, 0))
TM(t_opnd_b50, t->cs[2] = UW(ADD, T(0), T(1), 50, 0) | Q(NEXT, 0, 0))
TM(t_opnd_a50, t->cs[2] = UW(ADD, T(0), 60, T(1), 0) | Q(NEXT, 0, 0))
TM(t_opnd_dipc, t->cs[2] = UW(MOV, IPC, 0, T(1), 0) | Q(NEXT, 0, 0))
TM(t_opnd_dimm, t->cs[2] = UW(MOV, IM, 0, T(1), 0) | Q(NEXT, 0, 0))
TM(t_opnd_aimm, t->cs[2] = UW(ADD, T(0), IM, T(1), 0) | Q(NEXT, 0, 0))
TM(t_opnd_stimm, t->cs[2] = UW(SW, 0, T(0), IM, 0) | Q(NEXT, 0, 0))
TM(t_opnd_mode, t->cs[2] = UW(MODE, 0, 0, 0, 2) | Q(NEXT, 0, 0))
TM(t_opnd_ext, t->cs[2] = UW(EXT, T(0), T(1), 0, VPMU_EXT_IMM(30, 4)) |
   Q(NEXT, 0, 0))
TM(t_opnd_sext, t->cs[2] = UW(SEXT, T(0), T(1), 0, 32) | Q(NEXT, 0, 0))
TM(t_res_snop, t->cs[2] = NOPW | US | Q(NEXT, 0, 0))
TM(t_res_slw, t->cs[2] = UW(LW, T(0), T(1), 0, 0) | US | Q(NEXT, 0, 0))
TM(t_res_nopd, t->cs[2] = UW(NOP, T(0), 0, 0, 0) | Q(NEXT, 0, 0))
TM(t_res_immreg, t->cs[2] = UW(ADD, T(0), T(1), T(2), 5) | Q(NEXT, 0, 0))
TM(t_res_jcond, t->cs[2] = NOPW | Q(JUMP, 3, 0))
TM(t_res_ntgt, t->cs[2] = NOPW | Q(NEXT, 0, 1))
TM(t_res_mova, t->cs[2] = UW(MOV, T(0), T(1), T(2), 0) | Q(NEXT, 0, 0))
TM(t_res_extb, t->cs[2] = UW(EXT, T(0), T(1), T(2), 0) | Q(NEXT, 0, 0))
TM(t_res_std, t->cs[2] = UW(SW, T(3), T(1), T(2), 0) | Q(NEXT, 0, 0))
TM(t_event, t->ev_bits = 3; t->cs[2] = NOPW | Q(NEXT, 0, 0) | UEV(8))
TM(t_event_enc, t->ev_mode = 1; t->ev_bits = 3;
   t->cs[2] = NOPW | Q(NEXT, 0, 0) | UEV(9))
TM(t_addr_jump, t->cs[2] = NOPW | Q(JUMP, 0, 6))
TM(t_addr_next, t->cs[5] = NOPW | Q(NEXT, 0, 0))
TM(t_addr_br, t->cs[5] = NOPW | QC(Z, 0))
TM(t_addr_call, t->cs[5] = NOPW | Q(CALL, 0, 0))
TM(t_addr_disp, t->cs[2] = UW(MOV, T(0), 0, T(1), 0) | Q(DISP, 2, 3))
TM(t_idtab, t->id[1] = 6)
TM(t_sym_name, t->sym[0].name = t->str_size)
TM(t_sym_addr, t->sym[0].addr = 6)
TM(t_insn_name, t->insn[0].name = 999)
TM(t_insn_match, t->insn[0].match = 3)
TM(t_insn_mask, t->insn[0].mask = 0; t->insn[0].match = 0)
TM(t_insn_nops, t->insn[0].nops = 5)
TM(t_insn_kind, t->insn[0].ops[1].kind = 6)
TM(t_insn_width, t->insn[0].ops[1].width = 0)
TM(t_insn_pos, t->insn[0].ops[1].pos = 25; t->insn[0].ops[1].width = 8)
TM(t_insn_resv, t->insn[0].ops[1].reserved[1] = 1)
TM(t_insn_flags, t->insn[0].ops[1].flags = 2)
TM(t_insn_ovmask, t->insn[0].ops[0].pos = 0)
TM(t_insn_ovop, t->insn[0].ops[1].pos = 5)
TM(t_insn_unused, t->insn[0].ops[2].width = 1)
TM(t_insn_shift, t->insn[0].ops[1].shift = 1)
TM(t_str_nul, t->str[t->str_size++] = 'z')
BM(b_tag_off, put32(TB_HOFF(tag_offset), 8); reseal())
BM(b_tag_count, put32(TB_HOFF(tag_count), 256); reseal())
BM(b_tag_past, put32(TB_HOFF(tag_offset), img_len); reseal())
TM(t_tag_stroff, t->tag[1].name = t->str_size)
TM(t_tag_upper, rename1(t, "Decode2"))
TM(t_tag_digit, rename1(t, "2nd"))
TM(t_tag_dash, rename1(t, "mem-op"))
TM(t_tag_empty, rename1(t, ""))
TM(t_tag_long, rename1(t, "abcdefghijklmnopqrstuvwxyz_01234"))
TM(t_tag_basic, rename1(t, "cycles"))
TM(t_tag_basic2, rename1(t, "wq_stall"))
TM(t_tag_tagk, rename1(t, "tag3"))
TM(t_tag_hist, rename1(t, "hist12"))
TM(t_tag_vpmu, rename1(t, "vpmu_decode"))
TM(t_tag_fmt, rename1(t, "trig_tag"))
TM(t_tag_fmt2, rename1(t, "event"))
TM(t_tag_term, rename1(t, "config1"))
TM(t_tag_term2, rename1(t, "period"))
TM(t_tag_term3, rename1(t, "cpu"))
TM(t_tag_raw, rename1(t, "rad"))
TM(t_tag_raw2, rename1(t, "r0x1f"))
TM(t_tag_k0, t->tag[1].tag = 0)
TM(t_tag_k9, t->tag[1].tag = 9)
TM(t_tag_enc, t->ev_mode = VPMU_EVMODE_ENCODED; t->ev_bits = 2;
   t->cs[0] &= ~VPMU_UW_PUT(EVENT, 0xff); t->tag[1].tag = 4)
TM(t_tag_dupname, rename1(t, "decode"))
TM(t_tag_dupk, t->tag[1].tag = 1)

static const struct vcase cases[] = {
	{ "valid image", VPMU_VERR_OK },
	{ "truncated header", VPMU_VERR_TRUNCATED, .bmut = b_trunc },
	{ "bad magic", VPMU_VERR_MAGIC, .bmut = b_magic },
	{ "version 2", VPMU_VERR_VERSION, .bmut = b_version },
	{ "total_size too small", VPMU_VERR_SIZE, .bmut = b_size },
	{ "trailing bytes", VPMU_VERR_SIZE, .len_delta = 8 },
	{ "checksum", VPMU_VERR_CHECKSUM, .bmut = b_csum },
	{ "header_size", VPMU_VERR_HEADER, .bmut = b_hsize },
	{ "reserved header word", VPMU_VERR_HEADER, .bmut = b_resv,
	  .msg = "header reserved[3] is 0x1, must be 0" },
	{ "unknown flags", VPMU_VERR_HEADER, .bmut = b_flags },
	{ "name without NUL", VPMU_VERR_HEADER, .bmut = b_name_nul },
	{ "name not NUL-padded", VPMU_VERR_HEADER, .bmut = b_name_pad },
	{ "misaligned control store", VPMU_VERR_LAYOUT, .bmut = b_cs_align },
	{ "symbols past the end", VPMU_VERR_LAYOUT, .bmut = b_sym_out },
	{ "overlapping sections", VPMU_VERR_LAYOUT, .bmut = b_overlap },
	{ "offset+size overflow", VPMU_VERR_LAYOUT, .bmut = b_wrap },
	{ "huge symbol count", VPMU_VERR_LAYOUT, .bmut = b_sym_huge },
	{ "section inside header", VPMU_VERR_LAYOUT, .bmut = b_below_hdr },
	{ "empty control store", VPMU_VERR_LAYOUT, .tmut = t_cs0 },
	{ "control store too big", VPMU_VERR_TOO_BIG, .cs_limit = 5 },
	{ "ev_mode 2", VPMU_VERR_EVMODE, .tmut = t_evmode },
	{ "ev_bits 0", VPMU_VERR_EVMODE, .tmut = t_evbits0 },
	{ "ev_bits 9", VPMU_VERR_EVMODE, .tmut = t_evbits9 },
	{ "dc_lines 3", VPMU_VERR_PARAM, .tmut = t_dclines },
	{ "dc_lines 2048", VPMU_VERR_PARAM, .tmut = t_dclines_big },
	{ "dc_line_size 2", VPMU_VERR_PARAM, .tmut = t_dcsize },
	{ "dc_miss_penalty 65", VPMU_VERR_PARAM, .tmut = t_penalty },
	{ "wq_depth 0", VPMU_VERR_PARAM, .tmut = t_wq0 },
	{ "wq_depth 33", VPMU_VERR_PARAM, .tmut = t_wq33 },
	{ "wq_drain 65", VPMU_VERR_PARAM, .tmut = t_drain },
	{ "op_bits 0", VPMU_VERR_PARAM, .tmut = t_opbits0 },
	{ "op_bits 11", VPMU_VERR_PARAM, .tmut = t_opbits11 },
	{ "op_shift + op_bits > 32", VPMU_VERR_PARAM, .tmut = t_opshift },
	{ "reserved ALU op", VPMU_VERR_OPCODE, .tmut = t_op_resv,
	  .msg = "microword 2: ALU operation code 0x0f reserved" },
	{ "reserved sequencer op", VPMU_VERR_OPCODE, .tmut = t_seq_resv },
	{ "DISP width 0", VPMU_VERR_OPCODE, .tmut = t_disp_w0 },
	{ "DISP width 9", VPMU_VERR_OPCODE, .tmut = t_disp_w9,
	  .msg = "microword 2: DISP width 9 not in 1..8" },
	{ "DISP after a load", VPMU_VERR_OPCODE, .tmut = t_disp_ld,
	  .msg = "microword 2: DISP needs an ALU result, LW has none" },
	{ "CTR after a NOP", VPMU_VERR_OPCODE, .tmut = t_ctr_nop,
	  .msg = "microword 2: CTR needs an ALU result, NOP has none" },
	{ "CTR after a load", VPMU_VERR_OPCODE, .tmut = t_ctr_ld },
	{ "CTR into pc", VPMU_VERR_OPERAND, .tmut = t_ctr_pc,
	  .msg = "microword 2: CTR writes pc, not a register" },
	{ "CTR with TARGET", VPMU_VERR_RESERVED, .tmut = t_ctr_tgt },
	{ "operand B code 50", VPMU_VERR_OPERAND, .tmut = t_opnd_b50,
	  .msg = "microword 2: operand B code 50 reserved" },
	{ "operand A code 60", VPMU_VERR_OPERAND, .tmut = t_opnd_a50 },
	{ "write to ipc", VPMU_VERR_OPERAND, .tmut = t_opnd_dipc,
	  .msg = "microword 2: operand DST code 42 read-only" },
	{ "immediate as DST", VPMU_VERR_OPERAND, .tmut = t_opnd_dimm },
	{ "immediate as A", VPMU_VERR_OPERAND, .tmut = t_opnd_aimm },
	{ "immediate as store data", VPMU_VERR_OPERAND, .tmut = t_opnd_stimm,
	  .msg = "microword 2: operand B code 62 immediate not allowed here" },
	{ "MODE #2", VPMU_VERR_OPERAND, .tmut = t_opnd_mode,
	  .msg = "microword 2: MODE #2, must be 0 or 1" },
	{ "EXT past bit 31", VPMU_VERR_OPERAND, .tmut = t_opnd_ext,
	  .msg = "microword 2: EXT field pos 30 len 4 exceeds 32 bits" },
	{ "SEXT width 33", VPMU_VERR_OPERAND, .tmut = t_opnd_sext,
	  .msg = "microword 2: SEXT field 0x20 is not width - 1 (0..31)" },
	{ "S on NOP", VPMU_VERR_RESERVED, .tmut = t_res_snop },
	{ "S on LW", VPMU_VERR_RESERVED, .tmut = t_res_slw,
	  .msg = "microword 2: S set on LW, which has no ALU result" },
	{ "NOP with DST", VPMU_VERR_RESERVED, .tmut = t_res_nopd,
	  .msg = "microword 2: NOP field DST is 32, must be 0" },
	{ "IMM with register B", VPMU_VERR_RESERVED, .tmut = t_res_immreg,
	  .msg = "microword 2: ADD field IMM is 5, must be 0" },
	{ "JUMP with COND", VPMU_VERR_RESERVED, .tmut = t_res_jcond,
	  .msg = "microword 2: JUMP field COND is 3, must be 0" },
	{ "NEXT with TARGET", VPMU_VERR_RESERVED, .tmut = t_res_ntgt,
	  .msg = "microword 2: NEXT field TARGET is 1, must be 0" },
	{ "MOV with A", VPMU_VERR_RESERVED, .tmut = t_res_mova,
	  .msg = "microword 2: MOV field A is 33, must be 0" },
	{ "EXT with B", VPMU_VERR_RESERVED, .tmut = t_res_extb,
	  .msg = "microword 2: EXT field B is 34, must be 0" },
	{ "store with DST", VPMU_VERR_RESERVED, .tmut = t_res_std,
	  .msg = "microword 2: SW field DST is 35, must be 0" },
	{ "event bit beyond ev_bits", VPMU_VERR_EVENT, .tmut = t_event },
	{ "encoded event too big", VPMU_VERR_EVENT, .tmut = t_event_enc },
	{ "JUMP outside", VPMU_VERR_ADDRESS, .tmut = t_addr_jump,
	  .msg = "microword 2: JUMP target 6 outside control store of 6" },
	{ "NEXT off the end", VPMU_VERR_ADDRESS, .tmut = t_addr_next },
	{ "BR off the end", VPMU_VERR_ADDRESS, .tmut = t_addr_br },
	{ "CALL off the end", VPMU_VERR_ADDRESS, .tmut = t_addr_call },
	{ "CTR off the end", VPMU_VERR_ADDRESS, .tmut = t_addr_ctr },
	{ "DISP table outside", VPMU_VERR_ADDRESS, .tmut = t_addr_disp,
	  .msg = "microword 2: DISP table 3..6 outside control store of 6" },
	{ "ID table entry", VPMU_VERR_IDTAB, .tmut = t_idtab },
	{ "symbol name", VPMU_VERR_SYMBOL, .tmut = t_sym_name },
	{ "symbol address", VPMU_VERR_SYMBOL, .tmut = t_sym_addr },
	{ "insn name", VPMU_VERR_INSN, .tmut = t_insn_name },
	{ "insn match outside mask", VPMU_VERR_INSN, .tmut = t_insn_match },
	{ "insn mask misses opcode", VPMU_VERR_INSN, .tmut = t_insn_mask },
	{ "insn 5 operands", VPMU_VERR_INSN, .tmut = t_insn_nops },
	{ "insn operand kind", VPMU_VERR_INSN, .tmut = t_insn_kind },
	{ "insn operand width 0", VPMU_VERR_INSN, .tmut = t_insn_width },
	{ "insn operand past bit 31", VPMU_VERR_INSN, .tmut = t_insn_pos },
	{ "insn operand reserved", VPMU_VERR_INSN, .tmut = t_insn_resv },
	{ "insn operand flags", VPMU_VERR_INSN, .tmut = t_insn_flags },
	{ "insn operand overlaps mask", VPMU_VERR_INSN, .tmut = t_insn_ovmask },
	{ "insn operands overlap", VPMU_VERR_INSN, .tmut = t_insn_ovop },
	{ "insn unused operand", VPMU_VERR_INSN, .tmut = t_insn_unused },
	{ "insn shift on SIMM", VPMU_VERR_INSN, .tmut = t_insn_shift },
	{ "string table without NUL", VPMU_VERR_STRING, .tmut = t_str_nul },
	{ "tag_offset without tags", VPMU_VERR_LAYOUT, .bmut = b_tag_off,
	  .msg = "tag_offset 8 with no tags, must be 0" },
	{ "named: valid", VPMU_VERR_OK, .named = true },
	{ "tag_count 256", VPMU_VERR_LAYOUT, .bmut = b_tag_count,
	  .named = true, .msg = "tag_count 256 exceeds 255" },
	{ "tag table past the end", VPMU_VERR_LAYOUT, .bmut = b_tag_past,
	  .named = true, .msg = "tag table [320, +16) outside [160, 320)" },
	{ "tag name offset", VPMU_VERR_TAG, .tmut = t_tag_stroff, .named = true,
	  .msg = "tag entry 1: name offset 25 outside string table of 25" },
	{ "tag name uppercase", VPMU_VERR_TAG, .tmut = t_tag_upper,
	  .named = true, .msg = "tag entry 1: name is not a-z, then a-z, 0-9 or _, at most 31 long" },
	{ "tag name digit first", VPMU_VERR_TAG, .tmut = t_tag_digit,
	  .named = true, .msg = "tag entry 1: name is not a-z, then a-z, 0-9 or _, at most 31 long" },
	{ "tag name with '-'", VPMU_VERR_TAG, .tmut = t_tag_dash,
	  .named = true, .msg = "tag entry 1: name is not a-z, then a-z, 0-9 or _, at most 31 long" },
	{ "tag name empty", VPMU_VERR_TAG, .tmut = t_tag_empty,
	  .named = true, .msg = "tag entry 1: name is not a-z, then a-z, 0-9 or _, at most 31 long" },
	{ "tag name 32 long", VPMU_VERR_TAG, .tmut = t_tag_long,
	  .named = true, .msg = "tag entry 1: name is not a-z, then a-z, 0-9 or _, at most 31 long" },
	{ "tag named cycles", VPMU_VERR_TAG, .tmut = t_tag_basic, .named = true,
	  .msg = "tag entry 1: name 'cycles' is a basic event" },
	{ "tag named wq_stall", VPMU_VERR_TAG, .tmut = t_tag_basic2,
	  .named = true, .msg = "tag entry 1: name 'wq_stall' is a basic event" },
	{ "tag named tag3", VPMU_VERR_TAG, .tmut = t_tag_tagk, .named = true,
	  .msg = "tag entry 1: name 'tag3' is the PMU's (tagN, histN, vpmu_*)" },
	{ "tag named hist12", VPMU_VERR_TAG, .tmut = t_tag_hist, .named = true,
	  .msg = "tag entry 1: name 'hist12' is the PMU's (tagN, histN, vpmu_*)" },
	{ "tag named vpmu_decode", VPMU_VERR_TAG, .tmut = t_tag_vpmu,
	  .named = true, .msg = "tag entry 1: name 'vpmu_decode' is the PMU's (tagN, histN, vpmu_*)" },
	{ "tag named trig_tag", VPMU_VERR_TAG, .tmut = t_tag_fmt, .named = true,
	  .msg = "tag entry 1: name 'trig_tag' is a format/ field" },
	{ "tag named event", VPMU_VERR_TAG, .tmut = t_tag_fmt2, .named = true,
	  .msg = "tag entry 1: name 'event' is a format/ field" },
	{ "tag named config1", VPMU_VERR_TAG, .tmut = t_tag_term, .named = true,
	  .msg = "tag entry 1: name 'config1' is a perf term" },
	{ "tag named period", VPMU_VERR_TAG, .tmut = t_tag_term2, .named = true,
	  .msg = "tag entry 1: name 'period' is a perf term" },
	{ "tag named cpu", VPMU_VERR_TAG, .tmut = t_tag_term3, .named = true,
	  .msg = "tag entry 1: name 'cpu' is a perf term" },
	{ "tag named rad", VPMU_VERR_TAG, .tmut = t_tag_raw, .named = true,
	  .msg = "tag entry 1: name 'rad' is a raw event to perf (rNNN)" },
	{ "tag named r0x1f", VPMU_VERR_TAG, .tmut = t_tag_raw2, .named = true,
	  .msg = "tag entry 1: name 'r0x1f' is a raw event to perf (rNNN)" },
	{ "tag 0", VPMU_VERR_TAG, .tmut = t_tag_k0, .named = true,
	  .msg = "tag entry 1: tag 0 not in 1..8 of the one-hot event field" },
	{ "tag 9 one-hot", VPMU_VERR_TAG, .tmut = t_tag_k9, .named = true,
	  .msg = "tag entry 1: tag 9 not in 1..8 of the one-hot event field" },
	{ "tag 4 encoded in 2 bits", VPMU_VERR_TAG, .tmut = t_tag_enc,
	  .named = true, .msg = "tag entry 1: tag 4 not in 1..3 of the encoded event field" },
	{ "tag name twice", VPMU_VERR_TAG, .tmut = t_tag_dupname, .named = true,
	  .msg = "tag entry 1: name 'decode' given twice (entry 0)" },
	{ "tag named twice", VPMU_VERR_TAG, .tmut = t_tag_dupk, .named = true,
	  .msg = "tag entry 1: tag 1 named twice (entry 0)" },
};

static const int verr_errno[VPMU_VERR_NR] = {
#define VPMU_X(name, err, msg) [VPMU_VERR_##name] = err,
	VPMU_VERR_LIST(VPMU_X)
#undef VPMU_X
};

static const char *const verr_name[VPMU_VERR_NR] = {
#define VPMU_X(name, err, msg) [VPMU_VERR_##name] = #name,
	VPMU_VERR_LIST(VPMU_X)
#undef VPMU_X
};

static bool run_case(const struct vcase *c)
{
	struct tb_image *t = c->named ? named() : base();
	struct vpmu_ucode *uc = NULL;
	struct vpmu_verr err;
	int ret;
	bool ok;

	if (c->tmut)
		c->tmut(t);
	img_len = tb_build(t, img, sizeof(img));
	free(t);
	if (c->bmut)
		c->bmut();
	ret = vpmu_ucode_load(&uc, img, img_len + c->len_delta,
			      c->cs_limit ? c->cs_limit : VPMU_CS_MAX, &err);
	ok = err.code == c->code && ret == -verr_errno[c->code] &&
	     err.err == ret && (ret == 0) == (uc != NULL);
	if (c->msg && strcmp(err.msg, c->msg)) {
		tap_diag("message \"%s\", expected \"%s\"", err.msg, c->msg);
		ok = false;
	}
	if (!ok)
		tap_diag("got %s (%d) \"%s\", expected %s (%d)",
			 verr_name[err.code], ret, err.msg, verr_name[c->code],
			 -verr_errno[c->code]);
	vpmu_ucode_free(uc);
	return ok;
}

/* Every VERR code must be exercised by at least one case. */
static bool all_codes_covered(void)
{
	bool seen[VPMU_VERR_NR] = { false };
	size_t i;
	bool ok = true;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		seen[cases[i].code] = true;
	for (i = 0; i < VPMU_VERR_NR; i++)
		if (!seen[i]) {
			tap_diag("no case for %s", verr_name[i]);
			ok = false;
		}
	return ok;
}

/* The fields an operand of ALU role @r fills (vpmu_isa.h). */
static unsigned int role_fields(unsigned int r)
{
	switch (r) {
	case VPMU_ROLE_DST:	return VPMU_UWF_DST;
	case VPMU_ROLE_A:	return VPMU_UWF_A;
	case VPMU_ROLE_B:	return VPMU_UWF_B | VPMU_UWF_BIMM;
	case VPMU_ROLE_BREG:	return VPMU_UWF_B;
	case VPMU_ROLE_FIELD:	return VPMU_UWF_IMM;
	case VPMU_ROLE_MEM:	return VPMU_UWF_IMM | VPMU_UWF_A;
	case VPMU_ROLE_MODE:	return VPMU_UWF_IMM;
	}
	return 0;
}

/* The same for sequencer role @r. */
static unsigned int seqrole_fields(unsigned int r)
{
	switch (r) {
	case VPMU_SEQROLE_TARGET:	return VPMU_UWF_TARGET;
	case VPMU_SEQROLE_COND:		return VPMU_UWF_COND;
	case VPMU_SEQROLE_WIDTH:	return VPMU_UWF_COND;
	case VPMU_SEQROLE_CODE:		return VPMU_UWF_TARGET;
	}
	return 0;
}

/*
 * The signature table (vpmu_isa.c): every signature has a row whose
 * fields are those its operands fill (S aside), once each, so that the
 * validator's and the disassembler's field checks agree with the
 * operands the assembler parses; every operation's signature has a row.
 */
static bool sig_table(void)
{
	unsigned int i, k, f, g;
	bool ok = true;

	for (i = 0; i < VPMU_SIG_NR; i++) {
		const struct vpmu_sig_info *si = &vpmu_sig_info[i];

		for (f = 0, k = 0; k < VPMU_SIG_OPNDS; k++) {
			g = role_fields(si->opnd[k]);
			if (f & g)
				ok = false;
			f |= g;
		}
		if (!si->name || f != (si->fields & ~VPMU_UWF_S)) {
			tap_diag("signature %u (%s): fields 0x%x, operands' 0x%x",
				 i, si->name ? si->name : "?", si->fields, f);
			ok = false;
		}
	}
	for (i = 0; i < VPMU_SEQSIG_NR; i++) {
		const struct vpmu_seqsig_info *si = &vpmu_seqsig_info[i];

		for (f = 0, k = 0; k < VPMU_SEQSIG_OPNDS; k++) {
			g = seqrole_fields(si->opnd[k]);
			if (f & g)
				ok = false;
			f |= g;
		}
		if (!si->name || f != si->fields) {
			tap_diag("sequencer signature %u (%s): fields 0x%x, operands' 0x%x",
				 i, si->name ? si->name : "?", si->fields, f);
			ok = false;
		}
	}
	for (i = 0; i < VPMU_OP_NR; i++)
		if (vpmu_op_info[i].name && vpmu_op_info[i].sig >= VPMU_SIG_NR)
			ok = false;
	for (i = 0; i < VPMU_SEQ_NR; i++)
		if (vpmu_seq_info[i].name &&
		    vpmu_seq_info[i].sig >= VPMU_SEQSIG_NR)
			ok = false;
	return ok;
}

/* Read-back: the accepted image is kept byte for byte. */
static bool readback(void)
{
	struct tb_image *t = base();
	struct vpmu_ucode *uc;
	const void *p;
	size_t n;
	bool ok;

	img_len = tb_build(t, img, sizeof(img));
	free(t);
	if (vpmu_ucode_load(&uc, img, img_len, VPMU_CS_MAX, NULL))
		return false;
	p = vpmu_ucode_bytes(uc, &n);
	ok = n == img_len && !memcmp(p, img, n) &&
	     vpmu_ucode_header(uc)->cs_words == 6 &&
	     vpmu_ucode_header(uc)->op_bits == 1;
	vpmu_ucode_free(uc);
	return ok;
}

/* Every truncation and every single-bit flip is rejected, never read
 * outside the buffer (the ASan build checks that). */
static bool mutations(void)
{
	struct tb_image *t = base();
	static uint8_t copy[IMG_MAX];
	struct vpmu_ucode *uc;
	struct vpmu_verr err;
	size_t n, i, bad = 0;
	unsigned int b;

	n = tb_build(t, img, sizeof(img));
	free(t);
	for (i = 0; i < n; i++) {
		uint8_t *p = malloc(i ? i : 1);

		memcpy(p, img, i);
		if (!vpmu_ucode_load(&uc, p, i, VPMU_CS_MAX, &err)) {
			vpmu_ucode_free(uc);
			bad++;
		}
		free(p);
	}
	for (i = 0; i < n; i++) {
		for (b = 0; b < 8; b++) {
			memcpy(copy, img, n);
			copy[i] ^= 1u << b;
			if (!vpmu_ucode_load(&uc, copy, n, VPMU_CS_MAX, &err)) {
				vpmu_ucode_free(uc);
				bad++;
			}
		}
	}
	return !bad;
}

/*
 * The names a loaded image gives its tags, through the engine's lookup;
 * an image without a tag table (as every image before it was) loads
 * and names none.
 */
static bool tag_names(void)
{
	struct vpmu_verr err;
	struct vpmu_ucode *uc = tb_load(named(), &err);
	unsigned int k = 0;
	bool ok;

	ok = uc && !strcmp(vpmu_ucode_tag_name(uc, 1), "decode") &&
	     !strcmp(vpmu_ucode_tag_name(uc, 3), "mem_op2") &&
	     !vpmu_ucode_tag_name(uc, 2) &&
	     !strcmp(vpmu_ucode_tag(uc, 1, &k), "mem_op2") && k == 3 &&
	     !vpmu_ucode_tag(uc, 2, &k);
	vpmu_ucode_free(uc);
	uc = tb_load(base(), &err);
	ok = ok && uc && !vpmu_ucode_header(uc)->tag_count &&
	     !vpmu_ucode_header(uc)->tag_offset && !vpmu_ucode_tag_name(uc, 1);
	vpmu_ucode_free(uc);
	return ok;
}

int main(void)
{
	size_t i, n = sizeof(cases) / sizeof(cases[0]);
	static const char s[] = "123456789";

	tap_plan(n + 7);
	for (i = 0; i < n; i++)
		tap_ok(run_case(&cases[i]), "validator: %s -> %s", cases[i].name,
		       verr_name[cases[i].code]);
	tap_ok(all_codes_covered(), "validator: every VPMU_VERR code has a case");
	tap_ok(vpmu_crc32(0, s, 9) == 0xcbf43926u, "crc32: check value");
	tap_ok(vpmu_crc32(vpmu_crc32(0, s, 4), s + 4, 5) == 0xcbf43926u,
	       "crc32: incremental");
	tap_ok(readback(), "validator: accepted image reads back unchanged");
	tap_ok(mutations(), "validator: truncations and bit flips rejected");
	tap_ok(sig_table(), "signature table: fields are the operands'");
	tap_ok(tag_names(), "validator: tag names read back; none without a table");
	return tap_done();
}
