// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu_machine_chunk.c - what the engine does in a run chunk: runs with
 * every overflow stop delivered (vpmu_run_engine()), and for a run armed
 * to stop between instructions, for a debugger (VPMU_RUN_F_STEP and
 * breakpoints, include/uapi/linux/vpmu.h), the same a microword at a time
 * (vpmu_run_stepped()).  The chunk around it, and the run, are
 * vpmu_machine_run.c's.
 *
 * An armed chunk runs the engine one cycle at a time: a run of one cycle
 * runs exactly one microword, however long it stalls, so the chunk sees
 * every microword boundary, and the engine says in O(1) whether the
 * microword about to run retires an instruction
 * (vpmu_engine_uword_retires(), what VPMU_EV_INSNS counts), where reading
 * the event's total would cost a pass over the control store a
 * microword.  The engine runs the same microwords whatever the cut, so
 * a run stopped at breaks and resumed counts exactly as one that was not
 * (vpmu_engine.h, program contexts).
 */
#include <linux/bug.h>
#include <linux/minmax.h>

#include "vpmu_engine.h"
#include "vpmu_machine_priv.h"

/*
 * Overflow stops per chunk.  Cycles bound a chunk's engine work, but not
 * the perf work of its overflow stops: each raises the lines of the
 * counters that wrapped and may take a sample per counter, and with every
 * counter sampling at period 1 a 5000-cycle chunk had a stop on every
 * microword.  After this many stops the chunk ends (the run goes on in
 * the next one, exactly as a chunk that ends on its budget), so that
 * the longest a chunk keeps interrupts off is bounded in work whatever
 * perf asks.  Measured with 16 counters sampling at period 1, a chunk
 * bounded so costs about what one with no counter does; unbounded, it
 * cost some 300 times as much.
 */
#ifndef VPMU_RUN_CHUNK_STOPS	/* a benchmark build sets it for a baseline */
#define VPMU_RUN_CHUNK_STOPS	16
#endif

/**
 * vpmu_run_engine() - run a chunk's cycles on an engine, overflow stops
 * delivered
 * @m:		the machine
 * @e:		this CPU's engine, the program on it
 * @budget:	cycles to run
 * @stop:	where and why the engine stopped; @stop->cycles: all it ran
 * @stops:	the chunk's overflow stops before this call
 *
 * Runs up to @budget cycles on @e, letting the PMU fold every counter wrap
 * in.  An interrupting counter (a sampling event's) stops the engine
 * right after the microword that wrapped it; the stop is delivered as an
 * interrupt (vpmu_irq_deliver()), whose handler takes the sample, and
 * the run carries on with what is left of the budget.  Such a stop is not
 * the program's: it ends nothing and may even have used no cycles (a wrap
 * on the microword that halted, reported first), so it is not counted
 * against anything.  With the budget used up the engine is still asked
 * once more, with none left: it then reports a halt or trap of that last
 * microword, or the end of the budget, exactly as it would have without
 * the wrap.  A wrap needs at least one counted event, so the engine cannot
 * report wraps forever without running; the bound only guards against an
 * engine bug.  Counting events' counters wrap freely: the engine counts
 * their wraps, and perf folds them in whenever it reads the event (the
 * engine may even leave the counts in its microwords until then, with
 * sampling events open too while none is near its wrap: reading settles
 * them).
 *
 * After VPMU_RUN_CHUNK_STOPS overflow stops in the chunk (@stops of them
 * before this call: a chunk may call it more than once) the engine is
 * asked with no budget left, as at the budget's end: it reports a halt or
 * trap of the microword it stopped after, or the end of the budget, and
 * the chunk ends there, the run going on in the next chunk with the
 * cycles left.  A call made after that many runs nothing.
 *
 * Context: on @e's CPU, interrupts disabled.
 * Return: the chunk's overflow stops, @stops and this call's.
 */
unsigned int vpmu_run_engine(struct vpmu_machine *m, struct vpmu_engine *e,
			     u64 budget, struct vpmu_stop *stop,
			     unsigned int stops)
{
	unsigned int idle = 0;
	u64 used = 0;

	for (;;) {
		/*
		 * A stalling microword may overshoot the budget, and an
		 * overflow stop may come right after it: then none is left.
		 */
		vpmu_engine_run(e, stops < VPMU_RUN_CHUNK_STOPS && used < budget ?
				   budget - used : 0, stop);
		used += stop->cycles;
		if (stop->reason != VPMU_STOP_OVERFLOW)
			break;
		vpmu_irq_deliver(&m->priv->irq, e, stop);
		m->priv->ops->overflow_end(m, e, stop);
		stops++;
		idle = stop->cycles ? 0 : idle + 1;
		if (WARN_ON_ONCE(idle > VPMU_NR_COUNTERS_MAX)) {
			stop->reason = VPMU_STOP_BUDGET;
			break;
		}
	}
	stop->cycles = used;
	return stops;
}

/*
 * Cycles of an armed chunk at most.  A run of one cycle costs as much as
 * about 40 cycles of an unarmed chunk (80 ns against 2 on the host's
 * build, sort on the default image), so a chunk of this many keeps
 * interrupts off about as long as an unarmed one of VPMU_RUN_CHUNK (5000)
 * cycles; it ends sooner than the run's chunk would, as a chunk the
 * engine yields does, and the run goes on in the next.
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
 * @stops:	the chunk's overflow stops
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
		     struct vpmu_stop *stop, unsigned int *stops)
{
	u32 why = 0;
	u64 used = 0;
	bool retires;

	budget = min_t(u64, budget, VPMU_RUN_STEP_CHUNK);
	*stops = 0;
	do {
		retires = vpmu_engine_uword_retires(e, vpmu_engine_upc(e));
		*stops = vpmu_run_engine(m, e, 1, stop, *stops);
		used += stop->cycles;
		if (stop->reason != VPMU_STOP_BUDGET || !stop->cycles)
			break;
		if (retires)
			why = vpmu_run_break(run, e);
	} while (!why && used < budget);
	stop->cycles = used;
	return why;
}
