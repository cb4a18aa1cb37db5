// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu_pmu_hu.c - perf glue: histogram-unit bucket events.
 *
 * Events event=0x201..0x210 take no counter: they read the engine's
 * 64-bit bucket as a free-running counter, under vpmu_pmu.c's
 * serialisation.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/list.h>
#include <linux/lockdep.h>
#include <linux/perf_event.h>
#include <linux/percpu.h>

#include "vpmu_pmu_priv.h"

/*
 * A bucket event reads bucket b of its CPU's engine as a free-running
 * 64-bit counter: hwc->prev_count holds the bucket as of the last fold.
 * Anything that changes the buckets other than counting (a program write,
 * a reset, attaching an image) folds every started bucket event of the
 * CPU first and rebases it after (vpmu_pmu_hu_fold(), _rebase()), so
 * counts only ever grow by what was counted.  Should a bucket still be
 * found below its start value, it was zeroed unseen: the count goes on
 * from 0.
 */

/**
 * vpmu_hu_event_init() - event_init of a bucket event
 * @event:	the event
 * @ev:		its engine event number, a bucket's
 *
 * Return: 0, -EINVAL or -EOPNOTSUPP.
 */
int vpmu_hu_event_init(struct perf_event *event, unsigned int ev)
{
	struct perf_event_attr *attr = &event->attr;

	/* The bucket is the counter: it cannot take one of the narrow ones. */
	if (VPMU_CFG_GET(attr->config, CTR) ||
	    attr->config & VPMU_CFG_SAMPLE_UPC)
		return -EINVAL;
	/* A bucket has no overflow to sample on, nor a mode filter. */
	if (is_sampling_event(event) || attr->exclude_user ||
	    attr->exclude_kernel)
		return -EOPNOTSUPP;
	return 0;
}

/**
 * vpmu_hu_event_update() - fold a started bucket event's count in
 * @e:		this CPU's engine
 * @event:	the event
 *
 * Context: on the event's CPU with interrupts disabled.
 */
void vpmu_hu_event_update(struct vpmu_engine *e, struct perf_event *event)
{
	struct hw_perf_event *hwc = &event->hw;
	u64 prev = local64_read(&hwc->prev_count);
	u64 now = vpmu_machine_hu_bucket(vpmu_event_machine(event), e,
					 hwc->config - VPMU_EV_HU_BASE);

	local64_set(&hwc->prev_count, now);
	local64_add(now >= prev ? now - prev : now, &event->count);
}

/**
 * vpmu_hu_event_start() - pmu::start of a bucket event
 * @event:	the event
 * @flags:	PERF_EF_*
 */
void vpmu_hu_event_start(struct perf_event *event, int flags)
{
	struct vpmu_pmu_cpu *cpuc = vpmu_event_cpuc(event);
	struct vpmu_machine *m = vpmu_event_machine(event);
	struct vpmu_engine *e = vpmu_this_engine(m);
	struct hw_perf_event *hwc = &event->hw;

	if (WARN_ON_ONCE(!(hwc->state & PERF_HES_STOPPED)))
		return;
	hwc->state = 0;
	local64_set(&hwc->prev_count,
		    vpmu_machine_hu_bucket(m, e,
					   hwc->config - VPMU_EV_HU_BASE));
	list_add_tail(&event->active_entry, &cpuc->hu_active);
	perf_event_update_userpage(event);
}

/**
 * vpmu_hu_event_stop() - pmu::stop of a bucket event
 * @event:	the event
 * @flags:	PERF_EF_*
 */
void vpmu_hu_event_stop(struct perf_event *event, int flags)
{
	struct hw_perf_event *hwc = &event->hw;

	if (!(hwc->state & PERF_HES_STOPPED)) {
		vpmu_hu_event_update(vpmu_event_engine(event), event);
		list_del_init(&event->active_entry);
		hwc->state |= PERF_HES_STOPPED | PERF_HES_UPTODATE;
	}
}

/**
 * vpmu_hu_event_add() - pmu::add of a bucket event: it takes no counter
 * @event:	the event
 * @flags:	PERF_EF_*
 *
 * Return: 0.
 */
int vpmu_hu_event_add(struct perf_event *event, int flags)
{
	event->hw.idx = -1;
	event->hw.state = PERF_HES_STOPPED | PERF_HES_UPTODATE;
	if (flags & PERF_EF_START)
		vpmu_hu_event_start(event, PERF_EF_RELOAD);
	perf_event_update_userpage(event);
	return 0;
}

/**
 * vpmu_pmu_hu_fold() - fold this CPU's started bucket events
 * @m:	the machine
 * @e:	this CPU's engine, whose buckets are about to change
 *
 * The machine's ops->hu_fold.
 *
 * Context: interrupts disabled, on the engine's CPU.
 */
void vpmu_pmu_hu_fold(struct vpmu_machine *m, struct vpmu_engine *e)
{
	struct vpmu_pmu_cpu *cpuc = this_cpu_ptr(machine_to_vpmu(m)->pmu_cpu);
	struct perf_event *event;

	lockdep_assert_irqs_disabled();
	list_for_each_entry(event, &cpuc->hu_active, active_entry)
		vpmu_hu_event_update(e, event);
}

/**
 * vpmu_pmu_hu_rebase() - restart this CPU's started bucket events
 * @m:	the machine
 * @e:	this CPU's engine, whose buckets have changed
 *
 * The machine's ops->hu_rebase.
 *
 * Context: interrupts disabled, on the engine's CPU.
 */
void vpmu_pmu_hu_rebase(struct vpmu_machine *m, struct vpmu_engine *e)
{
	struct vpmu_pmu_cpu *cpuc = this_cpu_ptr(machine_to_vpmu(m)->pmu_cpu);
	struct perf_event *event;

	lockdep_assert_irqs_disabled();
	list_for_each_entry(event, &cpuc->hu_active, active_entry)
		local64_set(&event->hw.prev_count,
			    vpmu_machine_hu_bucket(m, e,
						   event->hw.config -
						   VPMU_EV_HU_BASE));
}
