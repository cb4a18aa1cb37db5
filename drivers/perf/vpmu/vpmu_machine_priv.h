/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vpmu_machine_priv.h - inside the machine layer: what its files
 * (vpmu_machine*.c) share and the layer above does not see.
 */
#ifndef _VPMU_MACHINE_PRIV_H
#define _VPMU_MACHINE_PRIV_H

#include <linux/mutex.h>
#include <linux/rcupdate.h>

#include "vpmu_machine.h"
#include "vpmu_machine_irq.h"

/**
 * struct vpmu_machine_cpu - one CPU's engine
 * @engine:	the engine; lives from module load to unload.  Made with its
 *		PMU hardware only; its memory (what running a ucode needs)
 *		comes with the first run chunk on this CPU, sized by that
 *		run's image, and grows with a larger image
 * @cs:		the control store @engine is attached to, a reference; NULL
 *		until a run chunk first attaches one (the engine has no memory
 *		then)
 * @uhist:	the histogram interval last applied to @engine: the
 *		uhist_interval while uhist/state is running, else 0
 * @hu_n:	buckets of the histogram-unit program in force on @engine
 *
 * Only used on its own CPU with interrupts disabled: by a run chunk or by a
 * perf callback.  No lock needed.  Init and exit, when nothing runs, touch
 * every CPU's; so does a vpmu_machine_call() for an offline CPU, where
 * nothing else runs.  A run about to take a chunk reads @engine's memory
 * size and @cs on its own CPU with preemption disabled, to know whether
 * to bring memory (vpmu_machine_cpu_prepare()): only a chunk on this CPU
 * changes them, with interrupts disabled.
 */
struct vpmu_machine_cpu {
	struct vpmu_engine	*engine;
	struct vpmu_cstore	*cs;
	u32			uhist;
	unsigned int		hu_n;
};

/**
 * struct vpmu_machine_priv - the machine's own state
 * @m:		the machine whose state this is
 * @uhist_interval: the histogram interval K (uhist/interval, and the
 *		uhist_interval module parameter, which vpmu_main.c hands
 *		over).  Read by run chunks without a lock.
 * @uhist_state: enum vpmu_uhist_state; engines sample at K only while it
 *		is running.  Read by run chunks without a lock.
 * @hu_nr:	buckets of the histogram-unit program in force (0: off)
 * @current_cs: the control store new runs use; holds one reference.  Readers
 *		use RCU (vpmu_cstore_get()); writers hold @lock.
 * @lock:	serialises installs: protects @current_cs updates
 *		and @generation
 * @generation:	generation of the last image installed
 * @free_wq:	where images are freed; flushed at unload so that no free
 *		runs after the module is gone
 * @cpu:	each CPU's engine
 * @irq:	the counters' overflow interrupt lines; a CPU's are
 *		requested by the first run to reach it, before its engine
 *		gets memory (vpmu_machine_cpu_prepare())
 * @ops:	the layer above's callbacks; no-ops while it has registered
 *		none, never NULL
 */
struct vpmu_machine_priv {
	struct vpmu_machine	*m;
	u32			uhist_interval;
	int			uhist_state;
	unsigned int		hu_nr;
	struct vpmu_cstore __rcu	*current_cs;
	struct mutex		lock;		/* serialises installs */
	u64			generation;
	struct workqueue_struct	*free_wq;
	struct vpmu_machine_cpu __percpu *cpu;
	struct vpmu_irq_lines	irq;
	const struct vpmu_machine_ops *ops;
};

/**
 * struct vpmu_machine_prep - what a run brings to the CPUs it reaches
 * @mem:	memory for the run's image, allocated in process context for
 *		the next engine the run reaches that has too little, or NULL
 * @old:	the memory such an engine gave up, to be freed in process
 *		context, or NULL
 * @retry:	a chunk found @cpu not ready (vpmu_machine_engine_get()):
 *		the next vpmu_machine_cpu_prepare() readies that CPU...
 * @retry_mem:	...whose engine needed memory the run had not got...
 * @cpu:	...rather than the CPU the task is on then
 *
 * Private to the running task (struct vpmu_runner), zeroed at first;
 * vpmu_machine.c fills and empties it.
 */
struct vpmu_machine_prep {
	struct vpmu_engine_mem	*mem;
	struct vpmu_engine_mem	*old;
	bool			retry;
	bool			retry_mem;
	unsigned int		cpu;
};

/* This CPU's engine for a run chunk of @cs (vpmu_machine.c). */
int vpmu_machine_cpu_prepare(struct vpmu_machine *m,
			     const struct vpmu_cstore *cs,
			     struct vpmu_machine_prep *pp);
void vpmu_machine_prep_release(struct vpmu_machine_prep *pp);
struct vpmu_engine *vpmu_machine_engine_get(struct vpmu_machine *m,
					    struct vpmu_cstore *cs,
					    struct vpmu_machine_prep *pp);
void vpmu_machine_engine_put(struct vpmu_machine *m);

/* What the engine does in a run chunk (vpmu_machine_chunk.c). */
unsigned int vpmu_run_engine(struct vpmu_machine *m, struct vpmu_engine *e,
			     u64 budget, struct vpmu_stop *stop,
			     unsigned int stops);
u32 vpmu_run_stepped(struct vpmu_machine *m, struct vpmu_engine *e,
		     const struct vpmu_run *run, u64 budget,
		     struct vpmu_stop *stop, unsigned int *stops);

#endif /* _VPMU_MACHINE_PRIV_H */
