// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu_gdb_dev.c - vpmu-run --gdb: the GDB stub's backend on the kernel's
 * engine (vpmu_gdb_dev.h).  The packets are the core's (vpmu_gdb_stub.c);
 * here each resume is one VPMU_IOC_RUN or more:
 *
 *   s     VPMU_RUN_F_STEP: the kernel stops after one instruction;
 *   c     brk[] holds gdb's breakpoints (VPMU_RUN_NBREAK at most: Z0
 *         refuses more, and gdb says it cannot insert the breakpoint);
 *
 * each for at most GDB_DEV_SLICE cycles at a time, Ctrl-C polled between
 * them; after one, the instruction under way is finished (a step), so
 * that gdb finds the program at an instruction boundary, as vpmu-sim
 * --gdb leaves it.  An ecall stops the run (VPMU_RUN_TRAP), is served
 * as vpmu_elf_loop() serves it, and the run resumes, within the same s
 * or c.  The registers are struct vpmu_run's: x0..x31 and pc, the
 * program's memory the caller's buffer, which each call copies in and
 * back; what gdb writes goes in with the next call (VPMU_RUN_F_REGS).
 *
 * Not served on the kernel's engine: writing pc (as on the host: the
 * next instruction is fetched already), write watchpoints (Z2: gdb,
 * told "set can-use-hw-watchpoints 0", watches by single steps itself),
 * the counter CSRs in the target description, and the monitor's
 * microcode commands (vpmu-sim --gdb steps microwords: the same engine).
 */
#include <errno.h>
#include <string.h>
#include <sys/ioctl.h>

#include "vpmu_gdb_dev.h"
#include "vpmu_gdb_stub.h"

/*
 * Cycles of one call, between Ctrl-C polls: a second or so of TCG time,
 * armed (a microword at a time) or not.
 */
#define GDB_DEV_SLICE_ARMED	(1ull << 20)
#define GDB_DEV_SLICE		(1ull << 22)

/* The session on /dev/vpmu: the core's state first. */
struct gdb_dev {
	struct vpmu_gdb_stub s;
	const struct vpmu_gdb_dev_target *t;
	struct vpmu_run *r;
	uint64_t left;		/* cycles of the budget left */
	bool started;		/* a call ran it: the next resumes */
	bool regs_in;		/* regs[] go in with the next call */
	bool failed;		/* the kernel refused a call */
};

static struct gdb_dev *to_dev(const struct vpmu_gdb_stub *s)
{
	return (struct gdb_dev *)s;	/* its first member */
}

static bool dev_has_reg(const struct vpmu_gdb_stub *s, unsigned long i)
{
	return i <= GDB_REG_PC;
}

/* pc before the first call is the entry, where the program starts. */
static uint32_t dev_reg(const struct vpmu_gdb_stub *s, unsigned int i)
{
	const struct gdb_dev *d = to_dev(s);

	if (i < 32)
		return d->r->regs[i];
	return d->started ? d->r->pc : d->r->entry;
}

/*
 * x1..x31 go in with the next call; x0 stays 0 (the RV32 images are
 * R0_ZERO, as vpmu-sim's engine keeps it); pc only its own value.
 */
static bool dev_set_reg(struct vpmu_gdb_stub *s, unsigned int i, uint32_t v)
{
	struct gdb_dev *d = to_dev(s);

	if (i == GDB_REG_PC)
		return v == dev_reg(s, GDB_REG_PC);
	if (i)
		d->r->regs[i] = v;
	d->regs_in = true;
	return true;
}

/*
 * One VPMU_IOC_RUN of at most @slice cycles of what is left (some are:
 * a resume with none is the program's end, dev_stopped()), stepping one
 * instruction (@step) or stopping at gdb's breakpoints (@brk).  0, or -1
 * after saying why the kernel refused it (the session then ends).
 */
static int dev_call(struct gdb_dev *d, bool step, bool brk, uint64_t slice)
{
	struct vpmu_run *r = d->r;
	struct vpmu_elf_end *end = d->s.end;

	if (!step && brk && d->s.nbp)
		slice = GDB_DEV_SLICE_ARMED;

	r->flags = (d->started ? VPMU_RUN_F_RESUME : 0) |
		   (d->regs_in ? VPMU_RUN_F_REGS : 0) |
		   (step ? VPMU_RUN_F_STEP : 0);
	r->nbreak = brk ? d->s.nbp : 0;
	memset(r->brk, 0, sizeof(r->brk));
	memcpy(r->brk, d->s.bp, r->nbreak * sizeof(r->brk[0]));
	r->budget = d->left < slice ? d->left : slice;
	if (ioctl(d->t->fd, VPMU_IOC_RUN, r)) {
		d->t->run_error(errno);
		d->failed = true;
		return -1;
	}
	d->started = true;
	d->regs_in = false;
	end->cycles += r->cycles;
	d->left -= r->cycles < d->left ? r->cycles : d->left;
	end->st = (struct vpmu_elf_stop){
		.stop = r->stop, .code = r->code, .addr = r->addr,
		.ipc = r->ipc, .cycles = r->cycles,
	};
	return 0;
}

/*
 * After a call: RES_STEP if the program goes on (the budget's slice or a
 * signal ended the call, or an ecall was served), RES_EXIT if it exited,
 * RES_DEAD if it stopped for good (end->st says how), RES_BP at a break.
 */
static int dev_stopped(struct gdb_dev *d)
{
	struct vpmu_elf_end *end = d->s.end;
	struct vpmu_run *r = d->r;

	switch (r->stop) {
	case VPMU_RUN_BREAK:
		if (d->left)
			return RES_BP;
		/* where the budget ends: nothing to go on with */
		end->st.stop = VPMU_RUN_BUDGET;
		return RES_DEAD;
	case VPMU_RUN_BUDGET:
	case VPMU_RUN_SIGNAL:
		if (d->left)
			return RES_STEP;
		end->st.stop = VPMU_RUN_BUDGET;
		return RES_DEAD;
	case VPMU_RUN_TRAP:
		if (r->code == VPMU_RV_TRAP_ECALL)
			break;
		return RES_DEAD;
	default:
		return RES_DEAD;
	}
	vpmu_sys_call(r->regs, d->s.mem, d->s.mem_size, &end->res);
	if (end->res.exited)
		return RES_EXIT;
	r->regs[10] = end->res.a0;
	d->regs_in = true;
	if (!d->left) {
		end->st.stop = VPMU_RUN_BUDGET;
		return RES_DEAD;
	}
	return RES_STEP;
}

/*
 * Run until a stop gdb hears of: one instruction (@step), a breakpoint,
 * the program's end, a Ctrl-C (polled after each call: the instruction
 * under way is then finished, a breakpoint it lands on reported as one).
 */
static int dev_resume(struct vpmu_gdb_stub *s, bool step)
{
	struct gdb_dev *d = to_dev(s);
	bool intr = false;
	int r;

	for (;;) {
		if (dev_call(d, step || intr, !step, GDB_DEV_SLICE))
			return RES_FAIL;
		r = dev_stopped(d);
		if (r == RES_BP && step)
			return RES_STEP;
		if (r == RES_BP && intr && !(d->r->code & VPMU_RUN_BREAK_PC))
			return RES_INTR;
		if (r != RES_STEP)
			return r;
		if (!step && !intr)
			intr = vpmu_gdb_poll_intr(&d->s.c);
	}
}

/* After D: the program runs on to its end, as vpmu_elf_loop() runs it. */
static void dev_detach(struct vpmu_gdb_stub *s)
{
	struct gdb_dev *d = to_dev(s);

	do {
		if (!d->left || dev_call(d, false, false, VPMU_RUN_BUDGET_MAX))
			return;
	} while (dev_stopped(d) == RES_STEP);
}

static void dev_monitor(struct vpmu_gdb_stub *s, const char *cmd,
			struct vpmu_buf *out)
{
	vpmu_buf_printf(out, "monitor %s: no monitor commands on the kernel's engine (vpmu-sim --gdb steps the microcode)\n",
			cmd);
}

static const struct vpmu_gdb_ops gdb_dev_ops = {
	.has_reg = dev_has_reg,
	.reg = dev_reg,
	.set_reg = dev_set_reg,
	.resume = dev_resume,
	.monitor = dev_monitor,
	.detach = dev_detach,
};

int vpmu_gdb_dev_run(const struct vpmu_gdb_dev_target *t,
		     struct vpmu_elf_end *end)
{
	struct gdb_dev d = {
		.s = {
			.ops = &gdb_dev_ops, .end = end,
			.mem = (uint8_t *)(uintptr_t)t->r->mem,
			.mem_size = t->r->mem_size, .nbp_max = VPMU_RUN_NBREAK,
		},
		.t = t, .r = t->r, .left = t->budget,
		.regs_in = t->r->flags & VPMU_RUN_F_REGS,
	};
	int ret;

	memset(end, 0, sizeof(*end));
	end->budget = t->budget;
	ret = vpmu_gdb_serve(&d.s, t->where);
	return d.failed ? -1 : ret;
}
