/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vpmu_machine.h - the machine layer: the per-CPU engines, the current
 * control store, runs, overflow stops and their interrupt delivery.
 *
 *   vpmu_machine.c      engines, control stores, calls on an engine's
 *                       CPU, the histograms' settings on every engine
 *   vpmu_machine_run.c  running a program in chunks
 *   vpmu_machine_chunk.c the engine in a chunk: overflow stops
 *                       delivered, or a microword at a time, stopping
 *                       between instructions (a debugger's)
 *   vpmu_machine_irq.c  the counters' overflow lines: an overflow stop
 *                       delivered as interrupts
 *   vpmu_default_image.c the built-in image's bytes
 *
 * The front ends (vpmu.h) use the machine through this header; what
 * the machine's files share besides is in vpmu_machine_priv.h.  The
 * machine uses the portable engine core (vpmu_engine.h) and calls the
 * layer above only through the struct vpmu_machine_ops it registers.
 */
#ifndef _VPMU_MACHINE_H
#define _VPMU_MACHINE_H

#include <linux/irqreturn.h>
#include <linux/refcount.h>
#include <linux/types.h>
#include <linux/workqueue.h>

#include "vpmu_engine.h"

/**
 * struct vpmu_cstore - the control store: an installed ucode, refcounted
 * @uc:		the ucode (the validated, decoded image); immutable
 * @generation:	1 for the control store installed at load, then one more
 *		for every install; never reused (ucode/generation, run
 *		results)
 * @ref:	one for being current, one for every run using it and one
 *		for every engine attached to it
 * @free_wq:	where @free_work runs (the machine's)
 * @free_work:	frees @uc and the control store an RCU grace period after
 *		the last reference is dropped, in process context (dropping
 *		may happen with preemption disabled; freeing may sleep)
 */
struct vpmu_cstore {
	struct vpmu_ucode	*uc;
	u64			generation;
	refcount_t		ref;
	struct workqueue_struct	*free_wq;
	struct rcu_work		free_work;
};

struct vpmu_machine;
struct vpmu_machine_priv;

/**
 * struct vpmu_machine_ops - what the machine asks of the layer above
 * @chunk_begin: a run chunk for current is about to run on @e...
 * @chunk_end:	...and has ended (interrupts stay disabled in between)
 * @overflow:	counter @idx's overflow interrupt: @e stopped at @stop,
 *		right after the microword on which an interrupting counter
 *		wrapped; the handler folds the wrap in and samples
 * @overflow_end: every line @stop raised has been handled; @e runs on
 *		next
 * @hu_fold:	@e's histogram-unit buckets are about to change other than
 *		by counting (a program, a reset, attaching an image)...
 * @hu_rebase:	...and have changed
 *
 * The perf glue fills these in (vpmu_machine_set_ops()), as a PMU driver
 * fills in its backend's ops: it is the only way the machine reaches the
 * layer above.  Every call is on @e's CPU with interrupts disabled.
 */
struct vpmu_machine_ops {
	void (*chunk_begin)(struct vpmu_machine *m, struct vpmu_engine *e);
	void (*chunk_end)(struct vpmu_machine *m, struct vpmu_engine *e);
	irqreturn_t (*overflow)(struct vpmu_machine *m, struct vpmu_engine *e,
				unsigned int idx, const struct vpmu_stop *stop);
	void (*overflow_end)(struct vpmu_machine *m, struct vpmu_engine *e,
			     const struct vpmu_stop *stop);
	void (*hu_fold)(struct vpmu_machine *m, struct vpmu_engine *e);
	void (*hu_rebase)(struct vpmu_machine *m, struct vpmu_engine *e);
};

/* The micro-PC histogram's sampling state (uhist/state). */
enum vpmu_uhist_state {
	VPMU_UHIST_OFF,
	VPMU_UHIST_RUNNING,
	VPMU_UHIST_PAUSED,
};

/**
 * struct vpmu_machine - the engines and the control store they run
 * @nr_counters: programmable counters per engine (nr_counters)
 * @cs_size:	the largest control store an image may have (cs_size);
 *		an engine's memory is sized by the images it runs
 * @widths:	each counter's width in bits (counter_widths, the last
 *		repeated for the counters past the list)
 * @tc:		engines translate (the tc parameter): their memory holds a
 *		translation cache
 * @priv:	the machine's own state (vpmu_machine_priv.h), from
 *		vpmu_machine_init() to vpmu_machine_exit()
 *
 * The layer above fills in @nr_counters, @cs_size, @widths and @tc before
 * vpmu_machine_init(); they never change, and anyone may read them.
 */
struct vpmu_machine {
	unsigned int		nr_counters;
	unsigned int		cs_size;
	unsigned int		widths[VPMU_NR_COUNTERS_MAX];
	u32			tc_words;	/* translation pool; 0: none */
	struct vpmu_machine_priv *priv;
};

int vpmu_machine_init(struct vpmu_machine *m, struct vpmu_ucode *uc);
void vpmu_machine_exit(struct vpmu_machine *m);
void vpmu_machine_set_ops(struct vpmu_machine *m,
			  const struct vpmu_machine_ops *ops);

int vpmu_machine_ucode_load(const struct vpmu_machine *m,
			    struct vpmu_ucode **out, const void *bytes,
			    size_t len, struct vpmu_verr *verr);
int vpmu_machine_builtin_load(const struct vpmu_machine *m,
			      struct vpmu_ucode **out, struct vpmu_verr *verr);

struct vpmu_cstore *vpmu_cstore_get(struct vpmu_machine *m);
void vpmu_cstore_put(struct vpmu_cstore *cs);
int vpmu_cstore_install(struct vpmu_machine *m, struct vpmu_ucode *uc);

struct vpmu_engine *vpmu_this_engine(struct vpmu_machine *m);

/*
 * Calls on one CPU's engine from process context: @fn runs on the
 * engine's CPU in an IPI, or here if that CPU is offline, with interrupts
 * disabled either way.  @cs is the control store the engine is attached to, NULL
 * if no run has reached that CPU yet (the engine has no memory: it counts
 * nothing and has no micro-PC histogram).
 */
typedef void (*vpmu_machine_call_fn)(struct vpmu_engine *e,
				     const struct vpmu_cstore *cs, void *arg);
int vpmu_machine_call(struct vpmu_machine *m, unsigned int cpu,
		      vpmu_machine_call_fn fn, void *arg);

/*
 * The micro-PC histogram's settings.  An engine picks them up at its next
 * run chunk, or at once when a vpmu_machine_call() reaches it.
 */
u32 vpmu_machine_uhist_interval(const struct vpmu_machine *m);
void vpmu_machine_uhist_set_interval(struct vpmu_machine *m, u32 interval);
enum vpmu_uhist_state vpmu_machine_uhist_state(const struct vpmu_machine *m);
void vpmu_machine_uhist_set_state(struct vpmu_machine *m,
				  enum vpmu_uhist_state state);

/* The histogram unit on every engine. */
unsigned int vpmu_machine_hu_nr(const struct vpmu_machine *m);
u64 vpmu_machine_hu_bucket(struct vpmu_machine *m, struct vpmu_engine *e,
			   unsigned int b);
int vpmu_machine_hu_program(struct vpmu_machine *m,
			    const struct vpmu_hu_prog *p,
			    const struct vpmu_hu_prog *undo);
int vpmu_machine_hu_reset(struct vpmu_machine *m);

/* Running a program (vpmu_machine_run.c). */

/**
 * struct vpmu_run_saved - a stopped program that can go on
 * @cs:	the control store it runs under (a reference), or NULL: none
 * @ctx:	its state
 * @stop:	how it stopped: VPMU_RUN_TRAP, _BUDGET, _SIGNAL or _BREAK
 * @mem_size:	the size of its memory
 */
struct vpmu_run_saved {
	struct vpmu_cstore	*cs;
	struct vpmu_ctx		*ctx;
	u32			stop;
	u32			mem_size;
};

int vpmu_machine_run(struct vpmu_machine *m, struct vpmu_run *run, u8 *mem,
		     struct vpmu_run_saved *saved);
void vpmu_run_saved_release(struct vpmu_run_saved *saved);

#endif /* _VPMU_MACHINE_H */
