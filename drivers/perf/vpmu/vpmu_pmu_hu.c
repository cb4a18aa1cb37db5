// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu_pmu_hu.c - perf glue: the "vpmu_hu" PMU, the histogram unit's
 * buckets as perf events.
 *
 * The histogram unit's buckets are not counters of the engine's: they
 * take none of its narrow counters, cannot overflow or sample, and are not
 * filtered by mode.  So they are a PMU of their own (as an uncore driver
 * registers one per kind of box), whose callbacks are all about buckets,
 * beside "vpmu", whose callbacks are all about counters.  attr.config is
 * the bucket, 1..16 (format/bucket, events/hist1..hist16).  The two PMUs'
 * events do not share groups (Documentation/admin-guide/perf/vpmu.rst,
 * "The vpmu_hu PMU").
 *
 * A bucket event reads bucket b of its CPU's engine as a free-running
 * 64-bit counter: hwc->prev_count holds the bucket as of the last fold.
 * Anything that changes the buckets other than counting (a program write,
 * a reset, attaching an image) folds every started bucket event of the
 * CPU first and rebases it after (vpmu_pmu_hu_fold(), _rebase()), so
 * counts only ever grow by what was counted.  Should a bucket still be
 * found below its start value, it was zeroed unseen: the count goes on
 * from 0.
 *
 * Serialisation is vpmu_pmu.c's: the callbacks run on the event's CPU with
 * interrupts disabled, as do the machine's fold and rebase calls.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/device.h>
#include <linux/list.h>
#include <linux/lockdep.h>
#include <linux/module.h>
#include <linux/perf_event.h>
#include <linux/percpu.h>
#include <linux/sysfs.h>

#include "vpmu_pmu_priv.h"

static inline struct vpmu *hu_to_vpmu(struct pmu *pmu)
{
	return container_of(pmu, struct vpmu, hu_pmu);
}

/* This CPU's engine and its bucket events, for a callback of @event. */
static struct vpmu_engine *vpmu_hu_engine(const struct perf_event *event)
{
	return vpmu_this_engine(&hu_to_vpmu(event->pmu)->machine);
}

static struct vpmu_pmu_cpu *vpmu_hu_cpuc(const struct perf_event *event)
{
	return this_cpu_ptr(hu_to_vpmu(event->pmu)->pmu_cpu);
}

/* Bucket hwc->config of this CPU's engine @e. */
static u64 vpmu_hu_bucket_now(struct vpmu *vpmu, struct vpmu_engine *e,
			      const struct perf_event *event)
{
	return vpmu_machine_hu_bucket(&vpmu->machine, e, event->hw.config);
}

/* ---- format/ and events/ ---------------------------------------------- */

/* attr.config is the bucket, 1..VPMU_HU_BUCKETS: no other bit is set. */
static ssize_t bucket_show(struct device *dev, struct device_attribute *attr,
			   char *buf)
{
	return sysfs_emit(buf, "config:0-7\n");
}
static DEVICE_ATTR_RO(bucket);

static struct attribute *vpmu_hu_format_attrs[] = {
	&dev_attr_bucket.attr,
	NULL,
};

static const struct attribute_group vpmu_hu_format_group = {
	.name	= "format",
	.attrs	= vpmu_hu_format_attrs,
};

/* events/histB: "bucket=B". */
#define VPMU_HU_ALIAS(b)						\
	PMU_EVENT_ATTR_STRING(hist##b, vpmu_hu_event_##b, "bucket=" #b)

VPMU_HU_ALIAS(1);
VPMU_HU_ALIAS(2);
VPMU_HU_ALIAS(3);
VPMU_HU_ALIAS(4);
VPMU_HU_ALIAS(5);
VPMU_HU_ALIAS(6);
VPMU_HU_ALIAS(7);
VPMU_HU_ALIAS(8);
VPMU_HU_ALIAS(9);
VPMU_HU_ALIAS(10);
VPMU_HU_ALIAS(11);
VPMU_HU_ALIAS(12);
VPMU_HU_ALIAS(13);
VPMU_HU_ALIAS(14);
VPMU_HU_ALIAS(15);
VPMU_HU_ALIAS(16);

#define VPMU_HU_ALIAS_PTR(b)	(&vpmu_hu_event_##b.attr.attr)

static struct attribute *vpmu_hu_event_attrs[] = {
	VPMU_HU_ALIAS_PTR(1), VPMU_HU_ALIAS_PTR(2), VPMU_HU_ALIAS_PTR(3),
	VPMU_HU_ALIAS_PTR(4), VPMU_HU_ALIAS_PTR(5), VPMU_HU_ALIAS_PTR(6),
	VPMU_HU_ALIAS_PTR(7), VPMU_HU_ALIAS_PTR(8), VPMU_HU_ALIAS_PTR(9),
	VPMU_HU_ALIAS_PTR(10), VPMU_HU_ALIAS_PTR(11), VPMU_HU_ALIAS_PTR(12),
	VPMU_HU_ALIAS_PTR(13), VPMU_HU_ALIAS_PTR(14), VPMU_HU_ALIAS_PTR(15),
	VPMU_HU_ALIAS_PTR(16),
	NULL,
};

static const struct attribute_group vpmu_hu_events_group = {
	.name	= "events",
	.attrs	= vpmu_hu_event_attrs,
};

static const struct attribute_group *vpmu_hu_attr_groups[] = {
	&vpmu_hu_format_group,
	&vpmu_hu_events_group,
	NULL,
};

/* ---- the perf callbacks ------------------------------------------------- */

/*
 * A bucket event counts what its CPU's engine puts in bucket @config of
 * the program in force: one the program has (new opens; an inherited
 * copy is its original, as in vpmu_now_check()).
 */
static int vpmu_hu_event_init(struct perf_event *event)
{
	struct perf_event_attr *attr = &event->attr;
	struct vpmu *vpmu = hu_to_vpmu(event->pmu);
	u64 b = attr->config;

	if (attr->type != event->pmu->type)
		return -ENOENT;
	/* A bucket has no overflow to sample on, nor a mode filter. */
	if (is_sampling_event(event) || has_branch_stack(event) ||
	    attr->exclude_user || attr->exclude_kernel || attr->exclude_host)
		return -EOPNOTSUPP;
	if (attr->config1 || attr->config2 || VPMU_ATTR_CONFIG3(attr) ||
	    VPMU_ATTR_CONFIG4(attr))
		return -EINVAL;
	if (b < 1 || b > VPMU_HU_BUCKETS)
		return -EINVAL;
	if (vpmu_leader_refused(event, &vpmu->pmu))
		return -EINVAL;
	if (vpmu_leader_detached(event))
		return -ENODEV;
	if (!event->parent && b > vpmu_machine_hu_nr(&vpmu->machine))
		return -EINVAL;

	event->hw.idx = -1;
	event->hw.config = b;
	return 0;
}

/* Fold a started bucket event's count in; on its CPU, interrupts off. */
static void vpmu_hu_event_update(struct vpmu *vpmu, struct vpmu_engine *e,
				 struct perf_event *event)
{
	struct hw_perf_event *hwc = &event->hw;
	u64 prev = local64_read(&hwc->prev_count);
	u64 now = vpmu_hu_bucket_now(vpmu, e, event);

	local64_set(&hwc->prev_count, now);
	local64_add(now >= prev ? now - prev : now, &event->count);
}

static void vpmu_hu_start(struct perf_event *event, int flags)
{
	struct hw_perf_event *hwc = &event->hw;

	if (WARN_ON_ONCE(!(hwc->state & PERF_HES_STOPPED)))
		return;
	hwc->state = 0;
	local64_set(&hwc->prev_count,
		    vpmu_hu_bucket_now(hu_to_vpmu(event->pmu),
				       vpmu_hu_engine(event), event));
	list_add_tail(&event->active_entry, &vpmu_hu_cpuc(event)->hu_active);
	perf_event_update_userpage(event);
}

static void vpmu_hu_stop(struct perf_event *event, int flags)
{
	struct hw_perf_event *hwc = &event->hw;

	if (!(hwc->state & PERF_HES_STOPPED)) {
		vpmu_hu_event_update(hu_to_vpmu(event->pmu),
				     vpmu_hu_engine(event), event);
		list_del_init(&event->active_entry);
		hwc->state |= PERF_HES_STOPPED | PERF_HES_UPTODATE;
	}
}

/* A bucket takes no counter: there is always room for it. */
static int vpmu_hu_add(struct perf_event *event, int flags)
{
	event->hw.state = PERF_HES_STOPPED | PERF_HES_UPTODATE;
	if (flags & PERF_EF_START)
		vpmu_hu_start(event, PERF_EF_RELOAD);
	perf_event_update_userpage(event);
	return 0;
}

static void vpmu_hu_del(struct perf_event *event, int flags)
{
	vpmu_hu_stop(event, PERF_EF_UPDATE);
	perf_event_update_userpage(event);
}

/* As vpmu_read(): not from an NMI, which can land inside a run chunk. */
static void vpmu_hu_read(struct perf_event *event)
{
	if (in_nmi() || (event->hw.state & PERF_HES_STOPPED))
		return;
	vpmu_hu_event_update(hu_to_vpmu(event->pmu), vpmu_hu_engine(event),
			     event);
}

/* ---- what the machine calls ------------------------------------------- */

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
	struct vpmu *vpmu = machine_to_vpmu(m);
	struct vpmu_pmu_cpu *cpuc = this_cpu_ptr(vpmu->pmu_cpu);
	struct perf_event *event;

	lockdep_assert_irqs_disabled();
	list_for_each_entry(event, &cpuc->hu_active, active_entry)
		vpmu_hu_event_update(vpmu, e, event);
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
	struct vpmu *vpmu = machine_to_vpmu(m);
	struct vpmu_pmu_cpu *cpuc = this_cpu_ptr(vpmu->pmu_cpu);
	struct perf_event *event;

	lockdep_assert_irqs_disabled();
	list_for_each_entry(event, &cpuc->hu_active, active_entry)
		local64_set(&event->hw.prev_count,
			    vpmu_hu_bucket_now(vpmu, e, event));
}

/* ---- registration ------------------------------------------------------- */

/**
 * vpmu_hu_pmu_register() - register the "vpmu_hu" PMU
 * @vpmu: the device, its pmu_cpu allocated
 *
 * Return: 0 or a negative errno.
 */
int vpmu_hu_pmu_register(struct vpmu *vpmu)
{
	struct pmu *pmu = &vpmu->hu_pmu;
	int ret;

	pmu->module = THIS_MODULE;
	pmu->task_ctx_nr = VPMU_TASK_CTX;
	pmu->capabilities = PERF_PMU_CAP_NO_INTERRUPT;
	pmu->attr_groups = vpmu_hu_attr_groups;
	pmu->event_init = vpmu_hu_event_init;
	pmu->add = vpmu_hu_add;
	pmu->del = vpmu_hu_del;
	pmu->start = vpmu_hu_start;
	pmu->stop = vpmu_hu_stop;
	pmu->read = vpmu_hu_read;
	ret = perf_pmu_register(pmu, "vpmu_hu", -1);
	if (ret)
		pr_err("perf_pmu_register of vpmu_hu failed: %d\n", ret);
	return ret;
}

/**
 * vpmu_hu_pmu_unregister() - unregister the "vpmu_hu" PMU
 * @vpmu: the device; no event is open (the module is unused)
 */
void vpmu_hu_pmu_unregister(struct vpmu *vpmu)
{
	perf_pmu_unregister(&vpmu->hu_pmu);
}
