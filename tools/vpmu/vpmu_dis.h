/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vpmu_dis.h - the disassembler: images and program files back to the
 * source the assembler (vpmu_asm.h) turns into the same bytes.
 *
 * Each function appends the text to @out and returns 0, or -1 with the
 * reason in @diag (which may hold warnings after a success too).
 */
#ifndef _VPMU_DIS_H
#define _VPMU_DIS_H

#include <stddef.h>
#include <stdint.h>

#include "vpmu_buf.h"

/*
 * Disassemble an image into source that vpmu_asm_ucode() turns back into
 * the same bytes.
 */
int vpmu_dis_ucode(const void *img, size_t len, struct vpmu_buf *out,
		   struct vpmu_buf *diag);

/*
 * Only the microwords of an image, one line each in address order, as
 * vpmu_dis_ucode() prints them (without the leading tab): for listings
 * that annotate microwords.
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

/*
 * One instruction word @word at @addr as vpmu_dis_prog() prints it, under
 * the declarations of the image @img, branch and jump targets as
 * addresses (there are no labels): vpmu-sim --gdb's monitor dis.  0, or
 * -1 (nothing appended) if the image cannot be read or declares no
 * instruction that encodes @word.
 */
int vpmu_dis_insn(const void *img, size_t img_len, uint32_t word,
		  uint32_t addr, struct vpmu_buf *out);

#endif /* _VPMU_DIS_H */
