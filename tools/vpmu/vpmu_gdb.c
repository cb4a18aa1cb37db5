// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu_gdb.c - vpmu-sim --gdb: the GDB stub's backend on the host engine
 * (vpmu_gdb.h) for an RV32 ELF program or a vpmu program file; the
 * packets are the core's (vpmu_gdb_stub.c).
 *
 * What this backend adds to the core: the counter CSRs in the target
 * description (org.gnu.gdb.riscv.csr, read only) if the image has a CTR
 * microword; pc read only (the next instruction is already fetched);
 * write watchpoints (the stores of the instruction set, not the system
 * calls' writes); Ctrl-C (0x03) during a continue; and the monitor
 * commands (the microcode beneath, vpmu_gdb_mon.c; ustep and dis are
 * here).
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
#include "vpmu_gdb_stub.h"

#define GDB_CHUNK	BIT(22)	/* cycles between Ctrl-C polls */

/*
 * Each CSR is gdb's register GDB_REG_CSR + its number.  The counter CSRs
 * are cycle, time, instret, hpmcounter3..31 (GDB_CSR_CTR + 0..31) and
 * their high halves (+ 0x80): the layout of CTR's selector (vpmu_isa.h).
 */
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

/* The session on the host engine: the core's state first. */
struct gdb {
	struct vpmu_gdb_stub s;
	const struct vpmu_gdb_target *t;
	uint64_t left;			/* cycles of the budget left */
	bool at_wp;			/* stopped by one, its store not run */
	u64 wp_insns;			/* VPMU_EV_INSNS at that stop */
	struct vpmu_gdb_mon mon;	/* micro-PC breakpoints, the image */
	u64 insns;			/* VPMU_EV_INSNS at the last cycle */
	uint32_t bpc;			/* pc at the last boundary */
	bool mid;			/* stopped inside an instruction */
	bool fresh;			/* the microword at upc not begun */
	bool at_ubp;			/* stopped by a micro-PC breakpoint */
	bool csrs;			/* the image reads counter CSRs (CTR) */
	int pending;			/* a ustep's end, for the next resume */
};

static struct gdb *to_gdb(const struct vpmu_gdb_stub *s)
{
	return (struct gdb *)s;	/* its first member */
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
static bool gdb_has_reg(const struct vpmu_gdb_stub *s, unsigned long i)
{
	const struct gdb *g = to_gdb(s);
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
static bool gdb_set_reg(struct vpmu_gdb_stub *s, unsigned int i, uint32_t v)
{
	struct gdb *g = to_gdb(s);
	unsigned int opnd;

	if (i == GDB_REG_PC)
		return v == gdb_reg(g, GDB_REG_PC);
	if (i < 32)
		return !vpmu_engine_set_reg(g->t->e, VPMU_OPND_R0 + i, v);
	if (!g->t->prog || !gdb_has_reg(s, i))
		return false;
	opnd = eng_regs[i - GDB_REG_ENG].opnd;
	return opnd >= VPMU_OPND_T0 && opnd < VPMU_OPND_T0 + 8 &&
	       !vpmu_engine_set_reg(g->t->e, opnd, v);
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
	struct vpmu_elf_end *end = g->s.end;
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
 * monitor ustep [N]: N microwords (1 by default), then where it is; a
 * Ctrl-C ends a long one early.
 */
static int gdb_ustep(struct gdb *g, const char *arg, struct vpmu_buf *out)
{
	unsigned long n, k = 0;
	bool next;
	int r = RES_STEP;

	if (!vpmu_gdb_mon_count("ustep", arg, &n, out))
		return -1;
	if (g->s.dead || g->pending) {
		vpmu_buf_printf(out, "the program has ended\n");
		return -1;
	}
	g->insns = vpmu_engine_event_total(g->t->e, VPMU_EV_INSNS);
	while (n && r == RES_STEP) {
		r = gdb_cycle(g, &next);
		n -= next;
		if (!(++k % GDB_POLL_INSNS) && vpmu_gdb_poll_intr(&g->s.c))
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
		if (r == RES_UBP && !g->mid && vpmu_gdb_bp_at(&g->s, gdb_reg(g, 32)))
			return RES_BP;
		if (r != RES_STEP)
			return r;
		if (vpmu_gdb_bp_at(&g->s, gdb_reg(g, 32)))
			return RES_BP;
		if (g->s.nwp && vpmu_gdb_wp_hit(&g->s))
			return RES_WP;
		if (!(++n % GDB_POLL_INSNS) && vpmu_gdb_poll_intr(&g->s.c))
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
		if (vpmu_gdb_poll_intr(&g->s.c)) {
			r = gdb_insn(g, true);
			return r == RES_STEP ? RES_INTR : r;
		}
	}
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

/* s (@step) or c of a program not stopped for good: RES_* */
static int gdb_resume(struct vpmu_gdb_stub *st, bool step)
{
	struct gdb *g = to_gdb(st);
	int r;

	if (g->pending) {
		r = g->pending;
		g->pending = 0;
	} else if (!step && g->mon.nubp && g->fresh && !g->at_ubp &&
		   vpmu_gdb_mon_ubp(&g->mon, vpmu_engine_upc(g->t->e))) {
		r = RES_UBP;	/* a step (over gdb's breakpoint) ended on it */
	} else if (g->s.nwp && !wp_again(g) && vpmu_gdb_wp_hit(&g->s)) {
		/*
		 * the first instruction to run is checked here: gdb_cont_step()
		 * checks each next one after an instruction, and a step none
		 */
		r = RES_WP;
	} else if (step) {
		r = gdb_insn(g, false);
	} else if (g->s.nbp || g->s.nwp || g->mon.nubp) {
		r = gdb_cont_step(g);
	} else {
		r = gdb_cont_fast(g);
	}
	g->at_ubp = r == RES_UBP;
	g->at_wp = r == RES_WP;
	if (g->at_wp)
		g->wp_insns = vpmu_engine_event_total(g->t->e, VPMU_EV_INSNS);
	return r;
}

/* ---- the target description and the monitor ------------------------------ */

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
	if (!vpmu_gdb_mon_count("dis", arg, &n, out))
		return;
	if (n > GDB_DIS_MAX)
		n = GDB_DIS_MAX;
	for (k = 0, addr = pc; k < n && vpmu_gdb_in_mem(&g->s, addr, 4); k++, addr += 4) {
		word = vpmu_gdb_le32(g->t->mem + addr);
		vpmu_buf_printf(out, "%s0x%04x: %08x  ", addr == pc ? "=> " : "   ",
				addr, word);
		if (vpmu_dis_insn(g->t->img, g->t->img_len, word, addr, out))
			vpmu_buf_printf(out, ".word 0x%08x", word);
		vpmu_buf_put(out, "\n", 1);
	}
}

/*
 * The target description's features past RISC-V's cpu: a program file's
 * engine registers, and the counter CSRs if the image reads them.
 */
static void gdb_features(const struct vpmu_gdb_stub *s, struct vpmu_buf *x)
{
	const struct gdb *g = to_gdb(s);
	unsigned int i, sel;
	char name[16];

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
}

/* A monitor command: ustep and dis here, the others vpmu_gdb_mon.c's. */
static void gdb_monitor(struct vpmu_gdb_stub *s, const char *cmd,
			struct vpmu_buf *out)
{
	struct gdb *g = to_gdb(s);

	if (!strncmp(cmd, "ustep", 5) && (!cmd[5] || cmd[5] == ' '))
		gdb_ustep(g, cmd + 5 + strspn(cmd + 5, " "), out);
	else if (!strncmp(cmd, "dis", 3) && (!cmd[3] || cmd[3] == ' '))
		gdb_dis(g, cmd + 3 + strspn(cmd + 3, " "), out);
	else
		vpmu_gdb_mon_cmd(&g->mon, g->t->e, cmd, out);
}

static void gdb_mem_written(struct vpmu_gdb_stub *s)
{
	/* the translation cache compares what it translated again */
	vpmu_engine_mem_written(to_gdb(s)->t->e);
}

/* After D: the program runs on to its end, as vpmu_elf_loop() runs it. */
static void gdb_detach(struct vpmu_gdb_stub *st)
{
	struct gdb *g = to_gdb(st);
	struct vpmu_stop s;
	int r;

	do {
		vpmu_engine_run(g->t->e, g->left, &s);
		r = gdb_stopped(g, &s);
	} while (r == RES_STEP);
}

static uint32_t gdb_reg_op(const struct vpmu_gdb_stub *s, unsigned int i)
{
	return gdb_reg(to_gdb(s), i);
}

static const struct vpmu_gdb_ops gdb_host_ops = {
	.has_reg = gdb_has_reg,
	.reg = gdb_reg_op,
	.set_reg = gdb_set_reg,
	.mem_written = gdb_mem_written,
	.resume = gdb_resume,
	.features = gdb_features,
	.monitor = gdb_monitor,
	.detach = gdb_detach,
};

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
	g->s = (struct vpmu_gdb_stub){
		.ops = &gdb_host_ops, .end = end, .mem = t->mem,
		.mem_size = t->mem_size, .prog = t->prog, .nbp_max = GDB_NBP,
	};
	g->t = t;
	g->left = t->budget;
	g->bpc = vpmu_engine_reg(t->e, VPMU_OPND_PC);
	g->fresh = true;
	vpmu_gdb_mon_open(&g->mon, t->img, t->img_len);
	g->csrs = !t->prog && vpmu_gdb_mon_has_ctr(&g->mon);
	g->s.wp_ok = !t->prog || (g->mon.have_img &&
				   vpmu32_family(g->mon.hi.v.h.name));
	ret = vpmu_gdb_serve(&g->s, t->where);
	vpmu_gdb_mon_close(&g->mon);
	free(g);
	return ret;
}
