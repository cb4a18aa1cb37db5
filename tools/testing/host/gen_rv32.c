// SPDX-License-Identifier: GPL-2.0
/*
 * gen_rv32.c - random RV32IM programs for the differential test against
 * qemu-riscv32 (test_rv32.sh).
 *
 *   gen_rv32 [-c] [-a] [-m] SEED COUNT >prog.S
 *
 * -c: RV32IMC, for -march=rv32imc: every compressed instruction once and
 * a third of the random ones compressed (the assembler compresses some of
 * the others too); sp (x2) is the data buffer's address as well, and only
 * c.addi16sp pairs change it.
 *
 * -a: RV32A too (-march=rv32ima, with -c rv32imac): every AMO, lr.w and
 * sc.w once, then a quarter of the random instructions atomic: AMOs,
 * lr.w, sc.w, lr.w/sc.w pairs with instructions between them, and plain
 * stores, all at the first four words of the data buffer, so that
 * reservations meet stores of other values, of the same value, and other
 * addresses.
 *
 * -m: misaligned loads and stores: their offsets in the data buffer are
 * any byte's, not only multiples of their size; with -c the base
 * register of c.lw and c.sw, and sp around c.lwsp and c.swsp, are moved
 * off the word by 0..3 bytes.
 *
 * -z: Zicsr with Zicntr: every way of reading cycle, time, instret and
 * their high halves (csrrs and csrrc with x0, csrrsi and csrrci with 0),
 * then an eighth of the random instructions such reads.  qemu-riscv32
 * gives host clock ticks for all three, so a read's value does not stay
 * in the registers: two reads of a counter, the second no smaller than
 * the first (sltu gives 0), and both zeroed after.
 *
 * -Z: -z, and hpmcounter3..6 and their high halves read too, and every
 * value kept: for comparing the engine with itself (test_tc.sh), not
 * with qemu.
 *
 * Without -a, -m and -z the programs are the same as before those
 * options.
 *
 * The program (GNU assembler, for riscv64-unknown-elf-gcc -march=rv32im)
 * starts every register x1..x31 with an edge value (0, 1, -1, INT_MIN,
 * INT_MAX, 31, 32, ...), runs one of every RV32IM instruction and then
 * COUNT random ones with edge operands, writes its 256-byte data buffer
 * to stdout and exits (ecall at rv_exit_ecall) with a checksum of the
 * registers.  x30 holds the data buffer's address and is never written;
 * branches and jumps only go forward, so every program ends.  The same
 * SEED gives the same program on every host (a fixed generator).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t state;

static uint32_t rnd(void)
{
	/* xorshift64*, fixed so that every host generates the same */
	state ^= state >> 12;
	state ^= state << 25;
	state ^= state >> 27;
	return (uint32_t)((state * 2685821657736338717ull) >> 32);
}

static uint32_t pick(uint32_t n)
{
	return rnd() % n;
}

static const uint32_t edges[] = {
	0, 1, 2, 0xffffffff, 0x80000000, 0x7fffffff, 31, 32, 33, 0xfffffffe,
	0x80000001, 0xffff, 0x10000, 0xff, 0x8000, 0xffff8000,
};

#define NEDGES	(sizeof(edges) / sizeof(edges[0]))
#define BASE	30		/* the data buffer's address, never written */

static int rvc;		/* -c: compressed instructions too */
static int rva;		/* -a: atomics too */
static int rvm;		/* -m: misaligned loads and stores */
static int rvz;		/* -z: counter reads; 2: -Z */

/* A destination: any register but the base (and sp with -c), x0 now and then. */
static unsigned int rd(void)
{
	unsigned int r = pick(32);

	return r == BASE || (rvc && r == 2) ? 0 : r;
}

/* A nonzero destination, for the compressed forms that need one. */
static unsigned int rdnz(void)
{
	unsigned int r = rd();

	return r ? r : 1;
}

/* x8..x15: a compressed instruction's 3-bit register field. */
static unsigned int rc(void)
{
	return 8 + pick(8);
}

/* A signed 6-bit immediate, nonzero. */
static int imm6nz(void)
{
	int v = (int)pick(63) - 32;

	return v >= 0 ? v + 1 : v;
}

static unsigned int rs(void)
{
	return pick(32);
}

static int32_t imm12(void)
{
	static const int32_t e[] = { 0, 1, -1, 2047, -2048, 31, -32, 0x7ff };

	return pick(2) ? e[pick(8)] : (int32_t)(pick(4096)) - 2048;
}

/* An offset for an access of @sz bytes in the 256-byte data buffer. */
static unsigned int data_off(unsigned int sz)
{
	return rvm ? pick(257 - sz) : pick(256 / sz) * sz;
}

static const char *const rops[] = {
	"add", "sub", "sll", "slt", "sltu", "xor", "srl", "sra", "or", "and",
	"mul", "mulh", "mulhsu", "mulhu", "div", "divu", "rem", "remu",
};
static const char *const iops[] = {
	"addi", "slti", "sltiu", "xori", "ori", "andi",
};
static const char *const shops[] = { "slli", "srli", "srai" };
static const char *const lops[] = { "lb", "lh", "lw", "lbu", "lhu" };
static const int lsize[] = { 1, 2, 4, 1, 2 };
static const char *const sops[] = { "sb", "sh", "sw" };
static const char *const bops[] = { "beq", "bne", "blt", "bge", "bltu", "bgeu" };

#define N(a)	(sizeof(a) / sizeof((a)[0]))

static unsigned int label;

/* Kinds of instruction, each emitted once in order, then at random. */
enum { K_R, K_I, K_SH, K_LUI, K_AUIPC, K_LD, K_ST, K_BR, K_JAL, K_JALR,
       K_FENCE, K_EDGE, K_NR };

/* The compressed instructions (-c), which = one of them. */
enum { C_ADDI4SPN, C_LW, C_SW, C_NOP, C_ADDI, C_JAL, C_LI, C_ADDI16SP,
       C_LUI, C_SRLI, C_SRAI, C_ANDI, C_SUB, C_XOR, C_OR, C_AND, C_J,
       C_BEQZ, C_BNEZ, C_SLLI, C_LWSP, C_JR, C_MV, C_JALR, C_ADD, C_SWSP,
       C_NR };

static void emit(unsigned int kind, unsigned int which);

/* The atomics (-a), kind = one of them. */
enum { A_AMO, A_LR, A_SC, A_PAIR, A_STORE, A_NR };

static const char *const amops[] = {
	"amoswap.w", "amoadd.w", "amoxor.w", "amoand.w", "amoor.w",
	"amomin.w", "amomax.w", "amominu.w", "amomaxu.w",
};
#define NAMOPS	9

/* aq and rl, which order nothing in one hart, at random. */
static const char *aqrl(void)
{
	static const char *const s[] = { "", ".aq", ".rl", ".aqrl" };

	return s[pick(4)];
}

/* A register (not the base, nor sp with -c) at one of the first 4 words. */
static unsigned int a_addr(void)
{
	unsigned int t = 1 + pick(29);

	if (rvc && t == 2)
		t = 3;
	printf("\taddi x%u, x%u, %u\n", t, BASE, 4 * pick(4));
	return t;
}

static void emit_a(unsigned int kind, unsigned int which)
{
	unsigned int t = a_addr(), k, l;

	switch (kind) {
	case A_AMO:
		printf("\t%s%s x%u, x%u, (x%u)\n", amops[which % NAMOPS],
		       aqrl(), rd(), rs(), t);
		break;
	case A_LR:
		printf("\tlr.w%s x%u, (x%u)\n", aqrl(), rd(), t);
		break;
	case A_SC:
		printf("\tsc.w%s x%u, x%u, (x%u)\n", aqrl(), rd(), rs(), t);
		break;
	case A_PAIR:
		/*
		 * Between them: instructions (t may be overwritten: the sc.w
		 * then fails), a store of another value, or of the value
		 * loaded (l, unless it overwrote the address).
		 */
		l = rd();
		printf("\tlr.w%s x%u, (x%u)\n", aqrl(), l, t);
		k = l == t ? 0 : pick(3);
		if (k == 1)
			printf("\tsw x%u, 0(x%u)\n", rs(), t);
		else if (k == 2)
			printf("\tsw x%u, 0(x%u)\n", l, t);
		for (k = pick(3); k; k--)
			emit(K_R, pick(18));
		printf("\tsc.w%s x%u, x%u, (x%u)\n", aqrl(), rd(), rs(), t);
		break;
	case A_STORE:
		printf("\tsw x%u, 0(x%u)\n", rs(), t);
		break;
	}
}

static const char *const zcsrs[] = {
	"cycle", "time", "instret", "cycleh", "timeh", "instreth",
	"hpmcounter3", "hpmcounter4", "hpmcounter5", "hpmcounter6",
	"hpmcounter3h", "hpmcounter4h",
};
#define NZCSRS	(rvz == 2 ? 12 : 6)

/* One read of counter CSR @csr into x@r, in form @form of four. */
static void z_read(unsigned int form, unsigned int r, const char *csr)
{
	static const char *const f[] = {
		"csrrs x%u, %s, x0", "csrrc x%u, %s, x0", "csrrsi x%u, %s, 0",
		"csrrci x%u, %s, 0",
	};

	putchar('\t');
	printf(f[form % 4], r, csr);
	putchar('\n');
}

/* Two reads of counter @which, compared, then zeroed (see -z). */
static void emit_z(unsigned int which)
{
	const char *csr = zcsrs[which % NZCSRS];
	unsigned int a = rdnz(), b = rdnz();

	if (b == a)
		b = a == 1 ? 3 : 1;
	z_read(which / NZCSRS, a, csr);
	if (!pick(4))
		z_read(pick(4), 0, csr);
	z_read(pick(4), b, csr);
	printf("\tsltu x%u, x%u, x%u\n", rd(), b, a);
	if (rvz == 1)
		printf("\tandi x%u, x%u, 0\n\tandi x%u, x%u, 0\n", a, a, b,
		       b);
}

static void emit_c(unsigned int which)
{
	static const char *const ca[] = { "c.sub", "c.xor", "c.or", "c.and" };
	unsigned int l, b, t;
	int v;

	switch (which) {
	case C_ADDI4SPN:
		printf("\tc.addi4spn x%u, sp, %u\n", rc(), 4 * (1 + pick(255)));
		break;
	case C_LW:
	case C_SW:
		/* a base register at the data, then a word of it */
		b = rc();
		if (rvm)
			printf("\taddi x%u, x%u, %u\n", b, BASE, pick(4));
		else
			printf("\tc.mv x%u, x%u\n", b, BASE);
		printf("\t%s x%u, %u(x%u)\n", which == C_LW ? "c.lw" : "c.sw",
		       rc(), 4 * pick(32), b);
		break;
	case C_NOP:
		printf("\tc.nop\n");
		break;
	case C_ADDI:
		printf("\tc.addi x%u, %d\n", rdnz(), imm6nz());
		break;
	case C_LI:
		printf("\tc.li x%u, %d\n", rdnz(), (int)pick(64) - 32);
		break;
	case C_ADDI16SP:
		/* sp moves and comes back: it stays the data's address */
		v = 16 * imm6nz();
		if (v == -512)		/* -v must fit too */
			v = -496;
		printf("\tc.addi16sp sp, %d\n", v);
		emit(K_R, pick(18));
		printf("\tc.addi16sp sp, %d\n", -v);
		break;
	case C_LUI:
		v = imm6nz();
		printf("\tc.lui x%u, 0x%x\n", rdnz(), v & 0xfffff);
		break;
	case C_SRLI:
	case C_SRAI:
		printf("\t%s x%u, %u\n", which == C_SRLI ? "c.srli" : "c.srai",
		       rc(), 1 + pick(31));
		break;
	case C_ANDI:
		printf("\tc.andi x%u, %d\n", rc(), (int)pick(64) - 32);
		break;
	case C_SUB:
	case C_XOR:
	case C_OR:
	case C_AND:
		printf("\t%s x%u, x%u\n", ca[which - C_SUB], rc(), rc());
		break;
	case C_J:
	case C_JAL:
		l = label++;
		printf("\t%s .L%u\n", which == C_J ? "c.j" : "c.jal", l);
		emit(K_I, pick(6));
		printf(".L%u:\n", l);
		break;
	case C_BEQZ:
	case C_BNEZ:
		l = label++;
		printf("\t%s x%u, .L%u\n", which == C_BEQZ ? "c.beqz" : "c.bnez",
		       rc(), l);
		for (t = pick(3); t; t--)
			emit_c(C_ADD);
		printf(".L%u:\n", l);
		break;
	case C_SLLI:
		printf("\tc.slli x%u, %u\n", rdnz(), 1 + pick(31));
		break;
	case C_LWSP:
	case C_SWSP:
		/* -m: sp off the word, and the word still in the buffer */
		t = rvm ? pick(4) : 0;
		if (t)
			printf("\taddi sp, sp, %u\n", t);
		l = 4 * pick(rvm ? 63 : 64);
		if (which == C_LWSP)
			printf("\tc.lwsp x%u, %u(sp)\n", rdnz(), l);
		else
			printf("\tc.swsp x%u, %u(sp)\n", rs(), l);
		if (t)
			printf("\taddi sp, sp, -%u\n", t);
		break;
	case C_JR:
	case C_JALR:
		/* to a label over one instruction */
		l = label++;
		t = rdnz();
		printf("\tla x%u, .L%u\n\t%s x%u\n", t, l,
		       which == C_JR ? "c.jr" : "c.jalr", t);
		emit(K_I, pick(6));
		printf(".L%u:\n", l);
		break;
	case C_MV:
		printf("\tc.mv x%u, x%u\n", rdnz(), 1 + pick(31));
		break;
	case C_ADD:
		printf("\tc.add x%u, x%u\n", rdnz(), 1 + pick(31));
		break;
	}
}

static void emit(unsigned int kind, unsigned int which)
{
	unsigned int sz, l;

	switch (kind) {
	case K_R:
		printf("\t%s x%u, x%u, x%u\n", rops[which % N(rops)], rd(), rs(),
		       rs());
		break;
	case K_I:
		printf("\t%s x%u, x%u, %d\n", iops[which % N(iops)], rd(), rs(),
		       imm12());
		break;
	case K_SH:
		printf("\t%s x%u, x%u, %u\n", shops[which % N(shops)], rd(), rs(),
		       pick(2) ? 31 * pick(2) : pick(32));
		break;
	case K_LUI:
		printf("\tlui x%u, 0x%x\n", rd(), pick(2) ? 0xfffff * pick(2) :
		       pick(0x100000));
		break;
	case K_AUIPC:
		printf("\tauipc x%u, 0x%x\n", rd(), pick(0x100000));
		break;
	case K_LD:
		which %= N(lops);
		sz = lsize[which];
		printf("\t%s x%u, %u(x%u)\n", lops[which], rd(), data_off(sz),
		       BASE);
		break;
	case K_ST:
		which %= N(sops);
		sz = 1u << which;
		printf("\t%s x%u, %u(x%u)\n", sops[which], rs(), data_off(sz),
		       BASE);
		break;
	case K_BR:
		/* forward over 0..2 instructions */
		l = label++;
		printf("\t%s x%u, x%u, .L%u\n", bops[which % N(bops)], rs(), rs(),
		       l);
		for (sz = pick(3); sz; sz--)
			emit(K_R, pick(N(rops)));
		printf(".L%u:\n", l);
		break;
	case K_JAL:
		l = label++;
		printf("\tjal x%u, .L%u\n", rd(), l);
		emit(K_I, pick(N(iops)));
		printf(".L%u:\n", l);
		break;
	case K_JALR: {
		/* auipc t, 0 ; jalr rd, 12 or 13(t) ; (skipped) */
		unsigned int t = 1 + pick(29);

		if (rvc && t == 2)	/* sp stays the data's address */
			t = 3;

		/* the offsets count 4-byte instructions: none compressed */
		if (rvc)
			printf("\t.option push\n\t.option norvc\n");
		printf("\tauipc x%u, 0\n\tjalr x%u, %u(x%u)\n", t, rd(),
		       12 + pick(2), t);
		emit(K_I, pick(N(iops)));
		if (rvc)
			printf("\t.option pop\n");
		break;
	}
	case K_FENCE:
		printf("\tfence\n");
		break;
	case K_EDGE:
		printf("\tli x%u, %d\n", rd(), (int32_t)edges[pick(NEDGES)]);
		break;
	}
}

int main(int argc, char **argv)
{
	unsigned int i, k, count;

	while (argc > 1 && (!strcmp(argv[1], "-c") || !strcmp(argv[1], "-a") ||
			    !strcmp(argv[1], "-m") || !strcmp(argv[1], "-z") ||
			    !strcmp(argv[1], "-Z"))) {
		if (argv[1][1] == 'c')
			rvc = 1;
		else if (argv[1][1] == 'a')
			rva = 1;
		else if (argv[1][1] == 'z')
			rvz = 1;
		else if (argv[1][1] == 'Z')
			rvz = 2;
		else
			rvm = 1;
		argv++;
		argc--;
	}
	if (argc != 3) {
		fprintf(stderr, "usage: gen_rv32 [-c] [-a] [-m] [-z|-Z] SEED COUNT\n");
		return 2;
	}
	state = strtoull(argv[1], NULL, 0) * 0x9e3779b97f4a7c15ull + 1;
	count = strtoul(argv[2], NULL, 0);
	printf("# gen_rv32%s%s%s%s %s %s\n\t.text\n\t.globl _start\n_start:\n",
	       rvc ? " -c" : "", rva ? " -a" : "", rvm ? " -m" : "",
	       rvz == 2 ? " -Z" : rvz ? " -z" : "", argv[1], argv[2]);
	for (i = 1; i < 32; i++)
		if (i != BASE)
			printf("\tli x%u, %d\n", i, (int32_t)(i < NEDGES + 1 ?
			       edges[i - 1] : edges[pick(NEDGES)]));
	printf("\tla x%u, data\n", BASE);
	if (rvc) {
		printf("\tmv sp, x%u\n", BASE);
		for (i = 0; i < C_NR; i++)
			emit_c(i);
	}
	/* one of each instruction */
	for (i = 0; i < N(rops); i++)
		emit(K_R, i);
	for (i = 0; i < N(iops); i++)
		emit(K_I, i);
	for (i = 0; i < N(shops); i++)
		emit(K_SH, i);
	for (i = 0; i < N(lops); i++)
		emit(K_LD, i);
	for (i = 0; i < N(sops); i++)
		emit(K_ST, i);
	for (i = 0; i < N(bops); i++)
		emit(K_BR, i);
	for (k = K_LUI; k < K_NR; k++)
		if (k != K_LD && k != K_ST && k != K_BR)
			emit(k, 0);
	for (i = 0; rva && i < NAMOPS; i++)
		emit_a(A_AMO, i);
	for (k = A_LR; rva && k < A_NR; k++)
		emit_a(k, 0);
	for (i = 0; rvz && i < 4 * NZCSRS; i++)
		emit_z(i);
	for (i = 0; i < count; i++) {
		if (rvz && !pick(8)) {
			emit_z(pick(4 * NZCSRS));
			continue;
		}
		if (rvc && !pick(3)) {
			emit_c(pick(C_NR));
			continue;
		}
		if (rva && !pick(4)) {
			emit_a(pick(A_NR), pick(64));
			continue;
		}
		k = pick(K_NR + 4);
		emit(k < K_NR ? k : K_R, pick(64));
	}
	/* the checksum of every register into a0, the buffer out, exit */
	printf("\tmv x29, x0\n");
	for (i = 1; i < 32; i++)
		if (i != 29)
			printf("\txor x29, x29, x%u\n", i);
	printf("\tli a7, 64\n\tli a0, 1\n\tmv a1, x%u\n\tli a2, 256\n\tecall\n"
	       "\tandi a0, x29, 0x7f\n\tli a7, 93\n"
	       "\t.globl rv_exit_ecall\nrv_exit_ecall:\n\tecall\n", BASE);
	printf("\t.data\n\t.balign 4\ndata:\n");
	for (i = 0; i < 64; i++)
		printf("\t.word 0x%08x\n", pick(4) ? rnd() : edges[pick(NEDGES)]);
	return 0;
}
