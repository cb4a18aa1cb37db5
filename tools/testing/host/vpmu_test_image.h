/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vpmu_test_image.h - build microcode images in C for tests and fuzz seeds.
 *
 *   struct tb_image *t = tb_new();      defaults: 1 opcode bit, one-hot
 *   t->cs[t->ncs++] = UW(ADD, T(0), T(0), IM, 1) | Q(NEXT, 0, 0);
 *   size_t n = tb_build(t, buf, sizeof(buf));   laid out and sealed
 *
 * Microwords are packed with VPMU_UW_PUT, so they follow the uapi layout.
 */
#ifndef _VPMU_TEST_IMAGE_H
#define _VPMU_TEST_IMAGE_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "vpmu_engine.h"

/* Operand codes. */
#define R(n)		(VPMU_OPND_R0 + (n))
#define T(n)		(VPMU_OPND_T0 + (n))
#define PC		VPMU_OPND_PC
#define IR		VPMU_OPND_IR
#define IPC		VPMU_OPND_IPC
#define DS		VPMU_OPND_DS
#define S1		VPMU_OPND_S1
#define S2		VPMU_OPND_S2
#define FL		VPMU_OPND_FLAGS
#define ATDS		VPMU_OPND_AT_DS
#define ATS1		VPMU_OPND_AT_S1
#define ATS2		VPMU_OPND_AT_S2
#define IM		VPMU_OPND_IMM	/* "IMM" would clash with the field */
#define ZERO		VPMU_OPND_ZERO

/* ALU part: op, dst, a, b, imm (imm is masked to its 10 bits). */
#define UW(op, d, a, b, imm)						\
	(VPMU_UW_PUT(OP, VPMU_OP_##op) | VPMU_UW_PUT(DST, d) |		\
	 VPMU_UW_PUT(A, a) | VPMU_UW_PUT(B, b) | VPMU_UW_PUT(IMM, imm))
/* Sequencer part: seq, cond (or DISP width), target (or trap code). */
#define Q(seq, cond, tgt)						\
	(VPMU_UW_PUT(SEQ, VPMU_SEQ_##seq) | VPMU_UW_PUT(COND, cond) |	\
	 VPMU_UW_PUT(TARGET, tgt))
#define QC(cond, tgt)	Q(BR, VPMU_COND_##cond, tgt)
#define US		VPMU_UW_PUT(S, 1)
#define UT		VPMU_UW_PUT(T, 1)
#define UEV(v)		VPMU_UW_PUT(EVENT, v)
#define NOPW		UW(NOP, 0, 0, 0, 0)

struct tb_image {
	uint32_t ncs;
	uint64_t cs[VPMU_CS_MAX];
	uint32_t op_bits, op_shift;
	uint32_t id[1u << VPMU_OP_BITS_MAX];
	uint32_t flags, ev_mode, ev_bits, image_version;
	uint32_t dc_lines, dc_line_size, dc_miss_penalty, wq_depth, wq_drain;
	uint32_t nsym;
	struct vpmu_image_sym sym[64];
	uint32_t ninsn;
	struct vpmu_image_insn insn[64];
	uint32_t ntag;			/* 0: no tag table, as before it was */
	struct vpmu_image_tag tag[64];
	uint32_t str_size;
	char str[2048];
	char name[VPMU_IMAGE_NAME_LEN];
};

static inline struct tb_image *tb_new(void)
{
	struct tb_image *t = calloc(1, sizeof(*t));

	t->op_bits = 1;
	t->ev_mode = VPMU_EVMODE_ONEHOT;
	t->ev_bits = 8;
	t->dc_lines = 4;
	t->dc_line_size = 16;
	t->dc_miss_penalty = 5;
	t->wq_depth = 2;
	t->wq_drain = 3;
	strcpy(t->name, "test");
	return t;
}

/* Add a string to the table, return its offset. */
static inline uint32_t tb_str(struct tb_image *t, const char *s)
{
	uint32_t off = t->str_size;

	strcpy(t->str + off, s);
	t->str_size += strlen(s) + 1;
	return off;
}

static inline void tb_put32(uint8_t *p, uint32_t v)
{
	p[0] = v;
	p[1] = v >> 8;
	p[2] = v >> 16;
	p[3] = v >> 24;
}

#define TB_ALIGN8(x)	(((x) + 7) & ~(size_t)7)

/*
 * Lay the image out (header, control store, ID table, symbols,
 * instructions, tag names if any, strings), seal it, return its size
 * (0: @cap too small).
 */
static inline size_t tb_build(const struct tb_image *t, uint8_t *out,
			      size_t cap)
{
	struct vpmu_image_header h;
	size_t off = sizeof(h), cs, id, sym, insn, tag, str, i;

	memset(&h, 0, sizeof(h));
	cs = off;
	off = TB_ALIGN8(off + 8 * t->ncs);
	id = off;
	off = TB_ALIGN8(off + (4u << t->op_bits));
	sym = off;
	off = TB_ALIGN8(off + sizeof(t->sym[0]) * t->nsym);
	insn = off;
	off = TB_ALIGN8(off + sizeof(t->insn[0]) * t->ninsn);
	tag = t->ntag ? off : 0;
	off = TB_ALIGN8(off + sizeof(t->tag[0]) * t->ntag);
	str = off;
	off = TB_ALIGN8(off + t->str_size);
	if (off > cap)
		return 0;
	memset(out, 0, off);
	h.magic = VPMU_IMAGE_MAGIC;
	h.version = VPMU_IMAGE_VERSION;
	h.header_size = sizeof(h);
	h.total_size = off;
	h.flags = t->flags;
	h.image_version = t->image_version;
	h.ev_mode = t->ev_mode;
	h.ev_bits = t->ev_bits;
	h.cs_words = t->ncs;
	h.cs_offset = cs;
	h.op_shift = t->op_shift;
	h.op_bits = t->op_bits;
	h.id_offset = id;
	h.sym_count = t->nsym;
	h.sym_offset = sym;
	h.insn_count = t->ninsn;
	h.insn_offset = insn;
	h.tag_count = t->ntag;
	h.tag_offset = tag;
	h.str_size = t->str_size;
	h.str_offset = str;
	h.dc_lines = t->dc_lines;
	h.dc_line_size = t->dc_line_size;
	h.dc_miss_penalty = t->dc_miss_penalty;
	h.wq_depth = t->wq_depth;
	h.wq_drain = t->wq_drain;
	memcpy(h.name, t->name, sizeof(h.name));
	/* the header is all __u32 but the name: store little-endian */
	for (i = 0; i < offsetof(struct vpmu_image_header, name) / 4; i++)
		tb_put32(out + 4 * i, ((uint32_t *)&h)[i]);
	memcpy(out + offsetof(struct vpmu_image_header, name), h.name,
	       sizeof(h.name));
	for (i = 0; i < t->ncs; i++) {
		tb_put32(out + cs + 8 * i, (uint32_t)t->cs[i]);
		tb_put32(out + cs + 8 * i + 4, (uint32_t)(t->cs[i] >> 32));
	}
	for (i = 0; i < (1u << t->op_bits); i++)
		tb_put32(out + id + 4 * i,
			 i < (1u << VPMU_OP_BITS_MAX) ? t->id[i] : 0);
	for (i = 0; i < t->nsym; i++) {
		tb_put32(out + sym + 8 * i, t->sym[i].name);
		tb_put32(out + sym + 8 * i + 4, t->sym[i].addr);
	}
	for (i = 0; i < t->ninsn; i++) {
		uint8_t *p = out + insn + sizeof(t->insn[0]) * i;

		tb_put32(p, t->insn[i].name);
		tb_put32(p + 4, t->insn[i].match);
		tb_put32(p + 8, t->insn[i].mask);
		tb_put32(p + 12, t->insn[i].nops);
		memcpy(p + 16, t->insn[i].ops, sizeof(t->insn[i].ops));
	}
	for (i = 0; i < t->ntag; i++) {
		tb_put32(out + tag + 8 * i, t->tag[i].name);
		tb_put32(out + tag + 8 * i + 4, t->tag[i].tag);
	}
	memcpy(out + str, t->str, t->str_size);
	vpmu_image_seal(out, off);
	return off;
}

/*
 * Build @t, free it and load the image as the module would (NULL, with
 * the validator's message in @err, if it is refused).
 */
static inline struct vpmu_ucode *tb_load(struct tb_image *t,
					 struct vpmu_verr *err)
{
	static uint8_t img[65536];
	struct vpmu_ucode *uc = NULL;
	size_t n = tb_build(t, img, sizeof(img));

	free(t);
	if (vpmu_ucode_load(&uc, img, n, VPMU_CS_MAX, err))
		return NULL;
	return uc;
}

/* Header field offsets, for tests that corrupt them. */
#define TB_HOFF(f)	offsetof(struct vpmu_image_header, f)

#endif /* _VPMU_TEST_IMAGE_H */
