// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu_irq.c - the counters' overflow interrupt lines, one per counter of
 * every CPU's engine.
 *
 * Every engine has its own counters, so every engine has its own lines,
 * as a PMU wired to one interrupt per CPU has: a linear IRQ domain with
 * nr_counters hwirqs per possible CPU (hwirq = cpu * nr_counters + idx),
 * mapped at load, each requested as "vpmu-ctrN" after its counter.  The
 * run loop raises a counter's line (vpmu_irq_raise()) with interrupts
 * disabled, as a real interrupt would find them, on the CPU whose engine
 * stopped: the line is counted in that CPU's column of /proc/interrupts
 * and its handler runs right there, before the engine runs on.
 *
 * One line shared by all CPUs would lose interrupts: its flow handler
 * drops an interrupt raised while the line is being handled on another
 * CPU.  A CPU's lines are only ever raised on that CPU, by one run at a
 * time, so none is lost; should a handler still not run (a line the core
 * has disabled), the raise says so and the caller handles the overflow
 * itself.  (Per-CPU-devid lines, one line with per-CPU handlers as Arm
 * PMUs' PPIs have, need core calls that are not exported to modules.)
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/interrupt.h>
#include <linux/irq.h>
#include <linux/irqdesc.h>
#include <linux/irqdomain.h>
#include <linux/percpu.h>
#include <linux/slab.h>

#include "vpmu.h"
#include "vpmu_engine.h"

/**
 * struct vpmu_irq_lines - the lines and what their handlers share
 * @fwnode:	names the domain
 * @domain:	nr * nr_cpu_ids hwirqs
 * @virq:	the Linux IRQ of each hwirq, 0 if not (yet) mapped
 * @nr:		counters per engine
 * @names:	"vpmu-ctrN", one per counter, shared by the CPUs' lines
 *
 * Set up at load and torn down at unload, both before any event or run
 * can use a line and after the last can.
 */
struct vpmu_irq_lines {
	struct fwnode_handle	*fwnode;
	struct irq_domain	*domain;
	unsigned int		*virq;
	unsigned int		nr;
	char			names[VPMU_NR_COUNTERS_MAX][16];
};

static struct vpmu_irq_lines vpmu_irq;

/* Set by the handler of the line being raised on this CPU. */
static DEFINE_PER_CPU(bool, vpmu_irq_ran);

/* The lines cannot be masked: nothing but the run loop raises them. */
static void vpmu_irq_noop(struct irq_data *d)
{
}

static struct irq_chip vpmu_irq_chip = {
	.name		= "vpmu",
	.irq_mask	= vpmu_irq_noop,
	.irq_unmask	= vpmu_irq_noop,
};

static int vpmu_irq_map(struct irq_domain *d, unsigned int virq,
			irq_hw_number_t hw)
{
	irq_set_chip_and_handler(virq, &vpmu_irq_chip, handle_simple_irq);
	irq_set_noprobe(virq);
	return 0;
}

static const struct irq_domain_ops vpmu_irq_domain_ops = {
	.map	= vpmu_irq_map,
	.xlate	= irq_domain_xlate_onecell,
};

static irqreturn_t vpmu_irq_handler(int irq, void *dev_id)
{
	__this_cpu_write(vpmu_irq_ran, true);
	return vpmu_pmu_irq((unsigned long)dev_id);
}

/**
 * vpmu_irq_raise() - raise counter @idx's overflow line on this CPU
 * @idx:	the counter
 *
 * Call with interrupts disabled.  Return: 0 once the line's handler has
 * run, -EINVAL if the counter has no line, -EIO if the handler did not
 * run; the caller then handles the overflow itself.
 */
int vpmu_irq_raise(unsigned int idx)
{
	int ret;

	lockdep_assert_irqs_disabled();
	if (idx >= vpmu_irq.nr)
		return -EINVAL;
	__this_cpu_write(vpmu_irq_ran, false);
	ret = generic_handle_domain_irq(vpmu_irq.domain,
					smp_processor_id() * vpmu_irq.nr + idx);
	if (ret)
		return ret;
	return __this_cpu_read(vpmu_irq_ran) ? 0 : -EIO;
}

void vpmu_irq_exit(void)
{
	unsigned int i, n = vpmu_irq.nr * nr_cpu_ids;

	for (i = 0; vpmu_irq.virq && i < n; i++) {
		unsigned long idx = i % vpmu_irq.nr;

		if (!vpmu_irq.virq[i])
			continue;
		free_irq(vpmu_irq.virq[i], (void *)idx);
		irq_dispose_mapping(vpmu_irq.virq[i]);
	}
	kfree(vpmu_irq.virq);
	vpmu_irq.virq = NULL;
	vpmu_irq.nr = 0;
	if (vpmu_irq.domain)
		irq_domain_remove(vpmu_irq.domain);
	vpmu_irq.domain = NULL;
	if (vpmu_irq.fwnode)
		irq_domain_free_fwnode(vpmu_irq.fwnode);
	vpmu_irq.fwnode = NULL;
}

/* Map hwirq @hw and request it for counter @idx. */
static int vpmu_irq_line(unsigned int hw, unsigned int idx)
{
	unsigned int virq;
	int ret;

	virq = irq_create_mapping(vpmu_irq.domain, hw);
	if (!virq)
		return -ENOSPC;
	ret = request_irq(virq, vpmu_irq_handler,
			  IRQF_NO_THREAD | IRQF_NOBALANCING,
			  vpmu_irq.names[idx], (void *)(unsigned long)idx);
	if (ret) {
		irq_dispose_mapping(virq);
		return ret;
	}
	vpmu_irq.virq[hw] = virq;
	return 0;
}

/* @nr lines per possible CPU, each with its handler requested. */
int vpmu_irq_init(unsigned int nr)
{
	unsigned int cpu, i, n = nr * nr_cpu_ids;
	int ret = -ENOMEM;

	vpmu_irq.virq = kcalloc(n, sizeof(*vpmu_irq.virq), GFP_KERNEL);
	if (!vpmu_irq.virq)
		goto err;
	vpmu_irq.nr = nr;
	for (i = 0; i < nr; i++)
		snprintf(vpmu_irq.names[i], sizeof(vpmu_irq.names[i]),
			 "vpmu-ctr%u", i);
	vpmu_irq.fwnode = irq_domain_alloc_named_fwnode("vpmu");
	if (!vpmu_irq.fwnode)
		goto err;
	vpmu_irq.domain = irq_domain_create_linear(vpmu_irq.fwnode, n,
						   &vpmu_irq_domain_ops, NULL);
	if (!vpmu_irq.domain)
		goto err;
	for_each_possible_cpu(cpu) {
		for (i = 0; i < nr; i++) {
			ret = vpmu_irq_line(cpu * nr + i, i);
			if (ret)
				goto err;
		}
	}
	return 0;
err:
	pr_err("cannot set up the counters' interrupt lines: %d\n", ret);
	vpmu_irq_exit();
	return ret;
}
