/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vpmu_machine_irq.h - overflow delivery: the counters' interrupt lines
 * (vpmu_machine_irq.c).
 *
 * It knows engines and their stops, and nothing of the machine above
 * it: the machine sets the lines up with a callback, has a CPU's lines
 * requested before that CPU's engine first runs, and hands an overflow
 * stop over; each line's handler passes the overflow to the callback.
 */
#ifndef _VPMU_MACHINE_IRQ_H
#define _VPMU_MACHINE_IRQ_H

#include <linux/irqdomain.h>
#include <linux/irqreturn.h>
#include <linux/mutex.h>

#include "vpmu_engine.h"

struct vpmu_irq_lines;

/**
 * typedef vpmu_irq_overflow_fn - what an overflow line's handler calls
 * @irq:	the lines
 * @e:		the engine that stopped, this CPU's
 * @idx:	the counter whose line was raised
 * @stop:	the stop, right after the microword on which an interrupting
 *		counter wrapped
 *
 * Called on @e's CPU with interrupts disabled.
 *
 * Return: IRQ_HANDLED, or IRQ_NONE if @idx had nothing to report.
 */
typedef irqreturn_t (*vpmu_irq_overflow_fn)(struct vpmu_irq_lines *irq,
					    struct vpmu_engine *e,
					    unsigned int idx,
					    const struct vpmu_stop *stop);

/**
 * struct vpmu_irq_cpu - overflow delivery on one CPU
 * @ready:	this CPU's lines are requested: set, once, by the first
 *		vpmu_irq_cpu_prepare() for this CPU; read with
 *		smp_load_acquire() (vpmu_irq_cpu_ready())
 * @engine:	while an overflow stop's lines are raised: the stopped
 *		engine...
 * @stop:	...and its stop, latched for the lines' handlers as a PMU
 *		latches the sampled address for its interrupt handler
 * @ran:	set by the handler of the line being raised on this CPU
 *
 * But for @ready, only used on its own CPU with interrupts disabled.
 */
struct vpmu_irq_cpu {
	bool			ready;
	struct vpmu_engine	*engine;
	const struct vpmu_stop	*stop;
	bool			ran;
};

/**
 * struct vpmu_irq_line - one counter's overflow line on one CPU
 * @irq:	the lines it is one of
 * @idx:	the counter
 * @virq:	the Linux IRQ, 0 if not (yet) mapped
 */
struct vpmu_irq_line {
	struct vpmu_irq_lines	*irq;
	unsigned int		idx;
	unsigned int		virq;
};

/**
 * struct vpmu_irq_lines - the counters' overflow lines
 * @nr_counters: lines per CPU, one per counter
 * @overflow:	called by the lines' handlers
 * @lock:	serialises requesting a CPU's lines
 * @fwnode:	names the domain
 * @domain:	nr_counters * nr_cpu_ids hwirqs; a CPU's are mapped and
 *		requested when a run first reaches it
 * @line:	each hwirq's line (hwirq = cpu * nr_counters + idx)
 * @cpu:	each CPU's delivery state
 * @names:	"vpmu-ctrN", one per counter, shared by the CPUs' lines
 *
 * The domain is set up at load and everything torn down at unload, both
 * before any event or run can use a line and after the last can.
 */
struct vpmu_irq_lines {
	unsigned int		nr_counters;
	vpmu_irq_overflow_fn	overflow;
	struct mutex		lock;	/* serialises requesting lines */
	struct fwnode_handle	*fwnode;
	struct irq_domain	*domain;
	struct vpmu_irq_line	*line;
	struct vpmu_irq_cpu __percpu *cpu;
	/* "vpmu-ctr%u", room for any u32 (W=1 checks snprintf()) */
	char			names[VPMU_NR_COUNTERS_MAX][sizeof("vpmu-ctr4294967295")];
};

int vpmu_irq_init(struct vpmu_irq_lines *irq, unsigned int nr_counters,
		  vpmu_irq_overflow_fn overflow);
void vpmu_irq_exit(struct vpmu_irq_lines *irq);
int vpmu_irq_cpu_prepare(struct vpmu_irq_lines *irq, unsigned int cpu);
bool vpmu_irq_cpu_ready(struct vpmu_irq_lines *irq, unsigned int cpu);
void vpmu_irq_deliver(struct vpmu_irq_lines *irq, struct vpmu_engine *e,
		      const struct vpmu_stop *stop);

#endif /* _VPMU_MACHINE_IRQ_H */
