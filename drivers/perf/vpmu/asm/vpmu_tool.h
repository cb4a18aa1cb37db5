/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vpmu_tool.h - what the assembler, the disassembler and the tools share
 * besides buffers: bounds-checked read-only views of images and program
 * files, the instruction operand fields, little-endian accessors, the
 * program checksum and the C-source emitter.
 *
 * Like the rest of the toolchain library, nothing here prints or exits:
 * diagnostics go into @diag as one "error: ..." line each.
 */
#ifndef _VPMU_TOOL_H
#define _VPMU_TOOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <linux/vpmu.h>

#include "vpmu_buf.h"

/* ---- image faults, in one wording for every tool ----------------------- */

struct vpmu_verr;

/*
 * Why the engine's validator rejected an image, as every tool says it:
 * "error: WHAT (DETAILS)", WHAT the validator's reason for its code
 * (VPMU_VERR_LIST), DETAILS its message, into @diag.
 */
void vpmu_img_rejected(struct vpmu_buf *diag, const struct vpmu_verr *err);
/*
 * The image at @img through the engine's validator (vpmu_ucode_load()):
 * 0 if it accepts it, else -1 and vpmu_img_rejected() into @diag.
 */
int vpmu_img_check(const void *img, size_t len, struct vpmu_buf *diag);

/* ---- read-only views (bounds-checked, for the tools) ------------------ */

/*
 * An image whose sections all lie inside the buffer and whose strings are
 * terminated.  This is not the engine's validator (vpmu_ucode_load()): it
 * checks only what the tools need to read the image safely.
 */
struct vpmu_img_view {
	struct vpmu_image_header h;
	const uint8_t *base;
	size_t len;
};

/*
 * A view of the image at @img, or -1 with why not in @diag.  An image too
 * short for its header, or whose magic, version or total_size is wrong,
 * is reported in the validator's words (vpmu_img_rejected()); a section
 * outside the image or an unterminated string table in the view's own.
 */
int vpmu_img_view(struct vpmu_img_view *v, const void *img, size_t len,
		  struct vpmu_buf *diag);
uint64_t vpmu_img_uword(const struct vpmu_img_view *v, uint32_t i);
uint32_t vpmu_img_idtab(const struct vpmu_img_view *v, uint32_t i);
void vpmu_img_sym(const struct vpmu_img_view *v, uint32_t i,
		  struct vpmu_image_sym *s);
void vpmu_img_insn(const struct vpmu_img_view *v, uint32_t i,
		   struct vpmu_image_insn *in);
void vpmu_img_tag(const struct vpmu_img_view *v, uint32_t i,
		  struct vpmu_image_tag *t);
/* The string at @off, or NULL when it is not inside the table. */
const char *vpmu_img_str(const struct vpmu_img_view *v, uint32_t off);

struct vpmu_prog_view {
	struct vpmu_program_header h;
	const uint8_t *data;	/* load_size bytes */
};

int vpmu_prog_view(struct vpmu_prog_view *v, const void *prog, size_t len,
		   struct vpmu_buf *diag);

/* CRC-32 of a program file, checksum field taken as 0. */
uint32_t vpmu_prog_crc(const void *prog, size_t len);

/* ---- instruction operand fields, shared by assembler and disassembler - */

/* The bits operand @op occupies in the instruction word. */
uint32_t vpmu_mop_mask(const struct vpmu_image_operand *op);
/* Whether the tools can encode and decode @in (sane operand fields). */
bool vpmu_insn_usable(const struct vpmu_image_insn *in);
bool vpmu_label_valid(const char *name);
/* Operand kind names as written in .insn: "reg", "uimm", ... or NULL. */
const char *vpmu_mop_name(unsigned int kind);

/* ---- sequencer rules, shared by assembler and disassembler ------------- */

/*
 * Does sequencer operation @seq read its microword's ALU result: by its
 * signature (DISP), or CTR, whose counter the result selects?
 */
bool vpmu_seq_reads_result(unsigned int seq);
/* Does @seq go on at upc + 1 (NEXT, BR, CALL, CTR): never the last word? */
bool vpmu_seq_falls_through(unsigned int seq);

/* Little-endian accessors (the formats are little-endian everywhere). */
static inline uint32_t vpmu_get32(const void *p)
{
	const uint8_t *b = p;

	return b[0] | b[1] << 8 | b[2] << 16 | (uint32_t)b[3] << 24;
}

static inline void vpmu_put32(void *p, uint32_t v)
{
	uint8_t *b = p;

	b[0] = v;
	b[1] = v >> 8;
	b[2] = v >> 16;
	b[3] = v >> 24;
}

/*
 * C source for an image: "const u8 NAME[]" and "const size_t NAME_len",
 * its SPDX line in a header's comment style if @header.
 */
void vpmu_emit_c(struct vpmu_buf *out, const void *data, size_t len,
		 const char *symbol, const char *source, bool header);

#endif /* _VPMU_TOOL_H */
