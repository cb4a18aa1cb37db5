// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu_machine_step.c - stopping a run between instructions, for a
 * debugger: VPMU_RUN_F_STEP and breakpoints (include/uapi/linux/vpmu.h).
 *
 * An armed run's chunks run the engine a microword at a time: a run of
 * one cycle runs exactly one microword, however long it stalls, so the
 * chunk sees every microword boundary, and the engine says in O(1)
 * whether the microword about to run retires an instruction
 * (vpmu_engine_uword_retires(), what VPMU_EV_INSNS counts), where reading
 * the event's total would cost a pass over the control store a
 * microword.  The engine runs the same microwords whatever the cut, so
 * a run stopped at breaks and resumed counts exactly as one that was not
 * (vpmu_engine.h, program contexts); unarmed runs do not come here.
 */
#include <linux/minmax.h>

#include "vpmu_engine.h"
#include "vpmu_machine_priv.h"

/*
 * Cycles of an armed chunk at most.  A run of one cycle costs about 40
 * cycles of an unarmed chunk (80 ns against 2 on the host's build, sort
 * on the default image), so a chunk of this many keeps interrupts off
 * about as long as an unarmed one of VPMU_RUN_CHUNK (5000) cycles; it
 * ends sooner than the run's chunk would, as a chunk the engine yields
 * does, and the run goes on in the next.
 */
#define VPMU_RUN_STEP_CHUNK	128

/*
 * The program is on an instruction boundary: does the run stop there?
 * Return: the VPMU_RUN_BREAK_* bits saying why, or 0.
 */
static u32 vpmu_run_break(const struct vpmu_run *run, struct vpmu_engine *e)
{
	u32 pc = vpmu_engine_reg(e, VPMU_OPND_PC), why = 0;
	unsigned int i;

	if (run->flags & VPMU_RUN_F_STEP)
		why |= VPMU_RUN_BREAK_STEP;
	for (i = 0; i < run->nbreak; i++) {
		if (run->brk[i] == pc) {
			why |= VPMU_RUN_BREAK_PC;
			break;
		}
	}
	return why;
}

/**
 * vpmu_run_stepped() - an armed run's chunk, a microword at a time
 * @m:		the machine
 * @e:		this CPU's engine, the program on it
 * @run:	the run's arguments: VPMU_RUN_F_STEP, nbreak and brk[]
 * @budget:	the chunk's cycles
 * @stop:	where and why the engine stopped; @stop->cycles: all it ran
 *
 * As vpmu_run_engine() with @budget, at most VPMU_RUN_STEP_CHUNK of it,
 * but the chunk also ends on the first instruction boundary @run stops
 * at.  Each microword is checked after it ran, so the boundary the chunk
 * starts on never stops it, and a halt, trap or fault of the microword
 * ends the chunk first (@stop says so).  Overflow stops are bounded as
 * in an unarmed chunk: after VPMU_RUN_CHUNK_STOPS of them
 * vpmu_run_engine() runs nothing, and a run of no cycles ends the chunk.
 *
 * Context: on @e's CPU, interrupts disabled.
 * Return: the VPMU_RUN_BREAK_* bits of the boundary the chunk stopped
 * on, or 0 if it ended otherwise.
 */
u32 vpmu_run_stepped(struct vpmu_machine *m, struct vpmu_engine *e,
		     const struct vpmu_run *run, u64 budget,
		     struct vpmu_stop *stop)
{
	unsigned int stops = 0;
	u32 why = 0;
	u64 used = 0;
	bool retires;

	budget = min_t(u64, budget, VPMU_RUN_STEP_CHUNK);
	do {
		retires = vpmu_engine_uword_retires(e, vpmu_engine_upc(e));
		stops = vpmu_run_engine(m, e, 1, stop, stops);
		used += stop->cycles;
		if (stop->reason != VPMU_STOP_BUDGET || !stop->cycles)
			break;
		if (retires)
			why = vpmu_run_break(run, e);
	} while (!why && used < budget);
	stop->cycles = used;
	return why;
}
