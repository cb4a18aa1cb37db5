// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu_gdb.c - vpmu-sim --gdb: the GDB remote serial protocol for an RV32
 * ELF program or a vpmu program file on the host engine (vpmu_gdb.h):
 * what each packet asks; the connection and the packets' framing are
 * vpmu_gdb_net.c's.
 *
 * The packets served: qSupported, qXfer:features:read (the target
 * description: org.gnu.gdb.riscv.cpu, x0..x31 and pc; and, if the image
 * has a CTR microword, org.gnu.gdb.riscv.csr: the counter CSRs it reads,
 * read only), ?, g, G, p, P (x0..x31; pc read only: the next
 * instruction is already fetched), m,
 * M, Z0/z0 and Z1/z1 (breakpoints), Z2/z2 (write watchpoints: the
 * stores of the instruction set, not the system calls' writes),
 * s, c, vCont, D, k, Ctrl-C (0x03) during a continue, and qRcmd (monitor
 * commands: the microcode beneath, vpmu_gdb_mon.c; ustep is here).
 * Anything else gets the empty reply (not supported).
 *
 * A micro-PC breakpoint or a ustep stops the program inside an
 * instruction: pc then stays the instruction's (the one at the last
 * instruction boundary), whatever the microcode did to it so far.
 *
 * A vpmu program file (vpmu32) gets the same packets.  gdb knows no
 * vpmu32, and takes no target description whose architecture it does not
 * know; r0..r31 and pc have the shape of RV32's x0..x31 and pc, so the
 * description is riscv:rv32's, under RISC-V's names (r1 and r2, the link
 * register and stack pointer by vpmu32's convention, are ra and sp there
 * too), and a feature of its own, org.vpmu.vpmu32, adds the engine's
 * registers (eng_regs[]).  gdb's disassembler is RISC-V's: monitor dis
 * disassembles the program under the image's own declarations.  Write
 * watchpoints are served when the image is of the vpmu32 family (named
 * "vpmu32" or "vpmu32-...", as share/build/max.vus's "vpmu32-max": the
 * same instruction set), whose stores are decoded; under another image
 * Z2 gets the empty reply, and gdb, which takes the remote's hardware
 * watchpoints as there, fails to insert them on every resume unless told
 * "set can-use-hw-watchpoints 0" before "watch" (it then watches by
 * single steps itself).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "vpmu_cli.h"
#include "vpmu_dis.h"
#include "vpmu_engine.h"
#include "vpmu_gdb.h"
#include "vpmu_gdb_mon.h"

#define GDB_NBP		64	/* breakpoints */
#define GDB_NWP		8	/* write watchpoints */
#define GDB_CHUNK	BIT(22)	/* cycles between Ctrl-C polls */
#define GDB_POLL_INSNS	4096	/* stepped instructions between polls */

/*
 * Register numbers as gdb numbers RISC-V's: x0..x31, pc, and each CSR at
 * GDB_REG_CSR + its number.  The counter CSRs are cycle, time, instret,
 * hpmcounter3..31 (GDB_CSR_CTR + 0..31) and their high halves (+ 0x80):
 * the layout of CTR's selector (vpmu_isa.h).
 */
#define GDB_REG_PC	32
#define GDB_REG_CSR	65
#define GDB_CSR_CTR	0xc00

/*
 * A program file's engine registers (org.vpmu.vpmu32) from gdb's number
 * GDB_REG_ENG on, where RISC-V's FP registers would be: this target has
 * none.  None is named as a RISC-V register is (t0..t6 and s1 are x
 * registers' names there, so the micro temporaries are ut0..ut7 and the
 * register-select latches latch_*).  Only the micro temporaries can be
 * written (vpmu_engine_set_reg()); mode and upc are no operands.
 */
#define GDB_REG_ENG	33
#define ENG_MODE	64	/* past the operand codes */
#define ENG_UPC		65

static const struct {
	const char *name;
	unsigned int opnd;	/* VPMU_OPND_*, ENG_MODE, ENG_UPC */
} eng_regs[] = {
	{ "ir", VPMU_OPND_IR },
	{ "ipc", VPMU_OPND_IPC },
	{ "flags", VPMU_OPND_FLAGS },
	{ "mode", ENG_MODE },
	{ "upc", ENG_UPC },
	{ "latch_ds", VPMU_OPND_DS },
	{ "latch_s1", VPMU_OPND_S1 },
	{ "latch_s2", VPMU_OPND_S2 },
	{ "ut0", VPMU_OPND_T0 },
	{ "ut1", VPMU_OPND_T0 + 1 },
	{ "ut2", VPMU_OPND_T0 + 2 },
	{ "ut3", VPMU_OPND_T0 + 3 },
	{ "ut4", VPMU_OPND_T0 + 4 },
	{ "ut5", VPMU_OPND_T0 + 5 },
	{ "ut6", VPMU_OPND_T0 + 6 },
	{ "ut7", VPMU_OPND_T0 + 7 },
};

/* vpmu32's stores (Documentation/vpmu/toolchain.rst, "Encoding") */
#define V32_OP_SB	0x18
#define V32_OP_SW	0x1a

/* Signals in stop replies, as gdb numbers them. */
#define GDB_SIGINT	2
#define GDB_SIGILL	4
#define GDB_SIGTRAP	5
#define GDB_SIGSEGV	11
#define GDB_SIGXCPU	24

struct gdb_wp {
	uint32_t addr, len;
};

struct gdb {
	const struct vpmu_gdb_target *t;
	struct vpmu_elf_end *end;
	struct vpmu_gdb_conn c;		/* gdb's connection */
	uint64_t left;			/* cycles of the budget left */
	bool dead;			/* stopped for good: the next resume ends */
	uint32_t bp[GDB_NBP];
	unsigned int nbp;
	struct gdb_wp wp[GDB_NWP];
	unsigned int nwp;
	uint32_t hit_wp;		/* the watchpoint that stopped it */
	bool at_wp;			/* stopped by one, its store not run */
	u64 wp_insns;			/* VPMU_EV_INSNS at that stop */
	struct vpmu_gdb_mon mon;	/* micro-PC breakpoints, the image */
	u64 insns;			/* VPMU_EV_INSNS at the last cycle */
	uint32_t bpc;			/* pc at the last boundary */
	bool mid;			/* stopped inside an instruction */
	bool fresh;			/* the microword at upc not begun */
	bool at_ubp;			/* stopped by a micro-PC breakpoint */
	bool csrs;			/* the image reads counter CSRs (CTR) */
	bool vpmu32;			/* a program file under vpmu32's ISA */
	int pending;			/* a ustep's end, for the next resume */
};

/* How a resume ended (gdb_insn(), gdb_resume()); RES_UBP: a micro-PC one */
enum { RES_STEP, RES_EXIT, RES_DEAD, RES_BP, RES_WP, RES_INTR, RES_UBP };

/* A 32-bit register value as gdb has it: little-endian bytes in hex. */
static char *reg_hex(char *p, uint32_t v)
{
	uint8_t b[4] = { v, v >> 8, v >> 16, v >> 24 };

	return vpmu_gdb_tohex(p, b, 4);
}

static uint32_t le32(const uint8_t *b)
{
	return b[0] | b[1] << 8 | b[2] << 16 | (uint32_t)b[3] << 24;
}

/*
 * A 32-bit number in hex at @s, 1 to 8 digits: the pointer after it, or
 * NULL.  strtoul() alone took a sign, blanks and any number of digits,
 * and its unsigned long went into 32 bits: m100000000,4 read address 0.
 */
static const char *hex_u32(const char *s, uint32_t *v)
{
	size_t n = strspn(s, "0123456789abcdefABCDEF");

	if (!n || n > 8)
		return NULL;
	*v = strtoul(s, NULL, 16);
	return s + n;
}

/* "ADDR,LEN" at @s: the pointer after them, or NULL if malformed. */
static const char *addr_len(const char *s, uint32_t *addr, uint32_t *len)
{
	s = hex_u32(s, addr);
	if (!s || *s != ',')
		return NULL;
	return hex_u32(s + 1, len);
}

/* ---- registers and memory --------------------------------------------------- */

/*
 * The counter CSR @csr as the program would read it here (CTR's value,
 * vpmu_isa.h): cycle and time the cycles run, instret the instructions
 * retired, hpmcounterN the PMU's counter N - 3 (0 past them).
 */
static uint32_t gdb_csr(const struct gdb *g, unsigned int csr)
{
	struct vpmu_engine *e = g->t->e;
	unsigned int sel = csr & VPMU_CTR_SEL_MASK;
	uint64_t v = 0;

	if (sel == VPMU_CTR_SEL_CYCLES || sel == VPMU_CTR_SEL_TIME)
		v = vpmu_engine_event_total(e, VPMU_EV_CYCLES);
	else if (sel == VPMU_CTR_SEL_INSNS)
		v = g->insns;
	else if (sel - VPMU_CTR_SEL_PMU < VPMU_NR_COUNTERS_MAX)
		v = vpmu_engine_ctr_read(e, sel - VPMU_CTR_SEL_PMU);
	return csr & VPMU_CTR_SEL_HIGH ? v >> 32 : (uint32_t)v;
}

/* The engine register eng_regs[@k] of a program file. */
static uint32_t gdb_eng_reg(const struct gdb *g, unsigned int k)
{
	unsigned int opnd = eng_regs[k].opnd;

	if (opnd == ENG_MODE)
		return vpmu_engine_mode(g->t->e);
	if (opnd == ENG_UPC)
		return vpmu_engine_upc(g->t->e);
	return vpmu_engine_reg(g->t->e, opnd);
}

/*
 * Is @i a register of the target description: x0..x31, pc, a CSR, a
 * program file's engine register?
 */
static bool gdb_has_reg(const struct gdb *g, unsigned long i)
{
	unsigned long csr = i - GDB_REG_CSR - GDB_CSR_CTR;

	if (g->t->prog && i >= GDB_REG_ENG)
		return i - GDB_REG_ENG < ARRAY_SIZE(eng_regs);
	return i <= GDB_REG_PC || (i >= GDB_REG_CSR + GDB_CSR_CTR && g->csrs &&
				   (csr & ~(unsigned long)VPMU_CTR_SEL_HIGH) <=
				   VPMU_CTR_SEL_MASK);
}

static uint32_t gdb_reg(const struct gdb *g, unsigned int i)
{
	if (i > GDB_REG_PC && g->t->prog)
		return gdb_eng_reg(g, i - GDB_REG_ENG);
	if (i > GDB_REG_PC)
		return gdb_csr(g, i - GDB_REG_CSR - GDB_CSR_CTR);
	if (i == GDB_REG_PC && g->mid)
		return g->bpc;
	return vpmu_engine_reg(g->t->e, i < 32 ? VPMU_OPND_R0 + i :
			       VPMU_OPND_PC);
}

/*
 * Write x@i (pc: only its own value, as G sends it), or a program file's
 * micro temporary; false if the engine cannot (pc: the next instruction
 * is fetched already; the counter CSRs, read only as the image makes
 * them; the engine's other registers).
 */
static bool gdb_set_reg(struct gdb *g, unsigned int i, uint32_t v)
{
	unsigned int opnd;

	if (i == GDB_REG_PC)
		return v == gdb_reg(g, GDB_REG_PC);
	if (i < 32)
		return !vpmu_engine_set_reg(g->t->e, VPMU_OPND_R0 + i, v);
	if (!g->t->prog || !gdb_has_reg(g, i))
		return false;
	opnd = eng_regs[i - GDB_REG_ENG].opnd;
	return opnd >= VPMU_OPND_T0 && opnd < VPMU_OPND_T0 + 8 &&
	       !vpmu_engine_set_reg(g->t->e, opnd, v);
}

static void cmd_regs(struct gdb *g, char *out)
{
	unsigned int i;
	char *p = out;

	for (i = 0; i <= 32; i++)
		p = reg_hex(p, gdb_reg(g, i));
}

static const char *cmd_set_regs(struct gdb *g, const char *s)
{
	uint8_t b[33 * 4];
	unsigned int i;

	if (strlen(s) < 2 * sizeof(b) || !vpmu_gdb_unhex(s, b, sizeof(b)))
		return "E01";
	for (i = 1; i <= 32; i++)
		if (!gdb_set_reg(g, i, le32(b + 4 * i)))
			return "E01";
	return "OK";
}

/*
 * The register number in hex at @s (hex_u32()), up to @stop: *@i and
 * the end, or NULL if it is none of the target description's registers.
 * strtoul() alone took a sign, blanks, 0x and any number of digits, and
 * gdb_reg() and gdb_set_reg() an unsigned int: P100000005 wrote x5.
 */
static const char *reg_num(const struct gdb *g, const char *s, char stop,
			   unsigned int *i)
{
	uint32_t r;

	s = hex_u32(s, &r);
	if (!s || *s != stop || !gdb_has_reg(g, r))
		return NULL;
	*i = r;
	return s;
}

static const char *cmd_reg(struct gdb *g, const char *s, char *out)
{
	unsigned int i;

	if (!reg_num(g, s, 0, &i))
		return "E01";
	reg_hex(out, gdb_reg(g, i));
	return out;
}

/* "N=VALUE": VALUE the 4 bytes, in hex, as gdb sends a 32-bit register. */
static const char *cmd_set_reg(struct gdb *g, const char *s)
{
	unsigned int i;
	uint8_t b[4];

	s = reg_num(g, s, '=', &i);
	if (!s || strlen(s + 1) != 2 * sizeof(b) ||
	    !vpmu_gdb_unhex(s + 1, b, sizeof(b)) || !gdb_set_reg(g, i, le32(b)))
		return "E01";
	return "OK";
}

static bool in_mem(const struct gdb *g, uint32_t addr, uint32_t len)
{
	return addr <= g->t->mem_size && len <= g->t->mem_size - addr;
}

static const char *cmd_mem(struct gdb *g, const char *s, char *out)
{
	uint32_t addr, len;

	if (!addr_len(s, &addr, &len) || len > VPMU_GDB_PKT_MAX)
		return "E01";
	if (!in_mem(g, addr, len))
		return "E14";
	vpmu_gdb_tohex(out, g->t->mem + addr, len);
	return out;
}

static const char *cmd_set_mem(struct gdb *g, const char *s)
{
	uint32_t addr, len;

	s = addr_len(s, &addr, &len);
	if (!s || *s != ':')
		return "E01";
	if (!in_mem(g, addr, len))
		return "E14";
	if (strlen(s + 1) < 2 * (size_t)len ||
	    !vpmu_gdb_unhex(s + 1, g->t->mem + addr, len))
		return "E01";
	/* the translation cache compares what it translated again */
	vpmu_engine_mem_written(g->t->e);
	return "OK";
}

/* ---- breakpoints and watchpoints ----------------------------------------- */

static int bp_find(const struct gdb *g, uint32_t addr)
{
	unsigned int i;

	for (i = 0; i < g->nbp; i++)
		if (g->bp[i] == addr)
			return i;
	return -1;
}

static int wp_find(const struct gdb *g, uint32_t addr, uint32_t len)
{
	unsigned int i;

	for (i = 0; i < g->nwp; i++)
		if (g->wp[i].addr == addr && g->wp[i].len == len)
			return i;
	return -1;
}

static const char *bp_set(struct gdb *g, uint32_t addr, bool insert)
{
	int i = bp_find(g, addr);

	if (insert && i < 0) {
		if (g->nbp == GDB_NBP)
			return "E01";
		g->bp[g->nbp++] = addr;
	} else if (!insert && i >= 0) {
		g->bp[i] = g->bp[--g->nbp];
	}
	return "OK";
}

static const char *wp_set(struct gdb *g, uint32_t addr, uint32_t len,
			  bool insert)
{
	int i = wp_find(g, addr, len);

	if (insert && i < 0) {
		if (g->nwp == GDB_NWP || !len || !in_mem(g, addr, len))
			return "E01";
		g->wp[g->nwp++] = (struct gdb_wp){ .addr = addr, .len = len };
	} else if (!insert && i >= 0) {
		g->wp[i] = g->wp[--g->nwp];
	}
	return "OK";
}

/* Z0..Z2 and z0..z2: "TYPE,ADDR,KIND". */
static const char *cmd_point(struct gdb *g, const char *s, bool insert)
{
	uint32_t addr, kind;

	if (!s[0] || s[1] != ',' || !addr_len(s + 2, &addr, &kind))
		return "E01";
	switch (s[0]) {
	case '0':
	case '1':
		return bp_set(g, addr, insert);
	case '2':
		/* stores of another image's instruction set are not known */
		if (g->t->prog && !g->vpmu32)
			return "";
		return wp_set(g, addr, kind, insert);
	default:
		return "";
	}
}

/*
 * The bytes the RV32 instruction @insn writes with the registers @g's
 * program has now: 0 if it is not a store (SB, SH, SW, SC.W and the
 * AMOs, C.SW, C.SWSP), else their number and *@addr.
 */
static uint32_t store_at(const struct gdb *g, uint32_t insn, uint32_t *addr)
{
	uint32_t rs1 = insn >> 15 & 31, f3 = insn >> 12 & 7;

	switch (insn & 3) {
	case 0:			/* C.SW: offset[5:3|2|6] */
		if ((insn >> 13 & 7) != 6)
			return 0;
		*addr = gdb_reg(g, 8 + (insn >> 7 & 7)) +
			((insn >> 7 & 0x38) | (insn >> 4 & 4) |
			 (insn << 1 & 0x40));
		return 4;
	case 2:			/* C.SWSP: offset[5:2|7:6] */
		if ((insn >> 13 & 7) != 6)
			return 0;
		*addr = gdb_reg(g, 2) + ((insn >> 7 & 0x3c) |
					 (insn >> 1 & 0xc0));
		return 4;
	case 1:
		return 0;
	}
	if ((insn & 0x7f) == 0x23 && f3 < 3) {	/* SB, SH, SW */
		*addr = gdb_reg(g, rs1) + (((int32_t)insn >> 20 & ~31) |
					   (insn >> 7 & 31));
		return 1u << f3;
	}
	if ((insn & 0x7f) == 0x2f && f3 == 2 && (insn >> 27) != 2) {
		*addr = gdb_reg(g, rs1);	/* SC.W, AMOs (not LR.W) */
		return 4;
	}
	return 0;
}

/*
 * The same for the vpmu32 instruction @insn: SB, SH, SW (S format:
 * imm16 at the top, rs1 in bits 11..15, a byte offset).
 */
static uint32_t v32_store_at(const struct gdb *g, uint32_t insn,
			     uint32_t *addr)
{
	uint32_t op = insn & 0x3f;

	if (op < V32_OP_SB || op > V32_OP_SW)
		return 0;
	*addr = gdb_reg(g, insn >> 11 & 31) + (int16_t)(insn >> 16);
	return 1u << (op - V32_OP_SB);
}

/*
 * True if the instruction at pc, not yet run, stores to a watched
 * location (hit_wp set): the store is decoded before it runs, as a
 * RISC-V hardware watchpoint fires before the store; gdb then removes
 * its watchpoints, steps over the store and shows the new value (a
 * vpmu32 program's as well: gdb thinks it RISC-V).
 */
static bool wp_hit(struct gdb *g)
{
	uint32_t pc = gdb_reg(g, 32), insn, addr, n;
	const struct gdb_wp *w;
	unsigned int i;

	if (!in_mem(g, pc, 4))
		return false;
	insn = le32(g->t->mem + pc);
	n = g->t->prog ? v32_store_at(g, insn, &addr) :
		store_at(g, insn, &addr);
	for (i = 0; n && i < g->nwp; i++) {
		w = &g->wp[i];
		if (addr < w->addr + w->len && w->addr < addr + n) {
			g->hit_wp = addr > w->addr ? addr : w->addr;
			return true;
		}
	}
	return false;
}

/* ---- running ------------------------------------------------------------ */

/*
 * The engine stopped with @s.  An RV32 program's ecall is served as
 * vpmu_elf_loop() serves it; a program file (vpmu32) has no system
 * calls: its HALT is its exit, a TRAP stops it for good.  RES_STEP if
 * the program goes on, RES_EXIT if it exited, RES_DEAD if it stopped
 * otherwise (end->st says how).
 */
static int gdb_stopped(struct gdb *g, const struct vpmu_stop *s)
{
	struct vpmu_engine *e = g->t->e;
	struct vpmu_elf_end *end = g->end;
	uint32_t x[32];
	unsigned int i;

	end->cycles += s->cycles;
	g->left -= s->cycles < g->left ? s->cycles : g->left;
	end->st = (struct vpmu_elf_stop){
		.stop = s->reason, .code = s->code, .addr = s->addr,
		.ipc = s->ipc, .cycles = s->cycles,
	};
	if (s->reason == VPMU_STOP_BUDGET)
		return g->left ? RES_STEP : RES_DEAD;
	if (g->t->prog && s->reason == VPMU_STOP_HALT) {
		/* a program file's end: vpmu-sim reports the run, exits 0 */
		end->res.exited = true;
		end->res.status = 0;
		return RES_EXIT;
	}
	/* a program file has no system calls: its TRAP stops it */
	if (g->t->prog || s->reason != VPMU_STOP_TRAP || s->code != VPMU_RV_TRAP_ECALL)
		return RES_DEAD;
	for (i = 0; i < 32; i++)
		x[i] = vpmu_engine_reg(e, VPMU_OPND_R0 + i);
	vpmu_sys_call(x, g->t->mem, g->t->mem_size, &end->res);
	if (end->res.exited)
		return RES_EXIT;
	vpmu_engine_mem_written(e);	/* a read() may have */
	vpmu_engine_set_reg(e, VPMU_OPND_R0 + 10, end->res.a0);
	if (vpmu_engine_trap_return(e) || !g->left) {
		end->st.stop = VPMU_RUN_BUDGET;
		return RES_DEAD;
	}
	return RES_STEP;
}

/*
 * One cycle: RES_STEP, RES_EXIT or RES_DEAD; *@next true if it ended a
 * microword (the micro-PC moved, or its microword's count did: a
 * microword that jumps to itself).  An instruction retired
 * (VPMU_EV_INSNS moved) puts the program on a boundary; else it is
 * inside an instruction (g->mid).
 */
static int gdb_cycle(struct gdb *g, bool *next)
{
	struct vpmu_engine *e = g->t->e;
	uint32_t upc = vpmu_engine_upc(e);
	u64 cnt = vpmu_engine_uword_count(e, upc), n;
	struct vpmu_stop s;
	int r;

	vpmu_engine_run(e, 1, &s);
	r = gdb_stopped(g, &s);
	*next = vpmu_engine_upc(e) != upc ||
		vpmu_engine_uword_count(e, upc) != cnt;
	g->fresh = *next;
	n = vpmu_engine_event_total(e, VPMU_EV_INSNS);
	g->mid = n == g->insns;
	if (!g->mid) {
		g->insns = n;
		g->bpc = vpmu_engine_reg(e, VPMU_OPND_PC);
	}
	return r;
}

/*
 * One instruction, RV32 or a program file's: runs of one cycle, a
 * microword each, until the engine retires one (VPMU_EV_INSNS).  An
 * RV32 ecall retires after the microword its TRAP returns to, once
 * gdb_stopped() served the call; a program file's HALT or TRAP ends
 * the run instead (RES_EXIT, RES_DEAD).  RES_STEP, RES_EXIT, RES_DEAD, or
 * with @ubp RES_UBP on a microword with a micro-PC breakpoint, before it
 * runs (the first of the next instruction's too).  gdb's single steps
 * do not stop there: gdb steps over its breakpoints, then continues.
 */
static int gdb_insn(struct gdb *g, bool ubp)
{
	struct vpmu_engine *e = g->t->e;
	bool next;
	int r;

	g->insns = vpmu_engine_event_total(e, VPMU_EV_INSNS);
	for (;;) {
		r = gdb_cycle(g, &next);
		if (r != RES_STEP)
			return r;
		if (ubp && next && g->mon.nubp &&
		    vpmu_gdb_mon_ubp(&g->mon, vpmu_engine_upc(e)))
			return RES_UBP;
		if (!g->mid)
			return RES_STEP;
	}
}

/*
 * The count of monitor @cmd [N] at @arg, 1 without one, in *@n: 1 or
 * more in decimal.  strtoul() with base 0 alone took "010" as octal,
 * "-1" as ULONG_MAX and "foo" as 0, silently.  False after saying why
 * in @out.
 */
static bool mon_count(const char *cmd, const char *arg, unsigned long *n,
		      struct vpmu_buf *out)
{
	size_t len = strspn(arg, "0123456789");

	*n = 1;
	if (!*arg)
		return true;
	if (len && !arg[len + strspn(arg + len, " ")]) {
		errno = 0;
		*n = strtoul(arg, NULL, 10);
		if (!errno && *n)
			return true;
	}
	vpmu_buf_printf(out, "monitor %s: \"%s\" is not a count (1 or more, decimal)\n",
			cmd, arg);
	return false;
}

/*
 * monitor ustep [N]: N microwords (1 by default), then where it is; a
 * Ctrl-C ends a long one early.
 */
static int gdb_ustep(struct gdb *g, const char *arg, struct vpmu_buf *out)
{
	unsigned long n, k = 0;
	bool next;
	int r = RES_STEP;

	if (!mon_count("ustep", arg, &n, out))
		return -1;
	if (g->dead || g->pending) {
		vpmu_buf_printf(out, "the program has ended\n");
		return -1;
	}
	g->insns = vpmu_engine_event_total(g->t->e, VPMU_EV_INSNS);
	while (n && r == RES_STEP) {
		r = gdb_cycle(g, &next);
		n -= next;
		if (!(++k % GDB_POLL_INSNS) && vpmu_gdb_poll_intr(&g->c))
			break;
	}
	if (r != RES_STEP) {
		g->pending = r;	/* the next s or c reports it */
		vpmu_buf_printf(out, "the program %s: continue to see how\n",
				r == RES_EXIT ? "exited" : "stopped");
		return 0;
	}
	g->at_ubp = vpmu_gdb_mon_ubp(&g->mon, vpmu_engine_upc(g->t->e));
	vpmu_gdb_mon_where(&g->mon, g->t->e, out);
	return 0;
}

/*
 * Continue instruction by instruction: breakpoints, watchpoints and
 * micro-PC breakpoints.  One of gdb's on the instruction whose first
 * microword has a micro-PC one is reported first: gdb steps over its
 * breakpoints with one of its own on the next instruction, and would
 * take the micro-PC one for that; the next continue stops on it then.
 */
static int gdb_cont_step(struct gdb *g)
{
	unsigned long n = 0;
	int r;

	for (;;) {
		r = gdb_insn(g, true);
		if (r == RES_UBP && !g->mid && bp_find(g, gdb_reg(g, 32)) >= 0)
			return RES_BP;
		if (r != RES_STEP)
			return r;
		if (bp_find(g, gdb_reg(g, 32)) >= 0)
			return RES_BP;
		if (g->nwp && wp_hit(g))
			return RES_WP;
		if (!(++n % GDB_POLL_INSNS) && vpmu_gdb_poll_intr(&g->c))
			return RES_INTR;
	}
}

/*
 * Continue with no breakpoint or watchpoint: the engine runs in chunks
 * of GDB_CHUNK cycles (the counts are those of one run), Ctrl-C polled
 * between them; after one the instruction under way is finished.
 */
static int gdb_cont_fast(struct gdb *g)
{
	struct vpmu_stop s;
	int r;

	g->mid = false;	/* pc is the engine's again */
	g->fresh = false;
	for (;;) {
		vpmu_engine_run(g->t->e, g->left < GDB_CHUNK ? g->left :
				GDB_CHUNK, &s);
		r = gdb_stopped(g, &s);
		if (r != RES_STEP)
			return r;
		if (vpmu_gdb_poll_intr(&g->c)) {
			r = gdb_insn(g, true);
			return r == RES_STEP ? RES_INTR : r;
		}
	}
}

/* The signal a program that stopped for good reports (end->st). */
static int gdb_dead_sig(const struct gdb *g)
{
	const struct vpmu_elf_stop *st = &g->end->st;

	if (st->stop == VPMU_RUN_BUDGET)
		return GDB_SIGXCPU;
	if (!g->t->prog && st->stop == VPMU_RUN_TRAP &&
	    st->code == VPMU_RV_TRAP_EBREAK)
		return GDB_SIGTRAP;
	if (st->stop == VPMU_RUN_TRAP || st->stop == VPMU_RUN_HALT)
		return GDB_SIGILL;
	return GDB_SIGSEGV;
}

/* The stop reply for @r into @out. */
static const char *stop_reply(struct gdb *g, int r, char *out)
{
	switch (r) {
	case RES_EXIT:
		snprintf(out, 8, "W%02x", g->end->res.status);
		break;
	case RES_DEAD:
		g->dead = true;
		snprintf(out, 8, "T%02x", gdb_dead_sig(g));
		break;
	case RES_BP:
		strcpy(out, "T05swbreak:;");
		break;
	case RES_WP:
		snprintf(out, 32, "T05watch:%x;", g->hit_wp);
		break;
	case RES_UBP:		/* gdb's own breakpoints are not the cause */
		snprintf(out, 8, "T%02x", GDB_SIGTRAP);
		break;
	case RES_INTR:
		snprintf(out, 8, "T%02x", GDB_SIGINT);
		break;
	default:
		snprintf(out, 8, "T%02x", GDB_SIGTRAP);
	}
	return out;
}

/*
 * True if the store at pc is the one a watchpoint stopped the program
 * before, and no instruction retired since: resumed with the watchpoint
 * still in (a client that does not step over it as gdb does), the store
 * runs, or the program would stop there for ever.
 */
static bool wp_again(const struct gdb *g)
{
	return g->at_wp &&
	       vpmu_engine_event_total(g->t->e, VPMU_EV_INSNS) == g->wp_insns;
}

/*
 * s (@step) or c: the stop reply, or after a stop for good "X<sig>" (an
 * RV32 program: vpmu-sim exits as if killed by it), for a program file
 * "W00" (vpmu-sim reports that stop, and exits 0).
 */
static const char *gdb_resume(struct gdb *g, bool step, char *out)
{
	int r;

	if (g->dead && g->t->prog)
		return "W00";
	if (g->dead) {
		snprintf(out, 8, "X%02x", gdb_dead_sig(g));
		return out;
	}
	if (g->pending) {
		r = g->pending;
		g->pending = 0;
	} else if (!step && g->mon.nubp && g->fresh && !g->at_ubp &&
		   vpmu_gdb_mon_ubp(&g->mon, vpmu_engine_upc(g->t->e))) {
		r = RES_UBP;	/* a step (over gdb's breakpoint) ended on it */
	} else if (g->nwp && !wp_again(g) && wp_hit(g)) {
		/*
		 * the first instruction to run is checked here: gdb_cont_step()
		 * checks each next one after an instruction, and a step none
		 */
		r = RES_WP;
	} else if (step) {
		r = gdb_insn(g, false);
	} else if (g->nbp || g->nwp || g->mon.nubp) {
		r = gdb_cont_step(g);
	} else {
		r = gdb_cont_fast(g);
	}
	g->at_ubp = r == RES_UBP;
	g->at_wp = r == RES_WP;
	if (g->at_wp)
		g->wp_insns = vpmu_engine_event_total(g->t->e, VPMU_EV_INSNS);
	return stop_reply(g, r, out);
}

/* ---- packets ------------------------------------------------------------- */

static const char *const reg_names[32] = {
	"zero", "ra", "sp", "gp", "tp", "t0", "t1", "t2", "fp", "s1",
	"a0", "a1", "a2", "a3", "a4", "a5", "a6", "a7", "s2", "s3",
	"s4", "s5", "s6", "s7", "s8", "s9", "s10", "s11", "t3", "t4",
	"t5", "t6",
};

/* The counter CSRs' names: cycle, time, instret, hpmcounter3.., h halves. */
static void csr_name(char *buf, size_t size, unsigned int sel)
{
	static const char *const base[3] = { "cycle", "time", "instret" };
	unsigned int i = sel & VPMU_CTR_SEL_MASK;
	const char *h = sel & VPMU_CTR_SEL_HIGH ? "h" : "";

	if (i < 3)
		snprintf(buf, size, "%s%s", base[i], h);
	else
		snprintf(buf, size, "hpmcounter%u%s", i, h);
}

/*
 * The target description: a 32-bit RISC-V with x0..x31 and pc, and the
 * counter CSRs if the image reads them; a program file's engine
 * registers.
 */
static void target_xml(const struct gdb *g, struct vpmu_buf *x)
{
	unsigned int i, sel;
	char name[16];

	vpmu_buf_printf(x, "<?xml version=\"1.0\"?>\n"
			"<!DOCTYPE target SYSTEM \"gdb-target.dtd\">\n"
			"<target version=\"1.0\">\n"
			"<architecture>riscv:rv32</architecture>\n");
	/*
	 * gdb single-steps a RISC-V under an OS (its default one, without an
	 * ELF file) by breakpoints after the instruction it decodes: s
	 * packets need none
	 */
	if (g->t->prog)
		vpmu_buf_printf(x, "<osabi>none</osabi>\n");
	vpmu_buf_printf(x, "<feature name=\"org.gnu.gdb.riscv.cpu\">\n");
	for (i = 0; i < 32; i++)
		vpmu_buf_printf(x, "<reg name=\"%s\" bitsize=\"32\" type=\"%s\" regnum=\"%u\"/>\n",
				reg_names[i], i == 2 ? "data_ptr" : "int", i);
	vpmu_buf_printf(x, "<reg name=\"pc\" bitsize=\"32\" type=\"code_ptr\" regnum=\"%u\"/>\n"
			"</feature>\n", GDB_REG_PC);
	if (g->t->prog) {
		vpmu_buf_printf(x, "<feature name=\"org.vpmu.vpmu32\">\n");
		for (i = 0; i < ARRAY_SIZE(eng_regs); i++)
			vpmu_buf_printf(x,
					"<reg name=\"%s\" bitsize=\"32\" type=\"%s\" regnum=\"%u\" group=\"vpmu\"/>\n",
					eng_regs[i].name,
					eng_regs[i].opnd == VPMU_OPND_IPC ?
					"code_ptr" : "int", GDB_REG_ENG + i);
		vpmu_buf_printf(x, "</feature>\n");
	}
	if (g->csrs) {
		vpmu_buf_printf(x, "<feature name=\"org.gnu.gdb.riscv.csr\">\n");
		for (sel = 0; sel <= (VPMU_CTR_SEL_HIGH | VPMU_CTR_SEL_MASK); sel++) {
			if ((sel & ~VPMU_CTR_SEL_HIGH) > VPMU_CTR_SEL_MASK)
				continue;
			csr_name(name, sizeof(name), sel);
			vpmu_buf_printf(x,
					"<reg name=\"%s\" bitsize=\"32\" type=\"int\" regnum=\"%u\" group=\"csr\"/>\n",
					name, GDB_REG_CSR + GDB_CSR_CTR + sel);
		}
		vpmu_buf_printf(x, "</feature>\n");
	}
	vpmu_buf_printf(x, "</target>\n");
}

/* qXfer:features:read:target.xml:OFF,LEN */
static const char *cmd_xfer(const struct gdb *g, const char *s, char *out)
{
	static const char pre[] = "qXfer:features:read:target.xml:";
	struct vpmu_buf x = { 0 };
	uint32_t off, len;

	if (strncmp(s, pre, sizeof(pre) - 1))
		return "";
	if (!addr_len(s + sizeof(pre) - 1, &off, &len))
		return "E01";
	target_xml(g, &x);
	if (len > VPMU_GDB_PKT_MAX - 2)
		len = VPMU_GDB_PKT_MAX - 2;
	if (off >= x.len) {
		strcpy(out, "l");
	} else {
		if (len > x.len - off)
			len = x.len - off;
		out[0] = off + len < x.len ? 'm' : 'l';
		memcpy(out + 1, x.p + off, len);
		out[len + 1] = 0;
	}
	vpmu_buf_free(&x);
	return out;
}

/* monitor dis's most instructions: a screenful or two */
#define GDB_DIS_MAX	64

/*
 * monitor dis [N]: a program file's N instructions (1 by default) from
 * pc on, each as vpmu-dis lists it (the image's declarations): gdb's
 * x/i would disassemble them as RISC-V.
 */
static void gdb_dis(struct gdb *g, const char *arg, struct vpmu_buf *out)
{
	uint32_t pc = gdb_reg(g, GDB_REG_PC), addr, word;
	unsigned long n, k;

	if (!g->t->prog) {
		vpmu_buf_printf(out,
				"monitor dis: vpmu program files only (x/i disassembles RV32)\n");
		return;
	}
	if (!mon_count("dis", arg, &n, out))
		return;
	if (n > GDB_DIS_MAX)
		n = GDB_DIS_MAX;
	for (k = 0, addr = pc; k < n && in_mem(g, addr, 4); k++, addr += 4) {
		word = le32(g->t->mem + addr);
		vpmu_buf_printf(out, "%s0x%04x: %08x  ", addr == pc ? "=> " : "   ",
				addr, word);
		if (vpmu_dis_insn(g->t->img, g->t->img_len, word, addr, out))
			vpmu_buf_printf(out, ".word 0x%08x", word);
		vpmu_buf_put(out, "\n", 1);
	}
}

/* Text for gdb's console: "O" packets of hex. */
static bool gdb_console(struct gdb *g, const char *p, size_t n)
{
	static char pkt[VPMU_GDB_BUF];
	size_t k;

	while (n) {
		k = n < VPMU_GDB_PKT_MAX / 2 - 8 ? n : VPMU_GDB_PKT_MAX / 2 - 8;
		pkt[0] = 'O';
		vpmu_gdb_tohex(pkt + 1, (const uint8_t *)p, k);
		if (!vpmu_gdb_put(&g->c, pkt))
			return false;
		p += k;
		n -= k;
	}
	return true;
}

/*
 * qRcmd,HEX: a monitor command, its text (or what was wrong) on gdb's
 * console; gdb would call an error reply a protocol error.
 */
static const char *cmd_rcmd(struct gdb *g, const char *s)
{
	static char cmd[VPMU_GDB_PKT_MAX];
	struct vpmu_buf out = { 0 };
	size_t n = strlen(s) / 2;

	if (n >= sizeof(cmd) || !vpmu_gdb_unhex(s, (uint8_t *)cmd, n))
		return "E01";
	cmd[n] = 0;
	if (!strncmp(cmd, "ustep", 5) && (!cmd[5] || cmd[5] == ' '))
		gdb_ustep(g, cmd + 5 + strspn(cmd + 5, " "), &out);
	else if (!strncmp(cmd, "dis", 3) && (!cmd[3] || cmd[3] == ' '))
		gdb_dis(g, cmd + 3 + strspn(cmd + 3, " "), &out);
	else
		vpmu_gdb_mon_cmd(&g->mon, g->t->e, cmd, &out);
	gdb_console(g, out.p ? out.p : "", out.len);
	vpmu_buf_free(&out);
	return "OK";
}

static const char *cmd_query(struct gdb *g, const char *s, char *out)
{
	if (!strncmp(s, "qRcmd,", 6))
		return cmd_rcmd(g, s + 6);
	if (!strncmp(s, "qSupported", 10))
		return "PacketSize=1000;qXfer:features:read+;swbreak+;hwbreak+;vContSupported+";
	if (!strncmp(s, "qXfer:", 6))
		return cmd_xfer(g, s, out);
	if (!strcmp(s, "qAttached"))
		return "1";
	if (!strcmp(s, "qC"))
		return "QC1";
	if (!strcmp(s, "qfThreadInfo"))
		return "m1";
	if (!strcmp(s, "qsThreadInfo"))
		return "l";
	if (!strcmp(s, "qOffsets"))
		return "Text=0;Data=0;Bss=0";
	if (!strncmp(s, "qSymbol", 7))
		return "OK";
	return "";
}

/* vCont? and vCont;ACTION[:thread]...: the first action says. */
static const char *cmd_vcont(struct gdb *g, const char *s, char *out)
{
	if (!strcmp(s, "vCont?"))
		return "vCont;c;C;s;S";
	if (strncmp(s, "vCont;", 6))
		return "";
	return gdb_resume(g, s[6] == 's' || s[6] == 'S', out);
}

/*
 * One packet @s: its reply (maybe in @out), or NULL if the session ends
 * with it (k: killed, D: detached, after its OK).
 */
static const char *gdb_cmd(struct gdb *g, const char *s, char *out)
{
	switch (s[0]) {
	case '?':
		return g->dead ? stop_reply(g, RES_DEAD, out) : "S05";
	case 'g':
		cmd_regs(g, out);
		return out;
	case 'G':
		return cmd_set_regs(g, s + 1);
	case 'p':
		return cmd_reg(g, s + 1, out);
	case 'P':
		return cmd_set_reg(g, s + 1);
	case 'm':
		return cmd_mem(g, s + 1, out);
	case 'M':
		return cmd_set_mem(g, s + 1);
	case 'Z':
	case 'z':
		return cmd_point(g, s + 1, s[0] == 'Z');
	case 's':
	case 'c':
		return gdb_resume(g, s[0] == 's', out);
	case 'S':
	case 'C':
		return gdb_resume(g, s[0] == 'S', out);
	case 'v':
		return cmd_vcont(g, s, out);
	case 'q':
		return cmd_query(g, s, out);
	case 'H':
	case 'T':
		return "OK";
	case 'k':
	case 'D':
		return NULL;
	default:
		return "";
	}
}

/* After D: the program runs on to its end, as vpmu_elf_loop() runs it. */
static int gdb_detached(struct gdb *g)
{
	struct vpmu_stop s;
	int r;

	if (g->dead)
		return 0;
	do {
		vpmu_engine_run(g->t->e, g->left, &s);
		r = gdb_stopped(g, &s);
	} while (r == RES_STEP);
	return 0;
}

/* Packets until the program ends or gdb ends the session. */
static int gdb_session(struct gdb *g)
{
	static char buf[VPMU_GDB_BUF], out[VPMU_GDB_BUF];
	const char *reply;

	while (vpmu_gdb_get(&g->c, buf)) {
		out[0] = 0;
		reply = gdb_cmd(g, buf, out);
		if (!reply) {
			vpmu_gdb_put(&g->c, "OK");
			return buf[0] == 'D' ? gdb_detached(g) : VPMU_GDB_KILLED;
		}
		if (!vpmu_gdb_put(&g->c, reply))
			break;
		if (reply[0] == 'W' || reply[0] == 'X') {
			vpmu_gdb_drain(&g->c);
			return 0;
		}
	}
	return VPMU_GDB_KILLED;
}

/*
 * True if the image named @name has vpmu32's instruction set: "vpmu32",
 * or a variant of it ("vpmu32-max") that only pads or tunes the
 * microcode.  The stores are decoded from that encoding (v32_store_at()),
 * not from the image's declarations, which do not say which
 * instructions store, nor where.
 */
static bool vpmu32_family(const char *name)
{
	size_t n = strlen("vpmu32");

	return !strncmp(name, "vpmu32", n) && (!name[n] || name[n] == '-');
}

int vpmu_gdb_run(const struct vpmu_gdb_target *t, struct vpmu_elf_end *end)
{
	struct gdb *g = calloc(1, sizeof(*g));
	int ret;

	if (!g)
		abort();
	memset(end, 0, sizeof(*end));
	g->t = t;
	g->end = end;
	g->left = t->budget;
	g->bpc = vpmu_engine_reg(t->e, VPMU_OPND_PC);
	g->fresh = true;
	vpmu_gdb_mon_open(&g->mon, t->img, t->img_len);
	g->csrs = !t->prog && vpmu_gdb_mon_has_ctr(&g->mon);
	g->vpmu32 = t->prog && g->mon.have_img &&
		    vpmu32_family(g->mon.hi.v.h.name);
	g->c.fd = vpmu_gdb_accept(t->where);
	if (g->c.fd < 0) {
		vpmu_gdb_mon_close(&g->mon);
		free(g);
		return -1;
	}
	ret = gdb_session(g);
	vpmu_gdb_mon_close(&g->mon);
	close(g->c.fd);
	free(g);
	return ret;
}
