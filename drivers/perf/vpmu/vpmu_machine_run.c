// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu_machine_run.c - running a program on the engines, in chunks.
 *
 * A run goes in chunks.  A chunk runs on the engine of the CPU the task is
 * on, with interrupts disabled (perf callbacks touch the engine from
 * interrupts); between chunks the program's state lives in a struct
 * vpmu_ctx, off every engine, so the task can be rescheduled, migrated or
 * stopped by a signal there.  The whole run uses the control store that was
 * current when it started.  Before each chunk the run brings memory for its
 * ucode to the engine of the CPU it is on, if that engine has too little
 * (its first run there, or a larger ucode): allocated here, where sleeping
 * is allowed, and given to the engine inside the chunk (vpmu_machine.c);
 * the first run on a CPU also requests that CPU's overflow lines.
 *
 * An overflow stop in a chunk is delivered as an interrupt
 * (vpmu_machine_irq.c) before the engine runs on; the layer above sees a
 * chunk begin and end through the machine's ops.
 *
 * What the engine does in a chunk, at full speed or, for a run armed to
 * stop between instructions (VPMU_RUN_F_STEP, breakpoints), a microword
 * at a time, is vpmu_machine_chunk.c's.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/err.h>
#include <linux/jump_label.h>
#include <linux/kernel.h>
#include <linux/kstrtox.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>

#include "vpmu_engine.h"
#include "vpmu_machine_priv.h"

/*
 * Cycles per chunk: the longest the CPU runs with interrupts disabled on
 * behalf of one task, and how late a signal is noticed; short enough to
 * keep both small, long enough that the per-chunk cost (context save and
 * restore, a signal check) stays small next to its work (5000 cycles are
 * about a quarter of a millisecond under TCG, far less natively).  A
 * chunk may end sooner, where the engine yields at a translated block it
 * has too few cycles left for; the next chunk enters that block
 * (vpmu_engine_tc_yield()).
 */
#define VPMU_RUN_CHUNK	5000

/*
 * Instructions translated after a chunk at most, of those it found warm:
 * a translation covers what it would in one long run however the runs
 * are cut, and a chunk's time with interrupts off stays bounded.
 */
#define VPMU_RUN_CHUNK_TRANSLATE	2

/*
 * For benchmarks: the longest chunk since bench_chunk_ns and
 * bench_chunk_stops were last written, in ns with interrupts off and in
 * overflow stops.  Measured only while bench_chunk_time is set: a static
 * key, so that no other run pays for it.
 */
static DEFINE_STATIC_KEY_FALSE(vpmu_bench_chunk_key);
static unsigned long vpmu_bench_chunk_ns, vpmu_bench_chunk_stops;
module_param_named(bench_chunk_ns, vpmu_bench_chunk_ns, ulong, 0644);
module_param_named(bench_chunk_stops, vpmu_bench_chunk_stops, ulong, 0644);

static int vpmu_bench_chunk_time_set(const char *val,
				     const struct kernel_param *kp)
{
	bool on;
	int ret = kstrtobool(val, &on);

	if (ret)
		return ret;
	if (on)
		static_branch_enable(&vpmu_bench_chunk_key);
	else
		static_branch_disable(&vpmu_bench_chunk_key);
	return 0;
}

static int vpmu_bench_chunk_time_get(char *buf, const struct kernel_param *kp)
{
	return scnprintf(buf, PAGE_SIZE, "%d\n",
			 static_key_enabled(&vpmu_bench_chunk_key));
}

static const struct kernel_param_ops vpmu_bench_chunk_time_ops = {
	.set = vpmu_bench_chunk_time_set,
	.get = vpmu_bench_chunk_time_get,
};
module_param_cb(bench_chunk_time, &vpmu_bench_chunk_time_ops, NULL, 0644);
MODULE_PARM_DESC(bench_chunk_time,
		 "make chunk-bench: time each /dev/vpmu chunk (bench_chunk_ns, bench_chunk_stops)");

/**
 * struct vpmu_runner - one run in progress
 * @m:		the machine
 * @run:	the caller's arguments (checked); the results are filled in
 * @cs:		the control store the whole run uses (a reference)
 * @ctx:	the program's state between chunks
 * @mem:	the program's memory, a kernel copy
 * @prep:	what the run brings to the CPUs it reaches: engine memory
 *		for @cs, the CPU a chunk found not ready
 * @left:	cycles of the budget not used yet
 * @started:	the first chunk has run (later chunks restore @ctx), or
 *		the run resumes a saved program
 * @ran:	a chunk has run the program
 * @resume:	the next chunk resumes a saved program (VPMU_RUN_F_RESUME)
 * @trap:	that program stopped by TRAP: it goes on after the TRAP
 * @ext:	the external signal line, as the run has it now
 * @armed:	the run stops between instructions (VPMU_RUN_F_STEP, nbreak)
 * @brk:	...and a chunk stopped it so: the VPMU_RUN_BREAK_* bits
 *
 * Private to the calling task: no locking.
 */
struct vpmu_runner {
	struct vpmu_machine	*m;
	struct vpmu_run		*run;
	struct vpmu_cstore	*cs;
	struct vpmu_ctx		*ctx;
	u8			*mem;
	struct vpmu_machine_prep	prep;
	u64			left;
	bool			started;
	bool			ran;
	bool			resume;
	bool			trap;
	bool			ext;
	bool			armed;
	u32			brk;
};

/* Was that the end of the run?  If so, say why in @run. */
static bool vpmu_run_ended(struct vpmu_runner *r, const struct vpmu_stop *stop)
{
	struct vpmu_run *run = r->run;

	switch (stop->reason) {
	case VPMU_STOP_HALT:
		run->stop = VPMU_RUN_HALT;
		return true;
	case VPMU_STOP_TRAP:
		run->stop = VPMU_RUN_TRAP;
		run->code = stop->code;
		return true;
	case VPMU_STOP_FAULT:
		run->stop = VPMU_RUN_FAULT;
		run->code = stop->code;
		run->addr = stop->addr;
		return true;
	case VPMU_STOP_BUDGET:
	case VPMU_STOP_OVERFLOW:
		/* vpmu_run_engine() never ends a chunk on an overflow. */
		break;
	}
	/* Where the budget ends on a break too, the break says more. */
	if (r->brk) {
		run->stop = VPMU_RUN_BREAK;
		run->code = r->brk;
		return true;
	}
	if (!r->left) {
		run->stop = VPMU_RUN_BUDGET;
		return true;
	}
	if (signal_pending(current)) {
		run->stop = VPMU_RUN_SIGNAL;
		return true;
	}
	return false;
}

/* The program's state at its stop; the engine must still be ours. */
static void vpmu_run_capture(struct vpmu_run *run, struct vpmu_engine *e,
			     const struct vpmu_stop *stop)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(run->regs); i++)
		run->regs[i] = vpmu_engine_reg(e, VPMU_OPND_R0 + i);
	run->pc = vpmu_engine_reg(e, VPMU_OPND_PC);
	run->upc = stop->upc;
	run->ipc = stop->ipc;
	run->mode_out = vpmu_engine_mode(e);
}

/*
 * The cycles the next chunk may use: the chunk's size, what is left of
 * the budget, and no further than where the ext line flips (run.ext_at),
 * which then happens between two chunks: at the first microword boundary
 * at or after that cycle, however the run was cut.
 */
static u64 vpmu_run_chunk_budget(struct vpmu_runner *r)
{
	const struct vpmu_run *run = r->run;
	u64 n = min_t(u64, r->left, VPMU_RUN_CHUNK);

	if (run->cycles >= run->ext_at)
		return n;
	return min(n, run->ext_at - run->cycles);
}

/* Flip the ext line once the run has reached run.ext_at (if not 0). */
static void vpmu_run_ext(struct vpmu_runner *r)
{
	const struct vpmu_run *run = r->run;

	if (run->ext_at && run->cycles >= run->ext_at &&
	    r->ext == !!(run->flags & VPMU_RUN_F_EXT))
		r->ext = !r->ext;
}

/* With VPMU_RUN_F_REGS the program has the caller's registers. */
static void vpmu_run_set_regs(struct vpmu_runner *r, struct vpmu_engine *e)
{
	const struct vpmu_run *run = r->run;
	unsigned int i;

	if (!(run->flags & VPMU_RUN_F_REGS))
		return;
	for (i = 0; i < ARRAY_SIZE(run->regs); i++)
		vpmu_engine_set_reg(e, VPMU_OPND_R0 + i, run->regs[i]);
}

/*
 * The first chunk of a resumed program: it goes on after its TRAP, if it
 * stopped by one.  A TRAP in the last microword cannot be returned from:
 * the engine then reports it again, at once.
 */
static void vpmu_run_resume(struct vpmu_runner *r, struct vpmu_engine *e)
{
	r->resume = false;
	vpmu_run_set_regs(r, e);
	if (r->trap)
		vpmu_engine_trap_return(e);
}

/*
 * One chunk on this CPU's engine, with interrupts disabled throughout: the
 * program is put on the engine (started, or restored from @r->ctx), run,
 * and saved off it again before anyone else can use the engine, perf
 * callbacks included.
 *
 * Return: 1 if the run has ended, 0 if it goes on, -EAGAIN if the task is
 * on a CPU that has no overflow lines yet or whose engine needs memory
 * @r->prep has not (nothing ran), or another negative errno.
 */
static int vpmu_run_chunk(struct vpmu_runner *r)
{
	struct vpmu_machine *m = r->m;
	struct vpmu_run *run = r->run;
	struct vpmu_stop stop;
	struct vpmu_engine *e;
	unsigned int stops;
	unsigned long flags;
	int ret = 0;
	u64 t0 = 0;

	local_irq_save(flags);
	if (static_branch_unlikely(&vpmu_bench_chunk_key))
		t0 = ktime_get_ns();
	e = vpmu_machine_engine_get(m, r->cs, &r->prep);
	if (IS_ERR(e)) {
		ret = PTR_ERR(e);
		goto out_put_engine;
	}
	if (r->started) {
		/* The engine runs r->cs: restoring cannot be stale. */
		ret = vpmu_engine_ctx_restore(e, r->ctx);
		if (WARN_ON_ONCE(ret))
			goto out_put_engine;
		if (r->resume)
			vpmu_run_resume(r, e);
	} else {
		vpmu_engine_start(e, r->mem, run->mem_size, run->entry,
				  run->mode);
		vpmu_run_set_regs(r, e);
		r->started = true;
	}
	r->ran = true;
	vpmu_run_ext(r);
	vpmu_engine_set_ext(e, r->ext);
	/*
	 * The layer above hears of the chunk: triggers toggle the freeze
	 * state of current's groups.
	 */
	m->priv->ops->chunk_begin(m, e);
	if (unlikely(r->armed))
		r->brk = vpmu_run_stepped(m, e, run, vpmu_run_chunk_budget(r),
					  &stop, &stops);
	else
		stops = vpmu_run_engine(m, e, vpmu_run_chunk_budget(r), &stop,
					0);
	m->priv->ops->chunk_end(m, e);
	if (static_branch_unlikely(&vpmu_bench_chunk_key) &&
	    stops > vpmu_bench_chunk_stops)
		vpmu_bench_chunk_stops = stops;
	vpmu_engine_ctx_save(e, r->ctx);

	run->cycles += stop.cycles;
	r->left -= min(stop.cycles, r->left);
	if (vpmu_run_ended(r, &stop)) {
		vpmu_run_capture(run, e, &stop);
		ret = 1;
	} else {
		vpmu_engine_tc_work(e, VPMU_RUN_CHUNK_TRANSLATE);
	}
out_put_engine:
	vpmu_machine_engine_put(m);
	if (static_branch_unlikely(&vpmu_bench_chunk_key)) {
		t0 = ktime_get_ns() - t0;
		if (t0 > vpmu_bench_chunk_ns)
			vpmu_bench_chunk_ns = t0;
	}
	local_irq_restore(flags);
	return ret;
}

/*
 * Chunks until the run ends, each after bringing what the CPU the task is
 * on needs (engine memory, its overflow lines), if it needs anything.  A
 * chunk that finds the task moved to a CPU that still needs something
 * comes back for it.
 *
 * Return: 0 when the run has ended, or a negative errno (-ENOMEM).
 */
static int vpmu_run_chunks(struct vpmu_runner *r)
{
	int ret;

	do {
		ret = vpmu_machine_cpu_prepare(r->m, r->cs, &r->prep);
		if (!ret)
			ret = vpmu_run_chunk(r);
		if (!ret || ret == -EAGAIN)
			cond_resched();
	} while (!ret || ret == -EAGAIN);
	vpmu_machine_prep_release(&r->prep);
	return ret > 0 ? 0 : ret;
}

/* Free what @saved holds, if anything, and empty it. */
void vpmu_run_saved_release(struct vpmu_run_saved *saved)
{
	if (saved->cs) {
		vpmu_ctx_destroy(saved->ctx);
		vpmu_cstore_put(saved->cs);
	}
	*saved = (struct vpmu_run_saved){ };
}

/* Can a program that stopped so go on (VPMU_RUN_F_RESUME)? */
static bool vpmu_run_resumable(u32 stop)
{
	return stop == VPMU_RUN_TRAP || stop == VPMU_RUN_BUDGET ||
	       stop == VPMU_RUN_SIGNAL || stop == VPMU_RUN_BREAK;
}

/**
 * vpmu_machine_run() - run a program to its end, on the engines
 * @m:		the machine
 * @run:	what to run, checked by the caller; the results are filled in
 * @mem:	the program's memory, run->mem_size bytes, used in place
 * @saved:	with VPMU_RUN_F_RESUME, the program to go on with (the
 *		caller checked that it holds one, of run->mem_size bytes);
 *		else empty.  Filled in with the program if it stops so that
 *		it can go on (TRAP, break, budget, signal), given back as it
 *		was if the run fails before any of it ran, emptied otherwise.
 *
 * Runs on the engine of whatever CPU the calling task is on, chunk by
 * chunk, until the program halts, traps or faults, reaches an instruction
 * boundary it is to stop at (VPMU_RUN_F_STEP, run->brk[]), the budget is
 * used up or a signal is pending (run->stop says which).  Work is counted
 * where, and for whom, it was done.
 *
 * Context: process context; may sleep between chunks.
 * Return: 0 or a negative errno: -ENOMEM if the program's state, or the
 * memory of the engine or the overflow lines of a CPU the run reached
 * first, could not be allocated.  Nothing has changed if that was before
 * the first chunk; a run that fails after moving to such a CPU mid-way
 * has counted what ran before, and its program is gone.
 */
int vpmu_machine_run(struct vpmu_machine *m, struct vpmu_run *run, u8 *mem,
		     struct vpmu_run_saved *saved)
{
	struct vpmu_runner runner = { .m = m, .run = run, .mem = mem };
	struct vpmu_runner *r = &runner;
	const struct vpmu_run_saved taken = *saved;
	int ret;

	if (run->flags & VPMU_RUN_F_RESUME) {
		if (WARN_ON_ONCE(!saved->cs) ||
		    vpmu_ctx_set_mem(saved->ctx, mem, run->mem_size))
			return -EINVAL;
		r->cs = saved->cs;
		r->ctx = saved->ctx;
		r->started = true;
		r->resume = true;
		r->trap = saved->stop == VPMU_RUN_TRAP;
		*saved = (struct vpmu_run_saved){ };
	} else {
		r->cs = vpmu_cstore_get(m);
		r->ctx = vpmu_ctx_create();
		if (!r->ctx) {
			ret = -ENOMEM;
			goto out_put_cs;
		}
	}
	r->run->generation = r->cs->generation;
	r->left = r->run->budget;
	r->ext = r->run->flags & VPMU_RUN_F_EXT;
	r->armed = (r->run->flags & VPMU_RUN_F_STEP) || r->run->nbreak;
	ret = vpmu_run_chunks(r);
	if (ret && !r->ran && r->resume) {
		/* Nothing ran: the program goes back as it was. */
		*saved = taken;
		return ret;
	}
	if (!ret && vpmu_run_resumable(run->stop)) {
		*saved = (struct vpmu_run_saved){
			.cs = r->cs, .ctx = r->ctx, .stop = run->stop,
			.mem_size = run->mem_size,
		};
		return 0;
	}

	vpmu_ctx_destroy(r->ctx);
out_put_cs:
	vpmu_cstore_put(r->cs);
	return ret;
}
