/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vpmu_asm.h - the vpmu toolchain as a library: microcode and program
 * assembler, disassembler, and read-only views of images and programs.
 *
 * Everything here is host C.  Text goes in as a buffer, binaries come out
 * in a growable buffer (vpmu_buf.h), and diagnostics are collected, one
 * per line, as "file:line:col: error: message".  Nothing prints or exits, so the same
 * code serves the command-line tools, the host tests and the fuzzers.
 *
 * The instruction tables come from vpmu_isa.h; nothing here repeats them.
 * Documentation/vpmu/toolchain.rst describes the language.
 */
#ifndef _VPMU_ASM_H
#define _VPMU_ASM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "vpmu_buf.h"
#include "vpmu_isa.h"

#define VPMU_ASM_MAX_ERRORS	20

/* A program's label, as vpmu_asm_prog() lists them (opts.labels). */
struct vpmu_asm_label {
	uint32_t addr;
	char name[64];
};

struct vpmu_asm_opts {
	const char *filename;	/* used in diagnostics; NULL: "<input>" */
	bool no_symbols;	/* leave the image's symbol table empty */
	unsigned int max_errors; /* 0: VPMU_ASM_MAX_ERRORS */
	/*
	 * Programs: if set, gets a struct vpmu_asm_label for every label
	 * but local (.L) ones, in the order defined.
	 */
	struct vpmu_buf *labels;
};

/*
 * Assemble microcode source into a sealed image (appended to @out).
 * Returns the number of errors; @out is left empty when it is not 0.
 */
int vpmu_asm_ucode(const char *src, size_t len,
		   const struct vpmu_asm_opts *opts,
		   struct vpmu_buf *out, struct vpmu_buf *diag);

/*
 * Assemble a machine-code program for the instruction set that image
 * @img declares into a program file (struct vpmu_program_header + bytes).
 */
int vpmu_asm_prog(const char *src, size_t len, const void *img,
		  size_t img_len, const struct vpmu_asm_opts *opts,
		  struct vpmu_buf *out, struct vpmu_buf *diag);

/*
 * Disassemble an image into source that vpmu_asm_ucode() turns back into
 * the same bytes.  Returns 0, or -1 with a message in @diag.
 */
int vpmu_dis_ucode(const void *img, size_t len, struct vpmu_buf *out,
		   struct vpmu_buf *diag);

/*
 * Only the microwords of an image, one line each in address order, as
 * vpmu_dis_ucode() prints them (without the leading tab): for listings
 * that annotate microwords.  Returns 0, or -1 with a message in @diag.
 */
int vpmu_dis_uwords(const void *img, size_t len, struct vpmu_buf *out,
		    struct vpmu_buf *diag);

/*
 * Disassemble a program file into source that vpmu_asm_prog() with the
 * same image turns back into the same bytes; each line shows its address
 * and word.
 */
int vpmu_dis_prog(const void *prog, size_t prog_len, const void *img,
		  size_t img_len, struct vpmu_buf *out, struct vpmu_buf *diag);

/* C source for an image: "const u8 NAME[]" and "const size_t NAME_len". */
void vpmu_emit_c(struct vpmu_buf *out, const void *data, size_t len,
		 const char *symbol, const char *source);

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

int vpmu_img_view(struct vpmu_img_view *v, const void *img, size_t len,
		  struct vpmu_buf *diag);
uint64_t vpmu_img_uword(const struct vpmu_img_view *v, uint32_t i);
uint32_t vpmu_img_idtab(const struct vpmu_img_view *v, uint32_t i);
void vpmu_img_sym(const struct vpmu_img_view *v, uint32_t i,
		  struct vpmu_image_sym *s);
void vpmu_img_insn(const struct vpmu_img_view *v, uint32_t i,
		   struct vpmu_image_insn *in);
/* The string at @off, or NULL when it is not inside the table. */
const char *vpmu_img_str(const struct vpmu_img_view *v, uint32_t off);

struct vpmu_prog_view {
	struct vpmu_program_header h;
	const uint8_t *data;	/* load_size bytes */
};

int vpmu_prog_view(struct vpmu_prog_view *v, const void *prog, size_t len,
		   struct vpmu_buf *diag);

/* ---- instruction operand fields, shared by assembler and disassembler - */

/* The bits operand @op occupies in the instruction word. */
uint32_t vpmu_mop_mask(const struct vpmu_image_operand *op);
/* Whether the tools can encode and decode @in (sane operand fields). */
bool vpmu_insn_usable(const struct vpmu_image_insn *in);
bool vpmu_label_valid(const char *name);
/* Operand kind names as written in .insn: "reg", "uimm", ... or NULL. */
const char *vpmu_mop_name(unsigned int kind);

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

/* CRC-32 of a program file, checksum field taken as 0. */
uint32_t vpmu_prog_crc(const void *prog, size_t len);

#endif /* _VPMU_ASM_H */
