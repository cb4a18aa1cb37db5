// SPDX-License-Identifier: GPL-2.0
/*
 * test_tc.c - the translation cache against the microword interpreter.
 *
 * Every program runs on two engines under the same configuration and in
 * the same pieces: one interprets every microword, the other has its
 * translation cache on.  After every piece the two must agree on
 * everything a caller can see: the stop (reason, code, address, micro-PC,
 * macro PC, the counters that wrapped, the cycles), every register, the
 * mode and the micro-PC, every byte of memory, every counter with its
 * overflow status and count, the freeze bits; and at the end and now and
 * then on the event totals, every microword's count, the micro-PC
 * histogram's buckets and the histogram unit's.  The cache must also have
 * been used (translations made and run, exits taken).
 *
 *   test_tc [-s SEEDS] [-x] [-d] [ELF...]
 *
 * -x stops at the first difference (what a faulty cache needs to show);
 * -d runs only the RV32 programs as the driver runs them (below).
 *
 * The programs: the sample and test programs on the default microcode,
 * random vpmu32 and RV32IM machine code (some of it storing into its own
 * code, some rewritten by the caller between pieces), the assembler's
 * fuzz corpus (its program sources), and the RV32
 * ELF files given (tools/vpmu/share/build/rv32, and gen_rv32's random
 * programs; test_tc.sh passes them).  The configurations: nothing
 * counted; counting every event; narrow interrupting counters (sampling
 * at small periods) re-armed after every overflow stop; freeze on
 * overflow; trigger toggles on marks, tags and data-cache misses; start
 * and stop triggers, a counter's wrap among them; the micro-PC histogram
 * at K = 1 .. 1024; the histogram unit in sequence and all at once, with
 * event, micro-PC, write-queue and address entries; gating; privilege
 * filters; the external signal line flipped between pieces.  The pieces
 * are from one cycle to hundreds of thousands.  And the RV32 programs as
 * the perf driver runs them: in its 5000-cycle chunks and perf record -c
 * 1000's 1000-cycle ones, translating two instructions after each,
 * counting as perf stat does and with a counter sampling every 5000,
 * 1000, 100 cycles or every cycle, or every so many instructions (of
 * one mode only, too), in the module's pool or one too small for the
 * program (struct pace).  After every piece, no fold may have found a
 * credit larger than what ran (ctr.overcredit).
 *
 * test_tc.sh also builds the engine with deliberate faults in the cache
 * and checks that this test fails on each.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <elf.h>

#include "tap.h"
#include "tc_pair.h"
#include "vpmu_asm.h"
#include "vpmu_tool.h"

#ifndef VPMU_TOP
#define VPMU_TOP "../../.."
#endif
#define UCODE_DIR	VPMU_TOP "/drivers/perf/vpmu/ucode"
#define SHARE		VPMU_TOP "/tools/vpmu/share"
#define CORPUS		VPMU_TOP "/tools/testing/fuzz/corpus/asm"

#define MAXPROGS	1024

static bool first_fail;	/* -x: stop at the first difference */

static struct prog progs[MAXPROGS];
static unsigned int nprogs;
static struct vpmu_ucode *uc_default, *uc_rv32, *uc_wqf, *uc_lbdisp;
static struct vpmu_buf img_default;

static struct vpmu_ucode *load_ucode(const char *path, struct vpmu_buf *img)
{
	struct vpmu_buf src = { 0 }, local = { 0 }, d = { 0 };
	struct vpmu_asm_opts o = { .filename = path };
	struct vpmu_ucode *uc = NULL;
	struct vpmu_verr err;

	if (!img)
		img = &local;
	if (vpmu_read_file(path, &src) ||
	    vpmu_asm_ucode(src.p, src.len, &o, img, &d) ||
	    vpmu_ucode_load(&uc, img->p, img->len, VPMU_CS_MAX, &err)) {
		fprintf(stderr, "test_tc: %s: cannot build\n%s", path,
			d.p ? d.p : "");
		exit(2);
	}
	vpmu_buf_free(&src);
	vpmu_buf_free(&local);
	vpmu_buf_free(&d);
	return uc;
}

/*
 * The microcode at @path with each of @n texts @from replaced by its @to
 * (@name says which edit in messages).
 */
static struct vpmu_ucode *load_edited_ucode(const char *path,
					    const char *name,
					    const char *const *from,
					    const char *const *to,
					    unsigned int n)
{
	struct vpmu_buf src = { 0 }, img = { 0 }, d = { 0 };
	struct vpmu_asm_opts o = { .filename = name };
	struct vpmu_ucode *uc = NULL;
	struct vpmu_verr err;
	size_t len, grow = 0;
	char *text, *at;
	unsigned int i;

	if (vpmu_read_file(path, &src))
		exit(2);
	for (i = 0; i < n; i++)
		grow += strlen(to[i]);
	len = src.len + grow + 1;
	text = calloc(1, len);
	if (!text)
		exit(2);
	memcpy(text, src.p, src.len);
	for (i = 0; i < n; i++) {
		at = strstr(text, from[i]);
		if (!at) {
			fprintf(stderr, "test_tc: %s: no \"%s\"\n", path,
				from[i]);
			exit(2);
		}
		memmove(at + strlen(to[i]), at + strlen(from[i]),
			strlen(at + strlen(from[i])) + 1);
		memcpy(at, to[i], strlen(to[i]));
	}
	if (vpmu_asm_ucode(text, strlen(text), &o, &img, &d) ||
	    vpmu_ucode_load(&uc, img.p, img.len, VPMU_CS_MAX, &err)) {
		fprintf(stderr, "test_tc: %s: cannot build\n%s", name,
			d.p ? d.p : "");
		exit(2);
	}
	free(text);
	vpmu_buf_free(&src);
	vpmu_buf_free(&img);
	vpmu_buf_free(&d);
	return uc;
}

/*
 * The default microcode with a write queue of one entry that drains every
 * 16 cycles, and each SW branching on the queue being full (BR WQF) to a
 * microword that counts it in t1: a condition the translated-code
 * executor reads from its own copy of the queue's state (vpmu_tc_exec()),
 * true on most stores and false on some.
 */
static struct vpmu_ucode *load_wqf_ucode(void)
{
	static const char *const from[] = {
		".wqueue 4, 4",
		"\tSW @s2, 0(t0) ; JUMP next ; {store}\n",
	};
	static const char *const to[] = {
		".wqueue 1, 16",
		"\tSW @s2, 0(t0) ; BR WQF, sw_full ; {store}\n"
		"\tADD pc, pc, #4 ; EOI\n"
		"sw_full:\n"
		"\tADD t1, t1, #1 ; JUMP next\n",
	};

	return load_edited_ucode(UCODE_DIR "/default.vus",
				 "default.vus, BR WQF", from, to, 2);
}

/*
 * rv32im with lb dispatching on its address's low bit, an odd byte by a
 * microword more: a dispatch whose index the byte access's own check of
 * its address does not cover, which the translator must not fuse with
 * the access (vpmu_tc_emit.c, tc_fuse()).
 */
static struct vpmu_ucode *load_lbdisp_ucode(void)
{
	static const char *const from[] = {
		"ADD t1, @s1, t1 ; JUMP ld_b\t",
		"ld_b:\n\tLB @ds, 0(t1) ; JUMP next ; {load}\n",
	};
	static const char *const to[] = {
		"ADD t1, @s1, t1 ; DISP 1, ld_b\t",
		"ld_b:\n\tLB @ds, 0(t1) ; JUMP next ; {load}\n"
		"\tJUMP ld_b_odd\n"
		"ld_b_odd:\n\tLB @ds, 0(t1) ; JUMP next ; {load}\n",
	};

	return load_edited_ucode(SHARE "/ucode/rv32im.vus",
				 "rv32im.vus, lb dispatching", from, to, 2);
}

static struct prog *new_prog(const char *name)
{
	struct prog *p;

	if (nprogs == MAXPROGS)
		return NULL;
	p = &progs[nprogs++];
	memset(p, 0, sizeof(*p));
	snprintf(p->name, sizeof(p->name), "%s", name);
	p->cycles = 300000;
	return p;
}

/* A program source for the default microcode; false if it is not one. */
static bool add_source(const char *name, const char *text, size_t len)
{
	struct vpmu_buf prog = { 0 }, d = { 0 };
	struct vpmu_asm_opts o = { .filename = name };
	struct vpmu_prog_view v;
	struct prog *p;
	bool ok = false;

	if (vpmu_asm_prog(text, len, img_default.p, img_default.len, &o,
			  &prog, &d) ||
	    vpmu_prog_view(&v, prog.p, prog.len, &d) ||
	    v.h.mem_size < 4 || v.h.mem_size > (1u << 20))
		goto out;
	p = new_prog(name);
	if (!p)
		goto out;
	p->uc = uc_default;
	p->mem_size = v.h.mem_size;
	p->entry = v.h.entry;
	p->mode = v.h.flags & VPMU_PROG_F_SUPER ? VPMU_MODE_SUPER :
						 VPMU_MODE_USER;
	p->image = calloc(1, p->mem_size);
	memcpy(p->image, v.data, v.h.load_size);
	ok = true;
out:
	vpmu_buf_free(&prog);
	vpmu_buf_free(&d);
	return ok;
}

/*
 * Stores back to back in a loop, under load_wqf_ucode()'s microcode: its
 * branch on a full write queue taken and not, in translated code (random
 * code seldom loops over stores).
 */
static void add_wqf_vpmu32(void)
{
	static const char text[] =
		"\t.entry start\n"
		"\t.memsize 0x1000\n"
		"start:\taddi r1, r0, buf\n"
		"\taddi r4, r0, 300\n"
		"loop:\tsw r1, 0(r1)\n"
		"\tsw r1, 4(r1)\n"
		"\taddi r3, r3, 1\n"
		"\tsw r1, 8(r1)\n"
		"\tblt r3, r4, loop\n"
		"\thalt\n"
		"\t.align 16\n"
		"buf:\t.space 64\n";

	if (add_source("vpmu32 stores branching on a full write queue", text,
		       sizeof(text) - 1))
		progs[nprogs - 1].uc = uc_wqf;
}

#define SYS_PROG	"vpmu32 system calls in a loop"

/*
 * System calls in a loop, under the default microcode: sys n's last
 * microword, MODE #1 ; EOI, runs a hook after it (the mode changes), so
 * that the interpreter's EOI there counts nothing (tc.eoi_hook).
 */
static void add_sys_vpmu32(void)
{
	static const char text[] =
		"\t.entry start\n"
		"\t.org 0x10\n"
		"\taddi r3, r3, 1\n"
		"\tsret\n"
		"\t.org 0x40\n"
		"start:\taddi r4, r0, 20000\n"
		"loop:\tsys 1\n"
		"\taddi r4, r4, -1\n"
		"\tbne r4, r0, loop\n"
		"\thalt\n";

	add_source(SYS_PROG, text, sizeof(text) - 1);
}

static void add_dir(const char *dir)
{
	struct dirent *de;
	DIR *dp = opendir(dir);

	if (!dp) {
		fprintf(stderr, "test_tc: %s: cannot open\n", dir);
		exit(2);
	}
	while ((de = readdir(dp))) {
		struct vpmu_buf src = { 0 };
		char path[512];
		size_t n = strlen(de->d_name);

		if (n < 3 || strcmp(de->d_name + n - 2, ".s"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if (vpmu_read_file(path, &src) ||
		    !add_source(de->d_name, src.p, src.len)) {
			fprintf(stderr, "test_tc: %s: cannot assemble\n", path);
			exit(2);
		}
		vpmu_buf_free(&src);
	}
	closedir(dp);
}

/* The fuzz corpus's program sources (an odd first byte) that assemble. */
static unsigned int add_corpus(void)
{
	struct dirent *de;
	DIR *dp = opendir(CORPUS);
	unsigned int n = 0;

	if (!dp)
		return 0;
	while ((de = readdir(dp))) {
		struct vpmu_buf src = { 0 };
		char path[512];

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), CORPUS "/%s", de->d_name);
		if (!vpmu_read_file(path, &src) && src.len > 1 &&
		    (((const u8 *)src.p)[0] & 1) &&
		    add_source(de->d_name, (const char *)src.p + 1,
			       src.len - 1)) {
			progs[nprogs - 1].cycles = 20000;
			n++;
		}
		vpmu_buf_free(&src);
	}
	closedir(dp);
	return n;
}

static void put32(u8 *p, u32 v)
{
	p[0] = v;
	p[1] = v >> 8;
	p[2] = v >> 16;
	p[3] = v >> 24;
}

/*
 * Random vpmu32 machine code (share/samples' instruction set): every
 * opcode with random registers and immediates, branches that may go back,
 * loads and stores that may hit the code itself.
 */
static void add_random_vpmu32(u32 seed, struct vpmu_ucode *uc,
			      const char *what)
{
	static const u8 ops[] = {
		0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0a,
		0x0b, 0x10, 0x11, 0x12, 0x13, 0x14, 0x18, 0x19, 0x1a, 0x20,
		0x21, 0x22, 0x23, 0x24, 0x25, 0x28, 0x29, 0x3e,
	};
	struct prog *p;
	char name[64];
	u32 i, n = 64 + pick(192);

	snprintf(name, sizeof(name), "random vpmu32%s %u", what, seed);
	p = new_prog(name);
	if (!p)
		return;
	p->uc = uc;
	p->mem_size = 0x2000;
	p->image = calloc(1, p->mem_size);
	for (i = 0; i < n; i++) {
		u32 op = ops[pick(sizeof(ops))], w;
		u32 rd = pick(8) ? 1 + pick(7) : 0, rs = pick(8);
		u32 imm = pick(2) ? pick(64) * 4 : (u32)(pick(24) - 12) * 4;

		if (op >= 0x20 && op <= 0x25)	/* branches: near, both ways */
			imm = (u32)((s32)pick(12) - 6) & 0xffff;
		if (op == 0x28)			/* jal: forward */
			w = op | rd << 6 | (1 + pick(6)) << 11;
		else
			w = op | rd << 6 | rs << 11 | (imm & 0xffff) << 16;
		put32(p->image + 4 * i, w);
	}
	put32(p->image + 4 * n, 0x3f);		/* halt */
	for (i = 0x1000; i < p->mem_size; i += 4)
		put32(p->image + i, rnd());
}

/*
 * Random RV32IM machine code, some of it storing into itself.  @ia16: on
 * 2-byte instruction boundaries too (rv32im.vus has IALIGN16, for RV32C):
 * the code now and then moves on by half a word ("j .+6" over two bytes),
 * so that loops run on 2-byte boundaries, and some branches and jumps go
 * to the middle of an instruction.
 */
static void add_random_rv32(u32 seed, bool ia16)
{
	static const u32 rops[][2] = {	/* funct7, funct3 of OP */
		{ 0, 0 }, { 0x20, 0 }, { 0, 1 }, { 0, 2 }, { 0, 3 }, { 0, 4 },
		{ 0, 5 }, { 0x20, 5 }, { 0, 6 }, { 0, 7 }, { 1, 0 }, { 1, 1 },
		{ 1, 2 }, { 1, 3 }, { 1, 4 }, { 1, 5 }, { 1, 6 }, { 1, 7 },
	};
	struct prog *p;
	char name[64];
	u32 i, at, n = 64 + pick(256), base = 0x400 + 4 * pick(0x100);

	snprintf(name, sizeof(name), "random rv32%s %u",
		 ia16 ? " ialign16" : "", seed);
	p = new_prog(name);
	if (!p)
		return;
	p->uc = uc_rv32;
	p->rv32 = true;
	p->mem_size = 0x4000;
	p->image = calloc(1, p->mem_size);
	/* x30 = the data (or the code itself), x5 = a counter */
	put32(p->image, 0x37 | 30 << 7 | (pick(4) ? 0x2000 : 0));
	put32(p->image + 4, 0x13 | 30 << 7 | 30 << 15 |
	      (pick(4) ? 0 : base) << 20);
	for (i = 2, at = 8; i < n; i++, at += 4) {
		u32 rd = 1 + pick(29), r1 = pick(32), r2 = pick(32), w;
		u32 f3 = pick(8), k = pick(10);
		s32 imm = (s32)pick(64) - 32;
		s32 off = 4 * ((s32)pick(16) - 8);
		u32 half = 0;

		if (ia16 && !pick(16)) {	/* j .+6, two bytes left */
			put32(p->image + at, 0x6f | 6 << 20);
			at += 6;
		}
		if (ia16 && !pick(8))		/* into an instruction */
			half = 2;

		switch (k) {
		case 0: case 1: case 2:
			w = 0x33 | rd << 7 | rops[pick(18)][1] << 12 |
			    r1 << 15 | r2 << 20 | rops[pick(18)][0] << 25;
			break;
		case 3: case 4:		/* OP-IMM, the shifts' funct7 right */
			if (f3 == 1 || f3 == 5)
				imm = pick(32) | (f3 == 5 && pick(2) ? 0x400 : 0);
			w = 0x13 | rd << 7 | f3 << 12 | r1 << 15 |
			    (u32)imm << 20;
			break;
		case 5:			/* loads from x30 */
			w = 0x03 | rd << 7 | (pick(5) ^ (pick(2) << 2)) << 12 |
			    30 << 15 | (u32)(4 * pick(64)) << 20;
			break;
		case 6:			/* stores to x30 */
			w = 0x23 | (pick(3)) << 12 | 30 << 15 | r2 << 20 |
			    (4 * pick(8)) << 7;
			break;
		case 7:			/* branches, near, both ways */
			w = 0x63 | (f3 == 2 || f3 == 3 ? 0 : f3) << 12 |
			    r1 << 15 | r2 << 20 |
			    ((u32)(off + half) & 0x1e) << 7 |
			    ((u32)off >> 11 & 1) << 7 |
			    ((u32)off >> 5 & 0x3f) << 25 |
			    ((u32)off >> 12 & 1) << 31;
			break;
		case 8:			/* lui, auipc */
			w = (pick(2) ? 0x37 : 0x17) | rd << 7 | rnd() << 12;
			break;
		default:		/* jal forward, or an ecall */
			w = pick(4) ? 0x6f | rd << 7 |
				      (4 * (1 + pick(4)) + half) << 20 : 0x73;
			break;
		}
		put32(p->image + at, w);
	}
	put32(p->image + at, 0x05d00893);	/* li a7, 93 */
	put32(p->image + at + 4, 0x73);		/* ecall: exit */
	for (i = 0x2000; i < p->mem_size; i += 4)
		put32(p->image + i, rnd());
}

/*
 * RV32IM machine code @code of @n words at 0, in @mem_size bytes; @ia16:
 * at 6 instead, on 2-byte boundaries, after a "j .+6" at 0.
 */
static struct prog *add_code_rv32(const char *name, const u32 *code,
				  unsigned int n, u32 mem_size, bool ia16)
{
	struct prog *p = new_prog(name);
	unsigned int i, at = ia16 ? 6 : 0;

	if (!p)
		return NULL;
	p->uc = uc_rv32;
	p->rv32 = true;
	p->mem_size = mem_size;
	p->image = calloc(1, p->mem_size);
	if (ia16)
		put32(p->image, 0x0060006f);	/* j .+6 */
	for (i = 0; i < n; i++)
		put32(p->image + at + 4 * i, code[i]);
	return p;
}

/* add_code_rv32() in 16 KiB, the upper 8 KiB data of a fixed pattern. */
static void add_data_rv32(const char *name, const u32 *code, unsigned int n,
			  bool ia16)
{
	struct prog *p = add_code_rv32(name, code, n, 0x4000, ia16);
	unsigned int i;

	for (i = 0x2000; p && i < p->mem_size; i += 4)
		put32(p->image + i, i * 2654435761u);
}

/*
 * RV32IM that misses the data cache on two loads of every pass (16-byte
 * lines, 64 of them: 0(t5) and 1024(t5) share a line's place and evict
 * each other), between ALU work: stalls inside blocks, at every distance
 * from a piece's end; and a mark, for the trigger set-ups.  @ia16: on
 * 2-byte boundaries (add_code_rv32()).
 */
static void add_misses_rv32(bool ia16)
{
	static const u32 code[] = {
		0x00002f37,	/* lui t5, 0x2 */
		0x00000293,	/* li t0, 0 */
		0x000f2303,	/* 1: lw t1, 0(t5) */
		0x00628293,	/* addi t0, t0, 6 */
		0x400f2383,	/* lw t2, 1024(t5) */
		0x00730333,	/* add t1, t1, t2 */
		0x0062c2b3,	/* xor t0, t0, t1 */
		0x010f0f13,	/* addi t5, t5, 16 */
		0x3f0f7413,	/* andi s0, t5, 1008 */
		0x00002e37,	/* lui t3, 0x2 */
		0x01c46f33,	/* or t5, s0, t3 */
		0xffce2483,	/* lw s1, -4(t3) */
		0x009282b3,	/* add t0, t0, s1 */
		0x0000000b,	/* mark: a trigger every pass */
		0xfd1ff06f,	/* j 1b */
	};
	add_data_rv32(ia16 ? "rv32 ialign16 cache misses" : "rv32 cache misses",
		      code, sizeof(code) / sizeof(code[0]), ia16);
}

/*
 * RV32IM loads and stores whose address moves by a byte a pass, in a hot
 * loop: aligned on some passes, misaligned on the others, so that the
 * translation's guarded dispatch (DISPG) leaves it for the microcode's
 * byte-by-byte path, at every offset, in every width.  @ia16: on 2-byte
 * boundaries (add_code_rv32()).
 */
static void add_misaligned_rv32(bool ia16)
{
	static const u32 code[] = {
		0x00002f37,	/* lui t5, 0x2 */
		0x00000293,	/* li t0, 0 */
		0x02800393,	/* li t2, 40 */
		0x0072f313,	/* 1: andi t1, t0, 7 */
		0x006f0e33,	/* add t3, t5, t1 */
		0x000e2483,	/* lw s1, 0(t3) */
		0x001e1903,	/* lh s2, 1(t3) */
		0x002e5983,	/* lhu s3, 2(t3) */
		0x00950533,	/* add a0, a0, s1 */
		0x01250533,	/* add a0, a0, s2 */
		0x01354533,	/* xor a0, a0, s3 */
		0x00ae2823,	/* sw a0, 16(t3) */
		0x029e10a3,	/* sh s1, 33(t3) */
		0x00128293,	/* addi t0, t0, 1 */
		0xfc72cae3,	/* blt t0, t2, 1b */
		0x05d00893,	/* li a7, 93 */
		0x00000073,	/* ecall: exit */
	};
	add_data_rv32(ia16 ? "rv32 ialign16 misaligned" : "rv32 misaligned",
		      code, sizeof(code) / sizeof(code[0]), ia16);
}

/*
 * RV32IM word loads, then word stores, walking in a hot loop to the end
 * of memory, where the first one outside it faults: in translated code, a
 * fused guard's access that fails its check with the dispatch's index 0
 * (vpmu_tc_exec(), GUARD()).
 */
static void add_off_the_end_rv32(void)
{
	static const u32 loads[] = {
		0x00003f37,	/* lui t5, 0x3 */
		0x000f2483,	/* 1: lw s1, 0(t5) */
		0x00950533,	/* add a0, a0, s1 */
		0x004f0f13,	/* addi t5, t5, 4 */
		0xff5ff06f,	/* j 1b */
	};
	static const u32 stores[] = {
		0x00003f37,	/* lui t5, 0x3 */
		0x00af2023,	/* 1: sw a0, 0(t5) */
		0x00350513,	/* addi a0, a0, 3 */
		0x004f0f13,	/* addi t5, t5, 4 */
		0xff5ff06f,	/* j 1b */
	};

	add_data_rv32("rv32 loads off the end", loads,
		      sizeof(loads) / sizeof(loads[0]), false);
	add_data_rv32("rv32 stores off the end", stores,
		      sizeof(stores) / sizeof(stores[0]), false);
}

/*
 * RV32IM byte loads and stores at every offset in a hot loop, under
 * load_lbdisp_ucode()'s microcode, whose lb dispatches on the address.
 */
static void add_lbdisp_rv32(void)
{
	static const u32 code[] = {
		0x00002f37,	/* lui t5, 0x2 */
		0x00000293,	/* li t0, 0 */
		0x02800393,	/* li t2, 40 */
		0x0032f313,	/* 1: andi t1, t0, 3 */
		0x006f0e33,	/* add t3, t5, t1 */
		0x000e0483,	/* lb s1, 0(t3) */
		0x001e4903,	/* lbu s2, 1(t3) */
		0x00ae0823,	/* sb a0, 16(t3) */
		0x00950533,	/* add a0, a0, s1 */
		0x01254533,	/* xor a0, a0, s2 */
		0x00128293,	/* addi t0, t0, 1 */
		0xfe72c0e3,	/* blt t0, t2, 1b */
		0x05d00893,	/* li a7, 93 */
		0x00000073,	/* ecall: exit */
	};
	struct prog *p = add_code_rv32("rv32 lb behind a dispatch", code,
				       sizeof(code) / sizeof(code[0]), 0x4000,
				       false);

	if (p)
		p->uc = uc_lbdisp;
}

/*
 * RV32 reading its counters in a hot loop: cycle, instret, time,
 * hpmcounter3 (the counter the counting set-ups program) and
 * hpmcounter4h, each into a register the loop folds into a0, and one
 * read into x0.  Each read's CTR microword ends its translation; the
 * values, read after an exact fold, must be the interpreter's.
 */
static void add_counters_rv32(void)
{
	static const u32 code[] = {
		0x00000293,	/* li t0, 0 */
		0x02800393,	/* li t2, 40 */
		0xc00024f3,	/* 1: rdcycle s1 */
		0x00950533,	/* add a0, a0, s1 */
		0xc0202973,	/* rdinstret s2 */
		0x01254533,	/* xor a0, a0, s2 */
		0xc03029f3,	/* csrr s3, hpmcounter3 */
		0x01350533,	/* add a0, a0, s3 */
		0xc8402a73,	/* csrr s4, hpmcounter4h */
		0x01450533,	/* add a0, a0, s4 */
		0xc0102af3,	/* rdtime s5 */
		0x409a85b3,	/* sub a1, s5, s1 */
		0xc0202073,	/* csrr x0, instret */
		0x00128293,	/* addi t0, t0, 1 */
		0xfc72c8e3,	/* blt t0, t2, 1b */
		0x05d00893,	/* li a7, 93 */
		0x00000073,	/* ecall: exit */
	};
	add_data_rv32("rv32 counter reads", code,
		      sizeof(code) / sizeof(code[0]), false);
}

/*
 * RV32IM that rewrites an instruction of its own hot loop once the loop
 * has been translated (the 13th of 40 passes): the superblock's next word
 * is no longer the one translated, and the translation must leave there.
 */
static void add_smc_rv32(void)
{
	static const u32 code[] = {
		0x00000293,	/* li t0, 0 */
		0x00000313,	/* li t1, 0 */
		0x02800393,	/* li t2, 40 */
		0x00d00413,	/* li s0, 13 */
		0x00000f17,	/* auipc t5, 0 */
		0x018f0f13,	/* addi t5, t5, 24: target */
		0x024f2483,	/* lw s1, 36(t5): patch */
		0x00128293,	/* loop: addi t0, t0, 1 */
		0x00129593,	/* slli a1, t0, 1 */
		0x00558633,	/* add a2, a1, t0 */
		0x00130313,	/* target: addi t1, t1, 1 */
		0x006646b3,	/* xor a3, a2, t1 */
		0x00568733,	/* add a4, a3, t0 */
		0x00829463,	/* bne t0, s0, skip */
		0x009f2023,	/* sw s1, 0(t5): target = patch */
		0xfe72c0e3,	/* skip: blt t0, t2, loop */
		0x05d00893,	/* li a7, 93 */
		0x00030513,	/* mv a0, t1: 13 + 27 * 100 */
		0x00000073,	/* ecall: exit */
		0x06430313,	/* patch: addi t1, t1, 100 */
	};
	add_code_rv32("rv32 rewriting its hot loop", code,
		      sizeof(code) / sizeof(code[0]), 0x1000, false);
}

/*
 * The same on 2-byte boundaries (VPMU_IMG_F_IALIGN16), where a word store
 * into the code would be misaligned: the patch is read and written as
 * two halfwords, so that for one instruction the loop's target is half
 * old, half new.
 */
static void add_smc16_rv32(void)
{
	static const u32 code[] = {
		0x00000293,	/* li t0, 0 */
		0x00000313,	/* li t1, 0 */
		0x02800393,	/* li t2, 40 */
		0x00d00413,	/* li s0, 13 */
		0x00000f17,	/* auipc t5, 0 */
		0x01cf0f13,	/* addi t5, t5, 28: target */
		0x028f5483,	/* lhu s1, 40(t5): patch */
		0x02af5903,	/* lhu s2, 42(t5) */
		0x00128293,	/* loop: addi t0, t0, 1 */
		0x00129593,	/* slli a1, t0, 1 */
		0x00558633,	/* add a2, a1, t0 */
		0x00130313,	/* target: addi t1, t1, 1 */
		0x006646b3,	/* xor a3, a2, t1 */
		0x00568733,	/* add a4, a3, t0 */
		0x00829663,	/* bne t0, s0, skip */
		0x009f1023,	/* sh s1, 0(t5): target = patch */
		0x012f1123,	/* sh s2, 2(t5) */
		0xfc72cee3,	/* skip: blt t0, t2, loop */
		0x05d00893,	/* li a7, 93 */
		0x00030513,	/* mv a0, t1: 13 + 27 * 100 */
		0x00000073,	/* ecall: exit */
		0x06430313,	/* patch: addi t1, t1, 100 */
	};
	add_code_rv32("rv32 ialign16 rewriting its hot loop", code,
		      sizeof(code) / sizeof(code[0]), 0x1000, true);
}

/*
 * RV32IM that rewrites an instruction of its hot loop on every pass, to
 * alternate between two: @before, just before it runs (a store into the
 * translation's own next word, which it must leave at), else just after
 * (into the word the next pass, entered afresh, must check).
 */
static void add_smc_pass_rv32(bool before)
{
	static const u32 head[] = {
		0x00000293,	/* li t0, 0 */
		0x00000313,	/* li t1, 0 */
		0x02800393,	/* li t2, 40 */
		0x00000f17,	/* auipc t5, 0 */
		0,		/* addi t5, t5, target - 12 */
		0,		/* lw s1, patch - target(t5) */
		0x000f2903,	/* lw s2, 0(t5) */
		0x00128293,	/* loop: addi t0, t0, 1 */
	}, pick[] = {
		0x0012f513,	/* andi a0, t0, 1 */
		0x40a005b3,	/* neg a1, a0 */
		0x0124c633,	/* xor a2, s1, s2 */
		0x00b67633,	/* and a2, a2, a1 */
		0x00c949b3,	/* xor s3, s2, a2: odd pass s1, even s2 */
		0x013f2023,	/* sw s3, 0(t5) */
	}, tail[] = {
		0x05d00893,	/* li a7, 93 */
		0x00030513,	/* mv a0, t1: 20 * 100 + 20 */
		0x00000073,	/* ecall: exit */
		0x06430313,	/* patch: addi t1, t1, 100 */
	};
	const u32 target = 0x00130313;	/* addi t1, t1, 1 */
	const u32 blt = 0xfe72c0e3;	/* blt t0, t2, loop */
	u32 code[32], n = 0, i, at;

	for (i = 0; i < 8; i++)
		code[n++] = head[i];
	if (!before)
		code[n++] = target;
	for (i = 0; i < 6; i++)
		code[n++] = pick[i];
	if (before)
		code[n++] = target;
	code[n++] = blt;
	for (i = 0; i < 4; i++)
		code[n++] = tail[i];
	at = before ? 0x38 : 0x20;	/* target */
	code[4] = 0x00000f13 | (at - 12) << 20 | 30 << 15;
	code[5] = 0x000f2483 | (0x4c - at) << 20;
	add_code_rv32(before ? "rv32 rewriting its next instruction each pass" :
		      "rv32 rewriting an instruction each pass, after it ran",
		      code, n, 0x1000, false);
}

/* xori x@r, x@r, @imm */
static u32 rv32_xori(u32 r, u32 imm)
{
	return imm << 20 | r << 15 | 4 << 12 | r << 7 | 0x13;
}

/*
 * RV32IM whose hot loop, 48 instructions, is three translations of 16
 * (VPMU_TC_INSNS) that end in EOIs to known pcs, linked in a ring: the
 * loop rewrites the first instruction of the second (the 150th of 200
 * passes), which no translation checks.  The link into it, chained in
 * an earlier code generation, must compare its word again.
 */
static void add_smc_link_rv32(void)
{
	static const u32 head[] = {
		0x00000293,	/* li t0, 0 */
		0x00000313,	/* li t1, 0 */
		0x0c800393,	/* li t2, 200 */
		0x09600413,	/* li s0, 150 */
		0x00000f17,	/* auipc t5, 0 */
		0x050f0f13,	/* addi t5, t5, 0x50: target */
		0x08cf2483,	/* lw s1, 0x8c(t5): patch */
		0x000f2903,	/* lw s2, 0(t5) */
		0x00128293,	/* loop: addi t0, t0, 1 */
	}, pick[] = {
		0x0082a533,	/* slt a0, t0, s0 */
		0x40a005b3,	/* neg a1, a0 */
		0x0124c633,	/* xor a2, s1, s2 */
		0x00b67633,	/* and a2, a2, a1 */
		0x00c4c9b3,	/* xor s3, s1, a2: before pass 150 s2 */
		0x013f2023,	/* sw s3, 0(t5) */
	}, tail[] = {
		0xf472c2e3,	/* blt t0, t2, loop */
		0x05d00893,	/* li a7, 93 */
		0x00030513,	/* mv a0, t1: 150 + 50 * 100 */
		0x00000073,	/* ecall: exit */
		0x06430313,	/* patch: addi t1, t1, 100 */
	};
	u32 code[64], n = 0, i;

	for (i = 0; i < 9; i++)
		code[n++] = head[i];
	for (i = 1; i <= 15; i++)
		code[n++] = rv32_xori(13, i);	/* a3 */
	code[n++] = 0x00130313;		/* target: addi t1, t1, 1 */
	for (i = 1; i <= 15; i++)
		code[n++] = rv32_xori(14, i);	/* a4 */
	for (i = 0; i < 6; i++)
		code[n++] = pick[i];
	for (i = 1; i <= 9; i++)
		code[n++] = rv32_xori(15, i);	/* a5 */
	for (i = 0; i < 5; i++)
		code[n++] = tail[i];
	add_code_rv32("rv32 rewriting the head of a linked translation",
		      code, n, 0x1000, false);
}

/*
 * RV32IM whose hot loop the caller rewrites between pieces (the memory a
 * run is given changed since the last): an instruction inside it and
 * another swapped each time.
 */
static void add_swapped_rv32(void)
{
	static const u32 code[] = {
		0x00000293,	/* li t0, 0 */
		0x00000313,	/* li t1, 0 */
		0x000043b7,	/* lui t2, 4: 16384 passes */
		0x00128293,	/* loop: addi t0, t0, 1 */
		0x00129593,	/* slli a1, t0, 1 */
		0x00130313,	/* target: addi t1, t1, 1 */
		0x0065c6b3,	/* xor a3, a1, t1 */
		0xfe72c8e3,	/* blt t0, t2, loop */
		0x05d00893,	/* li a7, 93 */
		0x00030513,	/* mv a0, t1 */
		0x00000073,	/* ecall: exit */
		0x06430313,	/* patch: addi t1, t1, 100 */
	};
	struct prog *p = add_code_rv32("rv32 rewritten by the caller between pieces",
				       code, sizeof(code) / sizeof(code[0]),
				       0x1000, false);

	if (p) {
		p->swap[0] = 0x14;
		p->swap[1] = 0x2c;
		p->cycles = 1000000;	/* many pieces: many swaps */
	}
}

/*
 * An engine running @p from a fresh copy of its memory (*@mem, the
 * caller's to free), deferring its translating as the module's does, and
 * yielding if @yield.
 */
static struct vpmu_engine *deferred_engine(const struct prog *p, bool yield,
					   u8 **mem)
{
	struct vpmu_engine *e =
		vpmu_engine_create(vpmu_ucode_header(p->uc)->cs_words);

	*mem = malloc(p->mem_size);
	if (!e || !*mem || vpmu_engine_attach(e, p->uc))
		abort();
	memcpy(*mem, p->image, p->mem_size);
	vpmu_engine_tc_defer(e, true);
	vpmu_engine_tc_yield(e, yield);
	vpmu_engine_start(e, *mem, p->mem_size, p->entry, p->mode);
	return e;
}

/*
 * Runs of @p in 64-cycle pieces, deferred and yielding as the module's:
 * after a yield the next run enters the block it yielded at, but not
 * after vpmu_engine_set_reg() (a translation may know the register's
 * value), even to the value it had.  1 if both were seen every time, -1
 * if not, 0 if @p never yields.
 */
static int yield_then_set_reg(const struct prog *p)
{
	u8 *mem;
	struct vpmu_engine *e = deferred_engine(p, true, &mem);
	unsigned int n, yields = 0, bad = 0;
	struct vpmu_tc_stats tc;
	struct vpmu_stop st;
	u64 before;

	for (n = 0; n < 20000; n++) {
		vpmu_engine_tc_stats(e, &tc);
		before = tc.yields_warm;
		vpmu_engine_run(e, 64, &st);
		if (st.reason != VPMU_STOP_BUDGET)
			break;
		vpmu_engine_tc_stats(e, &tc);
		/* (one that yielded for a warm instruction enters nothing) */
		if (st.cycles < 64 && tc.yields_warm == before) {
			/* yielded: every other time, a register set as it was */
			bool set = yields++ & 1;

			if (set)
				vpmu_engine_set_reg(e, VPMU_OPND_R0 + 1,
					vpmu_engine_reg(e, VPMU_OPND_R0 + 1));
			vpmu_engine_tc_stats(e, &tc);
			before = tc.resumed;
			vpmu_engine_run(e, 64, &st);
			vpmu_engine_tc_stats(e, &tc);
			bad += tc.resumed != before + !set;
			if (st.reason != VPMU_STOP_BUDGET)
				break;
		}
		vpmu_engine_tc_work(e, 2);
	}
	vpmu_engine_destroy(e);
	free(mem);
	return yields < 2 ? 0 : bad ? -1 : 1;
}

/*
 * Runs of @p in 64-cycle pieces, deferred as the module's but not
 * yielding: each uses its whole budget, even where it finds instructions
 * warm (vpmu_engine_tc_yield()).  False if one ended early.
 */
static bool defer_no_yield(const struct prog *p)
{
	u8 *mem;
	struct vpmu_engine *e = deferred_engine(p, false, &mem);
	struct vpmu_stop st;
	unsigned int n;
	bool ok = true;

	for (n = 0; n < 20000 && ok; n++) {
		vpmu_engine_run(e, 64, &st);
		if (st.reason != VPMU_STOP_BUDGET)
			break;
		ok = st.cycles >= 64;
		vpmu_engine_tc_work(e, 2);
	}
	vpmu_engine_destroy(e);
	free(mem);
	return ok;
}

/*
 * The memory an ELF file's PT_LOAD segments span (vpmu_elf_load() checked
 * them) and 64 KiB more, in pages: what its program is given here rather
 * than vpmu-run's megabyte.  The runs are compared in full after every
 * piece, and the samples and gen_rv32's programs use 20 KiB: comparing the
 * megabyte was two thirds of test_tc's time.  A store the cache sends
 * beyond it faults, where the interpreter's does not: caught the same.
 */
static u32 elf_span(const void *file)
{
	const Elf32_Ehdr *h = file;
	u32 end = 0, i;

	for (i = 0; i < h->e_phnum; i++) {
		Elf32_Phdr ph;

		memcpy(&ph, (const u8 *)file + h->e_phoff + i * sizeof(ph),
		       sizeof(ph));
		if (ph.p_type == PT_LOAD && ph.p_vaddr + ph.p_memsz > end)
			end = ph.p_vaddr + ph.p_memsz;
	}
	end = (end + 0xfff) & ~0xfffu;
	return end + 0x10000 < VPMU_ELF_MEM_DEFAULT ? end + 0x10000 :
						      VPMU_ELF_MEM_DEFAULT;
}

static void add_elf(const char *path)
{
	struct vpmu_buf file = { 0 }, d = { 0 };
	const char *base = strrchr(path, '/');
	struct prog *p = new_prog(base ? base + 1 : path);

	if (!p || vpmu_read_file(path, &file)) {
		fprintf(stderr, "test_tc: %s: cannot read\n", path);
		exit(2);
	}
	p->uc = uc_rv32;
	p->rv32 = true;
	p->mem_size = VPMU_ELF_MEM_DEFAULT;
	p->image = calloc(1, p->mem_size);
	if (vpmu_elf_load(file.p, file.len, p->image, p->mem_size, &p->entry,
			  &d)) {
		fprintf(stderr, "test_tc: %s: %s\n", path, d.p ? d.p : "");
		exit(2);
	}
	p->mem_size = elf_span(file.p);
	p->cycles = 400000;
	vpmu_buf_free(&file);
	vpmu_buf_free(&d);
}

/*
 * The driver's chunks (5000 cycles; 1000 where perf record -c 1000 cuts
 * them) at sampling periods of 5000, 1000, 100 and 1 cycles, two of them
 * in a pool too small for the program: every RV32 program.
 */
static const struct pace paces[] = {
	{ "5000-cycle chunks, counting", 5000, 0, false },
	{ "5000-cycle chunks, a sample every 5000 cycles", 5000, 5000, false },
	{ "5000-cycle chunks, a sample every 1000 cycles, a small pool",
	  5000, 1000, true },
	{ "1000-cycle chunks, counting, a small pool", 1000, 0, true },
	{ "1000-cycle chunks, a sample every 100 cycles", 1000, 100, false },
	{ "1000-cycle chunks, a sample every cycle, a small pool",
	  1000, 1, true },
	/* sampling events that occur on few microwords: chunks armed */
	{ "5000-cycle chunks, a sample every 1000 instructions",
	  5000, 1000, false, VPMU_EV_INSNS },
	{ "5000-cycle chunks, a sample every 3000 instructions and every 700 loads that hit, a small pool",
	  5000, 3000, true, VPMU_EV_INSNS, 700, VPMU_EV_DC_HIT },
	{ "1000-cycle chunks, a sample every 250 instructions and every 250 tag 1",
	  1000, 250, false, VPMU_EV_INSNS, 250, VPMU_EV_TAG(1) },
	/*
	 * instructions in a mode the program does not run in: the armed
	 * chunks' EOIs not the counter's (vpmu_arm_exact())
	 */
	{ "5000-cycle chunks, a sample every 1000 supervisor instructions",
	  5000, 1000, false, VPMU_EV_INSNS, .modes = VPMU_CTR_SUPER },
	/* an EOI the interpreter does not count (add_sys_vpmu32()) */
	{ "5000-cycle chunks, a sample every 100 instructions",
	  5000, 100, false, VPMU_EV_INSNS, .only = SYS_PROG },
	/*
	 * ...and the steps to each wrap in both modes, counting only the
	 * user's (vpmu_step_counts())
	 */
	{ "5000-cycle chunks, a sample every 100 user instructions",
	  5000, 100, false, VPMU_EV_INSNS, .only = SYS_PROG,
	  .modes = VPMU_CTR_USER },
};

#define NPACES	(sizeof(paces) / sizeof(paces[0]))

/* Does pace @pc run program @p? */
static bool pace_runs(const struct pace *pc, const struct prog *p)
{
	return pc->only ? !strcmp(p->name, pc->only) : p->rv32;
}

/* How many (program, pace) runs the first @k programs make. */
static unsigned int pace_runs_n(unsigned int k)
{
	unsigned int i, s, n = 0;

	for (i = 0; i < k; i++)
		for (s = 0; s < NPACES; s++)
			n += pace_runs(&paces[s], &progs[i]);
	return n;
}

/*
 * What pace @p's runs of every RV32 program added up to (@sum) must show
 * (of the one program it names, p->only: that it arms), the statistics
 * in a line of diagnostics: translated at every pace but
 * every cycle's (which steps: the interpreter's); where no sample cuts
 * them, runs yield at blocks and the next enters them; the small pools
 * evict; sampling an event other than cycles, chunks run armed to its
 * wrap, and the pool's blocks are not turned over to count and back for
 * every chunk a run's end cuts short (vpmu_arm_far(); a walk of the pool
 * each).  test_tc.sh's RV32 programs (the samples and gen_rv32's) turn
 * them 60 to 150 times in 1,555 to 7,669 armed chunks at these paces,
 * and without vpmu_arm_far() 255 times in the small pool's 5,780 (the
 * samples alone 237 there, and 304 in the 1000-cycle chunks' 7,206 where
 * they turn them 52): a few turns a run, and one in 48 armed chunks,
 * are the most.
 */
static bool pace_sum_ok(const struct pace *p, const struct vpmu_tc_stats *sum)
{
	tap_diag("%s: %llu translated, %llu resumed, %llu evicted, %llu armed, turned %llu",
		 p->name, (unsigned long long)sum->translated,
		 (unsigned long long)sum->resumed,
		 (unsigned long long)sum->evicted,
		 (unsigned long long)sum->armed,
		 (unsigned long long)sum->turned);
	if (p->only)	/* one program: that it arms */
		return sum->armed >= 100;
	return !((p->period != 1 && sum->translated < 100) ||
		 (!p->period && sum->resumed < 100) ||
		 (p->small_pool && p->period != 1 && sum->evicted < 10) ||
		 (p->event != VPMU_EV_CYCLES &&
		  (sum->armed < 100 ||
		   sum->turned > 64 + sum->armed / 48)));
}

static void pace_sum_add(struct vpmu_tc_stats *sum,
			 const struct vpmu_tc_stats *tc)
{
	sum->translated += tc->translated;
	sum->resumed += tc->resumed;
	sum->evicted += tc->evicted;
	sum->armed += tc->armed;
	sum->turned += tc->turned;
}

/* The first @k programs at the paces that run them; false to stop. */
static bool run_paces(unsigned int k)
{
	struct vpmu_tc_stats sum[NPACES] = { 0 };
	char why[256];
	unsigned int i, s, bad;

	for (i = 0; i < k; i++) {
		for (s = 0; s < NPACES; s++) {
			struct vpmu_tc_stats tc;
			bool ok;

			if (!pace_runs(&paces[s], &progs[i]))
				continue;
			ok = run_pair_paced(&progs[i], &pace_setup, 0,
					    &paces[s], &tc, why, sizeof(why));

			tap_ok(ok, "%s, %s%s%s", progs[i].name, paces[s].name,
			       ok ? "" : ": ", ok ? "" : why);
			if (!ok && first_fail)
				return false;
			pace_sum_add(&sum[s], &tc);
		}
	}
	for (s = 0, bad = 0; s < NPACES; s++)
		bad += !pace_sum_ok(&paces[s], &sum[s]);
	tap_ok(!bad, "as the driver runs them, the cache translates, yields and resumes, evicts, and arms");
	return true;
}

/*
 * One program on one setup, every seed: its TAP line.  False if it
 * differed.
 */
static bool run_pair_seeds(const struct prog *p, const struct setup *s,
			   unsigned int seeds)
{
	struct vpmu_tc_stats tc;
	unsigned int seed;
	char why[256];
	bool ok = true;

	for (seed = 0; ok && seed < seeds; seed++)
		ok = run_pair(p, s, seed, &tc, why, sizeof(why));
	tap_ok(ok, "%s, %s%s%s", p->name, s->name, ok ? "" : ": ",
	       ok ? "" : why);
	if (!ok)
		tap_diag("seed %u", seed - 1);
	return ok;
}

/* Does "@a, @b", a test's name, contain @text (-f)? */
static bool name_has(const char *a, const char *b, const char *text)
{
	size_t len = strlen(a) + strlen(b) + 3;
	char *name = malloc(len);
	bool match;

	if (!name)
		abort();
	snprintf(name, len, "%s, %s", a, b);
	match = strstr(name, text);
	free(name);
	return match;
}

/*
 * -f TEXT: the RV32 programs at the paces whose "PROGRAM, PACE" contains
 * TEXT (run_paces()), run first; and of a pace every program ran at, what
 * their runs added up to (pace_sum_ok()).  True if they all passed.
 * Counts them in *@n.
 */
static bool run_first_paces(const char *text, unsigned int k, bool run,
			    unsigned int *n)
{
	struct vpmu_tc_stats tc, sum[NPACES] = { 0 };
	unsigned int i, s, ran[NPACES] = { 0 }, all[NPACES] = { 0 };
	char why[256];
	bool ok = true, one;

	for (i = 0; i < k; i++) {
		for (s = 0; s < NPACES; s++) {
			if (!pace_runs(&paces[s], &progs[i]))
				continue;
			all[s]++;
			if (!name_has(progs[i].name, paces[s].name, text))
				continue;
			++*n;
			ran[s]++;
			if (!run)
				continue;
			one = run_pair_paced(&progs[i], &pace_setup, 0,
					     &paces[s], &tc, why,
					     sizeof(why));
			tap_ok(one, "%s, %s%s%s", progs[i].name,
			       paces[s].name, one ? "" : ": ",
			       one ? "" : why);
			if (!one && first_fail)
				return false;
			ok &= one;
			pace_sum_add(&sum[s], &tc);
		}
	}
	for (s = 0; s < NPACES; s++) {
		if (!ran[s] || ran[s] < all[s])
			continue;
		++*n;
		if (!run)
			continue;
		one = pace_sum_ok(&paces[s], &sum[s]);
		tap_ok(one, "%s: every program, as the driver runs them",
		       paces[s].name);
		if (!one && first_fail)
			return false;
		ok &= one;
	}
	return ok;
}

/*
 * -f TEXT: the pairs (program, setup) whose "PROGRAM, SETUP" contains
 * TEXT, and the paces run_first_paces() finds, run before the rest: a
 * planted fault (test_tc.sh) one of them catches ends the run with -x in
 * seconds, not after every test before it.  Returns how many there are,
 * run (@run) or only counted.
 */
static unsigned int run_first(const char *text, unsigned int k,
			      unsigned int seeds, bool run, bool *failed)
{
	unsigned int i, s, n = 0;

	if (text && !run_first_paces(text, k, run, &n))
		*failed = true;
	for (i = 0; text && i < k; i++) {
		for (s = 0; s < NSETUPS; s++) {
			if (!name_has(progs[i].name, setups[s].name, text))
				continue;
			n++;
			if (run && !run_pair_seeds(&progs[i], &setups[s],
						   seeds))
				*failed = true;
		}
	}
	return n;
}

int main(int argc, char **argv)
{
	unsigned int seeds = 3, i, s, k, ncorpus, npaced, nfirst;
	const char *first_text = NULL;
	bool paces_only = false, failed = false;
	char why[256];
	int a;

	for (a = 1; a < argc && argv[a][0] == '-'; a++) {
		if (!strcmp(argv[a], "-s") && a + 1 < argc)
			seeds = (unsigned int)atoi(argv[++a]);
		else if (!strcmp(argv[a], "-x"))
			first_fail = true;
		else if (!strcmp(argv[a], "-d"))
			paces_only = true;
		else if (!strcmp(argv[a], "-f") && a + 1 < argc)
			first_text = argv[++a];
		else
			return fprintf(stderr, "usage: test_tc [-s SEEDS] [-x] [-d] [-f TEXT] [ELF...]\n"), 2;
	}
	uc_default = load_ucode(UCODE_DIR "/default.vus", &img_default);
	uc_rv32 = load_ucode(SHARE "/ucode/rv32im.vus", NULL);
	uc_wqf = load_wqf_ucode();
	uc_lbdisp = load_lbdisp_ucode();
	add_dir(SHARE "/samples");
	add_dir(SHARE "/progs");
	for (i = 0; i < 24; i++) {
		rng = 1000 + i;
		add_random_vpmu32(i, uc_default, "");
		rng = 2000 + i;
		add_random_rv32(i, false);
	}
	for (i = 0; i < 8; i++) {
		rng = 3000 + i;
		add_random_rv32(i, true);
		rng = 4000 + i;
		add_random_vpmu32(i, uc_wqf, ", BR WQF");
	}
	add_misses_rv32(false);
	add_smc_rv32();
	add_misses_rv32(true);
	add_smc16_rv32();
	add_smc_pass_rv32(true);
	add_smc_pass_rv32(false);
	add_smc_link_rv32();
	add_swapped_rv32();
	add_misaligned_rv32(false);
	add_misaligned_rv32(true);
	add_off_the_end_rv32();
	add_lbdisp_rv32();
	add_counters_rv32();
	add_wqf_vpmu32();
	add_sys_vpmu32();
	for (; a < argc; a++)
		add_elf(argv[a]);
	k = nprogs;
	ncorpus = add_corpus();

	npaced = pace_runs_n(k);
	if (paces_only) {
		tap_plan(npaced + 1);
		run_paces(k);
		return tap_done();
	}
	nfirst = run_first(first_text, k, seeds, false, NULL);
	tap_plan(nfirst + 4 + (k * NSETUPS) + npaced + 1 + 1);
	run_first(first_text, k, seeds, true, &failed);
	if (failed && first_fail)
		return tap_done();
	{
		/*
		 * The cache is used at all, leaves the interpreter at times,
		 * and, in a small pool (seed 2), evicts
		 */
		struct vpmu_tc_stats tc, sum = { 0 };

		for (i = 0; i < k; i++) {
			run_pair(&progs[i], &setups[0], 2, &tc, why, sizeof(why));
			sum.translated += tc.translated;
			sum.exits += tc.exits;
			sum.links += tc.links;
			sum.evicted += tc.evicted;
			sum.flushes += tc.flushes;
		}
		tap_ok(sum.translated > 40 && sum.exits > 10 &&
		       sum.links > 10 && sum.evicted > 40,
		       "the cache translates, links, exits and evicts (%llu, %llu, %llu, %llu; %llu flushes)",
		       (unsigned long long)sum.translated,
		       (unsigned long long)sum.links,
		       (unsigned long long)sum.exits,
		       (unsigned long long)sum.evicted,
		       (unsigned long long)sum.flushes);
	}
	{
		/*
		 * Deferred (seed 1, a small pool), runs yield at blocks and
		 * the next enters them, but not after what changes the
		 * program between them (swapped code, evictions), and after
		 * an instruction they found warm; exact
		 */
		struct vpmu_tc_stats tc;
		u64 yields = 0, resumed = 0, warm = 0;
		unsigned int bad = 0;

		for (i = 0; i < k; i++) {
			if (!run_pair(&progs[i], &setups[0], 1, &tc, why,
				      sizeof(why)) && !bad++)
				tap_diag("%s: %s", progs[i].name, why);
			yields += tc.yields;
			resumed += tc.resumed;
			warm += tc.yields_warm;
		}
		tap_ok(!bad && resumed > 100 && yields > resumed && warm > 100,
		       "runs yield and the next enters the block (%llu of %llu), or after an instruction found warm (%llu), exactly",
		       (unsigned long long)resumed, (unsigned long long)yields,
		       (unsigned long long)warm);
		if (bad && first_fail)
			return tap_done();
		unsigned int seen = 0, first = k;
		int r;

		for (i = 0; i < k; i++) {
			r = yield_then_set_reg(&progs[i]);
			seen += r != 0;
			if (r < 0 && first == k)
				first = i;
		}
		tap_ok(seen > 10 && first == k,
		       "a register set where a run yielded: the next starts interpreting (%u programs%s%s)",
		       seen, first < k ? "; not " : "",
		       first < k ? progs[first].name : "");
		if (first < k && first_fail)
			return tap_done();
		for (i = 0, first = k; i < k && first == k; i++)
			if (!defer_no_yield(&progs[i]))
				first = i;
		tap_ok(first == k,
		       "deferred runs that do not yield use their whole budget%s%s",
		       first < k ? ": not " : "",
		       first < k ? progs[first].name : "");
		if (first < k && first_fail)
			return tap_done();
	}
	for (i = 0; i < k; i++) {
		for (s = 0; s < NSETUPS; s++) {
			if (!run_pair_seeds(&progs[i], &setups[s], seeds) &&
			    first_fail)
				return tap_done();
		}
	}
	if (!run_paces(k))
		return tap_done();
	{
		unsigned int bad = 0, first = 0;
		struct vpmu_tc_stats tc;

		for (i = k; i < nprogs; i++) {
			s = i % NSETUPS;
			if (!run_pair(&progs[i], &setups[s], i, &tc, why,
				      sizeof(why)) && !bad++) {
				first = i;
				tap_diag("%s, %s: %s", progs[i].name,
					 setups[s].name, why);
			}
		}
		tap_ok(!bad, "the fuzz corpus's %u programs, every setup in turn%s%s",
		       ncorpus, bad ? ": first " : "",
		       bad ? progs[first].name : "");
	}
	return tap_done();
}
