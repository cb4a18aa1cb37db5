// SPDX-License-Identifier: GPL-2.0
/*
 * test_asm.c - host tests of the vpmu toolchain (TAP).
 *
 *  - every shipped microcode source assembles, passes the engine's
 *    validator, and survives as -> dis -> as byte for byte (and dis of
 *    the re-assembled image is the same text);
 *  - every sample program assembles and survives as -> dis -> as;
 *  - a microword of every signature assembles to the word encoded by
 *    hand here, and that word disassembles to its text;
 *  - bad sources fail with the expected "file:line:col: error: message",
 *    the source line and a caret under the column;
 *  - every sample runs on the engine to exactly the results in its .expect
 *    file (registers, memory, stop reason, event totals), twice, on two
 *    engines, identically.
 *
 *   test_asm [--print SAMPLE]   (--print: show a sample's actual results
 *                                in .expect form, to review by hand)
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "tap.h"
#include "vpmu_asm.h"
#include "vpmu_dis.h"
#include "vpmu_engine.h"
#include "vpmu_test_image.h"
#include "vpmu_tool.h"

#ifndef VPMU_TOP
#define VPMU_TOP "../../.."
#endif
#define UCODE_DIR	VPMU_TOP "/drivers/perf/vpmu/ucode"
#define SHARE_DIR	VPMU_TOP "/tools/vpmu/share"
#define SAMPLE_DIR	SHARE_DIR "/samples"
#define BUDGET		10000000

static void diag(const char *text)
{
	const char *nl;

	while (text && *text) {
		nl = strchr(text, '\n');
		printf("# %.*s\n", nl ? (int)(nl - text) : (int)strlen(text),
		       text);
		text = nl ? nl + 1 : NULL;
	}
}

static void slurp(const char *path, struct vpmu_buf *b)
{
	if (vpmu_read_file(path, b)) {
		fprintf(stderr, "test_asm: cannot read %s\n", path);
		exit(2);
	}
}

static bool same(const struct vpmu_buf *a, const struct vpmu_buf *b)
{
	return a->len == b->len && !memcmp(a->p, b->p, a->len);
}

/* ---- microcode round trips --------------------------------------------- */

static const char *const ucode_sources[] = {
	UCODE_DIR "/default.vus",
	SHARE_DIR "/ucode/encoded.vus",
	SHARE_DIR "/ucode/rv32im.vus",
};

static void assemble_default(struct vpmu_buf *img)
{
	struct vpmu_buf src = { 0 }, d = { 0 };

	slurp(ucode_sources[0], &src);
	if (vpmu_asm_ucode(src.p, src.len, NULL, img, &d)) {
		diag(d.p);
		fprintf(stderr, "test_asm: default.vus does not assemble\n");
		exit(2);
	}
	vpmu_buf_free(&src);
	vpmu_buf_free(&d);
}

static void test_ucode_roundtrip(const char *path)
{
	struct vpmu_buf src = { 0 }, img = { 0 }, text = { 0 }, img2 = { 0 };
	struct vpmu_buf text2 = { 0 }, d = { 0 };
	struct vpmu_asm_opts o = { .filename = path };
	const char *base = strrchr(path, '/') + 1;
	struct vpmu_ucode *uc = NULL;
	struct vpmu_verr verr = { 0 };
	int nerr;

	slurp(path, &src);
	nerr = vpmu_asm_ucode(src.p, src.len, &o, &img, &d);
	tap_ok(!nerr, "%s assembles", base);
	diag(d.p);
	if (nerr)
		goto out;
	tap_ok(!vpmu_ucode_load(&uc, img.p, img.len, VPMU_CS_MAX, &verr),
	   "%s passes vpmu_ucode_load", base);
	if (uc)
		vpmu_ucode_free(uc);
	else
		diag(verr.msg);
	tap_ok(!vpmu_dis_ucode(img.p, img.len, &text, &d) && !d.len,
	   "%s disassembles without warnings", base);
	diag(d.p);
	d.len = 0;
	nerr = vpmu_asm_ucode(text.p, text.len, NULL, &img2, &d);
	tap_ok(!nerr && same(&img, &img2), "%s: as(dis(image)) == image", base);
	diag(d.p);
	vpmu_dis_ucode(img2.p, img2.len, &text2, &d);
	tap_ok(same(&text, &text2), "%s: dis(as(dis(image))) == dis(image)", base);
out:
	vpmu_buf_free(&src);
	vpmu_buf_free(&img);
	vpmu_buf_free(&img2);
	vpmu_buf_free(&text);
	vpmu_buf_free(&text2);
	vpmu_buf_free(&d);
}

/* Symbols can be left out; the rest of the image is unchanged. */
static void test_no_symbols(void)
{
	struct vpmu_buf src = { 0 }, img = { 0 }, d = { 0 };
	struct vpmu_asm_opts o = { .no_symbols = true };
	const struct vpmu_image_header *h;

	slurp(ucode_sources[0], &src);
	tap_ok(!vpmu_asm_ucode(src.p, src.len, &o, &img, &d),
	   "--no-symbols assembles");
	h = (const void *)img.p;
	tap_ok(img.len >= sizeof(*h) && h->sym_count == 0 && h->insn_count > 0,
	   "--no-symbols: empty symbol table, instructions kept");
	vpmu_buf_free(&src);
	vpmu_buf_free(&img);
	vpmu_buf_free(&d);
}

/*
 * .flags: each name sets its header bit, the disassembly names them on
 * one line and assembles back to the same image; "none" clears them and
 * an unknown name is an error.  default.vus with its ".flags r0zero"
 * line replaced.
 */
static void test_flags(void)
{
	static const struct {
		const char *line, *dis;
		u32 flags;
	} c[] = {
		{ ".flags r0zero, ialign16", ".flags r0zero, ialign16\n",
		  VPMU_IMG_F_R0_ZERO | VPMU_IMG_F_IALIGN16 },
		{ ".flags ialign16", ".flags ialign16\n", VPMU_IMG_F_IALIGN16 },
		{ ".flags none", NULL, 0 },
		{ ".flags r0zero, align16", NULL, 0 },
	};
	struct vpmu_buf src = { 0 };
	const char *at;
	size_t i;

	slurp(ucode_sources[0], &src);
	at = strstr(src.p, ".flags r0zero\n");
	if (!at) {
		tap_ok(false, "default.vus has a .flags r0zero line");
		vpmu_buf_free(&src);
		return;
	}
	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		struct vpmu_buf text = { 0 }, img = { 0 }, img2 = { 0 };
		struct vpmu_buf dis = { 0 }, d = { 0 };
		const struct vpmu_image_header *h;
		int nerr;

		vpmu_buf_printf(&text, "%.*s%s%s", (int)(at - src.p), src.p,
				c[i].line, at + strlen(".flags r0zero"));
		nerr = vpmu_asm_ucode(text.p, text.len, NULL, &img, &d);
		if (!strcmp(c[i].line, ".flags r0zero, align16")) {
			tap_ok(nerr && d.p && strstr(d.p, "unknown flag 'align16'"),
			       "%s: an error", c[i].line);
			goto next;
		}
		h = (const void *)img.p;
		tap_ok(!nerr && img.len >= sizeof(*h) && h->flags == c[i].flags,
		       "%s: header flags 0x%x", c[i].line, c[i].flags);
		vpmu_buf_free(&d);
		vpmu_dis_ucode(img.p, img.len, &dis, &d);
		tap_ok(dis.p && (c[i].dis ? strstr(dis.p, c[i].dis) != NULL :
				 strstr(dis.p, ".flags") == NULL),
		       "%s: disassembled as %s", c[i].line,
		       c[i].dis ? c[i].dis : "no .flags line");
		vpmu_buf_free(&d);
		tap_ok(dis.p && !vpmu_asm_ucode(dis.p, dis.len, NULL, &img2, &d) &&
		       same(&img, &img2), "%s: as(dis(image)) == image",
		       c[i].line);
next:
		vpmu_buf_free(&text);
		vpmu_buf_free(&img);
		vpmu_buf_free(&img2);
		vpmu_buf_free(&dis);
		vpmu_buf_free(&d);
	}
	vpmu_buf_free(&src);
}

/* ---- programs ------------------------------------------------------------ */

static const char *const samples[] = { "sum", "memcpy", "sort", "syscall" };

static int assemble_sample(const char *name, const struct vpmu_buf *img,
			   struct vpmu_buf *prog, struct vpmu_buf *d)
{
	struct vpmu_buf src = { 0 };
	char path[512];
	struct vpmu_asm_opts o = { .filename = path };
	int nerr;

	snprintf(path, sizeof(path), SAMPLE_DIR "/%s.s", name);
	slurp(path, &src);
	nerr = vpmu_asm_prog(src.p, src.len, img->p, img->len, &o, prog, d);
	vpmu_buf_free(&src);
	return nerr;
}

static void test_prog_roundtrip(const char *name, const struct vpmu_buf *img)
{
	struct vpmu_buf prog = { 0 }, text = { 0 }, prog2 = { 0 }, d = { 0 };
	struct vpmu_prog_view v;
	int nerr;

	nerr = assemble_sample(name, img, &prog, &d);
	tap_ok(!nerr, "%s.s assembles", name);
	diag(d.p);
	if (nerr)
		goto out;
	tap_ok(!vpmu_prog_view(&v, prog.p, prog.len, &d),
	   "%s: program header and checksum valid", name);
	tap_ok(!vpmu_dis_prog(prog.p, prog.len, img->p, img->len, &text, &d) &&
	   !d.len, "%s: disassembles", name);
	diag(d.p);
	nerr = vpmu_asm_prog(text.p, text.len, img->p, img->len, NULL, &prog2,
			     &d);
	tap_ok(!nerr && same(&prog, &prog2), "%s: as(dis(program)) == program",
	   name);
	diag(d.p);
out:
	vpmu_buf_free(&prog);
	vpmu_buf_free(&prog2);
	vpmu_buf_free(&text);
	vpmu_buf_free(&d);
}

/*
 * A microword of every signature and sequencer signature: its text, as
 * the disassembler writes it, and its word, encoded here by hand.  The
 * assembler makes the word of the text, and the disassembler the text of
 * the word (vpmu_test_image.h's UW() and Q()).  A label ("x:") names the
 * next word; vpmu_dis_uwords() does not print labels.
 */
static const struct {
	const char *text;
	uint64_t uw;
} sig_words[] = {
	{ "x:" },
	{ "ADD.s t0, r1, #-5", UW(ADD, T(0), R(1), IM, -5) | US },
	{ "SUB zero, t0, @s2 ; BR NZ, x",
	  UW(SUB, ZERO, T(0), ATS2, 0) | QC(NZ, 0) },
	{ "MOV @ds, t1 ; JUMP y",
	  UW(MOV, ATDS, 0, T(1), 0) | Q(JUMP, 0, 14) },
	{ "MOV.s t2, #511 ; CALL x",
	  UW(MOV, T(2), 0, IM, 511) | US | Q(CALL, 0, 0) },
	{ "EXT t3, ir, 4, 8 ; DISP 2, tab",
	  UW(EXT, T(3), IR, 0, VPMU_EXT_IMM(4, 8)) | Q(DISP, 2, 10) },
	{ "SEXT.s t4, t3, 12 ; CTR",
	  UW(SEXT, T(4), T(3), 0, 11) | US | Q(CTR, 0, 0) },
	{ "LW t5, -4(t0)", UW(LW, T(5), T(0), 0, -4) },
	{ "LBU t6, 0(@s1) ; RET",
	  UW(LBU, T(6), ATS1, 0, 0) | Q(RET, 0, 0) },
	{ "SW t5, 511(pc) ; EOI",
	  UW(SW, 0, PC, T(5), 511) | Q(EOI, 0, 0) },
	{ "MODE #1 ; TRAP 77", UW(MODE, 0, 0, 0, 1) | Q(TRAP, 0, 77) },
	{ "tab:" },
	{ "NOP", 0 },
	{ "JUMP x ; {1, 3}", Q(JUMP, 0, 0) | UEV(5) },
	{ "HALT ; trig", Q(HALT, 0, 0) | UT },
	{ "MODE #0", UW(MODE, 0, 0, 0, 0) },
	{ "y:" },
	{ "HALT", Q(HALT, 0, 0) },
};

static void test_sig_words(void)
{
	struct vpmu_buf src = { 0 }, raw = { 0 }, img = { 0 }, img2 = { 0 };
	struct vpmu_buf text = { 0 }, want = { 0 }, d = { 0 };
	size_t i;
	int nerr;

	for (i = 0; i < sizeof(sig_words) / sizeof(sig_words[0]); i++) {
		const char *t = sig_words[i].text;

		if (strchr(t, ':')) {
			vpmu_buf_printf(&src, "%s\n", t);
			vpmu_buf_printf(&raw, "%s\n", t);
			continue;
		}
		vpmu_buf_printf(&src, "\t%s\n", t);
		vpmu_buf_printf(&raw, "\t.uword 0x%016llx\n",
				(unsigned long long)sig_words[i].uw);
		vpmu_buf_printf(&want, "%s\n", t);
	}
	nerr = vpmu_asm_ucode(src.p, src.len, NULL, &img, &d);
	nerr += vpmu_asm_ucode(raw.p, raw.len, NULL, &img2, &d);
	diag(d.p);
	tap_ok(!nerr && same(&img, &img2),
	       "every signature assembles to its word");
	tap_ok(!nerr && !vpmu_dis_uwords(img2.p, img2.len, &text, &d) &&
	       same(&text, &want), "every signature's word disassembles to "
	       "its text");
	if (!nerr && !same(&text, &want))
		diag(text.p);
	vpmu_buf_free(&src);
	vpmu_buf_free(&raw);
	vpmu_buf_free(&img);
	vpmu_buf_free(&img2);
	vpmu_buf_free(&text);
	vpmu_buf_free(&want);
	vpmu_buf_free(&d);
}

/* ---- errors -------------------------------------------------------------- */

struct err_case {
	const char *what;
	bool prog;		/* program for the default image */
	const char *src;
	const char *expect;	/* substring of the diagnostics */
};

#define UC_HDR	".opcode 0, 6\n"

static const struct err_case err_cases[] = {
	{ "unknown mnemonic", false, "\tFROB t0, t1\n",
	  "t.vus:1:2: error: unknown mnemonic 'FROB'" },
	{ "unknown operand", false, "\tADD t0, t9, t1\n",
	  "t.vus:1:10: error: unknown operand 't9'" },
	{ "read-only destination", false, "\tMOV ipc, t1\n",
	  "t.vus:1:6: error: 'ipc' is read-only and cannot be the destination" },
	{ "immediate as source A", false, "\tADD t0, #1, t1\n",
	  "t.vus:1:10: error: an immediate cannot be the source A" },
	{ "immediate out of range", false, "\tADD t0, t0, #512\n",
	  "t.vus:1:15: error: immediate 512 out of range -512..511" },
	{ "store of an immediate", false, "\tSW #1, 0(t0)\n",
	  "t.vus:1:5: error: SW stores a register, not an immediate" },
	{ "missing operand", false, "\tADD t0, t1\n",
	  "t.vus:1:12: error: expected ',' but found end of line" },
	{ "EXT field past bit 31", false, "\tEXT t0, ir, 30, 4\n",
	  "t.vus:1:18: error: field 30..33 runs past bit 31" },
	{ ".s on a load", false, "\tLW.s t0, 0(t1)\n",
	  "t.vus:1:2: error: '.s' is not allowed on LW (no ALU result)" },
	{ "immediate as destination", false, "\tMOV #1, t0\n",
	  "t.vus:1:6: error: an immediate cannot be the destination" },
	{ "EXT field position", false, "\tEXT t0, ir, 32, 1\n",
	  "t.vus:1:14: error: field position 32 out of range 0..31" },
	{ "SEXT field width", false, "\tSEXT t0, ir, #33\n",
	  "t.vus:1:16: error: field width 33 out of range 1..32" },
	{ "offset out of range", false, "\tLW t0, -513(t1)\n",
	  "t.vus:1:9: error: offset -513 out of range -512..511" },
	{ "mode out of range", false, "\tMODE #2\n",
	  "t.vus:1:8: error: mode 2 out of range 0..1" },
	{ "dispatch width out of range", false, "\tMOV t0, t1 ; DISP 9, 0\n",
	  "t.vus:1:20: error: dispatch width 9 out of range 1..8" },
	{ "trap code out of range", false, "\tTRAP 4096\n",
	  "t.vus:1:7: error: trap code 4096 out of range 0..4095" },
	{ "BR without a condition", false, "x:\tBR x\n",
	  "t.vus:1:7: error: unknown condition 'x'" },
	{ "unknown condition", false, "x:\tNOP ; BR ZZ, x\n",
	  "t.vus:1:13: error: unknown condition 'ZZ'" },
	{ "undefined label", false, "\tJUMP nowhere\n",
	  "t.vus:1:7: error: undefined symbol 'nowhere'" },
	{ "duplicate label", false, "a:\tNOP\na:\tHALT\n",
	  "t.vus:2:1: error: duplicate symbol 'a' (first defined on line 1)" },
	{ "label named '.'", false, ".:\tHALT\n",
	  "t.vus:1:1: error: '.' is not a valid label name" },
	{ "label starting with '@'", false, "@x:\tHALT\n",
	  "t.vus:1:1: error: '@x' is not a valid label name" },
	{ "target outside the control store", false, "\tJUMP 5\n",
	  "t.vus:1:7: error: micro-address 5 outside the control store (1 words)" },
	{ "dispatch table too big", false, "\tMOV t0, t1 ; DISP 2, 0\n\tHALT\n",
	  "t.vus:1:23: error: dispatch table 0..3 outside the control store (2 words)" },
	{ "DISP without ALU result", false, "\tNOP ; DISP 1, 0\n\tHALT\n",
	  "t.vus:1:1: error: DISP needs an ALU result" },
	{ "CTR without ALU result", false, "\tNOP ; CTR\n\tHALT\n",
	  "t.vus:1:1: error: CTR needs an ALU result" },
	{ "CTR into pc", false, "\tMOV pc, t0 ; CTR\n\tHALT\n",
	  "t.vus:1:1: error: CTR writes its counter to a register" },
	{ "CTR last", false, "\tHALT\n\tMOV t0, #3 ; CTR\n",
	  "t.vus:2:1: error: the last microword cannot continue" },
	{ "falls off the end", false, "\tNOP\n",
	  "t.vus:1:1: error: the last microword cannot continue at the next address (NEXT)" },
	{ "two ALU operations", false, "\tNOP ; NOP\n",
	  "t.vus:1:8: error: more than one ALU operation" },
	{ "tag out of range", false, ".evmode onehot, 4\n\tHALT ; {5}\n",
	  "t.vus:2:10: error: tag 5 out of range 1..4 for one-hot 4-bit event fields" },
	{ "unknown tag", false, "\tHALT ; {bogus}\n",
	  "t.vus:1:10: error: unknown tag 'bogus'" },
	{ "two tags when encoded", false, ".evmode encoded, 3\n\tHALT ; {1, 2}\n",
	  "t.vus:2:13: error: an encoded event field holds one tag" },
	{ ".idtab mask: opcode outside it", false,
	  ".opcode 0, 2\n.idtab 2, x, mask=1\nx:\tHALT\n",
	  "t.vus:2:14: error: opcode 0x2 has bits outside mask 0x1" },
	{ ".idtab: not mask=", false,
	  ".opcode 0, 2\n.idtab 2, x, msk=1\nx:\tHALT\n",
	  "t.vus:2:14: error: expected mask=EXPR" },
	{ ".idtab mask: an entry set before", false,
	  ".opcode 0, 2\n.idtab 1, x\n.idtab 1, y, mask=1\nx:\tHALT\ny:\tHALT\n",
	  "t.vus:3:11: error: opcode 1 already dispatched to 0 (line 2)" },
	{ "bad directive", false, ".frobnicate 1\n\tHALT\n",
	  "t.vus:1:1: error: unknown directive '.frobnicate'" },
	{ "directive given twice", false, ".name \"a\"\n.name \"b\"\n\tHALT\n",
	  "t.vus:2:1: error: directive given twice" },
	{ "cache size not a power of 2", false, ".cache 3, 16, 8\n\tHALT\n",
	  "t.vus:1:8: error: cache lines 3 is not a power of 2" },
	{ "name too long", false,
	  ".name \"0123456789012345678901234567890123\"\n\tHALT\n",
	  "t.vus:1:7: error: name must be 0..31 characters" },
	{ "insn mask misses the opcode", false,
	  UC_HDR ".insn foo, 0x100, uimm:0:8\nx:\tHALT\n",
	  "t.vus:2:1: error: mask 0xffffff00 does not cover the opcode field" },
	{ "insn operands overlap", false,
	  UC_HDR ".insn foo, 1, reg:6:5, reg:8:5\n\tHALT\n",
	  "t.vus:2:24: error: operand fields overlap" },
	{ "insn declared twice", false,
	  UC_HDR ".insn foo, 1\n.insn foo, 2\n\tHALT\n",
	  "t.vus:3:1: error: duplicate instruction 'foo' (line 2)" },
	{ "opcode dispatched twice", false,
	  UC_HDR ".insn foo, 1 => a\n.insn bar, 1 | 1 << 8 => b\na:\tHALT\nb:\tHALT\n",
	  "t.vus:3:26: error: opcode 1 already dispatched to 0 (line 2)" },
	{ "several errors reported", false, "\tFOO\n\tBAR\n\tHALT\n",
	  "t.vus:2:2: error: unknown mnemonic 'BAR'" },
	{ "program: unknown mnemonic", true, "\tfrob r1\n",
	  "t.s:1:2: error: unknown mnemonic 'frob'" },
	{ "program: bad register", true, "\tadd r1, r2, r32\n",
	  "t.s:1:14: error: no register 'r32'" },
	{ "program: register expected", true, "\tadd r1, r2, 5\n",
	  "t.s:1:14: error: expected a register (r0..r31) but found '5'" },
	{ "program: immediate out of range", true, "\taddi r1, r0, 32768\n",
	  "t.s:1:15: error: simm value 32768 out of range -32768..32767 for a 16-bit field" },
	{ "program: unsigned field", true, "\tori r1, r0, -1\n",
	  "t.s:1:14: error: uimm value -1 out of range 0..65535 for a 16-bit field" },
	{ "program: missing operands", true, "\taddi r1, r0\n",
	  "t.s:1:13: error: expected ',' but found end of line" },
	{ "program: too many operands", true, "\thalt r1\n",
	  "t.s:1:7: error: too many operands for 'halt' (found 'r')" },
	{ "program: undefined label", true, "\tbeq r1, r2, away\n",
	  "t.s:1:14: error: undefined symbol 'away'" },
	{ "program: duplicate label", true, "x:\thalt\nx:\thalt\n",
	  "t.s:2:1: error: duplicate symbol 'x' (first defined on line 1)" },
	{ "program: misaligned branch target", true, "\tbeq r1, r2, 6\n",
	  "t.s:1:14: error: pcrel target offset 6 is not a multiple of 4" },
	{ "program: branch out of range", true, "\tbeq r1, r2, 0x40000\n",
	  "t.s:1:14: error: branch target out of range (65536 words away" },
	{ "program: paren expected", true, "\tlw r1, 4, r2\n",
	  "t.s:1:10: error: expected '(' but found ','" },
	{ "program: unaligned instruction", true, "\t.byte 1\n\thalt\n",
	  "t.s:2:2: error: instruction at unaligned address 0x1" },
	{ "program: .org backwards", true, "\t.word 1, 2\n\t.org 4\n",
	  "t.s:2:7: error: .org 0x4 moves backwards (now at 0x8)" },
	{ "program: .space forward reference", true,
	  "\t.space later\n\t.equ later, 4\n",
	  "t.s:1:9: error: size must not depend on symbols defined later" },
	{ "program: .word out of range", true, "\t.half 0x10000\n",
	  "t.s:1:8: error: value 65536 out of range -32768..65535" },
	{ "program: bad directive", true, "\t.name \"x\"\n",
	  "t.s:1:2: error: unknown directive '.name'" },
	{ "program: division by zero", true, "\t.word 1 / 0\n",
	  "t.s:1:10: error: division by zero" },
	{ "program: memsize too small", true, "\t.memsize 4\n\t.word 1, 2\n",
	  "error: memory size 4 is smaller than the program (8 bytes)" },
};

static void test_errors(const struct vpmu_buf *img)
{
	size_t i;

	for (i = 0; i < sizeof(err_cases) / sizeof(err_cases[0]); i++) {
		const struct err_case *c = &err_cases[i];
		struct vpmu_asm_opts o = {
			.filename = c->prog ? "t.s" : "t.vus",
		};
		struct vpmu_buf out = { 0 }, d = { 0 };
		int nerr;

		if (c->prog)
			nerr = vpmu_asm_prog(c->src, strlen(c->src), img->p,
					     img->len, &o, &out, &d);
		else
			nerr = vpmu_asm_ucode(c->src, strlen(c->src), &o, &out,
					      &d);
		tap_ok(nerr > 0 && !out.len && d.p && strstr(d.p, c->expect),
		   "error: %s", c->what);
		if (!(d.p && strstr(d.p, c->expect))) {
			printf("# expected: %s\n", c->expect);
			diag(d.p);
		}
		vpmu_buf_free(&out);
		vpmu_buf_free(&d);
	}
}

/* The error cap: at most max_errors reports, then one "too many". */
static void test_error_cap(void)
{
	struct vpmu_asm_opts o = { .filename = "t.vus", .max_errors = 3 };
	struct vpmu_buf out = { 0 }, d = { 0 };
	const char *src = "\tA\n\tB\n\tC\n\tD\n\tE\n\tHALT\n";
	int nerr, lines = 0;
	const char *p;

	nerr = vpmu_asm_ucode(src, strlen(src), &o, &out, &d);
	for (p = d.p; p && *p; p++)
		lines += *p == '\n';
	/* each error: its line, the source line and the caret line */
	tap_ok(nerr == 4 && lines == 3 * 3 + 1 &&
	       strstr(d.p, "too many errors"),
	   "error cap: 3 errors and 'too many errors'");
	vpmu_buf_free(&out);
	vpmu_buf_free(&d);
}

/*
 * An error as gcc shows it: "file:line:col: error: message", the source
 * line indented by four blanks, and a caret under the column (tabs kept,
 * a CR at the end dropped), for an error found on its line and for one
 * reported at the end about an earlier line.
 */
static void test_error_quote(void)
{
	struct vpmu_asm_opts o = { .filename = "t.vus" };
	struct vpmu_buf out = { 0 }, d = { 0 };
	const char *src = "x:\tADD t0, t1\r\n";
	const char *want =
		"t.vus:1:15: error: expected ',' but found end of line\n"
		"    x:\tADD t0, t1\n"
		"      \t           ^\n";

	vpmu_asm_ucode(src, strlen(src), &o, &out, &d);
	tap_ok(d.p && !strcmp(d.p, want), "error: line, source line, caret");
	if (!d.p || strcmp(d.p, want))
		diag(d.p);
	vpmu_buf_free(&d);
	src = "\n// nothing\n";
	vpmu_asm_ucode(src, strlen(src), &o, &out, &d);
	want = "t.vus:2:1: error: no microwords\n    // nothing\n    ^\n";
	tap_ok(d.p && !strcmp(d.p, want), "error about an earlier line");
	if (!d.p || strcmp(d.p, want))
		diag(d.p);
	vpmu_buf_free(&out);
	vpmu_buf_free(&d);
}

/* ---- running the samples ------------------------------------------------- */

struct result {
	enum vpmu_stop_reason reason;
	u32 code;
	u32 regs[32];
	u64 events[VPMU_EV_NR_BASIC];
	u64 tags[9];
	u64 super_cycles;
	u8 *mem;
	u32 mem_size;
};

static const char *const stop_names[] = {
	[VPMU_STOP_BUDGET] = "budget", [VPMU_STOP_HALT] = "halt",
	[VPMU_STOP_TRAP] = "trap", [VPMU_STOP_FAULT] = "fault",
	[VPMU_STOP_OVERFLOW] = "overflow",
};

static int run_prog(const struct vpmu_ucode *uc, const struct vpmu_buf *prog,
		    struct result *r)
{
	struct vpmu_ctr_cfg super = {
		.event = VPMU_EV_CYCLES, .width = 64, .flags = VPMU_CTR_SUPER,
	};
	struct vpmu_prog_view v;
	struct vpmu_buf d = { 0 };
	struct vpmu_engine *e;
	struct vpmu_stop stop;
	unsigned int i;

	if (vpmu_prog_view(&v, prog->p, prog->len, &d))
		return -1;
	e = vpmu_engine_create(VPMU_CS_MAX);
	if (!e || vpmu_engine_attach(e, uc))
		return -1;
	memset(r, 0, sizeof(*r));
	r->mem_size = v.h.mem_size;
	r->mem = calloc(1, v.h.mem_size);
	memcpy(r->mem, v.data, v.h.load_size);
	vpmu_engine_ctr_config(e, 0, &super);
	vpmu_engine_ctr_write(e, 0, 0);
	vpmu_engine_start(e, r->mem, v.h.mem_size, v.h.entry,
			  v.h.flags & VPMU_PROG_F_SUPER ? VPMU_MODE_SUPER :
							  VPMU_MODE_USER);
	r->reason = vpmu_engine_run(e, BUDGET, &stop);
	r->code = stop.code;
	for (i = 0; i < 32; i++)
		r->regs[i] = vpmu_engine_reg(e, VPMU_OPND_R0 + i);
	for (i = 0; i < VPMU_EV_NR_BASIC; i++)
		r->events[i] = vpmu_engine_event_total(e, i);
	for (i = 1; i <= 8; i++)
		r->tags[i] = vpmu_engine_event_total(e, VPMU_EV_TAG(i));
	r->super_cycles = vpmu_engine_ctr_read(e, 0);
	vpmu_engine_destroy(e);
	return 0;
}

static bool same_result(const struct result *a, const struct result *b)
{
	return a->reason == b->reason && a->code == b->code &&
	       !memcmp(a->regs, b->regs, sizeof(a->regs)) &&
	       !memcmp(a->events, b->events, sizeof(a->events)) &&
	       !memcmp(a->tags, b->tags, sizeof(a->tags)) &&
	       a->super_cycles == b->super_cycles &&
	       a->mem_size == b->mem_size &&
	       !memcmp(a->mem, b->mem, a->mem_size);
}

static void print_result(const struct result *r)
{
	unsigned int i;

	printf("stop %s", stop_names[r->reason]);
	if (r->reason == VPMU_STOP_TRAP || r->reason == VPMU_STOP_FAULT)
		printf(" %u", r->code);
	printf("\n");
	for (i = 1; i < 32; i++)
		if (r->regs[i])
			printf("reg r%u %u\n", i, r->regs[i]);
	for (i = 0; i < VPMU_EV_NR_BASIC; i++)
		printf("event %s %llu\n", vpmu_event_info[i].name + 5,
		       (unsigned long long)r->events[i]);
	for (i = 1; i <= 8; i++)
		printf("event tag%u %llu\n", i, (unsigned long long)r->tags[i]);
	printf("super cycles %llu\n", (unsigned long long)r->super_cycles);
}

/* Compare one line of a .expect file; returns false on a mismatch. */
static bool check_line(const char *name, const char *line,
		       const struct result *r)
{
	char key[32], arg[32];
	unsigned long long want, got = 0;
	unsigned int i;
	int n;

	n = sscanf(line, "%31s %31s %lli", key, arg, &want);
	if (n < 2)
		return true;
	if (!strcmp(key, "stop")) {
		if (strcmp(arg, stop_names[r->reason]))
			return false;
		return n < 3 || want == r->code;
	}
	if (n < 3)
		return false;
	if (!strcmp(key, "reg") && arg[0] == 'r') {
		got = r->regs[atoi(arg + 1) & 31];
	} else if (!strcmp(key, "mem")) {
		unsigned long addr = strtoul(arg, NULL, 0);

		if (addr + 4 > r->mem_size || addr % 4)
			return false;
		got = vpmu_get32(r->mem + addr);
		want &= 0xffffffffull;
	} else if (!strcmp(key, "event") && !strncmp(arg, "tag", 3)) {
		got = r->tags[atoi(arg + 3) % 9];
	} else if (!strcmp(key, "event")) {
		for (i = 0; i < VPMU_EV_NR_BASIC; i++)
			if (!strcmp(vpmu_event_info[i].name + 5, arg))
				break;
		if (i == VPMU_EV_NR_BASIC)
			return false;
		got = r->events[i];
	} else if (!strcmp(key, "super") && !strcmp(arg, "cycles")) {
		got = r->super_cycles;
	} else {
		return false;
	}
	if (got != want)
		printf("# %s: %s %s: got %llu, want %llu\n", name, key, arg,
		       got, want);
	return got == want;
}

static void test_run(const char *name, const struct vpmu_buf *img,
		     const struct vpmu_ucode *uc)
{
	struct vpmu_buf prog = { 0 }, exp = { 0 }, d = { 0 };
	struct result r1, r2;
	char path[512], *line, *save = NULL;
	bool good = true;
	int checks = 0;

	if (assemble_sample(name, img, &prog, &d) || run_prog(uc, &prog, &r1) ||
	    run_prog(uc, &prog, &r2)) {
		tap_ok(false, "%s: runs", name);
		diag(d.p);
		return;
	}
	snprintf(path, sizeof(path), SAMPLE_DIR "/%s.expect", name);
	slurp(path, &exp);
	for (line = strtok_r(exp.p, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (line[0] == '#' || !line[0])
			continue;
		checks++;
		if (!check_line(name, line, &r1)) {
			printf("# %s: mismatch: %s\n", name, line);
			good = false;
		}
	}
	tap_ok(good && checks > 0, "%s: results and counts as in %s.expect (%d "
	   "checks)", name, name, checks);
	tap_ok(same_result(&r1, &r2), "%s: a second run is identical", name);
	free(r1.mem);
	free(r2.mem);
	vpmu_buf_free(&prog);
	vpmu_buf_free(&exp);
	vpmu_buf_free(&d);
}

int main(int argc, char **argv)
{
	struct vpmu_buf img = { 0 };
	struct vpmu_ucode *uc = NULL;
	struct vpmu_verr verr;
	size_t i;

	assemble_default(&img);
	if (vpmu_ucode_load(&uc, img.p, img.len, VPMU_CS_MAX, &verr)) {
		fprintf(stderr, "test_asm: default image rejected: %s\n",
			verr.msg);
		return 2;
	}
	if (argc == 3 && !strcmp(argv[1], "--print")) {
		struct vpmu_buf prog = { 0 }, d = { 0 };
		struct result r;

		if (assemble_sample(argv[2], &img, &prog, &d) ||
		    run_prog(uc, &prog, &r)) {
			fputs(d.p ? d.p : "cannot run\n", stderr);
			return 1;
		}
		print_result(&r);
		return 0;
	}

	for (i = 0; i < sizeof(ucode_sources) / sizeof(ucode_sources[0]); i++)
		test_ucode_roundtrip(ucode_sources[i]);
	test_no_symbols();
	test_flags();
	test_sig_words();
	for (i = 0; i < sizeof(samples) / sizeof(samples[0]); i++)
		test_prog_roundtrip(samples[i], &img);
	test_errors(&img);
	test_error_cap();
	test_error_quote();
	for (i = 0; i < sizeof(samples) / sizeof(samples[0]); i++)
		test_run(samples[i], &img, uc);

	vpmu_ucode_free(uc);
	vpmu_buf_free(&img);
	tap_plan(tap_n);
	return tap_done();
}
