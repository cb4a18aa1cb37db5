// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu_machine_irq.c - the counters' overflow interrupt lines, one per
 * counter of every CPU's engine, and the delivery of an overflow stop.
 *
 * Every engine has its own counters, so every engine has its own lines,
 * as a PMU wired to one interrupt per CPU has: a linear IRQ domain with
 * nr_counters hwirqs per possible CPU (hwirq = cpu * nr_counters + idx),
 * each requested as "vpmu-ctrN" after its counter.  A CPU's lines are
 * mapped and requested when a run first reaches it, before its engine
 * can run (vpmu_irq_cpu_prepare()), and kept until unload: only a run
 * chunk raises them, and lines for every possible CPU at load would cost
 * about 3 KB each (descriptor, /proc/irq and /sys/kernel/irq entries),
 * nr_counters of them per CPU that may never exist.  On
 * an overflow stop the run loop has the stop delivered
 * (vpmu_irq_deliver()): with interrupts disabled, as a real interrupt
 * would find them, on the CPU whose engine stopped, the line of every
 * counter that wrapped is raised; it is counted in that CPU's column of
 * /proc/interrupts and its handler runs right there, before the engine
 * runs on, and hands the overflow to the callback the machine gave at
 * init.
 *
 * One line shared by all CPUs would lose interrupts: its flow handler
 * drops an interrupt raised while the line is being handled on another
 * CPU.  A CPU's lines are only ever raised on that CPU, by one run at a
 * time, so none is lost; should a handler still not run (a line the core
 * has disabled), the raise says so and the overflow is handed over
 * directly.  (Per-CPU-devid lines, one line with per-CPU handlers as Arm
 * PMUs' PPIs have, need core calls that are not exported to modules.)
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/interrupt.h>
#include <linux/irq.h>
#include <linux/irqdesc.h>
#include <linux/irqdomain.h>
#include <linux/percpu.h>
#include <linux/slab.h>

#include "vpmu_engine.h"
#include "vpmu_machine_irq.h"

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

/*
 * dev_id is the line.  A CPU's lines are only ever raised on that CPU,
 * where the stop being delivered is latched.
 */
static irqreturn_t vpmu_irq_handler(int virq, void *dev_id)
{
	struct vpmu_irq_line *line = dev_id;
	struct vpmu_irq_lines *irq = line->irq;
	struct vpmu_irq_cpu *ic = this_cpu_ptr(irq->cpu);

	ic->ran = true;
	if (!ic->stop)
		return IRQ_NONE;
	return irq->overflow(irq, ic->engine, line->idx, ic->stop);
}

/*
 * Raise counter @idx's overflow line on this CPU.  Return: 0 once the
 * line's handler has run, -EINVAL if the counter has no line, -EIO if
 * the handler did not run.
 */
static int vpmu_irq_raise(struct vpmu_irq_lines *irq, struct vpmu_irq_cpu *ic,
			  unsigned int idx)
{
	int ret;

	if (idx >= irq->nr_counters)
		return -EINVAL;
	ic->ran = false;
	ret = generic_handle_domain_irq(irq->domain,
					smp_processor_id() * irq->nr_counters +
					idx);
	if (ret)
		return ret;
	return ic->ran ? 0 : -EIO;
}

/**
 * vpmu_irq_deliver() - deliver an overflow stop as interrupts
 * @irq:	the lines
 * @e:		this CPU's engine, stopped
 * @stop:	the stop; with VPMU_STOP_OVERFLOW, @stop->ovf has the
 *		interrupting counters that wrapped on @stop->upc
 *
 * Called by the run loop with interrupts disabled, between the engine's
 * stop and the run going on: the engine's interrupt controller.  Every
 * counter with its overflow status bit set raises its own line (a
 * counting one's too, if it wrapped), whose handler runs before this
 * returns; a counter whose handler does not run (no line: a counter
 * beyond nr_counters) is handed to the overflow callback here.
 */
void vpmu_irq_deliver(struct vpmu_irq_lines *irq, struct vpmu_engine *e,
		      const struct vpmu_stop *stop)
{
	struct vpmu_irq_cpu *ic = this_cpu_ptr(irq->cpu);
	unsigned long status;
	unsigned int idx;

	lockdep_assert_irqs_disabled();
	ic->engine = e;
	ic->stop = stop;
	status = vpmu_engine_ovf_status(e) | stop->ovf;
	for_each_set_bit(idx, &status, VPMU_NR_COUNTERS_MAX) {
		if (vpmu_irq_raise(irq, ic, idx))
			irq->overflow(irq, e, idx, stop);
	}
	ic->engine = NULL;
	ic->stop = NULL;
}

/* Free hwirq @hw's line, if it is requested. */
static void vpmu_irq_line_free(struct vpmu_irq_lines *irq, unsigned int hw)
{
	struct vpmu_irq_line *line = &irq->line[hw];

	if (!line->virq)
		return;
	free_irq(line->virq, line);
	irq_dispose_mapping(line->virq);
	line->virq = 0;
}

/**
 * vpmu_irq_exit() - free the lines
 * @irq:	the lines
 *
 * Also undoes a vpmu_irq_init() that failed part-way.
 */
void vpmu_irq_exit(struct vpmu_irq_lines *irq)
{
	unsigned int i, n = irq->nr_counters * nr_cpu_ids;

	for (i = 0; irq->line && i < n; i++)
		vpmu_irq_line_free(irq, i);
	kfree(irq->line);
	irq->line = NULL;
	if (irq->domain)
		irq_domain_remove(irq->domain);
	irq->domain = NULL;
	if (irq->fwnode)
		irq_domain_free_fwnode(irq->fwnode);
	irq->fwnode = NULL;
	free_percpu(irq->cpu);
	irq->cpu = NULL;
}

/* Map hwirq @hw and request it for counter @idx. */
static int vpmu_irq_line(struct vpmu_irq_lines *irq, unsigned int hw,
			 unsigned int idx)
{
	struct vpmu_irq_line *line = &irq->line[hw];
	unsigned int virq;
	int ret;

	/*
	 * 0 on failure: the domain and @hw are valid and vpmu_irq_map()
	 * cannot fail, so what failed is allocating the descriptor.
	 */
	virq = irq_create_mapping(irq->domain, hw);
	if (!virq)
		return -ENOMEM;
	line->irq = irq;
	line->idx = idx;
	ret = request_irq(virq, vpmu_irq_handler,
			  IRQF_NO_THREAD | IRQF_NOBALANCING,
			  irq->names[idx], line);
	if (ret) {
		irq_dispose_mapping(virq);
		return ret;
	}
	line->virq = virq;
	return 0;
}

/**
 * vpmu_irq_init() - the domain of @nr_counters lines per possible CPU
 * @irq:	the lines, zeroed
 * @nr_counters: the engines' counters, 1..VPMU_NR_COUNTERS_MAX
 * @overflow:	what the lines' handlers call
 *
 * No line is requested here: vpmu_irq_cpu_prepare() requests a CPU's.
 *
 * Return: 0 or a negative errno.
 */
int vpmu_irq_init(struct vpmu_irq_lines *irq, unsigned int nr_counters,
		  vpmu_irq_overflow_fn overflow)
{
	unsigned int i, nr = nr_counters, n = nr * nr_cpu_ids;
	int ret = -ENOMEM;

	irq->nr_counters = nr_counters;
	irq->overflow = overflow;
	mutex_init(&irq->lock);
	irq->cpu = alloc_percpu(struct vpmu_irq_cpu);
	irq->line = kcalloc(n, sizeof(*irq->line), GFP_KERNEL);
	if (!irq->cpu || !irq->line)
		goto err;
	for (i = 0; i < nr; i++)
		snprintf(irq->names[i], sizeof(irq->names[i]), "vpmu-ctr%u",
			 i);
	irq->fwnode = irq_domain_alloc_named_fwnode("vpmu");
	if (!irq->fwnode)
		goto err;
	irq->domain = irq_domain_create_linear(irq->fwnode, n,
					       &vpmu_irq_domain_ops, NULL);
	if (!irq->domain)
		goto err;
	return 0;
err:
	pr_err("cannot set up the counters' interrupt lines: %d\n", ret);
	vpmu_irq_exit(irq);
	return ret;
}

/**
 * vpmu_irq_cpu_prepare() - request @cpu's lines, if not done yet
 * @irq:	the lines
 * @cpu:	a possible CPU
 *
 * Called before a run's chunk on @cpu (vpmu_machine_cpu_prepare()) until
 * the lines are there; run chunks wait for them (vpmu_irq_cpu_ready() in
 * vpmu_machine_engine_get()) so an engine never overflows without its
 * lines.  They stay until unload.
 *
 * Context: process context; may sleep.
 * Return: 0, or a negative errno with none of @cpu's lines left.
 */
int vpmu_irq_cpu_prepare(struct vpmu_irq_lines *irq, unsigned int cpu)
{
	struct vpmu_irq_cpu *ic = per_cpu_ptr(irq->cpu, cpu);
	unsigned int i, nr = irq->nr_counters;
	int ret = 0;

	mutex_lock(&irq->lock);
	if (ic->ready)
		goto out_unlock;
	for (i = 0; i < nr; i++) {
		ret = vpmu_irq_line(irq, cpu * nr + i, i);
		if (ret)
			break;
	}
	if (ret) {
		pr_err_ratelimited("cannot set up CPU %u's interrupt lines: %d\n",
				   cpu, ret);
		while (i--)
			vpmu_irq_line_free(irq, cpu * nr + i);
		goto out_unlock;
	}
	/* the lines before the flag: a chunk that sees it may raise them */
	smp_store_release(&ic->ready, true);
out_unlock:
	mutex_unlock(&irq->lock);
	return ret;
}

/**
 * vpmu_irq_cpu_ready() - are @cpu's lines requested?
 * @irq:	the lines
 * @cpu:	a possible CPU
 *
 * Once true, for good; a chunk on @cpu that sees it true may raise them.
 *
 * Context: any.
 * Return: whether vpmu_irq_cpu_prepare() has requested @cpu's lines.
 */
bool vpmu_irq_cpu_ready(struct vpmu_irq_lines *irq, unsigned int cpu)
{
	/* pairs with vpmu_irq_cpu_prepare()'s release: lines, then flag */
	return smp_load_acquire(&per_cpu_ptr(irq->cpu, cpu)->ready);
}
