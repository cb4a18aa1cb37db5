/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vpmu_asm_priv.h - private to the assembler's files: its state (struct
 * as), the symbol tables, and what the files call of one another.  Top
 * to bottom, each file calls only those below it:
 *
 *   vpmu_asm.c        the entry points (vpmu_asm.h): the two passes, line
 *                     by line, symbols, the directives' table, the image
 *                     and the program file
 *   vpmu_asm_ucode.c  microcode: microwords, the image's directives
 *   vpmu_asm_prog.c   programs: instructions, data and layout directives
 *   vpmu_asm_lex.c    the symbol tables, diagnostics, lexing, expressions
 */
#ifndef _VPMU_ASM_PRIV_H
#define _VPMU_ASM_PRIV_H

#include <stdbool.h>
#include <stdint.h>

#include "vpmu_buf.h"
#include "vpmu_engine.h"
#include "vpmu_tool.h"

#define IDENT_MAX	64

/* ---- symbol tables ----------------------------------------------------- */

struct sym {
	char *name;
	int64_t val;
	int line;		/* defining line */
	bool known;		/* value known (an .equ may depend on later labels) */
	bool label;
};

struct symtab {
	struct sym *v;
	uint32_t n, cap;
	uint32_t *idx;		/* open addressing: index + 1, 0 empty */
	uint32_t icap;
};

/* ---- assembler state --------------------------------------------------- */

struct insn_decl {
	struct vpmu_image_insn in;
	char name[IDENT_MAX];
	int line, col;
};

struct label {
	char *name;
	uint32_t addr;
};

struct as {
	const char *src, *end, *file;
	struct vpmu_buf *diag;
	unsigned int max_errors;
	int nerr;
	int pass;
	bool prog;		/* program mode */
	bool stop;		/* too many errors */

	/* the current line */
	const char *ls, *le, *p;
	int line;
	bool line_err;
	bool undef;		/* pass 1: an expression used an unknown symbol */
	bool *layout_undef;	/* pass 1 lines whose layout was not known */
	int nlines;

	struct symtab syms, tags;

	/* microcode */
	uint64_t *cs;
	uint32_t ncs, ncs_final, cs_cap;
	struct vpmu_image_header h;
	unsigned int seen;	/* directives given once, by bit */
	bool symbols_off, symbols_opt_off;
	uint32_t deflt;
	uint32_t idtab[1u << VPMU_OP_BITS_MAX];
	int idline[1u << VPMU_OP_BITS_MAX];
	struct insn_decl *insns;
	uint32_t ninsns;
	struct label *labels;
	uint32_t nlabels;

	/* programs */
	struct vpmu_buf *labels_out;	/* opts.labels */
	struct vpmu_img_view img;
	struct vpmu_buf mem;
	uint32_t lc, hi;
	int64_t entry, memsize;
	bool have_entry, have_memsize, super;
};

/* The directives given at most once, by bit (struct as's seen). */
enum {
	SEEN_NAME = 1 << 0,
	SEEN_VERSION = 1 << 1,
	SEEN_EVMODE = 1 << 2,
	SEEN_FLAGS = 1 << 3,
	SEEN_CACHE = 1 << 4,
	SEEN_WQUEUE = 1 << 5,
	SEEN_OPCODE = 1 << 6,
	SEEN_DEFAULT = 1 << 7,
	SEEN_TAG = 1 << 8,
	SEEN_INSN = 1 << 9,
};

/* vpmu_asm_ucode.c: microcode */
/* A microword: its parts, separated by ';', in any order. */
void asm_uword(struct as *a);
/*
 * The microcode directives, for vpmu_asm.c's table: each takes the rest
 * of the line after its name, which starts at @at.
 */
void asm_dir_name(struct as *a, const char *at);
void asm_dir_version(struct as *a, const char *at);
void asm_dir_evmode(struct as *a, const char *at);
void asm_dir_flags(struct as *a, const char *at);
void asm_dir_cache(struct as *a, const char *at);
void asm_dir_wqueue(struct as *a, const char *at);
void asm_dir_opcode(struct as *a, const char *at);
void asm_dir_tag(struct as *a, const char *at);
void asm_dir_insn(struct as *a, const char *at);
void asm_dir_idtab(struct as *a, const char *at);
void asm_dir_default(struct as *a, const char *at);
void asm_dir_symbols(struct as *a, const char *at);
void asm_dir_uword(struct as *a, const char *at);

/* vpmu_asm_prog.c: programs */
/* The instruction @name, whose mnemonic starts at @at. */
void asm_instruction(struct as *a, const char *at, const char *name);
/* The program directives, for vpmu_asm.c's table (as dir_name()). */
void asm_dir_word(struct as *a, const char *at);
void asm_dir_half(struct as *a, const char *at);
void asm_dir_byte(struct as *a, const char *at);
void asm_dir_ascii(struct as *a, const char *at);
void asm_dir_asciz(struct as *a, const char *at);
void asm_dir_space(struct as *a, const char *at);
void asm_dir_align(struct as *a, const char *at);
void asm_dir_org(struct as *a, const char *at);
void asm_dir_entry(struct as *a, const char *at);
void asm_dir_memsize(struct as *a, const char *at);
void asm_dir_mode(struct as *a, const char *at);

/* vpmu_asm_lex.c: the symbol tables */
/* The symbol @name of @t, or NULL. */
struct sym *asm_sym_find(struct symtab *t, const char *name);
/* A new symbol @name in @t, all else zero (aborts when out of memory). */
struct sym *asm_sym_add(struct symtab *t, const char *name);
void asm_symtab_free(struct symtab *t);

/* vpmu_asm_lex.c: diagnostics, printed in pass 2 only */
/* Report an error at @at on the current line (only its first error). */
__attribute__((format(printf, 3, 4)))
void asm_error(struct as *a, const char *at, const char *fmt, ...);
/* Report an error about an earlier line (found at the end of pass 2). */
__attribute__((format(printf, 4, 5)))
void asm_error_lc(struct as *a, int line, int col, const char *fmt, ...);

/* vpmu_asm_lex.c: lexing, from a->p to the end of the current line */
/* Skip blanks, and a // comment to the end of the line. */
void asm_skip_ws(struct as *a);
/* Is nothing but blanks and a comment left? */
bool asm_at_end(struct as *a);
/* Take @c if it comes next. */
bool asm_accept(struct as *a, char c);
/* What comes next, for a message: 'c', \xHH or end of line. */
const char *asm_what(struct as *a);
/* Take @c, or report what came instead. */
bool asm_expect(struct as *a, char c);
/* An identifier into @buf (IDENT_MAX bytes); false, without error, if none. */
bool asm_ident(struct as *a, char *buf);
/* An identifier, or an error saying @what_for was expected. */
bool asm_need_ident(struct as *a, char *buf, const char *what_for);
/* A quoted string with C escapes, appended to @out. */
bool asm_string(struct as *a, struct vpmu_buf *out);

/* vpmu_asm_lex.c: expressions */
/* ".": a program's byte address, or the next microword's address. */
int64_t asm_location(struct as *a);
/* An expression; pass 1 takes an unknown symbol as 0 and sets a->undef. */
bool asm_expr(struct as *a, int64_t *v);
/* An expression whose value must lie in [@lo, @hi]. */
bool asm_expr_range(struct as *a, int64_t *v, int64_t lo, int64_t hi,
		    const char *what_for);
/* An expression that decides where later things go (.space, .org, ...). */
bool asm_layout_expr(struct as *a, int64_t *v, int64_t lo, int64_t hi,
		     const char *what_for);

#endif /* _VPMU_ASM_PRIV_H */
