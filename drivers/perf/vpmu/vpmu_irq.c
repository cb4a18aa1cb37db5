// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu_irq.c - one interrupt line per counter.
 *
 * Each counter of the engines has an overflow interrupt line of its own:
 * a linear IRQ domain with one hwirq per counter, mapped at load, and a
 * handler requested on every line as "vpmu-ctrN".  The run loop raises a
 * counter's line (vpmu_irq_raise()) with interrupts disabled, as a real
 * interrupt would find them, on the CPU whose engine stopped: the line is
 * counted per CPU in /proc/interrupts and its handler runs right there,
 * before the engine runs on.  The lines are shared by all CPUs, like a
 * PMU interrupt routed to whichever CPU's counter overflowed.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/interrupt.h>
#include <linux/irq.h>
#include <linux/irqdesc.h>
#include <linux/irqdomain.h>

#include "vpmu.h"
#include "vpmu_engine.h"

static struct fwnode_handle *vpmu_irq_fwnode;
static struct irq_domain *vpmu_irq_domain;
static unsigned int vpmu_irq_virq[VPMU_NR_COUNTERS_MAX];
static char vpmu_irq_name[VPMU_NR_COUNTERS_MAX][16];
static unsigned int vpmu_irq_nr;

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
	return vpmu_pmu_irq((unsigned long)dev_id);
}

/**
 * vpmu_irq_raise() - raise counter @idx's overflow line on this CPU
 * @idx:	the counter
 *
 * Call with interrupts disabled.  Return: 0, or -EINVAL if the counter
 * has no line (its handler was not run).
 */
int vpmu_irq_raise(unsigned int idx)
{
	lockdep_assert_irqs_disabled();
	if (idx >= vpmu_irq_nr)
		return -EINVAL;
	return generic_handle_domain_irq(vpmu_irq_domain, idx);
}

void vpmu_irq_exit(void)
{
	unsigned int i;

	for (i = 0; i < vpmu_irq_nr; i++) {
		free_irq(vpmu_irq_virq[i], (void *)(unsigned long)i);
		irq_dispose_mapping(vpmu_irq_virq[i]);
	}
	vpmu_irq_nr = 0;
	if (vpmu_irq_domain)
		irq_domain_remove(vpmu_irq_domain);
	vpmu_irq_domain = NULL;
	if (vpmu_irq_fwnode)
		irq_domain_free_fwnode(vpmu_irq_fwnode);
	vpmu_irq_fwnode = NULL;
}

/* One line per counter, @nr of them, each with its handler requested. */
int vpmu_irq_init(unsigned int nr)
{
	unsigned int i, virq;
	int ret;

	vpmu_irq_fwnode = irq_domain_alloc_named_fwnode("vpmu");
	if (!vpmu_irq_fwnode)
		return -ENOMEM;
	vpmu_irq_domain = irq_domain_create_linear(vpmu_irq_fwnode, nr,
						   &vpmu_irq_domain_ops, NULL);
	if (!vpmu_irq_domain) {
		ret = -ENOMEM;
		goto err;
	}
	for (i = 0; i < nr; i++) {
		virq = irq_create_mapping(vpmu_irq_domain, i);
		if (!virq) {
			ret = -ENOSPC;
			goto err;
		}
		snprintf(vpmu_irq_name[i], sizeof(vpmu_irq_name[i]),
			 "vpmu-ctr%u", i);
		ret = request_irq(virq, vpmu_irq_handler, IRQF_NO_THREAD,
				  vpmu_irq_name[i], (void *)(unsigned long)i);
		if (ret) {
			irq_dispose_mapping(virq);
			goto err;
		}
		vpmu_irq_virq[i] = virq;
		vpmu_irq_nr = i + 1;
	}
	return 0;
err:
	pr_err("cannot set up the counters' interrupt lines: %d\n", ret);
	vpmu_irq_exit();
	return ret;
}
