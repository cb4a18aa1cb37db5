/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vpmu_machine_irq.h - the counters' overflow interrupt lines
 * (vpmu_machine_irq.c).
 */
#ifndef _VPMU_MACHINE_IRQ_H
#define _VPMU_MACHINE_IRQ_H

#include <linux/irqdomain.h>
#include <linux/mutex.h>

#include "vpmu_engine.h"

struct vpmu_machine;

/**
 * struct vpmu_irq_line - one counter's overflow line on one CPU
 * @m:		the machine
 * @idx:	the counter
 * @virq:	the Linux IRQ, 0 if not (yet) mapped
 */
struct vpmu_irq_line {
	struct vpmu_machine	*m;
	unsigned int		idx;
	unsigned int		virq;
};

/**
 * struct vpmu_irq_lines - the counters' overflow lines
 * @lock:	serialises requesting a CPU's lines
 * @fwnode:	names the domain
 * @domain:	nr_counters * nr_cpu_ids hwirqs; a CPU's are mapped and
 *		requested when a run first reaches it
 * @line:	each hwirq's line (hwirq = cpu * nr_counters + idx)
 * @names:	"vpmu-ctrN", one per counter, shared by the CPUs' lines
 *
 * The domain is set up at load and everything torn down at unload, both
 * before any event or run can use a line and after the last can.
 */
struct vpmu_irq_lines {
	struct mutex		lock;	/* serialises requesting lines */
	struct fwnode_handle	*fwnode;
	struct irq_domain	*domain;
	struct vpmu_irq_line	*line;
	char			names[VPMU_NR_COUNTERS_MAX][16];
};

/* The counters' overflow interrupt lines (vpmu_machine_irq.c). */
int vpmu_irq_init(struct vpmu_machine *m);
void vpmu_irq_exit(struct vpmu_machine *m);
int vpmu_irq_cpu_prepare(struct vpmu_machine *m, unsigned int cpu);
void vpmu_irq_deliver(struct vpmu_machine *m, struct vpmu_engine *e,
		      const struct vpmu_stop *stop);

#endif /* _VPMU_MACHINE_IRQ_H */
