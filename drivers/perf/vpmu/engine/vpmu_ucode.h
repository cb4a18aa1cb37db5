/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vpmu_ucode.h - private to the engine core: the decoded form of an
 * image, struct vpmu_ucode, which vpmu_validate.c makes.
 *
 * The validator decodes every microword once into struct vpmu_dec, with
 * fields sign-extended and classified.  The engine builds its own
 * executable form (struct vpmu_uop, vpmu_uop.h) from it.
 */
#ifndef _VPMU_ENGINE_UCODE_H
#define _VPMU_ENGINE_UCODE_H

#include "vpmu_engine.h"

/* Machine-parameter limits the validator enforces (image header). */
#define VPMU_DC_LINES_MAX	1024
#define VPMU_WQ_DEPTH_MAX	32

/* Properties of a microword the counting logic needs (vpmu_dec.kind). */
#define VPMU_K_EOI	BIT(0)	/* sequencer EOI */
#define VPMU_K_BR	BIT(1)	/* sequencer BR */
#define VPMU_K_DISP	BIT(2)	/* sequencer DISP */
#define VPMU_K_LOAD	BIT(3)	/* LB..LW */
#define VPMU_K_STORE	BIT(4)	/* SB..SW */
#define VPMU_K_TRIG	BIT(5)	/* T bit */
#define VPMU_K_MODE	BIT(6)	/* MODE */

/* One microword, decoded. */
struct vpmu_dec {
	u8 op, seq, cond, s;
	u8 dst, a, b;		/* operand codes */
	u8 ev;			/* event-counter field */
	u8 kind;		/* VPMU_K_* */
	u8 sig;			/* enum vpmu_sig of op */
	u16 target;
	s32 imm;		/* sign-extended IMM */
	u32 uimm;		/* raw IMM field */
};

struct vpmu_ucode {
	struct vpmu_image_header hdr;	/* host byte order */
	u8 *bytes;			/* the image as loaded */
	size_t len;
	u32 cs_words;
	u32 op_shift, op_mask;
	struct vpmu_dec *dec;		/* cs_words entries */
	u32 *idtab;			/* 1 << op_bits entries */
};

/* Little-endian accessors that do not care about alignment. */
static inline u32 vpmu_get_le32(const u8 *p)
{
	return (u32)p[0] | (u32)p[1] << 8 | (u32)p[2] << 16 | (u32)p[3] << 24;
}

static inline u64 vpmu_get_le64(const u8 *p)
{
	return (u64)vpmu_get_le32(p) | (u64)vpmu_get_le32(p + 4) << 32;
}

static inline void vpmu_put_le32(u8 *p, u32 v)
{
	p[0] = v;
	p[1] = v >> 8;
	p[2] = v >> 16;
	p[3] = v >> 24;
}

/* Does microword @d select tag @k (1..255) under @uc's event mode? */
static inline bool vpmu_dec_has_tag(const struct vpmu_ucode *uc,
				    const struct vpmu_dec *d, unsigned int k)
{
	if (uc->hdr.ev_mode == VPMU_EVMODE_ENCODED)
		return d->ev == k;
	return k >= 1 && k <= 8 && (d->ev >> (k - 1)) & 1;
}

#endif /* _VPMU_ENGINE_UCODE_H */
