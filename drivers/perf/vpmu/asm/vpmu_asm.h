/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vpmu_asm.h - the assembler: microcode source to a sealed image, and
 * machine-code source to a program file for the instruction set an image
 * declares.
 *
 * Everything here is host C.  Text goes in as a buffer, binaries come out
 * in a growable buffer (vpmu_buf.h), and diagnostics are collected, each
 * as gcc shows one: "file:line:col: error: message", then the source line
 * indented by four blanks and a caret line.  Nothing prints or exits,
 * so the same code serves the command-line tools, the host tests and the
 * fuzzers.  The disassembler (vpmu_dis.h) turns the bytes back into
 * source; the views and helpers both use are in vpmu_tool.h.
 *
 * The instruction tables come from vpmu_isa.h; nothing here repeats them.
 * The built-in microcode, ucode/default.vus, written to be read, shows
 * the language.
 */
#ifndef _VPMU_ASM_H
#define _VPMU_ASM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "vpmu_buf.h"

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

#endif /* _VPMU_ASM_H */
